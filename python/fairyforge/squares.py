"""Squares, piece types and colours with python-chess's names.

Squares are ints numbered rank-major, ``file + rank * files`` (``a1`` is 0,
``b1`` is 1, the first square of rank 2 is ``files``): on an 8x8 board they
are python-chess's square numbers, so ``chess.E4 == 28`` names the same
square here. :meth:`fairyforge.Board.parse_square` and
:meth:`~fairyforge.Board.square_name` convert on any board size.

Piece types are python-chess's ints for the FIDE kinds, then the fairy
kinds: ``PAWN`` 1, ``KNIGHT`` 2, ``BISHOP`` 3, ``ROOK`` 4, ``QUEEN`` 5,
``KING`` 6, ``CORE`` 7, ``MISSILE`` 8, ``DRONE`` 9, ``TURRET`` 10,
``AUTOMATON`` 11, ``ROVER`` 12, ``MAHARAJAH`` 13, ``GRYPHON`` 14.

:class:`SquareSet` is what :meth:`~fairyforge.Board.pieces`,
:meth:`~fairyforge.Board.attackers` and the other square queries return:
a set of square ints (iteration in increasing order, ``len``, ``in``, set
operators with other square sets, ints as masks and iterables of squares),
whose ``int()`` is the mask with bit ``square`` set, as python-chess's
``SquareSet`` (equal to python-chess's bitboard on 8x8 boards).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from fairyforge._core import InvalidSquareError, piece_types

__all__ = [
    "AUTOMATON",
    "BISHOP",
    "BLACK",
    "COLORS",
    "CORE",
    "DRONE",
    "GRYPHON",
    "KING",
    "KNIGHT",
    "MAHARAJAH",
    "MISSILE",
    "PAWN",
    "PIECE_NAMES",
    "PIECE_SYMBOLS",
    "PIECE_TYPES",
    "QUEEN",
    "ROOK",
    "ROVER",
    "TURRET",
    "WHITE",
    "SquareSet",
]

WHITE = True
BLACK = False
COLORS = [WHITE, BLACK]

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
CORE, MISSILE, DRONE, TURRET, AUTOMATON, ROVER, MAHARAJAH, GRYPHON = 7, 8, 9, 10, 11, 12, 13, 14
PIECE_TYPES = list(range(1, 15))
#: Lower-case letter of each piece type (index 0 unused, as python-chess).
PIECE_SYMBOLS: list[str | None] = [None, *(letter for letter, _ in piece_types())]
#: Name of each piece type (index 0 unused, as python-chess).
PIECE_NAMES: list[str | None] = [None, *(name for _, name in piece_types())]


def _mask(squares: SquareSet | int | Iterable[int]) -> int:
    if isinstance(squares, SquareSet):
        return squares.mask
    if isinstance(squares, int):
        if squares < 0:
            raise InvalidSquareError(f"square mask {squares} is negative")
        return squares
    mask = 0
    for sq in squares:
        if not isinstance(sq, int) or sq < 0:
            raise InvalidSquareError(f"{sq!r} is not a square int")
        mask |= 1 << sq
    return mask


class SquareSet:
    """A set of squares (ints), python-chess's ``SquareSet`` for any board
    size: ``SquareSet([0, 28])``, ``SquareSet(mask)``; iterates in
    increasing order; ``int()`` is the mask."""

    __slots__ = ("mask",)

    def __init__(self, squares: SquareSet | int | Iterable[int] = 0) -> None:
        self.mask: int = _mask(squares)

    def __iter__(self) -> Iterator[int]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def __reversed__(self) -> Iterator[int]:
        return iter(sorted(self, reverse=True))

    def __len__(self) -> int:
        return bin(self.mask).count("1")

    def __contains__(self, square: object) -> bool:
        return isinstance(square, int) and square >= 0 and bool(self.mask >> square & 1)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SquareSet):
            return self.mask == other.mask
        if isinstance(other, int):
            return self.mask == other
        if isinstance(other, (set, frozenset)):
            return set(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: SquareSet | int | Iterable[int]) -> SquareSet:
        return SquareSet(self.mask | _mask(other))

    def __and__(self, other: SquareSet | int | Iterable[int]) -> SquareSet:
        return SquareSet(self.mask & _mask(other))

    def __sub__(self, other: SquareSet | int | Iterable[int]) -> SquareSet:
        return SquareSet(self.mask & ~_mask(other))

    def __xor__(self, other: SquareSet | int | Iterable[int]) -> SquareSet:
        return SquareSet(self.mask ^ _mask(other))

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def tolist(self) -> list[int]:
        """The squares in increasing order."""
        return list(self)

    def __repr__(self) -> str:
        return f"SquareSet({self.mask:#x})"
