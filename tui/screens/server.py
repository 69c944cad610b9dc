"""A game on a Geister contest server, played by the user (``nashplay connect``).

``tui.net.play_game`` runs in the app's own event loop (an async worker) with a ``HumanPlayer``, whose set-up and
moves come from this screen. Its events come back as ``ServerEvent`` messages, in order, and the screen draws what
they say. Nothing here blocks: the network waits in the worker, and the clocks tick on a timer from the readings
of the last event (``Clocks.since``), without asking the network.

A move is checked against the user's view before it is handed to the player (which checks it again against its
mirror of the game): the server counts an illegal move as a loss, so an illegal choice is explained and nothing is
sent. Whatever ends the game (a result, an error, quitting), ``play_game`` saves the record; the screen says where
and offers to connect again for the next game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import ClassVar, Literal

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Header, Input, Static

from core.contest import contest_variant, red_letters, side_for_port
from core.errors import IllegalMoveError
from core.game import Side
from core.geister import Colour, GeisterView, Setup
from core.notation import Move
from core.record import Record
from tui.config import ServerGameConfig
from tui.contest_events import (
    Clocks,
    Connected,
    Connecting,
    ContestError,
    ContestEvent,
    GameAborted,
    GameFinished,
    GameResult,
    MoveRefused,
    MoveRequested,
    PositionChanged,
    SetupRequested,
)
from tui.messages import OpenReplay
from tui.net import STOP_SIGNALS, HumanPlayer, on_signals, play_game
from tui.screens.board_screen import BoardScreen
from tui.web.visitor import contest_refusal
from tui.widgets.advice import AdvicePanel
from tui.widgets.board import Board
from tui.widgets.fitted import Fitted
from tui.widgets.moves import MoveList
from tui.widgets.setup_picker import SetupPicker

Phase = Literal["connecting", "setup", "playing", "over", "failed"]


class ServerEvent(Message):
    """One event of ``play_game`` for the game numbered ``generation`` (an older game's late events are dropped)."""

    def __init__(self, generation: int, event: ContestEvent) -> None:
        super().__init__()
        self.generation = generation
        self.event = event


def clock_text(seconds: float, per_move: float) -> str:
    """One player's time: the budget left as ``m:ss``; once it is spent, what is left of the per-move allowance."""
    if seconds >= 0:
        whole = int(seconds)
        return f"{whole // 60}:{whole % 60:02d}"
    left = per_move + seconds
    return f"0:00, {max(0.0, left):.0f} s of {per_move:g} s for this move" if left > 0 else "out of time"


class ServerGameScreen(BoardScreen):
    """The user plays one game on a contest server, then may connect again for the next."""

    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "server.tcss"

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("s", "send_setup", "Send set-up"),
        Binding("r", "random_setup", "Random set-up"),
        Binding("colon", "type_move", "Type move"),
        Binding("a", "toggle_advice", "Advice"),
        Binding("c", "reconnect", "Connect again"),
        Binding("r", "replay", "Replay"),
        Binding("f", "flip", "Flip", show=False),
        Binding("escape", "back_to_game", "Back to game", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Send the set-up", "Send the 4 red pieces chosen here to the server", "send_setup"),
        ("Type a move", "Enter a move in notation, like b1-b2 or a6-out", "type_move"),
        ("Show or hide the advice", "A search AI's advice on your turn, in a background process (a)", "toggle_advice"),
        ("Connect again", "Play the next game on the server (after a result or an error)", "reconnect"),
        ("Replay this game", "Open the saved record in the replay viewer", "replay"),
        ("Flip board", "Turn the board around", "flip"),
    ]

    MOVE_PLACEHOLDER = "move, like b1-b2 or a6-out to escape (Enter plays, Esc cancels)"
    #: How often the clocks and the retry countdown are redrawn (seconds).
    TICK = 0.25

    game_name = "geister"

    def __init__(self, config: ServerGameConfig) -> None:
        super().__init__()
        self.config = config
        self.variant = contest_variant(config.settings.ply_limit)
        #: The side the port suggests, for the set-up picker; the server's first board says which side we are.
        self.hinted_side = side_for_port(config.port)
        self.rng = random.Random(config.seed)
        self.generation = 0
        self._restore_signals: Callable[[], None] = lambda: None
        #: The plain text last drawn in the panels the timer redraws.
        self._shown: dict[str, str] = {}
        self._reset()

    def _reset(self) -> None:
        """A fresh game: nothing known yet."""
        self.human = HumanPlayer()
        self.phase: Phase = "connecting"
        self.view: GeisterView | None = None
        self.clocks: Clocks | None = None
        self.my_turn = False
        #: Bumped by every event that changes the position; advice computed for an older one is stale.
        self.version = 0
        #: The set-up letters chosen (from ``--setup`` or the picker), waiting for the server's ``SET?`` if not sent.
        self.chosen_setup: str | None = self.config.setup
        self.setup_sent = False
        self.connection = f"connecting to {self.address}..."
        self.retry_at: float | None = None
        self.result: GameResult | None = None
        self.error: ContestError | None = None
        self.quit_armed = False

    @property
    def address(self) -> str:
        return f"{self.config.host}:{self.config.port}"

    # ---- layout

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="board-pane"):
                with Vertical(id="server-setup"):
                    yield Static(classes="heading", id="setup-heading")
                    yield Static(
                        "Space turns the piece under the cursor red or blue; r: random; s: send it", classes="hint"
                    )
                    yield SetupPicker(self.variant, self.hinted_side, self._proposed_setup(), id="picker")
                    yield Static(id="setup-count")
                yield from self.compose_board()
                yield Static(self._legend(), id="legend")
            with Vertical(id="side"):
                yield Static(id="connection")
                yield Static(id="status")
                yield Static(id="clocks")
                yield Fitted(id="captured")
                yield AdvicePanel(id="search-advice")
                yield MoveList(id="moves")
        yield from self.compose_bottom()

    def _show_title(self, sub_title: str) -> None:
        title = f"Contest server {self.address}"
        self.set_titles((title, sub_title), (title, ""))

    def _proposed_setup(self) -> Setup:
        return self.rng.choice(self.variant.setups(self.hinted_side))

    def on_mount(self) -> None:
        super().on_mount()
        self._show_title("connecting")
        # Browsing earlier positions is the replay viewer's job (r, after the game): the list only follows the game.
        self.query_one("#moves", MoveList).can_focus = False
        self._check_size()
        self.set_interval(self.TICK, self._tick)
        self.warm_advice_ahead(f"server-{id(self)}")
        # SIGTERM and SIGHUP (a service manager, a closed terminal) end the app the way q does: the game's worker is
        # cancelled, and play_game saves the record of the game so far on its way out.
        self._restore_signals = on_signals(STOP_SIGNALS, self._stopped_by_signal)
        self._start_game()

    def on_unmount(self) -> None:
        self._restore_signals()

    def _stopped_by_signal(self, signum: int) -> None:
        self.app.exit(return_code=128 + signum)  # the shell's convention for a process ended by a signal

    # ---- the game in the worker

    def _start_game(self) -> None:
        self.generation += 1
        self._reset()
        self._show_setup_picker()
        self.refresh_all()
        self.play_on_server(self.generation)

    @work(exclusive=True, group="server-game", exit_on_error=False)
    async def play_on_server(self, generation: int) -> None:
        """One whole game; its events and its end come back as ``ServerEvent`` messages, in order."""

        def forward(event: ContestEvent) -> None:
            # The end is reported below, from the result or the error: that also covers a connection never made
            # (``play_game`` raises ConnectError before any game event).
            if not isinstance(event, GameFinished | GameAborted):
                self.post_message(ServerEvent(generation, event))

        config = self.config
        try:
            result = await play_game(
                config.host,
                config.port,
                self.human,
                settings=config.settings,
                on_event=forward,
                save_dir=config.save_dir,
                game_number=generation,
                name=config.name or "human",
            )
        except ContestError as error:
            self.post_message(ServerEvent(generation, GameAborted(error)))
            return
        except Exception as error:  # a bug must not take the app down: report it as a failed game
            failure = ContestError(f"the game stopped on an unexpected error: {type(error).__name__}: {error}")
            self.post_message(ServerEvent(generation, GameAborted(failure)))
            return
        self.post_message(ServerEvent(generation, GameFinished(result)))

    @on(ServerEvent)
    def _server_event(self, message: ServerEvent) -> None:
        if message.generation != self.generation:
            return
        event = message.event
        if isinstance(event, Connecting):
            self.retry_at = time.monotonic() + event.retry_in
            if event.dropped:  # the server queued us during another game and reset us when it ended: no game
                self.connection = f"dropped before a game began ({event.error}; not a game), attempt {event.attempt}"
            else:
                self.connection = f"cannot connect ({event.error}, attempt {event.attempt})"
        elif isinstance(event, Connected):
            self.retry_at = None
            self.connection = "connected; waiting for the server to start the game"
        elif isinstance(event, SetupRequested):
            self.phase = "setup"
            self.connection = "connected"
            self._send_chosen_setup()
            if not self.setup_sent:
                self.say("The server asks for your set-up: choose your 4 red pieces and press s to send it.")
        elif isinstance(event, PositionChanged):
            self._position_changed(event)
        elif isinstance(event, MoveRequested):
            self.view, self.clocks = event.view, event.clocks
            self.my_turn = True
            self.version += 1
        elif isinstance(event, MoveRefused):  # moves are checked before they are handed over: not expected
            self.say(f"Refused, nothing was sent: {event.reason}", error=True)
        elif isinstance(event, GameFinished):
            self._finished(event.result)
        elif isinstance(event, GameAborted):
            self._aborted(event.error)
        self.refresh_all()

    def _position_changed(self, event: PositionChanged) -> None:
        first = self.view is None
        self.view, self.clocks = event.view, event.clocks
        self.version += 1
        self.my_turn = False
        if self.phase in ("connecting", "setup"):
            self.phase = "playing"
        if first:
            self._show_board()
        if event.opponent_move is not None:
            self.say(f"They played {event.opponent_move}")
        elif first and event.own_move is None:
            self.say("The game has started: your move (Enter picks a piece and drops it; : types a move)")
        elif event.own_move is not None:
            taken = event.captured
            what = ""
            if taken is not None:
                known = taken.colour is not Colour.UNKNOWN
                what = f", capturing a {taken.colour.word} piece" if known else ", capturing a piece"
            self.say(f"You played {event.own_move}{what}; the server accepted it")

    def _finished(self, result: GameResult) -> None:
        self.phase = "over"
        self.result = result
        self.my_turn = False
        if result.final_view is not None:
            self.view = result.final_view
            self._show_board()
        self.connection = "closed (the game is over)"
        verdict = {"won": "You won!", "lost": "You lost.", "draw": "Draw."}[result.result]
        saved = f" Record: {result.record_path}." if result.record_path else " The record could not be saved."
        self.say(f"Game over: {verdict} ({result.outcome.reason}).{saved} c: next game, r: replay, q: quit")

    def _aborted(self, error: ContestError) -> None:
        self.phase = "failed"
        self.error = error
        self.my_turn = False
        self.retry_at = None
        self.connection = "closed"
        reason = error.message[:1].upper() + error.message[1:]
        if not reason.endswith((".", "?", "!")):
            reason += "."
        if not self._may_connect():  # a web visitor's address the serve's owner did not allow: c would refuse again
            self.say(f"{reason} Press q to leave.", error=True)
            return
        self.say(f"{reason} {self._record_note(error)} Press c to connect again, q to quit.", error=True)

    def _may_connect(self) -> bool:
        """Whether this app may connect to the configured server (in a visitor's app of ``nashplay serve``, only
        where the server's owner allowed; ``tui.net.open_game`` refuses the rest)."""
        return contest_refusal(self.config.host, self.config.port) is None

    @staticmethod
    def _record_note(error: ContestError) -> str:
        if error.record_path is not None:
            return f"The record so far is saved in {error.record_path}."
        if error.record is not None:
            return "The record so far could not be saved."
        return "No game had begun: there is no record."

    # ---- showing it

    def _show_setup_picker(self) -> None:
        choosing = self.config.setup is None
        board = self.query_one("#board", Board)
        self.query_one("#server-setup").display = choosing
        board.display = not choosing
        self.query_one("#legend").display = not choosing
        board.view = None
        if choosing:
            self.query_one("#picker", SetupPicker).focus()
            self._show_setup_count()
        else:
            board.focus()

    def _show_board(self) -> None:
        picker_had_focus = self.query_one("#picker", SetupPicker).has_focus
        self.query_one("#server-setup").display = False
        board = self.query_one("#board", Board)
        board.display = True
        self.query_one("#legend").display = True
        if picker_had_focus or self.focused is None:
            board.focus()

    def refresh_all(self) -> None:
        view = self.view
        board = self.query_one("#board", Board)
        if view is not None:
            board.view = view
        board.interactive = self.phase == "playing"
        board.inactive_hint = (
            "The game is over: c connects for the next game, r replays this one"
            if self.phase in ("over", "failed")
            else ""
        )
        moves = self.query_one("#moves", MoveList)
        moves.moves = tuple(m.to_text() for m in view.moves) if view is not None else ()
        moves.first = Side.P1  # on the server the first player always moves first
        self.query_one("#status", Static).update(self._status())
        captured = self.query_one("#captured", Fitted)
        captured.display = view is not None
        if view is not None:
            captured.show(*self._captured(view))
        self._show_title(self._sub_title())
        self._tick()
        self._update_advice()
        self.refresh_bindings()

    def _sub_title(self) -> str:
        view = self.view
        if view is not None:
            return f"you are {view.viewer} ({'moves first' if view.viewer is Side.P1 else 'moves second'})"
        return {"connecting": "connecting", "setup": "set-up"}.get(self.phase, "no game")

    def _tick(self) -> None:
        """Redraw what changes with time: the running clock and the retry countdown; send a set-up chosen early."""
        self._send_chosen_setup()
        for selector, text in (("#connection", self._connection_text()), ("#clocks", self._clocks_text())):
            # Most ticks change nothing (the clocks move once a second): redraw only what did.
            if self._shown.get(selector) != text.plain:
                self._shown[selector] = text.plain
                self.query_one(selector, Static).update(text)

    def _connection_text(self) -> Text:
        text = Text("Server ", end="", style="bold")
        text.append(self.address, style="bold")
        state = self.connection
        if self.retry_at is not None:
            wait = max(0.0, self.retry_at - time.monotonic())
            state = f"{state}; retrying in {wait:.1f} s"
        text.append(f": {state}")
        return text

    def _clocks_text(self) -> Text:
        settings = self.config.settings
        text = Text(f"Clocks: {settings.budget:g} s each, then {settings.per_move:g} s a move\n", end="", style="dim")
        clocks = self.clocks
        ours = clocks.ours if clocks is not None else settings.budget
        theirs = clocks.theirs if clocks is not None else settings.budget
        running = clocks.running if clocks is not None and self.phase == "playing" else None
        if clocks is not None and running is not None:
            spent = time.monotonic() - clocks.since
            if settings.whole_seconds:  # as the server charges: a second counts once it is over
                spent = math.floor(spent)
            if running == "ours":
                ours -= spent
            else:
                theirs -= spent
        for label, seconds, who in (("You", ours, "ours"), ("Opponent", theirs, "theirs")):
            style = "bold reverse" if running == who else ""
            text.append(f"  {label:<9}", style=style)
            text.append(f" {clock_text(seconds, settings.per_move)}", style=style)
            text.append(" (running)\n" if running == who else "\n")
        return text

    def _status(self) -> Text:
        text = Text(end="")
        view = self.view
        limit = self.variant.ply_limit
        ply = view.ply if view is not None else 0
        text.append(f"Ply {ply} of {limit}", style="bold")
        text.append(" (then a draw)\n", style="dim")
        if self.phase == "connecting":
            text.append("Waiting for the server to start the game\n", style="italic")
        elif self.phase == "setup":
            if self.setup_sent:
                text.append("Set-up sent; waiting for the first move\n", style="italic")
            else:
                text.append("Choose your set-up (s sends it)\n", style="bold")
        elif self.phase == "playing":
            if self.my_turn:
                text.append("Your move", style="bold")
                text.append(f" ({view.viewer if view else '?'})\n")
            else:
                text.append("Waiting for the opponent's move...\n", style="italic")
        elif self.phase == "over" and self.result is not None:
            verdict = {"won": "You won!", "lost": "You lost.", "draw": "Draw."}[self.result.result]
            text.append(f"Game over: {verdict}\n", style="bold")
            text.append(f"{self.result.outcome.reason}\n")
            if self.result.note:
                text.append(f"Note: {self.result.note}\n", style="dim")
            text.append("All colours are revealed.\n", style="dim")
        elif self.phase == "failed" and self.error is not None:
            text.append("The game stopped: ", style="bold")
            text.append(f"{self.error.message}\n")
        if view is not None and view.last_move is not None:
            mover = Side.P1 if len(view.moves) % 2 == 1 else Side.P2
            who = "you" if mover is view.viewer else "opponent"
            text.append(f"Last move: {view.last_move} ({who})\n")
        if self.chosen_setup is not None:
            text.append(f"Your red pieces: {' '.join(self.chosen_setup)}", style="dim")
            text.append(" (sent)\n" if self.setup_sent else " (not sent yet)\n", style="dim")
        path = self.result.record_path if self.result is not None else None
        path = path or (self.error.record_path if self.error is not None else None)
        if path is not None:
            text.append(f"Record: {path}\n", style="dim")
        return text

    # ---- set-up

    def _show_setup_count(self) -> None:
        picker = self.query_one("#picker", SetupPicker)
        reds = picker.colours.count(Colour.RED)
        self.query_one("#setup-heading", Static).update(
            f"Your set-up (you are {picker.side} if the server agrees: the first board tells)"
        )
        if reds == 4:
            letters = red_letters(picker.setup, picker.side)
            line = Text(f"Red: 4 of 4; s sends SET:{letters}", style="bold", end="")
        else:
            line = Text(f"Red: {reds} of 4   (choose exactly 4 red)", style="bold reverse", end="")
        self.query_one("#setup-count", Static).update(line)

    @on(SetupPicker.Changed)
    def _picker_changed(self) -> None:
        self._show_setup_count()

    def action_random_setup(self) -> None:
        picker = self.query_one("#picker", SetupPicker)
        picker.configure(picker.side, self.rng.choice(self.variant.setups(picker.side)))
        self._show_setup_count()

    def action_send_setup(self) -> None:
        picker = self.query_one("#picker", SetupPicker)
        try:
            # Letters name pieces in the player's own view, whichever side the server gives us: what the user sees
            # in the picker is what is sent, even on a port that does not say the side.
            self.chosen_setup = red_letters(picker.setup, picker.side)
        except IllegalMoveError as error:
            self.say(f"Not yet: {error}", error=True)
            return
        self._send_chosen_setup()
        if not self.setup_sent:
            self.say(f"Set-up chosen (red {self.chosen_setup}); it is sent when the server asks for it.")
        self.refresh_all()

    def _send_chosen_setup(self) -> None:
        if self.chosen_setup is None or self.setup_sent or self.human.waiting_for != "setup":
            return
        self.human.submit_setup(self.chosen_setup)
        self.setup_sent = True
        self.say(f"Set-up sent: red {self.chosen_setup}. Waiting for the game to start.")
        self.refresh_bindings()

    # ---- moves

    def play(self, move: Move) -> None:
        view = self.view
        if self.phase != "playing" or view is None:
            self.say("There is no game on the board now: nothing was sent", error=True)
            return
        if not self.my_turn or self.human.waiting_for != "move":
            self.say(f"Wait for your turn: the opponent is to move ({move} was not sent)", error=True)
            return
        reason = view.why_illegal(move)
        if reason is not None:
            # Never sent: the server counts an illegal move as a loss.
            self.say(f"Refused, nothing was sent: {move} is illegal: {reason}", error=True)
            return
        self.human.submit_move(move)
        self.my_turn = False
        self.version += 1
        self.say(f"You played {move}; waiting for the server to accept it")
        self.refresh_all()

    def action_type_move(self) -> None:
        self.open_input(self.MOVE_PLACEHOLDER)

    @on(Input.Submitted, "#move-input")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.close_input()
        if text:
            self.play_text(text)

    def action_back_to_game(self) -> None:
        if self.close_input():
            self.say("")
            return
        self.query_one("#board", Board).selected = None

    # ---- advice

    def _update_advice(self) -> None:
        why = "the game is over" if self.phase in ("over", "failed") else "waiting for your turn"
        self.update_search_advice(
            self.nashplay.advice_shown(self.variant_name()),
            self.view if self.my_turn else None,
            f"server-{id(self)}-{self.generation}",
            self.version,
            why,
        )

    def search_is_current(self, version: int) -> bool:
        return version == self.version and self.my_turn

    def variant_name(self) -> str:
        return self.variant.name

    def action_toggle_advice(self) -> None:
        self.nashplay.set_advice_shown(self.variant_name(), not self.nashplay.advice_shown(self.variant_name()))
        self._update_advice()

    def refresh_advice(self) -> None:
        self._update_advice()

    # ---- after the game, and leaving

    def action_reconnect(self) -> None:
        self.say(f"Connecting to {self.address} for the next game...")
        self._start_game()

    def action_replay(self) -> None:
        record = self._record()
        if record is None:
            self.say("There is no record to replay", error=True)
            return
        viewer = self.view.viewer if self.view is not None else self.hinted_side
        self.post_message(OpenReplay(record, viewer, f"Replay: {self.address}"))

    def _record(self) -> Record | None:
        if self.result is not None:
            return self.result.record
        if self.error is not None:
            return self.error.record
        return None

    def action_quit_game(self) -> None:
        # A connected game in progress is lost by disconnecting: ask once more before leaving.
        in_game = self.phase in ("setup", "playing")
        if in_game and not self.quit_armed:
            self.quit_armed = True
            self.say(
                "Quitting now loses this game (the server counts a disconnect as a loss); the record so far is "
                "saved. Press q again to quit.",
                error=True,
            )
            return
        self.app.exit()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("send_setup", "random_setup"):
            return self.config.setup is None and not self.setup_sent and self.phase in ("connecting", "setup")
        if action == "type_move":
            return self.phase == "playing"
        if action == "reconnect":
            return self.phase in ("over", "failed") and self._may_connect()
        if action == "replay":
            return self.phase in ("over", "failed") and self._record() is not None
        return True
