"""Footstep solver: the full backward induction for (20, 3) and (50, 4), next to the ways it replaced.

Measured in the same run, with the values compared: the solver as it was until the compiled simplex
(``FootstepSolution.compute_reference``: numpy, a dominance pass, one HiGHS block LP per level), and the
straightforward way (one scipy HiGHS LP per state on its whole stage game, no saddle-point test, no dominance pruning,
no batching: what the issue's "about 37 s" for (50, 4) refers to). The compiled kernels are loaded (or compiled) by a
warm-up solve first, timed on its own. Also timed: the pure-commitment game, the exact scores against random, and a
learning run.

    python benchmarks/footstep.py [--sizes 20,3:50,4] [--no-baseline]

Ends with one JSON line: {"20,3": {"seconds": ..., "reference_seconds": ..., "baseline_seconds": ...,
"peak_mib": ...}, "50,4": {...}, "warm_up_seconds": ..., "learning": {...}}.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.footstep import legal_bids
from solvers.footstep import COMPILED_FROM, FootstepSolution, exact_vs_random, pure_commitment_values
from solvers.footstep_learning import LearningConfig, learn
from solvers.matrix import solve_lp


def plain(n: int, k: int) -> tuple[np.ndarray, float]:
    """The baseline: levels in order, one LP per state on its full stage game."""
    started = time.perf_counter()
    width = 2 * k + 1
    v = np.full((n + 1, n + 1, width), np.nan)
    v[:, :, 0], v[:, :, -1] = -2.0, 2.0
    v[0, 0, 1:-1] = np.sign(np.arange(1, 2 * k) - k)
    for level in range(1, 2 * n + 1):
        for x in range(max(0, level - n), min(n, level) + 1):
            y = level - x
            b1, b2 = np.array(legal_bids(x)), np.array(legal_bids(y))
            step = np.sign(b1[:, None] - b2[None, :])
            for z in range(1, 2 * k):
                v[x, y, z] = solve_lp(v[x - b1[:, None], y - b2[None, :], z + step]).value
    return v, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="20,3:50,4", help="n,k pairs separated by colons")
    parser.add_argument("--no-baseline", action="store_true", help="skip the one-LP-per-state baseline")
    args = parser.parse_args()
    figures: dict[str, dict[str, float] | float] = {}
    started = time.perf_counter()
    FootstepSolution.compute(25, 4)  # a small game that takes the compiled way: numba and the kernels load
    warm_up = time.perf_counter() - started
    print(f"warm-up (numba imported, kernels loaded or compiled): {warm_up:.2f} s")
    figures["warm_up_seconds"] = round(warm_up, 2)
    for pair in args.sizes.split(":"):
        n, k = (int(x) for x in pair.split(","))
        started = time.perf_counter()
        solution = FootstepSolution.compute(n, k)
        seconds = time.perf_counter() - started
        reference = FootstepSolution.compute_reference(n, k)
        # Memory in a second run: tracemalloc slows numpy-heavy code several times, so it never shares the timing.
        tracemalloc.start()
        FootstepSolution.compute(n, k)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        stats = solution.stats
        differ = float(np.max(np.abs(solution.values - reference.values)))
        row: dict[str, float] = {
            "seconds": round(seconds, 3),
            "peak_mib": round(peak / 2**20, 1),
            "reference_seconds": round(reference.stats.seconds, 3),
            "reference_speedup": round(reference.stats.seconds / seconds, 1),
            "reference_max_value_diff": differ,
        }
        way = "simplex" if stats.matrix_games >= COMPILED_FROM else "HiGHS (the reference's way below COMPILED_FROM)"
        print(
            f"({n}, {k}): {stats.states:,} states, {stats.matrix_games:,} matrix games, {stats.lp_games:,} by "
            f"{way}, {stats.lp_calls} HiGHS calls: {seconds:.3f} s, peak {peak / 2**20:.1f} MiB (traced, in a second "
            f"run)\n  the solver as it was (numpy, dominance, {reference.stats.lp_calls} HiGHS block LPs): "
            f"{reference.stats.seconds:.2f} s ({reference.stats.seconds / seconds:.1f}x); values differ by {differ:.1e}"
        )
        started = time.perf_counter()
        pure = pure_commitment_values(n, k)[n, n, k]
        pure_seconds = time.perf_counter() - started
        started = time.perf_counter()
        eq, best = exact_vs_random(solution).at_start(n, k)
        random_seconds = time.perf_counter() - started
        print(
            f"  pure commitment value {pure:+.0f} ({pure_seconds:.2f} s); vs random: equilibrium {eq:+.4f}, best "
            f"response {best:+.4f} ({random_seconds:.2f} s)"
        )
        if not args.no_baseline:
            values, baseline = plain(n, k)
            diff = float(np.max(np.abs(values - solution.values)))
            print(
                f"  baseline, one plain LP per state: {baseline:.2f} s ({baseline / seconds:.1f}x); max diff {diff:.1e}"
            )
            row["baseline_seconds"] = round(baseline, 3)
            row["speedup"] = round(baseline / seconds, 1)
            row["max_value_diff"] = diff
        figures[f"{n},{k}"] = row
    config = LearningConfig("reward", games=10_000, runs=20)
    curve = learn(config)
    print(
        f"learning: reward, (20, 3), {config.games} games x {config.runs} runs: {curve.seconds:.2f} s "
        f"({config.games * config.runs / curve.seconds:,.0f} games/s); final mean {curve.final_mean:+.3f}"
    )
    figures["learning"] = {
        "seconds": round(curve.seconds, 3),
        "games_per_s": round(config.games * config.runs / curve.seconds),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
