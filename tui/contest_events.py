"""The vocabulary between the contest client (``tui.net``) and whoever watches it (the app's server screen, the
headless ``connect``): the errors that end a game, the local clocks, the events of a game, and its result.

Plain values: no sockets, no Textual, so the screen and the tests read them without a network.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from core.contest import Board, Result
from core.game import Outcome, Side
from core.geister import GeisterView, Piece
from core.notation import Move
from core.record import Record

__all__ = [
    "Clocks",
    "ConnectError",
    "Connected",
    "Connecting",
    "ConnectionLostError",
    "ConnectionStats",
    "ContestError",
    "ContestEvent",
    "EventCallback",
    "GameAborted",
    "GameFinished",
    "GameResult",
    "IllegalMoveRefusedError",
    "MoveRefused",
    "MoveRequested",
    "PositionChanged",
    "RejectedError",
    "ServerProtocolError",
    "ServerSilentError",
    "SetupRequested",
]

# --------------------------------------------------------------------------------------------------- errors


class ContestError(Exception):
    """A game on the server could not be played to its end; ``str(error)`` says why in words a user can act on."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        #: The record of the game so far (``None`` before the game began).
        self.record: Record | None = None
        #: Where that record was saved, if it was.
        self.record_path: Path | None = None

    def __str__(self) -> str:
        if self.record_path is not None:
            return f"{self.message} (the record so far is saved in {self.record_path})"
        return self.message


class ConnectError(ContestError):
    """No connection could be made before the deadline (the server is not running, or the address is wrong)."""


class ConnectionLostError(ContestError):
    """The server closed the connection (or it broke) before the game ended; ``cause`` says how, in a few words
    ("closed by the server", "connection reset by peer")."""

    def __init__(self, message: str, cause: str = "closed by the server") -> None:
        super().__init__(message)
        self.cause = cause


class ServerSilentError(ContestError):
    """The server sent nothing for longer than the clocks allow."""


class ServerProtocolError(ContestError):
    """The server sent something malformed, or a board that disagrees with the game so far."""


class RejectedError(ContestError):
    """The server answered ``NG`` to a move or set-up we had checked (it counts a rejected move as a loss)."""


class IllegalMoveRefusedError(ContestError):
    """Our player kept choosing illegal moves; none was sent (the server would count it as a loss)."""


# --------------------------------------------------------------------------------------------------- clocks, events


@dataclass(frozen=True)
class Clocks:
    """Both players' time as tracked locally. ``running`` is whose clock runs since ``since`` (``time.monotonic``):
    a UI shows ``remaining - (now - since)`` for that side and ticks without asking the network."""

    ours: float
    theirs: float
    per_move: float
    running: Literal["ours", "theirs"] | None
    since: float

    def our_allowance(self) -> float:
        """The longest our current move may take (what is left of the budget plus the per-move allowance)."""
        return self.ours + self.per_move


@dataclass(frozen=True)
class Connecting:
    """A connection attempt failed; we try again in ``retry_in`` seconds (``elapsed``: seconds spent so far without a
    connection, which the connect deadline bounds).

    ``dropped``: the server accepted the connection and then closed or reset it before ``SET?``. The reference
    server does that to a connection made while a game runs on the port (it queues it, then resets it when the game
    ends): no game began, so it is neither a game nor an error, only another attempt."""

    host: str
    port: int
    attempt: int
    error: str
    retry_in: float
    elapsed: float
    dropped: bool = False

    @property
    def text(self) -> str:
        again = f"in {self.retry_in:.2g} s (attempt {self.attempt}, {self.elapsed:.0f} s without a game so far)"
        if self.dropped:
            return (
                f"the server at {self.host}:{self.port} dropped the connection before a game began ({self.error}); "
                f"not a game: connecting again {again}"
            )
        return f"cannot connect to {self.host}:{self.port} ({self.error}); retrying {again}"


@dataclass(frozen=True)
class Connected:
    host: str
    port: int
    attempts: int


@dataclass(frozen=True)
class SetupRequested:
    """The server asks for our set-up; ``view`` is a set-up phase view for our (assumed) side."""

    view: GeisterView


@dataclass(frozen=True)
class PositionChanged:
    """The position changed: the opponent moved (``opponent_move``) or our move was accepted (``own_move``,
    with the piece it ``captured``, colour shown when the server told it). ``view`` is ours, as the board draws it;
    the last one of a game comes with the result, every colour revealed (``view.outcome`` is set)."""

    view: GeisterView
    opponent_move: Move | None
    own_move: Move | None
    captured: Piece | None
    clocks: Clocks
    board: Board | None


@dataclass(frozen=True)
class MoveRequested:
    """Our turn: the player is being asked for a move."""

    view: GeisterView
    clocks: Clocks


@dataclass(frozen=True)
class MoveRefused:
    """The player chose an illegal move; it was not sent, and the player is asked again."""

    move: Move
    reason: str
    attempt: int


@dataclass(frozen=True)
class GameFinished:
    result: GameResult


@dataclass(frozen=True)
class GameAborted:
    """The game could not be finished; ``error`` says why (its ``record_path``: where the record went)."""

    error: ContestError


ContestEvent = (
    Connecting | Connected | SetupRequested | PositionChanged | MoveRequested | MoveRefused | GameFinished | GameAborted
)
EventCallback = Callable[[ContestEvent], None]


@dataclass
class ConnectionStats:
    """What the reads looked like (for the tests of framing, and for measuring latency)."""

    reads: int = 0
    lines: int = 0
    #: Reads that ended inside a message (the rest came in a later read).
    partial_reads: int = 0
    #: Reads that held two messages or more.
    joined_reads: int = 0
    #: Seconds from sending each move to the server's answer (OK/OKR/OKB, NG, or the result).
    round_trips: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class GameResult:
    """One finished game: the server's result, the outcome with its reason, and the record."""

    result: Result
    outcome: Outcome
    side: Side
    plies: int
    record: Record
    record_path: Path | None
    final_view: GeisterView | None
    #: Set when the server's result differs from what the moves gave (kept for the user to see).
    note: str | None
    seconds: float
    stats: ConnectionStats

    @property
    def summary(self) -> str:
        return f"{self.result} as {self.side}, {self.plies} plies: {self.outcome.reason}"
