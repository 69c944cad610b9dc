"""``sage``: the purple search judged by what games taught: the learned value model and the learned belief.

The search is ``purple``'s (iterative deepening, a transposition table, move ordering, the escape extension), with
``bayes``'s chance nodes (a capture of an unknown piece weighs its chance of being blue, an unknown piece on its exit
escapes with its chance of being blue) and careful opponent. What changed is the judgement:

* the evaluation is the learned value model (``solvers.geister.value``): every value the search returns is an
  expected result, so the move it prefers has the highest chance to win and the advice shows the search's own
  values as chances;
* the chances of blue come from the choice-model belief (``solvers.geister.choice_belief``), which weighs the
  learned styles by how well they explain this opponent, in this game and, given a profile, in the games before;
* since that belief is calibrated, a capture that may take the opponent's last red is weighed like any chance
  node instead of being held back whatever the belief says.

``bayes`` stays as it was, the frozen baseline this player is measured against.
"""

from __future__ import annotations

import random

from core.geister import GeisterView, Setup
from core.notation import Move
from solvers.geister.baselines import guarded_setup
from solvers.geister.choice_belief import OpponentProfile, StyleMixture, choice_belief, load_mixture
from solvers.geister.colour_evidence import careless_captures, exposed_reds
from solvers.geister.purple import PurplePlayer
from solvers.geister.value import ValueModel, load_value_model
from solvers.players import Limit

__all__ = ["LearnedPlayer"]


class LearnedPlayer(PurplePlayer):
    """The purple search with the learned evaluation and belief (see the module docstring)."""

    name = "sage"
    CHANCE = True
    ENDGAME_TABLES = True
    EVAL = 1  # context.EVAL_LEARNED
    #: Ties only: values are expected results times a million, so moves that differ at all are not equal.
    MARGIN = 0
    HOLD_BACK_RISKY = False

    def __init__(self, mixture: StyleMixture | None = None, value_model: ValueModel | None = None) -> None:
        super().__init__((value_model or load_value_model()).array)
        self.mixture = mixture if mixture is not None else load_mixture()
        #: What the games against this opponent so far have shown (``learn_opponent``), if anyone keeps it.
        self.profile: OpponentProfile | None = None
        self._reading = self.mixture

    def use_profile(self, profile: OpponentProfile) -> None:
        """Read the opponent with what its earlier games showed (``connect`` and the arena keep a profile)."""
        self.profile = profile
        self._reading = profile.prior(self.mixture)

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Setup | Move:
        if view.phase == "setup":
            return guarded_setup(view.variant, view.viewer, rng)
        return super().choose(view, rng, limit)

    def careful_opponent(self, view: GeisterView) -> bool:
        return not exposed_reds(view) and careless_captures(view) == 0

    def blue_chances(self, view: GeisterView) -> dict[int, float]:
        reading = choice_belief(view, self._reading)
        return {piece.slot: reading.blue.get(piece.slot, 0.5) for _, piece in view.pieces(view.viewer.other)}

    def game_over(self, view: GeisterView) -> None:
        """A finished game shows every colour: the profile, if one is kept, learns the opponent's ways from it."""
        if self.profile is not None:
            self.profile.learn(view, self.mixture)
            self._reading = self.profile.prior(self.mixture)
