"""Render boards and pieces as SVG images, in the style of ``chess.svg``.

Every piece is drawn from vector shapes defined once in this module, so an
image needs no fonts for the pieces, no external files and no network.

>>> from fairyforge import svg
>>> text = svg.piece("C")
>>> text.startswith("<svg") and 'class="piece white core"' in text
True

The ``board`` argument of :func:`board` is any object with ``files``,
``ranks`` and ``piece_at(square)``; squares are numbered rank-major
(``square = rank * files + file``, a1 = 0) and a piece is either a letter
(RULES.md §2.1) or an object whose ``symbol()`` returns one.
"""

from __future__ import annotations

import math
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Any

from fairyforge._core import InvalidOptionError, InvalidSquareError

__all__ = ["SvgWrapper", "board", "piece", "render_png"]

SQUARE_SIZE = 45
"""Side of one square (and of one piece glyph) in SVG user units."""

MARGIN = 20
"""Width of the coordinate margin around the board, in SVG user units."""

COLORS = {
    "square light": "#ffce9e",
    "square dark": "#d18b47",
    "square light lastmove": "#cdd16a",
    "square dark lastmove": "#aaa23b",
    "margin": "#212121",
    "coord": "#e5e5e5",
    "marker": "#882020",
}

ARROW_COLORS = {
    "green": "#15781b80",
    "red": "#88202080",
    "yellow": "#e68f00b3",
    "blue": "#00308880",
}

# Colours a glyph is drawn with: body fill, outline, inner detail lines, and
# the LED accent shared by the Network machines.
PIECE_PALETTES = {
    "white": {"fill": "#ffffff", "line": "#000000", "detail": "#000000", "accent": "#2cc2f0"},
    "black": {"fill": "#1a1a1a", "line": "#000000", "detail": "#ececec", "accent": "#2cc2f0"},
}

# RULES.md §2.1: one letter per piece type, the same in every variant.
PIECE_NAMES = {
    "k": "king",
    "q": "queen",
    "r": "rook",
    "b": "bishop",
    "n": "knight",
    "p": "pawn",
    "c": "core",
    "m": "missile",
    "d": "drone",
    "t": "turret",
    "a": "automaton",
    "v": "rover",
    "h": "maharajah",
    "g": "gryphon",
}


# -- glyph building blocks ---------------------------------------------------
# Glyphs are drawn in a 45x45 box. Fragments are SVG markup with str.format
# fields {fill}, {line}, {detail} and {accent}; the enclosing <g> sets
# fill={fill}, stroke={line}, so plain shapes need no colour attributes.

_DETAIL = 'fill="none" stroke="{detail}"'
_DOT = 'fill="{detail}" stroke="none"'
_LED = 'fill="{accent}"'


def _plinth(half: float, top: float = 34.5) -> str:
    """The round-cornered foot of a Staunton piece, centred, down to y=39.5."""
    return f'<rect x="{22.5 - half}" y="{top}" width="{2 * half}" height="{39.5 - top}" rx="1.5"/>'


def _chassis(half: float) -> str:
    """The riveted trapezoid plate every standing Network machine stands on."""
    left, right = 22.5 - half, 22.5 + half
    rivets = "".join(
        f'<circle cx="{x}" cy="37.4" r="0.9" {_DOT}/>' for x in (left + 4, 22.5, right - 4)
    )
    return f'<path d="M {left},39.5 L {left + 2},35 H {right - 2} L {right},39.5 Z"/>' + rivets


def _antenna(x: float, y: float, top: float, tilt: float = 0.0, r: float = 1.6) -> str:
    """An antenna mast from (x, y) up to `top`, ending in a glowing bulb."""
    return (
        f'<path d="M {x},{y} L {x + tilt},{top + r}" fill="none"/>'
        f'<circle cx="{x + tilt}" cy="{top}" r="{r}" {_LED}/>'
    )


