"""``nashplay connect`` as a person (``--as human``, the default): the app opens on a game on a contest server.

This module turns the command line into a ``ServerGameConfig`` and starts the app on the server-game screen
(``tui.screens.server``), which plays the game with ``tui.net.play_game`` in the app's own event loop. It imports
neither Textual nor numpy at module level: ``nashplay --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from core.contest import FIRST_PORT, parse_red_letters
from tui.net import ContestSettings

__all__ = ["ServerGameConfig", "config_from_args", "run_human"]


@dataclass(frozen=True)
class ServerGameConfig:
    """One server game (and the next ones, when the user connects again) as the command line asked for it."""

    host: str = "127.0.0.1"
    port: int = FIRST_PORT
    #: The letters of the 4 red pieces (``BCFG``); ``None``: the user chooses on the screen.
    setup: str | None = None
    #: The user's name in the records (``None``: "human").
    name: str | None = None
    #: Where records go (``None``: nowhere; the command line always gives a folder).
    save_dir: Path | None = None
    settings: ContestSettings = field(default_factory=ContestSettings)
    #: Seed for the set-up proposed on the screen.
    seed: int | None = None


def _default_save_dir() -> Path:
    from tui.storage import state_dir

    return state_dir() / "contest"


def config_from_args(args: argparse.Namespace) -> ServerGameConfig:
    """The config for ``nashplay connect``'s options (already checked by ``connect_cli.check_args``)."""
    setup = None if args.setup.lower() == "random" else parse_red_letters(args.setup)
    settings = ContestSettings(
        ply_limit=args.ply_limit,
        budget=args.budget,
        per_move=args.per_move,
        connect_deadline=args.connect_timeout,
    )
    return ServerGameConfig(
        host=args.host,
        port=args.port,
        setup=setup,
        name=args.name,
        save_dir=Path(args.save).expanduser() if args.save else _default_save_dir(),
        settings=settings,
        seed=args.seed,
    )


def run_human(args: argparse.Namespace) -> int:
    """Open the app on the server game; returns the exit code."""
    from tui.app import NashplayApp, StartRequest
    from tui.cli import theme_names

    theme = getattr(args, "theme", None) or "nashplay"
    known = theme_names()
    if theme not in known:
        print(f"nashplay: error: unknown theme {theme!r}: expected one of {', '.join(known)}", file=sys.stderr)
        return 2
    app = NashplayApp(
        StartRequest("server", server=config_from_args(args)),
        ascii_mode=getattr(args, "ascii", False),
        theme_name=theme,
    )
    app.run()
    config = app.start_request.server
    if config is not None and config.save_dir is not None:
        # Said after the app has gone: the screen showed each record's path, the terminal keeps where they all are.
        print(f"nashplay connect: game records are in {config.save_dir}")
    return app.return_code or 0
