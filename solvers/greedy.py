"""A one-ply greedy baseline for the Geister family.

Why it exists: Chototsu is a weak yardstick (this player beats it most of the time), so a search player must also
be measured against something that at least takes what is offered. Decides from a ``GeisterView`` alone.
"""

from __future__ import annotations

import random

from core.geister import GeisterView, Setup
from core.notation import Move
from solvers.baselines import random_setup
from solvers.players import Limit

Action = Setup | Move


class GreedyPlayer:
    """Escape if possible; else capture the most advanced opponent piece it can reach; else a random move.

    "Most advanced": the opponent piece nearest to the rank it races toward (our home rank, where its exits are),
    ties broken at random. Set-up: random (``random_setup``).
    """

    name = "greedy"
    description = "greedy: escape if it can, else capture the most advanced piece in reach, else random"

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Action:
        if view.phase == "setup":
            return random_setup(view.variant, view.viewer, rng)
        legal = view.legal_moves()
        if not legal:
            raise ValueError(f"{view.viewer} has nothing to play")
        escapes = [m for m in legal if m.is_escape]
        if escapes:
            return escapes[0]
        their_goal = view.variant.far_rank(view.viewer.other)
        captures = []
        for move in legal:
            assert move.dst is not None
            target = view.piece_at(move.dst)
            if target is not None and target.side is not view.viewer:
                captures.append((abs(move.dst.rank - their_goal), rng.random(), move))
        if captures:
            return min(captures)[2]
        return rng.choice(legal)
