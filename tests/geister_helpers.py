"""Helpers for the tests of the Geister family's rules: the shipped variants' shapes, squares and moves from text, a
line of moves played, and everything observable about a state."""

from __future__ import annotations

from typing import Any

from core.game import Side
from core.geister import VARIANTS, GeisterState
from core.notation import Move, Square

GEISTER = VARIANTS["geister"]
MINI = VARIANTS["mini-geister"]

# name: (board, player 1's set-up squares in order, player 2's, (blue, red) of player 1, of player 2)
SHAPES: dict[str, tuple[tuple[int, int], str, str, tuple[int, int], tuple[int, int]]] = {
    "geister": ((6, 6), "b1 c1 d1 e1 b2 c2 d2 e2", "b6 c6 d6 e6 b5 c5 d5 e5", (4, 4), (4, 4)),
    "mini-geister": ((4, 4), "b1 c1", "b4 c4", (1, 1), (1, 1)),
    "mini-geister-3v2-rrb": ((4, 4), "b1 c1 b2", "b4 c4", (1, 2), (1, 1)),
    "mini-geister-3v2-rbb": ((4, 4), "b1 c1 b2", "b4 c4", (2, 1), (1, 1)),
    "mini-geister-2v3-rrb": ((4, 4), "b1 c1", "b4 c4 b3", (1, 1), (1, 2)),
    "mini-geister-2v3-rbb": ((4, 4), "b1 c1", "b4 c4 b3", (1, 1), (2, 1)),
}


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
