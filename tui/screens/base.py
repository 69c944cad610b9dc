"""What every nashplay screen shares: typed access to the app (its glyphs, its settings), the help topic, and the
messages an AI opponent's worker sends back."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from rich.text import Text
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header

from core.game import Game, Side
from core.record import Record
from solvers.review import Review
from tui.game_life import may_abort
from tui.games import game_entry
from tui.local_session import LocalSession
from tui.messages import OpenReview, ShowMenu
from tui.saves import GameKeeper, SaveSlot, SaveStore
from tui.screens.ask_path import Confirm
from tui.screens.game_over import GameOverChoice, GameOverPanel, GameOverSummary
from tui.theme import Glyphs
from tui.widgets.fitted import Fitted

ActionT = TypeVar("ActionT")


class AppServices(Protocol):
    """What a screen may ask of the app beyond Textual's own: the display choices, the saved games, and the remembered
    advice toggles. Screens see the app through this, never through ``NashplayApp`` itself, so that no screen module
    depends on the app module (the app imports the screens)."""

    ascii_mode: bool
    glyphs: Glyphs
    #: Seconds an AI's reply waits at least, so the user sees their own move land first.
    ai_delay: float
    saves: SaveStore
    hint: bool

    def advice_shown(self, game: str) -> bool: ...

    def set_advice_shown(self, game: str, shown: bool) -> None: ...

    def describe_saved_games(self) -> list[tuple[str, str]]: ...

    def report_save_problem(self, problem: str) -> None: ...

    def format_title(self, title: str, sub_title: str) -> Content: ...

    def remember_review(self, record: Record, review: Review) -> None: ...

    def review_of(self, record: Record) -> Review | None: ...


class OpponentMoved(Message, Generic[ActionT]):
    """An AI opponent's answer, computed in a worker for the game as it was at ``version``."""

    def __init__(self, move: ActionT, version: int) -> None:
        super().__init__()
        self.move = move
        self.version = version


