"""The ``fairyforge`` command line: results on standard output (text or
``--json``), everything else on standard error; perft, divide, bench,
search, render, help and errors."""

from __future__ import annotations

import argparse
import json
import re
import sys

import pytest

from fairyforge.tools import bench, cli

#: Captured standard error of the last ``run``.
LAST_ERR: list[str] = [""]


def run(capsys, *argv: str) -> tuple[int, str]:
    """Exit code and standard output; standard error kept in LAST_ERR."""
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    LAST_ERR[0] = captured.err
    return code, captured.out


def test_perft_prints_the_count_on_stdout_and_the_speed_on_stderr(capsys):
    code, out = run(capsys, "perft", "4", "--variant", "shocking")
    assert code == 0
    assert out == "170076\n"
    err = LAST_ERR[0]
    assert re.search(r"shocking depth 4: 170,076 nodes in [\d.]+ s \([\d.,]+ M nodes/s", err)


def test_divide_is_exactly_stockfish_format(capsys):
    code, out = run(capsys, "perft", "2", "--divide", "--threads", "1")
    assert code == 0
    body, _, rest = out.partition("\n\n")
    rows = body.splitlines()
    assert len(rows) == 20
    assert rows == sorted(rows)
    assert "e2e4: 20" in rows
    assert rest == "Nodes searched: 400\n\n"


