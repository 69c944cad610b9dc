"""A chess clock in the simultaneous-move games (TCG, Footstep, Goofspiel), as Nim and Geister have one:
``--clock M+S`` on ``nashplay play GAME`` (a bad one refused in one line), Goofspiel's set-up screen's Clock line, the
user's time running while their choice is to make (the opponent chooses at once) and not while the game is solved,
the clock line on the screen at 80x24 and 110x34, the time left kept in the save and a resumed game going on with
it, and a fallen flag ending the game as a loss on time for the user's side. Time is a fake one the test moves: no
test waits for a clock to run down."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import not_called, refused
from pilot_helpers import run, settle_workers, wait_for
from screen_text import assert_fits, screen_text
from textual.pilot import Pilot
from waiting import HANG_SECONDS, released

from core.game import Side
from core.record import Record
from solvers.goofspiel import game_value
from tui.app import NashplayApp, StartRequest
from tui.cli import main
from tui.config import FootstepConfig, GoofspielConfig, TcgConfig
from tui.game_clock import GameClock
from tui.games import Config
from tui.screens import goofspiel as goofspiel_screen
from tui.screens.footstep import FootstepScreen
from tui.screens.game_over import GameOverPanel
from tui.screens.goofspiel import GoofspielScreen
from tui.screens.parameter_setup import ParameterSetupScreen
from tui.screens.tcg import TcgScreen
from tui.widgets.choice import CycleChoice

Screen = TcgScreen | FootstepScreen | GoofspielScreen
Round = Callable[[Screen, Pilot[None]], Awaitable[None]]


class FakeTime:
    """The clock's ``now``: moved by the test, never by the machine."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def fake_time(clock: GameClock) -> FakeTime:
    """The clock's time from now on, starting where its own stands (so that nothing jumps)."""
    fake = FakeTime(clock.since)
    clock.now = fake
    return fake


def game_screen(app: NashplayApp) -> Screen:
    """The game's screen (under the game-over panel once the game is over)."""
    screens = [screen for screen in app.screen_stack if isinstance(screen, Screen)]
    assert screens, app.screen_stack
    return screens[-1]


# ------------------------------------------------------------------------------------------------ the command line


@pytest.mark.parametrize("game", ["tcg", "footstep", "goofspiel"])
def test_play_takes_a_clock_for_each_simultaneous_game(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[StartRequest] = []

    def open_app(request: StartRequest, args: object) -> int:
        opened.append(request)
        return 0

    monkeypatch.setattr("tui.cli.play.open_app", open_app)
    assert main(["play", game, "--clock", "5+3"]) == 0
    [request] = opened
    config: Any = request.config
    assert config.game == game and config.clock == "5+3" and config.clock_left is None
    clock = config.new_clock()
    assert isinstance(clock, GameClock) and (clock.initial, clock.increment) == (300.0, 3.0)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        *[
            (["play", game, "--clock", clock], f"nashplay play {game}: error: --clock: {said}")
            for game in ("tcg", "footstep", "goofspiel")
            for clock, said in (("0+5", "a clock's minutes are more than 0"), ("five", "a clock is minutes plus"))
        ],
        (["play", "goofspiel", "--clock", "5+-1"], "--clock: a clock's increment is 0..3600 seconds"),
        # The plain-terminal advisor has no clock: refused, not dropped.
        (["play", "tcg", "--advisor", "--clock", "5+3"], "--clock: the clock is the app's; --advisor is the plain"),
    ],
)
def test_a_bad_clock_is_refused_in_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.cli.play.open_app", not_called)
    monkeypatch.setattr("tui.cli.tcg_prompt.run", not_called)
    err = refused(argv, capsys)
    assert words in err, err


# ------------------------------------------------------------------------------------------------ in the app


async def tcg_round(screen: Screen, pilot: Pilot[None]) -> None:
    await pilot.press("c")  # versus: a charge at 0,0, where the equilibrium charges too


async def footstep_round(screen: Screen, pilot: Pilot[None]) -> None:
    await pilot.press("1", "enter")  # one step at most: k = 2 is not reached


async def goofspiel_round(screen: Screen, pilot: Pilot[None]) -> None:
    await pilot.press("1")


