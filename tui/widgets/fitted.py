"""A text in several wordings, most detailed first, drawn as the first that fits the width it is drawn at.

A screen that picks a line's wording for the terminal's width when it writes the line ("You lose: player 1 had too
few points for strong attack." or "You lose.") keeps that wording when the terminal is resized: a user who narrows it
sees the long wording wrap or get cut. ``Fitting`` holds every wording and chooses when it is drawn instead: Textual
asks a visual for its height at a width and draws it at that width at every layout, a resize included, so the choice
is made again by itself. ``Fitted`` is the ``Static`` that shows one (any ``Static`` can, but only ``Fitted`` lets the
mouse select the wording shown)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.content import Content
from textual.css.styles import RulesMap
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets import Static

Wording = str | Text | Content


def _content(wording: Wording) -> Content:
    if isinstance(wording, Content):
        return wording
    if isinstance(wording, Text):
        return Content.from_rich_text(wording)
    return Content(wording)  # a plain string: never markup (a message may quote what the user typed)


def fits(content: Content, width: int) -> bool:
    """Whether every line of ``content`` fits ``width`` columns (trailing blanks aside)."""
    return all(cell_len(line.rstrip()) <= width for line in content.plain.split("\n"))


class Fitting(Visual):
    """``wordings``, most detailed first: drawn as the first whose every line fits the width it is drawn at; the
    last (wrapped, as any text) when none does."""

    def __init__(self, *wordings: Wording) -> None:
        if not wordings:
            raise ValueError("a Fitting needs at least one wording")
        self.wordings = tuple(_content(wording) for wording in wordings)
        #: The wording drawn last (the first until it is drawn): what the widget shows now.
        self.shown = self.wordings[0]

    def choose(self, width: int) -> Content:
        """The wording drawn in ``width`` columns of text."""
        return next((wording for wording in self.wordings if fits(wording, width)), self.wordings[-1])

    @staticmethod
    def _room(rules: RulesMap, width: int) -> int:
        """The columns of text in ``width`` (``line-pad`` takes some on each side)."""
        return width - 2 * int(rules.get("line_pad", 0))

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        self.shown = self.choose(self._room(options.rules, width))
        return self.shown.render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.choose(self._room(rules, container_width)).get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return min(wording.get_minimal_width(rules) for wording in self.wordings)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.choose(self._room(rules, width)).get_height(rules, width)

    def __str__(self) -> str:
        return self.shown.plain


class Fitted(Static):
    """A ``Static`` for a ``Fitting`` (``show``): the wording shown is chosen again whenever its width changes, and
    it is what a mouse selection copies."""

    def show(self, *wordings: Wording) -> None:
        """``wordings``, most detailed first: the first that fits is shown."""
        self.update(Fitting(*wordings))

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        visual = self._render()
        if isinstance(visual, Fitting):
            return selection.extract(visual.shown.plain), "\n"
        return super().get_selection(selection)
