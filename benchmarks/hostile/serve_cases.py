"""Item 1, ``nashplay serve`` on a shared machine: requests without the token, visitors' folders and ids, slow and
silent connections, oversized and deep messages.

The server is ``serve``'s own (``tui.web.server.start``, with the settings its command line makes for its default,
the loopback), in this process's event loop; each visitor's app is a small stand-in process that speaks
textual-serve's protocol and says its state folder on stderr, as a crash's traceback would (the prompts are driven in
the real app, in ``app_cases``). What the server says, what it prints (textual-serve passes an app's stderr to its
own output) and what it logs are all kept, and searched for visitor ids.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import json
import logging
import os
import random
import re
import string
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp

from hostile.common import Outcome, captured, changed, clean, crash, leaked, lost, short, snapshot, worst
from tui.web import server as web_server
from tui.web.server import Running, ServeSettings

#: A stand-in for a visitor's app: textual-serve's start-up line, one data packet with its state folder, and its
#: state folder on stderr (``quiet``), in two writes a moment apart (``split``: the id cut between two reads), or
#: in a traceback, exiting at once (``crash``); then it waits for the server's quit.
STAND_IN = """
import json, os, sys, time
behaviour = sys.argv[1] if len(sys.argv) > 1 else "quiet"
out = sys.stdout.buffer
def packet(kind, payload):
    out.write(kind + len(payload).to_bytes(4, "big") + payload)
    out.flush()
out.write(b"__GANGLION__\\n")
out.flush()
state = os.environ.get("NASHPLAY_STATE_DIR", "")
info = {"state": state, "visitor": os.environ.get("NASHPLAY_WEB_VISITOR"), "cwd": os.getcwd()}
packet(b"D", json.dumps(info).encode())
err = sys.stderr
if behaviour == "split":
    cut = len(state) - 16
    err.write("the app's state folder: " + state[:cut])
    err.flush()
    time.sleep(0.05)
    err.write(state[cut:] + "\\n")
    err.flush()
elif behaviour == "crash":
    name = os.path.basename(state)
    err.write('Traceback (most recent call last):\\n  File "' + state + '/games/x.ngr", line 1\\n')
    err.write("ValueError: " + name + "\\n")
    err.flush()
    sys.exit(1)
else:
    err.write("the app's state folder: " + state + "\\n")
    err.flush()
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

TOKEN_ALPHABET = string.ascii_letters + string.digits + "-_"
HEX32 = re.compile(r"[0-9a-f]{32}")
#: Seconds any exchange with the server may take before it counts as a hang.
ANSWER = 10.0


class Logged(logging.Handler):
    """Everything logged while the case runs (warnings and up); ``errors``: what is an error or carries a
    traceback."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.texts: list[str] = []
        self.errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        self.texts.append(text)
        if record.levelno >= logging.ERROR or record.exc_info:
            self.errors.append(text)


@dataclasses.dataclass
class Watch:
    """What the server said (its ``say``), printed and logged during the case."""

    said: list[str]
    logged: Logged
    printed: Any

    def text(self) -> str:
        return "\n".join([*self.said, self.printed.getvalue(), *self.logged.texts])


def settings_for(work: Path, behaviour: str = "quiet", **changes: Any) -> ServeSettings:
    """``serve``'s settings as its command line makes them for ``nashplay serve --port 0`` (a fresh token, the
    loopback, the state folder's ``web/``), with the stand-in as each visitor's app."""
    from tui.cli import build_parser
    from tui.cli import serve as serve_command

    script = work / "stand_in.py"
    script.write_text(STAND_IN)
    made = serve_command.settings_from_args(build_parser().parse_args(["serve", "--port", "0"]))
    return dataclasses.replace(made, command=(sys.executable, str(script), behaviour), **changes)


def in_loop(body: Callable[[Watch], Awaitable[Outcome]], seconds: float = 45.0) -> Outcome:
    """Run ``body`` in a fresh event loop with everything said, printed and logged kept; anything logged as an
    error (a traceback in the server) makes the case a crash."""
    logged = Logged()
    root = logging.getLogger()
    root.addHandler(logged)
    try:
        with captured() as printed:
            watch = Watch([], logged, printed)
            try:
                outcome = asyncio.run(asyncio.wait_for(body(watch), seconds))
            except TimeoutError:
                outcome = crash(f"the exchange with the server took over {seconds:.0f} s: it hangs")
    finally:
        root.removeHandler(logged)
    if logged.errors and outcome.kind == "clean":
        return crash(f"the server logged an error: {short(logged.errors[0], 300)}")
    return outcome


@contextlib.asynccontextmanager
async def serving(settings: ServeSettings, watch: Watch) -> AsyncIterator[Running]:
    running = await web_server.start(settings, watch.said.append)
    try:
        yield running
    finally:
        await running.stop()


def folders(settings: ServeSettings) -> set[str]:
    where = settings.sessions_dir
    return {entry.name for entry in where.iterdir()} if where.is_dir() else set()


async def until(condition: Callable[[], bool], seconds: float = ANSWER) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        if loop.time() > deadline:
            return condition()
        await asyncio.sleep(0.02)
    return True


def browser(headers: dict[str, str] | None = None) -> aiohttp.ClientSession:
    """An HTTP client that sends exactly the cookies given in ``headers`` (none of its own)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar(), headers=headers)


