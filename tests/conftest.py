"""Every test runs in its own directories: nothing is read from or written to the user's state, cache or cwd.

Two things are set once for the whole run, before any worker starts, so that the suite does not depend on how it was
started or on what an earlier run left behind:

* **the interrupt signal at its default.** A shell starts a background job (``pytest ... &`` in a script, a CI
  runner without job control) with SIGINT ignored, and every process started from it inherits that: the tests that
  press Ctrl-C on a real ``nashplay`` command then wait for a command that cannot hear it. The tests start their
  commands as a terminal does, with the default handler.
* **one compiled-kernel cache for the run** (``NUMBA_CACHE_DIR``, a fresh folder removed at the end): each test has
  its own nashplay cache folder, and without this every ``nashplay`` command and search process a test starts would
  compile the engine again (seconds each). The tests of the cache itself set their own folders. The Geister engine
  and the solvers' kernels are compiled into it once, by two processes started here (side by side) while the
  workers start and collect the tests, and every test waits for them before its first (so no two workers compile
  them at once, and no command a test starts does).
* **one bytecode cache for the run** (``PYTHONPYCACHEPREFIX``, a fresh folder removed at the end, nothing written
  beside the sources): a machine may set ``PYTHONDONTWRITEBYTECODE`` (this one's containers do), and then both
  workers rewrite the asserts of every test module themselves and every ``nashplay`` command a test starts compiles
  nashplay's modules again: some twenty seconds of a run's processor time, measured on 2 cores.

And the app tests wait on the app itself, not on the clock, which also makes them spend their time testing rather
than waiting (most of their wall time was idle):

* **the pilot's idle is the app's**: after each key and each ``pause()``, Textual's pilot sleeps in steps of 20 ms
  until a step passes with the process using under a twentieth of it. On a loaded machine that reads a process
  the scheduler starved as idle, and the test goes on before the app has handled the key. Here the pilot waits
  until every message pump of the app (the app, and every node of every screen on its stack) has no message
  queued or being handled and nothing scheduled after them, three turns of the event loop in a row. Work in
  threads and processes is waited for by the tests themselves (a worker's end, ``pilot_helpers.wait_for``).
* **no animations** (``TEXTUAL_ANIMATIONS=none``, Textual's own switch): a scroll or a toast lands at once instead
  of being waited for.
* **the stylesheets parsed once per worker**: every app parses the CSS of every widget class it uses and its own
  ``.tcss`` again (a user's process starts one app; a worker starts hundreds): the parsed rules are kept for the
  worker, keyed by the text, where it was read from and the theme's variables (what Textual's own per-app cache keys
  on, and the variables that parsing substitutes). Measured over the app tests: a tenth of their processor time.
* **the garbage collector's young generation collected every 50,000 allocations, not 700**: a worker creates and
  drops hundreds of apps, each a few thousand widgets, styles and strips, and Python's default thresholds walked
  those young objects again and again while they were still in use. Measured on three app test files on 2 cores: 27.3
  s of processor time with the defaults, 19.3 s with these, for 30 MB more at the peak.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from waiting import HANG_SECONDS, wait_until

#: Textual's own idle wait, for code that waits outside an app.
_TEXTUAL_WAIT_FOR_IDLE: Callable[[float, float], Awaitable[None]]
#: The ``NUMBA_CACHE_DIR`` this process created (and removes at the end), if it was the one to create it.
_CREATED_NUMBA_CACHE: str | None = None
#: The ``PYTHONPYCACHEPREFIX`` this process created (and removes at the end), if it was the one to create it.
_CREATED_PYCACHE: str | None = None


#: Turns of the event loop in a row with every message pump of the app at rest: the app is idle.
QUIET_TURNS = 3
#: Turns of the loop taken at once before waiting in short sleeps.
EAGER_TURNS = 200


def _count_dispatches() -> None:
    """Counts, on each message pump, the messages it is handling: its queue is empty while it handles the message
    it took (``_handling``, 0 when at rest)."""
    from textual.message_pump import MessagePump

    dispatch = MessagePump._dispatch_message

    async def counted(self: Any, message: Any) -> Any:
        self._handling = getattr(self, "_handling", 0) + 1
        try:
            return await dispatch(self, message)
        finally:
            self._handling -= 1

    MessagePump._dispatch_message = counted  # type: ignore[method-assign]


def _busy(app: Any) -> list[str]:
    """What keeps ``app`` from rest: a message pump with a message queued or being handled, or callbacks waiting
    for it, or its screen with something left to lay out, paint or recompose. What the screen has left is done now,
    as the pilot's ``pause`` does, rather than at the screen's next update tick. Empty: at rest."""
    if app._batch_count:
        return ["a batch update"]
    if app._resize_timer is not None:
        return ["a resize (Textual waits a tick for the next one)"]
    pumps = [app]
    for screen in app.screen_stack:
        pumps.extend(screen.walk_children(with_self=True))
    busy = [
        repr(pump)
        for pump in pumps
        if getattr(pump, "_handling", 0) or not pump._message_queue.empty() or pump._next_callbacks
    ]
    if busy:
        return busy
    screen = app.screen
    pending = (
        screen._layout_required
        or screen._scroll_required
        or screen._repaint_required
        or screen._recompose_required
        or screen._dirty_widgets
        or screen._callbacks
    )
    if pending:
        screen._on_timer_update()
        return [f"{screen!r} to update"]
    return []


async def _app_idle(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
    """Textual's ``wait_for_idle``, for the app the pilot drives: until its message pumps are at rest (see the
    module docstring). Outside an app (no active one), Textual's own."""
    from textual._context import active_app

    try:
        app = active_app.get()
    except LookupError:
        await _TEXTUAL_WAIT_FOR_IDLE(min_sleep, max_sleep)
        return
    quiet = 0
    busy: list[str] = []
    loop = asyncio.get_running_loop()
    ceiling = loop.time() + HANG_SECONDS
    for turn in itertools.count():
        if loop.time() > ceiling:
            raise AssertionError(f"the app never came to rest: {', '.join(busy)}")
        # Turns of the loop at once; once the app is busy for longer (a handler awaiting a thread), short sleeps
        # that leave the processor to it.
        await asyncio.sleep(0 if turn < EAGER_TURNS else 0.002)
        if not app.is_running:
            return  # it has exited (its queues are closed, some never drained)
        busy = _busy(app)
        quiet = 0 if busy else quiet + 1
        if quiet >= QUIET_TURNS:
            return


