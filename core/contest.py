"""The Geister contest server protocol (``spec/geister-protocol.md``) as values and pure functions: no sockets.

Everything a client must get exactly right lives here, where it is easy to test without a network:

* framing (``LineFramer``): CR LF terminated ASCII lines, split or joined across reads in any way;
* the server's messages (``parse_message``) and the client's commands (``setup_command``, ``move_command``);
* the 48-character board string (``Board``) and its geometry: the server speaks in its own coordinates, always
  from the receiving player's point of view (``x`` 0..5 left to right, ``y`` 0..5 from the opponent's home to
  ours), and turns the board for the second player; nashplay names squares ``a1``..``f6`` from player 1's side;
* ``ContestGame``: a local mirror of one game for one side, so that our AIs and the board widget get a normal
  ``GeisterView`` (the opponent's pieces unknown until captured), the opponent's last move is known (the server
  only sends boards: the move is found by comparing consecutive boards), a full record can be written, and every
  board the server sends is checked against the mirror (a disagreement is reported, never silently followed).

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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from core.errors import IllegalMoveError, NotationError
from core.game import Outcome, Side
from core.geister import GEISTER, Colour, GeisterState, GeisterView, Piece, Setup, Variant
from core.notation import Move, Square
from core.record import Record, RecordedMove

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
    "ContestGame",
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
        raise NotationError(
            f"{text!r} is not a contest set-up: expected the letters of the 4 red pieces, 4 distinct letters among "
            "A..H (A-D the front row, E-H the back row, left to right from your side), e.g. BCFG"
        )
    return "".join(sorted(letters))


def red_letters(setup: Setup, side: Side) -> str:
    """The letters of ``setup``'s red pieces for ``side`` (sorted), as a ``SET`` command names them."""
    GEISTER.check_setup(setup, side)
    if setup.is_hidden:
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


# --------------------------------------------------------------------------------------------------- the mirror

Where = Square | Literal["captured", "escaped"]


