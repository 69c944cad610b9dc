"""Learning the belief about colours from a corpus, and measuring any belief on games held out of its training.

``turns_by_player`` reads every turn of every player in a corpus with the colours its record keeps; ``fit_mixture``
learns one style a player (the choice model of ``solvers.geister.choice``) and mixes them; ``fit_temper`` finds the
power on the evidence that makes the chances calibrated on games the styles were not fitted on.

``belief_calibration`` measures a belief as a player meets it: at each of its turns, each opponent piece whose colour
it does not know gets a chance of blue, scored against the piece's real colour (log loss, calibration error, a
10-bin reliability table), and, whenever the opponent is down to one red, whether the real last red is the piece
the belief ranks likeliest red (the piece whose capture would lose at once).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from core.game import Outcome, Side
from core.geister import Colour, GeisterState, GeisterView
from core.notation import Move
from core.record import Record
from solvers.geister.choice import Style, TurnChoices, TurnData, fit
from solvers.geister.choice_belief import StyleMixture, choice_belief, game_turns
from solvers.geister.corpus import CorpusGame

__all__ = [
    "BINS",
    "Calibration",
    "belief_calibration",
    "colours_of",
    "fit_mixture",
    "fit_temper",
    "records_as_games",
    "replayed",
    "turns_by_player",
]

#: Bins of the reliability tables.
BINS = 10
#: Chances are clipped to this far from 0 and 1 when scored (a sure answer that is wrong would score infinity).
CLIP = 1e-4

Predictor = Callable[[GeisterView], dict[int, float]]


def replayed(folder: Path, game: CorpusGame) -> GeisterState:
    """The game's final state, replayed from its record (set-ups and moves)."""
    return Record.load(folder / game.file).replay()[-1]


def records_as_games(folder: Path) -> list[CorpusGame]:
    """The records in ``folder`` (real games: ``nashplay connect``'s, the arena's) that keep both set-ups, as corpus
    games, so that the measures of this module read them too."""
    games = []
    for path in sorted(folder.glob("*.ngr")):
        record = Record.load(path)
        if "?" in record.tags.get("Setup1", "?") or "?" in record.tags.get("Setup2", "?"):
            continue  # a colour the record does not keep: nothing to score against
        names = (record.tags.get("Player1", "player 1"), record.tags.get("Player2", "player 2"))
        games.append(CorpusGame(path.name, names, ("-", "-"), 1, 0, record.result or "*", "", 0))
    return games


def colours_of(state: GeisterState, side: Side) -> dict[int, Colour]:
    """Every piece's colour of ``side`` by slot, from its set-up (the record keeps both)."""
    setup = state.setup(side)
    if setup is None:
        raise ValueError(f"the record hides {side}'s set-up")
    return dict(enumerate(setup.colours))


def turns_by_player(
    folder: Path, games: Iterable[CorpusGame], max_turns: int | None = None, seed: int = 0
) -> dict[str, list[tuple[TurnChoices, dict[int, Colour]]]]:
    """Every turn each player (by name) played in ``games``, with the colours of its pieces; at most ``max_turns`` a
    player (drawn at random with ``seed`` when there are more)."""
    turns: dict[str, list[tuple[TurnChoices, dict[int, Colour]]]] = {}
    for game in games:
        state = replayed(folder, game)
        for mover in Side:
            colours = colours_of(state, mover)
            view = state.view(mover.other)
            turns.setdefault(game.players[mover], []).extend(
                (choices, colours) for _, choices in game_turns(view, mover)
            )
    if max_turns is not None:
        rng = random.Random(seed)
        for name, played in turns.items():
            if len(played) > max_turns:
                turns[name] = rng.sample(played, max_turns)
    return turns


def fit_mixture(turns: dict[str, list[tuple[TurnChoices, dict[int, Colour]]]], l2: float = 1e-3) -> StyleMixture:
    """One style per player, each fitted on that player's turns, mixed with equal prior weights."""
    styles = tuple(fit(name, TurnData.collect(played), l2) for name, played in sorted(turns.items()) if played)
    return StyleMixture(styles, tuple(1.0 / len(styles) for _ in styles))


@dataclass
class Calibration:
    """Predicted chances against what happened."""

    predictions: list[float] = field(default_factory=list)
    #: 1 (it happened), 0 (it did not), or 0.5 (a drawn game, for a chance to win).
    outcomes: list[float] = field(default_factory=list)
    #: Decisions where the opponent had one red left and two pieces or more of unknown colour: how often the real
    #: last red was the piece ranked likeliest red.
    last_red_events: int = 0
    last_red_hits: int = 0

    def add(self, prediction: float, outcome: float) -> None:
        self.predictions.append(prediction)
        self.outcomes.append(float(outcome))

    @property
    def count(self) -> int:
        return len(self.predictions)

    @property
    def log_loss(self) -> float:
        if not self.predictions:
            return float("nan")
        p = np.clip(np.array(self.predictions), CLIP, 1 - CLIP)
        y = np.array(self.outcomes, dtype=float)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))

    def reliability(self) -> list[tuple[float, float, float, int]]:
        """Per bin of the predictions (tenths): (low, mean prediction, observed frequency, count)."""
        p = np.array(self.predictions)
        y = np.array(self.outcomes, dtype=float)
        rows = []
        for b in range(BINS):
            low, high = b / BINS, (b + 1) / BINS
            mask = (p >= low) & ((p < high) if b < BINS - 1 else (p <= high))
            if mask.any():
                rows.append((low, float(p[mask].mean()), float(y[mask].mean()), int(mask.sum())))
            else:
                rows.append((low, math.nan, math.nan, 0))
        return rows

    @property
    def calibration_error(self) -> float:
        """The expected calibration error: the count-weighted gap between mean prediction and frequency per bin."""
        if not self.predictions:
            return float("nan")
        return sum(n * abs(mean - freq) for _, mean, freq, n in self.reliability() if n) / self.count

    @property
    def last_red_rate(self) -> float:
        return self.last_red_hits / self.last_red_events if self.last_red_events else float("nan")

    def to_json(self) -> dict[str, object]:
        return {
            "samples": self.count,
            "log_loss": round(self.log_loss, 4),
            "calibration_error": round(self.calibration_error, 4),
            # Empty bins are left out: JSON has no NaN.
            "reliability": [
                {"bin": f"{low:.1f}", "mean": round(mean, 4), "observed": round(freq, 4), "count": n}
                for low, mean, freq, n in self.reliability()
                if n
            ],
            "last_red": {"events": self.last_red_events, "ranked_first": self.last_red_hits},
        }