def with_token(running: Running, path: str = "/") -> str:
    return f"http://127.0.0.1:{running.server.port}{path}?token={running.server.settings.token}"


async def still_answers(running: Running) -> Outcome:
    """A request with the token is answered (200): the server survived the case."""
    try:
        async with browser() as client, client.get(with_token(running)) as response:
            if response.status == 200:
                return clean()
            return crash(f"after the case a request with the token got {response.status}")
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        return crash(f"after the case the server answers no more: {type(error).__name__}: {error}")


async def first_packet(ws: aiohttp.ClientWebSocketResponse, seconds: float = ANSWER) -> dict[str, Any] | None:
    """The stand-in's first words once the websocket has sent the page's first message (a ping); ``None`` when
    the socket closed first."""
    await ws.send_str(json.dumps(["ping", "hello"]))
    async with asyncio.timeout(seconds):
        while True:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                try:
                    info: dict[str, Any] = json.loads(message.data)
                except ValueError:  # the server's own words to the terminal (it could not start the app)
                    return None
                return info
            if message.type != aiohttp.WSMsgType.TEXT:
                return None


async def closed_with(ws: aiohttp.ClientWebSocketResponse, seconds: float = ANSWER) -> tuple[int | None, str]:
    """The close code and reason the server ended ``ws`` with (messages before it skipped)."""
    async with asyncio.timeout(seconds):
        while True:
            message = await ws.receive()
            if message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                continue
            if message.type == aiohttp.WSMsgType.CLOSE:
                return message.data, message.extra or ""
            return ws.close_code, ""


