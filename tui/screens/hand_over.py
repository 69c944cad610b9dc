"""The hand-over between two people at one keyboard (the hot seat): the whole screen is covered, board and colours
hidden, until the player whose turn it is says they are the one looking (Enter). Esc goes back to the menu and q (or
Ctrl-C) quits, as on the game's screen: the game stays saved."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from core.game import Side
from tui.messages import ShowMenu

#: The keys the cover answers, said on it (a modal screen has no footer of its own).
KEYS = "Enter: continue   Esc: menu   q: quit"


class HandOverScreen(ModalScreen[None]):
    """Covers the game until ``player`` presses Enter."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,space", "ready", "Ready"),
        Binding("escape", "menu", "Menu"),
        # A modal screen hides the app's bindings: q and Ctrl-C quit here as on the game's screen.
        Binding("q", "app.quit", "Quit"),
        Binding("ctrl+c", "app.quit", "Quit", show=False),
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
            yield Static(KEYS, id="hand-over-keys", classes="hint")

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_menu(self) -> None:
        """Back to the menu, the covered game kept: the app takes the cover away and shows the menu in one go, so that
        the board under it is never drawn."""
        self.app.post_message(ShowMenu())
