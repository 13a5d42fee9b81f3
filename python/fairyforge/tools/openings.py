"""Openings for studies and matches: lists read from EPD or PGN files, fair
random lines (seeded random plies, each kept only when a shallow search
finds it no worse than the best move by more than a window), the opening
tree of a set of games, and books made by shallow MultiPV searches.

>>> line = fair_line(FairLine("chess", {}, None, (), plies=4, seed="1/0/0"))
>>> len(line.moves), fairyforge.Board("chess").variation_san(list(line.moves)).count(".")
(4, 2)

The window: for each random ply, the legal moves are shuffled (seeded) and
tried in turn; a move is kept when a ``nodes``-node search of the position
after it scores it, from the mover's view, no more than ``window``
centipawns below a search of the position before it (the best move's
score). Moves that end the game are never kept. When none of the first
:data:`TRIES` moves is within the window, the best of them is played. The
score is compared with the best move rather than with 0 so that starts that
are uneven on purpose (piece odds, or a variant whose side to move stands
worse, as Burden's start does at a shallow depth) keep their balance.
"""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import fairyforge
from fairyforge import pgn
from fairyforge.tools import jobs, players

log = logging.getLogger("fairyforge.jobs")

#: Moves tried per random ply before the best of them is taken.
TRIES = 8

#: Attempts at a line of its own for a game before a repeated opening is
#: accepted (with a warning): only tiny boards run out of openings.
ATTEMPTS = 50

#: Centipawns standing for a mate in the window's arithmetic.
MATE_CP = 100_000

#: The searcher of the window: a small table, cleared before each search
#: so that every worker scores a position alike.
CHECKER = players.Player("opening-window", hash_mb=1)


class OpeningFileError(ValueError):
    """An openings file that cannot be used: malformed, empty, of another
    variant, or with a position or move the variant rejects."""


@dataclass(frozen=True)
class Opening:
    """A start for a game: a position (None: the variant's start) and the
    moves (UCI) played from it. ``source`` says where it was read from."""

    fen: str | None = None
    moves: tuple[str, ...] = ()
    source: str = field(default="", compare=False)

    def board(self, variant: str, options: dict | None = None) -> fairyforge.Board:
        """The position after the opening, on a board of ``variant``."""
        board = fairyforge.Board(variant, self.fen, **(options or {}))
        for move in self.moves:
            board.push_uci(move)
        return board


def position_key(board: fairyforge.Board) -> str:
    """What makes two openings the same: placement, side to move, castling
    and en passant (the clocks left out)."""
    return " ".join(board.fen().split()[:4])


# --------------------------------------------------------------------------
# Files


