"""Small dialogs: a record file to open, a contest server to play on, and a yes-or-no question; and where a path
typed in the app's prompts for a file (this dialog's, the save prompt's) leads."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from core.contest import FIRST_PORT, SECOND_PORT
from tui.storage import state_dir
from tui.web.visitor import (
    NOT_ALLOWED,
    WEB_VISITOR_ENV,
    ContestAddress,
    allowed_contest_servers,
    allowed_text,
    contest_refusal,
    normal_host,
    serves_a_visitor,
)

#: Set (to 1) by ``nashplay serve`` in each visitor's app: whoever has the URL types in the prompts, so a file they
#: name must stay in the visitor's folder, the app's state folder.
WEB_VISITOR = WEB_VISITOR_ENV
_REFUSED = "Refused: in the browser, files stay in your own folder (a path like records/game.ngr)"


class PathRefusedError(ValueError):
    """A path typed by a web visitor that leads out of their folder; its text is the one line that says so."""


def prompt_path(text: str) -> Path:
    """The file a prompt's ``text`` names (the record to save, the record to replay): ``~`` expanded, relative to
    the working directory.

    In a visitor's app of ``nashplay serve`` it must lead inside the visitor's folder once ``..``, ``~`` and
    symbolic links are followed, or ``PathRefusedError`` says no (nothing is read or written); the path returned is
    then the resolved one, so what is opened is what was checked. Elsewhere the user's own files go anywhere."""
    if os.environ.get(WEB_VISITOR) != "1":
        try:
            return Path(text).expanduser()
        except RuntimeError:  # "~someone" who is not a user here: a name like any other
            return Path(text)
    if text.startswith("~"):  # the home of the account that serves, or of another: never the visitor's folder
        raise PathRefusedError(_REFUSED)
    try:
        folder = state_dir().resolve()
        path = (Path.cwd() / text).resolve()
    except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL, a name the file system cannot take
        raise PathRefusedError(_REFUSED) from None
    if path == folder or not path.is_relative_to(folder):
        raise PathRefusedError(_REFUSED)
    return path


class AskPath(ModalScreen[str | None]):
    """Ask for a record file to open; dismissed with the path, or ``None`` when cancelled. A path a web visitor may
    not open is refused here, and the dialog stays for another."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-path"):
            yield Label("Record file to replay (Enter opens, Esc cancels):", classes="one-line")
            yield Input(value=str(Path.cwd()) + "/", id="path")
            problem = Static(id="path-problem", classes="one-line")
            problem.display = False  # shown only to refuse a path: the dialog keeps its size until then
            yield problem

    def on_resize(self) -> None:
        # The field keeps its scroll when it narrows, and the cursor (at the path's end, where one types on) would
        # fall out of sight: once the field has its new width, scroll to it again.
        self.call_after_refresh(self._show_cursor)

    def _show_cursor(self) -> None:
        field = self.query_one("#path", Input)
        column = cell_len(field.value[: field.cursor_position]) + (1 if field.cursor_at_end else 0)
        field.scroll_to_region(Region(column, 0, 1, 1), force=True, animate=False)

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.dismiss(None)
            return
        try:
            path = prompt_path(text)
        except PathRefusedError as refused:
            problem = self.query_one("#path-problem", Static)
            problem.update(Text(str(refused), style="bold"))
            problem.display = True
            return
        self.dismiss(str(path))

    def action_cancel(self) -> None:
        self.dismiss(None)


class AskServer(ModalScreen[tuple[str, int] | None]):
    """Ask for a contest server's host and port (the defaults of ``nashplay connect``); dismissed with them, or
    ``None`` when cancelled.

    In a visitor's app of ``nashplay serve`` the serving machine would connect for whoever has the URL: only the
    servers its owner allowed (``--contest-server``) are taken, the host fixed when there is one, and with none the
    dialog only says so in one line (Enter or Esc closes it). ``tui.net.open_game`` refuses the same addresses
    again, whoever asks."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.web = serves_a_visitor()
        #: In a visitor's app: where it may connect (nothing: the dialog only refuses).
        self.allowed: tuple[ContestAddress, ...] = allowed_contest_servers() if self.web else ()

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-server"):
            if self.web and not self.allowed:
                yield Label("Geister contest server: Enter or Esc closes", classes="one-line")
                yield Static(Text(NOT_ALLOWED), id="server-problem")
                return
            yield Label("Geister contest server: Enter connects, Esc cancels", classes="one-line")
            host, port = self.allowed[0] if self.allowed else ("127.0.0.1", FIRST_PORT)
            # One host allowed: it is the only one, not a field to type in.
            fixed = len({allowed_host for allowed_host, _ in self.allowed}) == 1
            with Horizontal(classes="field"):
                yield Label("Host:", classes="field-label")
                yield Input(value=host, id="server-host", disabled=fixed)
            with Horizontal(classes="field"):
                yield Label("Port:", classes="field-label")
                yield Input(value=str(port), id="server-port")
            if self.web:
                hint = f"Allowed by this server's owner: {allowed_text(self.allowed)}"
            else:
                hint = f"Port {FIRST_PORT} plays first, {SECOND_PORT} second"
            yield Label(Text(hint), classes="hint one-line")
            yield Static(id="server-problem")

    def on_key(self, event: events.Key) -> None:
        # Nothing to type in (no contest server allowed): Enter closes, as Esc does.
        if event.key == "enter" and not self.query("#server-port"):
            event.stop()
            self.dismiss(None)

    @on(Input.Submitted)
    def _submit(self) -> None:
        host = self.query_one("#server-host", Input).value.strip()
        port_text = self.query_one("#server-port", Input).value.strip()
        problem = ""
        if not host:
            problem = "Give the server's host name or address"
        elif re.fullmatch(r"[0-9]{1,5}", port_text) is None or not 1 <= int(port_text) <= 65535:
            problem = f"The port is a number from 1 to 65535, not {port_text[:20]!r}"
        else:
            problem = contest_refusal(host, int(port_text)) or ""
        if problem:
            self.query_one("#server-problem", Static).update(Text(problem))
            return
        self.dismiss((normal_host(host) if self.web else host, int(port_text)))

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
