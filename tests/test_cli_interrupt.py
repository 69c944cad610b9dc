"""Ctrl-C in every command (issues 15 and 16): a command at work, at its prompt or still loading ends at once with
exit code 130 and one line, ``nashplay: interrupted``, never a traceback; an arena match keeps the records it has
written and leaves no worker playing."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from interrupt import interrupt_when
from waiting import HANG_SECONDS, wait_for_exit, wait_until

import tui.cli
from core.record import Record

VENV_BIN = Path(sys.executable).parent
NASHPLAY = VENV_BIN / "nashplay"


# --------------------------------------------------------------------------------------------------- Ctrl-C


class Terminal:
    """A command run as from a terminal: its own session and process group, stdin/stdout/stderr a pseudo-terminal
    (so progress lines show), and ``interrupt`` sends SIGINT to the whole group, as Ctrl-C does."""

    def __init__(self, argv: list[str]) -> None:
        master, slave = pty.openpty()
        self.master = master
        self.output = b""
        self.process = subprocess.Popen(
            [str(NASHPLAY), *argv], stdin=slave, stdout=slave, stderr=slave, start_new_session=True
        )
        os.close(slave)

    def read(self, wait: float) -> None:
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready:
            with contextlib.suppress(OSError):  # the other end closed: the process ended
                self.output += os.read(self.master, 65536)

    def wait_for(self, started: Callable[[], bool]) -> None:
        """Read the terminal until ``started()`` (the command is at work), failing if it ends first."""

        def at_work() -> bool:
            assert self.process.poll() is None, self.text()
            self.read(0.2)
            return started()

        wait_until(at_work, f"the command never started its work: {self.text()}", poll=0)

    def interrupt(self, group: bool = True) -> None:
        """Send SIGINT (to the group, or to the command alone) and wait for the command to end."""
        if group:
            os.killpg(self.process.pid, signal.SIGINT)
        else:
            self.process.send_signal(signal.SIGINT)

        def ended() -> bool:
            self.read(0.1)
            return self.process.poll() is not None

        wait_until(ended, "the interrupted command never ended", poll=0)

    def read_to_end(self) -> None:
        """Read what was written to the terminal to its last byte, once every process that had it has ended: the
        terminal then says end of file after the last of it (which may reach us a moment after its writer ended)."""
        while True:
            ready, _, _ = select.select([self.master], [], [], HANG_SECONDS)
            if not ready:
                raise AssertionError(f"the terminal never closed: {self.text()}")
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # end of file: no process holds the terminal any more
                return
            if not chunk:
                return
            self.output += chunk

    def text(self) -> str:
        return self.output.decode(errors="replace")

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.master)


def live_processes_in_group(group: int) -> list[int]:
    """The processes of a process group that still run (zombies waiting for their reaper do not count)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (name) state ppid pgrp ...": the name may hold spaces and parentheses, so split after its last ")".
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == group and fields[0] != "Z":
            pids.append(int(entry.name))
    return pids


def assert_ended_cleanly(terminal: Terminal) -> None:
    text = terminal.text()
    assert terminal.process.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert "nashplay: interrupted" in text, text


needs_the_command = pytest.mark.skipif(not NASHPLAY.exists(), reason="nashplay is not installed")


@needs_the_command
@pytest.mark.parametrize(
    ("argv", "marker", "finished"),
    [
        # Waiting at its prompt: no work to finish.
        (["play", "tcg", "--advisor"], b"opponent played>", None),
        (["solve", "tcg", "--n", "200", "--no-cache"], b"solving: ", b"solved in"),
        (["learn", "footstep", "--games", "100000", "--runs", "1"], b"learning: reward", b"vs random (exact)"),
    ],
    ids=["tcg-prompt", "solve-tcg", "learn-footstep"],
)
def test_ctrl_c_ends_a_command_at_work_with_130_and_no_traceback(
    argv: list[str], marker: bytes, finished: bytes | None
) -> None:
    """At once means before its work is done, whatever the machine's speed: the command's result (what it prints
    once it has finished) never shows."""
    terminal = Terminal(argv)
    try:
        terminal.wait_for(lambda: marker in terminal.output)
        terminal.interrupt()
        terminal.read_to_end()
    finally:
        terminal.close()
    assert_ended_cleanly(terminal)
    assert finished is None or finished not in terminal.output, terminal.text()


