"""A mixed strategy as bars with percentages: one line per action, the bar's length carries the probability."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget


def shown_share(p: float) -> float:
    """A probability as drawn: in tenths of a percent (what the line prints), within 0 and 1. A solved mix differs
    between machines in its last bits (another processor, another BLAS) and an LP may give ``-1e-17`` for 0: the bar
    and the digits follow the printed value only (50% on a bar of 5 cells is 2.5 cells either way, never ``-0.0%``)."""
    return max(0.0, min(1.0, round(p * 1000) / 1000))


class MixBars(Widget):
    DEFAULT_CSS = """
    MixBars { height: auto; width: 1fr; }
    MixBars > .mix--bar { color: $accent; }
    MixBars > .mix--label { color: $text; }
    MixBars > .mix--star { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"mix--bar", "mix--label", "mix--star"}

    title: reactive[str] = reactive("")
    labels: reactive[tuple[str, ...]] = reactive(())
    probabilities: reactive[tuple[float, ...]] = reactive(())
    #: Per action: keeps the value whatever the opponent does (drawn with a mark, not only a colour).
    keeps: reactive[tuple[bool, ...]] = reactive(())
    ascii_mode: reactive[bool] = reactive(False)
    #: The most action lines shown (``None``: all): the least likely ones beyond it are summed up in one line, so a
    #: long mix never pushes the screen's other parts off a small terminal.
    max_lines: reactive[int | None] = reactive(None, layout=True)

    BAR_WIDTH = 20
    #: What a line takes besides its label and its bar: the blank after the label, `` 100.0%`` and `` *``.
    LINE_CHROME = 10

    def show(self, title: str, labels: Iterable[str], probabilities: Iterable[float], keeps: Iterable[bool]) -> None:
        self.title = title
        self.labels = tuple(labels)
        self.probabilities = tuple(float(p) for p in probabilities)
        self.keeps = tuple(bool(k) for k in keeps)
        self.refresh(layout=True)

    def _shown(self) -> tuple[list[int], int]:
        """The indices of the actions drawn (in their order), and how many are left out."""
        count = len(self.labels)
        limit = self.max_lines
        if limit is None or count <= limit:
            return list(range(count)), 0
        keep = max(1, limit - 1)  # one line says what was left out
        likeliest = sorted(range(count), key=lambda i: -self.probabilities[i])[:keep]
        return sorted(likeliest), count - keep

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if not self.title and not self.labels:
            return 0
        shown, left_out = self._shown()
        return 1 + len(shown) + (1 if left_out else 0)

    def render(self) -> Text:
        bar_style = self.get_component_rich_style("mix--bar", partial=True)
        label_style = self.get_component_rich_style("mix--label", partial=True)
        star_style = self.get_component_rich_style("mix--star", partial=True)
        full, empty = ("#", ".") if self.ascii_mode else ("█", "·")
        width = self.size.width or 60
        title = self.title
        if any(self.keeps):
            for legend in (" (* keeps the value)", " (* keeps value)"):
                if len(title + legend) <= width:
                    title += legend
                    break
        text = Text(title, style=label_style, end="")
        label_width = max((len(label) for label in self.labels), default=0)
        # The bar takes what the label and the percentage leave, up to BAR_WIDTH (narrow terminals get shorter bars).
        bar_width = max(5, min(self.BAR_WIDTH, width - label_width - self.LINE_CHROME))
        shown, left_out = self._shown()
        for index in shown:
            label, p = self.labels[index], shown_share(self.probabilities[index])
            filled = round(p * bar_width)
            text.append("\n")
            text.append(f"{label:<{label_width}} ", style=label_style)
            text.append(full * filled, style=bar_style)
            text.append(empty * (bar_width - filled), style=star_style)
            text.append(f" {p * 100:5.1f}%", style=label_style)
            if index < len(self.keeps) and self.keeps[index]:
                text.append(" *", style=star_style)
        if left_out:
            rest = shown_share(sum(p for i, p in enumerate(self.probabilities) if i not in shown))
            text.append(f"\n... {left_out} more, {rest * 100:.1f}% in all", style=star_style)
        return text
