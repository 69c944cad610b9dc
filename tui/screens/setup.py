"""The set-up screen: which of your pieces are red, your side, the opponent and its thinking time. Then ctrl+s
starts the game (the one start key of every set-up screen: the button, the footer and the help say it).

Two people at one keyboard ("two people" as the opponent) each choose their own pieces: the first person's Start
opens the screen again for the other side (``GeisterConfig.sets_up_next``), covered until that person is the one
looking, with only their pieces on it; the first set-up stays hidden from them.

Three columns: the pieces and the side, the opponents by name, the thinking time and what the highlighted opponent
does. Below 100x30 the screen is compact (no margins, shorter hints), so it fits 80x24."""

from __future__ import annotations

import random
import textwrap
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Label, RadioButton, RadioSet, Static

from core.errors import IllegalMoveError, NotationError
from core.game import Side
from core.geister import Colour, Setup, Variant, variant_by_name
from solvers.catalogue import player_entry, players_for
from tui.config import SHARED_KEYBOARD, GeisterConfig
from tui.game_clock import OFFERED_CLOCKS
from tui.game_life import default_takebacks, takebacks_allowed
from tui.messages import OpenGame, ShowMenu
from tui.screens.base import NashplayScreen
from tui.screens.hand_over import HandOverScreen
from tui.widgets.choice import CheckChoice, ChoiceButton, ChoiceSet, CycleChoice
from tui.widgets.footer import NashplayFooter
from tui.widgets.setup_picker import SetupPicker

#: The thinking times offered for the search AIs (the UPP paper's experiments used 0.25, 0.5 and 1 s).
THINK_TIMES = (0.25, 0.5, 1.0, 2.0)


