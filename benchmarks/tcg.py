"""Twice Clap Game solver: time and accuracy for n = 3, 8, 50, 200, next to the straightforward way.

The straightforward way (the source's): value iteration, one scipy LP per state per sweep, until the change is
small. Measured here on n = 8 (time per LP, sweeps to a residual of 1e-9); for larger n its time is extrapolated
from the LP time, the number of states, and the number of sweeps plain value iteration needs at that n (counted
with the fast batched stage solver, or, where even that would take too long, from its measured contraction rate).

    python benchmarks/tcg.py [--sizes 3,8,50,200]

Ends with one JSON line: for each n, seconds, residual, error bound, sweeps, and the baseline's seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.markov import MarkovGame, certify, solve
from solvers.matrix import solve_batch, solve_lp
from solvers.tcg import build_game

TARGET = 1e-9


def plain_sweeps(game: MarkovGame, cap: int = 3000) -> tuple[float, bool]:
    """Sweeps plain value iteration (from 0.5) needs for a residual below TARGET; extrapolated past ``cap``."""
    values = np.full(game.states, 0.5)
    residuals = []
    for sweep in range(1, cap + 1):
        stage, _, _ = solve_batch(game.stage_matrices(values))
        residual = float(np.max(np.abs(stage - values)))
        residuals.append(residual)
        values = stage
        if residual < TARGET:
            return float(sweep), True
    # Geometric tail: the contraction rate over the last few hundred sweeps.
    rate = (residuals[-1] / residuals[-301]) ** (1 / 300)
    return cap + math.log(TARGET / residuals[-1]) / math.log(rate), False


def lp_seconds(game: MarkovGame, samples: int = 200) -> float:
    """Seconds for one stage game by one LP call (scipy HiGHS), averaged over the states of ``game``."""
    stages = game.stage_matrices(np.full(game.states, 0.5))
    started = time.perf_counter()
    for s in range(samples):
        solve_lp(stages[s % game.states])
    return (time.perf_counter() - started) / samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="3,8,50,200")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]

    per_lp = lp_seconds(build_game(8))
    print(f"baseline: one LP per stage game takes {per_lp * 1000:.2f} ms (scipy HiGHS, measured on n = 8)")
    figures: dict[str, dict[str, float]] = {}
    for n in sizes:
        game = build_game(n)
        started = time.perf_counter()
        solution = solve(game)
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        gap = certify(game, solution.p1, solution.p2).gap
        certify_seconds = time.perf_counter() - started
        sweeps, exact = plain_sweeps(game, cap=3000 if n <= 8 else 400)
        baseline = sweeps * game.states * per_lp
        how = "counted" if exact else "extrapolated from its contraction rate"
        print(
            f"n = {n:>3}: {game.states:>6} states  {seconds:8.3f} s  {solution.sweeps:>3} sweeps  "
            f"residual {solution.residual:.1e}  certified bound {gap:.1e} ({certify_seconds:.2f} s to certify)\n"
            f"          plain value iteration: {sweeps:,.0f} sweeps ({how}); one LP per state per sweep would "
            f"take {baseline:,.0f} s ({baseline / 3600:,.1f} h): {baseline / seconds:,.0f}x slower"
        )
        figures[str(n)] = {
            "seconds": round(seconds, 4),
            "residual": solution.residual,
            "error_bound": gap,
            "sweeps": solution.sweeps,
            "baseline_seconds": round(baseline, 1),
        }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
