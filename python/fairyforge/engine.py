"""A persistent searcher: :class:`Engine` keeps its transposition table and
move-ordering histories between searches, as a UCI engine does between the
moves of a game, and
turns a clock into search limits with :func:`time_limits`.

>>> import fairyforge
>>> engine = fairyforge.Engine("shocking", hash_mb=8)
>>> board = fairyforge.Board("shocking")
>>> first = engine.search(board, depth=5)
>>> again = engine.search(board, depth=5)   # the table remembers the first
>>> again.nodes < first.nodes
True
>>> engine.play(board, wtime=10_000, btime=10_000, winc=100, binc=100) in board.legal_moves
True
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Literal, overload

from fairyforge import _core
from fairyforge.results import Info, SearchResult

#: The engine's time rule for one move under a clock, the same as its UCI
#: and XBoard loops use: ``time_limits(remaining_ms, increment_ms=0,
#: moves_to_go=None, overhead_ms=30) -> (soft_ms, hard_ms)``; see
#: docs/PROTOCOLS.md.

time_limits = _core.time_limits


class Engine(_core.Engine):
    """A searcher for one variant that keeps what it learnt between searches.

    ``Engine("burden", hash_mb=64, threads=2, royal="maharajah")``: the
    variant and its options as for :class:`fairyforge.Board`, a table of
    ``hash_mb`` MiB and ``threads`` search threads. Searching the moves of
    one game with one engine reuses the table and the move histories
    (halved at each search), so each search starts from what the earlier
    ones found; :meth:`new_game` forgets it all (the next search is then
    exactly a fresh engine's). ``hashfull`` is the table's fill in permille,
    :meth:`resize` replaces the table (and forgets the history). One
    search at a time per engine: a second one started meanwhile from
    another thread raises ``RuntimeError``.
    """

    @overload
    def search(
        self,
        board: _core.Board,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        multipv: Literal[1] = 1,
        info: Callable[[Info], object] | None = None,
        *,
        wtime: int | None = None,
        btime: int | None = None,
        winc: int = 0,
        binc: int = 0,
        movestogo: int | None = None,
        eval: str = "full",
        plain: bool = False,
        weights: str | os.PathLike[str] | None = None,
    ) -> SearchResult: ...
    @overload
    def search(
        self,
        board: _core.Board,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        multipv: int = 1,
        info: Callable[[Info], object] | None = None,
        *,
        wtime: int | None = None,
        btime: int | None = None,
        winc: int = 0,
        binc: int = 0,
        movestogo: int | None = None,
        eval: str = "full",
        plain: bool = False,
        weights: str | os.PathLike[str] | None = None,
    ) -> SearchResult | list[SearchResult]: ...
    def search(
        self,
        board: _core.Board,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        multipv: int = 1,
        info: Callable[[Info], object] | None = None,
        *,
        wtime: int | None = None,
        btime: int | None = None,
        winc: int = 0,
        binc: int = 0,
        movestogo: int | None = None,
        eval: str = "full",
        plain: bool = False,
        weights: str | os.PathLike[str] | None = None,
    ) -> SearchResult | list[SearchResult]:
        """Search the board's position (a board of this engine's variant).

        Limits as for :meth:`fairyforge.Board.search` -- ``depth``, ``nodes``,
        ``movetime`` (milliseconds) -- and, as UCI's ``go`` gives them, the
        clock: ``wtime``/``btime`` (milliseconds left), ``winc``/``binc``
        (increments) and ``movestogo``; the side to move's clock is turned
        into limits by :func:`time_limits`, ``movetime`` then caps it. Runs
        without the GIL and stops on Ctrl-C; ``info`` is called with an
        :class:`Info` after every iteration. Returns one
        :class:`SearchResult`, or a list of them (best first) when
        ``multipv > 1``.
        """
        soft = None
        remaining = wtime if board.turn else btime
        if remaining is None and (wtime, btime) != (None, None):
            side = "wtime" if board.turn else "btime"
            raise _core.InvalidOptionError(f"invalid clock: the side to move has no {side}")
        if remaining is not None:
            soft, hard = time_limits(remaining, winc if board.turn else binc, movestogo)
            movetime = hard if movetime is None else min(movetime, hard)
        path = None if weights is None else os.fspath(weights)
        results = self._search(
            board, depth, nodes, movetime, soft, multipv, eval, plain, info, path
        )
        return results if multipv > 1 else results[0]

    def play(
        self,
        board: _core.Board,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        *,
        wtime: int | None = None,
        btime: int | None = None,
        winc: int = 0,
        binc: int = 0,
        movestogo: int | None = None,
        eval: str = "full",
        plain: bool = False,
        weights: str | os.PathLike[str] | None = None,
    ) -> _core.Move | None:
        """The move to play (not pushed), with the limits of :meth:`search`;
        None when the game is over."""
        result = self.search(
            board,
            depth,
            nodes,
            movetime,
            wtime=wtime,
            btime=btime,
            winc=winc,
            binc=binc,
            movestogo=movestogo,
            eval=eval,
            plain=plain,
            weights=weights,
        )
        return result.best_move