#: game: (a clocked configuration, one round of it, the opponent's name on the clock line)
GAMES: dict[str, tuple[Config, Round, str]] = {
    "tcg": (TcgConfig(3, "versus", Side.P1, seed=1, clock="1+2"), tcg_round, "AI"),
    # The user plays player 2 here: the flag that falls is theirs, and player 1 wins.
    "footstep": (FootstepConfig(6, 2, "equilibrium", Side.P2, seed=1, clock="1+2"), footstep_round, "equilibrium"),
    "goofspiel": (GoofspielConfig(4, "random", Side.P2, seed=1, clock="1+2"), goofspiel_round, "random"),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_a_clocked_game_shows_its_clock_resumes_with_the_time_left_and_is_lost_on_time(
    name: str, state_dir: Path
) -> None:
    """The user's time runs while they choose (20 s of fake time), a round adds each side's increment (2 s), the
    clock line fits 80x24 and 110x34; quit, resumed from the menu, the game goes on with the time each side had, and
    hours later the user's flag falls: a loss on time, with its panel and its record."""
    config, play_round, them = GAMES[name]
    me = config.human
    #: The user's time left after the round (what ran before the fake time took over, a moment, is the machine's).
    mine = 0.0

    async def first() -> None:
        nonlocal mine
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle_workers(app, pilot)
            screen = game_screen(app)
            clock = screen.session.clock
            assert clock is not None and clock.running is me  # solved: the user's choice is to make
            fake = fake_time(clock)
            left = clock.remaining(me)
            assert 55 < left <= 60 and clock.remaining(me.other) == 60
            fake.now += 20.0
            shown = f"Clock:>you {GameClock.text(left - 20)}   {them} 1:00"
            await wait_for(pilot, lambda: shown in screen_text(app), "the running clock")
            assert_fits(app, shown)
            await play_round(screen, pilot)
            await wait_for(pilot, lambda: len(screen.state.history()) == 1, "the round")
            assert not screen.over and clock.running is me
            mine = left - 20 + 2
            assert clock.remaining(me) == pytest.approx(mine) and clock.remaining(me.other) == 62.0
            shown = f"Clock:>you {GameClock.text(mine)}   {them} 1:02"
            await wait_for(pilot, lambda: shown in screen_text(app), "the increments")
            await pilot.resize_terminal(110, 34)
            await pilot.pause()
            assert_fits(app, shown)
            tags = screen.record().tags
            assert tags["TimeControl"] == "60+2"
            kept = GameClock.from_tags(tags)
            assert kept is not None and kept.left[me] == pytest.approx(mine, abs=0.06) and kept.left[me.other] == 62

    async def resumed() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # the menu's first line: Resume
            await settle_workers(app, pilot)
            screen = game_screen(app)
            assert type(screen).game_name == name and len(screen.state.history()) == 1
            # The time each side had (the record keeps tenths), going on from there.
            assert screen.config.clock == "1+2" and screen.config.clock_left is not None
            assert screen.config.clock_left[me.number - 1] == pytest.approx(mine, abs=0.06)
            assert screen.config.clock_left[me.other.number - 1] == 62.0
            clock = screen.session.clock
            assert clock is not None and clock.running is me
            assert mine - 5 < clock.remaining(me) <= mine + 0.06 and clock.remaining(me.other) == 62.0
            await wait_for(pilot, lambda: f"{them} 1:02" in screen_text(app), "the clock as it was")
            fake = fake_time(clock)
            fake.now += 10_000.0  # hours later: the flag falls at the next tick
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
            lost = f"{me} ran out of time"
            await wait_for(pilot, lambda: lost in screen_text(app), "the panel drawn")
            outcome = screen.session.outcome()
            assert outcome is not None and outcome.winner is me.other and outcome.reason == lost
            assert lost in screen.message_text and len(screen.state.history()) == 1
            assert screen.keeper is not None and screen.keeper.finished is not None
            record = Record.load(screen.keeper.finished)
            assert record.tags["Termination"] == lost and record.tags["TimeControl"] == "60+2"
            assert record.tags["Clock"].split(",")[me.number - 1] == "0.0"
            await pilot.press("escape")  # the panel closed: the screen says it too, and still fits
            await wait_for(pilot, lambda: not isinstance(app.screen, GameOverPanel), "the panel to close")
            assert_fits(app, "ran out of time")

    run(first)
    run(resumed)


def test_goofspiels_set_up_screen_offers_a_clock(state_dir: Path) -> None:
    """The Clock line under the cards, as on Nim's set-up: the arrows step through none, 3+2, 5+3...; the game starts
    with it. A clock given to ``--clock`` that the list does not offer is offered too."""

    async def test() -> None:
        app = NashplayApp(StartRequest.for_config(GoofspielConfig(3, seed=2), setup=True), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            setup = app.screen
            assert isinstance(setup, ParameterSetupScreen)
            clock = setup.query_one("#clock", CycleChoice)
            assert clock.value == "none" and "Clock: < none >" in screen_text(app)
            clock.focus()
            await pilot.press("right")
            assert clock.value == "3+2" and "Clock: < 3+2 >" in screen_text(app)
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, GoofspielScreen), "the game")
            game = app.screen
            assert isinstance(game, GoofspielScreen) and game.config.clock == "3+2"
            assert game.session.clock is not None and game.session.clock.initial == 180.0
            await settle_workers(app, pilot)
            await wait_for(pilot, lambda: "Clock:>you 2:5" in screen_text(app), "the clock shown")
        assert ParameterSetupScreen(GoofspielConfig(clock="7+0")).clocked
        offered = NashplayApp(StartRequest.for_config(GoofspielConfig(3, clock="7+0"), setup=True), ai_delay=0)
        async with offered.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert offered.screen.query_one("#clock", CycleChoice).value == "7+0"

    run(test)


