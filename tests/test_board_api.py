"""The Python API of fairyforge.Board and fairyforge.Move (python-chess
conventions): construction, legal moves, push/pop, FEN, game end, copies,
text forms, variants, perft, errors, the GIL, and make/unmake round trips."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fairyforge
from fairyforge import Board, Move

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
SHOCKING_START = "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"
BURDEN_START = "8/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/8 w - - 0 1"
EVOLUTION_START = "NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN1nnn w - - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESS_FIRST_MOVES = sorted(
    [f"{f}2{f}{r}" for f in "abcdefgh" for r in "34"] + ["b1a3", "b1c3", "g1f3", "g1h3"]
)


# --- construction -----------------------------------------------------------


def test_default_board_is_chess_start():
    board = Board()
    assert isinstance(board, fairyforge.Board)
    assert board.fen() == CHESS_START
    assert Board("chess").fen() == CHESS_START
    assert Board("chess", None).fen() == CHESS_START
    assert Board(variant="chess", fen=None).fen() == CHESS_START
    assert Board(fen=KIWIPETE).fen() == KIWIPETE
    assert board.turn is True
    assert board.move_stack == []
    assert (board.files, board.ranks) == (8, 8)
    assert (board.halfmove_clock, board.fullmove_number) == (0, 1)


@pytest.mark.parametrize(
    ("variant", "start", "files", "ranks"),
    [
        ("chess", CHESS_START, 8, 8),
        ("shocking", SHOCKING_START, 8, 8),
        ("burden", BURDEN_START, 8, 8),
        ("evolution", EVOLUTION_START, 7, 6),
    ],
)
def test_variant_starts(variant, start, files, ranks):
    board = Board(variant)
    assert board.fen() == start
    info = board.variant
    assert isinstance(info, fairyforge.VariantInfo)
    assert info.name == variant
    assert info.options == {}
    assert (info.files, info.ranks) == (files, ranks)
    assert (board.files, board.ranks) == (files, ranks)
    assert info.start_fen == start
    assert repr(info) == f"Variant('{variant}')"
    same = fairyforge.variant(variant)
    assert (same.name, same.options, same.start_fen) == (variant, {}, start)


def test_variants_listed():
    assert fairyforge.BUILTIN_VARIANTS == ["chess", "shocking", "burden", "evolution"]
    assert fairyforge.variant_names()[:4] == fairyforge.BUILTIN_VARIANTS
    for name in fairyforge.BUILTIN_VARIANTS:
        assert Board(name).variant.name == name


def test_burden_variant_with_options():
    board = Board("burden", royal="maharajah", cycle="knight")
    info = board.variant
    assert info.name == "burden"
    assert info.options == dict([("cycle", "knight"), ("royal", "maharajah")])
    assert info.start_fen == BURDEN_START
    assert repr(info) == "Variant('burden', cycle='knight', royal='maharajah')"
    small = Board("burden", files=6, pawn_ranks=2)
    assert (small.files, small.ranks) == (6, 6)
    assert small.fen() == "6/pppppp/pppppp/PPPPPP/PPPPPP/6 w - - 0 1"
    assert small.variant.options == dict([("files", "6"), ("pawn_ranks", "2")])


# --- Move -------------------------------------------------------------------


def test_move_fields():
    m = Move.from_uci("e7e8q")
    assert m.uci() == "e7e8q"
    assert str(m) == "e7e8q"
    assert (m.from_square, m.to_square, m.promotion) == ("e7", "e8", "q")
    quiet = Move.from_uci("g1f3")
    assert (quiet.from_square, quiet.to_square, quiet.promotion) == ("g1", "f3", None)
    big = Move.from_uci("a10l12")
    assert (big.from_square, big.to_square, big.uci()) == ("a10", "l12", "a10l12")
    assert Move.from_uci("c2c1v").promotion == "v"


def test_move_is_frozen():
    m = Move.from_uci("e2e4")
    for name in ("from_square", "to_square", "promotion"):
        with pytest.raises(AttributeError):
            setattr(m, name, "a1")
    with pytest.raises(AttributeError):
        m.anything = 1
    assert m.uci() == "e2e4"


def test_move_equality_and_hash():
    a, b, c = Move.from_uci("e2e4"), Move.from_uci("e2e4"), Move.from_uci("e2e3")
    assert a == b and a is not b
    assert a != c
    assert a != Move.from_uci("e7e8q") and Move.from_uci("e7e8q") != Move.from_uci("e7e8n")
    assert hash(a) == hash(b)
    assert len({a, b, c}) == 2
    d = {a: 1}
    d[b] = 2
    assert d == {Move.from_uci("e2e4"): 2}
    assert a != "e2e4"


@pytest.mark.parametrize("uci", ["e2e4", "e7e8q", "c2c1v", "a10a12", "l1a12"])
def test_move_repr_round_trip(uci):
    m = Move.from_uci(uci)
    assert repr(m) == f"Move.from_uci('{uci}')"
    assert eval(repr(m), {"Move": fairyforge.Move}) == m


@pytest.mark.parametrize(
    "text",
    [
        "",
        "e2",
        "e2e",
        "e2e13",
        "e2e4qq",
        "e0e4",
        "m1m2",
        "e2-e4",
        "E2E4",
        "e2e4Q",
        "é2e4",
        "a+2a4",
        "a2a+4",
    ],
)
def test_move_from_uci_rejects(text):
    with pytest.raises(fairyforge.InvalidMoveError) as info:
        Move.from_uci(text)
    assert isinstance(info.value, ValueError)
    assert str(info.value) == (f'invalid move "{text}": expected coordinates such as e2e4 or e7e8q')


# --- legal moves ------------------------------------------------------------


def test_legal_moves_live_view():
    board = Board()
    moves = board.legal_moves
    assert isinstance(moves, fairyforge.LegalMoves)
    assert len(moves) == 20
    assert bool(moves)
    assert sorted(m.uci() for m in moves) == CHESS_FIRST_MOVES
    assert all(isinstance(m, Move) for m in moves)
    assert [moves[i] for i in range(len(moves))] == list(moves)
    assert moves[-1] == moves[len(moves) - 1]
    with pytest.raises(IndexError):
        moves[20]
    with pytest.raises(IndexError):
        moves[-21]
    assert Move.from_uci("e2e4") in moves
    assert "g1f3" in moves
    assert "e2e5" not in moves
    assert "junk" not in moves
    assert 42 not in moves
    # A live view, as python-chess's: it follows the board.
    board.push_uci("e2e4")
    assert len(moves) == 20 and "e2e4" not in moves and "e7e5" in moves
    assert "e7e5" in board.legal_moves and "e2e4" not in board.legal_moves
    snapshot = list(moves)
    board.pop()
    assert "e2e4" in moves and "e2e4" not in snapshot
    corner = Board("chess", "7k/8/8/8/8/8/8/K7 w - - 0 1").legal_moves
    assert sorted(m.uci() for m in corner) == ["a1a2", "a1b1", "a1b2"]
    assert repr(corner) == "<LegalMoves ({})>".format(", ".join(m.uci() for m in corner))


def test_no_legal_moves_is_falsy():
    board = Board("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert len(board.legal_moves) == 0
    assert not board.legal_moves
    assert list(board.legal_moves) == []


# --- push, pop, peek, move_stack ----------------------------------------------


def test_push_pop_peek():
    board = Board()
    board.push(Move.from_uci("e2e4"))
    assert board.push_uci("e7e5") == Move.from_uci("e7e5")
    board.push("g1f3")
    assert board.move_stack == [Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3")]
    assert board.peek() == Move.from_uci("g1f3")
    assert board.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert board.turn is False
    assert board.pop() == Move.from_uci("g1f3")
    assert board.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert board.turn is True
    assert board.pop().uci() == "e7e5"
    assert board.pop().uci() == "e2e4"
    assert board.fen() == CHESS_START
    assert board.move_stack == []
    with pytest.raises(IndexError, match="pop from empty move stack"):
        board.pop()
    with pytest.raises(IndexError, match="peek at empty move stack"):
        board.peek()


def test_move_stack_is_a_copy():
    board = Board()
    board.push_uci("d2d4")
    stack = board.move_stack
    stack.append(Move.from_uci("e7e5"))
    assert board.move_stack == [Move.from_uci("d2d4")]


def test_special_moves_push_and_pop():
    board = Board("chess", KIWIPETE)
    for uci, fen in [
        ("e1g1", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1"),
        ("a6e2", "r3k2r/p1ppqpb1/1n2pnp1/3PN3/1p2P3/2N2Q1p/PPPBbPPP/R4RK1 w kq - 0 2"),
        ("a2a4", "r3k2r/p1ppqpb1/1n2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBbPPP/R4RK1 b kq a3 0 2"),
        ("b4a3", "r3k2r/p1ppqpb1/1n2pnp1/3PN3/4P3/p1N2Q1p/1PPBbPPP/R4RK1 w kq - 0 3"),
    ]:
        board.push_uci(uci)
        assert board.fen() == fen
    for _ in range(4):
        board.pop()
    assert board.fen() == KIWIPETE
    promo = Board("chess", "8/P6k/8/8/8/8/8/K7 w - - 0 1")
    assert {m.uci() for m in promo.legal_moves if m.promotion} == {
        "a7a8q",
        "a7a8r",
        "a7a8b",
        "a7a8n",
    }
    promo.push_uci("a7a8n")
    assert promo.fen() == "N7/7k/8/8/8/8/8/K7 b - - 0 1"
    assert promo.peek().promotion == "n"


def test_set_fen_and_reset():
    board = Board()
    board.push_uci("e2e4")
    board.set_fen(KIWIPETE)
    assert board.fen() == KIWIPETE
    assert board.move_stack == []
    assert len(board.legal_moves) == 48
    board.push_uci("e1c1")
    board.reset()
    assert board.fen() == CHESS_START
    assert board.move_stack == []


def test_turn():
    assert Board().turn is True
    assert Board("chess", "4k3/8/8/8/8/8/8/4K3 b - - 0 1").turn is False
    board = Board("shocking")
    board.push_uci("e2e4")
    assert board.turn is False


# --- game end ---------------------------------------------------------------


def test_fools_mate():
    board = Board()
    for uci in ("f2f3", "e7e5", "g2g4"):
        board.push_uci(uci)
        assert not board.is_check() and not board.is_checkmate()
    board.push_uci("d8h4")
    assert board.is_check()
    assert board.is_checkmate()
    assert not board.is_stalemate()
    assert len(board.legal_moves) == 0
    board.pop()
    assert not board.is_checkmate()
    assert len(board.legal_moves) == 30


def test_check_is_not_mate():
    board = Board("chess", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1")
    board.set_fen("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1")
    assert board.is_check() and not board.is_checkmate() and not board.is_stalemate()


def test_stalemate():
    board = Board("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert board.is_stalemate()
    assert not board.is_check()
    assert not board.is_checkmate()
    assert not board.is_shocked()


def test_shocked_is_neither_mate_nor_stalemate():
    # Black's Turret and Automaton side by side on d5/e5: the game is over.
    board = Board("shocking", "2c5/8/8/3ta3/8/8/8/4K3 w - - 0 1")
    assert board.is_shocked()
    assert len(board.legal_moves) == 0
    assert not board.is_checkmate() and not board.is_stalemate()


# --- copies -----------------------------------------------------------------


def test_copy_is_independent():
    board = Board()
    board.push_uci("e2e4")
    copy = board.copy()
    assert type(copy) is fairyforge.Board
    assert copy is not board
    assert copy == board
    assert copy.fen() == board.fen()
    assert copy.move_stack == [Move.from_uci("e2e4")]
    copy.push_uci("e7e5")
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert len(board.move_stack) == 1 and len(copy.move_stack) == 2
    board.pop()
    assert copy.move_stack[0] == Move.from_uci("e2e4")
    assert copy.pop().uci() == "e7e5"
    assert copy.pop().uci() == "e2e4"
    assert copy.fen() == CHESS_START


def test_copy_without_stack():
    board = Board()
    board.push_uci("e2e4")
    bare = board.copy(stack=False)
    assert type(bare) is fairyforge.Board
    assert bare.fen() == board.fen()
    assert bare.move_stack == []
    with pytest.raises(IndexError):
        bare.pop()
    assert "e7e5" in bare.legal_moves


def test_copy_keeps_variant_options_and_subclass():
    class MyBoard(fairyforge.Board):
        pass

    board = MyBoard("burden", royal="gryphon", cycle="pawn")
    assert "a4b5" in board.legal_moves
    board.push_uci("a4b5")
    for copy in (board.copy(), board.copy(stack=False)):
        assert type(copy) is MyBoard
        assert copy.variant.options == dict([("cycle", "pawn"), ("royal", "gryphon")])
        assert copy.fen() == board.fen()
        assert copy.zobrist_hash() == board.zobrist_hash()


# --- text forms -------------------------------------------------------------


def test_str_chess_start():
    assert str(Board()) == (
        "r n b q k b n r\n"
        "p p p p p p p p\n"
        ". . . . . . . .\n"
        ". . . . . . . .\n"
        ". . . . . . . .\n"
        ". . . . . . . .\n"
        "P P P P P P P P\n"
        "R N B Q K B N R"
    )


def test_str_shocking_start():
    assert str(Board("shocking")) == (
        "d c a . . a c d\n"
        "m v a . . a v m\n"
        "t t t . . t t t\n"
        ". . . . . . . .\n"
        ". . . . . . . .\n"
        ". . . . . . . .\n"
        "P P P P P P P P\n"
        "R N B Q K B N R"
    )


def test_str_evolution_start():
    assert str(Board("evolution")).splitlines() == [
        "N N N . n n k",
        "N N N . n n n",
        "N N N . n n n",
        "N N N . n n n",
        "N N N . n n n",
        "K N N . n n n",
    ]


@pytest.mark.parametrize(
    ("variant", "fen", "options"),
    [
        ("chess", None, {}),
        ("chess", KIWIPETE, {}),
        ("shocking", None, {}),
        ("evolution", None, {}),
        ("burden", None, {}),
        ("burden", None, {"royal": "maharajah", "cycle": "knight"}),
        ("burden", None, {"cycle": "pawn", "royal_may_move_into_check": True}),
        ("burden", None, {"files": 10, "middle_gap": 2}),
        ("burden", None, {"preset": "wittman"}),
    ],
)
def test_repr_round_trip(variant, fen, options):
    board = Board(variant, fen, **options)
    if board.legal_moves:
        board.push(board.legal_moves[0])
    text = repr(board)
    assert text.startswith(f"Board('{variant}', '{board.fen()}'")
    again = eval(text, {"Board": fairyforge.Board})
    assert type(again) is fairyforge.Board
    assert again.fen() == board.fen()
    assert again.variant.options == board.variant.options
    assert again == board


def test_repr_exact():
    assert repr(Board()) == f"Board('chess', '{CHESS_START}')"
    assert repr(Board("burden", royal="maharajah", cycle="knight")) == (
        f"Board('burden', '{BURDEN_START}', cycle='knight', royal='maharajah')"
    )
    assert repr(Board("burden", files=6, pawn_ranks=2)) == (
        "Board('burden', '6/pppppp/pppppp/PPPPPP/PPPPPP/6 w - - 0 1', files=6, pawn_ranks=2)"
    )


# --- perft ------------------------------------------------------------------


def test_board_perft():
    board = Board()
    assert [board.perft(d) for d in range(5)] == [1, 20, 400, 8902, 197281]
    for threads in (None, 1, 2):
        assert board.perft(3, threads=threads) == 8902
        assert board.perft(5, threads=threads) == 4865609
    assert Board("shocking").perft(3) == 8010
    assert Board("evolution").perft(2) == 778
    assert Board("burden", royal="maharajah").perft(2) == 198


def test_board_perft_divide():
    board = Board("chess", KIWIPETE)
    divide = board.perft_divide(2)
    assert isinstance(divide, dict)
    assert list(divide) == sorted(divide)
    assert set(divide) == {m.uci() for m in board.legal_moves}
    assert sum(divide.values()) == board.perft(2) == 2039
    assert divide["e1g1"] == 43 and divide["e2a6"] == 36
    one = Board().perft_divide(1)
    assert one == dict.fromkeys(CHESS_FIRST_MOVES, 1)
    assert list(one) == CHESS_FIRST_MOVES
    deep = Board("shocking").perft_divide(3, threads=2)
    assert sum(deep.values()) == 8010
    with pytest.raises(ValueError):
        board.perft_divide(0)


def test_module_perft():
    assert fairyforge.perft("chess", None, 3) == 8902
    assert fairyforge.perft("chess", KIWIPETE, 2, threads=1) == 2039
    assert fairyforge.perft("chess", KIWIPETE, 0) == 1
    assert fairyforge.perft("shocking", None, 2, threads=None) == 360
    assert fairyforge.perft("burden", None, 2, royal="gryphon") == 198
    assert fairyforge.perft("burden", None, 1, files=6, pawn_ranks=2) == Board(
        "burden", files=6, pawn_ranks=2
    ).perft(1)


def test_perft_does_not_change_the_board():
    board = Board("chess", KIWIPETE)
    board.push_uci("e1g1")
    fen, key = board.fen(), board.zobrist_hash()
    board.perft(3)
    board.perft_divide(2)
    assert (board.fen(), board.zobrist_hash(), len(board.move_stack)) == (fen, key, 1)


def test_perft_releases_the_gil():
    """A Python thread gets through a long loop while perft works in the
    main thread: with the GIL held it could not run until perft returned."""
    board = Board()
    go = threading.Event()
    perft_done = threading.Event()
    result = {}

    def spin():
        go.wait()
        n = 0
        while n < 2_000_000:
            n += 1
        result["count"] = n
        result["finished_during_perft"] = not perft_done.is_set()

    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    go.set()
    nodes = board.perft(6, threads=1)
    perft_done.set()
    thread.join(30)
    assert not thread.is_alive()
    assert nodes == 119060324
    assert result == {"count": 2_000_000, "finished_during_perft": True}


# --- errors -----------------------------------------------------------------


def test_illegal_move_errors():
    board = Board()
    for text in ("e2e5", "e1e2", "e2e4q", "e7e5", "a1a1"):
        with pytest.raises(fairyforge.IllegalMoveError) as info:
            board.push_uci(text)
        assert isinstance(info.value, ValueError)
        assert str(info.value) == f'illegal move "{text}" in {CHESS_START}'
        with pytest.raises(fairyforge.IllegalMoveError):
            board.push(Move.from_uci(text))
        with pytest.raises(fairyforge.IllegalMoveError):
            board.push(text)
        assert not board.is_legal(text)
    assert board.move_stack == [] and board.fen() == CHESS_START
    assert board.is_legal("e2e4") and board.is_legal(Move.from_uci("g1f3"))


def test_invalid_move_errors():
    board = Board()
    cases = {
        "zz": 'invalid move "zz": expected coordinates such as e2e4 or e7e8q',
        "e2e4x": "invalid move \"e2e4x\": unknown promotion letter 'x'",
        "i1i2": 'invalid move "i1i2": square outside the 8x8 board',
        "e2": 'invalid move "e2": expected coordinates',
    }
    for text, message in cases.items():
        with pytest.raises(fairyforge.InvalidMoveError) as info:
            board.push_uci(text)
        assert isinstance(info.value, ValueError)
        assert str(info.value).startswith(message)
        assert not board.is_legal(text)
    with pytest.raises(fairyforge.InvalidMoveError, match="got int"):
        board.push(42)
    with pytest.raises(fairyforge.InvalidMoveError, match="square outside the 7x6 board"):
        Board("evolution").push_uci("h1h2")
    assert board.move_stack == [] and board.fen() == CHESS_START
    assert not issubclass(fairyforge.InvalidMoveError, fairyforge.IllegalMoveError)
    assert not issubclass(fairyforge.IllegalMoveError, fairyforge.InvalidMoveError)


# --- make/unmake and Zobrist keys (hypothesis) --------------------------------

WALKS = [
    ("chess", None, {}),
    ("chess", KIWIPETE, {}),
    ("shocking", None, {}),
    ("burden", None, {}),
    ("evolution", None, {}),
    ("burden", None, {"royal": "gryphon", "cycle": "pawn"}),
    # Room for double steps, so that en passant occurs in Burden.
    ("burden", None, {"files": 10, "middle_gap": 2}),
]


@pytest.mark.parametrize(
    ("variant", "fen", "options"),
    [
        pytest.param(*w, id=f"{w[0]}-{w[1] is not None}-{'-'.join(map(str, w[2].values()))}")
        for w in WALKS
    ],
)
@settings(max_examples=40, deadline=None, database=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(0, 100))
def test_make_unmake_round_trip(variant, fen, options, seed, length):
    rng = random.Random(seed)
    board = Board(variant, fen, **options)
    history = []
    for _ in range(length):
        key = board.zobrist_hash()
        # The incremental key equals the key computed from the FEN.
        assert Board(variant, board.fen(), **options).zobrist_hash() == key, (
            board.fen(),
            [m.uci() for m in board.move_stack],
        )
        moves = board.legal_moves
        if not moves:
            break
        history.append((board.fen(), key))
        move = moves[rng.randrange(len(moves))]
        board.push(move)
        assert board.peek() == move
        assert len(board.move_stack) == len(history)
    while history:
        fen_before, key_before = history.pop()
        board.pop()
        assert board.fen() == fen_before
        assert board.zobrist_hash() == key_before
    assert board.move_stack == []
    assert board.fen() == Board(variant, fen, **options).fen()
    assert board.zobrist_hash() == Board(variant, fen, **options).zobrist_hash()


def test_zobrist_hash_with_pinned_en_passant():
    board = Board("chess", "8/2p5/8/KP5r/8/8/8/7k b - - 0 1")
    board.push_uci("c7c5")
    assert board.fen() == "8/8/8/KPp4r/8/8/8/7k w - - 0 2"
    assert "b5c6" not in board.legal_moves
    again = Board("chess", board.fen())
    assert again == board
    assert again.zobrist_hash() == board.zobrist_hash()
