"""Mini-Geister's advice (``solvers.advice.mini_geister``): values are the mover's expected result, the suggestion
is never ranked below another move, a proven win is +1, and past the 3-vs-2 tables the search advises.

Positions come from games the catalogue's players play here (``test_review.play``) or from the rules; what the
advice says is checked against the rules and the tables reached another way than the adviser reaches them."""

from __future__ import annotations

import pytest
from test_review import play, record_of

from core.game import Side
from core.geister import GeisterState
from solvers.advice.mini_geister import SEARCH_DEPTH, advise

GAMES = ("mini-geister", "mini-geister-3v2-rbb", "mini-geister-2v3-rrb")


@pytest.mark.usefixtures("use_shared_solved_tables")
@pytest.mark.parametrize("game", GAMES)
def test_the_suggestion_heads_the_list_and_no_value_exceeds_its(game: str) -> None:
    """The project's standard: the suggested move is never ranked below another, values are expected results (-1 to
    +1, +1 only for a proven win), and the range behind a value holds it."""
    record = record_of(play(game, ("random", "random"), 3), ("random", "random"))
    for state in record.replay_states()[:-1]:
        assert isinstance(state, GeisterState)
        mover = state.to_move
        advice = advise(state.view(mover).position(), game, mover)
        valued = [move.value for move in advice.moves if move.value is not None]
        assert advice.best == advice.moves[0].move and advice.value == advice.moves[0].value
        assert all(value <= (advice.value or 0.0) + 1e-12 for value in valued)
        assert all(-1 <= value <= 1 for value in valued)
        for move in advice.moves:
            assert (move.value == 1) == (move.result == "win"), move
        if "bounds" in advice.extra:
            low, high = advice.extra["bounds"]
            assert low <= (advice.value or 0.0) <= high and advice.exact == (low == high)


def test_every_colour_known_and_a_forced_win_is_a_proven_win() -> None:
    """Player 1's blue takes player 2's blue: with every colour given, a win (+1, proven); from player 1's own view
    (player 2's colours hidden) the same capture is a guess at a colour, worth less."""
    known = advise("r3/4/1b2/1BR1 1", "mini-geister")
    assert (known.value, known.result, known.plies, known.best) == (1.0, "win", 1, "b1-b2")
    assert known.moves[0].result == "win" and known.exact
    hidden = advise("u3/4/1u2/1BR1 1", "mini-geister")
    assert hidden.result is None and (hidden.value or 0.0) < 1
    capture = next(move for move in hidden.moves if move.move == "b1-b2")
    assert capture.value is not None and capture.value < 1 and "colour" in capture.forced


#: A red-blue-blue game after player 2 took a blue: past the section-6 tables.
PAST_THE_TABLES = "4/1u1u/BR2/4 {} B 14"


@pytest.mark.usefixtures("use_shared_solved_tables")
def test_past_the_tables_the_opponent_s_replies_are_searched_for_the_player() -> None:
    """The game screen asks for the user's advice at every ply: on the opponent's turn past the tables, each of its
    replies with the user's searched value after it (the user cannot search for a side whose colours it does not
    know), the worst first; the same every time."""
    position = PAST_THE_TABLES.format(2)
    advice = advise(position, "mini-geister-3v2-rbb", Side.P1)
    assert advice.extra["searched"] is True and advice.extra["depth"] == SEARCH_DEPTH and not advice.exact
    assert advice.best == "" and advice.value is None  # not the user's turn
    state = GeisterState.from_position(position, "mini-geister-3v2-rbb")
    assert {move.move for move in advice.moves} == {move.to_text() for move in state.legal_moves()}
    valued = [move.value for move in advice.moves if move.value is not None]
    assert valued == sorted(valued) and all(-1 <= value <= 1 for value in valued)
    # Player 2 taking player 1's last red on b2 makes player 1 the winner: the rules' verdict.
    taken = next(move for move in advice.moves if move.move == "b3-b2")
    assert (taken.value, taken.result) == (1.0, "win")
    assert advise(position, "mini-geister-3v2-rbb", Side.P1) == advice
    assert any("searched to depth" in line for line in advice.details)
