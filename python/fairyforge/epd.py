"""EPD operations as python-chess writes and reads them: ``bm Nf3;``,
``id "name";``, ``hmvc 0;``, ``pv e4 e5 Nf3;`` and bare ``opcode;``.

Used by :meth:`fairyforge.Board.epd` and :meth:`fairyforge.Board.set_epd`.
Moves are SAN of the position (``pv`` a line played from it, ``am`` and
``bm`` sets of moves of it, written sorted), numbers are ints or floats,
anything else a quoted string with ``\\`` escapes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Union

from fairyforge._core import Board, InvalidFenError, Move

#: What an EPD operation holds.
EpdOperand = Union[None, str, int, float, Move, list[Move]]

_OPCODE = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\r": "\\r", "\n": "\\n", '"': '\\"'}
_UNESCAPE = {"t": "\t", "r": "\r", "n": "\n"}
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")


def _check_opcode(opcode: str) -> None:
    if not _OPCODE.match(opcode):
        raise InvalidFenError(
            f"invalid EPD opcode {opcode!r}: expected a letter then letters, digits or _"
        )


def format_operations(board: Board, operations: Mapping[str, EpdOperand | Iterable[Move]]) -> str:
    """The operations as EPD text (SAN from ``board``), as python-chess."""
    out = []
    for opcode, operand in operations.items():
        _check_opcode(opcode)
        if operand is None:
            out.append(f"{opcode};")
        elif isinstance(operand, Move):
            out.append(f"{opcode} {board.san(operand)};")
        elif isinstance(operand, bool):
            raise InvalidFenError(f"EPD operation {opcode}: a bool is not an operand")
        elif isinstance(operand, int):
            out.append(f"{opcode} {operand};")
        elif isinstance(operand, float):
            if not math.isfinite(operand):
                raise InvalidFenError(f"EPD operation {opcode}: {operand} is not finite")
            out.append(f"{opcode} {operand};")
        elif isinstance(operand, str):
            escaped = "".join(_ESCAPES.get(ch, ch) for ch in operand)
            out.append(f'{opcode} "{escaped}";')
        elif opcode == "pv":
            line = board.copy(stack=False)
            sans = []
            for move in operand:
                sans.append(line.san(move))
                line.push(move)
            out.append(" ".join([opcode, *sans]) + ";")
        else:
            out.append(" ".join([opcode, *sorted(board.san(m) for m in operand)]) + ";")
    return " ".join(out)


def _split(text: str) -> list[tuple[str, list[str], bool]]:
    """``(opcode, tokens, quoted)`` per operation."""
    ops: list[tuple[str, list[str], bool]] = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\r\n;":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i] not in " \t\r\n;":
            i += 1
        opcode = text[start:i]
        tokens: list[str] = []
        quoted = False
        while i < n and text[i] != ";":
            if text[i] in " \t\r\n":
                i += 1
            elif text[i] == '"':
                quoted, value, i = True, [], i + 1
                while i < n and text[i] != '"':
                    if text[i] == "\\" and i + 1 < n:
                        value.append(_UNESCAPE.get(text[i + 1], text[i + 1]))
                        i += 2
                    else:
                        value.append(text[i])
                        i += 1
                tokens.append("".join(value))
                i += 1
            else:
                start = i
                while i < n and text[i] not in " \t\r\n;":
                    i += 1
                tokens.append(text[start:i])
        if opcode != "-":
            ops.append((opcode, tokens, quoted))
    return ops


def parse_operations(board: Board, text: str) -> dict[str, EpdOperand]:
    """The operations of EPD text, moves parsed on ``board``."""
    result: dict[str, EpdOperand] = {}
    for opcode, tokens, quoted in _split(text):
        _check_opcode(opcode)
        if quoted:
            result[opcode] = tokens[0]
        elif opcode in ("pv", "am", "bm"):
            line = board.copy(stack=False)
            moves = []
            for san in tokens:
                move = line.parse_san(san)
                moves.append(move)
                if opcode == "pv":
                    line.push(move)
            result[opcode] = moves
        elif not tokens:
            result[opcode] = None
        elif len(tokens) == 1 and _NUMBER.match(tokens[0]):
            word = tokens[0]
            number = float(word) if any(c in word for c in ".eE") else int(word)
            result[opcode] = number
        elif len(tokens) == 1:
            result[opcode] = board.parse_san(tokens[0])
        else:
            raise InvalidFenError(
                f"invalid EPD operation {opcode}: unexpected operands {' '.join(tokens)!r}"
            )
    return result
