"""The rules of the Geister family (``spec/rules.md`` section 1) and the information each player may see."""

from __future__ import annotations

import gc
import itertools
import math
import types
from typing import Any

import pytest

from core.errors import IllegalMoveError, InvalidMoveError, NotationError
from core.game import TERMINAL, Game, Side
from core.geister import VARIANTS, Colour, GeisterState, GeisterView, Setup, Variant, variant_by_name
from core.notation import Move, Square

GEISTER = VARIANTS["geister"]
MINI = VARIANTS["mini-geister"]


def sq(name: str) -> Square:
    return Square.parse(name)


def squares(names: str) -> tuple[Square, ...]:
    return tuple(sq(n) for n in names.split())


def moves(names: str) -> set[Move]:
    return {Move.parse(n) for n in names.split()}


def play(state: GeisterState, text: str) -> GeisterState:
    for move in text.split():
        state.push_text(move)
    return state


def snapshot(state: GeisterState) -> tuple[Any, ...]:
    """Everything observable about a state, to check that something left it unchanged."""
    return (
        state.position(),
        state.phase,
        state.current_player(),
        state.outcome(),
        state.escaped,
        state.history(),
        state.view(Side.P1),
        state.view(Side.P2),
        sorted(state.legal_moves(), key=str),
    )


# --------------------------------------------------------------------------------------------------- variants


def test_the_shipped_variants() -> None:
    assert set(VARIANTS) == {
        "geister",
        "mini-geister",
        "mini-geister-3v2-rrb",
        "mini-geister-3v2-rbb",
        "mini-geister-2v3-rrb",
        "mini-geister-2v3-rbb",
    }
    for name, variant in VARIANTS.items():
        assert variant.name == name
        assert variant_by_name(name) is variant


def test_unknown_variant_name_lists_the_known_ones() -> None:
    with pytest.raises(NotationError, match="mini-geister"):
        variant_by_name("chess")


