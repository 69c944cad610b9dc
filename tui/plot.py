"""Line plots as text, for the terminal and for the app: each series is drawn with its own letter, so the plot
reads without colour (and in plain ASCII), and a legend says which letter is which. Where series meet in one cell
the cell shows ``OVERLAP`` (``*``), and the legend says which series meet: one point drawn once, never letters
taking turns ("EBEBEB" read as a dotted line of its own).

A series is either a curve (one y per x step) or a level (a horizontal line, e.g. an exact expected score).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solvers.footstep_learning import LearningCurve


@dataclass(frozen=True)
class Series:
    label: str
    #: The letter drawn for this series' points.
    mark: str
    ys: Sequence[float]
    #: A horizontal line at ys[0] across the whole plot.
    level: bool = False


#: The mark of a cell two or more series share (``_overlap_mark`` picks another if a series uses it).
OVERLAP = "*"


def _overlap_mark(series: Sequence[Series]) -> str:
    used = {s.mark for s in series}
    return next(mark for mark in (OVERLAP, "#", "+", "@", "%") if mark not in used)


def overlap_legend(mark: str, groups: Sequence[str]) -> str:
    """What ``mark`` means: the series that meet in one cell (each group their letters, "EB")."""
    if not groups:
        return ""
    shown = "; ".join(f"{', '.join(group[:-1])} and {group[-1]}" for group in groups[:3])
    shown += "; ..." if len(groups) > 3 else ""
    return f"{mark}  {shown} in one cell"


def _tick(value: float) -> str:
    return f"{value:+.2f}"


def render(
    series: Sequence[Series],
    width: int = 60,
    height: int = 15,
    y_range: tuple[float, float] | None = None,
    x_label: str = "",
    x_max: float | None = None,
) -> list[str]:
    """The plot as lines of text: a y axis with ticks, the points, an x axis, and a legend.

    Curves are resampled to ``width`` columns (the mean of the points falling in each column). A cell two or more
    series fall in shows the overlap mark (``*``), and the legend says which series meet there: on the x label's
    line when there is one, else on a line of its own at the end.
    """
    width = max(10, width)
    height = max(3, height)
    values = [y for s in series for y in s.ys]
    lo, hi = y_range if y_range is not None else (min(values, default=0.0), max(values, default=1.0))
    if hi - lo < 1e-12:
        lo, hi = lo - 1.0, hi + 1.0
    # Each cell keeps the marks of the series drawn in it, in the order of ``series``.
    grid: list[list[list[str]]] = [[[] for _ in range(width)] for _ in range(height)]

    def row_of(y: float) -> int:
        fraction = (min(max(y, lo), hi) - lo) / (hi - lo)
        return height - 1 - round(fraction * (height - 1))

    def put(row: int, col: int, mark: str) -> None:
        if mark not in grid[row][col]:
            grid[row][col].append(mark)

    for s in series:
        if not s.ys:
            continue
        if s.level:
            r = row_of(s.ys[0])
            for col in range(width):
                put(r, col, s.mark)
            continue
        count = len(s.ys)
        for col in range(width):
            first = col * count // width
            last = max(first + 1, (col + 1) * count // width)
            chunk = s.ys[first:last]
            if chunk:
                put(row_of(sum(chunk) / len(chunk)), col, s.mark)
    overlap = _overlap_mark(series)
    groups: list[str] = []
    for cells in grid:
        for marks in cells:
            if len(marks) > 1 and "".join(marks) not in groups:
                groups.append("".join(marks))
    lines = []
    label_rows = {0: _tick(hi), height - 1: _tick(lo), (height - 1) // 2: _tick((hi + lo) / 2)}
    for r, cells in enumerate(grid):
        drawn = "".join(overlap if len(marks) > 1 else marks[0] if marks else " " for marks in cells)
        lines.append(f"{label_rows.get(r, ''):>6} |" + drawn)
    lines.append(" " * 7 + "+" + "-" * width)
    if x_max is not None:
        right = f"{x_max:g}"
        lines.append(" " * 8 + "0" + right.rjust(width - 1))
    meeting = overlap_legend(overlap, groups)
    if x_label:
        beside = f"{x_label}{' ' * 4}{meeting}" if meeting else x_label
        if meeting and len(beside) > width:  # no room beside the label: the legend's last line says it
            beside = x_label
        else:
            meeting = ""
        lines.append(" " * 8 + beside)
    for s in series:
        shown = f"{s.ys[0]:+.3f}" if s.level and s.ys else ""
        lines.append(f"  {s.mark}  {s.label}{'  ' + shown if shown else ''}")
    if meeting:
        lines.append(f"  {meeting}")
    return lines


#: Plot letters of Footstep's learning rules.
LEARNER_MARKS = {"reward": "R", "reproach": "P", "carrot-stick": "C"}


def learning_series(curves: Sequence[LearningCurve], equilibrium: float, best: float) -> list[Series]:
    """Footstep's learning curves (one series per rule, with its final mean and interval in the legend) and the
    exact scores of the equilibrium player and the best response against random: what ``nashplay learn footstep``
    and the app's learning screen plot."""
    from solvers.footstep_learning import RULE_TITLES

    series = [
        Series(
            f"{RULE_TITLES[c.config.rule]} (final {c.final_mean:+.3f}, "
            f"95% CI {c.final_ci95[0]:+.3f}..{c.final_ci95[1]:+.3f})",
            LEARNER_MARKS[c.config.rule],
            [float(v) for v in c.means],
        )
        for c in curves
    ]
    series.append(Series("equilibrium player vs random (exact)", "E", [equilibrium], level=True))
    series.append(Series("best response vs random (exact)", "B", [best], level=True))
    return series
