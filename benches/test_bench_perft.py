"""Perft speed through the Python API, with python-chess in the same run.

Run with ``python -m pytest benches --benchmark-enable``. Each benchmark
stores nodes/s in ``extra_info``; the ratio test prints the comparison.
"""

from __future__ import annotations

import time

import chess
import pytest

import fairyforge
from fairyforge.tools.bench import python_bulk_perft, python_loop_perft


def nps(benchmark, nodes: int) -> float:
    rate = nodes / benchmark.stats.stats.mean
    benchmark.extra_info["nodes"] = nodes
    benchmark.extra_info["nodes_per_second"] = rate
    return rate


@pytest.mark.parametrize("threads", [1, 2])
def test_fairyforge_chess_start_perft6(benchmark, threads):
    board = fairyforge.Board("chess")
    nodes = benchmark.pedantic(board.perft, args=(6,), kwargs={"threads": threads}, rounds=3)
    assert nodes == 119060324
    nps(benchmark, nodes)


@pytest.mark.parametrize(
    "variant, depth, nodes",
    [("shocking", 5, 3897783), ("burden", 5, 849634), ("evolution", 4, 642010)],
)
def test_fairyforge_variant_perft(benchmark, variant, depth, nodes):
    board = fairyforge.Board(variant)
    assert benchmark.pedantic(board.perft, args=(depth,), kwargs={"threads": 1}, rounds=3) == nodes
    nps(benchmark, nodes)


def test_python_chess_bulk_perft4(benchmark):
    nodes = benchmark.pedantic(python_bulk_perft, args=(chess.Board(), 4), rounds=1)
    assert nodes == 197281
    nps(benchmark, nodes)


def test_python_loops_side_by_side(benchmark):
    """legal_moves + push/pop from Python, ours against python-chess."""
    start = time.perf_counter()
    assert python_loop_perft(chess.Board(), 3) == 8902
    peer = 8902 / (time.perf_counter() - start)
    nodes = benchmark.pedantic(python_loop_perft, args=(fairyforge.Board("chess"), 3), rounds=3)
    assert nodes == 8902
    ours = nps(benchmark, nodes)
    benchmark.extra_info["python_chess_nodes_per_second"] = peer
    benchmark.extra_info["ratio"] = ours / peer
    print(f"\npush/pop loop: fairyforge {ours:,.0f}/s, python-chess {peer:,.0f}/s")
    print(f"ratio: {ours / peer:.1f}x")
