"""The replay viewer: step through a record's positions, or play them at an adjustable speed.

It replays the record's moves on a fresh game (``Record.replay``) and shows those positions; it never touches a
game in progress.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Header, Static

from core.game import Side
from core.geister import GeisterState, GeisterView, Piece
from core.record import Record
from tui.messages import OpenReview
from tui.screens.base import PlaybackScreen
from tui.widgets.board import Board
from tui.widgets.footer import NashplayFooter
from tui.widgets.moves import MoveList

SPEEDS = (4.0, 2.0, 1.0, 0.5, 0.25, 0.1)


def spectator_view(state: GeisterState, seen_from: Side) -> GeisterView:
    """Every colour the record knows, drawn with ``seen_from`` at the bottom (a replay hides nothing it has)."""
    variant = state.variant
    board: list[Piece | None] = [None] * (variant.width * variant.height)
    for square, piece in state.pieces():
        board[variant.index(square)] = piece
    return GeisterView(
        variant=variant,
        viewer=seen_from,
        phase=state.phase,
        to_move=state.to_move,
        ply=state.ply,
        board=tuple(board),
        captured=state.captured,
        escaped=state.escaped,
        moves=tuple(state.moves()),
        outcome=state.outcome(),
        own_setup=state.setup(seen_from),
        start=state.start_position,
    )


class ReplayScreen(PlaybackScreen):
    HELP_TOPIC = "geister"
    SHRINK_BELOW = (100, 30)

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        # The status panel says how to step (the footer has no room for every key at 80 columns).
        Binding("right,l", "step(1)", "Next", show=False),
        Binding("left,h", "step(-1)", "Back", show=False),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("space,p", "toggle_play", "Play/pause"),
        Binding("plus,equals_sign", "speed(1)", "Faster"),
        Binding("minus", "speed(-1)", "Slower"),
        # Said in the status panel: at 80 columns the footer has room for the review's key but not for this one.
        Binding("f", "flip", "Flip", show=False),
        Binding("v", "review", "Review"),
        Binding("escape", "close", "Close"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Play / pause", "Step through the game automatically", "toggle_play"),
        ("Next move", "Show the position after the next move", "step(1)"),
        ("Previous move", "Show the position before this move", "step(-1)"),
        ("Go to the start", "Show the starting position", "jump(0)"),
        ("Go to the end", "Show the final position", "jump(-1)"),
        ("Faster", "Play back faster", "speed(1)"),
        ("Slower", "Play back slower", "speed(-1)"),
        ("Flip board", "Turn the board around", "flip"),
        ("Review the game", "Every move judged, a value graph and a summary (v)", "review"),
        ("Close the replay", "Back to where you were", "close"),
    ]

    speed_index: reactive[int] = reactive(2)

    def __init__(self, record: Record, viewer: Side = Side.P1, title: str | None = None, private: bool = False) -> None:
        """``private``: show only what ``viewer`` may know (a game still in progress), not every recorded colour."""
        super().__init__()
        self.private = private
        self.record = record
        self.states = record.replay()
        self.viewer = viewer
        self.replay_title = title

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="board-pane"):
                yield Board(self.glyphs, id="board")
            with Vertical(id="side"):
                yield Static(id="status", classes="one-line")
                yield MoveList(id="moves")
        yield Static(id="message")
        yield NashplayFooter()

    def on_mount(self) -> None:
        tags = self.record.tags
        title = self.replay_title or f"Replay: {tags.get('Game', '?')}"
        players = f"{tags.get('Player1', '?')} vs {tags.get('Player2', '?')}"
        sub_title = f"{players}, result {self.record.result}"
        # Long titles ("Solved line, 13 plies: player 1 moves first and ...") drop their detail after the colon.
        short = title.split(": ")[0] if ": " in title and not title.startswith("Replay: ") else title
        self.set_titles((title, sub_title), (title, players), (title, ""), (short, sub_title), (short, ""))
        board = self.query_one("#board", Board)
        board.interactive = False
        moves = self.query_one("#moves", MoveList)
        moves.moves = tuple(m.text for m in self.record.moves)
        moves.comments = tuple(m.comment for m in self.record.moves)
        moves.first = self.states[0].to_move
        self.start_playback(SPEEDS[self.speed_index])
        self._show()
        moves.focus()

    @property
    def last_ply(self) -> int:
        return len(self.states) - 1

    def _show(self) -> None:
        state = self.states[self.ply]
        view = state.view(self.viewer) if self.private else spectator_view(state, self.viewer)
        self.query_one("#board", Board).view = view
        moves = self.query_one("#moves", MoveList)
        moves.ply = None if self.ply == self.last_ply else self.ply
        text = Text(end="")
        text.append(f"Ply {self.ply} of {self.last_ply}\n", style="bold")
        if self.ply:
            recorded = self.record.moves[self.ply - 1]
            text.append(f"Last move: {recorded.text}\n")
            if recorded.comment:
                text.append(f"{recorded.comment}\n", style="italic")
        outcome = state.outcome()
        if outcome is not None:
            text.append(f"Game over: {outcome}\n", style="bold")
        elif self.ply == self.last_ply:
            text.append(f"End of the record (result {self.record.result})\n")
        else:
            text.append(f"{state.to_move} to move\n")
        text.append(
            f"{'Playing' if self.playing else 'Paused'}, {SPEEDS[self.speed_index]:g} s per move\n", style="dim"
        )
        text.append(f"Position: {view.position()}\n", style="dim")
        text.append("left/right: step; Home/End: the ends; f: flip", style="dim")
        self.query_one("#status", Static).update(text)

    def watch_ply(self) -> None:
        if self.is_mounted:
            self._show()

    def watch_speed_index(self, index: int) -> None:
        if self._timer is None:
            return
        self.start_playback(SPEEDS[index])
        self._show()

    def action_speed(self, delta: int) -> None:
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + delta))

    def action_flip(self) -> None:
        board = self.query_one("#board", Board)
        board.flipped = not board.flipped

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A private replay is of a game still in progress: its review would judge the opponent's moves from the
        # opponent's own view, showing the colours the user may not know yet.
        if action == "review":
            return not self.private
        return True

    def action_review(self) -> None:
        if self.private:
            return
        self.playing = False
        self.post_message(OpenReview(self.record, self.replay_title))

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    @on(MoveList.Browse)
    def _browse(self, event: MoveList.Browse) -> None:
        event.stop()
        self.playing = False
        self.ply = event.ply
