"""Bulk analysis of PGN files: per-game records appended and resumable,
malformed games skipped and reported, by fairyforge's search or an
external UCI engine, every position or only the tuner's quiet ones."""

from __future__ import annotations

import dataclasses
import io
import json
import shlex
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest

import fairyforge
from fairyforge import pgn
from fairyforge.tools import analysis, cli, players

GOOD = """[Event "a"]
[Variant "shocking"]

1. e4 Ad6 2. Nf3 1-0

[Event "bad"]

1. e4 Nf6?? 2. Qh5 *

[Event "c"]
[Variant "burden"]
[VariantOptions "files=6 pawn_ranks=2"]

1. axb4 *
"""


def write(tmp_path) -> str:
    path = tmp_path / "games.pgn"
    path.write_text(GOOD.replace("Nf6??", "Kf6"))
    return str(path)


def test_tasks_skip_malformed_games_and_keep_variants(tmp_path):
    errors: list = []
    items = list(analysis.tasks(write(tmp_path), depth=2, errors=errors))
    assert [(t.index, t.variant, t.options, len(t.moves)) for t in items] == [
        (1, "shocking", {}, 3),
        (2, "burden", {"files": "6", "pawn_ranks": "2"}, 1),
    ]
    assert len(errors) == 1 and "game 2" in str(errors[0])


def test_analyse_searches_every_position(tmp_path):
    (task, _) = analysis.tasks(write(tmp_path), depth=2)
    record = analysis.analyse(task)
    assert [p["ply"] for p in record["positions"]] == [0, 1, 2, 3]
    assert [p["played"] for p in record["positions"]] == ["e2e4", "c7d6", "g1f3", None]
    board = fairyforge.Board("shocking")
    assert record["positions"][0]["best"] in board.legal_moves
    assert all(p["depth"] == 2 for p in record["positions"])


def test_run_appends_and_resumes(tmp_path):
    out = tmp_path / "analysis.jsonl"
    items = list(analysis.tasks(write(tmp_path), nodes=200))
    analysis.run(items[:1], out=out, workers=1)
    seen = []
    records = analysis.run(items, out=out, workers=1, progress=seen.append)
    assert [r["index"] for r in seen] == [2]
    assert [r["index"] for r in records] == [1, 2]
    assert len(out.read_text().splitlines()) == 2
    totals = analysis.summary(records)
    assert totals["games"] == 2 and totals["positions"] == 6


def test_cli_analyse(tmp_path, capsys):
    out = tmp_path / "a.jsonl"
    code = cli.main(
        ["analyse", write(tmp_path), "--depth", "1", "--out", str(out), "--workers", "1"]
    )
    captured = capsys.readouterr()
    text = captured.out + captured.err  # the table, then the skipped games
    assert code == 0
    assert "skipped" in text and "game 2" in text
    assert [json.loads(x)["index"] for x in out.read_text().splitlines()] == [1, 2]


def test_games_written_by_pgn_module_round_trip_into_tasks(tmp_path):
    board = fairyforge.Board("evolution")
    board.push_uci(list(board.legal_moves)[0].uci())
    path = tmp_path / "one.pgn"
    pgn.write_games(path, [pgn.Game.from_board(board)])
    (task,) = analysis.tasks(path, depth=1)
    assert task.variant == "evolution" and len(task.moves) == 1


FAKE = Path(__file__).resolve().parent / "fake_uci.py"

CHESS = """[Event "captures and checks"]
[Result "1-0"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 c6 5. Nf3 Bg4 6. Bf4 e6 7. h3 Bxf3 8. Qxf3 Bb4
9. Be2 Nd7 10. a3 Bxc3+ 11. bxc3 Qxc3+ 12. Kf1 1-0

[Event "a promotion, unfinished"]
[Result "*"]

1. h4 g5 2. hxg5 Nf6 3. gxf6 h5 4. fxe7 h4 5. exf8=Q+ Kxf8 *

[Event "fool's mate"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
"""


def fake(mode: str = "good", after: int = 0, pidfile: Path | None = None) -> str:
    """``uci:`` and the command line of the test engine of tests/fake_uci.py."""
    words = [sys.executable, str(FAKE), mode, str(after)]
    return "uci:" + shlex.join(words + ([str(pidfile)] if pidfile else []))


def quiet_plies(text: str, skip: int) -> list[list[int]]:
    """Per game, the plies the tuner trains on, found with python-chess."""
    plies, handle = [], io.StringIO(text)
    while (game := chess.pgn.read_game(handle)) is not None:
        board, kept = game.board(), []
        for ply, move in enumerate(game.mainline_moves()):
            if ply >= skip and not (
                board.is_check() or board.is_capture(move) or move.promotion is not None
            ):
                kept.append(ply)
            board.push(move)
        plies.append(kept)
    return plies


