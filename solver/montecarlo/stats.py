"""Interval estimates used in every results table."""

import math

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95 % Wilson score interval for a binomial proportion.

    ``successes`` may be fractional (shared wins count as a fraction of a win).

    >>> lo, hi = wilson_interval(537, 1000)
    >>> round(lo, 5), round(hi, 5)
    (0.50601, 0.5677)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_sd(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and sample standard deviation from a sum and a sum of squares.

    >>> mean_sd(6.0, 14.0, 3)   # values 1, 2, 3
    (2.0, 1.0)
    """
    if n <= 0:
        return float("nan"), float("nan")
    mean = total / n
    if n == 1:
        return mean, 0.0
    var = (total_sq - n * mean * mean) / (n - 1)
    return mean, math.sqrt(max(var, 0.0))


def proportion_columns(prefix: str, successes: float, n: int) -> dict[str, float]:
    """``{prefix}_rate``, ``ci_low``-style columns for a proportion (prefix '' gives win_rate...)."""
    lo, hi = wilson_interval(successes, n)
    rate = successes / n if n else float("nan")
    return {f"{prefix}rate": rate, f"{prefix}ci_low": lo, f"{prefix}ci_high": hi}


def mean_columns(name: str, total: float, total_sq: float, n: int) -> dict[str, float]:
    """``mean_{name}``, ``sd_{name}`` and ``se_{name}`` (standard error of the mean)."""
    mean, sd = mean_sd(total, total_sq, n)
    se = sd / math.sqrt(n) if n > 0 else float("nan")
    return {f"mean_{name}": mean, f"sd_{name}": sd, f"se_{name}": se}
