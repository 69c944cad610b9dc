"""The asyncio connection to a Geister contest server, on top of ``core.contest`` (which holds the protocol itself).

What this module adds is everything that touches the network and the clock:

* connecting with retries (exponential back-off up to a deadline, each wait reported), because the server refuses
  connections until it is up and in the short gap between games, and resets a connection made while a game runs
  (it is queued, then reset at that game's end): only ``SET?`` begins a game (``open_game``);
* CR LF framing of whatever the reads deliver, and ``TCP_QUICKACK`` before each receive where the platform has it
  (the server writes small messages without ``TCP_NODELAY``; without quick ACKs each move stalls ~40 ms);
* time-outs on every read, derived from the opponent's clock, so a silent server never hangs us;
* ``play_game``: one whole game for any ``ContestPlayer`` (an AI adapter, or the app's human whose move comes from
  the board), with events for a UI, local clocks, and the record saved however the game ends.

Errors are ``ContestError`` subclasses with a message a user can act on; each carries the record of the game so
far (``record``) and where it was saved (``record_path``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
import random
import signal
import socket
import time
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from core.contest import (
    Accepted,
    Clock,
    GameOver,
    LineFramer,
    Message,
    MoveRequest,
    ProtocolError,
    Rejected,
    SetRequest,
    parse_message,
    side_for_port,
)
from core.contest_game import ContestGame, TimeVerdict
from core.errors import IllegalMoveError, NotationError
from core.game import Outcome, Side
from core.geister import GeisterView, Setup
from core.notation import Move
from core.record import Record
from solvers.players import Limit, Player
from tui.config import ContestSettings
from tui.contest_events import (
    Clocks,
    Connected,
    ConnectError,
    Connecting,
    ConnectionLostError,
    ConnectionStats,
    ContestError,
    EventCallback,
    GameAborted,
    GameFinished,
    GameResult,
    IllegalMoveRefusedError,
    MoveRefused,
    MoveRequested,
    PositionChanged,
    RejectedError,
    ServerProtocolError,
    ServerSilentError,
    SetupRequested,
)
from tui.web.visitor import contest_refusal

__all__ = [
    "STOP_SIGNALS",
    "AIPlayer",
    "Connection",
    "ContestPlayer",
    "HumanPlayer",
    "cancel_and_wait",
    "on_signals",
    "open_game",
    "play_game",
]


# --------------------------------------------------------------------------------------------------- players


class ContestPlayer(Protocol):
    """Whoever chooses our moves: an AI (``AIPlayer``) or the app's human (``HumanPlayer``)."""

    name: str

    async def choose_setup(self, view: GeisterView) -> Setup | str:
        """A set-up for ``view.viewer``, or the letters of the 4 red pieces (``"BCFG"``)."""
        ...

    async def choose_move(self, view: GeisterView, clocks: Clocks) -> Move:
        """A legal move in ``view`` (an illegal one is refused locally and the player asked again)."""
        ...


class AIPlayer:
    """A ``solvers`` player (``choose(view, rng, limit)``) as a contest player.

    Its thinking time is ``time`` per move (``None``: the player's own default), cut to fit the clock: the server
    counts running out as a loss.
    ``in_thread`` runs it in a worker thread, so that the event loop stays free (the app); headless play runs it
    inline, which is faster on a busy machine. ``setup`` fixes the set-up (red letters) instead of asking the AI.
    """

    def __init__(
        self,
        player: Player[GeisterView, Setup | Move],
        rng: random.Random | None = None,
        time: float | None = None,
        setup: str | None = None,
        in_thread: bool = False,
        safety_margin: float = 1.0,
    ) -> None:
        self.player = player
        self.name = player.name
        self.rng = rng or random.Random()
        self.time = time
        self.setup = setup
        self.in_thread = in_thread
        self.safety_margin = safety_margin

    async def choose_setup(self, view: GeisterView) -> Setup | str:
        if self.setup is not None:
            return self.setup
        choice = await self._choose(view, Limit(time=self.time))
        if not isinstance(choice, Setup):
            raise TypeError(f"{self.name} answered the set-up with {choice!r}")
        return choice

    async def choose_move(self, view: GeisterView, clocks: Clocks) -> Move:
        budget = max(0.01, clocks.our_allowance() - self.safety_margin)
        if self.time is not None:
            limit = Limit(time=min(self.time, budget))
        else:  # the player's own default (a fraction of a second for the search AIs), unless the clock is short
            limit = Limit(time=budget) if budget < 1.0 else Limit()
        choice = await self._choose(view, limit)
        if not isinstance(choice, Move):
            raise TypeError(f"{self.name} answered a move request with {choice!r}")
        return choice

    async def _choose(self, view: GeisterView, limit: Limit) -> Any:
        if self.in_thread:
            return await asyncio.to_thread(self.player.choose, view, self.rng, limit)
        return self.player.choose(view, self.rng, limit)


