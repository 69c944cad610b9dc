"""Goofspiel in the app: you against the equilibrium player (or the random one), with the exact equilibrium's advice
one key away.

A round: the prize is turned up, the opponent picks its card in secret as the round opens (so it cannot depend on
yours), you press the digit of yours, and both cards are shown together; the higher card takes the prize. The
prizes still face down are shown as a set: their order is the deck's secret, kept out of the screen and out of the
save until the game is over. The whole game is solved once, in a worker thread (``tui.screens.solving``), before the
first round: instant up to 6 cards, half a minute at 8, with a bar that moves and ``x`` to cancel.

A game may have a chess clock (``--clock`` or the set-up screen's Clock line): the user's time runs while their card
is to choose (the opponent's choice is made at once), not while the game is being solved; out of time loses.

The game is kept as it goes (``tui.saves.GameKeeper``): in progress in a save slot (the deck's order and the seed in
the slot's secret), offered for resume; once over its record in the state folder's ``records/`` (with the clock,
whose time left a resumed game goes on with). After the game ``v`` reviews it and ``m`` is a rematch with the sides
swapped.
"""

from __future__ import annotations

import dataclasses
import random
import textwrap
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Static

from core.game import Side
from core.game_type import MAX_SEED
from core.goofspiel import GoofspielState
from solvers.advice import Advice
from solvers.advice.goofspiel import advise
from solvers.catalogue import make_player, players_for
from solvers.goofspiel import game_value, solve_position
from tui.config import GoofspielConfig
from tui.game_life import takebacks_allowed
from tui.local_session import LocalSession
from tui.messages import OpenGame, ShowMenu
from tui.saves import SaveSlot
from tui.screens.base import LocalGameScreen
from tui.screens.solving import BackgroundSolve, Progress, SolveDone, SolveFailed, SolveProgress
from tui.widgets.advice import AdvicePanel
from tui.widgets.fitted import Fitted
from tui.widgets.footer import NashplayFooter
from tui.widgets.pictures.goofspiel import cards_text
from tui.widgets.solve_bar import SolveBar

#: Goofspiel's opponents, in the order ``o`` cycles through them.
OPPONENTS = tuple(entry.name for entry in players_for("goofspiel"))


def _solve_whole_game(cards: int, progress: Progress) -> int:
    """Fill the solver's tables for the whole ``cards``-card game (every position of it is then answered at once)."""

    def tell(done: int, total: int) -> None:
        progress(done, total, f"Solving Goofspiel, N = {cards}: {done:,} of {total:,} positions")

    game_value(cards, tell)
    return cards