def _share_parsed_css() -> None:
    """Textual's per-stylesheet parse cache, kept for the worker (see the module docstring)."""
    from textual.css.stylesheet import Stylesheet

    parse = Stylesheet._parse_rules
    parsed: dict[tuple[object, ...], Any] = {}

    def parse_once(self: Any, css: str, read_from: Any, *args: Any, **kwargs: Any) -> Any:
        variables = tuple(sorted(self._variables.items()))
        key = (css, read_from, variables, args, tuple(sorted(kwargs.items())))
        if key not in parsed:
            parsed[key] = parse(self, css, read_from, *args, **kwargs)
        return parsed[key]

    Stylesheet._parse_rules = parse_once  # type: ignore[method-assign]


def _share_bytecode() -> None:
    """Bytecode written to one folder for the run, read by the workers and every process a test starts (see the
    module docstring). The controller makes the folder; the workers, started after this, inherit it."""
    global _CREATED_PYCACHE
    if "NASHPLAY_TEST_PYCACHE" not in os.environ:
        _CREATED_PYCACHE = tempfile.mkdtemp(prefix="nashplay-test-pycache-")
        os.environ["NASHPLAY_TEST_PYCACHE"] = os.environ["PYTHONPYCACHEPREFIX"] = _CREATED_PYCACHE
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    # This process's own imports from here on (the test modules, nashplay's): its flags were read at its start.
    sys.pycache_prefix = os.environ["NASHPLAY_TEST_PYCACHE"]
    sys.dont_write_bytecode = False


def pytest_configure(config: pytest.Config) -> None:
    global _CREATED_NUMBA_CACHE
    _share_bytecode()
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # Read by Textual when it is imported (the snapshot plugin has imported it already here) and by every app a test
    # starts in another process.
    os.environ["TEXTUAL_ANIMATIONS"] = "none"
    import textual._wait
    import textual.app
    import textual.constants
    import textual.pilot

    global _TEXTUAL_WAIT_FOR_IDLE
    textual.constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]
    _TEXTUAL_WAIT_FOR_IDLE = textual._wait.wait_for_idle
    # The pilot and the app's key presses import the function by name: both are replaced.
    textual.pilot.wait_for_idle = _app_idle  # type: ignore[assignment]
    textual.app.wait_for_idle = _app_idle  # type: ignore[assignment]
    _count_dispatches()
    _share_parsed_css()
    # Set by the controller before it starts the xdist workers, which inherit its environment.
    if "NASHPLAY_TEST_NUMBA_CACHE" not in os.environ:
        _CREATED_NUMBA_CACHE = tempfile.mkdtemp(prefix="nashplay-test-numba-")
        os.environ["NASHPLAY_TEST_NUMBA_CACHE"] = _CREATED_NUMBA_CACHE
        os.environ["NUMBA_CACHE_DIR"] = _CREATED_NUMBA_CACHE
        if getattr(config.option, "numprocesses", None):
            # Only for a run on workers: a run of a few tests in one process compiles what it needs, if anything.
            _start_compiling(Path(_CREATED_NUMBA_CACHE))


