"""The pentanomial SPRT: bounds, the log-likelihood ratio against a hand
computation, and decisions on simulated matches of known strength."""

from __future__ import annotations

import math
import random

import pytest

import fairyforge
from fairyforge.tools.sprt import Sprt, expected_score, pentanomial


def test_parse_and_bounds():
    assert Sprt.parse("elo0=0 elo1=5 alpha=0.05 beta=0.05") == Sprt(0, 5, 0.05, 0.05)
    assert Sprt.parse("elo1=10,alpha=0.1") == Sprt(0, 10, 0.1, 0.05)
    assert Sprt().bounds() == (-2.944, 2.944)
    assert Sprt(alpha=0.1, beta=0.05).bounds() == (round(math.log(0.05 / 0.9), 3), 2.251)
    for bad, why in [
        ("elo0=5 elo1=5", "must be above elo0"),
        ("alpha=0.7", "must lie in"),
        ("elo2=3", "expected elo0=, elo1="),
        ("elo1=x", "is not a number"),
        ("elo1=nan", "is not finite"),
    ]:
        with pytest.raises(fairyforge.InvalidOptionError, match=why):
            Sprt.parse(bad)


def test_llr_matches_a_hand_computation():
    # Two pairs scoring 1 and 2 points: per-game 0.5 and 1, mean 0.75,
    # variance 0.0625; H0 Elo 0 (0.5), H1 Elo 10.
    s1 = expected_score(10)
    want = 2 * (s1 - 0.5) * (1.5 - 0.5 - s1) / (2 * 0.0625)
    assert Sprt(0, 10).llr([0, 0, 1, 0, 1]) == round(want, 3)
    assert Sprt(0, 10).llr([0, 0, 0, 0, 0]) == 0.0
    # Mirrored results give mirrored evidence around the midpoint.
    assert Sprt(-5, 5).llr([1, 2, 3, 4, 5]) == -Sprt(-5, 5).llr([5, 4, 3, 2, 1])
    assert pentanomial([0, 0.5, 2, 2, 1.5]) == [1, 1, 0, 1, 2]
    with pytest.raises(fairyforge.InvalidOptionError):
        pentanomial([2.5])
    with pytest.raises(fairyforge.InvalidOptionError):
        Sprt().llr([1, 2, 3])


def simulate(elo: float, test: Sprt, rng: random.Random, most: int = 20_000) -> str | None:
    """Play pairs of a player ``elo`` stronger (draw rate about 40%) until
    the test decides."""
    p_win = expected_score(elo) - 0.2
    counts = [0] * 5
    for _ in range(most):
        pair = 0.0
        for _ in range(2):
            r = rng.random()
            pair += 1.0 if r < p_win else 0.5 if r < p_win + 0.4 else 0.0
        counts[round(pair * 2)] += 1
        decided = test.decision(counts)
        if decided:
            return decided
    return None


def test_decisions_on_simulated_matches():
    rng = random.Random(7)
    test = Sprt(0, 10, 0.05, 0.05)
    strong = [simulate(25, test, rng) for _ in range(20)]
    weak = [simulate(-15, test, rng) for _ in range(20)]
    assert strong.count("H1") >= 18 and weak.count("H0") >= 18


def test_pairs_of_records_and_status():
    from fairyforge.tools.sprt import Sprt, pair_points, status

    def game(i: int, white: str, result: str) -> dict:
        return {"index": i, "white": white, "black": "b" if white == "a" else "a", "result": result}

    records = [
        game(0, "a", "1-0"),
        game(1, "b", "1/2-1/2"),
        game(3, "a", "0-1"),  # pair 1 lacks game 2: not counted yet
        game(4, "a", "0-1"),
        game(5, "b", "1-0"),
    ]
    assert pair_points(records, "a") == [1.5, 0.0]
    assert pair_points(records, "b") == [0.5, 2.0]
    state = status(Sprt(0, 5), records, "a")
    assert state.pentanomial == (1, 0, 0, 1, 0) and state.decision is None
    doc = state.as_dict()
    assert doc["pairs"] == 2 and doc["bounds"] == [-2.944, 2.944] and doc["elo"] < 0
    assert "penta 1-0-0-1-0" in state.text()
