"""The review of a game record: every move judged (``solvers.review``), as a list with verdict marks, a graph of the
value over the game, a summary per player, and the position before the chosen move with the best move marked.

The judging runs off the UI thread: the solved games (Nim, TCG, Footstep) in a worker thread, the Geister family in a
process of its own (``SearchProcess``: the search would hold the interpreter for seconds), which reports its
progress through a small file and stops when a stop file appears. A progress bar shows the moves judged; Esc (or
``x``) cancels, and the screen says how far it got. Verdicts are marks, not colours: ``★``/``*`` best, ``~`` close to
the best (judged ``best``: within the inaccuracy threshold, but not one of the best moves), ``?!`` inaccuracy,
``?`` mistake, ``??`` blunder, ``-`` not judged.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import shutil
import textwrap
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Header, Static
from textual.worker import get_current_worker

from core.errors import NotationError
from core.game import Side
from core.games import GAME_TYPES, units_of
from core.geister import GeisterState
from core.notation import Move
from core.record import Positions, Record
from solvers.review import MARKS, THRESHOLDS, VERDICTS, MoveReview, Review
from tui.config import GeisterConfig
from tui.games import GAMES
from tui.messages import OpenGame
from tui.saves import scratch_folder
from tui.screens.base import NashplayScreen
from tui.search_process import SearchProcess, review_in_child
from tui.widgets.board import Board
from tui.widgets.fitted import Fitted
from tui.widgets.footer import NashplayFooter
from tui.widgets.game_state import GameStateView, describe_action, describe_actions
from tui.widgets.ply_list import PlyList
from tui.widgets.value_graph import ValueGraph

#: The mark of a best move (Unicode, ASCII), and of a move the judge could not value.
BEST_MARK = ("★", "*")
#: A move judged ``best`` that is not one of the best moves: it gave away less than the inaccuracy threshold.
CLOSE_MARK = "~"
UNJUDGED_MARK = "-"
#: The verdicts' words, for the detail of a move and the legend.
WORDS = {"best": "best", "inaccuracy": "inaccuracy", "mistake": "mistake", "blunder": "blunder"}
#: How long the review of a Geister game keeps waiting for its process once told to stop (a move's search ends at
#: its next report, well within this).
STOP_GRACE_SECONDS = 30.0
#: How often the process's progress file is read.
POLL_SECONDS = 0.1
#: What the screen says when the review's process died during the review (a ``kill -9``, out of memory).
PROCESS_STOPPED = "the review's process stopped (killed, or out of memory)"


def mark_of(move: MoveReview, ascii_mode: bool) -> str:
    if move.verdict is None:
        return UNJUDGED_MARK
    if move.verdict == "best" and move.move not in move.best:
        return CLOSE_MARK
    if move.verdict == "best":
        return BEST_MARK[1] if ascii_mode else BEST_MARK[0]
    return MARKS[move.verdict]


def value_range(review: Review) -> tuple[float, float]:
    """The values' range: 0..1 for chances, else centred on 0 (outcomes and payoffs are zero-sum)."""
    if review.scale == "chance":
        return (0.0, 1.0)
    half = review.span / 2 if review.span else 1.0
    return (-half, half)


def for_player_one(review: Review, move: MoveReview, value: float | None) -> float | None:
    """A value of ``move``'s mover as player 1's (the games are zero-sum: the complement of a chance, else the
    opposite)."""
    if value is None or move.player == 1:
        return value
    return 1.0 - value if review.scale == "chance" else -value


def value_series(review: Review) -> list[float | None]:
    """Player 1's value before each ply (or round), then after the last: ``review.plies + 1`` values."""
    series: list[float | None] = [None] * (review.plies + 1)
    for move in review.moves:
        index = move.ply - 1
        if not 0 <= index < len(series):
            continue
        before = for_player_one(review, move, move.value_before)
        # In a round both players' entries value the same state: player 1's own entry is the one kept.
        if before is not None and (series[index] is None or move.player == 1):
            series[index] = before
    last = [m for m in review.moves if m.ply == review.plies]
    if last:
        after = [for_player_one(review, m, m.value_after) for m in last]
        known = [v for m, v in zip(last, after, strict=True) if v is not None and (m.player == 1 or len(last) == 1)]
        series[-1] = known[0] if known else next((v for v in after if v is not None), None)
    return series


