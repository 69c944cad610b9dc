"""Games in progress kept between runs: one save slot per running game, every unfinished game offered for resume.

Each game in progress has its own slot in ``<state>/games/``, named by when and by which process it started:

- ``<id>.ngr``: the record as the player may see it (the opponent's set-up written ``?``), so opening it with
  ``nashplay replay`` or any editor shows nothing the board hid;
- ``<id>.secret``: what resuming needs and the player must not see while the game runs (the opponent's set-up, the
  seed of its generator): replay never reads it;
- ``<id>.lock``: held (``flock``) by the process playing that game, so a second nashplay neither offers it for
  resume nor writes over it. The lock dies with its process, so a crashed game is offered again at once.

Every failure of the file system (a read-only or unreadable state folder, a full disk) is reported as a
``SaveFolderError`` and never stops the app; a slot that cannot be read is moved aside into ``games/damaged/``.
Saves written by older versions (one ``game-in-progress.ngr``, and ``unfinished/``) are adopted as slots.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from core.errors import RecordError, clipped
from core.record import Record, prepare_record_folder, write_text_atomically

try:  # POSIX; elsewhere games are not locked (two instances could then both resume one game)
    import fcntl
except ImportError:  # pragma: no cover - not on the platforms CI runs
    fcntl = None  # type: ignore[assignment]

#: The secret file is a few tags: anything larger is damaged, and is refused before it is read.
MAX_SECRET_BYTES = 64 * 1024
#: The menu lists at most this many unfinished games (newest first); the others stay in the folder.
MAX_LISTED = 20
#: Slots the legacy layout used, adopted on first look.
LEGACY_SAVE = "game-in-progress.ngr"
LEGACY_FOLDER = "unfinished"


class SaveFolderError(OSError):
    """The state folder cannot be used as it should (read, written): the app goes on without that."""


class SaveSlot:
    """One game in progress: its record (as the player sees it), its secret, and its lock."""

    def __init__(self, folder: Path, slot_id: str) -> None:
        self.folder = folder
        self.id = slot_id
        self.path = folder / f"{slot_id}.ngr"
        self.secret_path = folder / f"{slot_id}.secret"
        self.lock_path = folder / f"{slot_id}.lock"
        self._lock: IO[bytes] | None = None
        #: Claimed without a lock: the folder is read-only and holds no lock file, so no process can lock the game
        #: (and none can write over it either).
        self._unlockable = False

    def __repr__(self) -> str:
        return f"SaveSlot({str(self.path)!r})"

    # ---- the lock

    def claim(self) -> bool:
        """Take the slot for this process; False when another process (another nashplay) holds it."""
        if self.claimed:
            return True
        self.folder.mkdir(parents=True, exist_ok=True)
        lock = self._open_lock()
        if lock is None:
            self._unlockable = True
            return True
        if fcntl is not None:
            try:
                fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                lock.close()
                return False
        self._lock = lock
        return True

    def release(self) -> None:
        """Let the slot go (it stays on disk for resume); the lock file is kept, since removing it would race with
        another process that is just taking it."""
        if self._lock is not None:
            self._lock.close()  # closing the descriptor drops the flock
            self._lock = None
        self._unlockable = False

    @property
    def claimed(self) -> bool:
        return self._lock is not None or self._unlockable

    def in_use_elsewhere(self) -> bool:
        """Whether another process holds the slot (checked by taking and dropping the lock)."""
        if self.claimed or fcntl is None:
            return False
        try:
            lock = self._open_lock()
        except OSError:
            return False  # a lock file we cannot open: nobody can hold it either
        if lock is None:
            return False
        with lock:
            try:
                fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
        return False

    def _open_lock(self) -> IO[bytes] | None:
        """The lock file, open (made if missing); ``None`` when it is missing and cannot be made. In a read-only
        state folder the lock file is opened for reading, which ``flock`` takes as well: the saved game can still
        be resumed (unsaved from there on), and two nashplays still do not both play it."""
        try:
            return self.lock_path.open("ab")
        except OSError:
            try:
                return self.lock_path.open("rb")
            except FileNotFoundError:
                return None

    # ---- the game

    def exists(self) -> bool:
        try:
            return self.path.is_file()
        except OSError:
            return False

    def save(self, public: Record, secret: dict[str, str]) -> None:
        """Write the record the player may see and, apart, the tags that resuming needs and the player may not see.
        The secret is written first: a crash between the two leaves an older record with a newer secret, which
        holds the same set-up and seed and so still resumes."""
        if not self.claim():
            raise SaveFolderError(f"the game {self.id} is open in another nashplay")
        secret_text = json.dumps({"version": 1, "tags": secret}, indent=1) + "\n"
        write_text_atomically(self.secret_path, secret_text, private=True)  # what the board hides: no one else's
        write_text_atomically(self.path, public.to_text())

    def load(self) -> Record:
        """The whole record (the secret's tags merged in). Raises ``RecordError`` for anything damaged, ``OSError``
        for files that cannot be read."""
        record = Record.load(self.path)
        record.tags.update(self._secret_tags())
        return record

    def load_public(self) -> Record:
        """The record as the player may see it (for the menu's description): the secret is not read."""
        return Record.load(self.path)

    def _secret_tags(self) -> dict[str, str]:
        try:
            with self.secret_path.open("rb") as file:
                data = file.read(MAX_SECRET_BYTES + 1)
        except FileNotFoundError:
            return {}  # a save from an older version: the record itself holds every tag
        if len(data) > MAX_SECRET_BYTES:
            raise RecordError(f"{self.secret_path.name} is larger than {MAX_SECRET_BYTES:,} bytes: it is damaged")
        try:
            stored = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: "[[[[..." past the parser's depth
            raise RecordError(f"{self.secret_path.name} is not the JSON it should be: it is damaged") from None
        tags = stored.get("tags") if isinstance(stored, dict) else None
        if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
            raise RecordError(f"{self.secret_path.name} holds no tags: it is damaged")
        return tags

    def describe(self) -> str:
        """One line for the menu: the game, the opponent, how far it went, when it was saved."""
        record = self.load_public()
        try:
            saved = time.strftime("%d %b %H:%M", time.localtime(self.path.stat().st_mtime))
        except OSError:
            saved = "?"
        game = clipped(record.tags.get("Game", "?"), 30)
        opponent = clipped(record.tags.get("Opponent", "?"), 30)
        plies = len(record.moves)
        return f"{game} vs {opponent}, {plies} {'ply' if plies == 1 else 'plies'} played (saved {saved})"

    def clear(self) -> None:
        """The game is over: its slot goes (a failure to remove is harmless: a finished record is not resumable)."""
        for path in (self.path, self.secret_path):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        self.release()
        with contextlib.suppress(OSError):
            self.lock_path.unlink(missing_ok=True)

    def set_aside(self) -> Path:
        """Move a damaged slot into ``damaged/`` (kept for the user to inspect) and return where its record went."""
        damaged = self.folder / "damaged"
        damaged.mkdir(parents=True, exist_ok=True)
        target = damaged / self.path.name
        for path in (self.path, self.secret_path):
            with contextlib.suppress(FileNotFoundError):
                path.replace(damaged / path.name)
        self.release()
        with contextlib.suppress(OSError):
            self.lock_path.unlink(missing_ok=True)
        return target


class SaveStore:
    """The folder of games in progress: new slots, the unfinished games to offer, and what went wrong with it."""

    def __init__(self, state: Path, clock: Callable[[], float] = time.time) -> None:
        self.state = state
        self.folder = state / "games"
        self._clock = clock
        #: How many unfinished games the last ``unfinished()`` left out (past ``MAX_LISTED``), for the menu to say.
        self.unlisted = 0

    def new_slot(self) -> SaveSlot:
        """A slot of its own for a game that starts now (unique even for two processes starting in one second)."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self._clock()))
        return SaveSlot(self.folder, f"{stamp}-{os.getpid()}-{secrets.token_hex(6)}")

    def slot(self, slot_id: str) -> SaveSlot:
        if "/" in slot_id or slot_id.startswith("."):
            raise ValueError(f"not a save slot: {clipped(slot_id)}")
        return SaveSlot(self.folder, slot_id)

    def unfinished(self) -> list[SaveSlot]:
        """Every game in progress that no other process is playing, newest first (at most ``MAX_LISTED``; how many
        more there are is left in ``unlisted``). Raises ``SaveFolderError`` when the folder cannot be read."""
        self.unlisted = 0
        try:
            self._adopt_legacy()
            if not self.folder.is_dir():
                return []
            paths = sorted(_records_in(self.folder), key=_mtime, reverse=True)
        except OSError as error:
            raise SaveFolderError(f"cannot read the saved games in {self.folder}: {error.strerror or error}") from None
        slots = [SaveSlot(self.folder, path.stem) for path in paths]
        free = [slot for slot in slots if not slot.in_use_elsewhere()]
        self.unlisted = max(0, len(free) - MAX_LISTED)
        return free[:MAX_LISTED]

    def check_writable(self) -> None:
        """Raises ``SaveFolderError`` when games cannot be saved in the folder (read-only, full, not a folder)."""
        try:
            prepare_record_folder(self.folder)
        except OSError as error:
            raise SaveFolderError(f"games cannot be saved in {self.folder} ({error.strerror or error})") from None

    def _adopt_legacy(self) -> None:
        """Saves of older versions become slots (their records still hold both set-ups until the next save)."""
        legacy = [self.state / LEGACY_SAVE]
        folder = self.state / LEGACY_FOLDER
        if folder.is_dir():
            legacy += sorted(_records_in(folder))
        for path in legacy:
            if path.is_file():
                self.folder.mkdir(parents=True, exist_ok=True)
                # Another nashplay starting at the same moment may have adopted it first: it is a slot already.
                with contextlib.suppress(FileNotFoundError):
                    path.replace(self.new_slot().path)


def _records_in(folder: Path) -> list[Path]:
    """The records (``*.ngr``) in ``folder``. ``OSError`` when it cannot be read: ``Path.glob`` skips a folder it
    may not read (Python 3.11), and every saved game would vanish without a word."""
    with os.scandir(folder) as entries:
        return [Path(entry.path) for entry in entries if entry.name.endswith(".ngr") and _is_file(entry)]


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def iter_descriptions(slots: list[SaveSlot]) -> Iterator[tuple[SaveSlot, str]]:
    """Each slot with its menu line; a slot whose record cannot be read says so (it is set aside on resume)."""
    for slot in slots:
        try:
            yield slot, slot.describe()
        except Exception:  # whatever a damaged file provokes, it must not keep the menu from showing
            yield slot, f"a saved game (damaged: it will be set aside) [{slot.id}]"
