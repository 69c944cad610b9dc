"""Evidence that the Mini-Geister Nash player holds: thousands of games against every opponent, on each side.

The opponents cannot see its colours: random, Chototsu, the greedy player, the section-5 mirror player, and an
adversary that plays the Nash player's own (base-rule) table against it and exploits what the strategy gives away
once its event has passed. For each, the Nash player's average payoff (+1 win, 0 draw, -1 loss) with a 95% interval
(the arena's: Wilson on the score, a draw counting half); the claim is that none is significantly below 0. The
baseline, measured in the same run, is a random player in the Nash player's seat against the same opponents (it
is beaten by most of them). Every game is played by ``solvers.arena``, the Nash player always on its side and
player 1 always moving first, as in the paper.

    python benchmarks/mini_geister_nash.py [--games 2000] [--rule base|extended] [--seed 1]

Ends with one JSON line: per opponent and side, the mean, its interval, and the random seat's mean.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from statistics import NormalDist

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.game import Side
from solvers.arena import MatchResult, run_match
from solvers.mini_geister.analysis import MiniGeisterTables
from solvers.players import Limit

OPPONENTS = ("random", "chototsu", "greedy", "mirror", "adversary")


def match(seat: str, opponent: str, side: Side, games: int, seed: int, workers: int) -> MatchResult:
    return run_match(
        "mini-geister", (seat, opponent), games, Limit(), workers=workers, seed=seed, a_side=side, first=Side.P1
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rule", choices=["base", "extended"], default="base")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    MiniGeisterTables.load()  # solve (or read) the tables once, before the workers read them from the cache
    nash = "nash" if args.rule == "base" else "nash-extended"
    cells = [(name, side) for name in OPPONENTS for side in (Side.P1, Side.P2)]
    # The verdict corrects for testing many cells at once (Bonferroni): at 95% per cell, one cell in twenty falls
    # below 0 by chance alone even when every true mean is >= 0.
    z_family = NormalDist().inv_cdf(1 - 0.05 / (2 * len(cells)))
    started = time.perf_counter()
    print(f"Nash player ({args.rule} rule), {args.games} games per opponent and side; payoff +1 / 0 / -1")
    print(f"{'opponent':<10} {'Nash as':<8} {'W':>6} {'D':>5} {'L':>6} {'mean':>7}  {'95% interval':<17} random seat")
    figures: dict[str, dict[str, object]] = {}
    worst = 1.0
    for i, (opponent, side) in enumerate(cells):
        result = match(nash, opponent, side, args.games, args.seed + i, args.workers)
        baseline = match("random", opponent, side, max(200, args.games // 5), args.seed + i, args.workers)
        wins, draws, losses = result.record(0)
        lo, hi = result.score_ci95(0)
        worst = min(worst, result.score_ci95(0, z=z_family)[1])
        mean = result.mean_score(0)
        print(
            f"{opponent:<10} {'player ' + str(side.number):<8} {wins:>6} {draws:>5} {losses:>6} "
            f"{mean:>+7.3f}  [{lo:+.3f}, {hi:+.3f}]  {baseline.mean_score(0):+.3f}"
        )
        figures[f"{opponent}/{side.number}"] = {
            "mean": round(mean, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "baseline_random_seat": round(baseline.mean_score(0), 4),
        }
    wall = time.perf_counter() - started
    games = args.games * len(cells)
    print(f"{games} games (and the random seat's) in {wall:.1f} s on {args.workers} workers")
    verdict = "never significantly below 0" if worst >= 0 else "SIGNIFICANTLY BELOW 0 somewhere: investigate"
    print(f"{verdict} (family-wise 95% over {len(cells)} cells: z = {z_family:.2f})")
    summary = {"games": args.games, "rule": args.rule, "seconds": round(wall, 2), "never_below_0": worst >= 0}
    print(json.dumps({**summary, "results": figures}))


if __name__ == "__main__":
    main()
