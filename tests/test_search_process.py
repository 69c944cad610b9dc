"""The search worker process: it must never outlive the app that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from waiting import HANG_SECONDS, wait_for_exit

ROOT = Path(__file__).resolve().parents[1]

APP = """
import os, time
from tui.search_process import SearchProcess
process = SearchProcess()
worker = process.submit(os.getpid).result(timeout=300)
process.submit(eval, "sum(i for i in range(10**12))")  # a search that would run for hours
print(worker, flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a parent that does not reap it counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


def test_the_worker_exits_when_the_app_is_killed() -> None:
    """``kill -9`` of the app once left its worker computing, then waiting forever with 166 MB."""
    app = subprocess.Popen([sys.executable, "-c", APP], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert app.stdout is not None
        worker = int(app.stdout.readline())
        assert alive(worker)
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=HANG_SECONDS)
    # The behaviour is "it goes", not how fast (its watch looks every half second, later under load): woken when it
    # ends; only a worker that never goes reaches the ceiling.
    try:
        wait_for_exit(worker, "the search worker outlived the app")
    finally:
        if alive(worker):
            os.kill(worker, signal.SIGKILL)
