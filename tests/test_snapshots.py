"""Layout snapshots: few, seeded, ASCII (so fonts and Unicode widths cannot make them flaky).

Update after an intended layout change with ``pytest tests/test_snapshots.py --snapshot-update`` and look at the
report before committing.
"""

from __future__ import annotations

import pytest
from pilot_helpers import wait_for

from core.game import Side
from tui.app import NashplayApp, StartRequest
from tui.config import FootstepConfig, GeisterConfig, GoofspielConfig, NimConfig, TcgConfig


def test_mini_geister_board_after_two_plies(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = NashplayApp(
        StartRequest.for_config(GeisterConfig("mini-geister", Side.P1, "chototsu", "BR", 7)),
        ascii_mode=True,
        ai_delay=0,
    )

    async def play_one(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("colon", *"b1-b2", "enter")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=play_one)


def test_geister_board_as_player_two(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = NashplayApp(
        StartRequest.for_config(GeisterConfig("geister", Side.P2, "chototsu", "BRRBBRRB", 3)),
        ascii_mode=True,
        ai_delay=0,
    )

    async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(110, 34), run_before=settle)


# ---------------------------------------------------------------- every screen at 80x24 (compact) and 110x34

SIZES = {"80x24": (80, 24), "110x34": (110, 34)}


def settled(*keys: str):  # type: ignore[no-untyped-def]
    """Let the workers (solves, AIs) finish, press ``keys`` (each settled in turn)."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        for key in ("", *keys):
            if key:
                await pilot.press(key)
            for _ in range(3):
                await pilot.app.workers.wait_for_complete()
                await pilot.pause()

    return run_before


def _replay() -> StartRequest:
    from solvers.mini_geister.lines import PAPER_LINES, build_line

    key, title, position, side, rule = PAPER_LINES[0]
    line = build_line(key, title, position, Side.from_number(side), rule)
    return StartRequest("replay", record=line.record, replay_side=line.analysed, replay_title=f"Solved line: {title}")


#: name: (the start, keys before the picture). Messages that carry a time ("solved in 0.4 s") are replaced by a
#: move's message first, so the pictures do not depend on the machine.
SCREENS = {
    "menu": (StartRequest, ()),
    "setup": (lambda: StartRequest.for_config(GeisterConfig("mini-geister", seed=7), setup=True), ("tab", "tab")),
    "nim_setup": (lambda: StartRequest.for_config(NimConfig(seed=7), setup=True), ("tab",)),
    "tcg": (lambda: StartRequest.for_config(TcgConfig(5, "advisor", Side.P1, seed=7)), ("c",)),
    "footstep": (
        lambda: StartRequest.for_config(FootstepConfig(20, 3, "equilibrium", Side.P1, seed=7)),
        ("3", "enter", "1", "2"),
    ),
    "nim": (lambda: StartRequest.for_config(NimConfig(seed=7)), ("right", "enter")),
    "goofspiel": (lambda: StartRequest.for_config(GoofspielConfig(6, "equilibrium", Side.P2, seed=7)), ("2", "5")),
    "goofspiel_setup": (lambda: StartRequest.for_config(GoofspielConfig(seed=7), setup=True), ("tab",)),
    "replay": (_replay, ("right", "right", "right")),
    "help": (lambda: StartRequest.for_config(NimConfig(seed=7)), ("question_mark",)),
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", list(SCREENS))
def test_screen(snap_compare, name: str, size: str) -> None:  # type: ignore[no-untyped-def]
    start, keys = SCREENS[name]
    app = NashplayApp(start(), ascii_mode=True, ai_delay=0)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=settled(*keys))


@pytest.mark.parametrize("size", list(SIZES))
def test_footstep_learning_curves(snap_compare, monkeypatch: pytest.MonkeyPatch, size: str) -> None:  # type: ignore[no-untyped-def]
    from tui.screens import footstep_learning

    monkeypatch.setattr(footstep_learning, "APP_GAMES", 300)
    monkeypatch.setattr(footstep_learning, "APP_RUNS", 2)
    app = NashplayApp(
        StartRequest.for_config(FootstepConfig(6, 2, "random", Side.P1, seed=7)), ascii_mode=True, ai_delay=0
    )

    async def curves(pilot) -> None:  # type: ignore[no-untyped-def]
        await settled("l")(pilot)
        screen = pilot.app.screen
        await wait_for(pilot, lambda: len(getattr(screen, "curves", ())) == 3, "the three learning curves")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZES[size], run_before=curves)