#: The garbage collector's thresholds in a worker (see the module docstring): Python's defaults are (700, 10, 10).
GC_THRESHOLDS = (50_000, 20, 50)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything imported so far (Textual, numpy, scipy, the test modules) lives until the end: the garbage
    collector need not look at it again. Without this its full passes grew with the run; the last ones, at the end
    of a worker, took long enough on a loaded machine that xdist's channel sent the worker a SIGINT to hurry it,
    which surfaced as a KeyboardInterrupt traceback from a collector callback (PytestUnraisableExceptionWarning)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def pytest_unconfigure(config: pytest.Config) -> None:
    for compiling in _COMPILING:
        if compiling.poll() is None:
            compiling.kill()
            compiling.wait()
    for created in (_CREATED_NUMBA_CACHE, _CREATED_PYCACHE):
        if created is not None:
            shutil.rmtree(created, ignore_errors=True)


#: The processes compiling the kernels into the run's cache, started by the controller.
_COMPILING: list[subprocess.Popen[bytes]] = []
#: What each compiling process compiles (side by side, one a core): the Geister engine, and the solvers' kernels
#: (the batched matrix games of TCG's solve, Footstep's levels), which every worker otherwise compiled itself at its
#: first TCG or Footstep solve.
COMPILE = {
    "engine": "from solvers.geister_engine import kernel, search; kernel.warm_up(); search.warm_up()",
    # Through kernels_ready, which leaves its markers: the screens then see the kernels compiled, as after a first use.
    "solvers": "from solvers import footstep, matrix; from solvers.kernels_ready import make_ready; "
    "make_ready('matrix', matrix.warm_up); make_ready('footstep', footstep.warm_up_with_matrix)",
}
COMPILE_SCRIPT = """
import sys
from pathlib import Path
done = Path(sys.argv[1])
try:
    exec(sys.argv[2])
    done.write_text("compiled")
except BaseException as error:
    done.write_text(f"not compiled: {error!r}")
    raise
"""


def _start_compiling(cache: Path) -> None:
    markers = []
    for what, code in COMPILE.items():
        done = cache / f"compiled-{what}"
        markers.append(str(done))
        _COMPILING.append(
            subprocess.Popen(
                [sys.executable, "-c", COMPILE_SCRIPT, str(done), code],
                cwd=Path(__file__).resolve().parents[1],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    os.environ["NASHPLAY_TEST_ENGINE_COMPILED"] = os.pathsep.join(markers)


@pytest.fixture(scope="session")
def shared_solved_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A solver cache folder shared by every test and worker of the run (the controller's base temporary folder),
    for tests that read big solved tables (the 6x6 endgame tables take seconds to build) and test nothing of the
    cache itself: the first builds them, the others load them. Writes are atomic, so two workers building at once
    only build twice."""
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker's base is a child of the run's: share the parent's.
    folder = (base.parent if base.name.startswith("popen-gw") else base) / "shared-solved-tables"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture
def use_shared_solved_tables(shared_solved_tables: Path, state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's solver cache is the run's shared one (after ``state_dir`` has given it its own)."""
    monkeypatch.setenv("NASHPLAY_CACHE_DIR", str(shared_solved_tables))
    return shared_solved_tables


@pytest.fixture(scope="session", autouse=True)
def engine_compiled() -> None:
    """Waits for the run's compilation of the engine (see the module docstring). If it failed, the tests compile it
    themselves, as a user's first search does."""
    markers = os.environ.get("NASHPLAY_TEST_ENGINE_COMPILED")
    for marker in markers.split(os.pathsep) if markers else ():
        wait_until(Path(marker).exists, "the kernels' compilation for the test run", poll=0.1)


@pytest.fixture(autouse=True)
def interrupt_handler_kept() -> Iterator[None]:
    """Every test leaves Ctrl-C's handler as it found it: a test that left it ignored made every later command a
    test starts deaf to Ctrl-C (a Ctrl-C test then waited for a command that could not hear it)."""
    before = signal.getsignal(signal.SIGINT)
    yield
    after = signal.getsignal(signal.SIGINT)
    if after is not before:
        signal.signal(signal.SIGINT, before)
        raise AssertionError(f"the test changed the Ctrl-C handler from {before!r} to {after!r}")


@pytest.fixture(autouse=True)
def no_advice_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Geister screens start the advice's process as a game opens (``BoardScreen.WARM_ADVICE_AHEAD``): not in
    the tests, each of which would start a search process it never uses, but for those that test it; nor does the
    app compile the engine at start-up."""
    from tui.app import NashplayApp
    from tui.screens.board_screen import BoardScreen

    monkeypatch.setattr(BoardScreen, "WARM_ADVICE_AHEAD", False)
    # Nor the engine's compilation at start-up (``tui.engine_compile``): the run compiles it once for every test.
    monkeypatch.setattr(NashplayApp, "COMPILE_ENGINE_AHEAD", False)


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The saved-game folder of this test (``NASHPLAY_STATE_DIR``); the solver cache goes to ``tmp_path / "cache"``,
    and the working directory (where the save prompt proposes files) is ``tmp_path``."""
    folder = tmp_path / "state"
    monkeypatch.setenv("NASHPLAY_STATE_DIR", str(folder))
    monkeypatch.setenv("NASHPLAY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.chdir(tmp_path)
    return folder
