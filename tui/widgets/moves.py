"""The move list: numbered moves, browsable with left/right and Home/End; posts ``Browse`` with the chosen ply."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from core.game import Side


class MoveList(Widget, can_focus=True):
    BINDINGS = [
        Binding("left,h", "step(-1)", "Back"),
        Binding("right,l", "step(1)", "Forward"),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
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
        lines: list[Text] = []
        line = Text(end="")
        shown = self.shown_ply
        for index, move in enumerate(self.moves):
            ply = index + offset
            if ply % 2 == 0 or index == 0:
                if index:
                    lines.append(line)
                    line = Text(end="")
                dots = "." if ply % 2 == 0 else "..."
                line.append(f"{ply // 2 + 1:>3}{dots} ", style=number_style)
            style = current if index + 1 == shown else plain
            line.append(f"{move:<7}", style=style)
            comment = self.comments[index] if index < len(self.comments) else None
            if comment:
                line.append(f"{{{comment}}} ", style=comment_style)
        if self.moves:
            lines.append(line)
        if not lines:
            return Text("no moves yet", style=number_style, end="")
        height = max(1, self.size.height)
        # Keep the shown move in sight: the window ends at its line (or at the end while following the game).
        focus_line = max(0, (shown - 1 + offset) // 2) if shown else 0
        end = max(height, focus_line + 1)
        window = lines[max(0, end - height) : end]
        return Text("\n", end="").join(window)