class HumanPlayer:
    """The app's player: ``choose_*`` wait until the UI calls ``submit_setup`` / ``submit_move``.

    The app runs ``play_game`` in its own event loop (an async worker); on ``MoveRequested`` it lets the user pick a
    move on the board and calls ``submit_move(move)``. A move the rules forbid comes back as ``MoveRefused``.
    """

    name = "human"

    def __init__(self) -> None:
        self._future: asyncio.Future[Any] | None = None
        self.waiting_for: Literal["setup", "move"] | None = None

    # Plain functions that return a coroutine (not ``async def``): the player starts waiting when it is *asked*, not
    # when the coroutine first runs. ``play_game`` runs the choice as a task (it listens to the server meanwhile),
    # so an answer the UI sends straight after ``MoveRequested`` would otherwise come before anyone waits for it.

    def choose_setup(self, view: GeisterView) -> Coroutine[Any, Any, Setup | str]:
        return self._answer("setup", self._wait("setup"), Setup | str)

    def choose_move(self, view: GeisterView, clocks: Clocks) -> Coroutine[Any, Any, Move]:
        return self._answer("move", self._wait("move"), Move)

    def _wait(self, what: Literal["setup", "move"]) -> asyncio.Future[Any]:
        self._future = asyncio.get_running_loop().create_future()
        self.waiting_for = what
        return self._future

    async def _answer(self, what: str, future: asyncio.Future[Any], kind: Any) -> Any:
        try:
            answer = await future
        finally:
            if self._future is future:
                self._future = None
                self.waiting_for = None
        if not isinstance(answer, kind):
            raise TypeError(f"the {what} answer {answer!r} is not a {kind}")
        return answer

    def submit_setup(self, setup: Setup | str) -> None:
        self._submit("setup", setup)

    def submit_move(self, move: Move) -> None:
        self._submit("move", move)

    def _submit(self, what: str, answer: Any) -> None:
        if self._future is None or self.waiting_for != what or self._future.done():
            raise RuntimeError(f"the game is not waiting for a {what} now")
        self._future.set_result(answer)


# --------------------------------------------------------------------------------------------------- connection


async def cancel_and_wait(*tasks: asyncio.Future[Any]) -> None:
    """Cancel ``tasks`` and wait until they have finished.

    Not ``task.cancel()`` then ``await task`` under ``suppress(CancelledError)``: that also swallows a cancellation
    of the *calling* task arriving meanwhile, which then runs on as if never cancelled (seen: a server loop that
    never stopped, so a test hung one run in ten). ``asyncio.wait`` lets the caller's own cancellation through; the
    tasks' results and errors are read here so that none is reported as never retrieved.
    """
    pending = [task for task in tasks if not task.done()]
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending)
    for task in tasks:
        if not task.cancelled():
            task.exception()


#: Signals that must end a contest game the way Ctrl-C does, with its record saved: SIGTERM (a service manager, kill)
#: and SIGHUP (the terminal closed). Only those the platform has.
STOP_SIGNALS: tuple[int, ...] = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def on_signals(signals: Iterable[int], callback: Callable[[int], None]) -> Callable[[], None]:
    """Call ``callback(signum)`` in the running event loop when one of ``signals`` arrives (SIGTERM, SIGHUP: a
    contest game must save its record on every way out, as it does on Ctrl-C). Returns the undo, which puts back
    the handlers found before (``loop.remove_signal_handler`` alone would leave the default, which kills).

    Does nothing where the loop cannot take signals (not the main thread, or a platform without them)."""
    loop = asyncio.get_running_loop()
    installed: list[tuple[int, Any]] = []
    for signum in signals:
        previous = signal.getsignal(signum)
        try:
            loop.add_signal_handler(signum, callback, signum)
        except (NotImplementedError, RuntimeError, ValueError):
            continue
        installed.append((signum, previous))

    def restore() -> None:
        for signum, previous in installed:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signum)
                signal.signal(signum, previous if previous is not None else signal.SIG_DFL)
        installed.clear()

    return restore


