"""Footstep's exact solver against independent computation: plain per-state LPs (primal and dual), the symmetry of
the game, closed forms for a player out of points, and simulation for the exact scores against random."""

from __future__ import annotations

import random

import numpy as np
import pytest

from core.footstep import FootstepPosition, FootstepState, legal_bids
from core.game import Side
from solvers import cache, footstep
from solvers.footstep import CACHE_VERSION, FootstepSolution, exact_vs_random, pure_commitment_values
from solvers.matrix import exploitability, solve_lp

#: Tests of the compiled simplex (numba): on the worker of test_fast_solvers, so a run compiles the kernels once.
compiled = pytest.mark.xdist_group("compiled-solvers")


@pytest.fixture(scope="module")
def simplified() -> FootstepSolution:
    return FootstepSolution.compute(20, 3)


@pytest.fixture(scope="module")
def standard() -> FootstepSolution:
    return FootstepSolution.compute(50, 4)


def plain_values(n: int, k: int) -> dict[tuple[int, int, int], float]:
    """The definition, one state at a time: every stage game solved whole by its own LP, no batching, no pruning."""
    values: dict[tuple[int, int, int], float] = {}

    def value(x: int, y: int, z: int) -> float:
        if z >= k:
            return 2.0
        if z <= -k:
            return -2.0
        if x == 0 and y == 0:
            return float(np.sign(z))
        if (x, y, z) not in values:
            b1, b2 = legal_bids(x), legal_bids(y)
            a = np.array([[value(x - i, y - j, z + (i > j) - (i < j)) for j in b2] for i in b1])
            primal = solve_lp(a).value
            dual = -solve_lp(-a.T).value  # the column player's own LP
            assert primal == pytest.approx(dual, abs=1e-9)
            values[(x, y, z)] = primal
        return values[(x, y, z)]

    for x in range(n + 1):
        for y in range(n + 1):
            for z in range(-k + 1, k):
                value(x, y, z)
    return values


@pytest.mark.parametrize(("n", "k"), [(6, 1), (7, 2), (9, 3)])
def test_values_match_one_plain_lp_per_state(n: int, k: int) -> None:
    solution = FootstepSolution.compute(n, k)
    for (x, y, z), expected in plain_values(n, k).items():
        assert solution.value(FootstepPosition(x, y, z)) == pytest.approx(expected, abs=1e-8), (x, y, z)


def test_every_stored_mix_is_an_equilibrium_of_its_stage_game(simplified: FootstepSolution) -> None:
    n, k = simplified.n, simplified.k
    worst = 0.0
    for x in range(n + 1):
        for y in range(n + 1):
            for z in range(-k + 1, k):
                position = FootstepPosition(x, y, z)
                b1, b2, a = simplified.stage_game(position)
                row = simplified.mix_array(position, Side.P1)[b1]
                col = simplified.mix_array(position, Side.P2)[b2]
                assert row.sum() == pytest.approx(1.0) and col.sum() == pytest.approx(1.0)
                assert float(row @ a @ col) == pytest.approx(simplified.value(position), abs=1e-8)
                worst = max(worst, exploitability(a, row, col))
    assert worst < 1e-8


@compiled
@pytest.mark.parametrize("size", ["simplified", "standard"])
def test_start_value_is_zero_and_the_game_is_symmetric(size: str, request: pytest.FixtureRequest) -> None:
    solution: FootstepSolution = request.getfixturevalue(size)
    n, k = solution.n, solution.k
    assert solution.value(FootstepPosition(n, n, 0)) == pytest.approx(0.0, abs=1e-9)
    v = solution.values
    # V(x, y, z) = -V(y, x, -z): swap the players, mirror the marker.
    assert np.allclose(v, -v.transpose(1, 0, 2)[:, :, ::-1], atol=1e-8)
    # And the first-turn mixes of the two players are the same.
    start = FootstepPosition(n, n, 0)
    p1, p2 = solution.mix(start, Side.P1), solution.mix(start, Side.P2)
    assert p1.keys() == p2.keys()
    assert all(p1[b] == pytest.approx(p2[b], abs=1e-6) for b in p1)
    assert solution.stats.matrix_games == n * n * (2 * k - 1)


@compiled
def test_standard_game_first_turn_is_mixed(standard: FootstepSolution) -> None:
    mix = standard.mix(FootstepPosition(50, 50, 0), Side.P1)
    assert len(mix) > 1 and sum(mix.values()) == pytest.approx(1.0)
    assert max(mix.values()) < 0.5  # no bid is close to pure: the point of the source's section 5


def test_a_player_without_points_loses_every_remaining_turn(simplified: FootstepSolution) -> None:
    k = simplified.k
    for y in range(simplified.n + 1):
        for z in range(-k + 1, k):
            # Player 2 bids 1 each turn and moves the marker toward player 1's goal until it or its points run out.
            end = z - y
            expected = -2.0 if end <= -k else float(np.sign(end))
            assert simplified.value(FootstepPosition(0, y, z)) == expected
            if y:
                assert simplified.mix(FootstepPosition(0, y, z), Side.P2) == {1: 1.0}
                assert simplified.mix(FootstepPosition(0, y, z), Side.P1) == {0: 1.0}


@pytest.mark.parametrize(("n", "k"), [(20, 3), (50, 4)])
def test_every_pure_strategy_loses_by_two(n: int, k: int) -> None:
    # The source's section-5 claim, computed: committing to a pure bid first, player 1 loses by 2 from the start.
    assert pure_commitment_values(n, k)[n, n, k] == -2.0


