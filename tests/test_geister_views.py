"""What each player of the Geister family may see (``spec/rules.md`` section 1): a view shows its own colours and
hides the opponent's until a capture or the end of the game reveals them, holds no way back to the state, and gives
the same legal moves as the state."""

from __future__ import annotations

import gc
import itertools
import types

import pytest
from geister_helpers import GEISTER, MINI, SHAPES, play, sq

from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState, GeisterView, Setup, Variant
from core.notation import Move

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
