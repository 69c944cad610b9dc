"""The interface every AI and solver-backed player offers, whatever the game, and the one player every game has.

A player is given only a player's *view* (``Game.view(side)``), never the game state, so it can only use what that
player may know, and its own random generator, so it cannot read anyone else's draws. ``choose`` returns one
action: in the Geister family a ``Setup`` in the set-up phase and a ``Move`` after it; in a simultaneous game the
player's own action for the round. A player that can explain itself also offers ``analyse``: improving reports on
the position, which the advice panels and ``nashplay analyse`` show.

Players are declared once, in ``solvers.catalogue``: its entry holds the player's description and the games it
plays, so the classes carry only their ``name``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

from core.game import View

__all__ = ["Analyst", "GameOverListener", "Limit", "Player", "RandomPlayer", "tell_game_over"]

V_contra = TypeVar("V_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)
I_co = TypeVar("I_co", covariant=True)
A = TypeVar("A")


@dataclass(frozen=True)
class Limit:
    """How much work a player may do for one decision, and how a search reports it. ``None`` everywhere: the
    player's own default."""

    #: Seconds for the decision.
    time: float | None = None
    #: Playouts of a Monte-Carlo player (the alpha-beta players turn them into a node budget: the same on any
    #: machine).
    playouts: int | None = None
    #: A tree search's iterations; the alpha-beta players' fixed depth.
    iterations: int | None = None
    #: An analysing search reports at least this often (seconds), even inside a deep iteration, which then resumes:
    #: the live advice streams its search in slices, and Python (so Ctrl-C) gets a word in. ``None``: one report per
    #: finished iteration.
    slice_seconds: float | None = None
    #: Every root move's value exact (the advice lists them all), not a bound for the moves that are not best.
    exact: bool = False

    @property
    def depth(self) -> int | None:
        """The alpha-beta players' fixed depth (``iterations``)."""
        return self.iterations


class Player(Protocol[V_contra, A_co]):
    """Chooses an action from a view: ``V_contra`` is the game's view type, ``A_co`` its action type."""

    #: The catalogue name, as typed on the command line (``random``, ``chototsu``).
    name: str

    def choose(self, view: V_contra, rng: random.Random, limit: Limit | None = None) -> A_co:
        """One legal action for the viewer, who must be the player to act."""
        ...


class Analyst(Protocol[V_contra, I_co]):
    """A player that can say what it thinks of a position: the advice panels and ``nashplay analyse`` use it.

    ``analyse`` yields improving reports (``I_co``: the player's own report type) until the limit is spent or the
    answer is exact; the last one is final. Exact solvers yield once.
    """

    def analyse(self, view: V_contra, limit: Limit | None, rng: random.Random) -> Iterator[I_co]: ...


class GameOverListener(Protocol[V_contra]):
    """A player that learns from finished games: told the final view of each game it played (the arena and the app
    call ``game_over`` on every player that has it)."""

    def game_over(self, view: V_contra) -> None: ...


def tell_game_over(player: object, view: object) -> None:
    """Give ``player`` the final ``view`` if it listens for it (see ``GameOverListener``)."""
    listener = getattr(player, "game_over", None)
    if callable(listener):
        listener(view)


class RandomPlayer:
    """Chooses uniformly among the viewer's legal actions, in any game (the baseline every game has)."""

    name = "random"

    def choose(self, view: View[A], rng: random.Random, limit: Limit | None = None) -> A:
        actions = list(view.legal_actions())
        if not actions:
            raise ValueError(f"{view.viewer} has nothing to play")
        return rng.choice(actions)
