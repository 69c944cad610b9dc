"""Games in progress kept between runs: one save slot per running game, every unfinished game offered for resume.

Each game in progress has its own slot in ``<state>/games/``, named by when and by which process it started:

- ``<id>.ngr``: the record as the player may see it (the opponent's set-up written ``?``), so opening it with
  ``nashplay replay`` or any editor shows nothing the board hid;
- ``<id>.secret``: what resuming needs and the player must not see while the game runs (the opponent's set-up, the
  seed of its generator): replay never reads it;
- ``<id>.lock``: held (``flock``) by the process playing that game, so a second nashplay neither offers it for
  resume nor writes over it. The lock dies with its process, so a crashed game is offered again at once.

Every game the app plays locally is kept so (the Geister family, TCG, Footstep, Nim: ``GameKeeper``); once it is
over its whole record goes to ``<state>/records/`` (where ``s`` saves records too), and the slot is cleared. The
recent games (``SaveStore.recent``) are the slots and the records of ``records/`` and ``contest/``, newest first.

Every failure of the file system (a read-only or unreadable state folder, a full disk) is reported as a
``SaveFolderError`` and never stops the app; a slot that cannot be read is moved aside into ``games/damaged/``. A
slot's files are read (its lock opened) only when they are regular files: a named pipe, a folder or a device in the
place of one is refused in one line without being opened in a way that waits, and makes the slot a damaged one.
Saves written by older versions (one ``game-in-progress.ngr``, and ``unfinished/``) are adopted as slots.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from core.errors import RecordError, clipped
from core.game import Side
from core.games import GAME_TYPES, units_of
from core.record import (
    STALE_TEMPORARY_SECONDS,
    Record,
    not_regular,
    prepare_record_folder,
    read_capped,
    remove_stale_temporaries,
    write_text_atomically,
)
from tui.game_life import concluded, resignation
from tui.storage import state_dir

try:  # POSIX; elsewhere games are not locked (two instances could then both resume one game)
    import fcntl
except ImportError:  # pragma: no cover - not on the platforms CI runs
    fcntl = None  # type: ignore[assignment]

#: The secret file is a few tags: anything larger is damaged, and is refused before it is read.
MAX_SECRET_BYTES = 64 * 1024
#: How a lock file is opened: made if missing, never waiting (a named pipe in its place), never becoming the
#: process's terminal, not inherited by a child; for reading only where it cannot be written.
_LOCK_FLAGS = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_LOCK_WRITE = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _LOCK_FLAGS
_LOCK_READ = os.O_RDONLY | _LOCK_FLAGS
#: The menu lists at most this many unfinished games (newest first); the others stay in the folder.
MAX_LISTED = 20
#: Slots the legacy layout used, adopted on first look.
LEGACY_SAVE = "game-in-progress.ngr"
LEGACY_FOLDER = "unfinished"
#: The state folder's folders of finished records: the app's own games (and ``s``), and the contest server's games.
RECORDS_FOLDER = "records"
CONTEST_FOLDER = "contest"
#: The recent-games list shows at most this many games (newest first).
MAX_RECENT = 40
#: The state folder's folder of scratch folders (a review's progress, which its process writes and the app reads):
#: nashplay's own, so that what a killed nashplay left there is found and removed at the next start, which the
#: system's temporary folder would keep until a reboot (or for ever).
SCRATCH_FOLDER = "tmp"


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
        be resumed (unsaved from there on), and two nashplays still do not both play it.

        Opened without waiting (a named pipe in its place would keep ``open`` waiting for ever for a partner, and
        Ctrl-C cannot reach it there) and taken only when it is a regular file: ``SaveFolderError`` otherwise."""
        try:
            descriptor, how = os.open(self.lock_path, _LOCK_WRITE, 0o666), "ab"
        except OSError:  # read-only; or a named pipe with no reader, a folder: looked at below, opened for reading
            try:
                descriptor, how = os.open(self.lock_path, _LOCK_READ), "rb"
            except FileNotFoundError:
                return None
        try:
            mode = os.fstat(descriptor).st_mode
            if not stat.S_ISREG(mode):
                raise SaveFolderError(f"{self.lock_path.name} {not_regular(mode)}: the game's lock is a file")
            return os.fdopen(descriptor, how)
        except BaseException:
            os.close(descriptor)
            raise

    def _check_lock(self) -> None:
        """``RecordError`` when something other than a regular file stands where the lock should be (a named pipe,
        a folder, a device): the slot cannot be taken, and is damaged."""
        try:
            mode = os.stat(self.lock_path).st_mode
        except OSError:
            return  # missing (made when the game is taken), or not to be looked at: taking it says why
        if not stat.S_ISREG(mode):
            raise RecordError(f"{self.lock_path.name} {not_regular(mode)}: the game's lock is a file")

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
        record = self.load_public()
        record.tags.update(self._secret_tags())
        return record

    def load_public(self) -> Record:
        """The record as the player may see it (for the menu's description): the secret is not read. A lock that is
        not a regular file makes the slot damaged too (``RecordError``): it could never be taken."""
        record = Record.load(self.path)
        self._check_lock()
        return record

    def _secret_tags(self) -> dict[str, str]:
        try:
            # Only a regular file of at most MAX_SECRET_BYTES is read; a named pipe is never opened.
            data = read_capped(self.secret_path, MAX_SECRET_BYTES, "a save's secret")
        except FileNotFoundError:
            return {}  # a save from an older version: the record itself holds every tag
        try:
            stored = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: "[[[[..." past the parser's depth
            raise RecordError(f"{self.secret_path.name} is not the JSON it should be: it is damaged") from None
        tags = stored.get("tags") if isinstance(stored, dict) else None
        if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
            raise RecordError(f"{self.secret_path.name} holds no tags: it is damaged")
        return tags

    def describe(self) -> str:
        """One line for the menu: the game, the opponent, how far it went (and where it stands, for the games whose
        record hides nothing), when it was saved."""
        record = self.load_public()
        try:
            saved = time.strftime("%d %b %H:%M", time.localtime(self.path.stat().st_mtime))
        except OSError:
            saved = "?"
        game = game_label(record)
        opponent = clipped(record.tags.get("Opponent", "?"), 30)
        return f"{game} vs {opponent}, {progress(record, standing=True)} (saved {saved})"

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
        self.clean()

    def clean(self) -> list[Path]:
        """Remove what killed writes left in the state folder (asked when it is opened, at start-up): the temporary
        files of saves, records, settings and opponents' profiles, and the scratch folders of reviews, each once it
        is old enough to be no running nashplay's (``STALE_TEMPORARY_SECONDS``). Returns what was removed; never
        raises (a folder that cannot be cleaned is still a folder that can be used)."""
        now = self._clock()
        removed: list[Path] = []
        opponents = self.state / "opponents"  # what our AI keeps of each opponent (``tui.opponents``, a floor above)
        for folder in (self.state, self.folder, self.records, self.state / CONTEST_FOLDER, opponents):
            removed += remove_stale_temporaries(folder, now)
        removed += remove_stale_scratch(self.state / SCRATCH_FOLDER, now)
        return removed

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

    # ---- finished games

    @property
    def records(self) -> Path:
        """Where finished games' records are kept (and where ``s`` proposes to save one)."""
        return self.state / RECORDS_FOLDER

    def record_path(self, game: str) -> Path:
        """A new file in ``records/`` for a record of ``game``: named by the game and the time, and unique."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self._clock()))
        name = re.sub(r"[^A-Za-z0-9-]", "_", game)[:40] or "game"
        return self.records / f"{name}-{stamp}-{secrets.token_hex(3)}.ngr"

    def keep_record(self, record: Record, path: Path | None = None) -> Path:
        """Write ``record`` into ``records/`` (at ``path``, else a new name) and return where; ``OSError`` says why
        it could not."""
        target = path or self.record_path(record.tags.get("Game", "game"))
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(target, record.to_text())
        return target

    # ---- ending a saved game without playing it: resign it, or delete it

    def resign(self, slot: SaveSlot) -> Path:
        """Resign the saved game in ``slot`` without opening it: its whole record (every secret revealed, as at any
        end), ended by the user's resignation, goes into ``records/`` and the slot goes. Returns the record's path;
        ``SaveFolderError`` when another nashplay plays it, ``RecordError`` for a damaged save, ``OSError`` when the
        record cannot be written (the slot then stays)."""
        if not slot.claim():
            raise SaveFolderError("the game is open in another nashplay")
        try:
            record = slot.load()
            human = Side.P2 if record.tags.get("Human") == "2" else Side.P1
            concluded(record, resignation(record.tags["Game"], human))
            path = self.keep_record(record)
        except BaseException:
            slot.release()
            raise
        slot.clear()
        return path

    def delete(self, slot: SaveSlot) -> None:
        """Delete the saved game in ``slot``: nothing of it is kept. ``SaveFolderError`` when another nashplay
        plays it."""
        if not slot.claim():
            raise SaveFolderError("the game is open in another nashplay")
        slot.clear()

    def delete_record(self, path: Path) -> None:
        """Delete a finished game's record from ``records/`` or ``contest/`` (``OSError`` says why not)."""
        if path.parent not in (self.records, self.state / CONTEST_FOLDER):
            raise ValueError(f"{path} is not a record nashplay kept")
        path.unlink()

    # ---- the recent games

    def recent(self, limit: int = MAX_RECENT) -> list[RecentGame]:
        """The games to find again, newest first (at most ``limit``): the games in progress no other nashplay is
        playing, and the records kept in ``records/`` and ``contest/``. Nothing here raises: a folder that cannot be
        read, and a file that is not a record, are entries that say so."""
        found: list[tuple[float, Path, bool]] = []
        problems: list[RecentGame] = []
        with contextlib.suppress(OSError):
            self._adopt_legacy()
        for folder, in_progress in ((self.folder, True), (self.records, False), (self.state / CONTEST_FOLDER, False)):
            try:
                if not folder.is_dir():
                    continue
                paths = _records_in(folder)
            except OSError as error:
                problems.append(
                    RecentGame(folder, None, 0.0, problem=f"cannot read {folder}: {error.strerror or error}")
                )
                continue
            found += [(_mtime(path), path, in_progress) for path in paths]
        found.sort(key=lambda entry: entry[0], reverse=True)
        games: list[RecentGame] = []
        for when, path, in_progress in found:
            if len(games) >= limit:
                break
            if in_progress and SaveSlot(self.folder, path.stem).in_use_elsewhere():
                continue  # being played in another nashplay: resumed there, not here
            games.append(RecentGame.read(path, path.stem if in_progress else None, when))
        return problems + games

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
    """The records (``*.ngr``) in ``folder``: every entry so named but a folder. What is not a regular file (a named
    pipe, a device) is listed too, so that reading it says why it cannot be opened (``Record.load`` refuses it
    without opening it) instead of its vanishing without a word. ``OSError`` when the folder cannot be read:
    ``Path.glob`` skips a folder it may not read (Python 3.11), and every saved game would vanish without a word."""
    with os.scandir(folder) as entries:
        return [Path(entry.path) for entry in entries if entry.name.endswith(".ngr") and not _is_folder(entry)]


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def scratch_folder(kind: str, state: Path | None = None) -> Path:
    """A new, empty folder of its own for a temporary ``kind`` of work (``"review"``), under the state folder's
    ``tmp/`` (``state``: the state folder, by default ``tui.storage.state_dir()``). Its maker removes it when done;
    a kill leaves it, and the next start removes it (``SaveStore.clean``). A state folder that cannot take it (read
    only, full) gives one in the system's temporary folder, as before: the work is worth doing all the same."""
    if state is None:
        state = state_dir()
    try:
        parent = state / SCRATCH_FOLDER
        parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=parent))
    except OSError:
        return Path(tempfile.mkdtemp(prefix=f"nashplay-{kind}-"))


