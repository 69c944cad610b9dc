"""Twice Clap Game solver: seconds to a Bellman residual of 1e-9 for n = 50, 200, 1000, against baselines run here.

The solver (``solvers.tcg.solve_tcg``): Newton steps from the solution for about n/2 stretched, compiled stage games,
nested-dissection LU. Each n is solved in a child process of its own (after a warm-up solve that loads the compiled
kernels), so that its peak memory (RSS) is its own. Baselines, measured in the same run, never extrapolated:

* today's way until this change (``solvers.markov.solve_by_sweeps``: sweeps from 1/2, batched stage games in numpy
  and a policy evaluation each sweep), at the sizes of ``--sweeps-sizes`` (default 50 and 200);
* one LP per state: the same sweeps with every stage game solved by its own HiGHS LP (``solvers.matrix.solve_lp``)
  instead of the batch, to the same residual, at n = ``--lp-n`` (default 50). (Plain value iteration with one LP per
  state, the source's way, contracts by about 0.9999 a sweep at n = 50: it would need some 10^5 sweeps of 2,601 LPs
  to reach 1e-9, days, so it is not what is run.)

``--compare A-B`` instead solves every n from A to B, certifies it (each side's exact best response: the bounds prove
the values to their gap, independently of any solver) and compares it with the old way, at every n up to
``--dense-until`` and every ``--every``-th n above (all of n = 2..200 takes about an hour, nearly all of it the old
way), printing the largest differences of values and of strategies.

    python benchmarks/tcg.py [--sizes 50,200,1000] [--sweeps-sizes 50,200] [--lp-n 50]
    python benchmarks/tcg.py --compare 2-200 [--dense-until 100 --every 5]

Ends with one JSON line: for each n, seconds, steps, residual, peak RSS (MiB) and the baselines' seconds and ratios.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.markov import (  # noqa: E402
    MarkovGame,
    MarkovSolution,
    certify,
    evaluate,
    progressive_strategies,
    solve_by_sweeps,
)
from solvers.matrix import solve_lp  # noqa: E402
from solvers.tcg import build_game, solve_tcg  # noqa: E402

TARGET = 1e-9


def lp_per_state(game: MarkovGame, tolerance: float = TARGET) -> tuple[MarkovSolution, int]:
    """``solve_by_sweeps`` with each stage game solved by one HiGHS LP: the sweeps (stage games, then the policy
    evaluation of their strategies) from 1/2 until the Bellman residual is at most ``tolerance``. Returns the
    solution and the number of LPs solved."""
    started = time.perf_counter()
    plain = MarkovGame(game.successor)
    values = np.full(game.states, 0.5)
    lps = sweeps = 0
    residual = np.inf
    rows = np.zeros((game.states, 4))
    cols = np.zeros((game.states, 4))
    while sweeps < 10_000:
        sweeps += 1
        stages = game.stage_matrices(values)
        stage_values = np.empty(game.states)
        for s in range(game.states):
            solution = solve_lp(stages[s])
            stage_values[s], rows[s], cols[s] = solution.value, solution.row, solution.col
        lps += game.states
        residual = float(np.max(np.abs(stage_values - values)))
        if residual <= tolerance:
            break
        values = evaluate(plain, rows, cols, fallback=stage_values)
    p1, p2 = progressive_strategies(game, values, rows, cols)
    return MarkovSolution(values, p1, p2, residual, sweeps, time.perf_counter() - started), lps


def one(n: int) -> dict[str, float]:
    """Solve ``n`` in this process (a child): the warm-up, then the timed solve; its peak RSS."""
    started = time.perf_counter()
    solve_tcg(70, tolerance=TARGET)  # imports numba and loads (or compiles) the kernels
    warm_up = time.perf_counter() - started
    started = time.perf_counter()
    solution = solve_tcg(n, tolerance=TARGET)
    seconds = time.perf_counter() - started
    return {
        "seconds": round(seconds, 3),
        "steps": solution.sweeps,
        "residual": solution.residual,
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "warm_up_seconds": round(warm_up, 2),
    }


def in_child(n: int) -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    figures: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def compare(first: int, last: int, every: int, dense_until: int) -> None:
    """For every n from ``first`` to ``last``: the new solve to residual 1e-14 and its certificate (each side's exact
    best response: the bounds prove the values to their gap, independently of any other solver), and the old sweeps
    for every n up to ``dense_until`` and every ``every``-th n after it, with the largest differences."""
    worst_values = worst_strategies = worst_gap = 0.0
    compared = 0
    started = time.perf_counter()
    for n in range(first, last + 1):
        fast = solve_tcg(n, tolerance=1e-14)
        game = build_game(n)
        gap = certify(game, fast.p1, fast.p2).gap
        worst_gap = max(worst_gap, gap) if n > 1 else worst_gap  # n = 1 never ends: its bounds are 0 and 1
        line = f"n = {n:>3}: {fast.seconds:6.2f} s, certified gap {gap:.1e}"
        if n <= dense_until or (n - dense_until) % every == 0 or n == last:
            reference = solve_by_sweeps(game, tolerance=1e-14)
            values = float(np.max(np.abs(fast.values - reference.values)))
            strategies = float(max(np.max(np.abs(fast.p1 - reference.p1)), np.max(np.abs(fast.p2 - reference.p2))))
            worst_values, worst_strategies = max(worst_values, values), max(worst_strategies, strategies)
            compared += 1
            line += f"; old sweeps {reference.seconds:.2f} s, values differ {values:.1e}, strategies {strategies:.1e}"
        print(line, flush=True)
    print(
        f"n = {first}..{last}: certified gaps at most {worst_gap:.1e} (n >= 2); against the old sweeps at {compared} "
        f"n: values differ by at most {worst_values:.1e}, strategies by {worst_strategies:.1e} "
        f"({time.perf_counter() - started:.0f} s in all)"
    )
    summary = {
        "first": first,
        "last": last,
        "max_certified_gap": worst_gap,
        "compared_with_old": compared,
        "max_value_diff": worst_values,
        "max_strategy_diff": worst_strategies,
    }
    print(json.dumps({"compare": summary}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="50,200,1000")
    parser.add_argument("--sweeps-sizes", default="50,200", help="where to run the old sweeps as a baseline")
    parser.add_argument("--lp-n", type=int, default=50, help="where to run the one-LP-per-state baseline (0: none)")
    parser.add_argument("--compare", metavar="A-B", help="certify every n from A to B and compare with the old way")
    parser.add_argument("--every", type=int, default=1, help="with --compare: the old way at every k-th n only ...")
    parser.add_argument("--dense-until", type=int, default=10_000, help="... above this n")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one)))
        return
    if args.compare:
        first, last = (int(x) for x in args.compare.split("-"))
        compare(first, last, args.every, args.dense_until)
        return
    sweeps_sizes = {int(x) for x in args.sweeps_sizes.split(",") if x}
    figures: dict[str, dict[str, float]] = {}
    for n in [int(x) for x in args.sizes.split(",")]:
        row = in_child(n)
        print(
            f"n = {n:>4}: {(n + 1) ** 2:>9,} states  {row['seconds']:8.3f} s  {row['steps']:>3.0f} Newton steps "
            f"(all levels)  residual {row['residual']:.1e}  peak RSS {row['peak_rss_mib']:,.0f} MiB  "
            f"(warm-up {row['warm_up_seconds']:.2f} s: numba, kernels)",
            flush=True,
        )
        if n in sweeps_sizes:
            old = solve_by_sweeps(build_game(n), tolerance=TARGET)
            row["sweeps_seconds"] = round(old.seconds, 3)
            row["sweeps_speedup"] = round(old.seconds / row["seconds"], 1)
            # Both stop at their first residual below 1e-9, the old sweeps far below it (their last sweep lands on
            # the fixed point), the Newton steps at a few 1e-12: in a chain that mixes slowly a residual bounds the
            # values only loosely, so they are compared at the app's tolerance, 1e-14 (one Newton step more).
            app = solve_tcg(n, tolerance=1e-14)
            differ = float(np.max(np.abs(old.values - app.values)))
            loose = float(np.max(np.abs(old.values - solve_tcg(n, tolerance=TARGET).values)))
            row["app_tolerance_seconds"] = round(app.seconds, 3)
            row["sweeps_value_diff"] = differ
            row["sweeps_value_diff_at_1e-9"] = loose
            print(
                f"          the old sweeps from 1/2: {old.seconds:.2f} s, {old.sweeps} sweeps, residual "
                f"{old.residual:.1e}: {old.seconds / row['seconds']:.1f}x slower; values differ by {differ:.1e} "
                f"from the new solve to the app's residual 1e-14 ({app.seconds:.2f} s in this process), by "
                f"{loose:.1e} from the one to 1e-9",
                flush=True,
            )
        if n == args.lp_n:
            lp, lps = lp_per_state(build_game(n))
            row["lp_seconds"] = round(lp.seconds, 1)
            row["lp_speedup"] = round(lp.seconds / row["seconds"], 1)
            print(
                f"          one HiGHS LP per state, the same sweeps to residual {TARGET:.0e}: {lp.seconds:.1f} s "
                f"({lp.sweeps} sweeps, {lps:,} LPs, residual {lp.residual:.1e}): "
                f"{lp.seconds / row['seconds']:.0f}x slower",
                flush=True,
            )
        figures[str(n)] = row
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
