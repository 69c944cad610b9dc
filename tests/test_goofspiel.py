"""Goofspiel: the rules (``core.goofspiel``) and the exact solver (``solvers.goofspiel``).

The solver is checked against values derived here, never against stored output of its own: the symmetric start is
worth 0, N = 1 and N = 2 are solved by hand below, a last round is decided by its forced bids, and random positions
are re-solved by a plain reference written in this file (one scipy LP per state, no canonical forms, no tables).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from goofspiel_reference import reference_lp, reference_matrix
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError
from core.game import SIMULTANEOUS, TERMINAL, Side
from core.goofspiel import GoofspielPosition, GoofspielState, parse_position
from solvers.goofspiel import GoofspielEquilibriumPlayer, game_value, solve_position, solver_stats

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


# ------------------------------------------------------------------------------------------------ random play


@st.composite
def played_states(draw: st.DrawFn, max_cards: int = 5, max_left: int | None = None) -> GoofspielState:
    """A game of 1..max_cards cards dealt in a random order and played for a random number of rounds by random bids
    (``max_left``: at least that few rounds left, the terminal state included)."""
    cards = draw(st.integers(1, max_cards))
    deck = draw(st.permutations(range(1, cards + 1)))
    bids1 = draw(st.permutations(range(1, cards + 1)))
    bids2 = draw(st.permutations(range(1, cards + 1)))
    least = 0 if max_left is None else max(0, cards - max_left)
    rounds = draw(st.integers(least, cards))
    state = GoofspielState(cards, deck=deck)
    for i in range(rounds):
        state.apply_joint((bids1[i], bids2[i]))
    return state


# ------------------------------------------------------------------------------------------------ the rules


def test_a_round_gives_the_prize_to_the_higher_bid() -> None:
    state = GoofspielState(3, deck=(2, 3, 1))
    assert state.current_player() == SIMULTANEOUS
    assert state.state_text == "123/123/13/2/+0"
    state.apply_joint(state.parse_action("3:1"))
    assert state.points == (2, 0)
    assert state.state_text == "12/23/1/3/+2"
    state.apply_joint((2, 2))  # a tie: the 3 goes to nobody
    assert state.points == (2, 0)
    state.apply_joint(state.parse_action("13"))
    assert state.points == (2, 1)
    assert state.current_player() == TERMINAL
    assert state.state_text == "-/-/-/-/+1"
    assert state.returns() == (1.0, -1.0)
    assert state.history() == [(3, 1), (2, 2), (1, 3)]
    assert [str(r) for r in state.rounds()] == ["2: 3:1", "3: 2:2", "1: 1:3"]


def test_the_example_position_reads_as_documented() -> None:
    position = parse_position("235/145/24/3/+1")
    assert position.hand1 == {2, 3, 5} and position.hand2 == {1, 4, 5}
    assert position.prizes == {2, 4} and position.up == 3 and position.diff == 1
    assert position.rounds_left == 3 and position.played_prizes == {1, 5}


@pytest.mark.parametrize(
    ("text", "canonical"), [("235/145/24/3/0", "235/145/24/3/+0"), ("532/541/42/3/-0", "235/145/24/3/+0")]
)
def test_zero_and_unsorted_digits_are_read_and_written_canonically(text: str, canonical: str) -> None:
    assert parse_position(text).text == canonical


@pytest.mark.parametrize(
    ("text", "cards", "message"),
    [
        ("235/145/24/3", 5, "five fields"),
        ("235/145/24/3/+1/x", 5, "five fields"),
        ("2355/145/24/3/+1", 5, "repeats the 5"),
        ("23/145/24/3/+1", 5, "same number of cards"),
        ("2345/1345/24/3/+1", 5, "one card more than the 2 prizes"),
        ("235/146/24/3/+1", 5, "has a 6: cards run from 1 to N = 5"),
        ("235/145/24/3/+1", 4, "has a 5: cards run from 1 to N = 4"),
        ("235/145/23/3/+1", 5, "cannot also be face down"),
        ("235/145/24/0/+1", 5, "prize turned up '0'"),
        ("235/145/24/-/+1", 5, "no prize is turned up only when the game is over"),
        ("2a5/145/24/3/+1", 5, "must be digits"),
        ("235/145/24/3/+2", 5, "no sharing of the prizes already played (1 and 5)"),
        ("235/145/24/3/1.5", 5, "difference '1.5'"),
        ("235/145/24/3/+" + "9" * 5000, 5, "more points than all the prizes hold"),
        ("-/-/-/-/+2", 1, "no sharing"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(text: str, cards: int, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=None) as error:
        parse_position(text, cards)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


@SETTINGS
@given(played_states(max_cards=9))
def test_the_position_text_round_trips(state: GoofspielState) -> None:
    position = state.position
    text = position.text
    assert parse_position(text, state.cards) == position
    assert parse_position(text, state.cards).text == text
    assert GoofspielState.from_text(text, state.cards).position == position
    assert eval(repr(position), {"GoofspielPosition": GoofspielPosition}) == position


@SETTINGS
@given(played_states(), st.data())
def test_illegal_bids_are_refused_and_change_nothing(state: GoofspielState, data: st.DataObject) -> None:
    before = (state.state_text, state.history(), state.view(Side.P1))
    if state.is_terminal():
        with pytest.raises(IllegalMoveError, match="the game is over"):
            state.apply_joint((1, 1))
    else:
        side = data.draw(st.sampled_from(list(Side)))
        bad = data.draw(st.integers(0, 12).filter(lambda card: card not in state.hand(side)))
        bids = [min(state.hand(Side.P1)), min(state.hand(Side.P2))]
        bids[side] = bad
        with pytest.raises(IllegalMoveError, match=f"{side} cannot bid {bad}"):
            state.apply_joint(tuple(bids))
        with pytest.raises(IllegalMoveError, match="one bid per player"):
            state.apply_joint((bids[0],))
        with pytest.raises(IllegalMoveError, match="simultaneous"):
            state.apply(min(state.hand(Side.P1)))
        with pytest.raises(IllegalMoveError, match="whole number"):
            state.apply_joint((True, min(state.hand(Side.P2))))
    assert (state.state_text, state.history(), state.view(Side.P1)) == before


@pytest.mark.parametrize("text", ["", "3", "3-5", "3:", "a:b", "3:5:1", "345"])
def test_round_text_that_does_not_parse_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="not a Goofspiel round"):
        GoofspielState(5, seed=1).parse_action(text)


@pytest.mark.parametrize("text", ["0:1", "6:1", "1:12", "1:" + "9" * 5000])
def test_bids_outside_the_cards_are_illegal(text: str) -> None:
    with pytest.raises(IllegalMoveError, match="cards run from 1 to N = 5"):
        GoofspielState(5, seed=1).parse_action(text)


@SETTINGS
@given(played_states(max_cards=6), st.integers(0, 2**32))
def test_undo_restores_every_state(state: GoofspielState, seed: int) -> None:
    rng = random.Random(seed)
    snapshots = []
    while not state.is_terminal():
        snapshots.append((state.state_text, state.points, state.history(), state.view(Side.P1), state.view(Side.P2)))
        copy = state.clone()
        state.apply_joint((rng.choice(state.legal_actions(Side.P1)), rng.choice(state.legal_actions(Side.P2))))
        assert copy.state_text != state.state_text or copy.history() != state.history()
    for snapshot in reversed(snapshots):
        state.undo()
        assert (state.state_text, state.points, state.history(), state.view(Side.P1), state.view(Side.P2)) == snapshot


def test_undo_with_nothing_played_says_so() -> None:
    with pytest.raises(IndexError, match="nothing to undo"):
        GoofspielState(3, seed=0).undo()


@SETTINGS
@given(st.integers(1, 9), st.data())
def test_the_view_hides_the_order_of_the_deck(cards: int, data: st.DataObject) -> None:
    deck = data.draw(st.permutations(range(1, cards + 1)))
    played = data.draw(st.integers(0, cards - 1))
    # Another deal that agrees up to the prize turned up now and differs in the order of the prizes face down.
    rest = data.draw(st.permutations(deck[played + 1 :]))
    other_deck = (*deck[: played + 1], *rest)
    bids = data.draw(st.tuples(st.permutations(range(1, cards + 1)), st.permutations(range(1, cards + 1))))
    states = [GoofspielState(cards, deck=deck), GoofspielState(cards, deck=other_deck)]
    for state in states:
        for i in range(played):
            state.apply_joint((bids[0][i], bids[1][i]))
    for side in Side:
        views = [state.view(side) for state in states]
        assert views[0] == views[1]
        assert views[0].prizes == frozenset(deck[played + 1 :])
        assert views[0].up == deck[played]
        assert "deck" not in vars(views[0])  # the state has the order; the view only the set above


def test_a_seed_deals_the_same_deck_and_a_position_keeps_its_prize_up() -> None:
    assert GoofspielState(9, seed=3).deck == GoofspielState(9, seed=3).deck
    assert sorted(GoofspielState(9, seed=3).deck) == list(range(1, 10))
    state = GoofspielState.from_text("235/145/24/3/+1", seed=5)
    assert state.deck[0] == 3 and sorted(state.deck[1:]) == [2, 4]
    assert state.points == (1, 0)
    with pytest.raises(InvalidPositionError, match="must start with the prize turned up"):
        GoofspielState.from_text("235/145/24/3/+1", deck=(2, 3, 4))
    with pytest.raises(InvalidPositionError, match="once each"):
        GoofspielState(3, deck=(1, 1, 2))
    with pytest.raises(ValueError, match="cards"):
        GoofspielState(10)


@SETTINGS
@given(played_states(max_cards=7), st.integers(0, 2**32))
def test_returns_are_win_loss_and_sum_to_zero(state: GoofspielState, seed: int) -> None:
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.returns() == (0.0, 0.0) and state.outcome() is None
        with pytest.raises(ValueError, match="simultaneous"):
            state.legal_actions()
        state.apply_joint((rng.choice(state.legal_actions(Side.P1)), rng.choice(state.legal_actions(Side.P2))))
    r1, r2 = state.returns()
    assert r1 in (-1.0, 0.0, 1.0) and r1 + r2 == 0.0
    assert r1 == _sign(state.points[0] - state.points[1])
    assert state.legal_actions(Side.P1) == [] and state.view(Side.P2).legal_actions() == []
    assert state.current_player() == TERMINAL


# ------------------------------------------------------------------------------------------------ known values


@pytest.mark.parametrize("cards", [1, 2, 3, 4, 5])
def test_the_start_is_worth_nothing_by_symmetry(cards: int) -> None:
    """Both hands are equal and the score level: swapping the players negates the value and changes nothing."""
    assert game_value(cards) == pytest.approx(0.0, abs=1e-9)
    for up in range(1, cards + 1):
        solution = solve_position(GoofspielPosition.start(cards, up))
        assert solution.value == pytest.approx(0.0, abs=1e-9)
        assert solution.exploitability <= 1e-9


def test_one_card_is_a_forced_draw() -> None:
    solution = solve_position("1/1/-/1/+0", cards=1)
    assert solution.value == 0.0
    assert solution.mix(Side.P1) == {1: 1.0} and solution.mix(Side.P2) == {1: 1.0}


def test_two_cards_by_hand() -> None:
    """N = 2, prize u up and q = 3 - u to come. Equal bids tie this round and the next (the cards left are equal):
    0. Unequal bids split the prizes: the higher bid takes u now and then loses q with the card left, so player 1
    ends on u - q (bidding 2) or q - u (bidding 1). With the 2 up (q = 1), rows and columns bid 1, 2:

        [[ 0, -1],
         [+1,  0]]   bidding 2 dominates for both: value 0, both bid 2;

    with the 1 up (q = 2) the signs flip, bidding 1 dominates for both: value 0, both bid 1. Each is strict
    dominance, so the equilibrium is unique: bid the card that matches the prize. The game is worth 0."""
    for up, matrix in ((2, [[0.0, -1.0], [1.0, 0.0]]), (1, [[0.0, 1.0], [-1.0, 0.0]])):
        solution = solve_position(GoofspielPosition.start(2, up))
        assert solution.matrix.tolist() == matrix
        assert solution.value == 0.0
        assert solution.mix(Side.P1) == {1: float(up == 1), 2: float(up == 2)}
        assert solution.mix(Side.P2) == {1: float(up == 1), 2: float(up == 2)}
    assert game_value(2) == 0.0


@st.composite
def last_rounds(draw: st.DrawFn) -> GoofspielPosition:
    cards = draw(st.integers(1, 9))
    bid1, bid2, up = (draw(st.integers(1, cards)) for _ in range(3))
    played = frozenset(range(1, cards + 1)) - {up}
    diff = sum(p * draw(st.sampled_from((-1, 0, 1))) for p in sorted(played))
    return GoofspielPosition(frozenset({bid1}), frozenset({bid2}), frozenset(), up, diff, cards)


@SETTINGS
@given(last_rounds())
def test_a_last_round_is_decided_by_its_forced_bids(position: GoofspielPosition) -> None:
    (bid1,), (bid2,) = position.hand1, position.hand2
    assert position.up is not None
    final = position.diff + (position.up if bid1 > bid2 else -position.up if bid1 < bid2 else 0)
    solution = solve_position(position)
    assert solution.value == _sign(final)
    assert solution.mix(Side.P1) == {bid1: 1.0} and solution.mix(Side.P2) == {bid2: 1.0}


# ------------------------------------------------------------------------------------------------ the reference


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_states(max_cards=5, max_left=3))
def test_random_positions_match_a_plain_lp_per_state(state: GoofspielState) -> None:
    position = state.position
    assume(position.up is not None)
    assert position.up is not None
    reference = reference_matrix(position.hand1, position.hand2, position.prizes, position.up, position.diff)
    value = reference_lp(reference)
    solution = solve_position(position)
    assert solution.value == pytest.approx(value, abs=1e-9)
    assert np.allclose(solution.matrix, reference, atol=1e-9)
    # The solver's mixes are an equilibrium of the reference's game: no pure reply gains.
    row, col = np.array(solution.mix1), np.array(solution.mix2)
    assert row.min() >= 0 and col.min() >= 0 and row.sum() == pytest.approx(1) and col.sum() == pytest.approx(1)
    assert (reference @ col).max() <= value + 1e-9
    assert (row @ reference).min() >= value - 1e-9


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("1346/2356/146/5/+2", 6),  # deeper than the random ones: three prizes still to win after this one
        ("379/158/26/4/-3", 9),  # the largest N, near the end
    ],
)
def test_deeper_positions_match_the_plain_lp(text: str, cards: int) -> None:
    position = parse_position(text, cards)
    assert position.up is not None
    reference = reference_matrix(position.hand1, position.hand2, position.prizes, position.up, position.diff)
    solution = solve_position(position)
    assert solution.value == pytest.approx(reference_lp(reference), abs=1e-9)
    assert np.allclose(solution.matrix, reference, atol=1e-9)


# ------------------------------------------------------------------------------------------------ solver properties


@SETTINGS
@given(played_states(max_cards=5))
def test_swapping_the_players_negates_the_value(state: GoofspielState) -> None:
    position = state.position
    swapped = GoofspielPosition(
        position.hand2, position.hand1, position.prizes, position.up, -position.diff, position.cards
    )
    one, other = solve_position(position), solve_position(swapped)
    assert one.value == pytest.approx(-other.value, abs=1e-9)
    if position.up is None:
        assert one.value == _sign(position.diff) and one.bids1 == ()


def test_the_tables_count_what_they_solved_and_answer_again_from_memory() -> None:
    position = GoofspielPosition.start(6, 4)
    first = solve_position(position)
    stats = solver_stats()
    assert stats.positions >= first.solved >= 1 and stats.averages > 0
    again = solve_position(position)
    assert again.solved == 1  # only the position itself: everything below it is in the tables
    assert again.value == first.value


def test_the_equilibrium_player_bids_from_its_hand() -> None:
    state = GoofspielState(4, seed=11)
    rng = random.Random(2)
    player = GoofspielEquilibriumPlayer()
    while not state.is_terminal():
        bids = tuple(player.choose(state.view(side), rng) for side in Side)
        state.apply_joint(bids)
    assert state.current_player() == TERMINAL
    (advice,) = player.analyse(GoofspielState(3, seed=1).view(Side.P1), None, rng)
    assert advice.value == pytest.approx(0.0, abs=1e-9)
