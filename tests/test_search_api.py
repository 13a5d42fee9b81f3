"""The search through the Python API: results, info callback, MultiPV,
limits, errors and the GIL."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fairyforge
from fairyforge import Board, Score, SearchResult


def test_mate_in_one_is_found_and_reported_as_mate():
    board = Board("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    result = board.search(depth=4)
    assert isinstance(result, SearchResult)
    assert result.best_move.uci() == "a1a8"
    assert result.score == Score(mate=1)
    assert str(result.score) == "#1"
    assert result.pv[0] == result.best_move
    assert result.depth == 4 and result.nodes > 0 and result.time >= 0


def test_info_callback_sees_every_iteration():
    seen = []
    Board("shocking").search(depth=5, info=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3, 4, 5]
    assert all(i.pv and i.score.cp is not None for i in seen)
    assert seen[-1].nodes >= seen[0].nodes


def test_callback_errors_stop_the_search_and_propagate():
    def boom(_info):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        Board("chess").search(depth=20, info=boom)


def test_multipv_returns_distinct_lines_best_first():
    lines = Board("evolution").search(depth=3, multipv=3)
    assert len(lines) == 3
    assert len({line.best_move for line in lines}) == 3
    scores = [line.score.cp for line in lines]
    assert scores == sorted(scores, reverse=True)


def test_fixed_depth_is_deterministic():
    a = Board("burden").search(depth=4)
    b = Board("burden").search(depth=4)
    assert (a.best_move, a.score, a.nodes) == (b.best_move, b.score, b.nodes)


def test_node_limit_and_module_function():
    result = fairyforge.search("burden", options={"royal": "gryphon"}, nodes=3000)
    assert result.best_move in Board("burden", royal="gryphon").legal_moves
    assert result.nodes < 3000 + 2048


def test_game_over_position_has_no_best_move():
    board = Board("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    result = board.search(depth=3)
    assert result.best_move is None and result.pv == []


@pytest.mark.parametrize(
    "kwargs", [{"multipv": 0}, {"threads": 0}, {"depth": 0}, {"eval": "magic"}]
)
def test_bad_limits_raise_option_errors(kwargs):
    with pytest.raises(fairyforge.InvalidOptionError):
        Board("chess").search(**kwargs)


def test_search_releases_the_gil():
    done = threading.Event()
    counter = 0

    def spin():
        nonlocal counter
        while not done.is_set():
            counter += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        Board("chess").search(movetime=300)
    finally:
        done.set()
        t.join()
    assert counter > 10_000


VARIANTS = [
    ("chess", {}),
    ("shocking", {}),
    ("burden", {}),
    ("burden", {"royal": "gryphon", "cycle": "pawn"}),
    ("burden", {"royal": "maharajah", "files": 6, "pawn_ranks": 2}),
    ("evolution", {}),
]


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(
    case=st.sampled_from(VARIANTS),
    walk=st.lists(st.integers(min_value=0, max_value=10_000), max_size=40),
    nodes=st.integers(min_value=1, max_value=400),
)
def test_search_never_returns_an_illegal_move(case, walk, nodes):
    variant, options = case
    board = Board(variant, **options)
    for i in walk:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[i % len(moves)])
    result = board.search(nodes=nodes)
    legal = list(board.legal_moves)
    if legal:
        assert result.best_move in legal
        assert all(isinstance(m, fairyforge.Move) for m in result.pv)
    else:
        assert result.best_move is None
