"""``nashplay solve footstep``: the exact equilibrium (value, first-turn mixes) and what the source claims of it."""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING, Any

from core.errors import InvalidPositionError
from core.footstep import FootstepPosition, parse_position
from core.game import Side
from core.games import game_type
from tui.arguments import add_parameter_with_default
from tui.cli.common import StatusLine, compiling_text, plural
from tui.config import FOOTSTEP_MAX_K, FOOTSTEP_MAX_N, FootstepConfig

if TYPE_CHECKING:
    from solvers.footstep import FootstepSolution

#: The largest Footstep solved (the app's too; see ``tui.config`` for the times measured).
MAX_N, MAX_K = FOOTSTEP_MAX_N, FOOTSTEP_MAX_K
#: The standard game (n = 50, k = 4): the app's default size.
STANDARD = FootstepConfig()


def add_commands(solvers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    footstep = solvers.add_parser(
        "footstep",
        help="Footstep: the exact equilibrium by backward induction (value, first-turn mixes)",
        description="Solve Footstep(n, k) exactly: each state with both players holding points is a matrix game of "
        "its successors' values. Prints the value at the start (player 1's, in points), both players' first-turn "
        "bid distributions, what committing to a pure bid first is worth (the source: it loses by 2), and the exact "
        "scores against the random player. The default size is the standard game, n = 50, k = 4; the source's "
        "simplified game is --n 20 --k 3.",
    )
    # The standard game by default, as ``play footstep`` (``tui.config.FootstepConfig``) and ``analyse footstep``.
    game = game_type("footstep")
    add_parameter_with_default(
        footstep, game.by_name["n"], "the default is the standard game, the source's simplified one 20"
    )
    add_parameter_with_default(footstep, game.by_name["k"], "the simplified game's is 3")
    footstep.add_argument("--state", metavar="X,Y,Z", help="one state instead: player 1's points, player 2's, marker")
    footstep.add_argument("--json", action="store_true", help="one JSON object")
    footstep.add_argument("--no-cache", action="store_true", help="solve afresh instead of reading the disk cache")


def _mix_json(mix: dict[int, float]) -> dict[str, float]:
    return {str(bid): round(p, 12) for bid, p in sorted(mix.items()) if p >= 1e-9}


def load_with_progress(n: int, k: int, use_cache: bool, quiet: bool) -> tuple[FootstepSolution, str]:
    """The solution, saying on a terminal's stderr how far the solve is (the share of its work done and the time
    left), and first, the first time on a machine, the compilation of the solver's kernels."""
    from solvers.eta import TimeLeft
    from solvers.footstep import FootstepSolution, level_shares

    with StatusLine() as status:
        if quiet:
            status.live = False
        shares = level_shares(n, k)  # the share of the work each level count stands for: levels differ a lot
        time_left = TimeLeft()

        def progress(level: int, levels: int) -> None:
            done = float(shares[min(level, len(shares) - 1)])
            eta = time_left.text(done)
            status.show(f"solving Footstep({n}, {k}): {done:.0%}" + (f", {eta}" if eta else ""))

        return FootstepSolution.load(
            n,
            k,
            use_cache=use_cache,
            progress=progress,
            compiling=lambda share, seconds: status.show(compiling_text(share, seconds)),
        )


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from solvers.footstep import exact_vs_random, pure_commitment_values

    n, k = args.n, args.k
    position = FootstepPosition(n, n, 0)
    if args.state:
        try:
            position = parse_position(args.state, n, k)
        except InvalidPositionError as error:
            parser.exit(2, f"nashplay solve footstep: error: --state: {error}\n")
    started = time.perf_counter()
    solution, source = load_with_progress(n, k, not args.no_cache, args.json)
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
    pure = float(pure_commitment_values(n, k)[n, n, k]) + 0.0  # no "-0"
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
    print(f"Footstep(n = {n}, k = {k}): {plural(stats.states, 'state')}, {plural(stats.matrix_games, 'matrix game')}")
    print(
        f"  solved in {stats.seconds:.2f} s ({plural(stats.lp_games, 'game')} without a saddle point, solved as "
        f"linear programs in {plural(stats.lp_calls, 'HiGHS call')}; the rest have a saddle point); "
        f"this time {where} in {elapsed:.2f} s"
    )
    print(f"Value at the start for player 1: {value:+.6f} points (the game is symmetric: 0)")
    print("First-turn equilibrium bids:")
    _print_mixes(p1, p2)
    # The source's "every pure strategy loses by 2" is a claim about its sizes: say it where the computation
    # confirms it, and otherwise only what was computed.
    claim = (
        "every pure strategy loses by 2, as the source says"
        if pure == -2
        else "the source's claim that every pure strategy loses by 2 does not hold at this size"
    )
    print(f"Committing to a pure bid before the opponent each turn: player 1 gets {pure:+g} ({claim})")
    print(
        f"Exact expected score against the random player: equilibrium {eq_random:+.4f}, best response {br_random:+.4f}"
    )
    return 0


def _print_mixes(p1: dict[int, float], p2: dict[int, float]) -> None:
    bids = sorted(set(p1) | set(p2))
    print("   bid   player 1   player 2")
    for bid in bids:
        print(f"  {bid:>4}   {p1.get(bid, 0.0):8.4f}   {p2.get(bid, 0.0):8.4f}")
