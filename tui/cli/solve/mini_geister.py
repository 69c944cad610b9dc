"""``nashplay solve mini-geister`` and ``nashplay solve mini-geister-3v2``: the Mini-Geister paper's figures, derived.

Everything printed is computed by ``solvers.mini_geister`` (or read from its disk cache); nothing is typed in from the
paper. The plain output follows the paper's layout (Table 1) so the two can be compared side by side.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from core.errors import NotationError
from core.game import Side
from tui.cli.common import StatusLine

if TYPE_CHECKING:
    from solvers.mini_geister.analysis import Assessment, MiniGeisterTables
    from solvers.mini_geister.three_vs_two import SideAnalysis, ThreeVsTwo

COMMANDS = ("mini-geister", "mini-geister-3v2")

RULE_HELP = {
    "base": "escape attempts, and a random capture when both opponent pieces are in reach (sections 2-3)",
    "extended": "escape attempts, and a guess of the opponent's colours when every colouring wins (section 4)",
}


def add_commands(solvers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``mini-geister`` and ``mini-geister-3v2`` to ``nashplay solve``."""
    two = solvers.add_parser(
        "mini-geister",
        help="Mini-Geister: where the paper's purple strategy secures >= 0, and in how many plies (Table 1)",
        description="Retrograde analysis of all 21,840 colourless placements (which side to move, two unseen pieces "
        "a side): value 1 where the analysed side forces an average-0 event, -1 where the opponent forces its escape "
        "first, 0 neither; with the plies needed. --position analyses one position and each legal move.",
    )
    two.add_argument(
        "--rule",
        choices=["base", "extended"],
        default="base",
        help="base: " + RULE_HELP["base"] + "; extended: " + RULE_HELP["extended"] + " (default base)",
    )
    two.add_argument("--position", help="analyse one position, e.g. '1uu1/4/4/1UU1 1' (colours are ignored)")
    two.add_argument(
        "--for", dest="analysed", choices=["1", "2"], help="with --position: the analysed side (default: side to move)"
    )
    two.add_argument("--json", action="store_true", help="one JSON object")
    two.add_argument("--no-cache", action="store_true", help="solve afresh instead of reading the cache")
    three = solvers.add_parser(
        "mini-geister-3v2",
        help="Mini-Geister 3 vs 2 (section 6): what each side's strategy secures from the start",
        description="The same analysis with a third piece (b2) for one side: red-red-blue (both sides secure 0) "
        "and red-blue-blue (the 3-piece side secures 1/3, the 2-piece side -1/2).",
    )
    three.add_argument("--colours", choices=["rrb", "rbb"], help="the 3-piece side's colours (default: both)")
    three.add_argument("--json", action="store_true", help="one JSON object")
    three.add_argument("--no-cache", action="store_true", help="solve afresh instead of reading the cache")


def _progress(status: StatusLine) -> Callable[[str, float], None]:
    """The tables' progress (what is solved, how much is decided) on the status line."""
    return lambda what, fraction: status.show(f"solving: {what} ({fraction:.0%} decided)")


def _fail(parser: argparse.ArgumentParser, command: str, message: str) -> None:
    parser.exit(2, f"nashplay solve {command}: error: {message}\n")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.solver == "mini-geister-3v2":
        return _run_three(args)
    if args.analysed is not None and args.position is None:
        _fail(parser, "mini-geister", "--for needs --position")
    # The solver (numpy) is imported only when a solve runs, so that `nashplay --help` stays fast.
    from solvers.mini_geister.analysis import MiniGeisterTables

    started = time.perf_counter()
    with StatusLine() as status:
        tables = MiniGeisterTables.load(use_cache=not args.no_cache, progress=_progress(status))
    seconds = time.perf_counter() - started
    if args.position is not None:
        return _run_position(args, parser, tables)
    rule = args.rule
    counts = tables.counts(rule)
    histogram = tables.distance_histogram(rule)
    first, second = tables.initial_distances(rule)
    placements = len(tables.table(rule).value)
    if args.json:
        result = {
            "rule": rule,
            "placements": placements,
            "values": {str(v): counts[v] for v in (1, 0, -1)},
            "distances": {str(d): n for d, n in histogram.items()},
            "initial": {"moves_first": first.distance, "moves_second": second.distance},
            "seconds": round(seconds, 4),
        }
        print(json.dumps(result))
        return 0
    source = tables.table(rule).source
    print(f"Mini-Geister, colourless analysis, {rule} rule: {RULE_HELP[rule]}.")
    print(f"{placements:,} placements (2 sides to move x 120 x 91), ready in {seconds:.2f} s (table {source})\n")
    print(f"value  1  {counts[1]:>6,}  the analysed side forces an average-0 event in finitely many plies")
    print(f"value  0  {counts[0]:>6,}  neither side can force its event (endless play)")
    print(f"value -1  {counts[-1]:>6,}  the opponent forces one of its pieces onto its exit first\n")
    print("Plies the analysed side needs (the final escape, capture or guess counts as one); the paper's Table 1:")
    print(_histogram_table(histogram))
    print(
        f"\nFrom the start (1uu1/4/4/1UU1): {first.distance} plies when the analysed side "
        f"moves first, {second.distance} when the opponent does."
    )
    return 0


