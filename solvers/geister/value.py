"""The learned value model: a position's chance to win for the side that judges it, from games.

The model is a small network (one layer of rectified units; a logistic regression with ``hidden=0``) on the
search's own ``features`` of a position (``solvers.geister_engine.evaluation``): pieces left on each side, the
runners, the opponent's pieces near their exits weighed by their chance of being blue, races, guards, contacts, whose
turn it is, the plies played. Its logit is the search's evaluation (``evaluation.learned``): so every searched move
has a chance to win through the same model, and the move the search prefers has the highest.

Training (``value_samples``, ``fit_value``): positions of a corpus's games, each seen from one side (its own colours
known, the opponent's pieces by the belief's chances, as the search sees them at its leaves), labelled with how
that side's game ended (a draw counts half); scikit-learn (the ``train`` extra) fits the weights. The weights ship
as ``models/value.json``.

A search's value is not the model's value of one position: it is the best of many, and the best of many estimates
reads high (and a few plies of look-ahead see wins a player of the corpus would not find). So the chance shown for a
searched value is that value's logit, scaled and shifted (``SearchCalibration``, fitted by ``fit_search_calibration``
on positions of the training games searched as the advice searches them): a map that only stretches, so the moves'
order and their differences stay the search's.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from core.game import Side
from core.geister import Colour, GeisterView
from solvers.geister.choice_belief import MODELS
from solvers.geister.corpus import CorpusGame

if TYPE_CHECKING:
    from solvers.geister.purple import PurplePlayer

__all__ = [
    "SearchCalibration",
    "ValueModel",
    "fit_logit_scaling",
    "fit_search_calibration",
    "load_value_model",
    "position_features",
    "value_samples",
]

Floats = npt.NDArray[np.float64]
BlueChances = Callable[[GeisterView], dict[int, float]]


def search_logit(value: int) -> float:
    """The logit ``z`` of a searched value ``MATE * tanh(z / 2)`` (kept finite at the ends)."""
    from solvers.geister_engine.layout import MATE

    return 2.0 * math.atanh(min(0.999999, max(-0.999999, value / MATE)))


@dataclass(frozen=True)
class SearchCalibration:
    """The chance to win a searched value means: ``sigmoid(slope * z + intercept)``, ``z`` the value's logit (the
    search's values are ``MATE * tanh(z / 2)``). The identity until fitted; ``slope`` is positive, so the map keeps
    the moves' order."""

    slope: float = 1.0
    intercept: float = 0.0
    #: The search depth and the positions it was fitted on (for the record).
    depth: int = 0
    positions: int = 0

    def chance(self, value: int) -> float:
        z = search_logit(value)
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, self.slope * z + self.intercept))))

    def to_json(self) -> dict[str, object]:
        return {
            "slope": round(self.slope, 6),
            "intercept": round(self.intercept, 6),
            "depth": self.depth,
            "positions": self.positions,
        }

    @classmethod
    def from_json(cls, data: object) -> SearchCalibration:
        if not isinstance(data, dict):
            return cls()
        slope = float(data["slope"])
        if not 0 < slope < 100:
            raise ValueError(f"a search calibration's slope must be positive and sane, not {slope}")
        return cls(slope, float(data["intercept"]), int(data.get("depth", 0)), int(data.get("positions", 0)))


