"""Bulk analysis of recorded games: every position of every game in a PGN
file is searched, game by game, on a local process pool (or a Dask
cluster). One JSON line per game is appended as soon as that game is done,
so an interrupted run loses nothing and resumes where it stopped; the
settings (limits and source) are stored beside the output, and a rerun
with other settings is refused; a malformed game is skipped and reported,
never fatal. Each worker searches
with one :class:`fairyforge.Engine`, whose table is kept from position to
position of a game and cleared between games.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import fairyforge
from fairyforge import pgn
from fairyforge.tools import players, pool

#: The analyser, as a player: its engine is the worker's.
ANALYSER = players.Player("analysis", hash_mb=8)


@dataclass(frozen=True)
class GameTask:
    """One game to analyse: where it starts, its moves and the limits."""

    index: int
    variant: str
    options: dict = field(default_factory=dict)
    fen: str | None = None
    moves: tuple[str, ...] = ()
    depth: int | None = None
    nodes: int | None = None


def analyse(task: GameTask) -> dict:
    """Search every position of a game; return its record."""
    board = fairyforge.Board(task.variant, task.fen, **task.options)
    engine = players.engine(ANALYSER, board)
    assert isinstance(engine, fairyforge.Engine)
    engine.new_game()
    positions = []
    for ply, played in enumerate([*task.moves, None]):
        if board.is_game_over():
            break
        result = engine.search(board, depth=task.depth, nodes=task.nodes)
        assert isinstance(result, fairyforge.SearchResult)
        best = result.best_move.uci() if result.best_move else None
        positions.append(
            {
                "ply": ply,
                "fen": board.fen(),
                "played": played,
                "best": best,
                "cp": result.score.cp,
                "mate": result.score.mate,
                "depth": result.depth,
                "nodes": result.nodes,
                "seconds": result.time,
            }
        )
        if played is None:
            break
        board.push_uci(played)
    return {
        "index": task.index,
        "variant": task.variant,
        "options": task.options,
        "result": board.result(claim_draw=True),
        "positions": positions,
    }


def tasks(
    path: str | os.PathLike[str],
    *,
    depth: int | None = None,
    nodes: int | None = None,
    errors: list | None = None,
) -> Iterator[GameTask]:
    """A task per readable game of a PGN file (1-based game indices, as in
    PGN errors); malformed games are skipped and appended to ``errors``."""
    for index, game in enumerate(pgn.iter_games(path, on_error="skip", errors=errors), 1):
        start = game.board()
        yield GameTask(
            index=index,
            variant=start.variant.name,
            options=dict(start.variant.options),
            fen=start.fen(),
            moves=tuple(m.uci() for m in game.mainline_moves()),
            depth=depth,
            nodes=nodes,
        )


def run(
    items: list[GameTask],
    *,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    client: Any = None,
    progress: Callable[[dict], None] | None = None,
    source: str | os.PathLike[str] | None = None,
) -> list[dict]:
    """Analyse the games not yet in ``out`` (appending each as it finishes)
    and return every record, old and new, by game index. ``out`` is tied
    to the limits and ``source`` (the PGN file, by absolute path): a rerun
    with others raises :class:`~fairyforge.tools.pool.SettingsMismatchError`.
    ``client``: a ``dask.distributed.Client`` or any
    ``concurrent.futures.Executor``."""
    if out is not None and items:
        first = min(items, key=lambda t: t.index)
        pool.claim(
            out,
            {
                "depth": first.depth,
                "nodes": first.nodes,
                "source": os.path.abspath(source) if source is not None else None,
            },
        )
    return pool.run_resumable(
        analyse,
        items,
        lambda t: t.index,
        out=out,
        workers=workers,
        client=client,
        progress=progress,
    )


def summary(records: list[dict]) -> dict:
    """Totals: games, positions, nodes, seconds, and how often the played
    move differs from the engine's choice."""
    positions = [p for r in records for p in r["positions"]]
    nodes = sum(p["nodes"] for p in positions)
    seconds = sum(p["seconds"] for p in positions)
    differs = sum(1 for p in positions if p["played"] and p["played"] != p["best"])
    return {
        "games": len(records),
        "positions": len(positions),
        "nodes": nodes,
        "seconds": seconds,
        "nodes_per_second": nodes / seconds if seconds else 0.0,
        "played_differs": differs,
    }
