"""The set-up screen generated from a game's descriptor: one field per parameter (``core.game_type.Parameter``: its
help, its default, its parser and limits), the opponent from the catalogue's players of the game, and the user's
side, the takebacks and, for a game played with a clock (a configuration with a ``clock``), the clock; ctrl+s starts
(the one start key of every set-up screen). A game whose catalogue entry names this screen and
``config_from_values`` needs no set-up screen of its own. Enter in a field goes on to the next one; below 100x30 the
screen is compact (no margins), so it fits 80x24."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Input, Label, RadioSet, Static

from core.game import Side
from solvers.catalogue import players_for
from tui.arguments import parameter_type
from tui.config import ConfigError
from tui.game_clock import OFFERED_CLOCKS
from tui.game_life import default_takebacks, takebacks_allowed
from tui.games import Config, game_entry
from tui.messages import OpenGame, ShowMenu
from tui.screens.base import NashplayScreen
from tui.widgets.choice import CheckChoice, ChoiceButton, ChoiceSet, CycleChoice
from tui.widgets.footer import NashplayFooter

#: What a number is written with: a number's field takes these keys only, the others are the screen's.
NUMBER_CHARACTERS = frozenset("0123456789.-+")


class ParameterInput(Input):
    """A parameter's field. A number's takes only what a number is written with, so that the other keys stay the
    screen's while it has the keyboard: ``q`` quits, ``?`` helps, ``c`` steps the clock, and the footer says so (a
    field that took every key hid them from the footer, the field having the keyboard from the start)."""

    def __init__(self, value: str, *, numeric: bool, id: str, classes: str) -> None:
        super().__init__(value, id=id, classes=classes)
        self.numeric = numeric

    def _takes(self, character: str | None) -> bool:
        return (
            character is not None and character.isprintable() and (not self.numeric or character in NUMBER_CHARACTERS)
        )

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return self._takes(character)

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable and not self._takes(event.character):
            # Not the field's: the screen's and the app's keys, as for a key no widget takes (Textual's own check of
            # the bindings); Input's own handler, which would type it, is not called (``prevent_default``).
            event.prevent_default()
            event.stop()
            await self.app._check_bindings(event.key)
            return
        await super()._on_key(event)


class ParameterSetupScreen(NashplayScreen):
    """A new game of ``config``'s game: its parameters, the opponent and the side; then Start."""

    CSS_PATH = "parameter_setup.tcss"
    SHRINK_BELOW = (100, 30)

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("ctrl+s", "start", "Start", key_display="ctrl+s", priority=True),
        Binding("escape", "back", "Menu"),
        # As on Geister's set-up; a game without a clock has no such key (``check_action``).
        Binding("c", "clock", "Clock"),
    ]

    PALETTE: ClassVar[list[tuple[str, str, str]]] = [
        ("Start the game", "Play with these settings (ctrl+s)", "start"),
        ("Back to the menu", "Choose another game", "back"),
    ]

    def __init__(self, config: Config) -> None:
        super().__init__()
        self.config = config
        self.game_name = config.game
        self.entry = game_entry(config.game)

    def compose(self) -> ComposeResult:
        game = self.entry.game
        yield Header()
        with Horizontal(id="setup-main"):
            with Vertical(id="setup-left"):
                for parameter in game.parameters:
                    value = getattr(self.config, parameter.name, parameter.default)
                    yield Label(parameter.name.capitalize(), classes="heading")
                    yield Static(parameter.help, classes="hint")
                    yield ParameterInput(
                        parameter.text(value),
                        numeric=parameter.kind in ("whole", "real"),
                        id=f"parameter-{parameter.name}",
                        classes="parameter",
                    )
                if self.clocked:
                    # Under the parameters, as on Nim's set-up: the left column has rows to spare at 80x24.
                    chosen_clock = getattr(self.config, "clock", None) or "none"
                    # A clock given to ``--clock`` that the screen does not offer is offered too, not dropped.
                    offered = OFFERED_CLOCKS if chosen_clock in OFFERED_CLOCKS else (*OFFERED_CLOCKS, chosen_clock)
                    yield CycleChoice("Clock", offered, chosen_clock, id="clock")
            with Vertical(id="setup-right"):
                yield Label("Opponent", classes="heading")
                chosen = str(getattr(self.config, "opponent", ""))
                players = players_for(game.name)
                with ChoiceSet(id="setup-opponent"):
                    for entry in players:
                        yield ChoiceButton(entry.name, value=entry.name == chosen, name=entry.name)
                yield Static("\n".join(f"{entry.name}: {entry.description}" for entry in players), classes="hint")
                human = getattr(self.config, "human", Side.P1)
                yield Label("Your side", classes="heading")
                with ChoiceSet(id="setup-side"):
                    yield ChoiceButton("Player 1", value=human is Side.P1)
                    yield ChoiceButton("Player 2", value=human is Side.P2)
                allowed = takebacks_allowed(game.name, chosen, getattr(self.config, "takebacks", None))
                yield CheckChoice("Takebacks allowed", allowed, id="takebacks")
                yield Button("Start (ctrl+s)", id="setup-start", variant="primary")
        yield Static(id="setup-message", classes="one-line")
        yield NashplayFooter()

    def on_mount(self) -> None:
        title = f"{self.entry.title}: set-up"
        self.set_titles(
            (title, "Tab: next field; ctrl+s: start"), (title, "ctrl+s starts"), (self.entry.title, "ctrl+s starts")
        )
        self.query_one("#setup-message").display = False
        fields = self.query(Input)
        if fields:
            fields.first().focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.clocked if action == "clock" else True

    def action_clock(self) -> None:
        """``c``: the Clock choice has the keyboard and steps on (the arrows go on stepping)."""
        clock = self.query_one("#clock", CycleChoice)
        clock.focus()
        clock.action_step(1)

    @property
    def clocked(self) -> bool:
        """Whether the game may be played with a chess clock (its configuration has one)."""
        return any(field.name == "clock" for field in dataclasses.fields(self.config))

    def read_values(self) -> dict[str, Any]:
        """Each parameter's value from its field, read and checked by the parameter itself; ``ValueError`` names
        the field."""
        values: dict[str, Any] = {}
        for parameter in self.entry.game.parameters:
            text = self.query_one(f"#parameter-{parameter.name}", Input).value.strip()
            try:
                values[parameter.name] = parameter_type(parameter)(text)
            except (argparse.ArgumentTypeError, ValueError) as error:
                raise ValueError(f"{parameter.name.capitalize()}: {error}") from None
        return values

    def read_config(self) -> Config:
        """The configuration the form describes (``ValueError`` with a message for the user)."""
        make = self.entry.config_from_values
        assert make is not None, f"{self.entry.name}'s entry names no config_from_values"
        values = self.read_values()
        button = self.query_one("#setup-opponent", RadioSet).pressed_button
        opponent = button.name if button is not None and button.name else str(getattr(self.config, "opponent", ""))
        human = Side.P2 if self.query_one("#setup-side", RadioSet).pressed_index == 1 else Side.P1
        config = make(values, opponent, human, getattr(self.config, "seed", None))
        config = dataclasses.replace(config, takebacks=self.query_one("#takebacks", CheckChoice).value)
        if self.clocked:
            clock = self.query_one("#clock", CycleChoice).value
            config = dataclasses.replace(config, clock=None if clock == "none" else clock)
        try:
            config.check()
        except ConfigError as error:
            raise ValueError(str(error)) from None
        return config

    @on(RadioSet.Changed, "#setup-opponent")
    def _opponent_changed(self, event: RadioSet.Changed) -> None:
        # None against the strongest AI by default; once the user has chosen, their choice stays.
        opponent = event.pressed.name or ""
        self.query_one("#takebacks", CheckChoice).set_default(default_takebacks(self.entry.game.name, opponent))

    @on(Input.Submitted)
    def _next_field(self) -> None:
        self.focus_next()  # Enter goes on, as Tab does: ctrl+s is the one key that starts

    @on(Button.Pressed, "#setup-start")
    def action_start(self) -> None:
        try:
            config = self.read_config()
        except ValueError as error:
            message = self.query_one("#setup-message", Static)
            message.update(Text(f"Not yet: {error}", style="bold"))
            message.display = True
            return
        self.post_message(OpenGame(self.entry.name, config, setup=False))

    def action_back(self) -> None:
        self.post_message(ShowMenu())
