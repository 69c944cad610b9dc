"""Start-up time of the app: from a fresh interpreter to a game on the board, headless.

Baseline, measured in the same run: a bare Textual app showing one Static, so the figure says what nashplay
adds to Textual's own start-up on this machine. Ends with one JSON line of the figures.

    python benchmarks/startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile

NASHPLAY = """
import asyncio, os, time
t0 = time.perf_counter()
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from core.game import Side
async def main():
    app = NashplayApp(StartRequest.for_config(GeisterConfig("geister", Side.P1, "chototsu", "random", 1)), ai_delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#board").view is not None
    print(time.perf_counter() - t0)
asyncio.run(main())
"""

BASELINE = """
import asyncio, time
t0 = time.perf_counter()
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static("hello")
async def main():
    app = Bare()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
    print(time.perf_counter() - t0)
asyncio.run(main())
"""

HELP = (
    "import time; t0 = time.perf_counter(); from tui.cli import build_parser; build_parser(); "
    "print(time.perf_counter() - t0)"
)


def measure(code: str, runs: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    import os

    env = dict(os.environ, NASHPLAY_STATE_DIR=tempfile.mkdtemp())
    app = measure(NASHPLAY, args.runs, env)
    baseline = measure(BASELINE, args.runs, env)
    cli = measure(HELP, args.runs, env)
    print(f"nashplay to a Geister board (headless): {app * 1000:7.0f} ms (median of {args.runs})")
    print(f"bare Textual app (baseline):            {baseline * 1000:7.0f} ms")
    print(f"nashplay adds:                          {(app - baseline) * 1000:7.0f} ms ({app / baseline:.2f}x)")
    print(f"command line parser (nashplay --help):  {cli * 1000:7.0f} ms")
    print(
        json.dumps(
            {
                "startup_seconds": round(app, 4),
                "baseline_seconds": round(baseline, 4),
                "ratio": round(app / baseline, 3),
                "cli_seconds": round(cli, 4),
            }
        )
    )


if __name__ == "__main__":
    main()
