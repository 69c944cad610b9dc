"""Issue 28's texts of the clock and of watching, as a new user saw them at 80x24: a fallen flag reads ``0:00``; every
clock the set-up screens offer shows whole (``< 15+10 >``) and Goofspiel's set-up has ``c``, ``q`` and ``?`` as the
other set-up screens have; the watch screen's advice follows the position shown, its captures are shown by player,
and the kept record's path stays on one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import run, wait_for
from screen_text import assert_fits, screen_text
from textual.widgets import Input

from core.game import Side
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig, GoofspielConfig
from tui.game_clock import OFFERED_CLOCKS, GameClock
from tui.screens.parameter_setup import ParameterSetupScreen
from tui.screens.watch import SPEEDS, WatchScreen
from tui.widgets.advice import AdvicePanel
from tui.widgets.choice import CycleChoice

# ------------------------------------------------------------------------------------------------ the clock's text


def test_a_fallen_flag_reads_0_00_and_no_time_is_negative() -> None:
    assert GameClock.text(0.0) == "0:00" and GameClock.text(-2.5) == "0:00"
    # Tenths under 10 s, cut (never rounded up to a 10.0 that the minutes' form would say 0:10).
    assert GameClock.text(9.44) == "9.4" and GameClock.text(9.96) == "9.9" and GameClock.text(2.3) == "2.3"
    assert GameClock.text(0.05) == "0.0" and GameClock.text(10.0) == "0:10"
    now = [0.0]
    clock = GameClock(60.0, 0.0, now=lambda: now[0])
    clock.start(Side.P1)
    now[0] = 61.0
    assert clock.flagged() is Side.P1 and "you 0:00" in clock.line({Side.P1: "you", Side.P2: "sage"}, Side.P1)


# ------------------------------------------------------------------------------------------------ the set-up screens

SET_UPS: dict[str, tuple[Callable[[], GeisterConfig | GoofspielConfig], str]] = {
    "geister": (lambda: GeisterConfig("mini-geister", seed=1), "Clock (c)"),
    "goofspiel": (lambda: GoofspielConfig(3, seed=2), "Clock"),
}


@pytest.mark.parametrize("game", sorted(SET_UPS))
def test_every_offered_clock_shows_whole_on_the_set_up_screens(game: str) -> None:
    """The choice was as wide as its first value ("none"): ``Clock (c): < 15+10`` lost its ``>``."""
    config, label = SET_UPS[game]

    async def test() -> None:
        app = NashplayApp(StartRequest.for_config(config(), setup=True), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: bool(app.screen.query("#clock")), "the set-up screen")
            clock = app.screen.query_one("#clock", CycleChoice)
            clock.focus()
            for value in OFFERED_CLOCKS:
                await wait_for(pilot, lambda value=value: clock.value == value, value)  # type: ignore[misc]
                await pilot.pause()
                assert f"{label}: < {value} >" in screen_text(app), screen_text(app)
                await pilot.press("right")

    run(test)


def test_goofspiels_set_up_shows_q_and_help_and_c_steps_its_clock() -> None:
    """As on Geister's set-up: the footer says q Quit and ? Help (the cards field had the keyboard and took every
    key, hiding them), and ``c`` gives the Clock choice the keyboard and steps it; digits still go to the field."""

    async def test() -> None:
        app = NashplayApp(StartRequest.for_config(GoofspielConfig(3, seed=2), setup=True), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ParameterSetupScreen), "the set-up screen")
            setup = app.screen
            field = setup.query_one("#parameter-cards", Input)
            await wait_for(pilot, lambda: field.has_focus, "the cards field focused")
            await pilot.pause()
            footer = screen_text(app).splitlines()[-1]
            assert footer.startswith("q Quit ? Help") and "c Clock" in footer, footer
            await pilot.press("ctrl+u", "5")
            assert field.value == "5"
            await pilot.press("c")
            clock = setup.query_one("#clock", CycleChoice)
            await wait_for(pilot, lambda: clock.has_focus, "the clock focused")
            assert clock.value == "3+2" and field.value == "5"
            await pilot.press("c")
            assert clock.value == "5+3"

    run(test)


# ------------------------------------------------------------------------------------------------ watching


@pytest.fixture
def randoms(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random players (no search process) wherever the watch screen asks for one."""
    from solvers.catalogue import make_player

    monkeypatch.setattr(
        "tui.screens.watch.make_opponent", lambda name, variant, seconds: make_player("random", variant)
    )


