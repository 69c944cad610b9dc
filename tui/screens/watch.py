"""Watch two AIs play a game of the Geister family: each thinks for its own time (one per side) from its own view,
with a generator of its own; the watcher sees every colour, pauses (Space), steps one move (Right), sets the speed (+/-)
and asks for either side's advice on the position (a: the side to move).

The game is the watcher's to look at, not to play: nothing is saved while it runs; at the end its record goes into
``records/`` like any finished game, to replay or review.
"""

from __future__ import annotations

import random
import textwrap
import time
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Header
from textual.worker import get_current_worker

from core.game import Side
from core.geister import GeisterState, GeisterView, variant_by_name
from core.record import Record
from solvers.advice import Advice
from solvers.catalogue import player_entry
from tui.messages import OpenReview, ShowMenu
from tui.screens.base import NashplayScreen
from tui.screens.board_screen import piece_letters
from tui.search_process import ProcessStoppedError, RemotePlayer
from tui.session import make_opponent
from tui.watching import DEFAULT_WATCH_TIME
from tui.widgets.advice import AdvicePanel
from tui.widgets.board import Board
from tui.widgets.fitted import Fitted
from tui.widgets.footer import NashplayFooter
from tui.widgets.moves import MoveList

#: The pauses between moves the speed keys step through (seconds).
SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)


