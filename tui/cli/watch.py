"""``nashplay watch [GAME]``: two AIs play a game of the Geister family in the app, each with its own thinking time.

With ``--players`` the app opens straight on the game; without, on the set-up screen for watching, its choices
starting from the options given. A player unknown or not of the game, or a time out of bounds, is refused in one
line before the app opens.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

from core.errors import quoted
from tui.cli.common import open_app, seed_number
from tui.watching import (
    DEFAULT_WATCH_TIME,
    WATCH_TIME_RANGE,
    WATCHABLE,
    WatchSettings,
    parse_watch_time,
    players_problem,
)

EXAMPLES = """\
examples:
  nashplay watch                             choose the game, the players and their time on the set-up screen
  nashplay watch geister --players sage purple --time 0.5
  nashplay watch mini-geister --players nash chototsu --seed 3
  nashplay watch geister --players sage bayes --time 1 --time2 0.25
                                             player 1 thinks 1 s a move, player 2 a quarter of a second
  nashplay list                              every game's players
"""

#: ``--players`` as two words or as the arena's one (``sage purple`` or ``sage,purple``).
_SEPARATORS = re.compile(r"[,\s]+")


def _game(text: str) -> str:
    """GAME's check: a game of the Geister family (the others have no board to watch)."""
    if text not in WATCHABLE:
        raise argparse.ArgumentTypeError(
            f"expected a game of the Geister family, one of {', '.join(WATCHABLE)}, not {quoted(text)}"
        )
    return text


def add_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: Sequence[argparse.ArgumentParser]
) -> None:
    low, high = WATCH_TIME_RANGE
    watch = commands.add_parser(
        "watch",
        parents=list(parents),
        help="watch two AIs play a game of the Geister family",
        description="Watch two AIs play in the app, every colour shown: Space pauses, Right steps one move, + and -\n"
        "set the speed, a shows the advice for the side to move. Without --players, the set-up screen for\n"
        "watching opens first. nashplay list names every game's players.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    watch.add_argument(
        "game",
        nargs="?",
        type=_game,
        metavar="GAME",
        help=f"one of: {', '.join(WATCHABLE)} (default geister)",
    )
    watch.add_argument(
        "--players",
        nargs="+",
        metavar="NAME",
        help="player 1 and player 2 (player 1 moves first), e.g. --players sage purple; without it, choose on "
        "the set-up screen",
    )
    watch.add_argument(
        "--time",
        type=parse_watch_time,
        default=DEFAULT_WATCH_TIME,
        metavar="S",
        help=f"seconds a move for the players that search, {low:g} to {high:g} (default {DEFAULT_WATCH_TIME:g}); "
        "player 1's alone when --time2 is given",
    )
    watch.add_argument(
        "--time2", type=parse_watch_time, metavar="S", help="player 2's seconds a move (default: the same as --time)"
    )
    watch.add_argument("--seed", type=seed_number, help="the seed of the two players' generators (default: drawn)")


def settings_from_args(args: argparse.Namespace) -> WatchSettings:
    """The watch the options describe; ``ValueError`` with one line naming the choices for a player unknown or not
    of the game, or not two of them."""
    game: str | None = args.game
    players: tuple[str, str] | None = None
    if args.players is not None:
        names = tuple(name for name in _SEPARATORS.split(" ".join(args.players)) if name)
        if game is None and len(names) == 3 and names[2] in WATCHABLE:
            # ``watch --players sage purple mini-geister``: the list took the game, which was meant for GAME.
            game, names = names[2], names[:2]
        problem = players_problem(game or "geister", names)
        if problem is not None:
            raise ValueError(problem)
        players = (names[0], names[1])
    time2 = args.time if args.time2 is None else args.time2
    settings = WatchSettings(game or "geister", players, (args.time, time2), args.seed)
    settings.check()
    return settings


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tui.app import StartRequest

    try:
        settings = settings_from_args(args)
    except ValueError as error:
        parser.exit(2, f"nashplay watch: error: --players: {error} (see nashplay watch --help)\n")
    return open_app(StartRequest("watch", watch=settings, setup=settings.players is None), args)
