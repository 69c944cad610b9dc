"""Every test runs in its own directories: nothing is read from or written to the user's state, cache or cwd."""

from __future__ import annotations

from pathlib import Path

import pytest


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
