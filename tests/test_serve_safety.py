"""``nashplay serve`` on a shared machine: what a hostile visitor (or another account of the machine) could do to the
server, its owner and the other visitors, and what stops it.

- the access token is asked on the loopback too (every account of the machine reaches 127.0.0.1);
- a visitor's app keeps its save and replay prompts inside the visitor's own folder;
- visitor ids (which name the folders) are never printed or logged;
- connections that send nothing, or their request a byte at a time, are closed before any handler runs; running out
  of file descriptors is one line in the log, not a traceback per attempt; a websocket message too large or nested
  too deeply ends its connection with a reason, not with a traceback;
- folders are made only for visitors who passed the token, and only so many are kept.

The server runs in the test's event loop with a stand-in app, as in ``test_serve.py``; the prompts are driven in the
real app with Textual's pilot.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

aiohttp = pytest.importorskip("aiohttp")
pytest.importorskip("textual_serve")

from app_helpers import SIZE, finished_record  # noqa: E402
from pilot_helpers import play_app, wait_for  # noqa: E402
from textual.widgets import Input  # noqa: E402
from waiting import HANG_SECONDS  # noqa: E402

from tui.app import NashplayApp  # noqa: E402
from tui.cli import build_parser  # noqa: E402
from tui.cli import serve as serve_command  # noqa: E402
from tui.screens.ask_path import AskPath, PathRefusedError, prompt_path  # noqa: E402
from tui.screens.game import GameScreen  # noqa: E402
from tui.screens.menu import MenuScreen  # noqa: E402
from tui.screens.replay import ReplayScreen  # noqa: E402
from tui.web import server as web_server  # noqa: E402
from tui.web.server import (  # noqa: E402
    MAX_COLUMNS,
    MAX_DEPTH,
    MAX_ROWS,
    MessageRefusedError,
    Running,
    ServeSettings,
    read_message,
    start,
)

NASHPLAY = Path(sys.executable).parent / "nashplay"
TIMEOUT = HANG_SECONDS
TOKEN = "safety-token-0123456789abcdef"
VISITOR = "0123456789abcdef0123456789abcdef"
OTHER = "fedcba9876543210fedcba9876543210"

# A stand-in for the app: textual-serve's start-up line, then one data packet with what it was started with (its
# state folder and whether it was told it serves a visitor), its state folder on stderr too (as a crash's traceback
# would name it), and it waits until asked to quit.
STAND_IN = textwrap.dedent(
    """
    import json, os, sys
    out = sys.stdout.buffer
    def packet(kind, payload):
        out.write(kind + len(payload).to_bytes(4, "big") + payload)
        out.flush()
    out.write(b"__GANGLION__\\n")
    out.flush()
    info = {"state": os.environ.get("NASHPLAY_STATE_DIR"), "visitor": os.environ.get("NASHPLAY_WEB_VISITOR"),
            "contest": os.environ.get("NASHPLAY_WEB_CONTEST_SERVERS")}
    packet(b"D", json.dumps(info).encode())
    sys.stderr.write("the app's state folder: " + str(info["state"]) + "\\n")
    sys.stderr.flush()
    stdin = sys.stdin.buffer
    while True:
        head = stdin.read(5)
        if len(head) < 5:
            break
        payload = stdin.read(int.from_bytes(head[1:], "big"))
        if head[:1] == b"M" and json.loads(payload).get("type") == "quit":
            packet(b"M", b'{"type": "exit"}')
            break
    """
)


def stand_in_settings(tmp_path: Path, **changes: Any) -> ServeSettings:
    script = tmp_path / "stand_in.py"
    script.write_text(STAND_IN)
    fields: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "token": TOKEN,
        "max_sessions": 8,
        "sessions_dir": tmp_path / "state" / "web",
        "command": (sys.executable, str(script)),
        **changes,
    }
    return ServeSettings(**fields)


@asynccontextmanager
async def serving(settings: ServeSettings, said: list[str] | None = None) -> AsyncIterator[Running]:
    running = await start(settings, (said if said is not None else []).append)
    try:
        yield running
    finally:
        await running.stop()


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), TIMEOUT * 2))


def base(running: Running) -> str:
    return f"http://127.0.0.1:{running.server.port}"


def with_token(url: str) -> str:
    return url + ("&" if "?" in url else "?") + f"token={TOKEN}"


def client(cookies: dict[str, str] | None = None) -> Any:
    """An HTTP client that keeps the cookies of 127.0.0.1 as a browser does."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), cookies=cookies)


