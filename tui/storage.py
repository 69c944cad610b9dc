"""Where the app keeps things between runs: the game in progress, and (for solvers) the cache directory.

Follows the XDG base directories (``$XDG_STATE_HOME``, default ``~/.local/state``); ``$NASHPLAY_STATE_DIR``
overrides it, which the tests use. The game in progress is a record file (the same notation as any record), so a
saved game can also be opened with ``nashplay replay``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from core.errors import NotationError
from core.record import Record


def state_dir() -> Path:
    override = os.environ.get("NASHPLAY_STATE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "nashplay"


class SavedGame:
    """The one game in progress, saved after every move and when the app quits, offered for resume at start."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "game-in-progress.ngr"

    def exists(self) -> bool:
        return self.path.is_file()

    def save(self, record: Record) -> None:
        record.save(self.path)

    def load(self) -> Record:
        """The saved record; raises ``NotationError`` (or ``OSError``) if it cannot be read."""
        return Record.load(self.path)

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)

    def set_aside(self) -> Path:
        """Move a damaged save out of the way (kept for the user to inspect) and return where it went."""
        target = self.path.with_name(f"{self.path.stem}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}{self.path.suffix}")
        self.path.replace(target)
        return target

    def describe(self) -> str | None:
        """One line for the menu ("Mini-Geister vs chototsu, ply 12"), or None when there is nothing to resume."""
        if not self.exists():
            return None
        try:
            record = self.load()
        except (NotationError, OSError, UnicodeDecodeError):
            return "a saved game (damaged: it will be set aside)"
        return f"{record.tags.get('Game', '?')} vs {record.tags.get('Opponent', '?')}, {len(record.moves)} moves played"

    def archive(self) -> Path:
        """Keep an unfinished game that a new game replaces (never lose a game): moved under ``unfinished/``."""
        folder = self.path.parent / "unfinished"
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{self.path.name}"
        self.path.replace(target)
        return target


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
    }

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "settings.json"
        self.values = dict(self.DEFAULTS)
        try:
            stored = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = {}
        if isinstance(stored, dict):
            self.values.update({k: v for k, v in stored.items() if k in self.DEFAULTS and isinstance(v, bool)})

    def get(self, name: str) -> bool:
        return self.values[name]

    def set(self, name: str, value: bool) -> None:
        self.values[name] = value
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(self.path.name + ".tmp")
            temporary.write_text(json.dumps(self.values, indent=2) + "\n", encoding="utf-8")
            temporary.replace(self.path)
        except OSError:
            pass  # a read-only state directory: the choice holds for this session only
