"""``nashplay review FILE``: a game record's review, every move judged from its mover's point of view.

Exact where the game is solved (Nim by Grundy values, TCG and Footstep by the equilibrium, Mini-Geister by its
tables' bounds on the mover's expected result), Geister by the strongest search to a fixed ``--depth`` a move (5 by
default: the same review on any machine) or for ``--time`` seconds a move, with a progress bar on a terminal. The
output is a table of the moves (value before and after, the best moves, the verdict with its mark) and each player's
summary, or with ``--json`` exactly one JSON object (``Review.to_json``, with the span of values).

Nothing heavy is imported here: the judges (numpy, the solvers, the compiled search) load once the record is read,
so ``--help`` and argument errors answer at once.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import TYPE_CHECKING, NoReturn

from core.errors import NotationError
from core.games import GAME_TYPES
from core.record import Record, printable
from solvers.review import MARKS, THRESHOLDS, VERDICTS
from solvers.review.records import DEFAULT_DEPTH
from tui.cli.common import file_problem, plural, real_number, whole_number
from tui.config import THINK_TIME_RANGE

if TYPE_CHECKING:
    from solvers.review import MoveReview, Review

#: The deepest fixed-depth search, as ``nashplay analyse``'s (a fixed depth is searched without time slices, so
#: Ctrl-C waits for the iteration in hand: depth 10 takes about 2 s from the opening, each ply about 4 times more).
MAX_DEPTH = 10
#: Best moves shown in a row of the table (``--json`` lists them all).
SHOWN_BEST = 3
#: Width of the progress bar, in characters.
BAR = 30

EXAMPLES = """\
examples:
  nashplay review game-0001.ngr                    every move judged (Geister: a search to depth 5 a move)
  nashplay review game-0001.ngr --depth 7          a deeper look, still the same review on any machine
  nashplay review game-0001.ngr --time 1 --json    1 s of search a move (depends on the machine), as JSON
