"""``nashplay solve geister-endgame``: the Mini-Geister analysis on 5x5 and 6x6 boards, two pieces a side.

Everything printed is computed by ``solvers.geister.endgame`` (or read from its disk cache): the same figures the
Mini-Geister paper gives for 4x4 (placements of each value, the distance table, the natural starting placement),
and the perfect-information table's.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING

from tui.cli.common import StatusLine
from tui.cli.solve.mini_geister import RULE_HELP, _histogram_table, _progress

if TYPE_CHECKING:
    from solvers.mini_geister.analysis import Assessment

COMMAND = "geister-endgame"


def add_commands(solvers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = solvers.add_parser(
        COMMAND,
        help="Geister endings with one blue and one red a side, solved on 5x5 and 6x6 (the Mini-Geister mechanism)",
        description="The Mini-Geister paper's retrograde analysis on a larger board, two pieces a side: colourless "
        "under the base or extended rule (value 1 where the analysed side forces an average-0 event, -1 where the "
        "opponent forces its escape first, 0 neither) and with every colour known (1 a forced win, -1 a loss, 0 "
        "endless play), with the plies needed. The 6x6 tables are what the live advice uses once a Geister game "
        "is down to one blue and one red a side.",
    )
    command.add_argument("--board", type=int, choices=[4, 5, 6], default=6, help="the board's side (default 6)")
    command.add_argument("--rule", choices=["base", "extended"], default="base", help="the colourless table's rule")
    command.add_argument("--json", action="store_true", help="one JSON object (every figure, both rules)")
    command.add_argument("--no-cache", action="store_true", help="build afresh instead of reading the cache")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from core.game import Side
    from solvers.geister.endgame import EndgameTables, start_squares

    started = time.perf_counter()
    with StatusLine() as status:
        tables = EndgameTables.load(args.board, use_cache=not args.no_cache, progress=_progress(status))
        figures = tables.figures()  # every table read or built here, with progress
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({**figures, "ready_seconds": round(seconds, 3)}))
        return 0
    size, rule = args.board, args.rule
    table = tables.table(rule)
    counts = table.counts()
    states = 2 * table.placements
    print(f"Geister endgame on {size}x{size}, one blue and one red a side; colourless analysis, {rule} rule:")
    print(f"{RULE_HELP[rule]}.")
    print(f"{states:,} states (2 sides to move x {table.placements:,} placements), ready in {seconds:.2f} s")
    print(f"(tables {table.source}; {tables.nbytes / 1e6:.1f} MB in memory)\n")
    print(f"value  1  {counts[1]:>9,}  the analysed side forces an average-0 event in finitely many plies")
    print(f"value  0  {counts[0]:>9,}  neither side can force its event (endless play)")
    print(f"value -1  {counts[-1]:>9,}  the opponent forces one of its pieces onto its exit first\n")
    print("Plies the analysed side needs (the final escape, capture or guess counts as one):")
    print(_histogram_table(table.distance_histogram(1), 9, grouped=True))
    first, second = tables.starts(rule)
    mine, theirs = start_squares(size)
    names = [str(tables.square_of(s, Side.P1)) for s in (*mine, *theirs)]
    print(
        f"\nFrom the natural start (your pieces on {names[0]} {names[1]}, theirs on {names[2]} {names[3]}): "
        f"{_verdict(first)} moving first, {_verdict(second)} moving second."
    )
    perfect = tables.perfect
    pcounts = perfect.counts()
    print(f"\nEvery colour known ({2 * perfect.placements:,} states, table {perfect.source}):")
    print(f"value  1  {pcounts[1]:>9,}  the side to move forces a win")
    print(f"value  0  {pcounts[0]:>9,}  neither side can force one (endless play)")
    print(f"value -1  {pcounts[-1]:>9,}  the opponent forces a win")
    print("Plies to the win, for the side that forces it:")
    print(_histogram_table(perfect.distance_histogram(1), 9, grouped=True))
    sure = tables.sure
    scounts = sure.counts()
    print(f"\nSure wins: your colours known, theirs hidden ({2 * sure.placements:,} states, table {sure.source}):")
    print(f"value  1  {scounts[1]:>9,}  your blue escapes whatever their colours and moves: a win nothing can stop")
    print(f"value  0  {scounts[0]:>9,}  neither side can force its event (endless play)")
    print(f"value -1  {scounts[-1]:>9,}  they can put a piece that may be blue on its exit, or take your blue")
    print("Plies to the sure win:")
    print(_histogram_table(sure.distance_histogram(1), 9, grouped=True))
    return 0


def _verdict(assessment: Assessment) -> str:
    if assessment.value == 0:
        return "undecided (endless play)"
    return f"{assessment.value:+d} in {assessment.distance} plies"
