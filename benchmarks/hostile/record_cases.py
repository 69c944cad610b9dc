"""Records and files given to the commands (the installed ``nashplay``, each in a subprocess with a ceiling): hostile
Nim and other records to ``replay --list``, ``replay``, ``review`` and ``analyse`` (item 3), named pipes, folders and
devices to the commands and the app's replay prompt (item 4), terminal escapes in what ``replay --list`` and
``review`` print, and big comment records (item 7)."""

from __future__ import annotations

import random
import time
from pathlib import Path

from core.impartial import MAX_RECORDED_HEAP, MAX_RECORDED_HEAPS, MAX_RECORDED_TAKE
from core.record import MAX_RECORD_CHARS
from hostile.common import (
    Outcome,
    Terminal,
    clean,
    crash,
    is_refusal,
    judge_command,
    lost,
    nashplay,
    nim_text,
    on_terminal,
    quit_viewer,
    short,
    tail,
    write_text,
)

#: Seconds the app on a terminal may take to draw its first screen.
DRAWN = 20.0


def odd_number(rng: random.Random) -> str:
    return rng.choice(
        [
            str(MAX_RECORDED_HEAP + rng.randrange(1, 10**6)),
            "999999999",
            "9" * rng.randrange(10, 5000),
            str(10 ** rng.randrange(6, 40)),
            "-1",
            "1e9",
            "0x10",
            "٣",
            " 7 ",
            "",
            "nan",
            "0",
        ]
    )


def sound_nim(rng: random.Random) -> str:
    """A Nim game as the app records it: small heaps, a few legal moves."""
    start = [rng.randrange(1, 12) for _ in range(rng.randrange(1, 6))]
    heaps = list(start)
    moves = []
    for ply in range(rng.randrange(0, 8)):
        live = [i for i, h in enumerate(heaps) if h]
        if not live:
            break
        heap = rng.choice(live)
        take = rng.randrange(1, heaps[heap] + 1)
        heaps[heap] -= take
        moves.append((f"{ply // 2 + 1}. " if ply % 2 == 0 else "") + f"{heap + 1}:{take}")
    return nim_text(f'[Start "{",".join(str(h) for h in start)}"]', " ".join([*moves, "*"]))


