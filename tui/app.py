"""The Textual app: themes, the saved game, the palette, and navigation.

The App owns navigation: screens post the messages of ``tui.messages`` and the App opens the screen they ask for,
finding a game's screens in the game catalogue (``tui.games``) and importing them on first use, so that starting
the app loads no game's solver.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal

from textual import on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from core.errors import NotationError
from core.game import Side
from core.record import Record
from tui.games import Config, game_entry, game_of, load_screen
from tui.messages import AskForRecord, OpenGame, OpenLearningCurves, OpenReplay, ResumeGame, ShowMenu
from tui.screens.base import AppServices
from tui.screens.menu import MenuScreen
from tui.session import GameSession
from tui.storage import SavedGame, Settings
from tui.theme import ASCII, PIECE_VARIABLES, THEMES, UNICODE

if TYPE_CHECKING:
    from tui.config import ServerGameConfig


@dataclass(frozen=True)
class StartRequest:
    """What the command line asked for: the menu, a game (on its set-up screen or straight on the board), a replay,
    or a game on a contest server."""

    kind: Literal["menu", "game", "replay", "server"] = "menu"
    game: str | None = None
    config: Config | None = None
    #: For a game: open its set-up screen first.
    setup: bool = False
    server: ServerGameConfig | None = None
    record: Record | None = None
    replay_side: Side = Side.P1
    replay_title: str | None = None

    @classmethod
    def for_config(cls, config: Config, setup: bool = False) -> StartRequest:
        """A game with ``config``: on its set-up screen (``setup``) or straight on the board."""
        return cls("game", game=game_of(config), config=config, setup=setup)


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
        #: Seconds an AI's reply waits at least, so the user sees their own move land first.
        self.ai_delay = ai_delay
        #: The game in progress (the Geister family's), saved after every move and offered for resume.
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
        if request.kind == "game" and request.game is not None:
            self.open_game(request.game, request.config, request.setup)
        elif request.kind == "server" and request.server is not None:
            self._show(load_screen("tui.screens.server:ServerGameScreen")(request.server))
        elif request.kind == "replay" and request.record is not None:
            self.open_replay(request.record, request.replay_side, request.replay_title)
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

    # ---- navigation

    def _show(self, screen: Screen[None]) -> None:
        """Show ``screen`` in place of the current one (the first screen is pushed)."""
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def open_game(self, game: str, config: Config | None = None, setup: bool = True) -> None:
        """``game``'s set-up screen (``setup``, where it has one) or its game screen, with ``config`` (by default the
        catalogue's default configuration)."""
        entry = game_entry(game)
        screen = load_screen(entry.opening_screen(setup))
        self._show(screen(config if config is not None else entry.default_config()))

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
        game_screen = load_screen(game_entry(session.config.variant).play_screen)
        self._show(game_screen(session.config, session))

    def open_replay(
        self, record: Record, viewer: Side = Side.P1, title: str | None = None, private: bool = False
    ) -> None:
        """The replay viewer on ``record``; a record that does not replay is reported, and nothing else changes."""
        replay_screen = load_screen("tui.screens.replay:ReplayScreen")
        try:
            screen = replay_screen(record, viewer, title, private=private)
        except (NotationError, ValueError) as error:
            self.notify(f"Cannot replay this record: {error}", severity="error", timeout=10)
            return
        self.push_screen(screen)

    def open_record_file(self, path: Path) -> str | None:
        """Open a record file in the replay viewer; returns an error message instead when it cannot."""
        try:
            record = Record.load(path)
        except (NotationError, OSError) as error:
            return f"Cannot replay {path}: {error}"
        self.open_replay(record, Side.P1, f"Replay: {path.name}")
        return None

    @on(ShowMenu)
    def _show_menu(self) -> None:
        self._show(MenuScreen())

    @on(OpenGame)
    def _open_game(self, event: OpenGame) -> None:
        self.open_game(event.game, event.config, event.setup)

    @on(ResumeGame)
    def _resume_game(self) -> None:
        self.resume_game()

    @on(OpenReplay)
    def _open_replay(self, event: OpenReplay) -> None:
        self.open_replay(event.record, event.viewer, event.title, event.private)

    @on(AskForRecord)
    def _ask_for_record(self) -> None:
        ask_path = load_screen("tui.screens.ask_path:AskPath")

        def opened(path: str | None) -> None:
            if path:
                error = self.open_record_file(Path(path).expanduser())
                if error and isinstance(self.screen, MenuScreen):
                    self.screen.show_message(error)

        self.push_screen(ask_path(), opened)

    @on(OpenLearningCurves)
    def _open_learning_curves(self, event: OpenLearningCurves) -> None:
        self.push_screen(load_screen("tui.screens.footstep_learning:FootstepLearningScreen")(event.n, event.k))

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
        help_screen = load_screen("tui.screens.help:HelpScreen")
        if not isinstance(self.screen, help_screen):
            self.push_screen(help_screen(getattr(self.screen, "help_topic", "general")))

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


if TYPE_CHECKING:
    # Screens see the app as ``AppServices`` (they cannot import this module): mypy checks here that it is one.
    _APP_OFFERS_THE_SCREENS_SERVICES: type[AppServices] = NashplayApp
