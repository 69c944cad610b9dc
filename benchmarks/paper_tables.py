"""The UPP paper's Tables 1-3 (Mishio & Kotani) at the paper's compute, and the playout choice that reproduces them.

    python benchmarks/paper_tables.py [--games 100] [--ablation-games 40] [--workers 2] [--seed 0]

The paper's players searched 7,500 playouts a second (7,550 for MC, 7,208 for UPP), so its 0.25 s a move is about
1,875 playouts and its 1 s is 7,500. Budgets here are playouts, not seconds: the same games on any machine.

1. The playout policy (the paper says only "random simulation"): plain Monte Carlo against Chototsu at 1,875
   playouts with uniform playouts (today's baseline and the paper's literal reading), escape-first ones, and the
   racing ones (escape first, else step a blue piece nearer its exit with probability ``advance``), up to
   ``GUIDED`` (racing and capturing). ``mc`` and ``upp`` play ``RACE`` (advance 0.8).
2. The paper's tables with the catalogue's ``mc`` and ``upp``: against Chototsu at 1,875 and 7,500 playouts
   (paper: MC 318/400 and 381/400, UPP 375/400 and 391/400), and UPP against MC at 7,500 (paper: 221/400).

Each row: wins, draws, losses, the win rate with its 95% Wilson interval, and the paper's figure. Colours and sides
alternate: game ``i`` has the first player's side and seed from ``i``. Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.game import Side
from core.games import load_game
from solvers.arena import ending
from solvers.catalogue import make_player
from solvers.geister import playouts as po
from solvers.geister.montecarlo import GUIDED, RACE, MonteCarloPlayer
from solvers.players import Limit
from solvers.stats import wilson

PAPER_SHORT, PAPER_LONG = 1_875, 7_500

#: Plain Monte Carlo with each playout policy of the ablation.
POLICIES: dict[str, po.Policy] = {
    "uniform": po.UNIFORM,
    "escape-first": po.ESCAPE_FIRST,
    "race 0.3": po.Policy(escape_first=True, advance=0.3),
    "race 0.8 (RACE)": RACE,
    "guided": GUIDED,
}


def make(name: str) -> Any:
    """A player by name: ``mc[POLICY]`` for the ablation's Monte Carlo, or a catalogue name."""
    if name.startswith("mc[") and name.endswith("]"):
        policy = POLICIES[name[3:-1]]
        return type("AblationMonteCarlo", (MonteCarloPlayer,), {"POLICY": policy})()
    return make_player(name, "geister")


@dataclass(frozen=True)
class Job:
    a: str
    b: str
    playouts: int
    seed: int


def play(job: Job) -> tuple[str, str]:
    """One game: ``a`` against ``b``; returns A's result (``won``, ``lost``, ``draw``) and how the game ended."""
    rng = random.Random(job.seed)
    a_side = Side.P1 if job.seed % 2 == 0 else Side.P2
    players = {a_side: make(job.a), a_side.other: make(job.b)}
    rngs = {side: random.Random(rng.getrandbits(32)) for side in Side}
    state = load_game("geister", first=Side.P1)
    limit = Limit(playouts=job.playouts)
    while not state.is_terminal():
        side = Side(state.current_player())
        state.apply(players[side].choose(state.view(side), rngs[side], limit))
    outcome = state.outcome()
    result = "draw" if outcome.winner is None else "won" if outcome.winner is a_side else "lost"
    return result, ending(outcome.reason)


def row(
    pool: ProcessPoolExecutor, label: str, a: str, b: str, playouts: int, games: int, seed: int, paper: str
) -> dict[str, Any]:
    started = time.perf_counter()
    jobs = [Job(a, b, playouts, seed + i) for i in range(games)]
    results = Counter()
    endings: Counter[str] = Counter()
    for result, how in pool.map(play, jobs):
        results[result] += 1
        endings[f"{result}: {how}"] += 1
    wins, draws, losses = results["won"], results["draw"], results["lost"]
    low, high = wilson(wins, games)
    print(
        f"{label:<34} {playouts:>6,} {games:>5} {wins:>4}-{draws}-{losses:<4} {wins / games:>6.1%} "
        f"[{low:.3f}, {high:.3f}]  {paper:<14} ({time.perf_counter() - started:.0f} s)",
        flush=True,
    )
    return {
        "a": a,
        "b": b,
        "playouts": playouts,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / games,
        "ci95": [round(low, 4), round(high, 4)],
        "endings": dict(endings),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per row of the paper's tables (paper: 400)")
    parser.add_argument("--ablation-games", type=int, default=40, help="games per playout policy")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not (1 <= args.games <= 10_000 and 0 <= args.ablation_games <= 10_000 and 1 <= args.workers <= 64):
        parser.error("--games in 1..10000, --ablation-games in 0..10000, --workers in 1..64")
    header = f"{'':<34} {'plays':>6} {'games':>5} {'W-D-L':<10} {'win':>6} {'95% interval':<16} {'paper':<14}"
    figures: dict[str, Any] = {"ablation": {}, "tables": {}}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        if args.ablation_games:
            print("1. Plain Monte Carlo against Chototsu, by playout policy (baseline: uniform)")
            print(header)
            for name in POLICIES:
                figures["ablation"][name] = row(
                    pool, f"mc, {name} playouts", f"mc[{name}]", "chototsu", PAPER_SHORT, args.ablation_games,
                    args.seed, "80% (0.25 s)",
                )  # fmt: skip
        print("2. The paper's tables (mc and upp as the catalogue plays them)")
        print(header)
        tables = [
            ("Table 1: mc vs chototsu, 0.25 s", "mc", "chototsu", PAPER_SHORT, "318/400 = 80%"),
            ("Table 1: mc vs chototsu, 1 s", "mc", "chototsu", PAPER_LONG, "381/400 = 95%"),
            ("Table 2: upp vs chototsu, 0.25 s", "upp", "chototsu", PAPER_SHORT, "375/400 = 94%"),
            ("Table 2: upp vs chototsu, 1 s", "upp", "chototsu", PAPER_LONG, "391/400 = 98%"),
            ("Table 3: upp vs mc, 1 s", "upp", "mc", PAPER_LONG, "221/400 = 55%"),
        ]
        for label, a, b, playouts, paper in tables:
            figures["tables"][label] = row(pool, label, a, b, playouts, args.games, args.seed, paper)
    print(json.dumps({"benchmark": "paper_tables", "games": args.games, **figures}))


if __name__ == "__main__":
    main()
