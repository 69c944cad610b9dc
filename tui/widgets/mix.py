"""A mixed strategy as bars with percentages: one line per action, the bar's length carries the probability."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


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

    BAR_WIDTH = 20

    def show(self, title: str, labels: Iterable[str], probabilities: Iterable[float], keeps: Iterable[bool]) -> None:
        self.title = title
        self.labels = tuple(labels)
        self.probabilities = tuple(float(p) for p in probabilities)
        self.keeps = tuple(bool(k) for k in keeps)
        self.refresh(layout=True)

    def render(self) -> Text:
        bar_style = self.get_component_rich_style("mix--bar", partial=True)
        label_style = self.get_component_rich_style("mix--label", partial=True)
        star_style = self.get_component_rich_style("mix--star", partial=True)
        full, empty = ("#", ".") if self.ascii_mode else ("█", "·")
        text = Text(self.title + "\n", style=label_style, end="")
        width = max((len(label) for label in self.labels), default=0)
        # The bar takes what the label and the percentage leave, up to BAR_WIDTH (narrow terminals get shorter bars).
        bar_width = max(5, min(self.BAR_WIDTH, self.size.width - width - 9)) if self.size.width else self.BAR_WIDTH
        for index, (label, p) in enumerate(zip(self.labels, self.probabilities, strict=True)):
            filled = round(p * bar_width)
            text.append(f"{label:<{width}} ", style=label_style)
            text.append(full * filled, style=bar_style)
            text.append(empty * (bar_width - filled), style=star_style)
            text.append(f" {p * 100:5.1f}%", style=label_style)
            if index < len(self.keeps) and self.keeps[index]:
                text.append("  * keeps the value", style=star_style)
            text.append("\n", style=label_style)
        return text
