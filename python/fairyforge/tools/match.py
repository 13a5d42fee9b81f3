"""Engine matches: two players -- fairyforge's own search configurations or
any UCI engine -- play each other from varied openings, refereed by
:class:`fairyforge.Board`, on a local process pool by default or on a Dask
cluster when a ``dask.distributed.Client`` is given. Each finished game is
appended at once to a JSON-lines file and to a PGN file beside it, so an
interrupted match resumes where it stopped; the settings are stored with
the output, and a rerun with other settings is refused.

>>> a = Player("full", nodes=2000)
>>> b = Player("material-1ply", depth=1, eval="material", plain=True)
>>> games = [Pairing("chess", {}, 0, a, b, seed=7, opening_plies=2, max_plies=20)]
>>> record = play(games[0])
>>> record["result"] in ("1-0", "0-1", "1/2-1/2")
True

The referee: a move is legal when ``fairyforge.Board`` says so; an illegal
or missing move (``bestmove (none)`` while moves exist), a crash, or a time
forfeit loses the game for the engine that made it. Under a clock
(``tc``) a move that takes more than the time left plus ``grace_ms``
(wall clock, measured from sending ``go`` to the ``bestmove`` line) loses
on time; with a fixed ``movetime`` the same holds for the move time; the
clock is then charged the time used and credited the increment.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import os
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import fairyforge
from fairyforge import pgn
from fairyforge.tools import players, pool
from fairyforge.tools import sprt as sprtmod
from fairyforge.tools.clock import TimeControl, format_clock
from fairyforge.tools.players import Player
from fairyforge.tools.sprt import Sprt
from fairyforge.tools.uci_client import EngineCrashed, EngineTimeout

if TYPE_CHECKING:
    from fairyforge.tools.openings import Opening

__all__ = [
    "GRACE_MS",
    "Pairing",
    "Player",
    "Score",
    "game_pgn",
    "opening",
    "pairings",
    "play",
    "plot",
    "run",
    "score",
    "settings",
    "summary",
]

#: Milliseconds a move may overrun the time left before it loses on time:
#: room for the pipe, the process scheduler and the referee's own reading.
GRACE_MS = 100

#: How a game ended beyond the rules: the record's ``termination`` and the
#: PGN ``Termination`` tag (the standard's words) for each.
REFEREE_TERMINATIONS = {
    "time_forfeit": "time forfeit",
    "illegal_move": "rules infraction",
    "crash": "abandoned",
    "max_plies": "adjudication",
}


@dataclass(frozen=True)
class Pairing:
    """One game to play: variant, options, index, the two players (``white``
    plays White), the opening seed and plies, the adjudication length, and
    optionally a start FEN, a clock (``tc``), the referee's grace and a
    ``book``: opening moves (UCI) played from the start instead of the
    seeded random plies."""

    variant: str
    options: dict = field(default_factory=dict)
    index: int = 0
    white: Player = Player("white", nodes=1000)
    black: Player = Player("black", nodes=1000)
    seed: int = 0
    opening_plies: int = 4
    max_plies: int = 200
    fen: str | None = None
    tc: TimeControl | None = None
    grace_ms: int = GRACE_MS
    book: tuple[str, ...] = ()


def opening(board: fairyforge.Board, seed: int, plies: int) -> None:
    """Play ``plies`` random legal moves (seeded) to vary the start."""
    rng = random.Random(seed)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            return
        board.push(rng.choice(moves))


@dataclass
class _Game:
    """A game in progress: what the record will hold."""

    board: fairyforge.Board
    clock: list[int] | None
    times_ms: list[float] = field(default_factory=list)
    clocks_ms: list[int] = field(default_factory=list)
    evals: list[str | None] = field(default_factory=list)
    termination: str | None = None
    detail: str | None = None
    offender: str | None = None

    def forfeit(self, termination: str, player: Player, detail: str) -> None:
        self.termination, self.offender, self.detail = termination, player.name, detail


def _eval(reply: players.Reply) -> str | None:
    """``score/depth`` text of a reply, from the mover's point of view."""
    if reply.score is None:
        return None
    kind, _, value = reply.score.partition(" ")
    text = f"#{value}" if kind == "mate" else f"{int(value) / 100:+.2f}"
    return f"{text}/{reply.depth}" if reply.depth is not None else text


