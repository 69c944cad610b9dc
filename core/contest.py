"""The Geister contest server protocol (``spec/geister-protocol.md``) as values and pure functions: no sockets.

Everything a client must get exactly right lives here, where it is easy to test without a network:

* framing (``LineFramer``): CR LF terminated ASCII lines, split or joined across reads in any way;
* the server's messages (``parse_message``) and the client's commands (``setup_command``, ``move_command``);
* the 48-character board string (``Board``) and its geometry: the server speaks in its own coordinates, always
  from the receiving player's point of view (``x`` 0..5 left to right, ``y`` 0..5 from the opponent's home to
  ours), and turns the board for the second player; nashplay names squares ``a1``..``f6`` from player 1's side;
* and in ``core.contest_game``, ``ContestGame``: a local mirror of one game for one side, built on these.

How server letters map to nashplay's pieces. nashplay identifies a piece by its *slot*, the index of its set-up
square in the variant's order (``b1 c1 d1 e1 b2 c2 d2 e2`` for player 1, ``b6 c6 d6 e6 b5 c5 d5 e5`` for player
2). The server names a player's pieces ``A``..``H``: ``A``..``D`` start on ``y = 4``, ``E``..``H`` on ``y = 5``,
``x = 1..4``, in that player's own view. The server's board is the first player's view; the second player's view
is that board turned by 180 degrees (the spec's example: the first player sees the opponent's ``A`` on ``(4, 1)``).
So a square ``(x, y)`` in the first player's view is nashplay's ``Square(x, 5 - y)``, and in the second player's
view ``Square(5 - x, y)``. Mapping each letter's start square gives the slots: for player 1 ``A B C D`` are slots
4-7 and ``E F G H`` slots 0-3; for player 2 ``A B C D`` are slots 7, 6, 5, 4 and ``E F G H`` slots 3, 2, 1, 0.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from core.errors import IllegalMoveError, NotationError
from core.game import Side
from core.geister import GEISTER, Colour, Setup, Variant
from core.notation import Move, Square

__all__ = [
    "BOARD_SIZE",
    "DEFAULT_BUDGET",
    "DEFAULT_PER_MOVE",
    "DEFAULT_PLY_LIMIT",
    "FIRST_PORT",
    "LETTERS",
    "SECOND_PORT",
    "Accepted",
    "Board",
    "BoardPiece",
    "Clock",
    "DesyncError",
    "GameOver",
    "LineFramer",
    "MalformedMessageError",
    "Message",
    "MoveRequest",
    "ProtocolError",
    "Rejected",
    "Result",
    "SetRequest",
    "command_to_move",
    "contest_variant",
    "from_square",
    "initial_board",
    "letter_of",
    "move_command",
    "parse_message",
    "parse_move_command",
    "parse_red_letters",
    "parse_setup_command",
    "red_letters",
    "setup_command",
    "setup_from_letters",
    "side_for_port",
    "slot_of",
    "to_square",
]

FIRST_PORT = 10000
SECOND_PORT = 10001
#: The reference server's draw limit (plies, both players' moves counted); some forks use 200.
DEFAULT_PLY_LIMIT = 300
#: The reference server's time settings: a budget per player, then an allowance per move.
DEFAULT_BUDGET = 600.0
DEFAULT_PER_MOVE = 10.0
LETTERS = "ABCDEFGH"
BOARD_SIZE = 6
#: Position fields of a piece that has left the board.
CAPTURED_AT = (9, 9)
ESCAPED_AT = (8, 8)
#: A line longer than this is not a protocol message (the longest is 52 characters): stop buffering it.
MAX_LINE = 1024

#: Steps in the server's frame (the mover's own view): north is toward the opponent, ``y - 1``.
DIRECTIONS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "W": (-1, 0), "S": (0, 1)}
_LONG_DIRECTIONS = {"NORTH": "N", "EAST": "E", "WEST": "W", "SOUTH": "S"}


class ProtocolError(ValueError):
    """Something the server sent (or we were about to send) breaks the protocol; the message says what."""


class MalformedMessageError(ProtocolError):
    """A line that is not a message of the protocol, or a board string that does not parse."""


class DesyncError(ProtocolError):
    """The server's board disagrees with our own record of the game (a bug on one side, or a different server)."""


# --------------------------------------------------------------------------------------------------- framing


