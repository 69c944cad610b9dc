"""The set-up screen for watching two AIs play: the game (any of the Geister family), player 1 and player 2 (the
catalogue's players of that game), the seconds each thinks a move; then ctrl+s starts (the one start key of every
set-up screen). It posts ``WatchGame`` and the App opens the watch.

Three columns: the game with the times and Start under it, then each side's players. What has the keyboard is
described under Start: the game, the player under a list's cursor, or what the times are for. Below 100x30 the
screen is compact (no margins), so it fits 80x24 with the longest lists (Mini-Geister's 18 players)."""

from __future__ import annotations

import argparse
import textwrap
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Header, Input, Label, RadioButton, RadioSet, Static

from core.games import GAME_TYPES
from core.geister import variant_by_name
from solvers.catalogue import player_entry, players_for
from tui.messages import ShowMenu, WatchGame
from tui.screens.base import NashplayScreen
from tui.watching import WATCHABLE, WatchSettings, default_players, parse_watch_time
from tui.widgets.choice import ChoiceButton, ChoiceSet
from tui.widgets.fitted import Fitted
from tui.widgets.footer import NashplayFooter

#: The two sides, in the ids of their lists and fields (``player-1``, ``time-1``).
SIDES = (1, 2)
#: The columns of the players' lists (``watch_setup.tcss`` gives them this width); the game's column has the rest, up
#: to ``LEFT_COLUMN`` (its padding included), so that a wide terminal keeps the choices together.
PLAYER_COLUMN = 23
LEFT_COLUMN = 48

#: Tab follows the order the choices are made in: the game, the players, their times, Start. (Textual orders focus by
#: place, which would go from the game to the times under it and to Start before the players.)
FOCUS_ORDER = ("watch-variant", "player-1", "player-2", "time-1", "time-2", "watch-start")


