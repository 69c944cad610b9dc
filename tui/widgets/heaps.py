"""Nim on screen: the heaps as rows of stones, and the advice panel that explains the Sprague-Grundy verdict.

Colour never carries meaning alone: the chosen heap has a ``>``, the stones a move would remove are drawn with a
different glyph, and the nim-sum's 1-columns have a ``^`` under them as well as a highlight.
"""

from __future__ import annotations

import io
import textwrap

from rich.console import Console
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from solvers.grundy import Analysis, binary_rows

#: (normal, ASCII) glyphs: a stone, and a stone the chosen move would remove.
STONE = ("●", "o")
TAKEN = ("○", "x")
#: Rich's word wrapping wants a console (for nothing it prints here).
_CONSOLE = Console(file=io.StringIO(), width=200)
#: How many winning moves the panel lists before it says "and N more".
MOVES_SHOWN = 8

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


class AdvicePanel(Widget):
    """Each heap's Grundy value, the nim-sum in binary under them with its 1-columns marked, and what to play."""

    COMPONENT_CLASSES = {"advice--title", "advice--label", "advice--hot", "advice--good", "advice--bad"}

    DEFAULT_CSS = """
    AdvicePanel { height: auto; }
    AdvicePanel > .advice--title { color: $text; text-style: bold; }
    AdvicePanel > .advice--label { color: $text; }
    AdvicePanel > .advice--hot { color: $accent; text-style: bold reverse; }
    AdvicePanel > .advice--good { color: $success; text-style: bold; }
    AdvicePanel > .advice--bad { color: $warning; text-style: bold; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.analysis: Analysis | None = None
        self.mover = "The player to move"
        self.note = ""

    def show(self, analysis: Analysis | None, mover: str, note: str = "") -> None:
        """``mover`` names the player to move ("You", "Player 2"); ``note`` replaces the verdict (e.g. while the
        analysis is being worked out)."""
        self.analysis, self.mover, self.note = analysis, mover, note
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._draw(width).plain.split("\n"))

    def render(self) -> Text:
        return self._draw(self.size.width or 44)

    def _draw(self, width: int) -> Text:
        """The panel for ``width`` columns: the table as it is, the explanations broken at words into lines of
        that width (never wrapped by the terminal)."""
        title = self.get_component_rich_style("advice--title", partial=True)
        label = self.get_component_rich_style("advice--label", partial=True)
        self._width = width
        text = Text("Advice", style=title, end="")
        text.append("  (a hides it)\n", style=label)
        analysis = self.analysis
        if analysis is None:
            text.append(self._wrapped(self.note or "Working out the advice..."), style=label)
            return text
        self._table(text, analysis)
        text.append("\n", style=label)
        self._verdict(text, analysis)
        text.rstrip()
        return text

    def _wrapped(self, prose: str, first: int = 0) -> str:
        """``prose`` broken at words into lines of the panel's width (the first line starting at ``first``)."""
        lines = textwrap.wrap(" " * first + prose, max(10, self._width), break_on_hyphens=False)
        return "\n".join(lines)[first:] if lines else ""

    def _table(self, text: Text, analysis: Analysis) -> None:
        label = self.get_component_rich_style("advice--label", partial=True)
        hot = self.get_component_rich_style("advice--hot", partial=True)
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

    def _verdict(self, panel: Text, analysis: Analysis) -> None:
        """What to play, as prose broken at words into lines of the panel's width."""
        text = Text(end="")
        self._verdict_prose(text, analysis)
        for paragraph in text.split("\n"):
            panel.append_text(Text("\n", end="").join(paragraph.wrap(_CONSOLE, max(10, self._width))))
            panel.append("\n")

    def _verdict_prose(self, text: Text, analysis: Analysis) -> None:
        label = self.get_component_rich_style("advice--label", partial=True)
        good = self.get_component_rich_style("advice--good", partial=True)
        bad = self.get_component_rich_style("advice--bad", partial=True)
        if analysis.misere:
            text.append("Misere play (taking the last stone loses): decided by ", style=label)
            text.append(METHODS.get(analysis.method, analysis.method) + ".\n", style=label)
        if not analysis.winning_moves and analysis.longest_move is None:
            text.append("The game is over: no move is left.", style=label)
            return
        if analysis.first_player_wins:
            if analysis.misere:
                text.append(f"{self.mover} can win. Winning moves: ", style=good)
            else:
                text.append(
                    f"{self.mover} can win: the nim-sum is {analysis.nim_sum}, not 0. "
                    "A winning move leaves nim-sum 0: ",
                    style=good,
                )
            shown = [move.to_text() for move in analysis.winning_moves[:MOVES_SHOWN]]
            more = len(analysis.winning_moves) - len(shown)
            text.append(", ".join(shown) + (f" and {more} more" if more > 0 else ""), style=good)
            return
        reason = "" if analysis.misere else " (the nim-sum is 0: after any move the other player can make it 0 again)"
        text.append(f"Every move loses against perfect play{reason}. ", style=bad)
        longest = analysis.longest_move
        if longest is None:
            return
        text.append(f"The move that keeps the game going longest: {longest.to_text()}", style=label)
        if analysis.remoteness is not None:
            text.append(
                f" (the game then lasts {analysis.remoteness} more plies, this one included, if the winner hurries).",
                style=label,
            )
        else:
            text.append(" (taking as little as possible; the position is too large to search exactly).", style=label)
