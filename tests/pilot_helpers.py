"""Helpers for driving the app with Textual's pilot, shared by the app tests."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import Input
from textual.worker import WorkerCancelled
from waiting import HANG_SECONDS, hung

from core.game import Side
from core.geister import GeisterView
from core.notation import Move
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.screens.game_over import GameOverPanel
from tui.widgets.board import Board


def run(test: Callable[[], Awaitable[None]]) -> None:
    """Run an async test body (the suite has no async pytest plugin)."""
    asyncio.run(test())  # type: ignore[arg-type]


def view_of(app: NashplayApp) -> GeisterView:
    view = app.screen.query_one("#board", Board).view
    assert view is not None
    return view


async def wait_for(pilot: Pilot[None], condition: Callable[[], bool], what: str) -> None:
    """Let the app run (its messages, its workers' answers) until ``condition`` holds: a wait on what the app does,
    not on the clock; only a hang reaches the ceiling (``waiting.HANG_SECONDS``)."""
    loop = asyncio.get_running_loop()
    ceiling = loop.time() + HANG_SECONDS
    while not condition():
        if loop.time() > ceiling:
            raise hung(what)
        await pilot.pause(0.02)


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


SEED = 7


def play_app(
    variant: str = "mini-geister", side: Side = Side.P1, setup: str = "BR", seed: int = SEED, **kwargs: object
) -> NashplayApp:
    config = GeisterConfig(variant, side, "chototsu", setup, seed)
    return NashplayApp(StartRequest.for_config(config), ai_delay=0, **kwargs)  # type: ignore[arg-type]


async def type_move(app: NashplayApp, pilot: Pilot[None], text: str, paste: bool = False) -> None:
    """A move entered in the move field: ``:``, the text (typed key by key, or pasted in one go), Enter; then
    the reply."""
    if paste:
        await pilot.press("colon")
        app.screen.query_one("#move-input", Input).value = text
        await pilot.press("enter")
    else:
        await pilot.press("colon", *text, "enter")
    await settle(app, pilot)


async def first_move(app: NashplayApp, pilot: Pilot[None]) -> None:
    """b1-b2 from the start by cursor (the cursor starts on b1): Enter picks, up, Enter drops; then the reply."""
    await pilot.press("enter", "up", "enter")
    await settle(app, pilot)
    assert app.screen.session.state.moves()[0] == Move.parse("b1-b2")  # type: ignore[attr-defined]


async def close_game_over(app: NashplayApp, pilot: Pilot[None]) -> None:
    """The game has ended: wait for its game-over panel and close it (Esc), back to the final position."""
    await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, GameOverPanel), "the game-over panel to close")
