"""``nashplay play GAME``: start any game of the catalogue, straight on the board or on its set-up screen.

Each game has its own options (its catalogue entry adds them), so an option that means nothing for a game is
refused by the parser instead of being silently ignored. ``play tcg --advisor`` is the one game played without the
app: the source's plain-terminal advisor.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace

from core.errors import NotationError
from core.game import Side
from tui.cli.common import GameParser, open_app
from tui.cli.solve.tcg import MAX_N as TCG_MAX_N
from tui.config import ConfigError, GeisterConfig
from tui.games import GAMES, game_entry

EXAMPLES = """\
examples:
  nashplay play mini-geister                 choose your set-up, then play Mini-Geister
  nashplay play geister --opponent chototsu --setup random --side 1 --seed 7
  nashplay play mini-geister --position "1uu1/4/4/1BR1 1" --opponent nash
                                             play on from a position (you: the side to move)
  nashplay play nim --heaps 3,4,5 --rule kayles --opponent random
  nashplay play footstep --n 50 --k 4 --opponent equilibrium
  nashplay play tcg --advisor                the source's play mode in a plain prompt
"""


class _SideNotGiven(str):
    """``--side``'s default in the Geister family: equal to the text it holds, and telling ``run`` that the user did
    not choose it."""

    __slots__ = ()


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
        if entry.game.family == "geister":
            parser.add_argument(
                "--position",
                metavar="P",
                help="play on from this position (e.g. '1uu1/4/4/1BR1 1'): your colours given, the opponent's u/U "
                "drawn at random from its counts; you play the side to move unless --side says otherwise",
            )
            # Player 1 still, but marked as not given: with --position the side to move is the default (``run``).
            parser.set_defaults(side=_SideNotGiven("1"))


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
    position = getattr(args, "position", None)
    if position is not None and isinstance(args.side, _SideNotGiven):
        args.side = _side_to_move(position, args.game, parser)
    try:
        config = entry.config_from_args(args)
        if position is not None:
            assert isinstance(config, GeisterConfig)
            config = replace(config, position=position)
            config.check()
    except ConfigError as error:
        parser.exit(2, f"nashplay play {args.game}: error: {error.for_command_line()}\n")
    return open_app(StartRequest.for_config(config, setup=position is None and entry.asks_setup(args)), args)


def _side_to_move(position: str, game: str, parser: argparse.ArgumentParser) -> str:
    """Whose turn it is at ``position`` ("1" or "2"); a position that does not parse ends the command in one line."""
    from core.geister import GeisterState

    try:
        return str(GeisterState.from_position(position, game).to_move.number)
    except NotationError as error:
        parser.exit(2, f"nashplay play {game}: error: --position: {error}\n")
