"""The help screen (``?``): the keys, and how a game is won; the text of each topic is ``tui/help/<topic>.md``."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown


def help_text(topic: str) -> str:
    """The Markdown of ``topic``; the general page for a topic that has none."""
    folder = resources.files("tui.help")
    page = folder / f"{topic}.md"
    return (page if page.is_file() else folder / "general.md").read_text(encoding="utf-8")


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]

    def __init__(self, topic: str = "general") -> None:
        super().__init__()
        self.topic = topic if (resources.files("tui.help") / f"{topic}.md").is_file() else "general"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(help_text(self.topic))

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
