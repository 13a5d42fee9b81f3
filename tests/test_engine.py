"""The persistent Engine, the clock rule, and search results as native
values (equality, repr, pickling)."""

from __future__ import annotations

import copy
import pickle
import time

import pytest

import fairyforge
from fairyforge import Board, Engine, Info, Score, SearchResult


def test_the_table_persists_between_searches_until_new_game():
    engine = Engine("shocking", hash_mb=8)
    board = Board("shocking")
    first = engine.search(board, depth=7)
    assert engine.hashfull > 0
    second = engine.search(board, depth=7)
    # The kept table's cutoffs save about half the nodes at this depth (the
    # principal variation is searched again: its nodes take no cutoff).
    assert second.nodes < first.nodes * 3 / 4
    engine.new_game()
    fresh = Board("shocking").search(depth=7, hash_mb=8)
    again = engine.search(board, depth=7)
    assert again.nodes == fresh.nodes == first.nodes
    assert again.best_move == fresh.best_move


def test_the_table_helps_the_next_moves_of_a_game():
    # Over several moves of a game, the kept table and history save nodes
    # against fresh searches of the same positions (one move may not).
    engine = Engine("chess", hash_mb=8)
    board = Board("chess")
    kept = fresh = 0
    for ply in range(8):
        result = engine.search(board, depth=8)
        if ply:
            kept += result.nodes
            fresh += Board(board.variant.name, board.fen()).search(depth=8, hash_mb=8).nodes
        board.push(result.pv[0])
    assert kept < fresh


def test_engine_checks_its_variant_and_settings():
    engine = Engine("burden", hash_mb=4, royal="maharajah")
    assert engine.variant.options == {"royal": "maharajah"}
    assert repr(engine) == "Engine('burden', hash_mb=4, threads=1, royal='maharajah')"
    with pytest.raises(fairyforge.InvalidOptionError, match="this engine plays"):
        engine.search(Board("burden"), depth=1)
    with pytest.raises(fairyforge.InvalidOptionError):
        Engine("chess", hash_mb=0)
    with pytest.raises(fairyforge.InvalidOptionError):
        Engine("chess", threads=0)
    with pytest.raises(fairyforge.InvalidOptionError):
        Engine("xiangqi")
    with pytest.raises(fairyforge.InvalidOptionError):
        Engine("chess").search(Board("chess"), multipv=0)


def test_resize_and_play():
    engine = Engine("evolution", hash_mb=2)
    board = Board("evolution")
    engine.search(board, depth=3)
    engine.resize(4)
    assert engine.hash_mb == 4 and engine.hashfull == 0
    assert engine.play(board, depth=2) in board.legal_moves
    over = Board("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert Engine().play(over, depth=2) is None


def test_multipv_and_info_through_the_engine():
    seen: list[Info] = []
    lines = Engine("chess").search(Board("chess"), depth=3, multipv=2, info=seen.append)
    assert len(lines) == 2 and lines[0].best_move != lines[1].best_move
    assert {i.multipv for i in seen} == {1, 2} and all(isinstance(i, Info) for i in seen)


def test_time_rule():
    # The rule of the UCI and XBoard loops (search/clock.rs): 330 ms kept back
    # for the overheads, a thirtieth of the rest plus 3/4 of the increment,
    # at most five times that and never more than 40% of the clock.
    assert fairyforge.time_limits(10_020, 100) == (398, 1990)
    # Low on time: never more than 40% of what is left.
    assert fairyforge.time_limits(200, 100) == (68, 68)
    assert fairyforge.time_limits(0) == (1, 1)
    assert fairyforge.time_limits(4_020, 0, moves_to_go=2) == (1596, 1596)
    assert fairyforge.time_limits(4_020, 0, moves_to_go=1, overhead_ms=20) == (2800, 2800)
    with pytest.raises(fairyforge.InvalidOptionError):
        fairyforge.time_limits(-1)
    black = Board("chess", "4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    with pytest.raises(fairyforge.InvalidOptionError, match="no btime"):
        Engine().search(black, wtime=1000)


def test_clock_search_stays_within_the_hard_limit():
    engine = Engine("shocking")
    board = Board("shocking")
    start = time.perf_counter()
    result = engine.search(board, wtime=400, btime=60_000)
    elapsed = time.perf_counter() - start
    _, hard = fairyforge.time_limits(400)
    assert result.best_move in board.legal_moves
    assert elapsed < hard / 1000 + 0.25  # room for a loaded machine


def test_results_compare_print_and_pickle():
    result = Board("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").search(depth=3)
    assert isinstance(result, SearchResult)
    for value in (result, result.score, result.pv[0]):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value
    rebuilt = eval(repr(result), vars(fairyforge))
    assert rebuilt == result
    assert repr(result).startswith("SearchResult(best_move=Move.from_uci('a1a8'), score=Score(")
    changed = SearchResult(*result.__getnewargs__()[:-1], result.time + 1)
    assert changed != result
    with pytest.raises(AttributeError):
        result.depth = 9  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(result)


def test_info_and_score_values():
    seen: list[Info] = []
    Board("evolution").search(depth=2, info=seen.append)
    info = seen[-1]
    assert pickle.loads(pickle.dumps(info)) == info
    assert eval(repr(info), vars(fairyforge)) == info
    assert Score(cp=25) == Score(cp=25) != Score(mate=2)
    assert {Score(cp=1), Score(cp=1)} == {Score(cp=1)}
    assert (str(Score(cp=-5)), str(Score(mate=-3)), repr(Score(mate=2))) == (
        "-0.05",
        "#-3",
        "Score(cp=None, mate=2)",
    )
    with pytest.raises(fairyforge.InvalidOptionError, match="exactly one"):
        Score()
    with pytest.raises(fairyforge.InvalidOptionError):
        Score(cp=1, mate=1)
