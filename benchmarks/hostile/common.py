"""What every family of hostile cases shares: the outcome of a case, running a real ``nashplay`` command (with a
ceiling only a hang reaches, its peak memory measured), running the app on a terminal of its own, and the checks
the cases judge by (one-line refusals, control characters, files written where they should not be)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import io
import os
import pty
import re
import select
import selectors
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
BENCHMARKS = ROOT / "benchmarks"
for _folder in (ROOT, TESTS, BENCHMARKS):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

#: The installed command, beside this Python (the project's virtual environment).
NASHPLAY = Path(sys.executable).parent / "nashplay"
#: Seconds a command may take before it counts as a hang (the slowest sound one takes about one).
COMMAND_TIMEOUT = 20.0
#: The longest one-line refusal, as the tests bound it.
MESSAGE_LIMIT = 400

CLEAN, CRASH, LOST, LEAKED = "clean", "crash", "lost", "leaked"
KINDS = (CLEAN, CRASH, LOST, LEAKED)


@dataclass
class Outcome:
    """How one case ended: ``kind`` is one of ``KINDS``; ``detail`` says what was seen (for a failure: what went
    wrong, precisely enough to reproduce it); ``figures`` are numbers the report sums up (sizes, seconds)."""

    kind: str
    detail: str = ""
    figures: dict[str, float] = field(default_factory=dict)


def clean(detail: str = "", **figures: float) -> Outcome:
    return Outcome(CLEAN, detail, dict(figures))


def crash(detail: str, **figures: float) -> Outcome:
    return Outcome(CRASH, detail, dict(figures))


def lost(detail: str, **figures: float) -> Outcome:
    return Outcome(LOST, detail, dict(figures))


def leaked(detail: str, **figures: float) -> Outcome:
    return Outcome(LEAKED, detail, dict(figures))


def worst(*outcomes: Outcome) -> Outcome:
    """The first outcome that is not clean (a case that checks several things fails by its first failure)."""
    for outcome in outcomes:
        if outcome.kind != CLEAN:
            return outcome
    return outcomes[-1] if outcomes else clean()


def short(text: str | bytes, room: int = 160) -> str:
    """``text`` on one line, cut to ``room`` characters, control characters shown escaped: for details."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    shown = text.encode("unicode_escape").decode("ascii")
    return shown if len(shown) <= room else shown[: room - 3] + "..."


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


# ------------------------------------------------------------------------------------------------ commands


@dataclass
class Ran:
    """A command that ran: its exit code (``None``: it hung and was killed), what it wrote, how long it took and
    its peak memory (kB)."""

    argv: list[str]
    returncode: int | None
    out: str
    err: str
    seconds: float
    max_rss_kb: int = 0

    @property
    def hung(self) -> bool:
        return self.returncode is None

    @property
    def shown(self) -> str:
        """The command line, as a user would type it (for details)."""
        words = [str(Path(a).name) if a == str(NASHPLAY) else a for a in self.argv]
        return short(" ".join(words), 200)


def _reap(pid: int, deadline: float) -> tuple[int | None, int]:
    """Wait for ``pid`` until ``deadline`` (monotonic): (exit code, peak memory in kB); ``None``: still running."""
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done == pid:
            return os.waitstatus_to_exitcode(status), int(usage.ru_maxrss)
        if time.monotonic() >= deadline:
            return None, 0
        time.sleep(0.01)


def _kill(process: subprocess.Popen[bytes]) -> int:
    """SIGKILL ``process`` and reap it (a hang); its peak memory."""
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return int(usage.ru_maxrss)


#: Output kept of a command (the rest is read and counted, not kept): a hostile record must not fill the harness.
KEEP_OUTPUT = 8 * 1024 * 1024


def run_command(
    argv: list[str],
    *,
    timeout: float = COMMAND_TIMEOUT,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    after_start: Callable[[subprocess.Popen[bytes]], None] | None = None,
) -> Ran:
    """Run ``argv`` (stdin: nothing), collect its output, and kill it if it has not ended after ``timeout``
    seconds."""
    start = time.monotonic()
    deadline = start + timeout
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    if after_start is not None:
        after_start(process)
    assert process.stdout is not None and process.stderr is not None
    out_fd, err_fd = process.stdout.fileno(), process.stderr.fileno()
    chunks: dict[int, list[bytes]] = {out_fd: [], err_fd: []}
    kept = dict.fromkeys(chunks, 0)
    selector = selectors.DefaultSelector()
    for stream in (process.stdout, process.stderr):
        os.set_blocking(stream.fileno(), False)
        selector.register(stream.fileno(), selectors.EVENT_READ)
    code: int | None = None
    rss = 0
    exited_at: float | None = None
    try:
        while selector.get_map():
            now = time.monotonic()
            if now >= deadline:
                break
            if exited_at is not None and now - exited_at > 2.0:
                break  # ended, but something it started still holds its output open
            for key, _ in selector.select(timeout=0.05):
                fd = int(key.fd)
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not data:
                    selector.unregister(fd)
                    continue
                if kept[fd] < KEEP_OUTPUT:
                    chunks[fd].append(data)
                    kept[fd] += len(data)
            if exited_at is None:
                done, status, usage = os.wait4(process.pid, os.WNOHANG)
                if done == process.pid:
                    code, rss = os.waitstatus_to_exitcode(status), int(usage.ru_maxrss)
                    process.returncode = code
                    exited_at = time.monotonic()
        if exited_at is None:
            code, rss = _reap(process.pid, deadline)
            if code is None:
                rss = _kill(process)
            else:
                process.returncode = code
    finally:
        selector.close()
        process.stdout.close()
        process.stderr.close()
    out, err = b"".join(chunks[out_fd]), b"".join(chunks[err_fd])
    return Ran(
        argv, code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - start, rss
    )


