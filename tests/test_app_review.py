"""The review screen (issue 17): a record's moves judged in the background with a progress bar and a cancel, then
listed with their verdict marks, plotted ply by ply and summed up per player; choosing a move shows the position
before it with the best move marked. The figures compared come from the project's own judge
(``solvers.review.records.review_record``) run in the test."""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import pytest
from pilot_helpers import run, wait_for
from screen_text import non_ascii, screen_text
from test_record_viewer import game_record, geister_record
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import Static
from textual.worker import WorkerCancelled
from waiting import HANG_SECONDS, released

from core.game import Side
from core.notation import Move
from core.record import Record
from solvers.review import MARKS, MoveReview, Review
from solvers.review import records as review_records
from tui.app import NashplayApp, StartRequest
from tui.messages import OpenReview
from tui.screens.menu import MenuScreen
from tui.screens.replay import ReplayScreen
from tui.screens.review import ReviewScreen, for_player_one, mark_of, value_series
from tui.widgets.board import Board
from tui.widgets.heaps import HeapRows
from tui.widgets.ply_list import PlyList
from tui.widgets.value_graph import ValueGraph, plot_lines

SIZE = (110, 34)


# ------------------------------------------------------------------------------------------------ helpers


def entry(
    ply: int, player: int, before: float | None, after: float | None, verdict: Any, best: str = "b"
) -> MoveReview:
    return MoveReview(ply, player, f"m{ply}", "", before, after, (best,), verdict)


def made_review(scale: str = "chance", span: float = 1.0) -> Review:
    """A review made here, with one move of each verdict and one not judged."""
    moves = (
        entry(1, 1, 0.6, 0.6, "best", best="m1"),
        entry(2, 2, 0.4, 0.35, "inaccuracy"),
        entry(3, 1, 0.65, 0.55, "mistake"),
        entry(4, 2, 0.45, 0.2, "blunder"),
        entry(5, 1, 0.8, None, None),
    )
    return Review("nim", {"1": "alice", "2": "bob"}, 5, "a judge made in the test", scale, span, moves)


async def open_review(
    app: NashplayApp, pilot: Pilot[None], record: Record, depth: int | None = None, done: bool = True
) -> ReviewScreen:
    await pilot.pause()
    screen = ReviewScreen(record, "Replay: test", depth=depth)
    await app.push_screen(screen)
    if done:
        await wait_for(pilot, lambda: screen.phase != "running", "the review")
        assert screen.phase == "done", screen.problem
        await pilot.pause()
    return screen


async def close(app: NashplayApp, pilot: Pilot[None]) -> None:
    """Back to the menu, and the review's work ended (its thread, and its process's task)."""
    await pilot.press("escape")
    await pilot.pause()
    for _ in range(3):
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete()
        await pilot.pause()


def text_of(screen: ReviewScreen, selector: str) -> str:
    """A part's text, its lines joined (the detail breaks its lines at words to its width)."""
    return " ".join(str(screen.query_one(selector, Static).render()).split())


def list_rows(screen: ReviewScreen) -> list[str]:
    return str(screen.query_one("#review-moves", PlyList).render()).splitlines()


# ------------------------------------------------------------------------------------------------ the pieces


def test_the_value_series_is_player_ones_ply_by_ply() -> None:
    review = made_review()
    # Player 2's chances are player 1's complements; the last point is the value after the last move.
    assert value_series(review) == pytest.approx([0.6, 0.6, 0.65, 0.55, 0.8, None])
    outcome = made_review("outcome", 2.0)
    assert for_player_one(outcome, outcome.moves[1], 0.4) == -0.4
    assert for_player_one(outcome, outcome.moves[0], 0.4) == 0.4
    # A round of a simultaneous game: both entries value the same state; player 1's own is kept.
    rounds = Review(
        "tcg",
        {},
        2,
        "x",
        "expected",
        2.0,
        (entry(1, 1, 0.2, 0.1, "best"), entry(1, 2, -0.2, -0.3, "best"), entry(2, 2, 0.5, 0.4, "best")),
    )
    assert value_series(rounds) == pytest.approx([0.2, -0.5, -0.4])


def test_verdicts_are_marks_not_colours() -> None:
    review = made_review()
    marks = [mark_of(move, ascii_mode=True) for move in review.moves]
    assert marks == ["*", MARKS["inaccuracy"], MARKS["mistake"], MARKS["blunder"], "-"]
    assert mark_of(review.moves[0], ascii_mode=False) == "★"
    assert len(set(marks)) == len(marks)