async def first_packet(ws: Any) -> dict[str, Any]:
    """The stand-in app's first words, once the websocket has sent its first message (a ping, as the page does as
    its socket opens): no app starts before that."""
    await ws.send_str(json.dumps(["ping", "hello"]))
    message = await asyncio.wait_for(ws.receive(), TIMEOUT)
    while message.type == aiohttp.WSMsgType.TEXT:  # the ping's answer may come first
        message = await asyncio.wait_for(ws.receive(), TIMEOUT)
    assert message.type == aiohttp.WSMsgType.BINARY, message
    info: dict[str, Any] = json.loads(message.data)
    return info


async def until(condition: Callable[[], bool], what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while not condition():
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.02)


def folders(settings: ServeSettings) -> set[str]:
    where = settings.sessions_dir
    return {entry.name for entry in where.iterdir()} if where.is_dir() else set()


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


# ------------------------------------------------------------------------------------------------ 1: the token


def test_the_settings_always_have_a_token() -> None:
    parser = build_parser()
    tokens = set()
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2", "0.0.0.0"):
        token = serve_command.settings_from_args(parser.parse_args(["serve", "--host", host])).token
        assert token is not None and len(token) >= 32, host
        tokens.add(token)
    assert len(tokens) == 5  # a fresh one each time


def test_the_loopback_asks_for_the_token_too(state_dir: Path) -> None:
    """Every account of the machine can reach 127.0.0.1: without the token it gets 403, no app and no folder."""

    async def body() -> None:
        process = await asyncio.create_subprocess_exec(
            str(NASHPLAY), "serve", "--port", "0", stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert process.stdout is not None and process.stderr is not None
        try:
            first = (await asyncio.wait_for(process.stdout.readline(), TIMEOUT)).decode()
            found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{32,})", first)
            assert found is not None, first
            port, token = found.groups()
            async with client() as browser:
                for path in ("/", "/ws", "/static/js/textual.js"):
                    async with browser.get(f"http://127.0.0.1:{port}{path}") as response:
                        assert response.status == 403, path
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await browser.ws_connect(f"http://127.0.0.1:{port}/ws")
                assert refused.value.status == 403
                async with browser.get(f"http://127.0.0.1:{port}/?token={token}") as response:
                    assert response.status == 200
            process.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(process.wait(), TIMEOUT) == 128 + signal.SIGTERM
            out = (await process.stdout.read()).decode()
            assert "started" not in out, out
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        web = state_dir / "web"
        assert not web.is_dir() or not list(web.iterdir())  # no visitor's folder for the refused websocket

    run(body)


def test_the_host_check_stays_behind_the_token_unless_a_proxy_is_in_front(tmp_path: Path) -> None:
    """Defence in depth: on the loopback a request for another name is refused even with the token (DNS
    rebinding); with a token of one's own (how a reverse proxy is set up) the token alone decides."""

    async def body() -> None:
        for names_only, expected in ((True, 403), (False, 200)):
            settings = stand_in_settings(tmp_path, loopback_names_only=names_only)
            async with serving(settings) as running:
                headers = {"Host": f"games.example.org:{running.server.port}"}
                async with client() as browser, browser.get(with_token(base(running) + "/"), headers=headers) as page:
                    assert page.status == expected, names_only
                async with client() as browser, browser.get(base(running) + "/", headers=headers) as page:
                    assert page.status == 403  # no token: refused either way

    run(body)


