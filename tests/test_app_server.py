"""The app's server mode (``nashplay connect`` as a person), driven headless with the pilot against the fake server
(``fake_server.py``) on 127.0.0.1, port 0. The opponent is a second nashplay client (``play_game`` with an
``AIPlayer``) in the same event loop. Every wait is a condition with a time-out, never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fake_server import FakeServer, ServedGame, ServerOptions, free_ports
from pilot_helpers import wait_for as until
from textual.pilot import Pilot
from textual.widgets import Input, OptionList
from waiting import HANG_SECONDS

from core.game import Side
from core.geister import Colour, GeisterView, Setup
from core.notation import Move, Square
from core.record import Record
from solvers.geister.baselines import ChototsuPlayer
from solvers.players import RandomPlayer
from tui.app import NashplayApp, StartRequest
from tui.config import ContestSettings, ServerGameConfig
from tui.contest_events import Clocks, ConnectError, ContestError, GameResult
from tui.net import AIPlayer, ContestPlayer, cancel_and_wait, open_game, play_game
from tui.screens.ask_path import AskServer
from tui.screens.menu import MenuScreen
from tui.screens.server import ServerGameScreen
from tui.web.visitor import CONTEST_SERVERS_ENV, WEB_VISITOR_ENV, contest_refusal
from tui.widgets.advice import AdvicePanel
from tui.widgets.board import Board

HOST = "127.0.0.1"
SIZE = (120, 40)
T = TypeVar("T")


def run(body: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run an async test body (the suite has no async pytest plugin)."""
    return asyncio.run(body())


def server_app(port: int, save_dir: Path, setup: str | None = "BCFG", **settings: float) -> NashplayApp:
    config = ServerGameConfig(
        host=HOST,
        port=port,
        setup=setup,
        save_dir=save_dir,
        settings=ContestSettings(**{"connect_deadline": 10.0, **settings}),  # type: ignore[arg-type]
        seed=3,
    )
    return NashplayApp(StartRequest("server", server=config), ai_delay=0)


def opponent(
    port: int, name: str = "random", seed: int = 1, player: ContestPlayer | None = None, **settings: float
) -> asyncio.Task[GameResult]:
    """A second nashplay client on ``port``, playing in the test's event loop (the app's)."""
    player = player or AIPlayer(RandomPlayer() if name == "random" else ChototsuPlayer(), random.Random(seed))
    options = ContestSettings(**{"connect_deadline": 10.0, **settings})  # type: ignore[arg-type]
    return asyncio.ensure_future(play_game(HOST, port, player, settings=options))


class Held:
    """A random player that moves only when the test releases it (so the test knows whose turn it is)."""

    name = "held"

    def __init__(self) -> None:
        self.inner = AIPlayer(RandomPlayer(), random.Random(1))
        self.release = asyncio.Event()

    async def choose_setup(self, view: GeisterView) -> Setup | str:
        return await self.inner.choose_setup(view)

    async def choose_move(self, view: GeisterView, clocks: Clocks) -> Move:
        await self.release.wait()
        self.release.clear()
        return await self.inner.choose_move(view, clocks)


def screen_of(app: NashplayApp) -> ServerGameScreen:
    screen = app.screen
    assert isinstance(screen, ServerGameScreen), screen
    return screen


