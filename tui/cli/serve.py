"""``nashplay serve``: the whole app in web browsers, one app process per visitor (``tui.web.server``).

Safe by default: it listens on 127.0.0.1, and every request needs an access token (generated unless ``--token``
gives one; on the loopback too, as every account of the machine reaches it), which the printed URL carries. The
server and textual-serve (aiohttp) are imported only when the command runs: ``nashplay --help`` does not load them.
"""

from __future__ import annotations

import argparse
import ipaddress
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from core.errors import quoted
from tui.arguments import whole_number

if TYPE_CHECKING:
    from tui.web.server import Listening, ServeSettings

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Sessions at once by default: each is an app process (some 100 MB with the solvers loaded), and a machine of two
#: cores plays a handful of games smoothly.
DEFAULT_SESSIONS = 8
#: The most sessions at once: each is a process; beyond a few hundred the machine, not the limit, decides.
MAX_SESSIONS = 256
#: A token given on the command line: long enough not to be guessed, short enough for a URL, and only characters
#: that stand in a URL as they are.
MIN_TOKEN = 16
MAX_TOKEN = 256
_TOKEN = re.compile(r"[A-Za-z0-9._~-]+")
# A host name: dot-separated labels of letters, digits and hyphens (RFC 1123), at most 253 characters.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
INSTALL_HINT = (
    "serving to a browser needs textual-serve, which is not installed here: install it with "
    "'pip install textual-serve' (or reinstall nashplay: 'pip install -e .' in its folder)"
)

EPILOG = """\
examples:
  nashplay serve                              on this machine only: open the printed URL (it has the token)
  nashplay serve --port 8080 --max-sessions 4
  nashplay serve --host 0.0.0.0               on every address
  nashplay serve --contest-server 127.0.0.1   visitors may play on the contest server here (ports 10000, 10001)

Every request needs the access token, which the printed URL carries: on 127.0.0.1 too, as every account of this
machine can reach it. Each visitor (each browser) gets an app of their own, with the same screens and keys as in
the terminal, and a folder of their own for games in progress and settings (under the state folder's web/; the
1,000 most recently used are kept). The app's save and replay prompts stay inside the visitor's folder, and its
contest-server dialog connects only to the servers --contest-server names (none unless given).
"""


def host_text(text: str) -> str:
    """An argparse type for ``--host``: an IP address (IPv6 with or without brackets) or a host name."""
    host = text.strip()
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        pass
    if len(host) > 253 or _HOST_NAME.fullmatch(host) is None:
        raise argparse.ArgumentTypeError(f"expected an IP address or a host name, not {quoted(text)}")
    return host


def token_text(text: str) -> str:
    """An argparse type for ``--token``: URL-safe, long enough not to be guessed."""
    if not MIN_TOKEN <= len(text) <= MAX_TOKEN or _TOKEN.fullmatch(text) is None:
        raise argparse.ArgumentTypeError(
            f"must be {MIN_TOKEN} to {MAX_TOKEN} letters, digits or . _ ~ - (it goes in the URL), not {quoted(text)}"
        )
    return text


def contest_server_text(text: str) -> tuple[tuple[str, int], ...]:
    """An argparse type for ``--contest-server``: ``HOST:PORT`` (one port), or ``HOST`` alone (the contest's two:
    10000, where one moves first, and 10001); an IPv6 address in brackets when a port follows."""
    from core.contest import FIRST_PORT, SECOND_PORT

    given = text.strip()
    host, port_text = given, ""
    if given.startswith("["):
        close = given.find("]")
        host, rest = given[: close + 1], given[close + 1 :]
        if close < 0 or (rest and not rest.startswith(":")):
            raise argparse.ArgumentTypeError(f"expected HOST or HOST:PORT, not {quoted(text)}")
        port_text = rest[1:]
        if rest == ":":
            raise argparse.ArgumentTypeError(f"expected a port after the colon, not {quoted(text)}")
    elif given.count(":") == 1:
        host, port_text = given.split(":")
        if not port_text:
            raise argparse.ArgumentTypeError(f"expected a port after the colon, not {quoted(text)}")
    host = host_text(host)
    if not port_text:
        return ((host, FIRST_PORT), (host, SECOND_PORT))
    if re.fullmatch(r"[0-9]{1,5}", port_text) is None or not 1 <= int(port_text) <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be 1..65,535, not {quoted(port_text)}")
    return ((host, int(port_text)),)


