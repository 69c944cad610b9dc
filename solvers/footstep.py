"""Footstep solved exactly by backward induction, and what the exact values say about simple players.

Every round costs the bidders at least one point in all, so ordering the states ``(x, y, z)`` (player 1's points,
player 2's points, marker) by ``x + y`` leaves no cycles: each state's value depends only on states with fewer
points, and one pass over the levels ``x + y = 0, 1, ..., 2n`` solves the game. Within a level the states are
independent and are solved together:

1. For each ``(x, y)`` the stage games of all marker positions are built from the value table:
   ``A[z][i, j] = V(x - bid_i, y - bid_j, z + sign(bid_i - bid_j))``.
2. Games with a saddle point (pure maximin = minimax, about three quarters of them, including every state where
   a player is out of points: a 1-row or 1-column game) are settled directly, lowest bids first on ties.
3. The rest are solved by a dense simplex compiled with numba (``_simplex_game``), a whole level in one call
   (``_footstep_level``); HiGHS takes the rare game the simplex gives up on (``_settle_by_lp``).

Games of fewer than ``COMPILED_FROM`` stage games take the way this module used before, kept as
``FootstepSolution.compute_reference`` (numpy; the mixed games lose their weakly dominated bids and a level's go to
HiGHS as one block-diagonal LP), which needs no compilation and is as fast there.

Values are player 1's, in points (-2..2). Strategies are kept sparse (bid, probability) per state and player.
``pure_commitment_values`` computes the paper's claim that every pure strategy loses by 2; ``exact_vs_random``
the exact expected scores of the equilibrium player and of the best response against the random player.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.footstep import FootstepPosition, FootstepView, legal_bids
from core.game import Side
from solvers import matrix
from solvers.cache import load_or_build
from solvers.kernels_ready import Compiling, make_ready
from solvers.matrix import compile_kernels, exploitability, solve_lp, solve_lp_blocks, undominated
from solvers.players import Limit

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: Bump when the solver's output changes, so cached tables are rebuilt.
CACHE_VERSION = 2
#: Probabilities below this are rounding noise of the LP and are dropped from the stored mixes.
MIN_PROBABILITY = 1e-9
#: Two payoffs closer than this are equal (saddle points, dominance): well above HiGHS's 1e-10 tolerances.
TIE = 1e-9
#: From this many matrix games (n^2 (2k - 1)) ``compute`` uses the compiled simplex; below, the reference's way.
COMPILED_FROM = 4096
#: The most a simplex answer may be exploited (in points) before HiGHS is asked instead: rounding level.
EXPLOITABLE = 1e-12

#: ``progress(level, levels)``: called after each level ``x + y`` is solved. The levels' work is far from even
#: (the middle ones hold the largest games): ``level_shares`` turns a level count into the share of the work done.
Progress = Callable[[int, int], None]


def level_shares(n: int, k: int) -> FloatArray:
    """``shares[level]``: the share of ``FootstepSolution.compute``'s work done once ``level`` levels are solved
    (``shares[0] = 0``, ``shares[2n + 1] = 1``), for a percentage and a time left that mean something.

    The simplex's work on an x-by-y stage game grows about as ``x y (x + y)`` (pivots about x + y, each about
    x (x + y) operations); summed over a level's states, this matched the measured time of every level of (80, 6)
    to within 4% of the whole (the level count alone was off by 42%). ``k`` only scales every level alike.
    """
    points = np.arange(n + 1)
    x, y = np.meshgrid(points, points, indexing="ij")
    weights = (x * y * (x + y)).ravel().astype(np.float64)
    # Levels without a matrix game (one player out of points) still take a moment.
    work = np.bincount((x + y).ravel(), weights=weights, minlength=2 * n + 1).astype(np.float64) + 1e-9
    shares: FloatArray = np.concatenate([[0.0], np.cumsum(work) / work.sum()])
    return shares


def _bids(points: int) -> IntArray:
    return np.asarray(legal_bids(points), dtype=np.int64)


def _ends_table(n: int, k: int) -> FloatArray:
    """A value table (player 1's, in points) with only the game's ends filled in, NaN elsewhere: the marker on a
    goal (2 points), and both players out of points (1 point to the side the marker leans to, 0 at the centre).
    Every backward induction here starts from it."""
    width = 2 * k + 1
    table = np.full((n + 1, n + 1, width), np.nan)
    table[:, :, 0], table[:, :, -1] = -2.0, 2.0
    table[0, 0, 1:-1] = np.sign(np.arange(1, 2 * k) - k)
    return table


def _stage_games(values: FloatArray, k: int, x: int, y: int) -> FloatArray:
    """The stage games of ``(x, y, z)`` for every non-goal marker ``z``: shape (2k-1, bids of x, bids of y)."""
    b1, b2 = _bids(x), _bids(y)
    step = np.sign(b1[:, None] - b2[None, :])
    markers = np.arange(1, 2 * k)  # marker indices of z = -(k-1)..k-1 (index = z + k)
    out: FloatArray = values[x - b1[:, None], y - b2[None, :], markers[:, None, None] + step[None]]
    return out


@dataclass(frozen=True)
class SparseMixes:
    """One player's mixed bid at every state, compressed: state ``s`` bids ``bids[ptr[s]:ptr[s+1]]``."""

    ptr: IntArray
    bids: IntArray
    probabilities: FloatArray

    def at(self, state: int) -> tuple[IntArray, FloatArray]:
        lo, hi = int(self.ptr[state]), int(self.ptr[state + 1])
        return self.bids[lo:hi], self.probabilities[lo:hi]

    @classmethod
    def build(cls, states: int, entries: list[tuple[IntArray, IntArray, FloatArray]]) -> SparseMixes:
        if entries:
            state = np.concatenate([e[0] for e in entries])
            bid = np.concatenate([e[1] for e in entries])
            prob = np.concatenate([e[2] for e in entries])
        else:
            state, bid, prob = np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
        order = np.lexsort((bid, state))
        ptr = np.concatenate([[0], np.cumsum(np.bincount(state, minlength=states))]).astype(np.int64)
        return cls(ptr, bid[order].astype(np.int64), prob[order].astype(np.float64))


@dataclass(frozen=True)
class SolveStats:
    seconds: float
    #: Non-goal states, and those where both players hold points (a real matrix game).
    states: int
    matrix_games: int
    #: Matrix games that needed the LP (the others have a saddle point).
    lp_games: int
    #: Levels sent to HiGHS, one call each.
    lp_calls: int


class FootstepSolution:
    """Exact equilibrium of Footstep(n, k): values (player 1's, in points) and both players' mixes at every state."""

    def __init__(self, n: int, k: int, values: FloatArray, mixes: tuple[SparseMixes, SparseMixes], stats: SolveStats):
        self.n = n
        self.k = k
        #: ``values[x, y, z + k]``: player 1's equilibrium score with x and y points left and the marker at z.
        self.values = values
        self.mixes = mixes
        self.stats = stats

    # ---- building

    @classmethod
    def compute(cls, n: int, k: int, progress: Progress | None = None) -> FootstepSolution:
        """Backward induction level by level, each level in one compiled call (``_footstep_level``: saddle points as
        before, the other stage games by a dense simplex on the whole game); HiGHS only where the simplex gives up.
        The values are the reference's (``compute_reference``: numpy, dominance, one block LP per level) to 1e-12;
        where a stage game has several equilibria the mixes may be another of them. (50, 4): 0.2-0.4 s against
        2-4 s. Games of fewer than ``COMPILED_FROM`` matrix games (n = 20, k = 3 has 2,000) go the reference's way,
        which takes a fraction of a second there: no numba to import or compile for them.
        """
        if n < 1 or k < 1:
            raise ValueError(f"n (points) and k (steps to a goal) must be at least 1, not n = {n}, k = {k}")
        if n * n * (2 * k - 1) < COMPILED_FROM:
            return cls.compute_reference(n, k, progress)
        start = time.perf_counter()
        _compiled()
        width = 2 * k + 1
        values = _ends_table(n, k)
        states = (n + 1) * (n + 1) * width
        entries: tuple[list[tuple[IntArray, IntArray, FloatArray]], ...] = ([], [])
        lp_games = lp_calls = 0
        markers = np.arange(1, 2 * k)
        for level in range(2 * n + 1):
            xs = np.arange(max(0, level - n), min(n, level) + 1)
            ids = (((xs * (n + 1) + level - xs) * width)[:, None] + markers[None, :]).ravel()
            mixes = (np.zeros((ids.size, n + 1)), np.zeros((ids.size, n + 1)))
            failed = np.zeros(ids.size, dtype=np.bool_)
            lp_games += _footstep_level(values, n, k, level, TIE, MIN_PROBABILITY, mixes[0], mixes[1], failed)
            for state in np.flatnonzero(failed):
                lp_calls += 1
                x, rest = divmod(int(ids[state]) // width, n + 1)
                z = int(ids[state]) % width
                values[x, rest, z], row, col = _settle_by_lp(_stage_games(values, k, x, rest)[z - 1])
                for mix, bids, probabilities in ((mixes[0], _bids(x), row), (mixes[1], _bids(rest), col)):
                    kept = np.where(probabilities > MIN_PROBABILITY, probabilities, 0.0)
                    mix[state, bids] = kept / kept.sum()
            for side, mix in enumerate(mixes):
                where, bids = np.nonzero(mix)
                entries[side].append((ids[where], bids.astype(np.int64), mix[where, bids]))
            if progress is not None:
                progress(level + 1, 2 * n + 1)
        stats = SolveStats(
            seconds=time.perf_counter() - start,
            states=(n + 1) * (n + 1) * (2 * k - 1),
            matrix_games=n * n * (2 * k - 1),
            lp_games=lp_games,
            lp_calls=lp_calls,
        )
        return cls(n, k, values, (SparseMixes.build(states, entries[0]), SparseMixes.build(states, entries[1])), stats)

    @classmethod
    def compute_reference(cls, n: int, k: int, progress: Progress | None = None) -> FootstepSolution:
        """The solver as it was (numpy, one pass of dominance, one HiGHS block LP per level), kept to check
        ``compute`` against: the same values to 1e-12."""
        if n < 1 or k < 1:
            raise ValueError(f"n (points) and k (steps to a goal) must be at least 1, not n = {n}, k = {k}")
        start = time.perf_counter()
        width = 2 * k + 1
        values = _ends_table(n, k)
        states = (n + 1) * (n + 1) * width
        entries: tuple[list[tuple[IntArray, IntArray, FloatArray]], ...] = ([], [])
        lp_games = lp_calls = 0
        markers = np.arange(1, 2 * k)
        for level in range(2 * n + 1):
            pending: list[tuple[int, int, IntArray, IntArray, FloatArray]] = []
            for x in range(max(0, level - n), min(n, level) + 1):
                y = level - x
                ids = (x * (n + 1) + y) * width + markers
                if x == 0 and y == 0:
                    # Both out of points: the end is in the table already; both "bid" 0.
                    for side in Side:
                        entries[side].append((ids, np.zeros_like(ids), np.ones(len(ids))))
                    continue
                games = _stage_games(values, k, x, y)
                b1, b2 = _bids(x), _bids(y)
                row_mins, col_maxes = games.min(axis=2), games.max(axis=1)
                maximin, minimax = row_mins.max(axis=1), col_maxes.min(axis=1)
                saddle = minimax - maximin <= TIE
                if saddle.any():
                    rows = np.argmax(row_mins[saddle] >= maximin[saddle, None] - TIE, axis=1)
                    cols = np.argmax(col_maxes[saddle] <= minimax[saddle, None] + TIE, axis=1)
                    values[x, y, markers[saddle]] = games[saddle, rows, cols]
                    entries[0].append((ids[saddle], b1[rows], np.ones(len(rows))))
                    entries[1].append((ids[saddle], b2[cols], np.ones(len(cols))))
                mixed = np.flatnonzero(~saddle)
                if len(mixed):
                    # One pass of dominance removal: it takes the sure-win and wasteful bids out (halving the LP's
                    # time); further passes cost more than the LP time they save (measured on (50, 4)).
                    keep_rows, keep_cols = undominated(games[mixed], TIE, rounds=1)
                    for g, rows_alive, cols_alive in zip(mixed, keep_rows, keep_cols, strict=True):
                        bids1, bids2 = b1[rows_alive], b2[cols_alive]
                        pending.append(
                            (int(ids[g]), int(markers[g]), bids1, bids2, games[g][np.ix_(rows_alive, cols_alive)])
                        )
            if pending:
                lp_games += len(pending)
                lp_calls += 1
                solutions = solve_lp_blocks([p[4] for p in pending])
                for (state, marker, bids1, bids2, _), solution in zip(pending, solutions, strict=True):
                    x, rest = divmod(state // width, n + 1)
                    values[x, rest, marker] = solution.value
                    for player, bids, mix in ((0, bids1, solution.row), (1, bids2, solution.col)):
                        used = mix > MIN_PROBABILITY
                        probs = mix[used] / mix[used].sum()
                        entries[player].append((np.full(int(used.sum()), state), bids[used], probs))
            if progress is not None:
                progress(level + 1, 2 * n + 1)
        mixes = (SparseMixes.build(states, entries[0]), SparseMixes.build(states, entries[1]))
        stats = SolveStats(
            seconds=time.perf_counter() - start,
            states=(n + 1) * (n + 1) * (2 * k - 1),
            matrix_games=n * n * (2 * k - 1),
            lp_games=lp_games,
            lp_calls=lp_calls,
        )
        return cls(n, k, values, mixes, stats)

    @classmethod
    def load(
        cls,
        n: int,
        k: int,
        use_cache: bool = True,
        progress: Progress | None = None,
        compiling: Compiling | None = None,
    ) -> tuple[FootstepSolution, str]:
        """From the disk cache when it is sound, else solved (and cached); also says which ("cache", "built"...). A
        solve large enough for the compiled levels first makes their kernels ready, telling ``compiling`` while they
        compile (the first time on a machine)."""

        def build() -> dict[str, np.ndarray]:
            if n * n * (2 * k - 1) >= COMPILED_FROM:
                make_ready("footstep", warm_up_with_matrix, compiling)
            solution = cls.compute(n, k, progress)
            return solution._arrays()

        loaded = load_or_build("footstep", {"n": n, "k": k}, build, version=CACHE_VERSION, use_cache=use_cache)
        return cls._from_arrays(n, k, loaded.arrays), loaded.source

    def _arrays(self) -> dict[str, np.ndarray]:
        s = self.stats
        arrays: dict[str, np.ndarray] = {
            "values": self.values,
            "stats": np.array([s.seconds, s.states, s.matrix_games, s.lp_games, s.lp_calls], dtype=np.float64),
        }
        for side, mixes in enumerate(self.mixes):
            arrays[f"p{side + 1}_ptr"] = mixes.ptr
            arrays[f"p{side + 1}_bids"] = mixes.bids
            arrays[f"p{side + 1}_probabilities"] = mixes.probabilities
        return arrays

    @classmethod
    def _from_arrays(cls, n: int, k: int, arrays: dict[str, np.ndarray]) -> FootstepSolution:
        values = np.asarray(arrays["values"], dtype=np.float64)
        if values.shape != (n + 1, n + 1, 2 * k + 1) or not np.isfinite(values).all():
            raise ValueError(f"the Footstep table for n = {n}, k = {k} has the wrong shape or holes")
        seconds, states, matrix_games, lp_games, lp_calls = (float(v) for v in arrays["stats"])
        mixes = tuple(
            SparseMixes(
                np.asarray(arrays[f"p{side}_ptr"], dtype=np.int64),
                np.asarray(arrays[f"p{side}_bids"], dtype=np.int64),
                np.asarray(arrays[f"p{side}_probabilities"], dtype=np.float64),
            )
            for side in (1, 2)
        )
        stats = SolveStats(seconds, int(states), int(matrix_games), int(lp_games), int(lp_calls))
        return cls(n, k, values, (mixes[0], mixes[1]), stats)

    # ---- questions

    def _state(self, position: FootstepPosition) -> int:
        x, y, z = position
        if not (0 <= x <= self.n and 0 <= y <= self.n and -self.k <= z <= self.k):
            raise ValueError(f"{position.text} is not a state of Footstep(n = {self.n}, k = {self.k})")
        return (x * (self.n + 1) + y) * (2 * self.k + 1) + z + self.k

    def value(self, position: FootstepPosition, side: Side = Side.P1) -> float:
        """``side``'s equilibrium score at ``position``, in points (-2..2)."""
        self._state(position)
        v = float(self.values[position.points1, position.points2, position.marker + self.k])
        return v if side is Side.P1 else -v

    def mix(self, position: FootstepPosition, side: Side) -> dict[int, float]:
        """``side``'s equilibrium bid distribution at ``position`` (bids with probability > 0 only)."""
        if abs(position.marker) >= self.k:
            return {}
        bids, probs = self.mixes[side].at(self._state(position))
        return {int(b): float(p) for b, p in zip(bids, probs, strict=True)}

    def mix_array(self, position: FootstepPosition, side: Side) -> FloatArray:
        """``mix`` as a dense array indexed by bid, 0..n."""
        out = np.zeros(self.n + 1)
        for bid, p in self.mix(position, side).items():
            out[bid] = p
        return out

    def stage_game(self, position: FootstepPosition) -> tuple[IntArray, IntArray, FloatArray]:
        """The matrix game at ``position``: player 1's bids, player 2's bids, and the successor values."""
        x, y, z = position
        games = _stage_games(self.values, self.k, x, y)
        return _bids(x), _bids(y), games[z + self.k - 1]

    def draw(self, position: FootstepPosition, side: Side, rng: random.Random) -> int:
        """A bid for ``side`` drawn from its equilibrium mix."""
        mix = self.mix(position, side)
        if not mix:
            raise ValueError(f"{position.text} is the end of the game: nobody bids")
        return rng.choices(list(mix), weights=list(mix.values()))[0]


_SOLVED: dict[tuple[int, int], FootstepSolution] = {}


def load_solution(
    n: int, k: int, progress: Progress | None = None, compiling: Compiling | None = None
) -> tuple[FootstepSolution, str]:
    """The solution of Footstep(n, k) and where it came from, loaded once per process (from the disk cache, or solved
    and saved; ``"memory"`` when this process had it already): the equilibrium player and the app share it.
    ``compiling``: as for ``FootstepSolution.load``."""
    if (n, k) in _SOLVED:
        return _SOLVED[(n, k)], "memory"
    solution, source = FootstepSolution.load(n, k, progress=progress, compiling=compiling)
    _SOLVED[(n, k)] = solution
    return solution, source


def solution_for(n: int, k: int) -> FootstepSolution:
    return load_solution(n, k)[0]


class FootstepEquilibriumPlayer:
    """Draws its bid from its equilibrium mix at the current state (the table for the view's ``n`` and ``k``)."""

    name = "equilibrium"

    def choose(self, view: FootstepView, rng: random.Random, limit: Limit | None = None) -> int:
        if view.own_points == 0:
            return 0
        return solution_for(view.n, view.k).draw(view.position, view.viewer, rng)

    def analyse(self, view: FootstepView, limit: Limit | None, rng: random.Random) -> Iterator[dict[int, float]]:
        """Exact at once: the viewer's equilibrium mix (bid -> probability)."""
        yield solution_for(view.n, view.k).mix(view.position, view.viewer)


def pure_commitment_values(n: int, k: int) -> FloatArray:
    """Player 1's value when it must commit to a pure bid each turn before player 2 chooses (shape like ``values``).

    A pure strategy is a function of the state, so an opponent who knows it answers each bid knowing it: this is the
    game where player 1 bids first in the open, ``W(x, y, z) = max_i min_j W(successor)``. The source claims every
    pure strategy loses by 2; ``W(n, n, 0) = -2`` shows it for the best pure strategy, hence for all.
    """
    w = _ends_table(n, k)
    for level in range(1, 2 * n + 1):
        for x in range(max(0, level - n), min(n, level) + 1):
            y = level - x
            w[x, y, 1:-1] = _stage_games(w, k, x, y).min(axis=2).max(axis=1)
    return w


@dataclass(frozen=True)
class VersusRandom:
    """Exact expected scores against the random player (uniform bid from 1 to its points), player 1's side."""

    equilibrium: FloatArray
    best_response: FloatArray
    #: The best response's bid at each state (the lowest of the best).
    best_bid: IntArray

    def at_start(self, n: int, k: int) -> tuple[float, float]:
        return float(self.equilibrium[n, n, k]), float(self.best_response[n, n, k])


def exact_vs_random(solution: FootstepSolution) -> VersusRandom:
    """Backward induction of player 1's expected score against a uniformly random player 2: with player 1 playing
    the equilibrium mix, and with player 1 playing the best response (a pure bid per state). Exact, not simulated.
    """
    n, k = solution.n, solution.k
    width = 2 * k + 1
    eq, br = _ends_table(n, k), _ends_table(n, k)
    best_bid = np.zeros((n + 1, n + 1, width), dtype=np.int64)
    markers = np.arange(1, 2 * k)
    mixes = solution.mixes[0]
    for level in range(1, 2 * n + 1):
        for x in range(max(0, level - n), min(n, level) + 1):
            y = level - x
            # The random player's bids are equally likely: average the successors over the columns.
            against_random_eq = _stage_games(eq, k, x, y).mean(axis=2)  # (markers, bids of x)
            against_random_br = _stage_games(br, k, x, y).mean(axis=2)
            ids = (x * (n + 1) + y) * width + markers
            lo, hi = mixes.ptr[ids], mixes.ptr[ids + 1]
            dense = np.zeros((len(markers), x + 1))
            for row, (a, b) in enumerate(zip(lo, hi, strict=True)):
                dense[row, mixes.bids[a:b]] = mixes.probabilities[a:b]
            bids = _bids(x)
            eq[x, y, 1:-1] = (dense[:, bids] * against_random_eq).sum(axis=1)
            best = np.argmax(against_random_br >= against_random_br.max(axis=1, keepdims=True) - TIE, axis=1)
            br[x, y, 1:-1] = against_random_br[np.arange(len(markers)), best]
            best_bid[x, y, 1:-1] = bids[best]
    return VersusRandom(eq, br, best_bid)


# --------------------------------------------------------------------------------------------------- compiled


def _gauss(matrix: FloatArray, rhs: FloatArray, m: int) -> bool:
    """Solve ``matrix[:m, :m] X = rhs`` in place (``rhs`` becomes X) by Gaussian elimination with partial pivoting;
    ``matrix`` is overwritten. False if a pivot is below 1e-14 (singular to rounding). Written out rather than
    ``np.linalg.solve``, whose compilation in numba costs some ten seconds."""
    columns = rhs.shape[1]
    for col in range(m):
        pivot = col
        for i in range(col + 1, m):
            if abs(matrix[i, col]) > abs(matrix[pivot, col]):
                pivot = i
        if abs(matrix[pivot, col]) < 1e-14:
            return False
        if pivot != col:
            for j in range(m):
                matrix[col, j], matrix[pivot, j] = matrix[pivot, j], matrix[col, j]
            for j in range(columns):
                rhs[col, j], rhs[pivot, j] = rhs[pivot, j], rhs[col, j]
        for i in range(col + 1, m):
            factor = matrix[i, col] / matrix[col, col]
            if factor != 0.0:
                for j in range(col, m):
                    matrix[i, j] -= factor * matrix[col, j]
                for j in range(columns):
                    rhs[i, j] -= factor * rhs[col, j]
    for i in range(m - 1, -1, -1):
        for j in range(columns):
            acc = rhs[i, j]
            for r in range(i + 1, m):
                acc -= matrix[i, r] * rhs[r, j]
            rhs[i, j] = acc / matrix[i, i]
    return True


def _pivot_to_optimum(tableau: FloatArray, basis: IntArray, m: int, n: int) -> bool:
    """Simplex pivots on the tableau (m constraint rows and the objective row, columns: n variables, m slacks, the
    right-hand side) until no reduced cost is negative. Bland's rule picks the entering column (the first with a
    negative reduced cost), so the many degenerate pivots of Footstep's tied games cannot cycle; Harris's ratio test
    picks the leaving row (the largest pivot among the rows whose ratio is within a small slack of the least), as
    pivots on tiny elements are what ruin a tableau's accuracy. False if it gave up."""
    width = n + m + 1
    rhs = n + m
    for _ in range(50 * (m + n) + 100):
        enter = -1
        for j in range(n + m):
            if tableau[m, j] < -1e-12:
                enter = j
                break
        if enter < 0:
            return True
        limit = np.inf
        for i in range(m):
            if tableau[i, enter] > 1e-9:
                limit = min(limit, (tableau[i, rhs] + 1e-9) / tableau[i, enter])
        leave = -1
        for i in range(m):
            if (
                tableau[i, enter] > 1e-9
                and tableau[i, rhs] / tableau[i, enter] <= limit
                and (leave < 0 or tableau[i, enter] > tableau[leave, enter])
            ):
                leave = i
        if leave < 0:
            return False
        pivot = tableau[leave, enter]
        for j in range(width):
            tableau[leave, j] /= pivot
        for i in range(m + 1):
            if i != leave:
                factor = tableau[i, enter]
                if factor != 0.0:
                    for j in range(width):
                        tableau[i, j] -= factor * tableau[leave, j]
                    if i < m and tableau[i, rhs] < 0.0:
                        tableau[i, rhs] = 0.0  # within the slack: rounding, not infeasibility
        basis[leave] = enter
    return False


def _simplex_game(
    a: FloatArray, m: int, n: int, tableau: FloatArray, basis: IntArray, x: FloatArray, y: FloatArray
) -> bool:
    """Solve the m x n game ``a[:m, :n]`` (the row player maximises) by the simplex method on a dense tableau.

    Karlin's form: with ``A' = A - min A + 1`` (all entries at least 1), the column player's programme is
    ``max 1^T q`` subject to ``A' q <= 1, q >= 0``; ``y = q / 1^T q``, and the row player's strategy is the dual
    ``p`` (the slacks' prices), normalised the same way. The tableau gathers rounding over the pivots, so the final
    basis ``B`` is solved afresh from the game (``B u = 1``, ``B^T p = c_B``) and checked: if that exact solution
    is not optimal and feasible to rounding, the tableau is rebuilt from ``B`` (``B^-1 [A' I 1]``) and the pivots
    go on. The answer is checked, not trusted: its exploitability must be at most ``EXPLOITABLE``. Writes ``x[:m]``
    and ``y[:n]``; False if it gave up (the caller then asks HiGHS).
    """
    low = a[0, 0]
    for i in range(m):
        for j in range(n):
            low = min(low, a[i, j])
    width = n + m + 1
    rhs = n + m
    for i in range(m + 1):
        for j in range(width):
            tableau[i, j] = 0.0
    for i in range(m):
        for j in range(n):
            tableau[i, j] = a[i, j] - low + 1.0
        tableau[i, n + i] = 1.0
        tableau[i, rhs] = 1.0
        basis[i] = n + i
    for j in range(n):
        tableau[m, j] = -1.0
    matrix = np.zeros((m, m))
    costs = np.zeros(m)
    whole = np.zeros((m, width))  # [A' I 1], for rebuilding the tableau
    for i in range(m):
        for j in range(n):
            whole[i, j] = a[i, j] - low + 1.0
        whole[i, n + i] = 1.0
        whole[i, rhs] = 1.0
    for _ in range(4):
        if not _pivot_to_optimum(tableau, basis, m, n):
            return False
        for i in range(m):
            for r in range(m):
                matrix[r, i] = whole[r, basis[i]]
            costs[i] = 1.0 if basis[i] < n else 0.0
        primal = np.ones((m, 1))
        dual = costs.reshape(m, 1).copy()
        # A singular basis means rounding has gone too far: HiGHS takes the game.
        if not (_gauss(matrix.copy(), primal, m) and _gauss(matrix.T.copy(), dual, m)):
            return False
        primal = primal[:, 0]
        dual = dual[:, 0]
        exact = True
        for i in range(m):
            if primal[i] < -1e-11 or dual[i] < -1e-11:
                exact = False
        for j in range(n):
            reduced = -1.0
            for i in range(m):
                reduced += dual[i] * whole[i, j]
            if reduced < -1e-11:
                exact = False
        if exact:
            break
        # Rebuild the tableau from the basis, exactly, and go on pivoting from there.
        rebuilt = whole.copy()
        if not _gauss(matrix.copy(), rebuilt, m):
            return False
        for i in range(m):
            for j in range(width):
                tableau[i, j] = rebuilt[i, j]
            tableau[i, rhs] = max(tableau[i, rhs], 0.0)
        for j in range(width):
            total = -1.0 if j < n else 0.0
            for i in range(m):
                total += dual[i] * whole[i, j]
            tableau[m, j] = total
    else:
        return False
    for j in range(n):
        y[j] = 0.0
    total = 0.0
    for i in range(m):
        if basis[i] < n:
            y[basis[i]] = max(primal[i], 0.0)
            total += y[basis[i]]
    prices = 0.0
    for i in range(m):
        x[i] = max(dual[i], 0.0)
        prices += x[i]
    if not (total > 0.0 and prices > 0.0):
        return False
    for j in range(n):
        y[j] /= total
    for i in range(m):
        x[i] /= prices
    # What the best replies to each strategy gain must meet (the exploitability, in payoff units).
    best_row = -np.inf
    for i in range(m):
        acc = 0.0
        for j in range(n):
            acc += a[i, j] * y[j]
        best_row = max(best_row, acc)
    best_col = np.inf
    for j in range(n):
        acc = 0.0
        for i in range(m):
            acc += x[i] * a[i, j]
        best_col = min(best_col, acc)
    return best_row - best_col <= EXPLOITABLE


def _footstep_level(
    values: FloatArray,
    n: int,
    k: int,
    level: int,
    tie: float,
    min_probability: float,
    mix1: FloatArray,
    mix2: FloatArray,
    failed: NDArray[np.bool_],
) -> int:
    """Every state ``(x, y, z)`` with ``x + y = level`` (and no goal reached), as ``FootstepSolution.compute`` did
    with numpy and HiGHS: the stage game from ``values`` (filled for lower levels), its saddle point when it has one
    (lowest bids first, ties within ``tie``), else its equilibrium by ``_simplex_game``. Writes ``values`` and each
    state's mixes (row ``(x - lowest x) * (2k - 1) + z + k - 1`` of ``mix1``, ``mix2``: probability by bid); marks
    in ``failed`` the states the simplex gave up on. Returns how many games needed the simplex."""
    x_low = max(0, level - n)
    games = 0
    size = n + 1
    a = np.empty((size, size))
    tableau = np.empty((size + 1, 2 * size + 1))
    basis = np.empty(size, dtype=np.int64)
    xs = np.empty(size)
    ys = np.empty(size)
    row_min = np.empty(size)
    col_max = np.empty(size)
    for x in range(x_low, min(n, level) + 1):
        y = level - x
        m = x if x > 0 else 1
        p = y if y > 0 else 1
        for z in range(1, 2 * k):
            state = (x - x_low) * (2 * k - 1) + z - 1
            if x == 0 and y == 0:
                mix1[state, 0] = 1.0
                mix2[state, 0] = 1.0
                continue
            for i in range(m):
                bid1 = i + 1 if x > 0 else 0
                for j in range(p):
                    bid2 = j + 1 if y > 0 else 0
                    step = 1 if bid1 > bid2 else (-1 if bid1 < bid2 else 0)
                    a[i, j] = values[x - bid1, y - bid2, z + step]
            for i in range(m):
                row_min[i] = a[i, 0]
                for j in range(1, p):
                    row_min[i] = min(row_min[i], a[i, j])
            for j in range(p):
                col_max[j] = a[0, j]
                for i in range(1, m):
                    col_max[j] = max(col_max[j], a[i, j])
            maximin = row_min[0]
            for i in range(1, m):
                maximin = max(maximin, row_min[i])
            minimax = col_max[0]
            for j in range(1, p):
                minimax = min(minimax, col_max[j])
            if minimax - maximin <= tie:
                row = 0
                while row_min[row] < maximin - tie:
                    row += 1
                col = 0
                while col_max[col] > minimax + tie:
                    col += 1
                values[x, y, z] = a[row, col]
                mix1[state, row + 1 if x > 0 else 0] = 1.0
                mix2[state, col + 1 if y > 0 else 0] = 1.0
                continue
            games += 1
            if not _simplex_game(a, m, p, tableau, basis, xs, ys):
                failed[state] = True
                continue
            # The value is the payoff of the strategies found (as ``solvers.matrix`` reports it); the mixes kept drop
            # probabilities below ``min_probability`` (rounding noise) and are normalised again.
            value = 0.0
            for i in range(m):
                for j in range(p):
                    value += xs[i] * a[i, j] * ys[j]
            values[x, y, z] = value
            total1 = 0.0
            for i in range(m):
                xs[i] = xs[i] if xs[i] > min_probability else 0.0
                total1 += xs[i]
            total2 = 0.0
            for j in range(p):
                ys[j] = ys[j] if ys[j] > min_probability else 0.0
                total2 += ys[j]
            for i in range(m):
                mix1[state, i + 1] = xs[i] / total1
            for j in range(p):
                mix2[state, j + 1] = ys[j] / total2
    return games


def warm_up_with_matrix() -> None:
    """The matrix games' kernels (``solvers.matrix``) and these: everything a compiled Footstep solve runs."""
    matrix.warm_up()
    warm_up()


def warm_up() -> None:
    """Import numba and compile (or load from the disk cache) the kernels of ``FootstepSolution.compute`` (for games
    from ``COMPILED_FROM`` stage games), for a caller to do in the background: a few seconds the first time on a
    machine, then a few tenths. Compiling happens at a kernel's first call, so this solves a tiny level."""
    _compiled()
    n, k = 2, 1
    values = _ends_table(n, k)
    mixes = np.zeros((1, n + 1)), np.zeros((1, n + 1))
    _footstep_level(values, n, k, 0, TIE, MIN_PROBABILITY, mixes[0], mixes[1], np.zeros(1, dtype=np.bool_))


def _settle_by_lp(game: FloatArray) -> tuple[float, FloatArray, FloatArray]:
    """A stage game the simplex gave up on: HiGHS on the game without its dominated bids (as ``compute_reference``
    does; without presolve if HiGHS fails with it), or the simplex's own answer where it is the less exploitable.
    None at (50, 4); at (100, 10), 24 of 49,439 games, whose values lie within 1e-8 of a goal's 2 points (a chance of
    1e-9 of anything else): there HiGHS and the simplex both answer within about 1e-8, and HiGHS sometimes fails."""
    m, p = game.shape
    candidates: list[tuple[float, FloatArray, FloatArray]] = []
    x, y = np.full(m, np.nan), np.full(p, np.nan)
    _simplex_game(np.ascontiguousarray(game), m, p, np.empty((m + 1, m + p + 1)), np.empty(m, np.int64), x, y)
    if np.isfinite(x).all() and np.isfinite(y).all():
        candidates.append((exploitability(game, x, y), x, y))
    keep_rows, keep_cols = undominated(game[None], TIE, rounds=1)
    for presolve in (True, False):
        try:
            solution = solve_lp(game[np.ix_(keep_rows[0], keep_cols[0])], presolve=presolve)
        except RuntimeError:
            continue
        row, col = np.zeros(m), np.zeros(p)
        row[keep_rows[0]], col[keep_cols[0]] = solution.row, solution.col
        candidates.append((exploitability(game, row, col), row, col))
        break
    if not candidates:
        raise RuntimeError(f"neither the simplex nor HiGHS could solve a {m}x{p} stage game")
    _, row, col = min(candidates, key=lambda candidate: candidate[0])
    return float(row @ game @ col), row, col


_KERNELS = ("_gauss", "_pivot_to_optimum", "_simplex_game", "_footstep_level")
_kernels_ready = False


def _compiled() -> None:
    global _kernels_ready
    if not _kernels_ready:
        compile_kernels(globals(), _KERNELS)
        _kernels_ready = True