_KNIGHT = (
    _plinth(12.5)
    + '<path d="M 14.5,34.5 C 14,29 18,26.5 20,22.5 L 12.5,27 C 10.5,28.5 7.5,27.5 7.5,25'
    " C 7.5,23 9,21.5 10.5,20 L 14.5,15 L 16,9.5 L 18.5,5.5 L 20.5,10"
    ' C 28,10 33.5,16 33.5,25 C 33.5,29 32.5,32 32,34.5 Z"/>'
    f'<path d="M 21.5,12 C 27.5,13 31,18.5 31,27" {_DETAIL}/>'
    f'<circle cx="15.3" cy="17.3" r="1.3" {_DOT}/>'
    f'<circle cx="10.2" cy="24.6" r="0.9" {_DOT}/>'
)

_CROWN_BAND = f'<path d="M 13,30.5 Q 22.5,28 32,30.5" {_DETAIL}/>'

_GLYPH_PARTS: dict[str, tuple[str, ...]] = {
    # FIDE pieces: Staunton-like silhouettes on a plinth.
    "king": (
        _plinth(13.5),
        '<path d="M 12.5,34.5 L 11,24 C 10.5,19.5 16,18 19.5,21.5 L 22.5,24.5 L 25.5,21.5'
        ' C 29,18 34.5,19.5 34,24 L 32.5,34.5 Z"/>',
        '<circle cx="22.5" cy="19.5" r="3.5"/>',
        '<path d="M 21,4.5 H 24 V 8 H 27.5 V 11 H 24 V 16 H 21 V 11 H 17.5 V 8 H 21 Z"/>',
        _CROWN_BAND,
    ),
    "queen": (
        _plinth(13.5),
        '<path d="M 12.5,34.5 L 10,16 L 16,26 L 17,12.5 L 21,25 L 22.5,10.5 L 24,25'
        ' L 28,12.5 L 29,26 L 35,16 L 32.5,34.5 Z"/>',
        *(
            f'<circle cx="{x}" cy="{y}" r="2.2"/>'
            for x, y in ((10, 14.5), (17, 11), (22.5, 9), (28, 11), (35, 14.5))
        ),
        _CROWN_BAND,
    ),
    "rook": (
        _plinth(13.5),
        '<rect x="12" y="31" width="21" height="3.5"/>',
        '<path d="M 14,31 L 15.5,17 H 29.5 L 31,31 Z"/>',
        '<rect x="12" y="14" width="21" height="3"/>',
        '<path d="M 12,14 V 8 H 16 V 10.5 H 20.5 V 8 H 24.5 V 10.5 H 29 V 8 H 33 V 14 Z"/>',
    ),
    "bishop": (
        _plinth(13.5),
        '<path d="M 14,34.5 C 17,32 19,30.5 19,28.5 H 26 C 26,30.5 28,32 31,34.5 Z"/>',
        '<rect x="16.5" y="26" width="12" height="2.5" rx="1"/>',
        '<path d="M 17.5,26 C 14,21.5 16,16 22.5,10 C 29,16 31,21.5 27.5,26 Z"/>',
        '<circle cx="22.5" cy="7.5" r="2.5"/>',
        f'<path d="M 25.5,14.5 L 20.5,20" {_DETAIL}/>',
    ),
    "knight": (_KNIGHT,),
    "pawn": (
        _plinth(11),
        '<path d="M 19.5,20.5 C 19.5,27 15.5,30 14.5,34.5 H 30.5 C 29.5,30 25.5,27 25.5,20.5 Z"/>',
        '<path d="M 17,21 H 28 L 26.5,18 H 18.5 Z"/>',
        '<circle cx="22.5" cy="13" r="5"/>',
    ),
    # Fairy royals of Burden: a crowned knight, and a winged eagle-headed beast.
    "maharajah": (
        f'<g transform="translate(2.5 4) scale(0.9)">{_KNIGHT}</g>',
        '<path d="M 16,12 L 14,4 L 19,8 L 22.5,2.5 L 26,8 L 31,4 L 29,12 Z"/>',
        *(f'<circle cx="{x}" cy="{y}" r="1.5"/>' for x, y in ((14, 3.5), (22.5, 2), (31, 3.5))),
        f'<path d="M 16.5,10 H 28.5" {_DETAIL}/>',
    ),
    "gryphon": (
        _plinth(12.5),
        '<path d="M 21,34.5 C 21,22 27,11 39,5 C 38,9 40,11 37.5,13 C 39,15.5 38.5,17.5'
        ' 36.5,19 C 38,21.5 37,24 34.5,25 C 35.5,27.5 34,30 31.5,30.5 L 32,34.5 Z"/>',
        f'<path d="M 37.5,13 L 30,18 M 36.5,19 L 30,23.5 M 34.5,25 L 29.5,28.5" {_DETAIL}/>',
        '<path d="M 14,34.5 C 14,29 17,26 18.5,23 C 17,21.5 15.5,20.5 14.5,19.5 L 11.5,18'
        " C 9.5,18.5 8,19.5 7,21.5 C 5.5,16 8.5,11.5 14.5,11.5 L 18,10 L 19,4.5 L 21.5,9.5"
        ' L 24.5,5.5 L 25,11.5 C 26.5,15 27,19 26,23 C 25,27 24,31 25,34.5 Z"/>',
        f'<path d="M 14,12 C 12.5,14 12.5,16.5 14.5,19.5" {_DETAIL}/>',
        f'<circle cx="17.5" cy="14.5" r="1.4" {_DOT}/>',
    ),
    # The Network machines of Shocking Chess: riveted chassis, angular
    # plating, circuit traces and cyan LEDs.
    "core": (
        _chassis(13),
        '<path d="M 12,35 L 11,22.5 L 15,18.5 H 30 L 34,22.5 L 33,35 Z"/>',
        '<path d="M 15,18.5 L 13,10.5 L 18.5,14.5 L 22.5,7 L 26.5,14.5 L 32,10.5 L 30,18.5 Z"/>',
        *(
            f'<circle cx="{x}" cy="{y}" r="1.9" {_LED}/>'
            for x, y in ((13, 9.5), (22.5, 5.5), (32, 9.5))
        ),
        f'<path d="M 12,27 H 16.5 M 28.5,27 H 33 M 22.5,32 V 35" {_DETAIL}/>',
        f'<circle cx="22.5" cy="27" r="5.2" {_LED}/>',
        '<circle cx="22.5" cy="27" r="2" fill="#ffffff" stroke="none"/>',
    ),
    "missile": (
        _chassis(12),
        '<path d="M 17,35 H 12.5 L 13.5,27 L 17,23.5 Z M 28,35 H 32.5 L 31.5,27 L 28,23.5 Z"/>',
        '<rect x="17" y="15" width="11" height="20"/>',
        '<path d="M 17,15 C 17,10 19.5,6.5 22.5,3.5 C 25.5,6.5 28,10 28,15 Z"/>',
        f'<path d="M 17,27.5 H 28" {_DETAIL}/>',
        *(f'<circle cx="{x}" cy="31" r="0.9" {_DOT}/>' for x in (19.5, 25.5)),
        f'<circle cx="22.5" cy="20.5" r="2.6" {_LED}/>',
    ),
    "drone": (
        '<path d="M 12,12 L 33,33 M 33,12 L 12,33" stroke-width="5.5"/>',
        '<path d="M 12,12 L 33,33 M 33,12 L 12,33" stroke="{fill}" stroke-width="2.5"/>',
        *(
            f'<circle cx="{x}" cy="{y}" r="5.5"/>'
            f'<path d="M {x - 4},{y + 1.5} L {x + 4},{y - 1.5}" {_DETAIL}/>'
            for x, y in ((11, 11), (34, 11), (11, 34), (34, 34))
        ),
        '<path d="M 18.5,15.5 H 26.5 L 29.5,18.5 V 26.5 L 26.5,29.5 H 18.5 L 15.5,26.5 V 18.5 Z"/>',
        *(
            f'<circle cx="{x}" cy="{y}" r="0.9" {_DOT}/>'
            for x, y in ((18.5, 18.5), (26.5, 18.5), (18.5, 26.5), (26.5, 26.5))
        ),
        f'<circle cx="22.5" cy="22.5" r="2.6" {_LED}/>',
    ),
    "turret": (
        _chassis(11.5),
        '<rect x="18" y="14" width="4" height="12"/><rect x="23" y="14" width="4" height="12"/>',
        '<rect x="17" y="12" width="6" height="3" rx="0.5"/>',
        '<rect x="22" y="12" width="6" height="3" rx="0.5"/>',
        '<path d="M 13,35 V 30 L 16.5,25 H 28.5 L 32,30 V 35 Z"/>',
        f'<rect x="17.5" y="28.2" width="10" height="2.4" rx="1" {_LED}/>',
        *(f'<circle cx="{x}" cy="32.8" r="0.8" {_DOT}/>' for x in (16.5, 22.5, 28.5)),
    ),
    "automaton": (
        _antenna(22.5, 12, 6),
        '<path d="M 18,12 H 27 L 29,14 V 19 L 27,21 H 18 L 16,19 V 14 Z"/>',
        *(f'<circle cx="{x}" cy="16.5" r="1.5" {_LED}/>' for x in (20, 25)),
        '<rect x="11.5" y="23" width="3.5" height="8" rx="1"/>',
        '<rect x="30" y="23" width="3.5" height="8" rx="1"/>',
        '<rect x="17.5" y="29" width="4" height="7"/><rect x="23.5" y="29" width="4" height="7"/>',
        '<rect x="15" y="22" width="15" height="9" rx="1"/>',
        '<rect x="15" y="35.5" width="7" height="4" rx="1"/>',
        '<rect x="23" y="35.5" width="7" height="4" rx="1"/>',
        f'<path d="M 18,25 H 21 V 28 H 24 M 27,25 V 28" {_DETAIL}/>',
    ),
    "rover": (
        _antenna(12, 20, 10, tilt=-2),
        '<path d="M 28,20 V 16.5" fill="none"/>',
        '<path d="M 24,10.5 H 32.5 L 34,12 V 15.5 L 32.5,17 H 24 Z"/>',
        f'<circle cx="30" cy="13.75" r="2" {_LED}/>',
        '<path d="M 7.5,30 V 23.5 L 10.5,20 H 34.5 L 37.5,23.5 V 30 Z"/>',
        f'<path d="M 10.5,25 H 34.5" {_DETAIL}/>',
        *(
            f'<circle cx="{x}" cy="33.5" r="5"/><circle cx="{x}" cy="33.5" r="1.6" {_DOT}/>'
            for x in (12, 22.5, 33)
        ),
    ),
}

