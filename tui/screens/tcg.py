"""The Twice Clap Game screen: the advisor (type the opponent's action, get an equilibrium suggestion) and the
versus mode (you against the equilibrium AI: both choose in secret, then both actions are revealed).

Solving runs in a worker thread: changing n re-solves in the background (or reads the disk cache) while the screen
keeps answering keys and shows what it is doing.
"""

from __future__ import annotations

import random
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Header, Input, Static
from textual.worker import get_current_worker

from core.game import Side
from core.tcg import TcgAction, TcgState
from solvers.catalogue import make_player
from solvers.tcg import ACTIONS, TcgSolution, load_solution, round_like_source
from tui.config import TCG_APP_MAX_N, TcgConfig, TcgMode
from tui.messages import ShowMenu
from tui.screens.base import NashplayScreen
from tui.widgets.footer import NashplayFooter
from tui.widgets.heatmap import HeatMap
from tui.widgets.mix import MixBars


class _AbandonedSolveError(Exception):
    """Raised inside a solve whose worker was cancelled (the user changed n again)."""


class TcgScreen(NashplayScreen):
    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "tcg.tcss"
    # Keys act on the screen itself. Textual focuses the first focusable widget on every resume, and the hidden
    # n field would then eat the keys: point auto-focus at a widget that never takes focus.
    AUTO_FOCUS = "#heat"

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("c", "act('c')", "Charge"),
        Binding("a", "act('a')", "Attack"),
        Binding("d", "act('d')", "Defense"),
        Binding("s", "act('s')", "Strong attack"),
        Binding("C", "mine('c')", "I charged", show=False),
        Binding("A", "mine('a')", "I attacked", show=False),
        Binding("D", "mine('d')", "I defended", show=False),
        Binding("S", "mine('s')", "I struck", show=False),
        Binding("v", "switch_mode", "Advisor/versus"),
        Binding("n", "ask_n", "Change n"),
        Binding("r", "restart", "New game"),
        Binding("u", "undo", "Undo"),
        Binding("escape", "menu", "Menu"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Switch advisor / versus", "Advisor: you type the opponent's action. Versus: play the AI", "switch_mode"),
        ("Change n", "The most points a player can hold; re-solves in the background", "ask_n"),
        ("New game", "Start again from 0, 0", "restart"),
        ("Undo round", "Take back the last round", "undo"),
        ("Back to the menu", "Choose another game", "menu"),
    ]

    class Solved(Message):
        def __init__(self, solution: TcgSolution, source: str) -> None:
            super().__init__()
            self.solution = solution
            self.source = source

    game_name = "tcg"

    def __init__(self, config: TcgConfig) -> None:
        super().__init__()
        self.config = config
        self.mode: TcgMode = self.config.mode
        self.human = self.config.human
        self.rng = random.Random(self.config.seed)
        #: Versus mode's AI: the catalogue's equilibrium player, drawing from a generator of its own.
        self.opponent = make_player("equilibrium", "tcg")
        self.opponent_rng = random.Random(None if self.config.seed is None else self.config.seed + 1)
        self.n = self.config.n
        self.state = TcgState(self.n)
        self.solution: TcgSolution | None = None
        #: Advisor mode: the action drawn for the user this round, and the user's own action if they deviated.
        self.suggestion: TcgAction | None = None
        self.own_override: TcgAction | None = None
        self.message_text = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="tcg-main"):
            with Vertical(id="tcg-left"):
                yield Static(id="tcg-state")
                yield MixBars(id="mix-you")
                yield MixBars(id="mix-them")
                yield Static(id="tcg-suggestion")
            with Vertical(id="tcg-right"):
                yield Static("Player 1's win probability (row: player 1's points; column: player 2's)", classes="hint")
                yield HeatMap(id="heat")
                yield Static(id="tcg-history")
        yield Static(id="message")
        yield Input(placeholder="n: most points a player can hold (1..200), Enter solves", id="n-input")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        for bars in self.query(MixBars):
            bars.ascii_mode = self.nashplay.ascii_mode
        self._titles()
        self.solve(self.n)
        self.refresh_view()

    def _titles(self) -> None:
        self.title = f"Twice Clap Game, n = {self.n}"
        who = "you vs the equilibrium AI" if self.mode == "versus" else "advisor: type the opponent's action"
        self.sub_title = f"{who}; you are {self.human}"

    # ---- solving in the background

    class SolveProgress(Message):
        def __init__(self, n: int, sweep: int, residual: float) -> None:
            super().__init__()
            self.n = n
            self.sweep = sweep
            self.residual = residual

    class SolveFailed(Message):
        def __init__(self, n: int, error: str) -> None:
            super().__init__()
            self.n = n
            self.error = error

    @work(thread=True, exclusive=True, group="tcg-solve", exit_on_error=False)
    def solve(self, n: int) -> None:
        worker = get_current_worker()

        def progress(sweep: int, residual: float) -> None:
            # A thread cannot be stopped from outside: a solve for an n the user has left stops itself here.
            if worker.is_cancelled:
                raise _AbandonedSolveError
            self.post_message(self.SolveProgress(n, sweep, residual))

        try:
            solution, source = load_solution(n, progress=progress)
        except _AbandonedSolveError:
            return
        except Exception as error:  # a solver failure must be shown, not leave "Solving..." for ever
            self.post_message(self.SolveFailed(n, f"{type(error).__name__}: {error}"))
            return
        self.post_message(self.Solved(solution, source))

    @on(SolveFailed)
    def _solve_failed(self, event: SolveFailed) -> None:
        if event.n == self.n:
            self.say(f"Solving n = {event.n} failed ({event.error}). Press n to try another n.")

    @on(SolveProgress)
    def _solve_progress(self, event: SolveProgress) -> None:
        if event.n == self.n and self.solution is None:
            self.say(
                f"Solving n = {event.n} in the background: sweep {event.sweep}, "
                f"Bellman residual {event.residual:.1e} (keys still work)"
            )

    @on(Solved)
    def _solved(self, event: Solved) -> None:
        if event.solution.n != self.n:
            return  # an answer for an n the user has already changed again
        self.solution = event.solution
        seconds = event.solution.solution.seconds
        where = "from the cache" if event.source in ("cache", "memory") else f"solved in {seconds:.2f} s"
        self.say(f"n = {self.n}: {where}. Error bound {event.solution.certificate.gap:.0e}.")
        self._new_suggestion()
        self.refresh_view()

    # ---- what is shown

    def say(self, text: str) -> None:
        self.message_text = text
        self.query_one("#message", Static).update(text)

    def _new_suggestion(self) -> None:
        self.own_override = None
        if self.solution is None or self.state.is_terminal():
            self.suggestion = None
            return
        i1, i2 = self.state.points
        self.suggestion = self.solution.draw(i1, i2, self.human.number, self.rng)

    def refresh_view(self) -> None:
        me, them = self.human, self.human.other
        points = self.state.points
        text = Text(end="")
        text.append(f"Points: you {points[me]}, opponent {points[them]}", style="bold")
        text.append(f"    round {len(self.state.history()) + 1}\n")
        solution = self.solution
        heat = self.query_one("#heat", HeatMap)
        if solution is None:
            text.append(f"Solving n = {self.n} in the background...", style="italic")
            self.query_one("#tcg-state", Static).update(text)
            heat.values = None
            return
        heat.values = solution.values
        outcome = self.state.outcome()
        if outcome is not None:
            verdict = "You win!" if outcome.winner is me else "You lose."
            text.append(f"{verdict} {outcome.reason}. r: new game", style="bold")
            self.query_one("#tcg-state", Static).update(text)
            self._history()
            return
        i1, i2 = points
        heat.current = (i1, i2)
        advice = solution.advice(i1, i2)
        win = advice.value if me is Side.P1 else 1 - advice.value
        text.append(f"Your win chance (equilibrium play): {round_like_source(win * 100)}%")
        self.query_one("#tcg-state", Static).update(text)
        labels = [f"{a.value} {a.label}" for a in ACTIONS]
        mine, theirs = (advice.p1, advice.p2) if me is Side.P1 else (advice.p2, advice.p1)
        keeps_mine, keeps_theirs = (advice.keeps1, advice.keeps2) if me is Side.P1 else (advice.keeps2, advice.keeps1)
        star_mine, star_theirs = (advice.star1, advice.star2) if me is Side.P1 else (advice.star2, advice.star1)
        self.query_one("#mix-you", MixBars).show(
            "Your equilibrium mix", labels, mine, keeps_mine if star_mine else [False] * 4
        )
        self.query_one("#mix-them", MixBars).show(
            "The opponent's equilibrium mix", labels, theirs, keeps_theirs if star_theirs else [False] * 4
        )
        suggestion = self.query_one("#tcg-suggestion", Static)
        if self.mode == "advisor" and self.suggestion is not None:
            own = self.own_override or self.suggestion
            note = "" if self.own_override is None else " (you changed it)"
            suggestion.update(
                Text.assemble(
                    ("Suggested: ", "bold"),
                    (f"{self.suggestion.value} ({self.suggestion.label})", "bold reverse"),
                    f"  you play {own.label}{note}\n",
                    ("Press what the opponent played: c a d s", "bold"),
                    " (Shift+C/A/D/S first if you played something else)",
                )
            )
        else:
            suggestion.update(
                Text(
                    "Choose your action: c a d s (the AI draws its own from its mix, without seeing yours)",
                    style="bold",
                )
            )
        self._history()

    def _history(self) -> None:
        rounds = self.state.history()
        lines = Text("Rounds (player 1 / player 2): ", style="bold", end="")
        if not rounds:
            lines.append("none yet", style="dim")
        for number, (a1, a2) in enumerate(rounds[-12:], start=max(1, len(rounds) - 11)):
            lines.append(f"\n {number:>3}. {a1.label} / {a2.label}")
        self.query_one("#tcg-history", Static).update(lines)

    # ---- actions

    def action_act(self, letter: str) -> None:
        """Advisor: the opponent's action ends the round. Versus: the user's own (secret) choice."""
        if self.solution is None:
            self.say("Still solving: a moment, please")
            return
        if self.state.is_terminal():
            self.say("The game is over: r starts a new one")
            return
        action = TcgAction(letter)
        if self.mode == "advisor":
            opponent = action
            mine = self.own_override or self.suggestion or action
        else:
            mine = action
            opponent = self.opponent.choose(self.state.view(self.human.other), self.opponent_rng)
        joint = (mine, opponent) if self.human is Side.P1 else (opponent, mine)
        self.state.apply_joint(joint)
        self.say(f"You: {mine.label}. Opponent: {opponent.label}. Points now {self.state.state_text}.")
        self._new_suggestion()
        self.refresh_view()

    def action_mine(self, letter: str) -> None:
        if self.mode != "advisor":
            self.say("In versus mode just press c a d s for your action")
            return
        self.own_override = TcgAction(letter)
        self.refresh_view()

    def action_switch_mode(self) -> None:
        self.mode = "versus" if self.mode == "advisor" else "advisor"
        self.action_restart()
        self._titles()

    def action_restart(self) -> None:
        self.state = TcgState(self.n)
        self._new_suggestion()
        self.say(f"New game ({self.mode})")
        self.refresh_view()

    def action_undo(self) -> None:
        try:
            self.state.undo()
        except IndexError:
            self.say("Nothing to undo")
            return
        self._new_suggestion()
        self.refresh_view()

    def action_ask_n(self) -> None:
        field = self.query_one("#n-input", Input)
        field.value = str(self.n)
        field.display = True
        field.focus()

    @on(Input.Submitted, "#n-input")
    def _n_submitted(self, event: Input.Submitted) -> None:
        field = event.input
        field.display = False
        try:
            n = int(event.value.strip())
        except ValueError:
            self.say(f"n is a whole number from 1 to {TCG_APP_MAX_N}, not {event.value.strip()[:20]!r}")
            return
        if not 1 <= n <= TCG_APP_MAX_N:
            self.say(f"n is a whole number from 1 to {TCG_APP_MAX_N}, not {n}")
            return
        self.n = n
        self.state = TcgState(n)
        self.solution = None
        self._titles()
        self.say(f"Solving n = {n} in the background (keys still work)...")
        self.solve(n)
        self.refresh_view()

    def action_menu(self) -> None:
        field = self.query_one("#n-input", Input)
        if field.display:
            field.display = False
            return
        self.post_message(ShowMenu())
