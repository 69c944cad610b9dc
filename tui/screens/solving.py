"""Solving in the background for a game screen: one worker thread per solve, progress as messages, cancel.

A screen owns a ``BackgroundSolve`` per kind of solve (its ``group``); ``start(key, work)`` runs ``work(progress)``
in a worker thread, where ``progress(done, total, words)`` posts a ``SolveProgress`` to the screen and, once the
solve has been cancelled (or replaced by a newer one), raises ``SolveCancelledError`` inside the thread: a thread cannot
be stopped from outside, so a solve stops itself at its next report. The result comes back as ``SolveDone``, an
exception as ``SolveFailed`` (shown by the screen, never a silent "Solving..." for ever). Every message carries the
group and the key (what was being solved): a screen handles only the answer to the solve it still wants
(``wants``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from textual.css.query import NoMatches
from textual.message import Message
from textual.worker import get_current_worker

from tui.screens.base import NashplayScreen
from tui.widgets.solve_bar import SolveBar

__all__ = [
    "COMPILING",
    "BackgroundSolve",
    "Progress",
    "SolveCancelledError",
    "SolveDone",
    "SolveFailed",
    "SolveProgress",
    "compiling_words",
    "kept_in_text",
]

ResultT = TypeVar("ResultT")
#: What a solve is told to report with: done and total (in the solve's own units; total 0 when the end is not
#: known), a few words, and anything the screen wants to show its own way (TCG's Bellman residual).
Progress = Callable[..., None]

#: The ``extra`` of a report made while the solver's compiled kernels compile, before the solve itself
#: (``solvers.kernels_ready``).
COMPILING = "compiling"


def kept_in_text() -> str:
    """Where a solved table is kept (solved once per machine, read from there afterwards), for a screen to say while
    it solves: the folder on a line of its own, never broken (it may be copied), the home folder written ``~``."""
    from pathlib import Path

    from solvers.cache_folder import cache_dir

    folder, home = str(cache_dir()), str(Path.home())
    if folder == home or folder.startswith(home + "/"):
        folder = "~" + folder[len(home) :]
    return f"Solved once, then read from:\n{folder}"


def compiling_words(what: str, share: float, seconds: float) -> tuple[int, int, str, str]:
    """A report's arguments (done, total, words, extra) while the solver compiles: the share compiled, and the time
    left from the time it has taken."""
    from solvers.kernels_ready import time_left_words

    words = f"{what}: compiling the solver once, {share:.0%}{time_left_words(share, seconds)}"
    return round(1000 * share), 1000, words, COMPILING


class SolveCancelledError(Exception):
    """Raised inside a solve that is no longer wanted (cancelled, or replaced by another)."""


class _SolveMessage(Message):
    def __init__(self, group: str, key: object) -> None:
        super().__init__()
        self.group = group
        self.key = key


class SolveProgress(_SolveMessage):
    def __init__(self, group: str, key: object, done: int, total: int, words: str, extra: object = None) -> None:
        super().__init__(group, key)
        self.done, self.total, self.words, self.extra = done, total, words, extra


class SolveDone(_SolveMessage):
    def __init__(self, group: str, key: object, result: Any) -> None:
        super().__init__(group, key)
        self.result = result


class SolveFailed(_SolveMessage):
    def __init__(self, group: str, key: object, error: str) -> None:
        super().__init__(group, key)
        self.error = error


class BackgroundSolve(Generic[ResultT]):
    """The solves of one kind (``group``) for ``screen``: at most one running; the newest is the one wanted. Its
    progress shows on the screen's ``SolveBar`` of id ``bar`` (begun, moved and ended here)."""

    def __init__(self, screen: NashplayScreen, group: str, bar: str) -> None:
        self.screen = screen
        self.group = group
        self.bar = bar
        #: What the solve still wanted is solving (``None``: none runs, or it was cancelled).
        self.key: object | None = None

    def _bar(self) -> SolveBar:
        return self.screen.query_one(f"#{self.bar}", SolveBar)

    @property
    def running(self) -> bool:
        return self.key is not None

    def wants(self, message: _SolveMessage) -> bool:
        """Whether ``message`` answers the solve still wanted (older and cancelled ones are dropped)."""
        return message.group == self.group and self.key is not None and message.key == self.key

    def start(self, key: object, work: Callable[[Progress], ResultT], words: str) -> None:
        """Solve ``work`` for ``key`` in a worker thread (a solve already running for another key stops itself);
        ``words`` say what is solved until its first report."""
        self.key = key
        self._bar().begin(words)
        screen, group = self.screen, self.group

        def run() -> None:
            worker = get_current_worker()

            def progress(done: int, total: int, words: str = "", extra: object = None) -> None:
                if worker.is_cancelled:
                    raise SolveCancelledError
                screen.post_message(SolveProgress(group, key, done, total, words, extra))

            try:
                result = work(progress)
            except SolveCancelledError:
                return
            except Exception as error:  # shown by the screen: never a silent "Solving..." for ever
                screen.post_message(SolveFailed(group, key, f"{type(error).__name__}: {error}"))
                return
            screen.post_message(SolveDone(group, key, result))

        screen.run_worker(run, thread=True, group=group, exclusive=True, exit_on_error=False, name=f"{group} {key}")

    def advance(self, event: SolveProgress, words: str | None = None) -> None:
        """Show the wanted solve's progress on the bar (``words``: instead of the solve's own)."""
        self._bar().advance(event.done, event.total, event.words if words is None else words)

    def finished(self) -> None:
        """The wanted solve's answer has been taken: nothing runs any more."""
        self.key = None
        self._bar().end()

    def cancel(self) -> object | None:
        """Stop the wanted solve (at its next report); what it was solving, or ``None`` when nothing ran."""
        cancelled, self.key = self.key, None
        if cancelled is not None:
            self.screen.workers.cancel_group(self.screen, self.group)
            with contextlib.suppress(NoMatches):  # a screen going away has no bar left to end
                self._bar().end()
        return cancelled
