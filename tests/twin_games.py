"""Games for the information-hiding tests: random mid-games, and their twins that differ only in hidden colours."""

from __future__ import annotations

import random

from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState, Setup


def random_midgame(seed: int, plies: int, variant_name: str = "geister") -> GeisterState:
    """Random set-ups, then up to ``plies`` random moves (fewer if the game ends first)."""
    rng = random.Random(seed)
    state = GeisterState(VARIANTS[variant_name])
    while state.phase == "setup":
        state.apply(rng.choice(state.legal_actions()))
    for _ in range(plies):
        if state.is_terminal():
            break
        state.push(rng.choice(state.legal_moves()))
    return state


def with_opponent_colours_swapped(state: GeisterState, viewer: Side) -> GeisterState:
    """The same game with the opponent's set-up mirrored (every blue red and every red blue).

    The opponent's uncaptured pieces then differ in colour while everything the viewer can see is the same, as
    long as no opponent piece was captured (captures reveal colours) and the game goes on.
    """
    original = state.setup(viewer.other)
    assert original is not None
    swapped = Setup(tuple(Colour.RED if c is Colour.BLUE else Colour.BLUE for c in original.colours))
    setups = {viewer: state.setup(viewer), viewer.other: swapped}
    twin = GeisterState(state.variant)
    for side in Side:
        setup = setups[side]
        assert setup is not None
        twin.apply(setup)
    for move in state.moves():
        twin.push(move)
    return twin
