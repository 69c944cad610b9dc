"""A solve's progress as a bar that moves, with what it is doing in words and how to cancel it.

It stays hidden for the first half second of a solve (``SHOW_AFTER``): a solve that ends sooner never flashes a bar.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Label, ProgressBar

#: Seconds a solve runs before its bar shows.
SHOW_AFTER = 0.5


class SolveBar(Horizontal):
    DEFAULT_CSS = """
    SolveBar { height: 1; display: none; margin: 0 1; }
    SolveBar > Label { width: auto; padding-right: 1; }
    SolveBar > ProgressBar { width: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._timer: Timer | None = None
        self.active = False

    def compose(self) -> ComposeResult:
        yield Label("Solving", id="solve-words")
        yield ProgressBar(total=None, show_eta=False, id="solve-progress")

    def begin(self, words: str) -> None:
        """A solve starts: the bar shows in half a second if it is still running then."""
        self.active = True
        self.query_one("#solve-words", Label).update(words)
        self.query_one(ProgressBar).update(total=None, progress=0)
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(SHOW_AFTER, self._reveal)

    def _reveal(self) -> None:
        if self.active:
            self.display = True

    def advance(self, done: int, total: int, words: str) -> None:
        bar = self.query_one(ProgressBar)
        if total > 0:
            bar.update(total=total, progress=done)
        self.query_one("#solve-words", Label).update(words)

    def end(self) -> None:
        self.active = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.display = False
