"""The set-up screen of Nim and the other heap games: heaps, rule, normal or misere play, opponent and side."""

from __future__ import annotations

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
    HeapRule,
    Nim,
    Octal,
    Subtraction,
    format_heaps,
    parse_heaps,
    parse_rule,
)
from tui.config import MAX_HEAP, MAX_HEAPS, MAX_SPLIT_STONES, NIM_OPPONENTS, ConfigError, NimConfig, check_heaps
from tui.messages import OpenGame, ShowMenu
from tui.screens.base import NashplayScreen
from tui.widgets.choice import ChoiceButton
from tui.widgets.footer import NashplayFooter

PaletteEntry = tuple[str, str, str]

RULE_CHOICES: list[tuple[str, str]] = [
    ("nim", "Nim: take any number"),
    ("subtraction", "Subtraction game: the set below"),
    ("kayles", "Kayles (0.77): 1 or 2 pins"),
    ("dawsons-kayles", "Dawson's Kayles (0.07): 2 pins"),
    ("octal", "Take-and-break: the octal code below"),
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

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("ctrl+s", "start", "Start"),
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
                yield Label("Heaps", classes="heading")
                yield Static(
                    f"Stones per heap, e.g. 3,4,5: at most {MAX_HEAPS} heaps of {MAX_HEAP} "
                    f"({MAX_SPLIT_STONES} stones in all for take-and-break games)",
                    classes="hint",
                )
                yield Input(format_heaps(config.heaps), placeholder="e.g. 3,4,5", id="nim-heaps")
                yield Label("Rule", classes="heading")
                with RadioSet(id="nim-rule"):
                    for name, description in RULE_CHOICES:
                        yield ChoiceButton(description, value=name == chosen, name=name)
                yield Label("Subtraction set", classes="hint")
                yield Input(subtraction, placeholder="e.g. 1,3,4", id="nim-set")
                yield Label("Octal code", classes="hint")
                yield Input(octal, placeholder="e.g. 0.137", id="nim-octal")
            with Vertical(id="nim-setup-right"):
                yield Label("Play", classes="heading")
                with RadioSet(id="nim-play"):
                    yield ChoiceButton("Normal: the last stone wins", value=not config.misere)
                    yield ChoiceButton("Misere: the last stone loses", value=config.misere)
                yield Label("Opponent", classes="heading")
                with RadioSet(id="nim-opponent"):
                    for name, description in OPPONENT_CHOICES.items():
                        yield ChoiceButton(description, value=name == config.opponent, name=name)
                yield Label("Your side (against an AI)", classes="heading")
                with RadioSet(id="nim-side"):
                    yield ChoiceButton("Player 1 (moves first)", value=config.human is Side.P1)
                    yield ChoiceButton("Player 2 (moves second)", value=config.human is Side.P2)
                yield Button("Start (ctrl+s)", id="nim-start", variant="primary")
        yield Static(id="nim-setup-message")
        yield NashplayFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.title = "Nim and impartial games: set-up"
        self.sub_title = "Tab: next field; Enter or ctrl+s: start"
        self.query_one("#nim-heaps", Input).focus()

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
        return NimConfig(heaps, rule, misere, opponent, human, self.config.seed)

    @on(Input.Submitted)
    @on(Button.Pressed, "#nim-start")
    def action_start(self) -> None:
        try:
            config = self.read_config()
        except ValueError as error:
            self.query_one("#nim-setup-message", Static).update(Text(f"Not yet: {error}", style="bold"))
            return
        self.post_message(OpenGame("nim", config, setup=False))

    @on(RadioSet.Changed, "#nim-rule")
    def _rule_changed(self, event: RadioSet.Changed) -> None:
        name = event.pressed.name
        if name in ("subtraction", "octal"):
            self.query_one("#nim-set" if name == "subtraction" else "#nim-octal", Input).focus()

    def action_back(self) -> None:
        self.post_message(ShowMenu())
