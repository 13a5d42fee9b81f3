"""FEN rejection (RULES.md §2.2) and option errors through the Python API:
every rule has a test, and every message names the field and the problem."""

from __future__ import annotations

import pytest

import fairyforge

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
SHOCKING = "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR"
EVOLUTION = "NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN1nnn"
BURDEN = "8/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/8"

REJECTED = [
    # (id, variant, fen, message fragments)
    (
        "five fields",
        "chess",
        START + " w KQkq - 0",
        ["(fields)", "expected 6 (or 4) fields, found 5"],
    ),
    ("seven fields", "chess", START + " w KQkq - 0 1 x", ["(fields)", "found 7"]),
    ("placement only", "chess", START, ["(fields)", "found 1"]),
    ("empty", "chess", "", ["(fields)", "found 0"]),
    (
        "seven ranks",
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["(placement)", "7 ranks given, the chess board has 8"],
    ),
    (
        "nine ranks",
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["(placement)", "9 ranks given, the chess board has 8"],
    ),
    (
        "chess FEN in evolution",
        "evolution",
        START + " w - - 0 1",
        ["(placement)", "8 ranks given, the evolution board has 6"],
    ),
    (
        "run too long",
        "chess",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["(placement)", "rank 6 has 9 files, the chess board has 8"],
    ),
    (
        "two-digit run",
        "chess",
        "rnbqkbnr/pppppppp/12/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["(placement)", "rank 6 has 12 files"],
    ),
    (
        "rank short",
        "chess",
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["(placement)", "rank 7 has 7 files, the chess board has 8"],
    ),
    (
        "rank long",
        "chess",
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ["(placement)", "rank 7: more than 8 files"],
    ),
    (
        "evolution rank of 8",
        "evolution",
        "NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN2nnn w - - 0 1",
        ["(placement)", "rank 1: more than 7 files"],
    ),
    (
        "zero run",
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 w KQkq - 0 1",
        ["(placement)", "rank 1: empty run of 0 squares"],
    ),
    (
        "unknown letter",
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        ["(placement)", "rank 1: unknown piece letter 'X'"],
    ),
    (
        "core in chess",
        "chess",
        "4k3/8/8/8/8/8/8/c3K3 w - - 0 1",
        ["(placement)", "piece 'c' (black core) is not in the chess piece set"],
    ),
    (
        "black queen in shocking",
        "shocking",
        "dca2acd/mva2avm/ttt2ttq/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        ["(placement)", "rank 6: piece 'q' (black queen) is not in the shocking piece set"],
    ),
    (
        "white core in shocking",
        "shocking",
        "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNC w KQ - 0 1",
        ["(placement)", "piece 'C' (white core) is not in the shocking piece set"],
    ),
    (
        "rook in burden",
        "burden",
        "8/8/8/8/8/8/8/R7 w - - 0 1",
        ["(placement)", "piece 'R' (white rook) is not in the burden piece set"],
    ),
    (
        "king in burden royal=maharajah",
        "burden",
        "8/8/8/8/8/8/8/K7 w - - 0 1",
        ["(placement)", "piece 'K' (white king) is not in the burden piece set"],
    ),
    (
        "pawn in evolution",
        "evolution",
        "NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnp/KNN1nnn w - - 0 1",
        ["(placement)", "piece 'p' (black pawn) is not in the evolution piece set"],
    ),
    (
        "white pawn on rank 1",
        "chess",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        ["(placement)", "White pawn on a1 (rank 1) is not allowed"],
    ),
    (
        "white pawn on rank 8",
        "chess",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ["(placement)", "White pawn on a8 (rank 8) is not allowed"],
    ),
    (
        "black pawn on rank 1",
        "chess",
        "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
        ["(placement)", "Black pawn on a1 (rank 1) is not allowed"],
    ),
    (
        "black pawn on rank 8",
        "chess",
        "p3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ["(placement)", "Black pawn on a8 (rank 8) is not allowed"],
    ),
    (
        "shocking pawn on rank 1",
        "shocking",
        "4c3/8/8/8/8/8/8/P3K3 w - - 0 1",
        ["(placement)", "White pawn on a1 (rank 1) is not allowed"],
    ),
    (
        "shocking pawn on rank 8",
        "shocking",
        "P3c3/8/8/8/8/8/8/4K3 w - - 0 1",
        ["(placement)", "White pawn on a8 (rank 8) is not allowed"],
    ),
    (
        "turret on rank 1",
        "shocking",
        "4c3/8/8/8/8/8/8/t3K3 w - - 0 1",
        ["(placement)", "Black turret on a1 (rank 1) is not allowed"],
    ),
    (
        "automaton on rank 1",
        "shocking",
        "4c3/8/8/8/8/8/8/3Ka3 w - - 0 1",
        ["(placement)", "Black automaton on e1 (rank 1) is not allowed"],
    ),
    (
        "chess no black king",
        "chess",
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        ["(placement)", "Black has 0 royal king (needs exactly 1)"],
    ),
    (
        "chess no white king",
        "chess",
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        ["(placement)", "White has 0 royal king (needs exactly 1)"],
    ),
    (
        "chess two white kings",
        "chess",
        "4k3/8/8/8/8/8/8/K3K3 w - - 0 1",
        ["(placement)", "White has 2 royal king (needs exactly 1)"],
    ),
    (
        "chess two black kings",
        "chess",
        "k3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ["(placement)", "Black has 2 royal king (needs exactly 1)"],
    ),
    (
        "shocking zero cores",
        "shocking",
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        ["(placement)", "Black has 0 royal core (needs 1 to 2)"],
    ),
    (
        "shocking three cores",
        "shocking",
        "c1c1c3/8/8/8/8/8/8/4K3 w - - 0 1",
        ["(placement)", "Black has 3 royal core (needs 1 to 2)"],
    ),
    (
        "shocking no white king",
        "shocking",
        "c1c5/8/8/8/8/8/8/8 w - - 0 1",
        ["(placement)", "White has 0 royal king (needs exactly 1)"],
    ),
    (
        "shocking two white kings",
        "shocking",
        "c1c5/8/8/8/8/8/8/K3K3 w - - 0 1",
        ["(placement)", "White has 2 royal king (needs exactly 1)"],
    ),
    (
        "evolution two kings",
        "evolution",
        "NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN1nnK w - - 0 1",
        ["(placement)", "White has 2 royal king (needs exactly 1)"],
    ),
    (
        "evolution no black king",
        "evolution",
        "NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN1nnn w - - 0 1",
        ["(placement)", "Black has 0 royal king (needs exactly 1)"],
    ),
    (
        "bad side to move",
        "chess",
        START + " x KQkq - 0 1",
        ["(side to move)", "expected 'w' or 'b', found \"x\""],
    ),
    (
        "white in check, black to move",
        "chess",
        "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
        ["(side to move)", "White is not to move but is in check"],
    ),
    (
        "black in check, white to move",
        "chess",
        "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
        ["(side to move)", "Black is not to move but is in check"],
    ),
    (
        "core attacked, white to move",
        "shocking",
        "R3c3/8/8/8/8/8/8/4K3 w - - 0 1",
        ["(side to move)", "Black is not to move but is in check"],
    ),
    (
        "core two squares from the white king with a piece between",
        "shocking",
        "8/8/8/4K3/4t3/4c3/8/8 b - - 0 1",
        ["(side to move)", "White is not to move but is in check"],
    ),
    (
        "white king attacked by a missile hop, black to move",
        "shocking",
        "4m1c1/8/8/8/8/8/4P3/4K3 b - - 0 1",
        ["(side to move)", "White is not to move but is in check"],
    ),
    (
        "castling without the rook",
        "chess",
        "4k3/8/8/8/8/8/8/R3K3 w K - 0 1",
        ["(castling)", "right 'K' needs a White rook on h1"],
    ),
    (
        "castling without the king",
        "chess",
        "4k3/8/8/8/8/8/8/R4K1R w K - 0 1",
        ["(castling)", "right 'K' needs the White king on e1"],
    ),
    (
        "black castling without the rook",
        "chess",
        "1r2k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
        ["(castling)", "right 'q' needs a Black rook on a8"],
    ),
    (
        "black castling without the king",
        "chess",
        "r2k3r/8/8/8/8/8/8/4K3 w k - 0 1",
        ["(castling)", "right 'k' needs the Black king on e8"],
    ),
    (
        "castling letter",
        "chess",
        "4k3/8/8/8/8/8/8/4K3 w X - 0 1",
        ["(castling)", "unexpected character 'X' (use KQkq or -)"],
    ),
    (
        "castling twice",
        "chess",
        "4k3/8/8/8/8/8/8/R3K2R w KK - 0 1",
        ["(castling)", "'K' is given twice"],
    ),
    (
        "black castling in shocking",
        "shocking",
        "4c3/8/8/8/8/8/8/R3K2R w KQk - 0 1",
        ["(castling)", "Black cannot castle in shocking"],
    ),
    (
        "castling in burden",
        "burden",
        BURDEN + " w KQkq - 0 1",
        ["(castling)", "White cannot castle in burden"],
    ),
    (
        "black castling in burden",
        "burden",
        BURDEN + " w k - 0 1",
        ["(castling)", "Black cannot castle in burden"],
    ),
    (
        "castling in evolution",
        "evolution",
        EVOLUTION + " w K - 0 1",
        ["(castling)", "White cannot castle in evolution"],
    ),
    (
        "ep square not on the board",
        "chess",
        "4k3/8/8/8/4P3/8/8/4K3 b - z9 0 1",
        ["(en passant)", '"z9" is not a square of the board'],
    ),
    (
        "ep square with no pawn in front",
        "chess",
        "4k3/8/8/8/8/4P3/8/4K3 b - e3 0 1",
        ["(en passant)", "e3 is not behind a White piece that could have just double-stepped"],
    ),
    (
        "ep square for the wrong side",
        "chess",
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
        ["(en passant)", "e3 is not behind a Black piece"],
    ),
    (
        "ep square on the pawn",
        "chess",
        "4k3/8/8/4p3/8/8/8/4K3 w - e5 0 1",
        ["(en passant)", "e5 is not behind a Black piece"],
    ),
    (
        "ep square occupied",
        "chess",
        "4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1",
        ["(en passant)", "e3 is not behind a White piece"],
    ),
    (
        "ep origin occupied",
        "chess",
        "4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1",
        ["(en passant)", "e3 is not behind a White piece"],
    ),
    (
        "ep behind a knight in chess",
        "chess",
        "4k3/8/8/8/3pN3/8/8/4K3 b - e3 0 1",
        ["(en passant)", "e3 is not behind a White piece"],
    ),
    (
        "ep in shocking with white to move",
        "shocking",
        "4c3/8/8/8/3tP3/8/8/4K3 w - e3 0 1",
        ["(en passant)", "e3 is not behind a Black piece"],
    ),
    (
        "ep behind a turret in shocking",
        "shocking",
        "4c3/8/8/3Pt3/8/8/8/4K3 w - e6 0 1",
        ["(en passant)", "e6 is not behind a Black piece"],
    ),
    (
        "ep behind a bishop in burden",
        "burden",
        "8/8/8/8/3pB3/8/8/8 b - e3 0 1",
        ["(en passant)", "e3 is not behind a White piece"],
    ),
    (
        "ep in evolution",
        "evolution",
        "NNN1nnk/NNN1nnn/NNN1nnn/NNNNnnn/NNN1nnn/KNN1nnn b - d4 0 1",
        ["(en passant)", "d4 is not behind a White piece"],
    ),
    (
        "negative halfmove clock",
        "chess",
        START + " w KQkq - -1 1",
        ["(halfmove clock)", 'expected a non-negative integer, found "-1"'],
    ),
    (
        "halfmove clock not a number",
        "chess",
        START + " w KQkq - x 1",
        ["(halfmove clock)", 'found "x"'],
    ),
    (
        "fullmove zero",
        "chess",
        START + " w KQkq - 0 0",
        ["(fullmove number)", 'expected a positive integer, found "0"'],
    ),
    (
        "fullmove not a number",
        "chess",
        START + " w KQkq - 0 x",
        ["(fullmove number)", 'found "x"'],
    ),
]


