"""What every ``nashplay`` command shares: the parser (one-line errors), the checked number types every numeric
option uses, the display options, and opening the app on what a command asked for.

Imports nothing heavy: ``nashplay --help`` and argument errors must answer at once.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from core.errors import QUOTE_LIMIT, clipped, quoted

if TYPE_CHECKING:
    from tui.app import StartRequest

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


_WHOLE = re.compile(r"[+-]?\d+")
#: Seeds are whole numbers 0 .. 2**63 - 1: numpy's generators refuse negative seeds, and 63 bits suit every
#: generator the players use.
MAX_SEED = 2**63 - 1


def whole_number(low: int, high: int, unit: str = "") -> Callable[[str], int]:
    """An argparse ``type``: a whole number in ``low..high`` (both included), checked for its length before it is
    converted, so that a number of thousands of digits is refused, not converted. ``unit`` names what is counted
    in the message (``"games"``)."""
    bound = f"{low:,}..{high:,}" if high != MAX_SEED else f"{low:,} or more (below 2**63)"
    what = f"{bound} {unit}".rstrip()
    longest = len(str(max(abs(low), abs(high))))

    def parse(text: str) -> int:
        cleaned = text.strip()
        if _WHOLE.fullmatch(cleaned) is None:
            raise argparse.ArgumentTypeError(f"expected a whole number, {what}, not {quoted(text)}")
        # Leading zeros do not count; anything longer than the bound's own digits is out of range.
        if len(cleaned.lstrip("+-").lstrip("0")) > longest:
            raise argparse.ArgumentTypeError(f"must be {what}, not {clipped(cleaned)}")
        value = int(cleaned)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {what}, not {value}")
        return value

    return parse


def real_number(
    low: float, high: float, unit: str = "", low_open: bool = False, high_open: bool = False
) -> Callable[[str], float]:
    """An argparse ``type``: a finite number from ``low`` to ``high``, each end included unless ``low_open`` /
    ``high_open``. NaN and the infinities are refused by name: every comparison with NaN is false, so a range check
    alone would let it in."""
    if low_open or high_open:
        what = f"in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'} {unit}".rstrip()
    else:
        what = f"from {low:g} to {high:g} {unit}".rstrip()

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number {what}, not {quoted(text)}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a finite number {what}, not {value}")
        too_low = value < low or (low_open and value == low)
        too_high = value > high or (high_open and value == high)
        if too_low or too_high:
            raise argparse.ArgumentTypeError(f"must be {what}, not {clipped(text.strip())}")
        return value

    return parse


#: ``--seed`` of every command that takes one.
seed_number = whole_number(0, MAX_SEED)


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
