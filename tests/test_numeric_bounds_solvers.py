"""The solvers' runaway costs (issue 15), tested by the work they do, not by time: the period search no longer compares
every candidate period over the whole sequence, ``analyse`` no longer lists and checks every move of the position,
and the TCG tables build the stage games once. Each faster path is checked against the plain one it replaced."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import solvers.grundy
from core.impartial import HeapMove, HeapRule, Nim, Octal, Subtraction, heap_moves, heaps_after
from solvers.grundy import Periodicity, analyse, find_period, grundy_sequence, max_take
from solvers.markov import MarkovGame
from solvers.tcg import TcgSolution, strategy_table, to_json, value_table


def reference_period(values: np.ndarray, rule: HeapRule) -> Periodicity | None:
    """The period search as it was: every candidate compared over the whole sequence (quadratic, but plainly right)."""
    bound = max_take(rule)
    if bound is None:
        return None
    splits = isinstance(rule, Octal) and any(rule.allows(t, 2) for t in range(bound + 1))
    n = values.size
    for p in range(1, n // 2 + 1):
        mismatch = np.flatnonzero(values[p:] != values[:-p])
        start = int(mismatch[-1]) + 1 if mismatch.size else 0
        verified_until = n - p
        needed = 2 * start + p + bound if splits else start + bound
        if verified_until >= needed and verified_until - start >= p:
            return Periodicity(start, p)
    return None


def random_rule(rng: random.Random) -> HeapRule:
    if rng.random() < 0.6:
        return Subtraction(rng.sample(range(1, 12), rng.randint(1, 4)))
    return Octal("0." + "".join(str(rng.randint(0, 7)) for _ in range(rng.randint(1, 4))))


def test_the_period_search_finds_what_the_plain_search_finds() -> None:
    rng = random.Random(15)
    for _ in range(400):
        rule = random_rule(rng)
        # A planted period after a random pre-period, sometimes broken near the end, of random length.
        period = [rng.randint(0, 3) for _ in range(rng.randint(1, 12))]
        values = [rng.randint(0, 3) for _ in range(rng.randint(0, 30))]
        values += [period[i % len(period)] for i in range(rng.randint(0, 200))]
        if values and rng.random() < 0.3:
            values[rng.randrange(len(values))] = 9
        array = np.array(values, dtype=np.int64)
        assert find_period(array, rule) == reference_period(array, rule), (rule, values)
    for rule in (Subtraction({1, 2, 3}), Subtraction({2, 5, 7}), Octal("0.77"), Octal("0.07"), Octal("0.137")):
        sequence = grundy_sequence(rule, 3000, use_period=False)
        assert find_period(sequence, rule) == reference_period(sequence, rule)


class CountingArray(np.ndarray):
    """An array that counts the elements its ``!=`` compares (slices of it count too)."""

    compared = 0

    def __ne__(self, other: Any) -> Any:
        CountingArray.compared += self.size
        return np.asarray(self) != np.asarray(other)


def test_the_period_search_is_not_quadratic_in_the_length() -> None:
    """A million values of {1, 99999999} ran past 180 s: every candidate period was compared over everything."""
    rng = np.random.default_rng(15)
    n = 20_000
    values = rng.integers(0, 4, n).view(CountingArray)  # no period at all: every candidate is tried
    CountingArray.compared = 0
    assert find_period(values, Subtraction({1, 10})) is None
    assert CountingArray.compared <= 100 * n  # the plain search compared about n^2 / 2.7 = 150 million
    CountingArray.compared = 0
    assert find_period(values, Subtraction({1, 99_999_999})) is None  # no period can be proven from n values
    assert CountingArray.compared == 0


def reference_analysis(heaps: tuple[int, ...], rule: HeapRule, misere: bool) -> tuple[bool, tuple[HeapMove, ...]]:
    """Who wins and the winning moves, by checking every move of the position (what analyse did)."""
    if misere:
        search = solvers.grundy.PositionSearch(rule, misere=True)
        wins = search.wins(heaps)
        return wins, tuple(m for m in heap_moves(heaps, rule) if not search.wins(heaps_after(heaps, m)))
    values = grundy_sequence(rule, max(heaps, default=0) + 1)

    def nim_sum(row: tuple[int, ...]) -> int:
        total = 0
        for h in row:
            total ^= int(values[h])
        return total

    return nim_sum(heaps) != 0, tuple(m for m in heap_moves(heaps, rule) if nim_sum(heaps_after(heaps, m)) == 0)


def test_each_heaps_winning_moves_are_every_winning_move_of_the_position() -> None:
    rng = random.Random(15)
    rules: list[HeapRule] = [Nim(), Subtraction({1, 2, 3}), Octal("0.77"), Octal("0.07"), Octal("4.3")]
    for _ in range(300):
        rule = rng.choice([*rules, random_rule(rng)])
        heaps = tuple(rng.randint(0, 9) for _ in range(rng.randint(1, 4)))
        misere = rng.random() < 0.4 and (isinstance(rule, Nim) or sum(heaps) <= 12)
        analysis = analyse(heaps, rule, misere)
        wins, winning = reference_analysis(heaps, rule, misere)
        assert (analysis.first_player_wins, analysis.winning_moves) == (wins, winning), (heaps, rule, misere)


def test_analyse_looks_at_no_more_moves_than_its_search_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """40 heaps of 100,000: 4 million moves were each checked against every heap (51 s), and the longest-line search
    built all 4 million children before counting them (2.46 GB)."""
    built = 0
    real = heaps_after

    def counting(heaps: Any, move: Any) -> Any:
        nonlocal built
        built += 1
        return real(heaps, move)

    monkeypatch.setattr(solvers.grundy, "heaps_after", counting)
    monkeypatch.setattr(solvers.grundy, "LONGEST_LINE_LIMIT", 1000)
    analysis = analyse((50_000,) * 40, Nim())
    assert not analysis.first_player_wins and analysis.longest_move == HeapMove(0, 1)
    assert analysis.remoteness is None  # too large to search: the rule of thumb, no length promised
    assert built <= 1001
    built = 0
    # Take one from any heap of 50,000: two of 49,999 and an even number of 50,000 leave a nim-sum of 0.
    winning = analyse((49_999,) + (50_000,) * 39, Nim(), misere=True).winning_moves
    assert winning == tuple(HeapMove(index, 1) for index in range(1, 40))
    assert built == 0


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
