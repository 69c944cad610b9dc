"""Item 8, kills that a crash-safe write must survive: ``kill -9`` of a process saving a game in progress (at a
random moment of its saves, or exactly at a rename or an fsync), and of the app during a review. Then the next
start: it must find the save readable (with every move saved before the kill), and leave no temporary file or
folder behind.

The next start removes only temporary files and folders older than the margin left to writers still at work
(``core.record.STALE_TEMPORARY_SECONDS``, an hour: a younger one may be another nashplay's write in progress). A
kill's leftovers are counted as they are (the ``tmp_left`` figure), then made older than the margin, as a start an
hour or more later finds them, before the next start is judged.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from textual.pilot import Pilot

from core.record import STALE_TEMPORARY_SECONDS, Record
from hostile.app_cases import STEP, menu_lists, run_app
from hostile.common import ROOT, Outcome, Terminal, clean, crash, leaked, lost, on_terminal, short, tail, until
from tui.app import NashplayApp
from tui.saves import SaveStore
from tui.screens.menu import MenuScreen
from tui.session import resumable

#: Games played and kept as the app keeps them (``GameKeeper.keep`` after every move, the finished record at the
#: end), game after game, each save said on stdout ("game moves on|over"); ``rename N`` / ``fsync N``: the process
#: kills itself at its N-th rename or fsync (between the temporary file's last byte and its rename, or inside the
#: write); ``stop N``: it ends by itself after N saves, as a user who quits.
SAVER = """
import os, random, signal, sys
from pathlib import Path

state, seed, mode, count = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
calls = {"replace": 0, "fsync": 0}

def killing(name, real):
    def call(*args, **kwargs):
        calls[name] += 1
        if mode == ("rename" if name == "replace" else name) and calls[name] >= count:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    return call

os.replace = killing("replace", os.replace)
os.fsync = killing("fsync", os.fsync)
from core.game import Side
from tui.config import GeisterConfig
from tui.saves import GameKeeper, SaveStore
from tui.session import GameSession

rng = random.Random(seed)
store = SaveStore(state)
saves = game = 0
while mode != "stop" or saves < count:
    game += 1
    session = GameSession(GeisterConfig("geister", Side.P1, "chototsu", "BBBBRRRR", rng.randrange(10**6)))
    keeper = GameKeeper(store)
    while not session.is_over and (mode != "stop" or saves < count):
        if session.humans_turn:
            session.play(rng.choice(session.view().legal_moves()))
        else:
            session.apply_opponent(session.choose_opponent_move(session.opponent_view()), session.version)
        if session.is_over:
            keeper.keep(session.record(reveal=False), {}, session.record(reveal=True))
        else:
            keeper.keep(session.record(reveal=False), session.secrets())
        saves += 1
        print(game, len(session.state.moves()), "over" if session.is_over else "on", flush=True)
    keeper.release()