# Options for the FENs that need them.
OPTIONS = {"8/8/8/8/8/8/8/K7 w - - 0 1": {"royal": "maharajah"}}


@pytest.mark.parametrize(
    ("variant", "fen", "fragments"),
    [pytest.param(v, f, m, id=i) for i, v, f, m in REJECTED],
)
def test_fen_rejected(variant, fen, fragments):
    options = OPTIONS.get(fen, {})
    with pytest.raises(fairyforge.InvalidFenError) as info:
        fairyforge.Board(variant, fen, **options)
    message = str(info.value)
    assert message.startswith("invalid FEN (")
    for fragment in fragments:
        assert fragment in message
    # The same FEN is rejected by set_fen (the board is left unchanged) and
    # by the module-level perft.
    board = fairyforge.Board(variant, None, **options)
    before = board.fen()
    with pytest.raises(fairyforge.InvalidFenError, match=r"^invalid FEN \("):
        board.set_fen(fen)
    assert board.fen() == before
    with pytest.raises(fairyforge.InvalidFenError):
        fairyforge.perft(variant, fen, 1, **options)


def test_error_classes():
    for cls in (fairyforge.InvalidFenError, fairyforge.InvalidOptionError):
        assert issubclass(cls, ValueError)
    assert fairyforge.InvalidFenError is not fairyforge.InvalidOptionError


