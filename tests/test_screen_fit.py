"""Every screen fits the terminal at 80x24 and at 110x34: nothing reaches past the screen, nothing is cut by its box,
no text line wraps, the title fits the header, and the lines a user needs (the footer's ``q`` and ``?``, TCG's
"if you deviated" line...) are on the screen. In ASCII mode every character drawn is ASCII.

Every screen is opened once, at 110x34, checked, and checked again once the terminal is resized to 80x24 (an app run
costs a good part of a second, and the screen's own work, a solve, a search, a review, often more). That checks what a
start at 80x24 draws only for a screen that draws the same whether it started at a size or was resized to it: when this
was written, every screen below was compared, started at 80x24 and resized to it from 110x34, and drew the same (but for
what no size decides: a solve's time, a random set-up, how far the live search got). Where a screen chooses a text for
the room it has (a message's wording, a game screen's status and hints, the review's chart titles, the TCG heat map's
window, where the help page and the path field are scrolled to), the choice is made again on a resize, as a user who
narrows the terminal must see it. A screen that chose for 110 columns only is caught, as a rule, rather than missed:
what it chose is checked at 80, where a line chosen for more room wraps or is cut.
``test_a_resize_chooses_the_wordings_again`` checks the other way too, from 80 columns back to 110.

At the first size a test waits until the screen shows the lines it needs, however long its work takes; after the
resize it looks at once (a resize only draws again), so a line that a resize lost fails the test instead of waiting
for a hang's ceiling."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import run, wait_for
from screen_text import assert_fits, non_ascii, screen_text
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.screen import Screen
from textual.worker import WorkerCancelled

from core.game import Outcome, Side
from core.record import Record
from tui.app import NashplayApp, StartRequest
from tui.config import FootstepConfig, GeisterConfig, GoofspielConfig, NimConfig, TcgConfig
from tui.screens import footstep_learning
from tui.screens.ask_path import Confirm
from tui.screens.game import GameScreen
from tui.screens.game_over import GameOverPanel, GameOverSummary

Size = tuple[int, int]

#: The sizes every screen is checked at, in the order a screen checked at both in one run sees them: it starts at the
#: first and is resized to the second (see the module docstring for why the larger comes first).
SIZES: tuple[Size, ...] = ((110, 34), (80, 24))

Drive = Callable[[NashplayApp, Pilot[None]], Awaitable[None]]


def size_id(size: Size) -> str:
    return f"{size[0]}x{size[1]}"


async def settle(app: NashplayApp, pilot: Pilot[None]) -> None:
    for _ in range(3):
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete()
        await pilot.pause()


async def at_each_size(
    app: NashplayApp, pilot: Pilot[None], check: Callable[[], object], lines: tuple[str, ...] = ()
) -> None:
    """``check`` at each of ``SIZES``, the terminal resized to each in turn (the first is the one the app started at,
    or was last resized to): there once ``lines`` are on the screen (``until_shown``), after a resize at once."""
    for size in SIZES:
        resized = tuple(app.size) != size
        if resized:
            await pilot.resize_terminal(*size)
            await pilot.pause()
        else:
            await until_shown(app, pilot, lines)
        assert tuple(app.size) == size
        try:
            check()
        except AssertionError as failure:
            how = " (resized to it: a text chosen for the other size and kept?)" if resized else ""
            raise AssertionError(f"at {size_id(size)}{how}: {failure}") from failure


async def close_game_over(app: NashplayApp, pilot: Pilot[None]) -> None:
    """The game has ended: Esc closes its game-over panel (checked on its own below), back to the final position."""
    await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, GameOverPanel), "the game-over panel to close")
    await settle(app, pilot)


async def nothing(app: NashplayApp, pilot: Pilot[None]) -> None:
    await settle(app, pilot)


async def until_shown(app: NashplayApp, pilot: Pilot[None], lines: tuple[str, ...]) -> None:
    """Until every one of ``lines`` is on the screen: a screen that fills itself from a worker (a solve, a search)
    is read once it has drawn, however long that takes on a loaded machine."""
    await wait_for(pilot, lambda: all(line in screen_text(app) for line in lines), f"{lines} on the screen")


def keys(*pressed: str) -> Drive:
    async def drive(app: NashplayApp, pilot: Pilot[None]) -> None:
        await settle(app, pilot)
        for key in pressed:
            await pilot.press(key)
            await settle(app, pilot)

    return drive


def to_the_end(drive: Drive) -> Drive:
    """``drive`` ends the game: its game-over panel is closed, back to the final position."""

    async def ended(app: NashplayApp, pilot: Pilot[None]) -> None:
        await drive(app, pilot)
        await close_game_over(app, pilot)

    return ended


def solved_line() -> Record:
    from solvers.mini_geister.lines import PAPER_LINES, build_line

    key, title, position, side, rule = PAPER_LINES[0]
    return build_line(key, title, position, Side.from_number(side), rule).record


def replay_request() -> StartRequest:
    record = solved_line()
    title = "Solved line, 13 plies: player 1 moves first and forces its event (base rule; the paper: 13 plies)"
    return StartRequest("replay", record=record, replay_side=Side.P1, replay_title=title)


TCG = StartRequest.for_config(TcgConfig(5, "advisor", Side.P1, seed=1))
FOOTSTEP = StartRequest.for_config(FootstepConfig(20, 3, "equilibrium", Side.P1, seed=1))
NIM = StartRequest.for_config(NimConfig((3, 4, 5), seed=1))

#: name: (start, how to get to the screen, lines that must be on it)
SCREENS: dict[str, tuple[Callable[[], StartRequest], Drive, tuple[str, ...]]] = {
    "menu": (StartRequest, nothing, ("q Quit", "? Help", "Twice Clap Game", "Quit")),
    "setup-mini-geister": (
        lambda: StartRequest.for_config(GeisterConfig("mini-geister"), setup=True),
        nothing,
        ("q Quit", "? Help", "Start", "bayes", "adversary", "2 s"),
    ),
    "setup-geister": (
        lambda: StartRequest.for_config(GeisterConfig("geister"), setup=True),
        nothing,
        ("q Quit", "? Help", "Start", "bayes", "purple", "2 s"),
    ),
    "nim-setup": (
        lambda: StartRequest.for_config(NimConfig(), setup=True),
        keys("tab", "tab", "tab"),
        ("q Quit", "? Help", "Start", "Misere", "Player 2"),
    ),
    # "Suggested:" shows once the solve's mixes are drawn (the screen was once read before, under load).
    "tcg": (
        lambda: TCG,
        nothing,
        ("q Quit", "? Help", "Shift+C/A/D/S", "Press what the opponent played", "Suggested:"),
    ),
    # A strong attack with no points: first said, then played (and lost).
    "tcg-warned": (lambda: TCG, keys("S"), ("q Quit", "strong attack")),
    "tcg-over": (
        lambda: StartRequest.for_config(TcgConfig(5, "versus", Side.P1, seed=1)),
        to_the_end(keys("s", "s")),
        ("q Quit", "You lose.", "r: new game"),
    ),
    "tcg-versus": (
        lambda: StartRequest.for_config(TcgConfig(5, "versus", Side.P2, seed=1)),
        keys("c", "c"),
        ("q Quit", "? Help", "Choose your action"),
    ),
    # Larger than any terminal shows (41x41 states): the heat map shows a window around the current state.
    "tcg-40": (
        lambda: StartRequest.for_config(TcgConfig(40, "advisor", Side.P1, seed=1)),
        nothing,
        ("q Quit", "? Help", "Shift+C/A/D/S"),
    ),
    "footstep": (lambda: FOOTSTEP, nothing, ("q Quit", "? Help", "Your bid", "mix (bids", "Rounds")),
    # A clock's line above the status, in each simultaneous game (TCG's advisor mode: its longest left column).
    "tcg-clock": (
        lambda: StartRequest.for_config(TcgConfig(5, "advisor", Side.P1, seed=1, clock="5+3")),
        nothing,
        ("q Quit", "Clock:>you ", "opponent 5:00", "Shift+C/A/D/S"),
    ),
    "footstep-clock": (
        lambda: StartRequest.for_config(FootstepConfig(20, 3, "equilibrium", Side.P1, seed=1, clock="5+3")),
        nothing,
        ("q Quit", "Clock:>you ", "equilibrium 5:00", "Your bid", "Rounds"),
    ),
    "goofspiel-clock": (
        lambda: StartRequest.for_config(GoofspielConfig(5, "equilibrium", Side.P1, seed=1, clock="5+3")),
        nothing,
        ("q Quit", "Clock:>you ", "equilibrium 5:00", "Your bid", "Rounds"),
    ),
    "footstep-round": (lambda: FOOTSTEP, keys("3", "enter", "1", "2"), ("q Quit", "Your bid:  12 ", "You bid 3")),
    "footstep-learning": (lambda: FOOTSTEP, keys("l"), ("q Quit", "? Help", "Back")),
    "nim": (lambda: NIM, nothing, ("q Quit", "? Help", "Heap 1", "nim-sum")),
    "nim-over": (
        lambda: StartRequest.for_config(NimConfig((1, 2), opponent="human", seed=1)),
        to_the_end(keys("enter", "down", "right", "enter")),
        ("q Quit", "Game over", "over after 2 plies"),
    ),
    "nim-kayles": (
        lambda: StartRequest.for_config(NimConfig((5, 7), __import__("core.impartial").impartial.KAYLES, seed=1)),
        nothing,
        ("q Quit", "? Help", "Heap 1"),
    ),
    "replay": (replay_request, keys("right", "right"), ("q Quit", "? Help", "Ply 2 of 12")),
    "help": (lambda: TCG, keys("question_mark"), ("Twice Clap Game", "Esc: close")),
    # The Geister page names the board's Unicode glyphs: ASCII mode tells them in ASCII. Its last words stay on the
    # screen when a resize folds the page anew (taller at 80 columns).
    "help-geister": (
        replay_request,
        keys("question_mark", "end"),
        ("Esc: close", "How Geister is won", "the game."),
    ),
    "open-record": (StartRequest, keys("o"), ("Record file",)),
    # The Geister boards with everything on: the advice panel, the hint and the bar (the live search runs in its
    # process, for a second: see the fixture), and the solved tables' advice in Mini-Geister, 2 vs 2 and 3 vs 2.
    "geister-board": (
        lambda: StartRequest.for_config(GeisterConfig("geister", Side.P1, "chototsu", "BRRBBRRB", 3)),
        keys("a", "H"),
        ("q Quit", "? Help", "H Hint", "Advice", "Your chance to win", "Suggested:"),
    ),
    "mini-geister-board": (
        lambda: StartRequest.for_config(GeisterConfig("mini-geister", Side.P1, "nash", "BR", 3)),
        keys("H"),
        ("q Quit", "? Help", "Value for you: +0.00, exact", "Suggested:"),
    ),
    "mini-geister-3v2-board": (
        lambda: StartRequest.for_config(GeisterConfig("mini-geister-3v2-rbb", Side.P1, "chototsu", "BRB", 3)),
        nothing,
        ("q Quit", "? Help", "Value for you:", "Suggested:"),
    ),
    "ask-server": (StartRequest, keys("end", "up", "up", "enter"), ("Host:", "127.0.0.1", "Port:", "10000")),
}


@pytest.fixture(autouse=True)
def small_learning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(footstep_learning, "APP_GAMES", 100)
    monkeypatch.setattr(footstep_learning, "APP_RUNS", 1)
    # The live advice searches a second, not thirty: the test waits for it to finish.
    monkeypatch.setattr(GameScreen, "ADVICE_BUDGET", 1.0)


@pytest.mark.parametrize("name", list(SCREENS))
def test_every_screen_fits_and_ascii_mode_draws_only_ascii(name: str) -> None:
    start, drive, lines = SCREENS[name]
    # The help is a document: it scrolls (a screenful at a time), the rest of the screens must fit.
    scrolling = (VerticalScroll,) if name.startswith("help") else ()

    async def test() -> None:
        app = NashplayApp(start(), ascii_mode=True, ai_delay=0)

        def fits() -> None:
            text = assert_fits(app, *lines, scrolling_allowed=scrolling)
            assert not non_ascii(text), f"\n{text}\nnot ASCII: {sorted(non_ascii(text))}"

        async with app.run_test(size=SIZES[0]) as pilot:
            await drive(app, pilot)
            await at_each_size(app, pilot, fits, lines)

    run(test)


def test_a_resize_chooses_the_wordings_again() -> None:
    """TCG's game over says why the game was lost where its line has room: the whole reason at 110 columns, narrowed
    to 80 the short wording (not the long one wrapped), and widened to 110 again the whole reason again."""
    reason = "You: strong attack. Opponent: charge. You lose: player 1 had too few points for strong attack."
    short = "You: strong attack. Opponent: charge. You lose."
    start, drive, _ = SCREENS["tcg-over"]

    async def test() -> None:
        app = NashplayApp(start(), ascii_mode=True, ai_delay=0)
        async with app.run_test(size=SIZES[0]) as pilot:
            await drive(app, pilot)
            for size, shown in ((SIZES[0], reason), (SIZES[1], short), (SIZES[0], reason)):
                if tuple(app.size) != size:
                    await pilot.resize_terminal(*size)
                    await pilot.pause()
                text = assert_fits(app, shown)
                line = next(line for line in text.splitlines() if "You: strong attack" in line)
                assert line.strip() == shown, (size_id(size), line)

    run(test)


def test_a_resize_keeps_the_solved_tables_marks_on_a_mini_geister_board() -> None:
    """In Mini-Geister the hint and the value bar come from the solved tables: a resize draws the advice panels again
    for the new size, and leaves the marks on the board (it once cleared them, as if the search's advice, which does
    not run there, had none)."""
    from tui.widgets.board import Board
    from tui.widgets.eval_bar import EvalBar

    start, drive, lines = SCREENS["mini-geister-board"]

    async def test() -> None:
        app = NashplayApp(start(), ascii_mode=True, ai_delay=0)
        async with app.run_test(size=SIZES[0]) as pilot:
            await drive(app, pilot)
            await until_shown(app, pilot, lines)
            board, bar = app.screen.query_one(Board), app.screen.query_one(EvalBar)
            marks = (board.hint, bar.fraction, bar.label)
            assert board.hint is not None and bar.fraction is not None and bar.label, marks
            await pilot.resize_terminal(*SIZES[1])
            await pilot.pause()
            assert (board.hint, bar.fraction, bar.label) == marks

    run(test)


def test_the_path_field_keeps_its_end_in_sight_on_a_resize(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The record's path is typed on at its end, where the cursor is: a narrower field still shows it (the field kept
    its scroll, and the cursor fell out of sight)."""
    folder = tmp_path / ("a-folder-with-a-long-name-" * 3)
    folder.mkdir()
    monkeypatch.chdir(folder)
    end = folder.name[-24:] + "/"

    async def test() -> None:
        app = NashplayApp(ascii_mode=True, ai_delay=0)
        async with app.run_test(size=SIZES[0]) as pilot:
            await keys("o")(app, pilot)
            await at_each_size(app, pilot, lambda: assert_fits(app, "Record file", end), ("Record file",))

    run(test)


