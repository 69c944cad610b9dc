"""Where the engine's compiled code is kept, whether it is there yet, and how far its compilation has got (no numba).

The engine is compiled by numba the first time it is used on a machine (about 8-10 s on 2 cores: the kernels, then
the search), and loaded from a disk cache afterwards (under a second). This module knows that cache without importing
numba, so the app can ask at start-up whether the engine is compiled, and start compiling it in the background when
it is not (``tui.engine_compile``), long before the first advice needs it:

* **the folder**: ``$NUMBA_CACHE_DIR`` if set, else ``<nashplay cache dir>/numba`` (``solvers.cache.cache_dir``), with a
  sub-folder keyed on the engine's sources (``COMPILED_SOURCES``: constants are frozen into the machine code, and
  numba's own cache key covers only a function's own file);
* **done**: a ``compiled`` marker written there once every kernel and the search are compiled and cached;
* **one compiler at a time**: ``compiling()`` holds an exclusive lock on the folder while a process compiles; another
  process that needs the engine meanwhile (the advice's process, a second app) waits for it, then loads what it
  cached, instead of compiling the same code again on the other core;
* **progress**: the compiling process writes the share done and when it started to ``progress.json``, which the
  app's advice panel reads to say how far the compilation is and about how long is left.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from solvers.cache_folder import numba_cache_dir

try:  # POSIX: the compile lock; elsewhere two processes may compile at once (as numba allows: the same result)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: The engine's sources whose constants or code end up in the compiled kernels: numba keys a function's cache entry
#: on its own file only, and links the machine code of the kernels it calls (and the globals it reads) into it, so a
#: change to any of these must start a fresh cache folder.
COMPILED_SOURCES = ("layout.py", "tables.py", "context.py", "kernel.py", "evaluation.py", "search.py")

#: Written in the folder once everything the search needs is compiled and cached.
COMPILED_MARKER = "compiled"
#: The compiling process's progress: ``{"share": 0..1, "started": epoch seconds, "pid": ...}``.
PROGRESS_FILE = "progress.json"
LOCK_FILE = "compile.lock"

#: Seconds the search takes to compile from an empty cache (with the kernels it calls), measured on 2 cores: 5.9 s
#: idle. The share shown moves with the time taken against it (the compilation is one call that says nothing until
#: it ends), and the time left comes from the share.
SEARCH_COMPILE_SECONDS = 6.0


@functools.cache
def source_key() -> str:
    here = Path(__file__).resolve().parent
    sha = hashlib.sha256()
    for name in COMPILED_SOURCES:
        try:
            sha.update((here / name).read_bytes())
        except OSError:  # pragma: no cover - an installation without sources: numba cannot cache it anyway
            sha.update(name.encode())
    return sha.hexdigest()[:16]


def engine_folder() -> Path:
    """The folder the compiled engine of these sources is cached in (not created here)."""
    return numba_cache_dir() / f"geister_engine-{source_key()}"


def is_compiled(folder: Path | None = None) -> bool:
    """Whether the engine is compiled and cached (a load, not a compilation, is all a search will need)."""
    return ((folder or engine_folder()) / COMPILED_MARKER).exists()


def mark_compiled(folder: Path) -> None:
    with contextlib.suppress(OSError):  # a cache that cannot take the marker only compiles again next time
        (folder / COMPILED_MARKER).write_text("compiled\n")
        (folder / PROGRESS_FILE).unlink(missing_ok=True)


#: How deep this process is in ``compiling()``: a warm-up called from inside another takes no second lock (a second
#: ``flock`` on the same file from this process would wait for itself).
_held: list[int] = []


@contextlib.contextmanager
def compiling(folder: Path | None) -> Iterator[None]:
    """Hold the folder's compile lock (waiting for another process that holds it): inside, this process is the only
    one compiling into ``folder``. Re-entrant within a process; a folder that cannot be locked is compiled into
    unlocked, as numba allows."""
    if folder is None or fcntl is None or _held:
        _held.append(0)
        try:
            yield
        finally:
            _held.pop()
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        descriptor = -1
    try:
        if descriptor >= 0:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        _held.append(descriptor)
        yield
    finally:
        _held.pop()
        if descriptor >= 0:
            os.close(descriptor)  # closing releases the lock


def report_progress(
    folder: Path | None, share: float, started: float, step_to: float | None = None, step_seconds: float | None = None
) -> None:
    """Tell the app how far this process's compilation is: ``share`` of it done, begun at ``started``; and, for a step
    that says nothing until it ends (the search is one function, compiled in one call of several seconds), the share
    it ends at and the seconds it is expected to take, for the reader to move the share along meanwhile."""
    if folder is None:
        return
    said: dict[str, float] = {"share": round(share, 4), "started": started, "pid": os.getpid(), "at": time.time()}
    if step_to is not None and step_seconds is not None:
        said |= {"step_to": step_to, "step_seconds": step_seconds}
    temporary = folder / f".{PROGRESS_FILE}.{os.getpid()}"
    with contextlib.suppress(OSError):
        temporary.write_text(json.dumps(said))
        os.replace(temporary, folder / PROGRESS_FILE)


@dataclass(frozen=True)
class CompileProgress:
    """A compilation under way in some process: the share done, and the seconds left (estimated from the time the
    share done took; ``None`` before anything is done)."""

    share: float
    left: float | None

    def text(self) -> str:
        left = "" if self.left is None else f", about {max(1, round(self.left))} s left"
        return f"{self.share:.0%}{left}"


def compile_progress(folder: Path | None = None, now: float | None = None) -> CompileProgress | None:
    """The compilation under way into ``folder`` (default: the engine's), or ``None`` when none is (nothing to
    compile, or the compiling process has gone)."""
    folder = folder or engine_folder()
    if is_compiled(folder):
        return None
    try:
        said = json.loads((folder / PROGRESS_FILE).read_text())
        share, started, pid, at = float(said["share"]), float(said["started"]), int(said["pid"]), float(said["at"])
        step_to, step_seconds = float(said.get("step_to", share)), float(said.get("step_seconds", 0.0))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not _alive(pid):
        return None
    now = time.time() if now is None else now
    if step_seconds > 0 and step_to > share:
        # Inside a long step: moved along by the time it has taken against the time it is expected to take, never
        # past nine tenths of the step (the estimate may be short).
        share += (step_to - share) * min(0.9, max(0.0, now - at) / step_seconds)
    elapsed = max(0.0, now - started)
    share = min(max(share, 0.0), 0.99)
    left = elapsed * (1 - share) / share if share > 0 else None
    return CompileProgress(share, left)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it exists
        return True
    return True