def nashplay(*args: str, timeout: float = COMMAND_TIMEOUT, cwd: Path | None = None) -> Ran:
    """``nashplay args`` in the case's environment (its state and cache folders)."""
    return run_command([str(NASHPLAY), *args], timeout=timeout, env=dict(os.environ), cwd=cwd)


def is_refusal(ran: Ran, code: int = 2) -> bool:
    """Refused as every command refuses: exit code 2, nothing on stdout, one short line on stderr, no traceback."""
    err = ran.err
    return (
        ran.returncode == code
        and ran.out == ""
        and err.count("\n") == 1
        and err.endswith("\n")
        and len(err) < MESSAGE_LIMIT + 200
        and "Traceback" not in err
    )


def judge_command(ran: Ran, *, handled: bool = True, escapes: bool = True) -> Outcome:
    """Clean: refused in one line, or (``handled``) done (exit 0, no traceback); with ``escapes``, nothing it wrote
    holds a control character. Else a crash (a hang included), said precisely."""
    figures = {"seconds": ran.seconds, "max_rss_mb": ran.max_rss_kb / 1024}
    if ran.hung:
        return crash(f"{ran.shown}: no answer in {ran.seconds:.0f} s (killed)", **figures)
    if escapes and (found := control_characters(ran.out + ran.err)):
        return crash(f"{ran.shown}: wrote control characters {found!r}", **figures)
    if is_refusal(ran):
        return clean("refused: " + short(ran.err.strip(), 120), **figures)
    if handled and ran.returncode == 0 and "Traceback" not in ran.err + ran.out:
        return clean("done", **figures)
    what = "a traceback" if "Traceback" in ran.err + ran.out else f"exit {ran.returncode}"
    lines = ran.err.strip().count("\n") + 1 if ran.err.strip() else 0
    return crash(
        f"{ran.shown}: {what}, {lines} lines on stderr: {short(last_line(ran.err) or ran.out, 200)}", **figures
    )


def control_characters(text: str) -> list[str]:
    """The control characters in ``text`` but the line breaks output is made of (a terminal acts on the others)."""
    return sorted({c for c in text if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) < 0xA0})


# ------------------------------------------------------------------------------------------------ the app on a terminal


