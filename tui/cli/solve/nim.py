"""``nashplay solve nim`` and ``nashplay solve grundy``: Sprague-Grundy from the command line, explained."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from core.errors import NotationError
from core.impartial import HeapMove, HeapRule, Nim, Octal, parse_heaps, parse_rule, parse_subtraction
from solvers.grundy_limits import (
    MAX_COMPUTED,
    MAX_HEAP,
    MAX_HEAPS,
    MAX_TAKE,
    MAX_UPTO,
    longest_sequence,
)
from tui.cli.common import plural, whole_number

if TYPE_CHECKING:
    from solvers.grundy import Analysis

#: Winning moves printed in the text report (the JSON lists them all).
SHOWN_MOVES = 20


def add_rule_options(parser: argparse.ArgumentParser, default_nim: bool) -> None:
    rules = parser.add_mutually_exclusive_group(required=not default_nim)
    rules.add_argument("--subtraction", metavar="S", help="a subtraction game: the set of allowed takes, e.g. 1,2,3")
    rules.add_argument("--octal", metavar="CODE", help="a take-and-break game in octal, e.g. 0.77 (Kayles)")
    rules.add_argument("--rule", metavar="NAME", help="nim, kayles, dawsons-kayles, or any of the forms above")


def add_commands(solvers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    nim = solvers.add_parser(
        "nim",
        help="Nim and impartial heap games: Grundy values, nim-sum, winner, every winning move",
        description="Sprague-Grundy: each heap's Grundy value, their xor (the nim-sum), who wins, and every winning "
        "move as heap:take (take-and-break games also say how the rest splits: heap:take/a+b).",
    )
    nim.add_argument("--heaps", required=True, help="heap sizes, e.g. 3,4,5")
    add_rule_options(nim, default_nim=True)
    nim.add_argument("--misere", action="store_true", help="misere play: whoever takes the last stone loses")
    nim.add_argument("--json", action="store_true", help="one JSON object")
    grundy = solvers.add_parser(
        "grundy",
        help="the Grundy sequence of a heap game and its period",
        description="G(0..upto) and, when the sequence is proven periodic, its pre-period and period.",
    )
    add_rule_options(grundy, default_nim=False)
    grundy.add_argument(
        "--upto", type=whole_number(0, MAX_UPTO), default=100, help=f"last heap size, up to {MAX_UPTO:,} (default 100)"
    )
    grundy.add_argument("--json", action="store_true", help="one JSON object")


def rule_from(args: argparse.Namespace) -> HeapRule:
    """The rule the options name (Nim when none does); ``NotationError`` for one that does not parse or is larger
    than the solver takes (``MAX_TAKE``). An empty option is an error, not Nim."""
    if args.subtraction is not None:
        rule: HeapRule = parse_subtraction(args.subtraction)
    elif args.octal is not None:
        rule = Octal(args.octal)
    elif args.rule is not None:
        rule = parse_rule(args.rule)
    else:
        return Nim()
    from solvers.grundy import max_take  # numpy: only once a command runs

    largest = max_take(rule) or 0
    if largest > MAX_TAKE:
        raise NotationError(f"the {rule} takes up to {largest:,} stones: at most {MAX_TAKE:,} here")
    return rule


def describe(move: HeapMove, heaps: tuple[int, ...]) -> str:
    text = f"heap {move.number}: take {move.take}"
    if move.split is not None:
        text += f", split the rest into {move.split[0]} and {move.split[1]}"
    elif move.take == heaps[move.index]:
        text += " (all of it)"
    return text


def report(analysis: Analysis, rule: HeapRule) -> str:
    from solvers.grundy import binary_rows

    heaps = analysis.heaps
    play = "misere play" if analysis.misere else "normal play"
    lines = [f"Heaps {', '.join(map(str, heaps))} under {rule} ({play})", ""]
    rows, total, columns = binary_rows(analysis)
    width = len(total)
    lines.append(f"{'heap':>4}  {'size':>5}  {'Grundy':>6}  {'binary':>{max(6, width)}}")
    for number, (size, g, bits) in enumerate(zip(heaps, analysis.grundy, rows, strict=True), start=1):
        lines.append(f"{number:>4}  {size:>5}  {g:>6}  {bits:>{max(6, width)}}")
    lines.append(f"{'nim-sum':>11}  {analysis.nim_sum:>6}  {total:>{max(6, width)}}")
    marks = "".join("^" if c else " " for c in columns)
    if any(columns):
        lines.append(f"{'':>11}  {'':>6}  {marks:>{max(6, width)}}   (the columns with an odd number of 1s)")
    lines.append("")
    if analysis.misere and analysis.method != "sprague-grundy":
        how = "Bouton's misere rule" if analysis.method == "misere nim" else "an exact search of the game tree"
        lines.append(f"Misere play is decided by {how}; the Grundy values above are those of normal play.")
    if analysis.first_player_wins:
        shown = analysis.winning_moves[:SHOWN_MOVES]
        moves = "; ".join(f"{m.to_text()} ({describe(m, heaps)})" for m in shown)
        more = len(analysis.winning_moves) - len(shown)
        extra = f"; and {more} more (--json lists them all)" if more > 0 else ""
        lines.append(f"The player to move wins. Winning moves: {moves}{extra}")
    elif analysis.longest_move is None:
        lines.append(
            "The player to move has no move and loses."
            if not analysis.misere
            else "No move: the player to move wins (misere)."
        )
    else:
        length = (
            f" (the game then lasts {plural(analysis.remoteness, 'more move')}, this one included, if the winner "
            "hurries)"
            if analysis.remoteness
            else ""
        )
        move = analysis.longest_move
        lines.append(
            f"The player to move loses against perfect play: every move loses. "
            f"The longest resistance: {move.to_text()} ({describe(move, heaps)}){length}."
        )
    return "\n".join(lines)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    # numpy and the solver are imported only when a solve runs, so that `nashplay --help` stays fast.
    from solvers.grundy import analyse, find_period, grundy_sequence

    try:
        rule = rule_from(args)
    except (ValueError, NotationError) as error:
        parser.exit(2, f"nashplay solve {args.solver}: error: {error}\n")
    most, why = longest_sequence(rule)
    if args.solver == "grundy":
        if args.upto > most:
            parser.exit(2, f"nashplay solve grundy: error: --upto must be 0..{most:,}{why}, not {args.upto:,}\n")
        try:
            values = grundy_sequence(rule, args.upto, max_computed=MAX_COMPUTED)
        except ValueError as error:
            parser.exit(2, f"nashplay solve grundy: error: {error}\n")
        period = find_period(values, rule)
        if args.json:
            print(
                json.dumps(
                    {
                        "G": values.tolist(),
                        "preperiod": period.preperiod if period else None,
                        "period": period.period if period else None,
                    }
                )
            )
            return 0
        print(f"Grundy values of {rule}, heaps 0..{args.upto}:")
        shown = values[: min(values.size, 200)].tolist()
        print(" ".join(map(str, shown)) + (" ..." if values.size > 200 else ""))
        if isinstance(rule, Nim):
            print("Nim is never periodic: G(n) = n.")
        elif period is None:
            print("No period is proven within this range.")
        else:
            print(f"Periodic: G(n + {period.period}) = G(n) for every n >= {period.preperiod} (proven).")
        return 0
    try:
        heaps = parse_heaps(args.heaps)
    except NotationError as error:
        parser.exit(2, f"nashplay solve nim: error: --heaps: {error}\n")
    if len(heaps) > MAX_HEAPS:
        parser.exit(2, f"nashplay solve nim: error: --heaps: at most {MAX_HEAPS} heaps, not {len(heaps):,}\n")
    largest = min(MAX_HEAP, most)
    if max(heaps) > largest:
        parser.exit(
            2, f"nashplay solve nim: error: --heaps: heaps of at most {largest:,} stones{why}, not {max(heaps):,}\n"
        )
    try:
        analysis = analyse(heaps, rule, misere=args.misere)
    except ValueError as error:
        parser.exit(2, f"nashplay solve nim: error: {error}\n")
    if args.json:
        result: dict[str, object] = {
            "grundy": list(analysis.grundy),
            "nim_sum": analysis.nim_sum,
            "first_player_wins": analysis.first_player_wins,
            "winning_moves": [m.to_text() for m in analysis.winning_moves],
        }
        if analysis.misere:
            result["misere"] = True
            result["method"] = analysis.method
        if analysis.longest_move is not None:
            result["longest_move"] = analysis.longest_move.to_text()
            result["remoteness"] = analysis.remoteness
        print(json.dumps(result))
        return 0
    print(report(analysis, rule))
    return 0
