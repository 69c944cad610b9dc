"""What the Geister board screens share: a local game (``GameScreen``) and a game on a contest server
(``ServerGameScreen``).

Both draw one player's view on the ``Board`` widget and take moves from it, from the move field (``:``) or from a
paste; both show the captured pieces, a legend, one message line, a note when the terminal is too small, and the
live search advice (a search AI in a separate process advising the user on their turn): the panel (``a``), the
suggested move marked on the board (``H``), each unknown piece's chance of blue on the board, and the evaluation
bar beside it, all from the same ``Advice`` as it improves. Below 100x30 the screen is compact: it drops detail
(the legend, the panel's longer lines) instead of wrapping. The rules stay in ``core``: each screen decides what a
chosen move means (``play``).
"""

from __future__ import annotations

import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from core.errors import NotationError
from core.game import Side
from core.geister import Colour, GeisterView, Piece, variant_by_name
from core.notation import Move, Square
from solvers.catalogue import advising_player
from solvers.geister_engine.compiled_cache import compile_progress, engine_folder
from tui.screens.base import NashplayScreen
from tui.widgets.advice import AdvicePanel, value_text
from tui.widgets.board import Board
from tui.widgets.eval_bar import EvalBar
from tui.widgets.fitted import Fitted
from tui.widgets.footer import NashplayFooter

if TYPE_CHECKING:
    from solvers.advice import Advice


def piece_letters(pieces: list[Piece], viewer: Side, palette: dict[str, str]) -> Text:
    """Captured pieces as coloured letters (own upper case, opponent lower case): colour and letter agree. The
    colours come from the theme (``palette``: the app's theme variables), so themes restyle them too."""
    text = Text(end="")
    for piece in pieces:
        own = piece.side is viewer
        letter = piece.colour.value if own else piece.colour.value.lower()
        variable = {"B": "piece-blue", "R": "piece-red"}.get(piece.colour.value, "piece-unknown")
        colour = palette.get(variable, "#b76ef0")
        text.append(letter, style=f"bold {colour}")
        text.append(" ")
    if not pieces:
        text.append("none", style="dim")
    return text


