"""A state of a local game (TCG, Footstep, a heap game, Goofspiel) as the replay viewer and the review show it, from
no player's side.

The view draws with its game's picture (``tui.widgets.pictures``: the heaps, Footstep's track, TCG's points): a
caption, and the picture's own widgets under it; a move can be marked (in a heap game the stones it takes are drawn
as taken, a glyph and not only a colour; the simultaneous games name it). The words that name actions
(``describe_move``) come from the same picture, so the viewer and the review say them alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.widgets.pictures import picture_for


def describe_move(state: Any, text: str) -> str:
    """A move or round of ``state``'s game in words ("player 1: charge, player 2: attack"); the text itself when
    it does not read (a damaged record never breaks the screen)."""
    try:
        action = state.parse_action(text)
    except ValueError:
        return text
    return picture_for(state.game_name).describe_move(state, action)


def describe_action(state: Any, text: str) -> str:
    """One player's action in words: a TCG letter gets its name (``c (charge)``), a bid its word, a heap move what
    it takes."""
    return picture_for(state.game_name).describe_action(state, text)


def describe_actions(state: Any, texts: Sequence[str], most: int) -> str:
    """Up to ``most`` of a player's actions in words, and how many more there are."""
    return picture_for(state.game_name).describe_actions(state, texts, most)


class GameStateView(Vertical):
    """One state of ``game``; ``show`` draws it, with ``marked`` (a move's text) marked."""

    DEFAULT_CSS = """
    GameStateView { height: auto; }
    GameStateView > #state-caption { height: auto; margin-bottom: 1; }
    GameStateView > .picture { margin-bottom: 1; }
    """

    def __init__(self, game: str, *, id: str | None = None, ascii_mode: bool = False) -> None:
        super().__init__(id=id)
        self.ascii_mode = ascii_mode
        self.picture = picture_for(game)

    def compose(self) -> ComposeResult:
        yield Static(id="state-caption", classes="one-line")
        for widget in self.picture.widgets(self.ascii_mode):
            widget.add_class("picture")
            yield widget

    def show(self, state: Any, marked: str | None = None) -> None:
        """Draw ``state``; ``marked``: a move to mark (a heap game's run of stones; named for the others)."""
        caption = self.picture.draw(self, state, marked, self.ascii_mode)
        self.query_one("#state-caption", Static).update(caption)
