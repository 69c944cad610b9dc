"""The Twice Clap Game screen: the advisor (type the opponent's action, get an equilibrium suggestion) and the
versus mode (you against the equilibrium AI: both choose in secret, then both actions are revealed).

Solving runs in a worker thread (``tui.screens.solving``): changing n re-solves in the background (or reads the disk
cache) while the game in progress stays playable; the screen shows the solve's progress (sweeps and the Bellman
residual, and a bar after half a second) and ``x`` cancels it. Below 100x30 the screen is compact: shorter texts,
fewer rows of the heat map and of the rounds.

A game may have a chess clock (``--clock``): the user's time runs while their action is to choose (the AI's, or in
advisor mode the opponent's, is not timed), not while there is nothing solved to play; out of time loses.

The game is kept as it goes (``tui.saves.GameKeeper``): in progress in a save slot, offered for resume (the clock
goes on with the time each side had); once over its record in the state folder's ``records/``. ``ctrl+s`` saves a
record there (``s`` is the strong attack); after the game ``v`` reviews it and ``m`` is a rematch with the sides
swapped.
"""

from __future__ import annotations

import dataclasses
import textwrap
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Input, Label, Static

from core.game import Side
from core.tcg import TcgAction, TcgState
from solvers.advice.tcg import advise
from solvers.catalogue import make_player
from solvers.eta import TimeLeft
from solvers.tcg import ACTIONS, TcgSolution, load_solution
from tui.config import TCG_APP_MAX_N, TcgConfig, TcgMode
from tui.game_life import takebacks_allowed
from tui.local_session import LocalSession
from tui.messages import OpenGame, ShowMenu
from tui.saves import SaveSlot
from tui.screens.base import LocalGameScreen
from tui.screens.game_over import GameOverChoice
from tui.screens.solving import (
    COMPILING,
    BackgroundSolve,
    Progress,
    SolveDone,
    SolveFailed,
    SolveProgress,
    compiling_words,
    kept_in_text,
)
from tui.widgets.fitted import Fitted
from tui.widgets.footer import NashplayFooter
from tui.widgets.heatmap import HeatMap
from tui.widgets.mix import MixBars
from tui.widgets.solve_bar import SolveBar


def _solved_game(n: int, progress: Progress) -> tuple[TcgSolution, str]:
    """The solved game for ``n`` (from the disk cache, or solved), with where it came from. The certificate (the
    error bound shown) and the stage games (the advice) cost seconds at n = 200: built here, off the UI thread."""

    time_left = TimeLeft()

    def tell(step: int, residual: float, left: float) -> None:
        # ``left``: the share of the solve still to do (it only falls, and is 0 at the tolerance).
        done = 1 - left
        eta = time_left.text(done)
        words = f"Solving n = {n}: {done:.0%}" + (f", {eta}" if eta else "")
        progress(round(1000 * done), 1000, words, (residual, left, eta))

    def compiling(share: float, seconds: float) -> None:
        # A solve this large runs compiled kernels: the first time on a machine they compile first, said as such.
        progress(*compiling_words(f"Solving n = {n}", share, seconds))

    solution, source = load_solution(n, progress=tell, compiling=compiling)
    solution.certificate  # noqa: B018
    solution.stages  # noqa: B018
    return solution, source


