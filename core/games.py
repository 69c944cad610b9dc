"""The games nashplay knows, by name, and a fresh state of any of them: OpenSpiel's ``load_game`` registry.

This is the bottom floor of the catalogues: what each game *is* (its name, title and kind) and how to start one.
Which players play it is ``solvers.catalogue``'s business; how it looks and which options the command line takes is
``tui.games``'. Everything that plays "any game" (the arena, records, the generic random player) starts here.

Every name ``nashplay play`` accepts is a game here: the Geister family's variants are games of their own (they
differ in board, pieces and who may play them), while Nim's rules, TCG's ``n`` and Footstep's ``n``/``k`` are
parameters of one game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from core.errors import NotationError
from core.footstep import FootstepState
from core.game import Game, Side
from core.geister import VARIANTS, GeisterState
from core.impartial import HeapGameState, HeapRule, parse_rule
from core.tcg import TcgState

__all__ = ["GAME_TYPES", "GameType", "UnknownGameError", "game_type", "load_game"]

#: ``board``: a turn-based board game with hidden colours (the Geister family); ``simultaneous``: both players
#: choose at once (TCG, Footstep); ``impartial``: turn-based, perfect information, both sides have the same moves.
Kind = Literal["board", "simultaneous", "impartial"]


class UnknownGameError(NotationError):
    """A game name nashplay does not know."""


@dataclass(frozen=True)
class GameType:
    """One game: what people and scripts read about it."""

    name: str
    title: str
    kind: Kind
    #: The games that share rules and players with this one (``geister`` for every Geister-family variant).
    family: str
    #: One line: what the game is.
    summary: str
    #: The largest payoff a game can give a player: 1 for a win, Footstep's 2 points for reaching the goal.
    max_payoff: float = 1.0


def _geister_types() -> list[GameType]:
    summaries = {
        "geister": "6x6 board, 4 blue and 4 red ghosts a side, colours hidden from the opponent",
        "mini-geister": "4x4 board, 1 blue and 1 red a side, solved exactly (Nash equilibrium)",
    }
    return [
        GameType(
            name,
            variant.title,
            "board",
            "geister",
            summaries.get(name, "4x4 Mini-Geister with a third piece on one side (section 6 of its paper)"),
        )
        for name, variant in VARIANTS.items()
    ]


GAME_TYPES: dict[str, GameType] = {
    game.name: game
    for game in (
        *_geister_types(),
        GameType(
            "tcg", "Twice Clap Game", "simultaneous", "tcg", "charge, attack, defend, strike: both choose at once"
        ),
        GameType("footstep", "Footstep", "simultaneous", "footstep", "secret bids push a marker toward a goal", 2.0),
        GameType("nim", "Nim and impartial games", "impartial", "nim", "Nim, subtraction games, Kayles: take stones"),
    )
}


def game_type(name: str) -> GameType:
    try:
        return GAME_TYPES[name]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}: expected one of {', '.join(GAME_TYPES)}") from None


def load_game(
    name: str,
    *,
    first: Side | None = None,
    n: int | None = None,
    k: int | None = None,
    heaps: Sequence[int] | None = None,
    rule: HeapRule | str | None = None,
    misere: bool | None = None,
) -> Game[Any, Any]:
    """A new game called ``name``, with its parameters; a parameter the game does not take is refused.

    ``first``: who moves first in a Geister-family game (player 1 by default); ``n``: TCG's most points (3) or
    Footstep's points each (50); ``k``: Footstep's steps to a goal (4); ``heaps``, ``rule``, ``misere``: Nim's.
    Raises ``UnknownGameError`` for a name it does not know and ``ValueError`` for parameters that do not fit.
    """
    family = game_type(name).family
    given = {
        key
        for key, value in (("first", first), ("n", n), ("k", k), ("heaps", heaps), ("rule", rule), ("misere", misere))
        if value is not None
    }
    takes = {"geister": {"first"}, "tcg": {"n"}, "footstep": {"n", "k"}, "nim": {"heaps", "rule", "misere"}}[family]
    if given - takes:
        extra = ", ".join(sorted(given - takes))
        raise ValueError(f"{name} takes no {extra} (it takes: {', '.join(sorted(takes))})")
    if family == "geister":
        return GeisterState(VARIANTS[name], first or Side.P1)
    if family == "tcg":
        return TcgState(3 if n is None else n)
    if family == "footstep":
        return FootstepState(50 if n is None else n, 4 if k is None else k)
    heap_rule = parse_rule(rule) if isinstance(rule, str) else rule
    return HeapGameState((3, 4, 5) if heaps is None else heaps, heap_rule, bool(misere))