class ContestGame:
    """One contest game from one side, mirrored locally with nashplay's engine.

    Use: ``setup_view()`` for the player's set-up, ``setup_command(setup)``; for each ``MOV?`` board,
    ``on_board(board)`` (returns the opponent's move, checks the board); ``view()`` for the player;
    ``move_command(move)`` (checks the move, raises ``IllegalMoveError`` before anything is sent);
    ``on_accepted(message)``; at the end ``on_game_over(message)``; ``record()`` at any time.

    The mirror holds our colours and the opponent's as unknown (a hidden set-up), so it plays by the rules without
    knowing more than we do. The opponent colours learnt from captures are kept apart (``known_colours``) and
    put into the views. The side given is a hint for the set-up: the first board tells which side we really
    are (the first player's first board shows no opponent move), and the mirror follows the board.
    """

    def __init__(self, side: Side = Side.P1, ply_limit: int = DEFAULT_PLY_LIMIT) -> None:
        self.side = side
        self.variant = contest_variant(ply_limit)
        self.letters: str | None = None
        self.state: GeisterState | None = None
        #: Opponent colours learnt so far, by slot (captures, then every colour at the end).
        self.known_colours: dict[int, Colour] = {}
        #: Server board lines, with the number of plies played when each arrived (for the record's comments).
        self.lines: list[tuple[int, str]] = []
        self.result: Result | None = None
        self.outcome: Outcome | None = None
        #: The game with every colour (when the final board revealed them all), for the record and final view.
        self.final_state: GeisterState | None = None
        #: Set when the server's result differs from what the rules say the moves gave (kept, not raised).
        self.note: str | None = None
        self._pending: Move | None = None

    # ---- set-up

    @property
    def them(self) -> Side:
        return self.side.other

    def setup_view(self) -> GeisterView:
        """A set-up phase view for our (assumed) side, for a player's ``choose``."""
        state = GeisterState(self.variant)
        if self.side is Side.P2:
            state.apply(Setup((Colour.UNKNOWN,) * 8))
        return state.view(self.side)

    def setup_command(self, setup: Setup | str) -> str:
        """The ``SET:`` command for a nashplay set-up (or for red letters given directly, e.g. ``"BCFG"``)."""
        self.letters = parse_red_letters(setup) if isinstance(setup, str) else red_letters(setup, self.side)
        return f"SET:{self.letters}"

    @property
    def our_setup(self) -> Setup | None:
        return None if self.letters is None else setup_from_letters(self.letters, self.side)

    # ---- boards

    def on_board(self, board: Board, line: str | None = None) -> Move | None:
        """Take a ``MOV?`` board: find the opponent's move since the last board, apply it, check the whole board.
        Returns the opponent's move (``None`` at the first player's first turn). Raises ``DesyncError``."""
        try:
            if self.letters is None:
                raise DesyncError("the server asked for a move before our set-up was accepted")
            if self.state is None:
                self._start(board)
            state = self._require_state()
            if self._pending is not None:
                raise DesyncError("the server asked for a move before it accepted or rejected our last one")
            if state.is_terminal():
                raise DesyncError(f"the server asked for a move, but the game is over here: {state.outcome()}")
            move = self._opponent_move(board, final=False)
            if state.to_move is not self.side:
                raise DesyncError(f"the server asked for our move, but it is {state.to_move}'s turn here")
            self._check(board)
            return move
        finally:
            self._keep_line(line or MoveRequest(board).to_text())

    def _keep_line(self, line: str) -> None:
        self.lines.append((0 if self.state is None else self.state.ply, line))

    def _is_start(self, board: Board) -> bool:
        return all(p == q for p, q in zip(board.theirs, initial_board().theirs, strict=True))

    def _start(self, board: Board) -> None:
        """Build the mirror at the first board: its opponent section says which side we are."""
        assert self.letters is not None
        self.side = Side.P1 if self._is_start(board) else Side.P2
        state = GeisterState(self.variant)
        hidden = Setup((Colour.UNKNOWN,) * 8)
        ours = setup_from_letters(self.letters, self.side)
        state.apply(ours if self.side is Side.P1 else hidden)
        state.apply(hidden if self.side is Side.P1 else ours)
        self.state = state

    def _require_state(self) -> GeisterState:
        if self.state is None:
            raise DesyncError("no board has been received yet")
        return self.state

    def where(self, owner: Side, slot: int) -> Where:
        """Where a piece is in the mirror."""
        state = self._require_state()
        for square, piece in state.pieces():
            if piece.side is owner and piece.slot == slot:
                return square
        escaped = state.escaped
        if escaped is not None and escaped.side is owner and escaped.slot == slot:
            return "escaped"
        return "captured"

    def _board_where(self, piece: BoardPiece) -> Where:
        if piece.captured:
            return "captured"
        if piece.escaped:
            return "escaped"
        return to_square(piece.x, piece.y, self.side)

    def _opponent_move(self, board: Board, final: bool) -> Move | None:
        """The opponent's move between the mirror and ``board``, applied to the mirror (``None``: no move)."""
        state = self._require_state()
        if state.is_terminal() or state.to_move is self.side:
            return None
        moved = []
        for index, piece in enumerate(board.theirs):
            slot = slot_of(LETTERS[index], self.them)
            before, after = self.where(self.them, slot), self._board_where(piece)
            if before != after:
                moved.append((LETTERS[index], before, after))
        if not moved:
            if final:
                return None
            raise DesyncError(f"the server asks for our move, but the opponent has not moved: {board}")
        _, src, dst = moved[0]
        if len(moved) > 1 or not isinstance(src, Square) or dst == "captured":
            changes = ", ".join(f"{letter}: {self._name(a)} -> {self._name(b)}" for letter, a, b in moved)
            raise DesyncError(f"the board is not one opponent move away from ours ({changes}): {board}")
        move = Move(src, dst if isinstance(dst, Square) else None)
        reason = state.why_illegal(move)
        if reason is not None:
            raise DesyncError(f"the opponent's move {move} (from the board {board}) is illegal here: {reason}")
        state.push(move)
        return move

    @staticmethod
    def _name(where: Where) -> str:
        return where.name if isinstance(where, Square) else where

    def _check(self, board: Board, final: bool = False) -> None:
        """Every piece of ``board`` where the mirror has it, our colours as we set them; learn opponent colours."""
        setup = self.our_setup
        assert setup is not None
        problems = []
        for owner, pieces in ((self.side, board.mine), (self.them, board.theirs)):
            for index, piece in enumerate(pieces):
                letter = LETTERS[index]
                slot = slot_of(letter, owner)
                ours, theirs = self.where(owner, slot), self._board_where(piece)
                who = f"{'our' if owner is self.side else 'their'} {letter}"
                if ours != theirs:
                    problems.append(f"{who} is on {self._name(theirs)}, here on {self._name(ours)}")
                colour = piece.colour
                if owner is self.side:
                    if colour is not setup.colours[slot]:
                        problems.append(f"{who} is {colour.word} there, {setup.colours[slot].word} in our set-up")
                elif colour is not Colour.UNKNOWN:
                    if not (final or not piece.on_board):
                        problems.append(f"{who} shows its colour while on the board")
                    known = self.known_colours.get(slot)
                    if known is not None and known is not colour:
                        problems.append(f"{who} was {known.word}, now {colour.word}")
                    self.known_colours[slot] = colour
        if problems:
            raise DesyncError(f"the server's board disagrees with ours: {'; '.join(problems)} (board {board})")

    # ---- our moves

    def move_command(self, move: Move) -> str:
        """The ``MOV:`` command for our ``move``, checked first: raises ``IllegalMoveError`` (nothing to send) for a
        move the rules forbid. A red piece never leaves the board; the exit squares are the server's corners."""
        state = self._require_state()
        if self._pending is not None:
            raise IllegalMoveError(f"our move {self._pending} is still waiting for the server's answer")
        if state.to_move is not self.side or state.is_terminal():
            raise IllegalMoveError("it is not our turn")
        reason = state.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(f"{move} is illegal: {reason}")
        piece = state.piece_at(move.src)
        assert piece is not None
        command = move_command(move, piece.slot, self.side)
        self._pending = move
        return command

    def on_accepted(self, message: Accepted) -> Piece | None:
        """The server accepted our pending move: play it in the mirror; returns the piece it captured (with its
        colour when the server told it)."""
        state = self._require_state()
        move = self._pending
        if move is None:
            raise DesyncError("the server accepted a move we did not send")
        self._pending = None
        target = state.piece_at(move.dst) if move.dst is not None else None
        if target is None and message.captured is not None:
            raise DesyncError(f"the server says {move} captured a piece, but {move.dst} is empty here")
        state.push(move)
        if target is None:
            return None
        colour = Colour.RED if message.captured == "r" else Colour.BLUE if message.captured == "b" else None
        if colour is not None:
            self.known_colours[target.slot] = colour
        known = self.known_colours.get(target.slot, Colour.UNKNOWN)
        return Piece(target.side, known, target.slot)

    def on_rejected(self) -> Move | None:
        """The server rejected our pending move (it counts as a loss); returns that move."""
        move, self._pending = self._pending, None
        return move

    @property
    def pending(self) -> Move | None:
        return self._pending

    # ---- the end

    def on_game_over(self, message: GameOver, line: str | None = None) -> Outcome:
        """The final board: the opponent's last move if any, every colour, and the outcome as the server says.

        The server's word decides the result. When the moves themselves ended the game differently (which a correct
        server never does) the record keeps the rules' result, so that it still replays, and notes the server's."""
        self.result = message.result
        try:
            if self.state is not None and self._pending is None:
                self._opponent_move(message.board, final=True)
                self._check(message.board, final=True)
        finally:
            self._keep_line(line or message.to_text())
        self._pending = None  # a move sent too late (lost on time) was never played
        self.final_state = self._revealed_state()
        mirror = self.final_state or self.state
        rules = mirror.outcome() if mirror is not None else None
        winner = {"won": self.side, "lost": self.them, "draw": None}[message.result]
        if rules is not None and rules.winner is winner:
            self.outcome = rules
            return rules
        reason = {
            "won": "the server declared our win",
            "lost": "the server declared our loss",
            "draw": "the server declared a draw",
        }[message.result]
        if rules is not None:
            self.note = f"the server's result ({message.result}) differs from the rules' ({rules})"
        else:
            reason += " (on time, a disconnection or a rejected move: the moves alone did not end the game)"
        self.outcome = Outcome.draw(reason) if winner is None else Outcome.win(winner, reason)
        return self.outcome

    def _revealed_state(self) -> GeisterState | None:
        """The game replayed with both set-ups when every opponent colour is known, else ``None``."""
        state = self.state
        if state is None or self.letters is None or len(self.known_colours) < 8:
            return None
        theirs = Setup(tuple(self.known_colours[slot] for slot in range(8)))
        try:
            self.variant.check_setup(theirs, self.them)
        except IllegalMoveError:
            self.note = f"the colours revealed at the end ({theirs}) are not a legal set-up"
            return None
        ours = setup_from_letters(self.letters, self.side)
        full = GeisterState(self.variant)
        full.apply(ours if self.side is Side.P1 else theirs)
        full.apply(theirs if self.side is Side.P1 else ours)
        for move in state.moves():
            full.push(move)
        return full

    # ---- what players and the UI see

    def view(self) -> GeisterView:
        """Our view: the mirror's, with the colours of captured opponent pieces filled in; at the end, all of them
        (the server reveals every colour) and the server's outcome."""
        state = self._require_state()
        if self.final_state is not None or self.outcome is not None:
            return self._final_view()
        view = state.view(self.side)
        return replace(view, captured=tuple(self._colour(p) for p in view.captured))

    def _colour(self, piece: Piece) -> Piece:
        if piece.side is self.side or piece.colour is not Colour.UNKNOWN:
            return piece
        return Piece(piece.side, self.known_colours.get(piece.slot, Colour.UNKNOWN), piece.slot)

    def _final_view(self) -> GeisterView:
        source = self.final_state or self._require_state()
        board = tuple(None if p is None else self._colour(p) for p in self._full_board(source))
        view = source.view(self.side)
        escaped = view.escaped if view.escaped is None else self._colour(view.escaped)
        return replace(
            view,
            board=board,
            captured=tuple(self._colour(p) for p in source.captured),
            escaped=escaped,
            phase="over",
            outcome=self.outcome,
        )

    @staticmethod
    def _full_board(state: GeisterState) -> list[Piece | None]:
        board: list[Piece | None] = [None] * (state.variant.width * state.variant.height)
        for square, piece in state.pieces():
            board[state.variant.index(square)] = piece
        return board

    @property
    def moves(self) -> list[Move]:
        return [] if self.state is None else self.state.moves()

    def record(self, tags: Mapping[str, str] | None = None) -> Record:
        """The game so far in nashplay's notation; each server board line is the comment of the move after which it
        arrived (the first player's first board, before any move, is the ``ServerStart`` tag)."""
        source = self.final_state or self.state
        if source is None:
            source = GeisterState(self.variant)
            source.apply(Setup((Colour.UNKNOWN,) * 8))
            source.apply(Setup((Colour.UNKNOWN,) * 8))
        extra = {"Event": "contest server game", "PlyLimit": str(self.variant.ply_limit)}
        extra.update(tags or {})
        record = Record.from_game(source, extra)
        comments: dict[int, list[str]] = {}
        for ply, line in self.lines:
            if ply == 0 or not record.moves:
                record.tags.setdefault("ServerStart", line)
            else:
                comments.setdefault(min(ply, len(record.moves)) - 1, []).append(line)
        record.moves = [
            RecordedMove(m.text, " ".join(comments[i]) if i in comments else None) for i, m in enumerate(record.moves)
        ]
        if self.outcome is not None:
            record.tags["ServerResult"] = self.result or "*"
            if source.outcome() is None:  # the moves did not end the game: the server's word is the result
                record.tags["Result"] = self.outcome.result_text
                record.tags["Termination"] = self.outcome.reason
        if self.note:
            record.tags["Note"] = self.note
        return record

    def boards(self) -> Iterator[str]:
        """The server lines received so far (board messages only)."""
        for _, line in self.lines:
            yield line