GLYPHS = {name: "".join(parts) for name, parts in _GLYPH_PARTS.items()}
"""SVG markup of each piece type, with {fill}, {line}, {detail} and {accent} fields."""


class SvgWrapper(str):
    """SVG text that Jupyter displays as an image."""

    def _repr_svg_(self) -> str:
        return self


# -- helpers -----------------------------------------------------------------


def _num(value: float) -> str:
    """A number without trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _el(parent: ET.Element | None, tag: str, **attrs: Any) -> ET.Element:
    """A new element; `class_` is ``class``, `stroke_width` is ``stroke-width``
    and numbers are written with at most two decimals."""
    values = {
        key.rstrip("_").replace("_", "-"): value if isinstance(value, str) else _num(value)
        for key, value in attrs.items()
    }
    if parent is None:
        return ET.Element(tag, values)
    return ET.SubElement(parent, tag, values)


def _svg(width: float, height: float, view_width: float, view_height: float) -> ET.Element:
    return _el(
        None,
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        **{"xmlns:xlink": "http://www.w3.org/1999/xlink"},
        width=width,
        height=height,
        viewBox=f"0 0 {_num(view_width)} {_num(view_height)}",
    )


def _text(element: ET.Element) -> SvgWrapper:
    return SvgWrapper(ET.tostring(element, encoding="unicode"))


def _piece_letter(board: Any, square: int) -> tuple[str, str | None] | None:
    """The symbol on a square and its kind's name: ``piece_at`` may give a
    piece (with ``symbol()`` and ``name``) or a letter (no name)."""
    found = board.piece_at(square)
    if found is None:
        return None
    if isinstance(found, str):
        return found, None
    return found.symbol(), getattr(found, "name", None)


def _glyph_id(symbol: str, name: str | None = None) -> str:
    """``white-core`` for ``C``; with a kind's name, its drawing, or for a
    kind without one (a variant's own) ``white-letter-A`` (a disc with the
    letter; a prime is written ``p``). InvalidOptionError for a letter
    outside RULES.md §2.1 when no name is given."""
    color = "white" if symbol[:1].isupper() else "black"
    if name is not None:
        if name in GLYPHS:
            return f"{color}-{name}"
        return f"{color}-letter-{symbol.upper().replace(chr(39), 'p')}"
    name = PIECE_NAMES.get(symbol.lower()) if len(symbol) == 1 else None
    if name is None:
        letters = "".join(PIECE_NAMES).upper()
        raise InvalidOptionError(
            f"unknown piece letter {symbol!r}: expected one of {letters} (White) "
            "or their lower case (Black)"
        )
    return f"{'white' if symbol.isupper() else 'black'}-{name}"


def _letter_disc(letter: str) -> str:
    """A disc with a kind's symbol, for kinds without a drawing."""
    text = letter.replace("p", "\u2032") if len(letter) > 1 else letter
    return (
        '<circle cx="22.5" cy="22.5" r="17" />'
        '<text x="22.5" y="29" text-anchor="middle" font-size="19" font-family="sans-serif" '
        f'font-weight="bold" stroke="none" fill="{{detail}}">{text}</text>'
    )


