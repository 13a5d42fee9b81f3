"""Engine matches: two search configurations play each other from varied
openings, on a local process pool by default or on a Dask cluster when a
``dask.distributed.Client`` is given. Results are appended to a JSON-lines
file as games finish, so an interrupted match resumes where it stopped.

>>> a = Player("full", nodes=2000)
>>> b = Player("material-1ply", depth=1, eval="material", plain=True)
>>> games = [Pairing("chess", {}, 0, a, b, seed=7, opening_plies=2, max_plies=20)]
>>> record = play(games[0])
>>> record["result"] in ("1-0", "0-1", "1/2-1/2")
True
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import fairyforge
from fairyforge.tools import pool


@dataclass(frozen=True)
class Player:
    """A search configuration: a name, limits and the evaluation used."""

    name: str
    depth: int | None = None
    nodes: int | None = None
    eval: str = "full"
    plain: bool = False

    def choose(self, board: fairyforge.Board) -> fairyforge.Move:
        """The move this player makes in a position."""
        result = board.search(
            depth=self.depth, nodes=self.nodes, eval=self.eval, plain=self.plain, hash_mb=4
        )
        assert result.best_move is not None
        return result.best_move


@dataclass(frozen=True)
class Pairing:
    """One game to play: variant, options, index, the two players (``white``
    plays White), the opening seed and limits."""

    variant: str
    options: dict = field(default_factory=dict)
    index: int = 0
    white: Player = Player("white", nodes=1000)
    black: Player = Player("black", nodes=1000)
    seed: int = 0
    opening_plies: int = 4
    max_plies: int = 200


def opening(board: fairyforge.Board, seed: int, plies: int) -> None:
    """Play ``plies`` random legal moves (seeded) to vary the start."""
    rng = random.Random(seed)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            return
        board.push(rng.choice(moves))


def play(p: Pairing) -> dict:
    """Play one game and return its record (a JSON-serialisable dict)."""
    board = fairyforge.Board(p.variant, **p.options)
    opening(board, p.seed, p.opening_plies)
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < p.max_plies:
        player = p.white if board.turn else p.black
        board.push(player.choose(board))
    outcome = board.outcome(claim_draw=True)
    return {
        "index": p.index,
        "variant": p.variant,
        "options": p.options,
        "white": p.white.name,
        "black": p.black.name,
        "result": outcome.result() if outcome else "1/2-1/2",
        "termination": outcome.termination.value if outcome else "max_plies",
        "moves": [m.uci() for m in board.move_stack],
    }


def pairings(
    variant: str,
    a: Player,
    b: Player,
    games: int,
    *,
    options: dict | None = None,
    seed: int = 1,
    max_plies: int = 200,
) -> list[Pairing]:
    """``games`` games between ``a`` and ``b``: each opening is played twice
    with colours swapped."""
    out = []
    for i in range(games):
        white, black = (a, b) if i % 2 == 0 else (b, a)
        opening_seed = seed * 100003 + i // 2
        out.append(
            Pairing(
                variant, dict(options or {}), i, white, black, opening_seed, max_plies=max_plies
            )
        )
    return out


def run(
    games: list[Pairing],
    *,
    out: str | os.PathLike | None = None,
    workers: int | None = None,
    client=None,
    progress: Callable[[dict], None] | None = None,
) -> list[dict]:
    """Play the games not already recorded in ``out``; append each record to
    ``out`` as it finishes. ``client``: a ``dask.distributed.Client`` to run
    on a cluster; otherwise a local process pool of ``workers``."""
    return pool.run_resumable(
        play,
        games,
        lambda g: g.index,
        out=out,
        workers=workers,
        client=client,
        progress=progress,
    )


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
    return -400 * math.log10(1 / p - 1)


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
