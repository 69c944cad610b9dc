"""The engine compiled ahead (``tui.engine_compile``) and what the app says while it compiles
(``solvers.geister_engine.compiled_cache``).

The first advice on a machine waited for the engine's whole compilation after ``a`` (7.2 s with an empty cache, as
the issue measured), saying only "Starting the search in a background process...". Now the app starts compiling at
start-up when the engine is not compiled, the advice's process waits for that compilation instead of repeating it,
and the panel says how far it is and about how long is left. None of these tests compiles the engine (seconds of
processor time): the run's compilation (``tests/conftest.py``) is checked for its marker, and the rest is driven
with progress files and a process that only holds the lock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from app_helpers import SIZE
from pilot_helpers import run, wait_for

from core.game import Side
from solvers.geister_engine import compiled_cache
from solvers.geister_engine.compiled_cache import (
    COMPILED_MARKER,
    LOCK_FILE,
    PROGRESS_FILE,
    compile_progress,
    compiling,
    is_compiled,
    report_progress,
)
from tui import engine_compile
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.widgets.advice import AdvicePanel

fcntl = pytest.importorskip("fcntl")


def progress_file(folder: Path, **said: float) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / PROGRESS_FILE).write_text(json.dumps(said))


def test_the_runs_compilation_marked_the_engine_compiled() -> None:
    """The search's warm-up marks its cache folder once everything is compiled: the run's compilation did (the app
    would otherwise compile again at every start)."""
    if not os.environ.get("NASHPLAY_TEST_ENGINE_COMPILED"):
        pytest.skip("only a run on workers (-n 2, as the README's) compiles the engine once for the run")
    assert is_compiled()


def test_progress_is_read_with_the_time_left_and_moves_inside_a_long_step(tmp_path: Path) -> None:
    now = time.time()
    progress_file(tmp_path, share=0.2, started=now - 2, pid=os.getpid(), at=now - 1)
    said = compile_progress(tmp_path, now=now)
    assert said is not None and said.text() == "20%, about 8 s left"
    # The search is one call of several seconds: the share moves with the time it is expected to take.
    progress_file(tmp_path, share=0.4, started=now - 6, pid=os.getpid(), at=now - 3, step_to=1.0, step_seconds=6.0)
    said = compile_progress(tmp_path, now=now)
    assert said is not None and said.share == pytest.approx(0.7)
    assert said.text() == "70%, about 3 s left"
    # Past the step's expected time it stops short of the step's end: an estimate may be short.
    later = compile_progress(tmp_path, now=now + 60)
    assert later is not None and later.share == pytest.approx(0.94)


def test_no_progress_once_compiled_from_a_process_gone_or_from_a_damaged_file(tmp_path: Path) -> None:
    now = time.time()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True)
    progress_file(tmp_path, share=0.5, started=now, pid=int(gone.stdout), at=now)
    assert compile_progress(tmp_path) is None  # its process ended without finishing: nothing is compiling
    (tmp_path / PROGRESS_FILE).write_text('{"share": "half"')
    assert compile_progress(tmp_path) is None
    progress_file(tmp_path, share=0.5, started=now, pid=os.getpid(), at=now)
    (tmp_path / COMPILED_MARKER).write_text("compiled\n")
    assert compile_progress(tmp_path) is None


def test_report_progress_writes_what_compile_progress_reads(tmp_path: Path) -> None:
    started = time.time()
    report_progress(tmp_path, 0.25, started)
    said = compile_progress(tmp_path, now=started + 1)
    assert said is not None and said.share == pytest.approx(0.25) and said.left == pytest.approx(3.0)
    report_progress(None, 0.5, started)  # no folder (no cache): nothing written, nothing fails


def test_one_process_compiles_at_a_time_and_the_lock_is_reentrant(tmp_path: Path) -> None:
    """While a process compiles into a folder, another cannot take its lock (it waits, then loads); inside, the same
    process takes it again without waiting for itself (the kernels' warm-up runs inside the search's)."""
    release = tmp_path / "release"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from solvers.geister_engine.compiled_cache import compiling\n"
            "with compiling(Path(sys.argv[1])):\n"
            "    print('held', flush=True)\n"
            "    while not Path(sys.argv[2]).exists():\n"
            "        time.sleep(0.02)\n",
            str(tmp_path),
            str(release),
        ],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[1],
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        descriptor = os.open(tmp_path / LOCK_FILE, os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            release.touch()
            holder.wait(timeout=60)
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released with the process's compilation
            fcntl.flock(descriptor, fcntl.LOCK_UN)
        finally:
            os.close(descriptor)
    finally:
        release.touch()
        holder.wait(timeout=60)
    with compiling(tmp_path), compiling(tmp_path):
        pass


def test_the_app_compiles_the_engine_at_start_up_only_when_it_is_not_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """At start-up the app starts the compilation in the background when the engine is not compiled, and ends it with
    itself; when it is compiled, no process is started."""
    started: list[list[str]] = []
    ended: list[str] = []

    class Compiling:
        def __init__(self, command: list[str], **options: Any) -> None:
            started.append(command)

        def poll(self) -> int | None:
            return None

        def terminate(self) -> None:
            ended.append("terminate")

        def wait(self, timeout: float | None = None) -> int:
            return 0

    monkeypatch.setattr(NashplayApp, "COMPILE_ENGINE_AHEAD", True)
    monkeypatch.setattr(engine_compile.subprocess, "Popen", Compiling)

    async def once() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()

    monkeypatch.setattr(compiled_cache, "is_compiled", lambda folder=None: True)
    run(once)
    assert started == [] and ended == []
    monkeypatch.setattr(compiled_cache, "is_compiled", lambda folder=None: False)
    run(once)
    assert started == [[sys.executable, "-c", engine_compile.COMPILE_CODE]]
    assert ended == ["terminate"]  # it ends with the app


def test_the_advice_panel_says_how_far_the_compilation_is(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``a`` pressed while the engine compiles: the panel says so, with the share done and the time left, and where
    the compiled engine is kept."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    folder = compiled_cache.engine_folder()
    now = time.time()
    progress_file(folder, share=0.5, started=now - 4, pid=os.getpid(), at=now)
    # The search itself is not asked for: the panel's wait is what this test reads.
    monkeypatch.setattr(GameScreen, "search_advice", lambda *args: None)

    async def test() -> None:
        config = GeisterConfig("geister", Side.P1, "chototsu", "BRRBBRRB", 3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=(110, 34)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("a")
            panel = screen.query_one("#search-advice", AdvicePanel)
            await wait_for(pilot, lambda: "Compiling the search engine" in str(panel.render()), "the compile note")
            text = " ".join(str(panel.render()).split())
            assert "50%" in text and "s left" in text, text
            (folder / COMPILED_MARKER).write_text("compiled\n")  # done: the wait says the search starts
            await wait_for(pilot, lambda: "Compiling" not in str(panel.render()), "the note after the compilation")

    run(test)
