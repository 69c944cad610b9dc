"""How fast the app answers keys while a search AI thinks (issue: keys within 100 ms while the advice searches).

Four runs of the same Geister game, headless, each pressing a key (``f``, flip the board: it redraws the board)
``--presses`` times and timing each press until the app has handled it:

* ``idle``: nothing searches (the floor: Textual's own cost of a key and a redraw);
* ``process``: the live advice panel is on, so the strongest AI (bayes) searches in the advice process, as the app
  does, and the panel and the bar redraw with every slice of the search;
* ``hint``: the panel and the hint (``H``): the board itself redraws with every slice too (the hint's squares, the
  chances of blue on the pieces), beside the bar;
* ``thread`` (the baseline): a search in a thread of the app's own process (UPP, pure numpy), which is the obvious
  design and the one ``spec/conventions.md`` warns about (the search holds the interpreter lock).

It also times, in the ``process`` and ``hint`` runs, the first advice: from pressing ``a`` to the panel's first
suggested move (the advice process starts, loads the compiled engine from its cache, and reports its first slice).
The cache folder is a fresh one, warmed first (as for anyone who has run a search once) unless ``--cold``, which
times the very first advice after installing, the engine's compilation included.

And the first advice as a user meets it: ``a`` pressed ``--look`` seconds after the board shows, with the advice's
process readied as the game opens (``ahead``, the app's way) against the baseline measured in the same run
(``asked``: the process started by ``a``, as before), alternated game by game.

    python benchmarks/key_latency.py [--presses 100] [--cold]

Ends with one JSON line of the figures (milliseconds).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# The app remembers the advice toggle in its state folder: keep the user's own settings out of this.
# Once, in this process: the search processes the app starts import this module again (``spawn``), and a folder of
# their own each would compile the engine in every one of them (the first advice then took 8 to 40 s).
if os.environ.get("NASHPLAY_BENCH_FOLDERS") != "1":
    os.environ["NASHPLAY_BENCH_FOLDERS"] = "1"
    os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="nashplay-bench-state-")
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="nashplay-bench-cache-")

# Imported after the environment above is set: the app reads it at import.

from first_advice_cold import ms_to_first_suggestion

from core.game import Side
from solvers.geister.montecarlo import UPPPlayer
from solvers.players import Limit
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.search_process import shutdown_all
from tui.widgets.advice import AdvicePanel


def search_in_thread(view: object, stop: threading.Event) -> None:
    """The baseline's search: UPP's analysis, snapshot after snapshot, in this process, until told to stop."""
    import random

    player = UPPPlayer()
    while not stop.is_set():
        for _ in player.analyse(view, Limit(time=5.0), random.Random(1)):  # type: ignore[arg-type]
            if stop.is_set():
                return


#: Milliseconds from pressing ``a`` to the first suggested move, by run.
first_advice: dict[str, float] = {}


async def measure(mode: str, presses: int) -> list[float]:
    config = GeisterConfig("geister", Side.P1, "chototsu", "BRRBBRRB", 3)
    app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
    stop = threading.Event()
    latencies: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        if mode in ("process", "hint"):
            asked = time.perf_counter()
            await pilot.press("a")
            if mode == "hint":
                await pilot.press("H")
            panel = screen.query_one("#search-advice", AdvicePanel)
            for _ in range(3000):  # wait until the search is really running (the process has started and reported)
                await pilot.pause(0.01)
                if "Suggested" in str(panel.render()):
                    first_advice[mode] = (time.perf_counter() - asked) * 1000
                    break
            else:
                raise RuntimeError("the advice search never reported")
        elif mode == "thread":
            thread = threading.Thread(target=search_in_thread, args=(screen.session.view(), stop), daemon=True)
            thread.start()
            await asyncio.sleep(0.5)
        for _ in range(presses):
            started = time.perf_counter()
            await pilot.press("f")
            latencies.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.02)  # a fast typist: 50 keys a second at most
        stop.set()
        if mode in ("process", "hint"):
            await pilot.press("a")  # the search stops with the panel
            if mode == "hint":
                await pilot.press("H")
    shutdown_all()
    return latencies


async def first_advice_after_a_look(ahead: bool, look: float) -> float:
    """Milliseconds from ``a`` to the first suggested move, pressed ``look`` seconds after the board first shows (a
    user looking at the position), with the advice's process readied as the game opens (``ahead``) or not (the
    baseline: it starts when ``a`` asks)."""
    GameScreen.WARM_ADVICE_AHEAD = ahead
    config = GeisterConfig("geister", Side.P1, "chototsu", "BRRBBRRB", 3)
    app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            waited = await ms_to_first_suggestion(pilot, screen, look, ceiling=30.0)
            await pilot.press("a")  # off again: the app remembers the panel for the next game
            return waited
    finally:
        shutdown_all()


def summary(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        "max_ms": round(ordered[-1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--cold", action="store_true", help="do not compile the engine into the cache first")
    parser.add_argument("--look", type=float, default=2.0, help="seconds at the board before a (first advice)")
    parser.add_argument("--repeat", type=int, default=3, help="games for each first-advice figure")
    args = parser.parse_args()
    if not args.cold:
        # A process of its own, as the advice's: it compiles the engine into this run's cache folder.
        import subprocess

        warm = (
            "from solvers.catalogue import advising_player; from tui.search_process import warm_in_child; "
            "warm_in_child(advising_player('geister').name, 'geister', 'warm')"
        )
        subprocess.run([sys.executable, "-c", warm], check=True, cwd=Path(__file__).resolve().parents[1])
    figures: dict[str, dict[str, float]] = {}
    print(f"Key latency, {args.presses} presses of 'f' (flip and redraw the Geister board), milliseconds")
    label = {
        "idle": "nothing searching",
        "process": "advice in its process",
        "hint": "advice, hint and bar",
        "thread": "UPP in a thread",
    }
    for mode in label:
        figures[mode] = summary(asyncio.run(measure(mode, args.presses)))
        f = figures[mode]
        print(
            f"  {mode:<8} {label[mode]:<28} median {f['p50_ms']:6.1f}   p95 {f['p95_ms']:6.1f}   max {f['max_ms']:6.1f}"
        )
    for mode, ms in first_advice.items():
        print(f"  first advice ({label[mode]}): {ms:.0f} ms after pressing a")
    look = args.look
    print(f"First advice, a pressed {look:g} s after the board shows (a user looking first), {args.repeat} games each:")
    after_look: dict[str, list[float]] = {"ahead": [], "asked": []}
    for _ in range(args.repeat):  # alternated, so that both see the same machine
        for mode in after_look:
            after_look[mode].append(asyncio.run(first_advice_after_a_look(mode == "ahead", look)))
    for mode, times in after_look.items():
        how = "process readied as the game opens" if mode == "ahead" else "process started by a (baseline)"
        print(f"  {mode:<6} {how:<36} median {statistics.median(times):6.0f} ms   max {max(times):6.0f} ms")
    print(
        json.dumps(
            {
                "process_p95_ms": figures["process"]["p95_ms"],
                "process_max_ms": figures["process"]["max_ms"],
                "hint_p95_ms": figures["hint"]["p95_ms"],
                "first_advice_ms": {mode: round(ms) for mode, ms in first_advice.items()},
                "first_advice_after_look_ms": {
                    mode: round(statistics.median(times)) for mode, times in after_look.items()
                },
                "baseline_thread_p95_ms": figures["thread"]["p95_ms"],
                "idle_p95_ms": figures["idle"]["p95_ms"],
                **{f"{mode}_{key}": value for mode, f in figures.items() for key, value in f.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