def text_of(app: NashplayApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


async def my_turn(app: NashplayApp, pilot: Pilot[None]) -> GeisterView:
    screen = screen_of(app)
    await until(pilot, lambda: screen.my_turn or screen.phase in ("over", "failed"), "the user's turn")
    assert screen.view is not None
    return screen.view


def unknown_glyph_colours(app: NashplayApp) -> set[str]:
    """The colours the board draws its ``?`` (unknown opponent piece) glyphs in."""
    text = app.screen.query_one("#board", Board).render()
    colours = set()
    for offset, char in enumerate(text.plain):
        if char == "?":
            style = text.get_style_at_offset(app.console, offset)
            assert style.color is not None and style.color.triplet is not None
            colours.add(style.color.triplet.hex)
    return colours


def cursor_keys(board: Board, target: Square) -> list[str]:
    """The arrow keys that take the board's cursor to ``target`` (the board may be drawn turned for player 2)."""
    dx, dy = target.file - board.cursor.file, target.rank - board.cursor.rank
    assert board.view is not None
    if board.view.viewer is Side.P2:  # turned: up on the screen is down the ranks
        dx, dy = -dx, -dy
    return ["right" if dx > 0 else "left"] * abs(dx) + ["up" if dy > 0 else "down"] * abs(dy)


async def play_by_cursor(pilot: Pilot[None], board: Board, move: Move) -> None:
    await pilot.press(*cursor_keys(board, move.src), "enter")
    if move.dst is None:
        await pilot.press("o")
    else:
        await pilot.press(*cursor_keys(board, move.dst), "enter")


def served_commands(served: ServedGame, player: int) -> list[str]:
    return [line for index, line in served.commands if index == player]


async def play_typed(pilot: Pilot[None], screen: ServerGameScreen, move: Move, how: str = "typed") -> None:
    """Play ``move`` from the keyboard and wait until the screen has handed it over (a refused move fails).

    ``how``: ``"cursor"`` (arrows, Enter), ``"typed"`` (``:``, the move key by key, Enter) or ``"field"`` (``:``,
    the move put in the field at once, Enter: each key press costs the pilot ~0.1 s on this machine)."""
    before = screen.version
    if how == "cursor":
        await play_by_cursor(pilot, screen.query_one("#board", Board), move)
    elif how == "field":
        await pilot.press("colon")
        screen.query_one("#move-input", Input).value = move.to_text()
        await pilot.press("enter")
    else:
        await pilot.press("colon", *move.to_text(), "enter")
    await until(pilot, lambda: screen.version != before, f"{move} to be handed over ({screen.message_text})")


async def play_until_it_breaks(app: NashplayApp, pilot: Pilot[None]) -> ContestError:
    """Play the first legal move on each turn until the game stops on an error (which has saved the record)."""
    screen = screen_of(app)
    while True:
        view = await my_turn(app, pilot)
        if screen.phase == "failed":
            break
        await play_typed(pilot, screen, view.legal_moves()[0])
    error = screen.error
    assert error is not None and error.record_path is not None and error.record_path.exists()
    return error


async def stop(task: asyncio.Task[GameResult]) -> None:
    await cancel_and_wait(task)


# --------------------------------------------------------------------------------------------------- a whole game


def test_a_whole_game_from_the_keyboard(tmp_path: Path) -> None:
    """The user (second player, set-up chosen on the screen) plays a whole game against a random client: unknown
    pieces purple mid-game, the clocks ticking, then the result with every colour, and a record that replays."""
    rng = random.Random(5)
    chooser = ChototsuPlayer()  # picks the user's moves: it heads for the exits, so games are short

    async def test() -> tuple[ServedGame, ServerGameScreen]:
        async with FakeServer(ServerOptions(ply_limit=120), seed=2) as server:
            app = server_app(server.ports[1], tmp_path, setup=None, ply_limit=120)
            async with app.run_test(size=SIZE) as pilot:
                screen = screen_of(app)
                # The set-up is chosen on the screen while the server waits: r (random), then Space on the first
                # piece twice (no change), then s sends it.
                await pilot.press("r", "space", "space", "s")
                assert screen.chosen_setup is not None and len(screen.chosen_setup) == 4
                other = opponent(server.ports[0], "random", seed=9, ply_limit=120)
                view = await my_turn(app, pilot)
                assert view.viewer is Side.P2 and len(view.moves) == 1
                assert screen.setup_sent and "sent" in text_of(app, "#status")
                assert "connected" in text_of(app, "#connection")
                # Unknown opponent pieces are drawn as purple question marks.
                assert unknown_glyph_colours(app) == {app.theme_variables["piece-unknown"].lower()}
                assert "Last move:" in text_of(app, "#status") and "(opponent)" in text_of(app, "#status")
                assert "Ply 1 of 120" in text_of(app, "#status")
                # The user's clock runs while the user thinks.
                await until(pilot, lambda: "9:59" in text_of(app, "#clocks"), "the user's clock to tick")
                assert "(running)" in text_of(app, "#clocks")
                turn = 0
                while screen.phase == "playing":
                    move = chooser.choose(view, rng)
                    assert isinstance(move, Move)
                    await play_typed(pilot, screen, move, ("cursor", "typed", "field")[min(turn, 2)])
                    turn += 1
                    view = await my_turn(app, pilot)
                await until(pilot, lambda: screen.phase == "over", "the result")
                result = screen.result
                assert result is not None
                status = text_of(app, "#status")
                assert "Game over" in status and "All colours are revealed" in status
                final = app.screen.query_one("#board", Board).view
                assert final is not None and final.outcome is not None
                assert all(p.colour is not Colour.UNKNOWN for _, p in final.pieces())
                assert "?" not in app.screen.query_one("#board", Board).render().plain
                assert str(result.record_path) in status
                assert "closed" in text_of(app, "#connection")
                await asyncio.wait_for(other, HANG_SECONDS)
            served = (await server.wait_games(1))[0]
            return served, screen

    served, screen = run(test)
    result = screen.result
    assert result is not None and result.record_path is not None
    assert served.violations == [] and served.state is not None
    assert result.result == served.results[1]
    record = Record.load(result.record_path)
    states = record.replay()
    assert states[-1].position() == served.state.position()
    assert [Move.parse(m.text) for m in record.moves] == served.moves


# --------------------------------------------------------------------------------------------------- our moves


def test_an_illegal_move_is_refused_locally_and_nothing_is_sent(tmp_path: Path) -> None:
    async def test() -> None:
        async with FakeServer() as server:
            app = server_app(server.ports[0], tmp_path)
            async with app.run_test(size=SIZE) as pilot:
                screen = screen_of(app)
                held = Held()
                other = opponent(server.ports[1], player=held)
                view = await my_turn(app, pilot)
                assert view.viewer is Side.P1 and not view.moves
                # Two squares at once, typed.
                await pilot.press("colon", *"b2-b4", "enter")
                assert "Refused, nothing was sent" in screen.message_text and "b2-b4" in screen.message_text
                assert screen.my_turn and screen.human.waiting_for == "move"
                # An escape from a square that is no exit, by the board's o key (the cursor starts on b1).
                await pilot.press("o")
                assert "Refused, nothing was sent" in screen.message_text
                assert "-error" in app.screen.query_one("#message").classes
                # Text that is no move at all.
                await pilot.press("colon", *"zz", "enter")
                assert "Refused" in screen.message_text
                await play_typed(pilot, screen, Move.parse("c2-c3"))
                # A move while the opponent thinks is refused too.
                await until(pilot, lambda: "Waiting for the opponent" in text_of(app, "#status"), "their turn")
                await pilot.press("colon", *"c3-c4", "enter")
                assert "Wait for your turn" in screen.message_text
                held.release.set()
                await until(pilot, lambda: screen.my_turn, "the opponent's reply")
            # Leaving the app mid-game disconnects (a loss on the server); the record so far is saved.
            served = (await server.wait_games(1))[0]
            await asyncio.wait_for(other, HANG_SECONDS)
            assert served_commands(served, 0) == ["SET:BCFG", "MOV:B,N"]
            assert served.violations == []
            assert served.results == ["lost", "won"]
            saved = sorted(tmp_path.glob("*.ngr"))
            assert len(saved) == 1 and len(Record.load(saved[0]).replay()[-1].moves()) == 2

    run(test)


# --------------------------------------------------------------------------------------------------- errors


def test_the_server_closing_mid_game_is_reported_with_the_record(tmp_path: Path) -> None:
    async def test() -> None:
        async with FakeServer(ServerOptions(close_at_ply=4)) as server:
            app = server_app(server.ports[0], tmp_path)
            async with app.run_test(size=SIZE) as pilot:
                screen = screen_of(app)
                other = opponent(server.ports[1], "random", seed=6)
                error = await play_until_it_breaks(app, pilot)
                assert "closed the connection before the game ended" in screen.message_text
                assert str(error.record_path) in screen.message_text
                assert "Press c to connect again" in screen.message_text
                assert str(error.record_path) in text_of(app, "#status")
                assert "closed" in text_of(app, "#connection")
                record = Record.load(error.record_path)
                assert record.result == "*" and len(record.moves) == 3  # the fourth never reached us
                record.replay()
                assert screen.check_action("reconnect", ()) is True
                with pytest.raises(ContestError):  # the opponent's game broke off the same way
                    await asyncio.wait_for(other, HANG_SECONDS)
                # c connects again: the next game on the same server starts with the same set-up.
                other = opponent(server.ports[1], "random", seed=7)
                generation = screen.generation
                await pilot.press("c")
                assert screen.generation == generation + 1 and screen.error is None
                view = await my_turn(app, pilot)
                assert screen.phase == "playing" and screen.setup_sent and not view.moves
                assert "closed" not in text_of(app, "#connection")
            await stop(other)

    run(test)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (ServerOptions(malformed_at_ply=2, malformed_line="BYE?"), "Unexpected message from the server: 'BYE?'"),
        (ServerOptions(reject_at_ply=2), "The server rejected our move"),
    ],
    ids=["malformed", "ng"],
)
def test_a_misbehaving_server_is_reported(options: ServerOptions, expected: str, tmp_path: Path) -> None:
    async def test() -> None:
        async with FakeServer(options) as server:
            app = server_app(server.ports[0], tmp_path)
            async with app.run_test(size=SIZE) as pilot:
                screen = screen_of(app)
                other = opponent(server.ports[1], "random", seed=2)
                error = await play_until_it_breaks(app, pilot)
                assert expected in screen.message_text and str(error.record_path) in screen.message_text
                assert "Press c to connect again" in screen.message_text
                Record.load(error.record_path).replay()
                assert app.screen.query_one("#board", Board).view is not None  # the game so far stays on screen
                await asyncio.wait_for(other, HANG_SECONDS)

    run(test)


