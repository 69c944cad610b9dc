"""``nashplay learn footstep``: the source's learners against the random player, as a terminal plot next to the exact
scores of the equilibrium player and the best response."""

from __future__ import annotations

import argparse
import json
import sys

from core.errors import quoted
from tui import plot
from tui.cli.common import plural, real_number, seed_number, whole_number
from tui.cli.solve.footstep import MAX_K, MAX_N, load_with_progress

#: Games per learner: one learner plays a game in about 0.25 ms, so 100,000 games take about 25 s a rule.
MAX_GAMES = 100_000
#: Learners side by side: each holds its own bid table; 1,000 runs of 2,000 games took 6.8 s a rule (170 MB).
MAX_RUNS = 1_000
#: Games times runs, what the time grows with: 100,000 games of 20 runs took 43 s a rule, so half that, 1,000,000
#: (five times the default), is about 20 s a rule.
MAX_LEARNER_GAMES = 1_000_000
#: The plot is drawn in a grid of characters: wider or taller than any terminal only costs memory.
MAX_WIDTH = 500
MAX_HEIGHT = 200


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    learn.add_argument(
        "--games", type=whole_number(1, MAX_GAMES), default=10_000, help="games per learner (default 10000)"
    )
    learn.add_argument(
        "--runs", type=whole_number(1, MAX_RUNS), default=20, help="independent learners per rule (default 20)"
    )
    learn.add_argument("--seed", type=seed_number, default=1, help="random seed (default 1)")
    learn.add_argument(
        "--n", type=whole_number(1, MAX_N), default=20, help="points each (default 20, the source's simplified game)"
    )
    learn.add_argument("--k", type=whole_number(1, MAX_K), default=3, help="steps to a goal (default 3)")
    learn.add_argument(
        "--c", type=real_number(0, 1, high_open=True), default=0.9, help="decay coefficient (default 0.9, the source's)"
    )
    learn.add_argument(
        "--block", type=whole_number(1, MAX_GAMES), default=100, help="games per plotted average (default 100)"
    )
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
    learn.add_argument(
        "--width", type=whole_number(10, MAX_WIDTH), default=64, help="plot width in columns (default 64)"
    )
    learn.add_argument(
        "--height", type=whole_number(3, MAX_HEIGHT), default=16, help="plot height in lines (default 16)"
    )


def _rules(text: str) -> list[str]:
    from solvers.footstep_learning import RULES

    if text.strip().lower() == "all":
        return list(RULES)
    chosen = [part.strip().lower() for part in text.split(",") if part.strip()]
    if not chosen:
        # An empty --rule used to learn nothing and then fail drawing an empty plot.
        raise ValueError(f"--rule names no rule: expected {', '.join(RULES)}, a comma-separated list, or all")
    for rule in chosen:
        if rule not in RULES:
            raise ValueError(f"unknown rule {quoted(rule)}: expected {', '.join(RULES)} or all")
    return chosen


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from solvers.footstep import exact_vs_random
    from solvers.footstep_learning import LearningConfig, learn

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
    if args.games * args.runs > MAX_LEARNER_GAMES:
        parser.exit(
            2,
            f"nashplay learn footstep: error: --games times --runs must be at most {MAX_LEARNER_GAMES:,} "
            f"(about 20 s a rule), not {args.games * args.runs:,}\n",
        )
    solution, _ = load_with_progress(args.n, args.k, True, args.json)
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
        f"{plural(args.games, 'game')} x {plural(args.runs, 'run')}; average score per {plural(args.block, 'game')}"
    )
    lines = plot.render(
        plot.learning_series(curves, equilibrium, best),
        width=args.width,
        height=args.height,
        y_range=(min(-0.5, *(float(c.means.min()) for c in curves)), 2.0),
        x_label="games",
        x_max=args.games,
    )
    print("\n".join(lines))
    print(f"({sum(c.seconds for c in curves):.1f} s; credit per {args.credit}, margin {args.margin})")
    return 0
