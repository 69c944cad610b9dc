"""``nashplay analyse GAME --position P``: the advice the app's panels give, for one position, without the app.

Every game takes only its own options (one sub-command each, as ``play`` has). The advice comes from
``solvers.advice.registry``: Geister's strongest search for ``--time`` seconds (or to a fixed ``--depth``), the solved
tables for the Mini-Geister variants (the mover's expected result; past the 3-vs-2 tables, a search to a fixed
depth), the exact equilibria of TCG, Footstep and Goofspiel, Sprague-Grundy for Nim. The options are each game's
descriptor's (``core.game_type``): its parameters, its advice's, and its position. The output is a few lines (the
suggestion, forced results first and in words, each move with its value or probability, the result if proven), or
with ``--json`` exactly one JSON object (``Advice.to_json``).

Nothing heavy is imported here: the adviser (numpy, the solvers, the compiled search) loads once the options are
read, so ``--help`` and argument errors answer at once.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, NoReturn

from core.games import GAME_TYPES, GameType, Parameter
from core.record import printable
from tui.arguments import add_parameter_option, parameter_value

if TYPE_CHECKING:
    from solvers.advice import Advice, MoveAdvice
    from solvers.advice.registry import Request

#: Moves listed in the plain output (``--json`` lists them all).
SHOWN_MOVES = 12

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
        parser = games.add_parser(name, help=game.summary, description=f"{game.title}: {game.advice_summary}")
        _add_options(parser, game)
        parser.add_argument("--json", action="store_true", help="exactly one JSON object (Advice.to_json)")


def _options_of(game: GameType) -> tuple[Parameter, ...]:
    """The options of ``analyse GAME``: the game's parameters a position does not say, then its advice's."""
    return (*(p for p in game.parameters if not p.in_position), *game.advice_parameters)


def _add_options(parser: argparse.ArgumentParser, game: GameType) -> None:
    default = game.default_position
    parser.add_argument("--position", required=default is None, metavar=game.position_metavar, help=game.position_help)
    for parameter in _options_of(game):
        add_parameter_option(parser, parameter)
    if game.kind == "simultaneous":
        parser.add_argument("--for", dest="player", choices=["1", "2"], default="1", help="whose advice (default 1)")


def _fail(parser: argparse.ArgumentParser, game: str, message: str) -> NoReturn:
    # The message may quote what was typed: one line, and never a terminal's escapes.
    parser.exit(2, f"nashplay analyse {game}: error: {printable(message)}\n")


def _request(args: argparse.Namespace) -> Request:
    """The request the options describe (each option read and bounded by its parameter)."""
    from solvers.advice.registry import Request

    game = GAME_TYPES[args.game]
    values = {parameter.name: parameter_value(args, parameter) for parameter in _options_of(game)}
    position = args.position
    if position is None:
        assert game.default_position is not None  # --position is required otherwise
        position = game.default_position(values)
    player = int(args.player) if game.kind == "simultaneous" else None
    return Request(game.name, position, player=player, values=tuple(values.items()))


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    request = _request(args)
    from solvers.advice.registry import RequestError, advise

    started = time.monotonic()
    last: Advice | None = None
    try:
        for advice in advise(request):
            last = advice
            _progress(advice, started)
    except RequestError as error:  # beyond what the solver is asked: the option to change says so
        _clear_progress()
        _fail(parser, args.game, f"{error.option}: {error}")
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
    detail = advice.details[0] if advice.details else ""
    # A search has a best move so far; a solver only says how far it has come.
    text = f"searching: {detail}; best so far {advice.best}" if advice.best else detail
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
    # Not exact: a search's estimate, or (the Mini-Geister tables) a range that the tables' guarantees leave open.
    exact = "exact" if advice.exact else "bounds, not exact" if "bounds" in advice.extra else "a search's estimate"
    lines = [f"{game.title}, position {advice.position}: advice for {whose} ({advice.engine}; {exact})"]
    for line in advice.forced:
        lines.append(f"  {line.move}: {line.forced}")
    if advice.best:
        lines.append(f"Suggested: {advice.best}")
    if len(advice.line) > 1:
        lines.append(f"Expected line: {' '.join(advice.line)}")
    # An expected payoff is points where a game pays more than a win's 1 (Footstep), else an expected result.
    expected = "expected points" if game.max_payoff > 1 else "expected result"
    meaning = {"chance": "chance to win", "expected": expected, "outcome": "value"}[advice.scale]
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