"""


def temporaries(state: Path) -> list[Path]:
    return sorted(path for path in state.rglob(".*.tmp"))


def age(folder: Path, seconds: float) -> None:
    """Make everything under ``folder`` look untouched for ``seconds`` (no waiting)."""
    for path in [folder, *folder.rglob("*")]:
        info = path.lstat()
        os.utime(path, (info.st_atime - seconds, info.st_mtime - seconds), follow_symlinks=False)


def killed_saving(rng: random.Random, work: Path, sound: bool) -> Outcome:
    state = work / "state"
    seed = rng.randrange(10**6)
    mode = "stop" if sound else rng.choice(["time", "time", "time", "rename", "fsync"])
    count = rng.randrange(1, 120)
    argv = [sys.executable, "-c", SAVER, str(state), str(seed), mode, str(count)]
    process = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    assert process.stdout is not None
    said: list[str] = []
    try:
        if mode == "time":
            for line in process.stdout:  # the kill comes after the count-th save, as the next one begins
                said.append(line)
                if len(said) >= count:
                    time.sleep(rng.uniform(0.0, 0.005))
                    os.kill(process.pid, signal.SIGKILL)
                    break
        process.wait(timeout=60)
        said += process.stdout.read().splitlines()
    except subprocess.TimeoutExpired:
        return crash(f"the saving process ({mode} {count}) did not end in 60 s")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        error = process.stderr.read() if process.stderr is not None else ""
    games, moves, last = (
        (int(said[-1].split()[0]), int(said[-1].split()[1]), said[-1].split()[2]) if said else (0, 0, "")
    )
    where = f"{mode} number {count}" if mode in ("rename", "fsync") else f"save {len(said) + 1}"
    what = f"a game quit after {len(said)} saves" if sound else f"killed at {where} (game {games}, move {moves})"
    if process.returncode != (0 if sound else -9):
        return crash(f"{what}: the saving process ended with {process.returncode}: {short(error[-300:], 300)}")
    left = len(temporaries(state))
    if state.exists():
        age(state, STALE_TEMPORARY_SECONDS + 600)
    slots = SaveStore(state).unfinished() if (state / "games").is_dir() else []

    async def body(app: NashplayApp, pilot: Pilot[None]) -> Outcome:
        if not await until(pilot, lambda: isinstance(app.screen, MenuScreen), STEP):
            return crash(f"{what}: the menu never appeared at the next start")
        for slot in slots:
            if not menu_lists(app, slot.id):
                return lost(f"{what}: the save is not offered at the next start")
        await pilot.press("q")
        return clean(what)

    outcome = run_app(NashplayApp(ai_delay=0), body)
    figures = {"tmp_left": float(left)}
    outcome.figures.update(figures)
    if outcome.kind != "clean":
        return outcome
    if remaining := temporaries(state):
        return leaked(
            f"{what}: {len(remaining)} temporary file(s) left after the next start: {remaining[0].name}", **figures
        )
    finished = sorted((state / "records").glob("*.ngr")) if (state / "records").is_dir() else []
    if len(finished) < games - 1 or (last == "over" and len(finished) < games):
        return lost(f"{what}: {len(finished)} finished records of {games - (last != 'over')} games", **figures)
    # "on" and no save: the kill may have come after the save that ended the game (its record kept, its slot
    # cleared), before that save was said.
    ended_unsaid = last == "on" and not slots and len(finished) == games
    if last == "on" and moves and len(slots) != 1 and not ended_unsaid:
        return lost(f"{what}: {len(slots)} saves of the game in progress at the next start", **figures)
    for slot in slots:
        try:
            record = slot.load()
            resumable(record)
        except Exception as error:
            return lost(
                f"{what}: the save does not resume: {type(error).__name__}: {short(str(error), 160)}", **figures
            )
        if last == "on" and len(record.moves) < moves:  # after "over": the next game's, begun before the kill
            return lost(f"{what}: the save holds {len(record.moves)} moves, {moves} were saved before", **figures)
    for path in finished:
        try:
            Record.load(path).replay()
        except Exception as error:
            return lost(f"{what}: a finished record does not replay: {short(str(error), 160)}", **figures)
    return clean(f"{what}: {left} temporary file(s) left by the kill, none after the next start", **figures)


# ------------------------------------------------------------------------------------------------ a review


def geister_record(rng: random.Random) -> str:
    """A whole Geister game (chototsu against a random mover), as the app records it."""
    from hostile.app_cases import sound_session

    session = sound_session(rng)
    while not session.is_over:
        if session.humans_turn:
            session.play(rng.choice(session.view().legal_moves()))
        else:
            session.apply_opponent(session.choose_opponent_move(session.opponent_view()), session.version)
    return session.record().to_text()


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):  # gone, or going (ESRCH while read)
        return False


def scratch(state: Path) -> list[Path]:
    folder = state / "tmp"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def killed_reviewing(rng: random.Random, work: Path, sound: bool) -> Outcome:
    """``kill -9`` of the app (``nashplay replay``, then ``v``) while it reviews a Geister game: its review's
    process ends with it, and the next start leaves no scratch folder (nor anything in the system's temporary
    folder). Sound: the review closed and the app quit as a user does; nothing is left even before a next start."""
    state = work / "state"
    path = work / "game.ngr"
    path.write_text(geister_record(rng))
    original = path.read_bytes()
    terminal: Terminal = on_terminal("replay", str(path))
    try:
        if not terminal.drawn(30.0):
            return crash(f"the replay viewer was not drawn: exit {terminal.returncode}: {tail(terminal)}")
        terminal.send(b"v")
        if not terminal.wait_for(lambda: bool(scratch(state)), 30.0):
            return crash(f"the review never started (no scratch folder): {tail(terminal)}")
        terminal.pump(rng.uniform(0.0, 1.5))
        workers = children_of(terminal.process.pid)
        if sound:
            terminal.send(b"\x11")  # ctrl+q
            if not terminal.wait_exit(20.0):
                return crash("the app did not quit during its review")
            if terminal.returncode != 0 or "Traceback" in terminal.text:
                return crash(f"the app quit during its review with exit {terminal.returncode}: {tail(terminal)}")
        else:
            terminal.kill()
    finally:
        terminal.close()
    what = "quit during a review" if sound else "killed during a review"
    for pid in workers:
        for _ in range(300):
            if not alive(pid):
                break
            time.sleep(0.05)
        if alive(pid):
            return crash(f"{what}: the review's process {pid} outlived the app by 15 s")
    left = scratch(state)
    if sound and left:
        return leaked(f"{what}: {len(left)} scratch folder(s) left by an app that quit: {left[0].name}")
    if state.exists():
        age(state, STALE_TEMPORARY_SECONDS + 600)
    SaveStore(state)  # the next start opens the state folder: stale scratch folders go
    if remaining := scratch(state):
        return leaked(f"{what}: a scratch folder left after the next start: {remaining[0].name}")
    if system := list((work / "tmp").iterdir()):
        return leaked(f"{what}: left in the system's temporary folder: {system[0].name}")
    if path.read_bytes() != original:
        return lost(f"{what}: the reviewed record changed")
    return clean(f"{what}: {len(left)} scratch folder(s) after the kill, none after the next start")