def _glyph(glyph_id: str) -> ET.Element:
    """The <g> definition of a glyph such as ``white-core``."""
    color, name = glyph_id.split("-", 1)
    palette = PIECE_PALETTES[color]
    drawing = _letter_disc(name[len("letter-") :]) if name.startswith("letter-") else GLYPHS[name]
    group = ET.fromstring(f"<g>{drawing.format(**palette)}</g>")
    group.attrib.update(
        {
            "id": glyph_id,
            "fill": palette["fill"],
            "stroke": palette["line"],
            "stroke-width": "1.5",
            "stroke-linejoin": "round",
            "stroke-linecap": "round",
        }
    )
    return group


def _use(
    parent: ET.Element,
    symbol: str,
    x: float,
    y: float,
    square: str | None = None,
    kind: str | None = None,
) -> None:
    """Place one piece glyph with its top-left corner at (x, y), on `square`."""
    glyph_id = _glyph_id(symbol, kind)
    color, name = glyph_id.split("-", 1)
    _el(
        parent,
        "use",
        href=f"#{glyph_id}",
        **{"xlink:href": f"#{glyph_id}"},
        class_=f"piece {color} {name}",
        data_piece=symbol,
        **({"data-square": square} if square else {}),
        transform=f"translate({_num(x)}, {_num(y)})",
    )


