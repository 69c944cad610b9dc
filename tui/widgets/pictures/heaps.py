"""A heap game (Nim, subtraction games, Kayles) as a spectator sees it: the heaps as rows of stones, the stones the
next move takes drawn as taken (a glyph, not only a colour)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from core.impartial import HeapGameState, HeapMove
from tui.widgets.heaps import HeapRows
from tui.widgets.pictures import StatePicture

if TYPE_CHECKING:
    from textual.widget import Widget


class HeapPicture(StatePicture):
    def widgets(self, ascii_mode: bool) -> list[Widget]:
        rows = HeapRows(id="state-heaps")
        rows.ascii_mode = ascii_mode
        return [rows]

    def draw(self, view: Widget, state: Any, marked: str | None, ascii_mode: bool) -> Text:
        assert isinstance(state, HeapGameState)
        rows = view.query_one(HeapRows)
        move: HeapMove | None = None
        if marked is not None:
            try:
                move = state.parse_action(marked)
            except ValueError:
                move = None
        if move is not None and state.why_illegal(move) is None:
            size = state.heaps[move.index]
            start = move.split[0] if move.split is not None else size - move.take
            rows.show(state.heaps, move.index, move.take, start, active=True)
        else:
            move = None
            rows.show(state.heaps, -1, 0, 0, active=False)
        glyph = "x" if ascii_mode else "○"
        text = Text(f"Heaps {state.heaps_text}", style="bold", end="")
        rule = f"{state.rule}{', misere' if state.misere else ''}"
        # The rule beside the heaps where the line has room for it, else under them.
        width = view.content_size.width
        text.append(f"\n{rule}" if width and len(text.plain) + 3 + len(rule) > width else f"   {rule}")
        if move is not None:
            said = f"> and {glyph}: the stones {move.to_text()} takes"
            text.append("\n" + (said if not width or len(said) <= width else f"{glyph}: {move.to_text()} takes"))
        return text

    def describe_move(self, state: Any, action: Any) -> str:
        assert isinstance(action, HeapMove)
        taken = f"takes {action.take} from heap {action.number}"
        return taken + (f", leaving {action.split[0]} + {action.split[1]}" if action.split else "")

    def describe_action(self, state: Any, text: str) -> str:
        try:
            return f"{text} ({self.describe_move(state, state.parse_action(text))})"
        except ValueError:
            return text

    def describe_actions(self, state: Any, texts: Any, most: int) -> str:
        more = f" and {len(texts) - most} more" if len(texts) > most else ""
        return ", ".join(texts[:most]) + more
