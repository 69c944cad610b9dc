"""The chess clock: minutes plus an increment, the side to move's time running, a loss on time, its tags; and in
the app, shown at 80x24 with the running side marked by shape, the game over when a flag falls."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import run, wait_for
from screen_text import assert_fits, screen_text

from core.errors import NotationError
from core.game import Side
from core.impartial import HeapGameState, Nim
from core.record import Record
from tui.app import NashplayApp, StartRequest
from tui.config import ConfigError, GeisterConfig, NimConfig
from tui.game_clock import GameClock, parse_time_control
from tui.local_session import LocalSession, resume_record
from tui.screens.game import GameScreen
from tui.screens.game_over import GameOverPanel
from tui.screens.nim import NimScreen
from tui.screens.setup import SetupScreen
from tui.session import GameSession
from tui.widgets.choice import CycleChoice


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_time_controls_parse_and_absurd_ones_are_refused() -> None:
    assert parse_time_control("5+3") == (300.0, 3.0) and parse_time_control("1") == (60.0, 0.0)
    for bad in ("nope", "0+1", "-1+0", "5+-1", "nan+0", "inf", "100000"):
        with pytest.raises(ValueError, match="clock"):
            parse_time_control(bad)


def test_only_the_side_to_move_spends_time_and_the_increment_comes_after_a_move() -> None:
    fake = FakeTime()
    clock = GameClock(60.0, 2.0, now=fake)
    clock.start(Side.P1)
    fake.now = 10.0
    assert clock.remaining(Side.P1) == 50.0 and clock.remaining(Side.P2) == 60.0
    clock.moved(Side.P1)
    fake.now = 15.0
    assert clock.remaining(Side.P1) == 52.0 and clock.remaining(Side.P2) == 55.0
    fake.now = 100.0
    assert clock.flagged() is Side.P2
    assert GameClock.text(52.0) == "0:52" and GameClock.text(9.44) == "9.4" and GameClock.text(3723) == "1:02:03"
    again = GameClock.from_tags(clock.tags())
    assert again is not None and again.left == {Side.P1: 52.0, Side.P2: 0.0} and again.increment == 2.0
    with pytest.raises(NotationError, match=r"(?i)clock"):
        GameClock.from_tags({"TimeControl": "60+2", "Clock": "1,nan"})


def test_out_of_time_loses_and_the_record_keeps_the_clock() -> None:
    session = GameSession(GeisterConfig("mini-geister", Side.P1, "random", "BR", seed=1, clock="1+0"))
    fake = FakeTime()
    assert session.clock is not None
    fake.now = session.clock.since  # the fake time goes on from the clock's own
    session.clock.now = fake
    fake.now += 61.0
    outcome = session.check_clock()
    assert outcome is not None and outcome.winner is Side.P2 and outcome.reason == "player 1 ran out of time"
    record = session.record()
    assert record.result == "0-1" and record.tags["TimeControl"] == "60+0"


def test_the_clock_is_shown_at_80x24_and_a_fallen_flag_ends_the_game(state_dir: Path) -> None:
    async def test() -> None:
        config = GeisterConfig("mini-geister", Side.P1, "random", "BR", seed=1, clock="5+3", takebacks=True)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.session.clock is not None
            fake = FakeTime()
            fake.now = screen.session.clock.since + 2.5  # the user's time runs: shown at the next tick
            screen.session.clock.now = fake
            await wait_for(pilot, lambda: "Clock:>you 4:57" in screen_text(app), "the running clock")
            fake.now = screen.session.clock.since + 10_000.0
            screen.session.clock.now = fake  # hours later: the flag falls at the next tick
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
            await wait_for(pilot, lambda: "player 1 ran out of time (0-1)" in screen_text(app), "the panel drawn")
            assert screen.session.is_over and screen.session.record().result == "0-1"

    run(test)


@pytest.mark.parametrize("variant", ["geister", "mini-geister"])
def test_the_set_up_screen_offers_a_clock_on_one_line(state_dir: Path, variant: str) -> None:
    """The clock is chosen on the set-up screen too (it was the command line's alone): ``c`` or the arrows on its
    line step through none, 3+2, 5+3...; the game starts with it, and the screen still fits 80x24."""

    async def test() -> None:
        config = GeisterConfig(variant, Side.P1, "random", seed=1)
        app = NashplayApp(StartRequest.for_config(config, setup=True), ai_delay=0)
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            setup = app.screen
            assert isinstance(setup, SetupScreen)
            clock = setup.query_one("#clock", CycleChoice)
            assert clock.value == "none" and "Clock (c): < none >" in screen_text(app)
            await pilot.press("c", "c")
            assert clock.value == "5+3"
            clock.focus()
            await pilot.press("left")
            assert clock.value == "3+2"
            await pilot.press("right")
            for size in ((110, 34), (80, 24)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
                assert "Clock (c): < 5+3 >" in screen_text(app)
                assert_fits(app)
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
            game = app.screen
            assert isinstance(game, GameScreen) and game.session.clock is not None
            assert game.session.config.clock == "5+3" and "5:00" in screen_text(app)

    run(test)


def test_a_nim_game_keeps_a_clock_that_follows_its_moves_and_resumes_with_the_time_left() -> None:
    """The local games' session keeps a clock too (Nim, from ``--clock`` or the set-up screen): each move stops its
    mover's time with the increment and runs the other's, a takeback sets the side to move's running again, the
    record keeps it, a resumed game goes on with the time each side had, and a fallen flag is a loss on time."""
    config = NimConfig((3, 4), clock="1+2", seed=1)
    fake = FakeTime()
    clock = config.new_clock()
    assert clock is not None
    clock.now = fake
    session = LocalSession(HeapGameState((3, 4), Nim()), Side.P1, "perfect", 1, clock=clock)
    assert clock.running is Side.P1
    fake.now = 10.0
    session.state.apply(session.state.legal_actions()[0])
    session.sync_clock()
    assert clock.running is Side.P2 and clock.remaining(Side.P1) == 52.0
    fake.now = 13.0
    session.state.apply(session.state.legal_actions()[0])
    session.sync_clock()
    assert clock.running is Side.P1 and clock.remaining(Side.P2) == 59.0
    session.state.undo()
    session.sync_clock()
    assert clock.running is Side.P2
    session.state.apply(session.state.legal_actions()[0])
    session.sync_clock()
    record = session.record()
    assert record.tags["TimeControl"] == "60+2"
    resumed = resume_record(Record.parse(record.to_text()))
    assert isinstance(resumed.config, NimConfig) and resumed.config.clock == "1+2"
    again = resumed.config.new_clock()
    assert again is not None and again.left == {Side.P1: 52.0, Side.P2: 61.0}
    fake.now = 100.0
    outcome = session.check_clock()
    assert outcome is not None and outcome.winner is Side.P2 and outcome.reason == "player 1 ran out of time"
    assert session.over and session.record().result == "0-1"
    with pytest.raises(ConfigError, match="minutes are more than 0") as refused:
        NimConfig((3, 4), clock="0+5").check()
    assert refused.value.option == "--clock"


def test_nim_with_a_clock_from_its_set_up_shows_it_at_80x24_and_a_fallen_flag_ends_the_game(state_dir: Path) -> None:
    async def test() -> None:
        config = NimConfig((3, 4, 5), opponent="random", seed=1)
        app = NashplayApp(StartRequest.for_config(config, setup=True), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            clock = app.screen.query_one("#clock", CycleChoice)
            clock.focus()
            await pilot.press("right")
            assert clock.value == "3+2"
            assert_fits(app)
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, NimScreen), "the game")
            screen = app.screen
            assert isinstance(screen, NimScreen) and screen.session.clock is not None
            # The user's time runs from the start (so it shows 2:59 at once); the random player's waits at 3:00.
            await wait_for(pilot, lambda: "Clock:>you 2:5" in screen_text(app), "the clock shown")
            assert "  random 3:00" in screen_text(app)
            assert_fits(app)
            await pilot.press("enter")  # a move; the random player answers at once
            await wait_for(pilot, lambda: len(screen.state.history()) == 2, "the reply")
            assert screen.session.clock.running is Side.P1
            assert "Clock:>you " in screen_text(app) and "  random 3:0" in screen_text(app)  # 3:00 and the increment
            fake = FakeTime()
            fake.now = screen.session.clock.since + 10_000.0
            screen.session.clock.now = fake  # hours later: the flag falls at the next tick
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
            await wait_for(pilot, lambda: "player 1 ran out of time" in screen_text(app), "the panel drawn")
            assert screen.session.record().result == "0-1" and screen.session.record().tags["TimeControl"] == "180+2"

    run(test)


def test_a_nim_save_has_the_moves_increments_and_a_rematch_starts_with_a_full_clock(state_dir: Path) -> None:
    """Nim saved before its clock followed the move (a resume lost the increment of the last move until the next
    save), and a rematch after a resumed clocked game began with that game's time left."""
    from tui.saves import SaveStore

    async def test() -> None:
        config = NimConfig((3, 4, 5), opponent="random", seed=1, clock="1+2", clock_left=(30.0, 40.0))
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, NimScreen), "the game")
            screen = app.screen
            assert isinstance(screen, NimScreen) and screen.session.clock is not None
            fake = FakeTime()
            fake.now = screen.session.clock.since  # time stands still: only the increments change the clock
            screen.session.clock.now = fake
            await pilot.press("enter")  # a move; the random player answers at once
            await wait_for(pilot, lambda: len(screen.state.history()) == 2, "the reply")
            [saved] = (state_dir / "games").glob("*.ngr")
            kept = SaveStore(state_dir).slot(saved.stem).load().tags["Clock"]
            first, second = (float(left) for left in kept.split(","))
            assert 31 < first <= 32 and second == 42, kept  # each move's 2 s, the random player's reply's too
            await pilot.press("enter")  # a second move: R then resigns (before it, R aborts)
            await wait_for(pilot, lambda: len(screen.state.history()) >= 3, "the second move")
            await pilot.press("R", "y")
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(app.screen, NimScreen) and app.screen is not screen, "the rematch")
            rematch = app.screen
            assert isinstance(rematch, NimScreen) and rematch.session.clock is not None
            # A full minute each (the AI, now player 1, may have moved already: plus its increment), not 30 and 40.
            assert all(left >= 59 for left in rematch.session.clock.left.values()), rematch.session.clock.left

    run(test)


def test_the_time_spent_on_a_move_not_yet_made_is_kept_when_the_game_is_left(state_dir: Path) -> None:
    """The game was kept only after each move: the minutes spent on the next one were not, and the game resumed
    from its menu line gave them back."""
    from tui.saves import SaveStore

    def kept_clock() -> str:
        [saved] = (state_dir / "games").glob("*.ngr")
        return SaveStore(state_dir).slot(saved.stem).load().tags["Clock"]

    async def test() -> None:
        config = NimConfig((3, 4, 5), opponent="random", seed=1, clock="1+0")
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, NimScreen), "the game")
            screen = app.screen
            assert isinstance(screen, NimScreen) and screen.session.clock is not None
            fake = FakeTime()
            fake.now = screen.session.clock.since
            screen.session.clock.now = fake
            await pilot.press("enter")
            await wait_for(pilot, lambda: len(screen.state.history()) == 2, "the reply")
            mine = float(kept_clock().split(",")[0])  # a minute, less the moment before the fake time
            fake.now += 25  # the user thinks for 25 s, then goes to the menu
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, NimScreen), "the menu")
            assert kept_clock() == f"{mine - 25:.1f},60.0"

    run(test)
