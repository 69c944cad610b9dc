"""The Twice Clap Game solver: the source's n = 3 tables, derived by our own solver, and the claims behind them."""

from __future__ import annotations

import io
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from core.game import Side
from core.tcg import TcgAction, TcgState, resolve_round
from solvers import markov
from solvers.markov import WIN1, WIN2, MarkovGame, certify, solve_by_sweeps
from solvers.matrix import exploitability
from solvers.tcg import (
    ACTIONS,
    TcgSolution,
    build_game,
    round_like_source,
    state_index,
    strategy_cells,
    strategy_table,
    to_json,
    value_table,
)
from tui.cli import main, tcg_prompt


@pytest.fixture(scope="module")
def n3() -> TcgSolution:
    return TcgSolution.compute(3)


# The source's published tables for n = 3 (seeds/001, also spec/tcg.md), typed in from the document.
SOURCE_VALUES = [
    ["0.5", "0.17", "0", "0"],
    ["0.83", "0.5", "0.26", "0"],
    ["1", "0.74", "0.5", "0"],
    ["1", "1", "1", "0.5"],
]
SOURCE_STRATEGIES = {
    (0, 0): ("1 0 0 0", "1 0 0 0"),
    (0, 1): ("0.65 0 0.35 0", "0.65 0.35 0 0"),
    (0, 2): ("1 0 0 0", "1 0 0 0"),
    (0, 3): ("* * * *", "* * * *"),
    (1, 1): ("0.31 0.22 0.47 0", "0.31 0.22 0.47 0"),
    (1, 2): ("0.3 0.26 0.44 0", "0.22 0.25 0.53 0"),
    (1, 3): ("* * * *", "0 0 * *"),
    (2, 2): ("0.19 0.4 0.4 0", "0.19 0.4 0.4 0"),
    (2, 3): ("1 0 0 0", "0 0 0 1"),
    (3, 3): ("0 0 0 1", "0 0 0 1"),
}


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_vectorised_rules_match_the_reference_rules(n: int) -> None:
    """Every state and round of the solver's game equals ``core.tcg.resolve_round``."""
    successor = build_game(n).successor
    for i1 in range(n + 1):
        for i2 in range(n + 1):
            for a, a1 in enumerate(ACTIONS):
                for b, a2 in enumerate(ACTIONS):
                    result = resolve_round(n, (i1, i2), (a1, a2))
                    if result.outcome is None:
                        expected = state_index(n, *result.points)
                    else:
                        expected = WIN1 if result.outcome.winner is Side.P1 else WIN2
                    assert successor[state_index(n, i1, i2), a, b] == expected, (i1, i2, a1, a2)


def test_win_probabilities_match_the_source(n3: TcgSolution) -> None:
    table = [[round_like_source(n3.value(i, j)) for j in range(4)] for i in range(4)]
    assert table == SOURCE_VALUES


def test_strategies_match_the_source(n3: TcgSolution) -> None:
    for (i1, i2), (p1, p2) in SOURCE_STRATEGIES.items():
        advice = n3.advice(i1, i2)
        assert " ".join(strategy_cells(advice, 1)) == p1, (i1, i2, "player 1")
        assert " ".join(strategy_cells(advice, 2)) == p2, (i1, i2, "player 2")


def test_any_flags_are_where_the_source_prints_a_whole_row_of_stars(n3: TcgSolution) -> None:
    flagged = {(i1, i2): (n3.advice(i1, i2).any1, n3.advice(i1, i2).any2) for (i1, i2) in SOURCE_STRATEGIES}
    expected = {key: (p1 == "* * * *", p2 == "* * * *") for key, (p1, p2) in SOURCE_STRATEGIES.items()}
    assert flagged == expected


def test_n1_never_ends_and_the_certificate_says_so() -> None:
    """With n = 1 equilibrium play cycles: (0, 0) charge/charge -> (1, 1) strike/strike -> (0, 0). Neither side can
    force a win (deviating from the strike at (1, 1) loses), so no win probability is guaranteed: the symmetric
    fixed point 1/2 is reported, and the certificate's bounds (0 and 1) show that it is not a guarantee."""
    solution = TcgSolution.compute(1)
    assert solution.value(0, 0) == pytest.approx(0.5)
    certificate = solution.certificate
    for state in ((0, 0), (1, 1)):
        s = state_index(1, *state)
        assert certificate.lower[s] == pytest.approx(0.0)
        assert certificate.upper[s] == pytest.approx(1.0)
    assert solution.value(1, 0) == 1.0 and solution.value(0, 1) == 0.0