# ------------------------------------------------------------------------------------------------ 1: the prompts


@pytest.fixture
def visitor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app as ``nashplay serve`` starts it for a visitor: told so, with the visitor's folder as its state folder
    and working directory; around it, the owner's own state folder, another visitor's and a home folder."""
    state = tmp_path / "state"
    folder = state / "web" / VISITOR
    folder.mkdir(parents=True)
    (state / "web" / OTHER / "games").mkdir(parents=True)
    (state / "games").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    (tmp_path / "outside").mkdir()
    (folder / "out").symlink_to(tmp_path / "outside")
    monkeypatch.setenv("NASHPLAY_WEB_VISITOR", "1")
    monkeypatch.setenv("NASHPLAY_STATE_DIR", str(folder))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(folder)
    return folder


#: Paths that leave the visitor's folder, as the hostile tester typed them (relative to the visitor's folder), and
#: where each would have landed.
ESCAPES = {
    "../../games/planted.ngr": "state/games/planted.ngr",
    f"../{OTHER}/games/x.ngr": f"state/web/{OTHER}/games/x.ngr",
    "~/x.ngr": "home/x.ngr",
    "out/x.ngr": "outside/x.ngr",
    "records/../../x.ngr": "state/web/x.ngr",
}


def test_a_visitors_save_prompt_writes_only_in_their_folder(visitor: Path, tmp_path: Path) -> None:
    async def test() -> None:
        app = play_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            escapes = {**ESCAPES, str(tmp_path / "elsewhere.ngr"): "elsewhere.ngr"}
            for typed, landing in escapes.items():
                await pilot.press("s")
                screen.query_one("#move-input", Input).value = typed
                await pilot.press("enter")
                await pilot.pause()
                assert not (tmp_path / landing).exists(), typed
                assert screen.message_text.startswith("Refused"), (typed, screen.message_text)
                assert "\n" not in screen.message_text
            # Inside the folder, as before.
            await pilot.press("s")
            screen.query_one("#move-input", Input).value = "records/mine.ngr"
            await pilot.press("enter")
            await pilot.pause()
            assert (visitor / "records" / "mine.ngr").is_file(), screen.message_text
            assert screen.message_text.startswith("Saved to"), screen.message_text

    asyncio.run(test())
    assert not list((tmp_path / "outside").iterdir()) and not list((tmp_path / "home").iterdir())


def test_a_visitors_replay_prompt_reads_only_their_folder(visitor: Path, tmp_path: Path) -> None:
    record = finished_record()
    secret = tmp_path / "state" / "web" / OTHER / "games" / "in-progress.ngr"
    record.save(secret)
    record.save(tmp_path / "outside" / "x.ngr")
    record.save(visitor / "mine.ngr")

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for typed in (f"../{OTHER}/games/in-progress.ngr", str(secret), "out/x.ngr", "~/../outside/x.ngr"):
                await pilot.press("o")
                await pilot.pause()
                assert isinstance(app.screen, AskPath)
                app.screen.query_one("#path", Input).value = typed
                await pilot.press("enter")
                await pilot.pause()
                assert not isinstance(app.screen, ReplayScreen), typed
                assert isinstance(app.screen, AskPath), typed  # refused in the dialog: the path can be mended
                problem = str(app.screen.query_one("#path-problem").render())
                assert problem.startswith("Refused") and "\n" not in problem, problem
                await pilot.press("escape")
                await pilot.pause()
                assert isinstance(app.screen, MenuScreen)
            await pilot.press("o")
            await pilot.pause()
            app.screen.query_one("#path", Input).value = "mine.ngr"
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the visitor's own record opens")

    asyncio.run(test())


def test_the_terminal_apps_prompts_still_go_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a visitor: the user's own files, wherever they are (the web's rule must not reach the terminal)."""
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")

    async def test() -> None:
        app = play_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("s")
            screen.query_one("#move-input", Input).value = "../up.ngr"
            await pilot.press("enter")
            await pilot.pause()
            assert (tmp_path / "up.ngr").is_file(), screen.message_text

    asyncio.run(test())


