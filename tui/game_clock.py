"""A chess clock for a local game: minutes plus an increment a move, each side's time running on its turn only, a
loss on time when it runs out. No Textual here: the screen ticks it and shows ``text``; the session switches it
after every move and keeps what is left in the record (``TimeControl`` and ``Clock`` tags), so a resumed game goes
on with the time each side had.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from core.errors import NotationError, quoted
from core.game import Side
from core.record import MAX_RECORD_MOVES

#: The record's tags: the time control ("300+3": seconds and increment) and each side's time left ("287.5,300").
TIME_CONTROL_TAG = "TimeControl"
CLOCK_TAG = "Clock"
#: The clocks the set-up screens offer (minutes each, plus seconds a move), "none" first; any other with ``--clock``.
OFFERED_CLOCKS = ("none", "3+2", "5+3", "10+5", "15+10")
#: The longest time control the app takes (a day) and the largest increment (an hour).
MAX_SECONDS, MAX_INCREMENT = 86_400.0, 3_600.0


def parse_time_control(text: str) -> tuple[float, float]:
    """``"5+3"`` (minutes, then seconds added after each move) as seconds: ``(300.0, 3.0)``. ``ValueError`` with a
    line for the user otherwise."""
    minutes, _, increment = text.strip().partition("+")
    try:
        seconds, extra = float(minutes) * 60, float(increment or 0)
    except ValueError:
        raise ValueError(f"a clock is minutes plus seconds a move, like 5+3, not {quoted(text)}") from None
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS and math.isfinite(extra)):
        raise ValueError(f"a clock's minutes are more than 0 and at most {MAX_SECONDS / 60:g}, not {quoted(text)}")
    if not 0 <= extra <= MAX_INCREMENT:
        raise ValueError(f"a clock's increment is 0..{MAX_INCREMENT:g} seconds, not {quoted(text)}")
    return seconds, extra


@dataclass
class GameClock:
    """Both sides' clocks: ``initial`` seconds each, ``increment`` added after each of one's moves."""

    initial: float
    increment: float
    left: dict[Side, float] = field(default_factory=dict)
    #: The side whose time runs, and since when (by ``now``); ``None``: stopped.
    running: Side | None = None
    since: float = 0.0
    now: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        for side in Side:
            self.left.setdefault(side, self.initial)

    def start(self, side: Side) -> None:
        """``side``'s time runs from now (the other's is stopped)."""
        self._settle()
        self.running, self.since = side, self.now()

    def moved(self, side: Side) -> None:
        """``side`` has moved: its time stops, with the increment added, and the other's runs."""
        self._settle()
        self.left[side] += self.increment
        self.start(side.other)

    def stop(self) -> None:
        self._settle()
        self.running = None

    def remaining(self, side: Side) -> float:
        spent = self.now() - self.since if self.running is side else 0.0
        return max(0.0, self.left[side] - spent)

    def flagged(self) -> Side | None:
        """The side whose time has run out, if any."""
        return next((side for side in Side if self.remaining(side) <= 0), None)

    def _settle(self) -> None:
        if self.running is not None:
            self.left[self.running] = self.remaining(self.running)
            self.since = self.now()

    # ---- text and tags

    @staticmethod
    def text(seconds: float) -> str:
        """``4:07``; tenths under 10 s (``9.4``, cut, never rounded up to ``10.0``), when every one counts; ``0:00``
        once the time is gone (a fallen flag), never a negative time."""
        if not seconds > 0:  # 0, a negative time, NaN: the flag has fallen
            return "0:00"
        if seconds < 10:
            return f"{math.floor(seconds * 10 + 1e-9) / 10:.1f}"
        whole = int(seconds)
        hours, rest = divmod(whole, 3600)
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{whole // 60}:{whole % 60:02d}"

    def control(self) -> str:
        """The time control as ``--clock`` takes it: ``"5+3"`` (minutes, then seconds a move)."""
        return f"{self.initial / 60:g}+{self.increment:g}"

    def line(self, names: Mapping[Side, str], first: Side) -> str:
        """``Clock:>you 4:59  sage 5:00``, ``first``'s clock first: the running side marked by ``>``, not by colour."""
        parts = [
            f"{'>' if side is self.running else ' '}{names[side]} {self.text(self.remaining(side))}"
            for side in (first, first.other)
        ]
        return "Clock:" + "  ".join(parts)

    def tags(self) -> dict[str, str]:
        return {
            TIME_CONTROL_TAG: f"{self.initial:g}+{self.increment:g}",
            CLOCK_TAG: ",".join(f"{self.remaining(side):.1f}" for side in Side),
        }

    @classmethod
    def from_tags(cls, tags: Mapping[str, str]) -> GameClock | None:
        """The clock a saved game was played with and the time each side had; ``None`` without one. Each tag is
        bounded as ``--clock`` is (``parse_time_control``): the control more than 0 and at most ``MAX_SECONDS``,
        the increment at most ``MAX_INCREMENT``; the time left finite, not negative, and at most the control with
        ``MAX_RECORD_MOVES`` increments (more than any game's moves, takebacks played again included).
        ``NotationError`` naming the tag for damaged ones (NaN, infinities, thousands of digits, negative times)."""
        control = tags.get(TIME_CONTROL_TAG)
        if control is None:
            return None
        seconds, _, increment = control.partition("+")
        initial, extra = _seconds(seconds), _seconds(increment or "0")
        if initial is None or extra is None or not 0 < initial <= MAX_SECONDS or not 0 <= extra <= MAX_INCREMENT:
            raise NotationError(
                f"the {TIME_CONTROL_TAG} tag is seconds (more than 0, at most {MAX_SECONDS:g}) plus seconds a move "
                f"(0..{MAX_INCREMENT:g}), like 300+3, not {quoted(control)}"
            )
        most = initial + extra * MAX_RECORD_MOVES
        text = tags.get(CLOCK_TAG)
        parts = [initial, initial] if text is None else [_seconds(part) for part in text.split(",", 2)]
        left = [part for part in parts if part is not None and 0 <= part <= most]
        if text is not None and (len(left) != 2 or len(parts) != 2):
            raise NotationError(
                f"the {CLOCK_TAG} tag is each side's seconds left (0..{most:g}), comma-separated, not {quoted(text)}"
            )
        clock = cls(initial, extra)
        clock.left = {Side.P1: left[0], Side.P2: left[1]}
        return clock


#: The longest number of seconds a clock's tag holds ("86400.0", "0.00001", "1e-05"): a longer one is damaged, and
#: is refused before it is converted.
_MAX_SECONDS_TEXT = 24


def _seconds(text: str) -> float | None:
    """A number of seconds in a clock's tag, finite; ``None`` for anything else (too long, not a number, NaN,
    infinite)."""
    if len(text) > _MAX_SECONDS_TEXT:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None
