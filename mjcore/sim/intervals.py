"""Confidence intervals of a run's statistics (shared by SimStats, its report and its plot)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""Two-sided 95% normal quantile, for the confidence intervals."""


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion k/n."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