def test_giving_up_connecting_offers_to_try_again(tmp_path: Path) -> None:
    """While it retries, the screen says so; once it gives up, it says why and offers c. Tested by state, not by
    catching a short-lived text: first a deadline no test outlives, so the retry shows for as long as we look;
    then a short one, waiting only for the screen to give up, however long a loaded machine takes to get there."""

    async def test() -> None:
        with free_ports(1) as ports:
            app = server_app(ports[0], tmp_path, connect_deadline=3600.0)
            async with app.run_test(size=SIZE) as pilot:
                screen = screen_of(app)
                await until(pilot, lambda: screen.retry_at is not None, "a failed attempt")
                text = text_of(app, "#connection")
                assert "retrying in" in text and "connection refused" in text and "attempt" in text
                assert screen.phase == "connecting"
            app = server_app(ports[0], tmp_path, connect_deadline=0.2)
            async with app.run_test(size=SIZE) as pilot:
                screen = screen_of(app)
                await until(pilot, lambda: screen.phase == "failed", "giving up")
                assert "Gave up connecting" in screen.message_text and "attempts" in screen.message_text
                assert "No game had begun" in screen.message_text and "Press c" in screen.message_text
                assert screen.check_action("reconnect", ()) and not screen.check_action("replay", ())
                assert screen.retry_at is None and "closed" in text_of(app, "#connection")
                assert list(tmp_path.glob("*.ngr")) == []

    run(test)


