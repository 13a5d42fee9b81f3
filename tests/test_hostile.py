"""Hostile input through every public door: only the documented errors
escape (ValueError subclasses naming the field, TypeError for a wrong
Python type, IndexError for a sequence index), every value pickles, and a
board is safe to use from several threads."""

from __future__ import annotations

import io
import pickle
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fairyforge
from fairyforge import pgn, svg

DOCUMENTED = (
    fairyforge.InvalidFenError,
    fairyforge.InvalidMoveError,
    fairyforge.IllegalMoveError,
    fairyforge.AmbiguousMoveError,
    fairyforge.InvalidOptionError,
    fairyforge.InvalidSquareError,
    fairyforge.InvalidSetupError,
    pgn.PgnError,
)
VARIANTS = ["chess", "shocking", "burden", "evolution"]

# Text with lone surrogates, control characters and every plane.
TEXT = st.text(alphabet=st.characters(blacklist_categories=()), max_size=40) | st.sampled_from(
    ["\udcff", "e2\ud800e4", "rnbqkbnr/\udc80/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "O-O\x00"]
)
BIG = st.integers() | st.sampled_from([-(2**64), -1, 0, 2**31, 2**32, 2**63, 2**64, 10**40])


def only_documented(call) -> None:
    try:
        call()
    except DOCUMENTED as e:
        assert str(e), "an error says what is wrong"
    except (TypeError, IndexError):
        pass


@settings(max_examples=300, deadline=None)
@given(variant=st.sampled_from(VARIANTS), text=TEXT)
def test_any_text_into_every_parser(variant, text):
    board = fairyforge.Board(variant)
    for call in (
        lambda: fairyforge.Board(variant, text),
        lambda: board.copy().set_fen(text),
        lambda: board.copy().push_uci(text),
        lambda: board.copy().push_san(text),
        lambda: board.parse_san(text),
        lambda: board.is_legal(text),
        lambda: board.parse_square(text),
        lambda: fairyforge.Move.from_uci(text),
        lambda: fairyforge.Piece.from_symbol(text),
        lambda: fairyforge.Board(text),
        lambda: fairyforge.Board("burden", royal=text),
        lambda: fairyforge.variant("burden", **{"files": text}),
        lambda: pgn.read_game(io.StringIO(text)),
        lambda: pgn.read_game(io.StringIO(text), on_error="keep"),
        lambda: board.copy().set_epd(text),
        lambda: board.attackers(True, text),
        lambda: board.pieces(text, True),
        lambda: board.copy().set_piece_at(text, fairyforge.Piece.from_symbol("Q")),
        lambda: fairyforge.Move(text, text),
    ):
        only_documented(call)
    assert board.fen() == fairyforge.Board(variant).fen()


@settings(max_examples=200, deadline=None)
@given(n=BIG)
def test_any_integer_into_every_limit(n):
    board = fairyforge.Board("shocking")

    def cheap(most: int, limit: int) -> bool:
        """Whether ``n`` is valid and cheap (at most ``most``) or invalid
        (above the field's ``limit``, or negative)."""
        return n <= most or n > limit

    # Valid values run only where they are cheap (a few nodes, one ply, two
    # threads); everything else must be refused with the field and the range.
    calls = [
        lambda: board.search(depth=n, nodes=300),
        lambda: board.search(nodes=n, depth=2),
        lambda: board.search(movetime=n, depth=1),
        lambda: board.search(multipv=n, depth=1),
        lambda: board.is_repetition(n),
        lambda: board.legal_moves[n],
        lambda: board.piece_at(n),
        lambda: board.square_name(n),
        lambda: board.attackers(True, n),
        lambda: board.pieces(n, True),
        lambda: board.copy().remove_piece_at(n),
        lambda: fairyforge.Move(n, n),
        lambda: fairyforge.time_limits(n, n, n if n else None, n),
        lambda: fairyforge.Board("burden", pawn_ranks=n),
        lambda: svg.board(board, squares=[n]),
    ]
    if cheap(3, fairyforge.MAX_PERFT_DEPTH):
        calls.append(lambda: board.perft(n))
    if cheap(2, 512):
        calls.append(lambda: board.perft(2, threads=n))
        calls.append(lambda: board.search(threads=n, depth=1))
        calls.append(lambda: fairyforge.Engine("chess", threads=n))
    if cheap(64, fairyforge.MAX_HASH_MB):
        calls.append(lambda: board.search(hash_mb=n, depth=1))
        calls.append(lambda: fairyforge.Engine("chess", hash_mb=n))
    for call in calls:
        only_documented(call)


def test_out_of_range_messages_name_the_field_and_the_range():
    board = fairyforge.Board()
    cases = {
        lambda: board.search(depth=-1): "depth: -1 is outside 1..64",
        lambda: board.search(
            depth=10**30
        ): "depth: 1000000000000000000000000000000 is outside 1..64",
        lambda: board.search(
            hash_mb=2**40, depth=1
        ): "hash_mb: 1099511627776 is outside 1..33554432",
        lambda: board.perft(65): "depth: 65 is outside 0..64",
        lambda: board.is_repetition(0): "count: 0 is outside 1..4294967295",
        lambda: fairyforge.Engine(threads=0): "threads: 0 is outside 1..512",
    }
    for call, message in cases.items():
        with pytest.raises(fairyforge.InvalidOptionError, match=message):
            call()
    with pytest.raises(TypeError, match="expected an integer, got float"):
        board.search(depth=2.5)
    with pytest.raises(IndexError):
        board.legal_moves[10**40]
    with pytest.raises(fairyforge.InvalidSquareError, match="outside the 8x8 board"):
        board.piece_at(2**70)
    with pytest.raises(fairyforge.InvalidFenError):
        fairyforge.Board("chess", "\udcff")


def test_every_value_and_error_pickles():
    board = fairyforge.Board("burden", royal="maharajah", cycle="knight")
    for _ in range(3):
        board.push(board.legal_moves[0])
    result = board.search(depth=2)
    values = [
        fairyforge.Move.from_uci("e7e8q"),
        fairyforge.Piece.from_symbol("m"),
        result,
        result.score,
        fairyforge.Board("shocking", "c6c/8/4t3/2m5/8/8/8/4K3 b - - 0 1").outcome(),
        fairyforge.Termination.SHOCK,
    ]
    for v in values:
        assert pickle.loads(pickle.dumps(v)) == v
    copy = pickle.loads(pickle.dumps(board))
    assert type(copy) is type(board)
    assert copy.move_stack == board.move_stack and copy.fen() == board.fen()
    assert copy.pop() == board.move_stack[-1] and copy.variant == board.variant
    for error in DOCUMENTED[:-1]:
        e = pickle.loads(pickle.dumps(error("what and where")))
        assert type(e) is error and str(e) == "what and where"
        assert error.__module__ == "fairyforge"


def test_a_board_searched_in_one_thread_is_usable_from_another():
    board = fairyforge.Board("shocking")
    out: list = []
    searcher = threading.Thread(target=lambda: out.append(board.search(movetime=5000)))
    searcher.start()
    time.sleep(0.2)
    # The search holds a snapshot: the board can be read and played on.
    assert len(board.legal_moves) == 20
    board.push_uci("e2e4")
    started = time.monotonic()
    board.stop()
    searcher.join(timeout=5)
    assert not searcher.is_alive() and time.monotonic() - started < 1.0
    assert out[0].best_move in fairyforge.Board("shocking").legal_moves
    board.pop()
    assert board.fen() == fairyforge.Board("shocking").fen()


def test_an_engine_is_stopped_from_another_thread_and_refuses_a_second_search():
    engine = fairyforge.Engine("chess")
    board = fairyforge.Board()
    out: list = []
    searcher = threading.Thread(target=lambda: out.append(engine.search(board, movetime=5000)))
    searcher.start()
    time.sleep(0.2)
    with pytest.raises(RuntimeError, match="one search at a time"):
        engine.search(board, depth=1)
    started = time.monotonic()
    engine.stop()
    searcher.join(timeout=5)
    assert not searcher.is_alive() and time.monotonic() - started < 1.0
    assert out[0].best_move in board.legal_moves


def test_counters_and_results_read_back():
    board = fairyforge.Board("chess", "4k3/8/8/8/8/8/8/4K2R b K - 4294967295 4294967295")
    board.push_uci("e8d8")
    assert fairyforge.Board("chess", board.fen()).fen() == board.fen()
    game = pgn.Game()
    game.headers["Result"] = "maybe"
    text = pgn.export(game)
    assert text.endswith("*")
    again = pgn.read_game(io.StringIO(text))
    assert again is not None and again.headers["Result"] == "maybe"
