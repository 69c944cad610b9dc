"""The game screen: the board, whose turn, captures, the move list, typed moves, undo, saving; after the game its
review (``v``) and a rematch with the sides swapped (``m``).

The screen owns a ``GameSession`` (the rules live in ``core``); the opponent thinks in a worker thread, so the
screen answers keys while it does, and a stale answer (after an undo) is dropped by ply.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar, Literal

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Header, Input, Static
from textual.worker import get_current_worker

from core.errors import IllegalMoveError
from core.game import Side
from core.geister import GeisterView
from core.notation import Move
from solvers.advice import Advice
from tui.config import GeisterConfig
from tui.game_life import may_abort
from tui.messages import OpenGame, OpenReplay, OpenReview, ShowMenu
from tui.saves import GameKeeper, SaveSlot
from tui.screens.ask_path import PathRefusedError, prompt_path
from tui.screens.base import OpponentFailed, OpponentMoved
from tui.screens.board_screen import BoardScreen
from tui.screens.game_over import GameOverSummary
from tui.screens.hand_over import HandOverScreen
from tui.search_process import ProcessStoppedError
from tui.session import GameSession
from tui.widgets.advice import AdvicePanel
from tui.widgets.board import Board
from tui.widgets.eval_bar import EvalBar
from tui.widgets.fitted import Fitted
from tui.widgets.moves import MoveList

PaletteEntry = tuple[str, str, str]


class GameScreen(BoardScreen):
    """A local game of the Geister family against an AI: a new one from a configuration, or a resumed ``session``.

    The game in progress is saved after every move in a save slot of its own (``tui.saves.GameKeeper``): a new game
    takes a new slot, a resumed one the slot it was resumed from; when the game ends its whole record is kept in the
    state folder's ``records/`` and the slot is cleared."""

    class MiniAdviceReady(Message):
        """The solved tables' advice for the position ``key`` (the game's version and the ply shown); ``note``: why
        there is none (a position the tables do not cover)."""

        def __init__(self, advice: Advice | None, note: str, key: tuple[int, int]) -> None:
            super().__init__()
            self.advice = advice
            self.note = note
            self.key = key

    class TablesSolving(Message):
        """The first use of a Mini-Geister variant solves its tables (about a second, once per machine): the one being
        solved (``what``), the share of it done, and the seconds it has taken so far, for the position ``key``."""

        def __init__(self, what: str, share: float, seconds: float, key: tuple[int, int]) -> None:
            super().__init__()
            self.what = what
            self.share = share
            self.seconds = seconds
            self.key = key

    #: Seconds between two reports of the tables being solved (the solver reports far more often).
    TABLES_REPORT_EVERY = 0.1

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("colon", "type_move", "Move"),
        Binding("u", "undo", "Undo"),
        # Once the game is over u is out of the footer (undo is off), and this twin says why nothing is taken back.
        Binding("u", "undo_after_the_end", "Undo", show=False),
        Binding("s", "save_record", "Save"),
        Binding("r", "replay", "Replay", show=False),
        Binding("v", "review", "Review"),
        Binding("m", "rematch", "Rematch"),
        Binding("n", "new_game", "New"),
        Binding("f", "flip", "Flip", show=False),
        Binding("a", "toggle_advice", "Advice"),
        Binding("tab", "app.focus_next", "Board/moves", show=False),
        Binding("R", "resign", "Resign", show=False),
        Binding("escape", "back_to_game", "Back", show=False),
    ]

    PALETTE: ClassVar[list[PaletteEntry]] = [
        ("Type a move", "Enter a move in notation, like b1-b2 or a4-out", "type_move"),
        ("Undo", "Take back your last move and the opponent's reply", "undo"),
        ("Save record", "Save this game as a record file", "save_record"),
        ("Replay this game", "Open this game in the replay viewer", "replay"),
        ("Review this game", "After the game: every move judged (v)", "review"),
        ("Rematch", "After the game: the same game with the sides swapped (m)", "rematch"),
        ("New game", "Back to the set-up screen", "new_game"),
        ("Flip board", "Turn the board around", "flip"),
        ("Resign or abort", "Resign: a loss. Before your second move, abort: nothing is kept (R)", "resign"),
        ("Back to the menu", "The game stays saved, offered for resume (Esc)", "menu"),
        ("Back to the menu", "The game is over: its record is kept (Esc)", "menu_after_the_end"),
        ("Back to the menu", "Nothing of this board is kept (Esc)", "menu_unsaved"),
        ("Show or hide the advice", "Mini-Geister: the solved tables' verdict on the position (a)", "toggle_advice"),
    ]

    def __init__(self, config: GeisterConfig, session: GameSession | None = None, slot: SaveSlot | None = None) -> None:
        super().__init__()
        self.session = session if session is not None else GameSession(config)
        #: Where this game is saved (a new game takes its slot at its first save).
        self.slot = slot
        self.keeper: GameKeeper | None = None
        #: Whether the footer shows the keys of a finished game (v, m).
        self._over_shown = False
        self.game_name = self.session.config.variant
        self.input_mode: Literal["move", "save"] = "move"
        self.browsing: int | None = None
        #: A move the user made during the opponent's turn, played when the turn comes if it is legal then.
        self.premove: Move | None = None
        #: The solved tables' advice the panel shows, and the note on it (drawn again when the size changes).
        self._mini_advice: tuple[Advice | None, str] | None = None

    # ---- layout

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="board-pane"):
                yield from self.compose_board()
                yield Static(self._legend(), id="legend")
            with Vertical(id="side"):
                yield Fitted(id="status")
                yield Fitted(id="captured")
                yield AdvicePanel(id="mini-advice")
                yield AdvicePanel(id="search-advice")
                yield MoveList(id="moves")
        yield from self.compose_bottom()

    @property
    def ai_delay(self) -> float:
        return self.nashplay.ai_delay

    def on_mount(self) -> None:
        super().on_mount()
        # A game is kept from its first move: one left with nothing but its set-ups played was listed on the menu as
        # "0 plies played" (a dozen of them pushed the games off an 80x24 menu), and there is nothing in it to go on
        # with that a new game does not give.
        # An analysis board is a scratch board: nothing of it is saved.
        self.keeper = None if self.session.config.analysis else GameKeeper(self.nashplay.saves, self.slot)
        variant = self.session.variant
        human, opponent = self.session.human, self.session.opponent.name
        order = "moves first" if human is Side.P1 else "moves second"
        short = variant.title.split(" (")[0]  # "Mini-Geister 3 vs 2 (player 1: red-blue-blue)": the part before
        if self.session.config.analysis:
            self.set_titles(
                (f"Analysis board: {variant.title}", "both sides from the keyboard, every colour shown"),
                (f"Analysis board: {short}", ""),
                ("Analysis board", ""),
            )
        elif self.session.hot_seat:
            self.set_titles(
                (variant.title, "two people, one keyboard"), (short, "two people, one keyboard"), (short, "")
            )
        else:
            self.set_titles(
                (f"{variant.title} vs {opponent}", f"you are {human} ({order})"),
                (f"{variant.title} vs {opponent}", f"you are {human}"),
                (f"{short} vs {opponent}", f"you are {human}"),
                (f"{short} vs {opponent}", ""),
            )
        self.refresh_game()
        if not self.has_advice:  # the solved tables advise Mini-Geister; a search advises the rest
            self.warm_advice_ahead(f"advice-{id(self.session)}")
        if news := self.session.opponent_news():  # of the opponent's set-up, chosen as the session began
            self.say(news)
        self.query_one("#board", Board).focus()
        self._check_size()
        self._maybe_opponent()
        if self.session.clock is not None:
            self.set_interval(0.2, self._tick_clock)
        hidden = self.session.hot_seat and not self.session.config.analysis
        # Whoever is at the keyboard may not be the one to move: in a resumed game, or after the set-ups when the
        # last to choose (the second person, on their own set-up screen) does not move first.
        config = self.session.config
        at_keyboard = None if self.session.state.moves() else config.human.other if config.other_setup else config.human
        if hidden and not self.session.is_over and at_keyboard is not self.session.state.to_move:
            self.hand_over()

    # ---- showing the game

    def refresh_game(self) -> None:
        session = self.session
        view = session.view()
        board = self.query_one("#board", Board)
        moves = self.query_one("#moves", MoveList)
        if self.browsing is None:
            board.view = view
            board.interactive = not session.is_over
            board.inactive_hint = "The game is over: v reviews it, m is a rematch, r replays it, n starts a new game"
        moves.moves = tuple(m.to_text() for m in view.moves)
        moves.first = self._first_mover()
        self.query_one("#status", Fitted).show(*self._status(view))
        self.query_one("#captured", Fitted).show(*self._captured(view))
        self._keep()  # before the advice: a move is saved before anything that may fail after it
        self._update_advice()
        if session.is_over != self._over_shown:  # v and m: after the game
            self._over_shown = session.is_over
            self.refresh_bindings()

    @property
    def has_advice(self) -> bool:
        """The solved tables exist for every Mini-Geister variant: 2 vs 2 and the 3-vs-2 ones of section 6."""
        return self.session.variant.name.startswith("mini-geister")

    def _update_search_advice(self) -> None:
        session = self.session
        searchable = self.browsing is None and session.humans_turn
        self.update_search_advice(
            self.nashplay.advice_shown(self.variant_name()),
            session.view() if searchable else None,
            f"advice-{id(session)}",
            session.version,
            "the game is over" if session.is_over else "waiting for your turn",
            enabled=not self.has_advice,
        )

    def search_is_current(self, version: int) -> bool:
        return version == self.session.version and self.browsing is None

    def variant_name(self) -> str:
        return self.session.variant.name

    def _update_advice(self) -> None:
        self._update_search_advice()
        panel = self.query_one("#mini-advice", AdvicePanel)
        panel.display = self.has_advice and self.nashplay.advice_shown(self.variant_name())
        if not self.has_advice:
            return
        bar = self.query_one("#eval-bar", EvalBar)
        bar.display = panel.display or self.nashplay.hint
        if not bar.display:
            self.mark_board(None)
            return
        session = self.session
        ply = self.browsing if self.browsing is not None else len(session.state.moves())
        view = session.view_at(ply) if self.browsing is not None else session.view()
        if not str(panel.render()):
            panel.show(None, "solved tables", "working it out...")  # the first time the tables may be solved
        # Every colour only once the game is over: during it the panel sees exactly what the user sees.
        revealed = session.full_position_at(ply) if session.is_over else None
        self.work_out_advice(view.position(), session.variant.name, session.human, revealed, (session.version, ply))

    @work(thread=True, exclusive=True, group="advice", exit_on_error=False)
    def work_out_advice(
        self, position: str, game: str, human: Side, revealed: str | None, key: tuple[int, int]
    ) -> None:
        from core.errors import InvalidPositionError
        from core.geister import GeisterState
        from solvers.advice.mini_geister import advise, perfect_information_text
        from solvers.mini_geister.tables import building_reported

        advice: Advice | None = None
        note = ""
        table = [""]  # the table being solved
        times = [0.0, 0.0]  # when it began, when it was last reported

        def solving(what: str, share: float) -> None:
            now = time.monotonic()
            if what != table[0]:
                table[0], times[0] = what, now
            elif now - times[1] < self.TABLES_REPORT_EVERY and share < 1:
                return
            times[1] = now
            self.post_message(self.TablesSolving(what, share, now - times[0], key))

        try:
            with building_reported(solving):
                advice = advise(position, game, player=human, revealed=revealed)
        except InvalidPositionError as error:
            if revealed is not None and GeisterState.from_position(revealed, game).outcome() is not None:
                # Said once: "the tables do not cover this position: the game is over" added nothing to it.
                note = perfect_information_text(revealed)
            else:
                note = f"The tables do not cover this position: {error}"
                if revealed is not None:
                    note += "\n" + perfect_information_text(revealed)
        except Exception as error:  # the panel says so; the game goes on
            note = f"Advice unavailable: {type(error).__name__}: {error}"
        if not get_current_worker().is_cancelled:
            self.post_message(self.MiniAdviceReady(advice, note, key))

    @on(TablesSolving)
    def _show_tables_solving(self, event: TablesSolving) -> None:
        """Said in the advice panel until the advice comes: which table, how far, about how long it has left, and
        where the tables are kept (solved once, read from there afterwards)."""
        ply = self.browsing if self.browsing is not None else len(self.session.state.moves())
        if event.key != (self.session.version, ply):
            return  # a position left meanwhile
        from solvers.cache_folder import cache_dir

        share = f"{event.share:.0%}"
        if 0 < event.share < 1 and event.seconds >= 0.2:
            share += f", about {max(1, round(event.seconds * (1 - event.share) / event.share))} s left"
        self.query_one("#mini-advice", AdvicePanel).show(
            None,
            "solved tables",
            (
                f"Solving this game's tables, once (kept in {cache_dir()}): {event.what}, {share}",
                f"Solving this game's tables, once: {event.what}, {share}",
                f"Solving the tables, once: {share}",
            ),
            self.compact,
        )

    @on(MiniAdviceReady)
    def _show_mini_advice(self, event: MiniAdviceReady) -> None:
        ply = self.browsing if self.browsing is not None else len(self.session.state.moves())
        if event.key == (self.session.version, ply):
            self._mini_advice = (event.advice, event.note)
            self._show_mini_advice_panel()
            # The hint and the bar mark the user's own moves only: on the opponent's turn the advice ranks its replies.
            mine = event.advice is not None and self.session.view().to_move is self.session.human
            self.mark_board(event.advice if mine and self.browsing is None else None)

    def _show_mini_advice_panel(self) -> None:
        if self._mini_advice is not None:
            advice, note = self._mini_advice
            self.query_one("#mini-advice", AdvicePanel).show(advice, "solved tables", note, self.compact)

    def size_changed(self) -> None:
        super().size_changed()
        self._show_mini_advice_panel()  # its wordings and how many moves it lists depend on the size

    def action_toggle_advice(self) -> None:
        game = self.variant_name()
        self.nashplay.set_advice_shown(game, not self.nashplay.advice_shown(game))
        self._update_advice()

    def refresh_advice(self) -> None:
        self._update_advice()

    def _first_mover(self) -> Side:
        return self.session.state.first

    def _status(self, view: GeisterView) -> tuple[Text, ...]:
        """Whose turn, the game's end, the clock, the last move: for ``Fitted.show``, once the game is over in two
        wordings, saying that every colour is now revealed and, where that does not fit, not."""
        session = self.session
        lines: list[tuple[str, str]] = []  # (a line, its style)
        revealed: int | None = None  # the line that says so where it fits
        limit = view.variant.ply_limit
        lines.append((f"Ply {view.ply}" + (f" of {limit}" if limit else ""), "bold"))
        if self.browsing is not None:
            pass  # an earlier position: whose turn it is now, or how the game ended, is not what it shows
        elif (outcome := session.outcome()) is not None:
            if outcome.winner is None:
                verdict = "Draw."
            elif session.hot_seat:  # two people: by side, as the game-over panel says it
                verdict = f"{str(outcome.winner).capitalize()} wins!"
            else:
                verdict = "You won!" if outcome.winner is session.human else "You lost."
            lines.append((f"Game over: {verdict}", "bold"))
            lines.append((outcome.reason, ""))
            revealed = len(lines)
            lines.append(("v: review, m: rematch, r: replay", "dim"))
        elif session.hot_seat:
            lines.append((f"{str(session.human).capitalize()} to move", "bold"))
        elif session.humans_turn:
            lines.append((f"Your move ({session.human})", "bold"))
        else:
            lines.append((f"{session.opponent.name} is thinking... ({session.human.other})", "italic"))
            if self.premove is not None:
                lines.append((f"Premove: {self.premove} (Esc cancels)", "bold"))
        if self.session.clock is not None and self.browsing is None:
            lines.append((self._clock_line(), "bold"))
        last = view.last_move
        if last is not None:
            mover = self._mover_of(len(view.moves) - 1)
            who = str(mover) if session.hot_seat else "you" if mover is session.human else session.opponent.name
            lines.append((f"Last move: {last} ({who})", ""))
        if self.browsing is not None:
            total = len(session.state.moves())
            lines.append((f"Viewing the position after move {self.browsing} of {total}: End returns", "reverse"))
        if revealed is None:
            return (_lines_text(lines),)
        keys, style = lines[revealed]
        longer = [*lines[:revealed], (f"All colours are revealed. {keys}", style), *lines[revealed + 1 :]]
        return _lines_text(longer), _lines_text(lines)

    def _mover_of(self, index: int) -> Side:
        first = self._first_mover()
        return first if index % 2 == 0 else first.other

    # ---- moves

    def play(self, move: Move) -> None:
        if self.browsing is not None:
            self.say("You are looking at an earlier position: press End in the move list to return", error=True)
            return
        if self.session.opponents_turn:
            # Kept, not refused: it was lost, the refusal overwritten at once by the opponent's move.
            self.premove = move
            self.say(f"Premove {move}: played on your turn if still legal (Esc cancels)")
            self.refresh_game()
            return
        try:
            self.session.play(move)
        except IllegalMoveError as error:
            self.say(f"Refused: {error}", error=True)
            return
        # Two people at one keyboard: by side, for the next one reads it ("Player 1 played b2-b3", never "you").
        who = str(self._mover_of(len(self.session.state.moves()) - 1)).capitalize() if self.session.hot_seat else "You"
        self.say(f"{who} played {move}")
        self.refresh_game()
        self._after_move()

    def _after_move(self) -> None:
        if self.session.is_over:
            self._game_over()
        elif self.session.hot_seat and not self.session.config.analysis:
            self.hand_over()
        else:
            self._maybe_opponent()

    def _tick_clock(self) -> None:
        """The clocks shown as they run; a fallen flag ends the game (a loss on time)."""
        if self.session.clock is None or self.session.is_over:
            return
        if self.session.check_clock() is not None:
            self.workers.cancel_group(self, "opponent")
            self.premove = None
            self.refresh_game()
            self._game_over()
            return
        self.query_one("#status", Fitted).show(*self._status(self.session.view()))

    def _clock_line(self) -> str:
        clock = self.session.clock
        if clock is None:
            return ""
        session = self.session
        if session.hot_seat:
            names = {side: str(side) for side in Side}
        else:
            names = {session.human: "you", session.human.other: session.opponent.name}
        return clock.line(names, session.human)

    def hand_over(self) -> None:
        """At a shared keyboard: cover the game until the player to move is the one looking."""
        last = self.session.state.moves()[-1].to_text() if self.session.state.moves() else None
        self.app.push_screen(HandOverScreen(self.session.state.to_move, last))

    def _maybe_opponent(self) -> None:
        if self.session.opponents_turn:
            self.think(self.session.opponent_view(), self.session.version)

    @work(thread=True, exclusive=True, group="opponent", exit_on_error=False)
    def think(self, view: GeisterView, version: int) -> None:
        started = time.monotonic()
        try:
            move = self.session.choose_opponent_move(view)
        except ProcessStoppedError as error:  # its process died twice in a row: plain words, no exception's name
            self.post_message(OpponentFailed(str(error)))
            return
        except Exception as error:  # an AI bug must not take the game down with it
            self.post_message(OpponentFailed(f"{type(error).__name__}: {error}"))
            return
        # A short pause so the user sees their own move land before the reply.
        remaining = self.ai_delay - (time.monotonic() - started)
        if remaining > 0:
            time.sleep(remaining)
        if get_current_worker().is_cancelled:
            return
        self.post_message(OpponentMoved(move, version))

    @on(OpponentMoved)
    def _opponent_moved(self, event: OpponentMoved[Move]) -> None:
        if not self.session.apply_opponent(event.move, event.version):
            return  # the game changed (undo) while it thought: the answer is stale
        news = self.session.opponent_news()  # its process restarted, say
        self.say(f"{self.session.opponent.name} played {event.move}" + (f". {news}" if news else ""))
        self.refresh_game()
        if self.session.is_over:
            self.premove = None
            self._game_over()
        elif self.premove is not None:
            self._play_premove()

    def _play_premove(self) -> None:
        move, self.premove = self.premove, None
        assert move is not None
        if self.session.state.is_legal(move):
            self.play(move)
        else:
            self.say(f"Your premove {move} is not legal now: dropped. Your move.", error=True)
            self.refresh_game()

    @on(OpponentFailed)
    def _opponent_failed(self, event: OpponentFailed) -> None:
        self.say(
            f"The opponent failed ({event.error}); your game is saved. Press u to undo or n for a new game.", error=True
        )

    def _game_over(self) -> None:
        outcome = self.session.outcome()
        assert outcome is not None
        kept = self.keeper.finished if self.keeper is not None else None
        record = self.session.record(reveal=True)
        reader = None if self.session.hot_seat else self.session.human  # at a shared keyboard: told by side
        summary = GameOverSummary.of(outcome, record.result, reader, kept)
        review = self.nashplay.review_of(record)
        if review is not None:
            summary = summary.with_accuracy(review, reader, self.session.opponent.name)
        self.open_game_over(summary, {"rematch": "rematch", "review": "review", "new": "new_game"})
        keys = "v: review, m: rematch, r: replay, n: new game"
        if kept is None:
            self.say(f"Game over: {outcome}. {keys}.", f"Game over. {keys}.")
        else:
            self.say(
                f"Game over: {outcome}. Its record is in {kept}. {keys}.",
                f"Game over: {outcome}. {keys}.",
                f"Game over. {keys}.",
            )

    def on_screen_resume(self) -> None:
        # Back from the game's review: the panel again, now with each player's accuracy (once).
        reviewed = self.session.is_over and self.nashplay.review_of(self.session.record(reveal=True)) is not None
        if reviewed and not self._accuracy_shown:
            self._accuracy_shown = True
            self._game_over()

    #: Whether the panel has shown the review's accuracy.
    _accuracy_shown = False

    def on_unmount(self) -> None:
        if self.keeper is not None:
            self.keeper.release()  # the game stays in its slot, offered for resume (by this or another nashplay)

    def keep_before_leaving(self) -> None:
        """The app leaves the game (quit, the menu): kept once more as it stands, so that a clock's time spent on the
        move not yet made is kept too (a resumed game gave it back)."""
        if not self.session.is_over:
            self._keep()

    def _keep(self) -> None:
        """Save the game as it stands (in progress: its slot; over: its whole record in ``records/``)."""
        if self.keeper is None:
            return
        session = self.session
        try:
            if session.is_over:
                self.keeper.keep(session.record(reveal=False), {}, session.record(reveal=True))
            else:
                self.keeper.keep(session.record(reveal=False), session.secrets())
        except OSError as error:
            # Said once, not after every move: a read-only state folder is a fact of this session, and the game
            # itself goes on (the user can still save a record with s).
            self.nashplay.report_save_problem(
                f"This game cannot be saved in {self.nashplay.saves.state} ({error.strerror or error}); "
                "it will be lost if nashplay stops. Press s to save a record elsewhere."
            )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("review", "rematch"):
            return self.session.is_over  # shown in the footer once the game is over
        if action in ("type_move", "undo"):
            return not self.session.is_over  # no move to type or take back: the footer's room goes to v and m
        if action == "undo_after_the_end":
            return self.session.is_over
        if action in ("menu", "menu_after_the_end", "menu_unsaved"):
            return action == self._menu_entry()  # the palette's entry, worded by what becomes of the game
        return True

    def _menu_entry(self) -> str:
        """The palette's "Back to the menu" that says what becomes of this game: saved for resume, kept as a record
        (over), or nothing (an analysis board)."""
        if self.keeper is None:
            return "menu_unsaved"
        return "menu_after_the_end" if self.session.is_over else "menu"

    # ---- actions

    def action_type_move(self, mode: Literal["move", "save"] = "move") -> None:
        self.input_mode = mode
        if mode == "save":
            # The state folder's records/, not wherever nashplay was started from: records are found again there.
            # A finished game is kept there already: saving it again goes to the same file, not to a second copy.
            kept = self.keeper.finished if self.keeper is not None else None
            path = kept or self.nashplay.saves.record_path(self.session.variant.name)
            self.open_input("the record's file (Enter saves, Esc cancels)", str(path))
            # The field is filled in, so its placeholder does not show: the message line says what it asks for.
            self.say("Save the record to the file below: edit the path, Enter saves, Esc cancels")
        else:
            self.open_input(self.MOVE_PLACEHOLDER)

    @on(Input.Submitted, "#move-input")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.close_input()
        if not text:
            return
        if self.input_mode == "save":
            try:
                path = prompt_path(text)  # a web visitor's stays in their folder
            except PathRefusedError as refused:
                self.say(str(refused), error=True)
                return
            self._save_to(path)
            return
        self.play_text(text)

    def _save_to(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.session.record(reveal=self.session.is_over).save(path)
        except OSError as error:
            self.say(f"Could not save to {path}: {error.strerror or error}", error=True)
            return
        self.say(f"Saved to {path}. Replay it with: nashplay replay {path}")

    def action_back_to_game(self) -> None:
        """Esc: back one step: out of the move field, out of an earlier position, a picked piece put down; with
        nothing of those, back to the menu (the game stays saved, offered for resume)."""
        if self.close_input():
            self.say("")
            return
        board = self.query_one("#board", Board)
        if self.premove is not None:
            self.say(f"Premove {self.premove} cancelled")
            self.premove = None
            self.refresh_game()
        elif self.browsing is not None:
            self.query_one("#moves", MoveList).action_jump(-1)
        elif board.selected is not None:
            board.selected = None
        else:
            self.action_menu()

    def action_menu(self) -> None:
        self.workers.cancel_group(self, "opponent")
        self.post_message(ShowMenu())

    def action_resign(self) -> None:
        """Resign (a loss, kept in the record); before the user's second move, abort instead: nothing is kept."""
        session = self.session
        if session.is_over:
            self.say("The game is over already", error=True)
        elif may_abort(session.user_moves()):
            self.confirm("Abort this game? Nothing of it is kept.", self._abort)
        else:
            self.confirm("Resign this game? It counts as a loss.", self._resign)

    def _abort(self) -> None:
        self.workers.cancel_group(self, "opponent")
        if self.keeper is not None:
            self.keeper.discard()
        self.keeper = None  # nothing more of this game is kept
        self.app.notify("Game aborted: nothing of it was kept.")
        self.post_message(ShowMenu())

    def _resign(self) -> None:
        if self.session.is_over:
            return
        self.workers.cancel_group(self, "opponent")
        self.session.resign()
        self.say("You resigned.")
        self.refresh_game()
        self._game_over()

    def action_save_record(self) -> None:
        self.action_type_move("save")

    def action_undo_after_the_end(self) -> None:
        self.action_undo()  # refused, and says why

    def action_menu_after_the_end(self) -> None:
        self.action_menu()

    def action_menu_unsaved(self) -> None:
        self.action_menu()

    def action_undo(self) -> None:
        refusal = self.session.takeback_refusal()
        if refusal is not None:
            self.say(refusal, error=True)
            return
        self.workers.cancel_group(self, "opponent")
        self.premove = None
        undone = self.session.undo()
        if not undone:
            self.say("Nothing to undo: you have not moved yet", error=True)
            self._maybe_opponent()
            return
        self.browsing = None
        self.query_one("#moves", MoveList).ply = None
        self.say(f"Took back {undone} move{'s' if undone > 1 else ''}")
        self.refresh_game()
        if self.session.hot_seat and not self.session.config.analysis:
            self.hand_over()
        self._maybe_opponent()

    def action_new_game(self) -> None:
        self.workers.cancel_group(self, "opponent")
        config = self.session.config
        self.post_message(OpenGame(config.variant, config, setup=True))

    def action_replay(self) -> None:
        # Mid-game the replay shows the user's own view: the opponent's colours stay hidden until the game ends.
        private = not self.session.is_over
        record = self.session.record(reveal=not private)
        self.post_message(OpenReplay(record, viewer=self.session.human, private=private))

    def action_review(self) -> None:
        if not self.session.is_over:
            self.say("The review comes after the game: finish it first", error=True)
            return
        outcome = self.session.state.outcome()
        title = f"Review: {self.session.variant.title} vs {self.session.opponent.name} ({outcome})"
        self.post_message(OpenReview(self.session.record(reveal=True), title))

    def action_rematch(self) -> None:
        if not self.session.is_over:
            self.say("A rematch comes after the game: finish it first, or n for a new game", error=True)
            return
        self.workers.cancel_group(self, "opponent")
        config = self.session.rematch_config()
        self.post_message(OpenGame(config.variant, config, setup=False))

    @on(MoveList.Browse)
    def _browse(self, event: MoveList.Browse) -> None:
        board = self.query_one("#board", Board)
        total = len(self.session.state.moves())
        if event.ply >= total:
            self.browsing = None
            self.refresh_game()
        else:
            self.browsing = event.ply
            board.view = self.session.view_at(event.ply)
            board.interactive = False
            board.inactive_hint = "You are looking at an earlier position: End (in the move list) returns"
        # The side panel tells of the position shown: its last move and its captures, not the live game's.
        shown = board.view if board.view is not None else self.session.view()
        self.query_one("#status", Fitted).show(*self._status(shown))
        self.query_one("#captured", Fitted).show(*self._captured(shown))
        self._update_advice()


def _lines_text(lines: list[tuple[str, str]]) -> Text:
    """Each ``(line, style)`` on a line of its own. No break after the last: the status's margin parts it from the
    captures, and an empty line more cost the move list its last row at 80x24 (the advice panel listing 4 moves and
    "... more moves")."""
    return Text("\n", end="").join(Text(line, style=style, end="") for line, style in lines)
