"""Evaluation tuning by Texel's method: positions from games (self-play,
any PGN, or ``fairyforge analyse`` output) labelled with the game's result,
and with an engine's score where the game recorded one, and the evaluation
weights fitted to them by logistic regression (``fairyforge._core._tune``;
the method is in docs/TUNING.md).

Positions are taken from every game with a result, from ply ``skip`` on,
when they are quiet: the side to move is not in check and the move played
next is neither a capture nor a promotion. Whole games go to the held-out
set (a seeded share ``held``), so no position of a held-out game is
trained on. A position's score is the one its mover's search reported
(``[%eval]`` in PGN, ``evals`` in match records), or the analyser's
(analysis records), in centipawns for White, a mate as ±10000;
``scored_by`` keeps only the scores of players (or analysers) whose name
contains it.

>>> import fairyforge
>>> board = fairyforge.Board("chess")
>>> for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6"]:
...     _ = board.push_uci(m)
>>> scores = (None,) * 5 + (-31, 40)
>>> start = fairyforge.Board("chess")
>>> for fen, result, score in positions(start, board.move_stack, 1.0, 4, scores):
...     print(fen.split()[0], result, score)
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R 1.0 None
r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R 1.0 -31
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import fairyforge
from fairyforge import _core, pgn
from fairyforge.tools import jobs

__all__ = [
    "Game",
    "Tuning",
    "fit",
    "games_of_analysis",
    "games_of_pgn",
    "games_of_records",
    "positions",
    "quiet",
    "read_analysis",
    "split",
]

#: White's score for each PGN result.
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}

#: A mate score as centipawns (the curve of the fit makes it a sure win).
MATE_CP = 10000.0

#: A training position: FEN, White's result, an engine's score for White.
Position = tuple[str, float, "float | None"]


@dataclass(frozen=True)
class Game:
    """A finished game: its start (variant, options, FEN), its moves (UCI),
    White's score, and per ply the score its mover reported (centipawns
    for White, or None; empty when the game recorded none)."""

    variant: str
    options: dict
    fen: str | None
    moves: tuple[str, ...]
    result: float
    scores: tuple[float | None, ...] = ()


def _cp(score: fairyforge.Score | None) -> float | None:
    """Centipawns of a score, a mate as ±MATE_CP."""
    if score is None:
        return None
    if score.mate is not None:
        return MATE_CP if score.mate > 0 else -MATE_CP
    return float(score.cp or 0)


def _record_score(text: str | None, white: bool) -> float | None:
    """White's centipawns from a record's ``evals`` entry (``+0.25/9`` or
    ``#-3/12``, the mover's view)."""
    if not text:
        return None
    value = text.partition("/")[0]
    if value.startswith("#"):
        cp = MATE_CP if int(value[1:]) > 0 else -MATE_CP
    else:
        cp = float(round(float(value) * 100))
    return cp if white else -cp


def _scorer(name: str, scored_by: str | None) -> bool:
    return scored_by is None or scored_by in name


def games_of_records(records: Iterable[dict], scored_by: str | None = None) -> Iterator[Game]:
    """The finished games of match records (``fairyforge match`` output),
    with the scores their players reported."""
    for r in records:
        if r["result"] not in RESULTS:
            continue
        book, evals = r.get("opening_plies", 0), r.get("evals") or []
        white_first = fairyforge.Board(r["variant"], r["fen"], **r["options"]).turn
        scores = []
        for ply in range(len(r["moves"])):
            white = white_first == (ply % 2 == 0)
            keep = 0 <= ply - book < len(evals) and _scorer(
                r["white" if white else "black"], scored_by
            )
            scores.append(_record_score(evals[ply - book], white) if keep else None)
        yield Game(
            r["variant"],
            r["options"],
            r["fen"],
            tuple(r["moves"]),
            RESULTS[r["result"]],
            tuple(scores),
        )


def games_of_analysis(records: Iterable[dict], scored_by: str | None = None) -> Iterator[Game]:
    """The finished games of analysis records (``fairyforge analyse``
    output), each analysed position scored by the analyser (its ``cp`` or
    ``mate``, the side to move's view, turned into White's centipawns);
    ``scored_by`` keeps the scores only of analysers whose name contains
    it."""
    for r in records:
        if r["result"] not in RESULTS:
            continue
        moves = tuple(r["moves"])
        white_first = fairyforge.Board(r["variant"], r["fen"], **r["options"]).turn
        scores: list[float | None] = [None] * len(moves)
        if _scorer(r["analyser"], scored_by):
            for p in r["positions"]:
                ply, mate = p["ply"], p["mate"]
                if not 0 <= ply < len(moves) or (mate is None and p["cp"] is None):
                    continue
                cp = float(p["cp"]) if mate is None else MATE_CP if mate > 0 else -MATE_CP
                scores[ply] = cp if white_first == (ply % 2 == 0) else -cp
        yield Game(r["variant"], r["options"], r["fen"], moves, RESULTS[r["result"]], tuple(scores))


#: What each analysis record holds, and of which type.
_ANALYSIS_FIELDS: dict[str, type | tuple[type, ...]] = {
    "index": int,
    "variant": str,
    "options": dict,
    "fen": (str, type(None)),
    "moves": list,
    "result": str,
    "analyser": str,
    "positions": list,
}


def _is_analysis(record: Any) -> bool:
    """Whether a parsed line is a record of ``fairyforge analyse``."""
    if not isinstance(record, dict):
        return False
    if not all(isinstance(record.get(k), t) for k, t in _ANALYSIS_FIELDS.items()):
        return False
    return all(
        isinstance(p, dict)
        and isinstance(p.get("ply"), int)
        and all(isinstance(p.get(k), (int, type(None))) for k in ("cp", "mate"))
        for p in record["positions"]
    )


def read_analysis(path: str | os.PathLike[str]) -> list[dict]:
    """The records of a ``fairyforge analyse`` output file; a missing file,
    or a line that is not such a record, raises
    :class:`~fairyforge.tools.jobs.PathError` naming it."""
    jobs.input_file(path, "--analysis")
    records = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            if not _is_analysis(record):
                raise jobs.PathError(
                    f"--analysis: {os.fspath(path)!r} line {number} is not a record of "
                    "fairyforge analyse (a JSON object with index, variant, options, fen, "
                    "moves, result, analyser and positions)"
                )
            records.append(record)
    return records


def games_of_pgn(
    path: str | os.PathLike[str],
    variants: Sequence[fairyforge.VariantInfo] = (),
    scored_by: str | None = None,
) -> Iterator[Game]:
    """The finished games of a PGN file, with the ``[%eval]`` scores of
    their moves (games that do not parse, or have no result, are skipped)."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        for game in pgn.iter_games(handle, on_error="skip", variants=variants):
            result = RESULTS.get(game.headers.get("Result", "*"))
            if result is None:
                continue
            board = game.board()
            start = board.fen()
            names = {
                fairyforge.WHITE: game.headers.get("White", "?"),
                fairyforge.BLACK: game.headers.get("Black", "?"),
            }
            moves, scores = [], []
            for ply, node in enumerate(game.mainline()):
                moves.append(node.move.uci())
                mover = board.turn == (ply % 2 == 0)
                scores.append(_cp(node.eval()) if _scorer(names[mover], scored_by) else None)
            yield Game(
                board.variant.name,
                dict(board.variant.options),
                start,
                tuple(moves),
                result,
                tuple(scores),
            )


def positions(
    start: fairyforge.Board,
    moves: Sequence[Any],
    result: float,
    skip: int,
    scores: Sequence[float | None] = (),
) -> Iterator[Position]:
    """The quiet positions of one game as (FEN, White's result, the score
    of the move played there or None): from ply ``skip`` on, not in
    check, and the next move played neither a capture nor a promotion."""
    board = start.copy()
    for ply, move in enumerate(moves):
        m = fairyforge.Move.from_uci(move) if isinstance(move, str) else move
        if ply >= skip and quiet(board, m):
            yield board.fen(), result, scores[ply] if ply < len(scores) else None
        board.push(m)


def quiet(board: fairyforge.Board, move: fairyforge.Move) -> bool:
    """Whether the position is one to train on before ``move`` is played:
    the side to move is not in check, and ``move`` is neither a capture nor
    a promotion."""
    return not board.is_check() and not board.is_capture(move) and move.promotion is None


def split(
    games: Sequence[Game], held: float, seed: int, skip: int
) -> tuple[list[Position], list[Position]]:
    """The quiet positions of ``games``, split by game into a training and a
    held-out set (each game goes to the held-out set with chance ``held``,
    drawn from the seed and the game itself, so the split depends neither
    on the order the games come in nor on their source)."""
    train: list[Position] = []
    test: list[Position] = []
    for g in games:
        # The start as a FEN whether the source gave one or none (match
        # records of the start position) so both draw alike.
        board = fairyforge.Board(g.variant, g.fen, **g.options)
        draw = random.Random(f"{seed} {g.variant} {board.fen()} {' '.join(g.moves)}").random()
        target = test if draw < held else train
        target.extend(positions(board, g.moves, g.result, skip, g.scores))
    return train, test


@dataclass(frozen=True)
class Tuning:
    """What :func:`fit` found: the logistic scale ``k``, the training and
    held-out loss before and after, the epoch kept, the loss curve
    ``(epoch, train, held)``, the weights file text and every term's
    ``((mg, eg) before, (mg, eg) after)``."""

    k: float
    before: tuple[float, float]
    after: tuple[float, float]
    best_epoch: int
    curve: list[tuple[int, float, float]]
    weights: str
    terms: dict[str, tuple[tuple[float, float], tuple[float, float]]]
    train_positions: int
    held_positions: int

    def as_dict(self) -> dict[str, Any]:
        """The fit as JSON-ready data."""
        return dataclasses.asdict(self)


def fit(
    board: fairyforge.Board,
    train: list[Position],
    held: list[Position],
    *,
    weights: str | os.PathLike[str] | None = None,
    epochs: int = 1000,
    rate: float = 1.0,
    l2: float = 0.0,
    report_every: int = 25,
    frozen: Sequence[str] = (),
    anchor: str | None = None,
    lam: float = 1.0,
) -> Tuning:
    """Fit the weights of ``board``'s variant (starting from its own, or
    from the ``weights`` file) to the positions, with a ridge ``l2`` per
    squared centipawn of change, every term named in ``frozen`` (a term, or
    a per-kind term such as ``mobility`` for every kind) kept, with
    ``anchor`` (a kind's name) every weight scaled after the fit so that
    that kind is worth what it was worth before, and ``lam`` the weight of
    the result beside a scored position's score (1: results only); see
    docs/TUNING.md."""
    if not train:
        raise fairyforge.InvalidOptionError(
            "invalid option games: no quiet position to train on (more games, or a lower --skip)"
        )
    d = _core._tune(
        board,
        train,
        held,
        None if weights is None else os.fspath(weights),
        epochs,
        rate,
        l2,
        report_every,
        list(frozen),
        anchor,
        lam,
    )
    return Tuning(
        k=d["k"],
        before=tuple(d["before"]),
        after=tuple(d["after"]),
        best_epoch=d["best_epoch"],
        curve=[tuple(c) for c in d["curve"]],
        weights=d["weights"],
        terms={name: (tuple(a), tuple(b)) for name, (a, b) in d["terms"].items()},
        train_positions=len(train),
        held_positions=len(held),
    )


def plot(t: Tuning, path: str, title: str) -> None:
    """The loss curves, and each kind's value before and after, as an image."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    epochs = [c[0] for c in t.curve]
    left.plot(epochs, [c[1] for c in t.curve], label="training")
    left.plot(epochs, [c[2] for c in t.curve], label="held out")
    left.axvline(t.best_epoch, color="grey", linestyle=":", label="kept")
    left.set_xlabel("epoch")
    left.set_ylabel("mean squared error")
    left.legend()
    values = {n[: -len(".value")]: v for n, v in t.terms.items() if n.endswith(".value")}
    names = list(values)
    xs = range(len(names))
    right.bar([x - 0.2 for x in xs], [values[n][0][0] for n in names], 0.4, label="before")
    right.bar([x + 0.2 for x in xs], [values[n][1][0] for n in names], 0.4, label="after")
    right.set_xticks(list(xs), names, rotation=45, ha="right")
    right.set_ylabel("middlegame value (centipawns)")
    right.legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