class LineFramer:
    """Turns received bytes into protocol lines: buffer, split on CR LF, keep the incomplete rest.

    TCP delivers a byte stream, so one read can hold half a message or several (``OK \\r\\nLST:...\\r\\n``). A bare LF
    is not a terminator (the spec), so it stays inside the line and makes the line malformed rather than silently
    splitting it. A line without a terminator that grows past ``MAX_LINE`` is malformed too: a broken server must
    not make us buffer for ever.
    """

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, data: bytes) -> list[str]:
        """Add ``data``; return the complete lines it finished, without their CR LF, oldest first."""
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\r\n")
        if len(self._buffer) > MAX_LINE:
            raise MalformedMessageError(
                f"the server sent {len(self._buffer)} bytes without a line end (CR LF): not the contest protocol"
            )
        texts = []
        for line in lines:
            try:
                texts.append(line.decode("ascii"))
            except UnicodeDecodeError:
                raise MalformedMessageError(f"the server sent non-ASCII bytes: {line[:60]!r}") from None
        return texts

    @property
    def pending(self) -> bytes:
        """Bytes received after the last complete line (part of a message still on its way)."""
        return self._buffer


# --------------------------------------------------------------------------------------------------- board strings


@dataclass(frozen=True, slots=True)
class BoardPiece:
    """One group of the board string: position ``x``, ``y`` in the receiver's view and the character."""

    x: int
    y: int
    char: str

    @property
    def on_board(self) -> bool:
        return 0 <= self.x < BOARD_SIZE and 0 <= self.y < BOARD_SIZE

    @property
    def captured(self) -> bool:
        return (self.x, self.y) == CAPTURED_AT

    @property
    def escaped(self) -> bool:
        return (self.x, self.y) == ESCAPED_AT

    @property
    def colour(self) -> Colour:
        """What the character says about the colour: ``R``/``r`` red, ``B``/``b`` blue, ``u`` unknown."""
        return {"R": Colour.RED, "B": Colour.BLUE, "U": Colour.UNKNOWN}[self.char.upper()]

    def to_text(self) -> str:
        return f"{self.x}{self.y}{self.char}"


@dataclass(frozen=True, slots=True)
class Board:
    """The 48-character board string: our pieces ``A``..``H`` then the opponent's, each ``x y char``."""

    pieces: tuple[BoardPiece, ...]

    @classmethod
    def parse(cls, text: str) -> Board:
        if len(text) != 48:
            raise MalformedMessageError(
                f"a board string has 48 characters (16 groups 'x y colour'), this one {len(text)}: {text!r}"
            )
        pieces = []
        occupied: dict[tuple[int, int], int] = {}
        for index in range(16):
            group = text[3 * index : 3 * index + 3]
            mine = index < 8
            who = f"{'our' if mine else 'their'} piece {LETTERS[index % 8]}"
            if not group[:2].isdigit():
                raise MalformedMessageError(f"{who} in {text!r}: {group!r} has no 'x y' digits")
            x, y = int(group[0]), int(group[1])
            char = group[2]
            allowed = "RBrb" if mine else "RBrbu"
            if char not in allowed:
                raise MalformedMessageError(f"{who} in {text!r}: {char!r} is not one of {' '.join(allowed)}")
            piece = BoardPiece(x, y, char)
            if not (piece.on_board or piece.captured or piece.escaped):
                raise MalformedMessageError(f"{who} in {text!r}: {x}{y} is neither a square, 99 nor 88")
            if piece.on_board:
                if (x, y) in occupied:
                    raise MalformedMessageError(f"two pieces stand on {x}{y} in {text!r}")
                occupied[(x, y)] = index
            elif char == "u":
                raise MalformedMessageError(f"{who} in {text!r} is off the board, so its colour is public")
            pieces.append(piece)
        return cls(tuple(pieces))

    @property
    def mine(self) -> tuple[BoardPiece, ...]:
        return self.pieces[:8]

    @property
    def theirs(self) -> tuple[BoardPiece, ...]:
        return self.pieces[8:]

    def to_text(self) -> str:
        return "".join(p.to_text() for p in self.pieces)

    def __str__(self) -> str:
        return self.to_text()