class WatchSetupScreen(NashplayScreen):
    """Two AIs to watch: the game, each side's player and thinking time, starting from ``settings``; then Start."""

    CSS_PATH = "watch_setup.tcss"
    SHRINK_BELOW = (100, 30)
    HELP_TOPIC = "watch"

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("ctrl+s", "start", "Start", key_display="ctrl+s", priority=True),
        Binding("escape", "back", "Menu"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Start watching", "The two AIs play with these settings (ctrl+s)", "start"),
        ("Back to the menu", "Choose something else", "back"),
    ]

    def __init__(self, settings: WatchSettings) -> None:
        super().__init__()
        self.settings = settings
        self.variant = settings.variant
        #: Each side's player; a side the user has not chosen follows the game's default pairing when the game
        #: changes (as the takebacks box of the game set-up follows the opponent until it is touched).
        self.chosen = list(settings.resolved_players())
        self.touched = [settings.players is not None] * 2
        #: The list whose player the description shows when no list has the keyboard (the last one that had it).
        self._described_side = 1

    # ---- what is shown

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="watch-main"):
            with Vertical(id="watch-left"):
                yield Label("Game", classes="heading")
                with ChoiceSet(id="watch-variant"):
                    for name in WATCHABLE:
                        yield ChoiceButton(name, value=name == self.variant, name=name)
                yield Label("Seconds a move", classes="heading")
                with Horizontal(id="watch-times"):
                    for side, seconds in zip(SIDES, self.settings.think_times, strict=True):
                        field = Input(f"{seconds:g}", id=f"time-{side}", classes="watch-time")
                        field.border_title = f"player {side}"
                        yield field
                yield Button("Start (ctrl+s)", id="watch-start", variant="primary")
                yield Static(id="watch-about", classes="hint")
            for side in SIDES:
                with Vertical(id=f"watch-column-{side}", classes="watch-players"):
                    yield Label("Player 1 (first)" if side == 1 else "Player 2", classes="heading")
                    yield self._player_list(side)
        yield Fitted(id="watch-message", classes="one-line")
        yield NashplayFooter()

    def _player_list(self, side: int) -> ChoiceSet:
        """Side ``side``'s choice of the game's players, the strongest first."""
        chosen = self.chosen[side - 1]
        buttons = [
            ChoiceButton(entry.name, value=entry.name == chosen, name=entry.name) for entry in players_for(self.variant)
        ]
        return ChoiceSet(*buttons, id=f"player-{side}")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#watch-message").display = False
        self._show_titles_for_variant()
        self.query_one("#watch-variant", RadioSet).focus()
        # The choice under a list's cursor is described as the cursor moves, not only once it is chosen.
        self.watch(self.query_one("#watch-variant", RadioSet), "_selected", self._describe)
        for side in SIDES:
            self.watch(self.query_one(f"#player-{side}", RadioSet), "_selected", self._describe)
        self._describe()

    def _show_titles_for_variant(self) -> None:
        title = variant_by_name(self.variant).title
        self.set_titles(
            ("Watch two AIs", f"{title}: choose the players and their time"),
            ("Watch two AIs", title),
            ("Watch two AIs", ""),
        )

    def size_changed(self) -> None:
        self._describe()

    def on_descendant_focus(self, event: object = None) -> None:
        focused = self.focused
        if focused is not None and focused.id in ("player-1", "player-2"):
            self._described_side = int(focused.id[-1])
        self._describe()

    def _column_width(self) -> int:
        """The game's column's text width: the screen less its padding and the players' two columns."""
        return max(20, min(LEFT_COLUMN, self.app.size.width - (2 if self.compact else 4) - 2 * PLAYER_COLUMN) - 1)

    @staticmethod
    def _under_cursor(radios: RadioSet) -> str | None:
        """The choice under the cursor of a focused list, else its chosen one."""
        buttons = list(radios.query(RadioButton))
        index = radios._selected if radios.has_focus and radios._selected is not None else radios.pressed_index
        return buttons[index].name if 0 <= index < len(buttons) else None

    def _describe(self, _: object = None) -> None:
        """What has the keyboard, in a few lines under Start."""
        if not self.is_mounted:
            return
        focused = self.focused
        focused_id = focused.id if focused is not None else None
        if focused_id == "watch-variant":
            name = self._under_cursor(self.query_one("#watch-variant", RadioSet)) or self.variant
            game = GAME_TYPES[name]
            about = f"{game.title}: {game.summary}"
        elif focused_id in ("time-1", "time-2", "watch-start"):
            about = self._times_note()
        else:
            side = self._described_side
            # A list is missing for a moment while a new game's lists replace the old ones.
            radios = next(iter(self.query(f"#player-{side}").results(RadioSet)), None)
            name = (self._under_cursor(radios) if radios is not None else None) or self.chosen[side - 1]
            entry = player_entry(name)
            how = "searches for its time" if entry.thinks else "decides at once"
            about = f"{entry.name}: {entry.description} ({how})"
        lines = textwrap.wrap(about, self._column_width())
        self.query_one("#watch-about", Static).update(Text("\n".join(lines), end=""))

    def _times_note(self) -> str:
        """What the times are for: the players that search take theirs, the others decide at once."""
        parts = []
        for side, name in zip(SIDES, self.chosen, strict=True):
            doing = "searches for its time" if player_entry(name).thinks else "decides at once: its time is not used"
            parts.append(f"{name} (player {side}) {doing}.")
        return " ".join(parts)

    def _say(self, problem: str | None) -> None:
        """The message line: why it did not start (``None``: nothing to say), on one line of the terminal."""
        message = self.query_one("#watch-message", Fitted)
        message.display = problem is not None
        if problem is not None:  # the wording that fits, chosen again if the terminal is resized
            message.show(*(Text(line, style="bold", end="") for line in (f"Not yet: {problem}", problem)))

    # ---- the choices

    @on(RadioSet.Changed, "#watch-variant")
    async def _variant_changed(self, event: RadioSet.Changed) -> None:
        variant = event.pressed.name or self.variant
        if variant == self.variant:
            return
        self.variant = variant
        defaults = default_players(variant)
        for index, side in enumerate(SIDES):
            # A side the user chose keeps its player where that one plays the new game.
            if not (self.touched[index] and player_entry(self.chosen[index]).plays(variant)):
                self.chosen[index] = defaults[index]
            # The old list is replaced whole: a RadioSet keeps its pressed button, which would outlive its removal.
            old = self.query_one(f"#player-{side}", ChoiceSet)
            column = self.query_one(f"#watch-column-{side}", Vertical)
            await old.remove()
            fresh = self._player_list(side)
            await column.mount(fresh)
            self.watch(fresh, "_selected", self._describe)
        self._show_titles_for_variant()
        self._describe()

    @on(RadioSet.Changed, ".watch-players RadioSet")
    def _player_changed(self, event: RadioSet.Changed) -> None:
        side = int((event.radio_set.id or "player-1")[-1])
        self.chosen[side - 1] = event.pressed.name or self.chosen[side - 1]
        self.touched[side - 1] = True
        self._describe()

    @on(Input.Changed, ".watch-time")
    def _time_edited(self) -> None:
        self._say(None)  # the message was about the old text

    @on(Input.Submitted, ".watch-time")
    def _next_field(self) -> None:
        self.focus_next()  # Enter goes on, as Tab does: ctrl+s is the one key that starts

    @property
    def focus_chain(self) -> list[Widget]:
        rank = {name: index for index, name in enumerate(FOCUS_ORDER)}
        return sorted(super().focus_chain, key=lambda widget: rank.get(widget.id or "", len(rank)))

    def read_settings(self) -> WatchSettings:
        """The watch the screen describes; ``ValueError`` says what is wrong (and the field with it has the
        keyboard)."""
        times: list[float] = []
        for side in SIDES:
            field = self.query_one(f"#time-{side}", Input)
            try:
                times.append(parse_watch_time(field.value.strip()))
            except argparse.ArgumentTypeError as error:
                field.focus()
                raise ValueError(f"player {side}'s time: {error}") from None
        settings = WatchSettings(
            self.variant, (self.chosen[0], self.chosen[1]), (times[0], times[1]), self.settings.seed
        )
        settings.check()
        return settings

    @on(Button.Pressed, "#watch-start")
    def action_start(self) -> None:
        try:
            settings = self.read_settings()
        except ValueError as error:
            self._say(str(error))
            return
        self._say(None)
        self.post_message(WatchGame(settings))

    def action_back(self) -> None:
        self.post_message(ShowMenu())
