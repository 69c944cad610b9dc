"""Footstep in the app: you against the equilibrium player, the random player, or a learner, with the advisor's
equilibrium mix one key away; and the learning curves of the source's learners.

A round: the opponent picks its bid in secret as the round opens (so it cannot depend on yours), you type yours
(digits, or +/- and the arrows), Enter, and both bids are shown together. Solving the table and training the
learners run off the UI thread: the solve in a worker thread (numpy and HiGHS release the interpreter), the learning
experiments in a separate process (their turn loop would otherwise hold the interpreter for seconds).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, Header, Input, Static
from textual.worker import get_current_worker

from core.footstep import FootstepState
from core.game import Side
from solvers.footstep import FootstepSolution, exact_vs_random
from solvers.footstep_learning import RULES, BidTables, LearningConfig, LearningCurve, run_elsewhere
from tui import plot
from tui.screens.base import NashplayScreen
from tui.widgets.mix import MixBars

OPPONENT_TITLES = {
    "equilibrium": "the equilibrium player",
    "random": "the random player",
    "learner": "a reward learner (trained on 10,000 games against random, still learning)",
}
#: The learner opponent's training before it meets you.
LEARNER_TRAINING_GAMES = 10_000
#: The learning-curve screen's experiment: smaller than the command line's default, to be ready in seconds.
APP_GAMES, APP_RUNS = 5_000, 10


class _AbandonedSolveError(Exception):
    """Raised inside a solve whose worker was cancelled (the user asked for another size)."""


@dataclass(frozen=True)
class FootstepConfig:
    n: int = 50
    k: int = 4
    opponent: str = "equilibrium"
    human: Side = Side.P1
    seed: int | None = None


class Track(Widget):
    """The track from the user's side: their own goal on the left, the opponent's on the right, and the marker."""

    DEFAULT_CSS = "Track { height: 3; width: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.k = 4
        self.marker = 0
        self.human = Side.P1
        self.ascii_mode = False

    def show(self, k: int, marker: int, human: Side, ascii_mode: bool) -> None:
        self.k, self.marker, self.human, self.ascii_mode = k, marker, human, ascii_mode
        self.refresh(layout=True)

    def get_content_width(self, container: object, viewport: object) -> int:
        return 4 * (2 * self.k + 1) + 24

    def render(self) -> Text:
        # Player 1 pushes toward +k; the user always pushes to the right.
        toward_opponent = self.marker if self.human is Side.P1 else -self.marker
        goal, step, here = ("|", ".", "@") if self.ascii_mode else ("‖", "·", "◆")
        cells = []
        for z in range(-self.k, self.k + 1):
            mark = here if z == toward_opponent else (goal if abs(z) == self.k else step)
            cells.append(f" {mark} ")
        line = " ".join(cells)
        text = Text(end="")
        text.append("your goal".ljust(len(line) // 2) + "their goal".rjust(len(line) - len(line) // 2) + "\n")
        text.append(line + "\n", style="bold")
        centre = " " * (len(line) // 2) + ("^" if self.ascii_mode else "▲") + " centre"
        text.append(centre, style="dim")
        return text


class FootstepScreen(NashplayScreen):
    AUTO_FOCUS = "#fs-track"

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        *[Binding(str(d), f"digit({d})", "Bid", show=d == 1, key_display="0-9") for d in range(10)],
        Binding("backspace", "erase", "Erase", show=False),
        Binding("plus,equals_sign,up,right", "adjust(1)", "+1"),
        Binding("minus,down,left", "adjust(-1)", "-1", show=False),
        Binding("enter", "bid", "Bid!"),
        Binding("a", "toggle_advice", "Advice"),
        Binding("s", "use_suggestion", "Use advice", show=False),
        Binding("n", "new_game", "New game"),
        Binding("o", "next_opponent", "Opponent"),
        Binding("g", "ask_size", "Game size"),
        Binding("l", "learning", "Learning curves"),
        Binding("escape", "menu", "Menu"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Show or hide the advice", "The equilibrium mix for your side and the state's value (a)", "toggle_advice"),
        ("Bid the advisor's draw", "Fill in a bid drawn from the equilibrium mix (s)", "use_suggestion"),
        ("New game", "Start again with full points", "new_game"),
        ("Next opponent", "Equilibrium, random, learner; starts a new game (o)", "next_opponent"),
        ("Game size", "Points n and steps k (g)", "ask_size"),
        ("Learning curves", "The source's learners against the random player (l)", "learning"),
        ("Back to the menu", "Choose another game", "menu"),
    ]

    class Solved(Message):
        def __init__(self, solution: FootstepSolution, source: str) -> None:
            super().__init__()
            self.solution = solution
            self.source = source

    class SolveProgress(Message):
        def __init__(self, size: tuple[int, int], level: int, levels: int) -> None:
            super().__init__()
            self.size = size
            self.level = level
            self.levels = levels

    class Failed(Message):
        def __init__(self, what: str) -> None:
            super().__init__()
            self.what = what

    class LearnerReady(Message):
        def __init__(self, size: tuple[int, int], tables: BidTables) -> None:
            super().__init__()
            self.size = size
            self.tables = tables

    def __init__(self, config: FootstepConfig | None = None) -> None:
        super().__init__()
        self.config = config or FootstepConfig()
        self.n, self.k = self.config.n, self.config.k
        self.human = self.config.human
        self.opponent = self.config.opponent
        seed = self.config.seed
        self.rng = np.random.default_rng(seed)
        self.py_rng = random.Random(seed)
        self.state = FootstepState(self.n, self.k)
        self.solution: FootstepSolution | None = None
        self.learner: BidTables | None = None
        #: The learner's (key, bid, own points) of the current game, for its update when the game ends.
        self.learner_turns: list[tuple[int, int, int]] = []
        self.entry = ""
        self.secret_bid: int | None = None
        self.suggestion: int | None = None
        self.message_text = ""
        self.scores: list[float] = []

    @property
    def game_size(self) -> tuple[int, int]:
        return (self.n, self.k)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="fs-main"):
            with Vertical(id="fs-left"):
                yield Static(id="fs-status")
                yield Track(id="fs-track")
                yield Static(id="fs-bid")
                yield Static(id="fs-history")
            with Vertical(id="fs-right"):
                yield Static(id="fs-value")
                yield MixBars(id="fs-mix")
        yield Static(id="message")
        yield Input(placeholder="n,k: points each and steps to a goal, e.g. 50,4 (Enter)", id="fs-size-input")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#fs-mix", MixBars).ascii_mode = self.nashplay.ascii_mode
        self.query_one("#fs-size-input", Input).display = False
        self._titles()
        self.solve(self.n, self.k)
        if self.opponent == "learner":
            self.train_learner(self.n, self.k)
        self._new_round()

    def _titles(self) -> None:
        self.title = f"Footstep, n = {self.n}, k = {self.k}"
        self.sub_title = f"you ({self.human}) against {OPPONENT_TITLES.get(self.opponent, self.opponent)}"

    @property
    def advice_shown(self) -> bool:
        return self.nashplay.footstep_advice

    # ---- background work

    @work(thread=True, exclusive=True, group="footstep-solve", exit_on_error=False)
    def solve(self, n: int, k: int) -> None:
        worker = get_current_worker()

        def progress(level: int, levels: int) -> None:
            if worker.is_cancelled:
                raise _AbandonedSolveError
            self.post_message(self.SolveProgress((n, k), level, levels))

        try:
            solution, source = FootstepSolution.load(n, k, progress=progress)
        except _AbandonedSolveError:
            return
        except Exception as error:  # shown, never a silent "Solving..." for ever
            self.post_message(self.Failed(f"Solving Footstep({n}, {k}) failed: {type(error).__name__}: {error}"))
            return
        self.post_message(self.Solved(solution, source))

    @work(thread=True, exclusive=True, group="footstep-learner", exit_on_error=False)
    def train_learner(self, n: int, k: int) -> None:
        try:
            curve = run_elsewhere(LearningConfig("reward", n, k, games=LEARNER_TRAINING_GAMES, runs=1, seed=7))
        except Exception as error:
            self.post_message(self.Failed(f"Training the learner failed: {type(error).__name__}: {error}"))
            return
        self.post_message(self.LearnerReady((n, k), curve.tables))

    @on(SolveProgress)
    def _progress(self, event: SolveProgress) -> None:
        if event.size == self.game_size and self.solution is None:
            self.say(f"Solving Footstep({self.n}, {self.k}) in the background: level {event.level}/{event.levels}")

    @on(Failed)
    def _failed(self, event: Failed) -> None:
        self.say(event.what)

    @on(Solved)
    def _solved(self, event: Solved) -> None:
        if (event.solution.n, event.solution.k) != self.game_size:
            return
        self.solution = event.solution
        where = "from the cache" if event.source == "cache" else f"solved in {event.solution.stats.seconds:.2f} s"
        self.say(f"Footstep({self.n}, {self.k}) {where}. Type your bid and press Enter.")
        self._new_round()

    @on(LearnerReady)
    def _learner_ready(self, event: LearnerReady) -> None:
        if event.size == self.game_size:
            self.learner = event.tables
            self.say("The learner has trained: it plays (and keeps learning) from now on.")
            self._new_round()

    # ---- rounds

    def say(self, text: str) -> None:
        self.message_text = text
        self.query_one("#message", Static).update(text)

    def _ready(self) -> bool:
        if self.solution is None:
            return False
        return not (self.opponent == "learner" and self.learner is None)

    def _opponent_bid(self) -> int:
        """The opponent's bid for this round, drawn before the user's is known."""
        position = self.state.position
        them = self.human.other
        points = position.points(them)
        if points == 0:
            return 0
        if self.opponent == "random":
            return self.py_rng.randint(1, points)
        if self.opponent == "learner" and self.learner is not None:
            # The learner learned as player 1: from player 2's seat it sees the state from its own side.
            own, other = points, position.points(self.human)
            marker = position.marker if them is Side.P1 else -position.marker
            key = self.learner.keys(np.array([own]), np.array([other]), np.array([marker]))
            bid = int(self.learner.sample(key, self.rng.random(1))[0])
            self.learner_turns.append((int(key[0]), bid, own))
            return bid
        assert self.solution is not None
        return self.solution.draw(position, them, self.rng)

    def _new_round(self) -> None:
        self.entry = ""
        self.secret_bid = None
        self.suggestion = None
        if self._ready() and not self.state.is_terminal():
            self.secret_bid = self._opponent_bid()
            if self.solution is not None:
                self.suggestion = self.solution.draw(self.state.position, self.human, self.rng)
        self.refresh_view()

    def refresh_view(self) -> None:
        position = self.state.position
        me, them = self.human, self.human.other
        status = Text(end="")
        status.append(f"Points: you {position.points(me)}, opponent {position.points(them)}", style="bold")
        status.append(f"    round {len(self.state.history()) + 1}    state {position.text}")
        if self.scores:
            average = sum(self.scores) / len(self.scores)
            status.append(f"\nYour score: {sum(self.scores):+g} over {len(self.scores)} games ({average:+.2f} a game)")
        self.query_one("#fs-status", Static).update(status)
        self.query_one("#fs-track", Track).show(self.k, position.marker, me, self.nashplay.ascii_mode)
        self._bid_line()
        self._history()
        self._advice()

    def _bid_line(self) -> None:
        position = self.state.position
        points = position.points(self.human)
        text = Text(end="")
        outcome = self.state.outcome()
        if outcome is not None:
            score = outcome.returns()[self.human]
            verdict = "You win" if score > 0 else ("You lose" if score < 0 else "A draw")
            text.append(f"{verdict} ({score:+g}): {outcome.reason}. n: new game", style="bold")
        elif not self._ready():
            what = "Training the learner" if self.solution is not None else "Solving"
            text.append(f"{what} in the background...", style="italic")
        elif points == 0:
            text.append("You have no points left: you bid 0. Press Enter for the round.", style="bold")
        else:
            shown = self.entry or "_"
            text.append("Your bid: ", style="bold")
            text.append(f" {shown} ", style="bold reverse")
            text.append(f"  (1..{points}; digits, +/-, Enter)   the opponent has chosen its bid: hidden")
        self.query_one("#fs-bid", Static).update(text)

    def _history(self) -> None:
        rounds = self.state.history()
        me = self.human
        text = Text("Rounds (you / opponent): ", style="bold", end="")
        if not rounds:
            text.append("none yet", style="dim")
        start = max(1, len(rounds) - 9)
        for number, bids in enumerate(rounds[-10:], start=start):
            mine, theirs = bids[me], bids[me.other]
            result = "you step" if mine > theirs else ("they step" if theirs > mine else "tie")
            text.append(f"\n {number:>3}. {mine:>3} / {theirs:<3} {result}")
        self.query_one("#fs-history", Static).update(text)

    def _advice(self) -> None:
        right = self.query_one("#fs-right")
        right.display = self.advice_shown
        if not self.advice_shown:
            return
        value_widget = self.query_one("#fs-value", Static)
        bars = self.query_one("#fs-mix", MixBars)
        solution = self.solution
        if solution is None:
            value_widget.update(Text("Advice: solving...", style="italic"))
            bars.show("", [], [], [])
            return
        position = self.state.position
        if self.state.is_terminal():
            value_widget.update(Text("Advice: the game is over", style="bold"))
            bars.show("", [], [], [])
            return
        value = round(solution.value(position, self.human), 9) + 0.0  # never "-0.0000"
        text = Text("Advice (a hides it)\n", style="bold", end="")
        text.append(f"State value for you: {value:+.4f} points (equilibrium play from here)\n")
        if self.suggestion is not None:
            text.append("A bid drawn from your mix: ")
            text.append(f" {self.suggestion} ", style="bold reverse")
            text.append("  (s puts it in)")
        value_widget.update(text)
        mix = solution.mix(position, self.human)
        bids = sorted(mix)
        bars.show(
            "Your equilibrium mix (bids with probability > 0)",
            [f"bid {b:>2}" for b in bids],
            [mix[b] for b in bids],
            [],
        )

    # ---- actions

    def action_digit(self, digit: int) -> None:
        if self.state.is_terminal() or not self._ready():
            return
        points = self.state.position.points(self.human)
        entry = (self.entry + str(digit)).lstrip("0")
        if entry and int(entry) > points:
            self.say(f"You have {points} points: a bid is 1 to {points}")
            entry = str(digit) if 1 <= digit <= points else self.entry
        self.entry = entry
        self._bid_line()

    def action_erase(self) -> None:
        self.entry = self.entry[:-1]
        self._bid_line()

    def action_adjust(self, delta: int) -> None:
        if self.state.is_terminal() or not self._ready():
            return
        points = self.state.position.points(self.human)
        if points == 0:
            return
        current = int(self.entry) if self.entry else 0
        self.entry = str(min(points, max(1, current + delta)))
        self._bid_line()

    def action_use_suggestion(self) -> None:
        if self.suggestion is not None and self.state.position.points(self.human) > 0:
            self.entry = str(self.suggestion)
            self._bid_line()

    def action_bid(self) -> None:
        if self.state.is_terminal():
            self.say("The game is over: n starts a new one")
            return
        if not self._ready() or self.secret_bid is None:
            self.say("A moment: still getting ready")
            return
        points = self.state.position.points(self.human)
        if points == 0:
            mine = 0
        elif not self.entry:
            self.say(f"Type a bid from 1 to {points} first")
            return
        else:
            mine = int(self.entry)
        theirs = self.secret_bid
        bids = (mine, theirs) if self.human is Side.P1 else (theirs, mine)
        self.state.apply_joint(bids)
        result = (
            "you move the marker one step toward their goal"
            if mine > theirs
            else ("they move the marker one step toward your goal" if theirs > mine else "a tie: the marker stays")
        )
        self.say(f"You bid {mine}, the opponent bid {theirs}: {result}.")
        outcome = self.state.outcome()
        if outcome is not None:
            self._game_over(outcome.returns()[self.human])
        self._new_round()

    def _game_over(self, score: float) -> None:
        self.scores.append(score)
        if self.opponent == "learner" and self.learner is not None and self.learner_turns:
            result = int(np.sign(-score))  # the learner's result is the opposite of the user's
            turns = self.learner_turns
            self.learner.update(
                np.zeros(len(turns), dtype=np.int64),
                np.array([t[0] for t in turns]),
                np.array([t[1] for t in turns]),
                np.array([t[2] for t in turns]),
                np.full(len(turns), result),
                "reward",
                np.full(len(turns), 0.9),
            )
        self.learner_turns = []

    def action_new_game(self) -> None:
        if not self.state.is_terminal() and self.state.history():
            self.say("New game (the unfinished one is not scored)")
        self.state = FootstepState(self.n, self.k)
        self.learner_turns = []
        self._new_round()

    def action_next_opponent(self) -> None:
        names = list(OPPONENT_TITLES)
        self.opponent = names[(names.index(self.opponent) + 1) % len(names)] if self.opponent in names else names[0]
        self.scores = []
        self._titles()
        if self.opponent == "learner" and self.learner is None:
            self.train_learner(self.n, self.k)
            self.say("Training the learner against the random player in the background...")
        else:
            self.say(f"Your opponent is now {OPPONENT_TITLES[self.opponent]}")
        self.state = FootstepState(self.n, self.k)
        self.learner_turns = []
        self._new_round()

    def action_toggle_advice(self) -> None:
        self.nashplay.footstep_advice = not self.nashplay.footstep_advice
        self.refresh_view()

    def action_ask_size(self) -> None:
        field = self.query_one("#fs-size-input", Input)
        field.value = f"{self.n},{self.k}"
        field.display = True
        field.focus()

    @on(Input.Submitted, "#fs-size-input")
    def _size_submitted(self, event: Input.Submitted) -> None:
        field = event.input
        field.display = False
        self.query_one("#fs-track").focus()
        parts = event.value.replace(" ", "").split(",")
        try:
            n, k = int(parts[0]), int(parts[1])
        except (ValueError, IndexError):
            self.say(f"Expected n,k such as 50,4 (points each, steps to a goal), not {event.value.strip()!r}")
            return
        if not (1 <= n <= 100 and 1 <= k <= 10):
            self.say(f"In the app n is 1..100 and k is 1..10, not {n},{k}")
            return
        self.n, self.k = n, k
        self.solution = None
        self.learner = None
        self.scores = []
        self.state = FootstepState(n, k)
        self._titles()
        self.solve(n, k)
        if self.opponent == "learner":
            self.train_learner(n, k)
        self._new_round()

    def action_learning(self) -> None:
        self.app.push_screen(FootstepLearningScreen(self.n, self.k))

    def action_menu(self) -> None:
        field = self.query_one("#fs-size-input", Input)
        if field.display:
            field.display = False
            self.query_one("#fs-track").focus()
            return
        from tui.screens.menu import MenuScreen

        self.app.switch_screen(MenuScreen())


class FootstepLearningScreen(NashplayScreen):
    """The source's experiment: each learner's average score per 100 games against random, and the exact
    scores of the equilibrium player and the best response next to them. Runs in a separate process."""

    AUTO_FOCUS = "#learn-plot"
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape", "back", "Back"),
        Binding("r", "rerun", "Run again (new seed)"),
    ]

    class Curve(Message):
        def __init__(self, curve: LearningCurve, run: int) -> None:
            super().__init__()
            self.curve = curve
            self.run = run

    class Failed(Message):
        def __init__(self, what: str) -> None:
            super().__init__()
            self.what = what

    def __init__(self, n: int, k: int) -> None:
        super().__init__()
        self.n, self.k = n, k
        self.curves: list[LearningCurve] = []
        self.levels: tuple[float, float] | None = None
        self.run = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="learn-status")
        yield Static(id="learn-plot")
        yield Footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.title = f"Footstep learners against random, n = {self.n}, k = {self.k}"
        self.start()

    def start(self) -> None:
        self.curves = []
        self.run += 1
        self.query_one("#learn-status", Static).update(
            f"Learning in a background process: {APP_GAMES} games x {APP_RUNS} runs per rule "
            "(reward, reproach, carrot-and-stick)..."
        )
        self.experiment(self.n, self.k, self.run)
        self.redraw()

    @work(thread=True, exclusive=True, group="footstep-learning", exit_on_error=False)
    def experiment(self, n: int, k: int, run: int) -> None:
        worker = get_current_worker()
        try:
            solution, _ = FootstepSolution.load(n, k)
            eq, best = exact_vs_random(solution).at_start(n, k)
            self.levels = (eq, best)
            for rule in RULES:
                if worker.is_cancelled:
                    return
                config = LearningConfig(rule, n, k, games=APP_GAMES, runs=APP_RUNS, seed=run)
                self.post_message(self.Curve(run_elsewhere(config), run))
        except Exception as error:
            self.post_message(self.Failed(f"The experiment failed: {type(error).__name__}: {error}"))

    @on(Curve)
    def _curve(self, event: Curve) -> None:
        if event.run != self.run:
            return
        self.curves.append(event.curve)
        done = len(self.curves)
        status = f"{done} of {len(RULES)} learners done" if done < len(RULES) else "All learners done. r: run again"
        self.query_one("#learn-status", Static).update(status)
        self.redraw()

    @on(Failed)
    def _failed(self, event: Failed) -> None:
        self.query_one("#learn-status", Static).update(event.what)

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        from tui.footstep_cli import learning_series

        widget = self.query_one("#learn-plot", Static)
        if self.levels is None:
            widget.update("")
            return
        series = learning_series(self.curves, *self.levels)
        width = max(20, self.size.width - 12)
        height = max(5, self.size.height - 14)
        lines = plot.render(series, width, height, y_range=(-0.5, 2.0), x_label="games", x_max=APP_GAMES)
        widget.update(Text("\n".join(lines)))

    def action_rerun(self) -> None:
        self.start()

    def action_back(self) -> None:
        self.app.pop_screen()