def hostile_record(rng: random.Random, game: str | None = None) -> tuple[str, str]:
    """A record whose numbers go past what the commands take, or only just within: its text and a label."""
    game = game or rng.choice(["nim"] * 6 + ["tcg", "footstep", "goofspiel", "geister", "mini-geister"])
    if game == "tcg":
        return f'[Game "tcg"]\n[N "{odd_number(rng)}"]\n\n1. ca dd *\n', "TCG with a hostile N"
    if game == "footstep":
        return (
            f'[Game "footstep"]\n[N "{odd_number(rng)}"]\n[K "{odd_number(rng)}"]\n\n*\n',
            "Footstep, hostile N and K",
        )
    if game == "goofspiel":
        deck = rng.choice(["31524", "9" * rng.randrange(10, 3000), "1" * 100])
        return f'[Game "goofspiel"]\n[Cards "{odd_number(rng)}"]\n[Deck "{deck}"]\n\n*\n', "Goofspiel, hostile Cards"
    if game in ("geister", "mini-geister"):
        start = rng.choice([f"{'9' * rng.randrange(3, 6000)}/4/4/4 1", "1uu1/4/4/1UU1 1 - " + "9" * 3000, "?" * 2000])
        return f'[Game "{game}"]\n[Start "{start}"]\n\n*\n', f"{game}, a digit bomb in the start"
    kind = rng.choice(
        [
            "the issue's rule and start",
            "a heap of a billion",
            "a heap past the bound",
            "heaps past the bound",
            "at the bounds",
            "a take past the bound",
            "a long octal code",
            "a huge subtraction set",
            "a digit bomb",
            "odd numbers",
            "moves past the heaps",
            "odd rule text",
        ]
    )
    if kind == "the issue's rule and start":
        tags = '[Rule "{999999999}"]\n[Start "999999998"]'
    elif kind == "a heap of a billion":
        tags = '[Start "999999999"]'
    elif kind == "a heap past the bound":
        tags = f'[Start "3,{MAX_RECORDED_HEAP + rng.randrange(1, 1000)}"]'
    elif kind == "heaps past the bound":
        tags = f'[Start "{",".join(["1"] * (MAX_RECORDED_HEAPS + rng.randrange(1, 5000)))}"]'
    elif kind == "at the bounds":
        heaps = ",".join([str(MAX_RECORDED_HEAP)] * MAX_RECORDED_HEAPS)
        return nim_text(f'[Rule "{{1,{MAX_RECORDED_TAKE}}}"]\n[Start "{heaps}"]', "1. 1:10000 1:1 2. 2:1 *"), kind
    elif kind == "a take past the bound":
        tags = f'[Rule "{{1,{MAX_RECORDED_TAKE + rng.randrange(1, 10**6)}}}"]\n[Start "3"]'
    elif kind == "a long octal code":
        tags = f'[Rule "0.{"7" * rng.randrange(20, 3000)}"]\n[Start "3,4,5"]'
    elif kind == "a huge subtraction set":
        takes = ",".join(str(i) for i in range(1, rng.randrange(100, 30000)))
        tags = f'[Rule "{{{takes}}}"]\n[Start "3,4,5"]'
    elif kind == "a digit bomb":
        tags = f'[Start "{"9" * rng.randrange(10, 20000)}"]'
    elif kind == "odd numbers":
        tags = (
            f'[Start "{",".join(odd_number(rng) for _ in range(rng.randrange(1, 5)))}"]\n[Rule "{{{odd_number(rng)}}}"]'
        )
    elif kind == "moves past the heaps":
        move = rng.choice(["1:999999999", "99999:1", "1:1/1+1", "9" * 3000 + ":1", "1:" + "9" * 3000, "0:0", "-1:1"])
        return nim_text('[Start "3,4,5"]', f"1. {move} *"), kind
    else:
        rule = rng.choice(["[/]", "nim nim", "0.", "0.8", "4.07", "{}", "{0}", "{1,,2}", "kayles" * 100])
        tags = f'[Rule "{rule}"]\n[Start "3,4"]\n[Misere "{rng.choice(["yes", "2", "[/]", ""])}"]'
    return nim_text(tags, rng.choice(["*", "1. 1:1 *", "1. 1:1 2. 1:1 3. 1:1 *"])), kind


def on_app(terminal: Terminal, what: str, sound: bool) -> Outcome:
    """``nashplay replay FILE`` on a terminal: refused in one line before any screen, or drawn and quit."""
    if not terminal.drawn(DRAWN):
        if terminal.returncode is None:
            terminal.kill()
            return crash(f"{what}: {terminal.shown}: nothing drawn in {DRAWN:.0f} s (killed)")
        shown = terminal.text.replace("\r\n", "\n")
        one_line = shown.count("\n") <= 1 and "Traceback" not in shown and "\x1b" not in shown
        if terminal.returncode == 2 and one_line and not sound:
            return clean(f"{what}: refused: {short(shown.strip(), 100)}", seconds=terminal.seconds)
        if sound and terminal.returncode == 2 and one_line:
            return lost(f"{what}: a sound record was refused: {short(shown.strip(), 160)}")
        return crash(f"{what}: {terminal.shown}: exit {terminal.returncode}: {tail(terminal)}")
    return quit_viewer(terminal)


def _command(rng: random.Random, game: str) -> list[str]:
    commands = [["replay", "--list"], ["replay", "--list", "--json"], ["review"], ["review", "--json"], ["replay"]]
    if game == "nim":
        commands.append(["analyse"])
    chosen = rng.choice(commands)
    if chosen[0] == "review" and game != "nim":
        chosen = [*chosen, "--depth", "1"]
    return chosen