# name: (board, player 1's set-up squares in order, player 2's, (blue, red) of player 1, of player 2)
SHAPES: dict[str, tuple[tuple[int, int], str, str, tuple[int, int], tuple[int, int]]] = {
    "geister": ((6, 6), "b1 c1 d1 e1 b2 c2 d2 e2", "b6 c6 d6 e6 b5 c5 d5 e5", (4, 4), (4, 4)),
    "mini-geister": ((4, 4), "b1 c1", "b4 c4", (1, 1), (1, 1)),
    "mini-geister-3v2-rrb": ((4, 4), "b1 c1 b2", "b4 c4", (1, 2), (1, 1)),
    "mini-geister-3v2-rbb": ((4, 4), "b1 c1 b2", "b4 c4", (2, 1), (1, 1)),
    "mini-geister-2v3-rrb": ((4, 4), "b1 c1", "b4 c4 b3", (1, 1), (1, 2)),
    "mini-geister-2v3-rbb": ((4, 4), "b1 c1", "b4 c4 b3", (1, 1), (2, 1)),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_variant_shape(name: str) -> None:
    variant = VARIANTS[name]
    (width, height), setup1, setup2, counts1, counts2 = SHAPES[name]
    assert (variant.width, variant.height) == (width, height)
    assert variant.setup_squares == (squares(setup1), squares(setup2))
    assert (variant.blues[Side.P1], variant.reds[Side.P1]) == counts1
    assert (variant.blues[Side.P2], variant.reds[Side.P2]) == counts2


@pytest.mark.parametrize(
    ("name", "exits1", "exits2"),
    [("geister", "a6 f6", "a1 f1")] + [(name, "a4 d4", "a1 d1") for name in sorted(SHAPES) if name != "geister"],
)
def test_exits(name: str, exits1: str, exits2: str) -> None:
    variant = VARIANTS[name]
    assert set(variant.exits[Side.P1]) == set(squares(exits1))
    assert set(variant.exits[Side.P2]) == set(squares(exits2))


@pytest.mark.parametrize(("name", "limit"), [("geister", 300)] + [(n, 200) for n in sorted(SHAPES) if n != "geister"])
def test_ply_limits(name: str, limit: int) -> None:
    assert VARIANTS[name].ply_limit == limit


# --------------------------------------------------------------------------------------------------- set-up phase


@pytest.mark.parametrize(
    ("name", "count1", "count2"),
    [
        ("geister", math.comb(8, 4), math.comb(8, 4)),
        ("mini-geister", 2, 2),
        ("mini-geister-3v2-rrb", 3, 2),
        ("mini-geister-3v2-rbb", 3, 2),
        ("mini-geister-2v3-rrb", 2, 3),
        ("mini-geister-2v3-rbb", 2, 3),
    ],
)
def test_legal_setups(name: str, count1: int, count2: int) -> None:
    variant = VARIANTS[name]
    for side, count in ((Side.P1, count1), (Side.P2, count2)):
        setups = variant.setups(side)
        assert len(setups) == count
        assert len(set(setups)) == count
        for setup in setups:
            assert setup.colours.count(Colour.BLUE) == variant.blues[side]
            assert setup.colours.count(Colour.RED) == variant.reds[side]
            assert variant.parse_setup(setup.to_text(), side) == setup


def test_setup_phase_order_and_actions() -> None:
    state = GeisterState(GEISTER)
    phases = [state.phase]
    assert state.current_player() == Side.P1
    assert len(state.legal_actions()) == 70
    assert state.legal_actions(Side.P2) == []
    assert state.legal_moves() == []
    state.apply(GEISTER.parse_setup("BBBBRRRR", Side.P1))
    phases.append(state.phase)
    assert state.current_player() == Side.P2
    assert state.legal_actions(Side.P1) == []
    assert len(state.legal_actions(Side.P2)) == 70
    state.apply(state.parse_action("RRRRBBBB"))
    phases.append(state.phase)
    assert phases == ["setup", "setup", "play"]
    assert state.current_player() == Side.P1
    assert state.setup(Side.P1) == Setup((Colour.BLUE,) * 4 + (Colour.RED,) * 4)
    assert state.setup(Side.P2) == Setup((Colour.RED,) * 4 + (Colour.BLUE,) * 4)
    assert all(isinstance(a, Move) for a in state.legal_actions())


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_setup_places_colours_in_the_variant_order(name: str) -> None:
    variant = VARIANTS[name]
    setup1, setup2 = variant.setups(Side.P1)[-1], variant.setups(Side.P2)[0]
    state = GeisterState.from_setups(variant, setup1, setup2)
    for side, setup in ((Side.P1, setup1), (Side.P2, setup2)):
        for slot, (square, colour) in enumerate(zip(variant.setup_squares[side], setup.colours, strict=True)):
            piece = state.piece_at(square)
            assert piece is not None
            assert (piece.side, piece.colour, piece.slot) == (side, colour, slot)
    on_board = list(state.pieces())
    assert len(on_board) == variant.pieces(Side.P1) + variant.pieces(Side.P2)


def test_3v2_third_piece_square_depends_on_the_side() -> None:
    p1_three = GeisterState.from_setups(VARIANTS["mini-geister-3v2-rrb"], "RRB", "BR")
    assert p1_three.position(short=True) == "1br1/4/1B2/1RR1 1"
    p2_three = GeisterState.from_setups(VARIANTS["mini-geister-2v3-rrb"], "BR", "RRB")
    assert p2_three.position(short=True) == "1rr1/1b2/4/1BR1 1"


@pytest.mark.parametrize(
    ("name", "text", "side"),
    [
        ("mini-geister", "BB", Side.P1),
        ("mini-geister", "RR", Side.P2),
        ("geister", "BBBBBRRR", Side.P1),
        ("geister", "BRBRBRBB", Side.P2),
        ("mini-geister-3v2-rrb", "RBB", Side.P1),
        ("mini-geister-3v2-rbb", "RRB", Side.P1),
        ("mini-geister-2v3-rbb", "RRB", Side.P2),
    ],
)
def test_setup_with_wrong_colour_counts_refused(name: str, text: str, side: Side) -> None:
    variant = VARIANTS[name]
    with pytest.raises(IllegalMoveError, match="blue"):
        variant.parse_setup(text, side)


@pytest.mark.parametrize(
    ("name", "text", "side"),
    [
        ("mini-geister", "B", Side.P1),
        ("mini-geister", "BRB", Side.P1),
        ("mini-geister", "BX", Side.P1),
        ("geister", "BBBBRRR", Side.P1),
        ("mini-geister-3v2-rrb", "BR", Side.P1),
        ("mini-geister-3v2-rrb", "RRB", Side.P2),
        ("mini-geister", "", Side.P2),
    ],
)
def test_setup_with_wrong_length_refused(name: str, text: str, side: Side) -> None:
    variant = VARIANTS[name]
    with pytest.raises(NotationError, match="expected") as info:
        variant.parse_setup(text, side)
    # The message names the set-up squares so a user knows what each letter is for.
    assert variant.setup_squares[side][0].name in str(info.value)


@pytest.mark.parametrize(
    "colours",
    [
        (Colour.BLUE, Colour.BLUE),
        (Colour.RED, Colour.RED),
        (Colour.BLUE,),
        (Colour.BLUE, Colour.RED, Colour.RED),
        # A partly known set-up (as a mid-game record writes them) is checked like any other: here, its size.
        (Colour.UNKNOWN, Colour.BLUE, Colour.BLUE),
    ],
)
def test_applying_a_bad_setup_leaves_the_state_unchanged(colours: tuple[Colour, ...]) -> None:
    state = GeisterState(MINI)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError):
        state.apply(Setup(colours))
    assert snapshot(state) == before
    assert state.phase == "setup"
    assert state.current_player() == Side.P1


