"""A small dialog that asks for a record file to open."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static


class AskPath(ModalScreen[str | None]):
    """Ask for a record file to open; dismissed with the path, or ``None`` when cancelled."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Static(id="ask-path"):
            yield Label("Record file to replay (Enter opens, Esc cancels):")
            yield Input(value=str(Path.cwd()) + "/", id="path")

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
