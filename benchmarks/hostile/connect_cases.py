"""Item 6, ``nashplay connect`` (the installed command, as an AI player) against a misbehaving contest server
(``tests/fake_server.py``: results before ``SET?``, garbage, disconnects and bad boards mid-game, rejected moves,
split and joined writes, servers that drop or say nothing), and killed (``kill -9``) mid-game: it ends in time with
its errors in one line each, counts no result it was not given, and keeps the record of a game in progress."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import time
from pathlib import Path

from fake_server import HandlerThread, ServerOptions, ServerThread

from core.record import Record
from hostile.common import NASHPLAY, Outcome, Ran, clean, crash, lost, nashplay, short

#: The first player's board before any move (the protocol page's example).
BOARD = "14B24R34R44B15B25R35R45B41u31u21u11u40u30u20u10u"
#: Seconds ``connect`` may take before it counts as a hang (the cases give it short timeouts of its own).
CONNECT_TIMEOUT = 40.0


class Scripted:
    """A server that says ``lines`` (bytes, as they are), then waits for the client to close (or closes itself)."""

    def __init__(self, lines: list[bytes], close: bool = False) -> None:
        self.lines = lines
        self.close = close

    async def __call__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            for line in self.lines:
                writer.write(line)
                await writer.drain()
            if not self.close:
                await asyncio.wait_for(reader.read(), 30)


def connect(port: int, save: Path, seed: int, *extra: str) -> Ran:
    return nashplay(
        "connect",
        "--port",
        str(port),
        "--as",
        "random",
        "--seed",
        str(seed),
        "--save",
        str(save),
        *extra,
        timeout=CONNECT_TIMEOUT,
    )


def judged(ran: Ran, what: str) -> Outcome | None:
    """A crash (a hang, a traceback, an exit code but 0 and 1, an error over several lines), or ``None``."""
    if ran.hung:
        return crash(f"{what}: {ran.shown}: no end in {ran.seconds:.0f} s (killed)")
    if "Traceback" in ran.err + ran.out or ran.returncode not in (0, 1):
        return crash(f"{what}: exit {ran.returncode}: {short(ran.err.strip()[-300:], 300)}")
    if any(len(line) > 600 for line in ran.err.splitlines()):
        return crash(f"{what}: an error line of {max(len(x) for x in ran.err.splitlines())} characters")
    return None


def records(save: Path) -> list[Path]:
    return sorted(save.glob("*.ngr"))


def garbage(rng: random.Random) -> bytes:
    return rng.choice(
        [
            os.urandom(rng.randrange(1, 200)) + b"\r\n",
            b"x" * rng.randrange(100_000, 2_000_000),
            "SET?é\udcff".encode("utf-8", "surrogateescape") + b"\r\n",
            b"MOV?" + b"9" * 5000 + b"\r\n",
            b"\x00" * 100 + b"\r\n",
            b"SET?" + os.urandom(50) + b"\r\n",
            b"\r\n" * 1000,
        ]
    )


def misbehaving_server(rng: random.Random, work: Path, sound: bool) -> Outcome:
    save = work / "records"
    save.mkdir()
    seed = rng.randrange(10**6)
    ply = rng.randrange(0, 40)
    variant = (
        "a well-behaved server"
        if sound
        else rng.choice(
            [
                "a result before SET?",
                "garbage before SET?",
                "closed mid-game",
                "a bad board mid-game",
                "a rejected move",
                "split writes",
                "joined writes",
                "drops every connection",
                "silent after accepting",
                "SET? then closes",
            ]
        )
    )
    what = f"{variant}" + (f" at ply {ply}" if "mid-game" in variant or variant == "a rejected move" else "")
    fast = ("--connect-timeout", "3", "--start-timeout", "3")
    if variant in (
        "a result before SET?",
        "garbage before SET?",
        "drops every connection",
        "silent after accepting",
        "SET? then closes",
    ):
        if variant == "a result before SET?":
            result = rng.choice(["WON", "LST", "DRW"])
            lines = [f"{result}:{BOARD}\r\n".encode()] if rng.random() < 0.7 else [f"{result}\r\n".encode()]
            handler = Scripted(lines)
        elif variant == "garbage before SET?":
            handler = Scripted([garbage(rng) for _ in range(rng.randrange(1, 3))])
        elif variant == "drops every connection":
            handler = Scripted([], close=True)
        elif variant == "silent after accepting":
            handler = Scripted([])
        else:
            handler = Scripted([b"SET?\r\n"], close=True)
        with HandlerThread(handler) as server:
            ran = connect(server.port, save, seed, *fast)
        if (failure := judged(ran, what)) is not None:
            return failure
        if ran.returncode != 1:
            return lost(f"{what}: exit {ran.returncode}: taken as a game ({short(ran.out.strip(), 160)})")
        if "0 wins, 0 draws, 0 losses" not in ran.out:
            return lost(f"{what}: a result counted that the server never gave: {short(ran.out.strip(), 160)}")
        # SET? begins a game (its record, unfinished, may be kept); a result or garbage before it begins none.
        began = variant == "SET? then closes"
        if records(save) and not (began and all(Record.load(p).result == "*" for p in records(save))):
            return lost(f"{what}: a record kept of a game that never began: {records(save)[0].name}")
        return clean(f"{what}: {short(ran.err.strip().splitlines()[-1] if ran.err.strip() else '', 100)}")
    options = ServerOptions()
    if variant == "closed mid-game":
        options.close_at_ply = ply
    elif variant == "a bad board mid-game":
        options.malformed_at_ply = ply
        options.malformed_line = rng.choice(
            ["MOV?this is not a board", "MOV?" + "9" * 5000, "MOV?" + "u" * 48, "MOV?14B24R", "WON?", "DRW:" + "x" * 48]
        )
    elif variant == "a rejected move":
        options.reject_at_ply = ply
    elif variant == "split writes":
        options.split_writes = rng.randrange(2, 8)
    elif variant == "joined writes":
        options.join_writes = True
    with ServerThread(options, opponent="random", games=1, seed=seed) as server:
        ran = connect(server.ports[0], save, seed, *fast)
    if (failure := judged(ran, what)) is not None:
        return failure
    kept = records(save)
    if variant in ("closed mid-game", "a bad board mid-game") and ply >= 2:
        if not kept:
            return lost(f"{what}: the game in progress left no record ({short(ran.err.strip()[-160:], 160)})")
        record = Record.load(kept[0])
        if record.result == "*" and len(record.moves) < ply - 2:  # else the game ended before the ply
            return lost(f"{what}: the record holds {len(record.moves)} moves of {ply}")
        try:
            record.replay()
        except ValueError as error:
            return lost(f"{what}: the record kept does not replay: {error}")
    if variant in ("a well-behaved server", "split writes", "joined writes", "a rejected move"):
        if ran.returncode != 0 and variant != "a rejected move":
            return lost(f"{what}: exit {ran.returncode}: {short(ran.err.strip()[-200:], 200)}")
        if not kept:
            return lost(f"{what}: the game left no record")
        record = Record.load(kept[0])
        if variant != "a rejected move" and record.result == "*":
            return lost(f"{what}: the finished game's record has no result")
    return clean(f"{what}: exit {ran.returncode}, {len(kept)} record(s)")


def killed_mid_game(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """``kill -9`` of ``connect`` while the opponent thinks over a move: the record on disk holds the game up to
    the last board received, unfinished, and replays."""
    save = work / "records"
    save.mkdir()
    seed = rng.randrange(10**6)
    hold = None if sound else rng.randrange(1, 25)
    with ServerThread(opponent="random", games=1, seed=seed, hold_after=hold) as server:
        argv = [
            str(NASHPLAY),
            "connect",
            "--port",
            str(server.ports[0]),
            "--as",
            "random",
            "--seed",
            str(seed),
            "--save",
            str(save),
        ]
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ)
        )
        try:
            if sound:
                _, err = process.communicate(timeout=CONNECT_TIMEOUT)
                if process.returncode != 0:
                    return lost(f"a sound game: exit {process.returncode}: {short(err.decode()[-200:], 200)}")
            else:
                if not server.holding.wait(CONNECT_TIMEOUT):
                    return crash(f"the game never reached move {hold}")
                time.sleep(rng.uniform(0.0, 0.3))
                os.kill(process.pid, signal.SIGKILL)
                process.communicate(timeout=CONNECT_TIMEOUT)
        except subprocess.TimeoutExpired:
            return crash(f"connect did not end in {CONNECT_TIMEOUT:.0f} s")
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
    kept = records(save)
    what = "a sound game" if sound else f"killed at its move {hold + 1 if hold else 0}"
    if len(kept) != 1:
        return lost(f"{what}: {len(kept)} records kept, not one")
    record = Record.load(kept[0])
    try:
        record.replay()
    except ValueError as error:
        return lost(f"{what}: the record kept does not replay: {error}")
    if sound:
        return clean(what) if record.result != "*" else lost(f"{what}: the finished game's record has no result")
    assert hold is not None
    if record.result != "*" or len(record.moves) not in (2 * hold, 2 * hold + 1):
        return lost(f"{what}: the record holds {len(record.moves)} moves (result {record.result}), not {2 * hold}")
    return clean(f"{what}: {len(record.moves)} moves kept")