@pytest.mark.parametrize("n", [2, 3, 4, 8, 20])
def test_values_are_exact_and_certified(n: int) -> None:
    solution = TcgSolution.compute(n)
    assert solution.solution.residual < 1e-10
    certificate = solution.certificate
    # Each side's strategy guarantees the value against an exact best response: the bounds meet.
    assert np.allclose(certificate.lower, solution.solution.values, atol=1e-9)
    assert np.allclose(certificate.upper, solution.solution.values, atol=1e-9)
    # Symmetry of the rules: V(i, j) = 1 - V(j, i); the diagonal is 1/2.
    values = solution.values
    assert np.allclose(values, 1 - values.T, atol=1e-9)
    assert np.allclose(np.diag(values), 0.5, atol=1e-9)


@pytest.mark.parametrize("n", [3, 8])
def test_every_stage_strategy_is_an_equilibrium_of_its_stage_game(n: int) -> None:
    solution = TcgSolution.compute(n)
    stages = solution.game.stage_matrices(solution.solution.values)
    for s in range(solution.game.states):
        assert exploitability(stages[s], solution.solution.p1[s], solution.solution.p2[s]) < 1e-9


@pytest.mark.parametrize("n", [3, 8])
def test_games_end_against_best_responses(n: int) -> None:
    """The * trap: play against a best response that would happily stall ends anyway, with probability 1."""
    certificate = TcgSolution.compute(n).certificate
    assert np.all(certificate.ends_p2 > 1 - 1e-9)  # player 1 cannot stall player 2's strategy
    assert np.all(certificate.ends_p1 > 1 - 1e-9)


def test_a_stalling_strategy_is_caught_by_the_certificate(n3: TcgSolution) -> None:
    """In (0, 3) every action of player 2 keeps the value 0, but defending for ever never wins: the certificate
    (endless play counted against the strategy's owner) must refuse it. This is what makes the check meaningful."""
    p2 = n3.solution.p2.copy()
    stall = state_index(3, 0, 3)
    p2[stall] = 0.0
    p2[stall, ACTIONS.index(TcgAction.DEFENSE)] = 1.0
    # Player 1 defends too: (0, 3) -> (0, 3) for ever.
    certificate = certify(n3.game, n3.solution.p1, p2)
    assert certificate.upper[stall] == pytest.approx(1.0)
    assert n3.certificate.upper[stall] == pytest.approx(0.0, abs=1e-12)


def test_solved_strategies_play_like_their_values() -> None:
    """Monte Carlo from (0, 0) with the equilibrium strategies: every game ends, and player 1 wins about half."""
    solution = TcgSolution.compute(3)
    rng = random.Random(1)
    wins = 0
    games = 2000
    for _ in range(games):
        state = TcgState(3)
        for _round in range(10_000):
            if state.is_terminal():
                break
            i1, i2 = state.points
            state.apply_joint((solution.draw(i1, i2, 1, rng), solution.draw(i1, i2, 2, rng)))
        outcome = state.outcome()
        assert outcome is not None, "a game between the equilibrium strategies did not end"
        wins += outcome.winner is Side.P1
    assert abs(wins / games - 0.5) < 4 * (0.25 / games) ** 0.5


def test_markov_solver_on_a_tiny_game_with_a_known_answer() -> None:
    """One state, matching pennies for the win: player 1 wins on a match, player 2 otherwise. Value 1/2."""
    game = MarkovGame(np.array([[[WIN1, WIN2], [WIN2, WIN1]]]))
    solution = markov.solve(game)
    assert solution.values[0] == pytest.approx(0.5)
    assert solution.p1[0] == pytest.approx([0.5, 0.5])


def test_cache_is_used_and_rebuilt_when_corrupt(tmp_path: Path) -> None:
    first, source = TcgSolution.load(4)
    assert source == "built"
    second, source = TcgSolution.load(4)
    assert source == "cache"
    assert np.array_equal(first.solution.values, second.solution.values)
    files = list((tmp_path / "cache").glob("tcg-*.npz"))
    assert len(files) == 1
    files[0].write_bytes(files[0].read_bytes()[:100])  # truncated
    third, source = TcgSolution.load(4)
    assert source.startswith("rebuilt")
    assert np.allclose(third.solution.values, first.solution.values)
    assert TcgSolution.load(4)[1] == "cache"


