"""The app itself, headless (Textual's pilot, in the harness's process, as the tests drive it): a web visitor's save
and replay prompts and contest dialog (item 1), hostile records as save slots (item 3), named pipes, folders and
devices in the state folder (item 4), markup in paths, tags and names (item 5).

A web visitor's app is set up as ``nashplay serve`` starts it (``NASHPLAY_WEB_VISITOR=1``, the visitor's folder as its
state folder and working directory); around it, another visitor's folder with a game in progress, the owner's own
games, a home folder and a folder outside, each holding a record marked ``SECRET``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path

from hostile_files import SAVE_DAMAGE, SECRET_DAMAGE, play_sound_game
from pilot_helpers import play_app
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from core.record import Record, printable
from hostile.common import (
    NASHPLAY,
    Outcome,
    changed,
    clean,
    crash,
    leaked,
    lost,
    nim_text,
    run_command,
    short,
    snapshot,
    until,
    write_text,
)
from tui.app import NashplayApp, StartRequest
from tui.saves import GameKeeper, SaveStore
from tui.screens.ask_path import AskPath, AskServer
from tui.screens.game import GameScreen
from tui.screens.menu import MenuScreen
from tui.screens.recent import RecentGamesScreen
from tui.screens.record_viewer import RecordViewerScreen
from tui.screens.replay import ReplayScreen
from tui.session import GameSession, resumable

SIZE = (100, 32)
VISITOR = "0123456789abcdef0123456789abcdef"
OTHER = "fedcba9876543210fedcba9876543210"
#: Seconds the app may take to answer one step (a key, a screen) before the case counts as a hang.
STEP = 20.0


def run_app(
    app: NashplayApp,
    body: Callable[[NashplayApp, Pilot[None]], Awaitable[Outcome]],
    seconds: float = 45.0,
    size: tuple[int, int] = SIZE,
    what: str = "",
) -> Outcome:
    """Run ``app`` headless and ``body`` on it; the app dying, raising or ending with an error is a crash (said
    after ``what``, the case's input)."""
    outcome = _run_app(app, body, seconds, size)
    if outcome.kind != "clean" and what and not outcome.detail.startswith(what):
        outcome.detail = f"{what}: {outcome.detail}"
    return outcome


def _run_app(
    app: NashplayApp,
    body: Callable[[NashplayApp, Pilot[None]], Awaitable[Outcome]],
    seconds: float,
    size: tuple[int, int],
) -> Outcome:

    async def main() -> Outcome:
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            outcome = await body(app, pilot)
            if not app.is_running and outcome.kind == "clean" and app.return_code not in (0, None):
                return crash(f"the app ended with {app.return_code}")
            return outcome

    try:
        outcome = asyncio.run(asyncio.wait_for(main(), seconds))
    except TimeoutError:
        return crash(f"the app did not get through the case in {seconds:.0f} s: it hangs")
    except Exception as error:
        frames = traceback.extract_tb(error.__traceback__)
        who = "the harness raised" if frames and "/benchmarks/" in frames[-1].filename else "the app crashed"
        return crash(f"{who}: {type(error).__name__}: {short(str(error), 300)} ({raised_at(error)})")
    if app.return_code not in (0, None) and outcome.kind == "clean":
        return crash(f"the app ended with exit code {app.return_code}")
    return outcome


def raised_at(error: BaseException) -> str:
    """Where ``error`` was raised, and the last frame of nashplay's own code it went through."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [
        f for f in frames if "/work/" in f.filename and "/benchmarks/" not in f.filename and "/.venv/" not in f.filename
    ]
    where = [frames[-1], *ours[-1:]] if frames else []
    return ", ".join(f"{Path(f.filename).name}:{f.lineno} in {f.name}" for f in where) or "no traceback"


def said(app: NashplayApp) -> str:
    """Everything the app says in words: its notifications, the menu's or a game's message, a dialog's problem."""
    texts = [str(n.message) for n in app._notifications]
    screen = app.screen
    for selector in ("#menu-message", "#path-problem", "#server-problem"):
        with contextlib.suppress(Exception):
            texts.append(str(screen.query_one(selector).render()))
    texts.append(str(getattr(screen, "message_text", "")))
    return "\n".join(texts)


def sound_session(rng: random.Random, variant: str = "geister") -> GameSession:
    return play_sound_game(rng, variant, 2, 12)


def keep_sound_game(state: Path, rng: random.Random) -> tuple[str, GameSession]:
    """A game in progress saved as the app saves it; its slot id."""
    session = sound_session(rng)
    while session.is_over or not session.state.moves():
        session = sound_session(rng)
    keeper = GameKeeper(SaveStore(state))
    keeper.keep(session.record(reveal=False), session.secrets())
    keeper.release()
    assert keeper.slot is not None
    return keeper.slot.id, session


def run_app_then_resume(
    body: Callable[[NashplayApp, Pilot[None]], Awaitable[Outcome]], label: str, state: Path, sound_id: str
) -> Outcome:
    """``body`` in a fresh app, then the sound save checked: still there, and it resumes."""
    outcome = run_app(NashplayApp(ai_delay=0), body, what=label)
    if outcome.kind != "clean":
        return outcome
    resumes = still_resumes(state, sound_id)
    if resumes.kind != "clean":
        resumes.detail = f"{label}: {resumes.detail}"
        return resumes
    return outcome


def still_resumes(state: Path, slot_id: str) -> Outcome:
    """The sound save is still there, and resumes."""
    slot = SaveStore(state).slot(slot_id)
    if not slot.path.is_file():
        return lost(f"the sound save {slot_id} is gone from games/")
    try:
        resumable(slot.load())
    except Exception as error:
        return lost(f"the sound save no longer resumes: {type(error).__name__}: {short(str(error), 200)}")
    return clean()


def menu_lists(app: NashplayApp, slot_id: str) -> bool:
    games = app.screen.query_one("#games", OptionList)
    return any(games.get_option_at_index(i).id == f"resume:{slot_id}" for i in range(games.option_count))


# ------------------------------------------------------------------------------------------------ a web visitor


def visitor_layout(work: Path) -> Path:
    """The visitor's folder and what surrounds it (see the module docstring); the app set up as serve sets it."""
    state = work / "state"
    folder = state / "web" / VISITOR
    folder.mkdir(parents=True)
    (state / "web" / OTHER / "games").mkdir(parents=True)
    (state / "games").mkdir(parents=True)
    (work / "home").mkdir()
    (work / "outside").mkdir()
    (folder / "out").symlink_to(work / "outside")
    (folder / "link").symlink_to(state / "web" / OTHER / "games")
    secret = nim_text('[Start "3,4,5"]\n[Event "SECRET-{}"]', "1. 1:1 *")
    write_text(state / "web" / OTHER / "games" / "in-progress.ngr", secret.format("other visitor"))
    write_text(state / "games" / "owner.ngr", secret.format("owner"))
    write_text(work / "outside" / "x.ngr", secret.format("outside"))
    write_text(work / "home" / "x.ngr", secret.format("home"))
    write_text(work / "outside" / "notes.txt", "SECRET-notes, not a record\n")
    write_text(folder / "mine.ngr", nim_text('[Start "3,4,5"]\n[Event "mine"]', "1. 1:1 *"))
    os.environ.update(NASHPLAY_WEB_VISITOR="1", NASHPLAY_STATE_DIR=str(folder), HOME=str(work / "home"))
    os.environ.pop("NASHPLAY_WEB_CONTEST_SERVERS", None)
    os.chdir(folder)
    return folder


#: The paths the issue's hostile visitor typed, and more of their kind. Every one of them lands inside the case's
#: folder if it is not refused (the home folder is the case's too): a save prompt that let one through must not
#: write over this machine's own files (as root, a save "to /dev/null" replaced the device with a file).
ESCAPES = [
    "../../games/planted.ngr",
    f"../{OTHER}/games/x.ngr",
    "~/x.ngr",
    "out/x.ngr",
    "records/../../x.ngr",
    "link/planted.ngr",
    "/proc/self/cwd/../x.ngr",
    f"/proc/self/cwd/../{OTHER}/games/x.ngr",
    "~nosuchuser-of-nashplay/x.ngr",
    "records/./../records/../../../x.ngr",
    "../../../x.ngr",
    "a" * 300 + ".ngr",
    "x\x00.ngr",
    "\ud800.ngr",
]
PARTS = ["..", ".", "~", "out", "link", "records", "games", "x.ngr", "", "/", "a", OTHER, "web", "state", "..."]


def escape_path(rng: random.Random, work: Path) -> str:
    """A path that may leave the visitor's folder, but never the case's folder (see ``ESCAPES``)."""
    for _ in range(50):
        kind = rng.random()
        if kind < 0.35:
            typed = rng.choice(ESCAPES)
        elif kind < 0.55:
            where = rng.choice(["outside", "home", "state/games", f"state/web/{OTHER}/games", "state/web", "."])
            typed = str(work / where / rng.choice(["x.ngr", "planted.ngr", ".hidden.ngr"]))
        else:
            parts = [rng.choice(PARTS) for _ in range(rng.randrange(1, 9))]
            typed = "/".join(parts).lstrip("/") + rng.choice(["", ".ngr", "/x.ngr"])
        if within(work, typed):
            return typed
    return ESCAPES[0]


def within(work: Path, typed: str) -> bool:
    """Whether ``typed``, followed from the visitor's folder as a save would follow it, stays in ``work``."""
    if "\x00" in typed:
        return True  # no file system takes it
    home = work / "home"
    if typed.startswith("~"):
        if typed != "~" and not typed.startswith("~/"):
            return typed.startswith("~nosuchuser")
        typed = str(home) + typed[1:]
    try:
        landing = (work / "state" / "web" / VISITOR / typed).resolve()
    except (OSError, RuntimeError, ValueError):
        return True
    return landing.is_relative_to(work.resolve())


def save_prompt(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """The save prompt (``s`` in a game) of a visitor's app: a path leaving their folder is refused in one line and
    nothing is written outside it; a path inside is saved."""
    folder = visitor_layout(work)
    typed = (
        (rng.choice(["records/", "", "games2/"]) + f"mine-{rng.randrange(1000)}.ngr")
        if sound
        else escape_path(rng, work)
    )
    before = snapshot(work, (folder, work / "cache", work / "tmp"))

    async def body(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
        screen = app.screen
        if not isinstance(screen, GameScreen):
            return crash(f"the game did not open: {screen!r}")
        await pilot.press("s")
        screen.query_one("#move-input", Input).value = typed
        await pilot.press("enter")
        await pilot.pause()
        message = screen.message_text
        if "\n" in message.strip():
            return crash(f"typed {short(typed, 80)!r}: the answer is not one line: {short(message, 200)}")
        if sound:
            target = folder / typed
            if not target.is_file() or not message.startswith("Saved to"):
                return lost(f"typed {typed!r} in the visitor's folder: not saved ({short(message, 120)})")
        return clean(f"typed {short(typed, 60)!r}: {short(message, 80)}")

    outcome = run_app(play_app(), body, what=f"typed {short(typed, 80)!r}")
    outside = changed(before, snapshot(work, (folder, work / "cache", work / "tmp")))
    if outside:
        return leaked(
            f"typed {short(typed, 80)!r} in the save prompt: written outside the visitor's folder: {outside[:2]}"
        )
    return outcome


def replay_prompt(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """The replay prompt (``o`` on the menu) of a visitor's app: another visitor's game in progress, the owner's
    games, files outside and the secret of the visitor's own game in progress are never opened or quoted."""
    folder = visitor_layout(work)
    slot_id, session = keep_sound_game(folder, rng)
    hidden = [value for value in session.secrets().values() if len(value) >= 4]
    secret_file = f"games/{slot_id}.secret"
    targets = [
        f"../{OTHER}/games/in-progress.ngr",
        "../../games/owner.ngr",
        "out/x.ngr",
        "link/in-progress.ngr",
        "~/x.ngr",
        "~/../outside/x.ngr",
        "../../../outside/x.ngr",
        "../../../home/x.ngr",
        f"/proc/self/cwd/../{OTHER}/games/in-progress.ngr",
        "out/notes.txt",
        "link/../../../games/owner.ngr",
        f"records/../../{OTHER}/games/in-progress.ngr",
        str(work / "state" / "web" / OTHER / "games" / "in-progress.ngr"),
        str(work / "state" / "games" / "owner.ngr"),
        str(work / "outside" / "x.ngr"),
        f"{folder}/../{OTHER}//games/./in-progress.ngr",
        secret_file,
        str(folder / secret_file),
    ]
    typed = (
        rng.choice(["mine.ngr", str(folder / "mine.ngr"), f"./games/{slot_id}.ngr"]) if sound else rng.choice(targets)
    )

    async def body(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
        if not await until(pilot, lambda: isinstance(app.screen, MenuScreen), STEP):
            return crash("the menu never appeared")
        await pilot.press("o")
        if not await until(pilot, lambda: isinstance(app.screen, AskPath), STEP):
            return crash("the replay prompt never opened")
        app.screen.query_one("#path", Input).value = typed
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, AskPath) or _problem(app) != "", STEP)
        await pilot.pause()
        screen, words = app.screen, said(app)
        if "SECRET" in words or any(value in words for value in hidden):
            return leaked(f"typed {typed!r}: the app quoted what it must not: {short(words, 200)}")
        if isinstance(screen, ReplayScreen | RecordViewerScreen):
            event = screen.record.tags.get("Event", "")
            if "SECRET" in event:
                return leaked(f"typed {typed!r}: the record of the {event.removeprefix('SECRET-')} opened")
            if sound:
                return clean("the visitor's own record opened")
            return clean(f"typed {typed!r}: opened {event!r}")
        if sound:
            return lost(f"typed {typed!r}: the visitor's own record did not open: {short(words, 160)}")
        problem = _problem(app)
        if "\n" in problem.strip():
            return crash(f"typed {typed!r}: the refusal is not one line: {short(problem, 200)}")
        return clean(f"typed {short(typed, 60)!r}: {short(problem or words, 80)}")

    return run_app(NashplayApp(ai_delay=0), body, what=f"typed {short(typed, 80)!r}")


def _problem(app: NashplayApp) -> str:
    with contextlib.suppress(Exception):
        if isinstance(app.screen, AskPath):
            return str(app.screen.query_one("#path-problem").render())
    return ""


#: Ways of writing this machine's own addresses (the listeners count who reaches them); no other machine is ever
#: named, so that a dialog that let one through would not reach out.
HOSTS = [
    "127.0.0.1",
    "localhost",
    "127.1",
    "127.0.0.2",
    "0.0.0.0",
    "[::1]",
    "::1",
    "::ffff:127.0.0.1",
    "0x7f000001",
    "2130706433",
    "127.0.0.1.",
    "LOCALHOST",
    " 127.0.0.1 ",
    "127.000.000.001",
    "localhost.",
    "[::ffff:7f00:1]",
    "[/]",
    "",
    "a" * 300,
    "127.0.0.3",
    "::",
    "[::]",
]


class Listener:
    """A TCP port that counts who connects to it (IPv4 and IPv6, every address)."""

    def __init__(self) -> None:
        self.accepted = 0
        self.sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("::", 0))
        self.sock.listen(16)
        self.port = int(self.sock.getsockname()[1])
        self.server: asyncio.Server | None = None

    async def start(self) -> None:
        async def count(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.accepted += 1
            with contextlib.suppress(Exception):
                await reader.read()
            writer.close()

        self.server = await asyncio.start_server(count, sock=self.sock)

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
        self.sock.close()


def contest_dialog(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """A visitor's contest-server dialog: it connects only where the serve's owner allowed (``--contest-server``),
    however the host and port are written; a listener on another port of this machine counts who reaches it."""
    visitor_layout(work)
    allowed, forbidden = Listener(), Listener()
    hosts_allowed = rng.choice(["none", "one", "both"]) if not sound else rng.choice(["one", "both"])
    value = {"none": "", "one": f"127.0.0.1:{allowed.port}", "both": f"127.0.0.1:{allowed.port},[::1]:{allowed.port}"}
    os.environ["NASHPLAY_WEB_CONTEST_SERVERS"] = value[hosts_allowed]
    if sound:
        host, port = "127.0.0.1", str(allowed.port)
    else:
        host = rng.choice(HOSTS)
        port = rng.choice(
            [
                str(forbidden.port),
                str(forbidden.port),
                "0" + str(forbidden.port),
                f"+{forbidden.port}",
                str(forbidden.port + 65536),
                f" {forbidden.port}",
                "[/]",
                "9" * 5000,
                "",
                "-1",
                "0",
                str(allowed.port),
            ]
        )
    allowed_pairs = {("127.0.0.1", allowed.port)} | ({("::1", allowed.port)} if hosts_allowed == "both" else set())

    async def body(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
        await allowed.start()
        await forbidden.start()
        if not await until(pilot, lambda: isinstance(app.screen, MenuScreen), STEP):
            return crash("the menu never appeared")
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        menu.action_connect()  # the menu's entry (offered only when the owner allowed a server) or palette
        if not await until(pilot, lambda: isinstance(app.screen, AskServer), STEP):
            return crash("the contest dialog never opened")
        dialog = app.screen
        fields = {widget.id: widget for widget in dialog.query(Input)}
        if "server-host" in fields and not fields["server-host"].disabled:
            fields["server-host"].value = host
        if "server-port" in fields:
            fields["server-port"].value = port
        await pilot.press("enter")
        await pilot.pause()
        await until(pilot, lambda: allowed.accepted + forbidden.accepted > 0, 1.5 if not sound else STEP)
        typed = f"host {short(host, 30)!r} port {short(port, 20)!r} ({hosts_allowed} allowed)"
        if forbidden.accepted:
            return leaked(f"{typed}: the app connected to a port its owner did not allow")
        config = getattr(app.screen, "config", None)
        if config is not None and hasattr(config, "host"):
            from tui.web.visitor import normal_host

            if (normal_host(config.host), config.port) not in allowed_pairs:
                return leaked(f"{typed}: a game screen for {config.host}:{config.port}, which was not allowed")
        problem = ""
        with contextlib.suppress(Exception):
            problem = str(dialog.query_one("#server-problem").render())
        if "\n" in problem.strip():
            return crash(f"{typed}: the dialog's answer is not one line: {short(problem, 200)}")
        if sound and not allowed.accepted:
            return lost(f"{typed}: the allowed server was not reached: {short(problem or said(app), 160)}")
        done = "connected where allowed" if allowed.accepted else "no connection"
        return clean(f"{typed}: {short(problem, 80) or done}")

    try:
        return run_app(NashplayApp(ai_delay=0), body)
    finally:
        allowed.close()
        forbidden.close()


# ------------------------------------------------------------------------------------------------ save slots


def hostile_slot(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """A hostile record (item 3's numbers, or a damaged save of ``hostile_files``) as a save slot beside a sound
    one: the menu appears within its step, sets the hostile one aside or lists it, still lists the sound one, and
    quits when asked."""
    from hostile.record_cases import hostile_record

    state = work / "state"
    store = SaveStore(state)
    sound_id, session = keep_sound_game(state, rng)
    label = "a second sound save"
    if sound:
        other_id, _ = keep_sound_game(state, rng)
    else:
        slot = store.new_slot()
        slot.folder.mkdir(parents=True, exist_ok=True)
        text = session.record(reveal=False).to_text()
        secret = json.dumps({"version": 1, "tags": session.secrets()}).encode()
        pick = rng.random()
        if pick < 0.5:
            record, label = hostile_record(rng, game="nim")
            public = record.replace('[Game "nim"]', '[Game "nim"]\n[Human "1"]').encode()
            secret = b'{"version": 1, "tags": {}}'
        elif pick < 0.8:
            label, damage = rng.choice(sorted(SAVE_DAMAGE.items()))
            public = damage(text, rng)
        else:
            label, make = rng.choice(sorted(SECRET_DAMAGE.items()))
            public, secret = text.encode(), make(rng)
        slot.path.write_bytes(public)
        slot.secret_path.write_bytes(secret)
        slot.release()
        other_id = slot.id

    async def body(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
        if not await until(pilot, lambda: isinstance(app.screen, MenuScreen), STEP):
            return crash(f"{label}: the menu never appeared")
        await pilot.pause()
        if not menu_lists(app, sound_id):
            return lost(f"{label}: the sound save is not offered on the menu")
        if sound and not menu_lists(app, other_id):
            return lost("a sound save is not offered on the menu")
        await pilot.press("q")
        if not await until(pilot, lambda: not app.is_running, STEP):
            return crash(f"{label}: q did not quit from the menu")
        return clean(label)

    return run_app_then_resume(body, label, state, sound_id)


# ------------------------------------------------------------------------------------------------ special files


SPECIALS = [
    "named pipe",
    "folder",
    "link to /dev/zero",
    "link to /dev/urandom",
    "link to a named pipe",
    "socket",
    "dangling link",
    "link loop",
    "device",
]


def make_special(path: Path, kind: str, work: Path) -> None:
    """Put ``kind`` (not a regular file) at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    if kind == "named pipe":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
        (path / "inside.ngr").write_text("x")
    elif kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "link to /dev/urandom":
        path.symlink_to("/dev/urandom")
    elif kind == "device":
        path.symlink_to("/dev/null")
    elif kind == "link to a named pipe":
        pipe = work / f"pipe-{os.urandom(4).hex()}"
        os.mkfifo(pipe)
        path.symlink_to(pipe)
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        try:
            sock.bind(str(path))
        except OSError:  # a path too long for a socket: a pipe instead
            os.mkfifo(path)
        finally:
            sock.close()
    elif kind == "dangling link":
        path.symlink_to(work / "nowhere" / "x")
    else:
        path.symlink_to(path.name)


def special_state(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """A named pipe, a folder or a device in place of a save, its secret, its lock, a finished record or the
    settings: the menu appears, still offers the sound save, the recent games open and close, and ``q`` quits."""
    state = work / "state"
    sound_id, _ = keep_sound_game(state, rng)
    label = "nothing special"
    if not sound:
        store = SaveStore(state)
        slot = store.new_slot()
        slot.folder.mkdir(parents=True, exist_ok=True)
        write_text(slot.path, nim_text('[Start "3,4,5"]\n[Human "1"]', "1. 1:1 2. 2:1 *"))
        write_text(slot.secret_path, '{"version": 1, "tags": {}}')
        slot.release()
        where = rng.choice(["save", "secret", "lock", "finished record", "settings", "contest record"])
        path = {
            "save": slot.path,
            "secret": slot.secret_path,
            "lock": slot.lock_path,
            "finished record": state / "records" / f"{rng.choice(['nim', 'geister'])}-20260101-000000.ngr",
            "settings": state / "settings.json",
            "contest record": state / "contest" / "contest-20260101-000000-0001-p1.ngr",
        }[where]
        kind = rng.choice(SPECIALS)
        make_special(path, kind, work)
        label = f"a {kind} as the {where}"

    async def body(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
        if not await until(pilot, lambda: isinstance(app.screen, MenuScreen), STEP):
            return crash(f"{label}: the menu never appeared")
        await pilot.pause()
        if not menu_lists(app, sound_id):
            return lost(f"{label}: the sound save is not offered on the menu")
        await pilot.press("r")
        if not await until(pilot, lambda: isinstance(app.screen, RecentGamesScreen), STEP):
            return crash(f"{label}: the recent games never opened")
        recent = app.screen
        assert isinstance(recent, RecentGamesScreen)
        listing = recent.query_one(OptionList)
        for index, game in list(enumerate(recent.games))[:6]:
            if game.in_progress:
                continue  # resumed, the sound game would go on (and might end): only the finished are opened
            listing.highlighted = index
            await pilot.press("enter")
            await pilot.pause()
            if app.screen is not recent:
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is recent or isinstance(app.screen, MenuScreen), STEP)
                if app.screen is not recent:
                    break
        await pilot.press("q")
        if not await until(pilot, lambda: not app.is_running, STEP):
            await pilot.press("escape", "q")
            if not await until(pilot, lambda: not app.is_running, STEP):
                return crash(f"{label}: the app did not quit")
        return clean(label)

    return run_app_then_resume(body, label, state, sound_id)


# ------------------------------------------------------------------------------------------------ markup


MARKUP = [
    "[/]",
    "[bold",
    "[b]",
    '[x="]',
    "[@click=app.quit]",
    "[link=https://example.org]",
    "[/link]",
    "[red on blue]",
    "[$accent]",
    "[#ff0000]",
    "\\[",
    "[[",
    "]]",
    "[reverse]x[/reverse]",
    "[on]",
    "[ ]",
    "[/bold]",
    "[@click=app.bell]",
    "[i]",
    "[dim]",
    "[/@click]",
]


def markup_text(rng: random.Random) -> str:
    return "".join(rng.choice([*MARKUP, "a", "x", " ", "é"]) for _ in range(rng.randrange(1, 6)))


def markup(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """Markup in a path typed in the replay or save prompt, in a damaged save's tags, in a finished record's file
    name and tags, in a viewer's title, in ``replay --list``'s output: shown as text, never as markup, and the app
    lives on."""
    text = rng.choice(["plain", "words-2", "x y"]) if sound else markup_text(rng)
    where = rng.choice(
        ["replay prompt", "save prompt", "damaged save", "record names", "viewer title", "replay --list"]
    )
    state = work / "state"
    label = f"{short(text, 40)!r} in the {where}"
    if where == "replay --list":
        path = write_text(
            work / f"{text.replace('/', '|')}.ngr", nim_text(f'[Start "3,4"]\n[Player1 "{_tag(text)}"]', "1. 1:1 *")
        )
        ran = run_command([str(NASHPLAY), "replay", "--list", str(path)], env=dict(os.environ))
        if ran.hung or ran.returncode != 0 or "Traceback" in ran.err:
            return crash(f"{label}: {ran.shown}: exit {ran.returncode}: {short(ran.err, 200)}")
        if _tag(text) not in ran.out:
            return crash(f"{label}: the tag is not in the listing as it is: {short(ran.out, 200)}")
        return clean(label)
    if where == "viewer title":
        record = Record.parse(nim_text(f'[Start "3"]\n[Player1 "{_tag(text)}"]\n[Player2 "[b]x"]', "1. 1:3 *"))
        title = f"Replay: {text}"

        async def viewer(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
            if not await until(pilot, lambda: isinstance(app.screen, RecordViewerScreen), STEP):
                return crash(f"{label}: the viewer never opened")
            shown, sub_title = str(app.screen.title or "").removeprefix("Replay: "), str(app.screen.sub_title or "")
            # A title too wide for the header is shortened to the name after its last "/" (as a path's).
            # The subtitle too may be left out where the header has no room.
            if not title.endswith(shown) or (sub_title and not sub_title.startswith(printable(_tag(text)))):
                return crash(f"{label}: the title is not the text: {app.screen.title!r} / {app.screen.sub_title!r}")
            return clean(label)

        request = StartRequest("replay", record=record, replay_title=title)
        return run_app(NashplayApp(request, ai_delay=0), viewer, what=label)
    if where == "save prompt":

        async def saving(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
            screen = app.screen
            if not isinstance(screen, GameScreen):
                return crash(f"the game did not open: {screen!r}")
            await pilot.press("s")
            screen.query_one("#move-input", Input).value = f"{work}/{text.replace('/', '|')}.ngr"
            await pilot.press("enter")
            await pilot.pause()
            if "\n" in screen.message_text.strip():
                return crash(f"{label}: the answer is not one line: {short(screen.message_text, 200)}")
            return clean(label)

        return run_app(play_app(), saving, what=label)
    if where == "damaged save":
        store = SaveStore(state)
        for moves in ("*", "1. 9:9 *"):
            slot = store.new_slot()
            slot.folder.mkdir(parents=True, exist_ok=True)
            write_text(slot.path, nim_text(f'[Start "3,4"]\n[Human "1"]\n[Opponent "{_tag(text)}"]', moves))
            write_text(slot.secret_path, '{"version": 1, "tags": {}}')
            slot.release()
    if where == "record names":
        records = state / "records"
        write_text(
            records / f"{text.replace('/', '|')}.ngr", nim_text(f'[Start "3"]\n[Player1 "{_tag(text)}"]', "1. 1:1 *")
        )
        write_text(records / f"bad{text.replace('/', '|')}.ngr", f"not a record {text}")

    async def menu(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
        if not await until(pilot, lambda: isinstance(app.screen, MenuScreen), STEP):
            return crash(f"{label}: the menu never appeared")
        if where == "replay prompt":
            await pilot.press("o")
            if not await until(pilot, lambda: isinstance(app.screen, AskPath), STEP):
                return crash("the replay prompt never opened")
            typed = rng.choice([f"/nonexistent/{text}x.ngr", f"{text}.ngr"]).replace("\x00", "")
            app.screen.query_one("#path", Input).value = typed
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), STEP)
            shown = str(app.screen.query_one("#menu-message").render()) if isinstance(app.screen, MenuScreen) else ""
            if printable(typed.strip()) not in shown:
                return crash(f"{label}: the path is not said as it was typed: {short(shown, 200)}")
        elif where == "record names":
            await pilot.press("r")
            if not await until(pilot, lambda: isinstance(app.screen, RecentGamesScreen), STEP):
                return crash(f"{label}: the recent games never opened")
            recent = app.screen
            assert isinstance(recent, RecentGamesScreen)
            listing = recent.query_one(OptionList)
            for index, game in enumerate(recent.games):
                if game.in_progress:
                    continue
                listing.highlighted = index
                await pilot.press("enter")
                await pilot.pause()
                if app.screen is not recent:
                    await pilot.press("escape")
                    if not await until(pilot, lambda: app.screen is recent, STEP):
                        return crash(f"{label}: the recent games did not come back after a record")
        else:
            await pilot.pause()
        await pilot.press("escape")
        if not app.is_running:
            return crash(f"{label}: the app ended")
        return clean(label)

    return run_app(NashplayApp(ai_delay=0), menu, what=label)


def _tag(text: str) -> str:
    """``text`` as a record's tag value can hold it (no quote, no backslash)."""
    return text.replace('"', "'").replace("\\", "/")