def run_cli(capsys, *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture(autouse=True)
def no_engines_left():
    yield
    players.close_all()


def test_a_uci_engine_analyses_the_quiet_positions_and_resumes(tmp_path, capsys):
    games = tmp_path / "chess.pgn"
    games.write_text(CHESS)
    out, pids = tmp_path / "scores.jsonl", tmp_path / "pids"
    base = ["analyse", str(games), "--nodes", "100", "--out", str(out), "--workers", "1"]
    argv = [*base, "--engine", fake(pidfile=pids), "--engine-option", "Hash=4"]
    argv += ["--quiet-only", "--skip", "3"]
    code, text = run_cli(capsys, *argv)
    assert code == 0, text
    records = [json.loads(line) for line in out.read_text().splitlines()]
    expected = quiet_plies(CHESS, 3)
    assert expected[0] and 19 not in expected[0] and 8 not in expected[1]  # a check, a capture
    assert [[p["ply"] for p in r["positions"]] for r in records] == expected
    assert [r["result"] for r in records] == ["1-0", "*", "0-1"]
    assert {r["analyser"] for r in records} == {"fake-good"}
    assert all((p["cp"], p["mate"], p["depth"]) == (12, None, 1) for p in records[0]["positions"])
    # One engine for the run (and one started first to learn its name).
    assert len(pids.read_text().split()) == 2
    settings = json.loads(out.with_suffix(".settings.json").read_text())
    assert (settings["quiet_only"], settings["skip"]) == (True, 3)
    assert settings["engine"]["uci_options"] == [["Hash", "4"]]
    # Interrupted after the first game, while writing the second: the rerun
    # adds the missing games once each.
    lines = out.read_text().splitlines(keepends=True)
    out.write_text(lines[0] + lines[1][:30])
    code, text = run_cli(capsys, *argv)
    assert code == 0, text
    again = out.read_text().splitlines(keepends=True)
    assert again[0] == lines[0] and untimed(again) == untimed(lines)
    # Another analyser, its options or other positions: refused, file untouched.
    quiet = ["--quiet-only", "--skip", "3"]
    for changed in (
        [*base, *quiet],
        [*base, *quiet, "--engine", fake("late", pidfile=pids), "--engine-option", "Hash=4"],
        [*base, *quiet, "--engine", fake(pidfile=pids), "--engine-option", "Hash=8"],
        [*argv, "--skip", "4"],
        argv[:-3],
    ):
        code, text = run_cli(capsys, *changed)
        assert code == 2 and "holds results made with other settings" in text, text
        assert "engine" in text or "skip" in text or "quiet_only" in text
    assert out.read_text().splitlines(keepends=True) == again


def untimed(lines: list[str]) -> list[dict]:
    """Records without the seconds each search took."""
    records = [json.loads(line) for line in lines]
    for r in records:
        for p in r["positions"]:
            del p["seconds"]
    return records


def test_our_own_engine_is_the_default_analyser(tmp_path):
    games = tmp_path / "chess.pgn"
    games.write_text(CHESS)
    items = list(analysis.tasks(games, depth=1, quiet_only=True, skip=0))
    records = analysis.run(items, workers=1)
    assert {r["analyser"] for r in records} == {f"fairyforge {fairyforge.__version__}"}
    assert [[p["ply"] for p in r["positions"]] for r in records] == quiet_plies(CHESS, 0)
    # Without --quiet-only every position until the game ends: the mated
    # position of Fool's mate is not searched.
    every = analysis.analyse(dataclasses.replace(items[2], quiet_only=False))
    assert [p["ply"] for p in every["positions"]] == [0, 1, 2, 3]


def test_engines_that_fail_give_an_error_not_a_traceback(tmp_path, capsys):
    games = tmp_path / "chess.pgn"
    games.write_text(CHESS)
    out = tmp_path / "a.jsonl"
    argv = ["analyse", str(games), "--depth", "1", "--out", str(out), "--workers", "1"]
    code, text = run_cli(capsys, *argv, "--engine", f"uci:{tmp_path / 'missing'}")
    assert code == 2 and "cannot be started" in text and "Traceback" not in text
    code, text = run_cli(capsys, *argv, "--engine", fake("crash", 2))
    assert code == 2 and "game 1, ply 2" in text and "exited with code 3" in text, text
    code, text = run_cli(capsys, *argv, "--engine", fake(), "--engine-option", "Threads=2")
    assert code == 2 and "has no option 'Threads'" in text
    code, text = run_cli(capsys, *argv, "--engine-option", "Hash=2")
    assert code == 2 and "EvalFile" in text
    # Games of several variants: a UCI engine plays the one its options choose.
    code, text = run_cli(
        capsys, "analyse", write(tmp_path), "--depth", "1", "--out", str(out), "--engine", fake()
    )
    assert code == 2 and "UCI_Variant" in text