class OpponentFailed(Message):
    """An AI opponent raised instead of answering: the screen says so and the game stays usable."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


#: Columns the header leaves for the title: its icon (8) and the clock space (10) take the rest.
HEADER_CHROME = 18


class NashplayScreen(Screen[None]):
    #: The game this screen plays or sets up (a ``tui.games`` name); its entry names the help topic.
    game_name: str | None = None
    #: The help topic of a screen that belongs to no game.
    HELP_TOPIC: ClassVar[str] = "general"
    #: Below this terminal size (columns, rows) the screen is compact: it gets the ``-compact`` class and draws
    #: shorter texts, dropping detail so that nothing wraps or falls off. ``None``: the screen does not adapt here
    #: (the Geister board screens do it themselves).
    SHRINK_BELOW: ClassVar[tuple[int, int] | None] = None

    def __init__(self) -> None:
        super().__init__()
        #: The titles to choose from, most detailed first (``set_titles``): the first that fits the header is shown.
        self._title_choices: tuple[tuple[str, str], ...] = ()

    @property
    def nashplay(self) -> AppServices:
        """The app's services (``self.app`` is typed as any ``App``)."""
        return cast("AppServices", self.app)

    @property
    def glyphs(self) -> Glyphs:
        return self.nashplay.glyphs

    @property
    def help_topic(self) -> str:
        """What ``?`` explains here: the game's topic from the game catalogue, else the screen's own."""
        return game_entry(self.game_name).help_topic if self.game_name is not None else self.HELP_TOPIC

    @property
    def compact(self) -> bool:
        """Whether the terminal is below ``SHRINK_BELOW``: texts are shortened and optional parts hidden."""
        if self.SHRINK_BELOW is None:
            return False
        width, height = self.app.size
        return width < self.SHRINK_BELOW[0] or height < self.SHRINK_BELOW[1]

    def on_mount(self) -> None:
        if self.nashplay.ascii_mode:
            for header in self.query(Header):
                header.icon = "*"  # the default icon is a Unicode circle
        self._fit_to_size()

    def on_resize(self) -> None:
        self._fit_to_size()

    def _fit_to_size(self) -> None:
        if self.SHRINK_BELOW is not None and self.compact != self.has_class("-compact"):
            self.set_class(self.compact, "-compact")
            for footer in self.query(Footer):
                footer.compact = self.compact  # a space less around each key: at 80 columns they all fit
            if self.is_mounted:
                self.size_changed()
        self._show_titles()

    def size_changed(self) -> None:
        """The screen turned compact or back: redraw what depends on it (texts that shorten)."""

    def fit_line(self, *candidates: str, margin: int = 4) -> str:
        """The first of ``candidates`` (most detailed first) that fits a line of the terminal, less ``margin``
        columns; the last one when none does. Chosen now, for the terminal's width now: only for a text the screen
        writes again on every resize (the menu's hint). A text written once shows a ``tui.widgets.fitted.Fitting``,
        which chooses again by itself."""
        room = self.app.size.width - margin
        return next((text for text in candidates if len(text) <= room), candidates[-1])

    def set_titles(self, *candidates: tuple[str, str]) -> None:
        """The header's title and sub-title: the first (title, sub-title) of ``candidates`` that fits the header at
        the terminal's width (the last one, shortened at a word, when none does), so a title is never cut."""
        self._title_choices = candidates
        self._show_titles()

    def _show_titles(self) -> None:
        if not self._title_choices:
            return
        room = self.app.size.width - HEADER_CHROME
        for title, sub_title in self._title_choices:
            if len(self.nashplay.format_title(title, sub_title).plain) <= room:
                break
        else:
            title, sub_title = self._title_choices[-1][0], ""
            if len(title) > room:
                title = title[: max(0, room - 3)].rsplit(" ", 1)[0].rstrip(",;:") + "..."
        self.title, self.sub_title = title, sub_title

    # ---- a game's life: confirming what cannot be undone, and the game-over panel

    def confirm(self, question: str, then: Callable[[], None]) -> None:
        """Ask ``question`` (y or n) and run ``then`` on yes."""

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(Confirm(question), answered)

    def open_game_over(
        self,
        summary: GameOverSummary,
        actions: Mapping[GameOverChoice, str],
    ) -> None:
        """The game-over panel over this screen; a choice runs this screen's action for it (``actions``: the choices
        this game offers, each with its action's name; the menu is always offered)."""

        def chosen(choice: GameOverChoice | None) -> None:
            if choice == "menu":
                self.post_message(ShowMenu())
            elif choice is not None:
                self.call_later(self.run_action, actions[choice])

        unavailable = frozenset(c for c in ("rematch", "review", "new") if c not in actions)
        self.app.push_screen(GameOverPanel(summary, cast("frozenset[GameOverChoice]", unavailable)), chosen)


def title_choices(title: str, game: str, players: str, result: str) -> list[tuple[str, str]]:
    """A replay viewer's (title, sub-title) choices, most detailed first, for ``set_titles`` (the Geister replay
    viewer's and the other games' record viewer's): the title given ("Replay: PATH", "Solved line, 13 plies: ...")
    and its shorter form (the file's name without its folders, the part before the colon), each with the players and
    the result, with the players, or alone; then "Replay: GAME" and last "Replay", which always fits, so that no
    title is cut ("Replay...")."""
    subs = [f"{players}, result {result}", players]
    if title.startswith("Replay: "):
        # A file's folders say least: its name with who played comes before its whole path alone.
        name = f"Replay: {PurePath(title.removeprefix('Replay: ')).name}"
        choices = [(shown, sub) for shown in (title, name) for sub in subs] + [(title, ""), (name, "")]
    else:
        # A title's detail after its colon says more than who played: the whole title alone comes first.
        head = title.split(": ")[0]
        choices = [(title, sub) for sub in [*subs, ""]]
        choices += [(head, sub) for sub in [*subs, ""]]
    choices += [(f"Replay: {game}", sub) for sub in [*subs, ""]] + [("Replay", "")]
    return list(dict.fromkeys(choices))


