"""``nashplay solve tcg``: the Twice Clap Game's equilibrium strategies and win probabilities, as the source prints
them, with the solver's residual and a certified error bound."""

from __future__ import annotations

import argparse
import json

from core.games import game_type
from tui.arguments import add_parameter_with_default
from tui.cli.common import StatusLine, compiling_text, plural
from tui.config import TCG_APP_MAX_N

#: The largest n solved (the app's too; see ``tui.config`` for the times measured).
MAX_N = TCG_APP_MAX_N


def add_commands(solvers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tcg = solvers.add_parser(
        "tcg",
        help="Twice Clap Game: equilibrium strategies and win probabilities",
        description="Markov-game value iteration with batched stage games and policy evaluation.",
    )
    add_parameter_with_default(tcg, game_type("tcg").by_name["n"])
    tcg.add_argument("--json", action="store_true", help="one JSON object instead of the tables")
    tcg.add_argument("--no-cache", action="store_true", help="solve afresh instead of reading the cache")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from solvers.eta import TimeLeft
    from solvers.tcg import TcgSolution, strategy_table, to_json, value_table

    with StatusLine() as status:
        time_left = TimeLeft()

        def progress(step: int, residual: float, left: float) -> None:
            eta = time_left.text(1 - left)
            status.show(f"solving: {1 - left:.0%}" + (f", {eta}" if eta else "") + f", Bellman residual {residual:.1e}")

        # The first time on a machine the solver's kernels compile first (seconds): said, not a silent wait.
        solution, source = TcgSolution.load(
            args.n,
            use_cache=not args.no_cache,
            progress=progress,
            compiling=lambda share, seconds: status.show(compiling_text(share, seconds)),
        )
    if args.json:
        print(json.dumps(to_json(solution)))
        return 0
    result = solution.solution
    print(
        f"Twice Clap Game, n = {args.n}: {(args.n + 1) ** 2} states, solved in {result.seconds:.3f} s "
        f"({plural(result.sweeps, 'Newton step')}; table {'read from the cache' if source == 'cache' else source})"
    )
    certificate = solution.certificate
    print(f"Bellman residual {result.residual:.1e}; certified error bound {certificate.gap:.1e}\n")
    unsettled = [i for i in range(solution.game.states) if certificate.upper[i] - certificate.lower[i] > 1e-6]
    if unsettled:
        names = ", ".join(f"({s // (args.n + 1)},{s % (args.n + 1)})" for s in unsettled[:8])
        print(
            f"Note: from {names} equilibrium play never ends (neither side can force a win); the values shown there"
            " are the symmetric fixed point, not guarantees.\n"
        )
    print("Equilibrium strategies for i1 <= i2 (probabilities of c / a / d / s; * = any of these keeps the value)")
    print(strategy_table(solution))
    print("\nPlayer 1's win probability (row: player 1's points, column: player 2's)")
    print(value_table(solution))
    return 0