def test_a_prompts_path_in_web_mode_is_inside_the_folder_or_refused(visitor: Path) -> None:
    folder = visitor.resolve()
    parts = st.sampled_from(["..", ".", "~", "out", "records", "x.ngr", "", "/", "a", OTHER, "web", "\x00", "\ud800"])

    @settings(max_examples=200, deadline=None)
    @given(st.lists(parts, max_size=8).map("/".join) | st.text(max_size=40))
    def check(typed: str) -> None:
        try:
            path = prompt_path(typed)
        except PathRefusedError as refused:
            said = str(refused)
        else:
            assert path.is_absolute() and path.resolve() == path
            assert path != folder and path.is_relative_to(folder), (typed, path)
            return
        assert said.startswith("Refused") and "\n" not in said

    check()


def test_each_visitors_app_is_told_it_serves_a_visitor(tmp_path: Path) -> None:
    settings = stand_in_settings(tmp_path)

    async def body() -> None:
        async with (
            serving(settings) as running,
            client() as browser,
            browser.ws_connect(with_token(base(running) + "/ws")) as ws,
        ):
            info = await first_packet(ws)
            assert info["visitor"] == "1"
            assert Path(info["state"]).parent == settings.sessions_dir

    run(body)


def test_each_visitors_app_is_told_the_contest_servers_its_owner_allowed_and_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--contest-server`` reaches each visitor's app (``tui.web.visitor`` reads it, and the contest dialog and
    ``open_game`` keep to it); none given, none: an allowance in the server's own environment is not passed on."""
    monkeypatch.setenv("NASHPLAY_WEB_CONTEST_SERVERS", "192.0.2.1:1")
    allowed = (("127.0.0.1", 10000), ("::1", 10001))

    async def told(settings: ServeSettings) -> Any:
        async with (
            serving(settings) as running,
            client() as browser,
            browser.ws_connect(with_token(base(running) + "/ws")) as ws,
        ):
            return (await first_packet(ws))["contest"]

    async def body() -> None:
        assert await told(stand_in_settings(tmp_path)) == ""
        assert await told(stand_in_settings(tmp_path, contest_servers=allowed)) == "127.0.0.1:10000,[::1]:10001"

    run(body)


