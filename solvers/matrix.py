"""Zero-sum matrix games: the building block of every simultaneous-move solver (TCG's Markov game, Footstep).

Convention: the payoff matrix ``A`` (m x n) is the ROW player's payoff; the row player maximises, the column player
minimises. A solution is a value ``v`` and mixed strategies ``row`` (x) and ``col`` (y) with
``max_i (A y)_i = v = min_j (x A)_j``.

Two solvers, which must agree:

* :func:`solve_lp` -- one game, one HiGHS linear programme. Works for any size.
* :func:`solve_batch` -- many small games at once by vectorised support enumeration. Backward induction and Markov
  game value iteration solve tens of thousands of 2x2..5x5 stage games, where one LP each (milliseconds apiece,
  mostly scipy's set-up overhead) would dominate; closed-form kernels and stacked ``np.linalg.solve`` calls do
  them all in a few dozen numpy operations.

Both work on a normalised copy of the matrix, ``(A - centre) / half_range`` with entries in [-1, 1]. Optimal
strategies are unchanged by a positive affine map of the payoffs, and normalising makes every tolerance below
relative to the matrix's scale, so a game in thousandths and the same game in millions behave identically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import sparse
from scipy.optimize import linprog

__all__ = [
    "MAX_ENUMERATION_SIZE",
    "TOLERANCE",
    "InvalidMatrixError",
    "MatrixSolution",
    "equalizing_strategies",
    "exploitability",
    "solve",
    "solve_batch",
    "solve_batch_compiled",
    "solve_batch_hinted",
    "solve_lp",
    "solve_lp_blocks",
    "support_masks",
    "undominated",
    "warm_up",
]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

#: Games with both dimensions at most this size are solved by support enumeration; larger ones by LP. The pairs grow
#: fast (251 at 5x5, 923 at 6x6, 3431 at 7x7). Measured on random games, per game: 5x5 about 12x faster than one LP,
#: 6x6 still about 3.5x, 7x7 slower. The product spec fixes the limit at 5; games above it have no tie-break promise.
MAX_ENUMERATION_SIZE = 5

#: Feasibility tolerance, in units of the normalised matrix (half the payoff range). A candidate equilibrium is
#: accepted when no probability is below ``-TOLERANCE`` and no pure reply gains more than ``TOLERANCE``, so an
#: accepted pair's exploitability is at most about ``2 * TOLERANCE * half_range = 1e-10 * (max A - min A)``. In
#: practice it is rounding-level (1e-15) unless payoffs nearly tie: genuine equilibria satisfy their conditions
#: exactly, false candidates miss them by far more. It matches HiGHS's tightest feasibility tolerance, so both
#: solvers promise the same accuracy; a tighter value would only reject correct answers spoilt by rounding.
TOLERANCE = 1e-10

# A bordered support system whose determinant is below this (normalised entries, at most 6x6) is treated as singular.
# Systems singular in exact arithmetic come out of LU with determinants around 1e-16; well-posed ones are orders of
# magnitude above this. Masking them keeps one singular game from raising LinAlgError for the whole stack.
_SINGULAR_DET = 1e-12

# See _linprog_row: HiGHS's default 1e-7 feasibility tolerances are too loose for the accuracy promised here.
_HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}

# Budget of float64 entries per stacked solve, so that 40,000 5x5 games do not allocate gigabytes at once.
_CHUNK_ENTRIES = 1 << 21


class InvalidMatrixError(ValueError):
    """A payoff matrix that cannot be a game: wrong number of dimensions, an empty side, or a NaN/inf entry."""


@dataclass(frozen=True, eq=False)
class MatrixSolution:
    """A solved zero-sum matrix game (the row player's payoffs; row maximises, column minimises).

    ``row`` and ``col`` are read-only: solutions are shared through solver caches, and a caller scribbling on one
    would silently corrupt every other user. ``eq=False`` because the generated ``__eq__`` would compare numpy
    arrays and raise "truth value of an array is ambiguous"; compare fields with ``np.allclose`` instead.

    ``matrix`` is the game the solution belongs to (kept so that :attr:`exploitability` needs no argument). It may be
    omitted when building a solution by hand; :attr:`exploitability` then raises.
    """

    value: float
    row: FloatArray
    col: FloatArray
    matrix: FloatArray | None = field(default=None, repr=False)

    @property
    def exploitability(self) -> float:
        """``max_i (A @ col)_i - min_j (row @ A)_j``: what the two players together could gain by deviating.

        Non-negative up to rounding, and 0 exactly at an equilibrium.
        """
        if self.matrix is None:
            raise ValueError("this MatrixSolution was built without its matrix; call exploitability(a, row, col)")
        return exploitability(self.matrix, self.row, self.col)


def exploitability(a: np.ndarray, row: np.ndarray, col: np.ndarray) -> float:
    """``max_i (A @ col)_i - min_j (row @ A)_j`` for payoff matrix ``a`` and mixed strategies ``row``, ``col``.

    The first term is the most the row player could get against ``col``, the second the least the column player
    could concede against ``row``; by von Neumann they meet exactly at an equilibrium. The strategies are used as
    given (not checked to be distributions), so that callers can measure unnormalised iterates too.
    """
    a = np.asarray(a, dtype=np.float64)
    return float(np.max(a @ np.asarray(col, dtype=np.float64)) - np.min(np.asarray(row, dtype=np.float64) @ a))


# --------------------------------------------------------------------------------------------------------------------
# Input handling and normalisation


def _as_games(a: ArrayLike, ndim: int) -> FloatArray:
    """``a`` as a float64 array with ``ndim`` dimensions, non-empty sides and finite entries, or a clear error."""
    arr = np.asarray(a, dtype=np.float64)
    what = "a payoff matrix of shape (m, n)" if ndim == 2 else "a batch of payoff matrices of shape (k, m, n)"
    if arr.ndim != ndim:
        raise InvalidMatrixError(f"expected {what}, got an array of shape {arr.shape}")
    if arr.shape[-1] == 0 or arr.shape[-2] == 0:
        raise InvalidMatrixError(f"expected {what} with at least one row and one column, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise InvalidMatrixError("payoffs must be finite numbers (found NaN or infinity)")
    return arr


def _normalise(a: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Map each game in ``a`` (..., m, n) to [-1, 1]; return ``(normalised, centre, half_range)`` per game.

    A constant game has half-range 0; it is given 1 instead, so that it normalises to the all-zero game (which every
    strategy pair solves) rather than dividing by zero.
    """
    hi = a.max(axis=(-2, -1))
    lo = a.min(axis=(-2, -1))
    centre = (hi + lo) / 2
    half = (hi - lo) / 2
    half = np.where(half > 0, half, 1.0)
    return (a - centre[..., None, None]) / half[..., None, None], centre, half


def _clean(p: FloatArray) -> FloatArray:
    """Clip the tiny negatives that rounding leaves (>= -TOLERANCE) to 0 and renormalise to sum 1 along the last axis.

    Downstream code samples from these distributions, and ``rng.choice`` rejects negative probabilities.
    """
    p = np.clip(p, 0.0, None)
    out: FloatArray = p / p.sum(axis=-1, keepdims=True)
    return out


def _frozen(p: FloatArray) -> FloatArray:
    p = np.array(p, dtype=np.float64)  # a private copy: never freeze a view of the caller's batch arrays
    p.setflags(write=False)
    return p


def _solution(a: FloatArray, row: FloatArray, col: FloatArray) -> MatrixSolution:
    # The value is the payoff of the returned strategies (not the LP objective or a support system's v), so it is
    # consistent with them: it lies between min_j (x A)_j and max_i (A y)_i, within the exploitability of the game
    # value, and solve_lp and solve_batch report the same number for the same strategies.
    return MatrixSolution(value=float(row @ a @ col), row=_frozen(row), col=_frozen(col), matrix=_frozen(a))


# --------------------------------------------------------------------------------------------------------------------
# Linear programming


def _linprog_row(b: FloatArray, presolve: bool = True) -> tuple[FloatArray, FloatArray, float]:
    """Solve ``max_x min_j (x B)_j`` for a normalised matrix ``B`` (m x n); return ``(x, y_dual, v)``.

    Variables ``(x_1..x_m, v)``: minimise ``-v`` subject to ``v - (x B)_j <= 0`` for every column j and
    ``sum x = 1``, ``x >= 0``, ``v`` free. No shift is needed because ``v`` is free. The column player's optimal
    strategy is the dual of the column constraints: HiGHS reports ``ineqlin.marginals = d(objective)/d(b_ub) <= 0``,
    and stationarity in ``v`` (its cost -1 equals the sum of those marginals) makes ``y = -marginals`` sum to 1.

    HiGHS's feasibility tolerances are tightened from 1e-7 to 1e-10 (its minimum): at 1e-7 it accepts answers off
    by up to 1e-7 of the payoff range, e.g. row 1 of ``[[-199.9999999], [-100.0000001], [-99.9999999]]`` (row 2 is
    better by 2e-9 of the range) and a dual on the wrong column of ``[[0.99999, 201, 1]]``.
    """
    m, n = b.shape
    c = np.zeros(m + 1)
    c[m] = -1.0
    a_ub = np.hstack([-b.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    # Every matrix game's LP is feasible and bounded, so a failure is numerical, inside HiGHS: seen on 4 x 4 games
    # whose payoffs differ by 1e-8 ("Solve error", one in millions of TCG stage games) and on large near-degenerate
    # ones (model status "unknown"). Each is tried again without presolve, then by the dual simplex alone, then by
    # the interior-point method (which solved a 4 x 4 game on which both simplex variants failed).
    attempts = [("highs", True)] if presolve else []
    attempts += [("highs", False), ("highs-ds", False), ("highs-ipm", False)]
    for method, with_presolve in attempts:
        res = linprog(
            c,
            A_ub=a_ub,
            b_ub=np.zeros(n),
            A_eq=a_eq,
            b_eq=[1.0],
            bounds=bounds,
            method=method,
            options=_HIGHS_OPTIONS if with_presolve else {**_HIGHS_OPTIONS, "presolve": False},
        )
        if res.status == 0:
            break
    else:
        raise RuntimeError(f"HiGHS failed on a {m}x{n} matrix game: {res.message}")
    x = np.asarray(res.x[:m], dtype=np.float64)
    y = -np.asarray(res.ineqlin.marginals, dtype=np.float64)
    return x, y, float(res.x[m])


def solve_lp(a: ArrayLike, presolve: bool = True) -> MatrixSolution:
    """Solve one zero-sum matrix game (any size) by ``scipy.optimize.linprog(method='highs')``.

    The row strategy comes from the row player's LP and the column strategy from its dual (HiGHS's marginals), so
    one LP gives both. The dual is checked rather than trusted: if it is not a distribution or the pair's
    exploitability exceeds the tolerance, the column player's own LP (the row LP of ``-A.T``) is solved for it.
    Both LPs run on the normalised matrix (entries in [-1, 1]), so HiGHS's absolute tolerances are relative ones.

    When the game has several equilibria, which one HiGHS returns is unspecified (a vertex of the optimal set);
    use :func:`solve` or :func:`solve_batch` for the documented tie-break on small games. ``presolve=False`` turns
    HiGHS's presolve off (see ``_block_lp``: on some large near-degenerate games it ends with status "unknown").
    """
    arr = _as_games(a, 2)
    b, _, _ = _normalise(arr)
    x, y, _ = _linprog_row(b, presolve)
    x = _clean(x)
    dual_ok = np.all(y >= -TOLERANCE) and abs(y.sum() - 1.0) <= TOLERANCE
    # Judge the pair by its exploitability, not by the LP's own v: v is only as accurate as HiGHS's tolerances.
    if not (dual_ok and exploitability(b, x, _clean(y)) <= TOLERANCE):
        # The marginals are not guaranteed to be a usable strategy: at HiGHS's default tolerances they came back as
        # all zeros for m x 1 games (presolve had removed the constraints) and on the wrong column in near ties.
        # Not seen at the tightened tolerances, but cheap to check. The column player's own LP is as accurate.
        y, _, _ = _linprog_row(-b.T, presolve)
    return _solution(arr, x, _clean(y))


# --------------------------------------------------------------------------------------------------------------------
# Vectorised support enumeration


def _support_pairs(m: int, n: int, s: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Every (row support, column support) pair of size ``s``, in the tie-break order, as index arrays (P, s).

    Row supports in lexicographic order (itertools.combinations' order) on the outside, column supports inside:
    "row-major over the pair".
    """
    rows = np.array(list(combinations(range(m), s)), dtype=np.intp)
    cols = np.array(list(combinations(range(n), s)), dtype=np.intp)
    return np.repeat(rows, len(cols), axis=0), np.tile(cols, (len(rows), 1))


def _adjugate(sub: FloatArray) -> FloatArray:
    """The adjugate of each stacked 2x2 or 3x3 block in ``sub`` (..., s, s), elementwise (no LU, no exceptions)."""
    s = sub.shape[-1]
    if s == 2:
        a, b, c, d = sub[..., 0, 0], sub[..., 0, 1], sub[..., 1, 0], sub[..., 1, 1]
        return np.stack([np.stack([d, -b], axis=-1), np.stack([-c, a], axis=-1)], axis=-2)
    # 3x3: the cofactor matrix's rows are the cross products r1 x r2, r2 x r0, r0 x r1; the adjugate is its transpose.
    r0, r1, r2 = sub[..., 0, :], sub[..., 1, :], sub[..., 2, :]
    cofactors = np.stack([np.cross(r1, r2), np.cross(r2, r0), np.cross(r0, r1)], axis=-2)
    return np.swapaxes(cofactors, -1, -2)


def _bordered(sub: FloatArray) -> FloatArray:
    """``[[S, -1], [1^T, 0]]`` for each stacked s x s block ``S`` in ``sub`` (..., s, s).

    Solving it against ``e_s`` gives ``(y, v)`` with ``S y = v 1`` and ``sum y = 1``: the column strategy that
    makes every row of the support indifferent, and the common payoff.
    """
    s = sub.shape[-1]
    out = np.zeros((*sub.shape[:-2], s + 1, s + 1))
    out[..., :s, :s] = sub
    out[..., :s, s] = -1.0
    out[..., s, :s] = 1.0
    return out


def _kernel_strategies(sub: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray]:
    """Solve the equal-payoff systems of every stacked support block ``S`` in ``sub`` (..., s, s), s >= 2.

    Returns ``(x, y, v, singular)`` with ``x^T S = v 1^T``, ``S y = v 1``, ``sum x = sum y = 1``. ``singular`` marks
    blocks whose bordered matrix ``[[S, -1], [1^T, 0]]`` has ``|det| <= _SINGULAR_DET``; their x, y, v are garbage.

    Both systems share one determinant, ``det [[S, -1], [1^T, 0]] = 1^T adj(S) 1`` (the x system's matrix is the
    transpose with the last row and column negated), and Shapley-Snow's formulas give the solution outright:
    ``y = adj(S) 1 / d``, ``x = 1^T adj(S) / d``, ``v = det(S) / d`` with ``d = 1^T adj(S) 1``. For s = 2 and 3 the
    adjugate is a handful of elementwise products, several times faster than LAPACK on millions of tiny systems;
    for s = 4 and 5 (few pairs per game) the stacked LU of ``np.linalg.solve`` is used.
    """
    s = sub.shape[-1]
    if s <= 3:
        adj = _adjugate(sub)
        y_num = adj.sum(axis=-1)
        x_num = adj.sum(axis=-2)
        d = y_num.sum(axis=-1)
        det = np.einsum("...j,...j->...", sub[..., 0, :], adj[..., :, 0])  # Laplace expansion along row 0
        singular = ~(np.abs(d) > _SINGULAR_DET)  # ~(>) also catches NaN
        safe = np.where(singular, 1.0, d)
        x: FloatArray = x_num / safe[..., None]
        y: FloatArray = y_num / safe[..., None]
        v: FloatArray = det / safe
        return x, y, v, singular
    # The y system uses S, the x system S^T. One determinant masks both (see above).
    systems = np.stack([_bordered(sub), _bordered(np.swapaxes(sub, -1, -2))])  # (2, ..., s+1, s+1)
    lu_singular: BoolArray = ~(np.abs(np.linalg.det(systems[0])) > _SINGULAR_DET)
    # Swap in the identity for singular systems so the stacked solve cannot raise; their answers are discarded by
    # the caller. This is what lets one degenerate game share a batch with ordinary ones.
    systems[:, lu_singular] = np.eye(s + 1)
    rhs = np.zeros((s + 1, 1))
    rhs[s, 0] = 1.0
    sol = np.asarray(np.linalg.solve(systems, rhs)[..., 0], dtype=np.float64)  # (2, ..., s+1)
    return sol[1, ..., :s], sol[0, ..., :s], sol[1, ..., s], lu_singular


def equalizing_strategies(sub: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray]:
    """For stacked square support blocks ``S`` (..., s, s), s >= 1: the mixes that make the other side indifferent
    on the support, ``x^T S = v 1^T`` and ``S y = v 1`` with ``sum x = sum y = 1``, as ``(x, y, v, singular)``.

    Nothing is checked beyond solvability (``singular`` marks blocks without a unique solution): callers test
    non-negativity and best replies themselves. ``markov`` uses it to re-solve last sweep's supports.
    """
    blocks = np.asarray(sub, dtype=np.float64)
    if blocks.shape[-1] == 1:
        ones = np.ones(blocks.shape[:-1])
        return ones, ones.copy(), blocks[..., 0, 0], np.zeros(blocks.shape[:-2], dtype=bool)
    return _kernel_strategies(blocks)


def _enumerate_supports(b: FloatArray) -> tuple[BoolArray, FloatArray, FloatArray]:
    """Vectorised support enumeration on normalised games ``b`` (k, m, n).

    Returns ``(found, rows, cols)``: ``found[g]`` says whether a valid support pair was found for game g, and then
    ``rows[g]``, ``cols[g]`` hold the first valid pair's strategies (not yet clipped). See :func:`solve_batch`.
    """
    k, m, n = b.shape
    rows = np.zeros((k, m))
    cols = np.zeros((k, n))
    # Size 1 needs no linear algebra: the pair ({i}, {j}) is valid exactly when A[i, j] is a saddle point, the
    # least in its row and the greatest in its column (to the tolerance). Row-major flattening keeps the tie-break.
    saddle = (b <= b.min(axis=2, keepdims=True) + TOLERANCE) & (b >= b.max(axis=1, keepdims=True) - TOLERANCE)
    flat = saddle.reshape(k, m * n)
    found = flat.any(axis=1)
    first = np.argmax(flat, axis=1)
    winners = np.flatnonzero(found)
    rows[winners, first[found] // n] = 1.0
    cols[winners, first[found] % n] = 1.0
    for s in range(2, min(m, n) + 1):
        todo = np.flatnonzero(~found)
        if todo.size == 0:
            break
        row_sets, col_sets = _support_pairs(m, n, s)
        pairs = len(row_sets)
        # Per game and pair a chunk holds a few s x s and (s+1) x (s+1) blocks and the m + n pure-reply payoffs.
        chunk = max(1, _CHUNK_ENTRIES // (pairs * (4 * (s + 1) ** 2 + 2 * s * (m + n))))
        for start in range(0, todo.size, chunk):
            games = todo[start : start + chunk]
            g = b[games]  # (c, m, n)
            sub = g[:, row_sets[:, :, None], col_sets[:, None, :]]  # (c, P, s, s): sub[., p] = B[I_p][:, J_p]
            x, y, v, singular = _kernel_strategies(sub)
            # (A y)_i for every row i: what each pure row earns against y, which lives on the columns J_p.
            row_payoffs = np.einsum("cips,cps->cpi", g[:, :, col_sets], y)
            # (x A)_j for every column j: what each pure column concedes against x, which lives on the rows I_p.
            col_payoffs = np.einsum("cpsj,cps->cpj", g[:, row_sets, :], x)
            valid = (
                ~singular
                & np.all(x >= -TOLERANCE, axis=-1)
                & np.all(y >= -TOLERANCE, axis=-1)
                & np.all(row_payoffs <= v[..., None] + TOLERANCE, axis=-1)
                & np.all(col_payoffs >= v[..., None] - TOLERANCE, axis=-1)
            )
            hit = valid.any(axis=1)
            first = np.argmax(valid, axis=1)  # argmax returns the FIRST True: the tie-break order
            winners, pick = games[hit], first[hit]
            hit_index = np.flatnonzero(hit)
            rows[winners[:, None], row_sets[pick]] = x[hit_index, pick]
            cols[winners[:, None], col_sets[pick]] = y[hit_index, pick]
            found[winners] = True
    return found, rows, cols


def solve_batch(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve many zero-sum games of one shape: ``a`` (k, m, n) -> ``(values (k,), rows (k, m), cols (k, n))``.

    Small games (``m, n <= MAX_ENUMERATION_SIZE``, i.e. 5) are solved by vectorised support enumeration: for every
    pair of supports ``I`` (rows) and ``J`` (columns) with ``|I| = |J| = s``, the equal-payoff systems
    ``x_I^T A[I, J] = v 1^T, sum x_I = 1`` and ``A[I, J] y_J = v 1, sum y_J = 1`` are solved for all games and all
    pairs of one size at once (a saddle-point test for s = 1, closed-form adjugates for s = 2, 3, a stacked
    ``np.linalg.solve`` for s = 4, 5); a pair is valid for a game when ``x, y >= -tol``, ``(A y)_i <= v + tol`` for
    every row i and ``(x A)_j >= v - tol`` for every column j (no pure reply gains), and each game takes its FIRST
    valid pair. Systems that are singular for some games are masked out for those games only, never failing the
    batch. ``tol`` is :data:`TOLERANCE` times half the game's payoff range.

    **Tie-break** (other solvers rely on it): pairs are tried smallest size first; within a size, row supports in
    lexicographic order of action indices, and for each row support the column supports in lexicographic order
    (row-major over the pair). So when a game has several equilibria, the one found on the smallest support pair
    with the lowest action indices is returned: a pure saddle point beats any mixed equilibrium, and among pure
    saddle points the one with the lowest row, then the lowest column, wins (an all-zero game gives ``e_0, e_0``).
    Probabilities inside a support may be 0, so a returned strategy's support can be smaller than ``s``.

    By the Shapley-Snow theorem every game has an extreme equilibrium on a square "kernel" whose bordered system is
    non-singular, so in exact arithmetic the enumeration never comes up empty, even for degenerate games whose
    equilibria have unequal supports. Games for which rounding nevertheless defeats every pair fall back to
    :func:`solve_lp` one by one, as do all games with a side larger than 5.

    Tiny negative probabilities are clipped to 0 and the strategies renormalised. Each value is ``row @ A @ col`` of
    the returned strategies, so it agrees with :func:`solve_lp` to within the exploitability (rounding level).
    """
    arr = _as_games(a, 3)
    k, m, n = arr.shape
    rows = np.zeros((k, m))
    cols = np.zeros((k, n))
    found = np.zeros(k, dtype=np.bool_)
    if k and m <= MAX_ENUMERATION_SIZE and n <= MAX_ENUMERATION_SIZE:
        found, rows, cols = _enumerate_supports(_normalise(arr)[0])
        rows[found] = _clean(rows[found])
        cols[found] = _clean(cols[found])
    for g in np.flatnonzero(~found):
        sol = solve_lp(arr[g])
        rows[g] = sol.row
        cols[g] = sol.col
    values = np.einsum("ki,kij,kj->k", rows, arr, cols)
    return values, rows, cols


def solve_batch_hinted(
    a: np.ndarray, hint_rows: np.ndarray | None = None, hint_cols: np.ndarray | None = None, exact: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`solve_batch` trying a support pair per game first (bit masks, :func:`support_masks`; 0 for none), e.g.
    the previous iteration's: the games of each hinted pair are solved together, and only the games whose pair fails
    go through the enumeration. Numpy only; :func:`solve_batch_compiled` is the same, compiled.

    With ``exact`` (the default) the result is :func:`solve_batch`'s: a hinted pair is kept only where it is
    provably the game's only equilibrium (see ``_strictly_complementary``), and its strategies come from the same
    formulas on the same normalised block as in the enumeration. Without it any valid hinted pair is kept.
    """
    arr = _as_games(a, 3)
    k, m, n = arr.shape
    if m > MAX_ENUMERATION_SIZE or n > MAX_ENUMERATION_SIZE or hint_rows is None or hint_cols is None or not k:
        return solve_batch(arr)
    b = _normalise(arr)[0]
    rows = np.zeros((k, m))
    cols = np.zeros((k, n))
    found = np.zeros(k, dtype=np.bool_)
    hint_rows = np.asarray(hint_rows, dtype=np.int64)
    hint_cols = np.asarray(hint_cols, dtype=np.int64)
    row_bits = (hint_rows[:, None] >> np.arange(m)) & 1
    col_bits = (hint_cols[:, None] >> np.arange(n)) & 1
    eligible = (hint_rows > 0) & (row_bits.sum(axis=1) == col_bits.sum(axis=1))
    codes = hint_rows * (1 << n) + hint_cols
    for code in np.unique(codes[eligible]):
        members = np.flatnonzero(eligible & (codes == code))
        r_idx = np.flatnonzero(row_bits[members[0]])
        c_idx = np.flatnonzero(col_bits[members[0]])
        x, y, v, singular = equalizing_strategies(b[np.ix_(members, r_idx, c_idx)])
        g = b[members]
        row_payoffs = np.einsum("gij,gj->gi", g[:, :, c_idx], y)
        col_payoffs = np.einsum("gi,gij->gj", x, g[:, r_idx, :])
        ok = (
            ~singular
            & np.all(x >= -TOLERANCE, axis=1)
            & np.all(y >= -TOLERANCE, axis=1)
            & np.all(row_payoffs <= v[:, None] + TOLERANCE, axis=1)
            & np.all(col_payoffs >= v[:, None] - TOLERANCE, axis=1)
        )
        if exact:
            off_rows = np.ones(m, dtype=np.bool_)
            off_rows[r_idx] = False
            off_cols = np.ones(n, dtype=np.bool_)
            off_cols[c_idx] = False
            ok &= (
                np.all(x > _UNIQUE_MARGIN, axis=1)
                & np.all(y > _UNIQUE_MARGIN, axis=1)
                & np.all(row_payoffs[:, off_rows] < v[:, None] - _UNIQUE_MARGIN, axis=1)
                & np.all(col_payoffs[:, off_cols] > v[:, None] + _UNIQUE_MARGIN, axis=1)
            )
        accepted = members[ok]
        rows[np.ix_(accepted, r_idx)] = x[ok]
        cols[np.ix_(accepted, c_idx)] = y[ok]
        found[accepted] = True
    rows[found] = _clean(rows[found])
    cols[found] = _clean(cols[found])
    rest = np.flatnonzero(~found)
    if rest.size:
        _, rows[rest], cols[rest] = solve_batch(arr[rest])
    values = np.einsum("ki,kij,kj->k", rows, arr, cols)
    return values, rows, cols


def solve(a: ArrayLike) -> MatrixSolution:
    """Solve one zero-sum matrix game; for small games (both sides <= 5) with :func:`solve_batch`'s tie-break.

    Small games go through :func:`solve_batch` as a batch of one, so a game solved alone and the same game solved
    inside a batch get the same equilibrium. Larger games go to :func:`solve_lp`.
    """
    arr = _as_games(a, 2)
    m, n = arr.shape
    if m > MAX_ENUMERATION_SIZE or n > MAX_ENUMERATION_SIZE:
        return solve_lp(arr)
    _, rows, cols = solve_batch(arr[None])
    return _solution(arr, rows[0], cols[0])


# --------------------------------------------------------------------------------------------------------------------
# Many large games: dominance reduction and one block-diagonal linear programme


def _dominated_mask(covers: BoolArray, alive: BoolArray) -> BoolArray:
    """Which strategies are weakly dominated, from ``covers[g, a, c]`` = "a is at least as good as c everywhere".

    Of two identical strategies the later one counts as dominated, so exactly one copy survives.
    """
    size = covers.shape[-1]
    index = np.arange(size)
    both = covers & alive[:, :, None] & alive[:, None, :]
    beats = both & (~np.swapaxes(both, -1, -2) | (index[:, None] < index[None, :]))
    beats[:, index, index] = False
    dominated: BoolArray = np.asarray(beats.any(axis=1), dtype=np.bool_)
    return dominated


def undominated(a: ArrayLike, tol: float = 1e-12, rounds: int | None = None) -> tuple[BoolArray, BoolArray]:
    """Iterated removal of weakly dominated rows and columns of stacked games ``a`` (k, m, n), all games at once.

    Returns ``(rows, cols)``: boolean masks (k, m) and (k, n) of the strategies that survive. Removing weakly
    dominated strategies keeps the value, and an equilibrium of the reduced game, padded with zeros, is an
    equilibrium of the full one: a removed row was no better than a surviving row against every surviving column,
    so it is no better against the opponent's equilibrium mix either. (Weak dominance may lose *other* equilibria;
    callers that need one equilibrium, not all, lose nothing.) ``tol`` is absolute, in the payoffs' units.
    ``rounds`` caps the passes (each costs O(m^2 n) per game); ``None`` goes on until nothing is dominated.
    """
    arr = _as_games(a, 3)
    k, m, n = arr.shape
    rows = np.ones((k, m), dtype=np.bool_)
    cols = np.ones((k, n), dtype=np.bool_)
    done = 0
    while rounds is None or done < rounds:
        done += 1
        # covers_rows[g, a, c]: row a >= row c on every live column; covers_cols[g, a, c]: column a <= column c.
        covers_rows: BoolArray = np.all(
            (arr[:, :, None, :] >= arr[:, None, :, :] - tol) | ~cols[:, None, None, :], axis=-1
        )
        covers_cols: BoolArray = np.all(
            (arr[:, :, :, None] <= arr[:, :, None, :] + tol) | ~rows[:, :, None, None], axis=1
        )
        drop_rows = _dominated_mask(covers_rows, rows)
        drop_cols = _dominated_mask(covers_cols, cols)
        if not (drop_rows.any() or drop_cols.any()):
            return rows, cols
        rows &= ~drop_rows
        cols &= ~drop_cols
    return rows, cols


def solve_lp_blocks(games: list[FloatArray]) -> list[MatrixSolution]:
    """Solve many independent games of any sizes with one HiGHS call: their LPs side by side, block-diagonal.

    Maximising the sum of the games' values maximises each one, since no constraint links two games, so one
    linear programme of all of them is as exact as one per game, and pays scipy's and HiGHS's per-call set-up once
    (about 1.5 ms a call, which is most of the time of a small LP). Each block is normalised like :func:`solve_lp`.
    The column strategies are the duals; a block whose dual does not check out (not a distribution, or the pair's
    exploitability above :data:`TOLERANCE`) is re-solved alone by :func:`solve_lp`.
    """
    arrays = [_as_games(g, 2) for g in games]
    blocks = [_normalise(g)[0] for g in arrays]
    found = _block_lp(blocks)
    out = []
    for arr, b, (x, y) in zip(arrays, blocks, found, strict=True):
        x = _clean(x)
        if not (
            np.all(y >= -TOLERANCE) and abs(y.sum() - 1.0) <= TOLERANCE and exploitability(b, x, _clean(y)) <= TOLERANCE
        ):
            y, _, _ = _linprog_row(-b.T)
        out.append(_solution(arr, x, _clean(y)))
    return out


def _block_lp(blocks: list[FloatArray]) -> list[tuple[FloatArray, FloatArray]]:
    """``(x, dual y)`` of each normalised block, from one block-diagonal LP (split in halves if HiGHS gives up).

    Presolve is off: on large block-diagonal models at the tightened tolerances, HiGHS's presolve sometimes ends
    with model status "unknown" (seen on a level of Footstep(50, 4)); without it the simplex solves them directly.
    """
    if not blocks:
        return []
    if len(blocks) == 1:
        x, y, _ = _linprog_row(blocks[0])
        return [(x, y)]
    sizes_m = np.array([b.shape[0] for b in blocks])
    sizes_n = np.array([b.shape[1] for b in blocks])
    # Variables per game: x (m_g) then v_g. Rows: game g's n_g column constraints v_g - (x B_g)_j <= 0.
    a_ub = sparse.block_diag([np.hstack([-b.T, np.ones((b.shape[1], 1))]) for b in blocks], format="csr")
    a_eq = sparse.block_diag([np.append(np.ones(b.shape[0]), 0.0)[None, :] for b in blocks], format="csr")
    count = a_ub.shape[1]
    value_at = np.cumsum(sizes_m + 1) - 1
    c = np.zeros(count)
    c[value_at] = -1.0
    lower = np.zeros(count)
    lower[value_at] = -np.inf
    res = linprog(
        c,
        A_ub=a_ub,
        b_ub=np.zeros(a_ub.shape[0]),
        A_eq=a_eq,
        b_eq=np.ones(len(blocks)),
        bounds=np.column_stack([lower, np.full(count, np.inf)]),
        method="highs",
        options={**_HIGHS_OPTIONS, "presolve": False},
    )
    if res.status != 0:
        half = len(blocks) // 2
        return _block_lp(blocks[:half]) + _block_lp(blocks[half:])
    x_all = np.asarray(res.x, dtype=np.float64)
    y_all = -np.asarray(res.ineqlin.marginals, dtype=np.float64)
    x_starts = value_at - sizes_m
    y_starts = np.cumsum(sizes_n) - sizes_n
    return [
        (x_all[x0 : x0 + m], y_all[y0 : y0 + n])
        for x0, m, y0, n in zip(x_starts, sizes_m, y_starts, sizes_n, strict=True)
    ]


# --------------------------------------------------------------------------------------------------------------------
# Compiled kernels (numba), loaded lazily: nothing here imports numba until a kernel is first asked for


def compile_kernels(namespace: dict[str, Any], names: tuple[str, ...], inline: tuple[str, ...] = ()) -> None:
    """``numba.njit`` the plain functions ``names`` of a module (``namespace`` is its ``globals()``) in place.

    Kernels are written as plain module-level functions that call each other by their global names; compiling
    replaces each name by its compiled dispatcher, so compiled code calls compiled code. Module-level functions (not
    closures) are what numba's disk cache can key and find again: a kernel defined inside a function that captures
    another kernel is compiled afresh in every process. The cache folder is ``$NUMBA_CACHE_DIR``, else
    ``<nashplay cache dir>/numba`` (numba checks each kernel's source file, so an edited file recompiles); it is set
    only while the kernels are decorated, and without a writable folder the kernels compile without a disk cache.
    Importing numba costs a few tenths of a second, and compiling a few seconds the first time: callers do this
    only where the work is large (never when the app starts).
    """
    import tempfile

    import numba

    from solvers.cache_folder import numba_cache_dir

    folder = numba_cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
        writable = True
    except OSError:
        writable = False
    config: Any = numba.config  # numba sets its config attributes at run time: mypy cannot see them
    previous = config.CACHE_DIR
    if writable:
        config.CACHE_DIR = str(folder)
    try:
        for name in names:
            if not isinstance(namespace[name], numba.core.registry.CPUDispatcher):
                # Small helpers called in inner loops are inlined: a call passing arrays costs reference counting.
                namespace[name] = numba.njit(cache=writable, inline="always" if name in inline else "never")(
                    namespace[name]
                )
    finally:
        config.CACHE_DIR = previous


_KERNELS = ("_pair_strategies", "_pair_is_equilibrium", "_strictly_complementary", "_enumerate_kernel")
#: Margins (normalised units) that make a hinted equilibrium provably the only one: see ``_strictly_complementary``.
_UNIQUE_MARGIN = 1e-7
_kernels_ready = False


def _compiled() -> None:
    global _kernels_ready
    if not _kernels_ready:
        compile_kernels(
            globals(), _KERNELS, inline=("_pair_strategies", "_pair_is_equilibrium", "_strictly_complementary")
        )
        _kernels_ready = True


def warm_up() -> None:
    """Import numba and compile (or load from the disk cache) the kernels of :func:`solve_batch_compiled`, for a
    caller to do in the background before a large solve: a few seconds the first time on a machine, then about
    0.3 s (most of it importing numba)."""
    games = np.zeros((2, 4, 4))
    masks = np.zeros(2, dtype=np.int64)
    solve_batch_compiled(games, masks, masks, exact=True)


def _pair_strategies(
    g: FloatArray,
    ri: NDArray[np.int64],
    ci: NDArray[np.int64],
    s: int,
    x: FloatArray,
    y: FloatArray,
    work: FloatArray,
) -> tuple[float, bool]:
    """One support pair's equalizing strategies, as ``_kernel_strategies`` computes them (same formulas, same
    order of operations for s = 2, 3): writes ``x`` and ``y`` (first ``s`` entries), returns ``(v, singular)``.
    ``work`` is scratch space (6 x 7), passed in: an allocation per pair would cost more than the arithmetic."""
    if s == 1:
        x[0] = 1.0
        y[0] = 1.0
        return g[ri[0], ci[0]], False
    if s == 2:
        a, b, c, d = g[ri[0], ci[0]], g[ri[0], ci[1]], g[ri[1], ci[0]], g[ri[1], ci[1]]
        y0, y1 = d + (-b), (-c) + a
        x0, x1 = d + (-c), (-b) + a
        dd = y0 + y1
        det = a * d + b * (-c)
        if not abs(dd) > 1e-12:
            return 0.0, True
        x[0], x[1], y[0], y[1] = x0 / dd, x1 / dd, y0 / dd, y1 / dd
        return det / dd, False
    if s == 3:
        # Cofactor rows: r1 x r2, r2 x r0, r0 x r1 (np.cross); the adjugate is their transpose. Scalars only.
        a0, a1, a2 = g[ri[0], ci[0]], g[ri[0], ci[1]], g[ri[0], ci[2]]
        b0, b1, b2 = g[ri[1], ci[0]], g[ri[1], ci[1]], g[ri[1], ci[2]]
        c0, c1, c2 = g[ri[2], ci[0]], g[ri[2], ci[1]], g[ri[2], ci[2]]
        f00, f01, f02 = b1 * c2 - b2 * c1, b2 * c0 - b0 * c2, b0 * c1 - b1 * c0
        f10, f11, f12 = c1 * a2 - c2 * a1, c2 * a0 - c0 * a2, c0 * a1 - c1 * a0
        f20, f21, f22 = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0
        # adj[i, j] = cof[j, i]: y_num[i] = sum_j cof[j, i]; x_num[j] = sum_i cof[j, i].
        y0, y1, y2 = f00 + f10 + f20, f01 + f11 + f21, f02 + f12 + f22
        dd = y0 + y1 + y2
        if not abs(dd) > 1e-12:
            return 0.0, True
        det = a0 * f00 + a1 * f01 + a2 * f02
        x[0], x[1], x[2] = (f00 + f01 + f02) / dd, (f10 + f11 + f12) / dd, (f20 + f21 + f22) / dd
        y[0], y[1], y[2] = y0 / dd, y1 / dd, y2 / dd
        return det / dd, False
    # s = 4, 5: the bordered systems [[S, -1], [1^T, 0]] (y) and [[S^T, -1], [1^T, 0]] (x), by Gaussian
    # elimination with partial pivoting; the determinant of the first masks both (see _kernel_strategies).
    size = s + 1
    v_out = 0.0
    for system in range(2):
        m = work[0:size, 0 : size + 1]
        m[:, :] = 0.0
        for i in range(s):
            for j in range(s):
                m[i, j] = g[ri[i], ci[j]] if system == 0 else g[ri[j], ci[i]]
            m[i, s] = -1.0
            m[s, i] = 1.0
        m[s, size] = 1.0
        det = 1.0
        for col in range(size):
            pivot = col
            for i in range(col + 1, size):
                if abs(m[i, col]) > abs(m[pivot, col]):
                    pivot = i
            if pivot != col:
                det = -det
                for j in range(size + 1):
                    m[col, j], m[pivot, j] = m[pivot, j], m[col, j]
            det *= m[col, col]
            if m[col, col] == 0.0:
                return 0.0, True
            for i in range(col + 1, size):
                f = m[i, col] / m[col, col]
                for j in range(col, size + 1):
                    m[i, j] -= f * m[col, j]
        if system == 0 and not abs(det) > 1e-12:
            return 0.0, True
        # Back substitution into the right-hand column, in place.
        for i in range(size - 1, -1, -1):
            acc = m[i, size]
            for j in range(i + 1, size):
                acc -= m[i, j] * m[j, size]
            m[i, size] = acc / m[i, i]
        out = y if system == 0 else x
        for i in range(s):
            out[i] = m[i, size]
        if system == 1:
            v_out = m[s, size]
    return v_out, False


def _pair_is_equilibrium(
    g: FloatArray, ri: NDArray[np.int64], ci: NDArray[np.int64], s: int, x: FloatArray, y: FloatArray, v: float
) -> bool:
    """The checks of ``_enumerate_supports``: no probability below -tol, no pure reply gaining more than tol."""
    tol = TOLERANCE
    m, n = g.shape
    for i in range(s):
        if x[i] < -tol or y[i] < -tol:
            return False
    for i in range(m):
        acc = 0.0
        for j in range(s):
            acc += g[i, ci[j]] * y[j]
        if acc > v + tol:
            return False
    for j in range(n):
        acc = 0.0
        for i in range(s):
            acc += g[ri[i], j] * x[i]
        if acc < v - tol:
            return False
    return True


def _strictly_complementary(
    g: FloatArray, ri: NDArray[np.int64], ci: NDArray[np.int64], s: int, x: FloatArray, y: FloatArray, v: float
) -> bool:
    """Whether an equilibrium on a square support pair is the game's only one, as its margins show: every
    probability of the pair above ``_UNIQUE_MARGIN``, every row off the support earning less than ``v`` against
    ``y`` and every column off it conceding more than ``v`` against ``x`` by that margin.

    Then any optimal row strategy lives on the rows that reply best to ``y`` (the support), meets every column of
    the support with equality, and so solves the support's non-singular system: it is ``x``; the same for ``y``. The
    enumeration would then stop at this very pair (a pair that passes its checks gives strategies within the
    tolerance of the unique ones, which a smaller pair cannot, and a pair of this size containing both supports is
    this one), and computes the same numbers from it."""
    margin = _UNIQUE_MARGIN
    m, n = g.shape
    for i in range(s):
        if x[i] <= margin or y[i] <= margin:
            return False
    on_rows = 0
    on_cols = 0
    for i in range(s):
        on_rows |= 1 << ri[i]
        on_cols |= 1 << ci[i]
    for i in range(m):
        if on_rows >> i & 1:
            continue
        acc = 0.0
        for j in range(s):
            acc += g[i, ci[j]] * y[j]
        if acc > v - margin:
            return False
    for j in range(n):
        if on_cols >> j & 1:
            continue
        acc = 0.0
        for i in range(s):
            acc += g[ri[i], j] * x[i]
        if acc < v + margin:
            return False
    return True


def _enumerate_kernel(
    b: FloatArray,
    pair_rows: NDArray[np.int64],
    pair_cols: NDArray[np.int64],
    pair_size: NDArray[np.int64],
    hint_rows: NDArray[np.int64],
    hint_cols: NDArray[np.int64],
    exact: bool,
    rows: FloatArray,
    cols: FloatArray,
    found: BoolArray,
) -> None:
    """``_enumerate_supports`` game by game, compiled: the saddle test, then every pair of ``pair_*`` (sizes 2 and
    up, in the tie-break order) until the first valid one.

    A game with a hint (a row and a column support as bit masks of equal size, 0 for none) and no saddle point tries
    that pair first. Without ``exact`` a valid hinted pair is taken as it is (any equilibrium will do while
    iterating); with it, only when it is provably the pair the enumeration would stop at
    (``_strictly_complementary``), else the game is enumerated in full."""
    k, m, n = b.shape
    tol = TOLERANCE
    x = np.empty(5)
    y = np.empty(5)
    work = np.empty((6, 7))
    ri = np.empty(5, dtype=np.int64)
    ci = np.empty(5, dtype=np.int64)
    for game in range(k):
        g = b[game]
        # Size 1 first: the first saddle point in row-major order (cheap, and the enumeration's answer wherever there
        # is one, so a hint is never needed for it).
        saddle = False
        for i in range(m):
            row_min = g[i, 0]
            for j in range(1, n):
                row_min = min(row_min, g[i, j])
            for j in range(n):
                col_max = g[0, j]
                for r in range(1, m):
                    col_max = max(col_max, g[r, j])
                if g[i, j] <= row_min + tol and g[i, j] >= col_max - tol:
                    rows[game, i] = 1.0
                    cols[game, j] = 1.0
                    saddle = True
                    break
            if saddle:
                break
        if saddle:
            found[game] = True
            continue
        # Then the hinted pair (p = -1) and every pair in order, through one call of each helper: they are inlined,
        # and each call site is compiled code of its own.
        for p in range(-1 if hint_rows[game] != 0 else 0, pair_size.size):
            if p < 0:
                s = 0
                for i in range(m):
                    if hint_rows[game] >> i & 1:
                        ri[s] = i
                        s += 1
                t = 0
                for j in range(n):
                    if hint_cols[game] >> j & 1:
                        ci[t] = j
                        t += 1
                if s != t or s < 2:
                    continue
            else:
                s = pair_size[p]
                for i in range(s):
                    ri[i] = pair_rows[p, i]
                    ci[i] = pair_cols[p, i]
            v, singular = _pair_strategies(g, ri, ci, s, x, y, work)
            if singular or not _pair_is_equilibrium(g, ri, ci, s, x, y, v):
                continue
            if p < 0 and exact and not _strictly_complementary(g, ri, ci, s, x, y, v):
                continue
            for i in range(s):
                rows[game, ri[i]] = x[i]
                cols[game, ci[i]] = y[i]
            found[game] = True
            break


def _pair_tables(m: int, n: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Every support pair of sizes 2..min(m, n) in the tie-break order, padded to 5 columns, and each pair's size."""
    rows, cols, sizes = [], [], []
    for s in range(2, min(m, n) + 1):
        r, c = _support_pairs(m, n, s)
        rows.append(np.pad(r, ((0, 0), (0, 5 - s))))
        cols.append(np.pad(c, ((0, 0), (0, 5 - s))))
        sizes.append(np.full(len(r), s))
    if not sizes:
        empty = np.zeros((0, 5), dtype=np.int64)
        return empty, empty.copy(), np.zeros(0, dtype=np.int64)
    return (
        np.concatenate(rows).astype(np.int64),
        np.concatenate(cols).astype(np.int64),
        np.concatenate(sizes).astype(np.int64),
    )


def support_masks(p: np.ndarray) -> NDArray[np.int64]:
    """Each strategy's support (p > 0) as a bit mask: action i is bit i. A hint for :func:`solve_batch_compiled`."""
    bits: NDArray[np.int64] = ((np.asarray(p) > 0) @ (1 << np.arange(p.shape[-1]))).astype(np.int64)
    return bits


def solve_batch_compiled(
    a: np.ndarray, hint_rows: np.ndarray | None = None, hint_cols: np.ndarray | None = None, exact: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`solve_batch` for games with both sides at most 5, compiled (numba): the same enumeration, formulas,
    checks and tie-break, game by game instead of pair by pair, so a game stops at its first valid pair.

    ``hint_rows``, ``hint_cols``: supports to try first (bit masks, :func:`support_masks`; 0 for none), e.g. the
    previous iteration's. With ``exact`` (the default) the result is :func:`solve_batch`'s whatever the hints (equal
    up to rounding: s = 4, 5 use a hand-written elimination rather than LAPACK): a hinted pair is taken without the
    enumeration only where it is provably the game's only equilibrium. Without ``exact`` any valid hinted pair is
    taken (for iterations, where any equilibrium will do). Compiles on first use (seconds, then cached on disk).
    Measured on the million 4 x 4 stage games of TCG n = 1000: 18 s for :func:`solve_batch`, about 5 s here without
    hints, under 1 s with last iteration's supports as hints.
    """
    arr = _as_games(a, 3)
    k, m, n = arr.shape
    if m > MAX_ENUMERATION_SIZE or n > MAX_ENUMERATION_SIZE:
        raise InvalidMatrixError(f"the compiled enumeration takes games up to 5 x 5, not {m} x {n}")
    _compiled()
    b = np.ascontiguousarray(_normalise(arr)[0])
    none = np.zeros(k, dtype=np.int64)
    hr = none if hint_rows is None else np.ascontiguousarray(hint_rows, dtype=np.int64)
    hc = none if hint_cols is None else np.ascontiguousarray(hint_cols, dtype=np.int64)
    rows = np.zeros((k, m))
    cols = np.zeros((k, n))
    found = np.zeros(k, dtype=np.bool_)
    if k:
        pair_rows, pair_cols, pair_size = _pair_tables(m, n)
        _enumerate_kernel(b, pair_rows, pair_cols, pair_size, hr, hc, exact, rows, cols, found)
        rows[found] = _clean(rows[found])
        cols[found] = _clean(cols[found])
    for g in np.flatnonzero(~found):
        sol = solve_lp(arr[g])
        rows[g] = sol.row
        cols[g] = sol.col
    values = np.einsum("ki,kij,kj->k", rows, arr, cols)
    return values, rows, cols