async def raw_exchange(port: int, request: bytes, seconds: float = ANSWER) -> int | None:
    """Send ``request`` as it is; the status of the answer, or ``None`` when the server closed without one."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        with contextlib.suppress(ConnectionError):
            writer.write(request)
            await writer.drain()
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), seconds)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            return None
        parts = head.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


def upgrade_headers(origin: str | None = None) -> str:
    key = base64.b64encode(os.urandom(16)).decode()
    lines = f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
    return lines + (f"Origin: {origin}\r\n" if origin else "")


# ------------------------------------------------------------------------------------------------ no or wrong token


PATHS = [
    "/",
    "/ws",
    "/ws",
    "/static/js/textual.js",
    "/static/css/xterm.css",
    "/nothing",
    "/static/../../../../etc/passwd",
    "/ws/",
    "//",
    "/?fontsize=99999999999999999999",
    "/static/",
]
METHODS = ["GET", "GET", "GET", "HEAD", "POST", "OPTIONS", "PUT"]


def wrong_credentials(rng: random.Random, token: str, port: int) -> tuple[str, str, str]:
    """A query, header lines and a label: every way of asking without the server's token."""
    other = "".join(rng.choice(TOKEN_ALPHABET) for _ in range(len(token)))
    index = rng.randrange(len(token))
    flipped = token[:index] + rng.choice([c for c in TOKEN_ALPHABET if c != token[index]]) + token[index + 1 :]
    kinds: list[tuple[str, str, str]] = [
        ("", "", "no token"),
        (f"token={other}", "", "a random token"),
        (f"token={flipped}", "", "one character changed"),
        (f"token={token[: rng.randrange(len(token))]}", "", "cut short"),
        (f"token={token}{rng.choice(TOKEN_ALPHABET)}", "", "one character more"),
        ("token=", "", "an empty token"),
        ("token=%00%ff%fe", "", "NUL and bytes"),
        ("token=%ED%A0%80", "", "a lone surrogate"),
        ("", f"Authorization: Bearer {token}\r\n", "the token in a header"),
        ("", f"Cookie: nashplay_token_{port}={other}\r\n", "a wrong token cookie"),
        ("", f"Cookie: nashplay_token_{port + 1}={other}\r\n", "another server's cookie"),
        ("", f"Cookie: nashplay_visitor={os.urandom(16).hex()}\r\n", "a visitor's cookie only"),
        (f"token={''.join(rng.choice(TOKEN_ALPHABET) for _ in range(rng.choice([4000, 9000, 100_000])))}", "", "huge"),
        (f"TOKEN={token}", "", "the right token under another name"),
    ]
    if token.swapcase() != token:
        kinds.append((f"token={token.swapcase()}", "", "case changed"))
    return rng.choice(kinds)


async def _no_token(rng: random.Random, work: Path, sound: bool, watch: Watch) -> Outcome:
    settings = settings_for(work)
    async with serving(settings, watch) as running:
        port = running.server.port
        if sound:
            return await _with_token(rng, running, settings)
        path, method = rng.choice(PATHS), rng.choice(METHODS)
        query, headers, label = wrong_credentials(rng, settings.token, port)
        target = path + (("&" if "?" in path else "?") + query if query else "")
        host = rng.choice([f"127.0.0.1:{port}", f"localhost:{port}", "games.example.org", f"[::1]:{port}"])
        upgrade = upgrade_headers(rng.choice([None, f"http://127.0.0.1:{port}", "http://evil.example.org"]))
        extra = upgrade if path.startswith("/ws") and method == "GET" else ""
        request = f"{method} {target} HTTP/1.1\r\nHost: {host}\r\n{headers}{extra}Content-Length: 0\r\n\r\n"
        what = f"{method} {short(path, 40)} ({label})"
        try:
            status = await raw_exchange(port, request.encode("latin-1"))
        except TimeoutError:
            return crash(f"{what}: no answer in {ANSWER:.0f} s")
        if status is not None and status < 400:
            return leaked(f"{what}: answered {status} without the token")
        if running.server.started or folders(settings):
            return leaked(f"{what}: an app started or a folder made without the token")
        return worst(await still_answers(running), clean(f"{what}: {status}"))


async def _with_token(rng: random.Random, running: Running, settings: ServeSettings) -> Outcome:
    """The sound request: the page with the token (in the URL, or as the page's cookie), then its websocket, whose
    first message starts the visitor's app in a folder of their own."""
    port = running.server.port
    if rng.random() < 0.5:
        url, headers = with_token(running), {}
    else:
        url, headers = f"http://127.0.0.1:{port}/", {"Cookie": f"{running.server.token_cookie}={settings.token}"}
    async with browser(headers) as client:
        async with client.get(url) as response:
            if response.status != 200:
                return lost(f"the page with the token got {response.status}")
        async with client.ws_connect(url.replace("/?", "/ws?") if "?" in url else url + "ws") as ws:
            info = await first_packet(ws)
            if info is None or Path(info["state"]).parent != settings.sessions_dir.absolute():
                return lost(f"the websocket with the token started no app in a visitor's folder: {info}")
    return clean("the token let in") if await until(lambda: not running.server.sessions) else crash("no end")


