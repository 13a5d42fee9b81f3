"""fairyforge.svg: board and piece images, checked as XML (and as PNG when
cairosvg is installed)."""

from __future__ import annotations

import re
import struct
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

from fairyforge import svg

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
LETTERS = "KQRBNPCMDTAVHG"
NAMES = dict(
    zip(
        LETTERS,
        "king queen rook bishop knight pawn core missile drone turret automaton rover maharajah"
        " gryphon".split(),
    )
)
SHOCKING = "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR"


@dataclass(frozen=True)
class Piece:
    letter: str

    def symbol(self) -> str:
        return self.letter


class FakeBoard:
    """Just enough of a board for svg.board: files, ranks, piece_at."""

    def __init__(self, placement: str) -> None:
        rows = [re.findall(r"\d+|[A-Za-z]", row) for row in placement.split("/")]
        self.ranks = len(rows)
        self.pieces: dict[int, Piece] = {}
        for index, row in enumerate(rows):
            cells: list[str | None] = []
            for token in row:
                cells += [None] * int(token) if token.isdigit() else [token]
            self.files = len(cells)
            for file, letter in enumerate(cells):
                if letter:
                    self.pieces[(self.ranks - 1 - index) * self.files + file] = Piece(letter)

    def piece_at(self, square: int) -> Piece | None:
        return self.pieces.get(square)


@dataclass
class Move:
    from_square: int
    to_square: int


@dataclass
class Arrow:
    tail: int
    head: int
    color: str = "red"


def glyph_id(letter: str) -> str:
    return f"{'white' if letter.isupper() else 'black'}-{NAMES[letter.upper()]}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def with_class(root: ET.Element, tag: str, name: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}{tag}") if name in e.get("class", "").split()]


def square_rect(root: ET.Element, name: str) -> ET.Element:
    (rect,) = [r for r in with_class(root, "rect", "square") if name in r.get("class").split()]
    return rect


def check_pieces(root: ET.Element, board) -> None:
    """One piece <use> per occupied square, with the right class and glyph."""
    uses = with_class(root, "use", "piece")
    expected = {square: piece.symbol() for square, piece in board.pieces.items()}
    assert len(uses) == len(expected)
    defined = {g.get("id") for g in root.iter(f"{NS}g") if g.get("id")}
    for use in uses:
        square, letter = use.get("data-square"), use.get("data-piece")
        index = (int(square[1:]) - 1) * board.files + ord(square[0]) - ord("a")
        assert expected[index] == letter
        assert use.get("class").split() == ["piece", *glyph_id(letter).split("-")]
        assert use.get("href") == use.get(f"{XLINK}href") == f"#{glyph_id(letter)}"
        assert glyph_id(letter) in defined


def test_shocking_start_has_one_glyph_per_piece():
    board = FakeBoard(SHOCKING)
    root = parse(svg.board(board))
    check_pieces(root, board)
    glyphs = {g.get("id") for g in root.find(f"{NS}defs").iter(f"{NS}g") if g.get("id")}
    assert glyphs == {glyph_id(letter) for letter in SHOCKING if letter.isalpha()}


@pytest.mark.parametrize("letter", LETTERS + LETTERS.lower())
def test_every_piece_renders_as_vector_shapes(letter):
    root = parse(svg.piece(letter, size=90))
    assert (root.get("width"), root.get("height")) == ("90", "90")
    (use,) = root.iter(f"{NS}use")
    assert use.get("class") == "piece " + glyph_id(letter).replace("-", " ")
    (glyph,) = root.find(f"{NS}defs")
    assert glyph.get("id") == glyph_id(letter)
    tags = {e.tag.removeprefix(NS) for e in glyph.iter()} - {"g"}
    assert tags and tags <= {"path", "circle", "rect", "polygon", "ellipse", "line"}


def test_all_fourteen_types_in_both_colours_on_one_board():
    board = FakeBoard("KQRBNPC/MDTAVHG/kqrbnpc/mdtavhg")
    root = parse(svg.board(board, size=500))
    check_pieces(root, board)
    assert len([g for g in root.find(f"{NS}defs") if g.tag == f"{NS}g"]) == 28


def test_glyphs_are_distinct():
    assert len(set(svg.GLYPHS.values())) == len(svg.GLYPHS) == 14
    assert svg.piece("K") != svg.piece("k")


def test_unknown_letter_is_rejected():
    with pytest.raises(ValueError, match="unknown piece letter 'X'"):
        svg.piece("X")
    with pytest.raises(ValueError):
        svg.board(FakeBoard("4/4/4/3z"))


