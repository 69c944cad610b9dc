"""The ``nashplay`` command: the app (menu, play, replay) and, as their issues land, the plain solvers."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from core.errors import IllegalMoveError, NotationError
from core.game import Side
from core.geister import VARIANTS, variant_by_name
from core.record import Record
from tui.session import OPPONENTS, GameConfig

EPILOG = """\
examples:
  nashplay                                   open the game menu
  nashplay play mini-geister                 choose your set-up, then play Mini-Geister
  nashplay play geister --opponent chototsu --setup random --side 1 --seed 7
                                             start straight on the board
  nashplay play mini-geister --setup BR      blue on b1, red on c1
  nashplay replay game.ngr                   step through a saved record
  nashplay --ascii --theme nashplay-colourblind

Set-ups name the colour of each set-up square in order: player 1 uses its back row then its front row
from file a (Geister b1 c1 d1 e1 b2 c2 d2 e2), player 2 the up-down mirror (b6 c6 d6 e6 b5 c5 d5 e5).
In a game press ? for the keys; ctrl+p opens the command palette. A game in progress is saved
(under $XDG_STATE_HOME/nashplay) and offered for resume next time.
"""


def _display_options(suppress: bool) -> argparse.ArgumentParser:
    """Options every command takes. On sub-commands their defaults are suppressed, so that
    ``nashplay --ascii play ...`` keeps the value given before the sub-command."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--ascii",
        action="store_true",
        default=argparse.SUPPRESS if suppress else False,
        help="draw with ASCII characters only (for poor fonts)",
    )
    parent.add_argument(
        "--theme",
        default=argparse.SUPPRESS if suppress else None,
        help="colour theme: nashplay (default), nashplay-colourblind, nashplay-light, or any Textual theme",
    )
    return parent


def build_parser() -> argparse.ArgumentParser:
    display = _display_options(suppress=True)
    parser = argparse.ArgumentParser(
        prog="nashplay",
        description="Play games whose right move is a mixed strategy, in the terminal, with solver advice.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[_display_options(suppress=False)],
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser(
        "play",
        parents=[display],
        help="play a game against an AI",
        description="Play a Geister-family game against an AI. Without --setup the set-up screen asks.",
    )
    play.add_argument("game", choices=list(VARIANTS), metavar="GAME", help=f"one of: {', '.join(VARIANTS)}")
    play.add_argument("--opponent", choices=list(OPPONENTS), default="chototsu", help="the AI you play against")
    play.add_argument("--setup", help="'random', or one B/R letter per set-up square (e.g. BR, BRRBBRRB)")
    play.add_argument("--side", choices=["1", "2"], default="1", help="your side: 1 moves first (default), 2 second")
    play.add_argument("--seed", type=int, help="seed for the AI and random set-ups, for reproducible games")

    replay = commands.add_parser(
        "replay", parents=[display], help="replay a game record", description="Step through a game record."
    )
    replay.add_argument("file", help="a record file (.ngr), as saved by the app")
    replay.add_argument("--side", choices=["1", "2"], default="1", help="the side drawn at the bottom")
    return parser


def theme_names() -> list[str]:
    """nashplay's themes first, then Textual's built-in ones."""
    from textual.theme import BUILTIN_THEMES

    from tui.theme import THEMES

    return [t.name for t in THEMES] + sorted(BUILTIN_THEMES)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    # Imported here so that `nashplay --help` and argument errors stay fast.
    from tui.app import NashplayApp, StartRequest

    request = StartRequest()
    if args.command == "play":
        side = Side.from_number(args.side)
        config = GameConfig(variant=args.game, human=side, opponent=args.opponent, setup=args.setup, seed=args.seed)
        if args.setup is not None and args.setup.lower() != "random":
            try:
                variant_by_name(args.game).parse_setup(args.setup, side)
            except (NotationError, IllegalMoveError) as error:
                parser.exit(2, f"nashplay play: error: --setup: {error}\n")
        request = StartRequest("play" if args.setup is not None else "setup", config)
    elif args.command == "replay":
        try:
            record = Record.load(args.file)
            record.replay()
        except (NotationError, OSError) as error:
            parser.exit(2, f"nashplay replay: error: {error}\n")
        request = StartRequest(
            "replay", record=record, replay_side=Side.from_number(args.side), replay_title=f"Replay: {args.file}"
        )

    theme = args.theme or "nashplay"
    known = theme_names()
    if theme not in known:
        parser.exit(2, f"nashplay: error: unknown theme {theme!r}: expected one of {', '.join(known)}\n")
    app = NashplayApp(request, ascii_mode=args.ascii, theme_name=theme)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
