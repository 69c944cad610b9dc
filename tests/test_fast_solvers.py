"""The fast TCG solver against the one it replaced, and its parts against their definitions: the hinted and compiled
stage-game enumerations against ``solve_batch`` and HiGHS, the coarse start, the elimination order.

Both solvers are computed here, in the test (nothing stored is read back); the full n = 2..200 comparison is in
``benchmarks/tcg.py --compare``, which takes minutes.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solvers import markov, matrix
from solvers.markov import WIN1, WIN2, MarkovGame, evaluate, share_left, solve, solve_by_sweeps
from solvers.matrix import solve_batch, solve_batch_compiled, solve_batch_hinted, solve_lp, support_masks
from solvers.tcg import COARSEST_N, build_game, coarse_sizes, nested_dissection, solve_tcg, stretch

ROOT = Path(__file__).resolve().parents[1]

# The compiled kernels (numba) compile once per process that first calls them, some seconds each: their tests share
# one worker with test_footstep_solver's compiled ones, so a run compiles them once, not once per worker.
pytestmark = pytest.mark.xdist_group("compiled-solvers")


@pytest.mark.parametrize("n", [2, 3, 7, COARSEST_N, COARSEST_N + 1, 37, 50])
def test_tcg_values_and_strategies_equal_the_reference_solver(n: int) -> None:
    """Newton steps from the stretched coarser solution land on the fixed point of the sweeps from 1/2."""
    fast = solve_tcg(n)
    reference = solve_by_sweeps(build_game(n))
    assert fast.residual <= 1e-14 and reference.residual <= 1e-14
    np.testing.assert_allclose(fast.values, reference.values, rtol=0, atol=1e-9)
    # The strategies come from the same tie-break at the same values.
    np.testing.assert_allclose(fast.p1, reference.p1, rtol=0, atol=1e-9)
    np.testing.assert_allclose(fast.p2, reference.p2, rtol=0, atol=1e-9)


def test_newton_from_a_start_near_the_solution_takes_a_handful_of_steps() -> None:
    """From 1/2 everywhere TCG n = 40 needs about n steps; from the n = 20 solution stretched, a handful."""
    coarse = solve_tcg(20).values.reshape(21, 21)
    start = stretch(coarse, 40)
    reference = solve_by_sweeps(build_game(40))
    fast = solve(build_game(40), initial=start)
    assert fast.sweeps <= 8 < 30 <= reference.sweeps
    np.testing.assert_allclose(fast.values, reference.values, rtol=0, atol=1e-9)


def test_stretch_keeps_the_symmetry_and_the_decided_border() -> None:
    values = solve_tcg(12).values.reshape(13, 13)
    start = stretch(values, 25).reshape(26, 26)
    np.testing.assert_allclose(start + start.T, 1.0, atol=1e-15)
    assert np.all(start[25, :25] == 1.0) and np.all(start[:25, 25] == 0.0) and start[25, 25] == 0.5
    assert start[0, 0] == values[0, 0] and start[24, 0] == pytest.approx(values[12, 0] * 0.04 + values[11, 0] * 0.96)
    assert coarse_sizes(200) == [13, 25, 50, 100, 200] and coarse_sizes(COARSEST_N) == [COARSEST_N]


@pytest.mark.parametrize("n", [1, 2, 9, 30])
def test_the_elimination_order_is_a_permutation_that_changes_nothing(n: int) -> None:
    order = nested_dissection(n)
    assert sorted(order.tolist()) == list(range((n + 1) ** 2)) and order[-1] == 0
    game = build_game(n)
    rng = np.random.default_rng(n)
    rows = rng.dirichlet(np.ones(4), size=game.states)
    cols = rng.dirichlet(np.ones(4), size=game.states)
    fallback = rng.random(game.states)
    plain = evaluate(MarkovGame(game.successor), rows, cols, fallback)
    np.testing.assert_allclose(evaluate(game, rows, cols, fallback), plain, rtol=0, atol=1e-12)


def test_evaluation_in_order_keeps_the_fallback_where_play_never_ends() -> None:
    """Both defend at (1, 1) for ever: no end is reachable from it, its value stays the fallback's, and states that
    lead into it use that value."""
    n = 3
    game = build_game(n)
    rows = np.tile([1.0, 0, 0, 0], (game.states, 1))  # charge
    cols = rows.copy()
    stall = 1 * (n + 1) + 1
    rows[stall] = cols[stall] = [0, 0, 1.0, 0]
    fallback = np.full(game.states, 0.25)
    plain = evaluate(MarkovGame(game.successor), rows, cols, fallback)
    ordered = evaluate(game, rows, cols, fallback)
    assert ordered[stall] == 0.25
    np.testing.assert_allclose(ordered, plain, rtol=0, atol=1e-12)


def test_the_share_left_runs_from_one_to_none_on_a_log_scale() -> None:
    assert share_left(1e-1, 1e-1, 1e-9) == 1.0
    assert share_left(1e-1, 1e-5, 1e-9) == pytest.approx(0.5)
    assert share_left(1e-1, 1e-9, 1e-9) == 0.0
    assert share_left(1e-3, 1e-2, 1e-9) == 1.0  # a residual above the first: nothing done yet


def games_of_every_small_shape(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    batches = []
    for m in range(1, 6):
        for n in range(1, 6):
            batches.append(
                np.concatenate(
                    [
                        rng.normal(size=(120, m, n)) * 10.0 ** rng.integers(-6, 7, size=(120, 1, 1)),
                        rng.integers(-1, 2, size=(120, m, n)).astype(float),  # heavily degenerate
                        rng.integers(0, 2, size=(60, m, n)).astype(float) * 1e6,
                    ]
                )
            )
    return batches


def random_hints(rng: np.random.Generator, k: int, m: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Any supports at all, of equal or unequal sizes, some empty: hints are only tried, never trusted."""
    return rng.integers(0, 1 << m, size=k), rng.integers(0, 1 << n, size=k)