def test_the_plot_draws_each_value_as_a_bar_of_its_height() -> None:
    values = [0.0, 0.25, 0.5, 0.75, 1.0, None]
    lines = plot_lines(values, 0.0, 1.0, 30, 4, ascii_mode=True, marked=2, labels=("100%", "50%", "0%"))
    assert len(lines) == 4 + 2 and all(len(line) <= 30 for line in lines)
    assert not non_ascii("".join(lines))
    assert lines[0].startswith("100% |") and lines[3].startswith("  0% |")
    bars = [line[6:] for line in lines[:4]]
    per_value = 4  # 24 columns for 6 values
    filled = [sum(row[i * per_value] not in " ." for row in bars) for i in range(len(values))]
    assert filled == [1, 1, 2, 3, 4, 0]  # heights in rows (a value at the bottom still shows)
    axis = lines[4]
    assert axis[6 + 2 * per_value : 6 + 3 * per_value] == "^" * per_value and axis.count("^") == per_value
    assert lines[5].split() == ["0", "5"]
    unicode = plot_lines(values, 0.0, 1.0, 30, 4, marked=2)
    assert "█" in "".join(unicode) and "▲" in unicode[4]
    # More values than columns: each column is the mean of those it covers.
    many = plot_lines([1.0] * 50 + [0.0] * 50, 0.0, 1.0, 20, 2, ascii_mode=True)
    top, bottom = (line[5:] for line in many[:2])  # 15 columns, about 7 values each
    assert top[:7] == bottom[:7] == "#" * 7 and bottom[8:] == "_" * 7  # 1, (a mean of both), then 0
    assert top[8:] == "." * 7 and many[3].split() == ["0", "99"]  # the middle line, where no bar reaches


def test_made_up_reviews_fill_the_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen's parts from a review made in the test: every verdict's mark in the list, the summary's counts
    and accuracy (``Review.summary``), the graph's values, and ``m`` jumping to the mistakes."""
    review = made_review()
    record = game_record("nim", seed=3, at_least=5)

    def judge(record: Record, **kwargs: Any) -> Review:
        kwargs["progress"](5, 5)
        return review

    monkeypatch.setattr(review_records, "review_record", judge)

    async def test() -> None:
        app = NashplayApp(ai_delay=0, ascii_mode=True)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_review(app, pilot, record)
            rows = list_rows(screen)
            assert [row.split()[4] if row.startswith(">") else row.split()[3] for row in rows] == [
                "*",
                "?!",
                "?",
                "??",
                "-",
            ]
            summary = text_of(screen, "#review-summary")
            counts = review.summary()
            assert f"P1 alice: 1 *, 0 ?!, 1 ?, 0 ??; accuracy {counts['1']['accuracy']:g}%" in summary
            assert f"P2 bob: 0 *, 1 ?!, 0 ?, 1 ??; accuracy {counts['2']['accuracy']:g}%" in summary
            graph = screen.query_one(ValueGraph)
            assert graph.values[:5] == pytest.approx([0.6, 0.6, 0.65, 0.55, 0.8])
            await pilot.press("m")
            assert screen.selected == 2 and "? mistake" in text_of(screen, "#review-detail")
            await pilot.press("m")
            assert screen.selected == 3 and "?? blunder" in text_of(screen, "#review-detail")
            assert graph.marked == 3
            await pilot.press("m")
            assert screen.selected == 2
            await pilot.press("end")
            assert "- not judged" in text_of(screen, "#review-detail")
            assert not non_ascii(screen_text(app))
            await close(app, pilot)

    run(test)


# ------------------------------------------------------------------------------------------------ real reviews


def test_a_nim_review_lists_plots_sums_up_and_shows_each_position() -> None:
    record = game_record("nim", seed=3, at_least=5)
    expected = review_records.review_record(record)
    states = record.replay_states()

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_review(app, pilot, record)
            assert screen.review is not None and screen.review.to_json() == expected.to_json()
            moves = screen.query_one("#review-moves", PlyList)
            assert moves.has_focus and len(moves.lines) == len(expected.moves)
            for line, move in zip(moves.lines, expected.moves, strict=True):
                assert f"P{move.player} {move.move}" in line.plain and f" {mark_of(move, False)} " in line.plain
            graph = screen.query_one(ValueGraph)
            assert list(graph.values[:-1]) == value_series(expected)[:-1]
            assert graph.values[-1] == (1.0 if states[-1].outcome().winner is Side.P1 else -1.0)
            summary = text_of(screen, "#review-summary")
            for number in ("1", "2"):
                assert f"accuracy {expected.summary()[number]['accuracy']:g}%" in summary
            assert "Judged by" in summary and expected.engine in summary
            # Each move: the heaps before it, its best move's stones marked, the verdict in words.
            for index, move in enumerate(expected.moves):
                if index:
                    await pilot.press("down")
                assert screen.selected == index and moves.index == index
                before = states[move.ply - 1]
                rows = screen.query_one(HeapRows)
                assert rows.heaps == before.heaps
                best = before.parse_action(move.best[0])
                assert (rows.selected, rows.take, rows.active) == (best.index, best.take, True)
                detail = text_of(screen, "#review-detail")
                assert f"Ply {move.ply}: P{move.player} played {move.move}" in detail
                assert (move.verdict or "not judged") in detail
                assert graph.marked == move.ply - 1
            await pilot.press("home")
            assert screen.selected == 0
            # A click on a move's line chooses it (the list's border and padding are not lines).
            moves_list = screen.query_one("#review-moves", PlyList)
            await pilot.click(moves_list, offset=(4, 1 + 2))
            await pilot.pause()
            assert screen.selected == 2 and moves_list.has_focus
            await close(app, pilot)
            assert isinstance(app.screen, MenuScreen)

    run(test)


