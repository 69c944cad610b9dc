"""Footstep as a spectator sees it: the marker on the track (player 1's goal on the left), both players' points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from core.footstep import FootstepState
from core.game import Side
from tui.widgets.pictures import StatePicture
from tui.widgets.track import Track

if TYPE_CHECKING:
    from textual.widget import Widget


class SpectatorTrack(Track):
    """Footstep's track seen by a spectator: player 1's goal on the left, player 2's on the right (player 1 pushes
    to the right), labelled by player instead of "your" and "their"."""

    def render(self) -> Text:
        drawn = super().render()  # drawn with ``human`` player 1: player 1 pushes to the right
        lines = drawn.split("\n")
        width = len(lines[0].plain)
        names = (("player 1's goal", "player 2's goal"), ("P1's goal", "P2's goal"), ("P1 goal", "P2 goal"))
        left, right = next((pair for pair in names if len(pair[0]) + len(pair[1]) + 2 <= width), ("P1", "P2"))
        lines[0] = Text(left.ljust(width // 2) + right.rjust(width - width // 2), end="")
        return Text("\n", end="").join(lines)


class FootstepPicture(StatePicture):
    def widgets(self, ascii_mode: bool) -> list[Widget]:
        return [SpectatorTrack(id="state-track")]

    def draw(self, view: Widget, state: Any, marked: str | None, ascii_mode: bool) -> Text:
        assert isinstance(state, FootstepState)
        position = state.position
        view.query_one(SpectatorTrack).show(state.k, position.marker, Side.P1, ascii_mode)
        text = Text(f"Points: player 1 {position.points1}, player 2 {position.points2}", style="bold", end="")
        text.append(f"\nState {position.text} (n = {state.n}, k = {state.k})")
        return text

    def describe_move(self, state: Any, action: Any) -> str:
        return f"player 1 bids {action[0]}, player 2 bids {action[1]}"

    def describe_action(self, state: Any, text: str) -> str:
        return f"bid {text}"

    def describe_actions(self, state: Any, texts: Sequence[str], most: int) -> str:
        more = f" and {len(texts) - most} more" if len(texts) > most else ""
        return f"bid {', '.join(texts[:most])}{more}"
