"""The Twice Clap Game solved: equilibrium values and strategies for any n, the source's tables, and the advisor.

The game is built as a ``MarkovGame`` by a vectorised transcription of ``spec/tcg.md``'s rules (a test checks it
against ``core.tcg.resolve_round``, the rules' reference implementation, on every state and round), with its
geometry: a nested-dissection order of the points grid for the LU, and the mirror (i1, i2) -> (i2, i1). ``solve_tcg``
solves it by Newton steps from the solution for about n/2, stretched (see ``solvers.markov.solve``).

Display of ``*`` (what the source prints): an action *keeps the value* when, played for sure, it guarantees the
state's value whatever the opponent does. The source marks ``*`` where the winner may play with its food: both
players have at least two value-keeping actions; then each player's value-keeping actions are shown as ``*``
(all four: the whole row is ``*``). Everywhere else the equilibrium probabilities are shown. This rule reproduces
every mark of the source's n = 3 table. The strategies the solver *plays* are another matter: in decided states the
winner plays an attractor strategy that makes progress (see ``solvers.markov``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from core.tcg import TcgAction, TcgView
from solvers.cache import load_or_build
from solvers.kernels_ready import Compiling, make_ready
from solvers.markov import COMPILED_FROM, WIN1, WIN2, Certificate, MarkovGame, MarkovSolution, Progress, certify, solve
from solvers.matrix import warm_up as matrix_warm_up
from solvers.players import Limit

ACTIONS: tuple[TcgAction, ...] = tuple(TcgAction)  # c, a, d, s: the index order of every array here
KEEP_TOLERANCE = 1e-9
#: Bump when the solver's output changes, so cached tables are rebuilt.
CACHE_VERSION = 2

# beats[i, j]: action i of one player beats action j of the other (the outcome table is antisymmetric).
_BEATS = np.zeros((4, 4), dtype=bool)
for _winner, _loser in (("a", "c"), ("s", "c"), ("s", "a"), ("s", "d")):
    _BEATS[ACTIONS.index(TcgAction(_winner)), ACTIONS.index(TcgAction(_loser))] = True


def state_index(n: int, i1: int, i2: int) -> int:
    return i1 * (n + 1) + i2


def build_game(n: int) -> MarkovGame:
    """All (n+1)^2 states and 16 rounds at once."""
    if n < 1:
        raise ValueError(f"n is the most points a player can hold, at least 1 (got {n})")
    points = np.arange(n + 1)
    i1 = np.repeat(points, n + 1)[:, None, None]
    i2 = np.tile(points, n + 1)[:, None, None]
    delta = np.array([1, -1, 0, -n])
    new1 = np.minimum(i1 + delta[None, :, None], n)  # charge is capped at n
    new2 = np.minimum(i2 + delta[None, None, :], n)
    shape = (points.size**2, 4, 4)
    new1, new2 = np.broadcast_to(new1, shape), np.broadcast_to(new2, shape)
    successor = np.where(new1 >= 0, new1, 0) * (n + 1) + np.where(new2 >= 0, new2, 0)
    beats1 = np.broadcast_to(_BEATS[None, :, :], shape)
    beats2 = np.broadcast_to(_BEATS.T[None, :, :], shape)
    successor = np.where(beats1, WIN1, successor)
    successor = np.where(beats2, WIN2, successor)
    # Overdrafts come before the outcome table: one negative loses; both negative restart from (0, 0).
    successor = np.where((new1 < 0) & (new2 >= 0), WIN2, successor)
    successor = np.where((new2 < 0) & (new1 >= 0), WIN1, successor)
    successor = np.where((new1 < 0) & (new2 < 0), 0, successor)
    mirror = (np.arange(n + 1)[None, :] * (n + 1) + np.arange(n + 1)[:, None]).ravel()  # (i1, i2) -> (i2, i1)
    return MarkovGame(np.ascontiguousarray(successor), order=nested_dissection(n), mirror=mirror)


def nested_dissection(n: int) -> np.ndarray:
    """An elimination order of the (n+1)^2 states for the policy evaluation's LU (``MarkovGame.order``).

    A round moves each player's points by at most one (a strong attack either ends the game or, both overdrawn,
    restarts it at (0, 0)), so the states form a grid whose moves join only neighbours, plus moves into (0, 0). Nested
    dissection: cut the grid by a middle line, order each half first (recursively, by the same rule) and the line
    last, so eliminating a half never fills in the other; (0, 0) comes last of all. Measured on the n = 1000 chain:
    117 million entries in the factors, 7 s, where SuperLU's own MMD_AT_PLUS_A ordering needs several times more.
    """
    side = n + 1
    parts: list[np.ndarray] = []

    def cut(r0: int, r1: int, c0: int, c1: int) -> None:
        height, width = r1 - r0, c1 - c0
        if height <= 0 or width <= 0:
            return
        if height * width <= 64:
            parts.append((np.arange(r0, r1)[:, None] * side + np.arange(c0, c1)[None, :]).ravel())
            return
        if height >= width:
            middle = (r0 + r1) // 2
            cut(r0, middle, c0, c1)
            cut(middle + 1, r1, c0, c1)
            parts.append(middle * side + np.arange(c0, c1))
        else:
            middle = (c0 + c1) // 2
            cut(r0, r1, c0, middle)
            cut(r0, r1, middle + 1, c1)
            parts.append(np.arange(r0, r1) * side + middle)

    cut(0, side, 0, side)
    order = np.concatenate(parts)
    return np.concatenate([order[order != 0], [0]])


#: Up to this n the solve starts from 1/2 everywhere (about n Newton steps, milliseconds each); above it, from the
#: solution for about n/2, stretched to the n-grid (``stretch``), which is solved the same way first.
COARSEST_N = 24
#: The coarser solutions are only starting points: this Bellman residual is enough for them.
COARSE_TOLERANCE = 1e-6
#: Newton steps allowed from a stretched start (5 or 6 are needed from n = 25 to 1000) before starting again from 1/2.
NEWTON_STEPS = 30


def coarse_sizes(n: int) -> list[int]:
    """The n of every solve that ``solve_tcg`` does for ``n``, coarsest first, ``n`` last (halving, rounded up)."""
    sizes = [n]
    while sizes[-1] > COARSEST_N:
        sizes.append((sizes[-1] + 1) // 2)
    return sizes[::-1]


def stretch(values: np.ndarray, n: int) -> np.ndarray:
    """A solution's values ((m+1) x (m+1), for m < n) stretched to the (n+1) x (n+1) grid, as a start for ``n``:
    bilinear interpolation at the points (i m / n, j m / n), then the decided border put right (n points against
    fewer wins; n against n is 1/2, the value of the restart). The map commutes with swapping the players, so the
    start keeps the game's symmetry V(i, j) = 1 - V(j, i)."""
    m = values.shape[0] - 1
    where = np.arange(n + 1) * m / n
    low = np.minimum(np.floor(where).astype(np.int64), m - 1)
    weight = where - low
    rows = values[low] * (1 - weight)[:, None] + values[low + 1] * weight[:, None]
    both = rows[:, low] * (1 - weight)[None, :] + rows[:, low + 1] * weight[None, :]
    both[n, :], both[:, n], both[n, n] = 1.0, 0.0, 0.5
    out: np.ndarray = both.ravel()
    return out


