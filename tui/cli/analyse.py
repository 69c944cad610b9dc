"""``nashplay analyse GAME --position P``: the advice the app's panels give, for one position, without the app.

Every game takes only its own options (one sub-command each, as ``play`` has). The advice comes from
``solvers.advice.registry``: Geister's strongest search for ``--time`` seconds (or to a fixed ``--depth``), the solved
tables for the Mini-Geister variants, the exact equilibria of TCG and Footstep, Sprague-Grundy for Nim. The output is
a few lines (the suggestion, forced results first and in words, each move with its value or probability, the result
if proven), or with ``--json`` exactly one JSON object (``Advice.to_json``).

Nothing heavy is imported here: the adviser (numpy, the solvers, the compiled search) loads once a position is
checked, so ``--help`` and argument errors answer at once.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, NoReturn

from core.errors import NotationError
from core.games import GAME_TYPES
from core.impartial import parse_heaps, parse_rule
from tui.cli.common import real_number, seed_number, whole_number
from tui.cli.solve.nim import MAX_HEAP, MAX_HEAPS, MAX_TAKE, longest_sequence
from tui.config import FOOTSTEP_MAX_K, FOOTSTEP_MAX_N, TCG_APP_MAX_N, THINK_TIME_RANGE

if TYPE_CHECKING:
    from solvers.advice import Advice, MoveAdvice
    from solvers.advice.registry import Request

#: Seconds Geister's search thinks unless ``--time`` says otherwise.
DEFAULT_TIME = 1.0
#: The deepest fixed-depth search: depth 10 takes about 2 s from the opening, and each ply about 4 times the last
#: (depth 11 7 s, 12 29 s, 13 113 s; measured with bayes on this machine class). A fixed depth is searched without
#: time slices, so Ctrl-C waits for the iteration in hand: this bound keeps that wait short.
MAX_DEPTH = 10
#: Moves listed in the plain output (``--json`` lists them all).
SHOWN_MOVES = 12
#: How each game counts a proven result's distance.

EXAMPLES = """\
examples:
  nashplay analyse geister --position "1uuuu1/1uuuu1/6/6/1BRRB1/1RBBR1 1" --time 2
  nashplay analyse mini-geister --position "1uu1/4/4/1UU1 1" --json
  nashplay analyse mini-geister-3v2-rbb --position "1uu1/4/1U2/1UU1 1"
  nashplay analyse tcg --n 3 --position 0,1 --for 2
  nashplay analyse footstep --n 20 --k 3 --position 20,20,0
  nashplay analyse nim --position 3,4,5 --rule kayles --misere