def test_a_tcg_review_has_each_players_entry_in_each_round() -> None:
    record = game_record("tcg", seed=2, at_least=3)
    expected = review_records.review_record(record)

    async def test() -> None:
        app = NashplayApp(ai_delay=0, ascii_mode=True)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_review(app, pilot, record)
            assert screen.review is not None and screen.review.to_json() == expected.to_json()
            assert len(screen.query_one(PlyList).lines) == 2 * len(record.moves)
            await pilot.press("down")
            move = expected.moves[1]
            detail = text_of(screen, "#review-detail")
            assert f"Round 1: P2 played {move.move} (" in detail
            assert f"{move.extra['probability'] * 100:.0f}% of the time" in detail
            assert "Best (" in detail
            assert not non_ascii(screen_text(app))
            await close(app, pilot)

    run(test)


def test_a_mini_geister_review_shows_the_movers_board_with_the_best_move_marked() -> None:
    """The Geister family is judged in the review's own process."""
    record = geister_record("mini-geister", plies=8, seed=1)
    expected = review_records.review_record(record)
    states = record.replay()

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_review(app, pilot, record)
            assert screen.review is not None and screen.review.to_json() == expected.to_json()
            board = screen.query_one("#review-board", Board)
            for index, move in enumerate(expected.moves):
                screen.query_one(PlyList).action_jump(index)
                await pilot.pause()
                mover = Side.from_number(move.player)
                assert board.view is not None
                assert board.view.position() == states[move.ply - 1].view(mover).position()
                assert board.hint == (Move.parse(move.best[0]) if move.best else None)
            await close(app, pilot)

    run(test)


def test_a_geister_review_at_a_fixed_depth_is_the_judges() -> None:
    record = geister_record("geister", plies=6, seed=2)
    expected = review_records.review_record(record, depth=1)

    async def test() -> None:
        app = NashplayApp(ai_delay=0, ascii_mode=True)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await open_review(app, pilot, record, depth=1)
            assert screen.review is not None and screen.review.to_json() == expected.to_json()
            assert "100%" in screen_text(app)  # the graph's axis: chances
            assert not non_ascii(screen_text(app))
            await close(app, pilot)

    run(test)


# ------------------------------------------------------------------------------------------------ progress, cancel