def _move(p: Pairing, game: _Game, player: Player) -> bool:
    """Let ``player`` move; False when that ended the game (a forfeit)."""
    board = game.board
    side = board.turn
    clock = (game.clock[0], game.clock[1]) if game.clock is not None else None
    try:
        reply = players.think(player, board, clock, p.tc, grace_ms=p.grace_ms)
    except EngineCrashed as e:
        players.discard(player)
        game.forfeit("crash", player, str(e))
        return False
    except EngineTimeout:
        players.discard(player)
        if clock is not None:
            waited = f"{clock[0 if side else 1]} ms left and {p.grace_ms} ms grace"
        else:
            waited = f"its move time and {players.HANG_SECONDS:g} s"
        game.forfeit("time_forfeit", player, f"{player.name} lost on time: no move in {waited}")
        return False
    used = reply.elapsed * 1000
    game.times_ms.append(round(used, 1))
    allowed = clock[0 if side else 1] if clock is not None else player.movetime
    if allowed is not None and used > allowed + p.grace_ms:
        game.forfeit(
            "time_forfeit",
            player,
            f"{player.name} lost on time: {used:.0f} ms used, {allowed} ms allowed",
        )
        return False
    if reply.move is None or not board.is_legal(reply.move):
        text = "no move" if reply.move is None else f"illegal move {reply.move!r}"
        game.forfeit("illegal_move", player, f"{player.name} played {text} in {board.fen()}")
        return False
    board.push(reply.move)
    if game.clock is not None and p.tc is not None:
        i = 0 if side else 1
        game.clock[i] = max(game.clock[i] - round(used), 0) + p.tc.increment_ms
        game.clocks_ms.append(game.clock[i])
    game.evals.append(_eval(reply))
    return True


def _new_game(player: Player, board: fairyforge.Board) -> bool:
    """Start a game on the player's engine, replacing an engine that fails
    once; False when the replacement fails too."""
    for _ in range(2):
        try:
            players.new_game(player, board)
            return True
        except (EngineCrashed, EngineTimeout):
            players.discard(player)
    return False


def play(p: Pairing) -> dict:
    """Play one game and return its record (a JSON-serialisable dict)."""
    board = fairyforge.Board(p.variant, p.fen, **p.options)
    if p.book:
        for move in p.book:
            board.push_uci(move)
    else:
        opening(board, p.seed, p.opening_plies)
    book = len(board.move_stack)
    base = p.tc.base_ms if p.tc is not None else None
    game = _Game(board, [base, base] if base is not None else None)
    for player in (p.white, p.black):
        if game.offender is None and not _new_game(player, board):
            game.forfeit("crash", player, f"{player.name} failed to start a new game twice")
    while game.offender is None:
        if board.is_game_over(claim_draw=True):
            break
        if len(board.move_stack) >= p.max_plies:
            game.termination = "max_plies"
            break
        if not _move(p, game, p.white if board.turn else p.black):
            break
    outcome = board.outcome(claim_draw=True)
    if game.offender is not None:
        result = "0-1" if game.offender == p.white.name else "1-0"
    else:
        result = outcome.result() if outcome else "1/2-1/2"
    return {
        "index": p.index,
        "variant": p.variant,
        "options": p.options,
        "fen": p.fen,
        "white": p.white.name,
        "black": p.black.name,
        "result": result,
        "termination": game.termination or (outcome.termination.value if outcome else "max_plies"),
        "detail": game.detail,
        "offender": game.offender,
        "tc": str(p.tc) if p.tc is not None else None,
        "opening_plies": book,
        "moves": [m.uci() for m in board.move_stack],
        "times_ms": game.times_ms,
        "clocks_ms": game.clocks_ms if p.tc is not None else None,
        "evals": game.evals,
        "date": datetime.date.today().strftime("%Y.%m.%d"),
    }


def game_pgn(record: dict) -> pgn.Game:
    """The PGN game of a record: the seven tags, ``Variant``,
    ``VariantOptions``, ``FEN``, ``TimeControl``, ``Termination``; each
    timed move commented with ``[%eval]`` (White's point of view),
    ``[%emt]`` (time used) and ``[%clk]`` (time left after the move), and
    the last move (or the game, without moves) with the referee's detail."""
    board = fairyforge.Board(record["variant"], record.get("fen"), **record["options"])
    game = pgn.Game()
    game.setup(board)
    game.headers.update(
        {
            "Event": "fairyforge match",
            "Date": record.get("date", "????.??.??"),
            "Round": str(record["index"] + 1),
            "White": record["white"],
            "Black": record["black"],
            "Result": record["result"],
            "TimeControl": record.get("tc") or "-",
            "Termination": REFEREE_TERMINATIONS.get(record["termination"], "normal"),
        }
    )
    book = record["opening_plies"]
    clocks = record.get("clocks_ms")
    node: pgn.GameNode = game
    for ply, move in enumerate(record["moves"]):
        white = board.turn
        board.push_uci(move)
        node = node.add_main_variation(move)
        timed = ply - book
        if timed < 0:
            continue
        parts = []
        evaluation = record["evals"][timed]
        if evaluation:
            parts.append(f"[%eval {_white_eval(evaluation, white)}]")
        parts.append(f"[%emt {format_clock(record['times_ms'][timed])}]")
        if clocks:
            parts.append(f"[%clk {format_clock(clocks[timed])}]")
        node.comment = " ".join(parts)
    detail = record.get("detail") or record["termination"].replace("_", " ")
    node.comment = f"{node.comment} {detail}".strip()
    return game


