"""How deep the purple-piece search gets in a move's time, against the same search without its table and ordering.

    taskset -c 0 python benchmarks/purple_depth.py [--seconds 0.5] [--repeats 3]

The targets: ``purple`` reaches depth 7 or more from the opening in 0.5 s on one core, and the strongest (``sage``)
no shallower than 9. Measured from three positions: the opening (a fixed set-up pair, the first player to move) and
two middle-game positions reached by ``purple`` playing itself at depth 2 from fixed seeds (ply 30 and ply 60; the
same positions on every machine).

For each position and player, the deepest iteration finished within the time (the median over ``--repeats``
fresh players, each warmed by one search of another position so that no compile time is counted), the nodes
searched and the nodes a second. The baseline is the same player with the transposition table and the move
ordering switched off (``search.NO_TABLE | search.NO_ORDERING``: plain alpha-beta in move-generation order), run in
the same process. ``bayes`` (the chance-node search) and ``sage`` (the same search judged by the learned value
model, a small network evaluated at every leaf) are measured beside ``purple``.

Ends with one JSON line of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.game import Side  # noqa: E402
from core.geister import VARIANTS, GeisterState  # noqa: E402
from solvers.geister.bayes import BayesPlayer  # noqa: E402
from solvers.geister.learned import LearnedPlayer  # noqa: E402
from solvers.geister.purple import PurplePlayer, SearchReport  # noqa: E402
from solvers.geister_engine import search as sr  # noqa: E402
from solvers.players import Limit  # noqa: E402

GEISTER = VARIANTS["geister"]
SETUPS = ("BRRBBRRB", "RBBRRBBR")


class PlainPurple(PurplePlayer):
    """The baseline: no transposition table, moves in generation order."""

    name = "purple-plain"
    FLAGS = sr.NO_TABLE | sr.NO_ORDERING


def positions() -> dict[str, GeisterState]:
    """The opening and two middle games (purple against itself at depth 2, seeded: the same on every machine)."""
    found = {"opening": GeisterState.from_setups(GEISTER, *SETUPS)}
    state = GeisterState.from_setups(GEISTER, *SETUPS)
    players = {side: PurplePlayer() for side in Side}
    rng = random.Random(2024)
    while state.ply < 60 and not state.is_terminal():
        move = players[state.to_move].choose(state.view(state.to_move), rng, Limit(iterations=2))
        state.push(move)  # type: ignore[arg-type]
        if state.ply in (30, 60):
            found[f"ply {state.ply}"] = GeisterState.from_position(state.position(), "geister")
    return found


def measure(player_class: type[PurplePlayer], state: GeisterState, seconds: float, repeats: int) -> dict[str, float]:
    depths, nodes, rates = [], [], []
    warm_state = GeisterState.from_setups(GEISTER, *reversed(SETUPS))
    for repeat in range(repeats):
        player = player_class()
        list(player.analyse(warm_state.view(warm_state.to_move), Limit(iterations=2), random.Random(0)))
        *_, final = player.analyse(state.view(state.to_move), Limit(time=seconds), random.Random(repeat))
        assert isinstance(final, SearchReport)
        depths.append(final.depth)
        nodes.append(final.nodes)
        rates.append(final.nodes / max(final.elapsed, 1e-9))
    return {
        "depth": statistics.median(depths),
        "nodes": statistics.median(nodes),
        "nodes_per_second": statistics.median(rates),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=0.5, help="the time a move (default 0.5)")
    parser.add_argument("--repeats", type=int, default=3, help="fresh players per figure; the median (default 3)")
    args = parser.parse_args()
    if not 0.01 <= args.seconds <= 60 or not 1 <= args.repeats <= 50:
        parser.error("--seconds must be in 0.01..60 and --repeats in 1..50")
    sr.warm_up()
    figures: dict[str, dict[str, dict[str, float]]] = {}
    print(f"Depth finished in {args.seconds} s (median of {args.repeats}); baseline: no table, no ordering")
    print(f"{'position':<10} {'player':<13} {'depth':>5} {'nodes':>12} {'nodes/s':>12}")
    for label, state in positions().items():
        figures[label] = {}
        for player_class in (PurplePlayer, BayesPlayer, LearnedPlayer, PlainPurple):
            row = measure(player_class, state, args.seconds, args.repeats)
            figures[label][player_class.name] = row
            print(
                f"{label:<10} {player_class.name:<13} {row['depth']:>5.0f} {row['nodes']:>12,.0f} "
                f"{row['nodes_per_second']:>12,.0f}"
            )
    opening = figures["opening"]
    print(
        f"from the opening: purple depth {opening['purple']['depth']:.0f}, sage {opening['sage']['depth']:.0f} "
        f"(target 9; the baseline reaches {opening['purple-plain']['depth']:.0f})"
    )
    print(json.dumps({"benchmark": "purple_depth", "seconds": args.seconds, "figures": figures}))


if __name__ == "__main__":
    main()
