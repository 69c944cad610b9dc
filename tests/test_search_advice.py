"""The live advice panel's words for the search's values: a forced result reads as one (a win or loss in so many
plies, or a chance of one), never as a score; and what the strongest Geister AI reports reaches the panel whole."""

from __future__ import annotations

import random

import pytest

from core.geister import GeisterState
from solvers import purple
from solvers.catalogue import STRONGEST, make_player
from solvers.geister_engine import search as sr
from solvers.players import Limit
from solvers.purple import SearchReport
from tui.widgets import search_advice
from tui.widgets.search_advice import SearchAdvicePanel, describe_value, relative_value


def test_the_panel_scale_is_the_engines() -> None:
    assert search_advice.MATE == sr.MATE and search_advice.DECIDED == purple.DECIDED
    # No evaluation comes near the "decided" threshold. The evaluation's largest terms: 8 pieces a side, each
    # counted by every per-piece weight at a distance of at most 12 steps, and both races at once.
    w = [int(x) for x in sr.DEFAULT_WEIGHTS]
    per_piece = w[sr.W_BLUE] + w[sr.W_RED_TAKEN] + w[sr.W_CAPTURE_BLUE] + w[sr.W_CAPTURE_RED] + w[sr.W_DANGER_1]
    per_step = w[sr.W_RACE_FIRST] + w[sr.W_RACE] + w[sr.W_RED_ADVANCE] + w[sr.W_DANGER_FAR]
    bound = 8 * per_piece + 8 * 12 * per_step + 2 * w[sr.W_GUARD] + w[sr.W_RACE_WON] + w[sr.W_RACE_LOST]
    assert bound < search_advice.DECIDED


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (sr.MATE - 1, "wins in 1 ply"),
        (sr.MATE - 5, "wins in 5 plies"),
        (-(sr.MATE - 2), "loses in 2 plies"),
        (-300_000, "E(result) -0.30"),
        (420_000, "E(result) +0.42"),
        (1234, "+1.23"),
        (-50, "-0.05"),
        (0, "+0.00"),
    ],
)
def test_values_in_words(value: int, words: str) -> None:
    assert describe_value(value) == words


def test_ordinary_values_are_read_against_the_best_move() -> None:
    assert relative_value(4030, 4030) == "best"
    assert relative_value(3930, 4030) == "-0.10"
    # Where the game may be decided, the words, never a difference.
    assert relative_value(-300_000, 4030) == "E(result) -0.30"
    assert relative_value(4030, sr.MATE - 3) == "+4.03"


def test_a_held_back_capture_is_named() -> None:
    # Player 2 has one red left; c2xc3 may take it, and another move risks nothing: the capture is not searched,
    # and the panel says why it is missing.
    report = strongest_report("4u1/5u/6/2u3/2B3/R1B3 1 BBRRRbbrrr 40")
    text = str(SearchAdvicePanel.render_snapshot(report, "bayes"))
    assert "Not played: c2-c3 (may take their last red" in text, text


def strongest_report(position: str) -> SearchReport:
    state = GeisterState.from_position(position, "geister")
    player = make_player(STRONGEST["geister"], "geister")
    *_, final = player.analyse(state.view(state.to_move), Limit(iterations=3), random.Random(1))
    assert isinstance(final, SearchReport)
    return final


def test_a_win_in_one_is_suggested_and_said_first() -> None:
    # Player 1's blue stands on a6, its exit: the escape wins now.
    report = strongest_report("B5/6/2u3/6/1u2u1/1R2RB 1 - 10")
    text = str(SearchAdvicePanel.render_snapshot(report, "bayes"))
    assert "Suggested:  a6-out   wins in 1 ply" in text, text
    first_move_line = next(line for line in text.splitlines() if line.startswith("  a"))
    assert first_move_line.split()[:4] == ["a6-out", "wins", "in", "1"], text


def test_the_report_names_every_opponent_piece_with_its_chance_of_blue() -> None:
    report = strongest_report("3uu1/1u2u1/6/1Bu3/2B3/R5 1 BBRRRrrr 30")
    squares = {str(square) for square, _ in report.blue}
    assert squares == {"d6", "e6", "b5", "e5", "c3"}
    # Four blues and one red are left among the five: the chances add up to the count of blues.
    assert sum(blue for _, blue in report.blue) == pytest.approx(4.0)
    text = str(SearchAdvicePanel.render_snapshot(report, "bayes"))
    assert "chance of blue" in text and "depth 3" in text and "nodes" in text