def _quickack(sock: Any) -> None:
    option = getattr(socket, "TCP_QUICKACK", None)
    if option is None or sock is None:
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, option, 1)


class Connection:
    """One TCP connection to the server: CR LF lines in both directions, reads with time-outs."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, quickack: bool = True) -> None:
        self._reader = reader
        self._writer = writer
        self._quickack = quickack
        self._framer = LineFramer()
        self._lines: collections.deque[str] = collections.deque()
        self.stats = ConnectionStats()
        self.closed = False

    async def send(self, line: str) -> None:
        """Send one command with its CR LF, in one write."""
        if "\r" in line or "\n" in line:
            raise ValueError(f"a command is one line: {line!r}")
        try:
            self._writer.write(line.encode("ascii") + b"\r\n")
            await self._writer.drain()
        except (OSError, RuntimeError) as error:
            raise ConnectionLostError(f"the connection broke while sending {line!r} ({_describe(error)})") from None

    async def receive(self, timeout: float) -> tuple[Message, str]:
        """The next message and its raw line; raises ``ServerSilentError`` after ``timeout`` seconds without a
        complete line, ``ConnectionLostError`` when the server closes, ``ServerProtocolError`` for a bad line."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self._lines:
            if self._quickack:
                _quickack(self._writer.get_extra_info("socket"))
            try:
                # Not asyncio.wait_for: in Python 3.11 it swallows a cancellation that arrives as the read completes,
                # so a SIGTERM (or Ctrl-C) at that moment was lost and play went on. A timeout scope never drops one.
                async with asyncio.timeout_at(deadline):
                    data = await self._reader.read(4096)
            except TimeoutError:
                raise ServerSilentError(f"the server sent nothing for {timeout:.0f} s") from None
            except OSError as error:
                cause = _describe(error)
                raise ConnectionLostError(f"the connection to the server broke ({cause})", cause) from None
            if not data:
                raise ConnectionLostError("the server closed the connection before the game ended")
            try:
                lines = self._framer.feed(data)
            except ProtocolError as error:
                raise ServerProtocolError(str(error)) from None
            self.stats.reads += 1
            self.stats.lines += len(lines)
            self.stats.partial_reads += bool(self._framer.pending)
            self.stats.joined_reads += len(lines) > 1
            self._lines.extend(lines)
        line = self._lines.popleft()
        try:
            return parse_message(line), line
        except ProtocolError as error:
            raise ServerProtocolError(str(error)) from None

    async def close(self) -> None:
        """Close our side and wait (briefly) until the socket is released; safe to call twice."""
        if self.closed:
            return
        self.closed = True
        self._writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(2.0):  # not wait_for, which may swallow a cancellation (see ``receive``)
                await self._writer.wait_closed()


#: Back-off between connection attempts: the first wait and the longest, doubling in between. Short at first,
#: because the server refuses (or drops) connections only in the brief gap between games; capped, so that a server
#: that comes up late is found within a couple of seconds, and one that never starts a game is not hammered.
FIRST_RETRY = 0.05
LONGEST_RETRY = 2.0
#: The least time one attempt may take, even when less is left before the deadline: on a loaded machine even a
#: local connect can take longer than a few milliseconds, and a refusing server would be reported as "no answer".
SHORTEST_ATTEMPT = 1.0


