"""The rules of the Geister family (``spec/rules.md`` section 1) once the pieces are set up: moves, captures,
escapes, the ends of a game (the last blue or red taken, the ply-limit draw, no move left) and undo. The variants and
set-ups are in ``test_geister_setup.py``, what each player may see in ``test_geister_views.py``."""

from __future__ import annotations

import pytest
from geister_helpers import GEISTER, MINI, moves, play, snapshot, sq

from core.errors import IllegalMoveError, InvalidMoveError
from core.game import TERMINAL, Game, Side
from core.geister import VARIANTS, Colour, GeisterState, Setup
from core.notation import Move

# --------------------------------------------------------------------------------------------------- moves


def test_opening_moves_mini() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    # One step up, down, left or right, never onto one's own piece, never off the board.
    assert set(state.legal_moves()) == moves("b1-b2 b1-a1 c1-c2 c1-d1")
    assert state.legal_actions() == state.legal_moves()
    state.push_text("b1-b2")
    assert state.to_move is Side.P2
    assert set(state.legal_moves()) == moves("b4-b3 b4-a4 c4-c3 c4-d4")


def test_opening_moves_geister() -> None:
    state = GeisterState.from_setups(GEISTER, "BBBBRRRR", "BBBBRRRR")
    expected = moves("b1-a1 e1-f1 b2-a2 b2-b3 c2-c3 d2-d3 e2-e3 e2-f2")
    assert set(state.legal_moves()) == expected
    assert len(state.legal_moves()) == len(expected)


def test_moves_in_the_open_go_four_ways_and_capture() -> None:
    # Player 1's blue on c2 next to player 2's red on c3; own red on b2.
    state = GeisterState.from_position("1b2/2r1/1RB1/4 1", "mini-geister")
    assert set(state.legal_moves()) == moves("c2-c3 c2-d2 c2-c1 b2-b3 b2-a2 b2-b1")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("b1-c2", "not one step"),  # diagonal
        ("b1-b3", "not one step"),  # two steps
        ("b1-c1", "own pieces"),  # onto one's own piece
        ("b1-b1", "not one step"),
        ("a1-a2", "no piece on a1"),
        ("b4-b3", "belongs to player 2"),
        ("b1-b5", "not on the 4x4 board"),
        ("e1-e2", "not on the 4x4 board"),
        ("b1-out", "escapes only from player 1's exits"),
        ("c1-out", "a4 or d4"),
    ],
)
def test_illegal_moves_raise_with_a_reason_and_change_nothing(move: str, reason: str) -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    before = snapshot(state)
    assert state.why_illegal(Move.parse(move)) is not None
    assert not state.is_legal(Move.parse(move))
    with pytest.raises(IllegalMoveError, match=reason) as info:
        state.push_text(move)
    assert isinstance(info.value, ValueError)
    assert move in str(info.value)
    assert snapshot(state) == before


def test_unparseable_move_is_an_invalid_move_error() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    before = snapshot(state)
    with pytest.raises(InvalidMoveError):
        state.push_text("b1 to b2")
    assert snapshot(state) == before


def test_capture_reveals_the_colour_to_both_players() -> None:
    # Geister, so that one capture does not end the game.
    state = GeisterState.from_setups(GEISTER, "BBBBRRRR", "RRRRBBBB")
    play(state, "b2-b3 b5-b4")
    assert state.view(Side.P1).piece_at(sq("b4")).colour is Colour.UNKNOWN  # type: ignore[union-attr]
    state.push_text("b3-b4")  # player 1's red (slot 4, on b2) takes player 2's blue (slot 4, on b5)
    assert not state.is_terminal()
    assert len(state.captured) == 1
    taken = state.captured[0]
    assert (taken.side, taken.colour, taken.slot) == (Side.P2, Colour.BLUE, 4)
    for viewer in Side:
        view = state.view(viewer)
        assert view.captured == (taken,)
        assert view.captured_of(Side.P2) == [taken]
        assert view.remaining(Side.P2, Colour.BLUE) == 3
        assert view.remaining(Side.P2, Colour.RED) == 4
    # The capturing piece stays hidden from player 2.
    assert state.view(Side.P2).piece_at(sq("b4")).colour is Colour.UNKNOWN  # type: ignore[union-attr]
    assert state.view(Side.P1).piece_at(sq("b4")).colour is Colour.RED  # type: ignore[union-attr]
    assert state.position() == "1rrrr1/2bbb1/1R4/6/2RRR1/1BBBB1 2 b 3"