def result_value(review: Review, returns: float) -> float:
    """Player 1's ``returns`` at the game's end on the review's scale (a chance of 1, 0 or 0.5 for a draw)."""
    low, high = value_range(review)
    value = (returns + 1) / 2 if review.scale == "chance" else returns
    return max(low, min(high, value))


def format_value(review: Review, value: float | None) -> str:
    if value is None:
        return "?"
    if review.scale == "chance":
        return f"{value * 100:.0f}%"
    return f"{value:+.2f}"


def axis_labels(review: Review) -> tuple[str, str, str]:
    low, high = value_range(review)
    if review.scale == "chance":
        return ("100%", "50%", "0%")
    return (f"{high:+g}", "0", f"{low:+g}")


def shorter_titles(title: str, game: str) -> list[str]:
    """Shorter forms of ``title`` for a narrow header, longest first, none cut inside a parenthesis: without its
    parenthesised asides, the last first ("Review: Mini-Geister 2 vs 3 (player 2: red-red-blue) vs random (player 1
    escaped ...)" loses the result, then the side), then ``game`` alone ("Review: <the game's title>"), then
    "Review"."""
    shorter: list[str] = []
    current = title
    while True:
        cut = _without_last_aside(current)
        if cut == current:
            break
        shorter.append(cut)
        current = cut
    for candidate in (game, _without_last_aside(game), "Review"):
        shorter.append(candidate)
    return [t for i, t in enumerate(shorter) if t and t != title and t not in shorter[:i]]


def _without_last_aside(text: str) -> str:
    """``text`` without its last parenthesised part (nested ones go with it), or ``text`` when it has none."""
    end = text.rfind(")")
    if end < 0:
        return text
    depth = 0
    for start in range(end, -1, -1):
        depth += {")": 1, "(": -1}.get(text[start], 0)
        if depth == 0:
            return " ".join((text[:start].rstrip() + " " + text[end + 1 :].lstrip()).split())
    return text


def scale_words(review: Review) -> str:
    return {"chance": "chance to win", "outcome": "+1 a win, -1 a loss", "expected": "expected payoff"}.get(
        review.scale, review.scale
    )


# ---------------------------------------------------------------------------------------------- the screen