@pytest.mark.parametrize(
    ("variant", "fen4"),
    [
        ("chess", START + " w KQkq -"),
        ("chess", "r3k2r/8/8/8/3pP3/8/8/R3K2R b Kq e3"),
        ("shocking", SHOCKING + " w KQ -"),
        ("evolution", EVOLUTION + " b - -"),
        ("burden", BURDEN + " w - -"),
    ],
)
def test_four_field_fen_reads_as_0_1(variant, fen4):
    board = fairyforge.Board(variant, fen4)
    assert board.fen() == fen4 + " 0 1"
    assert board.halfmove_clock == 0
    assert board.fullmove_number == 1
    assert board.fen() == fairyforge.Board(variant, fen4 + " 0 1").fen()


def test_clocks_are_kept():
    board = fairyforge.Board("chess", START + " b KQkq - 37 112")
    assert board.fen().endswith(" b KQkq - 37 112")
    assert (board.halfmove_clock, board.fullmove_number) == (37, 112)


@pytest.mark.parametrize(
    ("options", "fen"),
    [
        ({}, "P7/8/8/8/8/8/8/p7 w - - 0 1"),
        ({}, "p7/8/8/8/8/8/8/P7 b - - 0 1"),
        ({"cycle": "pawn"}, "PK6/8/8/8/8/8/8/pk6 w - - 0 1"),
        # Zero kings, or no pieces at all, are positions of Burden.
        ({}, "8/8/8/8/8/8/8/8 w - - 0 1"),
        ({}, BURDEN + " w - - 0 1"),
        ({}, "8/8/8/8/4p3/8/K7/K7 b - - 0 1"),
        ({"royal": "gryphon"}, "8/8/8/8/4p3/8/G7/8 w - - 0 1"),
    ],
)
def test_burden_accepts(options, fen):
    assert fairyforge.Board("burden", fen, **options).fen() == fen


