"""The Textual app: themes, the saved games (of every game: resume, the recent games, the last game), the palette,
and navigation.

The App owns navigation: screens post the messages of ``tui.messages`` and the App opens the screen they ask for,
finding a game's screens in the game catalogue (``tui.games``) and importing them on first use, so that starting
the app loads no game's solver.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal, cast

from rich.segment import Segment, Segments
from textual import on
from textual._context import active_app
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette, SearchIcon
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender

from core.errors import NotationError, clipped
from core.game import Side
from core.record import Record, printable
from solvers.review import Review
from tui.engine_compile import start_compiling, stop_compiling
from tui.games import Config, game_entry, game_of, load_screen
from tui.local_session import check_resumable, resume_record
from tui.messages import (
    AskForRecord,
    AskForServer,
    OpenGame,
    OpenLearningCurves,
    OpenReplay,
    OpenReview,
    ResumeGame,
    ShowMenu,
    WatchGame,
)
from tui.saves import GameKeeper, RecentGame, SaveFolderError, SaveSlot, SaveStore, iter_descriptions
from tui.screens.base import AppServices
from tui.screens.hand_over import HandOverScreen
from tui.screens.menu import MenuScreen
from tui.session import GameSession
from tui.storage import Settings, state_dir
from tui.theme import ASCII, DEFAULT, PIECE_VARIABLES, THEMES, UNICODE
from tui.watching import WatchSettings

if TYPE_CHECKING:
    from tui.config import ServerGameConfig


@dataclass(frozen=True)
class StartRequest:
    """What the command line asked for: the menu, a game (on its set-up screen or straight on the board), a replay,
    a game on a contest server, or two AIs to watch (on the set-up screen for watching, or straight on the board)."""

    kind: Literal["menu", "game", "replay", "server", "watch"] = "menu"
    game: str | None = None
    config: Config | None = None
    #: For a game, or a watch: open its set-up screen first.
    setup: bool = False
    watch: WatchSettings | None = None
    server: ServerGameConfig | None = None
    record: Record | None = None
    replay_side: Side = Side.P1
    replay_title: str | None = None

    @classmethod
    def for_config(cls, config: Config, setup: bool = False) -> StartRequest:
        """A game with ``config``: on its set-up screen (``setup``) or straight on the board."""
        return cls("game", game=game_of(config), config=config, setup=setup)


class _ScrollBarRender(ScrollBarRender):
    """Textual's scroll bar, whose thumb ends in eighth-block characters: spaces instead in ASCII mode (the thumb
    still shows as a block of its own colour)."""

    @classmethod
    def render_bar(cls, *args: object, **kwargs: object) -> Segments:
        bar = super().render_bar(*args, **kwargs)  # type: ignore[arg-type]
        if not getattr(active_app.get(None), "ascii_mode", False):
            return bar
        return Segments(
            [Segment(" " * len(s.text), s.style, s.control) if not s.text.isascii() else s for s in bar.segments],
            new_lines=bar.new_lines,
        )


# Textual's documented way to draw scroll bars differently; ours only differs in ASCII mode.
ScrollBar.renderer = _ScrollBarRender


class _AsciiCommandPalette(CommandPalette):
    """The command palette without its magnifying-glass icon and with three dots for the ellipsis."""

    def __init__(self) -> None:
        super().__init__(placeholder="Search for commands...", id="--command-palette")

    def on_mount(self) -> None:
        self.query_one(SearchIcon).icon = ">"


class NashplayApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "nashplay"

    #: Start compiling the search engine in the background at start-up when it is not compiled yet (off in the
    #: tests, whose run compiles it once for all of them).
    COMPILE_ENGINE_AHEAD: ClassVar[bool] = True

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("q", "quit", "Quit"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        # Ctrl-C ends the app as it ends every command (Textual's default only says to press ctrl+q); not a priority
        # binding, so that a widget that binds ctrl+c itself keeps it.
        Binding("ctrl+c", "quit", "Quit", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("t", "next_theme", "Theme"),
    ]

    def __init__(
        self,
        start: StartRequest | None = None,
        *,
        ascii_mode: bool = False,
        theme_name: str | None = None,
        ai_delay: float = 0.3,
        saves: SaveStore | None = None,
    ) -> None:
        super().__init__()
        #: The background compilation of the search engine (``tui.engine_compile``), while it runs.
        self._engine_compiling: subprocess.Popen[bytes] | None = None
        self.start_request = start or StartRequest()
        self.ascii_mode = ascii_mode
        self.glyphs = ASCII if ascii_mode else UNICODE
        #: The theme asked for (``--theme``); ``None``: the one remembered from the last session, else the default.
        self.initial_theme = theme_name
        #: Seconds an AI's reply waits at least, so the user sees their own move land first.
        self.ai_delay = ai_delay
        #: The reviews finished while the app runs, by their record's text (``remember_review``).
        self._reviews: dict[str, Review] = {}
        #: The games in progress (of every game), each saved after every move in a slot of its own and offered for
        #: resume; the finished games' records (``records/``); the recent games.
        self.saves = saves or SaveStore(state_dir())
        #: Said once: the state folder cannot be written (games are not saved) or read.
        self.save_problem: str | None = None
        #: Which advice panels are shown (each game's, ``advice_shown``), the hint, the theme:
        #: remembered between sessions in the state directory.
        self.settings = Settings()

    # ---- remembered choices

    def advice_shown(self, game: str) -> bool:
        """Whether ``game``'s advice panel is shown: remembered per game between sessions (the catalogue entry names
        the setting, ``tui.games.GameEntry.advice_setting``); always for a game without one."""
        setting = game_entry(game).advice_setting
        return True if setting is None else self.settings.get(setting)

    def remember_review(self, record: Record, review: Review) -> None:
        """A finished review, for the game-over panel's accuracy (kept while the app runs)."""
        self._reviews[record.to_text()] = review

    def review_of(self, record: Record) -> Review | None:
        return self._reviews.get(record.to_text())

    def set_advice_shown(self, game: str, shown: bool) -> None:
        setting = game_entry(game).advice_setting
        if setting is not None:
            self.settings.set(setting, shown)

    @property
    def hint(self) -> bool:
        """The suggested move marked on the Geister board (``H``)."""
        return self.settings.get("hint")

    @hint.setter
    def hint(self, value: bool) -> None:
        self.settings.set("hint", value)

    # ---- start-up

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Textual's own themes stay usable: they fall back to the default piece colours.
        return {**super().get_theme_variable_defaults(), **PIECE_VARIABLES}

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        remembered = self.settings.get_text("theme")
        if self.initial_theme is not None:
            self.theme = self.initial_theme
        elif remembered in self.available_themes:
            self.theme = remembered
        else:
            self.theme = DEFAULT.name  # none remembered, or one this Textual no longer has
        # Every change is remembered, by t or by the command palette's theme picker.
        self.theme_changed_signal.subscribe(self, lambda theme: self.settings.set_text("theme", theme.name))
        if self.ascii_mode:
            self.add_class("-ascii")
        request = self.start_request
        if request.kind == "game" and request.game is not None:
            self.open_game(request.game, request.config, request.setup)
        elif request.kind == "server" and request.server is not None:
            self._show(load_screen("tui.screens.server:ServerGameScreen")(request.server))
        elif request.kind == "replay" and request.record is not None:
            self.open_replay(request.record, request.replay_side, request.replay_title)
        elif request.kind == "watch" and request.watch is not None:
            self.open_watch(request.watch, request.setup)
        else:
            self.push_screen(MenuScreen())
            self._check_saved_games()
        if self.COMPILE_ENGINE_AHEAD:
            # The first time on a machine: the engine compiles while the user reads the menu (``tui.engine_compile``).
            self._engine_compiling = start_compiling()

    def on_unmount(self) -> None:
        from tui.search_process import shutdown_all

        shutdown_all()  # the search processes end with the app
        stop_compiling(self._engine_compiling)

    def _check_saved_games(self) -> None:
        """Offer the unfinished games; a damaged one is reported and moved aside. Nothing here stops the app."""
        try:
            slots = self.saves.unfinished()
        except SaveFolderError as error:
            self.report_save_problem(str(error))
            return
        for slot in slots:
            try:
                check_resumable(slot.load())
            except Exception as error:
                self._set_aside(slot, f"The saved game could not be read ({_first_line(error)}).")
        if isinstance(self.screen, MenuScreen) and self.screen.is_mounted:
            # The menu may not be composed yet (it fills itself on mount). It says itself that the games listed
            # for Resume can go on: a toast saying so outlived the menu and still showed after resuming.
            self.screen.fill()

    def _set_aside(self, slot: SaveSlot, why: str) -> None:
        try:
            moved = slot.set_aside()
        except OSError as error:
            where = f"It could not be moved aside ({error.strerror or error}): it stays in {slot.folder}."
        else:
            where = f"It was moved to {moved}."
        self.notify(f"{why} {where}", title="Saved game damaged", severity="warning", timeout=12)

    def report_save_problem(self, problem: str) -> None:
        """Say once that the state folder cannot be used (games will not be saved, or not offered for resume)."""
        if self.save_problem is None:
            self.save_problem = problem
            self.notify(problem, title="Games are not saved", severity="warning", timeout=12)

    def describe_saved_games(self) -> list[tuple[str, str]]:
        """The unfinished games for the menu: (slot id, one line each), newest first."""
        try:
            slots = self.saves.unfinished()
        except SaveFolderError as error:
            self.report_save_problem(str(error))
            return []
        return [(slot.id, line) for slot, line in iter_descriptions(slots)]

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

    def resume_game(self, slot_id: str) -> None:
        slot = self.saves.slot(slot_id)
        try:
            claimed = slot.claim()
        except OSError as error:
            self.notify(f"Cannot resume that game: {error.strerror or error}", severity="error", timeout=10)
            return
        if not claimed:
            self.notify("That game is open in another nashplay: go on with it there.", severity="warning", timeout=8)
            self._refill_menu()
            return
        arguments: tuple[object, ...]
        try:
            record = slot.load()
            if record.is_geister:
                session = GameSession.from_record(record)
                game, arguments = session.config.variant, (session.config, session)
            else:
                resumed = resume_record(record)
                game, arguments = resumed.game, (resumed.config, resumed.state)
        except Exception as error:
            self._set_aside(slot, f"The saved game could not be resumed ({_first_line(error)}).")
            self._refill_menu()
            return
        try:
            self.saves.check_writable()
        except SaveFolderError as error:
            # Said now, not at the first move: the game is resumed all the same, from its save, which stays as it is.
            self.report_save_problem(f"{error}: the game goes on, but its new moves will not be saved.")
        game_screen = load_screen(game_entry(game).play_screen)
        self._show(game_screen(*arguments, slot=slot))

    def _refill_menu(self) -> None:
        """The menu, or the recent games, list the saved games again (one was set aside, or is open elsewhere)."""
        fill = getattr(self.screen, "fill", None)
        if callable(fill) and self.screen.is_mounted:
            fill()

    def open_replay(
        self, record: Record, viewer: Side = Side.P1, title: str | None = None, private: bool = False
    ) -> None:
        """The replay viewer on ``record`` (the Geister family's board, or the record viewer of the other games); a
        record that does not replay is reported, and nothing else changes."""
        try:
            if record.is_geister:
                screen = load_screen("tui.screens.replay:ReplayScreen")(record, viewer, title, private=private)
            else:
                screen = load_screen("tui.screens.record_viewer:RecordViewerScreen")(record, title)
        except (NotationError, ValueError) as error:
            self.notify(f"Cannot replay this record: {_first_line(error)}", severity="error", timeout=10)
            return
        self.push_screen(screen)

    def open_review(self, record: Record, title: str | None = None) -> None:
        """The review of ``record`` (every move judged); a record that cannot be reviewed is reported."""
        try:
            screen = load_screen("tui.screens.review:ReviewScreen")(record, title)
        except (NotationError, ValueError) as error:
            self.notify(f"Cannot review this record: {_first_line(error)}", severity="error", timeout=10)
            return
        self.push_screen(screen)

    def open_recent(self, game: RecentGame) -> None:
        """A game of the recent games: resumed if it is in progress, else its record in the replay viewer."""
        if game.slot_id is not None:
            self.resume_game(game.slot_id)
            return
        try:
            record = game.load()
        except (NotationError, OSError) as error:
            self.notify(f"Cannot open {game.path.name}: {_first_line(error)}", severity="error", timeout=10)
            return
        self.open_replay(record, game.viewer(record), game.title)

    def open_last_game(self) -> None:
        """The most recent game that can be opened (resumed, or replayed when it is over)."""
        last = next((game for game in self.saves.recent() if game.problem is None), None)
        if last is None:
            self.notify("No game to open yet: the games you play are kept, and listed in Recent games.", timeout=6)
            return
        self.open_recent(last)

    def open_record_file(self, path: Path) -> str | None:
        """Open a record file in the replay viewer; returns an error message (one line) instead when it cannot."""
        try:
            record = Record.load(path)
        except OSError as error:  # the OS's words without its errno and the path again
            return printable(f"Cannot replay {path}: {(error.strerror or str(error)).lower()}")
        except NotationError as error:  # names the file itself
            return printable(f"Cannot replay: {error}")
        self.open_replay(record, Side.P1, f"Replay: {printable(path.name)}")
        return None

    @on(ShowMenu)
    def _show_menu(self) -> None:
        # From the hot seat's cover (Esc there): the cover goes, and the game under it is left as from its own screen.
        while len(self.screen_stack) > 1 and isinstance(self.screen, HandOverScreen):
            self.pop_screen()
        # The game left goes on the menu's Resume list: its slot is let go now, not when its screen is unmounted
        # (after the menu has listed the saves).
        self._release_shown_game()
        self._show(MenuScreen())

    @on(WatchGame)
    def _watch_game(self, event: WatchGame) -> None:
        self.open_watch(event.settings, event.setup)

    def open_watch(self, settings: WatchSettings, setup: bool = False) -> None:
        """Two AIs playing as ``settings`` says: on the set-up screen for watching (``setup``: its choices start from
        ``settings``), or straight on the board."""
        self._release_shown_game()
        if setup:
            self._show(load_screen("tui.screens.watch_setup:WatchSetupScreen")(settings))
            return
        watch = load_screen("tui.screens.watch:WatchScreen")
        self._show(watch(settings.variant, settings.resolved_players(), settings.think_times, settings.seed))

    @on(OpenGame)
    def _open_game(self, event: OpenGame) -> None:
        self.open_game(event.game, event.config, event.setup)

    @on(ResumeGame)
    def _resume_game(self, event: ResumeGame) -> None:
        self.resume_game(event.slot_id)

    @on(OpenReplay)
    def _open_replay(self, event: OpenReplay) -> None:
        self.open_replay(event.record, event.viewer, event.title, event.private)

    @on(OpenReview)
    def _open_review(self, event: OpenReview) -> None:
        self.open_review(event.record, event.title)

    @on(AskForRecord)
    def _ask_for_record(self) -> None:
        ask_path = load_screen("tui.screens.ask_path:AskPath")

        def opened(path: str | None) -> None:
            if path:
                # Already expanded by the prompt (``prompt_path``): "~nosuchuser/x" is left as it is there, and
                # expanding it again raised out of the app.
                error = self.open_record_file(Path(path))
                if error and isinstance(self.screen, MenuScreen):
                    self.screen.show_message(error)

        self.push_screen(ask_path(), opened)

    @on(AskForServer)
    def _ask_for_server(self) -> None:
        ask_server = load_screen("tui.screens.ask_path:AskServer")

        def chosen(address: tuple[str, int] | None) -> None:
            if address is not None:
                self.connect(*address)

        self.push_screen(ask_server(), chosen)

    def connect(self, host: str, port: int) -> None:
        """A game on the contest server at ``host``:``port``, as ``nashplay connect`` starts it (records in the state
        folder's ``contest/``; when that cannot take them, the screen says so of each game)."""
        from core.record import prepare_record_folder
        from tui.config import ServerGameConfig

        folder = self.saves.folder.parent / "contest"
        try:
            prepare_record_folder(folder)
        except OSError:
            save_dir = None
        else:
            save_dir = folder
        config = ServerGameConfig(host=host, port=port, save_dir=save_dir)
        self._show(load_screen("tui.screens.server:ServerGameScreen")(config))

    @on(OpenLearningCurves)
    def _open_learning_curves(self, event: OpenLearningCurves) -> None:
        self.push_screen(load_screen("tui.screens.footstep_learning:FootstepLearningScreen")(event.n, event.k))

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Textual's notification, always as text: the app's notifications quote files' names and records' text,
        which may look like markup (a save whose opponent tag was ``[/]`` crashed the app) or hold a terminal's
        escapes. ``markup`` is ignored (a screen's ``notify`` passes Textual's default, markup on)."""
        lines = "\n".join(printable(line) for line in message.split("\n"))
        super().notify(lines, title=printable(title), severity=severity, timeout=timeout, markup=False)

    def format_title(self, title: str, sub_title: str) -> Content:
        if not self.ascii_mode or not sub_title:
            return super().format_title(title, sub_title)
        # Textual joins them with an em dash.
        return Content.assemble(Content(title), (" - ", "dim"), Content(sub_title).stylize("dim"))

    def action_command_palette(self) -> None:
        if self.ascii_mode and self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(_AsciiCommandPalette())
            return
        super().action_command_palette()

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

    async def action_quit(self) -> None:
        """Quit, saying where the game on the screen was kept and how to go on with it (the terminal shows it once the
        app has gone)."""
        self._keep_shown_game()
        self.exit(message=self.where_the_game_is())

    def where_the_game_is(self) -> str | None:
        """Where the game being played is kept, in words, and how to go on with it (or that nothing was, the game having
        no move); ``None`` with no game open."""
        for screen in reversed(self.screen_stack):
            keeper = getattr(screen, "keeper", None)
            if not isinstance(keeper, GameKeeper):
                continue
            if keeper.slot is not None and keeper.slot.exists():
                return (
                    f"Your game is saved in {keeper.slot.path}.\n"
                    "To go on with it, run nashplay and choose it under Resume on the menu."
                )
            if keeper.finished is not None:
                return f"The game's record is in {keeper.finished} (nashplay replay {keeper.finished})."
            if self.save_problem is not None:  # kept nowhere: the state folder cannot take it (said when it began)
                return None
            # Kept only from its first move: said, or the user wonders where the game went.
            return "Nothing was kept: the game had no move."
        return None

    def _release_shown_game(self) -> None:
        """The game on the screen closes now: kept as it stands, then its save slot let go (listed with the others,
        free to resume)."""
        self._keep_shown_game()
        keeper = getattr(self.screen, "keeper", None)
        if isinstance(keeper, GameKeeper):
            keeper.release()

    def _keep_shown_game(self) -> None:
        """The game on the screen kept once more, as it stands now: its clock's time, spent since the last move."""
        # The game's own screen, under any cover or panel over it (the hot seat's hand-over, the game-over panel).
        for screen in reversed(self.screen_stack):
            keep = getattr(screen, "keep_before_leaving", None)
            if callable(keep):
                keep()
                return

    def action_recent_games(self) -> None:
        """The recent games, in place of the current screen (a game there is saved: it is among them)."""
        self._release_shown_game()
        self._show(load_screen("tui.screens.recent:RecentGamesScreen")())

    def action_last_game(self) -> None:
        self.open_last_game()

    def action_next_theme(self) -> None:
        names = [t.name for t in THEMES]
        current = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(current + 1) % len(names)]
        self.notify(f"Theme: {self.theme}", timeout=2)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for title, help_text, action in getattr(screen, "PALETTE", []):
            if screen.check_action(action, ()) is False:  # what the screen does not offer now
                continue
            yield SystemCommand(title, help_text, partial(screen.run_action, action))
        yield SystemCommand(
            "Recent games", "Games in progress and finished, of every game, to open", self.action_recent_games
        )
        yield SystemCommand(
            "Open the last game", "Resume the last game, or replay it if it is over", self.open_last_game
        )
        yield SystemCommand("Help", "Keys and rules", self.action_help)
        yield SystemCommand("Next theme", "Default, colour-blind friendly, light", self.action_next_theme)


if TYPE_CHECKING:
    # Screens see the app as ``AppServices`` (they cannot import this module): mypy checks here that it is one.
    _APP_OFFERS_THE_SCREENS_SERVICES: type[AppServices] = NashplayApp


def _first_line(error: BaseException) -> str:
    """An error for a notification: its first line, at most a few dozen characters of anything it quotes."""
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return clipped(text, 160)
