"""The help screen (``?``): the keys, and how a game is won; the text of each topic is ``tui/help/<topic>.md``.

In ASCII mode the text is told in ASCII too: the pages name the board's Unicode glyphs, which a poor font shows as
boxes; each becomes the glyph ASCII mode draws instead."""

from __future__ import annotations

import unicodedata
from importlib import resources
from typing import cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from tui.screens.base import AppServices

#: The Unicode the help pages use, as ASCII mode draws it (the board's glyphs: ``tui.theme.ASCII``).
ASCII_FOR = {
    "—": "--",
    "–": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "…": "...",
    "▲": "^",
    "▽": "v",
    "·": ".",
    "•": "*",
    "○": "o",
    "●": "@",
    "◆": "@",
    "◇": "o",
    "‖": "|",
    "→": "->",
    "←": "<-",
    "×": "x",
    "≤": "<=",
    "≥": ">=",
}


def help_text(topic: str) -> str:
    """The Markdown of ``topic``; the general page for a topic that has none."""
    folder = resources.files("tui.help")
    page = folder / f"{topic}.md"
    return (page if page.is_file() else folder / "general.md").read_text(encoding="utf-8")


def ascii_text(text: str) -> str:
    """``text`` in ASCII: the glyphs of ``ASCII_FOR``, accents dropped, anything else ``?``."""

    def one(character: str) -> str:
        if character.isascii():
            return character
        if character in ASCII_FOR:
            return ASCII_FOR[character]
        plain = unicodedata.normalize("NFKD", character).encode("ascii", "ignore").decode()
        return plain or "?"

    return "".join(one(character) for character in text)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]

    def __init__(self, topic: str = "general") -> None:
        super().__init__()
        self.topic = topic if (resources.files("tui.help") / f"{topic}.md").is_file() else "general"

    def compose(self) -> ComposeResult:
        text = help_text(self.topic)
        if cast("AppServices", self.app).ascii_mode:
            text = ascii_text(text)
        with VerticalScroll(id="help") as scroll:
            scroll.border_title = "Help"
            scroll.border_subtitle = "arrows, PgUp/PgDn: scroll; Esc: close"
            yield Markdown(text)

    def on_mount(self) -> None:
        # Read to its end, the page stays at its end when a resize folds its text anew (narrower: more lines, and
        # what was the end would be a screenful up): Textual's anchor, released until the reader gets there (End,
        # or scrolling down to it), released again when they scroll back up.
        scroll = self.query_one("#help", VerticalScroll)
        scroll.anchor()
        scroll.release_anchor()

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
