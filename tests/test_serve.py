"""``nashplay serve`` without a browser: its arguments, the access token, the session limit, each visitor's folder,
the websocket protocol (driven here the way the browser's script drives it, with a small terminal to read the
screen), and Ctrl-C.

Most tests run the server in the test's own event loop with a stand-in app (a few lines of Python that speak
textual-serve's packet protocol and say what they were given), so that they take a fraction of a second; the real
app is run where the screen is the point. ``test_serve_browser.py`` drives the real page in Chromium.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import os
import re
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

aiohttp = pytest.importorskip("aiohttp")
pytest.importorskip("textual_serve")

from rich.cells import cell_len  # noqa: E402
from waiting import HANG_SECONDS  # noqa: E402

from tui.cli import main  # noqa: E402
from tui.cli import serve as serve_command  # noqa: E402
from tui.web import server as web_server  # noqa: E402
from tui.web.server import Running, ServeSettings, app_command, start  # noqa: E402

NASHPLAY = Path(sys.executable).parent / "nashplay"
#: Every wait's ceiling: only a hang reaches it (a loaded machine may take seconds to start an app).
TIMEOUT = HANG_SECONDS
TOKEN = "test-token-0123456789abcdef"

# A stand-in for the app: it answers textual-serve's start-up line, then says in one data packet what it was started
# with (its state folder, working directory and terminal size), echoes each packet it gets as a data packet (the
# packet's type letter, then its payload), and leaves when asked to quit, as Textual's web driver does. With
# "stubborn" it ignores the request and SIGTERM, for the stop that must not hang; with "worker" it starts a process
# that outlives it unless the server ends it (as a search worker the app forgot would).
FAKE_APP = textwrap.dedent(
    """
    import json, os, signal, subprocess, sys
    out = sys.stdout.buffer
    stubborn = "stubborn" in sys.argv
    worker = None
    if "worker" in sys.argv:
        worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"]).pid
    if stubborn:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    def packet(kind, payload):
        out.write(kind + len(payload).to_bytes(4, "big") + payload)
        out.flush()
    out.write(b"__GANGLION__\\n")
    out.flush()
    info = {"state": os.environ.get("NASHPLAY_STATE_DIR"), "cwd": os.getcwd(),
            "size": [os.environ.get("COLUMNS"), os.environ.get("ROWS")], "pid": os.getpid(), "worker": worker}
    packet(b"D", json.dumps(info).encode())
    stdin = sys.stdin.buffer
    while True:
        head = stdin.read(5)
        if len(head) < 5:
            break
        payload = stdin.read(int.from_bytes(head[1:], "big"))
        if head[:1] == b"M" and json.loads(payload).get("type") == "quit" and not stubborn:
            packet(b"M", b'{"type": "exit"}')
            break
        packet(b"D", head[:1] + payload)
    """
)


# ------------------------------------------------------------------------------------------------ a small terminal

_SEQUENCE = re.compile(
    r"\x1b\[([?]?)([0-9;:]*)[ -/]*([@-~])"  # CSI: cursor moves, colours, modes
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, colour queries
    r"|\x1b[()][0-9A-Za-z]|\x1b[=>78c]"
    r"|([^\x1b\n\r]+)|(\n)|(\r)",
)


class Screen:
    """Just enough of a terminal to read what Textual draws: text, cursor positioning and line erasing; colours
    and modes are skipped. Bytes may be split anywhere between two feeds (a UTF-8 character, an escape)."""

    def __init__(self, width: int, height: int) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""
        self.resize(width, height)

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [[" "] * width for _ in range(height)]
        self.row = self.col = 0

    def feed(self, data: bytes) -> None:
        text = self._pending + self._decoder.decode(data)
        position = 0
        while position < len(text):
            match = _SEQUENCE.match(text, position)
            if match is None:
                if len(text) - position < 64:  # an escape cut by the end of this frame: the next one ends it
                    break
                position += 1  # not a sequence we know: skip the escape character
                continue
            position = match.end()
            private, params, final, plain, newline, ret = match.groups()
            if plain is not None:
                self._write(plain)
            elif newline is not None:
                self.row, self.col = min(self.row + 1, self.height - 1), 0
            elif ret is not None:
                self.col = 0
            elif final is not None and not private:
                self._control(params, final)
        self._pending = text[position:]

    def _control(self, params: str, final: str) -> None:
        numbers = [int(part) if part.isdigit() else 0 for part in params.split(";")] if params else []
        if final in "Hf":
            row, col = [*numbers, 1, 1][:2]
            self.row, self.col = max(row, 1) - 1, max(col, 1) - 1
        elif final == "K":
            line = self.cells[min(self.row, self.height - 1)]
            line[self.col :] = [" "] * (self.width - self.col)
        elif final == "J" and numbers[:1] == [2]:
            self.cells = [[" "] * self.width for _ in range(self.height)]

    def _write(self, text: str) -> None:
        for char in text:
            width = cell_len(char)
            if width == 0:
                continue
            if self.row < self.height and self.col < self.width:
                self.cells[self.row][self.col] = char
                if width == 2 and self.col + 1 < self.width:
                    self.cells[self.row][self.col + 1] = ""
            self.col += width

    def text(self) -> str:
        return "\n".join("".join(line).rstrip() for line in self.cells)


def test_the_small_terminal_reads_positioned_text() -> None:
    screen = Screen(10, 3)
    data = "\x1b[?1049h\x1b[2;3H\x1b[38;2;1;2;3mab\x1b[0m\x1b]22;default\x07\x1b[1;1Hé".encode()
    screen.feed(data[:5])
    screen.feed(data[5:-1])  # the é cut in two
    screen.feed(data[-1:])
    assert screen.text() == "é\n  ab\n"


# ------------------------------------------------------------------------------------------------ arguments


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--port", "70000"], "--port must be 0..65,535"),
        (["--port", "-1"], "--port must be 0..65,535"),
        (["--port", "eighty"], "expected a whole number"),
        (["--port", "9" * 5000], "--port must be 0..65,535"),
        (["--host", "bad host"], "expected an IP address or a host name"),
        (["--host", "a/b"], "expected an IP address or a host name"),
        (["--host", ""], "expected an IP address or a host name"),
        (["--host", "x" * 300], "expected an IP address or a host name"),
        (["--host=-lead.example"], "expected an IP address or a host name"),
        (["--token", "short"], "--token must be 16 to 256"),
        (["--token", "a token with spaces in it"], "--token must be 16 to 256"),
        (["--max-sessions", "0"], "--max-sessions must be 1..256"),
        (["--max-sessions", "100000"], "--max-sessions must be 1..256"),
        (["--contest-server", "127.0.0.1:0"], "--contest-server: the port must be 1..65,535"),
        (["--contest-server", "127.0.0.1:" + "9" * 5000], "--contest-server: the port must be 1..65,535"),
        (["--contest-server", "bad host:10000"], "--contest-server: expected an IP address or a host name"),
        (["--contest-server", "[::1"], "--contest-server: expected HOST or HOST:PORT"),
        (["--contest-server", "127.0.0.1:"], "--contest-server: expected a port after the colon"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["serve", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("nashplay serve: error: "), err
    assert says in err, err
    assert len(err) < 400  # a 5000-digit port does not come back whole


def test_hosts_are_read_as_addresses_or_names() -> None:
    assert serve_command.host_text("::1") == "::1"
    assert serve_command.host_text("[::1]") == "::1"
    assert serve_command.host_text(" 127.0.0.1 ") == "127.0.0.1"
    assert serve_command.host_text("localhost") == "localhost"
    assert serve_command.host_text("games.example.org") == "games.example.org"


def test_a_token_is_made_on_every_address() -> None:
    # The loopback too: every account of the machine reaches it (test_serve_safety.py has the rest).
    parser = serve_command_parser()
    for host in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::", "192.0.2.1", "games.example.org"):
        token = serve_command.settings_from_args(parser.parse_args(["serve", "--host", host])).token
        assert token is not None and len(token) >= 32, host
    one = serve_command.settings_from_args(parser.parse_args(["serve", "--host", "0.0.0.0"])).token
    other = serve_command.settings_from_args(parser.parse_args(["serve", "--host", "0.0.0.0"])).token
    assert one != other
    given = serve_command.settings_from_args(parser.parse_args(["serve", "--token", TOKEN]))
    assert given.token == TOKEN
    # A token of one's own is how a reverse proxy is set up: its users' host names are answered then.
    assert not given.loopback_names_only
    assert serve_command.settings_from_args(parser.parse_args(["serve"])).loopback_names_only


def test_the_settings_pass_the_display_options_on_and_give_visitors_the_state_folder(state_dir: Path) -> None:
    args = serve_command_parser().parse_args(["--ascii", "serve", "--theme", "nashplay-light", "--port", "0"])
    settings = serve_command.settings_from_args(args)
    assert settings.command == (sys.executable, "-m", "tui", "--ascii", "--theme", "nashplay-light")
    assert settings.sessions_dir == state_dir / "web"
    assert (settings.host, settings.port, settings.max_sessions) == ("127.0.0.1", 0, 8)


def test_contest_servers_are_none_unless_given_a_host_alone_is_both_contest_ports(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = serve_command_parser()
    assert serve_command.settings_from_args(parser.parse_args(["serve"])).contest_servers == ()
    argv = ["serve", "--contest-server", "127.0.0.1", "--contest-server", "[::1]:9", "--contest-server", "LOCALHOST:5"]
    settings = serve_command.settings_from_args(parser.parse_args([*argv, "--contest-server", "127.0.0.1:10000"]))
    assert settings.contest_servers == (("127.0.0.1", 10000), ("127.0.0.1", 10001), ("::1", 9), ("localhost", 5))
    serve_command._announce(settings, web_server.Listening(8000, "http://127.0.0.1:8000/?token=t"))
    out = capsys.readouterr().out
    assert "contest server at 127.0.0.1 port 10000 or 10001; ::1 port 9; localhost port 5" in out, out
    none = serve_command.settings_from_args(parser.parse_args(["serve"]))
    serve_command._announce(none, web_server.Listening(8000, "http://127.0.0.1:8000/?token=t"))
    assert "may not play on contest servers (--contest-server HOST:PORT allows one)" in capsys.readouterr().out


def test_an_unknown_theme_is_refused_before_serving(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--theme", "no-such-theme", "--port", "0"])
    assert stop.value.code == 2
    assert "unknown theme 'no-such-theme'" in capsys.readouterr().err


def test_without_textual_serve_it_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "textual_serve", None)  # an import of it now fails, as when it is missing
    monkeypatch.setitem(sys.modules, "textual_serve.app_service", None)
    assert main(["serve", "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install textual-serve" in err, err


def test_the_command_line_does_not_load_the_server() -> None:
    # `nashplay --help` stays fast: aiohttp and textual-serve (half a second to import) load only for `serve`.
    script = (
        "import json, sys\n"
        "from tui.cli import build_parser\n"
        "build_parser().format_help()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('aiohttp', 'textual_serve', 'tui.web')))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_SECONDS, check=True
    )
    assert json.loads(done.stdout) == []


def test_the_help_says_how_it_is_kept_safe() -> None:
    done = subprocess.run(
        [str(NASHPLAY), "serve", "--help"], capture_output=True, text=True, timeout=HANG_SECONDS, check=False
    )
    assert done.returncode == 0
    words = " ".join(done.stdout.split())
    assert "--host" in words and "--token" in words and "--max-sessions" in words
    assert "127.0.0.1" in words and "access token" in words


def test_a_port_in_use_is_said_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"port {port}: it is in use" in err, err


def test_a_host_that_is_not_this_machines_is_a_bad_argument(capsys: pytest.CaptureFixture[str]) -> None:
    # 192.0.2.1 is a documentation address (TEST-NET-1): no machine has it, and binding to it sends nothing.
    assert main(["serve", "--host", "192.0.2.1", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an address of this machine" in err, err


def serve_command_parser() -> Any:
    from tui.cli import build_parser

    return build_parser()


# ------------------------------------------------------------------------------------------------ the server


def fake_settings(tmp_path: Path, *, token: str = TOKEN, max_sessions: int = 8, mode: str = "") -> ServeSettings:
    script = tmp_path / "fake_app.py"
    script.write_text(FAKE_APP)
    command = (sys.executable, str(script), *([mode] if mode else []))
    return ServeSettings("127.0.0.1", 0, token, max_sessions, tmp_path / "state" / "web", command)


@asynccontextmanager
async def serving(settings: ServeSettings) -> AsyncIterator[Running]:
    said: list[str] = []
    running = await start(settings, said.append)
    try:
        yield running
    finally:
        await running.stop()
    assert not running.server.sessions


def browser_like(running: Running | None = None, cookies: dict[str, str] | None = None) -> Any:
    """An HTTP client that keeps cookies from 127.0.0.1 as a browser does (aiohttp's refuses those of an address);
    given the server, it has the token's cookie, as a browser has once the printed URL's page has loaded."""
    jar = {running.server.token_cookie: TOKEN} if running is not None else {}
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), cookies={**jar, **(cookies or {})})


def base(running: Running) -> str:
    return f"http://127.0.0.1:{running.server.port}"


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), TIMEOUT * 2))


#: The first message of these tests' websockets, as the page's first but one: a ping (the page sends its size, then
#: a ping, as its socket opens). No app starts before a first message.
HELLO = json.dumps(["ping", "hello"])


async def first_packet(ws: Any) -> dict[str, Any]:
    """The stand-in app's first words, once the websocket has sent its first message: what it was started with."""
    await ws.send_str(HELLO)
    message = await asyncio.wait_for(ws.receive(), TIMEOUT)
    while message.type == aiohttp.WSMsgType.TEXT:  # the ping's answer may come first
        message = await asyncio.wait_for(ws.receive(), TIMEOUT)
    assert message.type == aiohttp.WSMsgType.BINARY, message
    info: dict[str, Any] = json.loads(message.data)
    return info


async def until(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` (the server's own bookkeeping, a file) until it holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while not condition():
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.02)


def test_without_the_token_every_request_gets_403_and_no_app_starts(tmp_path: Path) -> None:
    async def body() -> None:
        async with serving(fake_settings(tmp_path, token=TOKEN)) as running, browser_like() as client:
            url = base(running)
            for path in ("/", "/?token=wrong-token-0123456789", "/static/js/textual.js", "/ws", "/nothing"):
                async with client.get(url + path) as response:
                    assert response.status == 403, path
                    assert "access token" in await response.text()
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(url + "/ws")
            assert refused.value.status == 403
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await client.ws_connect(url + "/ws?token=" + TOKEN[:-1])
            assert running.server.started == 0 and not running.server.sessions
            assert not (tmp_path / "state").exists()  # not even a visitor's folder

            # With it: the page, which hands the token on as a cookie for the scripts and the websocket.
            async with client.get(f"{url}/?token={TOKEN}") as response:
                assert response.status == 200
                assert "textual.js" in await response.text()
            async with client.get(url + "/static/js/textual.js") as response:
                assert response.status == 200
            async with client.ws_connect(url + "/ws") as ws:
                await first_packet(ws)
                assert running.server.started == 1

    run(body)


def test_the_token_is_compared_in_constant_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[bytes, bytes]] = []
    real = web_server.hmac.compare_digest

    def spy(given: bytes, expected: bytes) -> bool:
        compared.append((given, expected))
        return real(given, expected)

    monkeypatch.setattr(web_server.hmac, "compare_digest", spy)

    async def body() -> None:
        async with (
            serving(fake_settings(tmp_path, token=TOKEN)) as running,
            browser_like() as client,
            client.get(base(running) + "/?token=a-guess-\u00e9") as response,
        ):
            assert response.status == 403

    run(body)
    assert compared and all(expected == TOKEN.encode() for _, expected in compared)


def test_on_the_loopback_only_loopback_names_are_served_token_or_not(tmp_path: Path) -> None:
    # Defence in depth behind the token: a page that learnt it still cannot come through another name or site.
    async def body() -> None:
        async with serving(fake_settings(tmp_path)) as running, browser_like(running) as client:
            url = base(running)
            port = running.server.port
            for host in (f"127.0.0.1:{port}", f"localhost:{port}", "127.0.0.1"):
                async with client.get(url + "/", headers={"Host": host}) as response:
                    assert response.status == 200, host
            # A web site whose name was made to point at 127.0.0.1 (DNS rebinding) is not served.
            async with client.get(url + "/", headers={"Host": f"evil.example:{port}"}) as response:
                assert response.status == 403
                assert f"http://127.0.0.1:{port}/" in await response.text()
            # A websocket from another site's page is refused; from this server's page it is taken.
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(url + "/ws", headers={"Origin": "http://evil.example"})
            assert refused.value.status == 403 and running.server.started == 0
            async with client.ws_connect(url + "/ws", headers={"Origin": f"http://127.0.0.1:{port}"}) as ws:
                await first_packet(ws)

    run(body)


def test_past_the_session_limit_the_next_visitor_is_told_the_server_is_full(tmp_path: Path) -> None:
    async def body() -> None:
        async with serving(fake_settings(tmp_path, max_sessions=2)) as running, browser_like(running) as client:
            url = base(running)
            server = running.server
            first = await client.ws_connect(url + "/ws")
            second = await client.ws_connect(url + "/ws")
            await first_packet(first)
            await first_packet(second)
            async with client.get(url + "/") as response:
                assert response.status == 503
                page = await response.text()
                assert "full" in page and "All 2 of its sessions are in use" in page
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(url + "/ws")
            assert refused.value.status == 503
            assert server.started == 2
            # A place frees when a visitor leaves.
            await first.close()
            await until(lambda: len(server.sessions) == 1, "the first session ends")
            async with client.get(url + "/") as response:
                assert response.status == 200
            async with client.ws_connect(url + "/ws") as third:
                await first_packet(third)
                assert server.started == 3
            await second.close()

    run(body)


def test_each_visitor_has_a_folder_of_their_own(tmp_path: Path) -> None:
    settings = fake_settings(tmp_path)

    async def started_in(client: Any, url: str) -> dict[str, Any]:
        async with client.ws_connect(url + "/ws?width=90&height=30") as ws:
            return await first_packet(ws)

    async def body() -> None:
        async with serving(settings) as running:
            url = base(running)
            async with browser_like(running) as alice, browser_like(running) as bob:
                # The page gives each browser its visitor cookie.
                for client in (alice, bob):
                    async with client.get(url + "/") as response:
                        assert response.status == 200
                one = await started_in(alice, url)
                again = await started_in(alice, url)
                other = await started_in(bob, url)
            async with browser_like(running, cookies={"nashplay_visitor": "../../../etc"}) as forged:
                odd = await started_in(forged, url)
        folders = {Path(info["state"]) for info in (one, other, odd)}
        assert len(folders) == 3 and Path(again["state"]) == Path(one["state"])
        for folder in folders:
            assert folder.parent == settings.sessions_dir and re.fullmatch(r"[0-9a-f]{32}", folder.name)
            assert folder.is_dir()
        assert Path(one["cwd"]).resolve() == Path(one["state"]).resolve()  # a relative save lands there too
        assert one["size"] == ["90", "30"]

    run(body)


def test_the_browsers_messages_reach_the_app_checked(tmp_path: Path) -> None:
    async def body() -> None:
        async with (
            serving(fake_settings(tmp_path)) as running,
            browser_like(running) as client,
            client.ws_connect(base(running) + "/ws?width=99999999999&height=-4") as ws,
        ):
            assert (await first_packet(ws))["size"] == ["500", "1"]
            await ws.send_str("not json")
            await ws.send_str(json.dumps({"stdin": "x"}))
            await ws.send_str(json.dumps(["stdin", 42]))
            await ws.send_bytes(b"binary")
            await ws.send_str(json.dumps(["resize", {"width": 10**12, "height": "40"}]))
            await ws.send_str(json.dumps(["stdin", "ab\ud800"]))
            await ws.send_str(json.dumps(["ping", "123"]))
            echoed: list[bytes] = []
            pong = None
            while len(echoed) < 2 or pong is None:
                message = await asyncio.wait_for(ws.receive(), TIMEOUT)
                if message.type == aiohttp.WSMsgType.BINARY:
                    echoed.append(message.data)
                elif json.loads(message.data) != ["pong", "hello"]:  # the first message's answer may come late
                    pong = json.loads(message.data)
            assert pong == ["pong", "123"]
            resize, keys = echoed
            assert resize[:1] == b"M" and json.loads(resize[1:]) == {"type": "resize", "width": 500, "height": 40}
            assert keys == b"Dab?"

    run(body)


def test_the_first_message_starts_the_app_a_resize_at_its_size_keys_delivered(tmp_path: Path) -> None:
    """The app starts with the websocket's first message: a resize (the page's first) gives the size it starts at,
    over the URL's; keys sent first reach the app once it has started."""

    async def body() -> None:
        async with serving(fake_settings(tmp_path)) as running, browser_like(running) as client:
            async with client.ws_connect(base(running) + "/ws?width=90&height=30") as ws:
                await ws.send_str(json.dumps(["resize", {"width": 120, "height": 40}]))
                message = await asyncio.wait_for(ws.receive(), TIMEOUT)
                assert json.loads(message.data)["size"] == ["120", "40"]
            async with client.ws_connect(base(running) + "/ws?width=90&height=30") as ws:
                await ws.send_str(json.dumps(["stdin", "q"]))
                info = await asyncio.wait_for(ws.receive(), TIMEOUT)
                assert json.loads(info.data)["size"] == ["90", "30"]
                keys = await asyncio.wait_for(ws.receive(), TIMEOUT)
                assert keys.data == b"Dq"

    run(body)


@pytest.mark.parametrize("mode", ["", "stubborn", "worker"])
def test_closing_the_page_ends_the_app_even_a_stubborn_one_and_its_workers(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_server, "QUIT_GRACE", 0.2)
    monkeypatch.setattr(web_server, "TERM_GRACE", 0.2)
    monkeypatch.setattr(web_server, "ORPHAN_GRACE", 0.2)

    async def body() -> None:
        async with serving(fake_settings(tmp_path, mode=mode)) as running, browser_like(running) as client:
            ws = await client.ws_connect(base(running) + "/ws")
            info = await first_packet(ws)
            await ws.close()
            await until(lambda: not running.server.sessions, "the session ends")
            for pid in (info["pid"], info["worker"]):
                if pid is not None:
                    await until(lambda pid=pid: not alive(pid), f"process {pid} ends")

    run(body)


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie, ended but not yet reaped by its parent, is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_stopping_the_server_ends_every_session(tmp_path: Path) -> None:
    async def body() -> None:
        running = await start(fake_settings(tmp_path), lambda _: None)
        async with browser_like(running) as client:
            sockets = [await client.ws_connect(base(running) + "/ws") for _ in range(3)]
            pids = [(await first_packet(ws))["pid"] for ws in sockets]
            await running.stop()
            assert not running.server.sessions
            for pid in pids:
                with pytest.raises(ProcessLookupError):
                    os.kill(pid, 0)
            for ws in sockets:
                message = await asyncio.wait_for(ws.receive(), TIMEOUT)
                assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)

    run(body)


# ------------------------------------------------------------------------------------------------ the real app


async def read_screen(ws: Any, screen: Screen, needle: str | Callable[[str], bool]) -> str:
    """Feed the app's output to ``screen`` until ``needle`` shows on it (or the screen's text passes the test)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    shown = needle if callable(needle) else lambda text: needle in text
    while not shown(screen.text()):
        left = deadline - loop.time()
        assert left > 0, f"{needle!r} never showed; the screen:\n{screen.text()}"
        try:
            message = await asyncio.wait_for(ws.receive(), left)
        except TimeoutError:
            continue
        assert message.type == aiohttp.WSMsgType.BINARY, f"{message}; the screen:\n{screen.text()}"
        screen.feed(message.data)
    return screen.text()


def test_the_real_app_plays_mini_geister_over_the_websocket(tmp_path: Path) -> None:
    settings = ServeSettings("127.0.0.1", 0, TOKEN, 8, tmp_path / "state" / "web", app_command([]))

    async def body() -> None:
        async with serving(settings) as running, browser_like(running) as client:
            async with client.get(base(running) + "/") as response:
                assert response.status == 200
            screen = Screen(100, 32)
            async with client.ws_connect(base(running) + "/ws?width=100&height=32") as ws:
                await ws.send_str(json.dumps(["resize", {"width": 100, "height": 32}]))
                menu = await read_screen(ws, screen, "Choose a game")
                assert "Mini-Geister" in menu and "Replay a record file" in menu
                await ws.send_str(json.dumps(["stdin", "\x1b[B\r"]))  # down to Mini-Geister, Enter
                await read_screen(ws, screen, "set-up")
                await ws.send_str(json.dumps(["stdin", "\x13"]))  # ctrl+s: start
                game = await read_screen(ws, screen, "Suggested:")
                assert "Mini-Geister vs nash" in game and "Value for you" in game  # the strongest by default
                await ws.send_str(json.dumps(["stdin", ":"]))
                await read_screen(ws, screen, "Enter plays")
                await ws.send_str(json.dumps(["stdin", "b1b2\r"]))
                played = await read_screen(ws, screen, "b1-b2 (you)")
                assert "Ply " in played
                # A wider window: the app lays the screen out again at the new width.
                title_at = screen.text().splitlines()[0].index("Mini-Geister vs")
                screen.resize(140, 32)
                await ws.send_str(json.dumps(["resize", {"width": 140, "height": 32}]))
                await read_screen(ws, screen, lambda text: text.splitlines()[0].find("Mini-Geister vs") > title_at)
                assert "1. b1-b2" in screen.text()  # the move list, redrawn
        # The game in progress was saved in this visitor's folder, and nowhere else.
        saves = list(settings.sessions_dir.glob("*/games/*.ngr"))
        assert len(saves) == 1 and "1. b1-b2" in saves[0].read_text()
        assert not (tmp_path / "state" / "games").exists()

    run(body)


# ------------------------------------------------------------------------------------------------ the command


async def next_line(stream: asyncio.StreamReader) -> str:
    line = await asyncio.wait_for(stream.readline(), TIMEOUT)
    assert line, "the server ended early"
    return line.decode()


def test_ctrl_c_stops_the_server_and_its_apps_cleanly(tmp_path: Path) -> None:
    # SIGTERM takes the same path (it ends the test below, with its own exit code).
    async def body() -> None:
        # A session of its own, and the signal to the whole group: what Ctrl-C in a terminal does.
        process = await asyncio.create_subprocess_exec(
            str(NASHPLAY),
            "serve",
            "--port",
            "0",
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        assert process.stdout is not None and process.stderr is not None
        try:
            first = await next_line(process.stdout)
            url = re.search(r"(http://\S+/)\?token=(\S+)", first)
            assert first.startswith("nashplay serve: open http://127.0.0.1:") and url is not None, first
            async with browser_like() as client:
                ws = await client.ws_connect(f"{url.group(1)}ws?width=80&height=24&token={url.group(2)}")
                await ws.send_str(json.dumps(["resize", {"width": 80, "height": 24}]))  # as the page does
                await read_screen(ws, Screen(80, 24), "Choose a game")
                line = ""
                while "session 1 started" not in line:
                    line = await next_line(process.stdout)
                app = re.search(r"app process (\d+)", line)
                assert app is not None, line
                os.killpg(process.pid, signal.SIGINT)
                code = await asyncio.wait_for(process.wait(), TIMEOUT)
                await ws.close()
            err = (await process.stderr.read()).decode()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert code == 130
        assert err.count("\n") == 1 and "closed 1 app session" in err and "Traceback" not in err, err
        assert err.startswith("nashplay serve: interrupted"), err
        with pytest.raises(ProcessLookupError):
            os.kill(int(app.group(1)), 0)

    run(body)


def test_on_every_address_a_request_without_the_token_gets_403(tmp_path: Path) -> None:
    async def body() -> None:
        process = await asyncio.create_subprocess_exec(
            str(NASHPLAY),
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None and process.stderr is not None
        try:
            first = await next_line(process.stdout)
            found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{32,})", first)
            assert found is not None, first
            port, token = found.groups()
            assert "every address" in await next_line(process.stdout)
            async with browser_like() as client:
                async with client.get(f"http://127.0.0.1:{port}/") as response:
                    assert response.status == 403
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(f"http://127.0.0.1:{port}/ws")
                assert refused.value.status == 403
                async with client.get(f"http://127.0.0.1:{port}/?token={token}") as response:
                    assert response.status == 200
            process.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(process.wait(), TIMEOUT) == 128 + signal.SIGTERM
            out = (await process.stdout.read()).decode()
            assert "started" not in out, out  # no app process was started for the refused requests
            err = (await process.stderr.read()).decode()
            assert err == "nashplay serve: stopped by SIGTERM; closed 0 app sessions\n", err
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()

    run(body)
