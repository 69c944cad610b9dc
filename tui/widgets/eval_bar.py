"""The evaluation bar beside the board: the user's chance to win (a search's estimate), or the exact value where
the game is solved, filled from the bottom. A mark under the figure says where it comes from when that matters:
``TB`` once a Geister game is in the endgame tables (the figure is then exact, or the tables prove no result).

The fill is drawn with two glyphs (full and empty cells), and the figure is written above it, so the bar reads
without colour. It only draws what the screen gives it.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from tui.theme import UNICODE, Glyphs

#: Columns: the figure ("100%", "W 3") and the bar under it.
BAR_WIDTH = 4


class EvalBar(Widget):
    """``fraction``: how full (0 to 1; ``None`` hides the fill); ``label``: the figure shown above the bar;
    ``mark``: a word under it (``TB``: the endgame tables)."""

    COMPONENT_CLASSES = {"eval-bar--full", "eval-bar--empty", "eval-bar--label", "eval-bar--mark"}
    DEFAULT_CSS = """
    EvalBar { width: 4; height: 1fr; }
    EvalBar > .eval-bar--full { color: $success; }
    EvalBar > .eval-bar--empty { color: $panel-lighten-2; }
    EvalBar > .eval-bar--label { color: $text; text-style: bold; }
    EvalBar > .eval-bar--mark { color: $accent; text-style: bold reverse; }
    """

    fraction: reactive[float | None] = reactive(None)
    label: reactive[str] = reactive("")
    mark: reactive[str] = reactive("")

    def __init__(self, glyphs: Glyphs = UNICODE, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.glyphs = glyphs

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return BAR_WIDTH

    def show(self, fraction: float | None, label: str, mark: str = "") -> None:
        self.fraction = None if fraction is None else min(1.0, max(0.0, fraction))
        self.label = label
        self.mark = mark

    def render(self) -> Text:
        text = Text(no_wrap=True, end="")
        height = self.content_size.height
        text.append(self.label[:BAR_WIDTH].center(BAR_WIDTH), style=self.get_component_rich_style("eval-bar--label"))
        cells = max(0, height - 1)
        if self.mark and cells > 1:
            text.append("\n")
            text.append(self.mark[:BAR_WIDTH].center(BAR_WIDTH), style=self.get_component_rich_style("eval-bar--mark"))
            cells -= 1
        if cells == 0:
            return text
        filled = 0 if self.fraction is None else round(self.fraction * cells)
        full = self.get_component_rich_style("eval-bar--full")
        empty = self.get_component_rich_style("eval-bar--empty")
        for row in range(cells):
            text.append("\n")
            if self.fraction is None:
                text.append(" " * BAR_WIDTH)
            elif cells - row <= filled:
                text.append(f" {self.glyphs.bar_full * 2} ", style=full)
            else:
                text.append(f" {self.glyphs.bar_empty * 2} ", style=empty)
        return text
