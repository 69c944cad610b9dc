"""Item 2, workers that die: ``kill -9`` of the advice's or the opponent's search process at random moments of a
game in the app (headless, as ``tests/test_dead_workers.py`` drives it), then play on. After every move the game's
save slot must hold every move played (the move is saved before anything that can fail), and the app must live on:
its moves answered, or the failure said in one line; sometimes a new game (``n``, ``ctrl+s``) is started after a
kill, which once crashed the app.

The opponent is ``purple`` (a search in the opponents' process) with a small thinking time, and the advice's search
has a small budget (as the tests set it): nothing here depends on how deep they get.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import random
import signal
from pathlib import Path

from textual.pilot import Pilot

from core.game import Side
from hostile.app_cases import run_app
from hostile.common import Outcome, clean, crash, lost, short, until
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.board_screen import BoardScreen
from tui.screens.game import GameScreen
from tui.search_process import SearchProcess, advice_process, shared_process
from tui.widgets.advice import AdvicePanel

OPPONENT = "purple"
SIZE = (120, 40)
#: Seconds a move may take to be answered (a process restarted included) before the case counts as a hang.
ANSWER = 60.0
MOMENTS = ["before the move", "just after the move", "during the answer", "twice in a row", "while idle"]


def worker_pids(process: SearchProcess) -> list[int]:
    """The worker process's id, if it runs (the pool's own record of it)."""
    pool = process._pool
    if pool is None or not getattr(pool, "_processes", None):
        return []
    return [pid for pid, child in list(pool._processes.items()) if child.is_alive()]


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):  # gone, or going (ESRCH while read)
        return True


async def kill_worker(pilot: Pilot[None], process: SearchProcess) -> int:
    """``kill -9`` of the worker (if one runs); the kills made."""
    kills = 0
    for pid in worker_pids(process):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
            kills += 1
        await until(pilot, functools.partial(gone, pid), 10.0)
    return kills


def saved_moves(screen: GameScreen) -> list[str] | None:
    """The moves the game's save slot holds (``None``: no slot)."""
    keeper = screen.keeper
    if keeper is None or keeper.slot is None or not keeper.slot.path.is_file():
        return None
    return [move.text for move in keeper.slot.load().moves]


def over(screen: GameScreen) -> bool:
    """Whether the game is over (a call, not a property: it changes while the case waits)."""
    return bool(screen.session.is_over)


def running(app: NashplayApp) -> bool:
    return bool(app.is_running)


def played(screen: GameScreen) -> list[str]:
    return [move.to_text() for move in screen.session.state.moves()]


def dead_workers(rng: random.Random, work: Path, sound: bool, target: str) -> Outcome:
    config = GeisterConfig("geister", Side.P1, OPPONENT, "BRRBBRRB", rng.randrange(10**6), think_time=0.05)
    kills = 0
    notes: list[str] = []

    def process() -> SearchProcess:
        return advice_process() if target == "advice" else shared_process()

    async def body(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
        nonlocal kills
        if not await until(pilot, lambda: isinstance(app.screen, GameScreen), 30.0):
            return crash("the game never opened")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        if target == "advice":
            await pilot.press("a")
            await until(pilot, lambda: "Suggested" in _advice(app), 30.0)
        for step in range(rng.randrange(2, 6)):
            if over(screen) or not running(app):
                break
            if not await until(pilot, lambda: screen.session.humans_turn or over(screen), ANSWER):
                return crash(f"step {step}: the opponent never answered ({short(screen.message_text, 120)})")
            if over(screen):
                break
            moment = "no kill" if sound else rng.choice(MOMENTS)
            notes.append(moment)
            if moment in ("before the move", "twice in a row"):
                kills += await kill_worker(pilot, process())
            if moment == "twice in a row":
                await pilot.pause(0.3)
                kills += await kill_worker(pilot, process())
            if moment == "while idle":
                await pilot.pause(rng.uniform(0.0, 1.0))
                kills += await kill_worker(pilot, process())
                await pilot.pause(rng.uniform(0.0, 0.5))
            before = len(screen.session.state.moves())
            move = rng.choice(screen.session.view().legal_moves()).to_text()
            await pilot.press("colon", *move, "enter")
            if moment in ("just after the move", "during the answer"):
                if moment == "during the answer":
                    await asyncio.sleep(rng.uniform(0.0, 0.3))
                kills += await kill_worker(pilot, process())

            def answered(before: int = before) -> bool:
                done = len(screen.session.state.moves()) >= before + 2 or screen.session.is_over
                return not app.is_running or done or "failed" in screen.message_text

            if not await until(pilot, answered, ANSWER):
                return crash(
                    f"step {step} ({moment}): {move} never answered in {ANSWER:.0f} s: "
                    f"{short(screen.message_text, 120)}"
                )
            if not running(app):
                return crash(f"step {step} ({moment}): the app ended after {move}")
            if len(screen.session.state.moves()) <= before:
                return lost(
                    f"step {step} ({moment}): the move {move} was not played: {short(screen.message_text, 120)}"
                )
            saved = saved_moves(screen)
            if saved is not None and saved[: before + 1] != played(screen)[: before + 1]:
                return lost(f"step {step} ({moment}): the save holds {saved[-3:]}, the game {played(screen)[-3:]}")
            if saved is None and not screen.session.is_over:
                return lost(f"step {step} ({moment}): the game in progress has no save")
            if "failed" in screen.message_text and "\n" in screen.message_text.strip():
                return crash(f"the failure is not said in one line: {short(screen.message_text, 200)}")
        if not sound and rng.random() < 0.35 and app.is_running and isinstance(app.screen, GameScreen):
            kills += await kill_worker(pilot, process())
            old = app.screen
            await pilot.press("n")
            await until(pilot, lambda: app.screen is not old and app.screen.is_mounted, ANSWER)
            await pilot.press("ctrl+s")
            if not await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen is not old, ANSWER):
                return crash(f"n then ctrl+s after a kill: no new game ({app.screen!r})")
            notes.append("a new game")
        if not app.is_running:
            return crash("the app ended")
        return clean(f"{target} killed {kills} times: {', '.join(notes)}", kills=kills)

    saved = BoardScreen.ADVICE_BUDGET, BoardScreen.ADVICE_SLICE
    GameScreen.ADVICE_BUDGET, GameScreen.ADVICE_SLICE = 1.0, 0.2
    try:
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        return run_app(app, body, seconds=140.0, size=SIZE)
    finally:
        GameScreen.ADVICE_BUDGET, GameScreen.ADVICE_SLICE = saved


def _advice(app: NashplayApp) -> str:
    with contextlib.suppress(Exception):
        return str(app.screen.query_one("#search-advice", AdvicePanel).render())
    return ""


def advice_killed(rng: random.Random, work: Path, sound: bool) -> Outcome:
    return dead_workers(rng, work, sound, "advice")


def opponent_killed(rng: random.Random, work: Path, sound: bool) -> Outcome:
    return dead_workers(rng, work, sound, "opponent")
