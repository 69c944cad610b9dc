"""Layout snapshots: few, seeded, ASCII (so fonts and Unicode widths cannot make them flaky).

Update after an intended layout change with ``pytest tests/test_snapshots.py --snapshot-update`` and look at the
report before committing.
"""

from __future__ import annotations

from core.game import Side
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig


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

    assert snap_compare(app, terminal_size=(90, 30), run_before=play_one)


def test_geister_board_as_player_two(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = NashplayApp(
        StartRequest.for_config(GeisterConfig("geister", Side.P2, "chototsu", "BRRBBRRB", 3)),
        ascii_mode=True,
        ai_delay=0,
    )

    async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 34), run_before=settle)
