"""Fits the Geister advice's chance to win (``solvers.advice.geister.CHANCE_WEIGHTS``) and checks its calibration.

Games of ``bayes`` against ``purple`` at a fixed depth (random set-ups, sides alternating) are played to the end,
and the decisions of both sides are read, each from its own view with its own search's score: so the positions
cover both the stronger side's and the weaker's, and the model learns what the position says rather than who plays
it (a self-play fit, tried first, learnt nothing: bayes against itself at depth 4 decides its games by the colour
guesses, and the fit's held-out log loss was 0.705, a coin's 0.693). At every decision the model's features
(``solvers.advice.geister.features``: pieces left, nearest
runners, the search's score) are kept with the game's result. Values that are proven results or chance nodes
(beyond ``DECIDED``) map to chances by their own meaning and are left out. A logistic regression (Newton's method,
a little L2) is fitted on half of the games and scored on the other half by log loss, next to the baselines
measured in the same run: a coin (0.5), and the pieces alone (the same model without the search's score).

    python benchmarks/advice_calibration.py [--games 200] [--depth 4] [--workers 2] [--seed 1]

Prints the weights, the held-out log losses, and predicted against observed win rates by bin; ends with one JSON
line.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from core.game import Side
from core.geister import VARIANTS, GeisterState
from solvers.advice.geister import DECIDED, FEATURES, features
from solvers.geister.bayes import BayesPlayer
from solvers.geister.purple import PurplePlayer
from solvers.players import Limit

GEISTER = VARIANTS["geister"]


Sample = tuple[tuple[float, ...], float]


def play(seed: int, depth: int) -> list[Sample]:
    """One game; each side's (features, result) at each of its decisions whose value is a score (1, 0.5, 0)."""
    rng = random.Random(seed)
    bayes_side = Side.P1 if seed % 2 == 0 else Side.P2
    players = {bayes_side: BayesPlayer(), bayes_side.other: PurplePlayer()}
    rngs = {side: random.Random(rng.getrandbits(32)) for side in Side}
    state = GeisterState(GEISTER, rng.choice(list(Side)))
    limit = Limit(iterations=depth)
    scores: list[tuple[Side, tuple[float, ...]]] = []
    while not state.is_terminal():
        side = Side(state.current_player())
        view = state.view(side)
        if view.phase == "play":
            *_, report = players[side].analyse(view, limit, rngs[side])
            if abs(report.value) <= DECIDED:
                scores.append((side, features(view, report.value)))
            state.apply(report.best)
        else:
            state.apply(players[side].choose(view, rngs[side], limit))
    outcome = state.outcome()
    assert outcome is not None
    return [(f, 0.5 if outcome.winner is None else float(outcome.winner is side)) for side, f in scores]


def _job(job: tuple[int, int]) -> list[Sample]:
    return play(*job)


def fit(samples: list[Sample], columns: list[int]) -> np.ndarray:
    """Logistic regression weights on ``columns`` of the features (draws count half), by Newton's method."""
    x = np.array([[f[c] for c in columns] for f, _ in samples])
    y = np.array([r for _, r in samples])
    w = np.zeros(len(columns))
    ridge = 1e-3 * len(samples) * np.eye(len(columns))
    ridge[0, 0] = 0.0  # no penalty on the bias
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + ridge @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(samples: list[Sample], columns: list[int], w: np.ndarray | None) -> float:
    total = 0.0
    for f, result in samples:
        p = 0.5 if w is None else 1 / (1 + math.exp(-sum(wi * f[c] for wi, c in zip(w, columns, strict=True))))
        p = min(1 - 1e-9, max(1e-9, p))
        total -= result * math.log(p) + (1 - result) * math.log(1 - p)
    return total / len(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    jobs = [(args.seed * 1_000_003 + i, args.depth) for i in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(_job, jobs))
    train = [sample for game in games[0::2] for sample in game]
    test = [sample for game in games[1::2] for sample in game]
    every = list(range(len(FEATURES)))
    pieces_only = [i for i, name in enumerate(FEATURES) if name != "search score"]
    w = fit(train, every)
    w_pieces = fit(train, pieces_only)
    fitted, pieces, coin = log_loss(test, every, w), log_loss(test, pieces_only, w_pieces), log_loss(test, every, None)
    print(f"{args.games} games of bayes against purple at depth {args.depth}, both sides read:", end=" ")
    print(f"{len(train)} positions fitted, {len(test)} held out")
    named = zip(FEATURES, w, strict=True)
    print("weights (CHANCE_WEIGHTS): " + ", ".join(f"{name} {value:+.4f}" for name, value in named))
    print(f"held-out log loss: model {fitted:.4f}   pieces alone {pieces:.4f}   coin {coin:.4f}")
    print(f"{'predicted':>12} {'observed':>9} {'positions':>10}")
    bins: dict[int, list[float]] = {}
    for f, result in test:
        p = 1 / (1 + math.exp(-float(np.dot(w, f))))
        bins.setdefault(min(9, int(p * 10)), []).append(result)
    for b in sorted(bins):
        results = bins[b]
        print(f"{b * 10:>5}-{b * 10 + 10:>3}% {100 * sum(results) / len(results):>8.1f}% {len(results):>10}")
    print(f"({time.perf_counter() - started:.0f} s)")
    summary = {
        "games": args.games,
        "depth": args.depth,
        "weights": [round(float(v), 4) for v in w],
        "log_loss": {"model": fitted, "pieces": pieces, "coin": coin},
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
