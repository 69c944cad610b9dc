"""What every nashplay screen shares: typed access to the app (its glyphs, its settings), the help topic, and the
messages an AI opponent's worker sends back."""

from __future__ import annotations

from typing import ClassVar, Generic, Protocol, TypeVar, cast

from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header

from tui.games import game_entry
from tui.saves import SaveStore
from tui.theme import Glyphs

ActionT = TypeVar("ActionT")


class AppServices(Protocol):
    """What a screen may ask of the app beyond Textual's own: the display choices, the saved games, and the remembered
    advice toggles. Screens see the app through this, never through ``NashplayApp`` itself, so that no screen module
    depends on the app module (the app imports the screens)."""

    ascii_mode: bool
    glyphs: Glyphs
    #: Seconds an AI's reply waits at least, so the user sees their own move land first.
    ai_delay: float
    saves: SaveStore
    nim_advice: bool
    footstep_advice: bool
    mini_geister_advice: bool
    search_advice: bool
    hint: bool

    def describe_saved_games(self) -> list[tuple[str, str]]: ...

    def report_save_problem(self, problem: str) -> None: ...


class OpponentMoved(Message, Generic[ActionT]):
    """An AI opponent's answer, computed in a worker for the game as it was at ``version``."""

    def __init__(self, move: ActionT, version: int) -> None:
        super().__init__()
        self.move = move
        self.version = version


class OpponentFailed(Message):
    """An AI opponent raised instead of answering: the screen says so and the game stays usable."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class NashplayScreen(Screen[None]):
    #: The game this screen plays or sets up (a ``tui.games`` name); its entry names the help topic.
    game_name: str | None = None
    #: The help topic of a screen that belongs to no game.
    HELP_TOPIC: ClassVar[str] = "general"

    @property
    def nashplay(self) -> AppServices:
        """The app's services (``self.app`` is typed as any ``App``)."""
        return cast("AppServices", self.app)

    @property
    def glyphs(self) -> Glyphs:
        return self.nashplay.glyphs

    @property
    def help_topic(self) -> str:
        """What ``?`` explains here: the game's topic from the game catalogue, else the screen's own."""
        return game_entry(self.game_name).help_topic if self.game_name is not None else self.HELP_TOPIC

    def on_mount(self) -> None:
        if self.nashplay.ascii_mode:
            for header in self.query(Header):
                header.icon = "*"  # the default icon is a Unicode circle
