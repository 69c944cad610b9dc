"""The Geister advice: forced results first and in words (an escape now, a capture that stops one, a capture that may
lose at once, a proven win), the user's chance to win for every move, and the panel and the board that show it.

Searches run at fixed depths (``Limit(iterations=...)``): nothing here depends on speed."""

from __future__ import annotations

import random

import pytest
from pilot_helpers import run
from textual.app import App, ComposeResult

from core.game import Side
from core.geister import VARIANTS, GeisterState
from core.notation import Move, Square
from solvers.advice import Advice
from solvers.advice import geister as advice_geister
from solvers.advice.geister import analyse, chance_of, features, forced_moves
from solvers.geister import purple
from solvers.geister_engine import search as sr
from solvers.players import Limit
from tui.theme import ASCII
from tui.widgets.advice import AdvicePanel, outcome_words
from tui.widgets.board import Board


def test_the_advice_scale_is_the_engines() -> None:
    assert advice_geister.DECIDED == purple.DECIDED
    # No evaluation comes near the "decided" threshold. The evaluation's largest terms: 8 pieces a side, each
    # counted by every per-piece weight at a distance of at most 12 steps, and both races at once.
    w = [int(x) for x in sr.DEFAULT_WEIGHTS]
    per_piece = w[sr.W_BLUE] + w[sr.W_RED_TAKEN] + w[sr.W_CAPTURE_BLUE] + w[sr.W_CAPTURE_RED] + w[sr.W_DANGER_1]
    per_step = w[sr.W_RACE_FIRST] + w[sr.W_RACE] + w[sr.W_RED_ADVANCE] + w[sr.W_DANGER_FAR]
    bound = 8 * per_piece + 8 * 12 * per_step + 2 * w[sr.W_GUARD] + w[sr.W_RACE_WON] + w[sr.W_RACE_LOST]
    assert bound < advice_geister.DECIDED


def test_values_become_chances_to_win() -> None:
    assert chance_of(sr.MATE - 3) == 1.0
    assert chance_of(-(sr.MATE - 2)) == 0.0
    # A chance node's expected result E (a win +1, a loss -1) is a chance of (1 + E) / 2.
    assert chance_of(400_000) == pytest.approx(0.7)
    assert chance_of(-300_000) == pytest.approx(0.35)
    # A score needs the position: without it the chance is a coin's; with it, being blues ahead means more.
    view = GeisterState.from_setups(VARIANTS["geister"], "BRRBBRRB", "RBBRRBBR").view(Side.P1)
    assert chance_of(0) == 0.5
    ahead = GeisterState.from_position("1uu1u1/1uu1u1/6/6/1BRRB1/1BRRB1 1 bb 20", "geister").view(Side.P1)
    behind = GeisterState.from_position("1uuuu1/1uuuu1/6/6/1BRRB1/2RR2 1 BB 20", "geister").view(Side.P1)
    assert 0 < chance_of(0, behind) < chance_of(0, view) < chance_of(0, ahead) < 1
    assert len(features(view, 0)) == len(advice_geister.CHANCE_WEIGHTS) == len(advice_geister.FEATURES)


def advice_for(position: str, depth: int = 3) -> Advice:
    state = GeisterState.from_position(position, "geister")
    *_, final = analyse(state.view(state.to_move), Limit(iterations=depth), random.Random(1))
    return final


def test_a_win_in_one_is_suggested_and_listed_first() -> None:
    """The defect: player 1's blue on a6 (its exit) and every move also winning later, so every move showed 100%
    and the tie went to list order; ``a6-out`` hid under "... 8 more moves". The escape is suggested, first, and
    says why."""
    advice = advice_for("B5/6/2u3/6/1u2u1/1R2RB 1 - 10")
    assert advice.best == "a6-out"
    first = advice.moves[0]
    assert (first.move, first.result, first.plies) == ("a6-out", "win", 1)
    assert first.forced == "escapes now: a win"
    assert (advice.result, advice.plies) == ("win", 1)
    text = str(AdvicePanel.render_advice(advice, "bayes", compact=True))
    assert "You win in 1 ply (proven)" in text, text
    assert "Suggested: a6-out  escapes now: a win" in text, text
    assert text.splitlines()[3].split()[:2] == ["<a6-out", "100%"], text


def test_a_capture_that_stops_an_escape_comes_first() -> None:
    # Player 2's unknown piece stands on a1, its exit; player 1 can take it from a2.
    advice = advice_for("6/1uuu2/6/6/R5/u1BB2 1 rr 20")
    assert advice.moves[0].move == "a2-a1"
    assert advice.moves[0].forced == "stops an escape: a1 may be blue"
    assert advice.best == "a2-a1"
    # Every other move lets the piece escape if it is blue (2 chances in 3): each has a lower chance to win.
    capture = advice.moves[0].value
    assert capture is not None
    assert all(line.value is not None and line.value < capture for line in advice.moves[1:])