def test_a_relative_state_folder_reaches_the_app_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app runs in the visitor's folder: a relative state folder would lead it (and its prompts' rule) astray."""
    monkeypatch.chdir(tmp_path)
    settings = stand_in_settings(tmp_path, sessions_dir=Path("relative") / "web")

    async def body() -> None:
        async with (
            serving(settings) as running,
            client() as browser,
            browser.ws_connect(with_token(base(running) + "/ws")) as ws,
        ):
            state = Path((await first_packet(ws))["state"])
            assert state.is_absolute() and state.parent == tmp_path / "relative" / "web"

    run(body)


# ------------------------------------------------------------------------------------------------ visitor ids


def test_visitor_ids_are_never_printed_or_logged(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    settings = stand_in_settings(tmp_path)
    said: list[str] = []

    async def body() -> None:
        async with serving(settings, said) as running, client() as browser:
            async with browser.get(with_token(base(running) + "/")) as response:
                assert response.status == 200
            async with browser.ws_connect(base(running) + "/ws") as ws:
                info = await first_packet(ws)
            await until(lambda: not running.server.sessions, "the session ends")
            async with client() as cookieless, cookieless.ws_connect(with_token(base(running) + "/ws")) as ws:
                other = await first_packet(ws)
            await until(lambda: not running.server.sessions, "the second session ends")
        ids = {Path(info["state"]).name, Path(other["state"]).name}
        assert len(ids) == 2 and all(re.fullmatch(r"[0-9a-f]{32}", name) for name in ids)
        assert any("started" in line for line in said), said
        printed = capfd.readouterr()
        for text in (*said, printed.out, printed.err):
            assert not any(name in text for name in ids), text
            assert re.search(r"[0-9a-f]{32}", text) is None, text
        assert "the app's state folder" in printed.out  # the app's stderr still reaches the log, scrubbed

    run(body)


# ------------------------------------------------------------------------------------------------ 6: slow, many, deep


def test_connections_that_send_nothing_or_dribble_are_closed_before_any_handler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short idle limit for the test: the ceiling below only a hang reaches.
    monkeypatch.setattr(web_server, "IDLE_TIMEOUT", 0.3, raising=False)

    async def body() -> None:
        async with serving(stand_in_settings(tmp_path)) as running:
            port = running.server.port
            silent = await asyncio.open_connection("127.0.0.1", port)
            dribbling = await asyncio.open_connection("127.0.0.1", port)
            dribbling[1].write(b"GET /?token=" + TOKEN.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n")

            async def dribble() -> None:
                # A header line now and then, never the blank line that ends the request (and fewer than the
                # server's limit on headers, which would end it with a 400).
                with contextlib.suppress(ConnectionError):
                    for _ in range(50):
                        if dribbling[0].at_eof():
                            return
                        dribbling[1].write(b"X-Slow: 1\r\n")
                        await dribbling[1].drain()
                        await asyncio.sleep(0.05)

            task = asyncio.create_task(dribble())
            # Kept alive: two requests answered on one connection, then nothing more.
            kept = await asyncio.open_connection("127.0.0.1", port)
            for _ in range(2):
                kept[1].write(b"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                head = await asyncio.wait_for(kept[0].readuntil(b"\r\n\r\n"), TIMEOUT)
                assert head.startswith(b"HTTP/1.1 403"), head
                length = re.search(rb"Content-Length: (\d+)", head, re.IGNORECASE)
                assert length is not None, head
                await asyncio.wait_for(kept[0].readexactly(int(length.group(1))), TIMEOUT)
            for reader, _ in (silent, dribbling, kept):
                assert await asyncio.wait_for(reader.read(), TIMEOUT) == b""  # closed, not answered
            task.cancel()
            assert running.server.started == 0
            for _, writer in (silent, dribbling, kept):
                writer.close()

    run(body)


async def raw_websocket(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A websocket opened by hand (with the token), its upgrade answered: the test then writes its frames byte by
    byte."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET /ws?token={TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


def masked_text_frame(text: str) -> bytes:
    """One text frame as a browser sends it (masked; short)."""
    payload = text.encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_websocket_that_never_sends_its_first_message_is_closed_before_any_app_or_folder(tmp_path: Path) -> None:
    """Past the token and the upgrade, a websocket that says nothing, sends its first message a byte at a time, or
    only messages the page never sends, is closed at the (here shortened) deadline with the reason: no app process
    was started for it and no folder made. A visitor who speaks at once plays as before."""
    settings = stand_in_settings(tmp_path, first_message_timeout=0.3)

    async def body() -> None:
        async with serving(settings) as running, client() as browser:
            server = running.server
            silent = await browser.ws_connect(with_token(base(running) + "/ws"))
            chatty = await browser.ws_connect(with_token(base(running) + "/ws"))
            reader, writer = await raw_websocket(server.port)
            frame = masked_text_frame(json.dumps(["ping", "slow"]))

            async def dribble() -> None:
                with contextlib.suppress(ConnectionError):
                    for byte in frame[:-1]:  # never the last byte: the message never arrives
                        writer.write(bytes([byte]))
                        await writer.drain()
                        await asyncio.sleep(0.05)

            async def chatter() -> None:
                # Messages, but none the page sends: they do not put the deadline off.
                with contextlib.suppress(ConnectionError):
                    while not chatty.closed:
                        await chatty.send_str("not a message of the page")
                        await chatty.send_bytes(b"binary")
                        await asyncio.sleep(0.05)

            tasks = [asyncio.create_task(dribble()), asyncio.create_task(chatter())]
            assert len(server.sessions) == 3 and server.started == 0
            for ws in (silent, chatty):
                code, reason = await closed_with(ws)
                assert code == 1008 and "no message in time" in reason, (code, reason)
            closing = await asyncio.wait_for(reader.readexactly(4), TIMEOUT)  # a close frame: 1008
            assert closing[0] == 0x88 and int.from_bytes(closing[2:4], "big") == 1008, closing
            for task in tasks:
                task.cancel()
            writer.close()
            await until(lambda: not server.sessions, "the silent websockets' places are free")
            assert server.started == 0 and folders(settings) == set()
            # A visitor whose page speaks at once.
            async with browser.ws_connect(with_token(base(running) + "/ws")) as ws:
                info = await first_packet(ws)
            assert server.started == 1 and folders(settings) == {Path(info["state"]).name}

    run(body)


def test_a_first_message_too_deep_or_too_large_closes_the_websocket_before_any_app(tmp_path: Path) -> None:
    settings = stand_in_settings(tmp_path)

    async def body() -> None:
        async with serving(settings) as running, client() as browser:
            for message, code in (("[" * 2000, 1008), (json.dumps(["stdin", "x" * (300 * 1024)]), 1009)):
                async with browser.ws_connect(with_token(base(running) + "/ws")) as ws:
                    await ws.send_str(message)
                    assert (await closed_with(ws))[0] == code
            await until(lambda: not running.server.sessions, "the sessions end")
            assert running.server.started == 0 and folders(settings) == set()

    run(body)


def test_a_websocket_whose_browser_stops_answering_pings_is_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half-open: the browser vanished (or its tab froze) without closing the connection. The server's pings go
    unanswered, and the session ends, its app with it."""
    monkeypatch.setattr(web_server, "HEARTBEAT", 0.2)

    async def body() -> None:
        async with serving(stand_in_settings(tmp_path)) as running, client() as browser:
            server = running.server
            # autoping off: the client answers no ping unless it reads, and it reads no more after its first words.
            ws = await browser.ws_connect(with_token(base(running) + "/ws"), autoping=False)
            await first_packet(ws)
            assert server.started == 1 and len(server.sessions) == 1
            app = next(iter(server.sessions.values())).app
            assert app is not None and app.pid is not None
            pid = app.pid
            await until(lambda: not server.sessions, "the unanswered session ends")
            await until(lambda: not process_alive(pid), "its app ends")
            await ws.close()

    run(body)


