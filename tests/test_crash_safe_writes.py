"""Writes of saves, records, settings and caches that a crash or a kill cannot spoil: each goes through the one
atomic-write helper (``core.record``), which syncs the file before its rename and the folder after it; a write
killed before its rename leaves a temporary file, and the next start-up removes it once no writer can still own it;
the review's scratch folders live under the state folder, and are removed the same way.

A kill is simulated without timing: a child process whose rename kills it (``SIGKILL``), so it dies exactly between
writing its temporary file and renaming it, as a kill during a save did in 9 of 9 tries.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.game import Side
from core.record import Record, write_text_atomically
from tui.saves import SaveStore

ROOT = Path(__file__).resolve().parents[1]

#: A nim record: any record does, and this one needs no game state.
RECORD = Record({"Game": "nim", "Rule": "nim", "Start": "3 4 5"}, [])


class WriteLog:
    """What the file system was asked, in order: each ``fsync`` (of a file or of a folder) and each rename."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[tuple[str, str]] = []
        real_fsync, real_replace = os.fsync, os.replace

        def fsync(descriptor: int) -> None:
            kind = "folder" if stat.S_ISDIR(os.fstat(descriptor).st_mode) else "file"
            self.events.append(("fsync", kind))
            real_fsync(descriptor)

        def replace(source: Any, target: Any, **kwargs: Any) -> None:
            self.events.append(("replace", Path(target).name))
            real_replace(source, target, **kwargs)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "replace", replace)

    def renames(self) -> list[str]:
        return [name for event, name in self.events if event == "replace"]

    def check_synced(self) -> None:
        """Every rename has its file synced just before it and its folder synced just after."""
        assert self.renames(), "nothing was renamed into place"
        for index, (event, _) in enumerate(self.events):
            if event == "replace":
                assert index > 0 and self.events[index - 1] == ("fsync", "file"), self.events
                assert index + 1 < len(self.events) and self.events[index + 1] == ("fsync", "folder"), self.events


# ------------------------------------------------------------------------------------------------ fsync


def test_the_helper_syncs_the_file_before_the_rename_and_the_folder_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """There was no fsync at all: after a power cut a renamed file could be empty."""
    log = WriteLog(monkeypatch)
    target = tmp_path / "game.ngr"
    write_text_atomically(target, "text\n")
    assert target.read_text() == "text\n"
    assert log.events == [("fsync", "file"), ("replace", "game.ngr"), ("fsync", "folder")]


def test_every_writer_of_state_goes_through_the_synced_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, state_dir: Path
) -> None:
    """Saves (the record and its secret), finished records, settings and what our AI keeps of an opponent."""
    from tui.opponents import OpponentMemory
    from tui.storage import Settings

    log = WriteLog(monkeypatch)
    store = SaveStore(state_dir)
    store.new_slot().save(RECORD, {"Seed": "1"})
    store.keep_record(RECORD)
    RECORD.save(tmp_path / "saved.ngr")
    Settings(state_dir / "settings.json").set("hint", True)
    OpponentMemory.load("someone", state_dir / "opponents").remember(RECORD, Side.P2)
    renamed = log.renames()
    assert [name.rsplit(".", 1)[-1] for name in renamed] == ["secret", "ngr", "ngr", "ngr", "json", "json"]
    log.check_synced()


def test_a_solved_table_is_written_through_the_synced_helper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache wrote its tables with a rename of its own and no fsync, and a killed write left a temporary file
    (of hundreds of MB for the largest tables) that nothing removed."""
    from solvers import cache

    log = WriteLog(monkeypatch)
    loaded = cache.load_or_build("crash-test", {"n": 1}, lambda: {"a": np.arange(5)})
    assert loaded.source == "built" and loaded.path.is_file()
    assert log.renames() == [loaded.path.name]
    log.check_synced()
    assert cache.load_or_build("crash-test", {"n": 1}, lambda: {"a": np.arange(5)}).source == "cache"


# ------------------------------------------------------------------------------------------------ killed writes

#: A child that writes with one of nashplay's writers and is killed (SIGKILL) at its rename: between the temporary
#: file's last byte and its rename, where a kill during a save used to leave a ``.tmp`` file behind.
KILLED_WRITE = """
import os, signal, sys
from pathlib import Path