def nearest_states(m: int, n: int) -> np.ndarray:
    """For each state of the n-grid, the state of the m-grid nearest to it when stretched (``stretch``'s map)."""
    nearest = np.rint(np.arange(n + 1) * m / n).astype(np.int64)
    out: np.ndarray = (nearest[:, None] * (m + 1) + nearest[None, :]).ravel()
    return out


def solve_tcg(n: int, tolerance: float = 1e-14, progress: Progress | None = None) -> MarkovSolution:
    """TCG for ``n`` by Newton steps (``solvers.markov.solve``) from the solution for about n/2, itself solved so,
    down to ``COARSEST_N``, solved from 1/2. Each level's start is within about 0.1 of its solution, and then a
    handful of steps converge (n = 200: 7 at the finest level, against about n from 1/2).

    ``progress`` is told each step's count (all levels), Bellman residual (of the level being solved) and the share
    of the whole solve still to do: each level has a share of the whole as its expected cost, spent as its residual
    goes down on a log scale to its tolerance.
    """
    started = time.perf_counter()
    sizes = coarse_sizes(n)
    # A level's cost grows as its states to the power 1.3 (the LU's; measured: n = 500 took 7 s, n = 1000 42 s).
    weights = np.array([(size + 1) ** 2.6 for size in sizes], dtype=np.float64)
    weights /= weights.sum()
    steps = 0
    shown = [1.0]
    solution: MarkovSolution | None = None
    for level, size in enumerate(sizes):

        def tell(
            step: int,
            residual: float,
            left: float,
            before: int = steps,
            after: float = float(weights[level + 1 :].sum()),
            share: float = float(weights[level]),
        ) -> None:
            if progress is not None:
                shown[0] = min(shown[0], after + share * left)  # never back up, not even on a fresh start
                progress(before + step, residual, shown[0])

        last = size == n
        initial = hints = None
        if solution is not None:
            coarse = sizes[level - 1]
            initial = stretch(solution.values.reshape(coarse + 1, coarse + 1), size)
            nearest = nearest_states(coarse, size)
            hints = (solution.p1[nearest], solution.p2[nearest])
        tolerance_here = tolerance if last else max(tolerance, COARSE_TOLERANCE)
        game = build_game(size)
        limit = NEWTON_STEPS if initial is not None else 10_000
        solution = solve(game, tolerance_here, limit, progress=tell, initial=initial, hints=hints)
        if solution.residual > tolerance_here:
            # Newton's method converges from close enough, and nothing says how close: a start that leads nowhere
            # (never seen) falls back to 1/2 everywhere, the old start, from which it always got there.
            steps += solution.sweeps
            solution = solve(game, tolerance_here, progress=tell)
        steps += solution.sweeps
    assert solution is not None
    return MarkovSolution(
        solution.values, solution.p1, solution.p2, solution.residual, steps, time.perf_counter() - started
    )


