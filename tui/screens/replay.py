"""The replay viewer: step through a record's positions, or play them at an adjustable speed.

It replays the record's moves on a fresh game (``Record.positions``: a position every hundred plies is kept, the
others are replayed from the nearest when shown) and shows those positions; it never touches a game in progress.
"""

from __future__ import annotations

import textwrap
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Header, Static

from core.game import Side
from core.games import GAME_TYPES
from core.geister import GeisterState, GeisterView, Piece
from core.record import Positions, Record
from tui.config import GeisterConfig
from tui.messages import OpenGame, OpenReview
from tui.screens.base import PlaybackScreen, title_choices
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


def position_lines(position: str, width: int) -> list[str]:
    """A position in a status of ``width`` columns, whole, never cut (it is there to be copied): "Position: P" on one
    line; else "Position:" and the position on a line of its own; else the position broken after a ``/`` (each
    line a whole run of rows); else nothing."""
    if len(f"Position: {position}") <= width:
        return [f"Position: {position}"]
    if len(position) <= width:
        return ["Position:", position]
    rows = position.split("/")
    lines = [rows[0]]
    for row in rows[1:]:
        if len(lines[-1]) + 1 + len(row) <= width:
            lines[-1] += "/" + row
        else:
            lines[-1] += "/"
            lines.append(row)
    return ["Position:", *lines] if all(len(line) <= width for line in lines) else []


#: The stepping keys, most detailed first: the first that fits the status is shown.
KEYS = (
    "left/right: step; Home/End: the ends; f: flip",
    "left/right: step; Home/End; f: flip",
    "left/right: step; f: flip",
    "left/right: step",
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
        Binding("a", "analyse", "Analyse", show=False),  # in the palette and the help: the footer is full at 80x24
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
        ("Analyse from here", "An analysis board on this position, with the advice (a)", "analyse"),
        ("Close the replay", "Back to where you were", "close"),
    ]

    speed_index: reactive[int] = reactive(2)

    def __init__(self, record: Record, viewer: Side = Side.P1, title: str | None = None, private: bool = False) -> None:
        """``private``: show only what ``viewer`` may know (a game still in progress), not every recorded colour."""
        super().__init__()
        self.private = private
        self.record = record
        self.states: Positions[GeisterState] = record.positions()
        self.viewer = viewer
        self.replay_title = title
        #: The width the status text was made for.
        self._status_width = 0

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
        game = GAME_TYPES.get(tags.get("Game", ""))
        name = game.title if game is not None else tags.get("Game", "?")
        title = self.replay_title or f"Replay: {name}"
        players = f"{tags.get('Player1', '?')} vs {tags.get('Player2', '?')}"
        # Long titles ("Solved line, 13 plies: player 1 moves first and ...", "Replay: /a/long/path.ngr") give way
        # to shorter ones, down to "Replay": the header never cuts one.
        self.set_titles(*title_choices(title, name, players, self.record.result))
        board = self.query_one("#board", Board)
        board.interactive = False
        moves = self.query_one("#moves", MoveList)
        moves.moves = tuple(m.text for m in self.record.moves)
        moves.comments = tuple(m.comment for m in self.record.moves)
        moves.first = self.states[0].to_move
        self.start_playback(SPEEDS[self.speed_index])
        self._show()
        self.call_after_refresh(self._fit_status)
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
        status = self.query_one("#status", Static)
        # Not laid out yet (just mounted): the narrowest the side column gets, until the first layout says.
        width = status.content_size.width or 26
        self._status_width = width
        status.update(self.status_text(state, view.position(), width))

    def status_text(self, state: GeisterState, position: str, width: int) -> Text:
        """The status column's text for ``state`` (``position`` as the board shows it), each line within ``width``
        columns: longer texts break between words, the keys take a shorter wording, and the position is never cut
        (``position_lines``)."""
        text = Text(end="")

        def say(line: str, style: str = "") -> None:
            for piece in textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False) or [""]:
                text.append(piece + "\n", style=style)

        say(f"Ply {self.ply} of {self.last_ply}", "bold")
        if self.ply:
            recorded = self.record.moves[self.ply - 1]
            say(f"Last move: {recorded.text}")
            if recorded.comment:
                say(recorded.comment, "italic")
        outcome = state.outcome()
        if outcome is not None:
            say(f"Game over: {outcome}", "bold")
        elif self.ply == self.last_ply:
            say(f"End of the record (result {self.record.result})")
        else:
            say(f"{state.to_move} to move")
        say(f"{'Playing' if self.playing else 'Paused'}, {SPEEDS[self.speed_index]:g} s per move", "dim")
        for line in position_lines(position, width):
            text.append(line + "\n", style="dim")
        text.append(next((keys for keys in KEYS if len(keys) <= width), KEYS[-1]), style="dim")
        return text

    def on_resize(self) -> None:
        # The status column's width is known once the layout is done: its text is made again for it.
        self.call_after_refresh(self._fit_status)

    def _fit_status(self) -> None:
        if self.is_mounted and self.query_one("#status", Static).content_size.width != self._status_width:
            self._show()

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
        if action in ("review", "analyse"):
            return not self.private
        return True

    def action_analyse(self) -> None:
        """An analysis board on the position shown: both sides from the keyboard, every colour, the advice."""
        state = self.states[self.ply]
        if self.private or state.is_terminal():
            return
        self.playing = False
        self.post_message(OpenGame(state.variant.name, GeisterConfig.analysis_board(state), setup=False))

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