def _coordinate(parent: ET.Element, label: str, kind: str, x: float, y: float) -> None:
    """A file letter or rank number centred on (x, y)."""
    text = _el(
        parent,
        "text",
        x=x,
        y=y + 5,
        class_=f"coord {kind}",
        fill=COLORS["coord"],
        font_family="sans-serif",
        font_size=14,
        font_weight="bold",
        text_anchor="middle",
    )
    text.text = label


def _square_index(square: int | str, size: tuple[int, int]) -> int:
    """A square given as an index (``rank * files + file``) or a name
    (``"e4"``) on a board of ``size`` (files, ranks); a square off the board
    raises :class:`fairyforge.InvalidSquareError`."""
    files, ranks = size
    if isinstance(square, str):
        m = re.fullmatch(r"([a-l])([1-9][0-9]?)", square)
        if m and ord(m[1]) - ord("a") < files and int(m[2]) <= ranks:
            return (int(m[2]) - 1) * files + ord(m[1]) - ord("a")
    elif isinstance(square, int) and not isinstance(square, bool):
        if 0 <= square < files * ranks:
            return square
    else:
        raise TypeError(f"a square is an index or a name, not {type(square).__name__}")
    raise InvalidSquareError(f"{square!r} is not a square of the {files}x{ranks} board")


