"""Small statistics shared by the match runners (the arena, the contest client, the experiments).

Pure Python on purpose: the contest client imports it at start-up, before anything loads numpy.
"""

from __future__ import annotations

import math

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); ``(0, 1)`` when there is no trial.

    Chosen over the normal approximation because win rates here sit near 0 or 1, where that one leaves [0, 1].
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
