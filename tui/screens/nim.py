"""Nim and other impartial heap games (Nim, subtraction games, Kayles): the game screen and its set-up screen.

The heaps are rows of stones; the keyboard picks a heap and how many stones to take (for take-and-break games also
where the knocked-out run lies, so the heap may break in two). Moves go through ``core.impartial.HeapGameState``;
the advice panel draws the ``Advice`` of ``solvers.advice.nim`` (the Sprague-Grundy verdict of
``solvers.grundy.analyse``) with the nim-sum table that explains it. The opponent (the perfect
player, a random one, or a second person at the same keyboard) and the advice are worked out in worker threads, so
the screen answers keys meanwhile; a stale answer (after an undo or a new game) is dropped by a version counter.

The game is kept as it goes (``tui.saves.GameKeeper``): in progress in a save slot, offered for resume; once over its
record in the state folder's ``records/``. ``s`` saves a record there; after the game ``v`` reviews it and ``m`` is
a rematch in which the other player moves first.
"""

from __future__ import annotations

import dataclasses
import textwrap
import time
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Header, Static
from textual.worker import get_current_worker

from core.errors import IllegalMoveError
from core.game import Side
from core.impartial import (
    DAWSONS_KAYLES,
    KAYLES,
    HeapGameState,
    HeapMove,
    HeapRule,
    HeapView,
    Nim,
    Octal,
    Subtraction,
    format_heaps,
)
from solvers.advice.nim import advice_of
from solvers.catalogue import make_player, strongest
from solvers.grundy import Analysis
from tui.config import NimConfig
from tui.game_life import takebacks_allowed
from tui.local_session import LocalSession
from tui.messages import OpenGame, ShowMenu
from tui.saves import SaveSlot
from tui.screens.base import LocalGameScreen, OpponentFailed, OpponentMoved
from tui.widgets.advice import AdvicePanel
from tui.widgets.fitted import Fitted
from tui.widgets.footer import NashplayFooter
from tui.widgets.heaps import HeapRows, NimSumTable

PaletteEntry = tuple[str, str, str]


def rule_title(rule: HeapRule) -> str:
    if isinstance(rule, Nim):
        return "Nim"
    if rule == KAYLES:
        return "Kayles (0.77)"
    if rule == DAWSONS_KAYLES:
        return "Dawson's Kayles (0.07)"
    if isinstance(rule, Subtraction):
        return f"Subtraction game {rule.text}"
    if isinstance(rule, Octal):
        return f"Octal game {rule.code}"
    return str(rule)


def rule_help(rule: HeapRule) -> str:
    if isinstance(rule, Nim):
        return "take any number of stones from one heap"
    if rule == KAYLES:
        return "knock down 1 pin or 2 neighbouring pins; a row may break in two"
    if rule == DAWSONS_KAYLES:
        return "knock down 2 neighbouring pins; a row may break in two"
    if isinstance(rule, Subtraction):
        values = sorted(rule.values)
        listed = ", ".join(str(v) for v in values[:-1]) + (" or " if len(values) > 1 else "") + str(values[-1])
        return f"take {listed} stones from one heap"
    if isinstance(rule, Octal):
        return f"take-and-break game {rule.code}: the stones taken are a run, and the rest may break in two"
    return str(rule)