def _tag(text: str, name: str) -> str:
    start = text.find(f'[{name} "')
    return text[start + len(name) + 3 : text.find('"]', start)] if start >= 0 else ""


def hostile_records(rng: random.Random, work: Path, sound: bool) -> Outcome:
    if sound:
        text, label, game = sound_nim(rng), "a sound Nim record", "nim"
    else:
        text, label = hostile_record(rng)
        game = text.split('"', 2)[1]
    path = write_text(work / "game.ngr", text)
    command = _command(rng, game)
    what = f"{label} to {' '.join(command)}"
    if command == ["replay"]:
        outcome = on_app(on_terminal("replay", str(path)), what, sound)
    elif command == ["analyse"]:
        position, rule = _tag(text, "Start") or "3", _tag(text, "Rule") or "nim"
        outcome = judge_command(nashplay("analyse", "nim", f"--position={position}", f"--rule={rule}"))
    else:
        outcome = judge_command(nashplay(*command, str(path)))
    if sound and outcome.kind == "clean" and outcome.detail.startswith("refused"):
        return lost(f"{what}: a sound record was refused: {outcome.detail}")
    outcome.detail = f"{what}: {outcome.detail}"
    return outcome


# ------------------------------------------------------------------------------------------------ special files


def special_path(rng: random.Random, work: Path) -> tuple[Path, str]:
    """Something that is not a regular record file, and its label."""
    from hostile.app_cases import SPECIALS, make_special

    kind = rng.choice(
        [
            *SPECIALS,
            "/dev/zero itself",
            "/dev/urandom itself",
            "/dev/full itself",
            "a sparse giant",
            "/proc/self/status",
        ]
    )
    if kind.endswith(" itself"):
        return Path(kind.split()[0]), kind
    if kind == "/proc/self/status":
        return Path(kind), kind
    path = work / rng.choice(["game.ngr", "pipe", "x.ngr"])
    if kind == "a sparse giant":
        with path.open("wb") as file:
            file.truncate(rng.choice([2, 50, 5000]) * MAX_RECORD_CHARS)
        return path, kind
    make_special(path, kind, work)
    return path, kind


