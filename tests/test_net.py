"""The network client (``tui.net``) against the protocol-faithful fake server (``fake_server.py``): whole games,
framing over real sockets, retries, time-outs and every way a server can misbehave."""

from __future__ import annotations

import asyncio
import gc
import os
import random
import threading
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import pytest
from fake_server import FakeServer, ServedGame, ServerOptions, free_ports
from waiting import HANG_SECONDS, until

from core.game import Side
from core.geister import GeisterState, GeisterView, Setup
from core.notation import Move, Square
from core.record import Record
from solvers.geister.baselines import ChototsuPlayer
from solvers.players import RandomPlayer
from tui.contest_events import (
    Clocks,
    ConnectError,
    Connecting,
    ConnectionLostError,
    ContestEvent,
    GameResult,
    IllegalMoveRefusedError,
    MoveRefused,
    MoveRequested,
    PositionChanged,
    RejectedError,
    ServerProtocolError,
    ServerSilentError,
)
from tui.net import AIPlayer, Connection, ContestPlayer, ContestSettings, HumanPlayer, play_game

HOST = "127.0.0.1"
T = TypeVar("T")


def run(coroutine: Awaitable[T]) -> T:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def ai(name: str, seed: int) -> AIPlayer:
    player = RandomPlayer() if name == "random" else ChototsuPlayer()
    return AIPlayer(player, random.Random(seed))


async def match(
    server: FakeServer,
    first: ContestPlayer,
    second: ContestPlayer,
    settings: ContestSettings | None = None,
    save_dir: Path | None = None,
    events: list[ContestEvent] | None = None,
) -> tuple[GameResult | BaseException, GameResult | BaseException]:
    """One game between two clients through ``server``; exceptions are returned, not raised."""
    on_event = events.append if events is not None else None
    one, two = await asyncio.gather(
        play_game(HOST, server.ports[0], first, settings=settings, save_dir=save_dir, on_event=on_event),
        play_game(HOST, server.ports[1], second, settings=settings, save_dir=save_dir),
        return_exceptions=True,
    )
    return one, two


def finished(result: GameResult | BaseException) -> GameResult:
    assert isinstance(result, GameResult), result
    return result


class HeldPlayer:
    """Plays like ``inner``, but its first move waits until the test calls ``release``."""

    def __init__(self, inner: AIPlayer) -> None:
        self.inner = inner
        self.name = inner.name
        self.waiting = False
        self._released = asyncio.Event()

    def release(self) -> None:
        self._released.set()

    async def choose_setup(self, view: GeisterView) -> Setup | str:
        return await self.inner.choose_setup(view)

    async def choose_move(self, view: GeisterView, clocks: Clocks) -> Move:
        self.waiting = True
        await self._released.wait()
        return await self.inner.choose_move(view, clocks)


# --------------------------------------------------------------------------------------------------- whole games


def check_against_engine(results: tuple[GameResult, GameResult], served: ServedGame) -> None:
    """Both clients saw the server's game: the same moves, the server's set-ups (mapped independently by the fake
    server), the server's results, and the engine's positions when their records are replayed."""
    assert served.violations == []
    assert served.state is not None
    assert [r.result for r in results] == served.results
    assert [r.side for r in results] == [Side.P1, Side.P2]
    for result in results:
        record = Record.parse(result.record.to_text())
        assert [Move.parse(m.text) for m in record.moves] == served.moves
        assert record.tags["Setup1"] == served.state.setup(Side.P1).to_text()  # type: ignore[union-attr]
        assert record.tags["Setup2"] == served.state.setup(Side.P2).to_text()  # type: ignore[union-attr]
        states = record.replay()
        assert states[-1].position() == served.state.position()
        assert result.outcome == served.state.outcome()
        if served.state.variant.ply_limit == 300:  # records replay with the standard limit
            assert states[-1].outcome() == served.state.outcome()
        assert result.final_view is not None
        assert result.final_view.position() == served.state.position()  # every colour revealed at the end
        assert result.plies == len(served.moves)
        # Every board the server sent is in the record, as a comment or the ServerStart tag.
        comments = " ".join(m.comment or "" for m in record.moves) + record.tags.get("ServerStart", "")
        for viewer, board in served.boards_sent:
            if viewer == int(result.side):
                assert board in comments


