"""``bayes``: purple-piece alpha-beta that weighs what the opponent's moves say about its colours.

The contest programs' purple search (``solvers.geister.purple``) throws away everything but hard evidence: it fears
every unknown piece as a blue and counts every capture as a red. Yet a player's moves give its colours away (a
purple-type player walks its reds into contact and keeps its blues out of it: ``benchmarks/belief_fit.py``
measures how much). This player keeps the same search but gives it each opponent piece's chance of being blue
(``solvers.geister.belief``), and the search weighs the two cases where purple takes the worst:

* a capture of an unknown piece is a chance node: ``p`` of the outcome where it was blue, ``1 - p`` of the one
  where it was red (so a capture that may be the last red costs its chance of losing at once, which outweighs
  anything a position offers unless every other move loses as often);
* an unknown piece on its exit, its side to move, escapes with chance ``p`` (a chance node again: ``p`` of a loss,
  the rest the opponent's best other move), and the leaf evaluation fears pieces near their exits as much as
  they are likely blue.

Proven reds (``solvers.geister.colour_evidence``) are red, as for purple. Played against purple at equal time, measured
by ``nashplay arena geister --players bayes,purple`` (see the README's table).
"""

from __future__ import annotations

import random

from core.geister import GeisterView, Setup
from core.notation import Move
from solvers.geister.baselines import guarded_setup
from solvers.geister.belief import belief
from solvers.geister.colour_evidence import careless_captures, exposed_reds
from solvers.geister.purple import PurplePlayer
from solvers.players import Limit

__all__ = ["BayesPlayer"]


class BayesPlayer(PurplePlayer):
    """Purple search with chance nodes weighted by the colour belief (see the module docstring)."""

    name = "bayes"
    CHANCE = True
    ENDGAME_TABLES = True

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Setup | Move:
        if view.phase == "setup":
            return guarded_setup(view.variant, view.viewer, rng)
        return super().choose(view, rng, limit)

    def careful_opponent(self, view: GeisterView) -> bool:
        """The opponent spares our pieces while one of them may be our last red (``search.C_CAREFUL``), unless it
        knows which one is (it stood on our exit at our turn and did not escape), or it has shown otherwise: it
        took one of our pieces in that situation with no escape to stop."""
        return not exposed_reds(view) and careless_captures(view) == 0

    def blue_chances(self, view: GeisterView) -> dict[int, float]:
        beliefs = belief(view)
        return {
            piece.slot: 0.0 if piece.slot in beliefs.proven_red else beliefs.blue.get(piece.slot, 0.5)
            for _, piece in view.pieces(view.viewer.other)
        }
