"""The source's Footstep experiment in the app: each learner's average score per 100 games against random, and
the exact scores of the equilibrium player and the best response next to them. The learning runs in a separate
process (its turn loop would otherwise hold the interpreter for seconds)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Header, Static
from textual.worker import get_current_worker

from solvers.footstep import FootstepSolution, exact_vs_random
from solvers.footstep_learning import RULES, LearningConfig, LearningCurve, LearningStoppedError, run_elsewhere
from tui import plot
from tui.screens.base import NashplayScreen
from tui.widgets.footer import NashplayFooter

#: The experiment: smaller than the command line's default, to be ready in seconds.
APP_GAMES, APP_RUNS = 5_000, 10


class FootstepLearningScreen(NashplayScreen):
    """The source's experiment: each learner's average score per 100 games against random, and the exact
    scores of the equilibrium player and the best response next to them. Runs in a separate process."""

    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "footstep.tcss"

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

    class Levels(Message):
        """The exact scores against random: the equilibrium player's and the best response's."""

        def __init__(self, equilibrium: float, best: float, run: int) -> None:
            super().__init__()
            self.levels = (equilibrium, best)
            self.run = run

    class Failed(Message):
        def __init__(self, what: str, run: int) -> None:
            super().__init__()
            self.what = what
            self.run = run

    game_name = "footstep"

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
        yield NashplayFooter()

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
            self.post_message(self.Levels(*exact_vs_random(solution).at_start(n, k), run))
            for rule in RULES:
                if worker.is_cancelled:
                    return
                config = LearningConfig(rule, n, k, games=APP_GAMES, runs=APP_RUNS, seed=run)
                self.post_message(self.Curve(run_elsewhere(config), run))
        except LearningStoppedError as error:  # its process killed, say: plain words, and r runs it again
            self.post_message(self.Failed(f"The experiment stopped: {error}. r: run again", run))
        except Exception as error:
            self.post_message(self.Failed(f"The experiment failed: {type(error).__name__}: {error}. r: run again", run))

    @on(Levels)
    def _levels(self, event: Levels) -> None:
        if event.run == self.run:
            self.levels = event.levels
            self.redraw()

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
        if event.run == self.run:  # an older run's end is stale
            self.query_one("#learn-status", Static).update(event.what)

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        widget = self.query_one("#learn-plot", Static)
        if self.levels is None:
            widget.update("")
            return
        series = plot.learning_series(self.curves, *self.levels)
        width = max(20, self.size.width - 12)
        height = max(5, self.size.height - 14)
        lines = plot.render(series, width, height, y_range=(-0.5, 2.0), x_label="games", x_max=APP_GAMES)
        widget.update(Text("\n".join(lines)))

    def action_rerun(self) -> None:
        self.start()

    def action_back(self) -> None:
        self.app.pop_screen()
