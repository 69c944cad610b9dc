"""How honest each "chance to win" is, on games of a style no model was trained on.

Plays fresh games of the held-out style (``feeder`` by default: the shipped models never saw it) against every
player of the corpus, as the models were trained (``--opponents`` picks others; fixed depths and playouts, a seed
the training corpus never used). At every ``--every``-th ply the player to move is given its chance to win five ways,
each scored against how that player's game ended (a draw counts half):

* ``sage``'s search at ``--depth`` (the learned value model at its leaves, calibrated; what the advice now shows
  for the position), and the same search's chance for the move the mover played (what ``review`` shows for it: a
  player that walks past a win the search sees is judged by the move it made, not by the win it missed);
* the learned value model alone, on the position (no search);
* ``bayes``'s search with the logistic chance it was shown with before (the frozen baseline);
* a logistic model of the pieces left on each side, the nearest blue's distance to an exit and the plies played,
  fitted in this run on positions of fresh games without the held-out style (the baseline the issue names).

The chance of a position is its best move's: what following the advice gives. A mover that does not play the
best walks past the wins the search sees (a player that does not look ahead most of all: measured, every
"proven" win at depth 3 that was not won was one its mover did not play, and all but one of them hold with every
colour known), so the search's chance for the position reads high at its top for such movers; the chance of the
move played does not. The position's chance is therefore scored where the advice is followed: on ``sage``'s own
turns, in ``--advised-games`` fresh games of the style against ``sage`` (with ``--records``, the records' turns of
a player named ``sage``).
``--opponents purple,bayes,sage,bluffer,rusher,turtle`` plays only the players that search ahead.

Prints each one's log loss (a coin's is 0.693), expected calibration error and a 10-bin reliability table, and
ends with one JSON line. ``--records DIR`` scores real games instead (their set-ups must both be known).

    python benchmarks/chance_calibration.py [--style feeder] [--games 160] [--advised-games 80] [--depth 3]
        [--every 3] [--seed 101] [--opponents all | purple,bayes,sage,bluffer,rusher,turtle] [--records DIR]
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

from core.geister import GeisterView
from core.notation import Move
from solvers.advice.geister import chance_of
from solvers.geister.bayes import BayesPlayer
from solvers.geister.corpus import CORPUS_PLAYERS, CorpusGame, generate
from solvers.geister.learned import LearnedPlayer
from solvers.geister.purple import SearchReport
from solvers.geister.training import Calibration, counts_only, records_as_games, sampled_plies
from solvers.geister.value import load_value_model, position_features
from solvers.geister_engine.evaluation import FEATURES
from solvers.players import Limit

#: The baseline's inputs (``FEATURES``' names).
BASELINE = ("bias", "my blues", "my reds", "their blues", "their reds", "my runner", "plies / 100")
#: A judge's chance to win for the mover of a position (its view), given the move it played there.
Judge = Callable[[GeisterView, Move], float]
#: A position: the mover's view, how its game ended for it, the move it played, and its name.
Position = tuple[GeisterView, float, Move, str]


def positions(folder: Path, games: list[CorpusGame], every: int, seed: int) -> list[Position]:
    """The mover's view at every ``every``-th ply (from a random first one), how its game ended for it, the move it
    played and its name."""
    out = []
    rng = random.Random(seed)
    for game in games:
        for replay, move, outcome in sampled_plies(folder, [game], every, rng):
            mover = replay.to_move
            result = 0.5 if outcome.winner is None else float(outcome.winner is mover)
            out.append((replay.view(mover), result, move, game.players[mover]))
    return out


def fit_baseline(samples: list[Position]) -> Judge:
    from sklearn.linear_model import LogisticRegression

    columns = [FEATURES.index(name) for name in BASELINE[1:]]
    x = np.array([position_features(view, counts_only(view))[columns] for view, *_ in samples])
    y = np.array([result for _, result, *_ in samples])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    inputs = np.vstack([(x - mean) / scale] * 2)
    weights = np.concatenate([y, 1 - y])
    keep = weights > 0
    model = LogisticRegression(max_iter=2000)
    model.fit(inputs[keep], np.concatenate([np.ones(len(y)), np.zeros(len(y))])[keep], sample_weight=weights[keep])

    def judge(view: GeisterView, move: Move) -> float:
        row = (position_features(view, counts_only(view))[columns] - mean) / scale
        return float(model.predict_proba(row[None, :])[0, 1])

    return judge


def searcher(player: LearnedPlayer | BayesPlayer, depth: int, played: bool = False) -> Judge:
    """The search's chance for the position (its best move's), or with ``played`` for the move the mover played
    (as ``review`` shows it: every root move's value is searched exactly)."""
    rng = random.Random(1)

    def judge(view: GeisterView, move: Move) -> float:
        report = _search(player, view, depth, rng)
        value = dict(report.moves).get(move, report.value) if played else report.value
        return chance_of(value, view, report.expected)

    return judge


_searched: dict[tuple[int, int], SearchReport] = {}


def _search(player: LearnedPlayer | BayesPlayer, view: GeisterView, depth: int, rng: random.Random) -> SearchReport:
    """One search per player and position, shared by its judges (the last position's only)."""
    key = (id(player), id(view))
    if key not in _searched:
        _searched.clear()
        *_, report = player.analyse(view, Limit(iterations=depth), rng)
        assert isinstance(report, SearchReport)
        _searched[key] = report
    return _searched[key]


def static_model() -> Judge:
    model = load_value_model()
    sage = LearnedPlayer()

    def judge(view: GeisterView, move: Move) -> float:
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
    parser.add_argument(
        "--advised-games", type=int, default=80, help="fresh games of the style against sage (default 80)"
    )
    parser.add_argument("--records", type=Path, help="score the records in this folder instead")
    parser.add_argument(
        "--opponents", default="all", help="the style's opponents, comma-separated, or 'all' (the corpus: the default)"
    )
    args = parser.parse_args()
    opponents = (
        CORPUS_PLAYERS if args.opponents == "all" else tuple(n.strip() for n in args.opponents.split(",") if n.strip())
    )
    unknown = [name for name in opponents if name not in (*CORPUS_PLAYERS, "sage")]
    if unknown:
        parser.error(f"--opponents: not corpus players: {', '.join(unknown)}")
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="chance-calibration-"))
    print("playing the baseline's training games (no held-out style)...", flush=True)
    others = tuple(name for name in opponents if name != args.style)
    train = generate(work / "train", args.train_games, args.seed + 1, args.workers, players=others)
    baseline = fit_baseline(positions(work / "train", train, args.every * 2, args.seed))
    if args.records is not None:
        folder = args.records
        games = records_as_games(folder)
        source = f"{len(games)} records in {folder}"
    else:
        print(f"playing {args.games} games of {args.style}...", flush=True)
        folder = work / "test"
        games = generate(
            folder, args.games, args.seed, args.workers, players=(args.style, *others), focus=(args.style,)
        )
        source = f"{len(games)} fresh games of {args.style} against {', '.join(others)} (seed {args.seed})"
    test = positions(folder, games, args.every, args.seed)
    if args.records is None:
        # The position's chance is what following the advice gives: scored where the mover does follow it.
        print(f"playing {args.advised_games} games of {args.style} against sage...", flush=True)
        advised_games = generate(
            work / "advised",
            args.advised_games,
            args.seed + 2,
            args.workers,
            players=(args.style, "sage"),
            focus=(args.style,),
        )
        advised = positions(work / "advised", advised_games, args.every, args.seed)
    else:
        advised = test
    advised = [position for position in advised if position[3] == "sage"]
    sage = LearnedPlayer()
    judges: dict[str, Judge] = {
        f"sage's search, depth {args.depth}": searcher(sage, args.depth),
        f"sage's search, depth {args.depth}, the move played": searcher(sage, args.depth, played=True),
        "the value model alone": static_model(),
        f"bayes's search + logistic (before), depth {args.depth}": searcher(BayesPlayer(), args.depth),
        "baseline logistic (pieces, runner, plies)": baseline,
    }
    print(f"judging {len(test)} positions {len(judges)} ways...", flush=True)
    scores = {name: Calibration() for name in judges}
    for view, result, move, _ in test:
        for name, judge in judges.items():
            scores[name].add(judge(view, move), result)
    followed = f"sage's search, depth {args.depth}, sage's own turns"
    position_chance = searcher(sage, args.depth)
    scores[followed] = Calibration()
    for view, result, move, _ in advised:
        scores[followed].add(position_chance(view, move), result)
    print(f"\nChance to win of the player to move on {source}, {len(test)} positions (a coin's log loss: 0.6931);")
    print(f"sage's own turns: {len(advised)} positions where the mover plays the advice.\n")
    for name, score in scores.items():
        print(f"{name:<52} log loss {score.log_loss:.4f}  calibration error {score.calibration_error:.4f}")
    for name, score in scores.items():
        print(f"\n{name}: predicted against observed")
        for low, mean, observed, count in score.reliability():
            if count:
                print(f"  {low:.1f}-{low + 0.1:.1f}   {mean:.3f}   {observed:.3f}    {count:>6}")
    print(f"({time.perf_counter() - started:.0f} s)")
    print(
        json.dumps(
            {
                "source": source,
                "positions": len(test),
                "advised": len(advised),
                "judges": {n: s.to_json() for n, s in scores.items()},
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
