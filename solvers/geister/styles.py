"""Playing styles: the purple search with other tastes, so that the models learn from, and are tested against,
opponents who move their colours in other ways than our own players do.

Each style is ``purple``'s search (the contest programs' worst case: unknown pieces may escape, captures may be red)
with its evaluation weighted otherwise, and a set-up of its own. What they do with their colours is what a belief
must read, and each reads differently:

* ``feeder``: offers its reds. They march forward and into contact (a red of ours captured is worth more to it than
  a blue of theirs), its set-up puts them in front, and its blues wait behind. The contest AI that beat ``bayes``
  most often did this: it lost reds on purpose until the capture of its last one would lose.
* ``bluffer``: moves its reds like runners and its blues like reds: its reds lead the advance toward our exits, its
  blues follow slowly; a piece that runs is no more likely blue than one that waits.
* ``rusher``: sprints its blues for the exits, guards nothing, and trades pieces freely.
* ``turtle``: keeps its pieces home, guards its corners and captures whatever comes near; its blues leave late.

A style is strong or weak as it happens: they are there to be different, and measured like every player
(``nashplay arena``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from core.game import Side
from core.geister import Colour, GeisterView, Setup, Variant
from core.notation import Move
from solvers.geister.baselines import guarded_setup, random_setup
from solvers.geister.purple import PurplePlayer
from solvers.players import Limit

__all__ = ["STYLE_WEIGHTS", "BlufferPlayer", "FeederPlayer", "RusherPlayer", "TurtlePlayer", "red_front_setup"]

#: Each style's evaluation weights, by ``solvers.geister_engine.search``'s names; the rest are ``DEFAULT_WEIGHTS``'.
STYLE_WEIGHTS: dict[str, dict[str, int]] = {
    # A red of ours taken is good news (four of them win), so reds walk forward into contact.
    "feeder": {"W_RED_TAKEN": 450, "W_RED_ADVANCE": 35, "W_RACE_FIRST": 12, "W_RACE": 2},
    # Reds lead the advance, blues follow: the colours' usual tells reversed.
    "bluffer": {"W_RED_ADVANCE": 22, "W_RACE_FIRST": 6, "W_RACE": 1, "W_RED_TAKEN": 200},
    # Blues sprint; corners unguarded; threats to its home feared less.
    "rusher": {"W_RACE_FIRST": 90, "W_RACE": 25, "W_GUARD": 0, "W_DANGER_1": 120, "W_DANGER_2": 10},
    # Home: guards its corners, fears every approach, takes what comes near; its blues wait.
    "turtle": {
        "W_RACE_FIRST": 4,
        "W_RACE": 0,
        "W_GUARD": 140,
        "W_DANGER_1": 600,
        "W_DANGER_2": 180,
        "W_CAPTURE_BLUE": 800,
        "W_RED_ADVANCE": -3,
    },
}


def style_weights(style: str) -> np.ndarray:
    """The full weight array of ``style`` (``STYLE_WEIGHTS`` over ``DEFAULT_WEIGHTS``)."""
    from solvers.geister_engine import search as sr

    weights = sr.DEFAULT_WEIGHTS.copy()
    for name, value in STYLE_WEIGHTS[style].items():
        weights[getattr(sr, name)] = value
    return weights


def red_front_setup(variant: Variant, side: Side, rng: random.Random) -> Setup:
    """Every red it can in the front row (nearest the opponent), the rest of the reds and the blues drawn at random:
    the feeder's reds meet the opponent first."""
    squares = variant.setup_squares[side]
    home = 0 if side is Side.P1 else variant.height - 1
    order = sorted(range(len(squares)), key=lambda i: (-abs(squares[i].rank - home), rng.random()))
    reds = set(order[: variant.reds[side]])
    return Setup(tuple(Colour.RED if i in reds else Colour.BLUE for i in range(len(squares))))


class _StylePlayer(PurplePlayer):
    """``purple``'s search with the style's weights (``STYLE_WEIGHTS`` under its name) and set-up."""

    setup: Callable[[Variant, Side, random.Random], Setup] = staticmethod(random_setup)

    def __init__(self) -> None:
        super().__init__(style_weights(self.name))

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Setup | Move:
        if view.phase == "setup":
            return type(self).setup(view.variant, view.viewer, rng)
        return super().choose(view, rng, limit)


class FeederPlayer(_StylePlayer):
    name = "feeder"
    setup = staticmethod(red_front_setup)


class BlufferPlayer(_StylePlayer):
    name = "bluffer"
    setup = staticmethod(red_front_setup)


class RusherPlayer(_StylePlayer):
    name = "rusher"
    setup = staticmethod(random_setup)


class TurtlePlayer(_StylePlayer):
    name = "turtle"
    setup = staticmethod(guarded_setup)