def _histogram_table(histogram: dict[int, int], width: int = 6, grouped: bool = False) -> str:
    """Ten distances a row: the plies, and the placements at each (``grouped``: with thousands separators, in columns
    ``width`` wide, as the larger boards' counts need)."""
    distances = list(range(1, max(histogram) + 1))
    separator = "," if grouped else ""
    lines = []
    for start in range(0, len(distances), 10):
        chunk = distances[start : start + 10]
        lines.append("plies      " + "".join(f"{d:>{width}}" for d in chunk))
        lines.append("placements " + "".join(f"{histogram.get(d, 0):>{width}{separator}}" for d in chunk))
    return "\n".join(lines)


def _cell(assessment: Assessment | None) -> str:
    if assessment is None:
        return "-"
    if assessment.value == 0:
        return "0 (undecided)"
    return f"{assessment.value:+d} in {assessment.distance}"


def _run_position(args: argparse.Namespace, parser: argparse.ArgumentParser, tables: MiniGeisterTables) -> int:
    from solvers.mini_geister.analysis import analyse_position, equilibrium_moves

    analysed = Side.from_number(args.analysed) if args.analysed else None
    try:
        analysis = analyse_position(args.position, analysed, tables)
        nash = equilibrium_moves(args.position, analysis.analysed, args.rule, tables)
    except NotationError as error:
        _fail(parser, "mini-geister", f"--position: {error}")
        return 2  # pragma: no cover - parser.exit does not return
    if args.json:
        print(json.dumps(analysis.to_json()))
        return 0
    print(f"Position {analysis.position}: analysed for {analysis.analysed}, {analysis.to_move} to move")
    print(f"  base rule:     {analysis.base.text()}")
    print(f"  extended rule: {analysis.extended.text()}\n")
    print(f"{'move':<8} {'event':<9} {'base':<16} {'extended':<16}")
    for move in analysis.moves:
        print(f"{move.move.to_text():<8} {move.event or '':<9} {_cell(move.base):<16} {_cell(move.extended):<16}")
    who = "the analysed side's strategy" if analysis.to_move is analysis.analysed else "the opponent's best replies"
    shown = ", ".join(m.to_text() for m in nash) or "guess the opponent's colours (then play with colours known)"
    print(f"\n{who.capitalize()} ({args.rule} rule): {shown}")
    print("Values are the analysed side's: 1 it forces an average-0 event, -1 the opponent its escape, 0 neither.")
    return 0


def _analysis_json(analysis: SideAnalysis) -> dict[str, object]:
    counts = analysis.table.counts()
    return {
        "section": analysis.section,
        "title": analysis.title,
        "three_piece_side": analysis.three_piece_side,
        "analysed": analysis.spec.analysed.text(),
        "opponent": analysis.spec.opponent.text(),
        "target": str(analysis.spec.target),
        "placements": len(analysis.table.value),
        "values": {str(v): counts[v] for v in (1, 0, -1)},
        "initial": {"moves_first": analysis.initial[0].to_json(), "moves_second": analysis.initial[1].to_json()},
        "paper": analysis.paper,
        "secured": analysis.secured,
        "claim": analysis.claim,
    }


def _result_json(result: ThreeVsTwo) -> dict[str, object]:
    analyses = [_analysis_json(a) for a in result.analyses]
    return {"colours": result.colours, "analyses": analyses, "seconds": round(result.seconds, 4)}


def _run_three(args: argparse.Namespace) -> int:
    from solvers.mini_geister.tables import TableStore
    from solvers.mini_geister.three_vs_two import three_vs_two

    colours: list[Literal["rrb", "rbb"]] = [args.colours] if args.colours else ["rrb", "rbb"]
    with StatusLine() as status:
        store = TableStore(use_cache=not args.no_cache, progress=_progress(status))
        started = time.perf_counter()
        results: list[ThreeVsTwo] = [three_vs_two(c, store=store) for c in colours]
    seconds = time.perf_counter() - started
    if args.json:
        payload = {
            "results": [_result_json(r) for r in results],
            "seconds": round(seconds, 4),
        }
        print(json.dumps(payload))
        return 0
    names = {"rrb": "red-red-blue", "rbb": "red-blue-blue"}
    for result in results:
        print(f"3 vs 2, the 3-piece side {names[result.colours]} ({result.seconds:.2f} s)")
        for analysis in result.analyses:
            first, second = analysis.initial
            counts = analysis.table.counts()
            print(f"  {analysis.section} {analysis.title}")
            print(f"      {analysis.spec.text()}")
            print(
                f"      {len(analysis.table.value):,} placements: value 1 {counts[1]:,}, 0 {counts[0]:,}, "
                f"-1 {counts[-1]:,}"
            )
            print(
                f"      start, moving first: {_cell(first)}; moving second: {_cell(second)}; "
                f"the paper: {analysis.paper} -> {analysis.claim}"
            )
        print()
    print("Value 1: the analysed side forces an event worth its target; 0: neither side can (endless play counts 0);")
    print("-1: the opponent forces an escape or a capture below the target.")
    return 0