def test_hinted_enumeration_is_solve_batch_whatever_the_hints() -> None:
    rng = np.random.default_rng(7)
    for games in games_of_every_small_shape(3):
        k, m, n = games.shape
        expected = solve_batch(games)
        _, rows, cols = expected
        for hints in (random_hints(rng, k, m, n), (support_masks(rows), support_masks(cols))):
            got = solve_batch_hinted(games, *hints)
            for a, b in zip(got, expected, strict=True):
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * np.abs(games).max())


def test_hinted_enumeration_without_exact_keeps_a_valid_hinted_equilibrium() -> None:
    # Matching pennies padded with a copy of each action: four equilibria on 2 x 2 supports; the hint names the last.
    game = np.array([[1.0, 1, -1, -1], [1, 1, -1, -1], [-1, -1, 1, 1], [-1, -1, 1, 1]])
    hint = np.array([0b1010]), np.array([0b1010])
    _, rows, cols = solve_batch_hinted(game[None], *hint, exact=False)
    np.testing.assert_allclose(rows[0], [0, 0.5, 0, 0.5])
    np.testing.assert_allclose(cols[0], [0, 0.5, 0, 0.5])
    _, rows, cols = solve_batch_hinted(game[None], *hint)  # exact: the tie-break's, the lowest pair
    np.testing.assert_allclose(rows[0], solve_batch(game[None])[1][0])


def test_compiled_enumeration_is_solve_batch_and_agrees_with_highs() -> None:
    rng = np.random.default_rng(11)
    for games in games_of_every_small_shape(5):
        k, m, n = games.shape
        expected = solve_batch(games)
        scale = 1e-12 * np.abs(games).max()
        for hints in (
            (None, None),
            random_hints(rng, k, m, n),
            (support_masks(expected[1]), support_masks(expected[2])),
        ):
            got = solve_batch_compiled(games, *hints)
            for a, b in zip(got, expected, strict=True):
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=scale)
        values = got[0]
        for g in range(0, k, 50):  # a sample against one HiGHS LP each
            lp = solve_lp(games[g])
            assert values[g] == pytest.approx(lp.value, abs=1e-9 * max(1.0, np.ptp(games[g])))


def test_compiled_enumeration_on_tcg_stage_games_with_last_steps_supports() -> None:
    game = build_game(70)  # over COMPILED_FROM states: the solve itself goes through the compiled kernel
    values = solve_tcg(70, tolerance=1e-9).values
    stages = game.stage_matrices(values)
    expected = solve_batch(stages)
    hinted = solve_batch_compiled(stages, support_masks(expected[1]), support_masks(expected[2]))
    for a, b in zip(hinted, expected, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-13)


