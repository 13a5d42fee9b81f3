"""Bulk analysis of PGN files: per-game records appended and resumable,
malformed games skipped and reported."""

from __future__ import annotations

import json

import fairyforge
from fairyforge import pgn
from fairyforge.tools import analysis, cli

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