class SetupScreen(NashplayScreen):
    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "setup.tcss"
    SHRINK_BELOW = (100, 30)
    HELP_TOPIC = "setup"
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("ctrl+s", "start", "Start", key_display="ctrl+s", priority=True),
        Binding("r", "random_setup", "Random"),
        # The side's heading names its keys.
        Binding("1", "side(1)", "First", show=False),
        Binding("2", "side(2)", "Second", show=False),
        Binding("c", "clock", "Clock", show=False),  # the clock's line names its key
        Binding("escape", "back", "Menu"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Random set-up", "Let chance choose which pieces are red", "random_setup"),
        ("Start the game", "Start with this set-up", "start"),
        ("Back to the menu", "Choose another game", "back"),
    ]

    def __init__(self, config: GeisterConfig) -> None:
        super().__init__()
        self.variant: Variant = variant_by_name(config.variant)
        self.game_name = config.variant
        self.config = config
        self.rng = random.Random(self.config.seed)
        #: At a shared keyboard, once the first person has chosen: the side choosing now (its pieces only shown).
        self.other_side = config.sets_up_next

    def _initial_setup(self, side: Side) -> Setup:
        text = self.config.setup
        if text and text.lower() != "random" and self.config.human is side:
            try:
                return self.variant.parse_setup(text, side)
            except (NotationError, IllegalMoveError):
                pass
        return self.rng.choice(self.variant.setups(side))

    @property
    def help_topic(self) -> str:
        return self.HELP_TOPIC  # the set-up screen's keys, not the board's

    def compose(self) -> ComposeResult:
        yield Header()
        if self.other_side is not None:
            yield from self._compose_other_side(self.other_side)
            return
        with Horizontal(id="setup-main"):
            with Vertical(id="setup-left"):
                yield Label("Your pieces", classes="heading")
                yield Static("Space: red/blue; r: random", classes="hint one-line")
                yield SetupPicker(self.variant, self.config.human, self._initial_setup(self.config.human), id="picker")
                yield Static(id="setup-count", classes="one-line")
                yield Label("Your side (keys 1, 2)", classes="heading")
                with ChoiceSet(id="side-choice"):
                    yield ChoiceButton("Player 1 (first)", value=self.config.human is Side.P1)
                    yield ChoiceButton("Player 2 (second)", value=self.config.human is Side.P2)
                allowed = takebacks_allowed(self.variant.name, self.config.opponent, self.config.takebacks)
                yield CheckChoice("Takebacks allowed", allowed, id="takebacks")
                clocks = (
                    OFFERED_CLOCKS
                    if self.config.clock in (None, *OFFERED_CLOCKS)
                    else (*OFFERED_CLOCKS, str(self.config.clock))
                )
                yield CycleChoice("Clock (c)", clocks, self.config.clock or "none", id="clock")
            with Vertical(id="setup-middle"):
                yield Label("Opponent", classes="heading")
                with ChoiceSet(id="opponent"):
                    # Names only: what each one does is said in full beside the list, for the highlighted one.
                    for entry in players_for(self.variant.name):
                        yield ChoiceButton(entry.name, value=entry.name == self.config.opponent, name=entry.name)
                    yield ChoiceButton(
                        "two people", value=self.config.opponent == SHARED_KEYBOARD, name=SHARED_KEYBOARD
                    )
            with Vertical(id="setup-right"):
                yield Label("Seconds per move", classes="heading one-line")
                with ChoiceSet(id="think-time"):
                    for seconds in THINK_TIMES:
                        yield ChoiceButton(
                            f"{seconds:g} s", value=seconds == self.config.think_time, name=f"{seconds:g}"
                        )
                yield Static(id="think-note", classes="hint one-line")
                yield Static(id="opponent-about", classes="one-line")
                # Last, so that Tab reaches it after every choice (it was between the side and the opponents).
                yield Button("Start (ctrl+s)", id="start", variant="primary")
        yield Static(id="setup-message", classes="one-line")
        yield NashplayFooter()

    def _compose_other_side(self, side: Side) -> ComposeResult:
        first = self.config.human
        with Vertical(id="setup-main"):
            yield Label(f"{str(side).capitalize()}'s pieces", classes="heading")
            yield Static("Space: red/blue; r: random", classes="hint one-line")
            yield SetupPicker(self.variant, side, self.rng.choice(self.variant.setups(side)), id="picker")
            yield Static(id="setup-count", classes="one-line")
            yield Static(f"{str(first).capitalize()} has chosen (hidden). Then {Side.P1} moves first.", classes="hint")
            yield Button("Start (ctrl+s)", id="start", variant="primary")
        yield Static(id="setup-message", classes="one-line")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#setup-message").display = False
        self._show_count()
        self.query_one("#picker", SetupPicker).focus()
        if self.other_side is not None:
            # Covered until the person choosing now is the one looking (the first one may still be).
            self.app.push_screen(HandOverScreen(self.other_side, None, "set-up"))
            return
        # The opponent under the list's cursor is described as the cursor moves, not only once it is chosen.
        self.watch(self.query_one("#opponent", RadioSet), "_selected", self._describe_opponent)
        self._describe_opponent()

    def size_changed(self) -> None:
        self._describe_opponent()

    def on_descendant_focus(self) -> None:
        self._describe_opponent()

    def on_descendant_blur(self) -> None:
        self._describe_opponent()

    def _column_width(self) -> int:
        """The right column's text width (the screen's padding and the two other columns left out)."""
        return max(16, self.app.size.width - (2 if self.compact else 4) - 29 - 25)

    def _describe_opponent(self, _: object = None) -> None:
        if self.other_side is not None:
            return  # the opponent is chosen: this screen has the other side's pieces only
        radios = self.query_one("#opponent", RadioSet)
        buttons = list(radios.query(RadioButton))
        # While the list has the keyboard, the choice under its cursor; else the chosen one.
        index = radios._selected if radios.has_focus and radios._selected is not None else radios.pressed_index
        under = buttons[index].name if 0 <= index < len(buttons) else None
        width = self._column_width()
        if (under or self.opponent) == SHARED_KEYBOARD:
            about = "two people: one keyboard, each moving in turn; the board is hidden between turns"
        else:
            entry = player_entry(under or self.opponent)
            about = f"{entry.name}: {entry.description}"
        lines = textwrap.wrap(about, width)
        self.query_one("#opponent-about", Static).update(Text("\n".join(lines), end=""))
        thinkers = [e.name for e in players_for(self.variant.name) if e.thinks]
        note = "for " + ", ".join(thinkers) if thinkers else "no opponent here thinks"
        self.query_one("#think-note", Static).update("\n".join(textwrap.wrap(note, width)))

    @property
    def human(self) -> Side:
        return Side.P1 if self.query_one("#side-choice", RadioSet).pressed_index != 1 else Side.P2

    @property
    def think_time(self) -> float:
        pressed = self.query_one("#think-time", RadioSet).pressed_button
        return float(pressed.name) if pressed is not None and pressed.name else self.config.think_time

    @property
    def opponent(self) -> str:
        pressed = self.query_one("#opponent", RadioSet).pressed_button
        return pressed.name if pressed is not None and pressed.name else self.config.opponent

    def _show_count(self) -> None:
        picker = self.query_one("#picker", SetupPicker)
        side = picker.side
        title = f"{self.variant.title}: set-up"
        army = f"{self.variant.blues[side]} blue, {self.variant.reds[side]} red"
        self.set_titles(
            (title, f"you are {side}: {army}"), (title, f"{side}: {army}"), (title, army), (title, ""), ("Set-up", "")
        )
        reds = picker.colours.count(Colour.RED)
        need = self.variant.reds[side]
        ok = reds == need
        text = Text(
            f"Red: {reds} of {need}  Blue: {len(picker.colours) - reds} of {self.variant.blues[side]}",
            style="bold" if ok else "bold reverse",
            end="",
        )
        if not ok:
            text.append(f"\n(choose exactly {need} red)")
        self.query_one("#setup-count", Static).update(text)

    @on(SetupPicker.Changed)
    def _changed(self) -> None:
        self._show_count()

    @on(RadioSet.Changed, "#side-choice")
    def _side_changed(self) -> None:
        picker = self.query_one("#picker", SetupPicker)
        if picker.side is not self.human:
            picker.configure(self.human, self.rng.choice(self.variant.setups(self.human)))
            self._show_count()

    @on(RadioSet.Changed, "#opponent")
    def _opponent_changed(self) -> None:
        # None against the strongest AI by default; once the user has chosen, their choice stays.
        self.query_one("#takebacks", CheckChoice).set_default(default_takebacks(self.variant.name, self.opponent))

    def action_side(self, number: int) -> None:
        if self.other_side is not None:
            return  # the sides are chosen: the first person chose theirs
        self.query_one("#side-choice", RadioSet).query(RadioButton)[number - 1].value = True

    def action_clock(self) -> None:
        if self.other_side is None:
            self.query_one("#clock", CycleChoice).action_step(1)

    def action_random_setup(self) -> None:
        picker = self.query_one("#picker", SetupPicker)
        picker.configure(picker.side, self.rng.choice(self.variant.setups(picker.side)))
        self._show_count()

    def action_back(self) -> None:
        self.post_message(ShowMenu())

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        picker = self.query_one("#picker", SetupPicker)
        try:
            self.variant.check_setup(picker.setup, picker.side)
        except IllegalMoveError as error:
            message = self.query_one("#setup-message", Static)
            message.update(Text(f"Not yet: {error}", style="bold"))
            message.display = True
            return
        if self.other_side is not None:
            done = replace(self.config, other_setup=picker.setup.to_text())
            self.post_message(OpenGame(self.variant.name, done, setup=False))
            return
        config = replace(
            self.config,
            human=picker.side,
            opponent=self.opponent,
            setup=picker.setup.to_text(),
            think_time=self.think_time,
            takebacks=self.query_one("#takebacks", CheckChoice).value,
            clock=None if (clock := self.query_one("#clock", CycleChoice).value) == "none" else clock,
        )
        # Two people: the other one chooses next, on this screen again for their side; else the game starts.
        self.post_message(OpenGame(self.variant.name, config, setup=config.sets_up_next is not None))