def _squares(value: Any, size: tuple[int, int]) -> list[int]:
    """None, one square or several (indices or names), as a list of indices."""
    if value is None:
        return []
    if isinstance(value, (int, str)):
        return [_square_index(value, size)]
    return [_square_index(square, size) for square in value]


def _arrow_parts(arrow: Any, size: tuple[int, int]) -> tuple[int, int, str]:
    """Tail, head and SVG colour of an arrow tuple or object."""
    if isinstance(arrow, tuple):
        tail, head, *rest = arrow
        color = rest[0] if rest else "green"
    else:
        tail, head, color = arrow.tail, arrow.head, getattr(arrow, "color", "green")
    tail, head = _squares((tail, head), size)
    return tail, head, ARROW_COLORS.get(color, color)


# -- public API --------------------------------------------------------------


def piece(symbol: str, size: int = 45) -> SvgWrapper:
    """A standalone SVG of one piece, `size` pixels square.

    `symbol` is a letter of RULES.md §2.1: upper case White, lower case Black.
    """
    glyph_id = _glyph_id(symbol)
    svg = _svg(size, size, SQUARE_SIZE, SQUARE_SIZE)
    _el(svg, "defs").append(_glyph(glyph_id))
    _use(svg, symbol, 0, 0)
    return _text(svg)