def process_alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_running_out_of_file_descriptors_is_one_line_not_a_traceback_per_attempt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    now = [0.0]
    said: list[str] = []

    def refusals() -> list[str]:
        return [line for line in said if "accept" in line]

    async def body() -> None:
        async with serving(stand_in_settings(tmp_path), said) as running:
            running.server.clock = lambda: now[0]  # the rate limit's clock stands still until the test moves it
            clients = [socket.socket() for _ in range(16)]
            for peer in clients:
                peer.setblocking(False)
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            highest = max(int(fd) for fd in os.listdir("/proc/self/fd"))
            fillers: list[int] = []
            try:
                # No descriptor left: the limit at the highest one open, and every hole below it filled.
                resource.setrlimit(resource.RLIMIT_NOFILE, (highest + 1, hard))
                while True:
                    try:
                        fillers.append(os.open(os.devnull, os.O_RDONLY))
                    except OSError:
                        break
                for peer in clients:
                    peer.connect_ex(("127.0.0.1", running.server.port))  # completed by the kernel, not yet accepted
                await until(lambda: bool(refusals() or errors_logged(caplog)), "the server cannot accept")
                assert not errors_logged(caplog)
                assert len(refusals()) == 1, said
                now[0] += 3600.0  # past the rate limit: the next failure is said once more, with a count
                await until(lambda: len(refusals()) == 2, "the refusals are said again")
                assert re.search(r"\d+ more", refusals()[1]), refusals()
            finally:
                for fd in fillers:
                    os.close(fd)
                resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
                for peer in clients:
                    peer.close()
            # Descriptors again: the server answers.
            async with client() as browser, browser.get(with_token(base(running) + "/")) as response:
                assert response.status == 200
        assert not errors_logged(caplog)

    run(body)


