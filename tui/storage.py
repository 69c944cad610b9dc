"""Where the app keeps things between runs (the games in progress: ``tui.saves``), and the remembered settings.

Follows the XDG base directories (``$XDG_STATE_HOME``, default ``~/.local/state``); ``$NASHPLAY_STATE_DIR``
overrides it, which the tests use.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from core.record import read_capped, write_text_atomically


def state_dir() -> Path:
    override = os.environ.get("NASHPLAY_STATE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "nashplay"


#: The settings file is a handful of booleans and a theme's name: a larger one is damaged and is not read.
MAX_SETTINGS_BYTES = 64 * 1024


#: The longest text setting kept (a theme's name); a longer stored one is damaged and means the default.
MAX_TEXT_SETTING = 100


class Settings:
    """Choices the user made that should outlast the session (which advice panels are shown, the theme), as a small
    JSON file.

    A missing or unreadable file means the defaults (and is rewritten on the next change), and so does a value of
    the wrong type: settings are a convenience, never a reason to refuse to start.
    """

    DEFAULTS: dict[str, bool] = {
        "nim_advice": True,
        "footstep_advice": True,
        "mini_geister_advice": True,
        "search_advice": False,
        "goofspiel_advice": True,
        "hint": False,
    }
    #: Settings that are text (``""``: none chosen). The app checks that a stored theme still exists.
    TEXT_DEFAULTS: dict[str, str] = {"theme": ""}

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "settings.json"
        self.values = dict(self.DEFAULTS)
        self.texts = dict(self.TEXT_DEFAULTS)
        try:
            # Only a regular file of at most MAX_SETTINGS_BYTES is read (RecordError, a ValueError, otherwise): a
            # named pipe in its place is never opened, which would wait for ever for a writer.
            stored = json.loads(read_capped(self.path, MAX_SETTINGS_BYTES, "the settings"))
        except (OSError, ValueError, RecursionError):  # RecursionError: "[[[[..." nested past the parser's depth
            stored = {}
        if isinstance(stored, dict):
            self.values.update({k: v for k, v in stored.items() if k in self.DEFAULTS and isinstance(v, bool)})
            self.texts.update(
                {
                    k: v
                    for k, v in stored.items()
                    if k in self.TEXT_DEFAULTS and isinstance(v, str) and len(v) <= MAX_TEXT_SETTING
                }
            )

    def get(self, name: str) -> bool:
        return self.values[name]

    def set(self, name: str, value: bool) -> None:
        self.values[name] = value
        self._write()

    def get_text(self, name: str) -> str:
        return self.texts[name]

    def set_text(self, name: str, value: str) -> None:
        self.texts[name] = value
        self._write()

    def _write(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # A temporary name of its own: two instances changing a setting at once must not share one.
            write_text_atomically(self.path, json.dumps({**self.values, **self.texts}, indent=2) + "\n")
        except OSError:
            pass  # a read-only state directory: the choice holds for this session only