class ValueModel:
    """A logit of the search's ``FEATURES``: linear (``hidden`` empty) or one layer of rectified units, and the int64
    array the search reads (``evaluation.learned`` says its layout)."""

    def __init__(
        self,
        layer1: Floats,
        layer2: Floats | None = None,
        bias2: float = 0.0,
        about: dict[str, object] | None = None,
    ) -> None:
        """``layer1``: the linear weights (``F``), or the hidden units' weights (``H x F``, the first feature the
        constant 1) with ``layer2`` (``H``) and ``bias2`` the output's."""
        from solvers.geister_engine.evaluation import LEARNED_UNIT, N_FEATURES

        self.layer1 = np.asarray(layer1, dtype=np.float64)
        self.layer2 = None if layer2 is None else np.asarray(layer2, dtype=np.float64)
        self.bias2 = float(bias2)
        self.about = about or {}
        self.search_calibration = SearchCalibration()
        if self.layer2 is None:
            if self.layer1.shape != (N_FEATURES,):
                raise ValueError(f"a linear value model has {N_FEATURES} weights, not {self.layer1.shape}")
            flat = [0.0, *self.layer1]
        else:
            hidden = len(self.layer2)
            if self.layer1.shape != (hidden, N_FEATURES):
                raise ValueError(f"the hidden layer must be {hidden} x {N_FEATURES}, not {self.layer1.shape}")
            flat = [float(hidden), *self.layer1.ravel(), *self.layer2, self.bias2]
        # ``w[0]`` is the count of hidden units itself, not a weight.
        self.array = np.array([round(x * (1 if i == 0 else LEARNED_UNIT)) for i, x in enumerate(flat)], dtype=np.int64)

    @property
    def hidden(self) -> int:
        return 0 if self.layer2 is None else len(self.layer2)

    def logit(self, features: Floats) -> float:
        if self.layer2 is None:
            return float(self.layer1 @ features)
        return float(self.layer2 @ np.maximum(self.layer1 @ features, 0.0) + self.bias2)

    def chance(self, features: Floats) -> float:
        """The model's chance to win for a position with these ``features``."""
        return float(1.0 / (1.0 + np.exp(-np.clip(self.logit(features), -40.0, 40.0))))

    def to_json(self) -> dict[str, object]:
        from solvers.geister_engine.evaluation import FEATURES

        data: dict[str, object] = {"features": list(FEATURES), "hidden": self.hidden}
        if self.layer2 is None:
            data["weights"] = [round(float(x), 6) for x in self.layer1]
        else:
            data["layer1"] = [[round(float(x), 6) for x in row] for row in self.layer1]
            data["layer2"] = [round(float(x), 6) for x in self.layer2]
            data["bias2"] = round(self.bias2, 6)
        data["search_calibration"] = self.search_calibration.to_json()
        data["about"] = self.about
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> ValueModel:
        from solvers.geister_engine.evaluation import FEATURES

        if data.get("features") != list(FEATURES):
            raise ValueError("the value model was trained on other features than the engine computes")
        about = data.get("about", {})
        assert isinstance(about, dict)
        if not data.get("hidden"):
            model = cls(np.array(data["weights"], dtype=np.float64), about=about)
        else:
            model = cls(
                np.array(data["layer1"], dtype=np.float64),
                np.array(data["layer2"], dtype=np.float64),
                float(data["bias2"]),  # type: ignore[arg-type]
                about,
            )
        model.search_calibration = SearchCalibration.from_json(data.get("search_calibration"))
        return model


@cache
def load_value_model(path: Path = MODELS / "value.json") -> ValueModel:
    return ValueModel.from_json(json.loads(path.read_text(encoding="utf-8")))


def position_features(view: GeisterView, blue: dict[int, float]) -> Floats:
    """The search's features of ``view``'s position for its viewer, the opponent's pieces blue with the chances
    ``blue`` (by slot), computed by the engine's own kernel (so training and search read positions alike)."""
    from solvers.geister.purple import _context
    from solvers.geister_engine import convert, evaluation
    from solvers.geister_engine import search as sr
    from solvers.geister_engine.tables import tables

    kinds: dict[int, Colour] = {}
    s = convert.from_view(view, kinds, purple_escapes=True)
    c = _context(view, kinds, chance=True)
    c[sr.C_EVAL] = sr.EVAL_LEARNED
    prob = np.full(64, 1000, dtype=np.int64)
    for square, piece in view.pieces(view.viewer.other):
        prob[view.variant.index(square)] = round(1000 * blue.get(piece.slot, 0.5))
    out = np.zeros(evaluation.N_FEATURES)
    evaluation.features(s, tables(view.variant), c, prob, out)
    return out


def value_samples(
    folder: Path,
    games: Iterable[CorpusGame],
    chances: BlueChances,
    every: int = 4,
    seed: int = 0,
) -> tuple[Floats, Floats]:
    """Positions of ``games`` (every ``every``-th ply, from a random first one, both sides' points of view) with
    their features and how the game ended for the side that sees them (1 won, 0.5 drawn, 0 lost)."""
    from solvers.geister.training import sampled_plies

    rows: list[Floats] = []
    labels: list[float] = []
    for replay, _, outcome in sampled_plies(folder, games, every, random.Random(seed)):
        for side in Side:
            view = replay.view(side)
            rows.append(position_features(view, chances(view)))
            labels.append(0.5 if outcome.winner is None else float(outcome.winner is side))
    return (np.array(rows) if rows else np.zeros((0, 0)), np.array(labels))


