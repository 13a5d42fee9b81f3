"""The players of a match -- fairyforge's own search configurations and
external UCI engines -- and the engines they play on: one per player in
each worker (process, or thread on a Dask worker), kept from game to game
with ``new_game`` between games, as a tournament manager keeps its engines.

>>> import fairyforge
>>> board = fairyforge.Board("chess")
>>> player = Player("full", nodes=500)
>>> new_game(player, board)
>>> reply = think(player, board, None)
>>> reply.move in board.legal_moves and reply.depth > 0
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import multiprocessing.util
import threading
import time
from dataclasses import dataclass
from typing import Any

import fairyforge
from fairyforge.tools.clock import TimeControl
from fairyforge.tools.uci_client import Reply, UciEngine

#: Seconds a player without a clock gets on top of its move time before it
#: is taken to have hung (and loses on time).
HANG_SECONDS = 10.0


@dataclass(frozen=True)
class Player:
    """A player: a name, its limits per move (``depth``, ``nodes``,
    ``movetime`` in ms; a match clock replaces ``nodes`` and ``movetime``)
    and either fairyforge's search (``eval``, ``plain``, ``hash_mb``, and
    ``weights``, a weights file replacing the variant's evaluation weights)
    or an external engine: ``uci`` is its command line, ``uci_options`` the
    ``(name, value)`` options sent to it in order."""

    name: str
    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    eval: str = "full"
    plain: bool = False
    hash_mb: int = 16
    weights: str | None = None
    uci: str | None = None
    uci_options: tuple[tuple[str, str], ...] = ()

    def settings(self) -> dict[str, Any]:
        """Everything that decides how the player plays (all but the name)."""
        fields = dataclasses.asdict(self)
        del fields["name"]
        if self.uci is None:
            del fields["uci"], fields["uci_options"]
            if self.weights is None:
                del fields["weights"]
            else:
                # The file's content decides, not only its name.
                with open(self.weights, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()[:16]
                fields["weights"] = f"{self.weights} (sha256 {digest})"
        else:
            del fields["eval"], fields["plain"], fields["hash_mb"], fields["weights"]
            fields["uci_options"] = [list(pair) for pair in self.uci_options]
        return fields


def probe(player: Player) -> str:
    """Start an external player's engine once, with its options, and return
    the name it gives (``id name``); raises
    :class:`~fairyforge.tools.uci_client.EngineStartError` when it cannot
    be started, does not speak UCI or lacks an option."""
    assert player.uci is not None
    with UciEngine(player.uci, player.uci_options) as engine:
        return engine.name


_local = threading.local()


def _held() -> dict[str, tuple[tuple, Any]]:
    if not hasattr(_local, "held"):
        _local.held = {}
        # A pool's worker process ends without running atexit handlers, but
        # with multiprocessing's finalizers: close the external engines
        # there (an engine that ignores the end of its input is ended).
        multiprocessing.util.Finalize(None, close_all, exitpriority=10)
    return _local.held


def engine(player: Player, board: fairyforge.Board) -> fairyforge.Engine | UciEngine:
    """This worker's engine for ``player``: created on first use, replaced
    when the player's settings or the variant change."""
    variant = board.variant
    key = (player, variant.name, tuple(sorted(variant.options.items())))
    held = _held().get(player.name)
    if held is not None and held[0] == key:
        return held[1]
    discard(player)
    if player.uci is not None:
        made: fairyforge.Engine | UciEngine = UciEngine(player.uci, player.uci_options)
    else:
        made = fairyforge.Engine(variant.name, hash_mb=player.hash_mb, **variant.options)
    _held()[player.name] = (key, made)
    return made


def discard(player: Player) -> None:
    """Drop this worker's engine for ``player`` (an external one is closed,
    and ended if it does not quit at once), so that the next game starts a
    fresh one: done after an engine failed."""
    held = _held().pop(player.name, None)
    if held is not None and isinstance(held[1], UciEngine):
        held[1].close(timeout=0.2)


def close_all() -> None:
    """Drop every engine of this worker (external ones are closed)."""
    for held in _held().values():
        if isinstance(held[1], UciEngine):
            held[1].close()
    _held().clear()


def new_game(player: Player, board: fairyforge.Board) -> None:
    """Tell the player's engine a new game starts (``ucinewgame``, or an
    empty table), so every game is played as by a fresh engine."""
    engine(player, board).new_game()


def position_command(board: fairyforge.Board) -> str:
    """``position startpos moves ...``, or ``position fen F moves ...`` when
    the game did not start at the variant's start position."""
    start = board.copy()
    while start.move_stack:
        start.pop()
    moves = " ".join(m.uci() for m in board.move_stack)
    fen = start.fen()
    head = "position startpos" if fen == board.variant.start_fen else f"position fen {fen}"
    return f"{head} moves {moves}" if moves else head


def think(
    player: Player,
    board: fairyforge.Board,
    clock: tuple[int, int] | None,
    tc: TimeControl | None = None,
    *,
    grace_ms: int = 100,
) -> Reply:
    """The player's move in the board's position, with the time it took
    (wall clock). ``clock``: the milliseconds left to White and Black under
    ``tc``, or None to play by the player's own limits. An external engine
    is waited for until its clock (plus ``grace_ms``) runs out, or without a
    clock for its move time plus :data:`HANG_SECONDS`. Raises
    :class:`~fairyforge.tools.uci_client.EngineCrashed` or
    :class:`~fairyforge.tools.uci_client.EngineTimeout` for an external
    engine that fails."""
    current = engine(player, board)
    if isinstance(current, UciEngine):
        return _think_uci(player, current, board, clock, tc, grace_ms)
    limits: dict[str, Any] = {
        "depth": player.depth,
        "eval": player.eval,
        "plain": player.plain,
        "weights": player.weights,
    }
    if clock is not None and tc is not None:
        limits.update(wtime=clock[0], btime=clock[1], winc=tc.increment_ms, binc=tc.increment_ms)
    else:
        limits.update(nodes=player.nodes, movetime=player.movetime)
    start = time.perf_counter()
    result = current.search(board, **limits)
    elapsed = time.perf_counter() - start
    assert isinstance(result, fairyforge.SearchResult)
    score = result.score
    text = f"mate {score.mate}" if score.mate is not None else f"cp {score.cp}"
    move = result.best_move.uci() if result.best_move else None
    return Reply(move, elapsed, result.depth, text)


def _think_uci(
    player: Player,
    engine: UciEngine,
    board: fairyforge.Board,
    clock: tuple[int, int] | None,
    tc: TimeControl | None,
    grace_ms: int,
) -> Reply:
    words = ["go"]
    if clock is not None and tc is not None:
        inc = tc.increment_ms
        words += ["wtime", str(clock[0]), "btime", str(clock[1])]
        words += ["winc", str(inc), "binc", str(inc)]
        timeout = ((clock[0] if board.turn else clock[1]) + grace_ms) / 1000
    else:
        if player.movetime is not None:
            words += ["movetime", str(player.movetime)]
        if player.nodes is not None:
            words += ["nodes", str(player.nodes)]
        timeout = (player.movetime or 0) / 1000 + HANG_SECONDS
    if player.depth is not None:
        words += ["depth", str(player.depth)]
    return engine.go(position_command(board), " ".join(words), timeout=timeout)
