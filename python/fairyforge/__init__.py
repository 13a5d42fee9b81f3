"""fairyforge: a fast chess-variant engine with a Rust core.

>>> import fairyforge
>>> board = fairyforge.Board("shocking")
>>> len(board.legal_moves)
20
>>> board.push_uci("e2e4")
Move.from_uci('e2e4')
>>> board.perft(2)
540
"""

from __future__ import annotations

from fairyforge._core import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidOptionError,
    LegalMoves,
    Move,
    Piece,
    VariantInfo,
    divide_text,
    perft,
    variant,
    variants,
)
from fairyforge.board import Board

try:
    from importlib.metadata import version as _version

    __version__ = _version("fairyforge")
except Exception:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = [
    "AmbiguousMoveError",
    "Board",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidOptionError",
    "LegalMoves",
    "Move",
    "Piece",
    "VariantInfo",
    "divide_text",
    "perft",
    "variant",
    "variants",
]
