"""What ``nashplay serve`` tells each visitor's app, and what that app may then do: read on both sides.

The server sets these in each visitor's app process (``tui.web.server``), and the app reads them where it would
otherwise reach beyond the visitor (``tui.screens.ask_path``, ``tui.net``). Whoever has the URL types in that app,
and the app runs as the account that serves: its prompts must keep to the visitor's folder, and it must not open
connections where the visitor says (the serving machine would connect for them: to its own loopback, to the
machines of its network, port after port).

Nothing here imports the server, aiohttp or Textual: the app imports it at no cost.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Iterable, Mapping

#: Set (to 1) in each visitor's app: it serves a visitor of ``nashplay serve``.
WEB_VISITOR_ENV = "NASHPLAY_WEB_VISITOR"
#: The contest servers a visitor's app may connect to, as ``nashplay serve --contest-server`` allowed them:
#: ``host:port`` separated by commas (IPv6 addresses in brackets); empty or unset, none.
CONTEST_SERVERS_ENV = "NASHPLAY_WEB_CONTEST_SERVERS"
#: The refusal when the serve's owner allowed no contest server (the one line the dialog and the screen show).
NOT_ALLOWED = "Refused: the server's owner has not allowed contest connections"

ContestAddress = tuple[str, int]


def serves_a_visitor(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this app runs for a visitor of ``nashplay serve``."""
    return (os.environ if environ is None else environ).get(WEB_VISITOR_ENV) == "1"


def normal_host(host: str) -> str:
    """``host`` as it is compared: an IP address in its usual form (IPv6 without brackets), a name in lower case
    without a final dot."""
    bare = host.strip().strip("[]")
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        return bare.lower().rstrip(".")


def address_text(host: str, port: int) -> str:
    """``host:port``, an IPv6 address in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def contest_servers_value(addresses: Iterable[ContestAddress]) -> str:
    """The environment's form of ``addresses`` (``CONTEST_SERVERS_ENV``)."""
    return ",".join(address_text(normal_host(host), port) for host, port in addresses)


def allowed_contest_servers(environ: Mapping[str, str] | None = None) -> tuple[ContestAddress, ...]:
    """The contest servers a visitor's app may connect to, in the order given; an entry that does not read as
    ``host:port`` is left out (nothing is allowed by a mistake)."""
    value = (os.environ if environ is None else environ).get(CONTEST_SERVERS_ENV, "")
    allowed: list[ContestAddress] = []
    for entry in value.split(","):
        host, colon, port = entry.strip().rpartition(":")
        if not colon or not host or re.fullmatch(r"[0-9]{1,5}", port) is None or not 1 <= int(port) <= 65535:
            continue
        if ":" in host and not (host.startswith("[") and host.endswith("]")):
            continue  # an IPv6 address without its brackets: its last group would read as the port
        address = (normal_host(host), int(port))
        if address not in allowed:
            allowed.append(address)
    return tuple(allowed)


def allowed_text(allowed: Iterable[ContestAddress]) -> str:
    """The allowed servers in words: ``127.0.0.1 port 10000 or 10001``, hosts joined by ``; ``."""
    ports: dict[str, list[int]] = {}
    for host, port in allowed:
        ports.setdefault(host, []).append(port)
    return "; ".join(f"{host} port {' or '.join(str(port) for port in each)}" for host, each in ports.items())


def contest_offered(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the app offers to play on a contest server: always in the user's own terminal; for a visitor of
    ``nashplay serve`` only where its owner allowed one (else the menu would offer what it can only refuse)."""
    return not serves_a_visitor(environ) or bool(allowed_contest_servers(environ))


def contest_refusal(host: str, port: int, environ: Mapping[str, str] | None = None) -> str | None:
    """Why a visitor's app may not connect to the contest server at ``host``:``port`` (one line), or ``None``: it
    may (the address is one the serve's owner allowed, or the app serves no visitor: the user's own connections go
    anywhere)."""
    if not serves_a_visitor(environ):
        return None
    allowed = allowed_contest_servers(environ)
    if not allowed:
        return NOT_ALLOWED
    if (normal_host(host), port) in allowed:
        return None
    allows = allowed_text(allowed)
    return f"Refused: in the browser, contest connections go only where the server's owner allows: {allows}"
