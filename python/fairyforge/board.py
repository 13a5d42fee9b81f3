"""The Python face of a game: :class:`Board` adds notebook display and the
game-layer conveniences to the native board."""

from __future__ import annotations

from fairyforge import _core


class Board(_core.Board):
    """A game of a variant, with python-chess conventions.

    ``Board("burden", royal="maharajah", cycle="knight")`` starts a game;
    ``push``/``pop``/``legal_moves``/``fen()`` work as in python-chess. Squares
    are given by name (``"e4"``) or by index ``rank * files + file``.
    """

    def _repr_svg_(self) -> str:
        from fairyforge import svg

        return svg.board(self, size=400)