@pytest.mark.parametrize("name", ["menu", "tcg", "nim-setup", "setup-mini-geister"])
def test_unicode_mode_fits_too(name: str) -> None:
    """Unicode mode draws other glyphs (borders, bars): it fits as well."""
    start, drive, lines = SCREENS[name]

    async def test() -> None:
        app = NashplayApp(start(), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await drive(app, pilot)
            await until_shown(app, pilot, lines)
            assert_fits(app, *lines)

    run(test)


def test_toasts_and_the_command_palette_are_ascii_in_ascii_mode() -> None:
    async def test() -> None:
        app = NashplayApp(ascii_mode=True, ai_delay=0)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.pause()
            app.notify("A toast", title="Title", severity="warning")
            await wait_for(pilot, lambda: "A toast" in screen_text(app), "the toast")
            text = screen_text(app)
            assert "A toast" in text and not non_ascii(text), f"\n{text}\n{sorted(non_ascii(text))}"
            await pilot.press("ctrl+p")
            await pilot.pause()
            await pilot.pause()
            text = screen_text(app)
            assert "Search for commands" in text and not non_ascii(text), f"\n{text}\n{sorted(non_ascii(text))}"

    run(test)


def test_every_help_page_is_told_in_ascii_in_ascii_mode() -> None:
    """The pages name the board's Unicode glyphs (``▲``, ``●``...): ASCII mode shows the ASCII ones instead."""
    from importlib import resources

    from textual.widgets import Markdown

    from tui.screens.help import HelpScreen

    pages = resources.files("tui.help").iterdir()
    topics = [page.name.removesuffix(".md") for page in pages if page.name.endswith(".md")]
    assert "geister" in topics

    async def test() -> None:
        app = NashplayApp(ascii_mode=True, ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for topic in topics:
                await app.push_screen(HelpScreen(topic))
                await pilot.pause()
                source = app.screen.query_one(Markdown).source
                assert source.isascii(), (topic, sorted({c for c in source if not c.isascii()}))
                await app.pop_screen()

    run(test)


# ------------------------------------------------------------------------------------------------ record viewer, review


def _viewer(name: str) -> Callable[[], Screen[None]]:
    from test_record_viewer import game_record

    from tui.screens.record_viewer import RecordViewerScreen

    return lambda: RecordViewerScreen(game_record(name, seed=3, at_least=5), f"Replay: a game of {name}")


def _review(name: str) -> Callable[[], Screen[None]]:
    from test_record_viewer import game_record, geister_record

    from tui.screens.review import ReviewScreen

    def make() -> Screen[None]:
        if name in ("geister", "mini-geister"):
            record = geister_record(name, plies=10, seed=2)
            return ReviewScreen(record, f"Replay: a game of {name}", depth=1)
        return ReviewScreen(game_record(name, seed=3, at_least=5), f"Replay: a game of {name}")

    return make


#: name: (the screen, keys pressed once it has settled, lines that must be on it)
RECORD_SCREENS: dict[str, tuple[Callable[[], Screen[None]], tuple[str, ...], tuple[str, ...]]] = {
    "viewer-tcg": (_viewer("tcg"), ("right",), ("q Quit", "? Help", "v Review", "Round 1 of", "a comment")),
    "viewer-footstep": (_viewer("footstep"), ("right", "right"), ("q Quit", "v Review", "Round 2 of", "goal")),
    "viewer-nim": (_viewer("nim"), ("right",), ("q Quit", "v Review", "Ply 1 of", "Next:")),
    "review-nim": (_review("nim"), ("down",), ("q Quit", "? Help", "accuracy", "Ply 2: P2 played", "Best (", "by ply")),
    "review-tcg": (
        _review("tcg"),
        ("down",),
        ("q Quit", "accuracy", "Round 1: P2 played", "The equilibrium plays it", "by round"),
    ),
    "review-footstep": (_review("footstep"), ("end",), ("q Quit", "accuracy", "Best (", "by round")),
    "review-mini-geister": (_review("mini-geister"), ("down",), ("q Quit", "accuracy", "Ply 2: P2 played", "by ply")),
    "review-geister": (_review("geister"), ("down", "down"), ("q Quit", "accuracy", "100%", "Best (", "by ply")),
}


async def _open_record_screen(app: NashplayApp, pilot: Pilot[None], name: str) -> None:
    make, pressed, _ = RECORD_SCREENS[name]
    await pilot.pause()
    screen = make()
    await app.push_screen(screen)
    # The review judges in the background (a Geister game in its own process): wait for it, however long it takes.
    await wait_for(pilot, lambda: getattr(screen, "phase", "done") != "running", "the review")
    assert getattr(screen, "phase", "done") == "done", getattr(screen, "problem", "")
    await settle(app, pilot)
    for key in pressed:
        await pilot.press(key)
    await pilot.pause()


@pytest.mark.parametrize("name", list(RECORD_SCREENS))
def test_the_record_viewer_and_the_review_fit_and_draw_only_ascii(name: str) -> None:
    lines = RECORD_SCREENS[name][2]

    async def test() -> None:
        app = NashplayApp(ascii_mode=True, ai_delay=0)

        def fits() -> None:
            text = assert_fits(app, *lines)
            assert not non_ascii(text), f"\n{text}\nnot ASCII: {sorted(non_ascii(text))}"

        async with app.run_test(size=SIZES[0]) as pilot:
            await _open_record_screen(app, pilot, name)
            await at_each_size(app, pilot, fits, lines)
            await pilot.press("escape")
            await pilot.pause()

    run(test)


@pytest.mark.parametrize("name", ["viewer-footstep", "review-tcg", "review-geister"])
def test_the_record_viewer_and_the_review_fit_in_unicode_too(name: str) -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await _open_record_screen(app, pilot, name)
            await until_shown(app, pilot, RECORD_SCREENS[name][2])
            assert_fits(app, *RECORD_SCREENS[name][2])
            await pilot.press("escape")
            await pilot.pause()

    run(test)


def test_the_review_fits_while_it_works_and_once_cancelled() -> None:
    """A depth no test waits for: the progress bar stays up until Esc cancels, which the screen then says."""
    from test_record_viewer import geister_record

    from tui.screens.review import ReviewScreen

    async def test() -> None:
        app = NashplayApp(ascii_mode=True, ai_delay=0)

        def working() -> None:
            text = assert_fits(app, "Reviewing [", "0/10 moves", "Esc cancels", "x Cancel", "q Quit")
            assert not non_ascii(text)

        def cancelled() -> None:
            text = assert_fits(app, "Review cancelled after 0 of 10 moves", "r Again", "q Quit")
            assert not non_ascii(text)

        async with app.run_test(size=SIZES[0]) as pilot:
            await pilot.pause()
            screen = ReviewScreen(geister_record("geister", plies=10, seed=2), "Replay: a long think", depth=60)
            await app.push_screen(screen)
            await wait_for(pilot, lambda: bool(screen.progress[1]), "the review's start")
            await pilot.pause()
            await at_each_size(app, pilot, working)
            # Cancelled at the first size, as the review was started there: then the resize, as for every screen.
            await pilot.resize_terminal(*SIZES[0])
            await pilot.press("escape")
            await pilot.pause()
            await at_each_size(app, pilot, cancelled)
            await pilot.press("escape")
            await pilot.pause()

    run(test)


# ---------------------------------------------------------------------------------------- recent games, game over


def _recent_games(state: Path) -> None:
    """A game of each kind for the recent games: a TCG game in progress, a finished Nim game, a damaged record."""
    from core.impartial import HeapGameState, HeapMove
    from core.tcg import TcgAction, TcgState
    from tui.local_session import game_record, secret_tags
    from tui.saves import SaveStore

    store = SaveStore(state)
    tcg = TcgState(3)
    tcg.apply_joint((TcgAction.CHARGE, TcgAction.CHARGE))
    slot = store.new_slot()
    slot.save(game_record(tcg, Side.P1, "equilibrium", tags={"Mode": "versus"}), secret_tags(1))
    slot.release()
    nim = HeapGameState((3,))
    nim.apply(HeapMove(0, 3))
    store.keep_record(game_record(nim, Side.P1, "perfect", seed=1))
    (store.records / ("a-damaged-record-with-a-long-name-" * 3 + ".ngr")).write_bytes(b"\xff not a record")


async def _footstep_to_the_end(app: NashplayApp, pilot: Pilot[None]) -> None:
    from tui.screens.footstep import FootstepScreen

    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, FootstepScreen)
    while not screen.state.is_terminal():
        assert screen.secret_bid is not None
        points = screen.state.position.points(screen.human)
        await pilot.press(*str(min(points, screen.secret_bid + 1)), "enter")
        await settle(app, pilot)


#: name: (start, state folder set-up, how to get to the screen, lines that must be on it)
ENDED_AND_RECENT: dict[str, tuple[Callable[[], StartRequest], Callable[[Path], None], Drive, tuple[str, ...]]] = {
    "recent": (
        lambda: StartRequest(),
        _recent_games,
        keys("r"),
        ("q Quit", "? Help", "v Review", "TCG n=3 vs equilibrium: in progress", "Nim vs perfect: you won", "damaged"),
    ),
    "recent-empty": (lambda: StartRequest(), lambda state: None, keys("r"), ("q Quit", "No games yet")),
    # A game of any kind in progress: one line on the menu, with its state (when it was saved, where there is room).
    "menu-resume": (lambda: StartRequest(), _recent_games, nothing, ("q Quit", "Resume: TCG n=3 vs equilibrium")),
    "footstep-over": (
        lambda: StartRequest.for_config(FootstepConfig(6, 1, "random", Side.P1, seed=3)),
        lambda state: None,
        to_the_end(_footstep_to_the_end),
        ("q Quit", "? Help", "v Review", "m Rematch", "n: new game", "v: review"),
    ),
    "nim-over-vs-ai": (
        lambda: StartRequest.for_config(NimConfig((1,), opponent="perfect", seed=1)),
        lambda state: None,
        to_the_end(keys("enter")),
        ("q Quit", "? Help", "v Review", "m Rematch", "You win!"),
    ),
    "geister-over": (
        lambda: StartRequest.for_config(
            GeisterConfig("mini-geister", Side.P1, "chototsu", None, 3, position="B2u/4/1u2/1R2 1")
        ),
        lambda state: None,
        to_the_end(keys("colon", *"a4-out", "enter")),
        ("q Quit", "? Help", "v Review", "m Rematch", "You won!"),
    ),
    "tcg-over-advisor": (
        lambda: TCG,
        lambda state: None,
        to_the_end(keys("a")),
        ("q Quit", "? Help", "v Review", "m Rematch", "You win!", "r: new game"),
    ),
}


@pytest.mark.parametrize("name", list(ENDED_AND_RECENT))
def test_the_recent_games_and_the_screens_of_a_finished_game_fit(name: str, state_dir: Path) -> None:
    """The recent games (long and damaged lines cut to the width), and every game screen once its game is over, with
    the review and rematch keys in the footer."""
    start, prepare, drive, lines = ENDED_AND_RECENT[name]
    prepare(state_dir)

    async def test() -> None:
        app = NashplayApp(start(), ascii_mode=True, ai_delay=0)

        def fits() -> None:
            text = assert_fits(app, *lines)
            assert not non_ascii(text), f"\n{text}\nnot ASCII: {sorted(non_ascii(text))}"

        async with app.run_test(size=SIZES[0]) as pilot:
            await drive(app, pilot)
            await at_each_size(app, pilot, fits, lines)

    run(test)


# ------------------------------------------------------------------------------------------------ modal panels


#: A long record path, as the game-over panel shows it.
KEPT = Path("/home/a-player/.local/state/nashplay/records/geister-20261127-090350-3b8f6e.ngr")

#: The game-over panel of a resigned game and the question before resigning, over a TCG game: (the panel, lines).
MODALS: dict[str, tuple[Callable[[], Screen[Any]], tuple[str, ...]]] = {
    "game-over": (
        lambda: GameOverPanel(GameOverSummary.of(Outcome.win(Side.P2, "player 1 resigned"), "0-1", Side.P1, KEPT)),
        ("Game over: You lost", "player 1 resigned (0-1)", "Its record:", "Back to the menu", "Esc looks at the board"),
    ),
    "confirm-resign": (
        lambda: Confirm("Resign this game? It counts as a loss."),
        ("Resign this game? It counts as a loss.", "y: yes   n or Esc: no"),
    ),
}


@pytest.mark.parametrize("ascii_mode", [True, False], ids=["ascii", "unicode"])
@pytest.mark.parametrize("name", list(MODALS))
def test_the_game_over_panel_and_the_confirmation_fit(name: str, ascii_mode: bool) -> None:
    """Over a game's screen, at each size: nothing cut or wrapped, and only ASCII in ASCII mode. The record's path
    alone may fold over lines (the panel shows it whole, on lines of its own: a path cut short cannot be found), and
    every line of it must show."""
    make, lines = MODALS[name]

    async def test() -> None:
        app = NashplayApp(TCG, ascii_mode=ascii_mode, ai_delay=0)

        def fits() -> None:
            text = assert_fits(app, *lines, folding_allowed=("game-over-kept",))
            assert not ascii_mode or not non_ascii(text), f"\n{text}\nnot ASCII: {sorted(non_ascii(text))}"
            if name == "game-over":  # the path whole, each line of it as the panel folds it
                width = app.screen.query_one("#game-over-kept").content_region.width
                path = str(KEPT)
                folded = [path[start : start + width] for start in range(0, len(path), width)]
                assert all(line in text for line in folded), (f"\n{text}", folded)

        async with app.run_test(size=SIZES[0]) as pilot:
            await settle(app, pilot)
            await app.push_screen(make())
            await pilot.pause()
            await at_each_size(app, pilot, fits, lines)

    run(test)