class PlaybackScreen(NashplayScreen):
    """A screen that steps through a game's positions, 0 to ``last_ply``, by hand or playing on a timer: the Geister
    replay viewer and the record viewer of the other games. Subclasses draw the position (``_show``) and start the
    timer when mounted (``start_playback``)."""

    ply: reactive[int] = reactive(0)
    playing: reactive[bool] = reactive(False)

    def __init__(self) -> None:
        super().__init__()
        self._timer: Timer | None = None

    @property
    def last_ply(self) -> int:
        raise NotImplementedError

    def _show(self) -> None:
        raise NotImplementedError

    def start_playback(self, seconds: float) -> None:
        """The timer that plays the game on, paused until Space."""
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_interval(seconds, self._tick, pause=not self.playing)

    def watch_playing(self, playing: bool) -> None:
        if self._timer is None:
            return
        if playing:
            self._timer.resume()
        else:
            self._timer.pause()
        self._show()

    def _tick(self) -> None:
        if self.ply >= self.last_ply:
            self.playing = False
            return
        self.ply += 1

    def action_step(self, delta: int) -> None:
        self.playing = False
        self.ply = max(0, min(self.last_ply, self.ply + delta))

    def action_jump(self, where: int) -> None:
        self.playing = False
        self.ply = self.last_ply if where < 0 else 0

    def action_toggle_play(self) -> None:
        if not self.playing and self.ply >= self.last_ply:
            self.ply = 0
        self.playing = not self.playing


#: A local game's state type (``TcgState``, ``FootstepState``, ``HeapGameState``, ``GoofspielState``).
StateT = TypeVar("StateT", bound="Game[Any, Any]")


