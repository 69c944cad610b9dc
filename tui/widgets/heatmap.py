"""A value matrix as a heat map: player 1's win probability per state, the current state bracketed.

Every cell prints its value (two decimals), so the colour only repeats what the digits say, and the current state is
marked by brackets, not by its colour. A matrix larger than the widget (n = 200 has 201 x 201 states) is shown as a
window around the current state, with its row and column numbers and a line saying which window it is.
"""

from __future__ import annotations

import numpy as np
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

#: The most rows of states shown; columns are as many as the width takes, up to the same number.
MAX_ROWS = 11
#: Columns of the row labels, and of each cell (``[.50]``: the value and room for the brackets).
LABEL_WIDTH, CELL_WIDTH = 6, 5


def _blend(value: float) -> str:
    """A colour from player 2's side (blue, 0) through grey (0.5) to player 1's side (orange, 1).

    The value is first rounded to the hundredths its cell prints: a solved value differs between machines in its last
    bits (another processor, another BLAS), and the colour must change only where the digits a person reads do."""
    value = round(value, 2)
    low, mid, high = np.array([59, 130, 246]), np.array([90, 90, 100]), np.array([245, 158, 11])
    rgb = mid + (high - mid) * (value - 0.5) * 2 if value >= 0.5 else mid + (low - mid) * (0.5 - value) * 2
    r, g, b = (int(c) for c in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


#: Values this close to 0 or 1 are sure results: the solver's own precision (a residual of 1e-9), so that a sure
#: win solved as ``0.9999999999999999`` on one machine and ``1.0`` on another reads the same.
SURE = 1e-9


def cell_text(value: float) -> str:
    """A probability in at most three characters: ``.26``, ``1``, ``0``; ``~1`` for a value below 1 that rounds to
    it (``1.00`` would not fit, and would claim a sure win)."""
    if value >= 1 - SURE:
        return "1"
    if value <= SURE:
        return "0"
    rounded = f"{value:.2f}"
    return "~1" if rounded == "1.00" else rounded.lstrip("0")


class HeatMap(Widget):
    DEFAULT_CSS = """
    HeatMap { height: auto; width: 1fr; }
    """

    values: reactive[np.ndarray | None] = reactive(None, layout=True, always_update=True)
    current: reactive[tuple[int, int]] = reactive((0, 0))
    #: The most rows of states shown (the screen lowers it on a small terminal).
    max_rows: reactive[int] = reactive(MAX_ROWS, layout=True)

    def _columns(self, width: int) -> int:
        return max(1, min(self.max_rows, (width - LABEL_WIDTH) // CELL_WIDTH))

    def _windows(self, width: int) -> tuple[range, range] | None:
        values = self.values
        if values is None:
            return None
        size = values.shape[0]
        i, j = self.current
        return self._window(i, size, self.max_rows), self._window(j, size, self._columns(width))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        windows = self._windows(width)
        if windows is None:
            return 2
        rows, _ = windows
        # The caption, the window line (when windowed), the column numbers, the rows, the legend.
        return 3 + len(rows) + (1 if self._windowed(*windows) else 0)

    def _windowed(self, rows: range, cols: range) -> bool:
        values = self.values
        return values is not None and (len(rows) < values.shape[0] or len(cols) < values.shape[1])

    def render(self) -> Text:
        text = Text(end="")
        width = self.size.width or 60
        label = Style(dim=True)
        caption = "Player 1's win probability (rows: player 1's points, columns: player 2's)"
        if len(caption) > width:
            caption = "P1's win chance (rows: P1's points, cols: P2's)"
        if len(caption) > width:
            caption = "P1's win chance (row P1, col P2)"
        text.append(caption[:width] + "\n", style="bold")
        windows = self._windows(width)
        if windows is None:
            text.append("solving...", style=Style(italic=True))
            return text
        rows, cols = windows
        size = self.values.shape[0] if self.values is not None else 0
        if self._windowed(rows, cols):
            where = f"rows {rows.start}-{rows.stop - 1}, columns {cols.start}-{cols.stop - 1} of 0-{size - 1}"
            if len(where) > width:
                where = f"rows {rows.start}-{rows.stop - 1}, cols {cols.start}-{cols.stop - 1} of 0-{size - 1}"
            text.append(where[:width] + "\n", style=label)
        i, j = self.current
        text.append("p1\\p2 ", style=label)
        text.append("".join(f"{c:^{CELL_WIDTH}}" for c in cols) + "\n", style=label)
        assert self.values is not None
        for r in rows:
            text.append(f"{r:>5} ", style=label)
            for c in cols:
                v = float(self.values[r, c])
                here = (r, c) == (i, j)
                cell = cell_text(v)
                shown = f"[{cell:^3}]" if here else f" {cell:^3} "
                style = Style(bgcolor=_blend(v), color="#ffffff", bold=here, underline=here)
                text.append(shown, style=style)
            text.append("\n", style=label)
        text.append(f"[ ] now: {i},{j}"[:width], style=label)
        return text

    @staticmethod
    def _window(centre: int, size: int, length: int) -> range:
        """``length`` indices around ``centre`` (all of them when they fit), kept inside ``0..size-1``."""
        if size <= length:
            return range(size)
        start = min(max(0, centre - length // 2), size - length)
        return range(start, start + length)
