"""The Geister family's variants and set-up phase (``spec/rules.md`` section 1): the shipped boards, exits and ply
limits, the legal set-ups and the order they are placed in, refusals that change nothing, and set-ups partly known
(the opponent's colours a game has revealed)."""

from __future__ import annotations

import math

import pytest
from geister_helpers import GEISTER, MINI, SHAPES, moves, snapshot, squares

from core.errors import IllegalMoveError, NotationError
from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState, Setup, variant_by_name
from core.notation import Move
from tui.config import ConfigError, GeisterConfig

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


def test_partly_known_set_ups_round_trip_and_keep_the_counts() -> None:
    setup = GEISTER.parse_setup("B?R?????", Side.P2)
    assert setup.to_text() == "B?R?????" and not setup.is_complete and not setup.is_hidden
    assert GEISTER.parse_setup("?", Side.P2).to_text() == "?"
    with pytest.raises(IllegalMoveError):
        GEISTER.parse_setup("BBBBB???", Side.P2)  # five blues: there are four
    with pytest.raises(NotationError):
        GEISTER.parse_setup("B?X?????", Side.P2)
    # One's own set-up must be complete, partly hidden or not.
    with pytest.raises(ConfigError):
        GeisterConfig("geister", Side.P1, "random", "B?RBBRRB").check()
    state = GeisterState(GEISTER)
    state.apply(GEISTER.parse_setup("BRRBBRRB", Side.P1))
    state.apply(setup)
    assert state.setup(Side.P2) == setup


def test_a_3_vs_2_variants_title_counts_the_pieces_in_the_order_its_name_does() -> None:
    """``mini-geister-2v3-rrb`` was titled "Mini-Geister 3 vs 2 (red-red-blue, player 2)": its name counts player
    1's pieces first, its title the three-piece side's. Both now count player 1's first and say whose the three are."""
    from core.geister import VARIANTS

    titles = {name: variant.title for name, variant in VARIANTS.items() if name.startswith("mini-geister-")}
    assert titles == {
        "mini-geister-3v2-rrb": "Mini-Geister 3 vs 2 (player 1: red-red-blue)",
        "mini-geister-3v2-rbb": "Mini-Geister 3 vs 2 (player 1: red-blue-blue)",
        "mini-geister-2v3-rrb": "Mini-Geister 2 vs 3 (player 2: red-red-blue)",
        "mini-geister-2v3-rbb": "Mini-Geister 2 vs 3 (player 2: red-blue-blue)",
    }