def test_a_dropped_connection_is_not_a_game(tmp_path: Path) -> None:
    """The server resets our first connection before SET? (as the reference server does to a connection queued
    during another game): the screen connects again and the game is played, with no error and one record."""

    async def test() -> None:
        async with FakeServer(ServerOptions(drop_first=1)) as server:
            app = server_app(server.ports[0], tmp_path)
            async with app.run_test(size=SIZE) as pilot:
                other = opponent(server.ports[1], "random", seed=4)
                screen = screen_of(app)
                await my_turn(app, pilot)
                assert screen.phase == "playing" and screen.error is None
                assert server.dropped == [1, 1]
            await stop(other)
        assert len(list(tmp_path.glob("*.ngr"))) == 1

    run(test)


def test_sigterm_ends_the_app_and_saves_the_game_so_far(tmp_path: Path) -> None:
    """SIGTERM while a game is under way ends the app the way q does (exit code 143), and the record of the game
    so far is saved. Without the screen's handler, the handler installed here would take the signal instead."""
    caught: list[int] = []

    def fallback(signum: int, frame: object) -> None:
        caught.append(signum)

    previous = signal.signal(signal.SIGTERM, fallback)

    async def test() -> NashplayApp:
        async with FakeServer() as server:
            app = server_app(server.ports[0], tmp_path)
            async with app.run_test(size=SIZE) as pilot:
                other = opponent(server.ports[1], "random", seed=5)
                screen = screen_of(app)
                view = await my_turn(app, pilot)
                await play_typed(pilot, screen, view.legal_moves()[0], "field")
                await my_turn(app, pilot)
                os.kill(os.getpid(), signal.SIGTERM)
                await until(pilot, lambda: app.return_code is not None or bool(caught), "the signal")
            await stop(other)
        return app

    try:
        app = run(test)
        assert signal.getsignal(signal.SIGTERM) is fallback  # put back when the screen went
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert caught == [] and app.return_code == 128 + signal.SIGTERM
    (path,) = tmp_path.glob("*.ngr")
    record = Record.load(path)
    assert record.result == "*" and len(record.moves) >= 2
    record.replay()