def initial_board() -> Board:
    """The board every player receives before any move (the same for both sides), colours as the server hides them
    from the opponent; our own characters are filled in by ``ContestGame`` from our set-up."""
    mine = [BoardPiece(1 + i % 4, 4 + i // 4, "B") for i in range(8)]
    theirs = [BoardPiece(4 - i % 4, 1 - i // 4, "u") for i in range(8)]
    return Board((*mine, *theirs))


# --------------------------------------------------------------------------------------------------- geometry


def side_for_port(port: int) -> Side:
    """The side the standard ports stand for (10001: the second player); any other port counts as the first, and
    ``ContestGame`` corrects it from the first board."""
    return Side.P2 if port == SECOND_PORT else Side.P1


def to_square(x: int, y: int, viewer: Side) -> Square:
    """nashplay's square for ``(x, y)`` in ``viewer``'s server view (the second player's view is turned)."""
    last = BOARD_SIZE - 1
    return Square(x, last - y) if viewer is Side.P1 else Square(last - x, y)


def from_square(square: Square, viewer: Side) -> tuple[int, int]:
    """``(x, y)`` in ``viewer``'s server view for a nashplay square (the inverse of ``to_square``)."""
    last = BOARD_SIZE - 1
    return (square.file, last - square.rank) if viewer is Side.P1 else (last - square.file, square.rank)


def _slot_table() -> tuple[dict[str, int], dict[str, int]]:
    tables: list[dict[str, int]] = []
    for side in Side:
        table = {}
        for index, letter in enumerate(LETTERS):
            # Each player's own view: A..D on y = 4, E..H on y = 5, x = 1..4.
            square = to_square(1 + index % 4, 4 + index // 4, side)
            table[letter] = GEISTER.setup_squares[side].index(square)
        tables.append(table)
    return tables[0], tables[1]


_SLOTS = _slot_table()
_LETTERS = tuple({slot: letter for letter, slot in table.items()} for table in _SLOTS)


def slot_of(letter: str, owner: Side) -> int:
    """The nashplay slot of ``owner``'s piece ``letter`` (``A``..``H``)."""
    return _SLOTS[owner][letter]


def letter_of(slot: int, owner: Side) -> str:
    """The server's letter for ``owner``'s piece in ``slot``."""
    return _LETTERS[owner][slot]


def contest_variant(ply_limit: int = DEFAULT_PLY_LIMIT) -> Variant:
    """Geister with the server's draw limit (300 in the reference server, 200 in some forks)."""
    if ply_limit < 1:
        raise ValueError(f"the ply limit must be at least 1, not {ply_limit}")
    return GEISTER if ply_limit == GEISTER.ply_limit else replace(GEISTER, ply_limit=ply_limit)


# --------------------------------------------------------------------------------------------------- set-ups


def parse_red_letters(text: str) -> str:
    """Check the letters of a ``SET`` command: 4 distinct letters among ``A``..``H`` (the server does not check,
    so a wrong set-up would silently give us a different game). Returns them upper case and sorted."""
    letters = text.strip().upper()
    if len(letters) != 4 or set(letters) - set(LETTERS) or len(set(letters)) != 4:
        shown = repr(text) if len(text) <= 30 else repr(text[:27] + "...")  # quote a few dozen characters at most
        raise NotationError(
            f"{shown} is not a contest set-up: expected the letters of the 4 red pieces, 4 distinct letters among "
            "A..H (A-D the front row, E-H the back row, left to right from your side), e.g. BCFG"
        )
    return "".join(sorted(letters))


def red_letters(setup: Setup, side: Side) -> str:
    """The letters of ``setup``'s red pieces for ``side`` (sorted), as a ``SET`` command names them."""
    GEISTER.check_setup(setup, side)
    if not setup.is_complete:
        raise IllegalMoveError("a hidden set-up cannot be sent to the server")
    return "".join(sorted(letter_of(slot, side) for slot, c in enumerate(setup.colours) if c is Colour.RED))


def setup_from_letters(letters: str, side: Side) -> Setup:
    """nashplay's ``Setup`` for ``side`` whose red pieces are ``letters``."""
    reds = {slot_of(letter, side) for letter in parse_red_letters(letters)}
    return Setup(tuple(Colour.RED if slot in reds else Colour.BLUE for slot in range(8)))


def setup_command(setup: Setup, side: Side) -> str:
    return f"SET:{red_letters(setup, side)}"


def parse_setup_command(text: str, side: Side) -> Setup:
    """Read ``SET:XXXX`` (the inverse of ``setup_command``)."""
    if not text.startswith("SET:"):
        raise MalformedMessageError(f"{text!r} is not a set-up command: expected SET: and 4 letters, like SET:BCFG")
    return setup_from_letters(text[4:], side)


# --------------------------------------------------------------------------------------------------- moves


def move_command(move: Move, slot: int, side: Side) -> str:
    """``MOV:P,D`` for ``side``'s piece in ``slot`` making ``move``. An escape is sent as a step north: from either
    exit corner (``y = 0`` in the mover's view) north leaves the board."""
    letter = letter_of(slot, side)
    if move.dst is None:
        return f"MOV:{letter},N"
    x0, y0 = from_square(move.src, side)
    x1, y1 = from_square(move.dst, side)
    for name, step in DIRECTIONS.items():
        if (x1 - x0, y1 - y0) == step:
            return f"MOV:{letter},{name}"
    raise IllegalMoveError(f"{move} is not one step up, down, left or right")


_MOVE_COMMAND_RE = re.compile(r"MOV:([A-H]),(NORTH|EAST|WEST|SOUTH|[NEWS])")


def parse_move_command(text: str) -> tuple[str, str]:
    """``("A", "N")`` from ``MOV:A,N`` (long direction names become one letter)."""
    match = _MOVE_COMMAND_RE.fullmatch(text.strip().upper())
    if match is None:
        raise MalformedMessageError(f"{text!r} is not a move command: expected MOV:<A..H>,<N|E|W|S>, like MOV:A,N")
    direction = _LONG_DIRECTIONS.get(match.group(2), match.group(2))
    return match.group(1), direction


def command_to_move(text: str, side: Side, square_of_slot: Mapping[int, Square]) -> Move:
    """The nashplay move of ``side``'s command ``text``, given where ``side``'s pieces stand (by slot). A step off
    the board from an exit corner is an escape; any other step off the board raises ``IllegalMoveError``."""
    letter, direction = parse_move_command(text)
    slot = slot_of(letter, side)
    if slot not in square_of_slot:
        raise IllegalMoveError(f"piece {letter} ({text}) is no longer on the board")
    src = square_of_slot[slot]
    x, y = from_square(src, side)
    dx, dy = DIRECTIONS[direction]
    nx, ny = x + dx, y + dy
    if 0 <= nx < BOARD_SIZE and 0 <= ny < BOARD_SIZE:
        return Move(src, to_square(nx, ny, side))
    if y == 0 and (direction == "N" or (x == 0 and direction == "W") or (x == BOARD_SIZE - 1 and direction == "E")):
        return Move(src, None)
    raise IllegalMoveError(f"{text} steps off the board from {src}, which is not an exit for this move")


# --------------------------------------------------------------------------------------------------- messages


@dataclass(frozen=True, slots=True)
class SetRequest:
    """``SET?``: choose your set-up."""

    def to_text(self) -> str:
        return "SET?"


@dataclass(frozen=True, slots=True)
class Accepted:
    """``OK `` (``captured`` None), ``OKR`` / ``OKB``: accepted, and our move captured a red / blue piece."""

    captured: Literal["r", "b"] | None = None

    def to_text(self) -> str:
        return "OK " if self.captured is None else f"OK{self.captured.upper()}"


@dataclass(frozen=True, slots=True)
class Rejected:
    """``NG ``: rejected (after a move: the game is lost)."""

    def to_text(self) -> str:
        return "NG "


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """``MOV?<board>``: our turn."""

    board: Board

    def to_text(self) -> str:
        return f"MOV?{self.board}"


Result = Literal["won", "lost", "draw"]
_RESULT_PREFIX: dict[str, Result] = {"WON:": "won", "LST:": "lost", "DRW:": "draw"}


@dataclass(frozen=True, slots=True)
class GameOver:
    """``WON:`` / ``LST:`` / ``DRW:`` with the final board, every colour revealed."""

    result: Result
    board: Board

    def to_text(self) -> str:
        prefix = {v: k for k, v in _RESULT_PREFIX.items()}[self.result]
        return f"{prefix}{self.board}"


Message = SetRequest | Accepted | Rejected | MoveRequest | GameOver


def parse_message(line: str) -> Message:
    """One server line (without its CR LF). ``OK`` and ``NG`` are accepted with or without their trailing space
    (older servers omit it); anything else unknown raises ``MalformedMessageError``."""
    if line == "SET?":
        return SetRequest()
    if line in ("OK ", "OK"):
        return Accepted()
    if line in ("OKR", "OKB"):
        return Accepted("r" if line == "OKR" else "b")
    if line in ("NG ", "NG"):
        return Rejected()
    if line.startswith("MOV?"):
        return MoveRequest(Board.parse(line[4:]))
    result = _RESULT_PREFIX.get(line[:4])
    if result is not None:
        return GameOver(result, Board.parse(line[4:]))
    shown = line if len(line) <= 80 else line[:77] + "..."
    raise MalformedMessageError(f"unexpected message from the server: {shown!r}")


# --------------------------------------------------------------------------------------------------- clocks


@dataclass
class Clock:
    """One player's time as the server counts it: a budget, then an allowance per move (like byoyomi).

    Chosen reading of the spec ("a budget, then a per-move allowance; whole seconds are charged"): a move may use
    what is left of the budget plus the allowance; whatever it uses beyond the budget must fit in the allowance.
    ``whole_seconds`` charges whole seconds (the fraction dropped), as the server does; tests turn it off.
    """

    budget: float = DEFAULT_BUDGET
    per_move: float = DEFAULT_PER_MOVE
    whole_seconds: bool = True
    remaining: float = field(init=False)
    used: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        self.remaining = self.budget

    def allowance(self) -> float:
        """The longest the next move may take."""
        return self.remaining + self.per_move

    def charge(self, seconds: float) -> bool:
        """Charge one move's time; ``False`` when the move took too long (the server calls that a loss)."""
        charged = math.floor(seconds) if self.whole_seconds else seconds
        self.used += charged
        if charged <= self.remaining:
            self.remaining -= charged
            return True
        over = charged - self.remaining
        self.remaining = 0.0
        return over <= self.per_move