# --------------------------------------------------------------------------------------------------- escapes


@pytest.mark.parametrize(
    ("position", "variant", "move", "winner"),
    [
        ("B3/4/1rb1/2R1 1", "mini-geister", "a4-out", Side.P1),
        ("3B/4/1rb1/2R1 1", "mini-geister", "d4-out", Side.P1),
        ("1R2/4/1r2/b3 2", "mini-geister", "a1-out", Side.P2),
        ("1R1B/4/1r2/3b 2", "mini-geister", "d1-out", Side.P2),
        ("B5/6/1rr3/6/1R4/1b4 1", "geister", "a6-out", Side.P1),
        ("5B/6/1rr3/6/1R4/1b4 1", "geister", "f6-out", Side.P1),
        ("1B4/6/1rr3/6/1R4/b5 2", "geister", "a1-out", Side.P2),
        ("1B4/6/1rr3/6/1R4/5b 2", "geister", "f1-out", Side.P2),
        ("B3/4/1rb1/1RR1 1", "mini-geister-3v2-rrb", "a4-out", Side.P1),
        ("1R1B/4/1r2/1b1b 2", "mini-geister-2v3-rbb", "d1-out", Side.P2),
    ],
)
def test_a_blue_piece_escapes_from_its_own_exit_and_wins(position: str, variant: str, move: str, winner: Side) -> None:
    state = GeisterState.from_position(position, variant)
    assert not state.is_terminal()
    escape = Move.parse(move)
    assert escape.is_escape
    assert escape in state.legal_moves()
    state.push(escape)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is winner
    assert "escape" in outcome.reason
    assert state.returns() == ((1.0, -1.0) if winner is Side.P1 else (-1.0, 1.0))
    assert state.escaped is not None
    assert (state.escaped.side, state.escaped.colour) == (winner, Colour.BLUE)
    assert state.current_player() == TERMINAL
    assert state.piece_at(escape.src) is None


@pytest.mark.parametrize(
    ("position", "variant", "move"),
    [
        ("R3/4/1rb1/2B1 1", "mini-geister", "a4-out"),
        ("3R/4/1rb1/2B1 1", "mini-geister", "d4-out"),
        ("1B2/4/1b2/r3 2", "mini-geister", "a1-out"),
        ("R5/6/1bb3/6/1B4/1r4 1", "geister", "a6-out"),
        ("1B4/6/1bb3/6/1R4/5r 2", "geister", "f1-out"),
    ],
)
def test_a_red_piece_never_escapes(position: str, variant: str, move: str) -> None:
    state = GeisterState.from_position(position, variant)
    before = snapshot(state)
    assert Move.parse(move) not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="red piece never escapes"):
        state.push_text(move)
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("position", "variant", "move", "exits"),
    [
        # A blue piece on the opponent's exit, or on a corner that is no exit, cannot leave.
        ("4/4/1rb1/B2R 1", "mini-geister", "a1-out", "a4 or d4"),
        ("b2R/4/4/2B1 2", "mini-geister", "a4-out", "a1 or d1"),
        ("1B1b/4/4/2R1 2", "mini-geister", "d4-out", "a1 or d1"),
        ("6/6/1rr3/6/1R4/B4b 1", "geister", "a1-out", "a6 or f6"),
        ("1B4/6/1r4/6/1R4/2b3 2", "geister", "c1-out", "a1 or f1"),
    ],
)
def test_escape_only_from_ones_own_exits(position: str, variant: str, move: str, exits: str) -> None:
    state = GeisterState.from_position(position, variant)
    before = snapshot(state)
    assert Move.parse(move) not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match=exits):
        state.push_text(move)
    assert snapshot(state) == before


# --------------------------------------------------------------------------------------------------- captures end games


def test_capturing_the_last_blue_wins() -> None:
    # Player 2 has lost three blues; player 1's red on c2 takes the last one on c3.
    state = GeisterState.from_position("rrrr2/6/6/2b3/2R3/B5 1 bbb 40", "geister")
    assert not state.is_terminal()
    state.push_text("c2-c3")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is Side.P1
    assert "blue" in outcome.reason
    assert outcome.result_text == "1-0"


def test_capturing_the_last_red_loses() -> None:
    # Player 1 takes player 2's last red: player 2 wins.
    state = GeisterState.from_position("bbbb2/6/6/2r3/2B3/R5 1 rrr 40", "geister")
    state.push_text("c2-c3")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is Side.P2
    assert "red" in outcome.reason
    assert state.returns() == (-1.0, 1.0)