async def open_game(
    host: str, port: int, settings: ContestSettings, on_event: EventCallback | None = None
) -> tuple[Connection, Message, str]:
    """Connect and wait until the server begins a game: the connection, its first message (``SET?``) and line.

    Two kinds of attempt fail without being a game, and both are retried with exponential back-off: a connection
    refused (or unanswered), and a connection the server accepts and then closes or resets before ``SET?`` (the
    reference server queues a connection made while a game runs, and resets it when that game ends). Each is
    reported as a ``Connecting`` event. ``settings.connect_deadline`` bounds the time spent *without* a connection
    (refused attempts and the back-off waits), not the time a connection waits in the server's queue, which can be
    a whole game: that wait is bounded, per connection, by ``settings.start_timeout``. Never probes: a connection
    that succeeds is kept, because the server makes every connection a player. A first message other than ``SET?``
    (a result, above all) is a ``ServerProtocolError``, with no record: no game had begun.

    In a visitor's app of ``nashplay serve`` only the addresses the server's owner allowed are tried (any other is a
    ``ConnectError`` that says so, before any connection): the serving machine would connect wherever the visitor
    says, to its own loopback and its network's machines too.
    """
    refusal = contest_refusal(host, port)
    if refusal is not None:
        raise ConnectError(refusal)
    loop = asyncio.get_running_loop()
    emit: EventCallback = on_event or (lambda event: None)
    deadline = settings.connect_deadline
    failing = 0.0  # seconds spent without a connection so far
    attempt = 0
    delay = FIRST_RETRY
    while True:
        attempt += 1
        began = loop.time()
        dropped = False
        try:
            # Not asyncio.wait_for, which may swallow a cancellation (see ``Connection.receive``).
            async with asyncio.timeout(max(SHORTEST_ATTEMPT, min(deadline - failing, 10.0))):
                reader, writer = await asyncio.open_connection(host, port)
        except socket.gaierror as error:
            raise ConnectError(f"cannot find the server {host[:60]!r}: {error.strerror or error}") from None
        except (OSError, TimeoutError) as error:
            failing += loop.time() - began
            reason = _describe(error)
        else:
            connection = Connection(reader, writer, settings.quickack)
            emit(Connected(host, port, attempt))
            try:
                message, line = await connection.receive(settings.start_timeout)
            except ConnectionLostError as error:
                await connection.close()
                reason, dropped = error.cause, True
            except ServerSilentError:
                await connection.close()
                raise ServerSilentError(
                    f"the server started no game within {settings.start_timeout:g} s of accepting the connection "
                    "(no SET?): is the opponent connected?"
                ) from None
            except BaseException:  # a malformed first line, or cancelled: leave no socket behind
                await connection.close()
                raise
            else:
                if not isinstance(message, SetRequest):
                    # Only SET? begins a game: a result before it ends no game of ours, and counting it (a WON: first
                    # was taken for a win, and recorded as one) would let any server hand out results.
                    await connection.close()
                    raise ServerProtocolError(
                        f"the server sent {line!r} before any SET?, which alone begins a game: a protocol error, "
                        "not a result; nothing is recorded, and the connection is closed"
                    )
                return connection, message, line
        if failing >= deadline:
            hint = (
                "it accepts connections but begins no game: is it a Geister contest server?"
                if dropped
                else "is the server running, and is this its address and port?"
            )
            raise ConnectError(
                f"gave up connecting to {host}:{port} after {deadline:g} s and {attempt} attempts ({reason}); {hint}"
            )
        delay = min(delay, deadline - failing)  # the last wait ends at the deadline; one more attempt follows it
        emit(Connecting(host, port, attempt, reason, delay, failing, dropped))
        await asyncio.sleep(delay)
        failing += delay
        delay = min(delay * 2, LONGEST_RETRY)


def _describe(error: BaseException) -> str:
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, TimeoutError):
        return "no answer"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__


# --------------------------------------------------------------------------------------------------- one game