class ReviewScreen(NashplayScreen):
    """The review of ``record``: judged in the background, then listed, plotted and summed up."""

    CSS_PATH = "review.tcss"
    SHRINK_BELOW = (100, 30)
    AUTO_FOCUS = "#review-moves"

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        # The list takes up/down/Enter (said under the summary): the footer's room goes to the other keys.
        Binding("m", "next_mistake(1)", "Next mistake"),
        Binding("M", "next_mistake(-1)", "Previous mistake", show=False),
        Binding("x", "cancel", "Cancel"),
        Binding("r", "restart", "Again"),
        Binding("a", "analyse", "Analyse", show=False),  # in the palette and the help: the footer is full at 80x24
        Binding("escape", "close", "Back"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Next mistake", "Jump to the next mistake or blunder (m)", "next_mistake(1)"),
        ("Previous mistake", "Jump to the previous mistake or blunder (M)", "next_mistake(-1)"),
        ("Cancel the review", "Stop judging the moves (x or Esc)", "cancel"),
        ("Review again", "Start the review again after a cancel or a failure (r)", "restart"),
        ("Analyse from here", "An analysis board on the position before the move shown (a)", "analyse"),
        ("Close the review", "Back to where you were (Esc)", "close"),
    ]

    class Progress(Message):
        def __init__(self, run: int, done: int, total: int) -> None:
            super().__init__()
            self.run, self.done, self.total = run, done, total

    class Done(Message):
        def __init__(self, run: int, review: Review) -> None:
            super().__init__()
            self.run, self.review = run, review

    class Failed(Message):
        def __init__(self, run: int, error: str, cancelled: bool = False) -> None:
            super().__init__()
            self.run, self.error, self.cancelled = run, error, cancelled

    def __init__(
        self, record: Record, title: str | None = None, *, depth: int | None = None, time: float | None = None
    ) -> None:
        """``depth`` or ``time``: how hard Geister's search judges each move (a fixed depth is the same on every
        machine). Raises ``RecordError`` (a ``ValueError``) for a record that does not replay."""
        super().__init__()
        self.record = record
        self.review_title = title
        self.depth = depth
        self.seconds = time
        name = record.tags.get("Game", "")
        self.game_name = name if name in GAMES else None
        self.geister = record.is_geister
        # The state before each move, shown as the list is browsed: a state every 100 plies (``Positions``), not every
        # ply (a 10,000-move heap game's were about 830 MB). The moves are checked once here, as a replay does.
        self.states: Positions[Any] = record.positions()
        self.review: Review | None = None
        #: "running", "done", "cancelled" or "failed"; ``progress``: (moves judged, moves in all).
        self.phase = "running"
        self.progress: tuple[int, int] = (0, 0)
        self.problem = ""
        #: Bumped on every start: messages of an older run are dropped.
        self.run = 0
        #: The entry shown (an index into ``review.moves``).
        self.selected = 0
        #: The Geister family's review process (started on the first review, stopped when the screen goes).
        self._process: SearchProcess | None = SearchProcess() if self.geister else None
        #: How each run's work ended ("done", "cancelled", "failed"; "running" until then), by run.
        self.ended: dict[int, str] = {}
        self._stop_requested = False

    @property
    def help_topic(self) -> str:
        if self.game_name is not None:
            return super().help_topic
        return "geister" if self.geister else "general"

    # ---- layout

    def compose(self) -> ComposeResult:
        yield Header()
        yield Fitted(id="review-progress", classes="one-line")
        with Horizontal(id="review-main"):
            with Vertical(id="review-left"):
                yield ValueGraph(id="review-graph")
                yield Static(id="review-summary", classes="one-line")
                yield PlyList(id="review-moves")
            with Vertical(id="review-right"):
                if self.geister:
                    yield Board(self.glyphs, id="review-board")
                else:
                    game = self.record.tags.get("Game", "")
                    yield GameStateView(game, id="review-state", ascii_mode=self.nashplay.ascii_mode)
                yield Static(id="review-detail", classes="one-line")
        yield Static(id="message")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        tags = self.record.tags
        game = GAME_TYPES.get(tags.get("Game", ""))
        name = game.title if game is not None else tags.get("Game", "?")
        title = self.review_title or name
        title = title if title.startswith("Review") else f"Review: {title.removeprefix('Replay: ')}"
        players = f"{tags.get('Player1', '?')} vs {tags.get('Player2', '?')}"
        shorter = [(short, "") for short in shorter_titles(title, f"Review: {name}")]
        self.set_titles((title, f"{players}, result {self.record.result}"), (title, players), (title, ""), *shorter)
        self.query_one("#review-graph", ValueGraph).ascii_mode = self.nashplay.ascii_mode
        if self.geister:
            self.query_one("#review-board", Board).interactive = False
        moves = self.query_one("#review-moves", PlyList)
        moves.border_title = "Moves"
        moves.empty_text = "The moves are listed here once judged."
        self.start()

    def on_unmount(self) -> None:
        self._stop_work()
        if self._process is not None:
            self._process.shutdown()
            self._process = None

    def size_changed(self) -> None:
        if self.is_mounted:
            self._show_all()

    # ---- the work

    @property
    def running(self) -> bool:
        return self.phase == "running"

    def start(self) -> None:
        self.run += 1
        self.phase = "running"
        self.problem = ""
        self._stop_requested = False
        self.progress = (0, 0)
        self.ended[self.run] = "running"
        if self.geister:
            self._work(self.run, self._judge_elsewhere)
        else:
            self._work(self.run, self._judge_here)
        self.refresh_bindings()
        self._show_all()

    def _stop_work(self) -> None:
        self._stop_requested = True
        self.workers.cancel_group(self, "review")

    @work(thread=True, exclusive=True, group="review", exit_on_error=False)
    def _work(self, run: int, judge: Callable[[int], str]) -> None:
        """Judge the record in this worker thread; ``ended`` keeps how (a cancelled worker is let go by Textual at
        once, but its thread goes on until the judge hears the stop)."""
        try:
            self.ended[run] = judge(run)
        except Exception as error:  # whatever went wrong is said: the progress bar never waits for ever
            self.post_message(self.Failed(run, f"{type(error).__name__}: {error}"))
            self.ended[run] = "failed"

    def _judge_here(self, run: int) -> str:
        """A solved game's review, in this thread (the solvers release the interpreter for their heavy parts).
        Returns how it ended: "done", "cancelled" or "failed"."""
        from solvers.review.records import ReviewCancelled, review_record

        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            self.post_message(self.Progress(run, done, total))

        try:
            review = review_record(
                self.record,
                depth=self.depth,
                time=self.seconds,
                progress=progress,
                should_stop=lambda: worker.is_cancelled or self._stop_requested,
            )
        except ReviewCancelled as cancelled:
            self.post_message(self.Failed(run, str(cancelled), cancelled=True))
            return "cancelled"
        except Exception as error:  # a judge's failure is shown, never a progress bar stuck for ever
            self.post_message(self.Failed(run, f"{type(error).__name__}: {error}"))
            return "failed"
        self.post_message(self.Done(run, review))
        return "done"

    def _judge_elsewhere(self, run: int) -> str:
        """A Geister-family review, in the review's process; this thread only waits and reads its progress.
        Returns how it ended: "done", "cancelled" or "failed"."""
        from solvers.review.records import ReviewCancelled

        worker = get_current_worker()

        def stopping() -> bool:
            return worker.is_cancelled or self._stop_requested

        if stopping() or self._process is None:
            return "cancelled"  # the screen closed before this thread started: no process is started for it
        # Under nashplay's state folder, so a kill's leftover is removed at the next start (``SaveStore.clean``).
        folder = str(scratch_folder("review"))
        stop = os.path.join(folder, "stop")
        try:
            future = self._process.submit(review_in_child, self.record.to_text(), self.depth, self.seconds, folder)
            shown = ""
            stopped_at: float | None = None
            while not future.done():
                if stopped_at is None and stopping():
                    Path(stop).touch()
                    stopped_at = time.monotonic()
                if stopped_at is not None and time.monotonic() - stopped_at > STOP_GRACE_SECONDS:
                    future.cancel()
                    self.post_message(self.Failed(run, "the review did not stop in time", cancelled=True))
                    return "cancelled"
                concurrent.futures.wait([future], timeout=POLL_SECONDS)
                with contextlib.suppress(OSError, ValueError):
                    said = Path(folder, "progress").read_text()
                    if said != shown:
                        shown = said
                        done, total = (int(part) for part in said.split())
                        self.post_message(self.Progress(run, done, total))
            review = future.result()
        except ReviewCancelled as cancelled:
            self.post_message(self.Failed(run, str(cancelled), cancelled=True))
            return "cancelled"
        except BrokenProcessPool:  # killed, or out of memory: ``r`` asks a fresh process (``SearchProcess.submit``)
            self.post_message(self.Failed(run, PROCESS_STOPPED))
            return "failed"
        except Exception as error:  # the review failed in its process: said, and the screen stays usable
            self.post_message(self.Failed(run, f"{type(error).__name__}: {error}"))
            return "failed"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        self.post_message(self.Done(run, review))
        return "done"

    @on(Progress)
    def _progress(self, event: Progress) -> None:
        if event.run == self.run and self.running:
            self.progress = (event.done, event.total)
            self._show_progress()

    @on(Done)
    def _done(self, event: Done) -> None:
        if event.run != self.run or not self.running:
            return
        self.review = event.review
        self.nashplay.remember_review(self.record, event.review)  # the game-over panel gives the accuracy
        self.phase = "done"
        self.progress = (len(event.review.moves), len(event.review.moves))
        self.selected = 0
        self.refresh_bindings()
        self._fill()
        self._show_all()

    @on(Failed)
    def _failed(self, event: Failed) -> None:
        if event.run != self.run or not self.running:
            return
        self.phase = "cancelled" if event.cancelled else "failed"
        self.problem = event.error
        self.refresh_bindings()
        self._show_all()

    # ---- showing

    def _fill(self) -> None:
        """The list, the graph and the summary of a finished review."""
        review = self.review
        assert review is not None
        ascii_mode = self.nashplay.ascii_mode
        simultaneous = self.record.game_kind == "simultaneous"
        lines = []
        for move in review.moves:
            values = f"{format_value(review, move.value_before)} > {format_value(review, move.value_after)}"
            number = f"{move.ply:>3}."
            mark = mark_of(move, ascii_mode)
            lines.append(Text(f"{number} P{move.player} {move.move:<7} {mark:<2}  {values}", end=""))
        moves = self.query_one("#review-moves", PlyList)
        moves.empty_text = "No moves: nothing to judge."
        moves.border_title = "Rounds (values: the mover's)" if simultaneous else "Moves (values: the mover's)"
        moves.set_lines(lines)
        moves.index = self.selected
        what = units_of(self.record.tags.get("Game", ""))[0]
        series = value_series(review)
        final = self.states[-1]
        if final.is_terminal() and len(self.states) == review.plies + 1:
            series[-1] = result_value(review, final.returns()[0])  # the game's end is its result, not an estimate
        graph = self.query_one("#review-graph", ValueGraph)
        graph.show(
            (f"Value for player 1 ({scale_words(review)}) by {what}", f"Player 1's value by {what}"),
            series,
            value_range(review),
            axis_labels(review),
        )

    def _show_all(self) -> None:
        self._show_progress()
        self._show_summary()
        self._show_selected()

    def _show_progress(self) -> None:
        bar = self.query_one("#review-progress", Fitted)
        done, total = self.progress
        if self.phase == "done":
            bar.display = False
            return
        bar.display = True
        if self.phase == "running":
            full, empty = ("#", ".") if self.nashplay.ascii_mode else ("█", "·")
            width = 20 if self.compact else 30
            filled = round(width * done / total) if total else 0
            where = "in its own process" if self.geister else "in the background"
            text = Text("Reviewing ", style="bold", end="")
            text.append(f"[{full * filled}{empty * (width - filled)}] {done}/{total or '?'} moves")
            text.append(f" {where}; Esc cancels" if not self.compact else "; Esc cancels", style="dim")
            if not total:
                text = Text(f"Starting the review {where}...; Esc cancels", style="bold", end="")
        elif self.phase == "cancelled":
            text = Text(f"Review cancelled after {done} of {total or '?'} moves. r: again, Esc: back", end="")
        else:
            bar.show(f"The review failed: {self.problem}. r: again", "The review failed. r: again")
            return
        bar.update(text)

    def _show_summary(self) -> None:
        summary = self.query_one("#review-summary", Static)
        review = self.review
        width = self._left_width()
        if review is None:
            waiting = "The summary and the moves show here once judged"
            summary.update(Text(waiting if len(waiting) <= width else "Judging the moves...", style="dim", end=""))
            return
        ascii_mode = self.nashplay.ascii_mode
        best = BEST_MARK[1] if ascii_mode else BEST_MARK[0]
        text = Text(end="")
        engine = textwrap.wrap(f"Judged by {review.engine}", width)
        if self.compact and len(engine) > 1:
            engine = textwrap.wrap(f"Judged by {review.engine.split(', ')[0]}", width)[:1]
        text.append("\n".join(engine) + "\n", style="dim")
        counts = review.summary()
        rows = [self._tally(review, number, counts[number], best) for number in ("1", "2")]
        # The players' names where the lines have room for them, else P1 and P2 alone.
        for named in (True, False):
            lines = self._tally_lines(review, rows, named)
            if max(len(line) for line in lines) <= width:
                break
        for line in lines:
            text.append(line[:width] + "\n", style="bold")
        legend = f"{best} best  ~ close  ?! inaccuracy  ? mistake  ?? blunder"
        if len(legend) <= width and not self.compact:
            text.append(legend + "\n", style="dim")
        keys = "up/down: a move; m: next mistake" if self.compact else "up/down: choose a move; m: next mistake"
        text.append(keys[:width], style="dim")
        summary.update(text)

    def _tally(self, review: Review, number: str, tally: dict[str, Any], best: str) -> tuple[str, str]:
        """A player's verdicts (how many of each mark) and accuracy, as words."""
        marks = [f"{tally['best']} {best}"] + [f"{tally[v]} {MARKS[v]}" for v in VERDICTS if v != "best"]
        accuracy = "-" if tally["accuracy"] is None else f"{tally['accuracy']:g}%"
        return number, f"{', '.join(marks)}; accuracy {accuracy}"

    def _tally_lines(self, review: Review, rows: list[tuple[str, str]], named: bool) -> list[str]:
        names = [self._player_name(review, number) if named else f"P{number}" for number, _ in rows]
        width = max(len(name) for name in names) + 1
        return [f"{name + ':':<{width}} {said}" for name, (_, said) in zip(names, rows, strict=True)]

    def _player_name(self, review: Review, number: str) -> str:
        name = review.players.get(number, "")
        label = f"P{number}" + (f" {name}" if name and name != "?" else "")
        return label[:14]

    def _left_width(self) -> int:
        right = 36 if self.compact else 44
        return max(20, self.app.size.width - right - (2 if self.compact else 4))

    def _right_width(self) -> int:
        return 34 if self.compact else 40

    def _show_selected(self) -> None:
        review = self.review
        detail = self.query_one("#review-detail", Static)
        width = self._right_width()
        if review is None or not review.moves:
            state = self.states[0]
            self._show_state(state, None, None)
            said = "The position before a move shows here, with the best move marked."
            if review is not None:
                said = "The record has no moves to judge."
            detail.update(Text("\n".join(textwrap.wrap(said, width)), style="dim", end=""))
            self.query_one("#review-graph", ValueGraph).marked = None
            return
        self.selected = max(0, min(len(review.moves) - 1, self.selected))
        move = review.moves[self.selected]
        state = self.states[min(len(self.states) - 1, move.ply - 1)]
        self._show_state(state, move, move.best[0] if move.best else None)
        self.query_one("#review-graph", ValueGraph).marked = move.ply - 1
        self.query_one("#review-moves", PlyList).index = self.selected
        detail.update(self._detail(review, move, state, width))

    def _show_state(self, state: Any, move: MoveReview | None, best: str | None) -> None:
        if self.geister:
            assert isinstance(state, GeisterState)
            board = self.query_one("#review-board", Board)
            side = Side.from_number(move.player) if move is not None else state.to_move
            board.view = state.view(side)
            hint = None
            if best is not None:
                with contextlib.suppress(NotationError):
                    hint = Move.parse(best)
            board.hint = hint
        else:
            # A heap game's best move is drawn on the heaps; the simultaneous games name it in the detail.
            self.query_one("#review-state", GameStateView).show(state, best)

    def _detail(self, review: Review, move: MoveReview, state: Any, width: int) -> Text:
        """What the chosen move was, its verdict and values, and the best moves; cut to the rows left for it."""
        played = move.move if self.geister else describe_action(state, move.move)
        where = f"{units_of(self.record.tags.get('Game', ''))[0].capitalize()} {move.ply}"
        verdict = "not judged" if move.verdict is None else WORDS[move.verdict]
        if move.verdict == "best" and move.move not in move.best:
            verdict = f"close to the best (within {THRESHOLDS['inaccuracy']:.0%})"
        before, after = format_value(review, move.value_before), format_value(review, move.value_after)
        heading = textwrap.wrap(f"{where}: P{move.player} played {played}", width)
        rows: list[tuple[str, str]] = [(line, "bold") for line in heading]
        rows.append((f"{mark_of(move, self.nashplay.ascii_mode)} {verdict}", "bold reverse"))
        said = [f"P{move.player}'s value: {before} before, {after} after"]
        if len(said[0]) > width:
            said = [f"P{move.player}'s value: {before} -> {after}"]
        if move.best:
            best_value = format_value(review, move.extra.get("best_value", move.value_before))
            said.append(f"Best ({best_value}): {describe_actions(state, move.best, 3)}")
            if self.geister and not self.compact:
                said.append(f"{self.glyphs.hint_from} {self.glyphs.hint_to}: the first best move's squares")
        if "probability" in move.extra:
            said.append(f"The equilibrium plays it {float(move.extra['probability']) * 100:.0f}% of the time")
        if move.note:
            said.append(move.note)
        rows += [(line, "") for paragraph in said for line in textwrap.wrap(paragraph, width)]
        room = self._detail_rows()
        if room is not None and len(rows) > room:
            rows = rows[: max(1, room)]
        return Text("\n", end="").join(Text(line, style=style, end="") for line, style in rows)

    def _detail_rows(self) -> int | None:
        """Rows the detail has under the position (``None`` before the first layout)."""
        right = self.query_one("#review-right")
        shown = self.query_one("#review-board" if self.geister else "#review-state")
        if not right.content_region.height or not shown.outer_size.height:
            return None
        margin = shown.styles.margin.bottom
        return right.content_region.height - shown.outer_size.height - margin

    # ---- actions

    @on(PlyList.Chosen, "#review-moves")
    def _chosen(self, event: PlyList.Chosen) -> None:
        event.stop()
        self.selected = event.index
        self._show_selected()

    def action_next_mistake(self, step: int) -> None:
        review = self.review
        if review is None:
            self.say("The review is not done yet")
            return
        count = len(review.moves)
        for offset in range(1, count + 1):
            index = (self.selected + step * offset) % count
            if review.moves[index].verdict in ("mistake", "blunder"):
                self.selected = index
                self._show_selected()
                self.say("")
                return
        self.say("No mistake or blunder in this game")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.running
        if action == "restart":
            return self.phase in ("cancelled", "failed")
        if action in ("next_mistake",):
            return self.phase == "done"
        if action == "analyse":  # the Geister family's board; a review is of a finished game: every colour known
            return self.geister and self.phase == "done"
        return True

    def action_analyse(self) -> None:
        """An analysis board on the position before the move shown: both sides from the keyboard, the advice."""
        if not self.geister or self.review is None:
            return
        state = self.states[min(self.selected, len(self.states) - 1)]
        if state.is_terminal():
            return
        self.post_message(OpenGame(state.variant.name, GeisterConfig.analysis_board(state), setup=False))

    def action_cancel(self) -> None:
        if not self.running:
            return
        self._stop_work()
        self.run += 1  # whatever the stopped work still sends is stale
        self.phase = "cancelled"
        self.refresh_bindings()
        self._show_all()
        self.say("Review cancelled")

    def action_restart(self) -> None:
        if self.phase in ("cancelled", "failed"):
            self.say("")
            self.start()

    def action_close(self) -> None:
        if self.running:
            self.action_cancel()
            return
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)
