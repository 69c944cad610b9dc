"""The game menu: resume any unfinished game, start any game of the catalogue, the recent games (``r``) and the last
game (``l``), play on a contest server, open a record."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from core.errors import NotationError, clipped
from core.record import printable
from tui.games import GAMES
from tui.messages import AskForRecord, AskForServer, OpenGame, ResumeGame, WatchGame
from tui.saves import MAX_LISTED
from tui.screens.base import NashplayScreen
from tui.web.visitor import contest_offered
from tui.widgets.footer import NashplayFooter

#: Columns of the menu's box the options cannot use: the margins (4), the border (2), the padding (2) and room for a
#: scroll bar (2), which appears when many games wait to be resumed.
OPTION_CHROME = 10


#: What the menu says when games wait to be resumed (one, several), most detailed first: the first that fits.
RESUME_HINTS = (
    (
        "A game in progress was saved: Resume (above) goes on with it; on its line d deletes it, R resigns it.",
        "A saved game: Resume (above) goes on with it; d deletes it, R resigns it.",
        "Resume (above) goes on with your game; d deletes, R resigns.",
    ),
    (
        "Games in progress were saved: Resume (above) goes on with one; on its line d deletes it, R resigns it.",
        "Saved games: Resume (above) goes on with one; d deletes it, R resigns it.",
        "Resume (above) goes on with a game; d deletes, R resigns.",
    ),
)
_ALL_HINTS = {hint for hints in RESUME_HINTS for hint in hints}


class MenuScreen(NashplayScreen):
    SHRINK_BELOW = (100, 30)
    #: The message line's text (an error, or the resume hint).
    _message = ""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("r", "app.recent_games", "Recent"),
        Binding("l", "app.last_game", "Last game"),
        Binding("o", "open_record", "Open record"),
        # On a Resume line only (check_action): end a saved game without playing it.
        Binding("d", "delete_saved", "Delete"),
        Binding("R", "resign_saved", "Resign"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Open a record", "Replay a saved game record", "open_record"),
        ("Play on a contest server", "Connect to a Geister contest server (nashplay connect)", "connect"),
        ("Delete the highlighted saved game", "Nothing of it is kept (d, on a Resume line)", "delete_saved"),
        ("Resign the highlighted saved game", "A loss, its record kept (R, on a Resume line)", "resign_saved"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Choose a game (arrows and Enter; the mouse works too)", id="menu-heading", classes="one-line")
        # The list takes the rows the heading and the message leave, and scrolls inside them: grown past the
        # screen (saved games above the games), it pushed the heading off the top.
        with Vertical(id="menu-body"):
            yield OptionList(id="games")
        yield Static(id="menu-message")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.set_titles(("nashplay", "games where the right move is a mixed strategy"), ("nashplay", ""))
        self.fill()
        self.query_one("#games", OptionList).focus()

    def fill(self) -> None:
        games = self.query_one("#games", OptionList)
        games.clear_options()
        saved = self.nashplay.describe_saved_games()
        room = self.app.size.width - OPTION_CHROME
        for slot_id, description in saved:
            # As text: a save's description quotes its tags (an opponent tag of "[/]" was markup that crashed the
            # menu) and its slot's name.
            resume = Text(_one_line(printable(f"Resume: {description}"), room), end="")
            games.add_option(Option(resume, id=f"resume:{slot_id}"))
        if not self._message or self._message in _ALL_HINTS:
            self.show_message(self.fit_line(*RESUME_HINTS[len(saved) > 1]) if saved else "")
        saves = self.nashplay.saves
        if saves.unlisted:  # counted by the listing describe_saved_games just made
            more = "1 more unfinished game" if saves.unlisted == 1 else f"{saves.unlisted} more unfinished games"
            note = f"... and {more} in {saves.folder} (the newest {MAX_LISTED} are listed)"
            games.add_option(Option(Text(printable(note), end=""), disabled=True))
        for name, entry in GAMES.items():
            # One line each: the note is dropped where the terminal is too narrow for it (never wrapped).
            line = f"{entry.title}  ({entry.menu_note})"
            games.add_option(Option(line if len(line) <= room else entry.title, id=f"game:{name}"))
        games.add_option(Option("Watch two AIs play: choose the game, the players, their time...", id="watch"))
        games.add_option(Option("Recent games: resume, replay or review one (r)...", id="recent"))
        if contest_offered():
            games.add_option(Option("Play on a contest server (nashplay connect)...", id="connect"))
        games.add_option(Option("Replay a record file...", id="replay"))
        games.add_option(Option("Quit", id="quit"))
        games.highlighted = 0

    def show_message(self, text: str) -> None:
        self._message = text
        message = self.query_one("#menu-message", Static)
        message.update(Text(printable(text), end=""))  # it may quote a path typed or a record's text: never markup
        message.display = bool(text)  # an empty message takes no rows from the list

    def on_resize(self) -> None:
        if self.is_mounted:
            highlighted = self.query_one("#games", OptionList).highlighted
            self.fill()
            self.query_one("#games", OptionList).highlighted = highlighted

    # ---- a saved game ended from the menu: deleted, or resigned

    def _highlighted_slot(self) -> tuple[str, str] | None:
        """The highlighted Resume line's slot id and text (``None``: the line is not a saved game, or the list is not
        there: the footer asks for the keys while the screen is composed or torn down too)."""
        found = self.query("#games").results(OptionList)
        games = next(found, None)
        if games is None or games.highlighted is None:
            return None
        option = games.get_option_at_index(games.highlighted)
        if not (option.id or "").startswith("resume:"):
            return None
        return (option.id or "").removeprefix("resume:"), str(option.prompt).removeprefix("Resume: ")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("delete_saved", "resign_saved"):
            return self.is_mounted and self._highlighted_slot() is not None  # in the footer on a Resume line only
        if action == "connect":
            return contest_offered()  # nor in the palette: a visitor of serve may have nowhere to connect
        return True

    @on(OptionList.OptionHighlighted, "#games")
    def _highlighted(self) -> None:
        self.refresh_bindings()

    def action_delete_saved(self) -> None:
        chosen = self._highlighted_slot()
        if chosen is not None:
            slot_id, what = chosen
            self.confirm(f"Delete {what}? Nothing of it is kept.", lambda: self._end_saved(slot_id, resign=False))

    def action_resign_saved(self) -> None:
        chosen = self._highlighted_slot()
        if chosen is not None:
            slot_id, what = chosen
            question = f"Resign {what}? It counts as a loss; its record is kept."
            self.confirm(question, lambda: self._end_saved(slot_id, resign=True))

    def _end_saved(self, slot_id: str, resign: bool) -> None:
        saves = self.nashplay.saves
        slot = saves.slot(slot_id)
        try:
            if resign:
                path = saves.resign(slot)
                said = f"Resigned: the game's record is in {path}"
            else:
                saves.delete(slot)
                said = "Deleted: nothing of that game is kept"
        except (OSError, NotationError) as error:  # another nashplay plays it, a damaged save, a full disk
            said = f"Could not {'resign' if resign else 'delete'} that game: {clipped(str(error), 160)}"
        self.fill()
        self.show_message(said)

    @on(OptionList.OptionSelected, "#games")
    async def _selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id or ""
        if choice.startswith("resume:"):
            self.post_message(ResumeGame(choice.removeprefix("resume:")))
        elif choice.startswith("game:"):
            self.post_message(OpenGame(choice.removeprefix("game:")))
        elif choice == "watch":
            self.post_message(WatchGame(setup=True))
        elif choice == "recent":
            await self.app.run_action("recent_games")  # the App navigates (as the r key asks it)
        elif choice == "replay":
            self.action_open_record()
        elif choice == "connect":
            self.action_connect()
        elif choice == "quit":
            self.app.exit()

    def action_open_record(self) -> None:
        self.post_message(AskForRecord())

    def action_connect(self) -> None:
        self.post_message(AskForServer())


def _one_line(line: str, room: int) -> str:
    """A resume line in ``room`` columns: without when it was saved if need be, else cut (never wrapped)."""
    if len(line) > room:
        line = line.rsplit(" (saved ", 1)[0]
    return line if len(line) <= room else line[: max(0, room - 3)] + "..."
