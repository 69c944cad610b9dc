"""How well each belief about the opponent's colours reads a style it never trained on.

Plays fresh games of the held-out style (``feeder`` by default: the shipped models were trained without it) against
every player of the corpus, at the corpus's fixed depths and playouts, with a seed the training corpus never used;
then, at every turn of the style's opponent, scores each belief's chance of blue for every piece of the held-out
player whose colour is unknown, against the real colour. Printed for each belief, measured in the same run:

* the log loss per piece and turn, and the expected calibration error, with a 10-bin reliability table;
* with one red left, how often the real last red is the piece the belief ranks likeliest red.

Beliefs: the counts alone (the blues left shared equally), ``bayes``'s feature belief (the frozen baseline), and the
learned choice-model belief (``solvers.geister.choice_belief``, the shipped mixture). ``--records DIR`` scores
records of real games instead (``nashplay connect`` keeps both colours once a game ends), against the opponent in
each.

    python benchmarks/belief_calibration.py [--style feeder] [--games 240] [--seed 101] [--every 2]
    python benchmarks/belief_calibration.py --records DIR [--as NAME]

Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.geister.belief import belief
from solvers.geister.choice_belief import load_mixture
from solvers.geister.corpus import generate
from solvers.geister.training import (
    Calibration,
    belief_calibration,
    counts_only,
    mixture_predictor,
    records_as_games,
)


def report(name: str, score: Calibration) -> None:
    print(
        f"{name:<22} pieces x turns {score.count:>6}  log loss {score.log_loss:.4f}  "
        f"calibration error {score.calibration_error:.4f}  last red ranked first "
        f"{score.last_red_hits}/{score.last_red_events} ({100 * score.last_red_rate:.1f}%)"
    )


def reliability(name: str, score: Calibration) -> None:
    print(f"\n{name}: predicted chance of blue against how often the piece was blue")
    print("  bin       mean   observed   count")
    for low, mean, observed, count in score.reliability():
        if count:
            print(f"  {low:.1f}-{low + 0.1:.1f}   {mean:.3f}   {observed:.3f}    {count:>6}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", default="feeder", help="the held-out style (default feeder)")
    parser.add_argument("--games", type=int, default=240, help="fresh games of the style (default 240)")
    parser.add_argument("--seed", type=int, default=101, help="their seed (default 101; the training corpus: 1)")
    parser.add_argument("--every", type=int, default=2, help="score every n-th turn of a game (default 2)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--records", type=Path, help="score these records instead (real games)")
    parser.add_argument(
        "--as",
        dest="us",
        help="with --records: our players' names, comma-separated (their opponents' pieces are read)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    if args.records is not None:
        folder = args.records
        games = records_as_games(folder)
        ours = {name.strip() for name in (args.us or "").split(",")}
        movers = tuple(sorted({name for game in games for name in game.players if name not in ours}))
        source = f"{len(games)} records in {args.records}"
    else:
        folder = Path(tempfile.mkdtemp(prefix="belief-calibration-"))
        print(f"playing {args.games} games of {args.style} against every corpus player...", flush=True)
        games = generate(folder, args.games, args.seed, args.workers, focus=(args.style,))
        movers = (args.style,)
        source = f"{len(games)} fresh games of {args.style} (seed {args.seed})"
    predictors = {
        "counts alone": counts_only,
        "bayes's belief": lambda view: belief(view).blue,
        "learned (choice model)": mixture_predictor(load_mixture()),
    }
    scores = belief_calibration(folder, games, predictors, movers=movers, every=args.every)
    print(f"\nBeliefs on {source}, read at every {args.every}. turn of its opponents:\n")
    for name, score in scores.items():
        report(name, score)
    for name, score in scores.items():
        reliability(name, score)
    counts = scores["counts alone"].log_loss
    learned = scores["learned (choice model)"].log_loss
    print(f"\nlearned against the counts alone: {counts - learned:+.4f} log loss per piece (positive: better)")
    print(f"({time.perf_counter() - started:.0f} s)")
    out = {
        "source": source,
        "every": args.every,
        "beliefs": {name: score.to_json() for name, score in scores.items()},
        "gain_over_counts": round(counts - learned, 4),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
