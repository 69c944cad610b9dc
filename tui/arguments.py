"""The checked number types of every numeric command-line option: bounded, refusing NaN and the infinities by
name, and refusing a number of thousands of digits before converting it.

Below the game catalogue (``tui.games``, whose ``play`` options use them) and the commands (``tui.cli``).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from typing import Any

from core.errors import clipped, quoted
from core.game_type import MAX_SEED, Parameter

_WHOLE = re.compile(r"[+-]?\d+")


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


def parameter_type(parameter: Parameter) -> Callable[[str], Any]:
    """The argparse ``type`` of a game's parameter (``core.game_type.Parameter``): a checked whole or real number
    within its limits, or its own parser, whose one-line message argparse prints."""
    if parameter.kind == "whole" and parameter.limits is not None:
        return whole_number(int(parameter.limits[0]), int(parameter.limits[1]), parameter.unit)
    if parameter.kind == "real" and parameter.limits is not None:
        return real_number(parameter.limits[0], parameter.limits[1], parameter.unit)

    def parse(text: str) -> Any:
        try:
            return parameter.parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    parse.__name__ = parameter.name
    return parse


def add_parameter_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup, parameter: Parameter) -> None:
    """``--NAME`` for a game's parameter: a switch for a flag, else a value read by ``parameter_type``; not given,
    it is ``None`` (``parameter_value`` gives the default then)."""
    option = f"--{parameter.name}"
    if parameter.flag:
        parser.add_argument(option, action="store_true", default=None, help=parameter.help)
        return
    parser.add_argument(option, type=parameter_type(parameter), metavar=parameter.metavar, help=parameter.help)


def add_parameter_with_default(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup, parameter: Parameter, note: str = ""
) -> None:
    """``--NAME`` for a game's parameter with its default filled in (``args.NAME`` is the value, given or not):
    the parameter's help, then ``note`` (what the command adds, such as the source's own size)."""
    help_text = parameter.help + (f"; {note}" if note else "")
    if parameter.flag:
        parser.add_argument(f"--{parameter.name}", action="store_true", help=help_text)
        return
    parser.add_argument(
        f"--{parameter.name}",
        type=parameter_type(parameter),
        default=parameter.default,
        metavar=parameter.metavar,
        help=help_text,
    )


def parameter_value(args: argparse.Namespace, parameter: Parameter) -> Any:
    """The value the command line gave a parameter's option, or its default."""
    given = getattr(args, parameter.name, None)
    return parameter.default if given is None else given
