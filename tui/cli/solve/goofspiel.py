"""``nashplay solve goofspiel``: the whole game solved by backward induction, its value, and the first round's
equilibrium bids for each prize that may be turned up first."""

from __future__ import annotations

import argparse
import json
import time

from core.goofspiel import CARDS_PARAMETER, MAX_SOLVED_CARDS
from tui.arguments import add_parameter_with_default
from tui.cli.common import StatusLine

#: Cells of the progress bar on stderr.
BAR_WIDTH = 30


def add_commands(solvers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    goofspiel = solvers.add_parser(
        "goofspiel",
        help="Goofspiel: the exact equilibrium of the whole game and its first bids",
        description="Backward induction with a matrix game per position (the next prize drawn at random from the "
        f"deck): the game's value and each first prize's equilibrium bids. N = {MAX_SOLVED_CARDS} takes about half "
        "a minute.",
    )
    add_parameter_with_default(goofspiel, CARDS_PARAMETER)
    goofspiel.add_argument("--json", action="store_true", help="one JSON object instead of the table")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from core.game import Side
    from core.goofspiel import GoofspielPosition
    from solvers.goofspiel import game_value, solve_position, solver_stats

    cards: int = args.cards
    started = time.perf_counter()
    with StatusLine() as status:

        def progress(done: int, total: int) -> None:
            if total:
                filled = BAR_WIDTH * done // total
                bar = "#" * filled + "." * (BAR_WIDTH - filled)
                status.show(f"solving: [{bar}] {done:,}/{total:,} positions")

        value = game_value(cards, progress=progress)
    seconds = time.perf_counter() - started
    first = {up: solve_position(GoofspielPosition.start(cards, up)) for up in range(1, cards + 1)}
    stats = solver_stats()
    if args.json:
        print(
            json.dumps(
                {
                    "game": "goofspiel",
                    "cards": cards,
                    "value": value,
                    "seconds": round(seconds, 3),
                    "positions": stats.positions,
                    "first_round": {
                        str(up): {
                            "value": solution.value,
                            "mix1": {str(c): p for c, p in solution.mix(Side.P1).items()},
                            "mix2": {str(c): p for c, p in solution.mix(Side.P2).items()},
                        }
                        for up, solution in first.items()
                    },
                }
            )
        )
        return 0
    print(
        f"Goofspiel, N = {cards}: value {(value if abs(value) >= 5e-7 else 0.0):+.6f} for player 1 (0 by symmetry), "
        f"{stats.positions:,} positions solved in {seconds:.2f} s"
    )
    print(
        "\nPlayer 1's equilibrium bids in the first round, by the prize turned up (the position is symmetric: player "
        "2 has the same optimal mixes)"
    )
    for up, solution in first.items():
        mix = ", ".join(f"{card} {p:.1%}" for card, p in solution.mix(Side.P1).items() if p > 1e-9)
        print(f"  prize {up}: {mix}")
    return 0
