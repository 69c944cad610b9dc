"""Line plots as text, for the terminal and for the app: each series is drawn with its own letter, so the plot
reads without colour (and in plain ASCII), and a legend says which letter is which.

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

    Curves are resampled to ``width`` columns (the mean of the points falling in each column). Where two series
    meet in one cell the later one in ``series`` wins, so list the exact levels last to keep them visible.
    """
    width = max(10, width)
    height = max(3, height)
    values = [y for s in series for y in s.ys]
    lo, hi = y_range if y_range is not None else (min(values, default=0.0), max(values, default=1.0))
    if hi - lo < 1e-12:
        lo, hi = lo - 1.0, hi + 1.0
    grid = [[" "] * width for _ in range(height)]

    def row_of(y: float) -> int:
        fraction = (min(max(y, lo), hi) - lo) / (hi - lo)
        return height - 1 - round(fraction * (height - 1))

    levels = [s for s in series if s.level and s.ys]
    for s in series:
        if not s.ys:
            continue
        if s.level:
            # Levels that share a row take turns column by column ("EBEB"), so none hides another.
            r = row_of(s.ys[0])
            sharing = [other for other in levels if row_of(other.ys[0]) == r]
            turn, turns = sharing.index(s), len(sharing)
            for col in range(turn, width, turns):
                grid[r][col] = s.mark
            continue
        count = len(s.ys)
        for col in range(width):
            first = col * count // width
            last = max(first + 1, (col + 1) * count // width)
            chunk = s.ys[first:last]
            if chunk:
                grid[row_of(sum(chunk) / len(chunk))][col] = s.mark
    lines = []
    label_rows = {0: _tick(hi), height - 1: _tick(lo), (height - 1) // 2: _tick((hi + lo) / 2)}
    for r, cells in enumerate(grid):
        lines.append(f"{label_rows.get(r, ''):>6} |" + "".join(cells))
    lines.append(" " * 7 + "+" + "-" * width)
    if x_max is not None:
        right = f"{x_max:g}"
        lines.append(" " * 8 + "0" + right.rjust(width - 1))
    if x_label:
        lines.append(" " * 8 + x_label)
    for s in series:
        shown = f"{s.ys[0]:+.3f}" if s.level and s.ys else ""
        lines.append(f"  {s.mark}  {s.label}{'  ' + shown if shown else ''}")
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
