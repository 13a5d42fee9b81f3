"""Evaluation tuning by Texel's method: positions from games (self-play or
any PGN) labelled with the game's result, and the evaluation weights fitted
to them by logistic regression (``fairyforge._core._tune``; the method is
in docs/TUNING.md).

Positions are taken from every game with a result, from ply ``skip`` on,
when they are quiet: the side to move is not in check and the move played
next is neither a capture nor a promotion. Whole games go to the held-out
set (a seeded share ``held``), so no position of a held-out game is
trained on.

>>> import fairyforge
>>> board = fairyforge.Board("chess")
>>> for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6"]:
...     _ = board.push_uci(m)
>>> for fen, score in positions(fairyforge.Board("chess"), board.move_stack, 1.0, 4):
...     print(fen.split()[0], score)
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R 1.0
r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R 1.0
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import fairyforge
from fairyforge import _core, pgn

__all__ = ["Game", "Tuning", "fit", "games_of_pgn", "games_of_records", "positions", "split"]

#: White's score for each PGN result.
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass(frozen=True)
class Game:
    """A finished game: its start (variant, options, FEN), its moves (UCI)
    and White's score."""

    variant: str
    options: dict
    fen: str | None
    moves: tuple[str, ...]
    result: float


def games_of_records(records: Iterable[dict]) -> Iterator[Game]:
    """The finished games of match records (``fairyforge match`` output)."""
    for r in records:
        if r["result"] in RESULTS:
            yield Game(
                r["variant"], r["options"], r["fen"], tuple(r["moves"]), RESULTS[r["result"]]
            )


def games_of_pgn(
    path: str | os.PathLike[str], variants: Sequence[fairyforge.VariantInfo] = ()
) -> Iterator[Game]:
    """The finished games of a PGN file (games that do not parse, or have
    no result, are skipped)."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        for game in pgn.iter_games(handle, on_error="skip", variants=variants):
            result = RESULTS.get(game.headers.get("Result", "*"))
            if result is None:
                continue
            board = game.board()
            start = board.fen()
            yield Game(
                board.variant.name,
                dict(board.variant.options),
                start,
                tuple(m.uci() for m in game.mainline_moves()),
                result,
            )


def positions(
    start: fairyforge.Board, moves: Sequence[Any], result: float, skip: int
) -> Iterator[tuple[str, float]]:
    """The quiet positions of one game as (FEN, White's score): from ply
    ``skip`` on, not in check, and the next move played neither a capture
    nor a promotion."""
    board = start.copy()
    for ply, move in enumerate(moves):
        m = fairyforge.Move.from_uci(move) if isinstance(move, str) else move
        quiet = not board.is_check() and not board.is_capture(m) and m.promotion is None
        if ply >= skip and quiet:
            yield board.fen(), result
        board.push(m)


def split(
    games: Sequence[Game], held: float, seed: int, skip: int
) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """The quiet positions of ``games``, split by game into a training and a
    held-out set (each game goes to the held-out set with chance ``held``,
    drawn from the seed and the game itself, so the split depends neither
    on the order the games come in nor on their source)."""
    train: list[tuple[str, float]] = []
    test: list[tuple[str, float]] = []
    for g in games:
        # The start as a FEN whether the source gave one or none (match
        # records of the start position) so both draw alike.
        board = fairyforge.Board(g.variant, g.fen, **g.options)
        draw = random.Random(f"{seed} {g.variant} {board.fen()} {' '.join(g.moves)}").random()
        target = test if draw < held else train
        target.extend(positions(board, g.moves, g.result, skip))
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
    train: list[tuple[str, float]],
    held: list[tuple[str, float]],
    *,
    weights: str | os.PathLike[str] | None = None,
    epochs: int = 1000,
    rate: float = 1.0,
    l2: float = 0.0,
    report_every: int = 25,
    frozen: Sequence[str] = (),
    anchor: str | None = None,
) -> Tuning:
    """Fit the weights of ``board``'s variant (starting from its own, or
    from the ``weights`` file) to the positions, with a ridge ``l2`` per
    squared centipawn of change, every term named in ``frozen`` (a term, or
    a per-kind term such as ``mobility`` for every kind) kept, and with
    ``anchor`` (a kind's name) every weight scaled after the fit so that
    that kind is worth what it was worth before; see the module text."""
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
