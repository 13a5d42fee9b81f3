"""Sequential probability ratio test over game pairs (pentanomial), as
engine testing frameworks decide whether a change gains strength.

A pair is two games from one opening with colours swapped; its score is 0,
0.5, 1, 1.5 or 2 points for the tested player. Counting pairs rather than
games takes out most of the openings' bias. H0: the Elo difference is
``elo0``; H1: it is ``elo1`` (logistic Elo). The log-likelihood ratio uses
the normal approximation of the generalised SPRT: with ``mu`` the mean score
per game and ``var`` the variance of a pair's per-game score,

    LLR = n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)

where ``s0``, ``s1`` are the expected scores under H0 and H1 and ``n`` the
number of pairs. The test accepts H1 when the LLR reaches
``log((1 - beta) / alpha)``, H0 when it falls to ``log(beta / (1 - alpha))``.

>>> test = Sprt(elo0=0, elo1=10, alpha=0.05, beta=0.05)
>>> test.bounds()
(-2.944, 2.944)
>>> test.decision([5, 20, 50, 20, 5])   # as many pairs lost as won: not yet
>>> test.decision([2, 10, 40, 60, 30])  # clearly stronger
'H1'
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from fairyforge._core import InvalidOptionError

#: Points of a pair, by pentanomial index.
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)


def expected_score(elo: float) -> float:
    """The expected score per game of an Elo difference (logistic)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class Sprt:
    """The test's hypotheses and error rates."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise InvalidOptionError(
                f"invalid option sprt: alpha {self.alpha} and beta {self.beta} must lie in (0, 0.5)"
            )
        if not self.elo1 > self.elo0:
            raise InvalidOptionError(
                f"invalid option sprt: elo1 {self.elo1} must be above elo0 {self.elo0}"
            )

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``"elo0=0 elo1=5 alpha=0.05 beta=0.05"`` (any subset, any order;
        commas also separate)."""
        values: dict[str, float] = {}
        for item in text.replace(",", " ").split():
            key, sep, value = item.partition("=")
            if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
                raise InvalidOptionError(
                    f"invalid option sprt: {item!r} (expected elo0=, elo1=, alpha=, beta=)"
                )
            try:
                values[key] = float(value)
            except ValueError:
                raise InvalidOptionError(
                    f"invalid option sprt: {key} {value!r} is not a number"
                ) from None
            if not math.isfinite(values[key]):
                raise InvalidOptionError(f"invalid option sprt: {key} {value!r} is not finite")
        return cls(**values)

    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds, rounded to three decimals."""
        lower = math.log(self.beta / (1 - self.alpha))
        upper = math.log((1 - self.beta) / self.alpha)
        return round(lower, 3), round(upper, 3)

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of the pair counts (0 to 2 points)."""
        if len(pentanomial) != 5 or any(c < 0 for c in pentanomial):
            raise InvalidOptionError(f"a pentanomial is 5 counts >= 0, not {list(pentanomial)}")
        n = sum(pentanomial)
        if n == 0:
            return 0.0
        scores = [p / 2 for p in PAIR_POINTS]
        mu = sum(c * s for c, s in zip(pentanomial, scores)) / n
        var = sum(c * (s - mu) ** 2 for c, s in zip(pentanomial, scores)) / n
        if var <= 0:
            # Every pair scored alike: regularise with one pair at each
            # neighbouring outcome so that the ratio stays finite.
            var = 1 / (4 * (n + 2))
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return round(n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var), 3)

    def decision(self, pentanomial: Sequence[int]) -> str | None:
        """``"H1"`` (the gain is shown), ``"H0"`` (it is not there), or None
        while the test goes on."""
        lower, upper = self.bounds()
        value = self.llr(pentanomial)
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None


def pentanomial(pair_points: Sequence[float]) -> list[int]:
    """Counts of pairs scoring 0, 0.5, 1, 1.5 and 2 points."""
    counts = [0] * 5
    for p in pair_points:
        i = round(p * 2)
        if not 0 <= i <= 4 or abs(p * 2 - i) > 1e-9:
            raise InvalidOptionError(f"a pair scores 0 to 2 points in halves, not {p}")
        counts[i] += 1
    return counts


def game_points(record: dict, name: str) -> float:
    """Points of player ``name`` in one game record."""
    if record["result"] == "1/2-1/2":
        return 0.5
    return 1.0 if (record["result"] == "1-0") == (record["white"] == name) else 0.0


def pair_points(records: Iterable[dict], name: str) -> list[float]:
    """Points of ``name`` in each complete pair of a match's records, by
    pair: the games of indices ``2k`` and ``2k + 1`` are one opening with
    colours swapped (see :func:`fairyforge.tools.match.pairings`); a pair
    with one game played yet does not count."""
    pairs: dict[int, list[float]] = {}
    for r in records:
        pairs.setdefault(r["index"] // 2, []).append(game_points(r, name))
    return [sum(points) for _, points in sorted(pairs.items()) if len(points) == 2]


def elo_estimate(pentanomial: Sequence[int]) -> float:
    """The Elo difference of the mean score of the pairs (logistic), capped
    at +-1000 for a score of 0 or 1."""
    n = sum(pentanomial)
    if n == 0:
        return 0.0
    mu = sum(c * p / 2 for c, p in zip(pentanomial, PAIR_POINTS)) / n
    mu = min(max(mu, 1e-3 / n), 1 - 1e-3 / n)
    return max(-1000.0, min(1000.0, -400 * math.log10(1 / mu - 1))) + 0.0


@dataclass(frozen=True)
class Status:
    """Where a test stands on a match's records."""

    test: Sprt
    pentanomial: tuple[int, ...]

    @property
    def llr(self) -> float:
        return self.test.llr(self.pentanomial)

    @property
    def decision(self) -> str | None:
        return self.test.decision(self.pentanomial)

    def as_dict(self) -> dict:
        """JSON-ready: the settings, pairs, pentanomial, LLR, bounds, Elo
        estimate and decision (None while undecided)."""
        return {
            **dataclasses.asdict(self.test),
            "pairs": sum(self.pentanomial),
            "pentanomial": list(self.pentanomial),
            "llr": self.llr,
            "bounds": list(self.test.bounds()),
            "elo": round(elo_estimate(self.pentanomial), 1),
            "decision": self.decision,
        }

    def text(self) -> str:
        """``LLR 1.23 [-2.94, 2.94] penta 1-4-9-5-2 H1`` (a progress line)."""
        lower, upper = self.test.bounds()
        penta = "-".join(str(c) for c in self.pentanomial)
        return f"LLR {self.llr:.2f} [{lower:.2f}, {upper:.2f}] penta {penta} {self.decision or ''}"


def status(test: Sprt, records: Iterable[dict], name: str) -> Status:
    """The test on the complete pairs of ``records``, for player ``name``."""
    return Status(test, tuple(pentanomial(pair_points(records, name))))


def stopper(test: Sprt, name: str) -> Callable[[list[dict]], bool]:
    """True once the test decides on the records (for player ``name``)."""

    def decided(records: list[dict]) -> bool:
        return status(test, records, name).decision is not None

    return decided
