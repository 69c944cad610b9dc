"""What every ``nashplay`` command shares: the display options, and opening the app on what a command asked for.

Imports nothing heavy: ``nashplay --help`` and argument errors must answer at once.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.app import StartRequest


def display_options(suppress: bool) -> argparse.ArgumentParser:
    """Options every app command takes. On sub-commands their defaults are suppressed, so that
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


def open_app(request: StartRequest, args: argparse.Namespace) -> int:
    """Run the app on ``request`` with the display options of ``args``; returns the exit code."""
    from tui.app import NashplayApp
    from tui.theme import theme_names

    theme = getattr(args, "theme", None) or "nashplay"
    known = theme_names()
    if theme not in known:
        print(f"nashplay: error: unknown theme {theme[:40]!r}: expected one of {', '.join(known)}", file=sys.stderr)
        raise SystemExit(2)
    app = NashplayApp(request, ascii_mode=getattr(args, "ascii", False), theme_name=theme)
    app.run()
    return app.return_code or 0
