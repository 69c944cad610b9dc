"""Goofspiel as a spectator sees it: the prize turned up, the prizes face down (as a set: their order is hidden),
both players' points and hands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from core.game import Side
from core.goofspiel import GoofspielState
from tui.widgets.pictures import StatePicture

if TYPE_CHECKING:
    from textual.widget import Widget


def cards_text(cards: frozenset[int]) -> str:
    return " ".join(str(card) for card in sorted(cards)) or "-"


class GoofspielPicture(StatePicture):
    def draw(self, view: Widget, state: Any, marked: str | None, ascii_mode: bool) -> Text:
        assert isinstance(state, GoofspielState)
        p1, p2 = state.points
        text = Text(f"Points: player 1 {p1}, player 2 {p2}", style="bold", end="")
        up = state.up
        text.append("\nPrize up: " + ("none (the game is over)" if up is None else str(up)))
        text.append(f"\nFace down: {cards_text(state.prizes)}")
        for side in Side:
            text.append(f"\nPlayer {side.number}'s hand: {cards_text(state.hand(side))}")
        return text

    def describe_move(self, state: Any, action: Any) -> str:
        assert isinstance(state, GoofspielState)
        bid1, bid2 = action
        up = state.up
        prize = f" for the {up}" if up is not None else ""
        taker = "player 1 takes it" if bid1 > bid2 else ("player 2 takes it" if bid2 > bid1 else "a tie: nobody")
        return f"player 1 bids {bid1}, player 2 bids {bid2}{prize}: {taker}"

    def describe_action(self, state: Any, text: str) -> str:
        return f"bid {text}"

    def describe_actions(self, state: Any, texts: Any, most: int) -> str:
        more = f" and {len(texts) - most} more" if len(texts) > most else ""
        return f"bid {', '.join(texts[:most])}{more}"
