"""Interrupting a real ``nashplay`` command in the middle of its work, for the Ctrl-C tests: its stderr is a
terminal (so it shows its progress line), and SIGINT is sent only once a given text has appeared there, whatever the
machine's load."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from waiting import HANG_SECONDS

NASHPLAY = Path(sys.executable).parent / "nashplay"


@dataclass(frozen=True)
class Interrupted:
    returncode: int
    #: Everything the command wrote to its terminal (stderr).
    err: str
    out: str


def read_until(master: int, marker: bytes, process: subprocess.Popen[str]) -> bytes:
    """What the process wrote to its terminal, up to and including ``marker`` (or all of it, if it ends first)."""
    seen = b""
    while marker not in seen:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the other end closed: the process ended
                break
            seen += chunk
        elif process.poll() is not None:
            break
    return seen


def interrupt_when(args: list[str], marker: bytes) -> Interrupted:
    """Run ``nashplay *args``, send SIGINT once ``marker`` shows on its terminal, and wait for it to end."""
    if not NASHPLAY.exists():
        pytest.skip("nashplay is not installed")
    master, slave = pty.openpty()
    process = subprocess.Popen([str(NASHPLAY), *args], stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    try:
        shown = read_until(master, marker, process)
        assert marker in shown, shown
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=HANG_SECONDS)
        err = (shown + read_until(master, b"interrupted", process)).decode(errors="replace")
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        os.close(master)
    return Interrupted(process.returncode, err, out)
