"""The search worker process: it must never outlive the app that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

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
        app.wait(timeout=60)
    # Generous: the behaviour is "it goes", not how fast (the check runs every half second, even under load).
    deadline = time.monotonic() + 120
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    still = alive(worker)
    if still:
        os.kill(worker, signal.SIGKILL)
    assert not still, "the search worker outlived the app"