def test_setup_after_the_setup_phase_refused() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="set-up phase is over"):
        state.apply(MINI.setups(Side.P1)[0])
    assert snapshot(state) == before


def test_move_during_setup_refused() -> None:
    state = GeisterState(MINI)
    state.apply(MINI.parse_setup("BR", Side.P1))
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="set-up phase"):
        state.push(Move.parse("b1-b2"))
    assert snapshot(state) == before


def test_undo_setup() -> None:
    state = GeisterState(MINI)
    empty = snapshot(state)
    state.apply(MINI.parse_setup("BR", Side.P1))
    after_one = snapshot(state)
    state.apply(MINI.parse_setup("RB", Side.P2))
    state.undo()
    assert snapshot(state) == after_one
    state.undo()
    assert snapshot(state) == empty
    with pytest.raises(IndexError):
        state.undo()


def test_player_2_may_move_first() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB", first=Side.P2)
    assert state.current_player() == Side.P2
    assert state.to_move is Side.P2
    assert set(state.legal_moves()) == moves("b4-b3 b4-a4 c4-c3 c4-d4")
    with pytest.raises(IllegalMoveError, match="belongs to player 1"):
        state.push_text("b1-b2")


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


# --------------------------------------------------------------------------------------------------- views


def test_view_shows_own_colours_and_hides_the_opponents() -> None:
    state = GeisterState.from_setups(GEISTER, "BBRRBRBR", "RRBBRBRB")
    for viewer in Side:
        view = state.view(viewer)
        assert view.viewer is viewer
        own = list(view.pieces(viewer))
        other = list(view.pieces(viewer.other))
        assert len(own) == len(other) == 8
        assert [p.colour for _, p in own] == [state.piece_at(s).colour for s, _ in own]  # type: ignore[union-attr]
        assert {p.colour for _, p in other} == {Colour.UNKNOWN}
        # Slots (where a piece started) are public.
        assert [p.slot for _, p in other] == [state.piece_at(s).slot for s, _ in other]  # type: ignore[union-attr]
        assert view.own_setup == state.setup(viewer)
    assert state.view(Side.P1).position() == "1uuuu1/1uuuu1/6/6/1BRBR1/1BBRR1 1 - 0"
    assert state.view(Side.P2).position() == "1rrbb1/1rbrb1/6/6/1UUUU1/1UUUU1 1 - 0"


def test_view_shows_every_move_and_the_captures() -> None:
    state = play(GeisterState.from_setups(GEISTER, "BBBBRRRR", "BBBBRRRR"), "b2-b3 b5-b4 b3-b4 e5-e4")
    for viewer in Side:
        view = state.view(viewer)
        assert [m.to_text() for m in view.moves] == ["b2-b3", "b5-b4", "b3-b4", "e5-e4"]
        assert view.last_move == Move.parse("e5-e4")
        assert view.ply == 4
        assert [(p.side, p.colour) for p in view.captured] == [(Side.P2, Colour.RED)]
    assert state.view(Side.P2).piece_at(sq("b4")).colour is Colour.UNKNOWN  # type: ignore[union-attr]


def test_view_during_the_setup_phase() -> None:
    state = GeisterState(MINI)
    state.apply(MINI.parse_setup("RB", Side.P1))
    view2 = state.view(Side.P2)
    assert view2.phase == "setup"
    assert view2.own_setup is None
    assert {p.colour for _, p in view2.pieces()} == {Colour.UNKNOWN}
    assert state.view(Side.P1).own_setup == MINI.parse_setup("RB", Side.P1)
    assert view2.legal_moves() == []


def reachable(root: object) -> list[object]:
    """Objects reachable from ``root`` through references, not following classes, modules or functions."""
    seen: dict[int, object] = {}
    stack = [root]
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def test_view_holds_no_reference_to_the_state() -> None:
    state = play(GeisterState.from_setups(GEISTER, "BBBBRRRR", "RRRRBBBB"), "b2-b3 b5-b4 b3-b4")
    view = state.view(Side.P1)
    objects = reachable(view)
    assert len(objects) > 20  # the walk did get into the view
    assert not any(isinstance(o, GeisterState) for o in objects)
    assert all(not isinstance(value, GeisterState) for value in vars(view).values())
    # The view is frozen: an AI cannot write through it either.
    with pytest.raises(AttributeError):
        view.ply = 0  # type: ignore[misc]
    # And it is a snapshot: playing on does not change it.
    text = view.position()
    state.push_text("c5-c4")
    assert view.position() == text


