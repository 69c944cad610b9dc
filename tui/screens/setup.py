"""The set-up screen: which of your pieces are red, your side, the opponent. Then the game starts."""

from __future__ import annotations

import random
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
from solvers.catalogue import players_for
from tui.config import GeisterConfig
from tui.messages import OpenGame, ShowMenu
from tui.screens.base import NashplayScreen
from tui.widgets.choice import ChoiceButton
from tui.widgets.footer import NashplayFooter
from tui.widgets.setup_picker import SetupPicker

#: The thinking times offered for the search AIs (the UPP paper's experiments used 0.25, 0.5 and 1 s).
THINK_TIMES = (0.25, 0.5, 1.0, 2.0)


class SetupScreen(NashplayScreen):
    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "setup.tcss"
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("r", "random_setup", "Random set-up"),
        Binding("1", "side(1)", "Play first"),
        Binding("2", "side(2)", "Play second"),
        Binding("ctrl+s,s", "start", "Start"),
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

    def _initial_setup(self, side: Side) -> Setup:
        text = self.config.setup
        if text and text.lower() != "random" and self.config.human is side:
            try:
                return self.variant.parse_setup(text, side)
            except (NotationError, IllegalMoveError):
                pass
        return self.rng.choice(self.variant.setups(side))

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="setup-main"):
            with Vertical(id="setup-left"):
                yield Label("Your pieces", classes="heading")
                yield Static("Space turns the piece under the cursor red or blue; r: random", classes="hint")
                yield SetupPicker(self.variant, self.config.human, self._initial_setup(self.config.human), id="picker")
                yield Static(id="setup-count")
                yield Button("Start game (s)", id="start", variant="primary")
            with Vertical(id="setup-right"):
                yield Label("Your side", classes="heading")
                with RadioSet(id="side"):
                    yield ChoiceButton("Player 1 (moves first)", value=self.config.human is Side.P1)
                    yield ChoiceButton("Player 2 (moves second)", value=self.config.human is Side.P2)
                yield Label("Opponent", classes="heading")
                with RadioSet(id="opponent"):
                    for entry in players_for(self.variant.name):
                        yield ChoiceButton(
                            f"{entry.name}: {entry.description}",
                            value=entry.name == self.config.opponent,
                            name=entry.name,
                        )
                thinkers = ", ".join(e.name for e in players_for(self.variant.name) if e.thinks)
                yield Label(f"Thinking time ({thinkers})", classes="heading")
                with RadioSet(id="think-time"):
                    for seconds in THINK_TIMES:
                        yield ChoiceButton(
                            f"{seconds:g} s per move", value=seconds == self.config.think_time, name=f"{seconds:g}"
                        )
        yield Static(id="setup-message")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.title = f"{self.variant.title}: set-up"
        self._show_count()
        self.query_one("#picker", SetupPicker).focus()

    @property
    def human(self) -> Side:
        return Side.P1 if self.query_one("#side", RadioSet).pressed_index != 1 else Side.P2

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
        self.sub_title = f"you are {side}: {self.variant.blues[side]} blue, {self.variant.reds[side]} red"
        reds = picker.colours.count(Colour.RED)
        need = self.variant.reds[side]
        ok = reds == need
        text = Text(
            f"Red: {reds} of {need}   Blue: {len(picker.colours) - reds} of {self.variant.blues[side]}",
            style="bold" if ok else "bold reverse",
            end="",
        )
        if not ok:
            text.append(f"   (choose exactly {need} red)")
        self.query_one("#setup-count", Static).update(text)

    @on(SetupPicker.Changed)
    def _changed(self) -> None:
        self._show_count()

    @on(RadioSet.Changed, "#side")
    def _side_changed(self) -> None:
        picker = self.query_one("#picker", SetupPicker)
        if picker.side is not self.human:
            picker.configure(self.human, self.rng.choice(self.variant.setups(self.human)))
            self._show_count()

    def action_side(self, number: int) -> None:
        self.query_one("#side", RadioSet).query(RadioButton)[number - 1].value = True

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
            self.query_one("#setup-message", Static).update(Text(f"Not yet: {error}", style="bold"))
            return
        config = replace(
            self.config,
            human=picker.side,
            opponent=self.opponent,
            setup=picker.setup.to_text(),
            think_time=self.think_time,
        )
        self.post_message(OpenGame(self.variant.name, config, setup=False))