def no_token(rng: random.Random, work: Path, sound: bool) -> Outcome:
    return in_loop(lambda watch: _no_token(rng, work, sound, watch))


# ------------------------------------------------------------------------------------------------ ids and folders


COOKIES = [
    None,
    "random",
    "random",
    "../../outside",
    "A" * 32,
    "0" * 31,
    "f" * 33,
    "%2e%2e%2fx",
    "a" * 3000,
    "",
    "0123456789abcdef0123456789abcdeg",
]


async def _visitor_folders(rng: random.Random, work: Path, sound: bool, watch: Watch) -> Outcome:
    behaviour = "quiet" if sound else rng.choice(["quiet", "crash", "split"])
    max_folders = rng.choice([1, 2, 3, 1000])
    settings = settings_for(work, behaviour, max_folders=max_folders, first_message_timeout=0.5)
    variant = "speaking visitors" if sound else rng.choice(["mixed", "silent", "chatty", "blocked folder", "cap"])
    if variant == "blocked folder":
        settings.sessions_dir.parent.mkdir(parents=True, exist_ok=True)
        settings.sessions_dir.write_text("a file where the visitors' folders go")
    before = snapshot(work, (settings.sessions_dir,))
    reported: list[str] = []
    spoke = 0
    sessions = rng.randrange(1, 6) if variant != "cap" else max_folders + rng.randrange(1, 4)
    async with serving(settings, watch) as running:
        for _ in range(min(sessions, 8)):
            cookie = rng.choice(COOKIES) if not sound else rng.choice([None, "random"])
            value = os.urandom(16).hex() if cookie == "random" else cookie
            headers = {"Cookie": f"nashplay_visitor={value}"} if value is not None else {}
            speaks = {"silent": False, "chatty": False, "mixed": rng.random() < 0.6}.get(variant, True)
            async with browser(headers) as client:
                try:
                    ws = await client.ws_connect(with_token(running, "/ws"))
                except aiohttp.ClientError as error:
                    return crash(f"a websocket with the token and cookie {short(str(value), 40)!r}: {error}")
                try:
                    if speaks:
                        info = await first_packet(ws)
                        if info is None:
                            if variant == "blocked folder":
                                continue
                            return lost(f"a visitor that spoke (cookie {short(str(value), 40)!r}) got no app")
                        reported.append(info["state"])
                        spoke += 1
                        if Path(info["state"]).parent != settings.sessions_dir.absolute():
                            return leaked(f"a visitor's app got the state folder {info['state']}")
                    else:
                        if variant == "chatty":
                            for _ in range(rng.randrange(1, 20)):
                                with contextlib.suppress(ConnectionError, RuntimeError):
                                    await ws.send_str(rng.choice(["not a page message", "[]", '{"a": 1}', "null"]))
                                    await ws.send_bytes(b"binary")
                        code, _ = await closed_with(ws)
                        if code != 1008:
                            return crash(f"a websocket that never spoke was closed with {code}, not 1008")
                finally:
                    await ws.close()
            if not await until(lambda: not running.server.sessions):
                return crash("a visitor's session never ended after its websocket closed")
    after = snapshot(work, (settings.sessions_dir,))
    made = folders(settings) if settings.sessions_dir.is_dir() else set()
    ids = made | {Path(state).name for state in reported}
    text = watch.text()
    for name in ids:
        if name in text:
            return leaked(f"a visitor id ({behaviour} app) was printed or logged: {short(_around(text, name), 200)}")
    if found := HEX32.search(text):
        return leaked(f"something like a visitor id was printed or logged: {short(_around(text, found.group()), 200)}")
    ancestors = {str(folder) for folder in settings.sessions_dir.parents}
    outside = [p for p in changed(before, after) if not p.endswith("stand_in.py") and p not in ancestors]
    if outside:
        return leaked(f"files made outside the visitors' folders: {outside[:3]}")
    if spoke == 0 and made:
        return leaked(f"{len(made)} folder(s) made for websockets that never spoke ({variant})")
    if any(HEX32.fullmatch(name) is None for name in made):
        return leaked(f"a visitor's folder not named by an id: {sorted(made)[:3]}")
    if len(made) > max(max_folders, 1):
        return leaked(f"{len(made)} visitors' folders kept, over the cap of {max_folders}")
    if variant == "blocked folder" and not any("cannot make a visitor's folder" in line for line in watch.said):
        return crash(f"a blocked visitors' folder was not said in one line: {watch.said[-3:]}")
    return clean(f"{variant}, {behaviour} app: {spoke} of {sessions} spoke, {len(made)} folders")


