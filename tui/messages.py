"""Where to go next: what screens ask the App for. Screens never import each other; they post one of these and the
App, which owns navigation, opens the screen (importing it on first use, through the game catalogue)."""

from __future__ import annotations

from textual.message import Message

from core.game import Side
from core.record import Record
from tui.games import Config
from tui.watching import WatchSettings


class ShowMenu(Message):
    """Back to the game menu."""


class OpenGame(Message):
    """Start ``game``: on its set-up screen (``setup``), or straight on the board with ``config``."""

    def __init__(self, game: str, config: Config | None = None, setup: bool = True) -> None:
        super().__init__()
        self.game = game
        self.config = config
        self.setup = setup


class ResumeGame(Message):
    """Go on with the saved game in progress in the save slot ``slot_id``."""

    def __init__(self, slot_id: str) -> None:
        super().__init__()
        self.slot_id = slot_id


class OpenReplay(Message):
    """Show ``record`` in the replay viewer, from ``viewer``'s side; ``private``: only what ``viewer`` saw."""

    def __init__(self, record: Record, viewer: Side = Side.P1, title: str | None = None, private: bool = False) -> None:
        super().__init__()
        self.record = record
        self.viewer = viewer
        self.title = title
        self.private = private


class OpenReview(Message):
    """Review ``record`` (every move judged: ``solvers.review``) in the review screen; ``title`` names it."""

    def __init__(self, record: Record, title: str | None = None) -> None:
        super().__init__()
        self.record = record
        self.title = title


class AskForRecord(Message):
    """Ask for a record file, then replay it."""


class AskForServer(Message):
    """Ask for a contest server's host and port, then play a Geister game on it (as ``nashplay connect``)."""


class OpenLearningCurves(Message):
    """Footstep's learners against the random player, for Footstep(n, k)."""

    def __init__(self, n: int, k: int) -> None:
        super().__init__()
        self.n = n
        self.k = k


class WatchGame(Message):
    """Watch two AIs play (``settings``: the game, the players, each one's time): on the set-up screen for watching
    (``setup``, its choices starting from ``settings``), or straight on the board."""

    def __init__(self, settings: WatchSettings | None = None, setup: bool = False) -> None:
        super().__init__()
        self.settings = settings or WatchSettings()
        self.setup = setup
