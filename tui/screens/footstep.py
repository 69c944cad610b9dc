"""Footstep in the app: you against the equilibrium player, the random player, or a learner, with the advisor's
equilibrium mix one key away (the learning curves of the source's learners are ``footstep_learning``'s screen).

A round: the opponent picks its bid in secret as the round opens (so it cannot depend on yours), you type yours
(digits, or +/- and the arrows), Enter, and both bids are shown together. Solving the table and training the
learners run off the UI thread: the solve in a worker thread (numpy and HiGHS release the interpreter), the learning
experiments in a separate process (their turn loop would otherwise hold the interpreter for seconds).

A game may have a chess clock (``--clock``): the user's time runs while their bid is to make (the opponent's is made
at once), not while the game is solved or the learner trains; out of time loses.

The game is kept as it goes (``tui.saves.GameKeeper``): in progress in a save slot, offered for resume (a learner
opponent trains again; the clock goes on with the time each side had); once over its record in the state folder's
``records/``. ``ctrl+s`` saves a record there (``s`` puts in the advice's bid); after the game ``v`` reviews it and
``m`` is a rematch with the sides swapped.
"""

from __future__ import annotations

import dataclasses
import textwrap
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Header, Input, Label, Static

from core.footstep import FootstepState
from core.game import Side
from solvers.advice.footstep import advise
from solvers.catalogue import make_player, player_entry, players_for
from solvers.eta import TimeLeft
from solvers.footstep import FootstepSolution, level_shares, load_solution
from solvers.footstep_learning import BidTables, LearnerPlayer, LearningStoppedError
from solvers.players import tell_game_over
from tui.config import FOOTSTEP_APP_MAX, FootstepConfig
from tui.game_life import takebacks_allowed
from tui.local_session import LocalSession
from tui.messages import OpenGame, OpenLearningCurves, ShowMenu
from tui.saves import SaveSlot
from tui.screens.base import LocalGameScreen
from tui.screens.solving import (
    BackgroundSolve,
    Progress,
    SolveDone,
    SolveFailed,
    SolveProgress,
    compiling_words,
    kept_in_text,
)
from tui.widgets.advice import AdvicePanel
from tui.widgets.fitted import Fitted
from tui.widgets.footer import NashplayFooter
from tui.widgets.mix import MixBars
from tui.widgets.solve_bar import SolveBar
from tui.widgets.track import Track

#: Footstep's opponents, in the order ``o`` cycles through them.
OPPONENTS = tuple(entry.name for entry in players_for("footstep"))


def _solved_game(n: int, k: int, progress: Progress) -> tuple[FootstepSolution, str]:
    """Footstep(n, k) solved (or read from the disk cache), with where it came from."""

    shares = level_shares(n, k)  # the share of the work each level count stands for: levels differ a lot
    time_left = TimeLeft()

    def tell(level: int, levels: int) -> None:
        done = float(shares[min(level, len(shares) - 1)])
        eta = time_left.text(done)
        words = f"Solving Footstep({n}, {k}) in the background: {done:.0%}" + (f", {eta}" if eta else "")
        progress(round(1000 * done), 1000, words)

    def compiling(share: float, seconds: float) -> None:
        # A solve this large runs compiled kernels: the first time on a machine they compile first, said as such.
        progress(*compiling_words(f"Solving Footstep({n}, {k})", share, seconds))

    return load_solution(n, k, progress=tell, compiling=compiling)