def test_solving_imports_numba_only_for_large_games() -> None:
    """Small solves (the app's usual n) never pay for numba; importing the solvers never does."""
    code = (
        "import sys\n"
        "import solvers.tcg, solvers.footstep, solvers.markov, solvers.matrix\n"
        "assert 'numba' not in sys.modules, 'imported'\n"
        "solvers.tcg.solve_tcg(20)\n"
        "assert 'numba' not in sys.modules, 'solved n = 20'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert matrix.MAX_ENUMERATION_SIZE == 5


def avoidable_by_sweeps(successor: np.ndarray, support: np.ndarray, target: int) -> np.ndarray:
    """The definition, as ``certify`` computed it before: the greatest fixed point, by whole sweeps."""
    s_count = successor.shape[0]
    safe = np.ones(s_count + 2, dtype=bool)
    safe[target] = False
    while True:
        keep = np.where(support[:, :, None], safe[successor], True).all(axis=1).any(axis=1)
        if np.array_equal(keep, safe[:s_count]):
            return safe
        safe[:s_count] = keep


@pytest.mark.parametrize("seed", range(6))
def test_the_avoidable_states_are_the_greatest_fixed_point(seed: int) -> None:
    rng = np.random.default_rng(seed)
    states = int(rng.integers(1, 60))
    successor = rng.integers(-2, states, size=(states, 3, 4))
    support = rng.random((states, 3)) < rng.uniform(0.2, 0.9)
    for target in (WIN1, WIN2):
        np.testing.assert_array_equal(
            markov._can_avoid(successor, support, target), avoidable_by_sweeps(successor, support, target)
        )


def test_warm_up_compiles_what_the_large_solves_use() -> None:
    """``warm_up`` is what a screen can call in the background: afterwards the solves start at once."""
    from solvers import footstep

    matrix.warm_up()
    footstep.warm_up()
    assert matrix._kernels_ready and footstep._kernels_ready
    assert footstep._footstep_level.signatures and matrix._enumerate_kernel.signatures  # compiled, not just wrapped


def test_a_start_that_leads_nowhere_falls_back_to_one_half(monkeypatch: pytest.MonkeyPatch) -> None:
    """Newton's method from a bad start can wander (seen from an extrapolated start: hundreds of steps through
    near-degenerate stage games); after ``NEWTON_STEPS`` the level starts again from 1/2 and still lands on the
    reference's values, with a share left that never backs up."""
    from solvers import tcg

    rng = np.random.default_rng(3)
    monkeypatch.setattr(tcg, "NEWTON_STEPS", 2)
    monkeypatch.setattr(tcg, "stretch", lambda values, n: rng.random((n + 1) ** 2))
    lefts: list[float] = []
    fast = solve_tcg(30, progress=lambda step, residual, left: lefts.append(left))
    reference = solve_by_sweeps(build_game(30))
    np.testing.assert_allclose(fast.values, reference.values, rtol=0, atol=1e-9)
    assert all(later <= earlier for earlier, later in itertools.pairwise(lefts)) and lefts[-1] == 0.0


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_the_mirror_swaps_the_players(n: int) -> None:
    """``MarkovGame.mirror``'s promise, for TCG: the game at (i2, i1) is the game at (i1, i2) with the players'
    roles swapped (moves mirrored, wins swapped)."""
    game = build_game(n)
    assert game.mirror is not None
    mirror = game.mirror
    assert np.array_equal(mirror[mirror], np.arange(game.states))
    swapped = np.where(game.successor == WIN1, WIN2, np.where(game.successor == WIN2, WIN1, mirror[game.successor]))
    np.testing.assert_array_equal(game.successor[mirror].transpose(0, 2, 1), swapped)


def test_the_folded_evaluation_is_the_unfolded_one_for_symmetric_strategies() -> None:
    game = build_game(20)
    assert game.mirror is not None
    rng = np.random.default_rng(1)
    rows = rng.dirichlet(np.ones(4), size=game.states)
    rows[rng.random(game.states) < 0.3, 3] = 0.0  # some supports without the strong attack
    rows /= rows.sum(axis=1, keepdims=True)
    cols = rows[game.mirror]
    fallback = rng.random(game.states)
    fallback = (fallback + 1 - fallback[game.mirror]) / 2
    plain = evaluate(MarkovGame(game.successor), rows, cols, fallback)
    folded = evaluate(game, rows, cols, fallback)
    np.testing.assert_allclose(folded, plain, rtol=0, atol=1e-12)
    np.testing.assert_allclose(folded + folded[game.mirror], 1.0, atol=1e-12)


def test_time_left_comes_from_the_share_done_and_the_time_taken() -> None:
    from solvers.eta import TimeLeft

    now = [100.0]
    eta = TimeLeft(now=lambda: now[0])
    assert eta.text(0.01) == ""  # too early to tell
    now[0] = 110.0
    assert eta.seconds(0.25) == 30.0 and eta.text(0.25) == "about 30 s left"
    assert eta.text(0.05) == "about 3 min left" and eta.text(0.999) == "under a second left" and eta.text(1.0) == ""