def _around(text: str, found: str) -> str:
    at = text.find(found)
    return text[max(0, at - 60) : at + len(found) + 20]


def visitor_folders(rng: random.Random, work: Path, sound: bool) -> Outcome:
    return in_loop(lambda watch: _visitor_folders(rng, work, sound, watch))


# ------------------------------------------------------------------------------------------------ slow and silent


#: The server's time limits in these cases, shortened (the defaults are 15 s, 10 s and 15 s).
IDLE, FIRST_MESSAGE, HEARTBEAT = 0.5, 0.5, 0.3
#: Seconds a hostile connection may stay open past the limits before it counts as never closed.
CLOSED_WITHIN = 8.0


async def closed_by_server(
    reader: asyncio.StreamReader, seconds: float = CLOSED_WITHIN, websocket: bool = False
) -> bool:
    """Whether the server closes the connection (end of file or reset; for a ``websocket``, its close frame: the
    server then waits for the peer's own, as the protocol says) within ``seconds``, whatever it sends before."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    try:
        while loop.time() < deadline:
            data = await asyncio.wait_for(reader.read(65536), max(0.01, deadline - loop.time()))
            if not data or (websocket and data[:1] == b"\x88"):
                return True
    except (ConnectionError, asyncio.IncompleteReadError):
        return True
    except TimeoutError:
        return False
    return False


async def raw_websocket(port: int, token: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{upgrade_headers()}\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWER)
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(f"the upgrade was answered {head[:40]!r}")
    return reader, writer


def masked_frame(payload: bytes, opcode: int = 1) -> bytes:
    """One frame as a browser sends it (masked)."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        head = bytes([0x80 | opcode, 0x80 | length])
    elif length < 65536:
        head = bytes([0x80 | opcode, 0x80 | 126]) + length.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + length.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def dribble(writer: asyncio.StreamWriter, reader: asyncio.StreamReader, pieces: list[bytes]) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        for piece in pieces:
            if reader.at_eof():
                return
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(0.1)


SLOW = [
    "silent",
    "dribbled headers",
    "dribbled request line",
    "silent websocket",
    "dribbled first frame",
    "only messages the page never sends",
    "half-open",
    "kept alive, then idle",
    "a crowd of silent connections",
]


