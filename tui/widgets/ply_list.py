"""A list of plies (moves or rounds), one per line, with the current one marked by ``>`` as well as a highlight.

The record viewer lists a record's moves with their comments, the review lists the moves judged with their
verdict marks. Up/down (and k/j, Home/End, Page up/down) move the mark and post ``Chosen``; a click chooses the line
clicked. A comment follows its line where it fits and is broken at words under it where it does not: the terminal
never wraps a line, so the window kept around the mark counts the lines it shows.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class PlyList(Widget, can_focus=True):
    BINDINGS = [
        Binding("up,k", "step(-1)", "Previous", show=False),
        Binding("down,j", "step(1)", "Next", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("enter", "choose", "Show", show=False),
    ]

    COMPONENT_CLASSES = {"plies--current", "plies--comment", "plies--dim"}

    DEFAULT_CSS = """
    PlyList { height: 1fr; min-height: 3; }
    PlyList > .plies--current { background: $accent 40%; text-style: bold; }
    PlyList > .plies--comment { color: $text-muted; text-style: italic; }
    PlyList > .plies--dim { color: $text-muted; }
    """

    class Chosen(Message):
        """The mark moved to line ``index`` (or Enter was pressed on it)."""

        def __init__(self, ply_list: PlyList, index: int) -> None:
            super().__init__()
            self.ply_list = ply_list
            self.index = index

        @property
        def control(self) -> PlyList:
            return self.ply_list

    #: Each line's text, and its comment (``None``: none).
    lines: reactive[tuple[Text, ...]] = reactive((), layout=True)
    comments: reactive[tuple[str | None, ...]] = reactive(())
    #: The marked line (``None``: no line is marked).
    index: reactive[int | None] = reactive(None)
    #: What the list says when it has no lines.
    empty_text = "nothing to list"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        #: The first line of each row drawn in the last render, top to bottom, for clicks.
        self._shown_rows: list[int] = []

    def set_lines(self, lines: Sequence[Text], comments: Sequence[str | None] = ()) -> None:
        self.lines = tuple(lines)
        self.comments = tuple(comments)

    # ---- moving the mark

    def action_step(self, delta: int) -> None:
        self._go((self.index if self.index is not None else -1) + delta)

    def action_page(self, delta: int) -> None:
        self._go((self.index or 0) + delta * max(1, self.size.height - 1))

    def action_jump(self, where: int) -> None:
        self._go(len(self.lines) - 1 if where < 0 else where)

    def action_choose(self) -> None:
        if self.index is not None:
            self.post_message(self.Chosen(self, self.index))

    def _go(self, index: int) -> None:
        if not self.lines:
            return
        self.index = max(0, min(len(self.lines) - 1, index))
        self.post_message(self.Chosen(self, self.index))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)  # inside the border and padding, or None
        if offset is not None and 0 <= offset.y < len(self._shown_rows):
            self.focus()
            self._go(self._shown_rows[offset.y])

    # ---- drawing

    def render(self) -> Text:
        current = self.get_component_rich_style("plies--current", partial=True)
        comment_style = self.get_component_rich_style("plies--comment", partial=True)
        dim = self.get_component_rich_style("plies--dim", partial=True)
        width = self.size.width or 40
        rows: list[tuple[Text, int]] = []  # a row of the widget, and the line it belongs to
        for index, line in enumerate(self.lines):
            marked = index == self.index
            row = Text("> " if marked else "  ", style=current if marked else dim, end="")
            row.append_text(line)
            if marked:
                row.stylize(current)
            comment = self.comments[index] if index < len(self.comments) else None
            if comment and cell_len(row.plain) + 3 + cell_len(comment) <= width:
                row.append(f" {{{comment}}}", style=comment_style)
                comment = None
            rows.append((row, index))
            if comment:
                indent = 4
                for part in textwrap.wrap(f"{{{comment}}}", max(10, width - indent)):
                    rows.append((Text(" " * indent + part, style=comment_style, end=""), index))
        if not rows:
            self._shown_rows = []
            return Text(self.empty_text, style=dim, end="")
        height = max(1, self.size.height)
        # Keep the marked line in sight: the window ends at its last row, or starts at the top while it fits.
        focus = self.index if self.index is not None else -1
        last = max((i for i, (_, line) in enumerate(rows) if line <= focus), default=0)
        end = min(len(rows), max(height, last + 1 + height // 3))
        window = rows[max(0, end - height) : end]
        self._shown_rows = [line for _, line in window]
        for row, _ in window:
            row.truncate(width, overflow="crop")  # a move's line never wraps; its end gives way at a narrow width
        return Text("\n", end="").join(row for row, _ in window)
