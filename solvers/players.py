"""The interface every AI and solver-backed player offers, whatever the game.

A player is given only a player's *view* (``Game.view(side)``), never the game state, so it can only use what
that player may know. ``choose`` returns one action: a ``Setup`` in the Geister set-up phase, a ``Move`` after it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Limit:
    """How much work a player may do for one decision. ``None`` everywhere: the player's own default."""

    time: float | None = None
    playouts: int | None = None
    iterations: int | None = None


class Player(Protocol):
    #: Short registry name, as typed on the command line (``random``, ``chototsu``).
    name: str
    #: One line for menus and ``--help``.
    description: str

    def choose(self, view: Any, rng: random.Random, limit: Limit | None = None) -> Any:
        """One legal action for the viewer, who must be the player to act."""
        ...
