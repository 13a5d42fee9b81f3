"""Making and copying boards through the Python API, python-chess beside.

Run with ``python -m pytest benches/test_bench_board.py --benchmark-enable``;
compare each fairyforge row with the python-chess row of the same name.
"""

from __future__ import annotations

import chess

import fairyforge


def test_fairyforge_new_board(benchmark):
    board = benchmark(fairyforge.Board, "chess")
    assert board.fen() == chess.STARTING_FEN


def test_python_chess_new_board(benchmark):
    board = benchmark(chess.Board)
    assert board.fen() == chess.STARTING_FEN


def test_fairyforge_copy(benchmark):
    board = fairyforge.Board("chess")
    board.push_uci("e2e4")
    copy = benchmark(board.copy)
    assert copy.fen() == board.fen() and len(copy.move_stack) == 1


def test_python_chess_copy(benchmark):
    board = chess.Board()
    board.push_uci("e2e4")
    copy = benchmark(board.copy)
    assert copy.fen() == board.fen() and len(copy.move_stack) == 1
