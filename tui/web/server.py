"""The server of ``nashplay serve``: the app in a browser, one app process per visitor, through textual-serve.

textual-serve's ``AppService`` runs one app process per websocket and relays the terminal both ways; its ``Server``
is a thin aiohttp application around it, which this module replaces (rather than subclasses) to make it safe to
leave running:

- an access token, always (as Jupyter asks one on the loopback too: every account of the machine reaches
  127.0.0.1): every request without it, from the page to the scripts and the websocket, gets 403 before any handler
  runs, so no app process and no folder is made for it. It comes as ``?token=`` in the printed URL, and the page
  sets it as a cookie for the requests the browser makes itself. The comparison is ``hmac.compare_digest``: its
  time does not depend on where a guess goes wrong;
- defence in depth behind the token: bound to the loopback (without ``--token``: no proxy in front), only requests
  for a loopback name (``localhost``, ``127.0.0.1``, ``[::1]``) are served, and a websocket only from a page of this
  server (its ``Origin``): a web site the player visits cannot reach the server through their browser (DNS
  rebinding, cross-site websockets);
- a limit on simultaneous sessions: past it, the page says the server is full (503) and no process is started;
- each visitor (a cookie) gets a state folder of their own (``<state>/web/<visitor>``), the app process's
  ``NASHPLAY_STATE_DIR`` and working directory, so that visitors never see each other's games or settings; the app
  is told it serves a visitor (``NASHPLAY_WEB_VISITOR=1``), and its save and replay prompts then stay inside that
  folder; its contest-server dialog connects only where the server's owner allowed (``--contest-server``; by
  default nowhere: the serving machine would open connections wherever a visitor says), which it is told too
  (``tui.web.visitor``). Only so many folders are kept (the least recently used go, never one in use). A visitor's
  id names their folder, so it is never printed or logged (not even in an app's error output, which the server
  passes on);
- nothing is held for ever by a peer that does not play its part: a connection must send its whole request within
  ``IDLE_TIMEOUT`` seconds of opening (aiohttp's keep-alive timer, which runs from the connection's start, before
  any handler: the websocket's upgrade request is such a request too); an open websocket must then send its first
  valid message (the page sends its size and a ping at once) within ``first_message_timeout`` seconds, or it is
  closed with the reason, and until that message no app process is started and no folder made; and a websocket
  whose browser stops answering pings is closed. Running out of file descriptors is one line in the log, at most
  once a minute, not a traceback per attempt;
- the browser's messages are checked (``read_message``): at most ``MAX_MESSAGE`` bytes and ``MAX_DEPTH`` levels of
  JSON, or the connection is closed with the reason; a resize is bounded (a terminal of a million columns would be
  the app's memory); and a clean stop: SIGINT or SIGTERM asks each app to quit, then ends the ones that do not, and
  their worker processes with them (each app runs in a process group of its own, which also keeps a Ctrl-C in the
  server's terminal from reaching the apps before the server tells them).

The downloads textual-serve can relay are left out: the app delivers no files.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hmac
import ipaddress
import itertools
import json
import logging
import os
import re
import secrets
import shlex
import shutil
import signal
import sys
import time
from asyncio.subprocess import PIPE, Process
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import textual_serve
from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from tui.web import page
from tui.web.visitor import CONTEST_SERVERS_ENV, ContestAddress, contest_servers_value
from tui.web.visitor import WEB_VISITOR_ENV as WEB_VISITOR_ENV  # the name the tests read here

#: The cookie that names a visitor (a random 128-bit id), so that a reload finds the same folder and the games in
#: progress left there; it is not an access right (the token is).
VISITOR_COOKIE = "nashplay_visitor"
_VISITOR = re.compile(r"[0-9a-f]{32}")
#: How long a visitor's cookie lasts: a year; their games in progress wait as long as the folder does.
VISITOR_COOKIE_AGE = 365 * 24 * 3600
#: Bounds of the terminal a browser may ask for: a large screen at a small font is some 400 x 120 cells; beyond
#: these a resize only costs the app memory.
MAX_COLUMNS = 500
MAX_ROWS = 200
#: The largest message a browser sends: keys and resizes are a few bytes; a paste of a record fits.
MAX_MESSAGE = 256 * 1024
#: The deepest a browser message nests: the page's deepest is two (``["resize", {"width": ...}]``), and a JSON
#: parser asked to go thousands deep runs out of stack.
MAX_DEPTH = 8
#: The close frame's reasons (at most 123 bytes each, as the protocol allows).
TOO_LARGE = f"message too large: at most {MAX_MESSAGE} bytes"
TOO_DEEP = f"message nested too deeply: at most {MAX_DEPTH} levels"
NO_FIRST_MESSAGE = "no message in time: a session starts with the page's first message"
#: Seconds a connection has to send its whole request (headers included) from the moment it opens, and an idle
#: kept-alive connection is kept: aiohttp's keep-alive timer, which starts with the connection, so a peer that sends
#: nothing, or its headers a byte at a time, is dropped before any handler (the token's check too) runs. aiohttp's
#: default is an hour: a few hundred such peers held every descriptor.
IDLE_TIMEOUT = 15.0
#: Seconds an open websocket has to send its first valid message, counted from the upgrade: the page sends its
#: size and a ping as soon as the socket opens, so only a peer that does not play its part (a script that opens
#: websockets and sends nothing, or its first message a byte at a time) reaches it. Until that message comes no app
#: process is started and no folder made; past it the websocket is closed (1008) with ``NO_FIRST_MESSAGE``.
FIRST_MESSAGE_TIMEOUT = 10.0
#: Visitor folders kept: past it, the least recently used go (never one in use). A folder is a visitor's games and
#: settings, some kilobytes; a visitor without the cookie (not a browser, or cookies off) makes a new one each time.
MAX_FOLDERS = 1000
#: Running out of file descriptors (or of socket memory) is said once, then at most once in this many seconds with
#: how often it happened meanwhile: the event loop retries every accept, and each failure was a traceback.
RESOURCE_REPORT_EVERY = 60.0
_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
#: Seconds an app is given to quit when asked (it saves its game in progress on the way out), then after SIGTERM,
#: before it is killed with its worker processes.
QUIT_GRACE = 5.0
TERM_GRACE = 3.0
#: Seconds the app's worker processes are given to follow it out, once it has ended.
ORPHAN_GRACE = 1.0
#: The longest the HTTP side waits for open connections at the stop, once every app session has been closed.
SHUTDOWN_GRACE = 3.0
#: How often the websocket is pinged, so that a visitor whose browser vanished frees their session.
HEARTBEAT = 15.0
_LOOPBACK_NAMES = {"localhost"}
_NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}


class ServeError(Exception):
    """The server could not start (the port is taken, the host is not this machine's): one line for the user, and
    the exit code (2: an argument is wrong)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ServeSettings:
    host: str
    #: 0: any free port (the printed URL gives the one taken).
    port: int
    #: The access token every request must carry (the command line makes one unless given).
    token: str
    max_sessions: int
    #: Where the visitors' folders go (``<state>/web``).
    sessions_dir: Path
    #: The app process's command line (the tests use a small stand-in).
    command: tuple[str, ...]
    title: str = "nashplay"
    #: Visitor folders kept at most (the least recently used go first, never one in use).
    max_folders: int = MAX_FOLDERS
    #: Seconds an open websocket has to send its first valid message before it is closed (no app, no folder).
    first_message_timeout: float = FIRST_MESSAGE_TIMEOUT
    #: The contest servers (host, port) a visitor's app may connect to (``--contest-server``); none by default: the
    #: serving machine would otherwise open connections wherever a visitor says.
    contest_servers: tuple[ContestAddress, ...] = ()
    #: Bound to the loopback, answer only requests for a loopback name (DNS rebinding), a second line behind the
    #: token. The command line leaves it off when ``--token`` is given: a reverse proxy in front passes on its
    #: users' host name.
    loopback_names_only: bool = True


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name, IPv6 with or without brackets) is this machine's loopback."""
    name = host.strip("[]").lower()
    if name in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether binding to ``host`` listens on every address of the machine (``0.0.0.0``, ``::``)."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def url_host(host: str) -> str:
    """``host`` as it stands in a URL: IPv6 addresses in brackets."""
    bare = host.strip("[]")
    return f"[{bare}]" if ":" in bare else bare


