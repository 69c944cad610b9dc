"""The hand-over between two people at one keyboard (the hot seat): the whole screen is covered, board and colours
hidden, until the player whose turn it is says they are the one looking (Enter)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from core.game import Side


class HandOverScreen(ModalScreen[None]):
    """Covers the game until ``player`` presses Enter."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,space", "ready", "Ready"),
    ]

    def __init__(self, player: Side, last_move: str | None, what: str = "turn") -> None:
        """``what``: what ``player`` is to do ("turn" to move, "set-up" to choose their pieces)."""
        super().__init__()
        self.player = player
        self.last_move = last_move
        self.what = what

    def compose(self) -> ComposeResult:
        name = str(self.player).capitalize()
        with Vertical(id="hand-over"):
            yield Static(Text(f"{name}'s {self.what}", style="bold"), id="hand-over-turn")
            if self.last_move is not None:
                yield Static(f"The other player moved: {self.last_move}", id="hand-over-last")
            yield Static(
                f"Hand over the keyboard. The board and your pieces' colours stay hidden until {self.player} presses "
                "Enter.",
                id="hand-over-how",
            )

    def action_ready(self) -> None:
        self.dismiss(None)
