"""``nashplay play GAME``: start any game of the catalogue, straight on the board or on its set-up screen.

Each game has its own options (its catalogue entry adds them), so an option that means nothing for a game is
refused by the parser instead of being silently ignored. ``play tcg --advisor`` is the one game played without the
app: the source's plain-terminal advisor.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from core.game import Side
from tui.cli.common import open_app
from tui.cli.solve.tcg import MAX_N as TCG_MAX_N
from tui.config import ConfigError
from tui.games import GAMES, game_entry

EXAMPLES = """\
examples:
  nashplay play mini-geister                 choose your set-up, then play Mini-Geister
  nashplay play geister --opponent chototsu --setup random --side 1 --seed 7
  nashplay play nim --heaps 3,4,5 --rule kayles --opponent random
  nashplay play footstep --n 50 --k 4 --opponent equilibrium
  nashplay play tcg --advisor                the source's play mode in a plain prompt
"""


def add_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: Sequence[argparse.ArgumentParser]
) -> None:
    play = commands.add_parser(
        "play",
        help="play a game against an AI",
        description="Play a game against an AI (or, in Nim, against a second person). Each game has its own "
        "options: nashplay play GAME --help lists them.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    games = play.add_subparsers(dest="game", metavar="GAME", required=True)
    for entry in GAMES.values():
        parser = games.add_parser(
            entry.name, parents=list(parents), help=entry.game.summary, description=f"{entry.title}: {entry.menu_note}"
        )
        entry.add_options(parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tui.app import StartRequest

    entry = game_entry(args.game)
    if args.game == "tcg" and args.advisor:
        from tui.cli import tcg_prompt  # loads the solver (scipy): only now

        if args.mode is not None:
            parser.exit(2, "nashplay play tcg: error: --mode is the app's; --advisor is the plain-terminal advisor\n")
        if not 1 <= args.n <= TCG_MAX_N:
            parser.exit(2, f"nashplay play tcg: error: --n must be 1..{TCG_MAX_N}, not {args.n}\n")
        return tcg_prompt.run(args.n, Side.from_number(args.side), args.seed)
    try:
        config = entry.config_from_args(args)
    except ConfigError as error:
        parser.exit(2, f"nashplay play {args.game}: error: {error.for_command_line()}\n")
    return open_app(StartRequest.for_config(config, setup=entry.asks_setup(args)), args)