@pytest.mark.parametrize(("first", "second", "seed"), [("random", "chototsu", 1), ("chototsu", "random", 2)])
def test_two_clients_play_the_engines_game(first: str, second: str, seed: int, tmp_path: Path) -> None:
    async def main() -> tuple[Any, Any, ServedGame]:
        async with FakeServer(seed=seed) as server:
            one, two = await match(server, ai(first, seed), ai(second, seed + 100), save_dir=tmp_path)
            return one, two, (await server.wait_games(1))[0]

    one, two, served = run(main())
    results = (finished(one), finished(two))
    check_against_engine(results, served)
    saved = sorted(tmp_path.glob("*.ngr"))
    assert len(saved) == 2
    assert {r.record_path for r in results} == set(saved)
    for path in saved:
        Record.load(path).replay()


class Recorder:
    """Plays like ``inner`` and keeps every view it is given."""

    def __init__(self, inner: AIPlayer) -> None:
        self.inner = inner
        self.name = inner.name
        self.views: list[GeisterView] = []

    async def choose_setup(self, view: GeisterView) -> Setup | str:
        return await self.inner.choose_setup(view)

    async def choose_move(self, view: GeisterView, clocks: Clocks) -> Move:
        self.views.append(view)
        return await self.inner.choose_move(view, clocks)


@pytest.mark.parametrize("seed", [11, 12])
def test_players_get_exactly_the_engines_views(seed: int) -> None:
    """What our AIs see through the server is what ``GeisterState.view`` gives in the same game: the opponent's
    pieces unknown, captured ones with their colours, every move, our set-up; nothing more, nothing less."""
    players = (Recorder(ai("random", seed)), Recorder(ai("random", seed + 1)))

    async def main() -> ServedGame:
        async with FakeServer() as server:
            await match(server, *players)
            return (await server.wait_games(1))[0]

    served = run(main())
    assert served.state is not None and served.results
    setups = [served.state.setup(side) for side in Side]
    state = GeisterState.from_setups(served.state.variant, setups[0], setups[1])  # type: ignore[arg-type]
    expected: list[list[GeisterView]] = [[], []]
    for move in served.moves:
        expected[state.to_move].append(state.view(state.to_move))
        state.push(move)
    for side in Side:
        assert players[side].views == expected[side]
    assert any(view.captured for view in players[0].views + players[1].views)


def test_events_follow_the_game() -> None:
    events: list[ContestEvent] = []

    async def main() -> Any:
        async with FakeServer() as server:
            return await match(server, ai("random", 5), ai("chototsu", 6), events=events)

    one, _ = run(main())
    result = finished(one)
    opponent_moves = [e.opponent_move for e in events if isinstance(e, PositionChanged) and e.opponent_move]
    own_moves = [e.own_move for e in events if isinstance(e, PositionChanged) and e.own_move]
    assert len(opponent_moves) + len(own_moves) == result.plies
    asked = [e for e in events if isinstance(e, MoveRequested)]
    assert asked and all(e.view.my_turn for e in asked)
    assert all(0 <= e.clocks.ours <= 600 for e in asked)


class Shuffler:
    """Moves one back-row piece sideways and back for ever: the game can only end by the ply limit."""

    name = "shuffler"

    async def choose_setup(self, view: GeisterView) -> Setup | str:
        return "ABCD"

    async def choose_move(self, view: GeisterView, clocks: Clocks) -> Move:
        rank = 0 if view.viewer is Side.P1 else 5
        pair = {Square(0, rank), Square(1, rank)}
        for move in view.legal_moves():
            if move.src in pair and move.dst in pair:
                return move
        raise AssertionError("the shuffle is blocked")