def fit_value(x: Floats, y: Floats, hidden: int = 8, seed: int = 0) -> ValueModel:
    """A value model for positions ``x`` (``FEATURES``, the first the constant 1) and results ``y`` (1, 0.5, 0): a
    network of ``hidden`` rectified units (scikit-learn's MLP, early stopping on a tenth of the positions), or a
    logistic regression with ``hidden=0``. Draws count half a win: each position is a win weighted by its result
    and a loss weighted by the rest. Inputs are standardised for the fit, and the scaling folded into the first
    layer's weights, so the search reads raw features."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier

    raw = x[:, 1:]
    mean = raw.mean(axis=0)
    scale = raw.std(axis=0)
    scale[scale == 0] = 1.0
    standard = (raw - mean) / scale
    inputs = np.vstack([standard, standard])
    targets = np.concatenate([np.ones(len(y)), np.zeros(len(y))])
    weights = np.concatenate([y, 1.0 - y])
    keep = weights > 0
    inputs, targets, weights = inputs[keep], targets[keep], weights[keep]
    if hidden == 0:
        linear = LogisticRegression(C=1.0, max_iter=2000)
        linear.fit(inputs, targets, sample_weight=weights)
        coef = linear.coef_[0] / scale
        return ValueModel(np.array([float(linear.intercept_[0] - coef @ mean), *coef]))
    network = MLPClassifier(
        hidden_layer_sizes=(hidden,), alpha=1e-2, max_iter=400, early_stopping=True, random_state=seed
    )
    network.fit(inputs, targets, sample_weight=weights)
    first, second = network.coefs_
    bias1, bias2 = network.intercepts_
    # a = W (v - mean) / scale + b = (W / scale) v + (b - (W / scale) mean), for each hidden unit.
    folded = (first / scale[:, None]).T
    layer1 = np.column_stack([bias1 - folded @ mean, folded])
    return ValueModel(layer1, second[:, 0], float(bias2[0]))


def fit_search_calibration(
    player: PurplePlayer,
    folder: Path,
    games: Iterable[CorpusGame],
    depth: int = 3,
    every: int = 6,
    seed: int = 0,
) -> SearchCalibration:
    """The ``SearchCalibration`` of ``player``'s search at ``depth`` (``sage`` with the models to ship): positions of
    ``games`` (every ``every``-th ply from a random first one, the mover's view), each searched, the logit of the
    value of the move the mover played against how its game ended (a draw counts half), fitted by a one-feature
    logistic regression. So a listed move's chance is what playing that move gave, and the position's (its best
    move's) what following the advice gives. Proven results (a win or a loss the search sees to its end) are left
    out: they are shown as they are."""
    from solvers.geister.training import sampled_plies
    from solvers.geister_engine.layout import MATE
    from solvers.players import Limit

    logits: list[float] = []
    results: list[float] = []
    for replay, move, outcome in sampled_plies(folder, games, every, random.Random(seed)):
        view = replay.view(replay.to_move)
        *_, report = player.analyse(view, Limit(iterations=depth), random.Random(replay.ply))
        # The value of the move the mover played: a listed move's chance is what playing it gives.
        value = dict(report.moves).get(move)
        if value is not None and abs(value) < MATE - 1000:
            logits.append(search_logit(value))
            results.append(0.5 if outcome.winner is None else float(outcome.winner is replay.to_move))
    slope, intercept = fit_logit_scaling(np.array(logits), np.array(results))
    return SearchCalibration(slope, intercept, depth, len(results))


def fit_logit_scaling(logits: Floats, results: Floats) -> tuple[float, float]:
    """The slope and intercept of ``sigmoid(slope * logit + intercept)`` that fit ``results`` (1, 0.5, 0) best
    (Platt's scaling: a one-feature logistic regression, a draw counting half a win and half a loss). The slope is
    kept positive: the map must keep the order of what it maps."""
    from sklearn.linear_model import LogisticRegression

    x = logits[:, None]
    inputs = np.vstack([x, x])
    targets = np.concatenate([np.ones(len(results)), np.zeros(len(results))])
    weights = np.concatenate([results, 1.0 - results])
    keep = weights > 0
    regression = LogisticRegression(C=100.0, max_iter=1000)
    regression.fit(inputs[keep], targets[keep], sample_weight=weights[keep])
    return max(0.05, float(regression.coef_[0, 0])), float(regression.intercept_[0])