def test_shocking_accepts_one_or_two_cores():
    for fen in ("4c3/8/8/8/8/8/8/4K3 w - - 0 1", "c6c/8/8/8/8/8/8/4K3 b - - 0 1"):
        assert fairyforge.Board("shocking", fen).fen() == fen


@pytest.mark.parametrize(
    ("variant", "fen", "written"),
    [
        # Consistent but no capture possible: accepted, not written.
        ("chess", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", "-"),
        ("chess", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "e3"),
        ("shocking", "4c3/8/8/8/3tP3/8/8/4K3 b - e3 0 1", "e3"),
        # Burden: behind the knight the double-stepping pawn became.
        ("burden", "8/8/8/8/3pN3/8/8/8 b - e3 0 1", "e3"),
        ("burden", "8/8/8/3Pn3/8/8/8/8 w - e6 0 1", "e6"),
    ],
)
def test_en_passant_accepted(variant, fen, written):
    assert fairyforge.Board(variant, fen).fen().split()[3] == written


@pytest.mark.parametrize("fen", ["8/8/8/8/3pP3/8/8/8 b - e3 0 1", "8/8/8/3Pp3/8/8/8/8 w - e6 0 1"])
def test_burden_en_passant_behind_a_pawn_is_rejected(fen):
    with pytest.raises(fairyforge.InvalidFenError, match=r"\(en passant\)"):
        fairyforge.Board("burden", fen)


OPTION_ERRORS = [
    # (variant, options, option named, fragment)
    ("xiangqi", {}, "variant", 'unknown variant "xiangqi" (known: chess, shocking, burden'),
    ("Chess", {}, "variant", 'unknown variant "Chess"'),
    ("burden", {"colour": "x"}, "colour", "unknown option for burden (known: royal, cycle"),
    ("burden", {"royal": "emperor"}, "royal", 'bad value "emperor" (allowed: king, maharajah'),
    ("burden", {"cycle": "queen"}, "cycle", 'bad value "queen" (allowed: none, pawn, knight)'),
    ("burden", {"royal_may_move_into_check": "maybe"}, "royal_may_move_into_check", "bad value"),
    ("burden", {"army": "rooks"}, "army", 'bad value "rooks" (allowed: pawns, knights)'),
    ("burden", {"preset": "fide"}, "preset", 'bad value "fide" (allowed: wittman)'),
    ("burden", {"files": "x"}, "files", 'bad value "x" (expected an integer)'),
    ("burden", {"royal": 1.5}, "royal", "expected a string, integer or boolean, got float"),
    ("burden", {"files": 13}, "files", "13 files is outside 4..12"),
    ("burden", {"files": 3}, "files", "3 files is outside 4..12"),
    ("burden", {"pawn_ranks": 0}, "pawn_ranks", "0 is below the minimum 1"),
    ("burden", {"back_gap": -1}, "back_gap", "-1 is below the minimum 0"),
    ("burden", {"pawn_ranks": 10**18}, "pawn_ranks", "1000000000000000000 is above the maximum 12"),
    ("burden", {"middle_gap": "9223372036854775807"}, "middle_gap", "is above the maximum 12"),
    ("burden", {"back_gap": 13}, "back_gap", "13 is above the maximum 12"),
    ("burden", {"files": 10**18}, "files", "1000000000000000000 files is outside 4..12"),
    ("burden", {"pawn_ranks": 6}, "pawn_ranks", "= 14 ranks, outside 4..12"),
    ("burden", {"middle_gap": 5}, "pawn_ranks", "= 13 ranks, outside 4..12"),
    ("burden", {"files": 12, "pawn_ranks": 5}, "size", "12x12 has more than 128 squares"),
    (
        "burden",
        {"preset": "wittman", "files": 8},
        "files",
        "cannot be combined with preset=wittman",
    ),
    ("chess", {"royal": "king"}, "royal", 'variant "chess" takes no options'),
    ("shocking", {"cycle": "pawn"}, "cycle", 'variant "shocking" takes no options'),
    ("evolution", {"files": 7}, "files", 'variant "evolution" takes no options'),
]


@pytest.mark.parametrize(
    ("variant", "options", "name", "fragment"),
    [pytest.param(*case, id=f"{case[0]}-{case[2]}") for case in OPTION_ERRORS],
)
def test_invalid_options(variant, options, name, fragment):
    calls = [
        lambda: fairyforge.Board(variant, **options),
        lambda: fairyforge.perft(variant, None, 1, **options),
        lambda: fairyforge.variant(variant, **options),
    ]
    for call in calls:
        with pytest.raises(fairyforge.InvalidOptionError) as info:
            call()
        assert isinstance(info.value, ValueError)
        message = str(info.value)
        assert message.startswith(f"invalid option {name}: ")
        assert fragment in message


def test_burden_options_are_normalised():
    board = fairyforge.Board("burden", royal="MAHARAJAH", cycle=" Knight ")
    assert board.variant.options == dict([("cycle", "knight"), ("royal", "maharajah")])
    info = fairyforge.variant("burden", cycle="pawn", royal_may_move_into_check=True, files=6)
    assert info.options == {"cycle": "pawn", "files": "6", "royal_may_move_into_check": "true"}
    assert (info.files, info.ranks) == (6, 8)
