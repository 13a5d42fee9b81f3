"""SAN, outcomes and draws through the Python API (RULES.md §2.3, §4.4,
§5.4)."""

from __future__ import annotations

import pytest

import fairyforge
from fairyforge import Board, Outcome, Termination


def test_san_round_trip_and_variation_san():
    board = Board("chess")
    moves = [board.push_san(s) for s in ["e4", "e5", "Nf3", "Nc6", "Bb5"]]
    assert [m.uci() for m in moves] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    start = Board("chess")
    assert start.variation_san(moves) == "1. e4 e5 2. Nf3 Nc6 3. Bb5"
    after_one = Board("chess")
    after_one.push_uci("e2e4")
    assert after_one.variation_san(moves[1:3]) == "1... e5 2. Nf3"
    assert board.san("a7a6") == "a6"


def test_network_san_and_promotion():
    board = Board("shocking", "c6c/8/8/8/8/8/2t5/4K3 b - - 0 1")
    assert sorted(board.san(m) for m in board.legal_moves if m.from_square == "c2") == [
        "Tc1=D",
        "Tc1=M+",  # the Missile checks the King along the first rank
        "Tc1=V",
    ]
    assert board.push_san("Tc1=V").uci() == "c2c1v"


@pytest.mark.parametrize(
    "text, error",
    [
        ("Nf6", fairyforge.IllegalMoveError),
        ("Zz9", fairyforge.InvalidMoveError),
    ],
)
def test_san_errors_name_text_and_position(text, error):
    board = Board("chess")
    with pytest.raises(error) as info:
        board.push_san(text)
    assert text in str(info.value)
    assert "rnbqkbnr/pppppppp" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_ambiguous_san():
    board = Board("chess", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    with pytest.raises(fairyforge.AmbiguousMoveError, match="Rd1"):
        board.parse_san("Rd1")
    assert board.parse_san("Rad1").uci() == "a1d1"


def test_checkmate_outcome_in_chess():
    board = Board("chess")
    for san in ["f3", "e5", "g4", "Qh4#"]:
        board.push_san(san)
    assert board.is_checkmate() and board.is_game_over()
    assert board.outcome() == Outcome(Termination.CHECKMATE, False, None)
    assert board.result() == "0-1"


def test_burden_stalemate_wins_with_points():
    # Black's lone pawn on a2 cannot move (a1 is taken) and Black is not in
    # check: stalemate, which loses in Burden. White has one king: 1 + 1.
    board = Board("burden", "8/8/8/8/8/8/p7/K7 b - - 0 1")
    assert board.is_stalemate()
    outcome = board.outcome()
    assert outcome == Outcome(Termination.STALEMATE, True, (2, 0))
    assert outcome.result() == "1-0"


def test_chess_stalemate_is_a_draw():
    board = Board("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert board.outcome() == Outcome(Termination.STALEMATE, None, None)
    assert board.result() == "1/2-1/2"


def test_repetition_and_claims():
    board = Board("chess")
    for _ in range(2):
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            board.push_uci(uci)
    assert board.is_repetition(3)
    assert board.can_claim_draw()
    assert board.outcome() is None
    assert board.outcome(claim_draw=True).termination == Termination.THREEFOLD_REPETITION
    assert board.result() == "*"


def test_insufficient_material():
    board = Board("chess", "8/8/4k3/8/8/3NK3/8/8 w - - 0 1")
    assert board.is_insufficient_material()
    assert board.outcome().termination == Termination.INSUFFICIENT_MATERIAL
