"""The game menu: resume a saved game, start a game, open a record."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from core.geister import VARIANTS
from tui.screens.base import NashplayScreen

#: Games offered in the menu, in order (the 3-vs-2 variants with the 3-piece side as player 1; the set-up
#: screen's side choice decides who plays it).
MENU_GAMES = ("geister", "mini-geister", "mini-geister-3v2-rrb", "mini-geister-3v2-rbb")


class AskPath(ModalScreen[str | None]):
    """Ask for a record file to open."""

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


class MenuScreen(NashplayScreen):
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("o", "open_record", "Open record"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Open a record", "Replay a saved game record", "open_record"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Choose a game (arrows and Enter; the mouse works too)", id="menu-heading")
        yield OptionList(id="games")
        yield Static(id="menu-message")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "nashplay"
        self.sub_title = "games where the right move is a mixed strategy"
        self.fill()
        self.query_one("#games", OptionList).focus()

    def fill(self) -> None:
        games = self.query_one("#games", OptionList)
        games.clear_options()
        resume = self.nashplay.describe_saved_game()
        if resume:
            games.add_option(Option(f"Resume: {resume}", id="resume"))
        for name in MENU_GAMES:
            variant = VARIANTS[name]
            games.add_option(Option(f"{variant.title}  ({variant.width}x{variant.height})", id=f"game:{name}"))
        games.add_option(Option("Twice Clap Game  (TCG: equilibrium advisor, or play the AI)", id="tcg"))
        games.add_option(Option("Nim and impartial games  (Nim, subtraction games, Kayles; with advice)", id="nim"))
        games.add_option(Option("Footstep  (a bidding game: play the equilibrium, random or a learner)", id="footstep"))
        games.add_option(Option("Replay a record file...", id="replay"))
        games.add_option(Option("Quit", id="quit"))
        games.highlighted = 0

    @on(OptionList.OptionSelected, "#games")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id or ""
        app = self.nashplay
        if choice == "resume":
            app.resume_game()
        elif choice.startswith("game:"):
            from tui.screens.setup import SetupScreen

            app.switch_screen(SetupScreen(choice.removeprefix("game:")))
        elif choice == "tcg":
            from tui.screens.tcg import TcgScreen

            app.switch_screen(TcgScreen())
        elif choice == "nim":
            from tui.screens.nim import NimSetupScreen

            app.switch_screen(NimSetupScreen())
        elif choice == "footstep":
            from tui.screens.footstep import FootstepScreen

            app.switch_screen(FootstepScreen())
        elif choice == "replay":
            self.action_open_record()
        elif choice == "quit":
            app.exit()

    def action_open_record(self) -> None:
        def opened(path: str | None) -> None:
            if path:
                error = self.nashplay.open_replay(Path(path).expanduser())
                if error:
                    self.query_one("#menu-message", Static).update(error)

        self.app.push_screen(AskPath(), opened)