def test_pure_commitment_argument_of_the_source_on_a_sample_strategy() -> None:
    # The source's counter-strategy beats "always bid 3" (f_i < 5 for three turns): bid f_i + 1 three times.
    state = FootstepState(20, 3)
    while not state.is_terminal():
        state.apply_joint((3, 4))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is Side.P2 and outcome.returns()[1] == 2


def test_exact_scores_against_random_agree_with_simulation(simplified: FootstepSolution) -> None:
    versus = exact_vs_random(simplified)
    n, k = simplified.n, simplified.k
    equilibrium, best = versus.at_start(n, k)
    assert 0 < equilibrium < best <= 2
    # The best response is at least as good as the equilibrium everywhere.
    assert np.all(versus.best_response >= versus.equilibrium - 1e-9)
    rng = np.random.default_rng(3)
    py_rng = random.Random(3)
    for exact, player in ((equilibrium, "equilibrium"), (best, "best")):
        scores = []
        for _ in range(3000):
            state = FootstepState(n, k)
            while not state.is_terminal():
                pos = state.position
                if player == "equilibrium":
                    mine = simplified.draw(pos, Side.P1, py_rng)
                else:
                    mine = int(versus.best_bid[pos.points1, pos.points2, pos.marker + k])
                theirs = int(rng.integers(1, pos.points2 + 1)) if pos.points2 else 0
                state.apply_joint((mine, theirs))
            scores.append(state.returns()[0])
        mean, half = np.mean(scores), 1.96 * np.std(scores) / np.sqrt(len(scores))
        assert abs(mean - exact) < max(half, 0.02) * 1.5, (player, mean, exact)


def test_cache_round_trip_and_corrupt_table_is_rebuilt() -> None:
    first, source = FootstepSolution.load(6, 2)
    assert source == "built"
    again, source = FootstepSolution.load(6, 2)
    assert source == "cache"
    assert np.array_equal(first.values, again.values)
    position = FootstepPosition(4, 5, 1)
    assert first.mix(position, Side.P1) == again.mix(position, Side.P1)
    path = cache.table_path("footstep", {"n": 6, "k": 2}, CACHE_VERSION)
    path.write_bytes(path.read_bytes()[:100])
    rebuilt, source = FootstepSolution.load(6, 2)
    assert source.startswith("rebuilt")
    assert np.array_equal(first.values, rebuilt.values)


def test_states_outside_the_game_are_refused(simplified: FootstepSolution) -> None:
    with pytest.raises(ValueError, match="not a state"):
        simplified.value(FootstepPosition(21, 3, 0))
    with pytest.raises(ValueError, match="at least 1"):
        FootstepSolution.compute(0, 3)


@compiled
@pytest.mark.parametrize(("n", "k"), [(25, 4), (30, 5)])
def test_values_equal_the_reference_solver(n: int, k: int) -> None:
    """The compiled simplex against the solver it replaced (numpy, dominance, HiGHS block LPs): the same values to
    1e-12 at every state (``benchmarks/footstep.py`` checks (50, 4) too). Smaller games go the reference's way."""
    assert n * n * (2 * k - 1) >= footstep.COMPILED_FROM
    fast = FootstepSolution.compute(n, k)
    reference = FootstepSolution.compute_reference(n, k)
    np.testing.assert_allclose(fast.values, reference.values, rtol=0, atol=1e-12)
    assert fast.stats.lp_games == reference.stats.lp_games  # the same games were not saddle points
    assert fast.stats.lp_calls == 0  # and the simplex solved them all


@compiled
def test_the_simplex_solves_random_and_degenerate_games_as_highs_does() -> None:
    footstep._compiled()
    rng = np.random.default_rng(4)
    for m, n in [(1, 1), (1, 5), (5, 1), (2, 2), (3, 7), (8, 3), (12, 12), (30, 25)]:
        for games in (rng.normal(size=(20, m, n)), rng.integers(-1, 2, size=(20, m, n)).astype(float)):
            for game in games:
                x, y = np.full(m, np.nan), np.full(n, np.nan)
                tableau, basis = np.empty((m + 1, m + n + 1)), np.empty(m, np.int64)
                assert footstep._simplex_game(np.ascontiguousarray(game), m, n, tableau, basis, x, y)
                assert x.sum() == pytest.approx(1.0) and y.sum() == pytest.approx(1.0)
                assert np.all(x >= 0) and np.all(y >= 0)
                assert exploitability(game, x, y) <= footstep.EXPLOITABLE
                assert float(x @ game @ y) == pytest.approx(solve_lp(game).value, abs=1e-9)


@compiled
def test_a_game_the_simplex_gives_up_on_goes_to_highs() -> None:
    """The safety net, called directly (the simplex has not given up below n = 100): HiGHS on the game without its
    dominated bids, or the simplex's answer if that is less exploitable; either way an equilibrium."""
    game = np.array([[2.0, 1.0, 0.5], [0.0, 3.0, 1.0], [1.0, 1.0, 0.0]])  # row 2 is dominated by row 0
    value, row, col = footstep._settle_by_lp(game)
    assert value == pytest.approx(solve_lp(game).value, abs=1e-12)
    assert exploitability(game, row, col) < 1e-10 and row[2] == 0.0


def test_level_shares_run_from_none_to_all_and_follow_the_work() -> None:
    shares = footstep.level_shares(50, 4)
    assert shares.shape == (102,) and shares[0] == 0.0 and shares[-1] == pytest.approx(1.0)
    assert np.all(np.diff(shares) >= 0)
    # The largest games come last: half the levels hold far less than half the work.
    assert shares[51] < 0.2
    calls: list[tuple[int, int]] = []
    FootstepSolution.compute(6, 2, progress=lambda level, levels: calls.append((level, levels)))
    assert calls == [(level, 13) for level in range(1, 14)]
