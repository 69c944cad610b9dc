"""Helpers for driving the app with Textual's pilot, shared by the app tests."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from core.geister import GeisterView
from tui.app import NashplayApp
from tui.screens.game import GameScreen
from tui.widgets.board import Board


def run(test: Callable[[], Awaitable[None]]) -> None:
    """Run an async test body (the suite has no async pytest plugin)."""
    asyncio.run(test())  # type: ignore[arg-type]


def view_of(app: NashplayApp) -> GeisterView:
    view = app.screen.query_one("#board", Board).view
    assert view is not None
    return view


async def settle(app: NashplayApp, pilot: Pilot[None]) -> None:
    """Let the opponent answer (its worker, then its message) until it is the user's turn or the game is over."""
    for _ in range(50):
        with contextlib.suppress(WorkerCancelled):  # an undo cancels the opponent's worker
            await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, GameScreen) or not screen.session.opponents_turn:
            return
    raise AssertionError("the opponent never answered")


async def settle_workers(app: NashplayApp, pilot: Pilot[None]) -> None:
    """Let every background worker finish (an answer may start more work)."""
    for _ in range(50):
        with contextlib.suppress(WorkerCancelled):
            await app.workers.wait_for_complete()
        await pilot.pause()
        if all(worker.is_finished for worker in app.workers):
            return
    raise AssertionError("the background work never finished")