"""


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    analyse = commands.add_parser(
        "analyse",
        help="the advice on one position, without the app (--json for scripts)",
        description="The app's advice on one position: the suggested action, forced results first, each action's "
        "value or equilibrium probability, and the result where it is proven. Each game has its own options: "
        "nashplay analyse GAME --help lists them.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    games = analyse.add_subparsers(dest="game", metavar="GAME", required=True)
    for name, game in GAME_TYPES.items():
        parser = games.add_parser(name, help=game.summary, description=f"{game.title}: {_description(name)}")
        _add_options(parser, name)
        parser.add_argument("--json", action="store_true", help="exactly one JSON object (Advice.to_json)")


def _description(game: str) -> str:
    family = GAME_TYPES[game].family
    if game == "geister":
        return "the strongest search's advice for the side to move (bayes), with the chance to win of each move."
    if family == "geister":
        return "the solved tables' exact advice for the side to move, and the equilibrium's moves."
    if family == "nim":
        return "the Sprague-Grundy verdict for the player to move: every winning move, or the longest resistance."
    return "each action's probability in the exact equilibrium, for player 1 (or --for 2), and the state's value."


def _add_options(parser: argparse.ArgumentParser, game: str) -> None:
    family = GAME_TYPES[game].family
    if family == "geister":
        parser.add_argument(
            "--position",
            required=True,
            metavar="P",
            help=f"the position in the notation, the side to move's colours given (e.g. {_example(game)!r})",
        )
        if game == "geister":
            low, high = THINK_TIME_RANGE
            parser.add_argument(
                "--time",
                type=real_number(low, high, "seconds"),
                default=DEFAULT_TIME,
                help=f"seconds the search thinks, {low:g} to {high:g} (default {DEFAULT_TIME:g})",
            )
            parser.add_argument(
                "--depth",
                type=whole_number(1, MAX_DEPTH),
                help=f"search to this depth instead, 1..{MAX_DEPTH}: the same answer on any machine",
            )
            parser.add_argument("--seed", type=seed_number, help="seed of the search's tie-breaks")
        elif game == "mini-geister":
            parser.add_argument(
                "--rule",
                choices=["base", "extended"],
                default="base",
                help="which of the paper's tables ranks the moves: base (default) or extended (with the guess)",
            )
        return
    if family == "nim":
        parser.add_argument("--position", required=True, metavar="HEAPS", help="heap sizes, e.g. 3,4,5")
        parser.add_argument(
            "--rule",
            default="nim",
            help="nim (default), kayles, dawsons-kayles, a subtraction set like {1,2,3}, or an octal code like 0.77",
        )
        parser.add_argument("--misere", action="store_true", help="misere play: whoever takes the last stone loses")
        return
    if family == "tcg":
        parser.add_argument(
            "--n",
            type=whole_number(1, TCG_APP_MAX_N),
            default=3,
            help=f"most points a player can hold, 1..{TCG_APP_MAX_N} (default 3)",
        )
        parser.add_argument("--position", default="0,0", metavar="I1,I2", help="the state: both players' points")
    else:
        parser.add_argument(
            "--n",
            type=whole_number(1, FOOTSTEP_MAX_N),
            default=50,
            help=f"points each player starts with, 1..{FOOTSTEP_MAX_N} (default 50)",
        )
        parser.add_argument(
            "--k",
            type=whole_number(1, FOOTSTEP_MAX_K),
            default=4,
            help=f"steps from the centre to each goal, 1..{FOOTSTEP_MAX_K} (default 4)",
        )
        parser.add_argument(
            "--position", metavar="X,Y,Z", help="the state: player 1's points, player 2's, the marker (default n,n,0)"
        )
    parser.add_argument("--for", dest="player", choices=["1", "2"], default="1", help="whose advice (default 1)")


def _example(game: str) -> str:
    """A position of ``game`` to show in its help: the start, the side to move's colours given."""
    from core.game import Side
    from core.geister import variant_by_name

    variant = variant_by_name(game)
    blues, reds = variant.blues[Side.P1], variant.reds[Side.P1]
    colours = iter("BR" * min(blues, reds) + "B" * (blues - reds) + "R" * (reds - blues))
    ranks, _, rest = variant.standard_start().partition(" ")
    return "".join(next(colours) if letter == "U" else letter for letter in ranks) + " " + rest


def _fail(parser: argparse.ArgumentParser, game: str, message: str) -> NoReturn:
    parser.exit(2, f"nashplay analyse {game}: error: {message}\n")


