"""Every Geister AI against every other: the strength table in the README.

    python benchmarks/geister_strength.py [--players bayes,purple,...] [--games 40] [--time 0.05] [--workers 2]

Each pair plays a match with ``solvers.arena.run_match`` (what ``nashplay arena`` runs: sides and first movers
alternate, each game seeded), every player with the same time a move. The baseline measured in the same run is
``random``: every AI's row against it shows the floor.

Prints one row per pair (wins, draws, losses of the first named, the win rate's 95% Wilson interval, how the games
ended), then a matrix of win rates, and ends with one JSON line holding every match's ``nashplay arena --json``
object.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.arena import run_match
from solvers.catalogue import players_for
from solvers.players import Limit

#: The default field: the search AIs strongest first, then the baselines.
DEFAULT = ("bayes", "purple", "ismcts", "upp", "mc", "greedy", "chototsu", "random")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", default=",".join(DEFAULT), help="comma separated (default: %(default)s)")
    parser.add_argument("--games", type=int, default=40, help="games per pair (default 40)")
    parser.add_argument("--time", type=float, default=0.05, help="seconds a move for every player (default 0.05)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = [name.strip() for name in args.players.split(",") if name.strip()]
    known = {entry.name for entry in players_for("geister")}
    unknown = [name for name in names if name not in known]
    if unknown or len(names) < 2 or len(set(names)) != len(names):
        parser.error(f"--players: two or more distinct Geister players from {', '.join(sorted(known))}")
    if not (1 <= args.games <= 10_000 and 0.001 <= args.time <= 60 and 1 <= args.workers <= 64):
        parser.error("--games in 1..10000, --time in 0.001..60, --workers in 1..64")
    limit = Limit(time=args.time)
    matches: dict[str, Any] = {}
    rates: dict[tuple[str, str], float] = {}
    print(f"{args.games} games a pair, {args.time} s a move each; W-D-L of the first named")
    print(f"{'match':<22} {'W-D-L':<10} {'win':>6} {'95% interval':<16} ended by (wins of the first named)")
    for a, b in itertools.combinations(names, 2):
        started = time.perf_counter()
        match = run_match("geister", (a, b), args.games, limit, args.workers, args.seed)
        data = match.to_json()
        matches[f"{a} vs {b}"] = data
        first = data["players"][a]
        low, high = first["ci95"]
        rates[(a, b)] = first["win_rate"]
        rates[(b, a)] = data["players"][b]["win_rate"]
        ends = ", ".join(f"{k} {v}" for k, v in sorted(first["won_by"].items()))
        print(
            f"{a + ' vs ' + b:<22} {first['wins']}-{first['draws']}-{first['losses']:<6} {first['win_rate']:>6.1%} "
            f"[{low:.3f}, {high:.3f}]  {ends}  ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    print("\nWin rate of the row against the column:")
    print(" " * 10 + "".join(f"{name:>10}" for name in names))
    for a in names:
        cells = "".join(f"{'':>10}" if a == b else f"{rates[(a, b)]:>10.0%}" for b in names)
        print(f"{a:<10}{cells}")
    print(json.dumps({"benchmark": "geister_strength", "games": args.games, "time": args.time, "matches": matches}))


if __name__ == "__main__":
    main()
