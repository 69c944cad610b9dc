"""Evidence that the Mini-Geister Nash player holds: thousands of games against every opponent, on each side.

The opponents cannot see its colours: random, Chototsu, a capture-first greedy player, the section-5 mirror player,
and an adversary that plays the Nash player's own table against it and exploits what the strategy gives away once
its event has passed. For each, the Nash player's average payoff (+1 win, 0 draw, -1 loss) with a 95% interval;
the claim is that none is significantly below 0. The baseline, measured in the same run, is a random player in the
Nash player's seat against the same opponents (it is beaten by most of them).

    python benchmarks/mini_geister_nash.py [--games 2000] [--rule base|extended] [--seed 1]

Ends with one JSON line: per opponent and side, the mean, its interval, and the random seat's mean.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import NormalDist

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.game import Side
from solvers.baselines import RandomPlayer
from solvers.mini_geister import MiniGeisterTables
from solvers.mini_geister_players import OPPONENTS, MatchResult, TableAdversary, nash_match, play_game


def random_seat(opponent: str, side: Side, games: int, seed: int) -> float:
    rng = random.Random(seed)
    total = 0.0
    for _ in range(games):
        other = TableAdversary() if opponent == "adversary" else OPPONENTS[opponent]()
        state = play_game({side: RandomPlayer(), side.other: other}, rng)
        total += state.returns()[side]
    return total / games


def one(job: tuple[str, int, int, str, int]) -> tuple[MatchResult, float, float]:
    opponent, side_number, games, rule, seed = job
    side = Side.from_number(side_number)
    tables = MiniGeisterTables.load()
    started = time.perf_counter()
    result = nash_match(opponent, side, games, seed, rule, tables)  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    return result, random_seat(opponent, side, max(200, games // 5), seed), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rule", choices=["base", "extended"], default="base")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    MiniGeisterTables.load()  # solve (or read) the tables once, before the workers read them from the cache
    jobs = [(name, side, args.games, args.rule, args.seed + i) for i, name in enumerate(OPPONENTS) for side in (1, 2)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(one, jobs))
    wall = time.perf_counter() - started
    print(f"Nash player ({args.rule} rule), {args.games} games per opponent and side; payoff +1 / 0 / -1")
    print(f"{'opponent':<10} {'Nash as':<8} {'W':>6} {'D':>5} {'L':>6} {'mean':>7}  {'95% interval':<17} random seat")
    figures: dict[str, dict[str, object]] = {}
    # The verdict corrects for testing many cells at once (Bonferroni): at 95% per cell, one cell in twenty falls
    # below 0 by chance alone even when every true mean is >= 0.
    z_family = NormalDist().inv_cdf(1 - 0.05 / (2 * len(results)))
    worst = 1.0
    for result, baseline, _ in results:
        lo, hi = result.ci95
        half = (hi - lo) / 2
        worst = min(worst, result.mean + half * z_family / 1.96)
        print(
            f"{result.opponent:<10} {'player ' + str(result.nash_side.number):<8} {result.wins:>6} {result.draws:>5} "
            f"{result.losses:>6} "
            f"{result.mean:>+7.3f}  [{lo:+.3f}, {hi:+.3f}]  {baseline:+.3f}"
        )
        figures[f"{result.opponent}/{result.nash_side.number}"] = {
            "mean": round(result.mean, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "baseline_random_seat": round(baseline, 4),
        }
    games = sum(r.games for r, _, _ in results)
    print(f"{games} games in {wall:.1f} s ({games / wall:.0f} games/s on {args.workers} workers)")
    verdict = "never significantly below 0" if worst >= 0 else "SIGNIFICANTLY BELOW 0 somewhere: investigate"
    print(f"{verdict} (family-wise 95% over {len(results)} cells: z = {z_family:.2f})")
    summary = {"games": args.games, "rule": args.rule, "seconds": round(wall, 2), "never_below_0": worst >= 0}
    print(json.dumps({**summary, "results": figures}))


if __name__ == "__main__":
    main()