def new_token() -> str:
    """A fresh access token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def app_command(display_options: list[str]) -> tuple[str, ...]:
    """The command of each visitor's app: this Python's ``python -m tui`` (the same app and the same install as the
    server), with the server's display options (``--ascii``, ``--theme``)."""
    return (sys.executable, "-m", "tui", *display_options)


def _bounded(value: object, low: int, high: int, default: int) -> int:
    """A number from the browser, within ``[low, high]`` (``default`` when it is not a whole number)."""
    number = default
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        text = value.strip()
        # Past ten digits it is beyond any bound: not converted (int() of thousands of digits is slow, or refused).
        number = int(text) if len(text) <= 10 else (low if text.startswith("-") else high)
    return max(low, min(high, number))


# ---- the browser's messages


class MessageRefusedError(Exception):
    """A browser message that ends its connection: the close frame's ``code`` and ``reason``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class BrowserMessage:
    """One message of the page's script, checked: keys (``text``), a resize (bounded), a ping (``text``: its
    payload, echoed), focus or blur."""

    kind: Literal["stdin", "resize", "ping", "focus", "blur"]
    text: str = ""
    width: int = 0
    height: int = 0


# JSON's strings (escapes included) and brackets: the brackets outside strings are the nesting.
_JSON_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


def _nests_deeper(text: str, limit: int) -> bool:
    """Whether the JSON ``text`` nests deeper than ``limit``, told before parsing it (its parser recurses). Text that
    is not JSON may be answered either way: the parser refuses it then."""
    depth = 0
    for match in _JSON_NESTING.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > limit:
                return True
        elif token in ("]", "}"):
            depth -= 1
    return False


def read_message(text: str) -> BrowserMessage | None:
    """A text message from the browser, checked: ``None`` for anything that is not one of the page's messages (it
    is ignored, as the page's own script would send none such); ``MessageRefusedError`` for one too large or nested too
    deeply (the connection ends: no page sends those)."""
    if len(text) > MAX_MESSAGE:  # aiohttp refuses larger frames first; this keeps the parser safe on its own
        raise MessageRefusedError(WSCloseCode.MESSAGE_TOO_BIG, TOO_LARGE)
    if _nests_deeper(text, MAX_DEPTH):
        raise MessageRefusedError(WSCloseCode.POLICY_VIOLATION, TOO_DEEP)
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: cannot happen below MAX_DEPTH; kept as a last guard
        return None
    if not isinstance(envelope, list) or not envelope:
        return None
    kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
    if kind == "stdin" and isinstance(data, str):
        return BrowserMessage("stdin", text=data)
    if kind == "resize" and isinstance(data, dict):
        width = _bounded(data.get("width"), 1, MAX_COLUMNS, 80)
        height = _bounded(data.get("height"), 1, MAX_ROWS, 24)
        return BrowserMessage("resize", width=width, height=height)
    if kind == "ping" and isinstance(data, str) and len(data) <= 64:
        return BrowserMessage("ping", text=data)
    if kind in ("focus", "blur"):
        return BrowserMessage(kind)
    return None


class VisitorSocket(web.WebSocketResponse):
    """The visitor's websocket: aiohttp closes one whose message is too large with code 1009 and no reason; this one
    says it."""

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        if code == WSCloseCode.MESSAGE_TOO_BIG and not message:
            message = TOO_LARGE.encode()
        return await super().close(code=code, message=message, drain=drain)


class VisitorApp(AppService):
    """One visitor's app process: textual-serve's, started without a shell in a process group of its own, with the
    visitor's folder as its state folder and working directory, and a stop that cannot hang."""

    def __init__(
        self, command: tuple[str, ...], folder: Path, contest_servers: tuple[ContestAddress, ...] = (), **kwargs: Any
    ) -> None:
        super().__init__(shlex.join(command), **kwargs)
        self.argv = command
        self.folder = folder
        self.contest_servers = contest_servers
        self._closing: asyncio.Task[None] | None = None
        self._scrubbing: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment["NASHPLAY_STATE_DIR"] = str(self.folder)
        environment[WEB_VISITOR_ENV] = "1"
        # Always set, to what the serve's owner allowed (none: empty), whatever the server's own environment says.
        environment[CONTEST_SERVERS_ENV] = contest_servers_value(self.contest_servers)
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        # No shell between the server and the app (textual-serve runs its command through one): the stop signals
        # reach the app itself. A session of its own: Ctrl-C in the server's terminal goes to the server alone,
        # which then stops each app in order, and the group takes the app's worker processes along if it is killed.
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=PIPE,
            stdout=PIPE,
            stderr=PIPE,
            env=self._build_environment(width=width, height=height),
            cwd=self.folder,
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        if process.stderr is not None:
            process.stderr = self._scrubbed(process.stderr)
        return process

    def _scrubbed(self, source: asyncio.StreamReader) -> asyncio.StreamReader:
        """The app's error output, which textual-serve passes on to the server's output when the app ends, with the
        visitor's id taken out (a traceback may name a file in their folder): visitor ids are never logged."""
        secret = self.folder.name.encode()
        held_back = len(secret) - 1  # the start of an id cut by the end of a read
        scrubbed = asyncio.StreamReader()

        async def copy() -> None:
            held = b""
            try:
                # Whatever breaks the pipe ends the copy, and what came before is passed on.
                with contextlib.suppress(Exception):
                    while chunk := await source.read(4096):
                        text = (held + chunk).replace(secret, b"<visitor>")
                        held = text[len(text) - held_back :] if len(text) > held_back else text
                        scrubbed.feed_data(text[: len(text) - len(held)])
            finally:
                scrubbed.feed_data(held)  # shorter than an id: nothing to take out
                scrubbed.feed_eof()

        self._scrubbing = asyncio.ensure_future(copy())
        return scrubbed

    async def run(self) -> None:
        try:
            await super().run()
        finally:
            # The app has gone (quit, or crashed without a word): close the visitor's websocket, so that the page
            # says the session ended instead of showing a screen that no longer answers.
            with contextlib.suppress(Exception):
                await self.remote_close()

    def close(self) -> asyncio.Task[None]:
        """Stop the app (once, however many ask): the task ends when the process has."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        return self._closing

    def kill(self) -> None:
        """End the app and its workers at once (SIGKILL to its process group)."""
        if self._process is not None and self._process.returncode is None:
            _signal_group(self._process, signal.SIGKILL)

    async def _close(self) -> None:
        process = self._process
        if process is not None and process.returncode is None:
            # Asked first: the app saves its game in progress on the way out. Then SIGTERM, which Textual's web
            # driver also takes as "quit". Then the whole group, workers too.
            await self.send_meta({"type": "quit"})
            if not await _ended(process, QUIT_GRACE):
                _signal_group(process, signal.SIGTERM)
                if not await _ended(process, TERM_GRACE):
                    _signal_group(process, signal.SIGKILL)
        # The relay ends at the end of the app's output, once every process that holds the pipe has gone: a
        # search worker the app left behind would hold it for ever. A moment for it, then SIGTERM, then SIGKILL
        # to the group. (Its id names no other group while one of its processes lives.)
        if process is not None and self._task is not None and not await _done(self._task, ORPHAN_GRACE):
            _signal_group(process, signal.SIGTERM)
            if not await _done(self._task, TERM_GRACE):
                _signal_group(process, signal.SIGKILL)
                if not await _done(self._task, TERM_GRACE):
                    self._task.cancel()
        if self._stdin is not None:
            self._stdin.close()


#: How often an ending process is looked at.
_POLL = 0.02


async def _ended(process: Process, seconds: float) -> bool:
    """Whether ``process`` itself exits within ``seconds``. Its ``returncode`` is polled: a ``wait()`` begun before
    the exit returns only once the process's pipes have closed too, which its workers can put off."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while process.returncode is None and loop.time() < deadline:
        await asyncio.sleep(_POLL)
    return process.returncode is not None