def killed(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

os.replace = killed
from core.record import Record
from tui.saves import SaveStore
from tui.storage import Settings

record = Record({"Game": "nim", "Rule": "nim", "Start": "3 4 5"}, [])
store = SaveStore(Path(sys.argv[2]))
if sys.argv[1] == "slot":
    store.new_slot().save(record, {"Seed": "1"})
elif sys.argv[1] == "record":
    store.keep_record(record)
else:
    Settings(Path(sys.argv[2]) / "settings.json").set("hint", True)
"""


def killed_write(writer: str, state: Path) -> None:
    state.mkdir(parents=True, exist_ok=True)
    process = subprocess.run(
        [sys.executable, "-c", KILLED_WRITE, writer, str(state)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert process.returncode == -9, process.stderr


#: How long ago an abandoned temporary file was last written, in these tests: longer than any writer takes, and
#: than the margin the cleaning leaves to writers still at work.
A_DAY = 86400.0


def leftovers(folder: Path) -> list[Path]:
    return sorted(folder.rglob(".*.tmp"))


def backdate(path: Path, seconds: float) -> None:
    """Make ``path`` look untouched for ``seconds`` (its modification time moved back; no waiting)."""
    then = path.stat().st_mtime - seconds
    os.utime(path, (then, then))


@pytest.mark.parametrize(("writer", "folder"), [("slot", "games"), ("record", "records"), ("settings", ".")])
def test_a_write_killed_before_its_rename_is_cleaned_at_the_next_start(
    writer: str, folder: str, state_dir: Path
) -> None:
    killed_write(writer, state_dir)
    [left] = leftovers(state_dir)  # the kill leaves the temporary file: nothing else could remove it
    assert left.parent == state_dir / folder
    backdate(left, A_DAY)
    SaveStore(state_dir)  # the state folder opened, as the app does at start-up
    assert leftovers(state_dir) == []


def test_a_temporary_being_written_by_another_nashplay_is_left_alone(state_dir: Path) -> None:
    """A temporary file younger than the margin may be another nashplay's write in progress: it stays."""
    killed_write("slot", state_dir)
    [left] = leftovers(state_dir)
    SaveStore(state_dir)
    assert left.exists()


def test_only_nashplays_own_temporary_names_are_removed(state_dir: Path) -> None:
    """Files the user put in the state folder are never removed, however old and whatever they end with."""
    games = state_dir / "games"
    games.mkdir(parents=True)
    theirs = [games / name for name in ("notes.tmp", ".notes.tmp", ".game.ngr.tmp", ".game.ngr.123456.tmp")]
    ours = games / ".game.ngr.0123456789ab.tmp"
    for path in [*theirs, ours]:
        path.write_text("x")
        backdate(path, A_DAY)
    SaveStore(state_dir)
    assert not ours.exists()
    assert all(path.exists() for path in theirs)


def test_headless_connect_cleans_its_record_folder(tmp_path: Path) -> None:
    """``connect --save DIR`` writes its records (through the same helper) in a folder the app never opens: it is
    cleaned when connect opens it."""
    import argparse

    from tui.cli import connect as connect_cli

    folder = tmp_path / "records"
    folder.mkdir()
    stale, fresh = folder / ".contest-1.ngr.00112233aabb.tmp", folder / ".contest-2.ngr.00112233aabc.tmp"
    stale.write_text("x")
    fresh.write_text("x")
    backdate(stale, A_DAY)
    assert connect_cli.save_dir_for(argparse.Namespace(save=str(folder))) == folder
    assert not stale.exists() and fresh.exists()


@given(st.text(st.characters(codec="utf-8", exclude_characters="/\0"), min_size=1, max_size=80))
def test_temporary_names_are_told_from_every_other_name(name: str) -> None:
    """The name of every temporary file the helper makes is recognised as one; a name that does not start with a dot
    (every record, save and setting nashplay writes) never is."""
    from core.record import is_temporary_name, temporary_name

    assert is_temporary_name(temporary_name(name))
    if not name.startswith("."):
        assert not is_temporary_name(name)


# ------------------------------------------------------------------------------------------------ review scratch


def test_review_scratch_folders_are_nashplays_own_and_cleaned_at_start(state_dir: Path) -> None:
    """A review made its folder in the system's temporary folder, and a kill during a review left it there for
    ever. It is now under the state folder, and an abandoned one goes at the next start (a folder still in use by
    another nashplay, whose review writes its progress there, stays)."""
    from tui.saves import scratch_folder

    abandoned, in_use = scratch_folder("review"), scratch_folder("review")
    assert abandoned.parent == in_use.parent == state_dir / "tmp"
    assert abandoned != in_use and abandoned.name.startswith("review-")
    (abandoned / "progress").write_text("3 40")
    for path in (abandoned / "progress", abandoned):
        backdate(path, A_DAY)
    (in_use / "progress").write_text("3 40")
    backdate(in_use, A_DAY)  # an old folder whose review has just written its progress
    SaveStore(state_dir)
    assert not abandoned.exists() and in_use.exists()


def test_a_review_scratch_folder_falls_back_when_the_state_folder_is_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui.saves import scratch_folder

    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("NASHPLAY_STATE_DIR", str(blocked))
    folder = scratch_folder("review")
    try:
        assert folder.is_dir() and folder.name.startswith("nashplay-review-")
    finally:
        folder.rmdir()


def test_cleaning_never_stops_the_start(tmp_path: Path) -> None:
    """A state folder that is a file, or unreadable, is cleaned of nothing and opened all the same."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    SaveStore(blocked)
    started = time.time()
    SaveStore(tmp_path / "missing", clock=lambda: started)


@pytest.mark.parametrize("target", [".", "/", "..", "folder", "pipe"])
def test_only_a_file_is_written_never_a_folder_or_a_pipe_replaced(tmp_path: Path, target: str) -> None:
    """The save prompt given "." crashed the app (no name to put a temporary file beside), and given /dev/null or a
    named pipe it replaced the device or the pipe with a regular file."""
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe")
    path = tmp_path / target if target in ("folder", "pipe") else Path(target)
    with pytest.raises(OSError, match=r"folder|not a regular file") as refused:
        write_text_atomically(path, "x")
    assert refused.value.strerror and "\n" not in refused.value.strerror
    assert stat.S_ISFIFO((tmp_path / "pipe").stat().st_mode) and (tmp_path / "folder").is_dir()
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["folder", "pipe"]  # no temporary file left


def test_the_save_prompt_refuses_a_folder_in_one_line_and_the_game_goes_on(state_dir: Path) -> None:
    from pilot_helpers import run, wait_for
    from textual.widgets import Input

    from tui.app import NashplayApp, StartRequest
    from tui.config import GeisterConfig
    from tui.screens.game import GameScreen

    async def test() -> None:
        config = GeisterConfig("geister", Side.P1, "random", "BRRBBRRB", 3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("s")
            await wait_for(pilot, lambda: bool(app.screen.query(Input)), "the save prompt")
            app.screen.query_one(Input).value = "."
            await pilot.press("enter")
            await wait_for(pilot, lambda: "Could not save" in screen.message_text, "the refusal")
            assert "names a folder" in screen.message_text and app.is_running
            await pilot.press("colon", *"b2-b3", "enter")
            await wait_for(pilot, lambda: len(screen.session.state.moves()) >= 1, "a move after it")

    run(test)
