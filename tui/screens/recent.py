"""The recent games: the games in progress and the finished ones, of every game, newest first, to open again.

Enter opens the highlighted game (a game in progress is resumed, a finished one replayed); ``v`` reviews it. The
list comes from ``SaveStore.recent`` (the save slots and the records of ``records/`` and ``contest/``): a file that
cannot be read is a line that says so, and opening it says why in the message line.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from core.errors import NotationError, clipped
from core.record import printable
from tui.messages import OpenReplay, OpenReview, ResumeGame, ShowMenu
from tui.saves import RecentGame
from tui.screens.base import NashplayScreen
from tui.widgets.fitted import Fitted
from tui.widgets.footer import NashplayFooter

#: Columns of the list's box the lines cannot use: the margins (4), the border (2), the padding (2) and room for a
#: scroll bar (2).
LINE_CHROME = 10


class RecentGamesScreen(NashplayScreen):
    CSS_PATH = "recent.tcss"
    SHRINK_BELOW = (100, 30)
    AUTO_FOCUS = "#recent-games"

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("v", "review", "Review"),
        Binding("d", "delete", "Delete"),
        Binding("R", "resign", "Resign"),
        Binding("escape", "menu", "Menu"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Review the highlighted game", "Every move judged (v)", "review"),
        ("Delete the highlighted game", "Its save or its record goes, after a question (d)", "delete"),
        ("Resign the highlighted game", "A game in progress: a loss, its record kept (R)", "resign"),
        ("Back to the menu", "Choose another game (Esc)", "menu"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: The games listed, in the list's order.
        self.games: list[RecentGame] = []
        self.message_text = ""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Fitted(id="recent-heading", classes="one-line")
        yield OptionList(id="recent-games")
        yield Static(id="recent-message")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.set_titles(("Recent games", "in progress and finished, newest first"), ("Recent games", ""))
        self.fill()

    def on_resize(self) -> None:
        super().on_resize()
        if self.is_mounted:
            self._draw()

    def fill(self) -> None:
        """Read the recent games again (at first, and after a resume that failed) and list them."""
        self.games = self.nashplay.saves.recent()
        self._draw()

    def _draw(self) -> None:
        """One line each, cut to the terminal's width (never wrapped)."""
        listing = self.query_one("#recent-games", OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        width = self.app.size.width - LINE_CHROME
        # As text: a line quotes a file's name and a record's tags (a file called 'bad[x="]y.ngr' was markup that
        # crashed the app), and a file's name may hold a terminal's escapes.
        listing.add_options(
            [Option(Text(printable(game.line(width)), end=""), id=str(index)) for index, game in enumerate(self.games)]
        )
        heading = self.query_one("#recent-heading", Fitted)
        if self.games:
            heading.show(
                "Enter opens a game (resumes it, or replays it when it is over); v reviews it; d deletes it.",
                "Enter opens a game (resumes it, or replays it when it is over); v reviews it.",
                "Enter: open (resume or replay); v: review; d: delete",
                "Enter: open (resume or replay); v: review",
            )
            listing.highlighted = min(highlighted or 0, len(self.games) - 1)
        else:
            heading.update("No games yet: the games you play are kept, and listed here.")
        listing.display = bool(self.games)

    def say(self, text: str) -> None:
        self.message_text = text
        message = self.query_one("#recent-message", Static)
        message.update(Text(printable(text), end=""))  # it names files and quotes records: never markup
        message.display = bool(text)

    def _highlighted(self) -> RecentGame | None:
        """The highlighted game (``None`` too while the list is not there: the footer asks for the keys while the
        screen is composed or torn down)."""
        listed = next(self.query("#recent-games").results(OptionList), None)
        index = None if listed is None else listed.highlighted
        return self.games[index] if index is not None and 0 <= index < len(self.games) else None

    @on(OptionList.OptionSelected, "#recent-games")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.open(self.games[int(event.option.id or 0)])

    def open(self, game: RecentGame) -> None:
        """Resume ``game`` if it is in progress, else replay its record."""
        if game.problem is not None:
            self.say(f"{game.path.name} cannot be opened: {game.problem}")
            return
        if game.slot_id is not None:
            self.post_message(ResumeGame(game.slot_id))  # a damaged save is set aside there, and said
            return
        try:
            record = game.load()
        except (NotationError, OSError) as error:
            self.say(f"{game.path.name} cannot be opened: {_first_line(error)}")
            return
        self.post_message(OpenReplay(record, game.viewer(record), f"Replay: {game.title}"))

    def action_review(self) -> None:
        game = self._highlighted()
        if game is None:
            return
        if game.problem is not None:
            self.say(f"{game.path.name} cannot be reviewed: {game.problem}")
            return
        try:
            record = game.load()
        except (NotationError, OSError) as error:
            self.say(f"{game.path.name} cannot be reviewed: {_first_line(error)}")
            return
        if game.in_progress and record.is_geister:
            self.say("A Geister game in progress hides the opponent's colours: finish it (Enter), then review it.")
            return
        self.post_message(OpenReview(record, f"Review: {game.title}"))

    # ---- ending or deleting a game from the list

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resign":
            game = self._highlighted() if self.is_mounted else None
            return game is not None and game.in_progress and game.problem is None
        return True

    @on(OptionList.OptionHighlighted, "#recent-games")
    def _moved(self) -> None:
        self.refresh_bindings()  # R only on a game in progress

    def action_delete(self) -> None:
        game = self._highlighted()
        if game is None:
            return
        what = printable(game.path.name if game.problem is not None else f"{game.game} vs {game.opponent}")
        if game.in_progress:
            question = f"Delete the unfinished game {what}? Nothing of it is kept."
        else:
            question = f"Delete the record of {what} ({printable(game.path.name)})? It cannot be replayed afterwards."
        self.confirm(question, lambda: self._end(game, resign=False))

    def action_resign(self) -> None:
        game = self._highlighted()
        if game is None or not game.in_progress:
            return
        question = f"Resign {game.game} vs {game.opponent}? It counts as a loss; its record is kept."
        self.confirm(question, lambda: self._end(game, resign=True))

    def _end(self, game: RecentGame, resign: bool) -> None:
        saves = self.nashplay.saves
        try:
            if game.slot_id is None:
                saves.delete_record(game.path)
                said = f"Deleted {game.path.name}"
            elif resign:
                said = f"Resigned: the game's record is in {saves.resign(saves.slot(game.slot_id))}"
            else:
                saves.delete(saves.slot(game.slot_id))
                said = "Deleted: nothing of that game is kept"
        except (OSError, ValueError) as error:  # NotationError is a ValueError: a damaged save
            said = f"Could not {'resign' if resign else 'delete'} it: {_first_line(error)}"
        self.fill()
        self.say(said)

    def action_menu(self) -> None:
        self.post_message(ShowMenu())


def _first_line(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return clipped(text, 160)