async def closed_with(ws: Any) -> tuple[int | None, str]:
    message = await asyncio.wait_for(ws.receive(), TIMEOUT)
    while message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):  # the app's words, the ping's answer
        message = await asyncio.wait_for(ws.receive(), TIMEOUT)
    assert message.type == aiohttp.WSMsgType.CLOSE, message
    return message.data, message.extra or ""


@pytest.mark.parametrize(
    ("message", "code", "reason"),
    [
        ("[" * 2000, 1008, "nested too deeply"),
        ('["stdin", ' * 100 + '"x"' + "]" * 100, 1008, "nested too deeply"),
        (json.dumps(["stdin", "x" * (300 * 1024)]), 1009, "too large"),
    ],
    ids=["2000-brackets", "deep-but-valid", "300-KiB"],
)
def test_a_message_too_deep_or_too_large_closes_its_connection_with_a_reason(
    message: str, code: int, reason: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def body() -> None:
        said: list[str] = []
        async with serving(stand_in_settings(tmp_path), said) as running, client() as browser:
            ws = await browser.ws_connect(with_token(base(running) + "/ws"))
            await first_packet(ws)
            await ws.send_str(message)
            closed_code, closed_reason = await closed_with(ws)
            assert closed_code == code and reason in closed_reason, (closed_code, closed_reason)
            await ws.close()
            await until(lambda: not running.server.sessions, "the session ends")
            # Another visitor is unaffected.
            async with browser.ws_connect(with_token(base(running) + "/ws")) as again:
                await first_packet(again)
        assert not errors_logged(caplog)

    run(body)


def test_a_websocket_without_the_token_makes_no_folder_on_the_loopback(tmp_path: Path) -> None:
    # The settings the command line makes for its default, the loopback.
    made = serve_command.settings_from_args(build_parser().parse_args(["serve", "--port", "0"]))
    settings = stand_in_settings(tmp_path, token=made.token)

    async def body() -> None:
        async with serving(settings) as running, client() as browser:
            for _ in range(3):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await browser.ws_connect(base(running) + "/ws")
                assert refused.value.status == 403
            assert running.server.started == 0

    run(body)
    assert folders(settings) == set()


def test_visitor_folders_are_capped_the_oldest_go_never_one_in_use(tmp_path: Path) -> None:
    settings = stand_in_settings(tmp_path, max_folders=3)
    old = settings.sessions_dir / ("a" * 32)
    (old / "games").mkdir(parents=True)

    async def body() -> None:
        async with serving(settings) as running, client({"nashplay_visitor": "a" * 32}) as first:
            in_use = await first.ws_connect(with_token(base(running) + "/ws"))
            assert Path((await first_packet(in_use))["state"]) == old
            os.utime(old, (1, 1))  # a long session: its folder the oldest of all, and in use all along
            made = []
            for _ in range(4):
                async with client() as browser:
                    async with browser.get(with_token(base(running) + "/")) as response:
                        assert response.status == 200
                    async with browser.ws_connect(base(running) + "/ws") as ws:
                        made.append(Path((await first_packet(ws))["state"]).name)
                    await until(lambda: len(running.server.sessions) == 1, "the session ends")
            kept = folders(settings)
            assert old.name in kept and old.is_dir()  # in use: kept though the oldest
            assert kept == {old.name, *made[-2:]}, (kept, made)
            await in_use.close()

    run(body)


# ------------------------------------------------------------------------------------------------ the parser, fuzzed


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
_PAGE = st.one_of(
    st.tuples(st.just("stdin"), st.text(max_size=40)).map(list),
    st.tuples(st.just("resize"), st.fixed_dictionaries({"width": _JSON, "height": _JSON})).map(list),
    st.tuples(st.just("ping"), _JSON).map(list),
    st.tuples(st.sampled_from(["focus", "blur", "stdin", "resize", "ping", "quit"]), _JSON).map(list),
    _JSON,
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        _PAGE.map(json.dumps),
        st.text(max_size=200),
        st.integers(0, 3000).map(lambda depth: "[" * depth + "]" * depth),
        st.integers(0, 3000).map(lambda depth: '{"a":' * depth + "1" + "}" * depth),
        st.text(alphabet='[]{}"\\,:0 ', max_size=200),
    )
)
def test_the_browser_message_parser_takes_anything(text: str) -> None:
    try:
        message = read_message(text)
    except MessageRefusedError as refused:
        code, reason = refused.code, refused.reason
    else:
        code, reason = None, ""
    if code is not None:
        assert code in (1008, 1009) and 0 < len(reason.encode()) <= 123
        return
    if message is None:
        return
    assert message.kind in ("stdin", "resize", "ping", "focus", "blur")
    if message.kind == "resize":
        assert 1 <= message.width <= MAX_COLUMNS and 1 <= message.height <= MAX_ROWS
    if message.kind == "ping":
        assert len(message.text) <= 64
    assert text.lstrip().startswith("[")  # every message is a list
    depth = MAX_DEPTH + 1
    with pytest.raises(MessageRefusedError):
        read_message("[" * depth + "]" * depth)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60), st.integers(-(10**15), 10**15), st.integers(-(10**15), 10**15))