class BoardScreen(NashplayScreen):
    """The shared half of a Geister board screen. Subclasses compose ``#board``, ``#message``, ``#move-input``,
    ``#too-small`` and ``#search-advice``, and implement ``play`` and ``search_is_current``."""

    class SearchReport(Message):
        """A slice of the live advice search, for the position at ``version`` (``note``: why there is none)."""

        def __init__(self, advice: Advice | None, version: int, note: str) -> None:
            super().__init__()
            self.advice = advice
            self.version = version
            self.note = note

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        # Not ``h``: hjkl move the cursor.
        Binding("H", "toggle_hint", "Hint"),
    ]

    #: The smallest terminal the screen lays out in; smaller gets a message instead of a broken board.
    MIN_SIZE: ClassVar[tuple[int, int]] = (64, 20)
    #: Below this the screen is compact (``-compact``): detail is dropped so that nothing wraps or falls off.
    SHRINK_BELOW = (100, 30)
    #: The search AI the live advice runs: the catalogue's strongest Geister player that advises (it also estimates
    #: the opponent's colours).
    ADVICE_ENGINE = advising_player("geister").name
    #: Seconds the live advice keeps searching one position, and how often it reports.
    ADVICE_BUDGET, ADVICE_SLICE = 30.0, 0.4
    #: The first report of a position's search comes after this much: a shallow answer at once, then deeper ones.
    FIRST_ADVICE_SLICE = 0.1
    #: Start the advice's process (and load its engine) as the game opens, before anyone asks for advice, so that
    #: ``a`` is answered at once: the first advice otherwise waited for a process to start and the compiled engine
    #: to load (1.6 s on an idle machine, seconds more on a busy one). The tests turn it off (each would start a
    #: process it never uses) but for the ones that test it.
    WARM_ADVICE_AHEAD: ClassVar[bool] = True
    #: Seconds after the board first shows: its first paint and the opponent's first move come first.
    WARM_AHEAD_DELAY = 0.3
    #: What the move field (``:``) asks for.
    MOVE_PLACEHOLDER = "move, like b1-b2 or a4-out (Enter plays, Esc cancels)"

    def __init__(self) -> None:
        super().__init__()
        self.message_text = ""
        self._advice_warmed = False
        #: The advice's player being readied in its process (``None``: not asked yet); done once it is ready.
        self._advice_ready: Future[None] | None = None
        #: When the search of the position shown was asked for (``time.monotonic``), while no advice has come.
        self._advice_asked: float | None = None
        #: The latest advice for the position shown (``None``: none yet, or none for this position).
        self.advice: Advice | None = None
        #: Why there is no advice yet: wordings, most detailed first (the panel shows the first that fits).
        self._advice_note: str | tuple[str, ...] = ""

    # ---- what subclasses decide

    def play(self, move: Move) -> None:
        """The user chose ``move`` (on the board, typed or pasted)."""
        raise NotImplementedError

    def search_is_current(self, version: int) -> bool:
        """Whether a search result computed for ``version`` still belongs to what the screen shows."""
        raise NotImplementedError

    def variant_name(self) -> str:
        """The Geister variant on the board (what the advice searches)."""
        raise NotImplementedError

    def compose_bottom(self) -> ComposeResult:
        """Below the board and the side panel: the message line, the move field (hidden until ``:``), the note for
        a terminal too small, and the footer."""
        yield Fitted(id="message")
        field = Input(placeholder=self.MOVE_PLACEHOLDER, id="move-input")
        field.display = False
        yield field
        yield Static(id="too-small")
        yield NashplayFooter()

    # ---- size

    def on_resize(self) -> None:
        super().on_resize()
        self._check_size()

    def size_changed(self) -> None:
        # The panel's wordings and how many moves it lists depend on the size; the marks on the board do not (and
        # on a board advised by the solved tables, not this search, they are that advice's to clear).
        self._show_advice_panel()

    def _check_size(self) -> None:
        width, height = self.app.size
        too_small = width < self.MIN_SIZE[0] or height < self.MIN_SIZE[1]
        self.set_class(too_small, "-too-small")
        if too_small:
            self.query_one("#too-small", Static).update(
                f"The terminal is {width}x{height}; the board needs at least {self.MIN_SIZE[0]}x{self.MIN_SIZE[1]}.\n"
                "Enlarge the window (or make the font smaller). The game is kept."
            )

    # ---- what the side panels show

    def _captured(self, view: GeisterView) -> tuple[Text, ...]:
        """The captures and the pieces left, for ``Fitted.show``: during the game in two wordings, with the reminder
        that their colours are hidden and, where that does not fit, without it."""
        me, them = view.viewer, view.viewer.other
        text = Text("You captured: ", end="")
        text.append_text(piece_letters(view.captured_of(them), me, self.app.theme_variables))
        text.append("\nThey captured: ")
        text.append_text(piece_letters(view.captured_of(me), me, self.app.theme_variables))
        if view.outcome is None:
            blue, red = view.remaining(them, Colour.BLUE), view.remaining(them, Colour.RED)
            text.append(f"\nTheir pieces left: {blue} blue, {red} red")
            return text + Text(" (which is which is hidden)"), text
        return (text,)

    def _legend(self) -> Text:
        g = self.glyphs
        rows = (
            ("B R", "your blue / red pieces"),
            (g.unknown, "their piece, colour unknown"),
            ("b r", "their piece, colour revealed"),
            (f"{g.own_exit} {g.opponent_exit}", "your exits / theirs"),
            (f"{g.last_from} {g.last_to}", "last move: from / to"),
            (f"{g.cursor_left} {g.cursor_right}", f"cursor   {g.selected_left} {g.selected_right} picked piece"),
            (g.target, "where the picked piece may go"),
            (f"{g.hint_from} {g.hint_to}", "hint (H): suggested from / to"),
            (f"{g.unknown}7", "their piece, 70-79% likely blue"),
        )
        return Text("\n".join(f"{mark:<5} {meaning}" for mark, meaning in rows), style="dim", end="")

    def say(self, *wordings: str, error: bool = False) -> None:
        """The message line: the first of ``wordings`` (most detailed first) that fits it, chosen again when the
        terminal is resized; an error is bold and marked ``-error``."""
        self.message_text = wordings[0]
        style = "bold" if error else ""
        message = self.query_one("#message", Fitted)
        message.show(*(Text(wording, style=style) for wording in wordings))
        message.set_class(error, "-error")

    # ---- moves from the board, the move field and pastes

    @on(Board.MoveChosen)
    def _board_move(self, event: Board.MoveChosen) -> None:
        self.play(event.move)

    @on(Board.Hint)
    def _board_hint(self, event: Board.Hint) -> None:
        self.say(event.text, error=True)

    def on_paste(self, event: events.Paste) -> None:
        """A move pasted onto the board (``b1-b2`` or ``:b1-b2``) is played as if typed. Pastes into the move
        field never get here: the field takes them."""
        text = event.text.strip().removeprefix(":").strip()
        if not text or "\n" in text:
            return
        event.stop()
        self.play_text(text)

    def play_text(self, text: str) -> None:
        """A move in notation (typed or pasted): refused with the parser's reason if it does not parse."""
        try:
            move = Move.parse(text)
        except NotationError as error:
            self.say(f"Refused: {error}", error=True)
            return
        self.play(move)

    def open_input(self, placeholder: str, value: str = "") -> None:
        field = self.query_one("#move-input", Input)
        field.placeholder = placeholder
        field.value = value
        field.display = True
        field.focus()

    def close_input(self) -> bool:
        """Hide the move field (focus back on the board); False when it was not open."""
        field = self.query_one("#move-input", Input)
        if not field.display:
            return False
        field.display = False
        self.query_one("#board", Board).focus()
        return True

    def action_flip(self) -> None:
        board = self.query_one("#board", Board)
        board.flipped = not board.flipped

    # ---- live search advice

    def compose_board(self) -> ComposeResult:
        """The evaluation bar and the board, side by side."""
        bar = EvalBar(self.glyphs, id="eval-bar")
        bar.styles.height = variant_by_name(self.variant_name()).height * 2 + 1  # the board's height
        with Horizontal(id="board-row"):
            yield bar
            yield Board(self.glyphs, id="board")

    def update_search_advice(
        self, shown: bool, view: GeisterView | None, game: str, version: int, why: str, enabled: bool = True
    ) -> None:
        """Show or hide the advice panel (``shown``); search ``view`` (the user's turn) for ``game`` at ``version``
        while the panel or the hint is on, or, with no view, say ``why`` there is nothing to search now. A new call
        replaces the running search. Not ``enabled``: the game has other advice (solved tables), no search runs."""
        panel = self.query_one("#search-advice", AdvicePanel)
        panel.display = shown and enabled
        if not enabled:
            self.workers.cancel_group(self, "search-advice")
            return
        searching = shown or self.nashplay.hint
        self.query_one("#eval-bar", EvalBar).display = searching
        self.advice = None
        if not searching or view is None:
            self.workers.cancel_group(self, "search-advice")
            self._advice_note = (f"Searches on your turn ({why})", "Searches on your turn")
            self._show_advice()
            if searching:
                self._warm_advice(game)
            return
        self._advice_asked = time.monotonic()
        self._advice_note = self._waiting_note()
        self._show_advice()
        self.search_advice(view, game, version)

    def _waiting_note(self) -> tuple[str, ...]:
        """What the panel says until the first advice of a position comes: the engine still loading (compiled on
        its first use after installing: up to a minute), or the search starting; with the seconds waited."""
        asked = self._advice_asked
        waited = "" if asked is None else f" {time.monotonic() - asked:.0f} s"
        compiling = compile_progress()
        if compiling is not None:  # the first time on this machine: the engine compiles (``tui.engine_compile``)
            return (
                f"Compiling the search engine for this machine, once (kept in {engine_folder().parent}): "
                f"{compiling.text()}",
                f"Compiling the search engine, once: {compiling.text()}",
                f"Compiling the engine: {compiling.text()}",
            )
        if self._advice_ready is not None and not self._advice_ready.done():
            return (
                f"Loading the search engine (compiled on its first use: up to a minute)...{waited}",
                f"Loading the search engine...{waited}",
            )
        return (f"Starting the search in a background process...{waited}", f"Starting the search...{waited}")

    def _tick_advice_wait(self) -> None:
        """Every half second while a search has not reported: the panel's wait moves (the seconds waited)."""
        if self._advice_asked is not None and self.advice is None and self.is_mounted:
            self._advice_note = self._waiting_note()
            self._show_advice_panel()

    def warm_advice_ahead(self, game: str) -> None:
        """Ready the advice's process and engine shortly after the game opens (``WARM_ADVICE_AHEAD``), and keep
        the panel's wait moving while a search has not reported."""
        self.set_interval(0.5, self._tick_advice_wait)
        if self.WARM_ADVICE_AHEAD:
            self.set_timer(self.WARM_AHEAD_DELAY, lambda: self._warm_advice(game))

    def _show_advice(self) -> None:
        """Draw the latest search advice everywhere it shows: the panel, the hint, the chances of blue, the bar."""
        self._show_advice_panel()
        if self.query_one("#eval-bar", EvalBar).display or self.advice is None:
            self.mark_board(self.advice)

    def _show_advice_panel(self) -> None:
        self.query_one("#search-advice", AdvicePanel).show(
            self.advice, self.ADVICE_ENGINE, self._advice_note, self.compact
        )

    def mark_board(self, advice: Advice | None) -> None:
        """The hint (when on), the chances of blue and the bar from ``advice`` (``None`` clears them)."""
        board = self.query_one("#board", Board)
        hint = None
        if advice is not None and self.nashplay.hint:
            hint = Move.parse(advice.best)
        board.hint = hint
        board.blue_chances = () if advice is None else tuple((Square.parse(sq), p) for sq, p in advice.blue)
        bar = self.query_one("#eval-bar", EvalBar)
        mark = "TB" if advice is not None and "tablebase" in advice.extra else ""  # in the endgame tables
        if advice is None:
            bar.show(None, "")
        elif advice.result is not None:
            bar.show(1.0 if advice.result == "win" else 0.0 if advice.result == "loss" else 0.5, _short(advice), mark)
        elif advice.value is None:
            bar.show(None, "", mark)
        elif advice.scale == "chance":
            bar.show(advice.value, f"{advice.value * 100:.0f}%", mark)
        else:  # an exact value from -1 to +1 (the solved tables')
            bar.show((advice.value + 1) / 2, value_text(advice.value, advice.scale), mark)

    def action_toggle_hint(self) -> None:
        """Mark the suggested move on the board (the advice search runs while the hint is on)."""
        self.nashplay.hint = not self.nashplay.hint
        self.refresh_advice()
        self.say("Hint on: the suggested move is marked on the board" if self.nashplay.hint else "Hint off")

    def refresh_advice(self) -> None:
        """Re-run what decides the advice (each screen knows its game): after the hint or the panel is toggled."""
        raise NotImplementedError

    def _warm_advice(self, game: str) -> None:
        """Ready the advice's player in its process while the user waits for their turn (once per screen), so that
        the first advice does not wait for the engine to compile."""
        if self._advice_warmed:
            return
        self._advice_warmed = True
        from tui.search_process import advice_process, warm

        self._advice_ready = warm(advice_process(), self.ADVICE_ENGINE, self.variant_name(), game + "/advice")

    @work(thread=True, exclusive=True, group="search-advice", exit_on_error=False)
    def search_advice(self, view: GeisterView, game: str, version: int) -> None:
        """Ask the advice process for slice after slice of the search until it is done or the position changes.
        This thread only waits on the process, so it costs the UI nothing."""
        from tui.search_process import ProcessStoppedError, advice_process, advise_in_child

        worker = get_current_worker()
        note = ""  # a restart of the process, said for the rest of this search (each slice draws the panel again)
        slice_seconds = self.FIRST_ADVICE_SLICE  # a shallow answer first, then one a slice
        while not worker.is_cancelled:
            process = advice_process()
            try:
                advice = process.call(
                    60, advise_in_child, self.ADVICE_ENGINE, game, view, slice_seconds, self.ADVICE_BUDGET
                )
            except ProcessStoppedError:  # a fresh process died at once too: said plainly; the next position tries again
                note = "The advice's process stopped, and again when it was restarted: no advice for now"
                self.post_message(self.SearchReport(None, version, note))
                return
            except Exception as error:  # the panel says so; the game goes on
                note = f"The search failed: {type(error).__name__}: {error}"
                self.post_message(self.SearchReport(None, version, note))
                return
            if process.take_restarted():
                note = "The advice's process stopped; it was restarted"
            if worker.is_cancelled or advice is None:
                return
            self.post_message(self.SearchReport(advice, version, note))
            if advice.final:
                return
            slice_seconds = self.ADVICE_SLICE

    @on(SearchReport)
    def _show_search(self, event: SearchReport) -> None:
        if self.search_is_current(event.version):
            self.advice = event.advice
            self._advice_note = event.note
            self._advice_asked = None
            self._show_advice()


def _short(advice: Advice) -> str:
    """A proven result in the bar's four columns: ``W3`` (a win in 3 plies), ``L1``, ``=``."""
    if advice.result == "draw":
        return "="
    letter = "W" if advice.result == "win" else "L"
    return f"{letter}{advice.plies}" if advice.plies is not None and advice.plies < 1000 else letter