def _request(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Request:
    """The request the options describe; what can be checked without the solvers is checked here (heaps, rules)."""
    from solvers.advice.registry import Request

    game = args.game
    family = GAME_TYPES[game].family
    if family == "nim":
        try:
            heaps = parse_heaps(args.position)
        except NotationError as error:
            _fail(parser, game, f"--position: {error}")
        try:
            rule = parse_rule(args.rule)
        except NotationError as error:
            _fail(parser, game, f"--rule: {error}")
        if not any(heaps):
            _fail(parser, game, "--position: there must be at least one stone to take")
        if len(heaps) > MAX_HEAPS:
            _fail(parser, game, f"--position: at most {MAX_HEAPS} heaps, not {len(heaps):,}")
        largest, why = longest_sequence(rule)
        largest = min(MAX_HEAP, largest)
        if max(heaps) > largest:
            _fail(parser, game, f"--position: heaps of at most {largest:,} stones{why}, not {max(heaps):,}")
        from solvers.grundy import max_take  # numpy: only once the options are read

        if (max_take(rule) or 0) > MAX_TAKE:
            _fail(parser, game, f"--rule: the {rule} takes more than {MAX_TAKE:,} stones at once")
        return Request(game, args.position, rule=args.rule, misere=args.misere)
    if family == "tcg":
        return Request(game, args.position, player=int(args.player), n=args.n)
    if family == "footstep":
        position = args.position if args.position is not None else f"{args.n},{args.n},0"
        return Request(game, position, player=int(args.player), n=args.n, k=args.k)
    if game == "geister":
        return Request(game, args.position, time=args.time, depth=args.depth, seed=args.seed)
    return Request(game, args.position, rule=getattr(args, "rule", None))


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    request = _request(args, parser)
    from solvers.advice.registry import advise

    started = time.monotonic()
    last: Advice | None = None
    try:
        for advice in advise(request):
            last = advice
            _progress(advice, started)
    except ValueError as error:  # NotationError, InvalidPositionError: the position; ValueError: what it holds
        _clear_progress()
        _fail(parser, args.game, f"--position: {error}")
    _clear_progress()
    assert last is not None  # every adviser yields at least once, or raises
    if args.json:
        print(json.dumps(last.to_json()))
    else:
        print("\n".join(render(last)))
    return 0


# --------------------------------------------------------------------------------------------------- progress


def _progress(advice: Advice, started: float) -> None:
    """A one-line progress display on stderr while a search goes on, after half a second, on a terminal only."""
    if advice.final or not sys.stderr.isatty() or time.monotonic() - started < 0.5:
        return
    text = f"searching: {advice.details[0] if advice.details else ''}; best so far {advice.best}"
    print(f"\r{text[:100]:<100}", end="", file=sys.stderr, flush=True)


def _clear_progress() -> None:
    if sys.stderr.isatty():
        print("\r" + " " * 100 + "\r", end="", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------------- the text


def _value(value: float | None, scale: str) -> str:
    if value is None:
        return "-"
    if scale == "chance":
        return f"{value:.1%}"
    if scale == "expected":
        return f"{round(value, 4) + 0.0:+.4f}"
    return f"{value:+.0f}" if value else "0"


def _distance(plies: int | None, unit: str) -> str:
    if plies is None:
        return ""
    plural = "plies" if unit == "ply" else f"{unit}s"
    return f" in {plies} {unit if plies == 1 else plural}"


def _result(line: MoveAdvice, unit: str) -> str:
    if line.result is None:
        return ""
    return f"{line.result}{_distance(line.plies, unit)}"


def render(advice: Advice) -> list[str]:
    """The advice in a few lines a person reads: who it is for and from what, forced results in words, the
    suggestion, the result if proven, the moves (value, probability, result, what else is worth a word)."""
    game = GAME_TYPES[advice.game]
    unit = game.units[0]
    whose = "the player to move" if game.kind == "impartial" else f"player {advice.player}"
    exact = "exact" if advice.exact else "a search's estimate"
    lines = [f"{game.title}, position {advice.position}: advice for {whose} ({advice.engine}; {exact})"]
    for line in advice.forced:
        lines.append(f"  {line.move}: {line.forced}")
    if advice.best:
        lines.append(f"Suggested: {advice.best}")
    meaning = {"chance": "chance to win", "expected": "expected points", "outcome": "value"}[advice.scale]
    verdict = f"{meaning.capitalize()}: {_value(advice.value, advice.scale)}"
    if advice.result is not None:
        verdict += f"; proven {advice.result}{_distance(advice.plies, unit)}"
    lines.append(verdict)
    shown = advice.moves[:SHOWN_MOVES]
    simultaneous = game.kind == "simultaneous" or any(m.probability is not None for m in shown)
    header = f"  {'move':<9}{meaning:>15}" + (f"{'probability':>13}" if simultaneous else "")
    lines.append(header)
    for move in shown:
        row = f"  {move.move:<9}{_value(move.value, advice.scale):>15}"
        if simultaneous:
            row += f"{'' if move.probability is None else f'{move.probability:.1%}':>13}"
        words = [w for w in (_result(move, unit), move.note, move.forced) if w]
        if words:
            row += "   " + "; ".join(words)
        lines.append(row)
    if len(advice.moves) > len(shown):
        lines.append(f"  ... and {len(advice.moves) - len(shown)} more (--json lists them all)")
    lines.extend(advice.details)
    return lines
