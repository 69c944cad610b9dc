"""The sequential probability ratio test of a match (``nashplay arena --sprt ELO0,ELO1``): stop as soon as the games
say player A is ``ELO1`` stronger than B (H1) or only ``ELO0`` (H0), at error rates alpha and beta.

The pentanomial model, as fishtest uses: the games are counted by pairs in which the two players swap sides, each
pair scoring 0, 1/4, 1/2, 3/4 or 1 for A. Why pairs and not single games (the trinomial model of win, draw and
loss): the arena swaps the sides (and in the Geister family who moves first) so that neither favours anyone, and a
pair holds both sides once; when a side is an advantage the two games of a pair are not alike, and the trinomial
model, which takes every game as drawn from one distribution, overstates the variance and so the games needed. A
pair's score has the right variance whatever the sides are worth. A game's score is A's payoff mapped onto [0, 1]
(a win 1, a draw 1/2, a loss 0; Footstep's points in between), so a pair's score may fall between the five values
in games with points: the model takes the pair scores seen, whatever they are.

The pairs (``swapped_pairs``): the arena plays games 4k and 4k + 1 with A as player 1 (A moving first in 4k, B in
4k + 1) and games 4k + 2 and 4k + 3 with A as player 2 (A first in 4k + 2). Games 4k and 4k + 3 are one position
with the players swapped (player 1 moves first in both), and so are 4k + 1 and 4k + 2 (player 2 first). The test
reads the pairs in their order, from the first, as far as every game of them has finished: a match on many workers
(or a cluster) stops after the same pairs as on one, and so with the same verdict. (The games other workers finished
meanwhile, beyond those pairs, are kept and reported with the match: they were played; the verdict does not count
them.)

The log-likelihood ratio is the generalized one (GSPRT) fishtest computes (``server/fishtest/stats/LLRcalc.py``,
after Michel Van den Bergh's notes on the GSPRT, "A practical introduction to the GSPRT", cantate.be/Fishtest):

    LLR = sum over the pair scores x seen n_x * log(p1_x / p0_x)

where ``n_x`` is how many pairs scored ``x`` and ``p0``, ``p1`` are the distributions over those scores that are
most likely given the counts (maximum likelihood) among those whose mean is ``s0``, respectively ``s1``: the
expected scores of an Elo difference of ``ELO0`` and ``ELO1`` under the logistic Elo model, ``s = 1 / (1 +
10^(-elo / 400))``. That constrained maximum is ``p_x = f_x / (1 + lam * (x - s))`` with ``f_x = n_x / N`` and the
Lagrange multiplier ``lam`` the root of ``sum f_x (x - s) / (1 + lam (x - s)) = 0`` (one root on the interval where
every denominator is positive; the sum decreases in ``lam``, so bisection finds it). As fishtest does, each of the
five pentanomial scores gets a count of 1e-3 first, so that a mean of ``s0`` or ``s1`` is reachable even when every
pair scored the same (a lopsided match, all wins). The test stops at H1 when the LLR reaches ``log((1 - beta) /
alpha)``, at H0 when it falls to ``log(beta / (1 - alpha))`` (Wald's bounds).

The Elo difference said with the verdict is the pairs' mean score turned into Elo, with the 95% interval of the
mean (normal approximation with the pairs' variance; Wilson's where that fails, see ``elo_estimate``) turned into
Elo too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from solvers.stats import Z95, wilson

__all__ = [
    "PENTANOMIAL",
    "EloEstimate",
    "SequentialTest",
    "SprtSettings",
    "SprtSettingsError",
    "SprtVerdict",
    "elo_estimate",
    "elo_of_score",
    "generalized_llr",
    "logistic_score",
    "swapped_pairs",
    "verdict",
]

#: The five scores of a pair of win/draw/loss games.
PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)
#: fishtest's pseudo-count added to each pentanomial score before the maximum likelihood (see the docstring).
REGULARIZATION = 1e-3
#: The Elo differences a test may ask about: beyond these a game is won or lost for certain (s = 1 / (1 + 10^-5)).
MAX_ELO = 2_000.0


class SprtSettingsError(ValueError):
    """``--sprt`` text that does not give two Elo differences and error rates that make a test."""


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses (H0: A is ``elo0`` stronger than B; H1: ``elo1``) and the error rates."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name, elo in (("ELO0", self.elo0), ("ELO1", self.elo1)):
            if not math.isfinite(elo) or abs(elo) > MAX_ELO:
                raise SprtSettingsError(f"{name} must be an Elo difference between -{MAX_ELO:g} and {MAX_ELO:g}")
        if not self.elo0 < self.elo1:
            raise SprtSettingsError(f"ELO0 must be below ELO1 (got {self.elo0:g} and {self.elo1:g})")
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 0.5:
                raise SprtSettingsError(f"{name} must be a probability above 0 and below 0.5 (got {rate:g})")

    @classmethod
    def parse(cls, text: str) -> SprtSettings:
        """``"ELO0,ELO1"`` or ``"ELO0,ELO1,ALPHA,BETA"``, e.g. ``"0,10"`` or ``"0,10,0.05,0.1"``."""
        parts = [part.strip() for part in text.split(",")]
        if len(parts) not in (2, 4):
            raise SprtSettingsError(
                f"give ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, e.g. 0,10 or 0,10,0.05,0.05 (got {text[:40]!r})"
            )
        try:
            numbers = [float(part) for part in parts]
        except ValueError:
            raise SprtSettingsError(f"not a number in {text[:40]!r}: give e.g. 0,10 or 0,10,0.05,0.05") from None
        return cls(*numbers)

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the LLR: (accept H0 at or below, accept H1 at or above)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference (A's over B's) with its 95% interval; ``None`` where it is infinite (the mean score is 0 or
    1: every pair lost or won)."""

    #: The pairs' mean score, in [0, 1].
    score: float
    elo: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class SprtVerdict:
    settings: SprtSettings
    #: ``"H1"``, ``"H0"``, or ``None`` while the LLR lies between the bounds.
    result: str | None
    llr: float
    #: The pairs the LLR counts (both games finished, read in order), and their games.
    pairs: int
    elo: EloEstimate

    def to_json(self) -> dict[str, Any]:
        lower, upper = self.settings.bounds
        return {
            "result": self.result,
            "llr": round(self.llr, 4),
            "bounds": [round(lower, 4), round(upper, 4)],
            "elo0": self.settings.elo0,
            "elo1": self.settings.elo1,
            "alpha": self.settings.alpha,
            "beta": self.settings.beta,
            "pairs": self.pairs,
            "elo": _rounded(self.elo.elo),
            "elo_ci95": [_rounded(self.elo.low), _rounded(self.elo.high)],
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def logistic_score(elo: float) -> float:
    """The expected score of an Elo difference ``elo`` under the logistic Elo model."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score: float) -> float | None:
    """The Elo difference whose expected score is ``score``; ``None`` at 0 or 1 (infinite)."""
    if not 0 < score < 1:
        return None
    return -400 * math.log10(1 / score - 1)


def swapped_pairs(games: int) -> list[tuple[int, int]]:
    """The pairs of games with the players swapped of a match of ``games`` games (see the module's docstring), in
    order: (0, 3), (1, 2), (4, 7), (5, 6), ... A pair cut by the end of the match (``games`` not a multiple of 4)
    is none."""
    pairs = []
    for first in range(games):
        partner = 4 * (first // 4) + 3 - first % 4
        if first < partner < games:
            pairs.append((first, partner))
    return pairs


class SequentialTest:
    """The test as a match's games finish (in any order): ``add`` each game's score; ``decided`` is the verdict of
    the first run of pairs, read in order, whose LLR crossed a bound (``None`` until then)."""

    def __init__(self, settings: SprtSettings, games: int) -> None:
        self.settings = settings
        self.pairs = swapped_pairs(games)
        self.scores: dict[int, float] = {}
        #: The scores of the pairs read so far (every pair before them complete).
        self.pair_scores: list[float] = []
        self.decided: SprtVerdict | None = None

    def add(self, index: int, score: float) -> SprtVerdict | None:
        """Count game ``index`` (A's score in [0, 1]); the verdict, once the pairs read reach a bound."""
        self.scores[index] = score
        while self.decided is None and len(self.pair_scores) < len(self.pairs):
            first, second = self.pairs[len(self.pair_scores)]
            if first not in self.scores or second not in self.scores:
                break
            self.pair_scores.append((self.scores[first] + self.scores[second]) / 2)
            now = verdict(self.settings, self.pair_scores)
            if now.result is not None:
                self.decided = now
        return self.decided

    def current(self) -> SprtVerdict:
        """The verdict reached, or the test so far over the pairs read."""
        return self.decided if self.decided is not None else verdict(self.settings, self.pair_scores)


def _most_likely_given_mean(frequencies: dict[float, float], mean: float) -> dict[float, float]:
    """The distribution over the scores of ``frequencies`` (summing to 1) closest to them in likelihood whose mean
    is ``mean``: ``f_x / (1 + lam (x - mean))`` (see the module's docstring)."""
    shifts = {x: x - mean for x in frequencies}
    highest, lowest = max(shifts.values()), min(shifts.values())
    # The denominators stay positive for lam in (-1 / highest, -1 / lowest); the regularization puts a score on each
    # side of any mean in (0, 1), so both ends are finite.
    low, high = -1 / highest, -1 / lowest

    def slope(lam: float) -> float:
        return sum(f * shifts[x] / (1 + lam * shifts[x]) for x, f in frequencies.items())

    for _ in range(200):
        middle = (low + high) / 2
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
    lam = (low + high) / 2
    return {x: f / (1 + lam * shifts[x]) for x, f in frequencies.items()}


def generalized_llr(
    pair_scores: Iterable[float], elo0: float, elo1: float, regularization: float = REGULARIZATION
) -> float:
    """The generalized log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) given the pairs' scores (each
    pentanomial score counted ``regularization`` more times, see the module's docstring)."""
    counts: dict[float, float] = dict.fromkeys(PENTANOMIAL, regularization) if regularization > 0 else {}
    seen = 0
    for score in pair_scores:
        counts[score] = counts.get(score, 0.0) + 1
        seen += 1
    if seen == 0:
        return 0.0
    total = sum(counts.values())
    frequencies = {x: n / total for x, n in counts.items()}
    p0 = _most_likely_given_mean(frequencies, logistic_score(elo0))
    p1 = _most_likely_given_mean(frequencies, logistic_score(elo1))
    return sum(n * math.log(p1[x] / p0[x]) for x, n in counts.items())


def elo_estimate(pair_scores: Sequence[float], z: float = Z95) -> EloEstimate:
    """The Elo difference of the pairs' mean score, and its interval (``z``: 95%): the mean's normal interval with
    the pairs' variance; where it would leave (0, 1), or the pairs all scored the same (no variance seen: every pair
    won, say), the Wilson interval of the mean over the pairs instead, which stays inside and takes the largest
    variance a score in [0, 1] can have."""
    if not pair_scores:
        return EloEstimate(0.5, None, None, None)
    count = len(pair_scores)
    mean = sum(pair_scores) / count
    variance = sum((x - mean) ** 2 for x in pair_scores) / count
    margin = z * math.sqrt(variance / count)
    low, high = mean - margin, mean + margin
    if variance == 0 or low <= 0 or high >= 1:
        wide_low, wide_high = wilson(mean * count, count, z)
        low = wide_low if variance == 0 or low <= 0 else low
        high = wide_high if variance == 0 or high >= 1 else high
    return EloEstimate(mean, elo_of_score(mean), elo_of_score(low), elo_of_score(high))


def verdict(settings: SprtSettings, pair_scores: Sequence[float]) -> SprtVerdict:
    """The test after ``pair_scores``: H1, H0 or not yet, with the LLR and the Elo estimate."""
    llr = generalized_llr(pair_scores, settings.elo0, settings.elo1)
    lower, upper = settings.bounds
    result = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SprtVerdict(settings, result, llr, len(pair_scores), elo_estimate(pair_scores))
