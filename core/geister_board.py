"""The Geister family's board: pieces, variants, set-ups, the move rules and the position notation.

Geister 6x6, Mini-Geister 4x4 and the 3-vs-2 Mini-Geister variants are the same game with different numbers
(``spec/rules.md`` section 1); a ``Variant`` holds them. This module is everything about a position that does not
need a game in progress: which pieces exist, where they may step, and how a position reads and writes as text.
``core.geister`` plays games on it.

Identity of pieces: every piece carries the index of its set-up square (its *slot*). Slots are public (anyone can
see where a piece started), colours are not, which is why a slot never depends on a colour. The contest protocol's
piece letters and the search AIs' per-piece beliefs hang on slots.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from typing import Literal

from core.errors import IllegalMoveError, InvalidPositionError, NotationError, quoted
from core.game import Side
from core.notation import MAX_BOARD, Move, Square

__all__ = [
    "GEISTER",
    "MINI_GEISTER",
    "VARIANTS",
    "Colour",
    "ParsedPosition",
    "Piece",
    "Setup",
    "Variant",
    "format_position",
    "hide_colours",
    "moves_for",
    "parse_position",
    "variant_by_name",
    "why_illegal",
]


class Colour(Enum):
    BLUE = "B"
    RED = "R"
    UNKNOWN = "U"

    def letter(self, side: Side) -> str:
        """``B``/``R``/``U`` for player 1, lower case for player 2, as in the position notation."""
        return self.value if side is Side.P1 else self.value.lower()

    @property
    def word(self) -> str:
        return {"B": "blue", "R": "red", "U": "unknown"}[self.value]


@dataclass(frozen=True, slots=True)
class Piece:
    side: Side
    colour: Colour
    slot: int

    @property
    def letter(self) -> str:
        return self.colour.letter(self.side)

    def hidden(self) -> Piece:
        return Piece(self.side, Colour.UNKNOWN, self.slot)


# --------------------------------------------------------------------------------------------------- variants


@dataclass(frozen=True)
class Variant:
    """Everything that differs between members of the family. Per-player fields are ``(player 1, player 2)``."""

    name: str
    title: str
    width: int
    height: int
    setup_squares: tuple[tuple[Square, ...], tuple[Square, ...]]
    blues: tuple[int, int]
    reds: tuple[int, int]
    exits: tuple[tuple[Square, ...], tuple[Square, ...]]
    #: A game reaching this many plies without an end is a draw; ``None``: no limit (the exact solvers).
    ply_limit: int | None = None

    def pieces(self, side: Side) -> int:
        return self.blues[side] + self.reds[side]

    def on_board(self, square: Square) -> bool:
        return 0 <= square.file < self.width and 0 <= square.rank < self.height

    def index(self, square: Square) -> int:
        return square.rank * self.width + square.file

    def square(self, index: int) -> Square:
        return Square(index % self.width, index // self.width)

    def squares(self) -> Iterator[Square]:
        for index in range(self.width * self.height):
            yield self.square(index)

    def forward(self, side: Side) -> int:
        """+1 if ``side`` advances toward higher ranks (player 1), -1 otherwise."""
        return 1 if side is Side.P1 else -1

    def far_rank(self, side: Side) -> int:
        """The rank farthest from ``side``'s home: where its exits are."""
        return self.height - 1 if side is Side.P1 else 0

    def setup_text_help(self, side: Side) -> str:
        squares = " ".join(sq.name for sq in self.setup_squares[side])
        return f"{self.pieces(side)} letters B/R for {squares}, with {self.blues[side]} B and {self.reds[side]} R"

    def parse_setup(self, text: str, side: Side) -> Setup:
        """Read a set-up: one ``B``/``R`` per set-up square, in the variant's order; ``?`` alone means hidden, and
        ``?`` for one square means that square's colour is hidden (a record made before the game's end)."""
        cleaned = text.strip().upper()
        if cleaned == "?":
            return Setup((Colour.UNKNOWN,) * self.pieces(side))
        if len(cleaned) != self.pieces(side) or set(cleaned) - {"B", "R", "?"}:
            raise NotationError(f"{quoted(text)} is not a set-up for {side}: expected {self.setup_text_help(side)}")
        setup = Setup(tuple(Colour.UNKNOWN if c == "?" else Colour(c) for c in cleaned))
        self.check_setup(setup, side)
        return setup

    def check_setup(self, setup: Setup, side: Side) -> None:
        if len(setup.colours) != self.pieces(side):
            raise IllegalMoveError(f"{side} has {self.pieces(side)} pieces, the set-up names {len(setup.colours)}")
        if setup.is_hidden:
            return
        blues = setup.colours.count(Colour.BLUE)
        if not setup.is_complete:
            reds = setup.colours.count(Colour.RED)
            if blues > self.blues[side] or reds > self.reds[side]:
                raise IllegalMoveError(
                    f"{setup} names {blues} blue and {reds} red pieces; {side} has {self.blues[side]} blue and "
                    f"{self.reds[side]} red"
                )
            return
        if blues != self.blues[side]:
            raise IllegalMoveError(
                f"{setup} has {blues} blue pieces; {side} needs {self.blues[side]} blue and {self.reds[side]} red"
            )

    def setups(self, side: Side) -> list[Setup]:
        """Every legal set-up of ``side``, in a fixed order."""
        n = self.pieces(side)
        result = []
        for reds in itertools.combinations(range(n), self.reds[side]):
            result.append(Setup(tuple(Colour.RED if i in reds else Colour.BLUE for i in range(n))))
        return result

    def standard_start(self, first: Side = Side.P1) -> str:
        """The start position with every colour hidden, e.g. ``1uu1/4/4/1UU1 1`` for Mini-Geister."""
        board: list[Piece | None] = [None] * (self.width * self.height)
        for side in Side:
            for slot, square in enumerate(self.setup_squares[side]):
                board[self.index(square)] = Piece(side, Colour.UNKNOWN, slot)
        return format_position(self, board, first, (), 0, short=True)


