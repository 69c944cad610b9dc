"""What our players remember of an opponent between sessions: the latest finished games against it, by name.

``nashplay connect`` plays the same opponent game after game (a contest session, a server's AI), and a finished game
reveals its colours: so its style becomes known. A profile is a small JSON file under the state folder's
``opponents/`` (the opponent's name made safe for a file name), holding the latest ``KEPT_GAMES`` records (both
set-ups kept) and which side the opponent played in each; a player that learns its opponent
(``LearnedPlayer.use_profile``) reads them at the start of each game. A damaged or unreadable profile is said once
and replaced: it is a convenience, never a reason not to play.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import RecordError, clipped
from core.game import Side
from core.record import Record, read_capped, write_text_atomically
from tui.storage import state_dir

__all__ = ["KEPT_GAMES", "OpponentMemory"]

#: Games kept per opponent: enough for its own style (a few thousand of its turns), and a file of a few hundred KB.
KEPT_GAMES = 40
#: A larger profile is damaged and is not read.
MAX_BYTES = 4 * 1024 * 1024


def _file_name(name: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "opponent"
    return safe[:80] + ".json"


@dataclass
class OpponentMemory:
    """The games remembered against one opponent (``load``), and ``remember`` for the next."""

    name: str
    path: Path
    games: list[tuple[str, int]]
    #: Why the stored profile could not be read, if it could not (it is replaced on the next save).
    problem: str | None = None

    @classmethod
    def load(cls, name: str, folder: Path | None = None) -> OpponentMemory:
        path = (folder or state_dir() / "opponents") / _file_name(name)
        try:
            # Only a regular file, and at most MAX_BYTES of it: a named pipe put there was waited on for ever.
            data = read_capped(path, MAX_BYTES, "an opponent's profile")
        except FileNotFoundError:
            return cls(name, path, [])
        except OSError as error:
            return cls(name, path, [], f"cannot read {path}: {error.strerror or error}")
        except RecordError as error:  # a named pipe, a folder, a device; a file past the cap
            return cls(name, path, [], f"{error}; starting afresh")
        try:
            stored: Any = json.loads(data)
            games = [(str(g["record"]), int(g["opponent"])) for g in stored["games"]]
            if any(side not in (1, 2) for _, side in games):
                raise ValueError("a side that is not 1 or 2")
        except (ValueError, KeyError, TypeError, RecursionError) as error:
            return cls(name, path, [], f"the profile {path} is damaged ({clipped(str(error), 80)}): starting afresh")
        return cls(name, path, games[-KEPT_GAMES:])

    def records(self) -> list[tuple[Record, Side]]:
        """Each remembered game's record and the side the opponent played; records that no longer parse are left
        out."""
        out = []
        for text, side in self.games:
            try:
                out.append((Record.parse(text), Side.from_number(side)))
            except (RecordError, ValueError):
                continue
        return out

    def remember(self, record: Record, opponent: Side) -> str | None:
        """Keep a finished game; the problem in words if the profile could not be written (the game still counts
        for this session)."""
        self.games = [*self.games, (record.to_text(), opponent.number)][-KEPT_GAMES:]
        data = {"name": self.name, "games": [{"record": text, "opponent": side} for text, side in self.games]}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomically(self.path, json.dumps(data) + "\n")
        except OSError as error:
            return f"cannot write {self.path}: {error.strerror or error}"
        return None
