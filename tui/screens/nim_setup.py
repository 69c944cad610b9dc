"""The set-up screen of Nim and the other heap games: heaps, rule, normal or misere play, opponent and side; ctrl+s
starts (the one start key of every set-up screen: the button, the footer and the help say it). Enter in a field
goes on to the next one. Below 100x30 the screen is compact (no margins), so it fits 80x24."""

from __future__ import annotations

import textwrap
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Input, Label, RadioSet, Static

from core.errors import InvalidPositionError, NotationError
from core.game import Side
from core.impartial import (
    DAWSONS_KAYLES,
    KAYLES,
    MAX_SPLIT_STONES,
    HeapRule,
    Nim,
    Octal,
    Subtraction,
    format_heaps,
    parse_heaps,
    parse_rule,
)
from tui.config import MAX_HEAP, MAX_HEAPS, NIM_OPPONENTS, ConfigError, NimConfig, check_heaps
from tui.game_clock import OFFERED_CLOCKS
from tui.game_life import default_takebacks, takebacks_allowed
from tui.messages import OpenGame, ShowMenu
from tui.screens.base import NashplayScreen
from tui.widgets.choice import CheckChoice, ChoiceButton, ChoiceSet, CycleChoice
from tui.widgets.footer import NashplayFooter

PaletteEntry = tuple[str, str, str]

#: The rules offered: (name, the choice's label, what a move may do under it).
RULE_CHOICES: list[tuple[str, str, str]] = [
    ("nim", "Nim", "take any number of stones from one heap"),
    ("subtraction", "Subtraction game", "take a number of stones that is in the set"),
    ("kayles", "Kayles (0.77)", "knock down 1 pin or 2 neighbours; a row may break in two"),
    ("dawsons-kayles", "Dawson's Kayles (0.07)", "knock down 2 neighbouring pins; a row may break in two"),
    ("octal", "Take-and-break (octal)", "the code's digits say how many a move takes and how the rest may break"),
]

OPPONENT_CHOICES: dict[str, str] = {
    "perfect": "The perfect player",
    "random": "A random player",
    "human": "Two people, one keyboard",
}