def _squares(text: str) -> tuple[Square, ...]:
    return tuple(Square.parse(name) for name in text.split())


GEISTER = Variant(
    name="geister",
    title="Geister",
    width=6,
    height=6,
    # Each player's set-up order is its back row then its front row, files from a (the up-down mirror).
    setup_squares=(_squares("b1 c1 d1 e1 b2 c2 d2 e2"), _squares("b6 c6 d6 e6 b5 c5 d5 e5")),
    blues=(4, 4),
    reds=(4, 4),
    exits=(_squares("a6 f6"), _squares("a1 f1")),
    ply_limit=300,
)

MINI_GEISTER = Variant(
    name="mini-geister",
    title="Mini-Geister",
    width=4,
    height=4,
    setup_squares=(_squares("b1 c1"), _squares("b4 c4")),
    blues=(1, 1),
    reds=(1, 1),
    exits=(_squares("a4 d4"), _squares("a1 d1")),
    # The solver plays without a limit (endless play is value 0); people get a draw after 200 plies.
    ply_limit=200,
)


def mini_geister_3v2(colours: Literal["rrb", "rbb"], three_piece_side: Side = Side.P1) -> Variant:
    """Section 6 of the Mini-Geister paper: one side has a third piece on b2 (b3 when it is player 2)."""
    reds = colours.count("r")
    blues = 3 - reds
    three = (_squares("b1 c1 b2"), _squares("b4 c4 b3"))
    two = (_squares("b1 c1"), _squares("b4 c4"))
    p1_three = three_piece_side is Side.P1
    counts = ((blues, reds), (1, 1)) if p1_three else ((1, 1), (blues, reds))
    name = f"mini-geister-{'3v2' if p1_three else '2v3'}-{colours}"
    # Player 1's pieces first, as the name says (3v2, 2v3), and whose the three pieces are, with their colours.
    counted = "3 vs 2" if p1_three else "2 vs 3"
    who = "player 1" if p1_three else "player 2"
    pieces = "-".join(colours.replace("r", "red ").replace("b", "blue ").split())
    return replace(
        MINI_GEISTER,
        name=name,
        title=f"Mini-Geister {counted} ({who}: {pieces})",
        setup_squares=(three[0], two[1]) if p1_three else (two[0], three[1]),
        blues=(counts[0][0], counts[1][0]),
        reds=(counts[0][1], counts[1][1]),
    )


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        GEISTER,
        MINI_GEISTER,
        mini_geister_3v2("rrb"),
        mini_geister_3v2("rbb"),
        mini_geister_3v2("rrb", Side.P2),
        mini_geister_3v2("rbb", Side.P2),
    )
}