# --------------------------------------------------------------------------------------------------- advice


def test_the_advice_panel_searches_on_the_users_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One slice of search is the whole budget: the panel shows a report, then the search's end ("done").
    monkeypatch.setattr(ServerGameScreen, "ADVICE_BUDGET", 0.3)
    monkeypatch.setattr(ServerGameScreen, "ADVICE_SLICE", 0.3)

    async def test() -> None:
        async with FakeServer() as server:
            app = server_app(server.ports[0], tmp_path)
            async with app.run_test(size=SIZE) as pilot:
                other = opponent(server.ports[1], "random", seed=8)
                await my_turn(app, pilot)
                panel = app.screen.query_one("#search-advice", AdvicePanel)
                assert not panel.display  # off until asked for: it keeps a core busy
                await pilot.press("a")
                assert panel.display
                await until(pilot, lambda: "done" in str(panel.render()), "the search")
                text = str(panel.render())
                assert "Suggested:" in text and "depth" in text and "nodes" in text, text
                await pilot.press("a")
                assert not panel.display
            await stop(other)

    run(test)


# --------------------------------------------------------------------------------------------------- in a browser


@pytest.fixture
def web_visitor(state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """The app as ``nashplay serve`` starts it for a visitor; called with the contest servers its owner allowed
    (the environment's form: ``host:port,host:port``; empty: none)."""
    monkeypatch.setenv(WEB_VISITOR_ENV, "1")
    monkeypatch.delenv(CONTEST_SERVERS_ENV, raising=False)

    def allow(servers: str) -> None:
        monkeypatch.setenv(CONTEST_SERVERS_ENV, servers)

    return allow


async def open_contest_dialog(app: NashplayApp, pilot: Pilot[None]) -> AskServer:
    await pilot.pause()
    menu = app.screen
    assert isinstance(menu, MenuScreen)
    menu.action_connect()
    await until(pilot, lambda: isinstance(app.screen, AskServer), "the contest dialog")
    dialog = app.screen
    assert isinstance(dialog, AskServer)
    return dialog


def test_a_web_visitor_may_not_connect_when_the_owner_allowed_no_contest_server(
    web_visitor: Callable[[str], None], tmp_path: Path
) -> None:
    """``nashplay serve`` without ``--contest-server``: the dialog says so in one line and takes nothing, and the
    server screen itself (however it is reached) connects nowhere: the serving machine opens no connection for
    the visitor, not even to its own loopback."""

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            dialog = await open_contest_dialog(app, pilot)
            assert not dialog.query("#server-host") and not dialog.query("#server-port")
            said = str(dialog.query_one("#server-problem").render())
            assert said == "Refused: the server's owner has not allowed contest connections", said
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), "Enter closes the dialog")
        async with FakeServer() as server:
            app = server_app(server.ports[0], tmp_path)
            async with app.run_test(size=SIZE) as pilot:
                screen = screen_of(app)
                await until(pilot, lambda: screen.phase == "failed", "the refusal")
                assert "has not allowed contest connections" in screen.message_text, screen.message_text
                assert "Press c" not in screen.message_text and not screen.check_action("reconnect", ())
            assert server.accepted == [0, 0]
        assert list(tmp_path.glob("*.ngr")) == []

    run(test)