class NimSetupScreen(NashplayScreen):
    """Heaps, rule, normal or misere play, opponent and side; then Start."""

    #: This screen's own styles (loaded when it first shows).
    CSS_PATH = "nim.tcss"
    SHRINK_BELOW = (100, 30)

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("ctrl+s", "start", "Start", key_display="ctrl+s", priority=True),
        Binding("escape", "back", "Menu"),
    ]

    PALETTE: ClassVar[list[PaletteEntry]] = [
        ("Start the game", "Play with these heaps and this rule", "start"),
        ("Back to the menu", "Choose another game", "back"),
    ]

    game_name = "nim"

    def __init__(self, config: NimConfig) -> None:
        super().__init__()
        self.config = config

    def _rule_choice(self) -> str:
        rule = self.config.rule
        if isinstance(rule, Nim):
            return "nim"
        if isinstance(rule, Subtraction):
            return "subtraction"
        if rule == KAYLES:
            return "kayles"
        if rule == DAWSONS_KAYLES:
            return "dawsons-kayles"
        return "octal"

    def compose(self) -> ComposeResult:
        config = self.config
        chosen = self._rule_choice()
        subtraction = config.rule.text.strip("{}") if isinstance(config.rule, Subtraction) else "1,2,3"
        octal = config.rule.text if chosen == "octal" else "0.137"
        yield Header()
        with Horizontal(id="nim-setup-main"):
            with Vertical(id="nim-setup-left"):
                yield Label("Heaps (stones per heap)", classes="heading")
                yield Static(f"e.g. 3,4,5; up to {MAX_HEAPS} heaps of {MAX_HEAP}", classes="hint one-line")
                yield Input(format_heaps(config.heaps), placeholder="e.g. 3,4,5", id="nim-heaps")
                yield Label("Rule", classes="heading")
                with ChoiceSet(id="nim-rule"):
                    for name, label, _ in RULE_CHOICES:
                        yield ChoiceButton(label, value=name == chosen, name=name)
                yield Static(id="nim-rule-help", classes="hint one-line")
                # The field a rule reads shows with that rule only.
                with Vertical(id="nim-set-field", classes="rule-field"):
                    yield Label("Subtraction set, e.g. 1,3,4", classes="hint")
                    yield Input(subtraction, placeholder="e.g. 1,3,4", id="nim-set")
                with Vertical(id="nim-octal-field", classes="rule-field"):
                    yield Label("Octal code, e.g. 0.137", classes="hint")
                    yield Input(octal, placeholder="e.g. 0.137", id="nim-octal")
                # Here, not beside the takebacks: at 80x24 the right column has no row to spare.
                yield CycleChoice("Clock", OFFERED_CLOCKS, self.config.clock or "none", id="clock")
            with Vertical(id="nim-setup-right"):
                yield Label("Play", classes="heading")
                with ChoiceSet(id="nim-play"):
                    yield ChoiceButton("Normal: last stone wins", value=not config.misere)
                    yield ChoiceButton("Misere: last stone loses", value=config.misere)
                yield Label("Opponent", classes="heading")
                with ChoiceSet(id="nim-opponent"):
                    for name, description in OPPONENT_CHOICES.items():
                        yield ChoiceButton(description, value=name == config.opponent, name=name)
                yield Label("Your side (against an AI)", classes="heading")
                with ChoiceSet(id="nim-side"):
                    yield ChoiceButton("Player 1 (first)", value=config.human is Side.P1)
                    yield ChoiceButton("Player 2 (second)", value=config.human is Side.P2)
                allowed = takebacks_allowed("nim", config.opponent, config.takebacks)
                yield CheckChoice("Takebacks allowed", allowed, id="takebacks")
                yield Button("Start (ctrl+s)", id="nim-start", variant="primary")
        yield Static(id="nim-setup-message", classes="one-line")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        title = "Nim and impartial games: set-up"
        self.set_titles(
            (title, "Tab: next field; ctrl+s: start"), (title, "ctrl+s starts"), ("Nim: set-up", "ctrl+s starts")
        )
        self.query_one("#nim-setup-message").display = False
        self._show_rule(self._rule_choice())
        self.query_one("#nim-heaps", Input).focus()

    def size_changed(self) -> None:
        self._show_rule(self._pressed("#nim-rule") or self._rule_choice())

    def _show_rule(self, name: str) -> None:
        """What the chosen rule lets a move do, and the field it reads (if any)."""
        help_text = next((text for choice, _, text in RULE_CHOICES if choice == name), "")
        if name not in ("nim", "subtraction"):
            help_text += f" (at most {MAX_SPLIT_STONES} stones in all)"  # take-and-break games search further
        width = max(20, (self.app.size.width - (2 if self.compact else 4)) // 2 - 2)
        self.query_one("#nim-rule-help", Static).update("\n".join(textwrap.wrap(help_text, width)))
        self.query_one("#nim-set-field").display = name == "subtraction"
        self.query_one("#nim-octal-field").display = name == "octal"

    def _pressed(self, selector: str) -> str:
        button = self.query_one(selector, RadioSet).pressed_button
        return button.name if button is not None and button.name else ""

    def read_config(self) -> NimConfig:
        """The config the form describes; raises ``ValueError`` with a message for the user."""
        try:
            heaps = parse_heaps(self.query_one("#nim-heaps", Input).value)
        except InvalidPositionError as error:
            raise ValueError(f"Heaps: {error}") from None
        choice = self._pressed("#nim-rule") or "nim"
        rule: HeapRule
        try:
            if choice == "subtraction":
                text = self.query_one("#nim-set", Input).value.strip()
                rule = parse_rule(text if text.startswith("{") else "{" + text + "}")
                if not isinstance(rule, Subtraction):
                    raise NotationError(f"{text!r} is not a subtraction set like 1,2,3")
            elif choice == "octal":
                rule = parse_rule(self.query_one("#nim-octal", Input).value)
                if not isinstance(rule, Octal):
                    raise NotationError("expected an octal code like 0.137")
            else:
                rule = parse_rule(choice)
        except NotationError as error:
            raise ValueError(f"Rule: {error}") from None
        try:
            check_heaps(heaps, rule)
        except ConfigError as error:
            raise ValueError(f"Heaps: {error}") from None
        misere = self.query_one("#nim-play", RadioSet).pressed_index == 1
        pressed = self._pressed("#nim-opponent")
        opponent = next((name for name in NIM_OPPONENTS if name == pressed), self.config.opponent)
        human = Side.P2 if self.query_one("#nim-side", RadioSet).pressed_index == 1 else Side.P1
        takebacks = self.query_one("#takebacks", CheckChoice).value
        clock = self.query_one("#clock", CycleChoice).value
        return NimConfig(
            heaps, rule, misere, opponent, human, self.config.seed, takebacks, None if clock == "none" else clock
        )

    @on(Input.Submitted)
    def _next_field(self) -> None:
        # Enter goes on to the next field, as Tab does: ctrl+s is the one key that starts.
        self.focus_next()

    @on(Button.Pressed, "#nim-start")
    def action_start(self) -> None:
        try:
            config = self.read_config()
        except ValueError as error:
            message = self.query_one("#nim-setup-message", Static)
            message.update(Text(f"Not yet: {error}", style="bold"))
            message.display = True
            return
        self.post_message(OpenGame("nim", config, setup=False))

    @on(RadioSet.Changed, "#nim-opponent")
    def _opponent_changed(self, event: RadioSet.Changed) -> None:
        # None against the perfect player by default; once the user has chosen, their choice stays.
        self.query_one("#takebacks", CheckChoice).set_default(default_takebacks("nim", event.pressed.name or ""))

    @on(RadioSet.Changed, "#nim-rule")
    def _rule_changed(self, event: RadioSet.Changed) -> None:
        name = event.pressed.name or "nim"
        self._show_rule(name)
        if name in ("subtraction", "octal"):
            self.query_one("#nim-set" if name == "subtraction" else "#nim-octal", Input).focus()

    def action_back(self) -> None:
        self.post_message(ShowMenu())