def test_ply_limit_draw_at_200() -> None:
    settings = ContestSettings(ply_limit=200)

    async def main() -> Any:
        async with FakeServer(ServerOptions(ply_limit=200)) as server:
            one, two = await match(server, Shuffler(), Shuffler(), settings)
            return one, two, (await server.wait_games(1))[0]

    one, two, served = run(main())
    results = (finished(one), finished(two))
    assert [r.result for r in results] == ["draw", "draw"]
    assert all(r.plies == 200 and "200 plies" in r.outcome.reason for r in results)
    check_against_engine(results, served)
    assert results[0].record.tags["PlyLimit"] == "200"


# ------------------------------------------------------------------------------------------------- framing on the wire


def test_messages_split_across_reads() -> None:
    async def main() -> Any:
        async with FakeServer(ServerOptions(split_writes=4, nodelay=True)) as server:
            one, two = await match(server, ai("chototsu", 1), ai("chototsu", 2))
            return one, two, (await server.wait_games(1))[0]

    one, two, served = run(main())
    results = (finished(one), finished(two))
    check_against_engine(results, served)
    assert all(r.stats.partial_reads > 0 for r in results)


def test_messages_joined_in_one_read() -> None:
    async def main() -> Any:
        async with FakeServer(ServerOptions(join_writes=True)) as server:
            one, two = await match(server, ai("random", 3), ai("chototsu", 4))
            return one, two, (await server.wait_games(1))[0]

    one, two, served = run(main())
    results = (finished(one), finished(two))
    check_against_engine(results, served)
    assert all(r.stats.joined_reads > 0 for r in results)


# --------------------------------------------------------------------------------------------------- connecting


def test_connection_refused_then_the_server_comes_up() -> None:
    events: list[ContestEvent] = []

    async def main() -> Any:
        with free_ports() as ports:
            settings = ContestSettings(connect_deadline=HANG_SECONDS)
            games = asyncio.gather(
                play_game(HOST, ports[0], ai("random", 1), settings=settings, on_event=events.append),
                play_game(HOST, ports[1], ai("chototsu", 2), settings=settings),
            )
            # The server comes up once the first client has been refused, however long that took.
            await until(
                lambda: any(isinstance(e, Connecting) and "connection refused" in e.text for e in events),
                "a refused attempt",
            )
            async with FakeServer(ServerOptions(ports=(ports[0], ports[1]))):
                return await games

    one, two = run(main())
    assert finished(one).result in ("won", "lost", "draw") and finished(two).result
    retries = [e for e in events if isinstance(e, Connecting)]
    assert retries and "connection refused" in retries[0].text and "retrying in" in retries[0].text


def test_giving_up_after_the_deadline() -> None:
    async def main() -> None:
        with free_ports(1) as ports:
            await play_game(HOST, ports[0], ai("random", 1), settings=ContestSettings(connect_deadline=0.6))

    # That it returns at all is the behaviour: a client that ignored its deadline would retry for ever.
    with pytest.raises(ConnectError, match=r"gave up connecting to 127\.0\.0\.1:\d+ after .*is the server running"):
        run(main())


# ------------------------------------------------------------------------------------------------- misbehaving servers


def test_server_closes_mid_game(tmp_path: Path) -> None:
    async def main() -> Any:
        async with FakeServer(ServerOptions(close_at_ply=6)) as server:
            return await match(server, ai("random", 1), ai("random", 2), save_dir=tmp_path)

    one, two = run(main())
    # The first player never saw the sixth move (its board never came); the second played it.
    for error, known in ((one, 5), (two, 6)):
        assert isinstance(error, ConnectionLostError)
        assert "closed the connection before the game ended" in str(error)
        assert error.record_path is not None and error.record_path.exists()
        assert str(error.record_path) in str(error)
        record = Record.load(error.record_path)
        assert record.result == "*" and len(record.moves) == known
        record.replay()