async def _done(task: asyncio.Task[None], seconds: float) -> bool:
    """Whether ``task`` ends within ``seconds`` (it is not cancelled when it does not)."""
    await asyncio.wait({task}, timeout=seconds)
    return task.done()


def _signal_group(process: Process, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signum)


@dataclass
class Session:
    #: The session's number in the server's log: its app's rank among those started (0 until it starts).
    number: int
    visitor: str
    websocket: web.WebSocketResponse
    app: VisitorApp | None = None


@dataclass
class NashplayServer:
    """The aiohttp application of ``nashplay serve`` and the sessions it runs."""

    settings: ServeSettings
    #: Where the server says what happens (a session starts or ends, a visitor is turned away).
    say: Callable[[str], None] = print
    sessions: dict[int, Session] = field(default_factory=dict)
    #: App processes started so far: the tests check that a refused request started none.
    started: int = 0
    #: The port listened on (the one taken, for ``--port 0``), once listening.
    port: int = 0
    #: textual-serve's app service needs one; it stays empty (the app delivers no files, and there is no route).
    downloads: DownloadManager = field(default_factory=DownloadManager)
    #: The clock of the rate limit on saying that descriptors ran out (the tests hold it still).
    clock: Callable[[], float] = time.monotonic
    _keys: itertools.count[int] = field(default_factory=itertools.count)
    #: Running out of resources: when it was last said, and how often it happened since.
    _resources_said: float | None = None
    _resource_failures: int = 0
    #: When a malformed request was last said, and how many came since (``bad_request``).
    _bad_requests_said: float | None = None
    _bad_requests: int = 0
    #: The last stamp given to a visitor's folder (strictly increasing: the folders' order of use).
    _last_used: int = 0
    _previous_handler: Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object] | None = None
    _log_filter: logging.Filter | None = None

    @property
    def token_cookie(self) -> str:
        # Cookies are not kept apart by port: two servers on one machine must not overwrite each other's token.
        return f"nashplay_token_{self.port}"

    @property
    def full(self) -> bool:
        return len(self.sessions) >= self.settings.max_sessions

    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024)
        statics = Path(textual_serve.__file__).parent / "static"
        app.add_routes(
            [
                web.get("/", self.handle_index),
                web.get("/ws", self.handle_websocket),
                web.static("/static", statics, show_index=False),
            ]
        )
        return app

    # ---- who may come in

    def refusal(self, request: web.Request) -> str | None:
        """Why ``request`` is refused (403), or ``None``: it may go on."""
        settings = self.settings
        if settings.loopback_names_only and is_loopback(settings.host) and not is_loopback(request.url.host or ""):
            # DNS rebinding: a web site whose name now points at 127.0.0.1 must not reach this server, token or not.
            port = self.port
            return (
                "This nashplay server answers only to this machine's own names: open "
                f"http://127.0.0.1:{port}/ or http://localhost:{port}/ (with the ?token=... it printed)."
            )
        given = request.query.get("token") or request.cookies.get(self.token_cookie) or ""
        # Bytes: compare_digest takes only ASCII text, and a visitor may send anything.
        if not hmac.compare_digest(given.encode("utf-8", "surrogateescape"), settings.token.encode()):
            return (
                "This nashplay server needs its access token: open the address it printed when it started "
                "(the one that ends in ?token=...)."
            )
        if request.path == "/ws" and not self._same_origin(request):
            return "A websocket to this server may only come from its own page."
        return None

    def _same_origin(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser (a browser always sends it with a websocket): the token decides
        scheme, _, rest = origin.partition("://")
        return scheme in ("http", "https") and rest.rstrip("/").lower() == request.host.lower()

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        reason = self.refusal(request)
        if reason is not None:
            body = page.notice(self.settings.title, "403: not allowed", reason)
            return web.Response(status=403, text=body, content_type="text/html", headers=_NO_STORE)
        return await handler(request)

    def _full_page(self) -> web.Response:
        limit = self.settings.max_sessions
        busy = (
            "Its one session is in use (one person plays at a time)."
            if limit == 1
            else f"All {limit} of its sessions are in use (at most {limit} people play at once)."
        )
        body = page.notice(
            self.settings.title,
            "This nashplay server is full",
            f"{busy} Try again in a little while: reload this page.",
        )
        return web.Response(status=503, text=body, content_type="text/html", headers={**_NO_STORE, "Retry-After": "30"})

    def _turned_away(self) -> None:
        limit = self.settings.max_sessions
        self.say(f"turned a visitor away: the server is full ({limit} session{'' if limit == 1 else 's'} at most)")

    # ---- the page and the websocket

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if self.full:
            self._turned_away()
            return self._full_page()
        scheme = "wss" if request.secure else "ws"
        font_size = _bounded(request.query.get("fontsize", "16"), 6, 64, 16)
        body = page.index(self.settings.title, f"{scheme}://{request.host}/ws", font_size)
        response = web.Response(text=body, content_type="text/html", headers=_NO_STORE)
        if _VISITOR.fullmatch(request.cookies.get(VISITOR_COOKIE, "")) is None:
            response.set_cookie(
                VISITOR_COOKIE,
                secrets.token_hex(16),
                max_age=VISITOR_COOKIE_AGE,
                httponly=True,
                samesite="Strict",
                path="/",
            )
        if "token" in request.query:
            # The page's own requests (scripts, fonts, the websocket) carry the token as this cookie; the guard
            # has already checked the one in the URL.
            response.set_cookie(self.token_cookie, self.settings.token, httponly=True, samesite="Strict", path="/")
        return response

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        if self.full:
            # A race with the page (the last place went between the page and its websocket): refused before any
            # process starts; the page then shows its "session ended" dialog, which names this case.
            self._turned_away()
            return self._full_page()
        visitor = request.cookies.get(VISITOR_COOKIE, "")
        if _VISITOR.fullmatch(visitor) is None:
            visitor = secrets.token_hex(16)  # no cookie (not a browser, or cookies off): a folder for this session
        websocket = VisitorSocket(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
        session = Session(0, visitor, websocket)
        key = next(self._keys)
        # The place is taken before the first await: two websockets at once cannot both take the last one.
        self.sessions[key] = session
        try:
            await websocket.prepare(request)
            # Nothing is made for a websocket until it speaks: no folder, no process.
            first = await self._first_message(websocket)
            if first is None:
                return websocket
            try:
                folder = self._visitor_folder(visitor)
            except OSError as error:
                # The folder's path names the visitor: the log names only the folder of all visitors.
                self.say(f"cannot make a visitor's folder in {self.settings.sessions_dir}: {error.strerror or error}")
                await websocket.send_bytes(b"\r\nnashplay: the server cannot write this session's folder.\r\n")
                return websocket
            app = VisitorApp(
                self.settings.command,
                folder,
                self.settings.contest_servers,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.downloads,
            )
            session.app = app
            if first.kind == "resize":  # the browser's size, as it is now: the app starts at it
                width, height = first.width, first.height
            else:
                width = _bounded(request.query.get("width", "80"), 1, MAX_COLUMNS, 80)
                height = _bounded(request.query.get("height", "24"), 1, MAX_ROWS, 24)
            try:
                await app.start(width, height)
            except OSError as error:  # the app's command cannot run (a Python removed since the server started)
                session.app = None
                if error.errno in _OUT_OF_RESOURCES:
                    self.out_of_resources(error)
                else:
                    self.say(f"cannot start an app ({shlex.join(self.settings.command)}): {error.strerror or error}")
                await websocket.send_bytes(b"\r\nnashplay: the server cannot start the app.\r\n")
                return websocket
            self.started += 1
            session.number = self.started
            # Not the folder: its name is the visitor's id, which would let a reader of the log be them.
            self.say(
                f"session {session.number} started: app process {app.pid} "
                f"({len(self.sessions)} of {self.settings.max_sessions} in use)"
            )
            if first.kind != "resize":  # a resize was the start's size; anything else is the app's as usual
                await self._deliver(websocket, app, first)
            await self._relay(websocket, app)
        finally:
            try:
                if session.app is not None:
                    # Shielded: a handler cancelled at the stop leaves the app's stop running to its end.
                    await asyncio.shield(session.app.close())
                if not websocket.closed:
                    with contextlib.suppress(Exception):
                        await websocket.close()
            finally:
                del self.sessions[key]
            if session.app is not None:
                self.say(
                    f"session {session.number} ended ({len(self.sessions)} of {self.settings.max_sessions} in use)"
                )
        return websocket

    async def _first_message(self, websocket: web.WebSocketResponse) -> BrowserMessage | None:
        """The websocket's first valid message, within ``first_message_timeout`` seconds of its opening (all of it:
        a message sent a byte at a time, or messages the page never sends, do not put the deadline off); ``None``
        once the websocket is closed: it said nothing in time (closed here with the reason), it sent a message too
        large or too deep (likewise), or it closed first."""
        refused: MessageRefusedError | None = None
        try:
            async with asyncio.timeout(self.settings.first_message_timeout):
                while True:
                    message = await websocket.receive()
                    if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                        return None
                    if message.type != WSMsgType.TEXT:
                        continue
                    try:
                        read = read_message(message.data)
                    except MessageRefusedError as error:
                        refused = error
                        break
                    if read is not None:
                        return read
        except TimeoutError:
            refused = MessageRefusedError(WSCloseCode.POLICY_VIOLATION, NO_FIRST_MESSAGE)
        with contextlib.suppress(Exception):
            await websocket.close(code=refused.code, message=refused.reason.encode())
        return None

    async def _relay(self, websocket: web.WebSocketResponse, app: VisitorApp) -> None:
        """The browser's messages to the app, until the websocket closes: keys, resizes, focus, pings. Anything
        else, or anything malformed, is ignored (textual-serve's loop stops at the first bad message); a message too
        large or too deep ends the connection, with the reason."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                read = read_message(message.data)
            except MessageRefusedError as refused:
                await websocket.close(code=refused.code, message=refused.reason.encode())
                return
            if read is not None:
                await self._deliver(websocket, app, read)

    @staticmethod
    async def _deliver(websocket: web.WebSocketResponse, app: VisitorApp, read: BrowserMessage) -> None:
        """One checked message of the browser, to the app (or, for a ping, answered)."""
        if read.kind == "stdin":
            # "replace": a lone surrogate from the page's JSON must not end the session.
            await app.send_bytes(read.text.encode("utf-8", "replace"))
        elif read.kind == "resize":
            await app.set_terminal_size(read.width, read.height)
        elif read.kind == "ping":
            await websocket.send_json(["pong", read.text])
        elif read.kind == "blur":
            await app.blur()
        elif read.kind == "focus":
            await app.focus()

    # ---- the visitors' folders

    def _visitor_folder(self, visitor: str) -> Path:
        """The visitor's folder, made if need be and marked as the latest used; then the least recently used
        folders past ``max_folders`` go (never one in use). ``OSError`` when it cannot be made."""
        # Absolute: the app runs in it, and reads its state folder (where its prompts may lead) from its own cwd.
        folder = self.settings.sessions_dir.absolute() / visitor
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        # A stamp of our own, strictly increasing: the file system's clock ticks coarsely, and two folders made in
        # one tick would leave their order to chance.
        self._last_used = max(time.time_ns(), self._last_used + 1)
        os.utime(folder, ns=(self._last_used, self._last_used))
        self._forget_folders()
        return folder

    def _forget_folders(self) -> None:
        where = self.settings.sessions_dir
        in_use = {session.visitor for session in self.sessions.values()}
        count = 0
        idle: list[tuple[int, str]] = []
        try:
            with os.scandir(where) as entries:
                for entry in entries:
                    if _VISITOR.fullmatch(entry.name) is None or not entry.is_dir(follow_symlinks=False):
                        continue  # not a visitor's folder: left alone
                    count += 1
                    if entry.name not in in_use:
                        with contextlib.suppress(OSError):
                            idle.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.name))
        except OSError:
            return  # unreadable now: the next session tries again
        problems: list[OSError] = []
        for _, name in sorted(idle)[: max(0, count - self.settings.max_folders)]:
            try:
                shutil.rmtree(where / name)
            except OSError as error:
                problems.append(error)
        if problems:
            # Its reason only: the path would name the visitor.
            self.say(f"cannot remove an old visitor's folder in {where}: {problems[0].strerror or 'unknown error'}")

    # ---- running out of descriptors

    def out_of_resources(self, error: OSError) -> None:
        """Descriptors (or socket memory) ran out: said in one line, then at most once every
        ``RESOURCE_REPORT_EVERY`` seconds with how often since (the event loop retries each accept many times a
        second, and each failure was a traceback)."""
        self._resource_failures += 1
        now = self.clock()
        if self._resources_said is not None and now - self._resources_said < RESOURCE_REPORT_EVERY:
            return
        since = "" if self._resources_said is None else f"; {self._resource_failures} more since the last report"
        self._resources_said, self._resource_failures = now, 0
        why = error.strerror or errno.errorcode.get(error.errno or 0, "out of resources")
        self.say(f"cannot accept connections or start apps: {why} (the server's limit: ulimit -n){since}")

    def bad_request(self, error: Exception) -> None:
        """A request aiohttp could not read (a request line or header past its limits, not HTTP at all): answered
        400 by aiohttp, and said here in one line at most once every ``RESOURCE_REPORT_EVERY`` seconds, before any
        token check. Each was a traceback in the log: anyone could flood it, token or not."""
        self._bad_requests += 1
        now = self.clock()
        if self._bad_requests_said is not None and now - self._bad_requests_said < RESOURCE_REPORT_EVERY:
            return
        since = "" if self._bad_requests_said is None else f"; {self._bad_requests} since the last report"
        self._bad_requests_said, self._bad_requests = now, 0
        self.say(f"refused a request that is not HTTP within limits ({type(error).__name__}){since}")

    def _loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in _OUT_OF_RESOURCES:
            self.out_of_resources(error)  # asyncio's "socket.accept() out of system resource", with a traceback
        elif self._previous_handler is not None:
            self._previous_handler(loop, context)
        else:
            loop.default_exception_handler(context)

    def watch_resources(self) -> None:
        """Running out of descriptors said in one line (see ``out_of_resources``): the event loop's failures to
        accept, and aiohttp's when a handler cannot open a file."""
        loop = asyncio.get_running_loop()
        self._previous_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_exception)
        self._log_filter = _ResourceFilter(self)
        logging.getLogger("aiohttp.server").addFilter(self._log_filter)

    def unwatch_resources(self) -> None:
        asyncio.get_running_loop().set_exception_handler(self._previous_handler)
        if self._log_filter is not None:
            logging.getLogger("aiohttp.server").removeFilter(self._log_filter)
            self._log_filter = None

    async def close_all(self) -> None:
        """End every session: each app asked to quit (then made to), and each visitor's websocket closed."""
        sessions = list(self.sessions.values())
        await asyncio.gather(*(session.app.close() for session in sessions if session.app is not None))
        # At once: each close waits (up to 10 s) for the browser's answer, which a vanished browser never sends.
        await asyncio.gather(
            *(session.websocket.close(code=1001, message=b"the server stopped") for session in sessions),
            return_exceptions=True,
        )
        # The handlers leave their sessions once their websockets have closed; a moment for them to say so.
        for _ in range(50):
            if not self.sessions:
                break
            await asyncio.sleep(0.02)

    def kill_all(self) -> None:
        """A second Ctrl-C during the stop: no more waiting for the apps."""
        for session in self.sessions.values():
            if session.app is not None:
                session.app.kill()


class _ResourceFilter(logging.Filter):
    """aiohttp's tracebacks for a descriptor that could not be had become the server's one line."""

    def __init__(self, server: NashplayServer) -> None:
        super().__init__()
        self.server = server

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, OSError) and error.errno in _OUT_OF_RESOURCES:
            self.server.out_of_resources(error)
            return False
        if isinstance(error, HttpProcessingError):
            self.server.bad_request(error)
            return False
        return True