def test_progress_shows_and_escape_cancels_the_review(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real judge, held after its first move until the test has looked: the bar shows 1 of N, Esc stops the
    judge (at its next ``should_stop``), says so, and ``r`` starts it again, to the end."""
    record = game_record("nim", seed=3, at_least=5)
    real = review_records.review_record
    held = threading.Event()
    release = threading.Event()

    def judge(record: Record, **kwargs: Any) -> Review:
        progress = kwargs["progress"]

        def slow_progress(done: int, total: int) -> None:
            progress(done, total)
            if done == 1 and not release.is_set():
                held.set()
                release.wait(HANG_SECONDS)

        return real(record, **{**kwargs, "progress": slow_progress})

    monkeypatch.setattr(review_records, "review_record", judge)

    async def test() -> None:
        app = NashplayApp(ai_delay=0, ascii_mode=True)
        with released(release):
            async with app.run_test(size=SIZE) as pilot:
                screen = await open_review(app, pilot, record, done=False)
                total = len(record.moves)
                await wait_for(pilot, lambda: held.is_set() and screen.progress == (1, total), "the first move")
                await wait_for(pilot, lambda: "x Cancel" in screen_text(app).splitlines()[-1], "the footer's x")
                bar = text_of(screen, "#review-progress")
                assert f"] 1/{total} moves" in bar and "Esc cancels" in bar
                run = screen.run
                await pilot.press("escape")
                assert screen.phase == "cancelled" and isinstance(app.screen, ReviewScreen)
                release.set()
                # The judge heard the stop at its next question and ended there.
                await wait_for(pilot, lambda: screen.ended.get(run) != "running", "the judge to stop")
                assert screen.ended[run] == "cancelled"
                await pilot.pause()
                assert screen.phase == "cancelled" and screen.review is None
                assert f"Review cancelled after 1 of {total} moves" in text_of(screen, "#review-progress")
                assert "r Again" in screen_text(app).splitlines()[-1]
                await pilot.press("r")
                await wait_for(pilot, lambda: screen.phase == "done", "the review again")
                assert screen.review is not None and len(screen.review.moves) == total
                await close(app, pilot)

    run(test)


def test_escape_stops_a_geister_review_in_its_process() -> None:
    """A depth no test could wait for: only the stop file can end the review, and it does."""
    record = geister_record("geister", plies=6, seed=2)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_review(app, pilot, record, depth=60, done=False)
            await wait_for(pilot, lambda: screen.progress[1] == len(record.moves), "the review's start")
            run = screen.run
            await pilot.press("escape")
            assert screen.phase == "cancelled"
            # The thread that waited for the process ended because the process's review said it was cancelled.
            await wait_for(pilot, lambda: screen.ended.get(run) != "running", "the process's review to stop")
            assert screen.ended[run] == "cancelled"
            await close(app, pilot)
            assert isinstance(app.screen, MenuScreen)

    run(test)


# ------------------------------------------------------------------------------------------------ the replay viewer


@pytest.mark.parametrize("private", [False, True])
def test_the_geister_replay_viewer_asks_for_the_review_unless_the_game_is_private(private: bool) -> None:
    record = geister_record("mini-geister", plies=6, seed=1)

    async def test() -> None:
        app = NashplayApp(StartRequest("replay", record=record, replay_title="Replay: test"), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            screen.private = private
            screen.refresh_bindings()
            await pilot.pause()
            posted: list[Message] = []
            original = screen.post_message

            def capture(message: Message) -> bool:
                posted.append(message)
                return original(message)

            screen.post_message = capture  # type: ignore[method-assign]
            assert ("v Review" in screen_text(app).splitlines()[-1]) is not private
            await pilot.press("v")
            await pilot.pause()
            asked = [m for m in posted if isinstance(m, OpenReview)]
            if private:
                assert asked == []
            else:
                assert len(asked) == 1 and asked[0].record is record and asked[0].title == "Replay: test"
                # The app opens the review (where it has the screen wired) or at least stays usable.
                for _ in range(3):
                    with contextlib.suppress(WorkerCancelled):
                        await app.workers.wait_for_complete()
                    await pilot.pause()
                if isinstance(app.screen, ReviewScreen):
                    await wait_for(pilot, lambda: app.screen.phase != "running", "the review")  # type: ignore[attr-defined]
                    await close(app, pilot)

    run(test)


SNAPSHOT_SIZES = {"80x24": (80, 24), "110x34": (110, 34)}


@pytest.mark.parametrize("size", list(SNAPSHOT_SIZES))
def test_snapshot(snap_compare, size: str) -> None:  # type: ignore[no-untyped-def]
    record = game_record("nim", seed=3, at_least=5)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        screen = ReviewScreen(record, "Replay: Nim")
        await pilot.app.push_screen(screen)
        await wait_for(pilot, lambda: screen.phase != "running", "the review")
        await pilot.press("down", "down")
        await pilot.pause()

    app = NashplayApp(ascii_mode=True, ai_delay=0)
    assert snap_compare(app, terminal_size=SNAPSHOT_SIZES[size], run_before=run_before)


def test_a_long_title_loses_its_asides_whole_not_cut_inside_one() -> None:
    """At 80 columns the game screen's review title ("... (player 2: red-red-blue) vs random (player 1 escaped
    ...)") was cut inside its parentheses: it now drops whole asides, the last first."""
    record = game_record("nim", seed=3, at_least=5)
    long = "Review: Mini-Geister 2 vs 3 (player 2: red-red-blue) vs random (player 1 escaped a blue piece from a4)"

    async def test() -> None:
        app = NashplayApp(ai_delay=0, ascii_mode=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = ReviewScreen(record, long)
            await app.push_screen(screen)
            await wait_for(pilot, lambda: screen.phase != "running", "the review")
            title = str(screen.title)
            assert "..." not in title and title.count("(") == title.count(")")
            # The longest form that fits: the result's aside went whole, the rest stays.
            assert title.startswith("Review: Mini-Geister 2 vs 3") and title.endswith(" vs random"), title
            await close(app, pilot)

    run(test)


def test_a_move_close_to_the_best_is_not_starred() -> None:
    """A move judged best for a loss under the inaccuracy threshold, but not one of the best moves, says so (``~``):
    a star would claim it was the best move."""
    close = entry(1, 1, 0.6, 0.595, "best", best="m2")
    exact = entry(2, 2, 0.4, 0.4, "best", best="m2")
    assert mark_of(close, ascii_mode=False) == "~" == mark_of(close, ascii_mode=True)
    assert mark_of(exact, ascii_mode=False) == "★" and mark_of(exact, ascii_mode=True) == "*"