@pytest.mark.parametrize("files, ranks", [(4, 4), (7, 6), (8, 8), (12, 10), (10, 12)])
def test_board_sizes(files, ranks):
    board = FakeBoard("/".join([str(files)] * (ranks - 1) + ["K" + str(files - 2) + "k"]))
    root = parse(svg.board(board, size=600))
    assert len(with_class(root, "rect", "square")) == files * ranks
    file_labels = [t.text for t in with_class(root, "text", "file")]
    rank_labels = [t.text for t in with_class(root, "text", "rank")]
    assert sorted(file_labels) == sorted([chr(ord("a") + f) for f in range(files)] * 2)
    assert sorted(rank_labels, key=int) == sorted([str(r + 1) for r in range(ranks)] * 2, key=int)
    view = [float(v) for v in root.get("viewBox").split()]
    assert float(root.get("width")) == 600
    assert float(root.get("height")) == pytest.approx(600 * view[3] / view[2], abs=0.01)
    assert (view[3] - view[2]) == (ranks - files) * svg.SQUARE_SIZE
    assert square_rect(root, "a1").get("class").split()[:2] == ["square", "dark"]
    check_pieces(root, board)


def test_without_coordinates_there_is_no_text():
    root = parse(svg.board(FakeBoard("8/8/8/8/8/8/8/8"), coordinates=False, size=360))
    assert not list(root.iter(f"{NS}text"))
    assert root.get("viewBox") == "0 0 360 360"


def test_lastmove_check_arrows_and_markers():
    board = FakeBoard("4k3/8/8/8/4P3/8/8/4K3")
    root = parse(
        svg.board(
            board,
            lastmove=Move(12, 28),
            check=4,
            squares=[27, "h8"],
            arrows=[(6, 21), Arrow(52, 36), (1, 1, "blue")],
        )
    )
    lit = with_class(root, "rect", "lastmove")
    assert sorted(r.get("class").split()[-1] for r in lit) == ["e2", "e4"]
    (checked,) = with_class(root, "rect", "check")
    assert checked.get("class") == "check e1"
    assert checked.get("fill") == "url(#check_gradient)"
    assert root.find(f".//{NS}radialGradient[@id='check_gradient']") is not None
    arrows = with_class(root, "g", "arrow")
    assert [a.get("class") for a in arrows] == ["arrow g1 f3", "arrow e7 e5", "arrow b1 b1"]
    assert arrows[0].find(f"{NS}polygon") is not None
    assert arrows[2].find(f"{NS}circle") is not None
    markers = with_class(root, "use", "marker")
    assert [m.get("class") for m in markers] == ["marker d4", "marker h8"]


def test_several_royals_in_check():
    board = FakeBoard("1c4c1/8/8/8/8/8/8/4K3")
    root = parse(svg.board(board, check=[57, "g8"]))
    assert [r.get("class") for r in with_class(root, "rect", "check")] == ["check b8", "check g8"]


def test_no_highlights_by_default():
    root = parse(svg.board(FakeBoard(SHOCKING)))
    for name in ("lastmove", "check", "arrow", "marker"):
        assert not [e for e in root.iter() if name in e.get("class", "").split()]
    assert root.find(f".//{NS}radialGradient") is None


@pytest.mark.parametrize("orientation", [True, False])
def test_orientation(orientation):
    board = FakeBoard("r6k/8/8/8/8/8/8/R6K")
    root = parse(svg.board(board, orientation=orientation))
    corners = {
        name: (float(square_rect(root, name).get("x")), float(square_rect(root, name).get("y")))
        for name in ("a1", "h1", "a8", "h8")
    }
    xs = sorted({x for x, _ in corners.values()})
    ys = sorted({y for _, y in corners.values()})
    left, right, top, bottom = xs[0], xs[-1], ys[0], ys[-1]
    if orientation:
        assert corners["a1"] == (left, bottom) and corners["h8"] == (right, top)
    else:
        assert corners["a1"] == (right, top) and corners["h8"] == (left, bottom)
    (rook,) = [u for u in with_class(root, "use", "rook") if u.get("data-square") == "a1"]
    assert rook.get("transform") == "translate({:g}, {:g})".format(*corners["a1"])


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize(
    "placement, size, expected",
    [
        (SHOCKING, 400, (400, 400)),
        ("/".join(["12"] * 10), 600, (600, 500)),  # 12 files x 10 ranks, with margins
    ],
)
def test_render_png(tmp_path, placement, size, expected):
    pytest.importorskip("cairosvg")
    path = tmp_path / "board.png"
    svg.render_png(svg.board(FakeBoard(placement), size=size, coordinates=False), path)
    assert png_size(path) == expected
    svg.render_png(svg.piece("c"), path, size=90)
    assert png_size(path) == (90, 90)


def test_render_png_without_cairosvg(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    with pytest.raises(ImportError, match="cairosvg"):
        svg.render_png(svg.piece("K"), tmp_path / "king.png")


@pytest.mark.parametrize("variant", ["chess", "shocking", "burden", "evolution"])
def test_real_board(variant):
    fairyforge = pytest.importorskip("fairyforge")
    if not hasattr(fairyforge, "Board"):
        pytest.skip("fairyforge.Board is not available")
    board = fairyforge.Board(variant)
    expected = FakeBoard(board.fen().split()[0])
    assert (board.files, board.ranks) == (expected.files, expected.ranks)
    root = parse(svg.board(board))
    check_pieces(root, expected)