def _white_eval(evaluation: str, white: bool) -> str:
    """``[%eval]`` text (pawns or ``#n``, then ``,depth``) from White's view."""
    score, _, depth = evaluation.partition("/")
    if score.startswith("#"):
        n = int(score[1:])
        text = f"#{n if white else -n}"
    else:
        text = f"{float(score) if white else -float(score):.2f}"
    return f"{text},{depth}" if depth else text


def pairings(
    variant: str,
    a: Player,
    b: Player,
    games: int,
    *,
    options: dict | None = None,
    seed: int = 1,
    max_plies: int = 200,
    fen: str | None = None,
    tc: TimeControl | None = None,
    grace_ms: int = GRACE_MS,
    openings: Sequence[Opening] | None = None,
) -> list[Pairing]:
    """``games`` games between ``a`` and ``b``, colours alternating. Each
    opening is played twice with colours swapped; when the two players
    play alike (self-play), every game gets an opening of its own instead,
    so that no game replays another. The openings are seeded random plies,
    or the ``openings`` given (from an EPD or PGN file, see
    :func:`fairyforge.tools.openings.read`), taken in turn (their start
    replaces ``fen``). Raises ``ValueError`` subclasses for a bad variant,
    option or FEN and for two players of the same name."""
    if a.name == b.name:
        raise fairyforge.InvalidOptionError(
            f"invalid players: both are named {a.name!r} (records are scored by name)"
        )
    fairyforge.Board(variant, fen, **(options or {}))  # raises for a bad variant, option or FEN
    paired = a.settings() != b.settings()
    out = []
    for i in range(games):
        white, black = (a, b) if i % 2 == 0 else (b, a)
        n = i // 2 if paired else i
        book = openings[n % len(openings)] if openings else None
        out.append(
            Pairing(
                variant,
                dict(options or {}),
                i,
                white,
                black,
                seed * 100003 + n,
                opening_plies=0 if book else Pairing.opening_plies,
                max_plies=max_plies,
                fen=book.fen if book else fen,
                tc=tc,
                grace_ms=grace_ms,
                book=book.moves if book else (),
            )
        )
    return out


def settings(games: list[Pairing], sprt: Sprt | None = None) -> dict[str, Any]:
    """What decides the games of a match, stored beside its output: the
    variant, options, start, players, clock, grace, adjudication and the
    opening seed (or book line) of its first game (not how many games it
    has, so a rerun with more games extends it), and the SPRT that stops it
    (when there is one)."""
    first = min(games, key=lambda g: g.index)
    fields = dataclasses.asdict(first)
    for name in ("index", "white", "black", "tc"):
        del fields[name]
    if not first.book:
        del fields["book"]
    fields["tc"] = str(first.tc) if first.tc is not None else None
    fields["players"] = {p.name: p.settings() for p in (first.white, first.black)}
    if sprt is not None:
        fields["sprt"] = dataclasses.asdict(sprt)
    return fields


def run(
    games: list[Pairing],
    *,
    out: str | os.PathLike | None = None,
    workers: int | None = None,
    client=None,
    progress: Callable[[dict], None] | None = None,
    sprt: Sprt | None = None,
) -> list[dict]:
    """Play the games not already recorded in ``out`` (a ``.jsonl`` file),
    appending each record to it and its PGN to the ``.pgn`` file beside it
    as it finishes; the match settings go to the ``.settings.json`` file
    beside them, and a rerun with other settings raises
    :class:`~fairyforge.tools.pool.SettingsMismatchError`. ``client``: a
    ``dask.distributed.Client`` to run on a cluster, or any
    ``concurrent.futures.Executor``; otherwise a local process pool of
    ``workers`` (1: in this process, whose engines are closed at the end).
    ``sprt``: stop as soon as the test decides on the complete pairs, for
    the player who has White in the first game (see
    :func:`fairyforge.tools.sprt.status`)."""
    if not games:
        return pool.read(out) if out is not None and os.path.exists(out) else []
    until = sprtmod.stopper(sprt, _first_player(games)) if sprt is not None else None
    record_pgn = None
    if out is not None:
        pool.claim(out, settings(games, sprt))
        pgn_path = Path(out).with_suffix(".pgn")
        _rewrite_pgn(pgn_path, pool.read(out) if os.path.exists(out) else [])

        def record_pgn(record: dict) -> None:
            pgn.write_games(pgn_path, [game_pgn(record)])
            if progress:
                progress(record)

    try:
        return pool.run_resumable(
            play,
            games,
            lambda g: g.index,
            out=out,
            workers=workers,
            client=client,
            progress=record_pgn or progress,
            until=until,
        )
    finally:
        if workers == 1 and client is None:
            players.close_all()


