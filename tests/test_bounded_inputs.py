"""The last "nothing lost, bounded input" gaps of issue 29.

1. What the app reads at start-up (a save's secret and lock, the settings, the records listed) is read only when it
   is a regular file: a named pipe, a folder or a device in its place is refused in one line (a damaged save is set
   aside, a setting falls back to its default), never opened in a way that waits, and nothing else is lost.
2. Every tag of a save or record that the app turns into a number (the clock, the takeback policy, the seed, the
   thinking times) is bounded as the command line bounds it: a damaged save is refused in one line naming the tag.
3. ``analyse`` and ``play`` agree where a Mini-Geister game ends: a position at ply 199 has one ply left, one at the
   limit (200) is over.
4. A replay keeps the states of a few checkpoints, not one state per ply: a 10,000-ply record no longer holds 10,000
   copies of a growing history.

The calls that could wait on a named pipe run in a thread that is watched: when the kernel says it waits on a pipe
(``/proc``'s ``wchan``), or at the ceiling only a hang reaches, the pipe is opened both ways to let it go and the test
fails instead of hanging.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from app_helpers import menu_options, notifications
from pilot_helpers import run, wait_for
from waiting import HANG_SECONDS

from core.errors import RecordError
from core.game import Side
from core.impartial import HeapGameState, HeapMove
from core.record import Record
from tui.app import NashplayApp
from tui.local_session import check_resumable, game_record, secret_tags
from tui.saves import SaveFolderError, SaveSlot, SaveStore
from tui.screens.menu import MenuScreen
from tui.screens.recent import RecentGamesScreen
from tui.storage import Settings

T = TypeVar("T")

SIZE = (100, 32)


# --------------------------------------------------------------------------------------------------- no hanging


def _waits_on_a_pipe(thread: threading.Thread) -> bool:
    """Whether the kernel says ``thread`` sleeps in a pipe's open, read or write (``wchan``: ``wait_for_partner``,
    ``pipe_read``...); False where ``/proc`` does not say (the ceiling then catches a hang)."""
    try:
        with open(f"/proc/self/task/{thread.native_id}/wchan") as file:
            where = file.read()
    except OSError:
        return False
    return any(word in where for word in ("wait_for_partner", "fifo", "pipe"))


def _let_go(fifos: Sequence[Path]) -> None:
    """Open each pipe for reading and writing at once (which never waits): whoever waits in its open, as a reader or
    as a writer, goes on (a reader then reads an empty file)."""
    for fifo in fifos:
        try:
            os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))
        except OSError:
            continue


def without_hanging(call: Callable[[], T], fifos: Sequence[Path]) -> T:
    """``call()``'s result, or its exception; an ``AssertionError`` if it waited on one of ``fifos``."""
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    ceiling = time.monotonic() + HANG_SECONDS
    waited = False
    while thread.is_alive():
        thread.join(0.01)
        if thread.is_alive() and (_waits_on_a_pipe(thread) or time.monotonic() > ceiling):
            waited = True
            _let_go(fifos)  # as often as it waits: a second file may be a pipe too
    if waited:
        raise AssertionError(f"{getattr(call, '__name__', call)} waited on a named pipe")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


# --------------------------------------------------------------------------------------------------- 1: special files


def nim_save(store: SaveStore, opponent: str = "random") -> SaveSlot:
    """A Nim game in progress (one move played) in a slot of its own, released as a closed app leaves it."""
    state = HeapGameState([3, 4, 5])
    state.apply(HeapMove(0, 1))
    slot = store.new_slot()
    slot.save(game_record(state, Side.P1, opponent), secret_tags(12345))
    slot.release()
    return slot


def in_place_of(path: Path, kind: str) -> Path:
    """``kind`` (a named pipe, a folder, a device) at ``path``, in place of whatever was there."""
    if path.is_dir():
        path.rmdir()
    else:
        path.unlink(missing_ok=True)
    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to(os.devnull)
    return path


KINDS = ("pipe", "folder", "device")


@pytest.mark.parametrize("kind", KINDS)
def test_a_secret_that_is_not_a_regular_file_is_refused_in_one_line(state_dir: Path, kind: str) -> None:
    store = SaveStore(state_dir)
    slot = nim_save(store)
    secret = in_place_of(slot.secret_path, kind)
    with pytest.raises(RecordError) as refusal:
        without_hanging(slot.load, [secret])
    said = str(refusal.value)
    assert "not a regular file" in said and "\n" not in said, said
    assert slot.load_public().moves  # the record itself is untouched


