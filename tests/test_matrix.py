"""Zero-sum matrix games: hand-derived answers, the tie-break contract, and agreement with independent solvers.

Convention throughout: ``A`` is the row player's payoff; row maximises, column minimises.

The independent checks do not reuse ``solvers.matrix``: an exact support enumeration in ``Fraction`` arithmetic
(``exact_first_equilibrium``), and the textbook LP (shift the matrix positive, minimise ``sum u`` subject to
``A^T u >= 1``, value ``1 / sum u``) with its dual.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.typing import NDArray
from scipy.optimize import linprog

import solvers.matrix as matrix
from solvers.matrix import (
    InvalidMatrixError,
    MatrixSolution,
    exploitability,
    solve,
    solve_batch,
    solve_lp,
)

Matrix = NDArray[np.float64]
SOLVERS = [pytest.param(solve, id="solve"), pytest.param(solve_lp, id="solve_lp")]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ArrayLikeMatrix = Any  # nested lists or arrays, as callers pass them

# Relative accuracy every solver must reach (the brief's 1e-9 against the matrix's scale).
REL_TOL = 1e-9


def scale(a: Matrix) -> float:
    """The matrix's payoff range: tolerances are relative to it.

    A constant game counts as scale 1, and so does a range below 1e-290, where relative accuracy 1e-9 would ask for
    subnormal floats (hypothesis does try ``[[5e-324, 0]]``).
    """
    spread = float(np.ptp(a))
    return spread if spread > 1e-290 else 1.0


def assert_distribution(p: np.ndarray, size: int) -> None:
    assert p.shape == (size,)
    assert np.all(p >= 0)
    assert abs(p.sum() - 1.0) < 1e-12


def assert_equilibrium(a: Matrix, row: np.ndarray, col: np.ndarray, value: float) -> None:
    """A valid solution: distributions, exploitability ~ 0, and value between the two players' guarantees."""
    m, n = a.shape
    assert_distribution(row, m)
    assert_distribution(col, n)
    tol = REL_TOL * scale(a)
    assert exploitability(a, row, col) <= tol
    # von Neumann: what row guarantees <= value <= what column concedes at most, both measured at the strategies.
    assert np.min(row @ a) - tol <= value <= np.max(a @ col) + tol


def check(sol: MatrixSolution, a: ArrayLikeMatrix) -> None:
    arr = np.asarray(a, dtype=np.float64)
    assert_equilibrium(arr, sol.row, sol.col, sol.value)
    assert sol.exploitability == pytest.approx(exploitability(arr, sol.row, sol.col))


# --- independent solvers -------------------------------------------------------------------------------------


