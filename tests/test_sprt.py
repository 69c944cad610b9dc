"""``nashplay arena --sprt``: the generalized LLR of the pentanomial model against hand-computed values, the pairs
with the players swapped, a verdict that does not depend on the order games finish in, and a lopsided match that
stops early with H1 (issue 31)."""

from __future__ import annotations

import argparse
import json
import math

import pytest
from cli_helpers import not_called, refused

from solvers.sprt import (
    SequentialTest,
    SprtSettings,
    SprtSettingsError,
    elo_estimate,
    elo_of_score,
    generalized_llr,
    logistic_score,
    swapped_pairs,
)
from tui.cli import arena as arena_cli


def test_the_llr_of_won_and_lost_pairs_is_the_bernoulli_ratio_worked_by_hand() -> None:
    """With only pairs scoring 1 or 0, the most likely distribution of mean s is Bernoulli(s), so the LLR is
    n1 log(s1 / s0) + n0 log((1 - s1) / (1 - s0)). For 0 against 10 Elo: s0 = 1/2, s1 = 1 / (1 + 10^(-1/40)) =
    0.514387..., and 30 pairs won, 20 lost give 30 log(1.028774) + 20 log(0.971226) = 0.85047 - 0.58382 = 0.26664."""
    s1 = 1 / (1 + 10 ** (-10 / 400))
    assert s1 == pytest.approx(0.5143871841659987)
    hand = 30 * math.log(s1 / 0.5) + 20 * math.log((1 - s1) / 0.5)
    assert hand == pytest.approx(0.26712, abs=1e-4)
    scores = [1.0] * 30 + [0.0] * 20
    assert generalized_llr(scores, 0, 10, regularization=0) == pytest.approx(hand, rel=1e-9)
    # fishtest's pseudo-counts change it only in the fourth decimal here.
    assert generalized_llr(scores, 0, 10) == pytest.approx(hand, abs=1e-3)


def test_the_llr_is_near_the_normal_approximation_for_close_hypotheses() -> None:
    """For hypotheses a few Elo apart the GSPRT's LLR is close to the normal one, N (s1 - s0)(2 s - s0 - s1) /
    (2 var), with s and var the pairs' mean and variance (fishtest's older formula)."""
    scores = [0.0] * 30 + [0.25] * 200 + [0.5] * 500 + [0.75] * 240 + [1.0] * 30
    count = len(scores)
    mean = sum(scores) / count
    variance = sum((x - mean) ** 2 for x in scores) / count
    s0, s1 = logistic_score(0), logistic_score(5)
    normal = count * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert generalized_llr(scores, 0, 5) == pytest.approx(normal, rel=0.02)
    assert generalized_llr(scores, 0, 5) > 0  # A scored above 1/2 + the middle of the hypotheses' scores


def test_no_pair_means_no_evidence_and_the_bounds_are_walds() -> None:
    assert generalized_llr([], 0, 10) == 0.0
    lower, upper = SprtSettings(0, 10).bounds
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
    assert SprtSettings.parse("0, 10, 0.05, 0.1").bounds[0] == pytest.approx(math.log(0.1 / 0.95))


def test_elo_and_score_are_inverse_and_infinite_at_the_ends() -> None:
    assert elo_of_score(logistic_score(123.0)) == pytest.approx(123.0)
    assert elo_of_score(1.0) is None and elo_of_score(0.0) is None
    estimate = elo_estimate([0.75, 0.5, 1.0, 0.75])
    assert estimate.low is not None and estimate.elo is not None
    assert estimate.high is not None
    assert estimate.elo == pytest.approx(elo_of_score(0.75))
    assert estimate.low < estimate.elo < estimate.high
    # Eight pairs won of eight: the Elo is infinite, its interval's lower end the Wilson bound of 8 in 8 (0.676).
    swept = elo_estimate([1.0] * 8)
    assert swept.elo is None and swept.high is None and swept.low == pytest.approx(elo_of_score(0.6756), abs=1)


def test_the_pairs_swap_the_players_on_the_same_first_mover() -> None:
    assert swapped_pairs(8) == [(0, 3), (1, 2), (4, 7), (5, 6)]
    assert swapped_pairs(6) == [(0, 3), (1, 2)]  # games 4 and 5 have no partner within the match


def test_the_verdict_does_not_depend_on_the_order_games_finish_in() -> None:
    settings = SprtSettings(0, 200)
    scores = {index: 1.0 if index % 5 else 0.5 for index in range(40)}
    in_order = SequentialTest(settings, 40)
    for index in range(40):
        in_order.add(index, scores[index])
    shuffled = SequentialTest(settings, 40)
    for index in [*range(39, 19, -1), *range(20)]:
        shuffled.add(index, scores[index])
    assert in_order.decided is not None and in_order.decided.result == "H1"
    assert shuffled.decided == in_order.decided


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("10", "ELO0,ELO1"),
        ("10,0", "below ELO1"),
        ("0,x", "not a number"),
        ("0,10,0.7,0.05", "alpha"),
        ("0,1e9", "between"),
        ("0,nan", "between"),
    ],
)
def test_bad_sprt_settings_are_refused_in_one_line(
    text: str, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SprtSettingsError, match=words):
        SprtSettings.parse(text)
    monkeypatch.setattr("solvers.arena.run_match", not_called)
    message = refused(["arena", "geister", "--players", "random,chototsu", "--sprt", text], capsys)
    assert "--sprt" in message and words in message


def _arena_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="nashplay")
    arena_cli.add_command(parser.add_subparsers(dest="command"))
    assert arena_cli.run(parser.parse_args(["arena", *argv]), parser) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_a_lopsided_match_stops_early_with_h1(capsys: pytest.CaptureFixture[str]) -> None:
    """The strongest player that answers at once (chototsu, who rushes for the exit: nothing depends on the machine's
    speed) against random: the test accepts H1 long before the 200 games allowed."""
    argv = ["geister", "--players", "chototsu,random", "--games", "200", "--seed", "3", "--workers", "1"]
    data = _arena_json([*argv, "--sprt", "0,300", "--json"], capsys)
    sprt = data["sprt"]
    assert isinstance(sprt, dict)
    assert sprt["result"] == "H1"
    lower, upper = sprt["bounds"]
    assert sprt["llr"] >= upper > 0 > lower
    # On one worker it stops as the deciding pair ends: pairs come whole in blocks of four games (0-3 and 1-2).
    assert data["games"] == 4 * math.ceil(sprt["pairs"] / 2) < 200
    parser = argparse.ArgumentParser(prog="nashplay")
    arena_cli.add_command(parser.add_subparsers(dest="command"))
    assert arena_cli.run(parser.parse_args(["arena", *argv, "--sprt", "0,300"]), parser) == 0
    text = capsys.readouterr().out
    assert "H1 accepted after" in text and "Elo difference +" in text and "(95%)" in text
