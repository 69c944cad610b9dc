"""The value of a game ply by ply as a terminal plot: one column of bars per ply, filled from the bottom of the
value range up to the value, so the height carries the value (never the colour).

Unicode mode fills the top cell of a bar in eighths (``▁▂▃▄▅▆▇█``); ASCII mode draws ``_``, ``=`` and ``#``. A dotted
line marks the middle of the range (an even game), the y axis has the range's ends and middle as labels, the x axis
the first and last ply, and the chosen ply has a ``^`` under its column. ``plot_lines`` is the drawing itself,
a pure function of its arguments; ``ValueGraph`` draws it at the widget's size.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

#: A bar's top cell by how many eighths of it are filled (0 to 8).
UNICODE_FILLS = " ▁▂▃▄▅▆▇█"
ASCII_FILLS = " __===###"


def axis_labels(low: float, high: float, labels: tuple[str, str, str] | None) -> tuple[str, str, str]:
    """The y axis's labels at the top, middle and bottom: ``labels``, or the numbers."""
    return labels or (f"{high:g}", f"{(low + high) / 2:g}", f"{low:g}")


def plot_lines(
    values: Sequence[float | None],
    low: float,
    high: float,
    width: int,
    height: int,
    *,
    ascii_mode: bool = False,
    marked: int | None = None,
    labels: tuple[str, str, str] | None = None,
) -> list[str]:
    """The plot of ``values`` (one per ply, ``None`` where there is none) on the range ``low``..``high`` in
    ``width`` columns and ``height`` rows of bars, then the x axis and its labels (``height + 2`` lines in all).

    ``labels``: the y axis's labels at the top, middle and bottom (by default the numbers). With more values than
    columns a column shows the mean of the values it covers; with fewer, each value gets up to 4 columns.
    ``marked``: the index of the value whose column gets the ``^``.
    """
    height = max(1, height)
    top, middle, bottom = axis_labels(low, high, labels)
    label_width = max(len(top), len(middle), len(bottom))
    plot_width = max(1, width - label_width - 2)
    count = len(values)
    fills = ASCII_FILLS if ascii_mode else UNICODE_FILLS
    dot, bar, axis, corner, mark = (".", "|", "-", "+", "^") if ascii_mode else ("·", "│", "─", "└", "▲")
    # Which values each column shows: one value over up to 4 columns, or several values in one column.
    per_value = max(1, min(4, plot_width // count)) if count else 1
    columns: list[tuple[int, int]] = []  # the values [first, last) a column shows
    if count and count * per_value <= plot_width:
        columns = [(i, i + 1) for i in range(count) for _ in range(per_value)]
    elif count:
        for column in range(plot_width):
            first = column * count // plot_width
            columns.append((first, max(first + 1, (column + 1) * count // plot_width)))
    eighths: list[int | None] = []
    span = (high - low) or 1.0
    for first, last in columns:
        known = [v for v in values[first:last] if v is not None]
        if not known:
            eighths.append(None)
            continue
        # Rounded to millionths first: a solved value's last bits differ between machines, and a bar's height must
        # not (a share of exactly half an eighth would round either way).
        share = round((sum(known) / len(known) - low) / span, 6)
        # At least one eighth: a value at the very bottom still shows, as distinct from no value.
        eighths.append(max(1, round(min(1.0, max(0.0, share)) * height * 8)))
    # The row holding the middle of the range (with an even height, the row just above the middle line).
    middle_row = height - 1 - min(height - 1, height * 4 // 8)
    lines: list[str] = []
    for row in range(height):
        floor = (height - 1 - row) * 8
        label = top if row == 0 else bottom if row == height - 1 else middle if row == middle_row else ""
        cells = []
        for level in eighths:
            fill = 0 if level is None else max(0, min(8, level - floor))
            cells.append(fills[fill] if fill else (dot if row == middle_row else " "))
        lines.append(f"{label:>{label_width}} {bar}" + "".join(cells))
    under = [mark if marked is not None and first <= marked < last else axis for first, last in columns]
    lines.append(" " * label_width + " " + corner + "".join(under) + axis * (plot_width - len(columns)))
    if count == 1:
        lines.append(" " * (label_width + 2) + "0")
    elif count:
        first_label, last_label = "0", str(count - 1)
        room = max(len(columns), len(first_label) + len(last_label) + 1)
        lines.append(" " * (label_width + 2) + first_label + last_label.rjust(room - len(first_label)))
    else:
        lines.append(" " * (label_width + 2) + "no values")
    return lines


class ValueGraph(Widget):
    """``plot_lines`` at the widget's size, under a title line."""

    DEFAULT_CSS = """
    ValueGraph { height: 9; width: 1fr; }
    ValueGraph > .graph--bars { color: $accent; }
    ValueGraph > .graph--axis { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"graph--bars", "graph--axis"}

    #: The title's wordings, most detailed first: the first that fits the widget's width is drawn (at every size).
    titles: reactive[tuple[str, ...]] = reactive(())
    values: reactive[tuple[float | None, ...]] = reactive(())
    value_range: reactive[tuple[float, float]] = reactive((0.0, 1.0))
    labels: reactive[tuple[str, str, str] | None] = reactive(None)
    marked: reactive[int | None] = reactive(None)
    ascii_mode: reactive[bool] = reactive(False)

    def show(
        self,
        titles: str | Sequence[str],
        values: Sequence[float | None],
        value_range: tuple[float, float],
        labels: tuple[str, str, str] | None = None,
    ) -> None:
        """``titles``: the title, or its wordings most detailed first."""
        self.titles = (titles,) if isinstance(titles, str) else tuple(titles)
        self.values, self.value_range, self.labels = tuple(values), value_range, labels

    def title_at(self, width: int) -> str:
        """The title drawn at ``width`` columns: the first wording that fits, else the last cut to the width."""
        return next(
            (title for title in self.titles if len(title) <= width), self.titles[-1][:width] if self.titles else ""
        )

    def render(self) -> Text:
        bars = self.get_component_rich_style("graph--bars", partial=True)
        axis = self.get_component_rich_style("graph--axis", partial=True)
        width, height = self.size.width or 60, self.size.height or 9
        text = Text(self.title_at(width), style=axis, end="")
        low, high = self.value_range
        lines = plot_lines(
            self.values,
            low,
            high,
            width,
            max(1, height - 3),
            ascii_mode=self.ascii_mode,
            marked=self.marked,
            labels=self.labels,
        )
        label_width = max(len(label) for label in axis_labels(low, high, self.labels)) + 2
        for number, line in enumerate(lines):
            text.append("\n")
            if number < len(lines) - 2:
                text.append(line[:label_width], style=axis)
                text.append(line[label_width:width], style=bars)
            else:
                text.append(line[:width], style=axis)
        return text
