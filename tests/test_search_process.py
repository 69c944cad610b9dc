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


def test_a_search_opponent_in_the_worker_sets_up_as_the_player_itself_would() -> None:
    """The app's search opponents think in the worker process (``RemotePlayer``); their set-up is the real player's
    too (bayes guards its set-up: a random one would give its reds away), drawn from the seed the app hands over."""
    import random

    from core.game import Side
    from core.geister import GeisterState, variant_by_name
    from solvers.geister.bayes import BayesPlayer
    from tui.search_process import RemotePlayer, SearchProcess

    process = SearchProcess()
    try:
        remote = RemotePlayer("bayes", 0.1, process, "test", "geister")
        view = GeisterState(variant_by_name("geister")).view(Side.P1)
        assert view.phase == "setup"
        for seed in range(4):
            handed = random.Random(seed).randrange(2**31)  # what RemotePlayer.choose draws for the worker
            expected = BayesPlayer().choose(view, random.Random(handed))
            assert remote.choose(view, random.Random(seed)) == expected
    finally:
        process.shutdown()