class NimScreen(LocalGameScreen[HeapGameState]):
    """A heap game against the perfect player, a random one, or a second person."""

    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "nim.tcss"
    SHRINK_BELOW = (100, 30)
    #: The advice panel's width (its border and padding included), and on a compact screen.
    PANEL_WIDTH, COMPACT_PANEL_WIDTH = 46, 36

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        # The keys hint under the heaps says how to choose a move: the footer's room goes to the other keys.
        Binding("up,k", "heap(-1)", "Heap", show=False),
        Binding("down,j", "heap(1)", "Heap", show=False),
        Binding("right,l,plus,equals_sign", "amount(1)", "More", show=False),
        Binding("left,h,minus", "amount(-1)", "Fewer", show=False),
        *[Binding(str(d), f"set_amount({d})", f"Take {d}", show=False) for d in range(1, 10)],
        Binding("left_square_bracket", "run(-1)", "Run left", show=False),
        Binding("right_square_bracket", "run(1)", "Run right", show=False),
        # Play is shown while there is a move to make; after the game Enter says so, and the footer's room goes to
        # the keys of a finished game (the first binding that applies wins).
        Binding("enter", "play", "Play"),
        Binding("enter", "play_after_the_end", "Play", show=False),
        Binding("u", "undo", "Undo"),
        # Out of the footer once the game is over (undo is off then): this twin says why nothing is taken back.
        Binding("u", "undo_after_the_end", "Undo", show=False),
        Binding("a", "toggle_advice", "Advice"),
        Binding("n", "new_game", "New game"),
        Binding("r", "restart", "Restart", show=False),
        Binding("s", "save_record", "Save"),
        Binding("s", "save", "Save", show=False),
        Binding("v", "review", "Review"),
        Binding("m", "rematch", "Rematch"),
        Binding("R", "resign", "Resign", show=False),
        Binding("escape", "menu", "Menu"),
    ]

    PALETTE: ClassVar[list[PaletteEntry]] = [
        ("Resign or abort", "Resign: a loss. Before your second move, abort: nothing is kept (R)", "resign"),
        ("Play the chosen move", "Take the marked stones (Enter)", "play"),
        ("Previous heap", "Choose the heap above (up or k)", "heap(-1)"),
        ("Next heap", "Choose the heap below (down or j)", "heap(1)"),
        ("Take one more", "Take one more stone from the chosen heap (right, l or +)", "amount(1)"),
        ("Take one fewer", "Take one stone fewer (left, h or -)", "amount(-1)"),
        ("Move the run left", "Take-and-break games: knock out stones further left ([)", "run(-1)"),
        ("Move the run right", "Take-and-break games: knock out stones further right (])", "run(1)"),
        ("Undo", "Take back your last move and the opponent's reply (u)", "undo"),
        ("Show or hide the advice", "Grundy values, the nim-sum in binary, the winning moves (a)", "toggle_advice"),
        ("New game", "Choose heaps, rule and opponent (n)", "new_game"),
        ("Restart", "Start this game again from its first position (r)", "restart"),
        ("Save record", "Save this game's record in the state folder's records/ (s)", "save"),
        ("Review this game", "After the game: every move judged (v)", "review"),
        ("Rematch", "After the game: the same heaps, the other player moves first (m)", "rematch"),
        ("Back to the menu", "Choose another game (Esc)", "menu"),
    ]

    class AdviceReady(Message):
        def __init__(self, analysis: Analysis | None, version: int, error: str = "") -> None:
            super().__init__()
            self.analysis = analysis
            self.version = version
            self.error = error

    game_name = "nim"

    def __init__(self, config: NimConfig, state: HeapGameState | None = None, slot: SaveSlot | None = None) -> None:
        """A new game from ``config``, or a saved one going on from ``state`` (kept in ``slot``)."""
        super().__init__()
        self.config = config
        start = state if state is not None else HeapGameState(config.heaps, config.rule, config.misere)
        #: The session keeps the seed out of the record while the game runs (it would foretell the random player's
        #: moves); a resumed game goes on with generators of its own.
        self.session = LocalSession(
            start,
            config.human,
            config.opponent,
            config.seed,
            resumed=state is not None,
            takebacks=takebacks_allowed("nim", config.opponent, config.takebacks),
            clock=config.new_clock(),
        )
        self.slot = slot
        self.splits = self.config.rule.can_split
        #: The AI opponent (none when two people share the keyboard), and the player whose analysis is the advice.
        self.opponent = None if config.opponent == "human" else make_player(config.opponent, "nim")
        self.advisor = strongest("nim").make("nim")
        #: Bumped on every change of position: a worker's answer for an older version is dropped.
        self.version = 0
        self.selected = 0
        self.take = 1
        self.run_start = 0
        self.analysis: Analysis | None = None

    # ---- layout

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="nim-main"):
            with Vertical(id="nim-left"):
                yield Static(id="nim-status", classes="one-line")
                yield HeapRows(id="heaps")
                yield Static(id="nim-move", classes="one-line")
                yield Static(id="nim-history", classes="one-line")
                yield Static(id="nim-keys", classes="hint one-line")
            with Vertical(id="nim-right"):
                yield AdvicePanel(id="advice")
                yield NimSumTable(id="nim-sum")
        yield Fitted(id="message")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#heaps", HeapRows).ascii_mode = self.nashplay.ascii_mode
        title = rule_title(self.config.rule) + (" (misere)" if self.config.misere else "")
        play = "whoever takes the last stone loses" if self.config.misere else "whoever takes the last stone wins"
        if self.config.opponent == "human":
            who, short = "two people at one keyboard", "two people"
        else:
            who = f"you ({self.config.human}) vs the {self.config.opponent} player"
            short = f"you vs {self.config.opponent}"
        self.set_titles((title, f"{who}; {play}"), (title, who), (title, short), (title, ""))
        self.query_one("#nim-right").display = self.advice_shown
        self.attach_saves(self.slot)
        self._position_changed()
        self.start_clock()

    def size_changed(self) -> None:
        self.refresh_view()

    def _left_width(self) -> int:
        """The columns of the left part's text (the screen's padding and the advice panel left out)."""
        panel = (self.COMPACT_PANEL_WIDTH if self.compact else self.PANEL_WIDTH) if self.advice_shown else 0
        return max(20, self.app.size.width - (2 if self.compact else 4) - panel)

    def _keys_hint(self) -> str:
        width = self._left_width()
        rule = textwrap.wrap(f"Rule: {rule_help(self.config.rule)}.", width)
        if self.compact:
            run = ["[ ]: move the knocked-out run"] if self.splits else []
            keys = ["up/down: heap; left/right, 1-9: how many", *run]
        else:
            run = ["[ ]: move the knocked-out run along the row"] if self.splits else []
            keys = [
                "up/down or k/j: choose the heap",
                "left/right, h/l, + -, or 1-9: how many",
                *run,
                "Enter: play   u: undo   a: advice",
                "n: new game   Esc: menu",
            ]
        return "\n".join(rule + [line for key in keys for line in textwrap.wrap(key, width)])

    # ---- who is who

    @property
    def two_people(self) -> bool:
        return self.config.opponent == "human"

    @property
    def humans_turn(self) -> bool:
        return not self.over and (self.two_people or self.state.to_move is self.config.human)

    @property
    def advice_shown(self) -> bool:
        return self.nashplay.advice_shown("nim")

    def _player_name(self, side: Side) -> str:
        if self.two_people:
            return str(side).capitalize()
        return "You" if side is self.config.human else f"The {self.config.opponent} player"

    # ---- the move being chosen

    def _min_take(self) -> int:
        """0 when the rule may split a heap without taking anything (an octal code starting 4.), else 1."""
        return 0 if isinstance(self.config.rule, Octal) and self.config.rule.allows(0, 2) else 1

    def _first_take(self, size: int) -> int:
        """The smallest amount some move takes from a heap of ``size`` (2 in Dawson's Kayles), else 1."""
        takes = [take for take, _ in self.config.rule.moves(size) if take >= self._min_take()]
        return min(takes) if takes else min(1, size)

    def _fit_cursor(self, fresh: bool) -> None:
        """Keep the cursor on a heap with stones and the amount and run inside it; ``fresh``: a new position."""
        heaps = self.state.heaps
        self.selected = min(max(self.selected, 0), len(heaps) - 1)
        if heaps[self.selected] == 0:
            order = list(range(self.selected, len(heaps))) + list(range(self.selected - 1, -1, -1))
            self.selected = next((i for i in order if heaps[i]), self.selected)
        size = heaps[self.selected]
        if fresh:
            self.take = self._first_take(size)
            self.run_start = size
        self.take = min(max(self.take, self._min_take()), size)
        self.run_start = min(max(self.run_start, 0), size - self.take) if self.splits else size - self.take

    def pending_move(self) -> HeapMove:
        """The move the cursor shows: take ``take`` stones with ``run_start`` stones left of them (for a split)."""
        size = self.state.heaps[self.selected]
        take = min(self.take, size)
        left = self.run_start if self.splits else size - take
        right = size - take - left
        if left > 0 and right > 0:
            return HeapMove(self.selected, take, (left, right))
        return HeapMove(self.selected, take)

    # ---- showing the game

    def refresh_view(self) -> None:
        self.query_one("#heaps", HeapRows).show(
            self.state.heaps, self.selected, self.take, self.run_start, active=self.humans_turn
        )
        self.query_one("#nim-status", Static).update(self._status())
        self.query_one("#nim-move", Static).update(self._move_line())
        self.query_one("#nim-history", Static).update(self._history())
        self.query_one("#nim-keys", Static).update(self._keys_hint())
        self._show_advice()

    def _show_advice(self) -> None:
        """The player to move's ``Advice`` in the shared panel, and the nim-sum table that explains it."""
        panel = self.query_one("#advice", AdvicePanel)
        table = self.query_one("#nim-sum", NimSumTable)
        side = self.state.to_move
        who = None if side is self.config.human and not self.two_people else self._player_name(side)
        analysis = self.analysis
        if self.over:
            panel.show(None, "the game is over", compact=self.compact)
            table.show(None)
        elif analysis is None or analysis.heaps != self.state.heaps:
            panel.show(None, "working it out...", compact=self.compact)
            table.show(None)
        else:
            advice = advice_of(analysis, self.state.rule)
            panel.show(advice, advice.engine, compact=self.compact, who=who)
            table.show(analysis)

    def clock_ticked(self) -> None:
        self.query_one("#nim-status", Static).update(self._status())

    def _status(self) -> Text:
        text = Text(end="")
        clock = self.clock_line()
        if clock:
            text.append(clock + "\n")
        text.append(f"Heaps {self.state.heaps_text}", style="bold")
        outcome = self.session.outcome()
        played = len(self.state.history())
        # A ply is one player's turn (a move of each player is two plies).
        plies = f"{played} pl{'y' if played == 1 else 'ies'}"
        # "Ply N" counts the plies played, as the Geister board's does ("ply 1" was said before any move).
        text.append(f"   over after {plies}\n" if outcome is not None else f"   Ply {played}\n")
        if outcome is not None:
            winner = outcome.winner
            if self.two_people or winner is None:
                verdict = f"{str(winner).capitalize()} wins!" if winner is not None else "Draw."
            else:
                verdict = (
                    "You win!" if winner is self.config.human else f"You lose: the {self.config.opponent} player wins."
                )
            text.append(f"Game over: {verdict}", style="bold reverse")
            reason = textwrap.wrap(f"{outcome.reason[:1].upper()}{outcome.reason[1:]}.", self._left_width())
            text.append("\n" + "\n".join(reason) + "\nn: new game, r: again")
            text.append("\nv: review, m: rematch (the other starts)")
            return text
        side = self.state.to_move
        if self.two_people:
            text.append(f"{str(side).capitalize()} to move", style="bold")
            text.append(" (one keyboard)" if self.compact else " (both players use this keyboard)")
        elif self.humans_turn:
            text.append(f"Your turn ({side})", style="bold")
        else:
            text.append(f"The {self.config.opponent} player is thinking...", style="italic")
        return text

    def _move_line(self) -> Text:
        if not self.humans_turn:
            return Text("", end="")
        move = self.pending_move()
        size = self.state.heaps[move.index]
        rest = size - move.take
        if move.split is not None:
            leaves = f"leaves {move.split[0]} + {move.split[1]}"
        elif move.take == 0:
            leaves = "nothing taken"
        else:
            leaves = f"leaves {rest}" if rest else "empties it"
        text = Text(end="")
        stones = f"{size} stone{'s' if size != 1 else ''}"
        text.append(f"Heap {move.number} ({stones}): take {move.take} -> {leaves}", style="bold")
        text.append(f"\nEnter plays {move.to_text()}")
        reason = self.state.why_illegal(move)
        if reason is not None:
            text.append(f"\nNot allowed: {reason}", style="italic")
        return text

    def _history(self) -> Text:
        moves = self.state.history()
        text = Text("Moves: ", style="bold", end="")
        if not moves:
            text.append("none yet", style="dim")
            return text
        items = []
        for i, move in enumerate(moves):
            side = Side.P1 if i % 2 == 0 else Side.P2
            who = (
                f"P{side.number}" if self.two_people else ("you" if side is self.config.human else self.config.opponent)
            )
            items.append(f"{move.to_text()} ({who})")
        # Lines of whole moves, at most three: where they do not fit, the oldest moves are the ones left out.
        room, most = self._left_width() - len("Moves: "), 3
        lines = textwrap.wrap(", ".join(items), room)
        for start in range(1, len(items)):
            if len(lines) <= most:
                break
            lines = textwrap.wrap("... " + ", ".join(items[start:]), room)
        text.append(("\n" + " " * len("Moves: ")).join(lines))
        return text

    def _position_changed(self, fresh: bool = True) -> None:
        """After a move, an undo or a new start: a new version, the view, the advice, maybe the opponent."""
        self.version += 1
        self._fit_cursor(fresh)
        self.session.sync_clock()  # before the keep: the save has the move's increment, as a resume needs
        self._keep()
        self.refresh_bindings()
        self.refresh_view()
        self.check_over()  # the game-over panel once the game is over
        if self.advice_shown and (self.analysis is None or self.analysis.heaps != self.state.heaps):
            self.work_out_advice(self.state.view(self.state.to_move), self.version)
        if not self.over and not self.humans_turn:
            self.think(self.state.view(self.state.to_move), self.version)

    # ---- background work

    @work(thread=True, exclusive=True, group="nim-advice", exit_on_error=False)
    def work_out_advice(self, view: HeapView, version: int) -> None:
        try:
            analysis = next(iter(self.advisor.analyse(view, None, self.rng)))
        except Exception as error:  # a solver bug must not take the game down with it
            self.post_message(self.AdviceReady(None, version, f"{type(error).__name__}: {error}"))
            return
        if not get_current_worker().is_cancelled:
            self.post_message(self.AdviceReady(analysis, version))

    @on(AdviceReady)
    def _advice_ready(self, event: AdviceReady) -> None:
        if event.version != self.version:
            return  # the position changed while it was worked out
        if event.analysis is None:
            self.query_one("#advice", AdvicePanel).show(None, "none", f"The solver failed: {event.error}")
            return
        self.analysis = event.analysis
        self.refresh_view()

    @work(thread=True, exclusive=True, group="nim-opponent", exit_on_error=False)
    def think(self, view: HeapView, version: int) -> None:
        started = time.monotonic()
        try:
            assert self.opponent is not None
            move = self.opponent.choose(view, self.session.opponent_rng)  # its own generator
        except Exception as error:  # an AI bug must not take the game down with it
            self.post_message(OpponentFailed(f"{type(error).__name__}: {error}"))
            return
        # A short pause so the user sees their own move land before the reply.
        remaining = self.nashplay.ai_delay - (time.monotonic() - started)
        if remaining > 0:
            time.sleep(remaining)
        if not get_current_worker().is_cancelled:
            self.post_message(OpponentMoved(move, version))

    @on(OpponentMoved)
    def _opponent_moved(self, event: OpponentMoved[HeapMove]) -> None:
        if event.version != self.version or self.humans_turn or self.over:
            return  # the game changed (undo, restart) while it thought: the answer is stale
        try:
            self.state.apply(event.move)
        except IllegalMoveError as error:
            self.say(f"The opponent tried an illegal move ({error}). Press u to undo or n for a new game.", error=True)
            return
        self.say(f"The {self.config.opponent} player took {self._describe(event.move)}")
        self._position_changed()
        self._announce_end()

    @on(OpponentFailed)
    def _opponent_failed(self, event: OpponentFailed) -> None:
        self.say(f"The opponent failed ({event.error}). Press u to undo or n for a new game.", error=True)

    def _describe(self, move: HeapMove) -> str:
        text = f"{move.take} from heap {move.number} ({move.to_text()})"
        if move.split is not None:
            text += f", leaving heaps of {move.split[0]} and {move.split[1]}"
        return text

    def _announce_end(self) -> None:
        outcome = self.session.outcome()
        if outcome is not None:
            self.say(f"Game over: {outcome}. n: new game, r: play it again.", "Game over. n: new game.")

    def _cancel_work(self) -> None:
        self.workers.cancel_group(self, "nim-opponent")
        self.workers.cancel_group(self, "nim-advice")

    # ---- actions: choosing

    def action_heap(self, step: int) -> None:
        heaps = self.state.heaps
        index = self.selected
        for _ in range(len(heaps)):
            index = (index + step) % len(heaps)
            if heaps[index]:
                break
        if index != self.selected:
            self.selected = index
            self._fit_cursor(fresh=True)
        self.refresh_view()

    def action_amount(self, step: int) -> None:
        self._set_take(self.take + step)

    def action_set_amount(self, amount: int) -> None:
        self._set_take(amount)

    def _set_take(self, amount: int) -> None:
        size = self.state.heaps[self.selected]
        low = self._min_take()
        if amount > size:
            self.say(f"Heap {self.selected + 1} has only {size} stone{'s' if size != 1 else ''}", error=True)
        elif amount < low:
            self.say(f"Take at least {low} stone{'s' if low != 1 else ''}", error=True)
        else:
            self.say("")
        end = self.run_start + self.take  # for a run: keep its right end where it was, as far as it fits
        self.take = min(max(amount, low), size)
        self.run_start = end - self.take
        self._fit_cursor(fresh=False)
        self.refresh_view()

    def action_run(self, step: int) -> None:
        if not self.splits:
            self.say("Here stones come off a heap's end: [ and ] are for take-and-break games", error=True)
            return
        self.run_start += step
        self._fit_cursor(fresh=False)
        self.refresh_view()

    # ---- actions: playing

    def action_play(self) -> None:
        if self.over:
            self.say("The game is over: n starts a new game, r plays it again", error=True)
            return
        if not self.humans_turn:
            self.say(f"Wait: the {self.config.opponent} player is thinking", error=True)
            return
        move = self.pending_move()
        reason = self.state.why_illegal(move)
        if reason is not None:
            self.say(f"Refused: {move.to_text()} is not allowed: {reason}", error=True)
            return
        mover = self.state.to_move
        self.state.apply(move)
        who = str(mover).capitalize() if self.two_people else "You"
        self.say(f"{who} took {self._describe(move)}")
        self._position_changed()
        self._announce_end()

    def action_undo_after_the_end(self) -> None:
        self.action_undo()  # refused, and says why

    def action_undo(self) -> None:
        if self.takeback_refused():
            return
        self._cancel_work()
        history = self.state.history()
        if self.two_people:
            if not history:
                self.say("Nothing to undo", error=True)
                return
            self.state.undo()
            self.say("Took back 1 move")
        else:
            human = self.config.human
            mine = [i for i in range(len(history)) if (Side.P1 if i % 2 == 0 else Side.P2) is human]
            if not mine:
                self.say("Nothing to undo: you have not moved yet", error=True)
                self._position_changed(fresh=False)
                return
            count = len(history) - mine[-1]
            for _ in range(count):
                self.state.undo()
            self.say(f"Took back {count} move{'s' if count > 1 else ''}")
        self._position_changed()

    def action_toggle_advice(self) -> None:
        shown = not self.advice_shown
        self.nashplay.set_advice_shown("nim", shown)
        self.query_one("#nim-right").display = shown
        if shown and (self.analysis is None or self.analysis.heaps != self.state.heaps):
            self.work_out_advice(self.state.view(self.state.to_move), self.version)
        self.say("Advice shown" if shown else "Advice hidden (a shows it)")

    def action_restart(self) -> None:
        self._cancel_work()
        self.new_game(HeapGameState(self.config.heaps, self.config.rule, self.config.misere))
        self.say("The same game again, from the start")
        self._position_changed()

    def action_new_game(self) -> None:
        self._cancel_work()
        self.post_message(OpenGame("nim", self.config, setup=True))

    def game_changed(self) -> None:
        self._position_changed(fresh=False)

    def cancel_work(self) -> None:
        self._cancel_work()

    def action_menu(self) -> None:
        self._cancel_work()
        self.post_message(ShowMenu())

    # ---- records: kept as the game goes, saved, reviewed; a rematch

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "undo_after_the_end"):
            return self.over is (action == "undo_after_the_end")  # u in the footer while the game runs only
        if action in ("review", "rematch", "play_after_the_end"):
            return self.over  # after the game only
        if action in ("play", "save_record"):
            # In the footer while the game runs; after it their keys go through their hidden twins (play_after_the_end,
            # save), and the footer's room goes to v and m.
            return not self.over
        return True

    def action_play_after_the_end(self) -> None:
        self.action_play()

    def action_save(self) -> None:
        """Save the record whenever asked (the palette's entry; the key after the game)."""
        self.action_save_record()

    def review_title(self) -> str:
        title = rule_title(self.config.rule) + (" (misere)" if self.config.misere else "")
        return f"Review: {title}, heaps {format_heaps(self.config.heaps)}"

    def action_rematch(self) -> None:
        if not self.over:
            self.say("A rematch comes after the game: r plays it again from the start", error=True)
            return
        self._cancel_work()
        # A full clock: a resumed game's time left was that game's.
        config = dataclasses.replace(self.config, human=self.config.human.other, clock_left=None)
        self.post_message(OpenGame("nim", config, setup=False))