class FootstepScreen(LocalGameScreen[FootstepState]):
    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "footstep.tcss"
    AUTO_FOCUS = "#fs-track"
    SHRINK_BELOW = (100, 30)

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        # The bid line says how to bid (digits, +/-, Enter): the footer's room goes to the other keys.
        *[Binding(str(d), f"digit({d})", "Bid", show=False) for d in range(10)],
        Binding("backspace", "erase", "Erase", show=False),
        Binding("plus,equals_sign,up,right", "adjust(1)", "+1", show=False),
        Binding("minus,down,left", "adjust(-1)", "-1", show=False),
        Binding("enter", "bid", "Bid!", show=False),
        # After the game the footer shows v and m instead of a and l (no advice to show; the keys still work).
        Binding("a", "toggle_advice", "Advice"),
        Binding("a", "advice", "Advice", show=False),
        Binding("s", "use_suggestion", "Use advice", show=False),
        Binding("n", "new_game", "New game"),
        Binding("o", "next_opponent", "Opponent"),
        Binding("g", "ask_size", "Size"),
        Binding("l", "learning", "Learning"),
        Binding("l", "learning_curves", "Learning", show=False),
        Binding("v", "review", "Review"),
        Binding("m", "rematch", "Rematch"),
        Binding("ctrl+s", "save_record", "Save", show=False),
        Binding("R", "resign", "Resign", show=False),
        Binding("escape", "menu", "Menu"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Resign or abort", "Resign: a loss. Before your second move, abort: nothing is kept (R)", "resign"),
        ("Show or hide the advice", "The equilibrium mix for your side and the state's value (a)", "advice"),
        ("Bid the advisor's draw", "Fill in a bid drawn from the equilibrium mix (s)", "use_suggestion"),
        ("New game", "Start again with full points", "new_game"),
        ("Next opponent", "Equilibrium, random, learner; starts a new game (o)", "next_opponent"),
        ("Game size", "Points n and steps k (g)", "ask_size"),
        ("Learning curves", "The source's learners against the random player (l)", "learning_curves"),
        ("Save record", "Save this game's record in the state folder's records/ (ctrl+s)", "save_record"),
        ("Review this game", "After the game: every round judged (v)", "review"),
        ("Rematch", "After the game: the same game with the sides swapped (m)", "rematch"),
        ("Back to the menu", "Choose another game", "menu"),
    ]

    class LearnerReady(Message):
        """The learner for ``size``, trained; or untrained when its training failed (``why`` says how)."""

        def __init__(self, size: tuple[int, int], learner: LearnerPlayer, why: str = "") -> None:
            super().__init__()
            self.size = size
            self.learner = learner
            self.why = why

    game_name = "footstep"

    def __init__(
        self, config: FootstepConfig, state: FootstepState | None = None, slot: SaveSlot | None = None
    ) -> None:
        """A new game from ``config``, or a saved one going on from ``state`` (kept in ``slot``)."""
        super().__init__()
        self.config = config
        self.n, self.k = self.config.n, self.config.k
        start = state if state is not None else FootstepState(self.n, self.k)
        #: The user's suggestions and the opponent's bids come from generators of their own (the session's).
        self.session = LocalSession(
            start,
            config.human,
            config.opponent,
            config.seed,
            resumed=state is not None,
            takebacks=takebacks_allowed("footstep", config.opponent, config.takebacks),
            clock=config.new_clock(),
        )
        self.slot = slot
        #: Whether the footer shows the keys of a finished game (v, m).
        self.solution: FootstepSolution | None = None
        self.solver: BackgroundSolve[tuple[FootstepSolution, str]] = BackgroundSolve(
            self, "footstep-solve", bar="fs-solve"
        )
        #: The opponent's catalogue name, and the player itself (``None`` while the learner trains).
        self.opponent_player: Any = None
        self.entry = ""
        self.secret_bid: int | None = None
        self.suggestion: int | None = None
        self.scores: list[float] = []

    @property
    def game_size(self) -> tuple[int, int]:
        return (self.n, self.k)

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="fs-main"):
            with Vertical(id="fs-left"):
                yield Static(id="fs-clock", classes="one-line")
                yield Static(id="fs-status", classes="one-line")
                yield Track(id="fs-track")
                yield Static(id="fs-bid", classes="one-line")
                yield Static(id="fs-history", classes="one-line")
            with Vertical(id="fs-right"):
                yield AdvicePanel(id="fs-advice")
                yield MixBars(id="fs-mix")
        yield Fitted(id="message")
        with Horizontal(id="fs-size-field"):
            yield Label("n,k:", id="fs-size-label")
            yield Input(placeholder="points each, steps to a goal: e.g. 50,4 (Enter; Esc cancels)", id="fs-size-input")
        yield SolveBar(id="fs-solve")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#fs-mix", MixBars).ascii_mode = self.nashplay.ascii_mode
        self.query_one("#fs-size-field").display = False
        self.query_one("#fs-clock").display = self.session.clock is not None
        self.attach_saves(self.slot)
        self._titles()
        self.solve(self.n, self.k)
        self._meet_opponent()
        self._new_round()
        self.start_clock()

    def _meet_opponent(self) -> None:
        """The opponent for this size: made at once, except the learner, which trains in the background first."""
        if self.opponent == "learner":
            self.opponent_player = None
            self.train_learner(self.n, self.k)
        else:
            self.opponent_player = make_player(self.opponent, "footstep")

    def _titles(self) -> None:
        title = f"Footstep, n = {self.n}, k = {self.k}"
        against = f"you ({self.human}) against the {self.opponent} player"
        self.set_titles(
            (title, f"{against}: {player_entry(self.opponent).description}"),
            (title, against),
            (title, f"you vs {self.opponent}"),
        )

    def size_changed(self) -> None:
        self.refresh_view()

    @property
    def advice_shown(self) -> bool:
        return self.nashplay.advice_shown(self.game_name)

    # ---- background work

    def solve(self, n: int, k: int) -> None:
        """Solve Footstep(n, k) in a worker thread (a solve of another size still running stops at its next level)."""
        self.solver.start((n, k), lambda progress: _solved_game(n, k, progress), f"Solving Footstep({n}, {k})")

    @work(thread=True, exclusive=True, group="footstep-learner", exit_on_error=False)
    def train_learner(self, n: int, k: int) -> None:
        """Train the learner in its process; when that fails (the process killed, say), the learner starts untrained
        rather than the game waiting for it for ever."""
        learner = make_player("learner", "footstep")
        try:
            learner.train(n, k, elsewhere=True)
        except LearningStoppedError as error:
            learner.untrained(n, k)
            self.post_message(self.LearnerReady((n, k), learner, str(error)))
            return
        except Exception as error:  # not the process: a fault of its own, named
            learner.untrained(n, k)
            self.post_message(self.LearnerReady((n, k), learner, f"{type(error).__name__}: {error}"))
            return
        self.post_message(self.LearnerReady((n, k), learner))

    @on(SolveProgress)
    def _progress(self, event: SolveProgress) -> None:
        if self.solver.wants(event):
            self.solver.advance(event)
            if self.solution is None:
                self.say(event.words)

    @on(SolveFailed)
    def _solve_failed(self, event: SolveFailed) -> None:
        if self.solver.wants(event):
            self.solver.finished()
            self.say(f"Solving Footstep({self.n}, {self.k}) failed: {event.error}")

    @on(SolveDone)
    def _solved(self, event: SolveDone) -> None:
        if not self.solver.wants(event):
            return
        self.solver.finished()
        solution, source = event.result
        self.solution = solution
        where = "from the cache" if source in ("cache", "memory") else f"solved in {solution.stats.seconds:.2f} s"
        self.say(f"Footstep({self.n}, {self.k}) {where}. Type your bid and press Enter.")
        self._new_round()

    @on(LearnerReady)
    def _learner_ready(self, event: LearnerReady) -> None:
        if event.size == self.game_size and self.opponent == "learner":
            self.opponent_player = event.learner
            if event.why:
                self.say(
                    f"The learner's training stopped ({event.why}): it plays untrained, at random, and learns from "
                    "every game it finishes.",
                    "The learner's training stopped: it plays untrained, at random, and learns as it goes.",
                    "The learner's training stopped: it plays untrained.",
                )
            else:
                self.say("The learner has trained: it plays (and keeps learning) from now on.")
            self._new_round()

    # ---- rounds

    @property
    def learner(self) -> BidTables | None:
        """The learner opponent's bid tables once it has trained (what it has learned so far)."""
        player = self.opponent_player
        return player.tables if isinstance(player, LearnerPlayer) else None

    def _ready(self) -> bool:
        return self.solution is not None and self.opponent_player is not None

    def _opponent_bid(self) -> int:
        """The opponent's bid for this round, drawn from its own view before the user's bid is known."""
        bid: int = self.session.opponent_choice(self.opponent_player)
        return bid

    def _new_round(self) -> None:
        self.entry = ""
        self.secret_bid = None
        self.suggestion = None
        if self._ready() and not self.over:
            self.secret_bid = self._opponent_bid()
            if self.solution is not None and self.state.position.points(self.human) > 0:
                self.suggestion = self.solution.draw(self.state.position, self.human, self.rng)
        self.refresh_view()

    def check_over(self) -> None:
        super().check_over()
        if self.session.clock is not None and not self._ready():
            self.session.clock.stop()  # no bid to make while the game is solved or the learner trains

    def clock_ticked(self) -> None:
        self.query_one("#fs-clock", Static).update(Text(self.clock_line(), end=""))

    def refresh_view(self) -> None:
        self.session.sync_clock()  # before the keep: the record has the round's increments, as a resume needs
        self._keep()
        self.check_over()  # v and m in the footer, and the game-over panel, once the game is over
        self.clock_ticked()
        position = self.state.position
        me, them = self.human, self.human.other
        status = Text(end="")
        status.append(f"Points: you {position.points(me)}, opponent {position.points(them)}", style="bold")
        status.append(f"   round {len(self.state.history()) + 1}\nState {position.text}")
        if self.scores:
            average = sum(self.scores) / len(self.scores)
            games = f"{len(self.scores)} game{'s' if len(self.scores) != 1 else ''}"
            # Below 100x30 the left column has 42 columns: the score goes on a line of its own.
            status.append("\n" if self.compact else "   ")
            status.append(f"your score: {sum(self.scores):+g} in {games} ({average:+.2f} each)")
        self.query_one("#fs-status", Static).update(status)
        self.query_one("#fs-track", Track).show(self.k, position.marker, me, self.nashplay.ascii_mode)
        self._bid_line()
        self._history()
        self._advice()

    def _bid_line(self) -> None:
        position = self.state.position
        points = position.points(self.human)
        text = Text(end="")
        outcome = self.session.outcome()
        if outcome is not None:
            score = outcome.returns()[self.human]
            verdict = "You win" if score > 0 else ("You lose" if score < 0 else "A draw")
            said = textwrap.wrap(f"{verdict} ({score:+g}): {outcome.reason}.", 40)  # the left column's width
            text.append("\n".join(said), style="bold")
            text.append("\nn: new game, v: review, m: rematch")
        elif not self._ready():
            what = "Training the learner" if self.solution is not None else "Solving"
            text.append(f"{what} in the background...", style="italic")
            if self.solution is None:  # solved once on a machine: where it is kept
                text.append("\n" + kept_in_text(), style="dim")
        elif points == 0:
            text.append("You have no points left: you bid 0. Press Enter for the round.", style="bold")
        else:
            shown = self.entry or "_"
            text.append("Your bid: ", style="bold")
            text.append(f" {shown} ", style="bold reverse")
            if self._entry_too_high():
                text.append(f"  above your {points}: Backspace", style="bold")
            else:
                text.append(f" (1..{points}; digits +/- Enter)")
            text.append("\nThe opponent has chosen its bid: hidden")
        self.query_one("#fs-bid", Static).update(text)

    def _history(self) -> None:
        rounds = self.state.history()
        me = self.human
        # Newest first: where the screen has no room for them all, the oldest rounds are the ones left out.
        text = Text("Rounds, newest first (you / them):" if rounds else "Rounds: ", style="bold", end="")
        if not rounds:
            text.append("none yet", style="dim")
        shown = 4 if self.compact else 10
        for number in range(len(rounds), max(0, len(rounds) - shown), -1):
            bids = rounds[number - 1]
            mine, theirs = bids[me], bids[me.other]
            result = "you step" if mine > theirs else ("they step" if theirs > mine else "tie")
            text.append(f"\n {number:>3}. {mine:>3} / {theirs:<3} {result}")
        if len(rounds) > shown:
            text.append(f"\n ... and {len(rounds) - shown} earlier", style="dim")
        self.query_one("#fs-history", Static).update(text)

    def _advice(self) -> None:
        """The equilibrium's ``Advice`` for the user (``solvers.advice.footstep``) in the shared panel, and the mix
        as bars below it."""
        right = self.query_one("#fs-right")
        right.display = self.advice_shown
        if not self.advice_shown:
            return
        panel = self.query_one("#fs-advice", AdvicePanel)
        bars = self.query_one("#fs-mix", MixBars)
        solution = self.solution
        compact = self.compact
        if solution is None or self.over:
            panel.show(None, "solving..." if solution is None else "the game is over", compact=compact)
            bars.show("", [], [], [])
            return
        position = self.state.position
        advice = advise(solution, position, self.human)
        note = ""
        if self.suggestion is not None:
            note = f"From your mix: {self.suggestion} (s uses it)" if compact else "A bid drawn from your mix: "
            note += "" if compact else f"{self.suggestion} (s puts it in)"
        panel.show(advice, advice.engine, note, compact)
        mix = solution.mix(position, self.human)
        bids = sorted(mix)
        # What the column has room for below the advice: the rest of the mix is summed up in one line.
        bars.max_lines = max(3, self.app.size.height - (18 if compact else 26))
        bars.show(
            "Your mix (bids > 0)" if compact else "Your equilibrium mix (bids with probability > 0)",
            [f"bid {b:>2}" for b in bids],
            [mix[b] for b in bids],
            [],
        )

    # ---- actions

    def _entry_too_high(self) -> bool:
        return bool(self.entry) and int(self.entry) > self.state.position.points(self.human)

    def action_digit(self, digit: int) -> None:
        if self.over or not self._ready():
            return
        points = self.state.position.points(self.human)
        entry = (self.entry + str(digit)).lstrip("0")
        if len(entry) > len(str(points)) + 1:
            return  # already above the limit (and said so): more digits change nothing
        self.entry = entry
        if self._entry_too_high():
            # Kept as typed, never turned into another bid: Enter refuses it until it is corrected.
            self.say(f"{entry} is more than your {points} points: a bid is 1 to {points} (Backspace erases)")
        self._bid_line()

    def action_erase(self) -> None:
        self.entry = self.entry[:-1]
        self._bid_line()

    def action_adjust(self, delta: int) -> None:
        if self.over or not self._ready():
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
        if self.over:
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
        elif self._entry_too_high():
            self.say(f"{self.entry} is more than your {points} points: a bid is 1 to {points} (Backspace erases)")
            return
        else:
            mine = int(self.entry)
        theirs = self.secret_bid
        bids = (mine, theirs) if self.human is Side.P1 else (theirs, mine)
        self.state.apply_joint(bids)
        result = (
            "the marker steps toward their goal"
            if mine > theirs
            else ("the marker steps toward your goal" if theirs > mine else "a tie: the marker stays")
        )
        self.say(f"You bid {mine}, the opponent bid {theirs}: {result}.")
        outcome = self.session.outcome()
        if outcome is not None:
            self.scores.append(outcome.returns()[self.human])
            tell_game_over(self.opponent_player, self.state.view(self.human.other))  # the learner learns from it
        self._new_round()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("review", "rematch"):
            return self.over  # after the game only
        if action in ("toggle_advice", "learning"):
            # Shown in the footer while the game runs; after it their keys (and the palette) go through ``advice``
            # and ``learning_curves``, hidden, and the footer's room goes to v and m.
            return not self.over
        return True

    def action_advice(self) -> None:
        self.action_toggle_advice()

    def action_learning_curves(self) -> None:
        self.action_learning()

    def action_new_game(self) -> None:
        if not self.over and self.state.history():
            self.say("New game (the unfinished one is not scored; it is kept for resume)")
        self.new_game(FootstepState(self.n, self.k))
        self._new_round()

    def action_next_opponent(self) -> None:
        names = list(OPPONENTS)
        current = names.index(self.opponent) if self.opponent in names else -1
        self.session.opponent = names[(current + 1) % len(names)]
        # The policy follows the new opponent unless chosen at set-up (it could be escaped by changing opponents).
        self.session.takebacks = takebacks_allowed("footstep", self.opponent, self.config.takebacks)
        self.scores = []
        self._titles()
        self._meet_opponent()
        if self.opponent_player is None:
            self.say("Training the learner against the random player in the background...")
        else:
            self.say(
                f"Your opponent is now {self.opponent}: {player_entry(self.opponent).description}",
                f"Your opponent is now the {self.opponent} player.",
            )
        self.new_game(FootstepState(self.n, self.k))
        self._new_round()

    def action_toggle_advice(self) -> None:
        self.nashplay.set_advice_shown(self.game_name, not self.advice_shown)
        self.refresh_view()

    def action_ask_size(self) -> None:
        self.query_one("#fs-size-field").display = True
        field = self.query_one("#fs-size-input", Input)
        field.value = f"{self.n},{self.k}"
        field.focus()

    def _close_size_field(self) -> None:
        self.query_one("#fs-size-field").display = False
        self.query_one("#fs-track").focus()

    @on(Input.Submitted, "#fs-size-input")
    def _size_submitted(self, event: Input.Submitted) -> None:
        self._close_size_field()
        parts = event.value.replace(" ", "").split(",")
        try:
            n, k = int(parts[0]), int(parts[1])
        except (ValueError, IndexError):
            self.say(f"Expected n,k such as 50,4 (points each, steps to a goal), not {event.value.strip()!r}")
            return
        max_n, max_k = FOOTSTEP_APP_MAX
        if not (1 <= n <= max_n and 1 <= k <= max_k):
            self.say(f"In the app n is 1..{max_n} and k is 1..{max_k}, not {n},{k}")
            return
        self.n, self.k = n, k
        self.solution = None
        self.scores = []
        self.new_game(FootstepState(n, k))
        self._titles()
        self.solve(n, k)
        self._meet_opponent()
        self._new_round()

    def action_learning(self) -> None:
        self.post_message(OpenLearningCurves(self.n, self.k))

    def game_changed(self) -> None:
        self.refresh_view()

    def action_menu(self) -> None:
        if self.query_one("#fs-size-field").display:
            self._close_size_field()
            return
        self.post_message(ShowMenu())

    # ---- records: kept as the game goes, saved, reviewed; a rematch

    def review_title(self) -> str:
        return f"Review: Footstep, n = {self.n}, k = {self.k}, against {self.opponent} ({self.session.outcome()})"

    def action_rematch(self) -> None:
        if not self.over:
            self.say("A rematch comes after the game: n starts a new one")
            return
        # The same clock, full again (not a resumed game's time left).
        config = dataclasses.replace(
            self.config, n=self.n, k=self.k, opponent=self.opponent, human=self.human.other, clock_left=None
        )
        self.post_message(OpenGame("footstep", config, setup=False))

    @property
    def opponent(self) -> str:
        return self.session.opponent

    def on_unmount(self) -> None:
        # Textual calls every class's on_unmount: LocalGameScreen's releases the save slot.
        self.solver.cancel()
