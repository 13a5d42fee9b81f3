"""The ``fairyforge`` command line: perft, divide, bench and errors."""

from __future__ import annotations

import re

import pytest

from fairyforge.tools import bench, cli


def run(capsys, *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    out = capsys.readouterr().out
    return code, out


def test_perft_prints_count_time_and_speed(capsys):
    code, out = run(capsys, "perft", "4", "--variant", "shocking")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "170076"
    assert re.search(r"shocking depth 4: 170,076 nodes in [\d.]+ s \([\d.,]+ M nodes/s", out)


def test_divide_is_stockfish_format(capsys):
    code, out = run(capsys, "perft", "2", "--divide", "--threads", "1")
    assert code == 0
    body, _, rest = out.partition("\n\n")
    rows = body.splitlines()
    assert len(rows) == 20
    assert rows == sorted(rows)
    assert "e2e4: 20" in rows
    assert rest.startswith("Nodes searched: 400\n")


def test_options_reach_the_variant(capsys):
    code, out = run(capsys, "perft", "1", "-v", "burden", "--opt", "files=6", "-o", "pawn_ranks=2")
    assert code == 0
    # 6x6, two ranks of pawns a side touching: only the ten diagonal captures.
    assert out.splitlines()[0] == "10"


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["perft", "2", "--fen", "8/8 w - - 0 1"], "invalid FEN (placement)"),
        (["perft", "2", "--variant", "xiangqi"], "unknown variant"),
        (["perft", "2", "-v", "burden", "--opt", "royal=emperor"], "invalid option royal"),
        (["perft", "2", "-v", "burden", "--opt", "royal"], "expected key=value"),
        (["bench", "--quick", "--peer", "/nonexistent/engine"], "peer: no executable engine"),
        (["bench", "--quick", "--peer", "true"], "did not start as a UCI engine"),
    ],
)
def test_bad_input_is_a_clear_error(capsys, argv, fragment):
    code, out = run(capsys, *argv)
    assert code == 2
    assert fragment in out


def test_bench_quick_prints_table_and_ratios(capsys, tmp_path):
    png = tmp_path / "bench.png"
    code, out = run(capsys, "bench", "--quick", "--plot", str(png))
    assert code == 0
    assert "shocking start" in out and "burden start" in out and "evolution start" in out
    assert re.search(r"signature \(total nodes\): \d+", out)
    assert "vs python-chess" in out
    # Every installed search peer gets a row and a ratio.
    peers = len(bench.find_peers())
    assert len(re.findall(r"chess search vs .+: [\d.]+x nodes/s", out)) == peers
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_search_prints_info_lines_and_bestmove(capsys):
    code, out = run(capsys, "search", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "3")
    assert code == 0
    infos = [line for line in out.splitlines() if line.startswith("info depth")]
    assert [line.split()[2] for line in infos] == ["1", "2", "3"]
    assert "score #1" in infos[-1]
    assert "bestmove a1a8 (Ra8#)" in out


def test_match_runs_and_resumes(capsys, tmp_path):
    prefix = str(tmp_path / "m")
    argv = ["match", "-v", "evolution", "--games", "2", "--nodes", "200", "--max-plies", "10"]
    code, out = run(capsys, *argv, "--out", prefix)
    assert code == 0
    assert "full vs material-1ply" in out and "evolution" in out
    lines = (tmp_path / "m.evolution.jsonl").read_text().splitlines()
    assert len(lines) == 2
    code, _ = run(capsys, *argv, "--out", prefix, "--workers", "1")
    assert code == 0
    assert len((tmp_path / "m.evolution.jsonl").read_text().splitlines()) == 2


def test_render_writes_svg(capsys, tmp_path):
    out = tmp_path / "b.svg"
    code, _ = run(capsys, "render", "8/8/8/4k3/8/8/8/4K2R w K - 0 1", "-o", str(out))
    assert code == 0
    assert out.read_text().startswith("<svg")