def test_server_sends_a_malformed_line(tmp_path: Path) -> None:
    async def main() -> Any:
        async with FakeServer(ServerOptions(malformed_at_ply=4)) as server:
            one, two = await match(server, ai("random", 1), ai("random", 2), save_dir=tmp_path)
            return one, two, (await server.wait_games(1))[0]

    one, two, served = run(main())
    assert isinstance(one, ServerProtocolError)
    assert "unexpected message" in str(one) or "48 characters" in str(one)
    assert one.record is not None and len(one.record.moves) == 3  # the fourth move came in the bad line
    assert finished(two).result == "won"  # the other player wins by the disconnection
    assert served.results == ["lost", "won"]


def test_server_answers_ng_unexpectedly(tmp_path: Path) -> None:
    async def main() -> Any:
        async with FakeServer(ServerOptions(reject_at_ply=5)) as server:
            one, two = await match(server, ai("random", 1), ai("random", 2), save_dir=tmp_path)
            return one, two, (await server.wait_games(1))[0]

    one, two, served = run(main())
    assert isinstance(two, RejectedError)
    assert "rejected our move" in str(two) and "counts that as a loss" in str(two)
    assert two.record is not None and two.record.tags["ServerResult"] == "lost"
    assert two.record_path is not None and Record.load(two.record_path).result == "1-0"
    assert finished(one).result == "won"
    assert served.violations == []


def test_a_silent_server_times_out() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"SET?\r\n")
        await reader.read(100)
        await asyncio.sleep(5)
        writer.close()

    async def main() -> None:
        server = await asyncio.start_server(silent, HOST, 0)
        port = server.sockets[0].getsockname()[1]
        try:
            settings = ContestSettings(start_timeout=0.3, grace=0.1, budget=0.1, per_move=0.1)
            await play_game(HOST, port, ai("random", 1), settings=settings)
        finally:
            server.close()

    with pytest.raises(ServerSilentError, match="sent nothing"):
        run(main())


# --------------------------------------------------------------------------------------------------- our own moves


class Blunderer:
    """Always plays from an empty square: every move it chooses is illegal."""

    name = "blunderer"

    async def choose_setup(self, view: GeisterView) -> Setup | str:
        return "BCFG"

    async def choose_move(self, view: GeisterView, clocks: Clocks) -> Move:
        return Move.parse("c3-c4") if view.piece_at(Square.parse("c3")) is None else Move.parse("a3-a4")


def test_an_illegal_move_is_never_sent() -> None:
    events: list[ContestEvent] = []

    async def main() -> Any:
        async with FakeServer() as server:
            one, two = await match(server, Blunderer(), ai("random", 2), events=events)
            return one, two, (await server.wait_games(1))[0]

    one, two, served = run(main())
    assert isinstance(one, IllegalMoveRefusedError)
    assert "nothing was sent" in str(one)
    refused = [e for e in events if isinstance(e, MoveRefused)]
    assert len(refused) == 3 and "no piece on c3" in refused[0].reason
    assert not any(line.startswith("MOV:") for player, line in served.commands if player == 0)
    assert served.violations == []
    assert finished(two).result == "won"


class Sleeper:
    """Plays like ``inner`` but thinks too long on its second move."""

    def __init__(self, inner: AIPlayer, delay: float) -> None:
        self.inner = inner
        self.name = "sleeper"
        self.delay = delay
        self.moves = 0

    async def choose_setup(self, view: GeisterView) -> Setup | str:
        return await self.inner.choose_setup(view)

    async def choose_move(self, view: GeisterView, clocks: Clocks) -> Move:
        self.moves += 1
        if self.moves == 2:
            await asyncio.sleep(self.delay)
        return await self.inner.choose_move(view, clocks)