def test_the_pages_own_messages_are_read_as_sent(keys: str, width: int, height: int) -> None:
    typed = read_message(json.dumps(["stdin", keys]))
    assert typed is not None and (typed.kind, typed.text) == ("stdin", keys)
    resized = read_message(json.dumps(["resize", {"width": width, "height": height}]))
    assert resized is not None and resized.kind == "resize"
    assert (resized.width, resized.height) == (max(1, min(MAX_COLUMNS, width)), max(1, min(MAX_ROWS, height)))
    assert read_message('["focus"]') is not None and read_message('["blur"]') is not None


def test_requests_too_long_to_read_are_one_line_not_a_traceback_each(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A request line of 100 KB (no token needed) got its 400 and left a traceback in the log ("Error handling
    request ... LineTooLong"), one a request: anyone could flood the log. Said once now, then with a count."""
    now = [0.0]
    said: list[str] = []

    def refusals() -> list[str]:
        return [line for line in said if "not HTTP within limits" in line]

    async def bad_request(port: int) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /?token=" + b"x" * 100_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        answer = await reader.read(200)
        writer.close()
        return answer

    async def body() -> None:
        async with serving(stand_in_settings(tmp_path), said) as running:
            running.server.clock = lambda: now[0]
            for _ in range(3):
                assert (await bad_request(running.server.port)).startswith((b"HTTP/1.0 400", b"HTTP/1.1 400"))
            await until(lambda: len(refusals()) == 1, "the refusal said")
            now[0] += 3600.0
            assert (await bad_request(running.server.port)).startswith((b"HTTP/1.0 400", b"HTTP/1.1 400"))
            await until(lambda: len(refusals()) == 2, "said again, with a count")
            assert re.search(r"3 since the last report", refusals()[1]), refusals()
            assert not errors_logged(caplog), errors_logged(caplog)

    run(body)