def test_a_worst_case_search_proves_every_move_that_lets_a_piece_escape_a_loss() -> None:
    # The same position for bayes, whose search lets any piece that may be blue escape: each is a loss, said so.
    from solvers.geister.bayes import BayesPlayer

    state = GeisterState.from_position("6/1uuu2/6/6/R5/u1BB2 1 rr 20", "geister")
    *_, advice = analyse(state.view(state.to_move), Limit(iterations=3), random.Random(1), BayesPlayer())
    assert advice.best == "a2-a1"
    assert all(line.result == "loss" for line in advice.moves[1:])


def test_a_capture_that_may_take_the_last_red_is_listed_as_a_loss_at_once() -> None:
    # Player 2 has one red left; c2xc3 may take it. The search holds it back; the advice still lists it, last, and
    # says why, and the panel shows it even when compact (a forced result is never summarised away).
    advice = advice_for("4u1/5u/6/2u3/2B3/R1B3 1 BBRRRbbrrr 40")
    line = next(line for line in advice.moves if line.move == "c2-c3")
    assert line.forced == "loses at once if it is their last red"
    assert advice.moves[-1] == line and advice.best != "c2-c3"
    text = str(AdvicePanel.render_advice(advice, "bayes", compact=True))
    assert "c2-c3" in text and "loses at once if it is their last red" in text, text


def test_forced_moves_are_read_off_the_position() -> None:
    # Player 1's blue on a6 may escape; player 2's unknown piece on a1, its exit, may escape next unless taken (b1).
    state = GeisterState.from_position("B5/6/2u3/6/1u2u1/uR3B 1 - 10", "geister")
    view = state.view(Side.P1)
    forced = forced_moves(view, frozenset(), frozenset())
    assert forced == {
        Move.parse("a6-out"): "escapes now: a win",
        Move.parse("b1-a1"): "stops an escape: a1 may be blue",
    }
    # Once it is proven red (it stood there at its turn and stayed), it threatens nothing.
    slot = next(p.slot for sq, p in view.pieces(Side.P2) if str(sq) == "a1")
    assert Move.parse("b1-a1") not in forced_moves(view, frozenset(), frozenset({slot}))


def test_the_chances_of_blue_come_with_the_advice_and_add_up_to_the_blues_left() -> None:
    advice = advice_for("3uu1/1u2u1/6/1Bu3/2B3/R5 1 BBRRRrrr 30")
    assert {square for square, _ in advice.blue} == {"d6", "e6", "b5", "e5", "c3"}
    assert sum(blue for _, blue in advice.blue) == pytest.approx(4.0)
    text = str(AdvicePanel.render_advice(advice, "bayes"))
    assert "chance of blue" in text and "depth 3" in text and "nodes" in text
    # Compact, they are on the board only.
    assert "chance of blue" not in str(AdvicePanel.render_advice(advice, "bayes", compact=True))


def test_the_compact_panel_lists_fewer_moves_and_says_how_many_more() -> None:
    advice = advice_for("3uu1/1u2u1/6/1Bu3/2B3/R5 1 BBRRRrrr 30")
    full = str(AdvicePanel.render_advice(advice, "bayes")).splitlines()
    compact = str(AdvicePanel.render_advice(advice, "bayes", compact=True)).splitlines()
    assert len(compact) < len(full) <= 20
    assert any("more moves" in line for line in compact)
    assert "Your chance to win:" in compact[1]


def test_outcome_words() -> None:
    assert outcome_words("win", 1) == "wins in 1 ply"
    assert outcome_words("loss", 4) == "loses in 4 plies"
    assert outcome_words(None, None) == ""


def test_the_board_marks_the_hint_and_the_chances_of_blue() -> None:
    """Shapes, not colour: the hint's squares carry ``o`` (from) and ``@`` (to) in ASCII, and an unknown piece its
    chance of blue in tenths (``?7``)."""

    class BoardApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Board(ASCII, id="board")

    async def test() -> None:
        app = BoardApp()
        async with app.run_test(size=(60, 20)) as pilot:
            board = app.query_one("#board", Board)
            board.view = GeisterState.from_setups(VARIANTS["geister"], "BRRBBRRB", "RBBRRBBR").view(Side.P1)
            board.hint = Move.parse("b2-b3")
            board.blue_chances = ((Square.parse("c5"), 0.74), (Square.parse("d5"), 0.05))
            await pilot.pause()
            lines = str(board.render()).splitlines()
            rank = {line[:3]: i for i, line in enumerate(lines) if line[:3].strip()}
            assert "?7" in lines[rank[" 5 "]] and "?0" in lines[rank[" 5 "]]
            assert "@" in lines[rank[" 3 "] + 1] and "o" in lines[rank[" 2 "] + 1]
            board.hint = None
            await pilot.pause()
            assert "@" not in str(board.render())

    run(test)


def test_the_suggested_move_is_always_listed() -> None:
    """The search draws its move among near-equals; the panel listed the first four by value and the suggestion
    (b2-b3 in a real game) was among the "more moves"."""
    advice = advice_for("1uuuu1/1uuuu1/6/6/1BRRB1/1BRRB1 1 - 0", depth=4)
    text = str(AdvicePanel.render_advice(advice, "bayes", compact=True))
    assert f"<{advice.best}" in text, text