# ---- running it


@dataclass(frozen=True)
class Listening:
    """Where the server ended up: the port taken (``--port 0``) and the URL to print."""

    port: int
    url: str


def browser_url(settings: ServeSettings, port: int) -> str:
    """The URL to open: a wildcard bind is reached at the loopback from this machine (elsewhere: this machine's
    address in its place), with the token."""
    wildcard_host = "[::1]" if ":" in settings.host else "127.0.0.1"
    host = wildcard_host if is_wildcard(settings.host) else url_host(settings.host)
    return f"http://{host}:{port}/?token={settings.token}"


@dataclass(frozen=True)
class Stopped:
    """Why the server stopped, and how many app sessions it closed on the way."""

    signum: int
    sessions: int


def serve(settings: ServeSettings, announce: Callable[[Listening], None], say: Callable[[str], None]) -> Stopped:
    """Serve until SIGINT, SIGTERM or SIGHUP, then close every session. Raises ``ServeError`` when the server cannot
    listen."""
    return asyncio.run(_serve(settings, announce, say))


@dataclass
class Running:
    """A server listening in the current event loop; ``stop`` ends its sessions, then the listening."""

    server: NashplayServer
    runner: web.AppRunner

    @property
    def url(self) -> str:
        return browser_url(self.server.settings, self.server.port)

    async def stop(self) -> None:
        try:
            await self.server.close_all()
            await self.runner.cleanup()
        finally:
            self.server.unwatch_resources()


