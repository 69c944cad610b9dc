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
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Footer, Header, Label, RadioButton, RadioSet, Static

from core.errors import IllegalMoveError, NotationError
from core.game import Side
from core.geister import Colour, Setup, Variant, variant_by_name
from core.notation import Square
from tui.screens.base import NashplayScreen
from tui.session import GameConfig, opponents_for
from tui.widgets.choice import ChoiceButton

#: The thinking times offered for the search AIs (the UPP paper's experiments used 0.25, 0.5 and 1 s).
THINK_TIMES = (0.25, 0.5, 1.0, 2.0)


class SetupPicker(Widget, can_focus=True):
    """The player's set-up squares, drawn as on the board; Space or Enter turns a piece red or blue."""

    BINDINGS = [
        Binding("left,h", "move(-1, 0)", "Left", show=False),
        Binding("right,l", "move(1, 0)", "Right", show=False),
        Binding("up,k", "move(0, 1)", "Up", show=False),
        Binding("down,j", "move(0, -1)", "Down", show=False),
        Binding("space,enter", "flip_colour", "Red/blue"),
    ]

    COMPONENT_CLASSES = {"picker--red", "picker--blue", "picker--cursor", "picker--label"}

    DEFAULT_CSS = """
    SetupPicker { width: auto; height: auto; padding: 0 1; }
    SetupPicker > .picker--red { color: $piece-red; text-style: bold; }
    SetupPicker > .picker--blue { color: $piece-blue; text-style: bold; }
    SetupPicker > .picker--cursor { background: $square-cursor; }
    SetupPicker > .picker--label { color: $text-muted; }
    """

    class Changed(Message):
        def __init__(self, picker: SetupPicker) -> None:
            super().__init__()
            self.picker = picker

    colours: reactive[tuple[Colour, ...]] = reactive((), layout=True)
    cursor: reactive[int] = reactive(0)

    def __init__(self, variant: Variant, side: Side, setup: Setup, id: str | None = None) -> None:
        super().__init__(id=id)
        self.variant = variant
        self.side = side
        self.set_reactive(SetupPicker.colours, setup.colours)

    def configure(self, side: Side, setup: Setup) -> None:
        self.side = side
        self.cursor = 0
        self.colours = setup.colours
        self.refresh(layout=True)

    @property
    def setup(self) -> Setup:
        return Setup(self.colours)

    def _grid(self) -> list[list[int | None]]:
        """Slots laid out as on the board, the player's home row at the bottom."""
        squares = self.variant.setup_squares[self.side]
        ranks = sorted({s.rank for s in squares}, reverse=self.side is Side.P1)
        files = sorted({s.file for s in squares}, reverse=self.side is Side.P2)
        index = {sq: i for i, sq in enumerate(squares)}
        return [[index.get(Square(f, r)) for f in files] for r in ranks]

    def render(self) -> Text:
        text = Text(end="")
        squares = self.variant.setup_squares[self.side]
        label = self.get_component_rich_style("picker--label", partial=True)
        for row_number, row in enumerate(self._grid()):
            if row_number:
                text.append("\n")
            for slot in row:
                if slot is None:
                    text.append("      ", style=label)
                    continue
                colour = self.colours[slot]
                style = self.get_component_rich_style(
                    "picker--red" if colour is Colour.RED else "picker--blue", partial=True
                )
                if slot == self.cursor and self.has_focus:
                    style = style + self.get_component_rich_style("picker--cursor", partial=True)
                mark = ("[", "]") if slot == self.cursor else (" ", " ")
                text.append(f"{mark[0]}{colour.value}{mark[1]}", style=style)
                text.append(f"{squares[slot].name:<3}", style=label)
        return text

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, dx: int, dy: int) -> None:
        grid = self._grid()
        for r, row in enumerate(grid):
            if self.cursor in row:
                c = row.index(self.cursor)
                r2, c2 = r - dy, c + dx
                if 0 <= r2 < len(grid) and 0 <= c2 < len(grid[r2]) and grid[r2][c2] is not None:
                    self.cursor = grid[r2][c2]  # type: ignore[assignment]
                return

    def action_flip_colour(self) -> None:
        colours = list(self.colours)
        colours[self.cursor] = Colour.BLUE if colours[self.cursor] is Colour.RED else Colour.RED
        self.colours = tuple(colours)
        self.post_message(self.Changed(self))


class SetupScreen(NashplayScreen):
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

    def __init__(self, variant_name: str, config: GameConfig | None = None) -> None:
        super().__init__()
        self.variant: Variant = variant_by_name(variant_name)
        self.config = config or GameConfig(variant=variant_name)
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
                    for name, description in opponents_for(self.variant.name).items():
                        yield ChoiceButton(f"{name}: {description}", value=name == self.config.opponent, name=name)
                yield Label("Thinking time (mc, upp, ismcts)", classes="heading")
                with RadioSet(id="think-time"):
                    for seconds in THINK_TIMES:
                        yield ChoiceButton(
                            f"{seconds:g} s per move", value=seconds == self.config.think_time, name=f"{seconds:g}"
                        )
        yield Static(id="setup-message")
        yield Footer()

    def on_mount(self) -> None:
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
        from tui.screens.menu import MenuScreen

        self.app.switch_screen(MenuScreen())

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
        self.nashplay.start_game(config)