def record_path(save_dir: Path, game_number: int | None, side: Side) -> Path:
    """A new file name in ``save_dir`` for a game record (never overwrites)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    number = f"-{game_number:04d}" if game_number is not None else ""
    base = f"contest-{stamp}{number}-p{side.number}"
    path = save_dir / f"{base}.ngr"
    extra = 1
    while path.exists():
        extra += 1
        path = save_dir / f"{base}-{extra}.ngr"
    return path


#: How long to listen for the server while our player chooses: the server's clock, not ours, ends a slow turn.
LISTEN_WHILE_CHOOSING = 24 * 3600.0

#: A move of ours that left less than this on our clock may have run out on the server's: its clock starts before
#: ours and stops after, by the network's delay. Within it, a time-out the server declares is taken as true.
CLOCK_TOLERANCE = 0.5

T = TypeVar("T")


@dataclass(frozen=True)
class _Ended:
    """The server's result, received while our player was still choosing."""

    message: GameOver
    line: str


class _Game:
    """The state of one ``play_game`` call (kept in an object so the error path can reach it)."""

    def __init__(
        self,
        connection: Connection,
        player: ContestPlayer,
        settings: ContestSettings,
        game: ContestGame,
        emit: EventCallback,
        keep: Callable[[], object] = lambda: None,
    ) -> None:
        self.connection = connection
        self.player = player
        self.settings = settings
        self.game = game
        self.emit = emit
        #: Called after every move the mirror takes (the opponent's, read from a board; ours, once accepted): the
        #: record of the game so far is kept on disk, so that a kill loses at most the move in hand.
        self.keep = keep
        self.ours = Clock(settings.budget, settings.per_move, settings.whole_seconds)
        self.theirs = Clock(settings.budget, settings.per_move, settings.whole_seconds)
        self.running: Literal["ours", "theirs"] | None = None
        self.since = time.monotonic()
        #: The least time any move of ours left on our clock (seconds): how close we came to a time-out.
        self.closest = math.inf

    def clocks(self) -> Clocks:
        return Clocks(self.ours.remaining, self.theirs.remaining, self.settings.per_move, self.running, self.since)

    def run_clock(self, who: Literal["ours", "theirs"] | None) -> None:
        """Stop the running clock (charging its player) and start ``who``'s."""
        now = time.monotonic()
        if self.running == "ours":
            self.closest = min(self.closest, self.ours.allowance() - (now - self.since))
            self.ours.charge(now - self.since)
        elif self.running == "theirs":
            self.theirs.charge(now - self.since)
        self.running, self.since = who, now

    def wait_limit(self) -> float:
        """How long to wait for the server: the opponent's whole allowance, plus grace; more before the first board
        (the opponent may connect and set up late)."""
        limit = self.theirs.allowance() + self.settings.grace
        if self.game.state is None:
            limit += self.settings.start_timeout
        return limit

    def time_verdict(self) -> TimeVerdict:
        """What our own clock says, at the moment the server ends the game (see ``ContestGame.on_game_over``)."""
        closest = self.closest
        if self.running == "ours":
            closest = min(closest, self.ours.allowance() - (time.monotonic() - self.since))
        if closest < CLOCK_TOLERANCE:
            return "out of time"
        return "choosing" if self.running == "ours" else "answered in time"

    async def play(self, message: Message, line: str) -> Outcome:
        """The game, from the server's first message (``SET?``, read by ``open_game``)."""
        connection, game = self.connection, self.game
        if not isinstance(message, SetRequest):  # a result first was once taken as the game's: open_game refuses it
            raise ServerProtocolError(f"the server opened with {line!r} instead of SET?")
        view = game.setup_view()
        self.emit(SetupRequested(view))
        setup = await self._listening(self.player.choose_setup(view))
        if isinstance(setup, _Ended):
            return self._game_over(setup.message, setup.line)
        try:
            command = game.setup_command(setup)
        except (NotationError, IllegalMoveError) as error:
            raise IllegalMoveRefusedError(f"{self.player.name} chose a set-up that cannot be sent: {error}") from None
        await connection.send(command)
        awaiting: Literal["setup", "move"] | None = "setup"
        sent_at = 0.0
        while True:
            message, line = await connection.receive(self.wait_limit())
            if awaiting == "move":
                connection.stats.round_trips.append(time.monotonic() - sent_at)
            if isinstance(message, GameOver):
                return self._game_over(message, line)
            if isinstance(message, Rejected):
                await self._rejected(awaiting, command)
            if isinstance(message, Accepted):
                if awaiting == "setup" and message.captured is None:
                    awaiting = None
                    self.run_clock("theirs" if game.side is Side.P2 else None)
                    continue
                if awaiting != "move":
                    raise ServerProtocolError(f"the server sent {line!r} when no move of ours was waiting")
                own = game.pending
                captured = game.on_accepted(message)
                awaiting = None
                self.run_clock("theirs")
                self.keep()
                self.emit(PositionChanged(game.view(), None, own, captured, self.clocks(), None))
                continue
            if isinstance(message, SetRequest):
                raise ServerProtocolError("the server asked for a set-up again in the middle of the game")
            assert isinstance(message, MoveRequest)
            if awaiting is not None:
                raise ServerProtocolError(f"the server asked for a move before answering our {awaiting}")
            self.run_clock("ours")
            opponent_move = game.on_board(message.board, line)
            self.keep()  # the first board too: the side it tells is in the record's name
            view = game.view()
            self.emit(PositionChanged(view, opponent_move, None, None, self.clocks(), message.board))
            chosen = await self._choose(view)
            self.run_clock(None)
            if isinstance(chosen, _Ended):  # the game ended while our player chose: the choice is dropped
                return self._game_over(chosen.message, chosen.line)
            command = chosen
            await connection.send(command)
            sent_at = time.monotonic()
            awaiting = "move"

    async def _listening(self, choice: Coroutine[Any, Any, T]) -> T | _Ended:
        """The player's choice, while listening to the server.

        The server says nothing while we think, unless the game ends without us: our time ran out, the opponent
        left, or the server closed. A person may think for minutes, so waiting for the choice alone would leave them
        playing on in a game that is over; instead the first of the two wins. ``Connection.receive`` may be
        cancelled safely (lines already read stay queued in the connection).
        """
        choosing = asyncio.ensure_future(choice)
        listening = asyncio.ensure_future(self.connection.receive(LISTEN_WHILE_CHOOSING))
        try:
            await asyncio.wait({choosing, listening}, return_when=asyncio.FIRST_COMPLETED)
        finally:  # also when this task is cancelled: leave nothing running behind
            await cancel_and_wait(choosing, listening)
        if listening.done() and not listening.cancelled():
            message, line = listening.result()  # raises ConnectionLostError and the like
            if isinstance(message, GameOver):
                return _Ended(message, line)
            raise ServerProtocolError(f"the server sent {line!r} while it was waiting for our answer")
        return choosing.result()

    def _game_over(self, message: GameOver, line: str) -> Outcome:
        """The server's result: stop the clocks, read the final board (it may hold the opponent's last move), and
        show the position with every colour revealed."""
        game = self.game
        verdict = self.time_verdict()
        self.run_clock(None)
        before = len(game.moves)
        outcome = game.on_game_over(message, line, verdict)
        last = game.moves[-1] if len(game.moves) > before else None
        if game.state is not None:
            self.emit(PositionChanged(game.view(), last, None, None, self.clocks(), message.board))
        return outcome

    async def _choose(self, view: GeisterView) -> str | _Ended:
        """Ask the player until it gives a legal move (each illegal one refused, never sent), or the game ends."""
        reason = ""
        move: Move | None = None
        for attempt in range(1, self.settings.illegal_attempts + 1):
            self.emit(MoveRequested(view, self.clocks()))
            answer = await self._listening(self.player.choose_move(view, self.clocks()))
            if isinstance(answer, _Ended):
                return answer
            move = answer
            try:
                return self.game.move_command(move)
            except IllegalMoveError as error:
                reason = str(error)
                self.emit(MoveRefused(move, reason, attempt))
        raise IllegalMoveRefusedError(
            f"{self.player.name} chose an illegal move {self.settings.illegal_attempts} times in a row (last: "
            f"{reason}); nothing was sent, because the server counts a rejected move as a loss"
        )

    async def _rejected(self, awaiting: str | None, command: str) -> None:
        """``NG`` to something we had checked: read the result the server sends next (briefly), then fail."""
        if awaiting == "move":
            move = self.game.on_rejected()
            what = f"our move {move} ({command})"
        elif awaiting == "setup":
            what = f"our set-up ({command})"
        else:
            what = "nothing we had sent"
        with contextlib.suppress(ContestError, ProtocolError):
            message, line = await self.connection.receive(2.0)
            if isinstance(message, GameOver):
                self.game.on_game_over(message, line)
        raise RejectedError(
            f"the server rejected {what} although it was checked here; the server counts that as a loss "
            "(a different rule on this server?)"
        )


