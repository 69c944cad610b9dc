"""The move list: numbered moves, browsable with left/right and Home/End; posts ``Browse`` with the chosen ply."""

from __future__ import annotations

import textwrap

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from core.game import Side


class MoveList(Widget, can_focus=True):
    # Not in the footer: the screens that show a move list say how to browse it (help, status), and the footer's
    # room at 80 columns goes to the screen's own keys.
    BINDINGS = [
        Binding("left,h", "step(-1)", "Back", show=False),
        Binding("right,l", "step(1)", "Forward", show=False),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
    ]

    COMPONENT_CLASSES = {"moves--number", "moves--current", "moves--comment"}

    DEFAULT_CSS = """
    MoveList { height: 1fr; min-height: 3; }
    MoveList > .moves--number { color: $text-muted; }
    MoveList > .moves--current { background: $accent 40%; text-style: bold; }
    MoveList > .moves--comment { color: $text-muted; text-style: italic; }
    """

    class Browse(Message):
        def __init__(self, move_list: MoveList, ply: int) -> None:
            super().__init__()
            self.move_list = move_list
            self.ply = ply

    moves: reactive[tuple[str, ...]] = reactive((), layout=True)
    comments: reactive[tuple[str | None, ...]] = reactive(())
    first: reactive[Side] = reactive(Side.P1)
    #: The ply shown (number of moves played at that point); None follows the end of the game.
    ply: reactive[int | None] = reactive(None)

    @property
    def shown_ply(self) -> int:
        return len(self.moves) if self.ply is None else self.ply

    def action_step(self, delta: int) -> None:
        self._go(self.shown_ply + delta)

    def action_jump(self, where: int) -> None:
        self._go(len(self.moves) if where < 0 else where)

    def _go(self, ply: int) -> None:
        ply = max(0, min(len(self.moves), ply))
        self.ply = None if ply == len(self.moves) else ply
        self.post_message(self.Browse(self, ply))

    def render(self) -> Text:
        number_style = self.get_component_rich_style("moves--number", partial=True)
        current = self.get_component_rich_style("moves--current", partial=True)
        comment_style = self.get_component_rich_style("moves--comment", partial=True)
        plain = Style()
        offset = 0 if self.first is Side.P1 else 1
        width = self.size.width or 40
        shown = self.shown_ply
        # Move numbers group the plies in pairs; each group is one line where it fits the width. A group that
        # does not (long comments, a narrow terminal) takes a line per ply, its comment broken at words under it:
        # the terminal never wraps a line, so the window below counts the lines it shows.
        groups: list[list[int]] = []
        for index in range(len(self.moves)):
            if (index + offset) % 2 == 0 or index == 0:
                groups.append([])
            groups[-1].append(index)
        lines: list[tuple[Text, int]] = []  # a line, and the first move it shows
        for group in groups:
            ply = group[0] + offset
            dots = "." if ply % 2 == 0 else "..."
            number = f"{ply // 2 + 1:>3}{dots} "
            line = Text(number, style=number_style, end="")
            for index in group:
                line.append(f"{self.moves[index]:<7}", style=current if index + 1 == shown else plain)
                comment = self._comment(index)
                if comment:
                    line.append(f"{{{comment}}} ", style=comment_style)
            if cell_len(line.plain.rstrip()) <= width:
                lines.append((line, group[0]))
                continue
            for position, index in enumerate(group):
                prefix = number if position == 0 else " " * len(number)
                line = Text(prefix, style=number_style, end="")
                line.append(f"{self.moves[index]:<7}", style=current if index + 1 == shown else plain)
                comment = self._comment(index)
                indent = len(prefix) + 7
                parts = textwrap.wrap(f"{{{comment}}}", max(10, width - indent)) if comment else []
                if parts:
                    line.append(parts[0], style=comment_style)
                lines.append((line, index))
                lines.extend((Text(" " * indent + part, style=comment_style, end=""), index) for part in parts[1:])
        if not lines:
            return Text("no moves yet", style=number_style, end="")
        height = max(1, self.size.height)
        # Keep the shown move in sight: the window ends at its last line (or at the end while following the game).
        focus = shown - 1
        last = max((i for i, (_, first) in enumerate(lines) if first <= focus), default=-1)
        end = max(height, last + 1)
        window = [line for line, _ in lines[max(0, end - height) : end]]
        return Text("\n", end="").join(window)

    def _comment(self, index: int) -> str | None:
        return self.comments[index] if index < len(self.comments) else None