class WatchScreen(NashplayScreen):
    """``players`` (catalogue names, player 1's first) play ``variant``; ``think_times``: the seconds each thinks a
    move, player 1's first (a player that does not search decides at once and takes no time)."""

    class Moved(Message):
        def __init__(self, action: Any, version: int, news: str = "") -> None:
            super().__init__()
            self.action = action
            self.version = version
            #: What the player had to tell besides its move (its process was restarted), "" mostly.
            self.news = news

    class Failed(Message):
        def __init__(self, error: str) -> None:
            super().__init__()
            self.error = error

    class AdviceReady(Message):
        def __init__(self, advice: Advice | None, note: str, ply: int) -> None:
            super().__init__()
            self.advice = advice
            self.note = note
            self.ply = ply

    SHRINK_BELOW = (100, 30)
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        # Priority: the board and the move list have their own Space and arrows, which would take them first.
        Binding("space", "toggle_pause", "Pause/play", priority=True),
        Binding("right,l", "step", "Step", priority=True),
        Binding("plus,equals_sign", "speed(-1)", "Faster", priority=True),
        Binding("minus", "speed(1)", "Slower", priority=True),
        Binding("a", "advice", "Advice"),
        Binding("v", "review", "Review", show=False),
        Binding("escape", "menu", "Menu"),
    ]
    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Pause or play", "Stop after the move in hand, or go on (Space)", "toggle_pause"),
        ("Step one move", "While paused: the next move only (Right)", "step"),
        ("Advice for the side to move", "What the adviser says of the position (a)", "advice"),
        ("Review the game", "After the game: every move judged (v)", "review"),
    ]

    HELP_TOPIC = "watch"

    def __init__(
        self,
        variant: str,
        players: tuple[str, str],
        think_times: tuple[float, float] = (DEFAULT_WATCH_TIME, DEFAULT_WATCH_TIME),
        seed: int | None = None,
    ) -> None:
        super().__init__()
        self.game_name = variant
        self.state = GeisterState(variant_by_name(variant))
        self.names = players
        self.think_times = think_times
        self.players = tuple(
            make_opponent(name, variant, seconds) for name, seconds in zip(players, think_times, strict=True)
        )
        self.seed = seed if seed is not None else random.randrange(2**31)
        #: Each player's own generator: neither sees the other's draws.
        self.rngs = (random.Random(self.seed), random.Random(self.seed + 1))
        self.paused = False
        self.pause_index = SPEEDS.index(0.5)
        self.version = 0
        self.thinking = False
        self.kept: str | None = None
        #: The latest news of a player's process (restarted), with the ply it came at: shown from then on.
        self.news = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="board-pane"):
                yield Board(self.glyphs, id="board")
            with Vertical(id="side"):
                yield Fitted(id="status")
                # Its path on lines of its own, cut in the middle when too long: never folded mid-name.
                yield Fitted(id="watch-record")
                yield Fitted(id="captured")
                yield AdvicePanel(id="watch-advice")
                yield MoveList(id="moves")
        yield NashplayFooter()

    @property
    def help_topic(self) -> str:
        return self.HELP_TOPIC  # the watcher's keys, not the game's (game_name names the game for the titles)

    def on_mount(self) -> None:
        super().on_mount()
        title = f"{self.state.variant.title}: {self.names[0]} vs {self.names[1]}"
        self.set_titles((title, "watching, every colour shown"), (title, ""), ("Watching", ""))
        self.query_one("#watch-advice", AdvicePanel).display = False
        board = self.query_one("#board", Board)
        board.interactive = False
        board.inactive_hint = "Watching: Space pauses, Right steps, + and - set the speed"
        self._show()
        self._next()

    # ---- the game going on

    @property
    def delay(self) -> float:
        return SPEEDS[self.pause_index]

    def _next(self) -> None:
        if self.state.is_terminal() or self.thinking:
            return
        self.thinking = True
        side = Side(self.state.current_player())
        self.think(side, self.state.view(side), self.version)

    @work(thread=True, exclusive=True, group="watch", exit_on_error=False)
    def think(self, side: Side, view: GeisterView, version: int) -> None:
        index = 0 if side is Side.P1 else 1
        player = self.players[index]
        try:
            action = player.choose(view, self.rngs[index])
        except ProcessStoppedError as error:  # its process died twice in a row: plain words; Space asks again
            self.post_message(self.Failed(f"{self.names[index]} failed: {error}"))
            return
        except Exception as error:  # an AI's bug: said, and the watcher can leave
            self.post_message(self.Failed(f"{self.names[index]} failed: {type(error).__name__}: {error}"))
            return
        if not get_current_worker().is_cancelled:
            self.post_message(self.Moved(action, version, player.news if isinstance(player, RemotePlayer) else ""))

    @on(Moved)
    def _moved(self, event: Moved) -> None:
        self.thinking = False
        if event.version != self.version or self.state.is_terminal():
            return
        if event.news:
            where = "Set-up" if self.state.phase == "setup" else f"Ply {len(self.state.moves()) + 1}"
            self.news = f"{where}: {event.news}"
        self.state.apply(event.action)
        self.version += 1
        self._show()
        self._follow_advice()
        if self.state.is_terminal():
            self._finished()
        elif not self.paused:
            self.set_timer(max(self.delay, 0.01), self._next)

    @on(Failed)
    def _failed(self, event: Failed) -> None:
        self.thinking = False
        self.paused = True
        self._show(event.error)

    def _finished(self) -> None:
        record = self.record()
        try:
            self.kept = str(self.nashplay.saves.keep_record(record))
        except OSError as error:
            self.kept = None
            self._show(f"The record could not be kept: {error.strerror or error}")
            return
        self._show()
        self.refresh_bindings()

    def record(self) -> Record:
        tags = {"Player1": self.names[0], "Player2": self.names[1], "Seed": str(self.seed)}
        # A tag per side: each side's time is its own, and one tag would misstate one of them.
        tags["ThinkTime1"], tags["ThinkTime2"] = (f"{seconds:g}" for seconds in self.think_times)
        return Record.from_game(self.state, tags)

    # ---- what is shown

    def _show(self, note: str = "") -> None:
        state = self.state
        self.query_one("#board", Board).view = state.revealed_view(Side.P1) if state.phase != "setup" else None
        moves = self.query_one("#moves", MoveList)
        moves.moves = tuple(move.to_text() for move in state.moves())
        moves.first = state.first if state.phase != "setup" else Side.P1
        text = Text(end="")
        limit = state.variant.ply_limit
        text.append(f"Ply {len(state.moves())}" + (f" of {limit}" if limit else "") + "\n", style="bold")
        outcome = state.outcome()
        ended = 0
        record = self.query_one("#watch-record", Fitted)
        record.display = outcome is not None and self.kept is not None
        if outcome is not None:
            ended = len(text)  # the end's line goes here, folded at words to the panel's width (below)
            if self.kept:
                record.show(*record_wordings(self.kept))
        else:
            side = Side(state.current_player())
            who = self.names[0 if side is Side.P1 else 1]
            doing = "paused" if self.paused else f"{who} ({side}) is thinking..."
            text.append(f"{doing}\n", style="italic")
            pause = "no pause" if self.delay == 0 else f"{self.delay:g} s between moves"
            text.append(f"{self._times()}\n{pause}\n", style="dim")
        if self.news:
            text.append(self.news + "\n")
        if note:
            text.append(note + "\n", style="bold")
        wordings = [text]
        if outcome is not None:
            # The end whole on one line, else folded at words for a narrower panel: the first that fits is shown.
            wordings = []
            for width in (0, 60, 50, 40, 30, 24):
                said = f"Game over: {outcome}"
                folded = Text(("\n".join(textwrap.wrap(said, width)) if width else said) + "\n", style="bold")
                wordings.append(Text.assemble(text[:ended], folded, text[ended:], end=""))
        self.query_one("#status", Fitted).show(*wordings)
        self._show_captured()

    def _show_captured(self) -> None:
        """Each player's captures, by player and name, as the game screen shows the user's and the opponent's: the
        board's letters (player 1's pieces upper case, player 2's lower case)."""
        view = self.state.revealed_view(Side.P1) if self.state.phase != "setup" else None
        captured = self.query_one("#captured", Fitted)
        captured.display = view is not None
        if view is None:
            return
        long, short = Text(end=""), Text(end="")
        for side, name in zip(Side, self.names, strict=True):
            letters = piece_letters(view.captured_of(side.other), Side.P1, self.app.theme_variables)
            number = 1 if side is Side.P1 else 2
            for text, who in ((long, f"Player {number} ({name})"), (short, f"P{number}")):
                if text:
                    text.append("\n")
                text.append(f"{who} captured: ")
                text.append_text(letters)
        captured.show(long, short)

    def _times(self) -> str:
        """Each side's thinking time in words (one figure when they are the same)."""
        thinks = [entry.thinks for entry in map(player_entry, self.names)]
        if not any(thinks):
            return "both decide at once"
        if all(thinks) and self.think_times[0] == self.think_times[1]:
            return f"{self.think_times[0]:g} s a move each"
        said = (
            f"{seconds:g} s" if thinking else "at once"
            for seconds, thinking in zip(self.think_times, thinks, strict=True)
        )
        return "a move: P1 " + ", P2 ".join(said)

    # ---- the watcher's keys

    def action_toggle_pause(self) -> None:
        self.paused = not self.paused
        self._show()
        if not self.paused:
            self._next()

    def action_step(self) -> None:
        if not self.paused:
            self.paused = True
        self._show()
        self._next()

    def action_speed(self, step: int) -> None:
        self.pause_index = max(0, min(len(SPEEDS) - 1, self.pause_index + step))
        self._show()

    def action_advice(self) -> None:
        panel = self.query_one("#watch-advice", AdvicePanel)
        panel.display = not panel.display
        self._follow_advice()

    def _follow_advice(self) -> None:
        """The advice shown, if any, for the position shown: worked out again after every move (it said the previous
        ply's side to move's chances), and cleared when the game is over."""
        panel = self.query_one("#watch-advice", AdvicePanel)
        if not panel.display:
            return
        if self.state.is_terminal():
            self.workers.cancel_group(self, "watch-advice")
            panel.show(None, "advice", "The game is over: no advice to give.", self.compact)
        elif self.state.phase == "setup":
            panel.show(None, "advice", "Advice once both set-ups are chosen.", self.compact)
        else:
            side = Side(self.state.current_player())
            panel.show(None, "working it out", f"for {side}...", self.compact)
            self.work_out_advice(self.state.view(side).position(), len(self.state.moves()))

    @work(thread=True, exclusive=True, group="watch-advice", exit_on_error=False)
    def work_out_advice(self, position: str, ply: int) -> None:
        from solvers.advice.registry import Request, advise

        advice: Advice | None = None
        note = ""
        started = time.monotonic()
        try:
            for report in advise(Request(self.state.variant.name, position, values=(("time", 1.0),))):
                advice = report  # the search deepens: the last report is its best word
                if get_current_worker().is_cancelled or time.monotonic() - started > 5:
                    break
        except (ValueError, KeyError) as error:
            note = str(error)
        self.post_message(self.AdviceReady(advice, note, ply))

    @on(AdviceReady)
    def _advice_ready(self, event: AdviceReady) -> None:
        panel = self.query_one("#watch-advice", AdvicePanel)
        if panel.display and event.ply == len(self.state.moves()) and not self.state.is_terminal():
            engine = event.advice.engine if event.advice is not None else "advice"
            panel.show(event.advice, engine, event.note, self.compact, who=str(Side(self.state.current_player())))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "review":
            return self.state.is_terminal()
        return True

    def action_review(self) -> None:
        if self.state.is_terminal():
            self.post_message(OpenReview(self.record(), f"Review: {self.names[0]} vs {self.names[1]}"))

    def action_menu(self) -> None:
        self.workers.cancel_group(self, "watch")
        self.post_message(ShowMenu())


def middle_cut(text: str, width: int) -> str:
    """``text`` in ``width`` columns at most: whole if it fits, else its start and its end with ``...`` between (a
    path keeps its file's name)."""
    if len(text) <= width:
        return text
    room = max(2, width - 3)
    head = room // 3
    return text[:head] + "..." + text[len(text) - (room - head) :]


def record_wordings(path: str) -> list[str]:
    """The kept record's lines, for ``Fitted.show``: its path whole on a line of its own, then cut in the middle a
    column shorter each time (the first that fits the panel is shown), so a path is never folded mid-name."""
    lead = "Its record (v reviews it):"
    return [f"{lead}\n{middle_cut(path, width)}" for width in range(len(path), 9, -1)] or [f"{lead}\n{path}"]