async def start(settings: ServeSettings, say: Callable[[str], None]) -> Running:
    """Listen (the port taken is ``server.port``); raises ``ServeError`` when it cannot."""
    server = NashplayServer(settings, say=say)
    runner = web.AppRunner(
        server.make_app(),
        access_log=None,
        handle_signals=False,
        shutdown_timeout=SHUTDOWN_GRACE,
        keepalive_timeout=IDLE_TIMEOUT,
    )
    await runner.setup()
    server.watch_resources()
    try:
        site = web.TCPSite(runner, settings.host, settings.port)
        await site.start()
    except OSError as error:
        await runner.cleanup()
        server.unwatch_resources()
        raise _listen_error(settings, error) from None
    server.port = int(runner.addresses[0][1])
    return Running(server, runner)


async def _serve(settings: ServeSettings, announce: Callable[[Listening], None], say: Callable[[str], None]) -> Stopped:
    running = await start(settings, say)
    server = running.server
    announce(Listening(server.port, running.url))

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    received: list[int] = []

    def on_signal(signum: int) -> None:
        received.append(signum)
        if stop.is_set():
            server.kill_all()
        stop.set()

    stop_signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    for signum in stop_signals:
        loop.add_signal_handler(signum, on_signal, signum)
    try:
        await stop.wait()
        count = len(server.sessions)
        await running.stop()
    finally:
        for signum in stop_signals:
            loop.remove_signal_handler(signum)
    return Stopped(received[0], count)


def _listen_error(settings: ServeSettings, error: OSError) -> ServeError:
    import socket

    where = f"{settings.host} port {settings.port}"
    if isinstance(error, socket.gaierror):
        return ServeError(f"--host {settings.host!r} is not a known name or address ({error.strerror})", code=2)
    if error.errno == errno.EADDRINUSE:
        return ServeError(f"cannot listen on {where}: it is in use; choose another --port (0: any free port)")
    if error.errno == errno.EADDRNOTAVAIL:
        return ServeError(f"--host {settings.host!r} is not an address of this machine", code=2)
    if error.errno == errno.EACCES:
        return ServeError(f"cannot listen on {where}: permission denied (ports below 1024 need privileges)")
    return ServeError(f"cannot listen on {where}: {error.strerror or error}")