def test_running_out_of_time_loses() -> None:
    options = ServerOptions(budget=0.2, per_move=0.1, whole_seconds=False)
    settings = ContestSettings(budget=0.2, per_move=0.1, whole_seconds=False, grace=2)

    async def main() -> Any:
        async with FakeServer(options) as server:
            one, two = await match(server, Sleeper(ai("random", 1), 0.5), ai("random", 2), settings)
            return one, two, (await server.wait_games(1))[0]

    one, two, served = run(main())
    assert finished(one).result == "lost" and finished(two).result == "won"
    assert "on time" in finished(one).outcome.reason
    assert served.reason == "player 1 ran out of time"
    assert Record.parse(finished(one).record.to_text()).result == "0-1"


def test_the_server_is_heard_while_our_player_thinks() -> None:
    """A person who does not answer in time: the server's result arrives while we are still choosing, and the game
    ends at once instead of waiting for a move that can no longer be played."""
    options = ServerOptions(budget=0.3, per_move=0.2, whole_seconds=False)
    settings = ContestSettings(budget=0.3, per_move=0.2, whole_seconds=False, grace=2)
    human = HumanPlayer()
    events: list[ContestEvent] = []

    async def main() -> Any:
        async with FakeServer(options) as server:
            game = asyncio.ensure_future(
                play_game(HOST, server.ports[0], human, settings=settings, on_event=events.append)
            )
            second = asyncio.ensure_future(play_game(HOST, server.ports[1], ai("random", 1), settings=settings))
            while human.waiting_for != "setup":
                await asyncio.sleep(0.01)
            human.submit_setup("BCFG")
            return await asyncio.wait_for(asyncio.gather(game, second), timeout=HANG_SECONDS)

    one, two = run(main())
    assert finished(one).result == "lost" and finished(two).result == "won"
    assert "on time" in finished(one).outcome.reason
    assert human.waiting_for is None  # the unanswered request was withdrawn
    assert any(isinstance(e, MoveRequested) for e in events)


def test_the_server_closing_while_our_player_thinks_is_reported_at_once(tmp_path: Path) -> None:
    human = HumanPlayer()

    async def main() -> Any:
        server = await FakeServer().start()
        game = asyncio.ensure_future(play_game(HOST, server.ports[0], human, save_dir=tmp_path))
        second = asyncio.ensure_future(play_game(HOST, server.ports[1], ai("random", 1)))
        while human.waiting_for != "setup":
            await asyncio.sleep(0.01)
        human.submit_setup("BCFG")
        while human.waiting_for != "move":
            await asyncio.sleep(0.01)
        await server.close()
        return await asyncio.wait_for(asyncio.gather(game, second, return_exceptions=True), timeout=HANG_SECONDS)

    one, _ = run(main())
    assert isinstance(one, ConnectionLostError), one
    assert one.record_path is not None and one.record_path.exists()


def test_the_human_player_is_driven_by_events() -> None:
    human = HumanPlayer()
    rng = random.Random(4)
    moves_asked = 0

    def on_event(event: ContestEvent) -> None:
        nonlocal moves_asked
        if isinstance(event, MoveRequested):
            moves_asked += 1
            # The UI answers later, from the event loop (as a key press would).
            move = rng.choice(event.view.legal_moves())
            asyncio.get_running_loop().call_soon(human.submit_move, move)

    async def main() -> Any:
        async with FakeServer() as server:
            game = asyncio.ensure_future(play_game(HOST, server.ports[0], human, on_event=on_event))
            second = asyncio.ensure_future(play_game(HOST, server.ports[1], ai("chototsu", 1)))
            while human.waiting_for != "setup":
                await asyncio.sleep(0.01)
            with pytest.raises(RuntimeError, match="not waiting for a move"):
                human.submit_move(Move.parse("b2-b3"))
            human.submit_setup("BCFG")
            return await asyncio.gather(game, second)

    one, _ = run(main())
    assert finished(one).record.tags["Player1"] == "human"
    assert moves_asked >= finished(one).plies // 2


# --------------------------------------------------------------------------------------------------- many games


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0