def board(
    board: Any,
    *,
    size: int = 400,
    lastmove: Any = None,
    check: int | str | Iterable[int | str] | None = None,
    arrows: Iterable[Any] = (),
    orientation: bool = True,
    coordinates: bool = True,
    squares: Iterable[int | str] | None = None,
) -> SvgWrapper:
    """An SVG image of a board, `size` pixels wide (the height follows the
    board's shape).

    Squares are indices (``rank * files + file``) or names (``"e4"``).

    - `board`: an object with ``files``, ``ranks`` and ``piece_at(square)``.
    - `lastmove`: an object with ``from_square`` and ``to_square``; both are
      highlighted.
    - `check`: a square, or several (one per royal piece in check), marked
      with a red radial gradient.
    - `arrows`: ``(tail, head)`` or ``(tail, head, color)`` tuples, or objects
      with ``tail``, ``head`` and optionally ``color`` (green, red, yellow,
      blue or any SVG colour). An arrow from a square to itself is a circle.
    - `orientation`: True draws White at the bottom, False flips the board.
    - `coordinates`: file letters and rank numbers in a margin on all sides.
    - `squares`: squares marked with a cross.
    """
    files, ranks = board.files, board.ranks
    margin = MARGIN if coordinates else 0
    width = files * SQUARE_SIZE + 2 * margin
    height = ranks * SQUARE_SIZE + 2 * margin
    svg = _svg(size, size * height / width, width, height)
    defs = _el(svg, "defs")

    def corner(square: int) -> tuple[float, float]:
        file, rank = square % files, square // files
        column = file if orientation else files - 1 - file
        row = ranks - 1 - rank if orientation else rank
        return margin + column * SQUARE_SIZE, margin + row * SQUARE_SIZE

    def name(square: int) -> str:
        return f"{chr(ord('a') + square % files)}{square // files + 1}"

    def cell(tag: str, square: int, **attrs: Any) -> ET.Element:
        """An element covering one square."""
        x, y = corner(square)
        return _el(svg, tag, x=x, y=y, width=SQUARE_SIZE, height=SQUARE_SIZE, **attrs)

    if coordinates:
        _el(svg, "rect", x=0, y=0, width=width, height=height, fill=COLORS["margin"])

    highlighted = set()
    if lastmove is not None:
        highlighted = set(_squares((lastmove.from_square, lastmove.to_square), (files, ranks)))
    for square in range(files * ranks):
        shade = "light" if (square % files + square // files) % 2 else "dark"
        key = f"square {shade}" + (" lastmove" if square in highlighted else "")
        cell("rect", square, class_=f"{key} {name(square)}", fill=COLORS[key], stroke="none")

    in_check = _squares(check, (files, ranks))
    if in_check:
        gradient = _el(defs, "radialGradient", id="check_gradient", r=0.5)
        for offset, color, opacity in (
            ("0%", "#ff0000", 1),
            ("50%", "#e70000", 1),
            ("100%", "#9e0000", 0),
        ):
            _el(gradient, "stop", offset=offset, stop_color=color, stop_opacity=opacity)
    for square in in_check:
        cell("rect", square, class_=f"check {name(square)}", fill="url(#check_gradient)")

    if coordinates:
        for index in range(files):
            x = corner(index)[0] + SQUARE_SIZE / 2
            for y in (margin / 2, height - margin / 2):
                _coordinate(svg, chr(ord("a") + index), "file", x, y)
        for index in range(ranks):
            y = corner(index * files)[1] + SQUARE_SIZE / 2
            for x in (margin / 2, width - margin / 2):
                _coordinate(svg, str(index + 1), "rank", x, y)

    used: dict[str, None] = {}
    for square in range(files * ranks):
        found = _piece_letter(board, square)
        if found is not None:
            symbol, kind = found
            used[_glyph_id(symbol, kind)] = None
            _use(svg, symbol, *corner(square), square=name(square), kind=kind)
    for glyph_id in used:
        defs.append(_glyph(glyph_id))

    marked = _squares(squares, (files, ranks))
    if marked:
        cross = _el(
            defs,
            "g",
            id="xx",
            fill="none",
            stroke=COLORS["marker"],
            stroke_width=4,
            stroke_linecap="round",
        )
        _el(cross, "path", d="M 10,10 L 35,35 M 35,10 L 10,35")
    for square in marked:
        x, y = corner(square)
        _el(
            svg,
            "use",
            href="#xx",
            **{"xlink:href": "#xx"},
            class_=f"marker {name(square)}",
            transform=f"translate({_num(x)}, {_num(y)})",
        )

    half = SQUARE_SIZE / 2
    for arrow in arrows:
        tail, head, color = _arrow_parts(arrow, (files, ranks))
        group = _el(svg, "g", class_=f"arrow {name(tail)} {name(head)}")
        tx, ty = (c + half for c in corner(tail))
        hx, hy = (c + half for c in corner(head))
        if tail == head:
            _el(
                group,
                "circle",
                cx=tx,
                cy=ty,
                r=SQUARE_SIZE * 0.45,
                fill="none",
                stroke=color,
                stroke_width=SQUARE_SIZE * 0.1,
            )
            continue
        length = math.hypot(hx - tx, hy - ty)
        ux, uy = (hx - tx) / length, (hy - ty) / length
        tip_x, tip_y = hx + ux * SQUARE_SIZE * 0.2, hy + uy * SQUARE_SIZE * 0.2
        back_x, back_y = tip_x - ux * SQUARE_SIZE * 0.5, tip_y - uy * SQUARE_SIZE * 0.5
        wing_x, wing_y = -uy * SQUARE_SIZE * 0.3, ux * SQUARE_SIZE * 0.3
        _el(
            group,
            "line",
            x1=tx,
            y1=ty,
            x2=back_x,
            y2=back_y,
            stroke=color,
            stroke_width=SQUARE_SIZE * 0.2,
        )
        points = (
            (tip_x, tip_y),
            (back_x + wing_x, back_y + wing_y),
            (back_x - wing_x, back_y - wing_y),
        )
        _el(
            group, "polygon", fill=color, points=" ".join(f"{_num(a)},{_num(b)}" for a, b in points)
        )

    return _text(svg)


def render_png(svg_text: str, path: str | os.PathLike[str], size: int | None = None) -> None:
    """Write `svg_text` as a PNG file, `size` pixels wide (None: the SVG's width).

    Needs the optional dependency ``cairosvg``; raises ImportError without it.
    """
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: cairosvg without the cairo library
        raise ImportError(
            "fairyforge.svg.render_png needs the optional dependency cairosvg and the "
            "cairo library: pip install 'fairyforge[png]' (or pip install cairosvg)"
        ) from exc
    cairosvg.svg2png(bytestring=svg_text.encode(), write_to=os.fspath(path), output_width=size)
