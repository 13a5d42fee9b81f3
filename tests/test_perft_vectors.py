"""Every perft vector in tests/data/perft/*.jsonl through fairyforge.perft,
one test per (file, line, depth); vectors above 5,000,000 nodes are slow.
Also checks that chess.jsonl carries the six standard chessprogramming
positions with their published numbers to depth >= 4."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import fairyforge

DATA = Path(__file__).parent / "data" / "perft"
SLOW_NODES = 5_000_000


def _vectors():
    for path in sorted(DATA.glob("*.jsonl")):
        for line_no, line in enumerate(path.read_text().splitlines(), start=1):
            if not line.strip():
                continue
            record = json.loads(line)
            for depth, nodes in sorted(record["perft"].items(), key=lambda kv: int(kv[0])):
                marks = [pytest.mark.slow] if nodes > SLOW_NODES else []
                yield pytest.param(
                    record["variant"],
                    record["fen"],
                    record.get("options", {}),
                    int(depth),
                    nodes,
                    id=f"{path.stem}:{line_no}:d{depth}",
                    marks=marks,
                )


VECTORS = list(_vectors())


def test_vector_files_present():
    names = {p.name for p in DATA.glob("*.jsonl")}
    assert {"chess.jsonl", "shocking.jsonl", "burden.jsonl", "evolution.jsonl"} <= names
    assert len(VECTORS) >= 200
    # Options in the files are JSON values: strings, integers and booleans.
    kinds = {
        type(value)
        for param in VECTORS
        for value in param.values[2].values()  # options
    }
    assert kinds <= {str, int, bool}


@pytest.mark.parametrize(("variant", "fen", "options", "depth", "nodes"), VECTORS)
def test_perft_vector(variant, fen, options, depth, nodes):
    assert fairyforge.perft(variant, fen, depth, threads=None, **options) == nodes


# The six standard positions (https://www.chessprogramming.org/Perft_Results),
# with the published counts for depths 1-5.
STANDARD = {
    "start": (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        [20, 400, 8902, 197281, 4865609],
    ),
    "kiwipete": (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        [48, 2039, 97862, 4085603, 193690690],
    ),
    "pos3": (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        [14, 191, 2812, 43238, 674624],
    ),
    "pos4": (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        [6, 264, 9467, 422333, 15833292],
    ),
    "pos5": (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        [44, 1486, 62379, 2103487, 89941194],
    ),
    "pos6": (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        [46, 2079, 89890, 3894594, 164075551],
    ),
}


@pytest.mark.parametrize("name", sorted(STANDARD))
def test_chess_jsonl_has_standard_position(name):
    fen, counts = STANDARD[name]
    records = [
        json.loads(line) for line in (DATA / "chess.jsonl").read_text().splitlines() if line.strip()
    ]
    matches = [r for r in records if r["fen"] == fen]
    assert len(matches) == 1, f"{name} missing from chess.jsonl"
    record = matches[0]
    assert record["variant"] == "chess" and not record.get("options")
    perft = {int(d): n for d, n in record["perft"].items()}
    assert max(perft) >= 4
    for depth, nodes in perft.items():
        if depth <= len(counts):
            assert nodes == counts[depth - 1], (name, depth)