@dataclass(frozen=True)
class StateAdvice:
    """One state as the table and the advisor show it."""

    i1: int
    i2: int
    value: float  # player 1's win probability
    p1: np.ndarray  # the strategy player 1 plays (progress-making)
    p2: np.ndarray
    keeps1: np.ndarray  # bool per action: keeps the value for sure
    keeps2: np.ndarray
    any1: bool  # show player 1's whole row as '*'
    any2: bool
    star1: bool  # show player 1's value-keeping actions as '*'
    star2: bool

    @property
    def text(self) -> str:
        return f"{self.i1},{self.i2}"


@dataclass(frozen=True)
class TcgSolution:
    n: int
    game: MarkovGame
    solution: MarkovSolution

    @classmethod
    def compute(cls, n: int, tolerance: float = 1e-14, progress: Progress | None = None) -> TcgSolution:
        return cls(n, build_game(n), solve_tcg(n, tolerance=tolerance, progress=progress))

    @classmethod
    def load(
        cls, n: int, use_cache: bool = True, progress: Progress | None = None, compiling: Compiling | None = None
    ) -> tuple[TcgSolution, str]:
        """The solution for ``n`` from the disk cache (built and saved when missing or corrupt), and where it
        came from (see ``solvers.cache.Loaded.source``). A solve large enough for the compiled stage games first
        makes their kernels ready, telling ``compiling`` while they compile (the first time on a machine)."""

        def build() -> dict[str, np.ndarray]:
            if (n + 1) ** 2 >= COMPILED_FROM:
                make_ready("matrix", matrix_warm_up, compiling)
            fresh = cls.compute(n, progress=progress).solution
            return {
                "values": fresh.values,
                "p1": fresh.p1,
                "p2": fresh.p2,
                "stats": np.array([fresh.residual, fresh.sweeps, fresh.seconds]),
            }

        loaded = load_or_build("tcg", {"n": n}, build, version=CACHE_VERSION, use_cache=use_cache)
        arrays = loaded.arrays
        residual, sweeps, seconds = (float(x) for x in arrays["stats"])
        solution = MarkovSolution(arrays["values"], arrays["p1"], arrays["p2"], residual, int(sweeps), seconds)
        return cls(n, build_game(n), solution), loaded.source

    @property
    def values(self) -> np.ndarray:
        """Player 1's win probability, shape (n+1, n+1): row = player 1's points, column = player 2's."""
        return self.solution.values.reshape(self.n + 1, self.n + 1)

    def value(self, i1: int, i2: int) -> float:
        return float(self.solution.values[state_index(self.n, i1, i2)])

    @cached_property
    def certificate(self) -> Certificate:
        return certify(self.game, self.solution.p1, self.solution.p2)

    @cached_property
    def stages(self) -> np.ndarray:
        """Every state's stage game at the solved values, built once: the tables ask ``advice`` for every state, and
        building all (n+1)^2 stage games per call made them quartic in n (n = 100: 2 s for the JSON, n = 200: 35 s)."""
        return self.game.stage_matrices(self.solution.values)

    def advice(self, i1: int, i2: int) -> StateAdvice:
        if not (0 <= i1 <= self.n and 0 <= i2 <= self.n):
            raise ValueError(f"points are 0..{self.n}; got {i1},{i2}")
        s = state_index(self.n, i1, i2)
        value = float(self.solution.values[s])
        stage = self.stages[s]
        keeps1 = stage.min(axis=1) >= value - KEEP_TOLERANCE
        keeps2 = stage.max(axis=0) <= value + KEEP_TOLERANCE
        playing_with_food = keeps1.sum() >= 2 and keeps2.sum() >= 2
        return StateAdvice(
            i1,
            i2,
            value,
            self.solution.p1[s],
            self.solution.p2[s],
            keeps1,
            keeps2,
            any1=bool(playing_with_food and keeps1.all()),
            any2=bool(playing_with_food and keeps2.all()),
            star1=bool(playing_with_food),
            star2=bool(playing_with_food),
        )

    def draw(self, i1: int, i2: int, player: int, rng: random.Random) -> TcgAction:
        """One action drawn from the equilibrium strategy of ``player`` (1 or 2) in state (i1, i2)."""
        advice = self.advice(i1, i2)
        mix = advice.p1 if player == 1 else advice.p2
        return rng.choices(ACTIONS, weights=list(mix))[0]


