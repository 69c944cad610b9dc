"""Twice Clap Game, Footstep and heap games: rules from the spec, text forms, undo/clone, and random play."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, NotationError
from core.footstep import FootstepPosition, FootstepState, FootstepView, position_outcome
from core.game import SIMULTANEOUS, TERMINAL, Game, Outcome, Side, View
from core.impartial import (
    DAWSONS_KAYLES,
    KAYLES,
    HeapGameState,
    HeapMove,
    HeapRule,
    HeapView,
    Nim,
    Octal,
    Subtraction,
    parse_rule,
)
from core.tcg import TcgAction, TcgState, TcgView, resolve_round

# --- Twice Clap Game ------------------------------------------------------------------------------------------


def tcg_after(text: str, state: str = "0,0", n: int = 3) -> TcgState:
    game = TcgState.from_text(state, n)
    game.apply_joint(game.parse_action(text))
    return game


def test_tcg_starts_at_zero_and_is_simultaneous() -> None:
    game = TcgState()
    assert game.points == (0, 0)
    assert game.current_player() == SIMULTANEOUS
    assert game.legal_actions(Side.P1) == game.legal_actions(Side.P2) == list(TcgAction)
    assert game.returns() == (0.0, 0.0)


def test_tcg_attacking_with_no_points_loses() -> None:
    game = tcg_after("ac")
    assert game.outcome() == Outcome.win(Side.P2, "player 1 had too few points for attack")
    assert game.returns() == (-1.0, 1.0)
    assert game.current_player() == TERMINAL
    assert game.legal_actions(Side.P1) == []


def test_tcg_strong_attack_needs_all_n_points() -> None:
    game = tcg_after("cs", "2,2")  # player 2 has 2 of the 3 points a strong attack costs
    result = game.outcome()
    assert result is not None
    assert result.winner is Side.P1


def test_tcg_both_overdrawing_restarts() -> None:
    game = tcg_after("aa", "0,0")
    assert game.points == (0, 0)
    assert not game.is_terminal()
    game = tcg_after("sa", "1,0")  # both negative even though by different amounts
    assert game.points == (0, 0)
    assert not game.is_terminal()


def test_tcg_strong_attack_beats_charge() -> None:
    game = tcg_after("sc", "3,1")
    assert game.outcome() == Outcome.win(Side.P1, "strong attack beats charge")
    game = tcg_after("ds", "2,3")
    assert game.outcome() == Outcome.win(Side.P2, "strong attack beats defense")


def test_tcg_charge_is_capped_at_n() -> None:
    game = tcg_after("cd", "3,0")
    assert game.points == (3, 0)
    assert not game.is_terminal()
    game = tcg_after("cc", "1,1", n=2)
    assert game.points == (2, 2)


@pytest.mark.parametrize(
    ("round_text", "winner"),
    [
        ("ca", Side.P2),
        ("ac", Side.P1),
        ("cs", Side.P2),
        ("as", Side.P2),
        ("ds", Side.P2),
        ("sc", Side.P1),
        ("sa", Side.P1),
        ("sd", Side.P1),
        ("cc", None),
        ("ad", None),
        ("dd", None),
        ("ss", None),
    ],
)
def test_tcg_outcome_table(round_text: str, winner: Side | None) -> None:
    # From (3, 3) nobody overdraws, so the table alone decides.
    game = tcg_after(round_text, "3,3")
    result = game.outcome()
    assert (result.winner if result is not None else None) is winner


def test_tcg_resolve_round_is_pure() -> None:
    result = resolve_round(3, (1, 1), (TcgAction.ATTACK, TcgAction.DEFENSE))
    assert result.points == (0, 1)
    assert result.outcome is None


def test_tcg_notation() -> None:
    game = TcgState()
    assert game.parse_action("ca") == (TcgAction.CHARGE, TcgAction.ATTACK)
    assert game.parse_action(" S d ") == (TcgAction.STRONG_ATTACK, TcgAction.DEFENSE)
    assert game.format_action(game.parse_action("sd")) == "sd"
    assert TcgAction.parse("strong attack") is TcgAction.STRONG_ATTACK
    assert TcgAction.CHARGE.label == "charge"
    with pytest.raises(InvalidMoveError, match="two letters"):
        game.parse_action("c")
    with pytest.raises(InvalidMoveError, match=r"c \(charge\)"):
        game.parse_action("cx")
    assert TcgState.from_text(" 1, 2 ", 3).state_text == "1,2"
    with pytest.raises(InvalidPositionError, match="0 to n = 3"):
        TcgState.from_text("4,0", 3)
    with pytest.raises(InvalidPositionError, match="'i1,i2'"):
        TcgState.from_text("1;2", 3)
    with pytest.raises(ValueError, match="at least 1"):
        TcgState(0)


def test_tcg_refuses_single_actions_and_play_after_the_end() -> None:
    game = TcgState()
    with pytest.raises(IllegalMoveError, match="apply_joint"):
        game.apply(TcgAction.CHARGE)
    with pytest.raises(IllegalMoveError, match="two in all"):
        game.apply_joint([TcgAction.CHARGE])
    game.apply_joint(game.parse_action("ac"))
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.apply_joint(game.parse_action("cc"))


def test_tcg_undo_restores_a_restart_exactly() -> None:
    game = TcgState.from_text("0,0")
    game.apply_joint(game.parse_action("cc"))
    before = game.view(Side.P1)
    game.apply_joint(game.parse_action("ss"))  # 1-3 < 0 for both: restart
    assert game.points == (0, 0)
    game.undo()
    assert game.view(Side.P1) == before
    game.undo()
    with pytest.raises(IndexError):
        game.undo()


# --- Footstep ---------------------------------------------------------------------------------------------------


def test_footstep_start_and_bids() -> None:
    game = FootstepState()
    assert game.position == FootstepPosition(50, 50, 0)
    assert game.legal_actions(Side.P1) == list(range(1, 51))
    with pytest.raises(ValueError, match="simultaneous"):
        game.legal_actions()


def test_footstep_higher_bid_moves_marker_and_both_pay() -> None:
    game = FootstepState(20, 3)
    game.apply_joint(game.parse_action("5:3"))
    assert game.position == (15, 17, 1)
    game.apply_joint(game.parse_action("4:4"))  # equal bids: the marker stays
    assert game.position == (11, 13, 1)
    game.apply_joint((1, 2))
    assert game.position == (10, 11, 0)


def test_footstep_goal_wins_by_two() -> None:
    game = FootstepState.from_text("5,5,2", 20, 3)
    game.apply_joint((2, 1))
    assert game.outcome() == Outcome.win(Side.P1, "the marker reached player 2's goal", points=2)
    assert game.returns() == (2.0, -2.0)
    game = FootstepState.from_text("5,5,-2", 20, 3)
    game.apply_joint((1, 3))
    assert game.returns() == (-2.0, 2.0)


def test_footstep_out_of_points() -> None:
    # Player 1 spends everything; player 2 keeps bidding and walks the marker toward player 1's goal.
    game = FootstepState.from_text("3,3,1", 20, 3)
    game.apply_joint((3, 1))
    assert game.position == (0, 2, 2)
    assert not game.is_terminal()
    assert game.legal_actions(Side.P1) == [0]
    with pytest.raises(IllegalMoveError, match="1 to 2"):
        game.apply_joint((0, 0))
    with pytest.raises(IllegalMoveError, match=r"no points left"):
        game.apply_joint((1, 1))
    game.apply_joint((0, 1))
    assert game.position == (0, 1, 1)
    assert not game.is_terminal()
    game.apply_joint((0, 1))
    assert game.outcome() == Outcome.draw("both are out of points, the marker on the centre line")


def test_footstep_both_out_scores_by_half() -> None:
    assert position_outcome(FootstepPosition(0, 0, 1), 3) == Outcome.win(
        Side.P1, "both are out of points, the marker on player 2's half", points=1
    )
    assert position_outcome(FootstepPosition(0, 0, -2), 3).score == -1.0  # type: ignore[union-attr]
    assert FootstepState.from_text("0,0,0", 5, 2).is_terminal()


def test_footstep_notation_and_errors() -> None:
    game = FootstepState(20, 3)
    assert game.parse_action(" 3 : 5 ") == (3, 5)
    assert game.format_action((3, 5)) == "3:5"
    assert FootstepState.from_text("20,18,-1", 20, 3).state_text == "20,18,-1"
    with pytest.raises(InvalidMoveError, match="'<bid1>:<bid2>'"):
        game.parse_action("3-5")
    with pytest.raises(InvalidPositionError, match="'x,y,z'"):
        FootstepState.from_text("1,2", 20, 3)
    with pytest.raises(InvalidPositionError, match="-3 to 3"):
        FootstepState.from_text("1,2,4", 20, 3)
    with pytest.raises(InvalidPositionError, match="0 to n = 20"):
        FootstepState.from_text("21,2,0", 20, 3)
    with pytest.raises(IllegalMoveError, match="cannot bid 21"):
        game.apply_joint((21, 1))
    with pytest.raises(IllegalMoveError, match="apply_joint"):
        game.apply(3)


# --- Heap games -------------------------------------------------------------------------------------------------


def grundy(rule: HeapRule, size: int, memo: dict[int, int]) -> int:
    """Grundy value of one heap: a tiny independent check that the move sets are right."""
    if size not in memo:
        seen = set()
        for parts in rule.options(size):
            value = 0
            for part in parts:
                value ^= grundy(rule, part, memo)
            seen.add(value)
        memo[size] = next(g for g in range(len(seen) + 1) if g not in seen)
    return memo[size]


def test_nim_moves_and_normal_play() -> None:
    game = HeapGameState.from_text("1,2")
    assert [game.format_action(m) for m in game.legal_actions()] == ["1:1", "2:1", "2:2"]
    assert game.legal_actions(Side.P2) == []
    game.apply(game.parse_action("2:2"))
    assert game.heaps == (1, 0)
    assert game.current_player() == Side.P2
    game.apply(game.parse_action("1:1"))
    assert game.outcome() == Outcome.win(Side.P2, "player 1 cannot move (normal play: whoever cannot move loses)")
    assert game.current_player() == TERMINAL
    assert game.legal_actions() == []


def test_misere_last_mover_loses() -> None:
    game = HeapGameState((1,), misere=True)
    game.apply(HeapMove(0, 1))
    result = game.outcome()
    assert result is not None
    assert result.winner is Side.P2
    assert game.returns() == (-1.0, 1.0)


def test_subtraction_grundy_matches_spec() -> None:
    rule = Subtraction({1, 2, 3})
    memo: dict[int, int] = {}
    assert [grundy(rule, n, memo) for n in range(12)] == [n % 4 for n in range(12)]
    assert grundy(rule, 3, memo) ^ grundy(rule, 4, memo) ^ grundy(rule, 5, memo) == 2
    game = HeapGameState.from_text("3,4,5", rule)
    with pytest.raises(IllegalMoveError, match=r"subtraction game \{1,2,3\} does not allow taking 4"):
        game.apply(game.parse_action("2:4"))


def test_octal_digit_semantics() -> None:
    # Kayles (0.77) and Dawson's Kayles (0.07): knock down one or two adjacent pins / exactly two pins from a
    # row, so the rest is two rows of any length, either possibly empty. The known Grundy sequences check it.
    kayles = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2]
    dawson = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3]
    kmemo: dict[int, int] = {}
    dmemo: dict[int, int] = {}
    assert [grundy(KAYLES, n, kmemo) for n in range(20)] == kayles
    assert [grundy(DAWSONS_KAYLES, n, dmemo) for n in range(20)] == dawson
    assert KAYLES.options(3) == {(1,), (2,), (1, 1)}
    assert KAYLES.options(2) == {(), (1,)}
    assert Octal("0.1").options(1) == {()}  # bit 1: only the whole heap
    assert Octal("0.1").options(2) == set()
    assert Octal("0.4").options(4) == {(1, 2)}  # bit 4: must split
    assert Octal("4.0").options(3) == {(1, 2)}  # d_0 = 4: split without taking
    assert Octal("0.770") == KAYLES
    assert KAYLES.text == "0.77"


def test_heap_notation() -> None:
    assert HeapMove.parse(" 2 : 1 / 3 + 4 ") == HeapMove(1, 1, (3, 4))
    assert repr(HeapMove(1, 1, (3, 4))) == "HeapMove.parse('2:1/3+4')"
    assert HeapMove.parse("3:2").number == 3
    with pytest.raises(InvalidMoveError, match="'<heap>:<take>'"):
        HeapMove.parse("2-3")
    with pytest.raises(InvalidMoveError, match="numbered from 1"):
        HeapMove.parse("0:3")
    with pytest.raises(InvalidPositionError, match="'3,4,5'"):
        HeapGameState.from_text("3,,4")
    with pytest.raises(InvalidPositionError, match="at least one heap"):
        HeapGameState(())
    assert parse_rule("nim") == Nim()
    assert parse_rule("{3, 1}") == Subtraction({1, 3})
    assert parse_rule("kayles") == KAYLES
    assert parse_rule(".07") == DAWSONS_KAYLES
    for rule in (Nim(), Subtraction({1, 2, 3}), KAYLES, Octal("4.37")):
        assert parse_rule(rule.text) == rule
    with pytest.raises(NotationError, match="octal code"):
        parse_rule("0.78x")
    with pytest.raises(NotationError, match="only be 0 or 4"):
        parse_rule("2.7")
    with pytest.raises(NotationError, match="positive"):
        parse_rule("{0,1}")


def test_heap_splits() -> None:
    game = HeapGameState.from_text("2,5", KAYLES)
    assert game.parse_action("2:1") == HeapMove(1, 1)  # plain form: the rest stays one heap
    game.apply(game.parse_action("2:1/3+1"))
    assert game.heaps == (2, 3, 1)
    assert game.heaps_text == "2,3,1"
    with pytest.raises(IllegalMoveError, match="2 stones left must split into two non-empty heaps, not 1\\+2"):
        game.apply(HeapMove(1, 1, (1, 2)))
    game.undo()
    assert game.heaps_text == "2,5"
    # Under 0.4 a heap of 3 minus one stone must split 1+1, so the short form is unambiguous...
    must_split = HeapGameState((3, 5), Octal("0.4"))
    assert must_split.parse_action("1:1") == HeapMove(0, 1, (1, 1))
    # ...but a heap of 5 minus one can split 1+3 or 2+2: the short form is refused with the choices.
    with pytest.raises(InvalidMoveError, match=r"write 2:1/1\+3 or 2:1/2\+2"):
        must_split.parse_action("2:1")


def test_heap_illegal_moves_say_why() -> None:
    game = HeapGameState.from_text("3,0")
    with pytest.raises(IllegalMoveError, match="no heap 3: heaps are numbered 1 to 2"):
        game.apply(game.parse_action("3:1"))
    with pytest.raises(IllegalMoveError, match="heap 2 has 0 stones"):
        game.apply(game.parse_action("2:1"))
    with pytest.raises(IllegalMoveError, match="does not allow taking 0"):
        game.apply(game.parse_action("1:0"))
    with pytest.raises(IllegalMoveError, match="turn-based"):
        game.apply_joint([HeapMove(0, 1)])
    assert game.heaps == (3, 0)
    assert game.history() == []


# --- Every game through the Game protocol only ------------------------------------------------------------------

GAMES: dict[str, Callable[[], Any]] = {
    "tcg n=3": functools.partial(TcgState, 3),
    "tcg n=1 from 1,0": lambda: TcgState.from_text("1,0", 1),
    "footstep 20/3": functools.partial(FootstepState, 20, 3),
    "footstep 6/2": functools.partial(FootstepState, 6, 2),
    "nim": lambda: HeapGameState.from_text("3,4,5"),
    "misere subtraction": lambda: HeapGameState.from_text("6,7", Subtraction({1, 2, 3}), misere=True),
    "kayles": lambda: HeapGameState.from_text("7,4", KAYLES),
    "dawson": lambda: HeapGameState.from_text("9", DAWSONS_KAYLES),
}

MAX_STEPS = 200  # TCG can go on for ever (charging back and forth); the others end well before this


def snapshot(game: Any) -> tuple[Any, ...]:
    return (game.view(Side.P1), game.view(Side.P2), game.current_player(), game.returns())


def play_step(game: Any, data: st.DataObject) -> Any:
    """One random step through the protocol: a joint round or a single action; returns what was played."""
    if game.current_player() == SIMULTANEOUS:
        joint = tuple(data.draw(st.sampled_from(game.legal_actions(side))) for side in Side)
        game.apply_joint(joint)
        return joint
    action = data.draw(st.sampled_from(game.legal_actions()))
    game.apply(action)
    return action


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_random_play_through_the_protocol(name: str, data: st.DataObject) -> None:
    game = GAMES[name]()
    assert isinstance(game, Game)
    start = snapshot(game)
    snapshots = [start]
    for _ in range(MAX_STEPS):
        if game.is_terminal():
            break
        player = game.current_player()
        assert player == SIMULTANEOUS or player in (Side.P1, Side.P2)
        assert game.outcome() is None
        assert game.returns() == (0.0, 0.0)
        view = game.view(Side.P1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.outcome = None
        # What a player is given to choose from is what the game allows it.
        for side in Side:
            seen = game.view(side)
            assert isinstance(seen, View) and seen.viewer is side
            assert list(seen.legal_actions()) == game.legal_actions(side)
        # A clone plays on by itself without touching the original.
        twin = game.clone()
        if not twin.is_terminal():
            play_step(twin, data)
        assert snapshot(game) == snapshots[-1]
        played = play_step(game, data)
        assert game.parse_action(game.format_action(played)) == played
        assert game.history()[-1] == played
        snapshots.append(snapshot(game))
    if game.game_name != "tcg":
        assert game.is_terminal(), "Footstep and heap games always end"
    if game.is_terminal():
        result = game.outcome()
        assert result is not None
        assert game.current_player() == TERMINAL
        assert game.returns() == result.returns()
        assert sum(game.returns()) == 0
        assert all(game.legal_actions(side) == [] for side in Side)
        play = game.apply if game.game_name == "nim" else game.apply_joint
        with pytest.raises(IllegalMoveError, match="over"):
            play(game.parse_action("cc" if game.game_name == "tcg" else "1:1"))
    # Replaying the history on a fresh game reproduces the state.
    replay = GAMES[name]()
    for played in game.history():
        if replay.current_player() == SIMULTANEOUS:
            replay.apply_joint(played)
        else:
            replay.apply(played)
    assert snapshot(replay) == snapshots[-1]
    # Undo walks back through exactly the same states.
    for expected in reversed(snapshots[:-1]):
        game.undo()
        assert snapshot(game) == expected
    with pytest.raises(IndexError):
        game.undo()


def test_protocol_types() -> None:
    # A static check as much as a runtime one: each class against the protocol with its own action and view types.
    tcg: Game[TcgAction, TcgView] = TcgState()
    footstep: Game[int, FootstepView] = FootstepState()
    nim: Game[HeapMove, HeapView] = HeapGameState((1,))
    games: list[Game[Any, Any]] = [tcg, footstep, nim]
    assert [g.game_name for g in games] == ["tcg", "footstep", "nim"]
    assert all(isinstance(g.view(Side.P1), View) for g in games)
