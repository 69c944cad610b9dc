"""How honest each "chance to win" is, on games of a style no model was trained on.

Plays fresh games of the held-out style (``feeder`` by default: the shipped models never saw it) against every
player of the corpus (fixed depths and playouts, a seed the training corpus never used). At every ``--every``-th
ply the player to move is given its chance to win four ways, each scored against how that player's game ended
(a draw counts half):

* ``sage``'s search at ``--depth`` (the learned value model at its leaves; what the advice now shows);
* the learned value model alone, on the position (no search);
* ``bayes``'s search with the logistic chance it was shown with before (the frozen baseline);
* a logistic model of the pieces left on each side, the nearest blue's distance to an exit and the plies played,
  fitted in this run on positions of fresh games without the held-out style (the baseline the issue names).

Prints each one's log loss (a coin's is 0.693), expected calibration error and a 10-bin reliability table, and
ends with one JSON line. ``--records DIR`` scores real games instead (their set-ups must both be known).

    python benchmarks/chance_calibration.py [--style feeder] [--games 160] [--depth 3] [--every 3] [--seed 101]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from core.game import Side
from core.geister import GeisterState, GeisterView
from solvers.advice.geister import chance_of
from solvers.bayes import BayesPlayer
from solvers.geister.corpus import CORPUS_PLAYERS, CorpusGame, generate
from solvers.geister.learned import LearnedPlayer
from solvers.geister.training import Calibration, counts_only, records_as_games, replayed
from solvers.geister.value import load_value_model, position_features
from solvers.geister_engine.evaluation import FEATURES
from solvers.players import Limit

#: The baseline's inputs (``FEATURES``' names).
BASELINE = ("bias", "my blues", "my reds", "their blues", "their reds", "my runner", "plies / 100")
Judge = Callable[[GeisterView], float]


def positions(folder: Path, games: list[CorpusGame], every: int, seed: int) -> list[tuple[GeisterView, float]]:
    """The mover's view at every ``every``-th ply (from a random first one) and how its game ended for it."""
    rng = random.Random(seed)
    out = []
    for game in games:
        final = replayed(folder, game)
        outcome = final.outcome()
        if outcome is None:
            continue
        replay = GeisterState(final.variant, final.first)
        for side in Side:
            setup = final.setup(side)
            assert setup is not None
            replay.apply(setup)
        offset = rng.randrange(every)
        for index, move in enumerate(final.moves()):
            if index % every == offset:
                mover = replay.to_move
                result = 0.5 if outcome.winner is None else float(outcome.winner is mover)
                out.append((replay.view(mover), result))
            replay.push(move)
    return out


def fit_baseline(samples: list[tuple[GeisterView, float]]) -> Judge:
    from sklearn.linear_model import LogisticRegression

    columns = [FEATURES.index(name) for name in BASELINE[1:]]
    x = np.array([position_features(view, counts_only(view))[columns] for view, _ in samples])
    y = np.array([result for _, result in samples])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    inputs = np.vstack([(x - mean) / scale] * 2)
    weights = np.concatenate([y, 1 - y])
    keep = weights > 0
    model = LogisticRegression(max_iter=2000)
    model.fit(inputs[keep], np.concatenate([np.ones(len(y)), np.zeros(len(y))])[keep], sample_weight=weights[keep])

    def judge(view: GeisterView) -> float:
        row = (position_features(view, counts_only(view))[columns] - mean) / scale
        return float(model.predict_proba(row[None, :])[0, 1])

    return judge


def searcher(player: LearnedPlayer | BayesPlayer, depth: int) -> Judge:
    rng = random.Random(1)

    def judge(view: GeisterView) -> float:
        *_, report = player.analyse(view, Limit(iterations=depth), rng)
        return chance_of(report.value, view, report.expected)

    return judge


def static_model() -> Judge:
    model = load_value_model()
    sage = LearnedPlayer()

    def judge(view: GeisterView) -> float:
        return model.chance(position_features(view, sage.blue_chances(view)))

    return judge


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", default="feeder")
    parser.add_argument("--games", type=int, default=160, help="fresh games of the style (default 160)")
    parser.add_argument("--train-games", type=int, default=480, help="fresh games for the baseline (default 480)")
    parser.add_argument("--depth", type=int, default=3, help="the searches' depth (default 3)")
    parser.add_argument("--every", type=int, default=3, help="a position every n plies (default 3)")
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--records", type=Path, help="score the records in this folder instead")
    args = parser.parse_args()
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="chance-calibration-"))
    print("playing the baseline's training games (no held-out style)...", flush=True)
    others = tuple(name for name in CORPUS_PLAYERS if name != args.style)
    train = generate(work / "train", args.train_games, args.seed + 1, args.workers, players=others)
    baseline = fit_baseline(positions(work / "train", train, args.every * 2, args.seed))
    if args.records is not None:
        folder = args.records
        games = records_as_games(folder)
        source = f"{len(games)} records in {folder}"
    else:
        print(f"playing {args.games} games of {args.style}...", flush=True)
        folder = work / "test"
        games = generate(folder, args.games, args.seed, args.workers, focus=(args.style,))
        source = f"{len(games)} fresh games of {args.style} (seed {args.seed})"
    test = positions(folder, games, args.every, args.seed)
    judges: dict[str, Judge] = {
        f"sage's search, depth {args.depth}": searcher(LearnedPlayer(), args.depth),
        "the value model alone": static_model(),
        f"bayes's search + logistic (before), depth {args.depth}": searcher(BayesPlayer(), args.depth),
        "baseline logistic (pieces, runner, plies)": baseline,
    }
    print(f"judging {len(test)} positions four ways...", flush=True)
    scores = {name: Calibration() for name in judges}
    for view, result in test:
        for name, judge in judges.items():
            scores[name].add(judge(view), result)
    print(f"\nChance to win of the player to move on {source}, {len(test)} positions (a coin's log loss: 0.6931):\n")
    for name, score in scores.items():
        print(f"{name:<52} log loss {score.log_loss:.4f}  calibration error {score.calibration_error:.4f}")
    for name, score in scores.items():
        print(f"\n{name}: predicted against observed")
        for low, mean, observed, count in score.reliability():
            if count:
                print(f"  {low:.1f}-{low + 0.1:.1f}   {mean:.3f}   {observed:.3f}    {count:>6}")
    print(f"({time.perf_counter() - started:.0f} s)")
    print(json.dumps({"source": source, "positions": len(test), "judges": {n: s.to_json() for n, s in scores.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