@needs_the_command
@pytest.mark.skipif(not Path("/proc/self/task").exists() or sys.platform != "linux", reason="Linux's tgkill")
def test_ctrl_c_ends_the_tcg_prompt_even_when_another_thread_receives_it() -> None:
    """The kernel hands a process's SIGINT to any of its threads that does not block it (numpy's BLAS starts some).
    Then Python's handler only marks it, and a main thread blocked reading the terminal never looked: the prompt
    ignored Ctrl-C for good (a CI run hung on it). Here the signal goes to a thread other than the main one on
    purpose (tgkill), every time."""
    import ctypes

    terminal = Terminal(["play", "tcg", "--advisor"])
    try:
        terminal.wait_for(lambda: b"opponent played>" in terminal.output)
        pid = terminal.process.pid
        others = [int(task) for task in os.listdir(f"/proc/{pid}/task") if int(task) != pid]
        assert others, "the prompt runs no other thread: this test would test nothing"
        libc = ctypes.CDLL(None, use_errno=True)
        tgkill = 234  # x86_64's syscall number; see below for others
        if os.uname().machine in ("aarch64", "arm64"):
            tgkill = 131
        assert libc.syscall(tgkill, pid, others[0], signal.SIGINT) == 0, ctypes.get_errno()

        def ended() -> bool:
            terminal.read(0.1)
            return terminal.process.poll() is not None

        wait_until(ended, "the prompt never heard the Ctrl-C another thread received", poll=0)
        terminal.read_to_end()
    finally:
        terminal.close()
    assert_ended_cleanly(terminal)


@needs_the_command
@pytest.mark.parametrize("group", [True, False], ids=["ctrl-c", "kill-int"])
def test_ctrl_c_ends_an_arena_match_at_once_and_keeps_its_records(group: bool, tmp_path: Path) -> None:
    """Ctrl-C reaches the workers too (the terminal signals the whole group); ``kill -INT`` only the command. Either
    way the match ends at once (it hung until every game had been played), the records written stay, and no worker
    goes on playing (or writing) after the command has ended."""
    folder = tmp_path / "records"
    argv = ["arena", "geister", "--players", "mc,chototsu", "--games", "400", "--time", "0.02", "--save", str(folder)]
    terminal = Terminal(argv)
    try:
        terminal.wait_for(lambda: folder.is_dir() and any(folder.glob("game-*.ngr")))
        terminal.interrupt(group)
        written = sorted(folder.glob("game-*.ngr"))
        # Every worker ends (the wait is woken by the kernel when it does), and none wrote a record after the command
        # had ended: one that went on playing would hang here or add records.
        for pid in live_processes_in_group(terminal.process.pid):
            wait_for_exit(pid, "a worker outlived the command")
        assert sorted(folder.glob("game-*.ngr")) == written, "a worker went on writing records"
        terminal.read_to_end()
    finally:
        terminal.close()
        for pid in live_processes_in_group(terminal.process.pid):
            os.kill(pid, signal.SIGKILL)
    assert_ended_cleanly(terminal)
    records = sorted(folder.glob("game-*.ngr"))
    # At once: long before the 400 games were played, however fast the machine.
    assert records and len(records) < 400
    for path in records:
        Record.load(path).replay()  # whole records, each of them


CHILD_INTERRUPTED_WHILE_LOADING = """
import importlib.abc, signal, sys

class Interrupt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "tui.cli.connect":  # one of the command modules tui.cli loads
            signal.raise_signal(signal.SIGINT)
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["nashplay", "list"]
from tui.cli import run  # what the nashplay script does
sys.exit(run())
"""


def test_ctrl_c_while_the_command_loads_exits_130_without_a_traceback() -> None:
    """The interrupt arrives while ``tui.cli`` imports its commands, before ``run`` can catch anything (a Ctrl-C in
    the first half second of any command)."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD_INTERRUPTED_WHILE_LOADING], capture_output=True, text=True, timeout=HANG_SECONDS
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr == "nashplay: interrupted\n"


def test_loading_the_commands_leaves_the_interrupt_handler_as_it_was() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import signal, tui.cli; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)",
        ],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert done.stdout == "True\n", done.stderr


# --------------------------------------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_ends_a_command_with_one_line_and_code_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr("solvers.tcg.TcgSolution.load", interrupted)
    monkeypatch.setattr(sys, "argv", ["nashplay", "solve", "tcg", "--n", "200", "--no-cache"])
    assert tui.cli.run() == 130
    assert capsys.readouterr().err == "nashplay: interrupted\n"


def test_sigint_during_a_tcg_solve_exits_130_without_a_traceback() -> None:
    """The real thing: a solve of n = 200 (a second or two now) stopped by SIGINT in the middle of solving. Its stderr
    is a terminal, so it shows its progress line once solving has begun: the interrupt is sent only then (an interrupt
    during the imports would be another case), whatever the machine's load."""
    result = interrupt_when(["solve", "tcg", "--n", "200", "--no-cache"], b"solving: ")
    assert result.returncode == 130, result.err
    assert "nashplay: interrupted" in result.err and "Traceback" not in result.err
    assert result.out == ""
