"""The arithmetic of studies: scores with intervals, Elo, quartiles and a
small weighted least-squares fit (no numpy needed).

>>> lo, hi = score_interval(60, 20, 20)
>>> round(lo, 3), round(hi, 3)
(0.617, 0.772)
>>> round(elo(0.64), 1)
100.0
>>> quartiles([1, 2, 3, 4, 5])
(2.0, 3.0, 4.0)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a fraction ``p`` of ``n`` trials."""
    if n <= 0:
        return (0.0, 1.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(centre - half, 0.0), min(centre + half, 1.0))


def score_interval(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a score (a win 1, a draw 1/2): Wilson's interval
    with the games counted as ``n * p(1-p) / var`` trials, ``var`` the
    per-game variance of the score. Draws lower the variance, and so narrow
    the interval as the normal approximation with draws does, while the
    Wilson form stays inside [0, 1] and finite at 0% and 100%. When every
    game had the same result (variance 0) the games count as they are."""
    n = wins + draws + losses
    if n == 0:
        return (0.0, 1.0)
    p = (wins + 0.5 * draws) / n
    var = (wins + 0.25 * draws) / n - p * p
    trials = n * p * (1 - p) / var if var > 1e-12 else n
    return wilson(p, trials, z)


def elo(p: float) -> float:
    """The Elo difference of a score ``p`` (infinite at 0 and 1)."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1) + 0.0  # + 0.0: an even score is +0, not -0


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference measured from games, with its standard error."""

    elo: float
    se: float


def elo_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """The Elo difference of a score and its standard error (delta method on
    the normal approximation with draws). One draw is added to the games so
    that a perfect score gives a finite estimate; documented in
    docs/STUDIES.md."""
    n = wins + draws + losses + 1
    points = wins + 0.5 * (draws + 1)
    p = points / n
    var = (wins + 0.25 * (draws + 1)) / n - p * p
    se_p = math.sqrt(max(var, 1e-12) / n)
    return EloEstimate(elo(p), se_p * 400 / (math.log(10) * p * (1 - p)))


def quartiles(values: Sequence[float]) -> tuple[float, float, float] | None:
    """First quartile, median and third quartile (inclusive method); None
    for no values."""
    if not values:
        return None
    if len(values) == 1:
        v = float(values[0])
        return (v, v, v)
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return (q1, q2, q3)


def least_squares(
    rows: Sequence[Sequence[float]], y: Sequence[float], weights: Sequence[float]
) -> tuple[list[float], list[list[float]]]:
    """Weighted least squares ``rows @ beta ~ y``: ``(beta, covariance)``,
    the covariance ``(X' W X)^-1`` (weights are inverse variances). Raises
    ``ValueError`` when the unknowns are not all determined."""
    k = len(rows[0])
    normal = [[0.0] * k for _ in range(k)]
    rhs = [0.0] * k
    for row, target, weight in zip(rows, y, weights):
        for i in range(k):
            rhs[i] += weight * row[i] * target
            for j in range(k):
                normal[i][j] += weight * row[i] * row[j]
    inverse = _invert(normal)
    beta = [sum(inverse[i][j] * rhs[j] for j in range(k)) for i in range(k)]
    return beta, inverse


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse with partial pivoting."""
    k = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ValueError("the measurements do not determine every unknown")
        a[col], a[pivot] = a[pivot], a[col]
        scale = a[col][col]
        a[col] = [v / scale for v in a[col]]
        for r in range(k):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [v - factor * w for v, w in zip(a[r], a[col])]
    return [row[k:] for row in a]
