"""The ``nashplay`` command: the app (menu, play, replay, a contest server) and every solver as a plain command.

One module per command family; each adds its parser (``add_command``) and runs it (``run``). Nothing heavy is
imported here or by them at module level: ``nashplay --help`` and argument errors answer at once, and the app
starts without numpy.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

#: The shell's exit code for a process ended by Ctrl-C (128 + SIGINT).
INTERRUPTED = 130


def _interrupted_while_loading(signum: int, frame: FrameType | None) -> None:
    """SIGINT while the commands below are imported: ``run`` cannot catch it yet, and Python would print a
    KeyboardInterrupt traceback through the imports (a Ctrl-C in the first half second of any command)."""
    sys.stderr.write("nashplay: interrupted\n")
    raise SystemExit(INTERRUPTED)


try:
    _previous_handler = signal.signal(signal.SIGINT, _interrupted_while_loading)
    _guarded = True
except ValueError:  # imported outside the main thread, where handlers cannot be set: nothing to guard then
    _previous_handler, _guarded = None, False

import argparse  # noqa: E402 (the handler above must be in place first)
import os  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402

from tui.cli import (  # noqa: E402
    analyse,
    arena,
    catalogue,
    connect,
    ladder,
    learn,
    play,
    replay,
    review,
    serve,
    solve,
    train,
    watch,
)
from tui.cli.common import Parser, display_options, open_app, theme_problem  # noqa: E402

if _guarded:
    # Loaded: Ctrl-C is a KeyboardInterrupt again, which ``run`` turns into one line (and a process that imports the
    # commands, such as a test run, keeps its own handler). ``None``: the handler was not set from Python.
    signal.signal(signal.SIGINT, signal.default_int_handler if _previous_handler is None else _previous_handler)

EPILOG = """\
examples:
  nashplay                                   open the game menu
  nashplay play mini-geister                 choose your set-up, then play Mini-Geister
  nashplay play geister --opponent chototsu --setup random --side 1 --seed 7
                                             start straight on the board
  nashplay play nim --heaps 3,4,5 --rule kayles --opponent random
  nashplay solve footstep --n 20 --k 3       the exact equilibrium of the source's simplified game
  nashplay analyse mini-geister --position "1uu1/4/4/1BR1 1" --json
                                             the solved tables' advice on one position, as JSON
  nashplay learn footstep --rule reward      a learning curve against the random player
  nashplay arena geister --players ismcts,chototsu --games 20
  nashplay arena geister --players purple,random --sprt 0,50 --games 1000
                                             stop as soon as the game pairs decide
  nashplay ladder geister                    Elo ratings over every arena game played here
  nashplay watch geister --players sage purple --time 0.5   watch two AIs play in the app
  nashplay replay game.ngr                   step through a saved record
  nashplay review game.ngr --time 0.5        judge every move of a record (best, inaccuracy, mistake, blunder)
  nashplay connect --port 10001              play a game on a Geister contest server (as the second player)
  nashplay list                              every game and player
  nashplay serve                             the app in a web browser: open the URL it prints
  nashplay train geister                     re-train the Geister belief and value models (the train extra)
  nashplay --ascii --theme nashplay-colourblind

Set-ups name the colour of each set-up square in order: player 1 uses its back row then its front row
from file a (Geister b1 c1 d1 e1 b2 c2 d2 e2), player 2 the up-down mirror (b6 c6 d6 e6 b5 c5 d5 e5).
In a game press ? for the keys; ctrl+p opens the command palette. A game in progress is saved
(under $XDG_STATE_HOME/nashplay) and offered for resume next time.
"""

Handler = Callable[[argparse.Namespace, argparse.ArgumentParser], int]

HANDLERS: dict[str, Handler] = {
    "play": play.run,
    "solve": solve.run,
    "analyse": analyse.run,
    "learn": learn.run,
    "arena": arena.run,
    "ladder": ladder.run,
    "connect": connect.run,
    "replay": replay.run,
    "review": review.run,
    "list": catalogue.run,
    "serve": serve.run,
    "train": train.run,
    "watch": watch.run,
}


def build_parser() -> argparse.ArgumentParser:
    display = display_options(suppress=True)
    # Typed as the base class, so that the sub-command modules' annotations hold; every sub-parser is a Parser.
    parser: argparse.ArgumentParser = Parser(
        prog="nashplay",
        description="Play games whose right move is a mixed strategy, in the terminal, with solver advice.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[display_options(suppress=False)],
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    play.add_command(commands, parents=[display])
    solve.add_command(commands)
    analyse.add_command(commands)
    learn.add_command(commands)
    arena.add_command(commands)
    ladder.add_command(commands)
    connect.add_command(commands, parents=[display])
    replay.add_command(commands, parents=[display])
    review.add_command(commands)
    catalogue.add_command(commands)
    serve.add_command(commands, parents=[display])
    train.add_command(commands)
    watch.add_command(commands, parents=[display])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # ``--theme`` before any command (``nashplay --theme T solve ...``) is taken by the top parser: an unknown one is
    # refused here, for every command, in one line, before any work (the commands that draw nothing ignore a known
    # one, so that an alias carrying the display options still runs them).
    problem = theme_problem(getattr(args, "theme", None))
    if problem is not None:
        parser.exit(2, f"nashplay: error: --theme: {problem}\n")
    if args.command is None:
        from tui.app import StartRequest

        return open_app(StartRequest(), args)
    return HANDLERS[args.command](args, parser)


def run() -> int:
    """The console script: ``main`` with a quiet exit when the output pipe closes (``nashplay solve ... | head``),
    and one line instead of a traceback when Ctrl-C stops a long solve or learning run."""
    try:
        return main()
    except KeyboardInterrupt:
        print("nashplay: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # Python would complain again while flushing stdout at exit; point it at devnull first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(run())
