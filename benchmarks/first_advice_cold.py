"""The first Geister advice on a machine whose engine is not compiled yet (an empty cache, as after installing).

Each game starts from an empty compiled-code cache (a fresh ``NUMBA_CACHE_DIR``) and a fresh state folder, as for
a newcomer. It starts the app at its menu, stays there ``menu`` seconds (reading the menu, choosing Geister, its
set-up; 0: the app is started straight into the game, as ``nashplay play geister`` does), opens a Geister game, waits
``look`` seconds at the board (reading the position), presses ``a`` and times the first suggested move. Two ways,
alternated game by game so that both see the same machine:

* ``ahead`` (the app's way now): the app starts compiling the engine in a background process at start-up
  (``tui.engine_compile``); the advice's process, readied as the game opens, waits for that compilation and loads it;
* ``baseline`` (before): nothing compiles at start-up; the advice's process, readied as the game opens, compiles it.

    python benchmarks/first_advice_cold.py [--menus 0,6] [--look 2] [--repeat 2]

Prints the milliseconds from ``a`` to the first suggestion per way and time at the menu, and ends with one JSON
line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from textual.pilot import Pilot

from core.game import Side
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.search_process import shutdown_all
from tui.widgets.advice import AdvicePanel

WAYS = ("ahead", "baseline")


async def first_advice(ahead: bool, menu: float, look: float) -> float:
    """Milliseconds from ``a`` (pressed ``look`` seconds after the board shows, the app having started ``menu``
    seconds before at its menu) to the first suggested move."""
    NashplayApp.COMPILE_ENGINE_AHEAD = ahead
    GameScreen.WARM_ADVICE_AHEAD = True
    config = GeisterConfig("geister", Side.P1, "chototsu", "BRRBBRRB", 3)
    app = NashplayApp(StartRequest.for_config(config) if menu == 0 else None, ai_delay=0)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            if menu > 0:
                await asyncio.sleep(menu)
                app.open_game("geister", config, setup=False)
                await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            return await ms_to_first_suggestion(pilot, screen, look, ceiling=300.0)
    finally:
        shutdown_all()


async def ms_to_first_suggestion(pilot: Pilot[None], screen: GameScreen, look: float, ceiling: float) -> float:
    """``look`` seconds at the board, then ``a``: the milliseconds until the advice panel suggests a move (a
    ``RuntimeError`` saying what the panel shows after ``ceiling`` seconds)."""
    await asyncio.sleep(look)
    asked = time.perf_counter()
    await pilot.press("a")
    panel = screen.query_one("#search-advice", AdvicePanel)
    while "Suggested" not in str(panel.render()):
        if time.perf_counter() - asked > ceiling:
            raise RuntimeError(f"the advice never came: {' '.join(str(panel.render()).split())}")
        await pilot.pause(0.005)
    return (time.perf_counter() - asked) * 1000


def one_game(ahead: bool, menu: float, look: float) -> float:
    """One game from an empty compiled-code cache, as a new user: a fresh state folder too (the advice panel hidden
    until ``a``, nothing remembered from another game)."""
    folder = tempfile.mkdtemp(prefix="nashplay-cold-")
    os.environ["NUMBA_CACHE_DIR"] = folder  # read by every process the app starts
    os.environ["NASHPLAY_STATE_DIR"] = str(Path(folder) / "state")
    try:
        return asyncio.run(first_advice(ahead, menu, look))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--menus", default="0,6", help="seconds at the menu before the game opens, comma separated")
    parser.add_argument("--look", type=float, default=2.0, help="seconds at the board before a")
    parser.add_argument("--repeat", type=int, default=2, help="games per way and time at the menu")
    args = parser.parse_args()
    menus = [float(part) for part in args.menus.split(",")]
    results: dict[str, dict[str, list[float]]] = {way: {f"{menu:g}": [] for menu in menus} for way in WAYS}
    print(
        f"First Geister advice from an empty compiled-code cache, a pressed {args.look:g} s after the board shows: "
        "milliseconds from a to the first suggestion"
    )
    for menu in menus:
        for _ in range(args.repeat):
            for way in WAYS:
                ms = one_game(way == "ahead", menu, args.look)
                results[way][f"{menu:g}"].append(ms)
                print(f"  {menu:g} s at the menu, {way:<8} {ms:7.0f} ms", flush=True)
    medians = {way: {menu: round(statistics.median(ms)) for menu, ms in by.items()} for way, by in results.items()}
    for menu in menus:
        key = f"{menu:g}"
        where = "started straight into the game" if menu == 0 else f"{key} s at the menu first"
        print(
            f"{where}: ahead median {medians['ahead'][key]} ms, baseline median {medians['baseline'][key]} ms "
            f"({args.repeat} games each)"
        )
    print(
        json.dumps({"benchmark": "first_advice_cold", "look_s": args.look, "repeat": args.repeat, "median_ms": medians})
    )


if __name__ == "__main__":
    main()