def opponent_colours_only_differ(variant: Variant) -> list[tuple[Setup, Setup]]:
    return list(itertools.combinations(variant.setups(Side.P2), 2))[:6]


@pytest.mark.parametrize("name", ["geister", "mini-geister", "mini-geister-2v3-rbb"])
def test_views_do_not_depend_on_the_opponents_hidden_colours(name: str) -> None:
    variant = VARIANTS[name]
    mine = variant.setups(Side.P1)[0]
    line = "b1-a1 b4-a4 a1-a2" if variant.height == 4 else "b2-b3 b5-b4 b3-a3 e5-e4"
    for theirs_a, theirs_b in opponent_colours_only_differ(variant):
        a = play(GeisterState.from_setups(variant, mine, theirs_a), line)
        b = play(GeisterState.from_setups(variant, mine, theirs_b), line)
        assert a.position() != b.position()
        assert a.view(Side.P1) == b.view(Side.P1)
        assert a.view(Side.P1).position() == b.view(Side.P1).position()
        assert a.view(Side.P2) != b.view(Side.P2)


def test_views_of_positions_do_not_depend_on_the_opponents_hidden_colours() -> None:
    # A game that starts from a position with every colour known: each view must still hide the opponent's.
    a = GeisterState.from_position("1rb1/4/4/1BR1 1 - 10", "mini-geister")
    b = GeisterState.from_position("1br1/4/4/1BR1 1 - 10", "mini-geister")
    assert a.view(Side.P1) == b.view(Side.P1)
    c = GeisterState.from_position("1rb1/4/4/1RB1 1 - 10", "mini-geister")
    assert a.view(Side.P2) == c.view(Side.P2)


def test_no_view_field_names_a_hidden_colour() -> None:
    state = GeisterState.from_position("1rbrb1/1b1rr1/6/3B2/1BR3/1RBR2 2 Bb 7", "geister")
    view = state.view(Side.P1)
    for obj in reachable(view):
        if isinstance(obj, str) and "/" in obj:  # any position text inside the view
            ranks = obj.split()[0]
            assert not set(ranks) & set("br"), obj
    for _, piece in view.pieces(Side.P2):
        assert piece.colour is Colour.UNKNOWN


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_legal_moves_from_the_view_equal_the_states(name: str) -> None:
    variant = VARIANTS[name]
    state = GeisterState.from_setups(variant, variant.setups(Side.P1)[0], variant.setups(Side.P2)[-1])
    for ply in range(12):
        if state.is_terminal():
            break
        mover = state.to_move
        assert sorted(state.view(mover).legal_moves(), key=str) == sorted(state.legal_moves(), key=str)
        assert state.view(mover).my_turn
        assert not state.view(mover.other).my_turn
        assert state.view(mover.other).legal_moves() == []
        assert "turn" in (state.view(mover.other).why_illegal(state.legal_moves()[0]) or "")
        legal = sorted(state.legal_moves(), key=str)
        state.push(legal[(ply * 7) % len(legal)])


def test_view_why_illegal_matches_the_state() -> None:
    state = GeisterState.from_position("R3/4/1rb1/2B1 1", "mini-geister")
    view = state.view(Side.P1)
    for text in ("a4-out", "c1-c3", "c1-b1", "b2-b3", "c1-c2"):
        move = Move.parse(text)
        assert (view.why_illegal(move) is None) == (state.why_illegal(move) is None)


def test_every_colour_is_revealed_when_the_game_is_over() -> None:
    line = "e1-f1 b5-b4 f1-f2 b4-a4 f2-f3 a4-a5 f3-f4 a5-a4 f4-f5 a4-a5 f5-f6 a5-a4 f6-out"
    state = play(GeisterState.from_setups(GEISTER, "BBBBRRRR", "RRRRBBBB"), line)
    assert state.outcome().winner is Side.P1  # type: ignore[union-attr]
    for viewer in Side:
        view = state.view(viewer)
        assert view.phase == "over"
        assert view.outcome == state.outcome()
        assert view.board == tuple(state.piece_at(s) for s in GEISTER.squares())
        assert Colour.UNKNOWN not in {p.colour for _, p in view.pieces()}
        assert view.position() == state.position()
        assert view.legal_moves() == []
        assert "over" in (view.why_illegal(Move.parse("b1-b2")) or "")
    assert state.view(Side.P1).escaped == state.escaped


def test_view_type() -> None:
    view = GeisterState.from_setups(MINI, "BR", "RB").view(Side.P2)
    assert isinstance(view, GeisterView)
    assert view.variant is MINI
    assert view.to_move is Side.P1
    assert not view.my_turn
