"""The benchmark suite's peers and the ratios it prints."""

from __future__ import annotations

import pytest

from fairyforge.tools import bench

PEERS = bench.find_peers()


@pytest.mark.skipif(not PEERS, reason="no UCI peer installed (scripts/peers installs them)")
@pytest.mark.parametrize("path", PEERS)
def test_peer_searches_the_chess_start_on_its_own_clock(path):
    assert "Stockfish" in bench.engine_name(path)
    runs = bench.peer_search(path, movetime=100, runs=2)
    assert len(runs) == 2
    for nodes, seconds, depth in runs:
        assert nodes > 1000 and depth >= 3 and seconds > 0


def test_peer_search_rows_keep_the_fastest_run_with_the_median():
    timing = bench._best([(1000, 1.0, 9), (3000, 1.0, 11), (1500, 0.5, 10)])
    assert (timing.nodes, timing.seconds, timing.depth) == (3000, 1.0, 11)
    assert timing.median == 3000 and not timing.fixed
    assert bench._best([(1000, 0.5, 9)]).median is None


def test_ratios_compare_the_chess_search_with_each_peer():
    rows = [
        bench.Row("chess search", 13, 2_000_000, 1.0, "1000 ms", median=1_800_000, fixed=False),
        bench.Row("chess search (Peer 1)", 14, 400_000, 1.0, "peer, 1000 ms", 300_000, False),
        bench.Row("chess search (Peer 2)", 20, 500_000, 1.0, "peer, 1000 ms", fixed=False),
    ]
    assert bench.ratios(rows) == [
        "chess search vs Peer 1: 5.0x nodes/s (medians: 6.0x)",
        "chess search vs Peer 2: 4.0x nodes/s",
    ]
    assert bench.signature(rows) == 0
