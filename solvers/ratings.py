"""Elo ratings from the games players played against each other, with 95% intervals (``nashplay ladder``).

The model is Bradley-Terry on the logistic Elo scale, as BayesElo and Ordo use: player ``i`` scores against ``j``
on average ``1 / (1 + 10^((r_j - r_i) / 400))``, a draw counting half a win and half a loss (a game's score is the
winner's payoff mapped onto [0, 1], so Footstep's points count in between). The ratings are the most likely given
every game's score, with BayesElo's prior: each pairing that played is given ``VIRTUAL_DRAWS`` drawn games more,
so that a player who won every game has a finite rating (the pure maximum would be infinite) and the prior fades as
games are added. Newton's method finds the maximum (the log-likelihood is concave).

Anchor: the average rating is 0 (Ordo's default; the random player would be a natural anchor, but not every game's
ladder holds it). The intervals are the maximum's: 1.96 standard errors, from the inverse of the Fisher
information under that anchor (its pseudo-inverse, since ratings are defined only up to a shift). A player whose
games never link to the others' (a separate group of pairings) has a rating with no meaning against them: the
ladder says so (``connected``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from solvers.stats import Z95

__all__ = ["VIRTUAL_DRAWS", "Pairing", "Rating", "Ratings", "fit_ratings"]

#: BayesElo's default prior: two virtual draws between the players of each pairing that played.
VIRTUAL_DRAWS = 2.0
#: Elo points per natural-log unit of the odds: 400 / ln 10.
ELO_SCALE = 400 / math.log(10)


@dataclass
class Pairing:
    """The games between two players (``first`` and ``second``, in name order), from ``first``'s side."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: ``first``'s total score (a win 1, a draw 1/2; points in between in games with points).
    score: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class Rating:
    player: str
    elo: float
    low: float
    high: float
    games: int
    #: The player's average score over its games.
    score: float


@dataclass
class Ratings:
    ratings: list[Rating] = field(default_factory=list)
    pairings: list[Pairing] = field(default_factory=list)
    #: Whether every player's games link to every other's: the ratings compare only within a linked group.
    connected: bool = True


def fit_ratings(pairings: Iterable[Pairing], z: float = Z95) -> Ratings:
    """The players' ratings from their pairings, best first (see the module's docstring)."""
    played = [p for p in pairings if p.games > 0 and p.first != p.second]
    names = sorted({p.first for p in played} | {p.second for p in played})
    if not names:
        return Ratings()
    at = {name: number for number, name in enumerate(names)}
    count = len(names)
    games = np.zeros((count, count))
    scores = np.zeros((count, count))  # scores[i, j]: i's total score against j, virtual draws included
    for p in played:
        i, j = at[p.first], at[p.second]
        games[i, j] += p.games + VIRTUAL_DRAWS
        games[j, i] += p.games + VIRTUAL_DRAWS
        scores[i, j] += p.score + VIRTUAL_DRAWS / 2
        scores[j, i] += p.games - p.score + VIRTUAL_DRAWS / 2
    ratings = np.zeros(count)  # in natural-log odds units; shifted to average 0 after every step
    information = np.zeros((count, count))
    for _ in range(100):
        expected = 1 / (1 + np.exp(ratings[None, :] - ratings[:, None]))  # expected[i, j]: i's score against j
        gradient = (scores - games * expected).sum(axis=1)
        weights = games * expected * (1 - expected)
        information = np.diag(weights.sum(axis=1)) - weights
        step = np.linalg.pinv(information) @ gradient
        ratings = ratings + step
        ratings -= ratings.mean()
        if np.abs(step).max() < 1e-10:
            break
    covariance = np.linalg.pinv(information)
    errors = np.sqrt(np.clip(np.diag(covariance), 0, None))
    played_games = dict.fromkeys(names, 0)
    real_scores = dict.fromkeys(names, 0.0)
    for p in played:
        played_games[p.first] += p.games
        played_games[p.second] += p.games
        real_scores[p.first] += p.score
        real_scores[p.second] += p.games - p.score
    rows = [
        Rating(
            name,
            float(ratings[i] * ELO_SCALE),
            float((ratings[i] - z * errors[i]) * ELO_SCALE),
            float((ratings[i] + z * errors[i]) * ELO_SCALE),
            played_games[name],
            real_scores[name] / played_games[name],
        )
        for i, name in enumerate(names)
    ]
    rows.sort(key=lambda rating: (-rating.elo, rating.player))
    # Linked: the graph of pairings has one component (its Laplacian, ``information``, has rank count - 1).
    connected = bool(np.linalg.matrix_rank(information) == count - 1)
    ordered = sorted(played, key=lambda p: (-p.games, p.first, p.second))
    return Ratings(rows, ordered, connected)
