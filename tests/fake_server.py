"""A protocol-faithful fake Geister contest server for the tests (``spec/geister-protocol.md``).

Why a fake and not the Java server: the tests must run anywhere in seconds, and must make the server misbehave on
purpose (split and joined writes, abrupt closes, malformed lines, unexpected ``NG``, tiny time budgets).

Faithful where it matters, and independent of the client's code where a shared bug could hide:

* the server keeps its own board, as the Java server does: every piece by letter, in the first player's view,
  turned by 180 degrees for the second player; board strings, ``OKR``/``OKB``, directions and escapes are worked
  out here from that model, never with ``core.contest``'s mapping (the client's);
* the rules themselves are nashplay's engine (``core.geister``), so results are exact: the server's board is
  mapped to squares by its own small rule (``(x, y)`` in the first player's view is ``Square(x, 5 - y)``) and
  every move is checked, played and judged by a ``GeisterState``; the two models are compared after each move;
* two listening sockets on 127.0.0.1 (port 0: the system picks), the first for the player who moves first; one
  game at a time, game after game: after a result both connections are closed and the next two connections
  (queued meanwhile) play the next game;
* a rejected move loses at once (``NG`` then ``LST``/``WON``); a move sent out of turn gets ``NG`` without
  penalty; a disconnect loses; the draw limit and the clocks (budget, then per-move allowance) are options;
* the reference server's own behaviour, which the protocol does not say (``spec/geister-protocol.md``, "Behaviour
  of the real server"), as options, each off by default and all on with ``ServerOptions.real()``: connections made
  while a game runs are reset when it ends (``reset_queued``, and ``drop_first`` for a fixed number), an escape is
  acknowledged with the mover's previous capture (``escape_ack_repeats_capture``), and a stale timer ends some games
  by a false time-out (``false_timeout_every``).

``python tests/fake_server.py`` runs it on the standard ports, optionally with a built-in opponent, for trying
``nashplay connect`` by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import socket
import struct
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.contest import Clock, LineFramer
from core.game import Side
from core.geister import GEISTER, Colour, GeisterState, Setup
from core.notation import Move, Square
from tui.net import cancel_and_wait

LETTERS = "ABCDEFGH"
CAPTURED = (9, 9)
ESCAPED = (8, 8)
#: Steps in the mover's own view (north: toward the opponent).
STEPS = {"N": (0, -1), "E": (1, 0), "W": (-1, 0), "S": (0, 1)}
LONG = {"NORTH": "N", "EAST": "E", "WEST": "W", "SOUTH": "S"}


@dataclass
class ServerOptions:
    ply_limit: int = 300
    budget: float = 600.0
    per_move: float = 10.0
    whole_seconds: bool = True
    #: Longest wait for both set-ups.
    setup_timeout: float = 30.0
    #: Cut every message into this many writes, a moment apart (0: one write per message).
    split_writes: int = 0
    #: Hold messages to a player until the server waits for that player (``OK `` joined with the next ``MOV?``).
    join_writes: bool = False
    #: Abort both connections (no result) when this many plies have been played.
    close_at_ply: int | None = None
    #: Send ``malformed_line`` instead of the board when this many plies have been played.
    malformed_at_ply: int | None = None
    malformed_line: str = "MOV?this is not a board"
    #: Answer ``NG`` (and the loss) to the move played when this many plies have been played.
    reject_at_ply: int | None = None
    #: Set TCP_NODELAY on the server's sockets (the Java server does not).
    nodelay: bool = False
    #: Listening ports (0: chosen by the system).
    ports: tuple[int, int] = (0, 0)
    # ---- the reference server's behaviour (spec: "Behaviour of the real server that a client must survive")
    #: Reset (RST, before any ``SET?``) every connection made while a game runs, when that game ends: the reference
    #: server queues such a connection on its old listening socket and resets it when it closes that socket.
    reset_queued: bool = False
    #: Drop the first this many connections on each port at once, before ``SET?`` (a fixed number, so that a test
    #: meets drops whatever the timing of its clients).
    drop_first: int = 0
    #: How ``drop_first`` drops: a reset (as the reference server does) or a plain close (end-of-file).
    drop_with: Literal["reset", "close"] = "reset"
    #: Acknowledge an escape with the mover's previous capture (``OKB``/``OKR`` when its last move captured): the
    #: reference server does not clear its last-captured piece before an escape.
    escape_ack_repeats_capture: bool = False
    #: End every this-many-th game (game numbers 1, 2, ...) by a false time-out: when a player's move arrives in time
    #: at ply ``false_timeout_at_ply`` (or the next, alternating, so that both players meet it), the server drops
    #: the move and declares that player lost on time, as the reference server's stale move timer does.
    false_timeout_every: int | None = None
    false_timeout_at_ply: int = 4

    @classmethod
    def real(cls, **changes: Any) -> ServerOptions:
        """Every behaviour of the reference server switched on (``changes`` override any option)."""
        options = cls(reset_queued=True, drop_first=1, escape_ack_repeats_capture=True, false_timeout_every=10)
        return replace(options, **changes)


@dataclass
class ServedGame:
    """What happened in one game, as the server saw it."""

    number: int
    setups: list[str | None] = field(default_factory=lambda: [None, None])
    commands: list[tuple[int, str]] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    #: "won" / "lost" / "draw" per player (index 0: the first player); empty when the game was aborted.
    results: list[str] = field(default_factory=list)
    reason: str = ""
    final_boards: list[str] = field(default_factory=list)
    #: Commands a correct client never sends (a rejected move, a set-up the server had to refuse, ...).
    violations: list[str] = field(default_factory=list)
    state: GeisterState | None = None
    boards_sent: list[tuple[int, str]] = field(default_factory=list)
    #: The game was ended by a false time-out (``false_timeout_every``).
    false_timeout: bool = False
    #: Escapes acknowledged with a previous capture's ``OKB``/``OKR`` (``escape_ack_repeats_capture``).
    escape_acks_with_capture: int = 0


class _Peer:
    """One player's connection: a reader task feeding the game's inbox, and writes with the chosen policy."""

    def __init__(
        self,
        index: int,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        options: ServerOptions,
        rng: random.Random,
    ) -> None:
        self.index = index
        self.reader = reader
        self.writer = writer
        self.options = options
        self.rng = rng
        self.pending = b""
        self.task: asyncio.Task[None] | None = None
        #: Connected while a game ran (``reset_queued``): reset when that game ends.
        self.queued_during_game = False
        sock = writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1 if options.nodelay else 0)

    def listen(self, inbox: asyncio.Queue[tuple[int, str | None]]) -> None:
        async def run() -> None:
            framer = LineFramer()
            try:
                while True:
                    data = await self.reader.read(4096)
                    if not data:
                        break
                    for line in framer.feed(data):
                        await inbox.put((self.index, line))
            except (OSError, ValueError):
                pass
            await inbox.put((self.index, None))

        self.task = asyncio.create_task(run())

    async def send(self, text: str) -> None:
        self.pending += text.encode("ascii") + b"\r\n"
        if not self.options.join_writes:
            await self.flush()

    async def flush(self) -> None:
        data, self.pending = self.pending, b""
        if not data or self.writer.is_closing():
            return
        pieces = [data]
        if self.options.split_writes > 1 and len(data) > 1:
            count = min(self.options.split_writes, len(data))
            cuts = sorted(self.rng.sample(range(1, len(data)), count - 1))
            pieces = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        try:
            for number, piece in enumerate(pieces):
                if number:
                    await asyncio.sleep(0.002)
                self.writer.write(piece)
                await self.writer.drain()
        except (OSError, RuntimeError):
            pass

    def reset(self) -> None:
        """Drop the connection with a TCP reset, as closing a listening socket does to the connections in its queue
        (``SO_LINGER`` 0 turns the close into a RST, so the client reads "connection reset by peer")."""
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.writer.transport.abort()

    async def close(self, abort: bool = False) -> None:
        if abort:
            self.writer.transport.abort()
        else:
            await self.flush()
            self.writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(self.writer.wait_closed(), 2.0)
        if self.task is not None:
            await cancel_and_wait(self.task)


def _square(position: tuple[int, int]) -> Square:
    """The server's board is the first player's view; nashplay's ranks count from the first player's side."""
    return Square(position[0], 5 - position[1])


def _start_position(player: int, letter: str) -> tuple[int, int]:
    """Where ``player``'s piece starts, in the first player's view (the second player's own view turned)."""
    index = LETTERS.index(letter)
    x, y = 1 + index % 4, 4 + index // 4
    return (x, y) if player == 0 else (5 - x, 5 - y)


class _Match:
    """One game between two connected peers."""

    def __init__(self, server: FakeServer, peers: tuple[_Peer, _Peer], number: int) -> None:
        self.server = server
        self.options = server.options
        self.peers = peers
        self.record = ServedGame(number)
        self.inbox: asyncio.Queue[tuple[int, str | None]] = asyncio.Queue()
        self.position: list[dict[str, tuple[int, int]]] = [
            {letter: _start_position(p, letter) for letter in LETTERS} for p in (0, 1)
        ]
        self.colours: list[dict[str, str]] = [{}, {}]
        self.state: GeisterState | None = None
        self.clocks = [Clock(self.options.budget, self.options.per_move, self.options.whole_seconds) for _ in range(2)]
        self.over = False
        #: Each player's last capture (``R``/``B``; ``None`` when its last move captured nothing), which the
        #: reference server repeats when it acknowledges an escape (``escape_ack_repeats_capture``).
        self.last_capture: list[str | None] = [None, None]

    # ---- boards

    def board(self, viewer: int, reveal: bool = False) -> str:
        def seen(position: tuple[int, int]) -> tuple[int, int]:
            if position in (CAPTURED, ESCAPED) or viewer == 0:
                return position
            return 5 - position[0], 5 - position[1]

        text = ""
        for owner in (viewer, 1 - viewer):
            for letter in LETTERS:
                position = self.position[owner][letter]
                colour = self.colours[owner].get(letter, "B")
                on_board = position not in (CAPTURED, ESCAPED)
                if owner == viewer:
                    char = colour if on_board else colour.lower()
                else:
                    char = "u" if on_board and not reveal else colour.lower()
                x, y = seen(position)
                text += f"{x}{y}{char}"
        return text

    # ---- the game

    async def play(self) -> ServedGame:
        for peer in self.peers:
            peer.listen(self.inbox)
        try:
            if await self._setups():
                await self._moves()
        finally:
            aborted = not self.record.results
            for peer in self.peers:
                await peer.close(abort=aborted and self.over)
        self.record.state = self.state
        return self.record

    async def _finish(self, results: tuple[str, str], reason: str) -> None:
        self.over = True
        self.record.results = list(results)
        self.record.reason = reason
        prefixes = {"won": "WON:", "lost": "LST:", "draw": "DRW:"}
        for index, peer in enumerate(self.peers):
            board = self.board(index, reveal=True)
            self.record.final_boards.append(board)
            await peer.send(prefixes[results[index]] + board)
        for peer in self.peers:
            await peer.flush()

    async def _win(self, winner: int, reason: str) -> None:
        await self._finish(("won", "lost") if winner == 0 else ("lost", "won"), reason)

    async def _setups(self) -> bool:
        for peer in self.peers:
            await peer.send("SET?")
            await peer.flush()
        done: list[str | None] = [None, None]
        deadline = asyncio.get_running_loop().time() + self.options.setup_timeout
        while None in done:
            try:
                left = deadline - asyncio.get_running_loop().time()
                index, line = await asyncio.wait_for(self.inbox.get(), max(0.0, left))
            except TimeoutError:
                late = done.index(None)
                await self._win(1 - late, f"player {late + 1} did not set up in time")
                return False
            peer = self.peers[index]
            if line is None:
                await self._win(1 - index, f"player {index + 1} disconnected during the set-up")
                return False
            self.record.commands.append((index, line))
            match = re.fullmatch(r"SET:(\w*)", line)
            letters = match.group(1).upper() if match else ""
            if done[index] is not None or match is None or len(letters) != 4:
                await peer.send("NG ")  # a malformed SET may be retried
                continue
            if len(set(letters)) != 4 or set(letters) - set(LETTERS):
                # The Java server takes these (and gives a game with fewer reds); the engine cannot: refuse, note.
                self.record.violations.append(f"player {index + 1} sent {line!r}")
                await peer.send("NG ")
                continue
            done[index] = letters
            self.colours[index] = {letter: "R" if letter in letters else "B" for letter in LETTERS}
            await peer.send("OK ")
        self.record.setups = list(done)
        setups = []
        for index in (0, 1):
            colours = [Colour.BLUE] * 8
            for letter in LETTERS:
                slot = GEISTER.setup_squares[index].index(_square(_start_position(index, letter)))
                colours[slot] = Colour(self.colours[index][letter])
            setups.append(Setup(tuple(colours)))
        variant = replace(GEISTER, ply_limit=self.options.ply_limit)
        self.state = GeisterState.from_setups(variant, setups[0], setups[1])
        return True

    async def _moves(self) -> None:
        state = self.state
        assert state is not None
        while True:
            mover = state.ply % 2
            peer, other = self.peers[mover], self.peers[1 - mover]
            if self.options.close_at_ply == state.ply:
                self.over = True
                self.record.reason = f"closed on purpose after {state.ply} plies"
                return
            board = self.board(mover)
            if self.options.malformed_at_ply == state.ply:
                await peer.send(self.options.malformed_line)
            else:
                self.record.boards_sent.append((mover, board))
                await peer.send(f"MOV?{board}")
            await peer.flush()
            clock = self.clocks[mover]
            started = time.monotonic()
            limit = clock.allowance() + (1.0 if self.options.whole_seconds else 0.0)
            while True:
                try:
                    left = limit - (time.monotonic() - started)
                    index, line = await asyncio.wait_for(self.inbox.get(), max(0.0, left))
                except TimeoutError:
                    await self._win(1 - mover, f"player {mover + 1} ran out of time")
                    return
                if line is None:
                    await self._win(1 - index, f"player {index + 1} disconnected")
                    return
                self.record.commands.append((index, line))
                if index != mover:
                    await other.send("NG ")  # not your turn: no penalty
                    await other.flush()
                    continue
                break
            if not clock.charge(time.monotonic() - started):
                await self._win(1 - mover, f"player {mover + 1} ran out of time")
                return
            if self._false_timeout_now(state.ply):
                # The move came in time; a stale timer of an earlier move ends the game all the same.
                self.record.false_timeout = True
                await self._win(1 - mover, f"false time-out: player {mover + 1} answered in time")
                return
            move, letter, captured, reason = self._parse_move(mover, line)
            if move is None or self.options.reject_at_ply == state.ply:
                if move is None:
                    self.record.violations.append(f"player {mover + 1} sent {line!r}: {reason}")
                await peer.send("NG ")
                await self._win(1 - mover, f"player {mover + 1}'s move was rejected")
                return
            self._play(mover, letter, move)
            if move.dst is None and self.options.escape_ack_repeats_capture:
                captured = self.last_capture[mover]  # not cleared before an escape: the previous capture's answer
                self.record.escape_acks_with_capture += captured is not None
            else:
                self.last_capture[mover] = captured
            await peer.send("OK " if captured is None else f"OK{captured}")
            outcome = state.outcome()
            if outcome is not None:
                if outcome.winner is None:
                    await self._finish(("draw", "draw"), outcome.reason)
                else:
                    await self._win(int(outcome.winner), outcome.reason)
                return

    def _false_timeout_now(self, ply: int) -> bool:
        every = self.options.false_timeout_every
        if every is None or self.record.number % every:
            return False
        alternate = (self.record.number // every) % 2  # odd occurrences strike the other player
        return ply == self.options.false_timeout_at_ply + alternate

    def _parse_move(self, mover: int, line: str) -> tuple[Move | None, str, str | None, str]:
        """The engine move of a ``MOV:`` command, its piece letter and the colour it captures (``R``/``B``); or
        ``None`` and why it is rejected."""
        state = self.state
        assert state is not None
        match = re.fullmatch(r"MOV:(\w+),(\w+)", line)
        if match is None:
            return None, "", None, "not a move command"
        letter = match.group(1).upper()
        direction = LONG.get(match.group(2).upper(), match.group(2).upper())
        if letter not in LETTERS or direction not in STEPS:
            return None, "", None, "no such piece or direction"
        x, y = self.position[mover][letter]
        if (x, y) in (CAPTURED, ESCAPED):
            return None, "", None, f"piece {letter} is not on the board"
        dx, dy = STEPS[direction]
        if mover == 1:
            dx, dy = -dx, -dy
        nx, ny = x + dx, y + dy
        if 0 <= nx < 6 and 0 <= ny < 6:
            move = Move(_square((x, y)), _square((nx, ny)))
        else:
            mx, my = (x, y) if mover == 0 else (5 - x, 5 - y)
            corner_exit = direction == "N" or (mx == 0 and direction == "W") or (mx == 5 and direction == "E")
            if my != 0 or not corner_exit:
                return None, "", None, "a step off the board that is no escape"
            move = Move(_square((x, y)), None)
        why = state.why_illegal(move)
        if why is not None:
            return None, "", None, why
        captured = None
        for letter_there, position in self.position[1 - mover].items():
            if position == (nx, ny):
                captured = self.colours[1 - mover][letter_there]
        return move, letter, captured, ""

    def _play(self, mover: int, letter: str, move: Move) -> None:
        state = self.state
        assert state is not None
        if move.dst is None:
            self.position[mover][letter] = ESCAPED
        else:
            target = (move.dst.file, 5 - move.dst.rank)
            for other, position in self.position[1 - mover].items():
                if position == target:
                    self.position[1 - mover][other] = CAPTURED
            self.position[mover][letter] = target
        state.push(move)
        self.record.moves.append(move)
        self._compare(state)

    def _compare(self, state: GeisterState) -> None:
        """The server's own board and the engine's must agree after every move."""
        engine = {(sq.file, 5 - sq.rank): (int(p.side), p.colour.value) for sq, p in state.pieces()}
        mine = {
            position: (owner, self.colours[owner][letter])
            for owner in (0, 1)
            for letter, position in self.position[owner].items()
            if position not in (CAPTURED, ESCAPED)
        }
        if engine != mine:
            self.record.violations.append(f"the server's board and the engine disagree after {state.moves()[-1]}")


class FakeServer:
    """The fake server: ``async with FakeServer(options) as server:`` then connect to ``server.ports``."""

    def __init__(self, options: ServerOptions | None = None, seed: int = 0) -> None:
        self.options = options or ServerOptions()
        self.rng = random.Random(seed)
        self.ports: tuple[int, int] = (0, 0)
        self.games: list[ServedGame] = []
        self._servers: list[asyncio.Server] = []
        self._waiting: list[asyncio.Queue[_Peer]] = []
        self._task: asyncio.Task[None] | None = None
        self._finished: asyncio.Condition | None = None
        #: Connections accepted on each port, and those dropped before ``SET?`` (``drop_first``, ``reset_queued``).
        self.accepted = [0, 0]
        self.dropped = [0, 0]
        self._in_game = False

    async def start(self) -> FakeServer:
        self._waiting = [asyncio.Queue(), asyncio.Queue()]
        self._finished = asyncio.Condition()
        for index in (0, 1):

            async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, index: int = index) -> None:
                peer = _Peer(index, reader, writer, self.options, self.rng)
                self.accepted[index] += 1
                if self.accepted[index] <= self.options.drop_first:
                    self.dropped[index] += 1
                    if self.options.drop_with == "reset":
                        peer.reset()
                    else:
                        await peer.close()
                    return
                peer.queued_during_game = self._in_game
                await self._waiting[index].put(peer)

            self._servers.append(await asyncio.start_server(accept, "127.0.0.1", self.options.ports[index]))
        self.ports = (
            self._servers[0].sockets[0].getsockname()[1],
            self._servers[1].sockets[0].getsockname()[1],
        )
        self._task = asyncio.create_task(self._run())
        return self

    async def _run(self) -> None:
        number = 0
        while True:
            first = await self._waiting[0].get()
            second = await self._waiting[1].get()
            number += 1
            self._in_game = True
            game = await _Match(self, (first, second), number).play()
            if self.options.reset_queued:
                self._reset_queued()
            self._in_game = False
            self.games.append(game)
            assert self._finished is not None
            async with self._finished:
                self._finished.notify_all()

    def _reset_queued(self) -> None:
        """Reset the connections made while the game ran (no ``await``: none may slip in meanwhile)."""
        for index, queue in enumerate(self._waiting):
            kept = []
            while not queue.empty():
                peer = queue.get_nowait()
                if peer.queued_during_game:
                    self.dropped[index] += 1
                    peer.reset()
                else:
                    kept.append(peer)
            for peer in kept:
                queue.put_nowait(peer)

    async def wait_games(self, count: int, timeout: float = 30.0) -> list[ServedGame]:
        """Wait until ``count`` games have been played."""
        assert self._finished is not None
        finished = self._finished

        async def enough() -> None:
            async with finished:
                await finished.wait_for(lambda: len(self.games) >= count)

        await asyncio.wait_for(enough(), timeout)
        return self.games

    async def close(self) -> None:
        for server in self._servers:
            server.close()
        for server in self._servers:
            await server.wait_closed()
        if self._task is not None:
            await cancel_and_wait(self._task)
        for queue in self._waiting:
            while not queue.empty():
                await queue.get_nowait().close(abort=True)

    async def __aenter__(self) -> FakeServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


# --------------------------------------------------------------------------------------------------- in a thread


class ServerThread:
    """The fake server (and optionally a nashplay client playing the second port) on its own event loop in a
    thread, for testing code that runs its own loop (the ``nashplay connect`` command)."""

    def __init__(
        self,
        options: ServerOptions | None = None,
        opponent: str | None = None,
        games: int = 1,
        seed: int = 0,
        hold_after: int | None = None,
    ) -> None:
        self.options = options or ServerOptions()
        self.opponent = opponent
        self.games = games
        self.seed = seed
        #: The built-in opponent stops answering after this many moves of a game, and waits for the game to end
        #: (for tests that need a game in progress); ``holding`` is set when it does.
        self.hold_after = hold_after
        self.holding = threading.Event()
        self.server: FakeServer | None = None
        self.opponent_results: list[str] = []
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name="fake-server", daemon=True)

    def _main(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())
        self._loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        async with FakeServer(self.options, self.seed) as server:
            self.server = server
            self._ready.set()
            opponent = asyncio.create_task(self._opponent(server.ports[1])) if self.opponent else None
            await self._stop.wait()
            if opponent is not None:
                await cancel_and_wait(opponent)

    async def _opponent(self, port: int) -> None:
        from solvers.catalogue import make_player
        from tui.config import ContestSettings
        from tui.net import AIPlayer, play_game

        assert self.opponent is not None
        settings = ContestSettings(ply_limit=self.options.ply_limit, connect_deadline=5.0)
        rng = random.Random(self.seed + 1)
        for _ in range(self.games):
            player = AIPlayer(make_player(self.opponent, "geister"), rng)
            chooser: AIPlayer | _Holding = player if self.hold_after is None else _Holding(player, self)
            try:
                result = await play_game("127.0.0.1", port, chooser, side=Side.P2, settings=settings)
                self.opponent_results.append(result.result)
            except Exception as error:
                self.opponent_results.append(f"error: {error}")

    @property
    def ports(self) -> tuple[int, int]:
        assert self.server is not None
        return self.server.ports

    def wait_games(self, count: int, timeout: float = 30.0) -> list[ServedGame]:
        """The games played so far, once there are ``count`` (the server files a game after closing it, a moment
        after the clients have their results)."""
        assert self.server is not None
        future = asyncio.run_coroutine_threadsafe(self.server.wait_games(count, timeout), self._loop)
        return list(future.result(timeout + 1))

    def __enter__(self) -> ServerThread:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the fake server did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)


