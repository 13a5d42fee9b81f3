"""Bulk analysis of recorded games: every position of every game in a PGN
file (or, with ``quiet_only``, only the positions the tuner trains on) is
searched, game by game, on a local process pool (or a Dask cluster). One
JSON line per game is appended as soon as that game is done, so an
interrupted run loses nothing and resumes where it stopped; the settings
(limits, source, analyser) are stored beside the output, and a rerun with
other settings is refused; a malformed game is skipped and reported, never
fatal. Each worker searches with one engine for the whole run: a
:class:`fairyforge.Engine`, whose table is kept from position to position
of a game and cleared between games, or an external UCI engine (a
:class:`~fairyforge.tools.players.Player` with ``uci``), started once and
sent ``ucinewgame`` between games.

A record holds the game (``variant``, ``options``, start ``fen``,
``moves``, the PGN's ``result``), the ``analyser``'s name and per searched
position its ``ply``, ``fen``, the move ``played`` there, the engine's
``best`` move, its score (``cp`` or ``mate``, from the side to move's
point of view), ``depth``, ``nodes`` and ``seconds``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import fairyforge
from fairyforge import pgn
from fairyforge.tools import players, pool, tune
from fairyforge.tools.uci_client import EngineCrashed, EngineTimeout, UciEngine

#: The default analyser, fairyforge's own search (named as its UCI mode
#: names itself); its engine is the worker's.
ANALYSER = players.Player(f"fairyforge {fairyforge.__version__}", hash_mb=8)

#: Seconds an external engine may take over one position before it is
#: taken to have hung.
SEARCH_SECONDS = 300.0


@dataclass(frozen=True)
class GameTask:
    """One game to analyse: where it starts, its moves, the PGN's result,
    the limits, the analyser and which positions to search (all, or with
    ``quiet_only`` the quiet ones from ply ``skip`` on, as the tuner
    takes them)."""

    index: int
    variant: str
    options: dict = field(default_factory=dict)
    fen: str | None = None
    moves: tuple[str, ...] = ()
    depth: int | None = None
    nodes: int | None = None
    result: str = "*"
    player: players.Player = ANALYSER
    quiet_only: bool = False
    skip: int = 8


def _search(task: GameTask, board: fairyforge.Board) -> dict[str, Any]:
    """The analyser's search of the board's position, as a record's fields."""
    player = task.player
    depth = player.depth if player.depth is not None else task.depth
    engine = players.engine(player, board)
    if isinstance(engine, UciEngine):
        words = ["go"]
        if task.nodes is not None:
            words += ["nodes", str(task.nodes)]
        if depth is not None:
            words += ["depth", str(depth)]
        reply = engine.go(players.position_command(board), " ".join(words), timeout=SEARCH_SECONDS)
        kind, _, value = (reply.score or "").partition(" ")
        return {
            "best": reply.move,
            "cp": int(value) if kind == "cp" else None,
            "mate": int(value) if kind == "mate" else None,
            "depth": reply.depth,
            "nodes": reply.nodes,
            "seconds": reply.elapsed,
        }
    result = engine.search(
        board,
        depth=depth,
        nodes=task.nodes,
        eval=player.eval,
        plain=player.plain,
        weights=player.weights,
    )
    assert isinstance(result, fairyforge.SearchResult)
    return {
        "best": result.best_move.uci() if result.best_move else None,
        "cp": result.score.cp,
        "mate": result.score.mate,
        "depth": result.depth,
        "nodes": result.nodes,
        "seconds": result.time,
    }


def analyse(task: GameTask) -> dict:
    """Search the positions of a game; return its record. An external
    engine that crashes or hangs is closed, and
    :class:`~fairyforge.tools.uci_client.EngineCrashed` or
    :class:`~fairyforge.tools.uci_client.EngineTimeout` raised naming the
    game and ply."""
    board = fairyforge.Board(task.variant, task.fen, **task.options)
    start = board.fen()
    positions = []
    ply = 0
    try:
        players.new_game(task.player, board)
        for ply, played in enumerate([*task.moves, None]):
            if board.is_game_over():
                break
            move = fairyforge.Move.from_uci(played) if played is not None else None
            wanted = move is not None and ply >= task.skip and tune.quiet(board, move)
            if wanted or not task.quiet_only:
                positions.append(
                    {"ply": ply, "fen": board.fen(), "played": played, **_search(task, board)}
                )
            if move is None:
                break
            board.push(move)
    except (EngineCrashed, EngineTimeout) as e:
        players.discard(task.player)
        raise type(e)(f"game {task.index}, ply {ply}: {e}") from None
    return {
        "index": task.index,
        "variant": task.variant,
        "options": task.options,
        "fen": start,
        "moves": list(task.moves),
        "result": task.result,
        "analyser": task.player.name,
        "positions": positions,
    }


def tasks(
    path: str | os.PathLike[str],
    *,
    depth: int | None = None,
    nodes: int | None = None,
    errors: list | None = None,
    player: players.Player = ANALYSER,
    quiet_only: bool = False,
    skip: int = 8,
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
            result=game.headers.get("Result", "*"),
            player=player,
            quiet_only=quiet_only,
            skip=skip,
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
    to the limits, the analyser (its name and settings: a UCI engine's
    command and options), which positions are searched and ``source`` (the
    PGN file, by absolute path): a rerun with others raises
    :class:`~fairyforge.tools.pool.SettingsMismatchError`. ``client``: a
    ``dask.distributed.Client`` or any ``concurrent.futures.Executor``.
    Run in this process (``workers=1``, no client), the analyser's engine
    is closed at the end."""
    if out is not None and items:
        first = min(items, key=lambda t: t.index)
        pool.claim(
            out,
            {
                "depth": first.depth,
                "nodes": first.nodes,
                "source": os.path.abspath(source) if source is not None else None,
                "engine": {"name": first.player.name, **first.player.settings()},
                "quiet_only": first.quiet_only,
                "skip": first.skip if first.quiet_only else None,
            },
        )
    try:
        return pool.run_resumable(
            analyse,
            items,
            lambda t: t.index,
            out=out,
            workers=workers,
            client=client,
            progress=progress,
        )
    finally:
        if workers == 1 and client is None:
            players.close_all()


def summary(records: list[dict]) -> dict:
    """Totals: games, positions, nodes (those the analyser reported),
    seconds, and how often the played move differs from the engine's
    choice."""
    positions = [p for r in records for p in r["positions"]]
    nodes = sum(p["nodes"] or 0 for p in positions)
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