def _solve_exact(system: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Gauss-Jordan elimination in exact arithmetic; None when the system is singular."""
    size = len(rhs)
    rows = [[*system[i], rhs[i]] for i in range(size)]
    for col in range(size):
        pivot = next((r for r in range(col, size) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [rv - factor * cv for rv, cv in zip(rows[r], rows[col], strict=True)]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def exact_first_equilibrium(a: list[list[int]]) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """The first valid equal-size support pair, in exact arithmetic, in the documented tie-break order.

    For each pair (I, J) with |I| = |J| = s (s ascending, I lexicographic outside, J lexicographic inside), solve
    ``A[I, J] y = v 1, sum y = 1`` and ``x^T A[I, J] = v 1^T, sum x = 1``; the pair is valid when both solutions exist
    (non-singular), are non-negative, and no pure row earns more than v against y nor any pure column less than v
    against x. By Shapley-Snow some pair is always valid, so this never comes up empty.
    """
    m, n = len(a), len(a[0])
    fa = [[Fraction(v) for v in row] for row in a]
    for s in range(1, min(m, n) + 1):
        for rows in combinations(range(m), s):
            for cols in combinations(range(n), s):
                rhs = [Fraction(0)] * s + [Fraction(1)]
                y_sys = [[fa[i][j] for j in cols] + [Fraction(-1)] for i in rows] + [[Fraction(1)] * s + [Fraction(0)]]
                x_sys = [[fa[i][j] for i in rows] + [Fraction(-1)] for j in cols] + [[Fraction(1)] * s + [Fraction(0)]]
                y_sol, x_sol = _solve_exact(y_sys, rhs), _solve_exact(x_sys, rhs)
                if y_sol is None or x_sol is None:
                    continue
                v = y_sol[s]
                x = [Fraction(0)] * m
                y = [Fraction(0)] * n
                for t, i in enumerate(rows):
                    x[i] = x_sol[t]
                for t, j in enumerate(cols):
                    y[j] = y_sol[t]
                if min(x) < 0 or min(y) < 0:
                    continue
                if all(sum(fa[i][j] * y[j] for j in range(n)) <= v for i in range(m)) and all(
                    sum(x[i] * fa[i][j] for i in range(m)) >= v for j in range(n)
                ):
                    return v, x, y
    raise AssertionError(f"no equal-size support pair solves {a}: Shapley-Snow says this cannot happen")


def textbook_lp_values(a: Matrix) -> tuple[float, float]:
    """The game value from the classic shifted LP and from its dual, as two independent numbers.

    With ``P = (A - min A) / range + 1 >= 1`` (scaled too, so that a game in units of 1e-179 keeps its precision):
    the row player's ``min sum u s.t. P^T u >= 1, u >= 0`` has optimum ``1/w``, and the column player's
    ``max sum z s.t. P z <= 1, z >= 0`` has the same optimum; ``value(A) = (w - 1) * range + min A``.
    """
    low, spread = float(a.min()), scale(a)
    p = (a - low) / spread + 1.0
    m, n = p.shape
    primal = linprog(np.ones(m), A_ub=-p.T, b_ub=-np.ones(n), bounds=(0, None), method="highs")
    dual = linprog(-np.ones(n), A_ub=p, b_ub=np.ones(m), bounds=(0, None), method="highs")
    assert primal.status == 0 and dual.status == 0
    return (1.0 / primal.fun - 1.0) * spread + low, (1.0 / -dual.fun - 1.0) * spread + low


# --- hand-derived answers ------------------------------------------------------------------------------------

RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]

# Biased rock-paper-scissors (rows and columns R, P, S): R beats S for 1, P beats R for 2, S beats P for 3.
#   A = [[ 0, -2,  1],
#        [ 2,  0, -3],
#        [-1,  3,  0]]
# A is skew-symmetric, so the value is 0 and both players have the same optimal strategy. With x = (r, p, s),
# every column must pay 0 (full support):  R: 2p - s = 0,  P: -2r + 3s = 0,  S: r - 3p = 0.
# So r = 3p, s = 2p, and r + p + s = 6p = 1: x = (1/2, 1/6, 1/3). Check P: -2/2 + 3/3 = 0.
BIASED_RPS = [[0, -2, 1], [2, 0, -3], [-1, 3, 0]]
BIASED_RPS_ANSWER = np.array([1 / 2, 1 / 6, 1 / 3])

# A 2x3 game. With x = (p, 1 - p) the columns pay  c0 = 5p - 2,  c1 = 1 - 2p,  c2 = 2p.
# The row player maximises the lower envelope: c0 rises, c1 falls, they cross at 5p - 2 = 1 - 2p, p = 3/7,
# where both pay 1/7 while c2 pays 6/7 (so column 2 is never used). Value 1/7, x = (3/7, 4/7).
# Column player on columns 0, 1 with y = (q, 1 - q): row 0 pays 4q - 1, row 1 pays 1 - 3q; equal at q = 2/7,
# paying 8/7 - 1 = 1/7. So y = (2/7, 5/7, 0). Unique: the kink is a single point, and column 2 must get 0.
GAME_2X3 = [[3, -1, 2], [-2, 1, 0]]


def test_rock_paper_scissors_is_uniform_with_value_zero() -> None:
    for solver in (solve, solve_lp):
        sol = solver(RPS)
        assert sol.value == pytest.approx(0.0, abs=1e-12)
        np.testing.assert_allclose(sol.row, np.full(3, 1 / 3), atol=1e-12)
        np.testing.assert_allclose(sol.col, np.full(3, 1 / 3), atol=1e-12)
        check(sol, RPS)


@pytest.mark.parametrize("solver", SOLVERS)
def test_biased_rock_paper_scissors(solver: Any) -> None:
    sol = solver(BIASED_RPS)
    assert sol.value == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(sol.row, BIASED_RPS_ANSWER, atol=1e-12)
    np.testing.assert_allclose(sol.col, BIASED_RPS_ANSWER, atol=1e-12)
    check(sol, BIASED_RPS)


@pytest.mark.parametrize("solver", SOLVERS)
def test_pure_saddle_point(solver: Any) -> None:
    # Row minima 1, 0 and column maxima 3, 1, 4: maximin = minimax = 1 at (0, 1). Row 1 is strictly dominated, so
    # x = e_0; against row 0 only column 1 keeps the payoff at 1 (3y0 + y1 + 4y2 <= 1 forces y = e_1). Unique.
    a = [[3, 1, 4], [1, 0, 2]]
    sol = solver(a)
    assert sol.value == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(sol.row, [1, 0], atol=1e-12)
    np.testing.assert_allclose(sol.col, [0, 1, 0], atol=1e-12)
    check(sol, a)


@pytest.mark.parametrize("solver", SOLVERS)
def test_dominated_row_gets_probability_zero(solver: Any) -> None:
    # Row 2 = (0, 1) is strictly dominated by row 0 = (1, 3). On rows 0, 1 there is no saddle point (maximin 2,
    # minimax 3). Row: p + 4(1 - p) = 3p + 2(1 - p) -> p = 1/2, value 5/2. Column: q + 3(1 - q) = 4q + 2(1 - q) ->
    # q = 1/4, value 1/4 + 9/4 = 5/2.
    a = [[1, 3], [4, 2], [0, 1]]
    sol = solver(a)
    assert sol.value == pytest.approx(2.5, abs=1e-12)
    np.testing.assert_allclose(sol.row, [0.5, 0.5, 0.0], atol=1e-12)
    np.testing.assert_allclose(sol.col, [0.25, 0.75], atol=1e-12)
    check(sol, a)


@pytest.mark.parametrize("solver", SOLVERS)
def test_duplicate_rows_and_columns(solver: Any) -> None:
    # The game above with row 0 repeated (as row 2) and column 1 repeated (as column 2): same value; duplicates may
    # share their action's probability in any way (the LP may split them), so compare the totals.
    a = [[1, 3, 3], [4, 2, 2], [1, 3, 3], [0, 1, 1]]
    sol = solver(a)
    assert sol.value == pytest.approx(2.5, abs=1e-12)
    assert sol.row[0] + sol.row[2] == pytest.approx(0.5, abs=1e-12)
    assert sol.row[1] == pytest.approx(0.5, abs=1e-12)
    assert sol.row[3] == pytest.approx(0.0, abs=1e-12)
    assert sol.col[0] == pytest.approx(0.25, abs=1e-12)
    assert sol.col[1] + sol.col[2] == pytest.approx(0.75, abs=1e-12)
    check(sol, a)


def test_duplicates_tie_break_to_the_lowest_index() -> None:
    # The first size-2 pair in the order is I = (0, 1), J = (0, 1), and it is valid, so the later copies get nothing.
    sol = solve([[1, 3, 3], [4, 2, 2], [1, 3, 3], [0, 1, 1]])
    np.testing.assert_allclose(sol.row, [0.5, 0.5, 0, 0], atol=1e-12)
    np.testing.assert_allclose(sol.col, [0.25, 0.75, 0], atol=1e-12)


@pytest.mark.parametrize("solver", SOLVERS)
def test_all_equal_matrix(solver: Any) -> None:
    a = np.full((3, 4), 7.0)
    sol = solver(a)
    assert sol.value == pytest.approx(7.0, abs=1e-12)
    assert sol.exploitability == pytest.approx(0.0, abs=1e-12)
    check(sol, a)


def test_all_equal_matrix_ties_break_to_first_actions() -> None:
    sol = solve(np.full((3, 4), -2.5))
    np.testing.assert_array_equal(sol.row, [1, 0, 0])
    np.testing.assert_array_equal(sol.col, [1, 0, 0, 0])


@pytest.mark.parametrize("solver", SOLVERS)
def test_one_row(solver: Any) -> None:
    # The row player has no choice; the column player picks the least entry, column 1.
    sol = solver([[3, 1, 2]])
    assert sol.value == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(sol.row, [1.0])
    np.testing.assert_allclose(sol.col, [0, 1, 0], atol=1e-12)


@pytest.mark.parametrize("solver", SOLVERS)
def test_one_column(solver: Any) -> None:
    # The column player has no choice; the row player picks the greatest entry, row 0.
    sol = solver([[3], [1], [2]])
    assert sol.value == pytest.approx(3.0, abs=1e-12)
    np.testing.assert_allclose(sol.row, [1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(sol.col, [1.0])


def test_one_by_one() -> None:
    for solver in (solve, solve_lp):
        sol = solver([[-4.5]])
        assert sol.value == -4.5
        np.testing.assert_array_equal(sol.row, [1.0])
        np.testing.assert_array_equal(sol.col, [1.0])


@pytest.mark.parametrize("solver", SOLVERS)
def test_two_by_three(solver: Any) -> None:
    sol = solver(GAME_2X3)
    assert sol.value == pytest.approx(1 / 7, abs=1e-12)
    np.testing.assert_allclose(sol.row, [3 / 7, 4 / 7], atol=1e-12)
    np.testing.assert_allclose(sol.col, [2 / 7, 5 / 7, 0], atol=1e-12)
    check(sol, GAME_2X3)


@pytest.mark.parametrize("solver", SOLVERS)
def test_three_by_two(solver: Any) -> None:
    # Swapping the players of the 2x3 game (B = -A^T): the row player of B is the old column player, and its payoff
    # is the negation. So the value is -1/7, row = (2/7, 5/7, 0), col = (3/7, 4/7).
    b = -np.array(GAME_2X3, dtype=float).T
    sol = solver(b)
    assert sol.value == pytest.approx(-1 / 7, abs=1e-12)
    np.testing.assert_allclose(sol.row, [2 / 7, 5 / 7, 0], atol=1e-12)
    np.testing.assert_allclose(sol.col, [3 / 7, 4 / 7], atol=1e-12)
    check(sol, b)


@pytest.mark.parametrize("solver", SOLVERS)
def test_four_by_three(solver: Any) -> None:
    # Biased RPS plus 5 everywhere (value 0 + 5), with a fourth row R - 1 that is strictly dominated by R:
    # the answer is the biased RPS one with probability 0 on the new row.
    a = np.array([*BIASED_RPS, [-1, -3, 0]], dtype=float) + 5
    sol = solver(a)
    assert sol.value == pytest.approx(5.0, abs=1e-12)
    np.testing.assert_allclose(sol.row, [*BIASED_RPS_ANSWER, 0], atol=1e-12)
    np.testing.assert_allclose(sol.col, BIASED_RPS_ANSWER, atol=1e-12)
    check(sol, a)


def test_larger_game_uses_lp_and_is_an_equilibrium() -> None:
    # 7x6 is past the enumeration limit: solve must hand it to the LP and still return an equilibrium.
    rng = np.random.default_rng(7)
    a = rng.normal(size=(7, 6))
    sol = solve(a)
    check(sol, a)
    assert sol.value == pytest.approx(solve_lp(a).value, abs=REL_TOL * scale(a))
    assert sol.value == pytest.approx(textbook_lp_values(a)[0], abs=1e-7 * scale(a))


def test_lp_does_not_accept_near_ties() -> None:
    # Column 0 pays 0.99999 and column 2 pays 1: 1e-5 apart on a range of 200, i.e. 1e-7 of the range, which is
    # exactly HiGHS's default feasibility tolerance. The minimiser must still take column 0.
    sol = solve_lp([[0.99999, 201.0, 1.0]])
    assert sol.value == pytest.approx(0.99999, abs=1e-12)
    np.testing.assert_array_equal(sol.col, [1, 0, 0])
    swapped = solve_lp([[-0.99999], [-201.0], [-1.0]])
    assert swapped.value == pytest.approx(-0.99999, abs=1e-12)
    np.testing.assert_array_equal(swapped.row, [1, 0, 0])
    # The row player's side: row 2 beats row 1 by 2e-7 on a range of 100 (2e-9 of it); HiGHS at its default
    # tolerances returns row 1 here, so this pins the tightened ones.
    sol = solve_lp([[-199.9999999], [-100.0000001], [-99.9999999]])
    assert sol.value == -99.9999999
    np.testing.assert_array_equal(sol.row, [0, 0, 1])


@pytest.mark.parametrize(
    "corrupt",
    [
        # HiGHS reports zero marginals when presolve removes the column constraints: not a distribution at all.
        pytest.param(lambda x, y, v: (x, np.zeros_like(y), v), id="zero-marginals"),
        # A distribution, but not optimal, with an LP value off in its favour: only the exploitability exposes it.
        pytest.param(lambda x, y, v: (x, np.full_like(y, 1 / len(y)), v + 10.0), id="wrong-dual-and-value"),
    ],
)
def test_lp_replaces_an_unusable_dual(monkeypatch: pytest.MonkeyPatch, corrupt: Any) -> None:
    real = matrix._linprog_row
    calls: list[tuple[int, ...]] = []

    def flaky(b: Matrix, presolve: bool = True) -> tuple[Matrix, Matrix, float]:
        calls.append(b.shape)
        x, y, v = real(b, presolve)
        return corrupt(x, y, v) if len(calls) == 1 else (x, y, v)

    monkeypatch.setattr(matrix, "_linprog_row", flaky)
    sol = solve_lp(GAME_2X3)
    assert calls == [(2, 3), (3, 2)]  # the row LP, then the column player's own LP on -A^T
    np.testing.assert_allclose(sol.col, [2 / 7, 5 / 7, 0], atol=1e-12)
    assert sol.value == pytest.approx(1 / 7, abs=1e-12)


# --- exploitability, the solution type, input errors --------------------------------------------------------


def test_exploitability_by_hand() -> None:
    # RPS with both playing rock: A @ e_0 = column 0 = (0, 1, -1), whose max is 1 (paper beats rock);
    # e_0 @ A = row 0 = (0, -1, 1), whose min is -1. Exploitability 1 - (-1) = 2.
    a = np.array(RPS, dtype=float)
    e0 = np.array([1.0, 0, 0])
    assert exploitability(a, e0, e0) == 2.0
    uniform = np.full(3, 1 / 3)
    assert exploitability(a, uniform, uniform) == pytest.approx(0.0, abs=1e-15)


def test_solution_is_read_only_and_knows_its_matrix() -> None:
    sol = solve(BIASED_RPS)
    with pytest.raises(ValueError, match="read-only"):
        sol.row[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        sol.col[0] = 1.0
    assert sol.exploitability == exploitability(np.array(BIASED_RPS, dtype=float), sol.row, sol.col)


def test_solution_without_matrix_cannot_measure_itself() -> None:
    bare = MatrixSolution(0.0, np.array([1.0]), np.array([1.0]))
    with pytest.raises(ValueError, match="without its matrix"):
        _ = bare.exploitability


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        ([1.0, 2.0], "shape"),
        (np.zeros((0, 3)), "at least one row"),
        (np.zeros((2, 0)), "at least one row"),
        ([[1.0, np.nan]], "finite"),
        ([[np.inf, 0.0]], "finite"),
    ],
)
def test_invalid_matrices_are_rejected(bad: Any, match: str) -> None:
    for solver in (solve, solve_lp):
        with pytest.raises(InvalidMatrixError, match=match):
            solver(bad)


def test_solve_batch_wants_three_dimensions() -> None:
    with pytest.raises(InvalidMatrixError, match=r"\(k, m, n\)"):
        solve_batch(np.zeros((3, 3)))
    assert isinstance(InvalidMatrixError("x"), ValueError)


def test_empty_batch() -> None:
    values, rows, cols = solve_batch(np.zeros((0, 2, 3)))
    assert values.shape == (0,) and rows.shape == (0, 2) and cols.shape == (0, 3)


# --- tie-break ---------------------------------------------------------------------------------------------------


def test_all_zero_game_gives_first_pure_strategies() -> None:
    _, rows, cols = solve_batch(np.zeros((3, 4, 4)))
    np.testing.assert_array_equal(rows, np.tile([1.0, 0, 0, 0], (3, 1)))
    np.testing.assert_array_equal(cols, np.tile([1.0, 0, 0, 0], (3, 1)))
    sol = solve(np.zeros((4, 4)))
    np.testing.assert_array_equal(sol.row, [1, 0, 0, 0])
    np.testing.assert_array_equal(sol.col, [1, 0, 0, 0])


def test_lowest_index_saddle_point_wins() -> None:
    # (0, 0) is no saddle (row 0's minimum is 0 but column 0's maximum is 1). Saddles: (1, 0) and (2, 0) with value
    # 1 (least in their rows, greatest in column 0); any mix of rows 1 and 2 is also optimal. The lowest wins.
    sol = solve([[0, 2], [1, 1], [1, 1]])
    assert sol.value == 1.0
    np.testing.assert_array_equal(sol.row, [0, 1, 0])
    np.testing.assert_array_equal(sol.col, [1, 0])


def test_pure_saddle_beats_mixed_equilibria() -> None:
    # Saddles (0, 1) and (2, 1), value 2; row may mix rows 0 and 2 in any proportion. The pure (0, 1) comes first.
    sol = solve([[4, 2, 5], [3, 1, 0], [6, 2, 3]])
    assert sol.value == 2.0
    np.testing.assert_array_equal(sol.row, [1, 0, 0])
    np.testing.assert_array_equal(sol.col, [0, 1, 0])


def test_mixed_tie_break_prefers_lowest_column_support() -> None:
    # Columns 1 and 2 are identical, so the pairs (I={0,1}, J={0,1}) and (I={0,1}, J={0,2}) both solve the game;
    # J={0,1} comes first in the row-major order. (Answer derived in test_dominated_row_gets_probability_zero.)
    sol = solve([[1, 3, 3], [4, 2, 2]])
    np.testing.assert_allclose(sol.col, [0.25, 0.75, 0], atol=1e-12)
    np.testing.assert_allclose(sol.row, [0.5, 0.5], atol=1e-12)


def test_pair_order_is_row_major() -> None:
    # Value 1: row 1 = (1, 1, 1, 2) guarantees 1, and y = (0, 1/2, 1/2, 0) holds every row to A y = (1, 1, -2, 1).
    # No pure saddle: row 1's minima are in columns 0, 1, 2, each of which has a 2 elsewhere. Size-2 pairs with
    # I = {0, 1} (the first row support): J = {0, 1} and J = {0, 2} both force y = e_0, which row 2 beats (2 > 1);
    # J = {1, 2} gives S = [[0, 2], [1, 1]], y = (1/2, 1/2), x = (0, 1), v = 1: valid, and first in row-major order.
    # A column-major order (J outside) would instead stop at J = {0, 1}, I = {1, 2}: y = (3/4, 1/4, 0, 0), also
    # optimal (A y = (3/4, 1, 1, -1/4)) but not the documented choice.
    sol = solve([[1, 0, 2, 0], [1, 1, 1, 2], [2, -2, -2, -2], [-1, 2, 0, -2]])
    assert sol.value == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(sol.row, [0, 1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(sol.col, [0, 0.5, 0.5, 0], atol=1e-12)


def test_rounding_leaves_no_negative_probabilities() -> None:
    # The integer game k seen through decimals (0.1 k + 0.3): same equilibria, but 0.1 is not exact in binary, so
    # the kernel solution's zero probability comes out as about -6e-17. It must be clipped to exactly 0, and the
    # answer must still be the exact first valid pair of k.
    k = [[1, 0, -3, 0], [0, -2, -1, 3], [-2, 3, 3, -2]]
    _, x, y = exact_first_equilibrium(k)
    a = np.array(k) * 0.1 + 0.3
    for row, col in [(solve(a).row, solve(a).col), (solve_batch(a[None])[1][0], solve_batch(a[None])[2][0])]:
        assert np.all(row >= 0) and np.all(col >= 0)
        np.testing.assert_allclose(row, [float(p) for p in x], atol=1e-12)
        np.testing.assert_allclose(col, [float(p) for p in y], atol=1e-12)


small_int_games = st.tuples(st.integers(1, 5), st.integers(1, 5)).flatmap(
    lambda shape: hnp.arrays(np.int64, shape, elements=st.integers(-2, 2))
)


@SETTINGS
@given(small_int_games)
def test_tie_break_matches_exact_first_valid_pair(a: NDArray[np.int64]) -> None:
    # Integer games with entries in -2..2 are full of ties and singular support systems. The float solver must pick
    # the same support pair as exact arithmetic does in the documented order, hence the same strategies.
    v, x, y = exact_first_equilibrium(a.tolist())
    sol = solve(a)
    assert sol.value == pytest.approx(float(v), abs=1e-12)
    np.testing.assert_allclose(sol.row, [float(p) for p in x], atol=1e-12)
    np.testing.assert_allclose(sol.col, [float(p) for p in y], atol=1e-12)


# --- random games: agreement with each other and with independent solvers ----------------------------------------


float_games = st.tuples(st.integers(1, 5), st.integers(1, 5)).flatmap(
    lambda shape: hnp.arrays(
        np.float64, shape, elements=st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, width=64)
    )
)


@SETTINGS
@given(st.one_of(float_games, small_int_games.map(lambda a: a.astype(np.float64))))
def test_random_games_lp_and_enumeration_agree(a: Matrix) -> None:
    tol = REL_TOL * scale(a)
    lp = solve_lp(a)
    values, rows, cols = solve_batch(a[None])
    check(lp, a)
    assert_equilibrium(a, rows[0], cols[0], values[0])
    assert values[0] == pytest.approx(lp.value, abs=tol)
    # Independent: the textbook LP and its dual (HiGHS's own tolerance 1e-7 bounds their accuracy).
    primal, dual = textbook_lp_values(a)
    assert lp.value == pytest.approx(primal, abs=1e-7 * scale(a))
    assert lp.value == pytest.approx(dual, abs=1e-7 * scale(a))


@SETTINGS
@given(small_int_games)
def test_integer_games_match_the_exact_value(a: NDArray[np.int64]) -> None:
    exact, _, _ = exact_first_equilibrium(a.tolist())
    assert solve_lp(a).value == pytest.approx(float(exact), abs=1e-9)
    assert solve(a).value == pytest.approx(float(exact), abs=1e-9)


@SETTINGS
@given(float_games, st.floats(0.001, 1000), st.floats(-1000, 1000))
def test_positive_affine_maps_and_player_swap(a: Matrix, factor: float, offset: float) -> None:
    # Scaling by c > 0 and adding d maps the value to c v + d and keeps the optimal strategies optimal; swapping
    # the players (-A^T) negates the value and exchanges the strategies' roles.
    base = solve(a)
    moved = solve(factor * a + offset)
    assert moved.value == pytest.approx(factor * base.value + offset, abs=1e-9 * scale(factor * a) + 1e-9 * abs(offset))
    assert exploitability(factor * a + offset, base.row, base.col) <= 1e-9 * scale(factor * a) + 1e-9 * abs(offset)
    swapped = solve(-a.T)
    assert swapped.value == pytest.approx(-base.value, abs=REL_TOL * scale(a))
    assert exploitability(-a.T, base.col, base.row) <= REL_TOL * scale(a)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("m", range(1, 6))
@pytest.mark.parametrize("n", range(1, 6))
def test_seeded_batches_of_every_small_shape(m: int, n: int) -> None:
    rng = np.random.default_rng(1000 * m + n)
    games = np.concatenate(
        [
            rng.normal(size=(150, m, n)) * 10.0 ** rng.integers(-6, 7, size=(150, 1, 1)),  # mixed scales in one batch
            rng.integers(-1, 2, size=(150, m, n)).astype(float),  # heavily degenerate
            rng.integers(0, 2, size=(100, m, n)).astype(float) * 1e6,
        ]
    )
    values, rows, cols = solve_batch(games)
    assert values.shape == (len(games),) and rows.shape == (len(games), m) and cols.shape == (len(games), n)
    for g, a in enumerate(games):
        assert_equilibrium(a, rows[g], cols[g], values[g])
    for g in range(0, len(games), 20):  # a sample against the LP, which costs milliseconds each
        assert values[g] == pytest.approx(solve_lp(games[g]).value, abs=REL_TOL * scale(games[g]))


@pytest.mark.filterwarnings("error")
def test_small_games_never_need_the_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    # Shapley-Snow: every game has an extreme equilibrium on a square kernel with a non-singular bordered system, so
    # the enumeration alone must solve ordinary and degenerate games of every small shape (the LP fallback is for
    # rounding accidents only). This also pins the 4x4 and 5x5 LU path: a wrong kernel solution there would be
    # rejected by the checks and silently handed to the LP.
    def no_lp(a: Any) -> MatrixSolution:
        raise AssertionError("solve_batch fell back to the LP")

    monkeypatch.setattr(matrix, "solve_lp", no_lp)
    rng = np.random.default_rng(2024)
    for m in range(1, 6):
        for n in range(1, 6):
            games = np.concatenate([rng.normal(size=(200, m, n)), rng.integers(-1, 2, size=(200, m, n)).astype(float)])
            values, rows, cols = solve_batch(games)
            for g in range(0, len(games), 7):
                assert_equilibrium(games[g], rows[g], cols[g], values[g])
    # Rock-paper-scissors-lizard-Spock: each action beats two and loses to two, so both play uniformly (value 0);
    # with the full 5x5 support this is found only by the LU path.
    rpsls = np.array([[0, -1, 1, 1, -1], [1, 0, -1, -1, 1], [-1, 1, 0, 1, -1], [-1, 1, -1, 0, 1], [1, -1, 1, -1, 0]])
    values, rows, cols = solve_batch(rpsls[None] * np.array([1.0, 2.0])[:, None, None])
    np.testing.assert_allclose(rows, np.full((2, 5), 0.2), atol=1e-12)
    np.testing.assert_allclose(cols, np.full((2, 5), 0.2), atol=1e-12)
    np.testing.assert_allclose(values, 0.0, atol=1e-12)


# --- batches mixing degenerate and ordinary games -----------------------------------------------------------------


def mixed_batch() -> Matrix:
    rng = np.random.default_rng(11)
    games = [
        np.zeros((4, 4)),
        np.full((4, 4), 3.0),
        np.outer([1.0, 2.0, -1.0, 0.5], [1.0, -1.0, 2.0, 0.0]),  # rank one: most support systems singular
        np.array([[1, 3, 3, 1], [4, 2, 2, 4], [1, 3, 3, 1], [0, 1, 1, 0]], dtype=float),  # duplicate rows, columns
        # Biased RPS plus a row 3 strictly dominated by row 0 and a column 3 strictly dominated (for the minimiser)
        # by column 0: the answer is biased RPS's with 0 on the extra actions.
        np.array([[0, -2, 1, 5], [2, 0, -3, 5], [-1, 3, 0, 5], [-5, -5, -5, 0]], dtype=float),
        np.eye(4),  # value 1/4, both uniform
        rng.normal(size=(4, 4)),
        rng.normal(size=(4, 4)) * 1e9,
        rng.normal(size=(4, 4)) * 1e-9,
        rng.integers(-1, 2, size=(4, 4)).astype(float),
        np.kron(np.array([[1.0, -1.0], [-1.0, 1.0]]), np.ones((2, 2))),  # matching pennies with doubled actions
    ]
    return np.stack(games)


@pytest.mark.filterwarnings("error")  # singular systems are masked, not divided by: no RuntimeWarning either
def test_mixed_batch_of_degenerate_and_ordinary_games() -> None:
    games = mixed_batch()
    values, rows, cols = solve_batch(games)
    for g, a in enumerate(games):
        assert_equilibrium(a, rows[g], cols[g], values[g])
        assert values[g] == pytest.approx(solve_lp(a).value, abs=REL_TOL * scale(a))
        # A game's answer does not depend on its batch-mates.
        alone = solve(a)
        np.testing.assert_array_equal(alone.row, rows[g])
        np.testing.assert_array_equal(alone.col, cols[g])
    # Spot answers derived by hand: identity -> 1/4 with uniform play; padded biased RPS -> the known answer.
    assert values[5] == pytest.approx(0.25, abs=1e-12)
    np.testing.assert_allclose(rows[5], np.full(4, 0.25), atol=1e-12)
    np.testing.assert_allclose(rows[4], [*BIASED_RPS_ANSWER, 0], atol=1e-12)
    np.testing.assert_allclose(cols[4], [*BIASED_RPS_ANSWER, 0], atol=1e-12)
    np.testing.assert_array_equal(rows[0], [1, 0, 0, 0])


def test_games_the_enumeration_misses_fall_back_to_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    # Rounding could in principle defeat every support pair; simulate that for every other game and check that
    # the fallback still returns equilibria (and touches only those games).
    games = mixed_batch()
    real = matrix._enumerate_supports
    calls: list[int] = []

    def lossy(b: Matrix) -> tuple[np.ndarray, Matrix, Matrix]:
        found, rows, cols = real(b)
        found = found.copy()
        found[::2] = False
        rows[::2] = 0.0  # garbage that must not leak into the answer
        cols[::2] = 0.0
        return found, rows, cols

    real_lp = matrix.solve_lp

    def counting_lp(a: Any) -> MatrixSolution:
        calls.append(1)
        return real_lp(a)

    monkeypatch.setattr(matrix, "_enumerate_supports", lossy)
    monkeypatch.setattr(matrix, "solve_lp", counting_lp)
    values, rows, cols = solve_batch(games)
    assert len(calls) == len(range(0, len(games), 2))
    for g, a in enumerate(games):
        assert_equilibrium(a, rows[g], cols[g], values[g])


def test_large_games_in_a_batch_use_lp() -> None:
    rng = np.random.default_rng(5)
    games = rng.normal(size=(4, 6, 3))
    values, rows, cols = solve_batch(games)
    for g, a in enumerate(games):
        assert_equilibrium(a, rows[g], cols[g], values[g])
        assert values[g] == pytest.approx(textbook_lp_values(a)[0], abs=1e-7 * scale(a))


def test_a_game_on_which_highs_fails_twice_is_solved_all_the_same() -> None:
    """A TCG stage game met in a wandering Newton iteration (continuation values 1e-8 apart): the enumeration finds
    no support pair within its tolerance, HiGHS's row LP is too inexact, and the column LP fails with "Solve error"
    with and without presolve and by the dual simplex; the interior-point method solves it."""
    game = np.array(
        [
            [0.05547778987422692, 0.0, 0.05547778987422692, 1.0],
            [1.0, 0.05546650675023269, 0.05546650658404238, 1.0],
            [0.05546995527868008, 0.05546650669310967, 0.05546650675023267, 1.0],
            [0.0, 0.0, 0.0, 0.49969189128169317],
        ]
    )
    for values, rows, cols in (
        solve_batch(game[None]),
        ([solve_lp(game).value], [solve_lp(game).row], [solve_lp(game).col]),
    ):
        assert exploitability(game, rows[0], cols[0]) < 1e-9
        assert values[0] == pytest.approx(0.0554665066, abs=1e-9)