def test_capturing_a_blue_that_is_not_the_last_does_not_end_geister() -> None:
    state = GeisterState.from_position("rrrr2/6/6/2b3/2R3/B1b3 1 bb 40", "geister")
    state.push_text("c2-c3")
    assert not state.is_terminal()
    assert state.to_move is Side.P2


def test_player_2_capturing_player_1s_last_blue_wins() -> None:
    state = GeisterState.from_position("rrrr2/6/6/2b3/2B3/R5 2 BBB 41", "geister")
    state.push_text("c3-c2")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is Side.P2


@pytest.mark.parametrize(
    ("position", "move", "winner"),
    [
        ("2r1/4/1b2/1BR1 1", "b1-b2", Side.P1),  # player 1 captures blue: wins
        ("2b1/4/1r2/1BR1 1", "b1-b2", Side.P2),  # player 1 captures red: loses
        ("2r1/4/1b2/1BR1 2", "b2-b1", Side.P2),  # player 2 captures blue: wins
        ("2r1/4/1b2/1RB1 2", "b2-b1", Side.P1),  # player 2 captures red: loses
    ],
)
def test_every_capture_ends_mini_geister(position: str, move: str, winner: Side) -> None:
    state = GeisterState.from_position(position, "mini-geister")
    assert not state.is_terminal()
    state.push_text(move)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is winner
    assert state.legal_moves() == []
    assert state.legal_actions() == []


@pytest.mark.parametrize(
    ("name", "setup1", "setup2", "line", "winner"),
    [
        # The 3-piece side (red-red-blue) loses its blue: the other side wins.
        ("mini-geister-3v2-rrb", "RRB", "RB", "b2-b3 b4-b3", Side.P2),
        # The 3-piece side loses one red: the game goes on; both reds: the 3-piece side wins.
        ("mini-geister-3v2-rrb", "BRR", "BR", "b2-b3 b4-b3", None),
        ("mini-geister-3v2-rrb", "BRR", "BR", "b2-b3 b4-b3 b1-a1 b3-c3 a1-a2 c3-c2 a2-a3 c2-c1", Side.P1),
        # The 2-piece side loses its blue against red-blue-blue.
        ("mini-geister-3v2-rbb", "RBB", "BR", "b2-b3 c4-c3 b3-b4", Side.P1),
    ],
)
def test_3v2_capture_rules(name: str, setup1: str, setup2: str, line: str, winner: Side | None) -> None:
    state = play(GeisterState.from_setups(VARIANTS[name], setup1, setup2), line)
    outcome = state.outcome()
    if winner is None:
        assert outcome is None
    else:
        assert outcome is not None
        assert outcome.winner is winner


# ------------------------------------------------------------------------------------------ draws, stalemate


@pytest.mark.parametrize(("variant", "limit"), [("mini-geister", 200), ("geister", 300)])
def test_ply_limit_draw(variant: str, limit: int) -> None:
    board = "2r1/4/1b2/1BR1" if variant == "mini-geister" else "3r2/6/6/6/1b4/1BR3"
    state = GeisterState.from_position(f"{board} 1 - {limit - 1}", variant)
    assert not state.is_terminal()
    state.push_text("c1-d1")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert str(limit) in outcome.reason
    assert outcome.result_text == "1/2-1/2"
    assert state.returns() == (0.0, 0.0)
    state.pop()
    assert not state.is_terminal()


@pytest.mark.parametrize(("variant", "limit"), [("mini-geister", 200), ("geister", 300)])
def test_no_draw_before_the_limit(variant: str, limit: int) -> None:
    board = "2r1/4/1b2/1BR1" if variant == "mini-geister" else "3r2/6/6/6/1b4/1BR3"
    state = GeisterState.from_position(f"{board} 1 - {limit - 2}", variant)
    state.push_text("c1-d1")
    assert not state.is_terminal()


def test_a_position_at_the_limit_is_already_drawn() -> None:
    state = GeisterState.from_position("2r1/4/1b2/1BR1 1 - 200", "mini-geister")
    assert state.is_terminal()
    assert state.outcome().winner is None  # type: ignore[union-attr]
    with pytest.raises(IllegalMoveError, match="over"):
        state.push_text("c1-d1")