@pytest.mark.parametrize("kind", KINDS)
def test_a_lock_that_is_not_a_regular_file_is_refused_in_one_line(state_dir: Path, kind: str) -> None:
    store = SaveStore(state_dir)
    damaged, sound = nim_save(store), nim_save(store)
    lock = in_place_of(damaged.lock_path, kind)
    listed = without_hanging(store.unfinished, [lock])
    assert {slot.id for slot in listed} == {damaged.id, sound.id}  # listed: the scan sets it aside, with its reason
    with pytest.raises(RecordError) as refusal:
        without_hanging(store.slot(damaged.id).load, [lock])
    said = str(refusal.value)
    assert "lock" in said and "not a regular file" in said and "\n" not in said, said
    with pytest.raises(SaveFolderError) as refused_claim:
        without_hanging(store.slot(damaged.id).claim, [lock])
    assert "not a regular file" in str(refused_claim.value) and "\n" not in str(refused_claim.value)
    recent = without_hanging(store.recent, [lock])
    assert {game.slot_id for game in recent} == {damaged.id, sound.id}
    check_resumable(store.slot(sound.id).load())  # the other save is whole


def test_records_that_are_not_regular_files_are_listed_with_the_reason(state_dir: Path) -> None:
    """A named pipe or a device named like a record in ``games/`` or ``records/``: the recent games say why it cannot
    be opened, in one line; a save's record that is one is set aside at start-up like any damaged save."""
    store = SaveStore(state_dir)
    sound = nim_save(store)
    store.records.mkdir(parents=True)
    pipes = [in_place_of(store.records / "pipe.ngr", "pipe"), in_place_of(store.folder / "x-pipe.ngr", "pipe")]
    in_place_of(store.records / "device.ngr", "device")
    recent = without_hanging(store.recent, pipes)
    problems = {game.path.name: game.problem for game in recent if game.problem is not None}
    assert set(problems) == {"pipe.ngr", "x-pipe.ngr", "device.ngr"}, problems
    assert all("not a regular file" in problem for problem in problems.values()), problems
    assert any(game.slot_id == sound.id and game.problem is None for game in recent)
    listed = without_hanging(store.unfinished, pipes)
    assert {slot.id for slot in listed} == {sound.id, "x-pipe"}
    with pytest.raises(RecordError, match="not a regular file"):
        without_hanging(store.slot("x-pipe").load, pipes)


@pytest.mark.parametrize("kind", KINDS)
def test_settings_that_are_not_a_regular_file_are_the_defaults(state_dir: Path, kind: str) -> None:
    state_dir.mkdir(parents=True)
    path = in_place_of(state_dir / "settings.json", kind)
    settings = without_hanging(lambda: Settings(path), [path])
    assert settings.values == Settings.DEFAULTS and settings.texts == Settings.TEXT_DEFAULTS


def test_the_menu_comes_up_past_pipes_and_loses_nothing_else(state_dir: Path) -> None:
    """A save whose secret is a named pipe, one whose lock is, the settings a pipe, a pipe among the records: the menu
    shows, the sound save is offered for resume, the two damaged ones are set aside (kept in ``games/damaged/``) with
    a notification each, and the recent games list the pipe with its reason."""
    store = SaveStore(state_dir)
    sound, secret_pipe, lock_pipe = nim_save(store), nim_save(store), nim_save(store)
    store.records.mkdir(parents=True)
    pipes = [
        in_place_of(secret_pipe.secret_path, "pipe"),
        in_place_of(lock_pipe.lock_path, "pipe"),
        in_place_of(state_dir / "settings.json", "pipe"),
        in_place_of(store.records / "pipe.ngr", "pipe"),
    ]

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            # The saves are scanned as the menu is pushed: once it shows, what the scan found has been said.
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen.is_mounted, "the menu")
            await pilot.pause()
            resume = [line for key, line in menu_options(app) if line.startswith("Resume")]
            assert len(resume) == 1 and (f"resume:{sound.id}", resume[0]) in menu_options(app), menu_options(app)
            said = notifications(app)
            assert sum("not a regular file" in message for message in said) == 2, said
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, RecentGamesScreen), "the recent games")
            recent = app.screen
            assert isinstance(recent, RecentGamesScreen)
            assert any(game.problem and "not a regular file" in game.problem for game in recent.games)

    without_hanging(lambda: run(test), pipes)
    damaged = {path.name for path in (store.folder / "damaged").iterdir()}
    assert {f"{secret_pipe.id}.ngr", f"{lock_pipe.id}.ngr", f"{lock_pipe.id}.secret"} <= damaged, damaged
    check_resumable(store.slot(sound.id).load())
    assert Record.load(store.folder / "damaged" / f"{lock_pipe.id}.ngr").moves
