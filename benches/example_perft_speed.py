"""Perft speed of the shipped example variants beside Fairy-Stockfish's on
the same positions (start positions, one thread each), timed in turn so
that the machine's drift cancels: prints both nodes/s and their ratio per
variant, and writes them as JSON.

    python benches/example_perft_speed.py [--engine .peers/fairy-stockfish] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

import fairyforge

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    ("capablanca", 5),
    ("gothic", 5),
    ("losalamos", 6),
    ("almost", 5),
    ("chancellor", 5),
    ("grasshopper", 5),
]


def fsf(engine: str, variant: str, depth: int) -> tuple[int, float]:
    cmd = f"uci\nsetoption name UCI_Variant value {variant}\nisready\n"
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert p.stdin and p.stdout
    p.stdin.write(cmd)
    p.stdin.flush()
    while p.stdout.readline().strip() != "readyok":
        pass
    start = time.perf_counter()
    p.stdin.write(f"position startpos\ngo perft {depth}\n")
    p.stdin.flush()
    nodes = 0
    for line in p.stdout:
        if line.startswith("Nodes searched"):
            nodes = int(line.split(":")[1])
            break
    elapsed = time.perf_counter() - start
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return nodes, elapsed


def ours(variant: str, depth: int) -> tuple[int, float]:
    board = fairyforge.Board(variant)
    start = time.perf_counter()
    nodes = board.perft(depth, threads=1)
    return nodes, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--engine", default=str(ROOT / ".peers/fairy-stockfish"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default="example-perft-speed.json")
    ap.add_argument("--only", help="one variant of the list (default: all)")
    args = ap.parse_args()
    rows = []
    for variant, depth in CASES:
        if args.only and variant != args.only:
            continue
        mine, theirs = [], []
        for _ in range(args.runs):
            n1, t1 = ours(variant, depth)
            n2, t2 = fsf(args.engine, variant, depth)
            assert n1 == n2, (variant, n1, n2)
            mine.append(n1 / t1)
            theirs.append(n2 / t2)
        ratios = [a / b for a, b in zip(mine, theirs)]
        row = {
            "variant": variant,
            "depth": depth,
            "nodes": n1,
            "fairyforge_mnps": statistics.median(mine) / 1e6,
            "fairy_stockfish_mnps": statistics.median(theirs) / 1e6,
            "ratio_median": statistics.median(ratios),
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
        }
        rows.append(row)
        print(
            f"{variant:12} perft {depth} {n1:>11,}  fairyforge {row['fairyforge_mnps']:6.1f} M/s  "
            f"Fairy-Stockfish {row['fairy_stockfish_mnps']:5.1f} M/s  "
            f"ratio {row['ratio_median']:.1f}x "
            f"[{row['ratio_min']:.1f}, {row['ratio_max']:.1f}]",
            flush=True,
        )
    Path(args.out).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
