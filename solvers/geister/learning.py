"""The whole training run behind ``nashplay train geister``: corpus, belief, value model, written as JSON.

Deterministic from its seed: the corpus's games (fixed depths and playouts), the split into training and validation
games, the samples; so a re-run gives the same models (up to the solvers' last bits).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from solvers.geister.corpus import CorpusGame, generate, load_corpus
from solvers.geister.learned import LearnedPlayer
from solvers.geister.training import fit_mixture, fit_temper, mixture_predictor, turns_by_player
from solvers.geister.value import SearchCalibration, fit_search_calibration, fit_value, value_samples

__all__ = ["train_models"]

#: A player's turns the belief learns from, at most (drawn at random beyond that).
TURNS_PER_PLAYER = 60_000
#: The share of the training games kept aside to fit the belief's temper on.
VALIDATION_SHARE = 0.1
#: Games whose positions the value model learns from, at most, and how often a game's plies are taken.
VALUE_GAMES = 4_000
VALUE_EVERY = 3
#: Games (of the training ones, not those the value model learned from) whose positions calibrate the search's
#: chances, how often a game's plies are taken, and the depth searched (as ``review --depth 3``).
CALIBRATION_GAMES = 300
CALIBRATION_EVERY = 6
CALIBRATION_DEPTH = 3


def train_models(
    corpus: Path,
    out: Path,
    games: int,
    seed: int,
    held_out: tuple[str, ...],
    workers: int = 2,
    say: Callable[[str], None] = lambda message: None,
    cluster: str | None = None,
) -> dict[str, Any]:
    times: dict[str, float] = {}
    started = time.perf_counter()
    # The corpus on ``workers`` processes, or on the Ray cluster at ``cluster`` (the same games either way).
    generate(
        corpus,
        games,
        seed,
        workers,
        progress=lambda done, total: say(f"corpus: {done}/{total} games"),
        cluster=cluster,
    )
    times["corpus"] = time.perf_counter() - started

    started = time.perf_counter()
    training = list(load_corpus(corpus, without=held_out))
    rng = random.Random(f"split:{seed}")
    rng.shuffle(training)
    cut = int(len(training) * VALIDATION_SHARE)
    validation, fitting = training[:cut], training[cut:]
    say("belief: reading the turns...")
    turns = turns_by_player(corpus, fitting, TURNS_PER_PLAYER, seed)
    say("belief: fitting the styles...")
    mixture = fit_mixture(turns)
    say("belief: fitting the temper on styles left out in turn...")
    temper, losses = fit_temper(mixture, corpus, validation)
    mixture = type(mixture)(mixture.styles, mixture.prior, temper)
    times["belief"] = time.perf_counter() - started
    out.mkdir(parents=True, exist_ok=True)
    about = {"seed": seed, "games": games, "held_out": list(held_out), "corpus": corpus.name}
    belief_json = dict(mixture.to_json(), about=dict(about, turns=sum(len(t) for t in turns.values())))
    (out / "belief.json").write_text(json.dumps(belief_json, indent=1) + "\n", encoding="utf-8")

    started = time.perf_counter()
    say("value: reading positions...")
    sample_games = fitting[:VALUE_GAMES]
    x, y = value_samples(corpus, sample_games, mixture_predictor(mixture), every=VALUE_EVERY, seed=seed)
    say("value: fitting...")
    model = fit_value(x, y, seed=seed)
    model.about = dict(about, positions=len(y), games_read=len(sample_games))
    (out / "value.json").write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    times["value"] = time.perf_counter() - started

    started = time.perf_counter()
    say("value: calibrating the search's chances...")
    # Games the value model did not learn from; a corpus too small to have them lends its last ones.
    calibration_games = fitting[VALUE_GAMES : VALUE_GAMES + CALIBRATION_GAMES] or fitting[-CALIBRATION_GAMES:]
    model.search_calibration = calibrate(out, corpus, calibration_games, seed)
    times["calibration"] = time.perf_counter() - started
    return {
        "games": games,
        "held_out": list(held_out),
        "belief": {
            "styles": [style.name for style in mixture.styles],
            "turns": sum(len(t) for t in turns.values()),
            "temper": temper,
            "temper_log_losses": {str(k): round(v, 4) for k, v in losses.items()},
        },
        "value": {
            "positions": len(y),
            "hidden": model.hidden,
            "search_calibration": model.search_calibration.to_json(),
        },
        "times": {key: round(value, 1) for key, value in times.items()},
    }


def calibrate(out: Path, corpus: Path, games: list[CorpusGame], seed: int) -> SearchCalibration:
    """Fit the search's calibration with the value model just written (``out``) and store it there; it is what the
    search at the root reads, so the model is loaded from ``out``."""
    from solvers.geister import value as value_module

    path = out / "value.json"
    value_module.load_value_model.cache_clear()
    data = json.loads(path.read_text(encoding="utf-8"))
    player = LearnedPlayer(value_model=value_module.load_value_model(path))
    calibration = fit_search_calibration(player, corpus, games, CALIBRATION_DEPTH, CALIBRATION_EVERY, seed)
    data["search_calibration"] = calibration.to_json()
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    value_module.load_value_model.cache_clear()
    return calibration