def special_files(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """A named pipe, a folder or a device to ``replay --list``, ``replay``, ``review`` and the app's replay prompt:
    refused in one line, never waited on."""
    if sound:
        path, label = write_text(work / "game.ngr", sound_nim(rng)), "a regular record"
    else:
        path, label = special_path(rng, work)
    where = rng.choice(
        [
            "replay --list",
            "replay --list --json",
            "review",
            "replay",
            "the app's replay prompt",
            "the app's save prompt",
        ]
    )
    if where == "the app's save prompt":
        return _save_prompt(rng, work, sound)
    what = f"{label} to {where}"
    if where == "the app's replay prompt":
        outcome = _prompt(path, what, sound)
    elif where == "replay":
        outcome = on_app(on_terminal("replay", str(path)), what, sound)
    else:
        outcome = judge_command(nashplay(*where.split(), str(path)))
        if sound and outcome.detail.startswith("refused"):
            outcome = lost(f"a regular record was refused: {outcome.detail}")
        outcome.detail = f"{what}: {outcome.detail}"
    return outcome


#: What the save prompt of the terminal app (no web visitor: it saves anywhere) is given here, all in the case's
#: folder: the folder itself, its parent, a folder, a named pipe, a socket, links to a device, nowhere, themselves.
SAVE_TARGETS = [".", "..", "./", "folder", "named pipe", "socket", "link to /dev/null", "dangling link", "link loop"]


def _save_prompt(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """The terminal app's save prompt (``s`` in a game) given what is not a file it can write: said in one line,
    the app alive. Sound: a new file."""
    from pilot_helpers import play_app
    from textual.widgets import Input

    from hostile.app_cases import make_special, run_app
    from tui.screens.game import GameScreen

    target = "saved.ngr" if sound else rng.choice(SAVE_TARGETS)
    typed = target
    if target in ("folder", "named pipe", "socket", "dangling link", "link loop"):
        typed = f"target-{target.replace(' ', '-')}.ngr"
        make_special(work / typed, target, work)
    elif target == "link to /dev/null":
        typed = "null.ngr"
        (work / typed).symlink_to("/dev/null")
    what = f"{target} to the app's save prompt"

    async def body(app: object, pilot: object) -> Outcome:
        screen = app.screen  # type: ignore[attr-defined]
        if not isinstance(screen, GameScreen):
            return crash(f"the game did not open: {screen!r}")
        await pilot.press("s")  # type: ignore[attr-defined]
        screen.query_one("#move-input", Input).value = typed
        await pilot.press("enter")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
        message = screen.message_text
        if not app.is_running:  # type: ignore[attr-defined]
            return crash(f"{what}: typed {typed!r}: the app ended")
        if "\n" in message.strip():
            return crash(f"{what}: typed {typed!r}: not said in one line: {short(message, 200)}")
        if sound and not (work / typed).is_file():
            return lost(f"{what}: not saved: {short(message, 160)}")
        return clean(f"{what}: {short(message, 100)}")

    return run_app(play_app(), body, what=f"typed {typed!r} ({target})")


def _prompt(path: Path, what: str, sound: bool) -> Outcome:
    from textual.widgets import Input

    from hostile.app_cases import STEP, run_app, said
    from hostile.common import until
    from tui.app import NashplayApp
    from tui.screens.ask_path import AskPath
    from tui.screens.menu import MenuScreen
    from tui.screens.record_viewer import RecordViewerScreen

    async def body(app: NashplayApp, pilot: object) -> Outcome:
        if not await until(pilot, lambda: isinstance(app.screen, MenuScreen), STEP):
            return crash("the menu never appeared")
        await pilot.press("o")  # type: ignore[attr-defined]
        if not await until(pilot, lambda: isinstance(app.screen, AskPath), STEP):
            return crash("the replay prompt never opened")
        app.screen.query_one("#path", Input).value = str(path)
        await pilot.press("enter")  # type: ignore[attr-defined]
        if not await until(pilot, lambda: not isinstance(app.screen, AskPath), STEP):
            return crash(f"{what}: the prompt did not close in {STEP:.0f} s")
        await pilot.pause()  # type: ignore[attr-defined]
        if sound:
            if isinstance(app.screen, RecordViewerScreen):
                return clean(what)
            return lost(f"{what}: the record did not open: {short(said(app), 160)}")
        message = str(app.screen.query_one("#menu-message").render()) if isinstance(app.screen, MenuScreen) else ""
        if not message or "\n" in message.strip():
            return crash(f"{what}: not refused in one line: {app.screen!r} {short(said(app), 160)}")
        return clean(f"{what}: {short(message, 100)}")

    return run_app(NashplayApp(ai_delay=0), body, what=what)


# ------------------------------------------------------------------------------------------------ escapes


ESCAPES = [
    "\x1b]0;pwned\x07",
    "\x1b]52;c;aGVsbG8=\x07",
    "\x1b[2J",
    "\x9b31m",
    "\x08\x08\x08",
    "\r",
    "\x1bP+q544e\x1b\\",
    "\x90q\x9c",
    "\x9d0;title\x9c",
    "\x07",
    "\x1b[?1049h",
    "\x1bc",
    "\x7f",
    "\x1b[6n",
    "\x1b]8;;http://example.org\x1b\\link\x1b]8;;\x1b\\",
]


def escapes(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """Terminal escapes in a record's tags, comments, moves, result or file name: ``replay --list`` and ``review``
    (text and JSON) write no control character, whether they list the record or refuse it."""
    payload = "plain words" if sound else "".join(rng.choice(ESCAPES) for _ in range(rng.randrange(1, 4)))
    places = ["tag", "comment", "file name", "several"]  # where plain words are sound too
    place = rng.choice(places if sound else [*places, "move", "result", "tag name"])
    tags = '[Start "3,4,5"]'
    moves = "1. 1:1 2. 2:1 *"
    name = "game.ngr"
    if place in ("tag", "several"):
        tags += f'\n[{rng.choice(["Player1", "Event", "Site", "Opponent", "Round"])} "{payload.replace(chr(34), "")}"]'
    if place in ("comment", "several"):
        moves = f"1. 1:1 {{{payload.replace('}', '')} a note}} 2. 2:1 *"
    if place == "move":
        moves = f"1. 1:1 2. {payload} *"
    if place in ("file name", "several"):
        name = payload.replace("/", "|").replace("\x00", "") + ".ngr"
    if place == "result":
        moves = f"1. 1:1 {payload}"
    if place == "tag name":
        tags += f'\n[X{payload.replace(chr(34), "").replace("]", "")} "1"]'
    path = write_text(work / name, nim_text(tags, moves))
    command = rng.choice([["replay", "--list"], ["replay", "--list", "--json"], ["review"], ["review", "--json"]])
    outcome = judge_command(nashplay(*command, str(path)))
    what = f"{'plain words' if sound else 'escapes'} in the {place} to {' '.join(command)}"
    if sound and outcome.detail.startswith("refused"):
        return lost(f"{what}: a sound record was refused: {outcome.detail}")
    outcome.detail = f"{what}: {outcome.detail}"
    return outcome


# ------------------------------------------------------------------------------------------------ big comments


def big_comments(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """Records of up to the size cap (and past it) made of comments, listed by ``replay --list``: done or refused
    in time; the parse alone is timed too (in this process), for the time per megabyte at each size."""
    from core.record import Record

    size = 2000 if sound else int(10 ** rng.uniform(3.6, 6.3))  # 4 kB to twice the size cap (1,000,000 characters)
    shape = (
        "a few comments"
        if sound
        else rng.choice(
            ["many small comments", "one huge comment", "comments between many moves", "unterminated braces"]
        )
    )
    if shape in ("a few comments", "many small comments"):
        count = max(1, size // 4)
        moves = "1. 1:1 " + " ".join(["{a}"] * count) + " *"
        text = nim_text('[Start "3"]', moves)
    elif shape == "one huge comment":
        text = nim_text('[Start "3"]', "1. 1:1 {" + "a" * size + "} *")
    elif shape == "comments between many moves":
        plies = min(size // 12, 2 * MAX_RECORDED_HEAP // 2)
        parts = [(f"{ply // 2 + 1}. " if ply % 2 == 0 else "") + "1:1 {c}" for ply in range(plies)]
        text = nim_text(f'[Start "{min(plies + 1, MAX_RECORDED_HEAP)}"]', " ".join([*parts, "*"]))
    else:
        text = nim_text('[Start "3"]', "1. 1:1 " + "{" * size + " *")
    path = write_text(work / "big.ngr", text)
    parsed, times = True, []
    for _ in range(3):  # the least of three: the other process of the run shares the machine
        started = time.perf_counter()
        try:
            Record.parse(text)
        except Exception:
            parsed = False  # refused (past the cap, braces left open): not a measure of the comments' joining
        times.append(time.perf_counter() - started)
    parse_s = min(times)
    ran = nashplay("replay", "--list", str(path), timeout=60)
    figures = {"bytes": float(len(text)), "command_s": ran.seconds, "parse_s": parse_s, "parsed": float(parsed)}
    outcome = judge_command(ran)
    outcome.figures.update(figures)
    what = f"{shape}, {len(text):,} bytes"
    if sound and not (ran.returncode == 0 and not is_refusal(ran)):
        return lost(f"{what}: a sound record was not listed: {short(ran.err, 160)}", **figures)
    outcome.detail = f"{what}: {outcome.detail} in {ran.seconds:.2f} s (parse {parse_s:.2f} s)"
    return outcome