def test_many_games_in_a_row_leak_nothing(tmp_path: Path) -> None:
    games = 30

    async def main() -> list[GameResult]:
        results: list[GameResult] = []
        async with FakeServer() as server:
            for number in range(games):
                one, two = await match(server, ai("chototsu", number), ai("random", 1000 + number))
                results += [finished(one), finished(two)]
            assert len(await server.wait_games(games)) == games
            assert all(not g.violations for g in server.games)
        return results

    run(main())  # warm-up: imports, the event loop's first allocations
    gc.collect()
    fds, threads = open_fds(), threading.active_count()
    results = run(main())
    gc.collect()
    assert len(results) == 2 * games
    assert open_fds() <= fds
    assert threading.active_count() <= threads


def test_play_game_never_leaves_a_socket_open_after_an_error() -> None:
    async def main() -> None:
        for _ in range(5):
            async with FakeServer(ServerOptions(close_at_ply=2)) as server:
                await match(server, ai("random", 1), ai("random", 2))

    run(main())
    gc.collect()
    fds = open_fds()
    run(main())
    gc.collect()
    assert open_fds() <= fds


# ------------------------------------------------------------------------------------- the real server's behaviour


@pytest.mark.parametrize("how", ["reset", "close"])
def test_connections_dropped_before_set_are_not_games(how: Literal["reset", "close"], tmp_path: Path) -> None:
    """The reference server resets a connection made while a game runs; a reset (or a close) before ``SET?`` is
    another connection attempt, not a game and not an error, and leaves no record."""
    events: list[ContestEvent] = []

    async def main() -> Any:
        async with FakeServer(ServerOptions(drop_first=2, drop_with=how)) as server:
            one, two = await match(server, ai("random", 1), ai("chototsu", 2), save_dir=tmp_path, events=events)
            return one, two, list(server.dropped), (await server.wait_games(1))[0]

    one, two, dropped, served = run(main())
    check_against_engine((finished(one), finished(two)), served)
    assert dropped == [2, 2]
    retries = [e for e in events if isinstance(e, Connecting)]
    assert len(retries) == 2 and all(e.dropped for e in retries)
    assert "not a game" in retries[0].text and "connecting again in" in retries[0].text
    if how == "reset":
        assert "reset" in retries[0].error
    assert len(list(tmp_path.glob("*.ngr"))) == 2  # one per client, none for the dropped connections


def test_a_connection_queued_during_a_game_is_reset_and_then_plays() -> None:
    """A third client connects while a game runs: the server queues it and resets it when the game ends; it connects
    again and plays the next game."""
    held = HeldPlayer(ai("random", 1))
    events: list[ContestEvent] = []

    async def main() -> tuple[GameResult, list[int]]:
        async with FakeServer(ServerOptions(reset_queued=True)) as server:
            first = asyncio.gather(
                play_game(HOST, server.ports[0], held), play_game(HOST, server.ports[1], ai("chototsu", 2))
            )
            await until(lambda: held.waiting, "the first game to be under way")
            third = asyncio.ensure_future(play_game(HOST, server.ports[0], ai("random", 3), on_event=events.append))
            await until(lambda: server.accepted[0] == 2, "the third client to be queued")
            held.release()
            await first
            fourth = asyncio.ensure_future(play_game(HOST, server.ports[1], ai("chototsu", 4)))
            result = await asyncio.wait_for(third, 60)
            await fourth
            return result, list(server.dropped)

    result, dropped = run(main())
    assert result.result in ("won", "lost", "draw")
    # The fourth may be reset too, if it connects before the server has closed the first game.
    assert dropped[0] == 1 and dropped[1] <= 1
    retries = [e for e in events if isinstance(e, Connecting)]
    assert len(retries) == 1 and retries[0].dropped and "reset" in retries[0].error


class Scripted:
    """Sends a fixed set-up and fixed moves."""

    def __init__(self, name: str, letters: str, moves: list[str]) -> None:
        self.name = name
        self.letters = letters
        self.moves = [Move.parse(text) for text in moves]

    async def choose_setup(self, view: GeisterView) -> Setup | str:
        return self.letters

    async def choose_move(self, view: GeisterView, clocks: Clocks) -> Move:
        return self.moves.pop(0)


