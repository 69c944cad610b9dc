"""Two-player zero-sum Markov games with absorbing wins (the Twice Clap Game and kin): values, strategies, proof.

A game here has states ``0..S-1`` and the same ``m x k`` joint actions in every state; a joint action leads
deterministically to another state or to one of the two absorbing outcomes ``WIN1`` / ``WIN2``. The value of a state
is player 1's probability of winning under equilibrium play; player 2 minimises it.

Why not plain value iteration: most equilibrium play in TCG is defense, rounds rarely end the game, and the value
operator contracts by about 0.9999 per sweep at n = 50, so "change < 1e-9" stops far from the fixed point. Here every
sweep solves all stage games at once (``solvers.matrix.solve_batch``) and is followed by a policy-evaluation step:
the stage strategies are fixed and the resulting absorbing Markov chain is solved exactly with a sparse linear solve
(Pollatschek-Avi-Itzhak, which is Newton's method on the Bellman equation). Newton converges in a handful of steps
from close to the solution and may crawl from far (about n steps for TCG from 1/2 everywhere), so ``solve`` takes a
start (``solvers.tcg`` gives it the solution for about n/2, stretched); ``solve_by_sweeps`` is the solver as it was,
kept as the reference. The Bellman residual is reported, and ``certify`` turns strategies into exact bounds.

Why strategies need care (the ``*`` trap of ``spec/tcg.md``): in a decided state (value 0 or 1) every action of the
loser keeps the value, and so do stalling actions of the winner; a stationary strategy that stalls may never
collect the win. The winner's strategy in decided states is therefore a pure *attractor* strategy: it stays in the
decided region and strictly decreases the number of rounds to the win whatever the loser does. ``certify`` checks
the result: the opponent's exact best response, with endless play counted against the strategy's owner.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
import scipy.sparse.linalg as spla

from solvers.matrix import (
    equalizing_strategies,
    solve_batch,
    solve_batch_compiled,
    solve_batch_hinted,
    support_masks,
)

WIN1 = -1
WIN2 = -2

#: Below this Bellman residual the sweeps stop warm-starting (see ``solve``).
WARM_UNTIL = 1e-6

#: Values this close to 0 or 1 are decided (the winner must be given a strategy that actually wins).
DECIDED = 1e-12


@dataclass(frozen=True)
class MarkovGame:
    """``successor[s, i, j]``: where joint action (i, j) leads from state s: a state index, ``WIN1`` or ``WIN2``.

    ``order``, when given, is an elimination order of the states for the policy evaluation's sparse LU (a
    permutation of ``0..S-1``): a game that knows its geometry can give a nested dissection, which keeps the
    factors far smaller than a general-purpose ordering does (TCG at n = 1000: 117 million entries, 7 s).

    ``mirror``, when given, says the game is symmetric: an involution of the states such that the game at
    ``mirror[s]`` is the game at ``s`` with the players' roles swapped, ``successor[mirror[s], j, i]`` being
    ``successor[s, i, j]`` mirrored (a state by ``mirror``, ``WIN1`` and ``WIN2`` swapped). Then
    ``V(mirror[s]) = 1 - V(s)``, and the policy evaluation solves for one state of each mirrored pair only
    (``_solve_folded``): half the unknowns, under half the LU's time and memory.
    """

    successor: np.ndarray
    order: np.ndarray | None = None
    mirror: np.ndarray | None = None

    @property
    def states(self) -> int:
        return int(self.successor.shape[0])

    def stage_matrices(self, values: np.ndarray) -> np.ndarray:
        """All stage games at once: entry (s, i, j) is the value of where (i, j) leads (1 for WIN1, 0 for WIN2)."""
        extended = np.concatenate([values, [0.0, 1.0]])  # index -2 -> WIN2 (0), index -1 -> WIN1 (1)
        stages: np.ndarray = extended[self.successor]
        return stages


@dataclass(frozen=True)
class MarkovSolution:
    values: np.ndarray  # (S,)
    p1: np.ndarray  # (S, m) player 1's stationary strategy
    p2: np.ndarray  # (S, k) player 2's stationary strategy
    residual: float  # Bellman residual max_s |val(A_s(V)) - V_s| at the returned values
    sweeps: int
    seconds: float


#: Told after each step: the step (1, 2, ...), the Bellman residual, and the share of the solve still to do, from 1
#: down to 0 when the residual reaches the tolerance. That share is the residual's distance to the tolerance on a
#: log scale, ``log(r / tolerance) / log(r0 / tolerance)`` (r0: the first step's residual), never rising again: it
#: moves every step, and the time so far over the share done estimates the time left. (The reference solve,
#: ``solve_by_sweeps``, tells the share of states whose value still moves instead.)
Progress = Callable[[int, float, float], None]

#: A state whose value moved less than this in a sweep counts as settled in ``solve_by_sweeps``'s progress.
SETTLED = 1e-9

#: From this many states the stage games are solved by the compiled enumeration (``solve_batch_compiled``), whose
#: first use in a process imports numba (and compiles, the first time on a machine); smaller games stay in numpy.
COMPILED_FROM = 4096


def share_left(first: float, residual: float, tolerance: float) -> float:
    """The share of an iterative solve still to do: ``residual``'s distance to ``tolerance`` on a log scale, as a
    share of the first residual's (1 at the start, 0 once the tolerance is reached)."""
    if residual <= tolerance:
        return 0.0
    if first <= residual:
        return 1.0
    return float(np.log(residual / tolerance) / np.log(first / tolerance))


