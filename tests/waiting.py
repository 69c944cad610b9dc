"""Waiting in tests: on a condition that the code under test makes true, never on the clock.

A test waits for what it needs (a worker's answer drawn, a process gone, a file written, a line on a terminal) and
looks as often as it likes. The only time limit is a ceiling that no working code reaches on any machine, however
loaded: only a hang gets there. A slow machine makes a test slower, never red.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import threading
import time
from collections.abc import Callable, Iterator

#: The ceiling of every wait: minutes, where the slowest wait of a working run on a loaded machine takes seconds.
HANG_SECONDS = 600.0


def hung(what: str) -> AssertionError:
    return AssertionError(f"{what}: still not after {HANG_SECONDS:.0f} s, so it hangs")


async def until(condition: Callable[[], bool], what: str, poll: float = 0.02) -> None:
    """In a running event loop: look at ``condition`` every ``poll`` seconds until it holds."""
    loop = asyncio.get_running_loop()
    ceiling = loop.time() + HANG_SECONDS
    while not condition():
        if loop.time() > ceiling:
            raise hung(what)
        await asyncio.sleep(poll)


def wait_until(condition: Callable[[], bool], what: str, poll: float = 0.05) -> None:
    """Outside an event loop: look at ``condition`` every ``poll`` seconds until it holds."""
    ceiling = time.monotonic() + HANG_SECONDS
    while not condition():
        if time.monotonic() > ceiling:
            raise hung(what)
        time.sleep(poll)


def wait_for_exit(pid: int, what: str) -> None:
    """Until the process ``pid`` (not necessarily our child) has ended: woken by the kernel when it does (a pidfd
    becomes readable), not by looking again and again."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return  # already gone
    try:
        ready, _, _ = select.select([handle], [], [], HANG_SECONDS)
        if not ready:
            raise hung(what)
    finally:
        os.close(handle)


@contextlib.contextmanager
def released(*gates: threading.Event) -> Iterator[None]:
    """Opens ``gates`` when the block ends, however it ends: a test that holds a worker at a gate and fails before
    opening it must not leave that worker waiting (the event loop's shutdown would wait for it until the ceiling)."""
    try:
        yield
    finally:
        for gate in gates:
            gate.set()