def test_an_escape_acknowledged_with_the_previous_capture_is_a_win() -> None:
    """Our blue piece captures on the exit corner a6, then escapes: the reference server acknowledges the escape with
    the capture's ``OKB`` again, then ``WON``. The escape captures nothing, and the board is not out of step."""
    first = Scripted("runner", "EFGH", ["b2-a2", "a2-a3", "a3-a4", "a4-a5", "a5-a6", "a6-out"])  # A..D blue
    second = Scripted("shuffler", "ABCD", ["b6-a6", "e5-f5", "f5-e5", "e5-f5", "f5-e5"])
    events: list[ContestEvent] = []

    async def main() -> Any:
        async with FakeServer(ServerOptions(escape_ack_repeats_capture=True)) as server:
            one, two = await match(server, first, second, events=events)
            return one, two, (await server.wait_games(1))[0]

    one, two, served = run(main())
    assert served.escape_acks_with_capture == 1
    results = (finished(one), finished(two))
    check_against_engine(results, served)
    assert results[0].result == "won" and "escape" in results[0].outcome.reason and results[0].note is None
    own = [e for e in events if isinstance(e, PositionChanged) and e.own_move is not None]
    assert [e.captured is not None for e in own][-2:] == [True, False]  # the capture on a6, then the escape


def test_a_false_time_out_is_recorded_as_such_and_the_next_game_goes_on(tmp_path: Path) -> None:
    """The server's stale move timer ends the second game: the player whose move arrived in time at ply 6 is
    declared lost. Both records say it was a time-out declared by the server; the third game is played."""
    options = ServerOptions(false_timeout_every=2, false_timeout_at_ply=4)  # game 2: at the 6th ply, player 2

    async def main() -> tuple[list[tuple[Any, Any]], list[ServedGame]]:
        async with FakeServer(options) as server:
            pairs = []
            for number in range(3):
                pairs.append(await match(server, ai("random", number), ai("chototsu", 10 + number), save_dir=tmp_path))
            return pairs, await server.wait_games(3)

    pairs, served = run(main())
    assert [g.false_timeout for g in served] == [False, True, False]
    for (one, two), game in zip(pairs, served, strict=True):
        assert [finished(one).result, finished(two).result] == game.results
    winner, loser = finished(pairs[1][0]), finished(pairs[1][1])
    assert (winner.result, loser.result, loser.plies) == ("won", "lost", 5)
    assert "time-out declared by the server although we had answered in time" in loser.outcome.reason
    assert "time-out declared by the server" in winner.outcome.reason
    for result, expected in ((loser, "1-0"), (winner, "1-0")):
        assert result.record_path is not None
        record = Record.load(result.record_path)
        assert record.result == expected and "time-out declared by the server" in record.tags["Termination"]
        record.replay()


def test_a_cancellation_arriving_with_a_line_is_not_lost() -> None:
    """SIGTERM (or Ctrl-C) cancels the game's task; if that lands just as a read completes, the cancellation must
    still end the game. ``asyncio.wait_for`` in Python 3.11 swallowed it there, and headless play went on (seen:
    about one SIGHUP in ten under load never stopped ``nashplay connect``)."""

    async def main() -> str:
        reader = asyncio.StreamReader()
        connection = Connection(reader, cast(Any, None), quickack=False)
        receiving = asyncio.ensure_future(connection.receive(10.0))
        await asyncio.sleep(0)  # now waiting in the read
        reader.feed_data(b"SET?\r\n")  # the read completes...
        receiving.cancel()  # ...and the cancellation arrives in the same turn of the loop
        try:
            await receiving
        except asyncio.CancelledError:
            return "cancelled"
        return "the cancellation was lost"

    assert run(main()) == "cancelled"