def add_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: Sequence[argparse.ArgumentParser] = ()
) -> None:
    """``parents``: the display options (``--ascii``, ``--theme``), passed on to every visitor's app."""
    serve = commands.add_parser(
        "serve",
        parents=list(parents),
        help="serve the app to web browsers (each visitor plays in an app of their own)",
        # Lines broken by hand: the raw formatter (for the examples) leaves the description as it is.
        description="Serve the whole app (the menu, every game, the advice, replays and reviews) to web browsers\n"
        "with textual-serve: each visitor gets an app process of their own behind a websocket.\n"
        "Listens on 127.0.0.1 unless --host says otherwise; every request needs the access token\n"
        "(generated unless --token gives one), which the printed URL carries. Ctrl-C stops the server\n"
        "and every app.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument(
        "--host",
        type=host_text,
        default=DEFAULT_HOST,
        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only; 0.0.0.0: every address)",
    )
    serve.add_argument(
        "--port",
        type=whole_number(0, 65535, "(0: any free port)"),
        default=DEFAULT_PORT,
        help=f"the TCP port (default {DEFAULT_PORT}; 0: any free one, which the printed URL gives)",
    )
    serve.add_argument(
        "--token",
        type=token_text,
        help="the access token every request must carry, on the loopback too (default: a random one, printed in "
        "the URL); it shows in the process list, so prefer the generated one, but behind a reverse proxy give one "
        "(then the host names the proxy passes on are answered, not only the loopback's)",
    )
    serve.add_argument(
        "--max-sessions",
        type=whole_number(1, MAX_SESSIONS, "sessions"),
        default=DEFAULT_SESSIONS,
        help=f"visitors playing at once (default {DEFAULT_SESSIONS}); the next one gets a page saying the server "
        "is full",
    )
    serve.add_argument(
        "--contest-server",
        type=contest_server_text,
        action="append",
        default=[],
        metavar="HOST[:PORT]",
        help="a Geister contest server the visitors may play on (HOST alone: its ports 10000 and 10001); may be "
        "given again for more. By default none: this machine would connect wherever a visitor says",
    )


def settings_from_args(args: argparse.Namespace) -> ServeSettings:
    from tui.storage import state_dir
    from tui.web.server import ServeSettings, app_command, new_token
    from tui.web.visitor import normal_host

    # Always a token: on the loopback too, where every account of the machine (and every process) can connect.
    token = args.token or new_token()
    display = ["--ascii"] if getattr(args, "ascii", False) else []
    if getattr(args, "theme", None) is not None:
        display += ["--theme", args.theme]
    return ServeSettings(
        host=args.host,
        port=args.port,
        token=token,
        max_sessions=args.max_sessions,
        sessions_dir=state_dir() / "web",
        command=app_command(display),
        # A token of one's own is how a reverse proxy in front is set up: it passes on its users' host names.
        loopback_names_only=args.token is None,
        contest_servers=tuple(
            dict.fromkeys((normal_host(host), port) for given in args.contest_server for host, port in given)
        ),
    )


def _check_theme(args: argparse.Namespace) -> None:
    """An unknown theme is refused here, once, not by every visitor's app as it starts (the same words as the
    terminal app's)."""
    from tui.theme import theme_names

    theme = getattr(args, "theme", None)
    known = theme_names()
    if theme is not None and theme not in known:
        print(f"nashplay: error: unknown theme {theme[:40]!r}: expected one of {', '.join(known)}", file=sys.stderr)
        raise SystemExit(2)


def _prepare_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as error:
        print(
            f"nashplay serve: error: cannot make the visitors' folder {folder}: {error.strerror or error}",
            file=sys.stderr,
        )
        raise SystemExit(1) from None


def _announce(settings: ServeSettings, listening: Listening) -> None:
    """The first lines: the URL, then what is served, where, and how to stop."""
    from tui.web.server import is_wildcard

    print(f"nashplay serve: open {listening.url} in a browser", flush=True)
    if is_wildcard(settings.host):
        print(
            f"  listening on every address of this machine ({settings.host} port {listening.port}): from another "
            "machine, put this machine's address in the URL in place of the loopback",
            flush=True,
        )
    print("  requests without the token are refused (403)", flush=True)
    limit = settings.max_sessions
    print(
        f"  at most {limit} session{'' if limit == 1 else 's'} at once; each visitor's games and settings are kept in "
        f"a folder of their own under {settings.sessions_dir} (the {settings.max_folders:,} most recently used)",
        flush=True,
    )
    if settings.contest_servers:
        from tui.web.visitor import allowed_text

        print(f"  visitors may play on the contest server at {allowed_text(settings.contest_servers)}", flush=True)
    else:
        print("  visitors may not play on contest servers (--contest-server HOST:PORT allows one)", flush=True)
    print("  Ctrl-C stops the server and its app sessions", flush=True)


def _say(text: str) -> None:
    print(f"  {text}", flush=True)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    _check_theme(args)
    try:
        import textual_serve.app_service  # noqa: F401 (only to learn whether it is installed)
    except ImportError:
        print(f"nashplay serve: error: {INSTALL_HINT}", file=sys.stderr)
        return 1
    import signal

    from tui.web.server import ServeError, serve

    settings = settings_from_args(args)
    _prepare_folder(settings.sessions_dir)
    try:
        stopped = serve(settings, lambda listening: _announce(settings, listening), _say)
    except ServeError as error:
        print(f"nashplay serve: error: {error}", file=sys.stderr)
        return error.code
    closed = f"closed {stopped.sessions} app session{'' if stopped.sessions == 1 else 's'}"
    if stopped.signum == signal.SIGINT:
        print(f"nashplay serve: interrupted; {closed}", file=sys.stderr)
    else:
        print(f"nashplay serve: stopped by {signal.Signals(stopped.signum).name}; {closed}", file=sys.stderr)
    return 128 + stopped.signum
