"""Where the app keeps things between runs (the games in progress: ``tui.saves``), and the remembered settings.

Follows the XDG base directories (``$XDG_STATE_HOME``, default ``~/.local/state``); ``$NASHPLAY_STATE_DIR``
overrides it, which the tests use.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from core.record import write_text_atomically


def state_dir() -> Path:
    override = os.environ.get("NASHPLAY_STATE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "nashplay"


#: The settings file is a handful of booleans: a larger one is damaged and is not read.
MAX_SETTINGS_BYTES = 64 * 1024


class Settings:
    """Choices the user made that should outlast the session (which advice panels are shown), as a small JSON file.

    A missing or unreadable file means the defaults (and is rewritten on the next change): settings are a
    convenience, never a reason to refuse to start.
    """

    DEFAULTS: dict[str, bool] = {
        "nim_advice": True,
        "footstep_advice": True,
        "mini_geister_advice": True,
        "search_advice": False,
        "hint": False,
    }

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "settings.json"
        self.values = dict(self.DEFAULTS)
        try:
            with self.path.open("rb") as file:
                data = file.read(MAX_SETTINGS_BYTES + 1)
            stored = json.loads(data) if len(data) <= MAX_SETTINGS_BYTES else {}
        except (OSError, ValueError, RecursionError):  # RecursionError: "[[[[..." nested past the parser's depth
            stored = {}
        if isinstance(stored, dict):
            self.values.update({k: v for k, v in stored.items() if k in self.DEFAULTS and isinstance(v, bool)})

    def get(self, name: str) -> bool:
        return self.values[name]

    def set(self, name: str, value: bool) -> None:
        self.values[name] = value
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # A temporary name of its own: two instances changing a setting at once must not share one.
            write_text_atomically(self.path, json.dumps(self.values, indent=2) + "\n")
        except OSError:
            pass  # a read-only state directory: the choice holds for this session only