def solve(
    game: MarkovGame,
    tolerance: float = 1e-14,
    max_sweeps: int = 10_000,
    progress: Progress | None = None,
    initial: np.ndarray | None = None,
    hints: tuple[np.ndarray, np.ndarray] | None = None,
) -> MarkovSolution:
    """Values to ``tolerance`` (Bellman residual) and progress-making equilibrium strategies for both players.

    Newton's method on the Bellman equation ``V = val(A(V))``, which is Pollatschek-Avi-Itzhak's iteration: each step
    solves every stage game at the current values and then evaluates the stage strategies exactly (a sparse linear
    solve; the stage strategies are the derivative of the stage values, so this is the Newton step). Near the fixed
    point it converges quadratically (residuals like 7e-2, 1e-2, 5e-4, 7e-6, 2e-8, 2e-12); far from it, it can
    crawl: from 1/2 everywhere TCG's first step jumps to values of 0 and 1 and the next ones put one diagonal right
    each, about n steps. So ``initial`` values close to the solution (TCG: the solution for about n/2, stretched)
    are the way to few steps; without them the iteration starts from 1/2, as ``solve_by_sweeps`` does.

    The same fixed point as ``solve_by_sweeps`` (kept as the reference), reached with (1) stage games solved by the
    compiled enumeration from the previous step's supports (:func:`solvers.matrix.solve_batch_compiled`; games of
    fewer than ``COMPILED_FROM`` states stay in numpy), any equilibrium while far, the enumeration's tie-break below
    ``WARM_UNTIL``, as before; (2) the game's elimination order for the LU (``MarkovGame.order``). ``hints``:
    strategies for both players (S x m, S x k) whose supports the first step tries first (later steps try the
    previous step's), e.g. the coarser solution's with ``initial``.
    """
    started = time.perf_counter()
    values = np.full(game.states, 0.5) if initial is None else np.array(initial, dtype=np.float64)
    if values.shape != (game.states,):
        raise ValueError(f"initial values for {game.states} states, not {values.shape}")
    compiled = game.states >= COMPILED_FROM
    step = 0
    rows, cols = (None, None) if hints is None else hints
    residual = np.inf
    first: float | None = None
    left = 1.0
    for step in range(1, max_sweeps + 1):
        exact = residual <= WARM_UNTIL
        stages = game.stage_matrices(values)
        stage_values, rows, cols = _stage_solve(stages, rows, cols, compiled, exact)
        residual = float(np.max(np.abs(stage_values - values)))
        first = residual if first is None else first
        left = min(left, share_left(first, residual, tolerance))
        if progress is not None:
            progress(step, residual, left)
        if residual <= tolerance:
            break
        if game.mirror is not None:
            # Player 1's stage strategy at the mirrored state is an equilibrium strategy of player 2 here (the
            # mirrored stage game is 1 - A^T at antisymmetric values): with it the chain is symmetric, and so are
            # the values it gives, which the evaluation folds.
            cols = rows[game.mirror]
        values = evaluate(game, rows, cols, fallback=stage_values)
    # The strategies returned come from the enumeration's tie-break at the final values (deterministic).
    stage_values, rows, cols = _stage_solve(game.stage_matrices(values), rows, cols, compiled, exact=True)
    residual = float(np.max(np.abs(stage_values - values)))
    p1, p2 = progressive_strategies(game, values, rows, cols)
    return MarkovSolution(values, p1, p2, residual, step, time.perf_counter() - started)