class GoofspielScreen(LocalGameScreen[GoofspielState]):
    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "goofspiel.tcss"
    AUTO_FOCUS = "#gs-history"
    SHRINK_BELOW = (100, 30)

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        # The bid line says which digits to press: the footer's room goes to the other keys.
        *[Binding(str(card), f"bid({card})", "Bid", show=False) for card in range(1, 10)],
        Binding("s", "bid_from_mix", "Mix bid"),
        # After the game the footer shows v and m instead of a (no advice to show; the key still works).
        Binding("a", "toggle_advice", "Advice"),
        Binding("a", "advice", "Advice", show=False),
        Binding("u", "undo", "Undo"),
        # Out of the footer once the game is over (undo is off then): this twin says why nothing is taken back.
        Binding("u", "undo_after_the_end", "Undo", show=False),
        Binding("n", "new_game", "New game"),
        Binding("o", "next_opponent", "Opponent"),
        Binding("v", "review", "Review"),
        Binding("m", "rematch", "Rematch"),
        Binding("x", "cancel_solve", "Cancel"),
        Binding("ctrl+s", "save_record", "Save", show=False),
        Binding("R", "resign", "Resign", show=False),
        Binding("escape", "menu", "Menu"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Resign or abort", "Resign: a loss. Before your second move, abort: nothing is kept (R)", "resign"),
        ("Bid from the mix", "Bid a card drawn from your equilibrium mix (s)", "bid_from_mix"),
        ("Show or hide the advice", "Every card's weight in the equilibrium and its value for you (a)", "advice"),
        ("Take back the round", "Undo the last round (u)", "undo"),
        ("New game", "A new deck, full hands (n)", "new_game"),
        ("Next opponent", "Equilibrium or random; starts a new game (o)", "next_opponent"),
        ("Cancel the solve", "Stop solving (x)", "cancel_solve"),
        ("Save record", "Save this game's record in the state folder's records/ (ctrl+s)", "save_record"),
        ("Review this game", "After the game: every bid judged (v)", "review"),
        ("Rematch", "After the game: the same deck with the sides swapped (m)", "rematch"),
        ("Back to the menu", "Choose another game", "menu"),
    ]

    game_name = "goofspiel"

    def __init__(
        self, config: GoofspielConfig, state: GoofspielState | None = None, slot: SaveSlot | None = None
    ) -> None:
        """A new game from ``config``, or a saved one going on from ``state`` (kept in ``slot``)."""
        super().__init__()
        self.config = config
        self.cards = config.cards
        #: One seed deals the first deck and seeds the generators (drawn when none is given); the session keeps it
        #: (and the deck's order) out of the record until the game is over.
        seed = config.seed if config.seed is not None else random.randrange(MAX_SEED)
        start = state if state is not None else GoofspielState(self.cards, seed=seed)
        self.session = LocalSession(
            start,
            config.human,
            config.opponent,
            seed,
            resumed=state is not None,
            takebacks=takebacks_allowed("goofspiel", config.opponent, config.takebacks),
            clock=config.new_clock(),
        )
        self.opponent_player = make_player(self.opponent, "goofspiel")
        self.slot = slot
        self.solver: BackgroundSolve[int] = BackgroundSolve(self, "goofspiel-solve", bar="gs-solve")
        #: The N whose whole game the solver's tables hold (``None``: not yet).
        self.solved: int | None = None
        #: The opponent's bid for this round, drawn as the round opened (``None``: not drawn yet).
        self.secret_bid: int | None = None
        self.advice: Advice | None = None
        #: Whether the footer shows the keys of a finished game (v, m).

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="gs-main"):
            with Vertical(id="gs-left"):
                yield Static(id="gs-clock", classes="one-line")
                yield Static(id="gs-status", classes="one-line")
                yield Static(id="gs-hands", classes="one-line")
                yield Static(id="gs-bid", classes="one-line")
                yield VerticalScroll(Static(id="gs-rounds", classes="one-line"), id="gs-history")
            with Vertical(id="gs-right"):
                yield AdvicePanel(id="gs-advice")
        yield Fitted(id="message")
        yield SolveBar(id="gs-solve")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#gs-clock").display = self.session.clock is not None
        self.attach_saves(self.slot)
        self._titles()
        self._solve()
        self.start_clock()

    def _titles(self) -> None:
        title = f"Goofspiel, N = {self.cards}"
        self.set_titles(
            (title, f"you vs {self.opponent}; you are player {self.human.number}"),
            (title, f"you vs {self.opponent}"),
            (title, ""),
        )

    def size_changed(self) -> None:
        self.refresh_view()

    @property
    def advice_shown(self) -> bool:
        return self.nashplay.advice_shown(self.game_name)

    # ---- solving in the background

    def _solve(self) -> None:
        cards = self.cards
        self.solver.start(cards, lambda progress: _solve_whole_game(cards, progress), f"Solving Goofspiel, N = {cards}")
        self.refresh_bindings()
        self.refresh_view()

    @on(SolveProgress)
    def _solve_progress(self, event: SolveProgress) -> None:
        if self.solver.wants(event):
            self.solver.advance(event, f"{event.words}; x cancels")

    @on(SolveFailed)
    def _solve_failed(self, event: SolveFailed) -> None:
        if self.solver.wants(event):
            self.solver.finished()
            self.refresh_bindings()
            self.say(f"Solving Goofspiel, N = {self.cards} failed ({event.error}). Esc: the menu.")

    @on(SolveDone)
    def _solve_done(self, event: SolveDone) -> None:
        if not self.solver.wants(event):
            return
        self.solver.finished()
        self.refresh_bindings()
        self.solved = event.result
        self.say(f"Your bid: press a card's digit ({cards_text(self.state.hand(self.human))}).")
        self._new_round()

    def action_cancel_solve(self) -> None:
        if self.solver.cancel() is None:
            return
        self.refresh_bindings()
        self.say(f"Solving N = {self.cards} cancelled: nothing to play until it is solved. n tries again, Esc: menu.")
        self.refresh_view()

    # ---- rounds

    def _ready(self) -> bool:
        return self.solved == self.cards

    def _new_round(self) -> None:
        """The round opens: the opponent picks its card from its own view, before the user's is known."""
        self.secret_bid = None
        self.advice = None
        if self._ready() and not self.over:
            self.secret_bid = self.session.opponent_choice(self.opponent_player)
            self.advice = advise(solve_position(self.state.position), self.human)
        self.refresh_view()

    def check_over(self) -> None:
        super().check_over()
        if self.session.clock is not None and not self._ready():
            self.session.clock.stop()  # nothing to choose until the game is solved: nobody's time runs

    def clock_ticked(self) -> None:
        self.query_one("#gs-clock", Static).update(Text(self.clock_line(), end=""))

    def refresh_view(self) -> None:
        self.session.sync_clock()  # before the keep: the record has the round's increments, as a resume needs
        self._keep()
        self.check_over()  # v and m in the footer, and the game-over panel, once the game is over
        self.clock_ticked()
        self._status()
        self._hands()
        self._bid_line()
        self._history()
        self._advice()

    def _status(self) -> None:
        state, me, them = self.state, self.human, self.human.other
        text = Text(end="")
        up = state.up
        played = len(state.history())
        if up is not None:
            text.append(f"Prize up: {up}", style="bold reverse")
            text.append(f"   round {played + 1} of {self.cards}")
        else:
            text.append(f"All {self.cards} rounds played", style="bold")
        text.append(f"\nPoints: you {state.points[me]}, opponent {state.points[them]}", style="bold")
        if up is not None:
            hidden = "" if self.compact else " (their order is hidden)"
            text.append(f"\nFace down: {cards_text(state.prizes)}{hidden}")
        self.query_one("#gs-status", Static).update(text)

    def _hands(self) -> None:
        state = self.state
        text = Text(end="")
        text.append("Your hand:       ", style="bold")
        text.append(cards_text(state.hand(self.human)))
        text.append("\nOpponent's hand: ", style="bold")
        text.append(cards_text(state.hand(self.human.other)))
        self.query_one("#gs-hands", Static).update(text)

    def _bid_line(self) -> None:
        text = Text(end="")
        outcome = self.session.outcome()
        if outcome is not None:
            score = outcome.returns()[self.human]
            verdict = "You win" if score > 0 else ("You lose" if score < 0 else "A draw")
            said = textwrap.wrap(f"{verdict} ({score:+g}): {outcome.reason}.", 40)  # the left column's width
            text.append("\n".join(said), style="bold")
            text.append("\nn: new game, v: review\nm: rematch")
        elif self.solver.running:
            text.append(f"Solving N = {self.cards} in the background...", style="italic")
        elif not self._ready():
            text.append("Not solved: n tries again", style="italic")
        else:
            text.append("Your bid: press a card's digit", style="bold")
            text.append(
                "\n(s: drawn from your mix)" if self.compact else "\n(s: a card drawn from your equilibrium mix)"
            )
            text.append("\nThe opponent has chosen its card: hidden")
        self.query_one("#gs-bid", Static).update(text)

    def _history(self) -> None:
        rounds = self.state.rounds()
        me = self.human
        # Newest first: where the screen has no room for them all, the oldest rounds are the ones left out.
        text = Text("Rounds, newest first:" if rounds else "Rounds: ", style="bold", end="")
        if not rounds:
            text.append("none yet", style="dim")
        for number in range(len(rounds), 0, -1):
            played = rounds[number - 1]
            mine, theirs = played.bid(me), played.bid(me.other)
            taker = played.winner
            result = "tie: nobody" if taker is None else ("you take it" if taker is me else "they take it")
            text.append(f"\n {number:>2}. prize {played.prize}: you {mine}, them {theirs}: {result}")
        self.query_one("#gs-rounds", Static).update(text)

    def _advice(self) -> None:
        right = self.query_one("#gs-right")
        right.display = self.advice_shown
        if not self.advice_shown:
            return
        panel = self.query_one("#gs-advice", AdvicePanel)
        if self.over:
            panel.show(None, "the game is over", compact=self.compact)
        elif self.advice is None:
            panel.show(None, "solving...", compact=self.compact)
        else:
            panel.show(self.advice, self.advice.engine, compact=self.compact)

    # ---- actions

    def action_bid(self, card: int) -> None:
        if self.over:
            self.say("The game is over: n starts a new one, m is a rematch")
            return
        if not self._ready() or self.secret_bid is None:
            self.say("A moment: still solving (x cancels)" if self.solver.running else "Not solved: n tries again")
            return
        hand = self.state.hand(self.human)
        if card not in hand:
            self.say(f"You do not hold a {card}: your hand is {cards_text(hand)}")
            return
        mine, theirs = card, self.secret_bid
        prize = self.state.up
        self.state.apply_joint((mine, theirs) if self.human is Side.P1 else (theirs, mine))
        result = "you take it" if mine > theirs else ("they take it" if theirs > mine else "a tie: nobody takes it")
        said = f"Prize {prize}: you bid {mine}, the opponent bid {theirs}: {result}."
        outcome = self.session.outcome()
        if outcome is not None:
            score = outcome.returns()[self.human]
            said += " " + ("You win!" if score > 0 else ("You lose." if score < 0 else "A draw."))
        self.say(said)
        self._new_round()

    def action_bid_from_mix(self) -> None:
        if self.over or not self._ready():
            self.action_bid(0)  # refused, and says why
            return
        solution = solve_position(self.state.position)
        self.action_bid(solution.draw(self.human, self.rng))

    def action_undo_after_the_end(self) -> None:
        self.action_undo()  # refused, and says why

    def action_undo(self) -> None:
        if self.takeback_refused():
            return
        if not self.session.undo():
            self.say("Nothing to undo")
            return
        self.say(f"Took back round {len(self.state.history()) + 1}.")
        self._new_round()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "undo_after_the_end"):
            return self.over is (action == "undo_after_the_end")  # u in the footer while the game runs only
        if action in ("review", "rematch"):
            return self.over  # after the game only
        if action == "cancel_solve":
            return self.solver.running
        if action in ("toggle_advice", "bid_from_mix"):
            # Shown in the footer while the game runs; after it the a key (and the palette) goes through ``advice``,
            # hidden, and the footer's room goes to v and m.
            return not self.over
        return True

    def action_advice(self) -> None:
        self.action_toggle_advice()

    def action_toggle_advice(self) -> None:
        self.nashplay.set_advice_shown(self.game_name, not self.advice_shown)
        self.refresh_view()

    def _fresh_game(self) -> None:
        self.new_game(GoofspielState(self.cards, seed=self.rng.randrange(MAX_SEED)))

    def action_new_game(self) -> None:
        if not self.over and self.state.history():
            self.say("New game (the unfinished one is kept for resume)")
        self._fresh_game()
        if not self._ready() and not self.solver.running:
            self._solve()
        self._new_round()

    def action_next_opponent(self) -> None:
        names = list(OPPONENTS)
        current = names.index(self.opponent) if self.opponent in names else -1
        self.session.opponent = names[(current + 1) % len(names)]
        # The policy follows the new opponent unless chosen at set-up (it could be escaped by changing opponents).
        self.session.takebacks = takebacks_allowed("goofspiel", self.opponent, self.config.takebacks)
        self.opponent_player = make_player(self.opponent, "goofspiel")
        self._titles()
        self.say(f"Your opponent is now the {self.opponent} player: a new game.")
        self._fresh_game()
        self._new_round()

    def game_changed(self) -> None:
        self.refresh_view()

    def action_menu(self) -> None:
        self.post_message(ShowMenu())

    # ---- records: kept as the game goes, saved, reviewed; a rematch

    def review_title(self) -> str:
        return f"Review: Goofspiel, N = {self.cards}, against {self.opponent} ({self.session.outcome()})"

    def action_rematch(self) -> None:
        if not self.over:
            self.say("A rematch comes after the game: n starts a new one")
            return
        # The same seed, so the same deck: the sides swapped on the prizes in the same order (a duplicate match).
        # The same clock, full again (not a resumed game's time left).
        config = dataclasses.replace(
            self.config, opponent=self.opponent, human=self.human.other, seed=self.seed, clock_left=None
        )
        self.post_message(OpenGame(self.game_name, config, setup=False))

    @property
    def opponent(self) -> str:
        return self.session.opponent

    def on_unmount(self) -> None:
        # Textual calls every class's on_unmount: LocalGameScreen's releases the save slot.
        self.solver.cancel()