class LocalGameScreen(NashplayScreen, Generic[StateT]):
    """A local game played here (TCG, Footstep, Nim, Goofspiel): its ``LocalSession`` (``tui.local_session``) holds
    the state, the sides, the generators and the record, and keeps the game on disk as it goes (in its save slot while
    it runs, in ``records/`` once over). The screen draws it and hands it the user's actions."""

    session: LocalSession[StateT]

    @property
    def state(self) -> StateT:
        return self.session.state

    @state.setter
    def state(self, state: StateT) -> None:
        self.session.state = state

    @property
    def human(self) -> Side:
        return self.session.human

    @property
    def seed(self) -> int:
        return self.session.seed

    @property
    def rng(self) -> random.Random:
        """The user's side's generator (a suggestion drawn from a mix, the next game's deal)."""
        return self.session.rng

    @property
    def keeper(self) -> GameKeeper | None:
        return self.session.keeper

    def attach_saves(self, slot: SaveSlot | None) -> None:
        """Keep the game in ``slot`` (a resumed game's), or in a new slot from its first move."""
        self.session.keeper = GameKeeper(self.nashplay.saves, slot)

    def record(self) -> Record:
        return self.session.record()

    def _keep(self) -> None:
        problem = self.session.keep()
        if problem is not None:
            self.nashplay.report_save_problem(problem)

    def keep_before_leaving(self) -> None:
        """The app leaves the game (quit, the menu): kept once more as it stands, so that a clock's time spent on the
        move not yet made is kept too (a resumed game gave it back)."""
        if not self.over:
            self._keep()

    def new_game(self, state: StateT) -> None:
        """Start ``state``: the game played so far stays where it is kept (in progress: offered for resume)."""
        self.session.new_game(state)

    def save_record(self) -> tuple[bool, str]:
        """The save key: the record into ``records/``; whether it was saved, and what to say."""
        return self.session.save_record(self.nashplay.saves)

    # ---- what every local game screen does alike: its message line, saving, the review

    #: The message line's text, in its most detailed wording (tests read it).
    message_text = ""

    def say(self, *wordings: str, error: bool = False) -> None:
        """One line in the screen's ``#message`` (as text, never markup): the first of ``wordings`` (most detailed
        first) that fits the line, chosen again when the terminal is resized; an error is bold and marked
        ``-error``."""
        self.message_text = wordings[0]
        style = "bold" if error else ""
        message = self.query_one("#message", Fitted)
        message.show(*(Text(wording, style=style, end="") for wording in wordings))
        message.set_class(error, "-error")

    def review_title(self) -> str:
        """The review screen's title for this game."""
        raise NotImplementedError

    def action_save_record(self) -> None:
        saved, message = self.save_record()
        self.say(message, error=not saved)

    def action_review(self) -> None:
        if not self.state.is_terminal():
            self.say("The review comes after the game", error=True)
            return
        self.post_message(OpenReview(self.record(), self.review_title()))

    # ---- a game's life: its end (the game-over panel), resigning or aborting, the takeback policy

    #: The game-over panel's choices this game offers, each with this screen's action for it.
    GAME_OVER_ACTIONS: ClassVar[dict[GameOverChoice, str]] = {
        "rematch": "rematch",
        "review": "review",
        "new": "new_game",
    }
    #: Whether the game was over when last shown (``check_over``).
    _over_shown = False

    @property
    def over(self) -> bool:
        """Whether the game has ended, by its rules or by a resignation."""
        return self.session.over

    def check_over(self) -> None:
        """After every change: the clock follows the moves, the footer's keys follow the game's end (v and m after
        it), and the game-over panel opens when it comes."""
        self.session.sync_clock()
        if self.over == self._over_shown:
            return
        self._over_shown = self.over
        self.refresh_bindings()
        if self.over:
            self.game_ended()

    def game_ended(self) -> None:
        outcome = self.session.outcome()
        assert outcome is not None
        # Two people at one keyboard are told who won by side; TCG's advisor mode is the user's own game.
        reader = None if self.session.opponent == "human" else self.human
        kept = self.keeper.finished if self.keeper is not None else None
        record = self.record()
        summary = GameOverSummary.of(outcome, record.result, reader, kept)
        review = self.nashplay.review_of(record)
        if review is not None:
            summary = summary.with_accuracy(review, reader, self.session.opponent or "opponent")
        self.open_game_over(summary, self.GAME_OVER_ACTIONS)

    def on_screen_resume(self) -> None:
        # Back from the game's review: the panel again, now with each player's accuracy.
        if self.over and self.nashplay.review_of(self.record()) is not None and not self._accuracy_shown:
            self._accuracy_shown = True
            self.game_ended()

    #: Whether the panel has shown the review's accuracy (once is enough).
    _accuracy_shown = False

    # ---- the clock (a game played with one: ``LocalSession.clock``)

    def start_clock(self) -> None:
        """Tick the game's clock, if it has one: shown as it runs, and a fallen flag ends the game."""
        if self.session.clock is not None:
            self.set_interval(0.2, self._tick_clock)

    def _tick_clock(self) -> None:
        if self.session.check_clock() is not None:
            self.cancel_work()
            self.say(f"{self.session.outcome()}.")
            self._keep()
            self.game_changed()
        elif self.session.clock is not None and not self.over:
            self.clock_ticked()

    def clock_ticked(self) -> None:
        """Show the clock's new time (the screen's own place for it)."""

    def clock_line(self) -> str:
        """``Clock:>you 4:59  perfect 5:00`` (each side's name as the screen says it), ``""`` without a clock."""
        if self.session.opponent == "human":
            names = {side: str(side) for side in Side}
        else:
            names = {self.human: "you", self.human.other: self.session.opponent or "opponent"}
        return self.session.clock_text(names)

    def takeback_refused(self) -> bool:
        """Whether a takeback is refused now (the game is over, or none are allowed): the message line says why."""
        refusal = self.session.takeback_refusal()
        if refusal is not None:
            self.say(refusal, error=True)
        return refusal is not None

    def cancel_work(self) -> None:
        """Stop what works for the game in the background (an AI's move): the game is ending."""

    def game_changed(self) -> None:
        """Show the game again after a change the screen did not make itself (a resignation)."""
        raise NotImplementedError

    def action_resign(self) -> None:
        """Resign (a loss, kept in the record); before the user's second move, abort instead: nothing is kept."""
        if self.over:
            self.say("The game is over already", error=True)
        elif may_abort(self.session.user_moves()):
            self.confirm("Abort this game? Nothing of it is kept.", self._abort)
        else:
            self.confirm("Resign this game? It counts as a loss.", self._resign)

    def _abort(self) -> None:
        self.cancel_work()
        self.session.abort()
        self.session.keeper = None  # nothing more of this game is kept
        self.app.notify("Game aborted: nothing of it was kept.")
        self.post_message(ShowMenu())

    def _resign(self) -> None:
        if self.over:
            return
        self.cancel_work()
        outcome = self.session.resign()
        self.say(f"{outcome.reason.capitalize()}.")
        self._keep()
        self.game_changed()
        self.check_over()

    def on_unmount(self) -> None:
        # Textual calls this as well as a subclass's own on_unmount (each class's handler in the MRO).
        self.session.release()  # an unfinished game stays in its slot, offered for resume
