"""The Python face of a game: :class:`Board` adds outcomes, search results
and notebook display to the native board."""

from __future__ import annotations

from collections.abc import Callable

from fairyforge import _core
from fairyforge.outcome import Outcome, Termination
from fairyforge.results import Info, SearchResult


class Board(_core.Board):
    """A game of a variant, with python-chess conventions.

    ``Board("burden", royal="maharajah", cycle="knight")`` starts a game;
    ``push``/``pop``/``legal_moves``/``fen()``/``san()`` work as in
    python-chess. Squares are given by name (``"e4"``) or by index
    ``rank * files + file``.

    >>> board = Board("shocking", "c6c/8/4t3/2m5/8/8/8/4K3 b - - 0 1")
    >>> board.push_san("Md5")
    Move.from_uci('c5d5')
    >>> board.outcome()
    Outcome(termination=<Termination.SHOCK: 'shock'>, winner=True, points=None)
    >>> board.result()
    '1-0'
    """

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game ended, or None while it goes on. Without
        ``claim_draw`` only automatic endings count (checkmate, stalemate,
        shock, extinction, insufficient material, fivefold repetition, the
        75-move rule); with it also threefold repetition and fifty moves."""
        raw = self._outcome(claim_draw)
        if raw is None:
            return None
        name, winner, points = raw
        return Outcome(Termination(name), winner, points)

    def result(self, *, claim_draw: bool = False) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome(claim_draw=claim_draw)
        return outcome.result() if outcome else "*"

    def search(
        self,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        multipv: int = 1,
        threads: int = 1,
        info: Callable[[Info], object] | None = None,
        *,
        hash_mb: int = 16,
        eval: str = "full",
        plain: bool = False,
    ) -> SearchResult | list[SearchResult]:
        """Search the position; limits: ``depth`` (plies), ``nodes``,
        ``movetime`` (milliseconds). Runs without the GIL and stops on
        Ctrl-C. ``info`` is called with an :class:`Info` after every
        iteration. Returns one :class:`SearchResult`, or a list of them
        (best first) when ``multipv > 1``. ``eval="material"`` and
        ``plain=True`` give the weaker reference players used by matches.
        Every call starts with a fresh table of ``hash_mb`` MiB; a
        :class:`fairyforge.Engine` keeps its table between searches."""
        results = self._search(depth, nodes, movetime, multipv, threads, hash_mb, eval, plain, info)
        return results if multipv > 1 else results[0]

    def _repr_svg_(self) -> str:
        from fairyforge import svg

        check = self.royal_squares(self.turn) if self.is_check() else None
        lastmove = self.peek() if self.move_stack else None
        return svg.board(self, size=400, lastmove=lastmove, check=check)
