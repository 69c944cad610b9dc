"""The replay viewer of TCG, Footstep and heap-game records: step through the states, read each move's comment.

The Geister family has its own viewer (``replay``: a board); this one shows the other games' states with their own
widgets (``GameStateView``: the heaps, Footstep's track, TCG's points), the record's moves or rounds one a line with
the current one marked and their comments (solved lines put mixes, values and countdowns there), and the result.
``v`` asks for the review of the record (``OpenReview``). It replays the record on fresh states
(``Record.positions``: a state every hundred plies is kept, the others are replayed from the nearest when shown, so
that a 10,000-ply record does not hold 10,000 copies of its history) and never touches a game in progress.
"""

from __future__ import annotations

import textwrap
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Static

from core.game import Side
from core.games import GAME_TYPES, state_text, units_of
from core.record import Positions, Record
from tui.messages import OpenReview
from tui.screens.base import PlaybackScreen, title_choices
from tui.widgets.footer import NashplayFooter
from tui.widgets.game_state import GameStateView, describe_move
from tui.widgets.ply_list import PlyList

#: Seconds per move while playing.
PLAY_SECONDS = 1.0


class RecordViewerScreen(PlaybackScreen):
    """Step through a TCG, Footstep or heap-game record (``record.positions()``)."""

    CSS_PATH = "record_viewer.tcss"
    SHRINK_BELOW = (100, 30)
    AUTO_FOCUS = "#viewer-moves"

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        # The status panel says how to step (the footer's room at 80 columns goes to the other keys).
        Binding("right,l", "step(1)", "Next", show=False),
        Binding("left,h", "step(-1)", "Back", show=False),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("space,p", "toggle_play", "Play/pause"),
        Binding("v", "review", "Review"),
        Binding("escape", "close", "Close"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Next move", "Show the state after the next move (right)", "step(1)"),
        ("Previous move", "Show the state before this move (left)", "step(-1)"),
        ("Go to the start", "Show the first state (Home)", "jump(0)"),
        ("Go to the end", "Show the last state (End)", "jump(-1)"),
        ("Play / pause", "Step through the game automatically (space)", "toggle_play"),
        ("Review the game", "Every move judged, a value graph and a summary (v)", "review"),
        ("Close the replay", "Back to where you were (Esc)", "close"),
    ]

    def __init__(self, record: Record, title: str | None = None) -> None:
        """Raises ``RecordError`` (a ``ValueError``) for a record that does not replay."""
        super().__init__()
        self.record = record
        self.states: Positions[Any] = record.positions()
        self.replay_title = title
        self.game_name = record.tags.get("Game")
        self.simultaneous = record.game_kind == "simultaneous"

    @property
    def last_ply(self) -> int:
        return len(self.states) - 1

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="viewer-main"):
            with Vertical(id="viewer-left"):
                yield Static(id="viewer-status", classes="one-line")
                yield GameStateView(self.game_name or "", id="viewer-state", ascii_mode=self.nashplay.ascii_mode)
                yield Static(id="viewer-keys", classes="hint one-line")
            with Vertical(id="viewer-side"):
                yield PlyList(id="viewer-moves")
        yield Static(id="message")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        tags = self.record.tags
        game = GAME_TYPES.get(tags.get("Game", ""))
        name = game.title if game is not None else tags.get("Game", "?")
        title = self.replay_title or f"Replay: {name}"
        players = f"{tags.get('Player1', '?')} vs {tags.get('Player2', '?')}"
        self.set_titles(*title_choices(title, name, players, self.record.result))
        moves = self.query_one("#viewer-moves", PlyList)
        moves.border_title = "Rounds" if self.simultaneous else "Moves"
        what = "round" if self.simultaneous else "move"
        moves.empty_text = f"no {what}s"
        self._list_plies()
        self.start_playback(PLAY_SECONDS)
        self._show()

    def _list_plies(self) -> None:
        """The move list's lines: the start state, then each move or round. The start state is shown whole or not at
        all (a cut state cannot be copied; the state view shows it whole at the start)."""
        start = state_text(self.states[0])
        room = self._list_width() - 2  # the mark ("> ") before each line
        lines = [Text(f"{'':>4} start {start}" if len(f"{'':>4} start {start}") <= room else f"{'':>4} start", end="")]
        comments: list[str | None] = [None]
        for index, recorded in enumerate(self.record.moves):
            if self.simultaneous:
                label = f"{index + 1:>4}. {recorded.text}"
            else:
                # Who moved, without replaying the state (``players``: each state's ``current_player()``).
                mover = Side(self.states.players[index]).number
                label = f"{index + 1:>4}. P{mover} {recorded.text}"
            lines.append(Text(label, end=""))
            comments.append(recorded.comment)
        self.query_one("#viewer-moves", PlyList).set_lines(lines, comments)

    def _list_width(self) -> int:
        """Columns of the move list's lines: its column (``record_viewer.tcss``: 40, 30 compact) less the column's
        border and padding (2) and the list's (4)."""
        return (30 if self.compact else 40) - 6

    def size_changed(self) -> None:
        if self.is_mounted:
            self._list_plies()
            self._show()

    # ---- showing

    def _show(self) -> None:
        state = self.states[self.ply]
        following = self.record.moves[self.ply].text if self.ply < self.last_ply else None
        # A heap game's next move is drawn on the heaps (the stones it takes); a round is named in the status.
        self.query_one("#viewer-state", GameStateView).show(state, following if not self.simultaneous else None)
        self.query_one("#viewer-moves", PlyList).index = self.ply
        self.query_one("#viewer-status", Static).update(self._status(state))
        keys = "left/right: step; Home/End: the ends; space: play; v: review"
        if self.compact:
            keys = "left/right: step; Home/End; v: review"
        self.query_one("#viewer-keys", Static).update(keys)

    def _status(self, state: Any) -> Text:
        what = units_of(self.record.tags.get("Game", ""))[0].capitalize()
        width = max(20, self._left_width())
        text = Text(end="")
        text.append(f"{what} {self.ply} of {self.last_ply}", style="bold")
        text.append(f"   {'playing' if self.playing else 'paused'}", style="dim")
        if self.ply:
            recorded = self.record.moves[self.ply - 1]
            previous = self.states[self.ply - 1]
            what = "round" if self.simultaneous else "move"
            said = f"Last {what}: {recorded.text} ({describe_move(previous, recorded.text)})"
            text.append("\n" + "\n".join(textwrap.wrap(said, width)))
            if recorded.comment:
                comment = textwrap.wrap(recorded.comment, width)
                shown = comment[: 2 if self.compact else 4]
                if len(comment) > len(shown):
                    shown[-1] = shown[-1][: max(0, width - 4)] + " ..."
                text.append("\n" + "\n".join(shown), style="italic")
        outcome = state.outcome()
        if outcome is not None:
            text.append("\n" + "\n".join(textwrap.wrap(f"Game over: {outcome}", width)), style="bold")
        elif self.ply == self.last_ply:
            text.append(f"\nEnd of the record (result {self.record.result})")
        elif self.ply < self.last_ply:
            following = self.record.moves[self.ply].text
            said = f"Next: {following} ({describe_move(state, following)})"
            text.append("\n" + "\n".join(textwrap.wrap(said, width)), style="dim")
        return text

    def _left_width(self) -> int:
        """Columns of the left part's text: the screen less the move list and the paddings."""
        side = 30 if self.compact else 40
        return self.app.size.width - side - (4 if self.compact else 6)

    # ---- stepping

    def watch_ply(self) -> None:
        if self.is_mounted:
            self._show()

    @on(PlyList.Chosen, "#viewer-moves")
    def _chosen(self, event: PlyList.Chosen) -> None:
        event.stop()
        self.playing = False
        self.ply = event.index

    def action_review(self) -> None:
        self.playing = False
        self.post_message(OpenReview(self.record, self.replay_title))

    def action_close(self) -> None:
        self.playing = False
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()