"""


def _verdict_help() -> str:
    marks = ", ".join(f"{name} {MARKS[name]} from {THRESHOLDS[name]:.0%}" for name in VERDICTS if name in THRESHOLDS)
    return (
        "Each move is judged for its mover: its value before the move, the value of the move played, and the best "
        "moves. A move's loss is (best value - value after) / the range of values (1 for Geister's chances, 2 for "
        "outcomes and expected results from -1 to +1, 4 for Footstep's points); the verdict: best (one of the best "
        f"moves, or a loss below {THRESHOLDS['inaccuracy']:.0%}, marked ~ in the table), {marks} of the range. "
        "Accuracy: 100 less the average loss in percent."
    )


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    review = commands.add_parser(
        "review",
        help="judge every move of a game record (--json for scripts)",
        description=textwrap.fill(
            "A game record's review. Nim is judged by Grundy values, TCG and Footstep by the exact equilibrium (each "
            "player's action against the opponent's equilibrium mix, two entries a round), Mini-Geister by its "
            "solved tables (the mover's expected result, as its advice gives it; past the 3-vs-2 tables, its search "
            "to a fixed depth), Geister by the strongest search from the mover's own view, to a fixed depth unless "
            "--time is given: the same record gets the same review on any machine.",
            100,
        )
        + "\n\n"
        + textwrap.fill(_verdict_help(), 100),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    review.add_argument("file", help="a record file (.ngr), as the app and nashplay arena --save write them")
    low, high = THINK_TIME_RANGE
    review.add_argument(
        "--time",
        type=real_number(low, high, "seconds"),
        help=f"Geister: seconds of search a move instead of a fixed depth, {low:g} to {high:g} (the review then "
        "depends on the machine's speed)",
    )
    review.add_argument(
        "--depth",
        type=whole_number(1, MAX_DEPTH),
        help=f"Geister: search each move to this depth, 1..{MAX_DEPTH} (default {DEFAULT_DEPTH}): the same review "
        "on any machine",
    )
    review.add_argument("--json", action="store_true", help="exactly one JSON object (Review.to_json)")


def _fail(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    # One line, and no terminal escapes from a file's name or a record's text.
    parser.exit(2, f"nashplay review: error: {printable(message)}\n")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.time is not None and args.depth is not None:
        _fail(parser, "give --time or --depth, not both")
    try:
        record = Record.load(args.file)
    except (NotationError, OSError) as error:
        _fail(parser, file_problem(args.file, error))
    name = record.tags.get("Game", "")
    described = GAME_TYPES.get(name)
    searched = described is not None and described.review_searches
    budgets = described.review_budgets if described is not None else ()
    for option in ("time", "depth"):
        if getattr(args, option) is not None and option not in budgets:
            judged = "searched to a --depth past its tables" if budgets else "judged exactly"
            _fail(parser, f"--{option} is for a review that searches; a {name[:40]} record is {judged}")
    from solvers.review.records import beyond_limits, review_record

    too_large = beyond_limits(record)
    if too_large is not None:
        _fail(parser, f"{args.file}: {too_large}")

    progress = _Progress(searched) if sys.stderr.isatty() else None
    try:
        review = review_record(record, time=args.time, depth=args.depth, progress=progress)
    except ValueError as error:  # RecordError: the moves do not replay; a solver's limit (an exact search too large)
        _clear(progress)
        _fail(parser, f"{args.file}: {error}")
    except KeyboardInterrupt:
        _clear(progress)
        raise
    _clear(progress)
    if args.json:
        data = review.to_json()
        # The span goes beside the scale, so that a script can turn a loss into a share of the range.
        head = {key: data.pop(key) for key in ("game", "players", "plies", "engine", "scale")}
        print(json.dumps({**head, "span": review.span, **data}))
    else:
        print("\n".join(render(review, printable(args.file), record.result)))
    return 0


# --------------------------------------------------------------------------------------------------- progress


class _Progress:
    """A progress bar on stderr (a terminal only): ``reviewing: [#####-----] 12/100 plies``."""

    def __init__(self, searched: bool) -> None:
        self.searched = searched
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        filled = BAR * done // total if total else BAR
        text = f"reviewing: [{'#' * filled}{'-' * (BAR - filled)}] {done}/{total} moves"
        print(f"\r{text}", end="", file=sys.stderr, flush=True)
        self.shown = True


def _clear(progress: _Progress | None) -> None:
    if progress is not None and progress.shown:
        print("\r" + " " * (BAR + 40) + "\r", end="", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------------- the text


def _value(value: float | None, scale: str) -> str:
    if value is None:
        return "-"
    if scale == "chance":
        return f"{value:.1%}"
    if scale == "expected":
        return f"{value:+.3f}"
    return f"{value:+.0f}" if round(value) else "0"


def _best(move: MoveReview) -> str:
    shown = ", ".join(move.best[:SHOWN_BEST])
    more = len(move.best) - SHOWN_BEST
    return shown + (f" (+{more})" if more > 0 else "")


def _verdict(move: MoveReview) -> str:
    if move.verdict is None:
        return "-"
    if move.verdict == "best" and move.move not in move.best:
        return "best ~"  # within the inaccuracy threshold, but not one of the best moves
    mark = MARKS[move.verdict]
    return f"{move.verdict} {mark}" if mark else move.verdict


NOUNS = {"best": "best", "inaccuracy": "inaccuracies"}
MEANINGS = {"chance": "chance to win", "outcome": "outcome (+1 / 0 / -1)", "expected": "expected result"}


def render(review: Review, source: str, result: str) -> list[str]:
    """The review in lines a person reads: what was judged and how, a row per move, each player's summary, and what
    the verdicts mean."""
    game = GAME_TYPES[review.game]
    unit, units = game.units
    players = review.players
    lines = [
        f"Review of {source}: {game.title}, {players['1']} (player 1) vs {players['2']} (player 2), "
        f"{plural(review.plies, unit, units)}, result {result}",
        f"Judged by {review.engine}; values: each mover's {MEANINGS.get(review.scale, review.scale)}",
        "",
        f"{unit:>5}  {'player':<6}  {'move':<8} {'before':>7} -> {'after':<7}  {'best':<26} verdict",
    ]
    for move in review.moves:
        row = (
            f"{move.ply:>5}  {move.player:<6}  {move.move:<8} {_value(move.value_before, review.scale):>7} -> "
            f"{_value(move.value_after, review.scale):<7}  {_best(move):<26} {_verdict(move)}"
        )
        if move.note:
            row += f"  ({move.note})"
        lines.append(row.rstrip())
    lines += ["", "Summary"]
    for number, counts in review.summary().items():
        words = ", ".join(plural(counts[name], name, NOUNS.get(name)) for name in VERDICTS)
        accuracy = "-" if counts["accuracy"] is None else f"{counts['accuracy']:.1f}%"
        unjudged = sum(1 for m in review.moves if str(m.player) == number) - counts["judged"]
        skipped = f"; {unjudged} not judged" if unjudged else ""
        lines.append(
            f"  player {number} ({players[number]}): {words} of {counts['judged']} judged{skipped}; accuracy {accuracy}"
        )
    lines += ["", *textwrap.wrap(_verdict_help(), 100)]
    return lines
