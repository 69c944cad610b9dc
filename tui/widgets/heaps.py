"""Nim on screen: the heaps as rows of stones, and the nim-sum table that explains the Sprague-Grundy verdict (the
advice itself is drawn by the shared panel, ``tui.widgets.advice``).

Colour never carries meaning alone: the chosen heap has a ``>``, the stones a move would remove are drawn with a
different glyph, and the nim-sum's 1-columns have a ``^`` under them as well as a highlight.
"""

from __future__ import annotations

import textwrap

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from core.impartial import MAX_PLAYED_HEAP
from solvers.grundy import Analysis, binary_rows

#: (normal, ASCII) glyphs: a stone, and a stone the chosen move would remove.
STONE = ("●", "o")
TAKEN = ("○", "x")
#: The narrowest table that still spells out Bouton's misere rule (a compact screen's does not).
MISERE_RULE_WIDTH = 40

METHODS = {
    "sprague-grundy": "Sprague-Grundy: the xor of the heaps' Grundy values (0 means the player to move loses)",
    "misere nim": "Bouton's misere Nim rule: play as in normal Nim until every heap left would have at most 1 "
    "stone, then leave an odd number of 1-stone heaps",
    "search": "an exact game-tree search (Grundy values decide normal play only, not misere play)",
}


class HeapRows(Widget):
    """One row per heap, numbered from 1: ``>`` marks the chosen heap, the run the move would remove is drawn
    with ``TAKEN`` glyphs (for a take-and-break split with nothing taken, a ``|`` shows where the heap breaks)."""

    COMPONENT_CLASSES = {"heaps--stone", "heaps--taken", "heaps--cursor", "heaps--label"}

    DEFAULT_CSS = """
    HeapRows { height: auto; width: 1fr; }
    HeapRows > .heaps--stone { color: $accent; text-style: bold; }
    HeapRows > .heaps--taken { color: $text-muted; }
    HeapRows > .heaps--cursor { color: $text; text-style: bold; }
    HeapRows > .heaps--label { color: $text-muted; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.heaps: tuple[int, ...] = ()
        self.selected = 0
        self.take = 0
        self.run_start = 0
        #: False while no move is being chosen (the game is over, or the AI is to move): no run is drawn.
        self.active = True
        self.ascii_mode = False

    def show(self, heaps: tuple[int, ...], selected: int, take: int, run_start: int, active: bool) -> None:
        self.heaps, self.selected, self.take, self.run_start, self.active = heaps, selected, take, run_start, active
        self.refresh(layout=True)

    def render(self) -> Text:
        stone = self.get_component_rich_style("heaps--stone", partial=True)
        taken = self.get_component_rich_style("heaps--taken", partial=True)
        cursor = self.get_component_rich_style("heaps--cursor", partial=True)
        label = self.get_component_rich_style("heaps--label", partial=True)
        glyph, taken_glyph = (STONE[1], TAKEN[1]) if self.ascii_mode else (STONE[0], TAKEN[0])
        biggest = max(self.heaps, default=0)
        if biggest > max(MAX_PLAYED_HEAP, (self.size.width or 80) - 11):
            return self._counted(glyph, taken_glyph)
        # A blank between stones where the row has room for it (the marker, number and count take 11 columns).
        gap = " " if biggest <= 15 and 2 * biggest + 11 <= (self.size.width or 80) else ""
        width = max(biggest * (1 + len(gap)), len("empty"))
        text = Text(end="")
        for index, size in enumerate(self.heaps):
            chosen = index == self.selected
            if index:
                text.append("\n", style=label)
            text.append("> " if chosen else "  ", style=cursor if chosen else label)
            text.append(f"{index + 1:>2}  ", style=cursor if chosen else label)
            drawn = 0
            if size == 0:
                text.append("empty", style=label)
                drawn = len("empty")
            for k in range(size):
                if chosen and self.active and self.take == 0 and k == self.run_start and k:
                    text.append("|", style=taken)
                    drawn += 1
                removed = chosen and self.active and self.run_start <= k < self.run_start + self.take
                text.append(taken_glyph if removed else glyph, style=taken if removed else stone)
                text.append(gap, style=label)
                drawn += 1 + len(gap)
            text.append(" " * max(0, width + 1 - drawn), style=label)
            text.append(f" {size:>2}", style=cursor if chosen else label)
        return text

    def _counted(self, glyph: str, taken_glyph: str) -> Text:
        """The rows as counts, for heaps too big to draw stone by stone (a record's may hold 100,000 stones: a glyph
        each was a hundred thousand segments a heap, redrawn on every step): "> 1  ● 99,995 + ○ 5 taken = 100,000"."""
        stone = self.get_component_rich_style("heaps--stone", partial=True)
        taken = self.get_component_rich_style("heaps--taken", partial=True)
        cursor = self.get_component_rich_style("heaps--cursor", partial=True)
        label = self.get_component_rich_style("heaps--label", partial=True)
        text = Text(end="")
        for index, size in enumerate(self.heaps):
            chosen = index == self.selected
            if index:
                text.append("\n", style=label)
            text.append("> " if chosen else "  ", style=cursor if chosen else label)
            text.append(f"{index + 1:>2}  ", style=cursor if chosen else label)
            if size == 0:
                text.append("empty", style=label)
                continue
            removed = min(self.take, size) if chosen and self.active else 0
            text.append(f"{glyph} {size - removed:,}", style=stone)
            if removed:
                text.append(" + ", style=label)
                text.append(f"{taken_glyph} {removed:,} taken", style=taken)
                text.append(f" = {size:,}", style=label)
            elif chosen and self.active and self.run_start:
                text.append(f" (splits after {self.run_start:,})", style=taken)
        return text


class NimSumTable(Widget):
    """Why the advice is what it is, Nim's way: each heap's Grundy value, the nim-sum in binary under them with its
    1-columns marked (the advice itself is the shared ``tui.widgets.advice.AdvicePanel``'s)."""

    COMPONENT_CLASSES = {"nimsum--title", "nimsum--label", "nimsum--hot"}

    DEFAULT_CSS = """
    NimSumTable { height: auto; }
    NimSumTable > .nimsum--title { color: $text; text-style: bold; }
    NimSumTable > .nimsum--label { color: $text; }
    NimSumTable > .nimsum--hot { color: $accent; text-style: bold reverse; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.analysis: Analysis | None = None

    def show(self, analysis: Analysis | None) -> None:
        self.analysis = analysis
        self.display = analysis is not None
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._draw(width).plain.split("\n"))

    def render(self) -> Text:
        return self._draw(self.size.width or 44)

    def _draw(self, width: int) -> Text:
        """The table for ``width`` columns, its explanations broken at words into lines of that width (never
        wrapped by the terminal)."""
        title = self.get_component_rich_style("nimsum--title", partial=True)
        label = self.get_component_rich_style("nimsum--label", partial=True)
        self._width = width
        analysis = self.analysis
        if analysis is None:
            return Text(end="")
        text = Text("Why: the nim-sum\n", style=title, end="")
        self._table(text, analysis)
        if analysis.misere and analysis.method == "misere nim" and self._width >= MISERE_RULE_WIDTH:
            # The panel above names the method; Bouton's rule itself is worth its words where there is room.
            text.append(self._wrapped(f"Misere play: {METHODS['misere nim']}."), style=label)
        text.rstrip()
        return text

    def _wrapped(self, prose: str) -> str:
        """``prose`` broken at words into lines of the table's width."""
        return "\n".join(textwrap.wrap(prose, max(10, self._width), break_on_hyphens=False))

    def _table(self, text: Text, analysis: Analysis) -> None:
        label = self.get_component_rich_style("nimsum--label", partial=True)
        hot = self.get_component_rich_style("nimsum--hot", partial=True)
        rows, total, columns = binary_rows(analysis)
        width = max(len(total), len("binary"))
        pad = " " * (width - len(total))
        text.append(f"{'heap':>4} {'stones':>6} {'Grundy':>6}  {'binary':>{width}}\n", style=label)

        def bits(row: str) -> None:
            text.append(pad, style=label)
            for bit, marked in zip(row, columns, strict=True):
                text.append(bit, style=hot if marked else label)
            text.append("\n", style=label)

        for number, (size, grundy, row) in enumerate(zip(analysis.heaps, analysis.grundy, rows, strict=True), 1):
            text.append(f"{number:>4} {size:>6} {grundy:>6}  ", style=label)
            bits(row)
        text.append(f"{'nim-sum':<11} {analysis.nim_sum:>6}  ", style=label)
        bits(total)
        if any(columns):
            marks = "".join("^" if marked else " " for marked in columns).rstrip()
            text.append(" " * (4 + 1 + 6 + 1 + 6 + 2) + pad, style=label)
            text.append(marks + "\n", style=hot)
            explained = "^ marks the columns with an odd number of 1s (they make the nim-sum non-zero)"
            text.append(self._wrapped(explained) + "\n", style=label)
        else:
            text.append(self._wrapped("Every column has an even number of 1s: the nim-sum is 0") + "\n", style=label)
