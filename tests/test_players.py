"""Baseline players: they follow their definitions, and they cannot read the opponent's hidden colours."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from twin_games import random_midgame, with_opponent_colours_swapped

from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState
from core.notation import Move, Square
from solvers.catalogue import make_player
from solvers.geister.baselines import ChototsuPlayer, outer_setup
from solvers.players import RandomPlayer

#: The Geister baselines that decide at once.
PLAYERS = ("random", "chototsu", "greedy")

sq = Square.parse


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 40), player=st.sampled_from(sorted(PLAYERS)))
def test_players_cannot_read_hidden_colours(seed: int, plies: int, player: str) -> None:
    """Two games that differ only in the opponent's hidden colours give the player identical views, and so
    (with the same random stream) identical choices: the choice cannot depend on what the player may not know."""
    state = random_midgame(seed, plies)
    if state.is_terminal():
        return
    viewer = state.to_move
    if any(p.side is viewer.other for p in state.captured):
        return  # a capture revealed some opponent colours; mirroring them would change the view
    twin = with_opponent_colours_swapped(state, viewer)
    if twin.is_terminal():
        return
    assert [p.colour for _, p in twin.pieces() if p.side is viewer.other] != [
        p.colour for _, p in state.pieces() if p.side is viewer.other
    ]
    view, twin_view = state.view(viewer), twin.view(viewer)
    assert view == twin_view
    ai = make_player(player, "geister")
    assert ai.choose(view, random.Random(seed)) == ai.choose(twin_view, random.Random(seed))


def test_players_always_choose_a_legal_action() -> None:
    rng = random.Random(5)
    for variant in VARIANTS.values():
        for _ in range(20):
            state = GeisterState(variant)
            players = {Side.P1: ChototsuPlayer(), Side.P2: RandomPlayer()}
            while not state.is_terminal():
                side = Side(state.current_player())
                action = players[side].choose(state.view(side), rng)
                assert action in state.legal_actions()
                state.apply(action)


def test_chototsu_setup_puts_blue_on_the_outer_squares() -> None:
    variant = VARIANTS["geister"]
    for side in Side:
        setup = outer_setup(variant, side, random.Random(0))
        blue_squares = {
            s.name[0] for s, c in zip(variant.setup_squares[side], setup.colours, strict=True) if c is Colour.BLUE
        }
        assert blue_squares == {"b", "e"}
    # Mini-Geister has no outer square: both set-ups occur.
    seen = {outer_setup(VARIANTS["mini-geister"], Side.P1, random.Random(s)).to_text() for s in range(20)}
    assert seen == {"BR", "RB"}


def _position(text: str) -> GeisterState:
    return GeisterState.from_position(text, "geister")


def test_chototsu_escapes_when_it_can() -> None:
    # Player 1's blue on a6 (its exit) escapes rather than doing anything else.
    state = _position("B5/6/6/6/1u2u1/1RuRbr 1 - 10")
    assert ChototsuPlayer().choose(state.view(Side.P1), random.Random(0)) == Move.escape(sq("a6"))


def test_chototsu_on_the_far_rank_heads_for_the_nearer_exit() -> None:
    # Blue on b6 (far rank, one step from a6): step toward a6, not f6.
    state = _position("1B4/6/6/2u3/1u2u1/1R2R1 1 - 10")
    assert ChototsuPlayer().choose(state.view(Side.P1), random.Random(0)) == Move.parse("b6-a6")
    # Blue on e6: the nearer exit is f6.
    state = _position("4B1/6/6/2u3/1u2u1/1R2R1 1 - 10")
    assert ChototsuPlayer().choose(state.view(Side.P1), random.Random(0)) == Move.parse("e6-f6")


def test_chototsu_advances_the_blue_nearest_the_far_rank() -> None:
    # Blues on c3 and d2: c3 is nearer rank 6, so it goes forward (c3-c4), capturing nothing.
    state = _position("1u4/6/6/2B3/3B2/1R2R1 1 - 10")
    assert ChototsuPlayer().choose(state.view(Side.P1), random.Random(0)) == Move.parse("c3-c4")
    # Player 2 advances toward rank 1.
    state = _position("1r2r1/3b2/6/2U3/6/6 2 - 11")
    assert ChototsuPlayer().choose(state.view(Side.P2), random.Random(0)) == Move.parse("d5-d4")


def test_chototsu_tries_the_next_blue_when_the_step_is_blocked() -> None:
    # The nearest blue (c4) is blocked by its own red on c5; the next blue (e2) advances.
    state = _position("1u4/2R3/2B3/6/4B1/1R4 1 - 10")
    assert ChototsuPlayer().choose(state.view(Side.P1), random.Random(0)) == Move.parse("e2-e3")


def test_chototsu_beats_random_at_geister() -> None:
    """Not a strength benchmark: a sanity check that the rules above make a purposeful player on 6x6.

    (On 4x4 it does not: a blue piece charging two squares into one red and one blue opponent piece wins about
    as often as it loses, so no such check is made for Mini-Geister.)
    """
    variant = "geister"
    rng = random.Random(11)
    wins = 0
    games = 60
    for game in range(games):
        chototsu_side = Side(game % 2)
        players = {chototsu_side: ChototsuPlayer(), chototsu_side.other: RandomPlayer()}
        state = GeisterState(VARIANTS[variant])
        while not state.is_terminal():
            side = Side(state.current_player())
            state.apply(players[side].choose(state.view(side), rng))
        outcome = state.outcome()
        assert outcome is not None
        wins += outcome.winner is chototsu_side
    assert wins > games // 2