def test_cli_prints_the_source_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "tcg", "--n", "3"]) == 0
    out = capsys.readouterr().out
    assert "0.65 / 0 / 0.35 / 0" in out
    assert "0.22 / 0.25 / 0.53 / 0" in out
    assert "0 / 0 / * / *" in out
    assert "  1  0.83  0.5 0.26    0" in out


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "tcg", "--n", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n"] == 3 and len(data["states"]) == 16
    by_state = {s["state"]: s for s in data["states"]}
    assert by_state["0,1"]["value"] == pytest.approx(0.17, abs=0.005)
    assert set(by_state["1,1"]["p1"]) == {"c", "a", "d", "s"}
    assert by_state["0,3"]["any"] == {"p1": True, "p2": True}
    assert by_state["1,3"]["any"] == {"p1": True, "p2": False}
    # The strategy played in (0, 3) makes progress: player 2 strikes.
    assert by_state["0,3"]["p2"]["s"] == pytest.approx(1.0)
    assert data["error_bound"] < 1e-9


def test_advisor_prompt_plays_a_game_to_the_end(n3: TcgSolution) -> None:
    # The opponent attacks with no points (an immediate loss for them); a bad line first gets a hint.
    stdin = io.StringIO("hello\na c\n")
    stdout = io.StringIO()
    assert tcg_prompt.run(3, Side.P1, seed=1, stdin=stdin, stdout=stdout, solution=n3) == 0
    text = stdout.getvalue()
    assert "suggestion: c (charge)" in text
    assert "? type the opponent's action" in text
    assert "You win!" in text


def test_advisor_prompt_follows_the_suggestion_by_default(n3: TcgSolution) -> None:
    # (0, 0): the suggestion is charge for sure; the opponent charges too -> (1, 1), then the opponent overdraws.
    stdout = io.StringIO()
    tcg_prompt.run(3, Side.P2, seed=3, stdin=io.StringIO("c\ns\n"), stdout=stdout, solution=n3)
    text = stdout.getvalue()
    assert "points you 1, opponent 1" in text
    assert "You win!" in text


def test_advisor_prompt_ends_cleanly_on_end_of_input(n3: TcgSolution) -> None:
    stdout = io.StringIO()
    assert tcg_prompt.run(3, Side.P1, seed=1, stdin=io.StringIO(""), stdout=stdout, solution=n3) == 1
    assert "unfinished" in stdout.getvalue()


def test_tcg_tables_build_the_stage_games_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each state's advice built every state's stage game: the n = 200 tables took minutes."""
    solution = TcgSolution.compute(12)
    calls = 0
    real = MarkovGame.stage_matrices

    def counting(game: MarkovGame, values: np.ndarray) -> np.ndarray:
        nonlocal calls
        calls += 1
        return real(game, values)

    monkeypatch.setattr(MarkovGame, "stage_matrices", counting)
    strategy_table(solution)
    value_table(solution)
    to_json(solution)
    assert calls == 1


def test_the_progress_is_a_share_left_that_moves_down_to_none() -> None:
    """The Bellman residual is a maximum: at n = 200 it sat at 6e-2 from sweep 37 to 191 of the old sweeps, and a
    status showing only it did not move. Each step now tells the share of the solve still to do (the residual's
    distance to the tolerance on a log scale, over all levels of the solve): it never rises, moves on most steps,
    and reaches none exactly when the residual reaches the tolerance."""
    reports: list[tuple[int, float, float]] = []
    TcgSolution.compute(60, progress=lambda step, residual, left: reports.append((step, residual, left)))
    assert [step for step, _, _ in reports] == list(range(1, len(reports) + 1))
    lefts = [left for _, _, left in reports]
    assert all(0.0 <= left <= 1.0 for left in lefts)
    assert all(later <= earlier for earlier, later in itertools.pairwise(lefts))
    assert sum(later < earlier for earlier, later in itertools.pairwise(lefts)) >= 0.75 * (len(lefts) - 1)
    assert reports[-1][1] <= 1e-14 and lefts[-1] == 0.0 and all(left > 0 for left in lefts[:-1])


def test_the_reference_solve_tells_the_share_of_states_still_moving() -> None:
    """``solve_by_sweeps`` (the solver as it was, kept as the reference) still tells which share of the states moves:
    it changes where the residual sits still, and is none once solved."""
    reports: list[tuple[int, float, float]] = []
    solve_by_sweeps(build_game(30), progress=lambda sweep, residual, moving: reports.append((sweep, residual, moving)))
    assert [sweep for sweep, _, _ in reports] == list(range(1, len(reports) + 1))
    assert all(0.0 <= moving <= 1.0 for _, _, moving in reports)
    assert reports[-1][1] <= 1e-14 and reports[-1][2] == 0.0
    flat = [
        (earlier, later)
        for earlier, later in zip(reports, reports[5:], strict=False)
        if abs(later[1] - earlier[1]) < 0.1 * earlier[1] and abs(later[2] - earlier[2]) > 0.1
    ]
    assert flat, reports
