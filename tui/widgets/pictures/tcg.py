"""The Twice Clap Game as a spectator sees it: both players' points as bars, and actions by their names."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from core.tcg import TcgAction, TcgState
from tui.widgets.pictures import StatePicture

if TYPE_CHECKING:
    from textual.widget import Widget

#: (Unicode, ASCII): a point a player holds, and one they could still gain.
POINT = ("█", "#")
NO_POINT = ("·", ".")


class TcgPicture(StatePicture):
    def draw(self, view: Widget, state: Any, marked: str | None, ascii_mode: bool) -> Text:
        assert isinstance(state, TcgState)
        point, empty = (POINT[1], NO_POINT[1]) if ascii_mode else (POINT[0], NO_POINT[0])
        text = Text(f"Points, n = {state.n}", style="bold", end="")
        for number, held in enumerate(state.points, start=1):
            # After a lost round a player's points may be below 0 (the reason the game ended): drawn as none.
            shown = max(0, min(state.n, held))
            bar = point * shown + empty * (state.n - shown) if state.n <= 20 else ""
            text.append(f"\nplayer {number}: {held:>3} {bar}")
        return text

    def describe_move(self, state: Any, action: Any) -> str:
        return f"player 1: {action[0].label}, player 2: {action[1].label}"

    def describe_action(self, state: Any, text: str) -> str:
        try:
            return f"{text} ({TcgAction.parse(text).label})"
        except ValueError:
            return text