async def play_game(
    host: str,
    port: int,
    player: ContestPlayer,
    *,
    side: Side | None = None,
    settings: ContestSettings | None = None,
    on_event: EventCallback | None = None,
    save_dir: Path | None = None,
    game_number: int | None = None,
    name: str | None = None,
    opponent: str = "server opponent",
    tags: Mapping[str, str] | None = None,
) -> GameResult:
    """Connect (with retries), play one game with ``player``, close, and return the result with the record.

    ``side`` is a hint for the set-up (default: from the port, 10001 being the second player); the first board says
    which side we really are. ``name`` (default: the player's) and ``opponent`` go into the record's player tags;
    ``tags`` adds more. A game begins with the server's ``SET?``: connections refused or dropped before it are
    retried (``open_game``), and no record is written for them. Once it has begun, the record is saved in
    ``save_dir`` (if given) after every move, unfinished (``*``), and at the end however the game ends, at the one
    path (so that even a kill loses at most the move in hand); on failure a ``ContestError`` says why and carries
    the record so far. Cancelling the task saves the record too (and reports it as ``GameAborted`` before the
    cancellation goes on).
    """
    settings = settings or ContestSettings()
    emit: EventCallback = on_event or (lambda event: None)
    started = time.monotonic()
    game = ContestGame(side or side_for_port(port), settings.ply_limit)
    # Nothing before the server's first message is a game: no record is written for it, whatever fails.
    connection, first, first_line = await open_game(host, port, settings, on_event)
    record_tags = {"Site": f"{host}:{port}", "Date": time.strftime("%Y.%m.%d"), **(tags or {})}
    finished = False
    #: The record's file, named at its first write and kept to the end: the game so far is written there after every
    #: move (unfinished, ``*``) and replaced at each (atomically), and the finished record replaces it in turn.
    path: Path | None = None

    def save(durable: bool = True) -> tuple[Record, Path | None]:
        nonlocal path
        # The side is known for sure only after the first board, so the player tags are written last.
        players = {f"Player{game.side.number}": name or player.name, f"Player{game.side.other.number}": opponent}
        record = game.record({**players, **record_tags})
        if save_dir is None:
            return record, None
        if path is None:
            path = record_path(save_dir, game_number, game.side)
        try:
            record.save(path, durable)
        except OSError:  # a full disk, a folder removed since: the game goes on, and its line says so at the end
            return record, None
        return record, path

    # After each move without the disk syncs (a kill keeps what was written; a sync a move cost a hundred games
    # about 7 s): the record at the end, however the game ends, is synced.
    session = _Game(connection, player, settings, game, emit, keep=lambda: save(durable=False))
    try:
        outcome = await session.play(first, first_line)
        finished = True
    except ContestError as error:
        finished = True
        error.record, error.record_path = save()
        emit(GameAborted(error))
        raise
    except ProtocolError as error:  # a desync found by the mirror, or a bad set-up from the player
        finished = True
        wrapped = ServerProtocolError(str(error))
        wrapped.record, wrapped.record_path = save()
        emit(GameAborted(wrapped))
        raise wrapped from None
    finally:
        if not finished:  # cancelled (quit, Ctrl-C, SIGTERM), or an unexpected bug: keep the record all the same
            with contextlib.suppress(Exception):
                stopped = ContestError("the game was stopped here before it ended")
                stopped.record, stopped.record_path = save()
                emit(GameAborted(stopped))  # says where the record went; the exception goes on unchanged
        await connection.close()
    record, path = save()
    assert game.result is not None
    result = GameResult(
        result=game.result,
        outcome=outcome,
        side=game.side,
        plies=len(game.moves),
        record=record,
        record_path=path,
        final_view=game.view() if game.state is not None else None,
        note=game.note,
        seconds=time.monotonic() - started,
        stats=connection.stats,
    )
    emit(GameFinished(result))
    return result
