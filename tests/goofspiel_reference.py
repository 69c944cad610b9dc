"""A plain reference for Goofspiel's values, written for the tests: the definition state by state on the real cards,
one scipy LP per stage game (no canonical forms, no tables, nothing shared with ``solvers.goofspiel``)."""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.optimize import linprog


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def reference_lp(matrix: np.ndarray) -> float:
    """max over x of min over columns of x A: variables (x, v), maximise v, v <= (x A)_j, sum x = 1, x >= 0."""
    m, n = matrix.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((n, 1))])
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, 1.0)] * m + [(-2.0, 2.0)]
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    assert result.status == 0
    return float(result.x[-1])


def reference_matrix(
    hand1: frozenset[int], hand2: frozenset[int], prizes: frozenset[int], up: int, diff: int
) -> np.ndarray:
    rows = []
    for a in sorted(hand1):
        row = []
        for b in sorted(hand2):
            after = diff + (up if a > b else -up if a < b else 0)
            if not prizes:
                row.append(float(sign(after)))
            else:
                row.append(
                    sum(reference_value(hand1 - {a}, hand2 - {b}, prizes - {p}, p, after) for p in prizes) / len(prizes)
                )
        rows.append(row)
    return np.array(rows)


@cache
def reference_value(hand1: frozenset[int], hand2: frozenset[int], prizes: frozenset[int], up: int, diff: int) -> float:
    """The definition, state by state, on the real cards: one LP per stage game."""
    return reference_lp(reference_matrix(hand1, hand2, prizes, up, diff))
