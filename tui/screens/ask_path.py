"""Small dialogs: a record file to open, a contest server to play on, and a yes-or-no question."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from core.contest import FIRST_PORT


class AskPath(ModalScreen[str | None]):
    """Ask for a record file to open; dismissed with the path, or ``None`` when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-path"):
            yield Label("Record file to replay (Enter opens, Esc cancels):", classes="one-line")
            yield Input(value=str(Path.cwd()) + "/", id="path")

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AskServer(ModalScreen[tuple[str, int] | None]):
    """Ask for a contest server's host and port (the defaults of ``nashplay connect``); dismissed with them, or
    ``None`` when cancelled."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape", "cancel", "Cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-server"):
            yield Label("Geister contest server: Enter connects, Esc cancels", classes="one-line")
            with Horizontal(classes="field"):
                yield Label("Host:", classes="field-label")
                yield Input(value="127.0.0.1", id="server-host")
            with Horizontal(classes="field"):
                yield Label("Port:", classes="field-label")
                yield Input(value=str(FIRST_PORT), id="server-port")
            yield Label(f"Port {FIRST_PORT} plays first, {FIRST_PORT + 1} second", classes="hint one-line")
            yield Static(id="server-problem")

    @on(Input.Submitted)
    def _submit(self) -> None:
        host = self.query_one("#server-host", Input).value.strip()
        port_text = self.query_one("#server-port", Input).value.strip()
        problem = ""
        if not host:
            problem = "Give the server's host name or address"
        elif not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            problem = f"The port is a number from 1 to 65535, not {port_text[:20]!r}"
        if problem:
            self.query_one("#server-problem", Static).update(problem)
            return
        self.dismiss((host, int(port_text)))

    def action_cancel(self) -> None:
        self.dismiss(None)


class Confirm(ModalScreen[bool]):
    """A yes-or-no question before something that cannot be undone (resigning, deleting a saved game); dismissed with
    ``True`` for yes. Only ``y`` says yes, so that a key pressed out of habit (Enter) cannot resign a game."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text(self.question), id="confirm-question")
            yield Label("y: yes   n or Esc: no", classes="hint one-line")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
