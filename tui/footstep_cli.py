"""``nashplay solve footstep`` and ``nashplay learn footstep``: the exact equilibrium and the learning curves."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from core.errors import InvalidPositionError
from core.footstep import FootstepPosition, parse_position
from core.game import Side
from tui import plot

if TYPE_CHECKING:
    from solvers.footstep import FootstepSolution
    from solvers.footstep_learning import LearningCurve

#: Largest n accepted: the table has (n+1)^2 (2k+1) states and the biggest stage games are n x n.
MAX_N = 200
MAX_K = 20
#: Plot letters per learning rule, and for the two exact levels.
MARKS = {"reward": "R", "reproach": "P", "carrot-stick": "C"}


def add_solve_command(solvers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    footstep = solvers.add_parser(
        "footstep",
        help="Footstep: the exact equilibrium by backward induction (value, first-turn mixes)",
        description="Solve Footstep(n, k) exactly: each state with both players holding points is a matrix game of "
        "its successors' values. Prints the value at the start (player 1's, in points), both players' first-turn "
        "bid distributions, the pure-strategy claim of the source (committing to a bid first loses by 2), and the "
        "exact scores against the random player.",
    )
    footstep.add_argument("--n", type=int, default=20, help="points each player starts with (default 20)")
    footstep.add_argument("--k", type=int, default=3, help="steps from the centre to each goal (default 3)")
    footstep.add_argument("--state", metavar="X,Y,Z", help="one state instead: player 1's points, player 2's, marker")
    footstep.add_argument("--json", action="store_true", help="one JSON object")
    footstep.add_argument("--no-cache", action="store_true", help="solve afresh instead of reading the disk cache")


def add_learn_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    learn = commands.add_parser(
        "learn",
        help="run a learning experiment (Footstep's learners against the random player)",
        description="Footstep learners (reward, reproach, carrot-and-stick) against the random player: the average "
        "score per block of games as a plot, next to the exact scores of the equilibrium player and of the best "
        "response against the same random player.",
    )
    learn.add_argument("game", choices=["footstep"], help="the game (footstep)")
    learn.add_argument(
        "--rule", default="all", help="reward, reproach, carrot-stick, a comma-separated list, or all (default)"
    )
    learn.add_argument("--games", type=int, default=10_000, help="games per learner (default 10000)")
    learn.add_argument("--runs", type=int, default=20, help="independent learners per rule (default 20)")
    learn.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    learn.add_argument("--n", type=int, default=20, help="points each (default 20, the source's simplified game)")
    learn.add_argument("--k", type=int, default=3, help="steps to a goal (default 3)")
    learn.add_argument("--c", type=float, default=0.9, help="decay coefficient (default 0.9, the source's)")
    learn.add_argument("--block", type=int, default=100, help="games per plotted average (default 100)")
    learn.add_argument(
        "--credit",
        choices=["game", "turn"],
        default="game",
        help="learn after each game from its result (default), or after each turn from that turn's step",
    )
    learn.add_argument(
        "--margin",
        choices=["sign", "points"],
        default="sign",
        help="a 2-point result counts like a 1-point one (sign, default) or twice (points)",
    )
    learn.add_argument("--marker", action="store_true", help="learn per marker position too (the source ignores it)")
    learn.add_argument("--json", action="store_true", help="one JSON object with every curve")
    learn.add_argument("--width", type=int, default=64, help="plot width in columns (default 64)")
    learn.add_argument("--height", type=int, default=16, help="plot height in lines (default 16)")


def check_size(parser: argparse.ArgumentParser, command: str, n: int, k: int) -> None:
    if not 1 <= n <= MAX_N:
        parser.exit(2, f"nashplay {command}: error: --n must be 1..{MAX_N}, not {n}\n")
    if not 1 <= k <= MAX_K:
        parser.exit(2, f"nashplay {command}: error: --k must be 1..{MAX_K}, not {k}\n")


def _mix_json(mix: dict[int, float]) -> dict[str, float]:
    return {str(bid): round(p, 12) for bid, p in sorted(mix.items()) if p >= 1e-9}


def _load(n: int, k: int, use_cache: bool, quiet: bool) -> tuple[FootstepSolution, str]:
    from solvers.footstep import FootstepSolution

    started = time.perf_counter()
    shown = False

    def progress(level: int, levels: int) -> None:
        nonlocal shown
        if quiet or not sys.stderr.isatty() or time.perf_counter() - started < 0.5:
            return
        shown = True
        print(f"\rsolving Footstep({n}, {k}): level {level}/{levels}", end="", file=sys.stderr, flush=True)

    solution, source = FootstepSolution.load(n, k, use_cache=use_cache, progress=progress)
    if shown:
        print(file=sys.stderr)
    return solution, source


def run_solve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from solvers.footstep import exact_vs_random, pure_commitment_values

    check_size(parser, "solve footstep", args.n, args.k)
    n, k = args.n, args.k
    position = FootstepPosition(n, n, 0)
    if args.state:
        try:
            position = parse_position(args.state, n, k)
        except InvalidPositionError as error:
            parser.exit(2, f"nashplay solve footstep: error: --state: {error}\n")
    started = time.perf_counter()
    solution, source = _load(n, k, not args.no_cache, args.json)
    elapsed = time.perf_counter() - started
    value = round(solution.value(position), 12) + 0.0  # no "-0.000000" for a value of -1e-17
    p1, p2 = solution.mix(position, Side.P1), solution.mix(position, Side.P2)
    if args.state:
        if args.json:
            print(
                json.dumps(
                    {"n": n, "k": k, "state": position.text, "value": value, "p1": _mix_json(p1), "p2": _mix_json(p2)}
                )
            )
            return 0
        print(f"Footstep(n = {n}, k = {k}), state {position.text} (player 1's points, player 2's, marker)")
        print(f"Value for player 1: {value:+.6f} points")
        _print_mixes(p1, p2)
        return 0
    pure = float(pure_commitment_values(n, k)[n, n, k])
    versus = exact_vs_random(solution)
    eq_random, br_random = versus.at_start(n, k)
    stats = solution.stats
    if args.json:
        out: dict[str, Any] = {
            "n": n,
            "k": k,
            "value": value,
            "first_turn": {"p1": _mix_json(p1), "p2": _mix_json(p2)},
            "states": stats.states,
            "matrix_games": stats.matrix_games,
            "lp_games": stats.lp_games,
            "seconds": stats.seconds,
            "source": source,
            "load_seconds": elapsed,
            "pure_commitment_value": pure,
            "vs_random": {"equilibrium": eq_random, "best_response": br_random},
        }
        print(json.dumps(out))
        return 0
    where = "read from the cache" if source == "cache" else source
    print(f"Footstep(n = {n}, k = {k}): {stats.states:,} states, {stats.matrix_games:,} matrix games")
    print(
        f"  solved in {stats.seconds:.2f} s ({stats.lp_games:,} games needed the LP, in {stats.lp_calls} HiGHS calls; "
        f"the rest have a saddle point); this time {where} in {elapsed:.2f} s"
    )
    print(f"Value at the start for player 1: {value:+.6f} points (the game is symmetric: 0)")
    print("First-turn equilibrium bids:")
    _print_mixes(p1, p2)
    print(
        f"Committing to a pure bid before the opponent each turn: player 1 gets {pure:+.0f} "
        "(every pure strategy loses by 2)"
    )
    print(
        f"Exact expected score against the random player: equilibrium {eq_random:+.4f}, best response {br_random:+.4f}"
    )
    return 0


def _print_mixes(p1: dict[int, float], p2: dict[int, float]) -> None:
    bids = sorted(set(p1) | set(p2))
    print("   bid   player 1   player 2")
    for bid in bids:
        print(f"  {bid:>4}   {p1.get(bid, 0.0):8.4f}   {p2.get(bid, 0.0):8.4f}")


def _rules(text: str) -> list[str]:
    from solvers.footstep_learning import RULES

    if text.strip().lower() == "all":
        return list(RULES)
    chosen = [part.strip().lower() for part in text.split(",") if part.strip()]
    for rule in chosen:
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}: expected {', '.join(RULES)} or all")
    return chosen


def learning_series(curves: list[LearningCurve], equilibrium: float, best: float) -> list[plot.Series]:
    from solvers.footstep_learning import RULE_TITLES

    series = [
        plot.Series(
            f"{RULE_TITLES[c.config.rule]} (final {c.final_mean:+.3f}, "
            f"95% CI {c.final_ci95[0]:+.3f}..{c.final_ci95[1]:+.3f})",
            MARKS[c.config.rule],
            [float(v) for v in c.means],
        )
        for c in curves
    ]
    series.append(plot.Series("equilibrium player vs random (exact)", "E", [equilibrium], level=True))
    series.append(plot.Series("best response vs random (exact)", "B", [best], level=True))
    return series


def run_learn(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from solvers.footstep import exact_vs_random
    from solvers.footstep_learning import LearningConfig, learn

    check_size(parser, "learn footstep", args.n, args.k)
    try:
        rules = _rules(args.rule)
        configs = [
            LearningConfig(
                rule=rule,  # type: ignore[arg-type]
                n=args.n,
                k=args.k,
                games=args.games,
                runs=args.runs,
                c=args.c,
                credit=args.credit,
                margin=args.margin,
                marker=args.marker,
                block=args.block,
                seed=args.seed,
            )
            for rule in rules
        ]
    except ValueError as error:
        parser.exit(2, f"nashplay learn footstep: error: {error}\n")
    if args.games < args.block:
        parser.exit(2, f"nashplay learn footstep: error: --games must be at least --block ({args.block})\n")
    solution, _ = _load(args.n, args.k, True, args.json)
    equilibrium, best = exact_vs_random(solution).at_start(args.n, args.k)
    curves = []
    for config in configs:
        if not args.json and sys.stderr.isatty():
            print(f"\rlearning: {config.rule}...", end="", file=sys.stderr, flush=True)
        curves.append(learn(config))
    if not args.json and sys.stderr.isatty():
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    if args.json:
        out = {
            "game": "footstep",
            "n": args.n,
            "k": args.k,
            "games": args.games,
            "runs": args.runs,
            "block": args.block,
            "c": args.c,
            "credit": args.credit,
            "margin": args.margin,
            "marker": args.marker,
            "seed": args.seed,
            "curves": {
                c.config.rule: {
                    "curve": [round(float(v), 6) for v in c.means],
                    "ci95": [[round(float(lo), 6), round(float(hi), 6)] for lo, hi in c.ci95],
                    "final": {"mean": c.final_mean, "ci95": list(c.final_ci95)},
                    "seconds": c.seconds,
                }
                for c in curves
            },
            "equilibrium_vs_random": equilibrium,
            "best_response_vs_random": best,
        }
        print(json.dumps(out))
        return 0
    print(
        f"Footstep(n = {args.n}, k = {args.k}): learners against the random player, c = {args.c}, "
        f"{args.games} games x {args.runs} runs; average score per {args.block} games"
    )
    lines = plot.render(
        learning_series(curves, equilibrium, best),
        width=args.width,
        height=args.height,
        y_range=(min(-0.5, *(float(c.means.min()) for c in curves)), 2.0),
        x_label="games",
        x_max=args.games,
    )
    print("\n".join(lines))
    print(f"({sum(c.seconds for c in curves):.1f} s; credit per {args.credit}, margin {args.margin})")
    return 0
