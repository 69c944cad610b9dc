"""The Textual app: themes, the screen flow (menu -> set-up -> game -> replay), the saved game, the palette."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from core.errors import NotationError
from core.game import Side
from core.record import Record
from tui.screens.game import GameScreen
from tui.screens.menu import MenuScreen
from tui.screens.replay import ReplayScreen
from tui.screens.setup import SetupScreen
from tui.session import GameConfig, GameSession
from tui.storage import SavedGame, Settings
from tui.theme import ASCII, PIECE_VARIABLES, THEMES, UNICODE

if TYPE_CHECKING:
    # The TCG and Nim screens pull in scipy and the solvers (about half a second): imported when first shown.
    from tui.screens.footstep import FootstepConfig
    from tui.screens.nim import NimConfig
    from tui.screens.tcg import TcgConfig
    from tui.server_game import ServerGameConfig


@dataclass(frozen=True)
class StartRequest:
    """What the command line asked for: the menu, a game (with or without the set-up screen), a replay, or a game on
    a contest server."""

    kind: Literal["menu", "play", "setup", "replay", "tcg", "nim", "footstep", "server"] = "menu"
    config: GameConfig | None = None
    tcg: TcgConfig | None = None
    nim: NimConfig | None = None
    footstep: FootstepConfig | None = None
    server: ServerGameConfig | None = None
    record: Record | None = None
    replay_side: Side = Side.P1
    replay_title: str | None = None


class NashplayApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "nashplay"

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("q", "quit", "Quit"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("question_mark", "help", "Help"),
        Binding("t", "next_theme", "Theme"),
    ]

    def __init__(
        self,
        start: StartRequest | None = None,
        *,
        ascii_mode: bool = False,
        theme_name: str = "nashplay",
        ai_delay: float = 0.3,
        saved: SavedGame | None = None,
    ) -> None:
        super().__init__()
        self.start_request = start or StartRequest()
        self.ascii_mode = ascii_mode
        self.glyphs = ASCII if ascii_mode else UNICODE
        self.initial_theme = theme_name
        self.ai_delay = ai_delay
        self.saved = saved or SavedGame()
        #: Which advice panels are shown (Nim, Footstep, Mini-Geister's solved values, the live Geister search):
        #: remembered between sessions in the state directory.
        self.settings = Settings()

    # ---- remembered choices

    @property
    def nim_advice(self) -> bool:
        return self.settings.get("nim_advice")

    @nim_advice.setter
    def nim_advice(self, value: bool) -> None:
        self.settings.set("nim_advice", value)

    @property
    def footstep_advice(self) -> bool:
        return self.settings.get("footstep_advice")

    @footstep_advice.setter
    def footstep_advice(self, value: bool) -> None:
        self.settings.set("footstep_advice", value)

    @property
    def mini_geister_advice(self) -> bool:
        return self.settings.get("mini_geister_advice")

    @mini_geister_advice.setter
    def mini_geister_advice(self, value: bool) -> None:
        self.settings.set("mini_geister_advice", value)

    @property
    def search_advice(self) -> bool:
        return self.settings.get("search_advice")

    @search_advice.setter
    def search_advice(self, value: bool) -> None:
        self.settings.set("search_advice", value)

    # ---- start-up

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Textual's own themes stay usable: they fall back to the default piece colours.
        return {**super().get_theme_variable_defaults(), **PIECE_VARIABLES}

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = self.initial_theme
        if self.ascii_mode:
            self.add_class("-ascii")
        request = self.start_request
        if request.kind == "play" and request.config is not None:
            self.start_game(request.config)
        elif request.kind == "setup" and request.config is not None:
            self.push_screen(SetupScreen(request.config.variant, request.config))
        elif request.kind == "tcg":
            from tui.screens.tcg import TcgScreen

            self.push_screen(TcgScreen(request.tcg))
        elif request.kind == "nim":
            from tui.screens.nim import NimScreen

            self.push_screen(NimScreen(request.nim))
        elif request.kind == "footstep":
            from tui.screens.footstep import FootstepScreen

            self.push_screen(FootstepScreen(request.footstep))
        elif request.kind == "server" and request.server is not None:
            from tui.screens.server import ServerGameScreen

            self.push_screen(ServerGameScreen(request.server))
        elif request.kind == "replay" and request.record is not None:
            self.push_screen(ReplayScreen(request.record, request.replay_side, request.replay_title))
        else:
            self.push_screen(MenuScreen())
            self._check_saved_game()

    def on_unmount(self) -> None:
        from tui.search_process import shutdown_all

        shutdown_all()  # the search processes end with the app

    def _check_saved_game(self) -> None:
        """A damaged save is reported and moved aside; it never stops the app."""
        if not self.saved.exists():
            return
        try:
            GameSession.from_record(self.saved.load())
        except (NotationError, OSError, KeyError, ValueError) as error:
            moved = self.saved.set_aside()
            self.notify(
                f"The saved game could not be read ({error}). It was moved to {moved}.",
                title="Saved game damaged",
                severity="warning",
                timeout=12,
            )
            # The menu may not be composed yet (it fills itself on mount); refill it only if it already is.
            if isinstance(self.screen, MenuScreen) and self.screen.is_mounted:
                self.screen.fill()
        else:
            self.notify("A game in progress was saved: choose Resume in the menu to go on.", timeout=6)

    def describe_saved_game(self) -> str | None:
        return self.saved.describe()

    # ---- screen flow

    def _show(self, screen: Screen[None]) -> None:
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def start_game(self, config: GameConfig) -> None:
        if self.saved.exists():
            self.saved.archive()
        session = GameSession(config)
        self._show(GameScreen(session, self.saved, self.ai_delay))

    def resume_game(self) -> None:
        try:
            session = GameSession.from_record(self.saved.load())
        except (NotationError, OSError, KeyError, ValueError) as error:
            moved = self.saved.set_aside()
            self.notify(
                f"The saved game could not be resumed ({error}). It was moved to {moved}.", severity="error", timeout=12
            )
            if isinstance(self.screen, MenuScreen):
                self.screen.fill()
            return
        self._show(GameScreen(session, self.saved, self.ai_delay))

    def open_replay(self, path: Path) -> str | None:
        """Open a record in the replay viewer; returns an error message instead when it cannot."""
        try:
            record = Record.load(path)
            screen = ReplayScreen(record, Side.P1, f"Replay: {path.name}")
        except (NotationError, OSError) as error:
            return f"Cannot replay {path}: {error}"
        self.push_screen(screen)
        return None

    def get_key_display(self, binding: Binding) -> str:
        display = super().get_key_display(binding)
        if self.ascii_mode and not display.isascii():
            # Poor fonts: name the key instead of drawing a symbol for it (Enter rather than a return arrow).
            _, key = binding.parse_key()
            return key.replace("_", " ").title()
        return display

    # ---- actions

    def action_help(self) -> None:
        # Imported on first use: the Markdown widget costs ~40 ms of start-up that most sessions never need.
        from tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            topic = {
                "TcgScreen": "tcg",
                "NimScreen": "nim",
                "NimSetupScreen": "nim",
                "FootstepScreen": "footstep",
                "FootstepLearningScreen": "footstep",
            }.get(type(self.screen).__name__, "geister")
            self.push_screen(HelpScreen(topic))

    def action_next_theme(self) -> None:
        names = [t.name for t in THEMES]
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]
        self.notify(f"Theme: {self.theme}", timeout=2)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for title, help_text, action in getattr(screen, "PALETTE", []):
            yield SystemCommand(title, help_text, partial(screen.run_action, action))
        yield SystemCommand("Help", "Keys and rules", self.action_help)
        yield SystemCommand("Next theme", "Default, colour-blind friendly, light", self.action_next_theme)
