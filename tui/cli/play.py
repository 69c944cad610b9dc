"""``nashplay play GAME``: start any game of the catalogue, straight on the board or on its set-up screen.

Each game has its own options (its catalogue entry adds them), so an option that means nothing for a game is
refused by the parser instead of being silently ignored. ``play tcg --advisor`` is the one game played without the
app: the source's plain-terminal advisor.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from core.game_type import resolve
from tui.cli.common import GameParser, open_app
from tui.config import ConfigError
from tui.games import GAMES, game_entry

EXAMPLES = """\
examples:
  nashplay play mini-geister                 choose your set-up, then play Mini-Geister
  nashplay play geister --opponent chototsu --setup random --side 1 --seed 7
  nashplay play mini-geister --position "1uu1/4/4/1BR1 1" --opponent nash
                                             play on from a position (you: the side to move)
  nashplay play nim --heaps 3,4,5 --rule kayles --opponent random
  nashplay play footstep --n 50 --k 4 --opponent equilibrium
  nashplay play goofspiel --cards 6 --side 2
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
    # Each game's parser refuses what it does not know itself, so that the message names the game.
    games: argparse._SubParsersAction[argparse.ArgumentParser] = play.add_subparsers(
        dest="game", metavar="GAME", required=True, parser_class=GameParser
    )
    for entry in GAMES.values():
        parser = games.add_parser(
            entry.name, parents=list(parents), help=entry.game.summary, description=f"{entry.title}: {entry.menu_note}"
        )
        entry.add_options(parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tui.app import StartRequest

    entry = game_entry(args.game)
    try:
        if entry.instead_of_app is not None:
            code: int | None = resolve(entry.instead_of_app)(args)
            if code is not None:
                return code
        config = entry.config_from_args(args)
    except ConfigError as error:
        parser.exit(2, f"nashplay play {args.game}: error: {error.for_command_line()}\n")
    return open_app(StartRequest.for_config(config, setup=entry.asks_setup(args)), args)