def read(path: str | os.PathLike[str], variant: str, options: dict | None = None) -> list[Opening]:
    """The openings of an EPD/FEN file (one position a line, ``#`` comments)
    or a PGN file (each game's start and main line; ``.pgn``, or text that
    starts with a tag), checked against ``variant`` and its ``options``.
    Raises :class:`OpeningFileError` naming the line or game at fault."""
    p = jobs.input_file(path, "--openings")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise OpeningFileError(f"{p}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    if p.suffix.lower() == ".pgn" or text.lstrip().startswith("["):
        found = list(_read_pgn(p, variant))
    else:
        found = list(_read_epd(p, text))
    if not found:
        raise OpeningFileError(f"{p}: no openings in the file")
    check(found, variant, options)
    return found


def _read_epd(path: Path, text: str) -> Iterator[Opening]:
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{path} line {number}"
        fields = line.split()
        if len(fields) < 4:
            raise OpeningFileError(
                f"{where}: expected a FEN or an EPD record (at least 4 fields), got {line!r}"
            )
        if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
            fen = " ".join(fields[:6])
        else:
            ops = _epd_operations(" ".join(fields[4:]))
            fen = " ".join(fields[:4] + [ops.get("hmvc", "0"), ops.get("fmvn", "1")])
        yield Opening(fen, (), where)


def _epd_operations(text: str) -> dict[str, str]:
    """EPD operations ``opcode operand;`` as a dict (quotes removed)."""
    ops = {}
    for op in text.split(";"):
        code, _, operand = op.strip().partition(" ")
        if code:
            ops[code] = operand.strip().strip('"')
    return ops


def _read_pgn(path: Path, variant: str) -> Iterator[Opening]:
    try:
        for number, game in enumerate(pgn.iter_games(path), 1):
            name = pgn.variant_name(game.headers.get("Variant"))
            if name != variant:
                raise OpeningFileError(
                    f"{path} game {number}: variant {name!r}, not the {variant!r} asked for"
                )
            moves = tuple(m.uci() for m in game.mainline_moves())
            yield Opening(game.headers.get("FEN"), moves, f"{path} game {number}")
    except pgn.PgnError as e:
        raise OpeningFileError(f"{path}: {e}") from None


def check(openings: Iterable[Opening], variant: str, options: dict | None = None) -> None:
    """Raise :class:`OpeningFileError` unless every opening is a position of
    ``variant`` with ``options`` whose moves are legal and that is not
    over."""
    for opening in openings:
        try:
            board = opening.board(variant, options)
        except ValueError as e:
            raise OpeningFileError(f"{opening.source or 'opening'}: {e}") from None
        if board.is_game_over(claim_draw=True):
            raise OpeningFileError(
                f"{opening.source or 'opening'}: the game is already over in {board.fen()}"
            )


def write(
    path: str | os.PathLike[str],
    openings: Sequence[Opening],
    variant: str,
    options: dict | None = None,
) -> None:
    """Write openings as EPD (``.epd``: the position after each, its clocks
    as ``hmvc`` and ``fmvn``, its moves in a ``c0`` comment) or PGN (any
    other name: a game a line, with ``Variant``, ``VariantOptions`` and
    ``FEN`` tags). Either is readable by :func:`read`."""
    p = Path(path)
    jobs.output_file(p, "--out")
    temporary = p.with_name(p.name + ".tmp")
    if p.suffix.lower() == ".epd":
        lines = []
        for opening in openings:
            board = opening.board(variant, options)
            fields = board.fen().split()
            epd = " ".join(fields[:4])
            moves = " ".join(opening.moves)
            lines.append(f'{epd} hmvc {fields[4]}; fmvn {fields[5]}; c0 "{moves}";\n')
        temporary.write_text("".join(lines), encoding="utf-8")
    else:
        temporary.unlink(missing_ok=True)
        temporary.touch()
        games = []
        for number, opening in enumerate(openings, 1):
            game = pgn.Game({"Event": "fairyforge openings", "Round": str(number)})
            game.setup(fairyforge.Board(variant, opening.fen, **(options or {})))
            game.add_line(opening.moves)
            games.append(game)
        pgn.write_games(temporary, games)
    temporary.replace(p)


# --------------------------------------------------------------------------
# Fair random lines


@dataclass(frozen=True)
class FairLine:
    """How to make one fair line: the variant and options, the start (``fen``
    and the ``book`` moves played first), how many random ``plies`` follow,
    the ``seed`` of their choice, the ``window`` in centipawns and the
    ``nodes`` of each window search."""

    variant: str
    options: dict
    fen: str | None
    book: tuple[str, ...]
    plies: int
    seed: str
    window: int = 100
    nodes: int = 1000


@dataclass(frozen=True)
class Line:
    """A fair line made: the moves (book first) and the key of the position
    they reach."""

    moves: tuple[str, ...]
    key: str


def _score(engine: Any, board: fairyforge.Board, nodes: int) -> int:
    """Centipawns from the side to move's view (mates as :data:`MATE_CP`)."""
    engine.new_game()
    result = engine.search(board, nodes=nodes)
    score = result.score
    if score.mate is not None:
        return MATE_CP if score.mate > 0 else -MATE_CP
    return score.cp or 0


def fair_line(task: FairLine) -> Line:
    """The book moves, then ``task.plies`` seeded random plies, each within
    the window (see the module's notes); fewer when the game ends first."""
    board = fairyforge.Board(task.variant, task.fen, **task.options)
    for move in task.book:
        board.push_uci(move)
    rng = random.Random(task.seed)
    engine = players.engine(CHECKER, board)
    for _ in range(task.plies):
        if board.is_game_over(claim_draw=True):
            break
        best = _score(engine, board, task.nodes)
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        rng.shuffle(moves)
        chosen, fallback = None, None
        for move in moves[:TRIES]:
            board.push(move)
            over = board.is_game_over(claim_draw=True)
            score = None if over else -_score(engine, board, task.nodes)
            board.pop()
            if score is None:
                continue
            if score >= best - task.window:
                chosen = move
                break
            if fallback is None or score > fallback[0]:
                fallback = (score, move)
        if chosen is None and fallback is not None:
            chosen = fallback[1]
        if chosen is None:
            break
        board.push(chosen)
    return Line(tuple(m.uci() for m in board.move_stack), position_key(board))


class Distinct:
    """Gives games their lines, no two reaching the same position: game i
    gets its first attempt (``make(i, attempt)``) whose position no game
    before it has. So every game's line depends on the seed and its index
    only, however the games were split between runs. ``taken``: the
    positions of games already played, by index; ``todo``: the indices to
    give lines to. Lines of first attempts are passed to :meth:`add` as
    they are made (on any worker, in any order); the rare repeats are made
    again here."""

    def __init__(
        self, make: Callable[[int, int], FairLine], todo: Iterable[int], taken: dict[int, str]
    ):
        self._make = make
        self._taken = taken
        self._order = sorted(set(todo) | set(taken))
        self._position = 0
        self._first: dict[int, Line] = {}
        self._seen: set[str] = set()

    def add(self, index: int, line: Line) -> list[tuple[int, Line]]:
        """Take game ``index``'s first attempt; return the games whose line
        is now settled (every game before them settled too), in order."""
        self._first[index] = line
        settled = []
        while self._position < len(self._order):
            i = self._order[self._position]
            if i in self._taken:
                self._seen.add(self._taken[i])
            elif i in self._first:
                settled.append((i, self._settle(i, self._first.pop(i))))
            else:
                break
            self._position += 1
        return settled

    def _settle(self, index: int, line: Line) -> Line:
        attempt = 0
        while line.key in self._seen and attempt < ATTEMPTS:
            attempt += 1
            line = fair_line(self._make(index, attempt))
        if line.key in self._seen:
            log.warning(
                "game %d: no opening of its own after %d attempts, one repeats", index, attempt
            )
        self._seen.add(line.key)
        return line


# --------------------------------------------------------------------------
# Opening trees


@dataclass
class Node:
    """A move of the opening tree: games through it, White's points in them,
    and the moves after it (UCI keys, most played first when listed)."""

    games: int = 0
    white_points: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)

    @property
    def score(self) -> float:
        """White's score in the games through this node."""
        return self.white_points / self.games if self.games else 0.5


POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def tree(records: Iterable[dict], plies: int) -> dict[str | None, Node]:
    """The opening trees of game records (``moves``, ``result``, ``fen``)
    to ``plies`` plies: one root per start position (None: the variant's
    start)."""
    roots: dict[str | None, Node] = {}
    for record in records:
        if record.get("result") not in POINTS:
            continue
        points = POINTS[record["result"]]
        node = roots.setdefault(record.get("fen"), Node())
        node.games += 1
        node.white_points += points
        for move in record["moves"][:plies]:
            node = node.children.setdefault(move, Node())
            node.games += 1
            node.white_points += points
    return roots


def tree_lines(
    root: Node, fen: str | None, *, min_games: int = 1, plies: int | None = None
) -> list[Opening]:
    """The lines of a tree as openings: each path of nodes with at least
    ``min_games`` games, ending where it stops branching on (or at
    ``plies``), most played first."""
    out: list[tuple[int, Opening]] = []

    def walk(node: Node, line: tuple[str, ...]) -> None:
        kept = [(m, c) for m, c in node.children.items() if c.games >= min_games]
        if not kept or (plies is not None and len(line) >= plies):
            if line:
                out.append((node.games, Opening(fen, line)))
            return
        for move, child in sorted(kept, key=lambda mc: -mc[1].games):
            walk(child, (*line, move))

    walk(root, ())
    return [opening for _, opening in sorted(out, key=lambda pair: -pair[0])]


# --------------------------------------------------------------------------
# Books from MultiPV searches


@dataclass(frozen=True)
class Expand:
    """One position of a book to expand: its line, and how to search it."""

    variant: str
    options: dict
    fen: str | None
    moves: tuple[str, ...]
    multipv: int
    depth: int
    window: int


def expand(task: Expand) -> list[tuple[str, ...]]:
    """The lines one ply longer: the moves of a ``multipv`` search to
    ``depth`` within ``window`` centipawns of the best one (none when the
    game is over)."""
    board = Opening(task.fen, task.moves).board(task.variant, task.options)
    if board.is_game_over(claim_draw=True):
        return []
    results = board.search(depth=task.depth, multipv=task.multipv, hash_mb=4)
    assert isinstance(results, list)
    best = _cp(results[0].score)
    return [
        (*task.moves, r.best_move.uci())
        for r in results
        if r.best_move is not None and _cp(r.score) >= best - task.window
    ]


def _cp(score: fairyforge.Score) -> int:
    if score.mate is not None:
        return MATE_CP if score.mate > 0 else -MATE_CP
    return score.cp or 0


def book(
    variant: str,
    options: dict | None = None,
    *,
    fen: str | None = None,
    plies: int = 4,
    multipv: int = 3,
    depth: int = 4,
    window: int = 50,
    executor: Any = None,
    workers: int | None = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[Opening]:
    """A book of ``plies``-ply lines: from the start, every move of a
    ``multipv`` search to ``depth`` that is within ``window`` centipawns of
    the best, ply after ply; transpositions are kept once (the first line
    to reach a position, in move order). ``progress(done, total)`` after
    each search."""
    options = dict(options or {})
    Opening(fen).board(variant, options)  # raises for a bad variant, option or FEN
    frontier: list[tuple[str, ...]] = [()]
    for _ in range(plies):
        tasks = [Expand(variant, options, fen, line, multipv, depth, window) for line in frontier]
        grown: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
        for done, (task, lines) in enumerate(
            jobs.execute(expand, tasks, executor=executor, workers=workers), 1
        ):
            grown[task.moves] = lines
            if progress:
                progress(done, len(tasks))
        seen: set[str] = set()
        frontier = []
        for line in sorted(child for children in grown.values() for child in children):
            key = position_key(Opening(fen, line).board(variant, options))
            if key not in seen:
                seen.add(key)
                frontier.append(line)
    return [Opening(fen, line) for line in frontier]