def _first_player(games: Sequence[Pairing]) -> str:
    """The player ``a`` of :func:`pairings`: White in the first game."""
    return min(games, key=lambda g: g.index).white.name


def _rewrite_pgn(path: Path, records: list[dict]) -> None:
    """The PGN file made again from the records, so that it holds every
    recorded game once whatever happened to it before."""
    temporary = path.with_suffix(".pgn.tmp")
    temporary.unlink(missing_ok=True)
    temporary.touch()
    pgn.write_games(temporary, (game_pgn(r) for r in records))
    temporary.replace(path)


@dataclass(frozen=True)
class Score:
    """Match score of player ``a`` against ``b``, with Elo difference and
    its 95% interval."""

    games: int
    wins: int
    draws: int
    losses: int

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def fraction(self) -> float:
        return self.points / self.games if self.games else 0.5

    def elo(self) -> tuple[float, float, float]:
        """(Elo difference, lower, upper) of the 95% interval. The interval
        is Wilson's score interval on the points fraction, so a perfect
        score still gets a finite lower bound."""
        n = self.games
        if n == 0:
            return (0.0, -math.inf, math.inf)
        p, z = self.fraction, 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (_elo(p), _elo(centre - half), _elo(centre + half))


def _elo(p: float) -> float:
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1) + 0.0  # + 0.0: an even score is +0, not -0


def score(records: Iterable[dict], name: str) -> Score:
    """The score of player ``name`` over the records."""
    wins = draws = losses = games = 0
    for r in records:
        if name not in (r["white"], r["black"]):
            continue
        games += 1
        if r["result"] == "1/2-1/2":
            draws += 1
        elif (r["result"] == "1-0") == (r["white"] == name):
            wins += 1
        else:
            losses += 1
    return Score(games, wins, draws, losses)


def plot(summary: list[tuple[str, float, float, float]], path: str, title: str) -> None:
    """Elo difference with its 95% interval per variant."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cap = 1200.0
    names = [v for v, *_ in summary]
    elo = [max(-cap, min(cap, e)) for _, e, _, _ in summary]
    lows = [max(0.0, e - max(-cap, lo)) for (_, _, lo, _), e in zip(summary, elo)]
    highs = [max(0.0, min(cap, hi) - e) for (_, _, _, hi), e in zip(summary, elo)]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar(names, elo, yerr=[lows, highs], fmt="o", capsize=6, color="#2c7fb8")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_ylabel(f"Elo difference (capped at ±{cap:.0f})")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _moves_of(record: dict, name: str) -> list[float]:
    """Milliseconds used by ``name`` on each of its timed moves of a game."""
    fen = record.get("fen")
    white_starts = fen is None or fen.split()[1] == "w"
    book = record["opening_plies"]
    side = "white" if (book % 2 == 0) == white_starts else "black"
    other = "black" if side == "white" else "white"
    times = record["times_ms"]
    if record[side] == name:
        return times[0::2]
    return times[1::2] if record[other] == name else []


def summary(records: list[dict], a: str, b: str) -> dict[str, Any]:
    """The match from ``a``'s side: W/D/L, score and Elo with its 95%
    interval, how games ended, and per player the time used per move (mean
    and maximum, ms), time losses, illegal moves and crashes."""
    s = score(records, a)
    per_player = {}
    for name in (a, b):
        times = [t for r in records for t in _moves_of(r, name)]
        faults = Counter(r["termination"] for r in records if r.get("offender") == name)
        per_player[name] = {
            "moves": len(times),
            "mean_ms": sum(times) / len(times) if times else 0.0,
            "max_ms": max(times, default=0.0),
            "time_losses": faults["time_forfeit"],
            "illegal_moves": faults["illegal_move"],
            "crashes": faults["crash"],
        }
    return {
        "score": s,
        "elo": s.elo(),
        "terminations": dict(Counter(r["termination"] for r in records).most_common()),
        "players": per_player,
    }