def test_the_advice_follows_the_position_shown_and_is_cleared_at_the_end(randoms: None, state_dir: Path) -> None:
    """After ``a``, a step showed the previous ply's advice ("player 2's chance...") until the game ended, and
    after."""
    asked: list[int] = []

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            watch = WatchScreen("mini-geister", ("random", "random"), (0.1, 0.1), seed=5)
            watch.paused = True

            def work_out_advice(position: str, ply: int) -> None:
                asked.append(ply)
                watch.post_message(watch.AdviceReady(None, f"advice for ply {ply}", ply))

            watch.work_out_advice = work_out_advice  # type: ignore[method-assign,assignment]
            app.push_screen(watch)
            await wait_for(pilot, lambda: app.screen is watch and not watch.thinking, "the first set-up")
            for _ in range(2):  # the second set-up, then the first move
                await pilot.press("right")
                await wait_for(pilot, lambda: not watch.thinking, "one step")
            panel = watch.query_one("#watch-advice", AdvicePanel)
            await pilot.press("a")
            ply = len(watch.state.moves())
            await wait_for(pilot, lambda: f"advice for ply {ply}" in str(panel.render()), "the advice")
            await pilot.press("right")
            await wait_for(pilot, lambda: len(watch.state.moves()) == ply + 1, "one step")
            assert asked == [ply, ply + 1]
            await wait_for(pilot, lambda: f"advice for ply {ply + 1}" in str(panel.render()), "the new advice")
            watch.pause_index = SPEEDS.index(0.0)
            await pilot.press("space")
            await wait_for(pilot, lambda: watch.state.is_terminal() and watch.kept is not None, "the end")
            await pilot.pause()
            shown = str(panel.render())
            assert "game is over" in shown and "advice for ply" not in shown, shown

    run(test)


@pytest.mark.parametrize("size", [(80, 24), (110, 34)])
def test_the_watch_shows_each_players_captures_and_the_records_path_on_one_line(
    randoms: None, state_dir: Path, size: tuple[int, int]
) -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            watch = WatchScreen("mini-geister", ("random", "random"), (0.1, 0.1), seed=5)
            watch.pause_index = SPEEDS.index(0.0)
            app.push_screen(watch)
            await wait_for(pilot, lambda: watch.state.is_terminal() and watch.kept is not None, "the end")
            await pilot.pause()
            view = watch.state.revealed_view(Side.P1)
            taken = [view.captured_of(side.other) for side in Side]
            assert any(taken), "a game with a capture, for the test to mean something"
            letters = [
                " ".join(p.colour.value if p.side is Side.P1 else p.colour.value.lower() for p in pieces) or "none"
                for pieces in taken
            ]
            kept = Path(watch.kept or "")
            text = assert_fits(app)
            for n, shown in enumerate(letters, 1):
                assert f"Player {n} (random) captured: {shown}" in text or f"P{n} captured: {shown}" in text, text
            # The path on a line of its own, whole or cut in the middle: its start and its end on that one line.
            path_lines = [line.strip() for line in text.splitlines() if line.strip().endswith(str(kept)[-8:])]
            assert len(path_lines) == 1 and path_lines[0].split(" ")[-1].startswith(str(kept)[:8]), text
            assert str(kept) in path_lines[0] or "..." in path_lines[0], text

    run(test)


def test_a_long_path_is_cut_in_the_middle_never_folded() -> None:
    from tui.screens.watch import middle_cut, record_wordings

    path = "/home/someone/.local/state/nashplay/records/20250101-120000-geister-sage-vs-purple.txt"
    assert middle_cut(path, len(path)) == path
    cut = middle_cut(path, 40)
    assert len(cut) == 40 and cut.endswith("sage-vs-purple.txt") and cut.startswith("/home/") and "..." in cut
    wordings: list[Any] = record_wordings(path)
    assert wordings[0].endswith("\n" + path) and all(len(w.split("\n")[1]) <= len(path) for w in wordings)