def test_a_web_visitor_connects_only_where_the_owner_allowed(web_visitor: Callable[[str], None]) -> None:
    """``nashplay serve --contest-server 127.0.0.1:PORT``: the host is fixed, a port not allowed is refused in one
    line in the dialog (and by ``open_game``, whoever asks), and the allowed one is played on."""

    async def test() -> None:
        async with FakeServer() as server:
            first, second = server.ports
            web_visitor(f"127.0.0.1:{first},127.0.0.1:{second}")
            app = NashplayApp(ai_delay=0)
            async with app.run_test(size=SIZE) as pilot:
                dialog = await open_contest_dialog(app, pilot)
                host = dialog.query_one("#server-host", Input)
                port = dialog.query_one("#server-port", Input)
                assert host.value == "127.0.0.1" and host.disabled and port.value == str(first)
                assert f"127.0.0.1 port {first} or {second}" in str(dialog.query(".hint").first().render())
                port.value = "22"
                port.focus()
                await pilot.press("enter")
                await pilot.pause()
                assert app.screen is dialog
                said = str(dialog.query_one("#server-problem").render())
                assert said.startswith("Refused") and "\n" not in said and f"port {first} or {second}" in said, said
                port.value = str(second)
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, ServerGameScreen), "the server screen")
                screen = screen_of(app)
                assert (screen.config.host, screen.config.port) == ("127.0.0.1", second)
                other = opponent(first, "random", seed=4)
                # The game begins: the server asks for the visitor's set-up.
                await until(pilot, lambda: screen.phase != "connecting", "the server's SET?")
                assert screen.phase == "setup" and screen.error is None, screen.message_text
                assert "connected" in text_of(app, "#connection")
            await stop(other)
            assert server.accepted[1] >= 1
            settings = ContestSettings(connect_deadline=0.2)
            for host_name, port_number in (("127.0.0.2", first), ("localhost", first), ("127.0.0.1", 22)):
                with pytest.raises(ConnectError, match="only where the server's owner allows"):
                    await open_game(host_name, port_number, settings)

    run(test)


def test_the_users_own_app_connects_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a visitor (``nashplay connect``, the terminal app): the web's rule must not reach the user's own
    connections, even with an allowance set in the environment."""
    monkeypatch.delenv(WEB_VISITOR_ENV, raising=False)
    monkeypatch.setenv(CONTEST_SERVERS_ENV, "192.0.2.1:1")
    assert contest_refusal("127.0.0.1", 22) is None
    assert contest_refusal("games.example.org", 10000) is None


def test_the_contest_dialog_refuses_any_port_text_in_one_line(state_dir: Path) -> None:
    """The terminal app's dialog: a port of 5,000 digits (past Python's limit on converting digits) or one that
    looks like markup is a line under the fields, not a crash."""

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            dialog = await open_contest_dialog(app, pilot)
            port = dialog.query_one("#server-port", Input)
            for typed in ("9" * 5000, "[/]", "[b]1", "\u0661\u0662", "0"):
                port.value = typed
                port.focus()
                await pilot.press("enter")
                await pilot.pause()
                assert app.screen is dialog, typed
                said = str(dialog.query_one("#server-problem").render())
                assert said.startswith("The port is a number from 1 to 65535") and "\n" not in said, said

    run(test)


@pytest.mark.parametrize("allowed", ["", "127.0.0.1:10000"])
def test_a_web_visitors_menu_and_palette_offer_contest_play_only_where_the_owner_allowed_it(
    web_visitor: Callable[[str], None], allowed: str
) -> None:
    """Without ``--contest-server`` the menu offered "Play on a contest server" to a visitor only to refuse it."""
    web_visitor(allowed)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            menu = app.screen
            assert isinstance(menu, MenuScreen)
            games = menu.query_one("#games", OptionList)
            ids = [games.get_option_at_index(index).id for index in range(games.option_count)]
            palette = [command.title for command in app.get_system_commands(menu)]
            offered = bool(allowed)
            assert ("connect" in ids) is offered, ids
            assert ("Play on a contest server" in palette) is offered, palette
            assert "Replay a record file..." in [str(games.get_option_at_index(i).prompt) for i in range(len(ids))]

    run(test)