class Terminal:
    """A command on a pseudo-terminal of its own (the app needs one), its output read as it comes."""

    def __init__(
        self, argv: list[str], *, env: dict[str, str], cwd: Path | None = None, size: tuple[int, int] = (100, 32)
    ):
        self.argv = argv
        self.start = time.monotonic()
        self.master, slave = pty.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env={**env, "TERM": "xterm-256color"}, cwd=cwd
        )
        os.close(slave)
        self.output = bytearray()
        self.returncode: int | None = None
        self.max_rss_kb = 0
        self.closed = False

    @property
    def text(self) -> str:
        return self.output.decode("utf-8", "replace")

    def pump(self, seconds: float) -> None:
        """Read what comes for ``seconds`` (so that the app is never held up writing to its terminal)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(min(left, 0.05)):
                if left <= 0:
                    return
                if self.closed:
                    time.sleep(min(left, 0.05))

    def _read(self, wait: float) -> bool:
        """One read; False when nothing came (or the terminal is closed)."""
        if self.closed:
            self._poll()
            return False
        ready, _, _ = select.select([self.master], [], [], wait)
        if not ready:
            self._poll()
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # every process holding the other end has gone
            data = b""
        if not data:
            self.closed = True
            self._poll()
            return False
        if len(self.output) < KEEP_OUTPUT:
            self.output += data
        return True

    def _poll(self) -> None:
        if self.returncode is None:
            done, status, usage = os.wait4(self.process.pid, os.WNOHANG)
            if done == self.process.pid:
                self.returncode = os.waitstatus_to_exitcode(status)
                self.process.returncode = self.returncode
                self.max_rss_kb = int(usage.ru_maxrss)

    def wait_for(self, condition: Callable[[], bool], seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() >= deadline or (self.returncode is not None and self.closed):
                return condition()
            self._read(0.05)
        return True

    def drawn(self, seconds: float, quiet: float = 0.4) -> bool:
        """Until the app has drawn its first screen (output, then ``quiet`` seconds without more); False: it never
        did (it ended, or said nothing in time)."""
        deadline = time.monotonic() + seconds
        if not self.wait_for(lambda: len(self.output) > 200, seconds):
            return False
        while time.monotonic() < deadline:
            before = len(self.output)
            self.pump(quiet)
            if len(self.output) == before:
                return self.returncode is None
        return False

    def send(self, keys: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.master, keys)

    def wait_exit(self, seconds: float) -> bool:
        """Whether the command ends within ``seconds`` (its output read meanwhile)."""
        deadline = time.monotonic() + seconds
        while self.returncode is None and time.monotonic() < deadline:
            self._read(0.05)
            self._poll()
        return self.returncode is not None

    def kill(self) -> None:
        """SIGKILL (no handler runs), then reap."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
            _, status, usage = os.wait4(self.process.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
            self.process.returncode = self.returncode
            self.max_rss_kb = int(usage.ru_maxrss)

    def close(self) -> None:
        self.kill()
        with contextlib.suppress(OSError):
            os.close(self.master)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.start

    @property
    def shown(self) -> str:
        words = [Path(a).name if a == str(NASHPLAY) else a for a in self.argv]
        return short(" ".join(words), 200)


def on_terminal(*args: str, cwd: Path | None = None) -> Terminal:
    return Terminal([str(NASHPLAY), *args], env=dict(os.environ), cwd=cwd)


def quit_viewer(terminal: Terminal, keys: bytes = b"q") -> Outcome:
    """The app drew its screen: quit it and judge how it ended (exit 0, no traceback, in time)."""
    figures = {"seconds": terminal.seconds}
    terminal.send(keys)
    if not terminal.wait_exit(10.0):
        terminal.send(b"\x11")  # ctrl+q
        if not terminal.wait_exit(5.0):
            return crash(f"{terminal.shown}: the app did not end on {keys!r} (killed)", **figures)
    figures["max_rss_mb"] = terminal.max_rss_kb / 1024
    if terminal.returncode != 0 or "Traceback" in terminal.text:
        return crash(f"{terminal.shown}: the app ended with exit {terminal.returncode}: {tail(terminal)}", **figures)
    return clean("the app opened and quit", **figures)


def tail(terminal: Terminal) -> str:
    """The end of what the app wrote, without its escapes (for details)."""
    plain = re.sub(r"\x1b\[[0-9;?<>=$]*[A-Za-z~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b.", "", terminal.text)
    return short(" ".join(plain.split())[-300:], 300)


# ------------------------------------------------------------------------------------------------ files


Entry = tuple[str, int, int]


def snapshot(root: Path, skip: tuple[Path, ...] = ()) -> dict[str, Entry]:
    """Every entry under ``root`` (not following links) but the folders ``skip``: its kind, size and time."""
    found: dict[str, Entry] = {}
    skipped = {str(path) for path in skip}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if os.path.join(folder, d) not in skipped]
        for name in dirs + files:
            path = os.path.join(folder, name)
            with contextlib.suppress(OSError):
                info = os.lstat(path)
                kind = "l" if os.path.islink(path) else ("d" if os.path.isdir(path) else "f")
                found[path] = (kind, info.st_size if kind == "f" else 0, info.st_mtime_ns if kind == "f" else 0)
    return found


def changed(before: dict[str, Entry], after: dict[str, Entry]) -> list[str]:
    """Paths made or changed between two snapshots."""
    return sorted(path for path, entry in after.items() if before.get(path) != entry)


def nim_text(tags: str, moves: str = "*") -> str:
    """A Nim record's text with these tag lines (after its ``Game`` tag) and move text."""
    return f'[Game "nim"]\n{tags}\n\n{moves}\n'


# ------------------------------------------------------------------------------------------------ in this process


def wait_on_the_app() -> None:
    """The pilot waits for the app itself, as the tests do (``tests/conftest.py``): until every message pump of the
    app is at rest, rather than until the process looks idle to the clock (which a loaded machine fools)."""
    import importlib

    try:
        conftest: Any = importlib.import_module("conftest")
    except ImportError:  # no pytest here: Textual's own wait
        return
    import textual._wait
    import textual.app
    import textual.pilot

    conftest._TEXTUAL_WAIT_FOR_IDLE = textual._wait.wait_for_idle
    for module in (textual.pilot, textual.app):  # both import the function by name
        setattr(module, "wait_for_idle", conftest._app_idle)  # noqa: B010 - not exported: set by name
    conftest._count_dispatches()


@contextlib.contextmanager
def captured() -> Iterator[io.StringIO]:
    """What this process prints meanwhile (Python-level ``sys.stdout`` and ``sys.stderr``), kept."""
    kept = io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = kept
    try:
        yield kept
    finally:
        sys.stdout, sys.stderr = saved


async def until(pilot: Any, condition: Callable[[], bool], seconds: float) -> bool:
    """Let the app run until ``condition`` holds (True) or ``seconds`` pass (False)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        if loop.time() > deadline:
            return condition()
        await pilot.pause(0.02)
    return True


def write_text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    return path
