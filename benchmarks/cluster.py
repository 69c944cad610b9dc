"""Games a minute on the local process pool against the same match on a Ray cluster (``nashplay arena --cluster``).

The baseline is measured in the same run: the match is played first on ``--workers`` local processes (the arena's
default pool), then on a Ray cluster, the same pairing, budget and seed, so the same games (checked: every result
must be the same, or the benchmark says so and fails). Without ``--cluster`` it starts a local Ray head with
``--workers`` CPUs (no dashboard, a small object store), so that both sides have the same cores: what it measures
then is Ray's overhead (its actors, their start and warm-up, the round trips); on several machines the cluster's
figure grows with their CPUs. The head's own start is timed apart, as it is paid once, not per match.

    python benchmarks/cluster.py [--players purple,greedy] [--depth 2] [--games 60] [--workers 2] [--seed 1]
                                 [--cluster ADDRESS]

Needs the cluster extra (``pip install -e '.[cluster]'``). Prints both figures and their ratio; ends with one JSON
line.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.arena import MatchResult, Runner, run_match
from solvers.players import Limit

#: The local head's object store: the games' results are a few hundred bytes each.
OBJECT_STORE_BYTES = 80 * 1024 * 1024


def play(args: argparse.Namespace, runner: Runner | None) -> tuple[MatchResult, float]:
    names = tuple(args.players.split(","))
    assert len(names) == 2, "--players takes two names"
    started = time.perf_counter()
    match = run_match(
        "geister",
        (names[0], names[1]),
        args.games,
        Limit(iterations=args.depth),
        workers=args.workers,
        seed=args.seed,
        runner=runner,
    )
    return match, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", default="purple,greedy")
    parser.add_argument("--depth", type=int, default=2, help="search depth per move (reproducible)")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2, help="local processes, and the local head's CPUs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cluster", help="a running cluster's address (default: start a local head)")
    args = parser.parse_args()

    import ray

    from solvers.cluster import on_cluster

    local, local_seconds = play(args, None)
    head_started = time.perf_counter()
    if args.cluster is None:
        ray.init(
            num_cpus=args.workers,
            include_dashboard=False,
            object_store_memory=OBJECT_STORE_BYTES,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
    runner = on_cluster(args.cluster or "auto")
    head_seconds = time.perf_counter() - head_started
    cpus = int(ray.cluster_resources().get("CPU", 0))
    remote, remote_seconds = play(args, runner)
    ray.shutdown()

    same = [(r.winner, r.plies, r.reason) for r in local.results] == [
        (r.winner, r.plies, r.reason) for r in remote.results
    ]
    local_rate = 60 * local.games / local_seconds
    remote_rate = 60 * remote.games / remote_seconds
    print(f"{args.players} at depth {args.depth}, {args.games} games, seed {args.seed}")
    print(f"local pool, {args.workers} processes: {local_seconds:6.1f} s, {local_rate:6.1f} games a minute")
    where = args.cluster or f"a local head started here ({head_seconds:.1f} s to start)"
    print(f"Ray, {cpus} CPUs on {where}: {remote_seconds:6.1f} s, {remote_rate:6.1f} games a minute")
    print(f"ratio (Ray / local): {remote_rate / local_rate:.2f}; the same games: {'yes' if same else 'NO'}")
    print(
        json.dumps(
            {
                "players": args.players,
                "depth": args.depth,
                "games": args.games,
                "seed": args.seed,
                "local_workers": args.workers,
                "cluster_cpus": cpus,
                "local_seconds": round(local_seconds, 2),
                "cluster_seconds": round(remote_seconds, 2),
                "head_start_seconds": round(head_seconds, 2),
                "local_games_per_minute": round(local_rate, 1),
                "cluster_games_per_minute": round(remote_rate, 1),
                "ratio": round(remote_rate / local_rate, 3),
                "same_games": same,
            }
        )
    )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
