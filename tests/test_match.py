"""Engine matches: pairings, Elo arithmetic, resumable result files."""

from __future__ import annotations

import json
import math

import pytest

from fairyforge.tools import match
from fairyforge.tools.match import Pairing, Player, Score


def test_pairings_swap_colours_on_each_opening():
    a, b = Player("a", nodes=10), Player("b", nodes=20)
    games = match.pairings("chess", a, b, 4, seed=3)
    assert [(g.white.name, g.black.name) for g in games] == [
        ("a", "b"),
        ("b", "a"),
        ("a", "b"),
        ("b", "a"),
    ]
    assert games[0].seed == games[1].seed != games[2].seed


def test_elo_of_even_and_lopsided_scores():
    assert Score(10, 5, 0, 5).elo()[0] == pytest.approx(0.0)
    elo, lo, hi = Score(100, 70, 20, 10).elo()
    assert elo == pytest.approx(-400 * math.log10(1 / 0.8 - 1))
    assert lo < elo < hi
    perfect = Score(12, 12, 0, 0).elo()
    assert perfect[0] == math.inf and perfect[2] == math.inf
    assert 150 < perfect[1] < 250  # Wilson: the lower bound stays finite


def test_score_counts_by_player_name():
    records = [
        {"white": "a", "black": "b", "result": "1-0"},
        {"white": "b", "black": "a", "result": "1-0"},
        {"white": "b", "black": "a", "result": "1/2-1/2"},
        {"white": "a", "black": "b", "result": "0-1"},
    ]
    assert match.score(records, "a") == Score(4, 1, 1, 2)


def test_run_appends_and_resumes(tmp_path):
    out = tmp_path / "games.jsonl"
    a = Player("full", nodes=300)
    b = Player("material", depth=1, eval="material", plain=True)
    games = match.pairings("evolution", a, b, 3, max_plies=12)
    first = match.run(games[:2], out=out, workers=1)
    assert [r["index"] for r in first] == [0, 1]
    played = []
    records = match.run(games, out=out, workers=1, progress=played.append)
    assert [r["index"] for r in played] == [2]
    assert [r["index"] for r in records] == [0, 1, 2]
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 3
    assert all(r["result"] in ("1-0", "0-1", "1/2-1/2") for r in lines)


def test_play_respects_max_plies_and_records_moves():
    p = Pairing("shocking", {}, 0, Player("w", depth=1), Player("b", depth=1), seed=5, max_plies=6)
    record = match.play(p)
    assert len(record["moves"]) <= 6
    assert record["termination"] in ("max_plies", "shock", "checkmate", "stalemate")


def test_games_run_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    a = Player("full", nodes=200)
    b = Player("material", depth=1, eval="material", plain=True)
    games = match.pairings("burden", a, b, 2, max_plies=8, options={"files": 6, "pawn_ranks": 2})
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2) as client:
        records = match.run(games, out=tmp_path / "d.jsonl", client=client)
    assert [r["index"] for r in records] == [0, 1]
    assert all(r["options"] == {"files": 6, "pawn_ranks": 2} for r in records)
