"""What every ``nashplay`` command shares: the parser (one-line errors), the checked number types every numeric
option uses, the display options, and opening the app on what a command asked for.

Imports nothing heavy: ``nashplay --help`` and argument errors must answer at once.
"""

from __future__ import annotations

import argparse
import io
import re
import select
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn, TextIO

from core.errors import QUOTE_LIMIT, clipped, quoted
from core.game_type import MAX_SEED
from tui.arguments import real_number, seed_number, whole_number

if TYPE_CHECKING:
    from tui.app import StartRequest

# The number types live below the game catalogue (``tui.arguments``), whose ``play`` options use them too.
__all__ = [
    "MAX_SEED",
    "GameParser",
    "Parser",
    "display_options",
    "open_app",
    "plural",
    "real_number",
    "seed_number",
    "theme_problem",
    "whole_number",
]

#: The longest error message printed whole; argparse's own (``unrecognized arguments: ...``) may hold any input.
MESSAGE_LIMIT = 300
# argparse quotes a bad value with repr: a quoted run longer than the quote limit is cut to it.
_LONG_QUOTE = re.compile(rf"'([^'\n]{{{QUOTE_LIMIT + 1},}})'")
# argparse names the option as "argument --n: "; the commands' own checks say "--n must be ...", and so does this.
_ARGUMENT = re.compile(r"^argument (\S+): (must be)?")


def _option_first(match: re.Match[str]) -> str:
    option, must = match.groups()
    return f"{option} must be" if must else f"{option}: "


class Parser(argparse.ArgumentParser):
    """argparse's parser, with errors on one line: ``nashplay learn: error: --n must be 1..100, not 150 (see ...)``.

    The usage block argparse prints first is left out (``--help`` shows it), and a long bad value is quoted only in
    part, so that a 5000-digit or 50 MB argument never comes back whole. Sub-command parsers inherit the class.
    """

    def error(self, message: str) -> NoReturn:
        named = _ARGUMENT.sub(_option_first, message)
        short = clipped(_LONG_QUOTE.sub(lambda match: quoted(match.group(1)), named), MESSAGE_LIMIT)
        self.exit(2, f"{self.prog}: error: {short} (see {self.prog} --help)\n")


class GameParser(Parser):
    """The parser of one game's options (``nashplay play tcg``): an option it does not know is refused by it, naming
    the game and its help (``nashplay play tcg: error: unrecognized arguments: --opponent random (see nashplay play
    tcg --help)``), not by the top parser, whose help does not list the game's options."""

    # The base class's overloads only spell out "the namespace given, or a new one": one signature does the same.
    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and its noun, singular for one: ``1 ply``, ``2 plies`` (``nouns`` when not ``noun`` + s)."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


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


def theme_problem(theme: str | None) -> str | None:
    """Why ``--theme`` cannot be ``theme`` (not one of ``tui.theme.theme_names``), or ``None`` (no theme given, or
    a known one). Asked of every command, those that draw nothing too: an unknown theme is a mistake to say, not to
    pass over. The theme names are imported only when a theme is given."""
    if theme is None:
        return None
    from tui.theme import theme_names

    known = theme_names()
    if theme in known:
        return None
    return f"unknown theme {quoted(theme)}: expected one of {', '.join(known)}"


def open_app(request: StartRequest, args: argparse.Namespace) -> int:
    """Run the app on ``request`` with the display options of ``args``; returns the exit code."""
    from tui.app import NashplayApp

    # No --theme: the theme the user chose last (remembered in the settings), else the default.
    theme = getattr(args, "theme", None)
    problem = theme_problem(theme)
    if problem is not None:
        print(f"nashplay: error: --theme: {problem}", file=sys.stderr)
        raise SystemExit(2)
    app = NashplayApp(request, ascii_mode=getattr(args, "ascii", False), theme_name=theme)
    app.run()
    return app.return_code or 0


def file_problem(path: str, error: OSError | ValueError) -> str:
    """A record file that cannot be read or parsed, in one line: the OS's words without its errno, or the parser's."""
    if isinstance(error, OSError):
        return f"cannot read {path}: {(error.strerror or str(error)).lower()}"
    return str(error)


#: How often a prompt waiting for a line looks for a pending Ctrl-C.
SIGNAL_CHECK_SECONDS = 0.2


def read_line(stream: TextIO) -> str:
    """``stream.readline()`` that Ctrl-C always interrupts at a terminal. With threads in the process (numpy's BLAS
    starts some), the kernel may hand SIGINT to another thread: Python's handler only marks it, and a main thread
    blocked in ``read`` would never look. So at a terminal the wait is on ``select``, a fifth of a second at a time,
    back in the interpreter in between, which raises ``KeyboardInterrupt`` as soon as one is pending. (A terminal
    hands over one line a read, so nothing waits in the stream's buffer unseen by ``select``.) Anything else (a
    pipe, a file, a test's ``StringIO``) is read as it is."""
    try:
        interactive = stream.isatty()
        descriptor = stream.fileno()
    except (OSError, ValueError, io.UnsupportedOperation, AttributeError):
        interactive = False
    if not interactive:
        return stream.readline()
    while True:
        ready, _, _ = select.select([descriptor], [], [], SIGNAL_CHECK_SECONDS)
        if ready:
            return stream.readline()


def compiling_text(share: float, seconds: float) -> str:
    """A status line while a solver's kernels compile, the first time on a machine (``solvers.kernels_ready``)."""
    from solvers.kernels_ready import time_left_words

    return f"compiling the solver once (the first time on this machine): {share:.0%}{time_left_words(share, seconds)}"


class StatusLine:
    """How far a long job has come, on one line of stderr: written only on a terminal (pipes and JSON stay clean)
    and only once the job has run ``delay`` seconds (a quick one writes nothing); ``clear`` (or leaving the
    ``with`` block) wipes it. A shorter text is padded over a longer one; a text is cut at ``width``."""

    def __init__(self, delay: float = 0.5, width: int = 110) -> None:
        self.live = sys.stderr.isatty()
        self.delay = delay
        self.width = width
        self.started = time.monotonic()
        #: The widest text written so far (0: nothing on the line).
        self.shown = 0

    def show(self, text: str) -> None:
        if not self.live or time.monotonic() - self.started < self.delay:
            return
        text = text[: self.width]
        print(f"\r{text:<{self.shown}}", end="", file=sys.stderr, flush=True)
        self.shown = max(self.shown, len(text))

    def clear(self) -> None:
        if self.shown:
            print("\r" + " " * self.shown + "\r", end="", file=sys.stderr, flush=True)
            self.shown = 0

    def __enter__(self) -> StatusLine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.clear()
