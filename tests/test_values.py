"""Piece values by self-play: the uneven starts of every variant, and a
tiny run that ranks a queen above a knight."""

from __future__ import annotations

import json

import pytest

import fairyforge
from fairyforge.tools import cli, values


@pytest.mark.parametrize(
    "variant, options, measured",
    [
        ("chess", {}, {"P", "N", "B", "R", "Q"}),
        ("shocking", {}, {"P", "N", "B", "R", "Q", "M", "D", "T", "A", "V"}),
        ("burden", {}, {"P", "N", "B", "Q"}),
        ("burden", {"royal": "maharajah"}, {"P", "N", "B", "Q"}),
        ("evolution", {}, {"N", "B", "R", "Q"}),
    ],
)
def test_every_uneven_start_is_a_legal_position_without_royal_changes(variant, options, measured):
    found = values.imbalances(variant, options)
    assert found[0].op == "baseline"
    assert {m.kind for m in found[1:]} == measured
    start = fairyforge.Board(variant, **options)
    royals = sorted(len(start.royal_squares(c)) for c in (True, False))
    for m in found[1:]:
        assert m.starts and len(set(m.starts)) == len(m.starts)
        for fen in m.starts:
            board = fairyforge.Board(variant, fen, **options)
            assert not board.is_game_over()
            assert sorted(len(board.royal_squares(c)) for c in (True, False)) == royals
    # Shocking: the Kingdom's kinds come off White, the Network's off Black.
    if variant == "shocking":
        sides = {m.kind: m.side for m in found[1:]}
        assert sides["Q"] is True and sides["M"] is False
    if variant == "evolution":
        assert found[0].unit == "N"


def test_a_royal_or_foreign_kind_is_refused():
    with pytest.raises(values.ValuesError, match="no measurable K"):
        values.imbalances("chess", kinds=["K"])
    with pytest.raises(values.ValuesError, match="no measurable R"):
        values.imbalances("burden", kinds=["R"])


def test_a_tiny_run_ranks_the_queen_above_the_knight(tmp_path):
    records = list(
        fairyforge.values(
            "chess",
            kinds=["Q", "N"],
            games=8,
            unit_games=8,
            nodes=300,
            max_plies=100,
            workers=2,
            out=tmp_path,
        )
    )
    assert len(records) == 7 * 8
    estimated = values.estimate(records)
    by_kind = {v.kind: v for v in estimated["values"]}
    assert estimated["unit"] == "P" and by_kind["P"].value == 1.0
    assert by_kind["Q"].elo > by_kind["N"].elo > 0
    assert by_kind["Q"].elo_low < by_kind["Q"].elo < by_kind["Q"].elo_high
    assert [v.kind for v in estimated["values"]] == ["P", "Q", "N"]


def test_cli_values_table_json_and_plot(capsys, tmp_path):
    argv = ["values", "-v", "evolution", "--kinds", "Q", "--games", "2", "--unit-games", "2"]
    argv += ["--nodes", "200"]
    argv += ["--max-plies", "30", "--workers", "1", "--out", str(tmp_path)]
    assert cli.main([*argv, "--plot"]) == 0
    out = capsys.readouterr().out
    assert "piece values in knights" in out and "queen" in out
    assert (tmp_path / "values.png").read_bytes()[:4] == b"\x89PNG"
    assert cli.main([*argv, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["unit"] == "N" and [v["kind"] for v in document["values"]] == ["N", "Q"]