def remove_stale_scratch(parent: Path, now: float | None = None, age: float = STALE_TEMPORARY_SECONDS) -> list[Path]:
    """Remove the scratch folders in ``parent`` that nothing has touched for ``age`` seconds before ``now``: neither
    the folder nor anything in it (a review in progress in another nashplay writes its progress there after every
    move, so its folder stays). Returns what was removed; never raises."""
    limit = (time.time() if now is None else now) - age
    removed = []
    try:
        with os.scandir(parent) as entries:
            folders = [Path(entry.path) for entry in entries if entry.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    for folder in folders:
        try:
            with os.scandir(folder) as entries:
                touched = max(
                    [folder.lstat().st_mtime, *(entry.stat(follow_symlinks=False).st_mtime for entry in entries)]
                )
        except OSError:
            continue
        if touched < limit:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def iter_descriptions(slots: list[SaveSlot]) -> Iterator[tuple[SaveSlot, str]]:
    """Each slot with its menu line; a slot whose record cannot be read says so (it is set aside on resume)."""
    for slot in slots:
        try:
            yield slot, slot.describe()
        except Exception:  # whatever a damaged file provokes, it must not keep the menu from showing
            yield slot, f"a saved game (damaged: it will be set aside) [{slot.id}]"


# ------------------------------------------------------------------------------------------------ keeping a game


class GameKeeper:
    """One local game kept on disk as it goes: while it runs, in a save slot of its own (offered for resume, the
    opponent's secrets apart); once over, its whole record in ``records/`` (found again in the recent games), and the
    slot cleared. A move taken back after the end makes it a game in progress again: its finished record goes, so
    that a game is one file wherever it is.

    ``keep`` is called after every change (and may be called more often: what is already on disk is not written
    again). It raises ``OSError`` (``SaveFolderError`` among them) when the state folder cannot take the game; the
    screen says so once and the game goes on."""

    def __init__(self, store: SaveStore, slot: SaveSlot | None = None) -> None:
        self.store = store
        #: The game's save slot (taken at its first save; a resumed game's own).
        self.slot = slot
        #: Where the finished game's record was kept (``None``: the game is not over, or it could not be kept).
        self.finished: Path | None = None
        self._written = ""

    def keep(self, public: Record, secret: dict[str, str], finished: Record | None = None) -> None:
        """Keep the game as it stands: while it runs, ``public`` (what the player may see) and ``secret`` (what
        resuming needs) in the slot; once it is over, ``finished`` (its whole record, everything revealed) in
        ``records/``."""
        text = finished.to_text() if finished is not None else public.to_text() + json.dumps(secret, sort_keys=True)
        if text == self._written:
            return
        if finished is not None:
            try:
                self.finished = self.store.keep_record(finished, self.finished)
            finally:
                if self.slot is not None:
                    self.slot.clear()  # over: no longer offered for resume, even when its record could not be kept
        else:
            self._forget_finished()
            if public.moves:  # a game with no move is not kept: nothing in it a new game does not give
                if self.slot is None:
                    self.slot = self.store.new_slot()
                self.slot.save(public, secret)
            elif self.slot is not None:
                self.slot.clear()  # taken back to the start: nothing to resume
        self._written = text

    def abandon(self) -> None:
        """A new game on the same screen: the one played so far stays as it is (in progress: offered for resume;
        over: in ``records/``), and the next ``keep`` starts a slot of its own."""
        self.release()
        self.slot = None
        self.finished = None
        self._written = ""

    def discard(self) -> None:
        """The game is aborted: nothing of it is kept (its slot cleared, a finished record removed), and the next
        ``keep`` starts a slot of its own."""
        if self.slot is not None:
            self.slot.clear()
        self._forget_finished()
        self.slot = None
        self._written = ""

    def release(self) -> None:
        """The screen closes: the game stays in its slot for resume (by this nashplay or another)."""
        if self.slot is not None:
            self.slot.release()

    def _forget_finished(self) -> None:
        if self.finished is not None:
            with contextlib.suppress(OSError):
                self.finished.unlink(missing_ok=True)
            self.finished = None


# ------------------------------------------------------------------------------------------------ the recent games


@dataclass(frozen=True)
class RecentGame:
    """One line of the recent games: a game in progress (its save slot: resumed), a finished record (replayed), or
    what could not be read (``problem``)."""

    path: Path
    #: The save slot of a game in progress; ``None`` for a record file.
    slot_id: str | None
    #: When it was last saved (seconds since the epoch; 0 when unknown).
    when: float
    game: str = "?"
    opponent: str = "?"
    #: How it ended for the user ("you won (1-0)"), or how far it went.
    result: str = ""
    #: Why it cannot be opened (``None``: it can be).
    problem: str | None = None

    @classmethod
    def read(cls, path: Path, slot_id: str | None, when: float) -> RecentGame:
        """The entry for the record at ``path`` (its public part only: a slot's secret is not read)."""
        try:
            record = Record.load(path)
            return cls(path, slot_id, when, game_label(record), opponent_of(record), outcome_for_user(record, slot_id))
        except Exception as error:  # whatever a damaged file provokes, the list shows it and goes on
            text = str(error).splitlines()[0] if str(error) else type(error).__name__
            text = text.replace(f"{path}: ", "").replace(str(path), "it")  # the line names the file already
            return cls(path, slot_id, when, problem=f"damaged: {clipped(text, 80)}")

    @property
    def in_progress(self) -> bool:
        return self.slot_id is not None

    def line(self, width: int = 200) -> str:
        """One line of at most ``width`` characters: when, the game, the opponent, the result."""
        date = time.strftime("%d %b %H:%M", time.localtime(self.when)) if self.when else "?"
        if self.problem is not None:
            text = f"{date}  {self.path.name}: {self.problem}"
        else:
            text = f"{date}  {self.game} vs {self.opponent}: {self.result}"
        return text if len(text) <= width else text[: max(0, width - 3)] + "..."

    @property
    def title(self) -> str:
        """The title of its replay or review."""
        return f"{self.game} vs {self.opponent}: {self.result}"

    def load(self) -> Record:
        """The record (for a replay or a review). ``RecordError`` or ``OSError`` when it cannot be read."""
        return Record.load(self.path)

    @staticmethod
    def viewer(record: Record) -> Side:
        """The side the user played (``Human``), the side a replay shows the game from; player 1 when not said."""
        return Side.P2 if record.tags.get("Human") == "2" else Side.P1


def game_label(record: Record) -> str:
    """A record's game in a few words (its descriptor's ``label``): TCG's n, Footstep's n and k, Nim's rule; the
    Geister variant's name."""
    tags = record.tags
    game = tags.get("Game", "?")
    described = GAME_TYPES.get(game)
    return clipped(game, 30) if described is None else described.label_of(tags)


def opponent_of(record: Record) -> str:
    """Who the user played: the ``Opponent`` tag, else the other player's name."""
    tags = record.tags
    if "Opponent" in tags:
        return clipped(tags["Opponent"], 30)
    human = tags.get("Human")
    other = {"1": "Player2", "2": "Player1"}.get(human or "", "Player2")
    return clipped(tags.get(other, "?"), 30)


def progress(record: Record, standing: bool = False) -> str:
    """How far a game went ("3 rounds played"); ``standing``: and where it stands, for the games whose record hides
    nothing (TCG's points, Footstep's state, Nim's heaps: a replay of a few moves). Raises ``RecordError`` for moves
    that do not replay."""
    game = GAME_TYPES.get(record.tags.get("Game", ""))
    count = len(record.moves)
    one, many = units_of(record.tags.get("Game", ""))
    text = f"{count} {one if count == 1 else many} played"
    if standing and game is not None and not game.hidden_information:
        text += f", {game.state_name} {game.state_text(record.final_state())}"  # one state, not one a move
    return text


#: Who won, by a record's result: player 1, player 2, or nobody.
_WINNER = {"1-0": "1", "2-0": "1", "0-1": "2", "0-2": "2", "1/2-1/2": "", "0-0": ""}


def outcome_for_user(record: Record, slot_id: str | None = None) -> str:
    """How the game ended for the user ("you won (1-0)"), or for a game not over how far it went."""
    result = record.result
    if result == "*":
        return ("in progress, " if slot_id is not None else "unfinished, ") + progress(record)
    winner = _WINNER.get(result)
    human = record.tags.get("Human")
    if winner is None:
        return clipped(result, 20)
    if winner == "":
        return f"draw ({result})"
    if human in ("1", "2") and record.tags.get("Opponent") != "human":
        return f"{'you won' if winner == human else 'you lost'} ({result})"
    return f"player {winner} won ({result})"
