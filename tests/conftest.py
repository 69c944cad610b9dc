"""Every test runs in its own directories: nothing is read from or written to the user's state, cache or cwd.

Two things are set once for the whole run, before any worker starts, so that the suite does not depend on how it was
started or on what an earlier run left behind:

* **the interrupt signal at its default.** A shell starts a background job (``pytest ... &`` in a script, a CI
  runner without job control) with SIGINT ignored, and every process started from it inherits that: the tests that
  press Ctrl-C on a real ``nashplay`` command then wait for a command that cannot hear it. The tests start their
  commands as a terminal does, with the default handler.
* **one compiled-engine cache for the run** (``NUMBA_CACHE_DIR``, a fresh folder removed at the end): each test has
  its own nashplay cache folder, and without this every ``nashplay`` command and search process a test starts would
  compile the engine again (seconds each). The tests of the cache itself set their own folders.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

#: The ``NUMBA_CACHE_DIR`` this process created (and removes at the end), if it was the one to create it.
_CREATED_NUMBA_CACHE: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _CREATED_NUMBA_CACHE
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # Set by the controller before it starts the xdist workers, which inherit its environment.
    if "NASHPLAY_TEST_NUMBA_CACHE" not in os.environ:
        _CREATED_NUMBA_CACHE = tempfile.mkdtemp(prefix="nashplay-test-numba-")
        os.environ["NASHPLAY_TEST_NUMBA_CACHE"] = _CREATED_NUMBA_CACHE
        os.environ["NUMBA_CACHE_DIR"] = _CREATED_NUMBA_CACHE


def pytest_unconfigure(config: pytest.Config) -> None:
    if _CREATED_NUMBA_CACHE is not None:
        shutil.rmtree(_CREATED_NUMBA_CACHE, ignore_errors=True)


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