def test_json_for_perft_divide_and_search(capsys):
    code, out = run(capsys, "perft", "3", "-v", "evolution", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["nodes"] > 0 and doc["variant"] == "evolution"
    assert doc["divide"] is None and doc["depth"] == 3
    code, out = run(capsys, "perft", "2", "--divide", "--json")
    doc = json.loads(out)
    assert doc["nodes"] == 400 and doc["divide"]["e2e4"] == 20 and len(doc["divide"]) == 20
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    code, out = run(capsys, "search", "--fen", fen, "--depth", "3", "--json", "--multipv", "2")
    doc = json.loads(out)
    assert doc["bestmove"] == "a1a8" and len(doc["lines"]) == 2
    assert doc["lines"][0]["score"] == {"cp": None, "mate": 1, "text": "#1"}
    assert doc["lines"][0]["san"] == "Ra8#"


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
    assert out == "" and fragment in LAST_ERR[0]


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


def test_search_prints_uci_info_lines_and_bestmove(capsys):
    code, out = run(capsys, "search", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "3")
    assert code == 0
    infos = [line for line in out.splitlines() if line.startswith("info depth")]
    assert [line.split()[2] for line in infos] == ["1", "2", "3"]
    assert " score mate 1 " in infos[-1]
    assert out.splitlines()[-1] == "bestmove a1a8 (Ra8#) score mate 1 (#1)"
    code, out = run(capsys, "search", "--depth", "2")
    assert re.search(r"^bestmove \w+ \(.+\) score cp -?\d+ \([+-]\d+\.\d\d\)$", out, re.M)
    assert "score cp " in out.splitlines()[0] and "nodes in" in LAST_ERR[0]


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


def test_match_sprt_stops_when_a_much_weaker_player_is_shown_weaker(capsys, tmp_path):
    prefix = str(tmp_path / "s")
    argv = ["match", "-v", "chess", "--b", "material", "--nodes", "200", "--games", "60"]
    argv += ["--max-plies", "120", "--sprt", "elo0=0 elo1=5 alpha=0.05 beta=0.05", "--json"]
    code, out = run(capsys, *argv, "--out", prefix, "--workers", "1")
    assert code == 0
    doc = json.loads(out)["variants"][0]
    test = doc["sprt"]
    assert test["decision"] == "H1" and test["llr"] >= test["bounds"][1] == 2.944
    assert sum(test["pentanomial"]) == test["pairs"] and doc["games"] < 60
    assert doc["games"] == 2 * test["pairs"]  # one game at a time: it stops on the deciding pair
    records = (tmp_path / "s.chess.jsonl").read_text().splitlines()
    assert len(records) == doc["games"]
    stored = json.loads((tmp_path / "s.chess.settings.json").read_text())
    assert stored["sprt"] == {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}
    # Resumed: decided already, so no game more, and the same verdict.
    code, out = run(capsys, *argv, "--out", prefix)
    assert code == 0 and json.loads(out)["variants"][0]["sprt"] == test
    assert len((tmp_path / "s.chess.jsonl").read_text().splitlines()) == len(records)
    # Another test (or none) on the same output is refused, naming the field.
    code, _ = run(capsys, *argv[:-3], "--json", "--out", prefix)
    assert code == 2 and "sprt: {" in LAST_ERR[0] and "None now" in LAST_ERR[0]
    code, out = run(capsys, *argv[:-3], "--sprt", "elo1=10", "--out", prefix)
    assert code == 2 and "sprt.elo1: 5.0 there, 10.0 now" in LAST_ERR[0]
    # The text report shows the test.
    code, out = run(capsys, *argv[:-1], "--out", prefix)
    assert code == 0 and "SPRT elo0=0 elo1=5" in out and "H1" in out


@pytest.mark.parametrize(
    ("text", "why"),
    [("elo1=x", "is not a number"), ("elo0=5 elo1=1", "must be above"), ("e=1", "expected")],
)
def test_match_bad_sprt_text_is_a_one_line_error(capsys, text, why):
    code, out = run(capsys, "match", "-v", "chess", "--games", "2", "--sprt", text)
    assert code == 2 and out == ""
    lines = LAST_ERR[0].strip().splitlines()
    assert len(lines) == 1 and "invalid option sprt" in lines[0] and why in lines[0]


def test_render_writes_svg(capsys, tmp_path):
    out = tmp_path / "b.svg"
    code, _ = run(capsys, "render", "8/8/8/4k3/8/8/8/4K2R w K - 0 1", "-o", str(out))
    assert code == 0
    assert out.read_text().startswith("<svg")


def test_render_chooses_a_game_and_a_ply_of_a_pgn(capsys, tmp_path):
    pgn = tmp_path / "g.pgn"
    pgn.write_text(
        '[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n[Variant "burden"]\n\n1. dxe5 fxe4 *\n'
    )
    out = tmp_path / "b.svg"
    code, _ = run(capsys, "render", str(pgn), "--game", "2", "--ply", "1", "-o", str(out))
    assert code == 0 and "burden" in LAST_ERR[0]
    assert "8/pppppppp/pppppppp/ppppNppp/PPP1PPPP/PPPPPPPP/PPPPPPPP/8 b" in LAST_ERR[0]
    code, _ = run(capsys, "render", str(pgn), "--game", "3", "-o", str(out))
    assert code == 2 and "fewer than 3 games" in LAST_ERR[0]
    code, _ = run(capsys, "render", str(pgn), "--ply", "9", "-o", str(out))
    assert code == 2 and "game 1 has 2 plies" in LAST_ERR[0]


def test_render_refuses_an_output_it_cannot_write(capsys, tmp_path):
    jpg = tmp_path / "x.jpg"
    code, _ = run(capsys, "render", "8/8/8/4k3/8/8/8/4K2R w K - 0 1", "-o", str(jpg))
    assert code == 2 and "must end in .svg or .png" in LAST_ERR[0]
    assert not jpg.exists()


@pytest.mark.parametrize(
    ("argv", "module", "extra"),
    [
        (["bench", "--quick", "--plot", "x.png"], "matplotlib", "plot"),
        (["render", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", "-o", "x.png"], "cairosvg", "png"),
        (
            ["analyse", "none.pgn", "--depth", "1", "--out", "o", "--dask", "tcp://x"],
            "dask",
            "dask",
        ),
        (["match", "--games", "1", "--plot", "x.png"], "matplotlib", "plot"),
    ],
)
def test_missing_extras_fail_at_once_naming_the_extra(capsys, monkeypatch, argv, module, extra):
    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)
    if module == "dask":
        monkeypatch.setitem(sys.modules, "dask.distributed", None)
    code, out = run(capsys, *argv)
    assert code == 2 and out == ""
    lines = LAST_ERR[0].strip().splitlines()
    assert len(lines) == 1 and f"pip install 'fairyforge[{extra}]'" in lines[0]


def _options(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from ((f"{name} {a}", h) for a, h in _options(sub))
        elif action.option_strings and action.dest not in ("help", "version"):
            yield "/".join(action.option_strings), action.help or ""
        elif not action.option_strings:
            yield action.dest, action.help or ""


def test_every_option_states_its_default_and_every_subcommand_is_listed():
    parser = cli.build_parser()
    missing = [
        name for name, text in _options(parser) if "default" not in text and "required" not in text
    ]
    assert missing in ([], ["command"])
    subcommands = next(
        a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
    ).choices
    for name in subcommands:
        assert re.search(rf"^  {name} ", parser.description, re.M), name


def test_bench_table_reads_in_80_columns():
    from rich.console import Console

    rows = [
        bench.Row("chess search (Fairy-Stockfish 14.0.1 LB)", 0, 1234567, 1.0, "peer, 1000 ms"),
        bench.Row("chess python loop (python-chess)", 3, 8902, 0.5, "push/pop"),
    ]
    console = Console(width=80, record=True)
    console.print(cli.bench_table(rows))
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "1,234,567" in text and "8,902" in text


def test_signature_leaves_out_the_peers():
    ours = bench.Row("chess start (Board.perft)", 5, 4865609, 1.0)
    peer = bench.Row("chess bulk perft (python-chess)", 3, 8902, 1.0, "peer")
    loop = bench.Row("chess python loop (python-chess)", 3, 8902, 1.0, "push/pop")
    assert bench.signature([ours, peer, loop]) == bench.signature([ours]) == 4865609
    order = [r.name for r, _ in bench.plot_order([peer, ours, loop])]
    assert order == [ours.name, peer.name, loop.name]
