"""A state of TCG, Footstep or a heap game as the replay viewer and the review show it, from no player's side.

It draws with the games' own widgets (``HeapRows`` for the heaps, ``Track`` for Footstep's marker) and a line of
text above them; a move can be marked: in a heap game the stones it takes are drawn as taken (a glyph, not only a
colour), in the simultaneous games it is named. The words that name actions (``describe_move``) live here too, so
the viewer and the review say them alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from core.footstep import FootstepState
from core.game import Side
from core.impartial import HeapGameState, HeapMove
from core.tcg import TcgAction, TcgState
from tui.widgets.heaps import HeapRows
from tui.widgets.track import Track

#: (Unicode, ASCII): a point a TCG player holds, and one they could still gain.
POINT = ("█", "#")
NO_POINT = ("·", ".")


class SpectatorTrack(Track):
    """Footstep's track seen by a spectator: player 1's goal on the left, player 2's on the right (player 1 pushes
    to the right), labelled by player instead of "your" and "their"."""

    def render(self) -> Text:
        drawn = super().render()  # drawn with ``human`` player 1: player 1 pushes to the right
        lines = drawn.split("\n")
        width = len(lines[0].plain)
        names = (("player 1's goal", "player 2's goal"), ("P1's goal", "P2's goal"), ("P1 goal", "P2 goal"))
        left, right = next((pair for pair in names if len(pair[0]) + len(pair[1]) + 2 <= width), ("P1", "P2"))
        lines[0] = Text(left.ljust(width // 2) + right.rjust(width - width // 2), end="")
        return Text("\n", end="").join(lines)


def describe_move(state: Any, text: str) -> str:
    """A move or round of ``state``'s game in words ("player 1 charges, player 2 attacks"); the text itself when
    it does not read (a damaged record never breaks the screen)."""
    try:
        action = state.parse_action(text)
    except ValueError:
        return text
    if isinstance(state, TcgState):
        return f"player 1: {action[0].label}, player 2: {action[1].label}"
    if isinstance(state, FootstepState):
        return f"player 1 bids {action[0]}, player 2 bids {action[1]}"
    if isinstance(action, HeapMove):
        taken = f"takes {action.take} from heap {action.number}"
        return taken + (f", leaving {action.split[0]} + {action.split[1]}" if action.split else "")
    return text


def describe_action(state: Any, text: str) -> str:
    """One player's action in words: a TCG letter gets its name (``c (charge)``), a Footstep bid its word, a heap
    move what it takes."""
    if isinstance(state, TcgState):
        try:
            return f"{text} ({TcgAction.parse(text).label})"
        except ValueError:
            return text
    if isinstance(state, FootstepState):
        return f"bid {text}"
    if isinstance(state, HeapGameState):
        return f"{text} ({describe_move(state, text)})"
    return text


def describe_actions(state: Any, texts: Sequence[str], most: int) -> str:
    """Up to ``most`` of a player's actions in words, and how many more there are."""
    shown = list(texts[:most])
    more = f" and {len(texts) - most} more" if len(texts) > most else ""
    if isinstance(state, FootstepState):
        return f"bid {', '.join(shown)}{more}"
    if isinstance(state, TcgState):
        return ", ".join(describe_action(state, text) for text in shown) + more
    return ", ".join(shown) + more


class GameStateView(Vertical):
    """One state of a TCG, Footstep or heap game; ``show`` draws it, with ``marked`` (a move's text) marked."""

    DEFAULT_CSS = """
    GameStateView { height: auto; }
    GameStateView > #state-caption { height: auto; margin-bottom: 1; }
    GameStateView > HeapRows, GameStateView > SpectatorTrack { margin-bottom: 1; }
    """

    def __init__(self, *, id: str | None = None, ascii_mode: bool = False) -> None:
        super().__init__(id=id)
        self.ascii_mode = ascii_mode

    def compose(self) -> ComposeResult:
        yield Static(id="state-caption", classes="one-line")
        yield HeapRows(id="state-heaps")
        yield SpectatorTrack(id="state-track")

    def on_mount(self) -> None:
        self.query_one(HeapRows).ascii_mode = self.ascii_mode

    def show(self, state: Any, marked: str | None = None) -> None:
        """Draw ``state``; ``marked``: a move to mark (a heap game's run of stones; named for the others)."""
        heaps = self.query_one(HeapRows)
        track = self.query_one(SpectatorTrack)
        heaps.display = isinstance(state, HeapGameState)
        track.display = isinstance(state, FootstepState)
        caption = self.query_one("#state-caption", Static)
        if isinstance(state, HeapGameState):
            caption.update(self._heaps(state, heaps, marked))
        elif isinstance(state, FootstepState):
            position = state.position
            track.show(state.k, position.marker, Side.P1, self.ascii_mode)
            text = Text(f"Points: player 1 {position.points1}, player 2 {position.points2}", style="bold", end="")
            text.append(f"\nState {position.text} (n = {state.n}, k = {state.k})")
            caption.update(text)
        elif isinstance(state, TcgState):
            caption.update(self._tcg(state))
        else:
            caption.update(Text(f"{type(state).__name__}: no picture for this game", end=""))

    def _heaps(self, state: HeapGameState, rows: HeapRows, marked: str | None) -> Text:
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
        glyph = "x" if self.ascii_mode else "○"
        text = Text(f"Heaps {state.heaps_text}", style="bold", end="")
        rule = f"{state.rule}{', misere' if state.misere else ''}"
        # The rule beside the heaps where the line has room for it, else under them.
        width = self.content_size.width
        text.append(f"\n{rule}" if width and len(text.plain) + 3 + len(rule) > width else f"   {rule}")
        if move is not None:
            said = f"> and {glyph}: the stones {move.to_text()} takes"
            text.append("\n" + (said if not width or len(said) <= width else f"{glyph}: {move.to_text()} takes"))
        return text

    def _tcg(self, state: TcgState) -> Text:
        point, empty = (POINT[1], NO_POINT[1]) if self.ascii_mode else (POINT[0], NO_POINT[0])
        text = Text(f"Points, n = {state.n}", style="bold", end="")
        for number, held in enumerate(state.points, start=1):
            # After a lost round a player's points may be below 0 (the reason the game ended): drawn as none.
            shown = max(0, min(state.n, held))
            bar = point * shown + empty * (state.n - shown) if state.n <= 20 else ""
            text.append(f"\nplayer {number}: {held:>3} {bar}")
        return text