async def _slow(rng: random.Random, work: Path, sound: bool, watch: Watch) -> Outcome:
    settings = settings_for(work, first_message_timeout=FIRST_MESSAGE)
    variant = "a visitor who plays their part" if sound else rng.choice(SLOW)
    tasks: list[asyncio.Task[None]] = []
    writers: list[asyncio.StreamWriter] = []
    async with serving(settings, watch) as running:
        server, port, token = running.server, running.server.port, settings.token
        try:
            if sound:
                async with browser() as client, client.ws_connect(with_token(running, "/ws")) as ws:
                    if await first_packet(ws) is None:
                        return lost("a visitor who spoke at once got no app")
                return await still_answers(running)
            if variant == "half-open":
                client = browser()
                async with client:
                    ws = await client.ws_connect(with_token(running, "/ws"), autoping=False)
                    if await first_packet(ws) is None:
                        return lost("the half-open visitor got no app to begin with")
                    session = next(iter(server.sessions.values()), None)
                    pid = session.app.pid if session is not None and session.app is not None else None
                    if not await until(lambda: not server.sessions, HEARTBEAT * 6 + CLOSED_WITHIN):
                        return crash("a websocket whose browser stopped answering pings was never closed")
                    if pid is not None and not await until(lambda: not _alive(pid), CLOSED_WITHIN):
                        return crash("the app of a vanished browser still runs after its session ended")
                    await ws.close()
                return await still_answers(running)
            connections: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
            if variant == "silent":
                connections.append(await asyncio.open_connection("127.0.0.1", port))
            elif variant == "a crowd of silent connections":
                for _ in range(rng.randrange(20, 120)):
                    connections.append(await asyncio.open_connection("127.0.0.1", port))
            elif variant in ("dribbled headers", "dribbled request line"):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                if variant == "dribbled headers":
                    writer.write(f"GET /?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
                    pieces = [b"X-Slow: 1\r\n"] * rng.randrange(20, 60)
                else:
                    pieces = [bytes([c]) for c in f"GET /?token={token} HTTP/1.1\r\n".encode()]
                tasks.append(asyncio.create_task(dribble(writer, reader, pieces)))
                connections.append((reader, writer))
            elif variant == "kept alive, then idle":
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                for _ in range(rng.randrange(1, 4)):
                    writer.write(f"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWER)
                    length = re.search(rb"Content-Length: (\d+)", head, re.IGNORECASE)
                    await asyncio.wait_for(reader.readexactly(int(length.group(1)) if length else 0), ANSWER)
                connections.append((reader, writer))
            else:  # the websockets
                reader, writer = await raw_websocket(port, token)
                if variant == "dribbled first frame":
                    frame = masked_frame(json.dumps(["ping", "slow"]).encode())
                    tasks.append(asyncio.create_task(dribble(writer, reader, [bytes([b]) for b in frame[:-1]])))
                elif variant == "only messages the page never sends":
                    junk = [masked_frame(rng.choice([b"hello", b"[]", b'{"a": 1}', b"null"])) for _ in range(40)]
                    tasks.append(asyncio.create_task(dribble(writer, reader, junk)))
                connections.append((reader, writer))
            writers.extend(writer for _, writer in connections)
            if variant == "a crowd of silent connections":
                sound_check = await still_answers(running)
                if sound_check.kind != "clean":
                    return crash(f"{len(connections)} silent connections kept a visitor with the token out")
            websocket = "websocket" in variant or "frame" in variant or "page never" in variant
            for reader, _ in connections:
                if not await closed_by_server(reader, websocket=websocket):
                    return crash(f"{variant}: the connection was still open {CLOSED_WITHIN:.0f} s past the limits")
            if server.started or folders(settings):
                return leaked(f"{variant}: an app started or a folder made for a connection that never spoke")
            return worst(await still_answers(running), clean(variant))
        finally:
            for task in tasks:
                task.cancel()
            for writer in writers:
                writer.close()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):  # gone, or going (ESRCH while read)
        return False


def slow_connections(rng: random.Random, work: Path, sound: bool) -> Outcome:
    saved = web_server.IDLE_TIMEOUT, web_server.HEARTBEAT
    web_server.IDLE_TIMEOUT, web_server.HEARTBEAT = IDLE, HEARTBEAT
    try:
        return in_loop(lambda watch: _slow(rng, work, sound, watch))
    finally:
        web_server.IDLE_TIMEOUT, web_server.HEARTBEAT = saved


# ------------------------------------------------------------------------------------------------ messages


def hostile_message(rng: random.Random) -> tuple[str | bytes, bool, str]:
    """A message, whether the server must end the connection for it (too large or too deep), and a label."""
    depth = int(10 ** rng.uniform(0.96, 5.5))
    kind = rng.choice(
        [
            "brackets",
            "objects",
            "deep but valid",
            "mixed",
            "large",
            "large binary",
            "brackets in a string",
            "odd resize",
            "lone surrogate",
            "not JSON",
            "not a page message",
            "long ping",
        ]
    )
    limit = web_server.MAX_MESSAGE
    if kind == "brackets":
        text = "[" * depth
    elif kind == "objects":
        text = '{"a":' * depth + "1" + "}" * depth
    elif kind == "deep but valid":
        text = '["stdin", ' * depth + '"x"' + "]" * depth
    elif kind == "mixed":
        text = "".join(rng.choice(["[", '{"k":', "[1,"]) for _ in range(depth))
    elif kind == "large":
        text = json.dumps(["stdin", "x" * rng.randrange(limit, 3 * limit)])
    elif kind == "large binary":
        return os.urandom(rng.randrange(limit + 1, 3 * limit)), True, kind
    elif kind == "brackets in a string":
        return json.dumps(["stdin", "[" * rng.randrange(10, limit // 2)]), False, kind
    elif kind == "odd resize":
        width = rng.choice(["1e308", "-1", '"' + "9" * rng.randrange(10, 100_000) + '"', "null", "[1]", "true"])
        return f'["resize", {{"width": {width}, "height": {rng.choice(["-99999999999", "0", "1e999"])}}}]', False, kind
    elif kind == "lone surrogate":
        return '["stdin", "\\ud800\\udfff\\ud800"]', False, kind
    elif kind == "not JSON":
        return rng.choice(['["stdin", ', "]]]]", "\x00\x01", '{"a": }']), False, kind
    elif kind == "not a page message":
        return rng.choice(['["quit"]', '["open_url", "file:///etc/passwd"]', "[]", '{"type": "quit"}']), False, kind
    else:
        return json.dumps(["ping", "p" * rng.randrange(65, 10_000)]), False, kind
    too_large = len(text.encode()) > limit
    too_deep = depth > web_server.MAX_DEPTH
    return text, too_large or too_deep, f"{kind}, {len(text):,} characters, depth {depth:,}"


async def _messages(rng: random.Random, work: Path, sound: bool, watch: Watch) -> Outcome:
    settings = settings_for(work, first_message_timeout=3.0)
    async with serving(settings, watch) as running:
        server = running.server
        async with browser() as client:
            ws = await client.ws_connect(with_token(running, "/ws"), max_msg_size=0)
            try:
                if sound:
                    message: str | bytes = json.dumps(
                        rng.choice([["stdin", "q"], ["resize", {"width": 80, "height": 24}], ["focus"], ["blur"]])
                    )
                    ends, label, first = False, "a page message", rng.random() < 0.5
                else:
                    message, ends, label = hostile_message(rng)
                    first = rng.random() < 0.5
                if not first and await first_packet(ws) is None:
                    return lost("a visitor got no app before the hostile message")
                when = "as the first message" if first else "during a session"
                with contextlib.suppress(ConnectionError, RuntimeError):
                    if isinstance(message, bytes):
                        await ws.send_bytes(message)
                    else:
                        await ws.send_str(message)
                if ends:
                    try:
                        code, reason = await closed_with(ws)
                    except TimeoutError:
                        return crash(f"{label} {when}: the connection was not closed in {ANSWER:.0f} s")
                    if code not in (1008, 1009):
                        return crash(f"{label} {when}: closed with {code} {reason!r}, not 1008 or 1009")
                else:
                    try:
                        alive = await _pong(ws)
                    except TimeoutError:
                        return crash(f"{label} {when}: no answer to a ping after it in {ANSWER:.0f} s")
                    if not alive:
                        return lost(f"{label} {when}: the session was ended for a message within the limits")
            finally:
                await ws.close()
        if not await until(lambda: not server.sessions):
            return crash(f"{label}: the session never ended")
        async with browser() as client, client.ws_connect(with_token(running, "/ws")) as ws:
            if await first_packet(ws) is None:
                return crash(f"{label}: the next visitor got no app")
    return clean(label)


async def _pong(ws: aiohttp.ClientWebSocketResponse) -> bool:
    """Whether the session still answers: a ping, then its pong (the app's words skipped)."""
    await ws.send_str(json.dumps(["ping", "still there"]))
    async with asyncio.timeout(ANSWER):
        while True:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.TEXT and "still there" in message.data:
                return True
            if message.type not in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY):
                return False


def messages(rng: random.Random, work: Path, sound: bool) -> Outcome:
    return in_loop(lambda watch: _messages(rng, work, sound, watch))
