"""Footstep's track from the user's side: their own goal on the left, the opponent's on the right, and the
marker (a glyph and its place, so colour is never needed)."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from core.game import Side


class Track(Widget):
    """The track from the user's side: their own goal on the left, the opponent's on the right, and the marker."""

    DEFAULT_CSS = "Track { height: 3; width: 1fr; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.k = 4
        self.marker = 0
        self.human = Side.P1
        self.ascii_mode = False

    def show(self, k: int, marker: int, human: Side, ascii_mode: bool) -> None:
        self.k, self.marker, self.human, self.ascii_mode = k, marker, human, ascii_mode
        self.refresh(layout=True)

    def render(self) -> Text:
        # Player 1 pushes toward +k; the user always pushes to the right.
        toward_opponent = self.marker if self.human is Side.P1 else -self.marker
        goal, step, here = ("|", ".", "@") if self.ascii_mode else ("‖", "·", "◆")
        marks = [
            here if z == toward_opponent else (goal if abs(z) == self.k else step) for z in range(-self.k, self.k + 1)
        ]
        # As much room between the squares as the width gives (k = 10 at 80 columns: two columns a square).
        width = self.size.width or 80
        spacing = next((gap for gap in (3, 2, 1) if len(marks) * (gap + 1) - gap + 2 <= width), 1)
        line = " " + (" " * spacing).join(marks) + " "
        text = Text(end="")
        text.append("your goal".ljust(len(line) // 2) + "their goal".rjust(len(line) - len(line) // 2) + "\n")
        text.append(line + "\n", style="bold")
        centre = " " * (len(line) // 2) + ("^" if self.ascii_mode else "▲") + " centre"
        text.append(centre, style="dim")
        return text
