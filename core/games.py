"""The games nashplay knows, by name, and a fresh state of any of them: OpenSpiel's ``load_game`` registry.

This is the bottom floor of the catalogues: what each game *is* (its name, title and kind) and how to start one.
Which players play it is ``solvers.catalogue``'s business; how it looks and which options the command line takes is
``tui.games``'. Everything that plays "any game" (the arena, records, the generic random player) starts here.

Every name ``nashplay play`` accepts is a game here: the Geister family's variants are games of their own (they
differ in board, pieces and who may play them), while Nim's rules, TCG's ``n`` and Footstep's ``n``/``k`` are
parameters of one game. What each game is, its parameters and its records are said once, in its own module
(``core.game_type.GameType``); this module only lists those modules.
"""

from __future__ import annotations

import importlib
from typing import Any

from core.game import Game
from core.game_type import GameType, Kind, Parameter, UnknownGameError

__all__ = [
    "GAME_MODULES",
    "GAME_TYPES",
    "GameType",
    "Kind",
    "Parameter",
    "UnknownGameError",
    "game_type",
    "load_game",
    "state_text",
    "units_of",
]

#: Every game's own module, which describes it (its ``GAME_TYPES``): the one line a new game adds.
GAME_MODULES = ("core.geister", "core.tcg", "core.footstep", "core.impartial", "core.goofspiel")


def _described() -> dict[str, GameType]:
    games: dict[str, GameType] = {}
    for module in GAME_MODULES:
        for game in importlib.import_module(module).GAME_TYPES:
            if game.name in games:
                raise ValueError(f"two games are called {game.name!r}")
            games[game.name] = game
    return games


GAME_TYPES: dict[str, GameType] = _described()


def game_type(name: str) -> GameType:
    try:
        return GAME_TYPES[name]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}: expected one of {', '.join(GAME_TYPES)}") from None


def units_of(name: str) -> tuple[str, str]:
    """What one step of ``name``'s games is called, and its plural; plies for a name that is no game (the solved
    Geister endgames' lines, say)."""
    game = GAME_TYPES.get(name)
    return ("ply", "plies") if game is None else game.units


def state_text(state: Game[Any, Any]) -> str:
    """``state`` in its game's notation: a Geister position, TCG points, a Footstep state, Nim's heaps."""
    return game_type(state.game_name).state_text(state)


def load_game(name: str, *, seed: int | None = None, **parameters: Any) -> Game[Any, Any]:
    """A new game called ``name``, with its parameters (``None``: the default); a parameter the game does not take
    is refused.

    ``first``: who moves first in a Geister-family game (player 1 by default); ``n``: TCG's most points (3) or
    Footstep's points each (50); ``k``: Footstep's steps to a goal (4); ``heaps``, ``rule``, ``misere``: Nim's (a
    rule may be given as its text); ``cards``: Goofspiel's (5). ``seed`` deals a game that deals (Goofspiel's deck).
    Raises ``UnknownGameError`` for a name it does not know and ``ValueError`` for parameters that do not fit.
    """
    game = game_type(name)
    given = {key: value for key, value in parameters.items() if value is not None}
    for key, value in given.items():
        parameter = game.by_name.get(key)
        if parameter is not None and isinstance(value, str):
            given[key] = parameter.parse(value)
    return game.start(seed=seed, **given)