def variant_by_name(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise NotationError(f"unknown game {quoted(name)}: expected one of {known}") from None


# --------------------------------------------------------------------------------------------------- set-ups


@dataclass(frozen=True, slots=True)
class Setup:
    """Which pieces are red: one colour per set-up square, in the variant's order (``BRRB...``)."""

    colours: tuple[Colour, ...]

    @property
    def is_hidden(self) -> bool:
        return all(c is Colour.UNKNOWN for c in self.colours)

    @property
    def is_complete(self) -> bool:
        """Every colour named: what a player's own set-up must be."""
        return Colour.UNKNOWN not in self.colours

    def to_text(self) -> str:
        """``BRRB...``; ``?`` for a hidden set-up, and ``?`` for each hidden square of a partly known one (a
        mid-game record knows the colours its captures revealed)."""
        if self.is_hidden:
            return "?"
        return "".join("?" if c is Colour.UNKNOWN else c.value for c in self.colours)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Setup({self.to_text()!r})"


# --------------------------------------------------------------------------------------------------- move rules


@cache
def _neighbours(variant: Variant) -> tuple[tuple[int, ...], ...]:
    """For each square index, the indices one orthogonal step away (precomputed: move generation is hot)."""
    table = []
    for index in range(variant.width * variant.height):
        square = variant.square(index)
        steps = (square.offset(0, 1), square.offset(0, -1), square.offset(-1, 0), square.offset(1, 0))
        table.append(tuple(variant.index(s) for s in steps if variant.on_board(s)))
    return tuple(table)


@cache
def _exit_indices(variant: Variant) -> tuple[frozenset[int], frozenset[int]]:
    return (
        frozenset(variant.index(s) for s in variant.exits[Side.P1]),
        frozenset(variant.index(s) for s in variant.exits[Side.P2]),
    )


def moves_for(variant: Variant, board: Sequence[Piece | None], side: Side) -> list[Move]:
    """Legal moves of ``side``: needs only occupancy and ``side``'s own colours, so views can use it too."""
    moves: list[Move] = []
    neighbours = _neighbours(variant)
    exits = _exit_indices(variant)[side]
    for index, piece in enumerate(board):
        if piece is None or piece.side is not side:
            continue
        src = variant.square(index)
        if index in exits and piece.colour is not Colour.RED:
            moves.append(Move(src, None))
        for target in neighbours[index]:
            occupant = board[target]
            if occupant is None or occupant.side is not side:
                moves.append(Move(src, variant.square(target)))
    return moves


def why_illegal(variant: Variant, board: Sequence[Piece | None], side: Side, move: Move) -> str | None:
    """The reason ``move`` is illegal for ``side`` on ``board``, in words a player can act on; ``None`` if legal."""
    if not variant.on_board(move.src):
        return f"{move.src} is not on the {variant.width}x{variant.height} board"
    piece = board[variant.index(move.src)]
    if piece is None:
        return f"there is no piece on {move.src}"
    if piece.side is not side:
        return f"the piece on {move.src} belongs to {piece.side}"
    if move.dst is None:
        exits = variant.exits[side]
        if move.src not in exits:
            names = " or ".join(s.name for s in exits)
            return f"a piece escapes only from {side}'s exits ({names}), not from {move.src}"
        if piece.colour is Colour.RED:
            return "a red piece never escapes; only blue pieces leave the board"
        return None
    if not variant.on_board(move.dst):
        return f"{move.dst} is not on the {variant.width}x{variant.height} board"
    if move.src.distance(move.dst) != 1:
        return f"{move} is not one step up, down, left or right"
    target = board[variant.index(move.dst)]
    if target is not None and target.side is side:
        return f"{move.dst} holds one of {side}'s own pieces"
    return None


# --------------------------------------------------------------------------------------------------- positions

_RANK_TOKEN_RE = re.compile(r"[0-9]+|[BRUbru]")

#: The longest position text: 26 ranks of 26 letters with slashes, the side, 52 captured letters and a ply count.
MAX_POSITION_TEXT = 26 * 27 + 2 + 53 + 8
#: A ply count of more digits is no game's (the longest variant stops at 300 plies).
MAX_PLY_DIGITS = 6


def format_position(
    variant: Variant,
    board: Sequence[Piece | None],
    to_move: Side,
    captured: Sequence[Piece],
    ply: int,
    short: bool = False,
) -> str:
    ranks = []
    for rank in range(variant.height - 1, -1, -1):
        text, empty = "", 0
        for file in range(variant.width):
            piece = board[rank * variant.width + file]
            if piece is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += piece.letter
        ranks.append(text + (str(empty) if empty else ""))
    fields = ["/".join(ranks), str(to_move.number)]
    if not (short and not captured and ply == 0):
        fields += ["".join(p.letter for p in captured) or "-", str(ply)]
    return " ".join(fields)


def hide_colours(position: str, viewer: Side) -> str:
    """``position`` as ``viewer`` sees it: the opponent's pieces on the board become ``U``/``u`` (captures stay)."""
    ranks, _, rest = position.partition(" ")
    ranks = re.sub("[br]", "u", ranks) if viewer is Side.P1 else re.sub("[BR]", "U", ranks)
    return f"{ranks} {rest}"


def _piece_from_letter(letter: str, slot: int) -> Piece:
    side = Side.P1 if letter.isupper() else Side.P2
    return Piece(side, Colour(letter.upper()), slot)


@dataclass(frozen=True)
class ParsedPosition:
    variant: Variant
    board: list[Piece | None]
    to_move: Side
    captured: list[Piece]
    ply: int


def parse_position(text: str, variant: Variant | None) -> ParsedPosition:
    # Sizes are checked before anything is built: a damaged save saying "99999999999/4/4/4 1" must be refused
    # as text, not expanded into a list of a hundred billion squares.
    if len(text) > MAX_POSITION_TEXT:
        raise InvalidPositionError(
            f"{quoted(text)} is not a position: longer than {MAX_POSITION_TEXT} characters, "
            "more than any board the notation supports"
        )
    fields = text.split()
    if not 2 <= len(fields) <= 4:
        raise InvalidPositionError(
            f"{quoted(text)} is not a position: expected '<ranks> <to-move> [<captured> [<ply>]]', "
            "like '1uu1/4/4/1UU1 1'"
        )
    rank_texts = fields[0].split("/")
    if len(rank_texts) > MAX_BOARD:
        raise InvalidPositionError(
            f"{quoted(fields[0])} has {len(rank_texts)} ranks: at most {MAX_BOARD} are supported"
        )
    rows: list[list[str | None]] = []
    for number, rank_text in enumerate(rank_texts):
        row: list[str | None] = []
        position = 0
        for token in _RANK_TOKEN_RE.finditer(rank_text):
            if token.start() != position:
                break
            position = token.end()
            if token.group().isdigit():
                # Two digits at most (a rank is at most 26 squares), so ``int`` never meets a digit bomb.
                empty = int(token.group()) if len(token.group()) <= 2 else MAX_BOARD + 1
                if len(row) + empty > MAX_BOARD:
                    raise InvalidPositionError(
                        f"rank {len(rank_texts) - number} of {quoted(text)} covers more than {MAX_BOARD} squares, "
                        "more than the notation supports"
                    )
                row.extend([None] * empty)
            else:
                row.append(token.group())
        if position != len(rank_text) or not rank_text:
            bad = rank_text[position:] or "(empty)"
            raise InvalidPositionError(
                f"rank {len(rank_texts) - number} of {quoted(text)}: unexpected {quoted(bad)}; "
                "expected piece letters B R U b r u and digits for empty squares"
            )
        rows.append(row)
    height, width = len(rows), len(rows[0])
    if any(len(row) != width for row in rows):
        raise InvalidPositionError(
            f"ranks of {quoted(fields[0])} differ in length: every rank must cover {width} squares"
        )
    if width > MAX_BOARD or height > MAX_BOARD:
        raise InvalidPositionError(f"a {width}x{height} board is larger than the notation supports")
    if fields[1] not in ("1", "2"):
        raise InvalidPositionError(f"the side to move is '1' or '2', not {quoted(fields[1])}")
    to_move = Side.from_number(fields[1])
    captured_text = fields[2] if len(fields) > 2 else "-"
    # ``U``/``u`` too: a capture reveals the colour in play, but a record with hidden set-ups ('?') cannot show it.
    if captured_text != "-" and not re.fullmatch(r"[BRUbru]+", captured_text):
        raise InvalidPositionError(
            f"captured pieces {quoted(captured_text)}: expected piece letters B R U b r u, or '-' for none"
        )
    ply_text = fields[3] if len(fields) > 3 else "0"
    if ply_text.startswith("-"):
        raise InvalidPositionError(f"the ply count cannot be negative ({quoted(ply_text)})")
    if not re.fullmatch(f"[0-9]{{1,{MAX_PLY_DIGITS}}}", ply_text):
        raise InvalidPositionError(
            f"the ply count is a number of at most {MAX_PLY_DIGITS} digits, not {quoted(ply_text)}"
        )
    ply = int(ply_text)

    letters = {(r, f): cell for r, row in enumerate(reversed(rows)) for f, cell in enumerate(row) if cell}
    captured_letters = [] if captured_text == "-" else list(captured_text)
    if variant is None:
        variant = _infer_variant(width, height, list(letters.values()) + captured_letters)
    if (variant.width, variant.height) != (width, height):
        raise InvalidPositionError(
            f"{variant.title} is played on {variant.width}x{variant.height}, the position is {width}x{height}"
        )

    # Slots: a piece standing on one of its side's set-up squares takes that square's slot (so a start position
    # keeps the identities a game would give it); the others take the free slots in reading order.
    board: list[Piece | None] = [None] * (width * height)
    free = [list(range(variant.pieces(s))) for s in Side]
    pending: list[tuple[int, str]] = []
    for (rank, file), letter in sorted(letters.items(), key=lambda item: (-item[0][0], item[0][1])):
        side = Side.P1 if letter.isupper() else Side.P2
        square = Square(file, rank)
        if square in variant.setup_squares[side]:
            slot = variant.setup_squares[side].index(square)
            if slot in free[side]:
                free[side].remove(slot)
                board[variant.index(square)] = _piece_from_letter(letter, slot)
                continue
        pending.append((variant.index(square), letter))
    captured: list[Piece] = []

    def take_slot(letter: str) -> int:
        side = Side.P1 if letter.isupper() else Side.P2
        if not free[side]:
            raise InvalidPositionError(
                f"{side} has more than {variant.pieces(side)} pieces in {quoted(text)} ({variant.title})"
            )
        return free[side].pop(0)

    for index, letter in pending:
        board[index] = _piece_from_letter(letter, take_slot(letter))
    for letter in captured_letters:
        captured.append(_piece_from_letter(letter, take_slot(letter)))
    for side in Side:
        for colour, limit in ((Colour.BLUE, variant.blues[side]), (Colour.RED, variant.reds[side])):
            count = sum(1 for p in [*board, *captured] if p and p.side is side and p.colour is colour)
            if count > limit:
                raise InvalidPositionError(f"{side} has {count} {colour.word} pieces; {variant.title} gives {limit}")
    return ParsedPosition(variant, board, to_move, captured, ply)


def _infer_variant(width: int, height: int, letters: list[str]) -> Variant:
    counts = (sum(1 for c in letters if c.isupper()), sum(1 for c in letters if c.islower()))
    candidates = [
        v
        for v in VARIANTS.values()
        if (v.width, v.height) == (width, height) and counts[0] <= v.pieces(Side.P1) and counts[1] <= v.pieces(Side.P2)
    ]
    # Prefer the variant with the fewest pieces that fits (a 2-vs-2 position is Mini-Geister, not 3 vs 2).
    candidates.sort(key=lambda v: v.pieces(Side.P1) + v.pieces(Side.P2))
    if not candidates:
        raise InvalidPositionError(f"no known game is played on a {width}x{height} board with these pieces")
    best = candidates[0]
    tied = [
        v for v in candidates if v.pieces(Side.P1) + v.pieces(Side.P2) == best.pieces(Side.P1) + best.pieces(Side.P2)
    ]
    if len(tied) > 1:
        # Several 3-vs-2 variants fit: the colours on the board may tell them apart.
        fitting = []
        for v in tied:
            ok = True
            for side, upper in ((Side.P1, True), (Side.P2, False)):
                mine = [c.upper() for c in letters if c.isupper() == upper]
                if mine.count("B") > v.blues[side] or mine.count("R") > v.reds[side]:
                    ok = False
            if ok:
                fitting.append(v)
        if len(fitting) != 1:
            names = ", ".join(v.name for v in (fitting or tied))
            raise InvalidPositionError(f"the position fits several games ({names}): say which one")
        best = fitting[0]
    return best
