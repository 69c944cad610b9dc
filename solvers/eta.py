"""Time left in a solve, from the share of it done so far and the time it has taken: what a progress line says
beside its percentage ("about 12 s left"). Plain arithmetic, no UI: the app's bar and the commands' status lines
both use it."""

from __future__ import annotations

import time
from collections.abc import Callable

#: Below this share done the rate is too young to tell the time left from.
MIN_SHARE = 0.02


class TimeLeft:
    """Started with the solve; ``text(share_done)`` is its estimate, ``""`` while there is nothing to go on."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self.started = now()

    def seconds(self, share_done: float) -> float | None:
        """Seconds left at the rate so far, ``None`` too early to tell (or done)."""
        if not MIN_SHARE <= share_done < 1:
            return None
        elapsed = self.now() - self.started
        return elapsed * (1 - share_done) / share_done

    def text(self, share_done: float) -> str:
        left = self.seconds(share_done)
        if left is None:
            return ""
        if left < 1:
            return "under a second left"
        if left < 90:
            return f"about {left:.0f} s left"
        return f"about {left / 60:.0f} min left"