def test_no_time_runs_while_the_game_is_solved(monkeypatch: pytest.MonkeyPatch, state_dir: Path) -> None:
    """Nothing can be chosen before the game is solved (half a minute for Goofspiel at 8 cards): the clock waits,
    shown without a running side, and starts when the first round opens."""
    started, gate = threading.Event(), threading.Event()

    def held_solve(cards: int, tell: Any) -> float:
        started.set()
        gate.wait(HANG_SECONDS)
        return game_value(cards, tell)

    monkeypatch.setattr(goofspiel_screen, "game_value", held_solve)

    async def test() -> None:
        app = NashplayApp(StartRequest.for_config(GoofspielConfig(3, seed=1, clock="1+0")), ai_delay=0)
        with released(gate):
            async with app.run_test(size=(80, 24)) as pilot:
                screen = app.screen
                assert isinstance(screen, GoofspielScreen)
                clock = screen.session.clock
                assert clock is not None
                await wait_for(pilot, lambda: started.is_set() and clock.running is None, "the solve, the clock held")
                fake = fake_time(clock)
                before = clock.remaining(screen.human)  # a minute, less what ran before the solve began
                fake.now += 30.0
                # No ">": nobody's time runs.
                await wait_for(pilot, lambda: "Clock: you " in screen_text(app), "the clock, held")
                assert "   equilibrium 1:00" in screen_text(app) and not screen.over
                # Not 60 s within some margin: on a loaded machine the app's start took more than the margin.
                assert clock.remaining(screen.human) == before
                gate.set()
                await settle_workers(app, pilot)
                assert screen.secret_bid is not None and clock.running is screen.human
                fake.now += 5.0
                await wait_for(pilot, lambda: "Clock:>you 0:5" in screen_text(app), "the clock running")

    run(test)


class TickingTime:
    """A clock that moves a millisecond every time it is read, as a real one does between two readings."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def test_a_round_adds_both_increments_without_running_the_opponents_time() -> None:
    """The round's end charged the two moves one after the other, which ran the opponent's time for an instant: it
    showed 0:30 instead of 0:31 after a one-second increment."""
    from core.tcg import TcgAction, TcgState
    from tui.local_session import LocalSession

    clock = GameClock(30.0, 1.0, now=TickingTime())
    session = LocalSession(TcgState(3), Side.P1, "equilibrium", 1, clock=clock)
    session.state.apply_joint([TcgAction("c"), TcgAction("c")])
    session.sync_clock()
    assert clock.running is Side.P1
    assert clock.left[Side.P2] == 31.0, clock.left  # the opponent's time never ran
    assert 30.9 < clock.remaining(Side.P1) < 31.0
