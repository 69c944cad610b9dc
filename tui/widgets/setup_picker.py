"""The set-up picker: a player's set-up squares drawn as on the board, each piece red or blue (Space or Enter
flips the one under the cursor). The Geister set-up screen and the contest server screen use it."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from core.game import Side
from core.geister import Colour, Setup, Variant
from core.notation import Square


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
    SetupPicker { width: auto; height: auto; padding: 0 1; margin: 1 0; }
    SetupPicker:focus { background: $boost; }
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
