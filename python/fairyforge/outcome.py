"""How a game ended: :class:`Termination` and :class:`Outcome` (as in
python-chess, plus the variant endings: shock, extinction and Burden
points)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Termination(enum.Enum):
    """Why a game ended."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    SHOCK = "shock"
    EXTINCTION = "extinction"
    INSUFFICIENT_MATERIAL = "insufficient_material"
    SEVENTYFIVE_MOVES = "seventyfive_moves"
    FIVEFOLD_REPETITION = "fivefold_repetition"
    FIFTY_MOVES = "fifty_moves"
    THREEFOLD_REPETITION = "threefold_repetition"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: termination, winner (True for White, None for a
    draw) and, in Burden, the points of each side ``(white, black)``."""

    termination: Termination
    winner: bool | None
    points: tuple[int, int] | None = None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"
