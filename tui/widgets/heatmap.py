"""A value matrix as a heat map: player 1's win probability per state, the current state bracketed.

Every cell prints its value (two decimals), so the colour only repeats what the digits say. Large matrices are
shown as a window around the current state.
"""

from __future__ import annotations

import numpy as np
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

WINDOW = 11


def _blend(value: float) -> str:
    """A colour from player 2's side (blue, 0) through grey (0.5) to player 1's side (orange, 1)."""
    low, mid, high = np.array([59, 130, 246]), np.array([90, 90, 100]), np.array([245, 158, 11])
    rgb = mid + (high - mid) * (value - 0.5) * 2 if value >= 0.5 else mid + (low - mid) * (0.5 - value) * 2
    r, g, b = (int(c) for c in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


class HeatMap(Widget):
    DEFAULT_CSS = """
    HeatMap { height: auto; width: auto; }
    """

    values: reactive[np.ndarray | None] = reactive(None, layout=True, always_update=True)
    current: reactive[tuple[int, int]] = reactive((0, 0))

    def render(self) -> Text:
        text = Text(end="")
        values = self.values
        if values is None:
            text.append("solving...", style=Style(italic=True))
            return text
        size = values.shape[0]
        i, j = self.current
        rows = self._window(i, size)
        cols = self._window(j, size)
        label = Style(dim=True)
        text.append("p1\\p2 ", style=label)
        text.append("".join(f"{c:^6}" for c in cols) + "\n", style=label)
        for r in rows:
            text.append(f"{r:>5} ", style=label)
            for c in cols:
                v = float(values[r, c])
                cell = f"{v:.2f}".lstrip("0") if 0 < v < 1 else f"{v:.0f}"
                here = (r, c) == (i, j)
                shown = f"[{cell:^4}]" if here else f" {cell:^4} "
                style = Style(bgcolor=_blend(v), color="#ffffff", bold=here, underline=here)
                text.append(shown, style=style)
            text.append("\n", style=label)
        return text

    @staticmethod
    def _window(centre: int, size: int) -> range:
        if size <= WINDOW:
            return range(size)
        start = min(max(0, centre - WINDOW // 2), size - WINDOW)
        return range(start, start + WINDOW)