def test_a_decisive_last_ply_is_not_a_draw() -> None:
    capture = GeisterState.from_position("2r1/4/1b2/1BR1 1 - 199", "mini-geister")
    capture.push_text("b1-b2")
    assert capture.outcome().winner is Side.P1  # type: ignore[union-attr]
    escape = GeisterState.from_position("B3/4/1rb1/2R1 1 - 199", "mini-geister")
    escape.push_text("a4-out")
    assert escape.outcome().winner is Side.P1  # type: ignore[union-attr]


def test_a_player_with_no_pieces_has_no_move_and_loses() -> None:
    state = GeisterState.from_position("2rb/4/4/4 1 - 6", "mini-geister")
    assert state.legal_moves() == []
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is Side.P2
    assert "no legal move" in outcome.reason
    assert state.current_player() == TERMINAL


def test_losing_the_last_piece_of_unknown_colour_loses_by_having_no_move() -> None:
    # Colours hidden (a record with '?' set-ups): capturing decides nothing by itself, but then player 1 is stuck.
    state = GeisterState.from_position("1u2/4/4/1Uu1 2", "mini-geister")
    assert not state.is_terminal()
    state.push_text("c1-b1")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner is Side.P2
    assert "no legal move" in outcome.reason
    state.pop()
    assert not state.is_terminal()
    assert state.position() == "1u2/4/4/1Uu1 2 - 0"


def test_moving_after_the_game_is_over_is_refused() -> None:
    state = play(GeisterState.from_setups(MINI, "BR", "BR"), "b1-b2 b4-b3 b2-b3")  # P1 takes blue
    assert state.outcome().winner is Side.P1  # type: ignore[union-attr]
    before = snapshot(state)
    for text in ("c1-c2", "c4-c3", "a1-a2"):
        with pytest.raises(IllegalMoveError, match="game is over"):
            state.push_text(text)
    assert snapshot(state) == before
    assert state.legal_actions() == []
    assert state.legal_actions(Side.P1) == []
    assert state.legal_actions(Side.P2) == []
    assert state.current_player() == TERMINAL


def test_apply_joint_is_refused() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    with pytest.raises(IllegalMoveError):
        state.apply_joint([Move.parse("b1-b2"), Move.parse("b4-b3")])


# --------------------------------------------------------------------------------------------------- undo


def test_pop_restores_every_earlier_position_exactly() -> None:
    state = GeisterState.from_setups(GEISTER, "BRBRBRBR", "RBRBRBRB")
    line = "b2-b3 b5-b4 b3-b4 c5-c4 c2-c3 c4-c3 b1-a1 e5-f5 a1-a2 f5-f4 a2-a3 f4-f3 a3-a4 f3-f2 a4-a5 f2-f1"
    snapshots = [snapshot(state)]
    for move in line.split():
        state.push_text(move)
        snapshots.append(snapshot(state))
    assert len(state.captured) == 2
    assert state.ply == len(line.split())
    assert state.moves() == [Move.parse(m) for m in line.split()]
    for expected in reversed(snapshots[:-1]):
        state.pop()
        assert snapshot(state) == expected
    with pytest.raises(IndexError):
        state.pop()
    assert state.phase == "play"


def test_undo_restores_the_end_of_the_game() -> None:
    # Escape: the escaped piece comes back and the game is on again.
    state = GeisterState.from_position("B3/4/1rb1/2R1 1", "mini-geister")
    before = snapshot(state)
    state.push_text("a4-out")
    assert state.is_terminal()
    state.undo()
    assert snapshot(state) == before
    assert state.escaped is None
    # Capture of the last blue: the captured piece goes back to its square.
    state = GeisterState.from_position("2r1/4/1b2/1BR1 1 - 17", "mini-geister")
    before = snapshot(state)
    state.push_text("b1-b2")
    state.undo()
    assert snapshot(state) == before
    assert state.captured == ()


def test_clone_is_independent() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    copy = state.clone()
    state.push_text("b1-b2")
    assert copy.position() == "1rb1/4/4/1BR1 1 - 0"
    assert copy.history() == [Setup((Colour.BLUE, Colour.RED)), Setup((Colour.RED, Colour.BLUE))]
    copy.push_text("c1-c2")
    assert state.position() == "1rb1/4/1B2/2R1 2 - 1"


def test_state_implements_the_game_protocol() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    assert isinstance(state, Game)
    assert state.game_name == "mini-geister"
    action = state.parse_action("b1-b2")
    assert state.format_action(action) == "b1-b2"
    assert state.returns() == (0.0, 0.0)
    assert state.outcome() is None