class _Holding:
    """A contest player that plays like ``inner``, then stops answering after ``thread.hold_after`` moves."""

    def __init__(self, inner: Any, thread: ServerThread) -> None:
        self.inner = inner
        self.name = inner.name
        self.thread = thread
        self.moves = 0

    async def choose_setup(self, view: Any) -> Any:
        return await self.inner.choose_setup(view)

    async def choose_move(self, view: Any, clocks: Any) -> Any:
        self.moves += 1
        if self.thread.hold_after is not None and self.moves > self.thread.hold_after:
            self.thread.holding.set()
            await asyncio.Event().wait()  # until the game ends (the client stops listening and cancels this)
        return await self.inner.choose_move(view, clocks)


class HandlerThread:
    """A bare TCP server on 127.0.0.1 (port 0) running ``handler`` for each connection, on its own event loop in a
    thread: for servers too broken for ``FakeServer`` (accepting and closing at once, ``SET?`` then closing), met
    by code that runs its own loop (``nashplay connect``). ``connections`` counts the connections accepted."""

    def __init__(self, handler: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]) -> None:
        self.handler = handler
        self.connections = 0
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name="handler-server", daemon=True)

    def _main(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())
        self._loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()

        async def count(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.connections += 1
            try:
                await self.handler(reader, writer)
            finally:
                writer.close()

        server = await asyncio.start_server(count, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        await self._stop.wait()
        server.close()
        await server.wait_closed()

    def __enter__(self) -> HandlerThread:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the server did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)


@contextlib.contextmanager
def free_ports(count: int = 2) -> Iterator[list[int]]:
    """Ports nobody listens on right now (bound to port 0 and released), for "server not up yet" tests."""
    sockets = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sockets.append(sock)
    ports = [s.getsockname()[1] for s in sockets]
    for sock in sockets:
        sock.close()
    yield ports


def main() -> None:
    parser = argparse.ArgumentParser(description="A fake Geister contest server, for trying nashplay connect.")
    parser.add_argument("--ports", default="10000,10001", help="first,second (default 10000,10001)")
    parser.add_argument("--ply-limit", type=int, default=300)
    parser.add_argument(
        "--opponent", choices=["random", "chototsu", "greedy"], help="a built-in client on the second port"
    )
    parser.add_argument("--games", type=int, default=1_000_000, help="games the built-in opponent plays")
    parser.add_argument(
        "--real",
        action="store_true",
        help="behave like the reference server: reset queued connections, acknowledge an escape with the previous "
        "capture, end every 10th game by a false time-out",
    )
    args = parser.parse_args()
    first, second = (int(p) for p in args.ports.split(","))
    options = ServerOptions(ply_limit=args.ply_limit, ports=(first, second))
    if args.real:
        options = ServerOptions.real(ply_limit=args.ply_limit, ports=(first, second))
    with ServerThread(options, args.opponent, args.games) as thread:
        print(f"fake contest server on 127.0.0.1:{thread.ports[0]} (first) and :{thread.ports[1]} (second)")
        with contextlib.suppress(KeyboardInterrupt):
            while thread._thread.is_alive() and not (args.opponent and len(thread.opponent_results) >= args.games):
                time.sleep(0.5)
        server = thread.server
        assert server is not None
        if args.opponent:
            errors = [r for r in thread.opponent_results if r.startswith("error")]
            print(
                f"the built-in {args.opponent} played {len(thread.opponent_results)} games: "
                f"{thread.opponent_results.count('won')} won, {thread.opponent_results.count('draw')} drawn, "
                f"{thread.opponent_results.count('lost')} lost, {len(errors)} errors"
            )
        print(
            f"server: {len(server.games)} games, {sum(g.false_timeout for g in server.games)} ended by a false "
            f"time-out, {sum(g.escape_acks_with_capture for g in server.games)} escapes acknowledged with a capture, "
            f"{sum(server.dropped)} connections dropped before SET? ({server.dropped[0]} on the first port)"
        )


if __name__ == "__main__":
    main()
