"""What every nashplay screen shares: typed access to the app (its glyphs, its screen flow)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar, cast

from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header

from tui.theme import Glyphs

if TYPE_CHECKING:
    from tui.app import NashplayApp

ActionT = TypeVar("ActionT")


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
    @property
    def nashplay(self) -> NashplayApp:
        """The app with its own type (``self.app`` is typed as any ``App``)."""
        return cast("NashplayApp", self.app)

    @property
    def glyphs(self) -> Glyphs:
        return self.nashplay.glyphs

    def on_mount(self) -> None:
        if self.nashplay.ascii_mode:
            for header in self.query(Header):
                header.icon = "*"  # the default icon is a Unicode circle
