"""How a game's state looks to a spectator (the record viewer, the review): one picture per game, named by its
catalogue entry (``tui.games.GameEntry.picture``) and imported on first use.

A picture says which widgets it draws with below the caption (the heaps, Footstep's track; none for a text-only
picture), draws a state into them and returns the caption, and puts actions into words ("player 1 charges, player
2 attacks"), so that the viewer and the review say them alike. ``GameStateView`` holds the picture of its record's
game; nothing here asks which game a state is of.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from rich.text import Text

from tui.games import GAMES, load_screen

if TYPE_CHECKING:
    from textual.widget import Widget

__all__ = ["StatePicture", "picture_for"]


class StatePicture:
    """The plain picture: the state's text as the caption, actions as they are written. Games subclass it."""

    def widgets(self, ascii_mode: bool) -> list[Widget]:
        """The widgets drawn below the caption (composed once, by the view)."""
        return []

    def draw(self, view: Widget, state: Any, marked: str | None, ascii_mode: bool) -> Text:
        """Draw ``state`` into this picture's widgets in ``view`` and return the caption; ``marked``: an action to
        mark where the picture can (a heap game's stones)."""
        return Text(str(getattr(state, "state_text", state)), style="bold", end="")

    def describe_move(self, state: Any, action: Any) -> str:
        """A parsed move or round of ``state`` in words."""
        return str(action)

    def describe_action(self, state: Any, text: str) -> str:
        """One player's action (its text) in words."""
        return text

    def describe_actions(self, state: Any, texts: Sequence[str], most: int) -> str:
        """Up to ``most`` of a player's actions in words, and how many more there are."""
        shown = ", ".join(self.describe_action(state, text) for text in texts[:most])
        return shown + (f" and {len(texts) - most} more" if len(texts) > most else "")


@cache
def picture_for(game: str) -> StatePicture:
    """The picture of ``game`` (a catalogue name); the plain one for a game without its own."""
    entry = GAMES.get(game)
    if entry is None or entry.picture is None:
        return StatePicture()
    picture: StatePicture = load_screen(entry.picture)()
    return picture