_SOLVED: dict[int, TcgSolution] = {}


def load_solution(
    n: int, progress: Progress | None = None, compiling: Compiling | None = None
) -> tuple[TcgSolution, str]:
    """The solution of the Twice Clap Game for ``n`` and where it came from, loaded once per process (from the
    disk cache, or solved and saved; ``"memory"`` when this process had it already): the equilibrium player and the
    app share it. ``compiling``: as for ``TcgSolution.load``."""
    if n in _SOLVED:
        return _SOLVED[n], "memory"
    solution, source = TcgSolution.load(n, progress=progress, compiling=compiling)
    _SOLVED[n] = solution
    return solution, source


def solution_for(n: int) -> TcgSolution:
    return load_solution(n)[0]


class TcgEquilibriumPlayer:
    """Draws its action from its equilibrium mix at the current state (the table for the view's ``n``)."""

    name = "equilibrium"

    def choose(self, view: TcgView, rng: random.Random, limit: Limit | None = None) -> TcgAction:
        i1, i2 = view.points
        return solution_for(view.n).draw(i1, i2, view.viewer.number, rng)

    def analyse(self, view: TcgView, limit: Limit | None, rng: random.Random) -> Iterator[StateAdvice]:
        """Exact at once: the state's value and both players' mixes."""
        yield solution_for(view.n).advice(*view.points)


# --------------------------------------------------------------------------------------------------- formatting


def round_like_source(x: float) -> str:
    """Two decimals without trailing zeros, as the source prints (0.3, 0.47, 1, 0)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def strategy_cells(advice: StateAdvice, player: int) -> list[str]:
    mix = advice.p1 if player == 1 else advice.p2
    keeps = advice.keeps1 if player == 1 else advice.keeps2
    star = advice.star1 if player == 1 else advice.star2
    if star:
        return ["*" if k else "0" for k in keeps]
    return [round_like_source(float(p)) for p in mix]


def strategy_table(solution: TcgSolution) -> str:
    """The source's first table: strategies for i1 <= i2."""
    header = f"{'i1':>3} {'i2':>3}   {'player 1 (c / a / d / s)':<28} {'player 2 (c / a / d / s)':<28}"
    lines = [header, "-" * len(header)]
    for i1 in range(solution.n + 1):
        for i2 in range(i1, solution.n + 1):
            advice = solution.advice(i1, i2)
            cells = []
            for player in (1, 2):
                any_ = advice.any1 if player == 1 else advice.any2
                cells.append("*" if any_ else " / ".join(strategy_cells(advice, player)))
            lines.append(f"{i1:>3} {i2:>3}   {cells[0]:<28} {cells[1]:<28}")
    return "\n".join(lines)


def value_table(solution: TcgSolution) -> str:
    """The source's second table: player 1's win probability (row: player 1's points; column: player 2's)."""
    n = solution.n
    width = 5
    lines = [" " * 4 + "".join(f"{j:>{width}}" for j in range(n + 1))]
    for i in range(n + 1):
        cells = "".join(f"{round_like_source(solution.value(i, j)):>{width}}" for j in range(n + 1))
        lines.append(f"{i:>3} " + cells)
    return "\n".join(lines)


def to_json(solution: TcgSolution) -> dict[str, object]:
    states = []
    for i1 in range(solution.n + 1):
        for i2 in range(solution.n + 1):
            advice = solution.advice(i1, i2)
            states.append(
                {
                    "state": advice.text,
                    "value": advice.value,
                    "p1": {a.value: float(p) for a, p in zip(ACTIONS, advice.p1, strict=True)},
                    "p2": {a.value: float(p) for a, p in zip(ACTIONS, advice.p2, strict=True)},
                    "any": {"p1": advice.any1, "p2": advice.any2},
                }
            )
    cert = solution.certificate
    return {
        "n": solution.n,
        "states": states,
        "residual": solution.solution.residual,
        "error_bound": cert.gap,
        "seconds": solution.solution.seconds,
    }


__all__ = [
    "ACTIONS",
    "WIN2",
    "StateAdvice",
    "TcgSolution",
    "build_game",
    "round_like_source",
    "strategy_table",
    "to_json",
    "value_table",
]