def _stage_solve(
    stages: np.ndarray, rows: np.ndarray | None, cols: np.ndarray | None, compiled: bool, exact: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every stage game, trying the supports of ``rows`` and ``cols`` (the last step's strategies) first."""
    hint_rows = None if rows is None else support_masks(rows)
    hint_cols = None if cols is None else support_masks(cols)
    if compiled:
        return solve_batch_compiled(stages, hint_rows, hint_cols, exact=exact)
    return solve_batch_hinted(stages, hint_rows, hint_cols, exact=exact)


def solve_by_sweeps(
    game: MarkovGame,
    tolerance: float = 1e-14,
    max_sweeps: int = 10_000,
    progress: Progress | None = None,
) -> MarkovSolution:
    """The reference: the solver as it was until the Newton steps from a good start (``solve``), kept to check them.

    Every sweep solves all stage games in numpy (``solve_batch``, warm-started) and evaluates their strategies,
    from 1/2 everywhere: about n sweeps for TCG (n = 200: 204 sweeps, 34-41 s). ``progress`` is told the share of
    states whose value still moves (by more than ``SETTLED``) instead of a share of the work.
    """
    started = time.perf_counter()
    values = np.full(game.states, 0.5)
    sweeps = 0
    rows: np.ndarray | None = None
    cols: np.ndarray | None = None
    residual = np.inf
    plain = MarkovGame(game.successor)  # the general-purpose LU ordering, as it was
    for sweeps in range(1, max_sweeps + 1):
        # Warm starts while far from the fixed point; the last sweeps go through the full enumeration, whose
        # fixed tie-break order makes policy evaluation land exactly on the values (and the strategies returned
        # deterministic).
        warm = rows if residual > WARM_UNTIL else None
        stage_values, rows, cols = _warm_solve(game.stage_matrices(values), warm, cols)
        change = np.abs(stage_values - values)
        residual = float(np.max(change))
        if progress is not None:
            progress(sweeps, residual, float(np.mean(change > SETTLED)))
        if residual <= tolerance:
            break
        values = evaluate(plain, rows, cols, fallback=stage_values)
    stage_values, rows, cols = solve_batch(game.stage_matrices(values))
    residual = float(np.max(np.abs(stage_values - values)))
    p1, p2 = progressive_strategies(game, values, rows, cols)
    return MarkovSolution(values, p1, p2, residual, sweeps, time.perf_counter() - started)


def _warm_solve(
    stages: np.ndarray, rows: np.ndarray | None, cols: np.ndarray | None, tolerance: float = 1e-12
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``solve_batch``, warm-started from the previous sweep's supports.

    Between sweeps the values move a little and most stage games keep the supports of their equilibrium, so for
    each support pattern the equal-payoff systems of all its games are solved in one stacked call and checked;
    only the games whose check fails go through the full enumeration. During iteration any equilibrium will do
    (the tie-break order matters only for the strategies finally returned, which come from ``solve_batch``).
    """
    if rows is None or cols is None:
        return solve_batch(stages)
    count, m, k = stages.shape
    values = np.empty(count)
    new_rows = np.zeros((count, m))
    new_cols = np.zeros((count, k))
    done = np.zeros(count, dtype=bool)
    row_support, col_support = rows > 0, cols > 0
    sizes = row_support.sum(axis=1)
    eligible = sizes == col_support.sum(axis=1)
    codes = row_support @ (1 << np.arange(m)) * (1 << k) + col_support @ (1 << np.arange(k))
    for code in np.unique(codes[eligible]):
        members = np.flatnonzero(eligible & (codes == code))
        r_idx = np.flatnonzero(row_support[members[0]])
        c_idx = np.flatnonzero(col_support[members[0]])
        x_sol, y_sol, v, singular = equalizing_strategies(stages[np.ix_(members, r_idx, c_idx)])
        members, x_sol, y_sol, v = members[~singular], x_sol[~singular], y_sol[~singular], v[~singular]
        if not members.size:
            continue
        x = np.zeros((members.size, m))
        y = np.zeros((members.size, k))
        x[:, r_idx] = x_sol
        y[:, c_idx] = y_sol
        game = stages[members]
        ok = (x >= -tolerance).all(axis=1) & (y >= -tolerance).all(axis=1)
        ok &= (np.einsum("gij,gj->gi", game, y) <= v[:, None] + tolerance).all(axis=1)
        ok &= (np.einsum("gi,gij->gj", x, game) >= v[:, None] - tolerance).all(axis=1)
        accepted = members[ok]
        values[accepted] = v[ok]
        new_rows[accepted] = np.clip(x[ok], 0.0, None)
        new_cols[accepted] = np.clip(y[ok], 0.0, None)
        done[accepted] = True
    rest = np.flatnonzero(~done)
    if rest.size:
        values[rest], new_rows[rest], new_cols[rest] = solve_batch(stages[rest])
    new_rows /= new_rows.sum(axis=1, keepdims=True)
    new_cols /= new_cols.sum(axis=1, keepdims=True)
    return values, new_rows, new_cols


def _chain(successor: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> tuple[sp.csr_matrix, np.ndarray, np.ndarray]:
    """The Markov chain of fixed stationary strategies (``rows`` over the middle axis of ``successor``, ``cols``
    over the last): transitions among states, and the one-round chance of each outcome (WIN1, WIN2).

    Built as CSR directly (the entries of a state are consecutive), not through a sort of all of them."""
    s_count, m, k = successor.shape
    joint = rows[:, :, None] * cols[:, None, :]  # (S, m, k)
    succ = successor.reshape(s_count, m * k)
    prob = joint.reshape(s_count, m * k)
    inner = (succ >= 0) & (prob > 0)
    indptr = np.zeros(s_count + 1, dtype=np.int64)
    np.cumsum(inner.sum(axis=1), out=indptr[1:])
    transitions = sp.csr_matrix((prob[inner], succ[inner], indptr), shape=(s_count, s_count))
    transitions.sum_duplicates()  # two joint actions may lead to the same state
    win1 = np.where(succ == WIN1, prob, 0.0).sum(axis=1)
    win2 = np.where(succ == WIN2, prob, 0.0).sum(axis=1)
    return transitions, win1, win2


def _can_reach(transitions: sp.csr_matrix, start: np.ndarray) -> np.ndarray:
    """States from which some state in ``start`` (a boolean mask) is reachable with positive probability.

    One breadth-first search (in C) from an extra sink node that every ``start`` state points to, on the reversed
    graph: what the search reaches is exactly what can reach ``start``.
    """
    count = transitions.shape[0]
    sink = count
    sources = np.flatnonzero(start)
    if sources.size == 0:
        return np.zeros(count, dtype=bool)
    reverse = transitions.transpose().tocsr()  # row t lists the states that move to t
    indices = np.concatenate([reverse.indices, sources])
    indptr = np.append(reverse.indptr, reverse.indptr[-1] + sources.size)
    graph = sp.csr_matrix((np.ones(indices.size), indices, indptr), shape=(count + 1, count + 1))
    order = csgraph.breadth_first_order(graph, sink, directed=True, return_predecessors=False)
    reach = np.zeros(count + 1, dtype=bool)
    reach[order] = True
    return reach[:count]


def evaluate(game: MarkovGame, rows: np.ndarray, cols: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Player 1's win probability when both players keep these stage strategies for ever.

    States that cannot reach an end under them (a loop of stalling actions) keep ``fallback``: their value is not
    defined by these strategies, and the next sweep's stage games revise it.
    """
    transitions, win1, win2 = _chain(game.successor, rows, cols)
    ends = (win1 + win2) > 0
    live = _can_reach(transitions, ends)
    values = fallback.copy()
    if not live.any():
        return values
    if game.order is not None:
        folded = game.mirror is not None and np.array_equal(cols, rows[game.mirror])
        if folded and game.mirror is not None:
            solved = _solve_folded(transitions, win1, live, fallback, game.order, game.mirror)
        else:
            solved = _solve_in_order(transitions, win1, live, fallback, game.order)
        values[live] = solved[live]
        ordered: np.ndarray = np.clip(values, 0.0, 1.0)
        return ordered
    index = np.flatnonzero(live)
    stuck = np.flatnonzero(~live)
    sub = transitions[index][:, index]
    rhs = win1[index] + (transitions[index][:, stuck] @ fallback[stuck] if stuck.size else 0.0)
    matrix = sp.identity(index.size, format="csc") - sub.tocsc()
    # A column ordering for A^T + A: the matrix is nearly symmetric in structure (moves go both ways), and this
    # ordering cut the factorisation time by a fifth at n = 200 compared with the default COLAMD. (BiCGSTAB from
    # the previous values was tried and was slower: it often needs hundreds of iterations near the fixed point.)
    values[index] = spla.spsolve(matrix, rhs, permc_spec="MMD_AT_PLUS_A")
    clipped: np.ndarray = np.clip(values, 0.0, 1.0)
    return clipped


def _solve_in_order(
    transitions: sp.csr_matrix, win1: np.ndarray, live: np.ndarray, fallback: np.ndarray, order: np.ndarray
) -> np.ndarray:
    """``(I - P) v = win1 + P_stuck fallback`` on the live states, factorised in the game's elimination order.

    ``I - P`` on states that all reach an end is a non-singular M-matrix (positive diagonal, non-positive off the
    diagonal, row sums >= 0): Gaussian elimination needs no pivoting on it (every Schur complement is again an
    M-matrix), so SuperLU is told to keep the diagonal pivots and the order given, which is what makes the order's
    small fill count. Returns values for all states (the live ones solved, the rest ``fallback``)."""
    count = transitions.shape[0]
    sequence = order[live[order]]  # the live states, in elimination order
    rank = np.full(count, -1, dtype=np.int64)
    rank[sequence] = np.arange(sequence.size)
    coo = transitions.tocoo()
    source_live = live[coo.row]
    inside = source_live & live[coo.col]
    size = sequence.size
    diagonal = np.arange(size)
    matrix = sp.csc_matrix(
        (
            np.concatenate([-coo.data[inside], np.ones(size)]),
            (np.concatenate([rank[coo.row[inside]], diagonal]), np.concatenate([rank[coo.col[inside]], diagonal])),
        ),
        shape=(size, size),
    )
    rhs = win1[sequence].copy()
    outside = source_live & ~live[coo.col]
    if outside.any():
        np.add.at(rhs, rank[coo.row[outside]], coo.data[outside] * fallback[coo.col[outside]])
    factors = spla.splu(matrix, permc_spec="NATURAL", diag_pivot_thresh=0.0, options={"SymmetricMode": True})
    values = fallback.copy()
    values[sequence] = factors.solve(rhs)
    return values


def _solve_folded(
    transitions: sp.csr_matrix,
    win1: np.ndarray,
    live: np.ndarray,
    fallback: np.ndarray,
    order: np.ndarray,
    mirror: np.ndarray,
) -> np.ndarray:
    """``_solve_in_order`` for a symmetric chain (``MarkovGame.mirror``, and player 2 playing player 1's mirrored
    strategy), with ``V(mirror[s]) = 1 - V(s)`` put in: unknowns only for the states ``s < mirror[s]``; a state that
    is its own mirror is worth 1/2, and the stuck states' fallback is made antisymmetric first.

    Row s of the folded system: ``V(s) - sum_u (P[s, u] - P[s, mirror u]) V(u) = w1(s) + sum_u P[s, mirror u]
    + (1/2) P[s, self-mirrored] + P[s, stuck] fallback``, over the kept states u. It is no longer an M-matrix (the
    mirrored moves enter with a plus), but it is still diagonally dominant by rows (the diagonal gains what the
    mirror of s takes), so again no pivoting is needed and the order is kept. A factorisation that fails all the
    same falls back to the unfolded solve."""
    count = transitions.shape[0]
    fallback = (fallback + 1.0 - fallback[mirror]) / 2.0
    keep = live & (np.arange(count) < mirror)
    sequence = order[keep[order]]
    rank = np.full(count, -1, dtype=np.int64)
    rank[sequence] = np.arange(sequence.size)
    # Where each move lands, folded: a kept state (sign +1), the mirror of a kept state (-1, and a constant 1), a
    # state that is its own mirror (constant 1/2), or a stuck state (constant: its fallback).
    coo = transitions.tocoo()
    rows_kept = keep[coo.row]
    row, col, data = rank[coo.row[rows_kept]], coo.col[rows_kept], coo.data[rows_kept]
    direct = keep[col]
    mirrored = live[col] & ~keep[col] & (mirror[col] != col)
    constant = np.where(mirrored, data, 0.0) + np.where(live[col] & (mirror[col] == col), 0.5 * data, 0.0)
    constant += np.where(~live[col], data * fallback[col], 0.0)
    size = sequence.size
    diagonal = np.arange(size)
    matrix = sp.csc_matrix(
        (
            np.concatenate([-data[direct], data[mirrored], np.ones(size)]),
            (
                np.concatenate([row[direct], row[mirrored], diagonal]),
                np.concatenate([rank[col[direct]], rank[mirror[col[mirrored]]], diagonal]),
            ),
        ),
        shape=(size, size),
    )
    rhs = win1[sequence] + np.bincount(row, weights=constant, minlength=size)
    try:
        factors = spla.splu(matrix, permc_spec="NATURAL", diag_pivot_thresh=0.0, options={"SymmetricMode": True})
    except RuntimeError:  # singular to SuperLU: not seen
        return _solve_in_order(transitions, win1, live, fallback, order)
    values = fallback.copy()
    values[sequence] = factors.solve(rhs)
    values[mirror[sequence]] = 1.0 - values[sequence]
    values[live & (mirror == np.arange(count))] = 0.5
    return values


def progressive_strategies(
    game: MarkovGame, values: np.ndarray, rows: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Stage strategies, with the winner of every decided state playing a pure attractor strategy."""
    p1, p2 = rows.copy(), cols.copy()
    for player, target in ((1, WIN1), (2, WIN2)):
        decided = values >= 1 - DECIDED if player == 1 else values <= DECIDED
        choice = _attractor(game, decided, target, player)
        chosen = choice >= 0
        strategies = p1 if player == 1 else p2
        strategies[chosen] = 0.0
        strategies[chosen, choice[chosen]] = 1.0
    return p1, p2


def _attractor(game: MarkovGame, region: np.ndarray, target: int, player: int) -> np.ndarray:
    """For each state of ``region``, a pure action of ``player`` that stays in the region and reaches ``target``
    in fewer rounds than before, whatever the opponent plays (-1 where there is none).

    Layer k holds the states that win in at most k rounds; an action qualifies for layer k if every opponent reply
    leads to ``target`` or to a state of an earlier layer.
    """
    succ = game.successor if player == 1 else game.successor.transpose(0, 2, 1)  # (S, own, opponent)
    s_count = game.states
    rank = np.full(s_count, -1)
    choice = np.full(s_count, -1)
    solved = np.zeros(s_count + 2, dtype=bool)  # extended: index s_count+target maps below
    # Extended indices: WIN1 -> -1 and WIN2 -> -2 already address the last two slots of ``solved``.
    solved[target] = True
    layer = 0
    while True:
        layer += 1
        good = solved[succ].all(axis=2)  # (S, own): every opponent reply lands on target or an earlier layer
        new = region & ~solved[:s_count] & good.any(axis=1)
        if not new.any():
            break
        choice[new] = np.argmax(good[new], axis=1)
        rank[new] = layer
        solved[:s_count] |= new
    return choice


# --------------------------------------------------------------------------------------------------- certificates


@dataclass(frozen=True)
class Certificate:
    """Exact guarantees of a strategy pair, from the opponents' best responses.

    ``lower[s]``: player 1's win probability that ``p1`` guarantees (player 2 best-responds; endless play counts as
    player 1 not winning). ``upper[s]``: the most player 1 can get against ``p2`` (endless play counts as a win for
    player 1, i.e. against ``p2``'s owner). The true value lies between them; equal bounds prove both strategies
    optimal and that play between them ends with probability 1.
    """

    lower: np.ndarray
    upper: np.ndarray
    ends_p1: np.ndarray  # chance the game ends when p1 meets its best response
    ends_p2: np.ndarray

    @property
    def gap(self) -> float:
        return float(np.max(self.upper - self.lower))


def certify(game: MarkovGame, p1: np.ndarray, p2: np.ndarray) -> Certificate:
    reach_win1, ends_p1 = _min_reach(game.successor, p1, WIN1)
    reach_win2, ends_p2 = _min_reach(game.successor.transpose(0, 2, 1), p2, WIN2)
    return Certificate(lower=reach_win1, upper=1.0 - reach_win2, ends_p1=ends_p1, ends_p2=ends_p2)


def _can_avoid(successor: np.ndarray, support: np.ndarray, target: int) -> np.ndarray:
    """The states (of the extended index: the two outcomes last) from which the player of the last axis can keep
    the game away from ``target`` for ever, whatever the other plays within ``support``: the greatest set where some
    action of theirs leads only into the set.

    Computed from its complement, outward from ``target`` (an attractor): a state is lost once every action of the
    avoider has some supported successor lost. Each round looks only at what moves into the states lost in the round
    before, so the whole costs about one pass over the moves (rounding the fixed point by whole sweeps cost n of
    them: 5 s at n = 200).
    """
    s_count, m, k = successor.shape
    extended = s_count + 2
    state, action, reply = np.nonzero(np.broadcast_to(support[:, :, None], (s_count, m, k)))
    into = successor[state, action, reply] % extended  # WIN1 (-1) and WIN2 (-2) are the last two of the extension
    order = np.argsort(into, kind="stable")
    pairs = (state * k + reply)[order]  # (state, avoider's action) of each supported move, grouped by where it leads
    starts = np.searchsorted(into[order], np.arange(extended + 1))
    broken = np.zeros(s_count * k, dtype=bool)  # the action has a supported move into a lost state
    lost = np.zeros(extended, dtype=bool)
    lost[target % extended] = True
    frontier = np.array([target % extended])
    while frontier.size:
        first, last = starts[frontier], starts[frontier + 1]
        lengths = last - first
        picks = np.repeat(first - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
        hit = pairs[picks]
        hit = hit[~broken[hit]]
        broken[hit] = True
        candidates = np.unique(hit // k)
        candidates = candidates[~lost[candidates]]
        frontier = candidates[broken.reshape(s_count, k)[candidates].all(axis=1)]
        lost[frontier] = True
    return ~lost


def _min_reach(successor: np.ndarray, fixed: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """The best response, by policy iteration, of the player choosing the LAST axis of ``successor`` against the
    fixed mixed strategy over the middle axis: it minimises the chance of reaching ``target`` (endless play is fine
    for it). Returns that minimal chance per state, and the chance that the game ends under the best response."""
    s_count, _, k = successor.shape
    extended_len = s_count + 2
    # Successor distribution for each (state, responder action): weights of the fixed player's actions.
    # States that can avoid the target for ever (greatest fixed point): value 0, found on the graph of the support.
    support = fixed > 0
    safe = _can_avoid(successor, support, target)
    ok = np.asarray(np.where(support[:, :, None], safe[successor], True).all(axis=1))  # (S, k): stays safe
    avoid_action = np.argmax(ok, axis=1)

    def chain_under(policy: np.ndarray) -> tuple[sp.csr_matrix, np.ndarray, np.ndarray]:
        """The chain when the responder plays ``policy``: transitions, chance of ``target``, of the other end."""
        pure = np.zeros((s_count, k))
        pure[np.arange(s_count), policy] = 1.0
        transitions, win1, win2 = _chain(successor, fixed, pure)
        return (transitions, win1, win2) if target == WIN1 else (transitions, win2, win1)

    def reach_chance(policy: np.ndarray) -> np.ndarray:
        transitions, win_t, _ = chain_under(policy)
        value = np.zeros(s_count)
        unsafe = np.flatnonzero(~safe[:s_count])
        if unsafe.size:
            sub = transitions[unsafe][:, unsafe]
            matrix = sp.identity(unsafe.size, format="csc") - sub.tocsc()
            value[unsafe] = spla.spsolve(matrix, win_t[unsafe])
        return value

    extended = np.zeros(extended_len)
    extended[target] = 1.0
    policy = np.where(safe[:s_count], avoid_action, 0)
    for _ in range(1000):
        value = reach_chance(policy)
        extended[:s_count] = value
        q = np.einsum("si,sij->sj", fixed, extended[successor])  # (S, k) chance of target after one round
        best = np.argmin(q, axis=1)
        improve = q[np.arange(s_count), best] < q[np.arange(s_count), policy] - 1e-13
        improve &= ~safe[:s_count]
        if not improve.any():
            break
        policy = np.where(improve, best, policy)
    # Chance of ending under the best response: reach either outcome.
    transitions, win_t, win_o = chain_under(policy)
    ends = win_t + win_o
    live = _can_reach(transitions, ends > 0)
    ended = np.zeros(s_count)
    index = np.flatnonzero(live)
    if index.size:
        matrix = sp.identity(index.size, format="csc") - transitions[index][:, index].tocsc()
        ended[index] = spla.spsolve(matrix, ends[index])
    return value, ended