def start_of(state: GeisterState) -> GeisterState:
    """The game ``state`` ended, back at its first move: both set-ups placed, no move played."""
    start = GeisterState(state.variant, state.first)
    for side in Side:
        setup = state.setup(side)
        assert setup is not None
        start.apply(setup)
    return start


def sampled_plies(
    folder: Path, games: Iterable[CorpusGame], every: int, rng: random.Random
) -> Iterator[tuple[GeisterState, Move, Outcome]]:
    """Of every finished game of ``games``, the position before every ``every``-th ply (from a first one drawn from
    ``rng``), the move played there, and how the game ended. The position is the replay itself, moved on after it
    is yielded: read it before asking for the next."""
    for game in games:
        final = replayed(folder, game)
        outcome = final.outcome()
        if outcome is None:
            continue
        replay = start_of(final)
        offset = rng.randrange(every)
        for index, move in enumerate(final.moves()):
            if index % every == offset:
                yield replay, move, outcome
            replay.push(move)


def decisions(state: GeisterState, observer: Side) -> Iterator[GeisterView]:
    """``observer``'s view at each of its turns of the game ``state`` ended (replayed from its start)."""
    replay = start_of(state)
    for move in state.moves():
        if replay.to_move is observer:
            yield replay.view(observer)
        replay.push(move)


def belief_calibration(
    folder: Path,
    games: Iterable[CorpusGame],
    predictors: dict[str, Predictor],
    movers: tuple[str, ...] = (),
    every: int = 1,
) -> dict[str, Calibration]:
    """Each predictor's chances of blue, at its player's turns, for the opponent pieces of unknown colour (see the
    module docstring); only against the players named in ``movers`` (all when empty), at every ``every``-th
    decision of a game."""
    scores = {name: Calibration() for name in predictors}
    for game in games:
        state = replayed(folder, game)
        for observer in Side:
            them = observer.other
            if movers and game.players[them] not in movers:
                continue
            truth = colours_of(state, them)
            for index, view in enumerate(decisions(state, observer)):
                if index % every:
                    continue
                unknown = [piece.slot for _, piece in view.pieces(them) if piece.colour is Colour.UNKNOWN]
                if not unknown:
                    continue
                reds_left = view.remaining(them, Colour.RED)
                for name, predictor in predictors.items():
                    chances = predictor(view)
                    score = scores[name]
                    for slot in unknown:
                        score.add(chances[slot], truth[slot] is Colour.BLUE)
                    if reds_left == 1 and len(unknown) >= 2:
                        score.last_red_events += 1
                        likeliest_red = min(unknown, key=lambda slot: (chances[slot], slot))
                        score.last_red_hits += truth[likeliest_red] is Colour.RED
    return scores


def counts_only(view: GeisterView) -> dict[int, float]:
    """The baseline every belief must beat: the blues left shared equally among the pieces of unknown colour."""
    them = view.viewer.other
    unknown = [piece.slot for _, piece in view.pieces(them) if piece.colour is Colour.UNKNOWN]
    share = view.remaining(them, Colour.BLUE) / len(unknown) if unknown else 0.0
    return dict.fromkeys(unknown, min(1.0, share))


def mixture_predictor(mixture: StyleMixture) -> Predictor:
    def predict(view: GeisterView) -> dict[int, float]:
        return choice_belief(view, mixture).blue

    return predict


def fit_temper(
    mixture: StyleMixture,
    folder: Path,
    games: list[CorpusGame],
    tempers: tuple[float, ...] = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0),
    games_per_style: int = 30,
    every: int = 3,
) -> tuple[float, dict[float, float]]:
    """The power on the evidence whose chances score the lowest log loss on styles the mixture does not know: each
    style in turn is left out of the mixture (its component was fitted on its own games only, so leaving it out is
    as if it had never been trained on) and read in ``games_per_style`` of its games from ``games`` (games the
    styles were not fitted on); the losses are pooled over every style. Returns the power and each power's log
    loss."""
    pooled = {temper: Calibration() for temper in tempers}
    for left_out in mixture.styles:
        others = [style for style in mixture.styles if style is not left_out]
        without = StyleMixture(tuple(others), tuple(1.0 / len(others) for _ in others))
        its_games = [game for game in games if left_out.name in game.players][:games_per_style]
        predictors = {
            str(temper): mixture_predictor(StyleMixture(without.styles, without.prior, temper)) for temper in tempers
        }
        scores = belief_calibration(folder, its_games, predictors, movers=(left_out.name,), every=every)
        for temper in tempers:
            pooled[temper].predictions.extend(scores[str(temper)].predictions)
            pooled[temper].outcomes.extend(scores[str(temper)].outcomes)
    losses = {temper: score.log_loss for temper, score in pooled.items()}
    return min(losses, key=lambda temper: losses[temper]), losses


def style_of(mixture: StyleMixture, name: str) -> Style:
    return next(style for style in mixture.styles if style.name == name)
