"""The Geister-family board: draws one player's view and turns keys and clicks into ``MoveChosen`` messages.

The widget gets a ``GeisterView`` (what one player may know), never the game state, so it cannot show a hidden
colour by mistake. It holds only UI state (cursor, selected piece, orientation); the screen checks and applies
moves with ``core``.

Each square is 5 columns by 2 lines: the first line holds the piece (``B``/``R`` own, ``?`` unknown opponent,
``b``/``r`` a revealed opponent piece) between cursor/selection brackets, the second the square's marks (exits,
the last move's destination, the suggested move's from and to squares when the hint is on). An unknown piece may
carry a digit: its chance of being blue in tenths (``?7``: 70-79%), when the advice has estimated it. Shape carries
every meaning; colour repeats it.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from core.geister import Colour, GeisterView, Piece
from core.notation import FILES, Move, Square
from tui.theme import UNICODE, Glyphs

CELL_WIDTH = 5
CELL_HEIGHT = 2
LABEL_WIDTH = 3


def _tenths(chance: float) -> str:
    """A chance as one digit: its tenths, 0 (under 10%) to 9 (90% or more)."""
    return str(min(9, max(0, int(chance * 10))))


class Board(Widget, can_focus=True):
    """A board drawn from one player's view; that player's side is at the bottom unless flipped."""

    BINDINGS = [
        Binding("up,k", "cursor(0, 1)", "Up", show=False),
        Binding("down,j", "cursor(0, -1)", "Down", show=False),
        Binding("left,h", "cursor(-1, 0)", "Left", show=False),
        Binding("right,l", "cursor(1, 0)", "Right", show=False),
        # Not in the footer (a narrow one cuts its end): the help screen and the README list them.
        Binding("enter,space", "activate", "Pick/drop", show=False),
        Binding("o", "escape_piece", "Escape", show=False),
        Binding("escape", "deselect", "Deselect", show=False),
    ]

    COMPONENT_CLASSES = {
        "board--light",
        "board--dark",
        "board--cursor",
        "board--selected",
        "board--last",
        "board--red",
        "board--blue",
        "board--unknown",
        "board--mark",
        "board--hint",
        "board--label",
    }

    DEFAULT_CSS = """
    Board { width: auto; height: auto; }
    """

    class MoveChosen(Message):
        """The user dropped a piece (or sent it out through an exit)."""

        def __init__(self, board: Board, move: Move) -> None:
            super().__init__()
            self.board = board
            self.move = move

    class Hint(Message):
        """Something the user tried that needs a word of explanation (nothing was played)."""

        def __init__(self, board: Board, text: str) -> None:
            super().__init__()
            self.board = board
            self.text = text

    view: reactive[GeisterView | None] = reactive(None, layout=True)
    cursor: reactive[Square] = reactive(Square(0, 0))
    selected: reactive[Square | None] = reactive(None)
    flipped: reactive[bool] = reactive(False, layout=True)
    #: Accept picks and drops; a replay board (or a finished game's) only shows.
    interactive: reactive[bool] = reactive(True)
    #: What to tell a user who tries to move while the board is not interactive (empty: say nothing).
    inactive_hint: str = ""
    #: The suggested move, marked on its squares (``None``: no hint shown).
    hint: reactive[Move | None] = reactive(None)
    #: Opponent pieces' chances of being blue, by square (drawn as a digit beside the ``?``).
    blue_chances: reactive[tuple[tuple[Square, float], ...]] = reactive(())

    def __init__(
        self, glyphs: Glyphs = UNICODE, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.glyphs = glyphs

    # ---- geometry

    def _orientation(self) -> bool:
        """True when player 2's side is drawn at the bottom (board turned 180 degrees)."""
        view = self.view
        bottom_is_p2 = view is not None and view.viewer.number == 2
        return bottom_is_p2 != self.flipped

    def _rows_and_files(self) -> tuple[list[int], list[int]]:
        assert self.view is not None
        variant = self.view.variant
        ranks = list(range(variant.height - 1, -1, -1))
        files = list(range(variant.width))
        if self._orientation():
            ranks.reverse()
            files.reverse()
        return ranks, files

    def get_content_width(self, container: Size, viewport: Size) -> int:
        width = self.view.variant.width if self.view else 4
        return LABEL_WIDTH + width * CELL_WIDTH

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        height = self.view.variant.height if self.view else 4
        return height * CELL_HEIGHT + 1

    def square_at(self, x: int, y: int) -> Square | None:
        """The square under content offset ``(x, y)``, for mouse clicks."""
        if self.view is None or x < LABEL_WIDTH:
            return None
        ranks, files = self._rows_and_files()
        row, column = y // CELL_HEIGHT, (x - LABEL_WIDTH) // CELL_WIDTH
        if 0 <= row < len(ranks) and 0 <= column < len(files):
            return Square(files[column], ranks[row])
        return None

    # ---- drawing

    def render(self) -> Text:
        text = Text(no_wrap=True, end="")
        view = self.view
        if view is None:
            text.append("no game", style=self._style("board--label"))
            return text
        variant = view.variant
        ranks, files = self._rows_and_files()
        last = view.last_move
        own_exits = set(variant.exits[view.viewer])
        opponent_exits = set(variant.exits[view.viewer.other])
        label = self._style("board--label")
        targets = self._targets()
        for row, rank in enumerate(ranks):
            for line in range(CELL_HEIGHT):
                text.append(f"{rank + 1:>2} " if line == 0 else "   ", style=label)
                for file in files:
                    square = Square(file, rank)
                    background = self._background(square, (file + rank) % 2 == 0, last)
                    if line == 0:
                        self._draw_piece_line(text, square, view.piece_at(square), background, last)
                    else:
                        self._draw_mark_line(text, square, background, own_exits, opponent_exits, targets)
                if row < len(ranks) - 1 or line < CELL_HEIGHT - 1:
                    text.append("\n", style=label)
        text.append("\n   ", style=label)
        text.append("".join(FILES[f].center(CELL_WIDTH) for f in files), style=label)
        return text

    def _targets(self) -> set[Square]:
        """Where the picked piece may move (none while nothing is picked or the board takes no move)."""
        view, picked = self.view, self.selected
        if view is None or picked is None or not self.interactive:
            return set()
        return {move.dst for move in view.legal_moves() if move.src == picked and move.dst is not None}

    def _draw_mark_line(
        self,
        text: Text,
        square: Square,
        background: Style,
        own_exits: set[Square],
        opponent_exits: set[Square],
        targets: set[Square],
    ) -> None:
        """A cell's second line: an exit's arrows at both edges (never covered), and between them the marks of the
        square: the hint (diamonds), where the picked piece may go (+), the last move's arrival (a dot). Each has a
        shape of its own, so that none needs colour to be told apart."""
        glyphs = self.glyphs
        exit_mark = (
            glyphs.own_exit if square in own_exits else glyphs.opponent_exit if square in opponent_exits else " "
        )
        hinted = self._hint_mark(self.hint, square)
        last = self.view.last_move if self.view is not None else None
        marks = hinted + (glyphs.target if square in targets else "")
        if last is not None and last.dst == square and len(marks) < CELL_WIDTH - 2:
            marks += glyphs.last_to
        style = "board--hint" if hinted else "board--mark"
        text.append(exit_mark, style=self._combine(background, "board--mark"))
        text.append(marks[: CELL_WIDTH - 2].center(CELL_WIDTH - 2), style=self._combine(background, style))
        text.append(exit_mark, style=self._combine(background, "board--mark"))

    def _hint_mark(self, hint: Move | None, square: Square) -> str:
        """The hint's mark for ``square``: from, to, or both for an escape (the piece leaves from there)."""
        if hint is None:
            return ""
        if hint.src == square:
            return self.glyphs.hint_from + (self.glyphs.hint_to if hint.dst is None else "")
        if hint.dst == square:
            return self.glyphs.hint_to
        return ""

    def _draw_piece_line(
        self, text: Text, square: Square, piece: Piece | None, background: Style, last: Move | None
    ) -> None:
        glyphs = self.glyphs
        assert self.view is not None
        left = right = " "
        if self.cursor == square and self.has_focus and self.interactive:
            left, right = glyphs.cursor_left, glyphs.cursor_right
        # The picked piece's marks win over the cursor's: picking leaves the cursor on the piece, and the user must see
        # at once that it is picked (the cursor's brackets hid it until the cursor moved away).
        if self.selected == square:
            left, right = glyphs.selected_left, glyphs.selected_right
        if piece is None:
            glyph = glyphs.last_from if last is not None and last.src == square else " "
            fg = "board--mark"
        else:
            glyph, fg = self._piece_glyph(piece)
            if right == " " and piece.side is not self.view.viewer and piece.colour is Colour.UNKNOWN:
                right = next((_tenths(p) for sq, p in self.blue_chances if sq == square), " ")
        text.append(f" {left}", style=self._combine(background, "board--label"))
        text.append(glyph, style=self._combine(background, fg) + Style(bold=True))
        text.append(f"{right} ", style=self._combine(background, "board--label"))

    def _piece_glyph(self, piece: Piece) -> tuple[str, str]:
        assert self.view is not None
        own = piece.side is self.view.viewer
        if piece.colour is Colour.UNKNOWN:
            return (self.glyphs.unknown if not own else "U"), "board--unknown"
        letter = piece.colour.value if own else piece.colour.value.lower()
        return letter, "board--red" if piece.colour is Colour.RED else "board--blue"

    def _background(self, square: Square, dark: bool, last: Move | None) -> Style:
        if self.selected == square:
            return self._style("board--selected")
        if self.cursor == square and self.has_focus and self.interactive:
            return self._style("board--cursor")
        if last is not None and square in (last.src, last.dst):
            return self._style("board--last")
        return self._style("board--dark" if dark else "board--light")

    def _style(self, component: str) -> Style:
        return self.get_component_rich_style(component, partial=True)

    def _combine(self, background: Style, component: str) -> Style:
        foreground = self._style(component)
        return Style(color=foreground.color, bgcolor=background.bgcolor, bold=foreground.bold)

    # ---- behaviour

    def watch_view(self, old: GeisterView | None, new: GeisterView | None) -> None:
        if new is None:
            return
        if old is None or old.variant != new.variant or not new.variant.on_board(self.cursor):
            own = [sq for sq, _ in new.pieces(new.viewer)]
            self.cursor = own[0] if own else Square(0, 0)
        if self.selected is not None:
            piece = new.piece_at(self.selected)
            if piece is None or piece.side is not new.viewer:
                self.selected = None

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_cursor(self, dx: int, dy: int) -> None:
        if self.view is None:
            return
        if self._orientation():
            dx, dy = -dx, -dy
        target = self.cursor.offset(dx, dy)
        if self.view.variant.on_board(target):
            self.cursor = target

    def action_activate(self) -> None:
        self.activate(self.cursor)

    def _playable_view(self) -> GeisterView | None:
        """The view if the board takes moves now; else None (saying why, when the screen gave a reason)."""
        if self.view is not None and not self.interactive:
            if self.inactive_hint:
                self.post_message(self.Hint(self, self.inactive_hint))
            return None
        return self.view

    def activate(self, square: Square) -> None:
        """Pick the piece on ``square`` or drop the picked piece there."""
        view = self._playable_view()
        if view is None:
            return
        piece = view.piece_at(square)
        if self.selected is None:
            if piece is None or piece.side is not view.viewer:
                self.post_message(self.Hint(self, f"{square}: pick one of your own pieces first"))
                return
            self.selected = square
            return
        if square == self.selected:
            self.selected = None
            return
        if piece is not None and piece.side is view.viewer:
            self.selected = square
            return
        move = Move(self.selected, square)
        self.selected = None
        self.post_message(self.MoveChosen(self, move))

    def action_escape_piece(self) -> None:
        """Send the picked piece (or the one under the cursor) out through an exit."""
        view = self._playable_view()
        if view is None:
            return
        square = self.selected or self.cursor
        piece = view.piece_at(square)
        if piece is None or piece.side is not view.viewer:
            self.post_message(self.Hint(self, "pick one of your pieces on an exit, then press o to escape"))
            return
        self.selected = None
        self.post_message(self.MoveChosen(self, Move(square, None)))

    def action_deselect(self) -> None:
        if self.selected is None:
            raise SkipAction  # nothing picked: Esc goes on to the screen (back to the menu)
        self.selected = None

    def on_click(self, event: events.Click) -> None:
        square = self.square_at(event.x, event.y)
        if square is None:
            return
        self.focus()
        self.cursor = square
        self.activate(square)