class TcgScreen(LocalGameScreen[TcgState]):
    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "tcg.tcss"
    # Keys act on the screen itself. Textual focuses the first focusable widget on every resume, and the hidden
    # n field would then eat the keys: point auto-focus at a widget that never takes focus.
    AUTO_FOCUS = "#heat"
    SHRINK_BELOW = (100, 30)

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        # The screen itself says which of c a d s to press (the opponent's action, or the user's): the footer's room
        # goes to the other keys.
        Binding("c", "act('c')", "Charge", show=False),
        Binding("a", "act('a')", "Attack", show=False),
        Binding("d", "act('d')", "Defense", show=False),
        Binding("s", "act('s')", "Strong attack", show=False),
        Binding("C", "mine('c')", "I charged", show=False),
        Binding("A", "mine('a')", "I attacked", show=False),
        Binding("D", "mine('d')", "I defended", show=False),
        Binding("S", "mine('s')", "I struck", show=False),
        # After the game v reviews it; until then it switches the mode (the first binding that applies wins).
        Binding("v", "review", "Review"),
        Binding("v", "switch_mode", "Mode"),
        Binding("m", "rematch", "Rematch"),
        Binding("ctrl+s", "save_record", "Save", show=False),
        Binding("n", "ask_n", "Change n"),
        Binding("x", "cancel_solve", "Cancel"),
        Binding("r", "restart", "New game"),
        Binding("u", "undo", "Undo"),
        # Out of the footer once the game is over (undo is off then): this twin says why nothing is taken back.
        Binding("u", "undo_after_the_end", "Undo", show=False),
        Binding("R", "resign", "Resign", show=False),
        Binding("escape", "menu", "Menu"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Resign or abort", "Resign: a loss. Before your second move, abort: nothing is kept (R)", "resign"),
        ("Switch advisor / versus", "Advisor: you type the opponent's action. Versus: play the AI", "switch_mode"),
        ("Change n", "The most points a player can hold; re-solves in the background", "ask_n"),
        ("Cancel the solve", "Stop solving the new n; the game in progress goes on (x)", "cancel_solve"),
        ("New game", "Start again from 0, 0", "restart"),
        ("Undo round", "Take back the last round", "undo"),
        ("Save record", "Save this game's record in the state folder's records/ (ctrl+s)", "save_record"),
        ("Review this game", "After the game: every round judged (v)", "review"),
        ("Rematch", "After the game: the same game with the sides swapped (m)", "rematch"),
        ("Back to the menu", "Choose another game", "menu"),
    ]

    game_name = "tcg"

    def __init__(self, config: TcgConfig, state: TcgState | None = None, slot: SaveSlot | None = None) -> None:
        """A new game from ``config``, or a saved one going on from ``state`` (kept in ``slot``)."""
        super().__init__()
        self.config = config
        self.n = self.config.n
        start = state if state is not None else TcgState(self.n)
        self.session = LocalSession(
            start,
            config.human,
            "",
            config.seed,
            resumed=state is not None,
            takebacks=takebacks_allowed("tcg", "equilibrium" if config.mode == "versus" else "", config.takebacks),
            clock=config.new_clock(),
        )
        self.mode = self.config.mode
        #: Versus mode's AI: the catalogue's equilibrium player (its choices from its own generator).
        self.opponent_player = make_player("equilibrium", "tcg")
        self.slot = slot
        #: Whether the footer shows the keys of a finished game (v, m).
        self.solution: TcgSolution | None = None
        #: The n being solved in the background (``None``: none): the game at ``n`` goes on meanwhile.
        self.solving: int | None = None
        #: Its progress: (sweeps done, Bellman residual).
        self.solve_progress: tuple[float, float, str] | None = None
        #: Advisor mode: the action drawn for the user this round, and the user's own action if they deviated.
        self.suggestion: TcgAction | None = None
        self.own_override: TcgAction | None = None
        #: An action that loses at once (too few points for it), pressed once: the same key again plays it.
        self.warned: TcgAction | None = None
        self.solver: BackgroundSolve[tuple[TcgSolution, str]] = BackgroundSolve(self, "tcg-solve", bar="tcg-solve")

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="tcg-main"):
            with Vertical(id="tcg-left"):
                yield Static(id="tcg-clock", classes="one-line")
                yield Static(id="tcg-state", classes="one-line")
                yield MixBars(id="mix-you")
                yield MixBars(id="mix-them")
                yield Static(id="tcg-suggestion", classes="one-line")
            with Vertical(id="tcg-right"):
                yield HeatMap(id="heat")
                yield Static(id="tcg-history", classes="one-line")
        yield Fitted(id="message")
        with Horizontal(id="n-field"):
            yield Label(f"n (1..{TCG_APP_MAX_N}):", id="n-label")
            yield Input(placeholder="the most points a player can hold; Enter solves, Esc cancels", id="n-input")
        yield SolveBar(id="tcg-solve")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        for bars in self.query(MixBars):
            bars.ascii_mode = self.nashplay.ascii_mode
        self.query_one("#n-field").display = False
        self.query_one("#tcg-clock").display = self.session.clock is not None
        self._fit_heat_map()
        self.attach_saves(self.slot)
        self._titles()
        self._start_solve(self.n)
        self.refresh_view()
        self.start_clock()

    def _titles(self) -> None:
        versus = self.mode == "versus"
        who = "you vs the equilibrium AI" if versus else "advisor: type the opponent's action"
        short = "versus the AI" if versus else "advisor"
        self.set_titles(
            (f"Twice Clap Game, n = {self.n}", f"{who}; you are {self.human}"),
            (f"Twice Clap Game, n = {self.n}", f"{short}; you are {self.human}"),
            (f"Twice Clap Game, n = {self.n}", short),
            (f"TCG, n = {self.n}", short),
        )

    def size_changed(self) -> None:
        self._fit_heat_map()
        self.refresh_view()

    def _fit_heat_map(self) -> None:
        """Fewer rows of states on a compact screen (the rounds below keep their room): at the start as after a
        resize (``size_changed`` comes only with a change)."""
        self.query_one("#heat", HeatMap).max_rows = 9 if self.compact else 11

    # ---- solving in the background

    def _start_solve(self, n: int) -> None:
        """Solve ``n`` in the background (a solve of another n still running stops at its next sweep)."""
        self.solving = n
        self.solve_progress = None
        self.solver.start(n, lambda progress: _solved_game(n, progress), f"Solving n = {n}")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "undo_after_the_end"):
            return self.over is (action == "undo_after_the_end")  # u in the footer while the game runs only
        if action == "cancel_solve":
            return self.solving is not None  # shown in the footer only while a solve runs
        if action in ("review", "rematch"):
            return self.over  # after the game only (until then v switches the mode)
        return True

    @on(SolveFailed)
    def _solve_failed(self, event: SolveFailed) -> None:
        if self.solver.wants(event):
            self.solver.finished()
            n, self.solving = self.solving, None
            self.refresh_bindings()
            self.say(f"Solving n = {n} failed ({event.error}). Press n to try another n.")
            self.refresh_view()

    @on(SolveProgress)
    def _solve_progress(self, event: SolveProgress) -> None:
        if self.solver.wants(event) and event.extra == COMPILING:
            self.solver.advance(event, f"{event.words}; x cancels")
            self.say(f"{event.words}; x cancels")
        elif self.solver.wants(event):
            residual, left, eta = event.extra if isinstance(event.extra, tuple) else (0.0, 1.0, "")
            self.solve_progress = (residual, left, eta)
            self.solver.advance(event, f"{event.words}; x cancels")
            self.say(self._solving_text())
            if self.solution is None:
                self.refresh_view()

    def _solving_text(self) -> str:
        n = self.solving
        done = ""
        if self.solve_progress is not None:
            # The share of the solve done (the residual on a log scale against the target) and the time left.
            residual, left, eta = self.solve_progress
            done = f": {1 - left:.0%} done" + (f", {eta}" if eta else "") + f", residual {residual:.0e}"
        going_on = f"; n = {self.n} goes on" if self.solution is not None else ""
        return f"Solving n = {n}{done}{going_on}; x cancels"

    @on(SolveDone)
    def _solved(self, event: SolveDone) -> None:
        if not self.solver.wants(event):
            return  # an answer for an n the user has cancelled or changed again
        self.solver.finished()
        solution, source = event.result
        self.solving = None
        self.refresh_bindings()
        if self.n != solution.n:
            self.n = solution.n
            self.new_game(TcgState(self.n))
            self._titles()
        self.solution = solution
        seconds = solution.solution.seconds
        where = "from the cache" if source in ("cache", "memory") else f"solved in {seconds:.2f} s"
        self.say(f"n = {self.n}: {where}. Error bound {solution.certificate.gap:.0e}.")
        self._new_suggestion()
        self.refresh_view()

    def action_cancel_solve(self) -> None:
        if self.solving is None:
            return
        cancelled, self.solving = self.solving, None
        self.solver.cancel()  # the solve stops itself at its next sweep
        self.refresh_bindings()
        if self.solution is not None:
            self.say(f"Solving n = {cancelled} cancelled: the n = {self.n} game goes on.")
        else:
            self.say(f"Solving n = {cancelled} cancelled. Press n to choose an n.")
        self.refresh_view()

    # ---- what is shown

    def _new_suggestion(self) -> None:
        self.own_override = None
        self.warned = None
        if self.solution is None or self.over:
            self.suggestion = None
            return
        i1, i2 = self.state.points
        self.suggestion = self.solution.draw(i1, i2, self.human.number, self.rng)

    def check_over(self) -> None:
        super().check_over()
        if self.session.clock is not None and self.solution is None:
            self.session.clock.stop()  # nothing solved to play yet: nobody's time runs

    def clock_line(self) -> str:
        # Short names: the advisor mode's opponent is whoever the user plays, and the line fits the compact column.
        other = "AI" if self.mode == "versus" else "opponent"
        return self.session.clock_text({self.human: "you", self.human.other: other})

    def clock_ticked(self) -> None:
        self.query_one("#tcg-clock", Static).update(Text(self.clock_line(), end=""))

    def refresh_view(self) -> None:
        self.session.sync_clock()  # before the keep: the record has the round's increments, as a resume needs
        self._keep()
        self.check_over()  # v and m in the footer, and the game-over panel, once the game is over
        self.clock_ticked()
        me, them = self.human, self.human.other
        points = self.state.points
        text = Text(end="")
        text.append(f"Points: you {points[me]}, opponent {points[them]}", style="bold")
        text.append(f"   round {len(self.state.history()) + 1}\n")
        solution = self.solution
        heat = self.query_one("#heat", HeatMap)
        suggestion = self.query_one("#tcg-suggestion", Static)
        if solution is None:
            solving = "Solving" if self.solving is not None else "Not solved"
            text.append(f"{solving} n = {self.n} in the background...", style="italic")
            if self.solve_progress is not None and self.solving is not None:
                residual, left, eta = self.solve_progress
                text.append(f"\n{1 - left:.0%} done" + (f", {eta}" if eta else ""), style="italic")
                text.append(f"\nBellman residual {residual:.1e}", style="italic")
                text.append("\n(done when it is below 1e-14)", style="dim")
            if self.solving is not None:  # solved once on a machine: where it is kept
                text.append("\n" + kept_in_text(), style="dim")
            self.query_one("#tcg-state", Static).update(text)
            heat.values = None
            self._clear_mixes()
            suggestion.update(Text("x cancels the solve" if self.solving is not None else "n: choose an n", end=""))
            self._history()
            return
        heat.values = solution.values
        outcome = self.session.outcome()
        if outcome is not None:
            verdict = "You win!" if outcome.winner is me else "You lose."
            text.append(verdict, style="bold")
            # The reason broken at words to the column (compact: 40 columns), never cut.
            width = 40 if self.compact else 60
            text.append("\n" + "\n".join(textwrap.wrap(f"{outcome.reason[:1].upper()}{outcome.reason[1:]}.", width)))
            text.append("\n")
            text.append("v: review, m: rematch\nr: new game", style="bold")  # its rounds stand: no takeback
            self.query_one("#tcg-state", Static).update(text)
            # Nothing to choose any more: no mixes, no request for an action.
            self._clear_mixes()
            suggestion.update(Text("The game is over.", end=""))
            self._history()
            return
        i1, i2 = points
        heat.current = (i1, i2)
        # The equilibrium's Advice for each side (``solvers.advice.tcg``), drawn the TCG way: mixes as bars.
        yours, opponents = advise(solution, i1, i2, me), advise(solution, i1, i2, them)
        if yours.result is not None:
            rounds = yours.plies or 0
            verdict = "win" if yours.result == "win" else "lose"
            text.append(f"You {verdict} in {rounds} round{'' if rounds == 1 else 's'} at most (proven)")
            text.append(f": chance {(yours.value or 0) * 100:.1f}%", style="dim")
        else:
            # To the mix bars' precision (one decimal): "50%" beside a bar's "17.3%" read as two kinds of number.
            text.append(f"Your win chance (equilibrium): {(yours.value or 0) * 100:.1f}%")
        self.query_one("#tcg-state", Static).update(text)
        labels = [f"{a.value} {a.label}" for a in ACTIONS]
        for selector, title, advice in (
            ("#mix-you", "Your equilibrium mix", yours),
            ("#mix-them", "The opponent's equilibrium mix", opponents),
        ):
            lines = {line.move: line for line in advice.moves}
            mix = [lines[a.value].probability or 0.0 for a in ACTIONS]
            keeps = [bool(lines[a.value].note) for a in ACTIONS]
            self.query_one(selector, MixBars).show(title, labels, mix, keeps)
        if self.mode == "advisor" and self.suggestion is not None:
            own = self.own_override or self.suggestion
            note = " (you changed it)" if self.own_override is not None else ""
            suggestion.update(
                Text.assemble(
                    ("Suggested: ", "bold"),
                    (f"{self.suggestion.value} ({self.suggestion.label})", "bold reverse"),
                    f"\nYou play: {own.label}{note}\n",
                    ("Press what the opponent played: c a d s", "bold"),
                    "\nPlayed otherwise? Shift+C/A/D/S first",
                    end="",
                )
            )
        else:
            suggestion.update(
                Text.assemble(("Choose your action: c a d s", "bold"), "\nThe AI draws its own, blind to yours", end="")
            )
        self._history()

    def _clear_mixes(self) -> None:
        for bars in self.query(MixBars):
            bars.show("", [], [], [])

    def _history(self) -> None:
        rounds = self.state.history()
        # Newest first: where the screen has no room for them all, the oldest rounds are the ones left out.
        lines = Text("Rounds, newest first (P1 / P2):" if rounds else "Rounds: ", style="bold", end="")
        if not rounds:
            lines.append("none yet", style="dim")
        shown = 6 if self.compact else 14
        for number in range(len(rounds), max(0, len(rounds) - shown), -1):
            a1, a2 = rounds[number - 1]
            lines.append(f"\n {number:>3}. {a1.label} / {a2.label}")
        if len(rounds) > shown:
            lines.append(f"\n ... and {len(rounds) - shown} earlier", style="dim")
        self.query_one("#tcg-history", Static).update(lines)

    # ---- actions

    def _too_few_points(self, side: Side, action: TcgAction) -> bool:
        return self.state.points[side] + action.delta(self.n) < 0

    def action_act(self, letter: str) -> None:
        """Advisor: the opponent's action ends the round. Versus: the user's own (secret) choice."""
        if self.solution is None:
            self.say("Still solving: a moment, please (x cancels the solve)")
            return
        if self.over:
            self.say("The game is over: r starts a new one, m is a rematch")
            return
        action = TcgAction(letter)
        if self.mode == "advisor":
            opponent = action
            mine = self.own_override or self.suggestion or action
        else:
            if not self._confirmed(action):
                return
            mine = action
            opponent = self.session.opponent_choice(self.opponent_player)
        joint = (mine, opponent) if self.human is Side.P1 else (opponent, mine)
        before = self.state.points
        self.state.apply_joint(joint)
        round_text = f"You: {mine.label}. Opponent: {opponent.label}."
        outcome = self.session.outcome()
        if outcome is not None:
            verdict = "You win" if outcome.winner is self.human else "You lose"
            self.say(f"{round_text} {verdict}: {outcome.reason}.", f"{round_text} {verdict}.")
        elif (
            self.state.points == (0, 0)
            and before != (0, 0)
            and all(before[side] + action.delta(self.n) < 0 for side, action in zip(Side, joint, strict=True))
        ):
            self.say(
                f"{round_text} Both had too few points: by the rules the game starts again from 0, 0.",
                f"{round_text} Both went below 0: the game starts again.",
            )
        else:
            self.say(f"{round_text} Points now {self.state.state_text}.")
        self._new_suggestion()
        self.refresh_view()

    def _confirmed(self, action: TcgAction) -> bool:
        """An action of the user's that loses at once (too few points) is played only when pressed twice in a row:
        the first press says what it would do."""
        if not self._too_few_points(self.human, action) or self.warned is action:
            self.warned = None
            return True
        self.warned = action
        points = self.state.points[self.human]
        cost = -action.delta(self.n)
        self.say(
            f"With {points} points a {action.label} (-{cost}) loses: points below 0 lose the game. "
            f"Press {action.value} again to play it anyway.",
            f"With {points} points a {action.label} loses the game: {action.value} again plays it.",
        )
        return False

    def action_mine(self, letter: str) -> None:
        if self.mode != "advisor":
            self.say("In versus mode just press c a d s for your action")
            return
        if self.solution is None or self.over:
            return
        action = TcgAction(letter)
        if self._too_few_points(self.human, action):
            points = self.state.points[self.human]
            self.say(f"Noted. With {points} points a {action.label} loses the game (points below 0).")
        else:
            self.say(f"Noted: you played {action.label}. Now press what the opponent played.")
        self.own_override = action
        self.refresh_view()

    def action_switch_mode(self) -> None:
        self.mode = "versus" if self.mode == "advisor" else "advisor"
        # The policy follows the mode unless chosen at set-up: none against the equilibrium in versus.
        opponent = "equilibrium" if self.mode == "versus" else ""
        self.session.takebacks = takebacks_allowed("tcg", opponent, self.config.takebacks)
        self.action_restart()
        self._titles()

    def action_restart(self) -> None:
        self.new_game(TcgState(self.n))
        self._new_suggestion()
        self.say(f"New game ({self.mode})")
        self.refresh_view()

    def action_undo_after_the_end(self) -> None:
        self.action_undo()  # refused, and says why

    def action_undo(self) -> None:
        if self.takeback_refused():
            return
        if not self.session.undo():
            self.say("Nothing to undo")
            return
        self._new_suggestion()
        self.say(f"Took back round {len(self.state.history()) + 1}: points {self.state.state_text}.")
        self.refresh_view()

    def action_ask_n(self) -> None:
        self.query_one("#n-field").display = True
        field = self.query_one("#n-input", Input)
        field.value = str(self.solving or self.n)
        field.focus()

    def _close_n_field(self) -> None:
        self.query_one("#n-field").display = False
        self.query_one("#heat").focus()  # takes no focus: the keys go back to the screen

    @on(Input.Submitted, "#n-input")
    def _n_submitted(self, event: Input.Submitted) -> None:
        self._close_n_field()
        try:
            n = int(event.value.strip())
        except ValueError:
            self.say(f"n is a whole number from 1 to {TCG_APP_MAX_N}, not {event.value.strip()[:20]!r}")
            return
        if not 1 <= n <= TCG_APP_MAX_N:
            self.say(f"n is a whole number from 1 to {TCG_APP_MAX_N}, not {n}")
            return
        if n == self.n and self.solution is not None:
            if self.solving is not None:
                self.action_cancel_solve()
            return
        if self.solution is None:
            # Nothing to play meanwhile: the screen waits for the new n.
            self.n = n
            self.new_game(TcgState(n))
            self._titles()
        self._start_solve(n)
        self.say(self._solving_text())
        self.refresh_view()

    def game_changed(self) -> None:
        self.refresh_view()

    GAME_OVER_ACTIONS: ClassVar[dict[GameOverChoice, str]] = {
        "rematch": "rematch",
        "review": "review",
        "new": "restart",  # n asks for another n here
    }

    def action_menu(self) -> None:
        if self.query_one("#n-field").display:
            self._close_n_field()
            return
        self.post_message(ShowMenu())

    # ---- records: kept as the game goes, saved, reviewed; a rematch

    @property
    def mode(self) -> TcgMode:
        """Advisor (the user types the opponent's action) or versus (the equilibrium AI): the record says which."""
        return self._mode

    @mode.setter
    def mode(self, mode: TcgMode) -> None:
        self._mode = mode
        self.session.opponent = "equilibrium" if mode == "versus" else "someone (advisor mode)"
        self.session.tags["Mode"] = mode

    def review_title(self) -> str:
        return f"Review: Twice Clap Game, n = {self.n} ({self.session.outcome()})"

    def action_rematch(self) -> None:
        if not self.over:
            self.say("A rematch comes after the game: r starts a new one")
            return
        # The same clock, full again (not a resumed game's time left).
        config = dataclasses.replace(self.config, n=self.n, mode=self.mode, human=self.human.other, clock_left=None)
        self.post_message(OpenGame("tcg", config, setup=False))

    def on_unmount(self) -> None:
        # Textual calls every class's on_unmount: LocalGameScreen's releases the save slot.
        self.solver.cancel()
