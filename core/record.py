"""Game records in the PGN-like text of ``spec/notation.md``: tag pairs, move text, result.

A record replays exactly: ``Record.replay()`` applies every move to a fresh game and returns every position
on the way; an illegal or malformed move is reported with its line and move number. What steps through a long
record takes ``Record.positions()`` (a state every ``CHECKPOINT_PLIES``, the others replayed when asked), what needs
its end ``Record.final_state()``: a state a move of a 10,000-move heap game was about 830 MB. Records are written by
``Record.from_game`` and read by ``Record.parse``; ``parse(text).to_text() == text`` for records this module
wrote.

Every game has records. The Geister family's tags are its set-ups and start (``new_game``, ``replay``: typed
``GeisterState``); the other games' (``new_state``, ``replay_states``: any ``core.game.Game``) are their parameters
(``N`` for TCG; ``N`` and ``K`` for Footstep; ``Rule`` and ``Misere`` for Nim; ``Cards`` for Goofspiel, with the
order its prizes came up in, ``Deck``) and the ``Start`` state in the game's notation, each as its descriptor says
(``core.game_type``); a simultaneous round is one token with both actions (``ca``, ``3:5``), numbered as a move.
Footstep results are the points (``2-0``, ``0-1``, ``0-0``).
"""

from __future__ import annotations

import collections
import contextlib
import errno
import os
import re
import secrets
import stat
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeVar, overload

from core.errors import RecordError, clipped, quoted
from core.game import Game, Outcome, Side
from core.geister import GeisterState
from core.notation import Move

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: Footstep's results in points: 2 for the goal, 1 for the half, 0-0 a draw (``spec/notation.md``).
POINT_RESULTS = ("2-0", "0-2", "0-0")

_TAG_RE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN_RE = re.compile(r"\{[^}]*\}|\{[^}]*$|\d+\.(?:\.\.)?|\S+")

#: The largest record read, in characters (and bytes on disk): the longest game (300 plies) with a comment on
#: every move fits many times over; anything bigger is not a record, and is refused before it is read.
MAX_RECORD_CHARS = 1_000_000

#: The most moves a record may hold: no variant's game is longer than 300 plies.
MAX_RECORD_MOVES = 10_000

#: Characters a terminal acts on instead of showing (C0 and C1 controls, DEL, but the tab): an escape sequence in a
#: tag or a comment could set the terminal's title or clipboard when a record is listed, a carriage return or a
#: backspace write over what was printed.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
#: What a control character of a record becomes: the replacement character, which no notation takes (a tag with one
#: still fails to parse where it would have).
REPLACEMENT = "\ufffd"


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on (``_CONTROL_RE``: escapes, bells, backspaces, line
    breaks...) replaced: one line, shown as it is, for what prints a tag, a comment or a file's name."""
    return _CONTROL_RE.sub(REPLACEMENT, text)


@dataclass
class RecordedMove:
    text: str
    comment: str | None = None
    line: int = 0


@dataclass
class Record:
    """Tags (in order), moves with optional ``{comments}``, and the result."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[RecordedMove] = field(default_factory=list)

    # ---- reading

    @classmethod
    def parse(cls, text: str) -> Record:
        if len(text) > MAX_RECORD_CHARS:
            raise RecordError(f"{len(text):,} characters is too long for a record (at most {MAX_RECORD_CHARS:,})")
        # A byte-order mark (some editors write one) is not part of the first tag.
        text = text.removeprefix("\ufeff")
        record = cls()
        body_lines: list[tuple[int, str]] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            # The control characters of each line go before it is read: no tag, comment or move of a record carries
            # one to whoever shows it.
            line = printable(raw).strip()
            if not line or line.startswith(";"):
                continue
            if line.startswith("[") and not body_lines:
                match = _TAG_RE.fullmatch(line)
                if match is None:
                    raise RecordError(f'malformed tag {quoted(line)}: expected [Name "value"]', number)
                record.tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
                continue
            body_lines.append((number, line))
        result_seen: str | None = None
        # Each move's comments, joined once at the end: joined one by one, every comment copied the whole comment
        # so far (a megabyte of "{a}" took seconds).
        comments: dict[int, list[str]] = {}
        for number, line in body_lines:
            for token in _TOKEN_RE.finditer(line):
                word = token.group()
                if result_seen is not None:
                    raise RecordError(f"text after the result {result_seen!r}: {quoted(word)}", number)
                if word.startswith("{"):
                    if not word.endswith("}"):
                        raise RecordError("a comment opened with '{' is not closed on the same line", number)
                    if not record.moves:
                        raise RecordError("a comment must follow a move", number)
                    comment = word[1:-1].strip()
                    if comment:
                        comments.setdefault(len(record.moves) - 1, []).append(comment)
                elif re.fullmatch(r"\d+\.(\.\.)?", word):
                    continue
                elif word in RESULTS or word in POINT_RESULTS:
                    result_seen = word
                else:
                    if len(record.moves) >= MAX_RECORD_MOVES:
                        raise RecordError(f"more than {MAX_RECORD_MOVES:,} moves: no game is that long", number)
                    record.moves.append(RecordedMove(word, None, number))
        for index, parts in comments.items():
            record.moves[index].comment = " ".join(parts)
        if result_seen is not None:
            tagged = record.tags.get("Result")
            if tagged is not None and tagged != result_seen:
                raise RecordError(f"the Result tag says {quoted(tagged)} but the move text ends with {result_seen!r}")
            record.tags["Result"] = result_seen
        if "Game" not in record.tags:
            raise RecordError('the record has no [Game "..."] tag, so it cannot say which game it is')
        return record

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file: every command and the app read records through here. ``RecordError`` for what is
        not a regular file (a named pipe, a device, a folder), one too large, not UTF-8 or malformed; ``OSError``
        for one that cannot be read. At most ``MAX_RECORD_CHARS`` bytes are ever read, whatever the file's size."""
        data = read_record_bytes(path)
        where = printable(str(path))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"{where} is not UTF-8 text (byte {error.start})") from None
        try:
            return cls.parse(text)
        except RecordError as error:
            raise RecordError(f"{where}: {error}") from None

    # ---- writing

    @classmethod
    def from_game(cls, state: GeisterState, tags: dict[str, str] | None = None) -> Record:
        """The record of a Geister-family game so far (``from_state``, typed)."""
        return cls.from_state(state, tags)

    @classmethod
    def from_state(cls, state: Game[Any, Any], tags: dict[str, str] | None = None) -> Record:
        """The record of any game's ``state`` so far: its name, its parameters' tags, ``tags`` (which add to the
        ones derived from the game but never replace them), its start (``GameType.start_tags``), the result, then
        every move or round in the game's notation."""
        from core.games import game_type

        game = game_type(state.game_name)
        values = game.values_of(state)
        record_tags: dict[str, str] = {"Game": state.game_name}
        for parameter in game.parameters:
            if parameter.tag is not None and parameter.name in values:
                record_tags[parameter.tag] = parameter.text(values[parameter.name])
        start_tags = game.start_tags(state)
        record_tags.update({k: v for k, v in (tags or {}).items() if k not in ("Game", *record_tags, *start_tags)})
        record_tags.update(start_tags)
        outcome = state.outcome()
        record_tags["Result"] = game.result_text(outcome)
        if outcome is not None:
            record_tags.setdefault("Termination", outcome.reason)
        return cls(record_tags, [RecordedMove(text) for text in game.move_texts(state)])

    def to_text(self) -> str:
        lines = [f'[{name} "{_escape(value)}"]' for name, value in self.tags.items()]
        if self.game_kind == "simultaneous":
            numbered = [f"{index}. {move.text}" + _comment(move) for index, move in enumerate(self.moves, start=1)]
            return "\n".join(lines) + "\n\n" + _wrap([*numbered, self.tags.get("Result", "*")], 100) + "\n"
        first = self._first_mover()
        words: list[str] = []
        for index, move in enumerate(self.moves):
            number, side = _move_number(index, first)
            if side is Side.P1:
                words.append(f"{number}.")
            elif index == 0:
                words.append(f"{number}...")
            words.append(move.text)
            if move.comment:
                words.append(_comment(move).strip())
        words.append(self.tags.get("Result", "*"))
        return "\n".join(lines) + "\n\n" + _wrap(words, 100) + "\n"

    def save(self, path: str | Path, durable: bool = True) -> None:
        """Write atomically (see ``write_text_atomically``): a crash never leaves half a record."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(target, self.to_text(), durable=durable)

    # ---- replaying

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")

    @property
    def game_kind(self) -> str:
        """The record's game kind (``board``, ``simultaneous``, ``impartial``), ``board`` for a name not known."""
        from core.games import GAME_TYPES

        game = GAME_TYPES.get(self.tags.get("Game", ""))
        return "board" if game is None else game.kind

    @property
    def is_geister(self) -> bool:
        from core.games import GAME_TYPES

        game = GAME_TYPES.get(self.tags.get("Game", ""))
        return game is None or game.family == "geister"

    def new_state(self) -> Game[Any, Any]:
        """The state before the first move of any game, from the tags (``GameType.from_tags``)."""
        from core.games import game_type

        if "Game" not in self.tags:
            raise RecordError('a record needs its game: [Game "geister"]')
        try:
            return game_type(self.tags["Game"]).from_tags(self.tags)
        except RecordError:
            raise
        except ValueError as error:  # NotationError, InvalidPositionError, parameters that do not fit
            raise RecordError(f"cannot set up the game: {error}") from None

    def replay_states(self) -> list[Game[Any, Any]]:
        """Every state of any game: before the first move, then after each move or round (``replay`` for the
        Geister family). Raises ``RecordError``. Each state is a copy of its own, and a heap game's or Footstep's
        holds its whole history: 10,000 moves make 10,000 copies of a growing history (about 830 MB). What steps
        through a record takes ``positions()``, what needs its end ``final_state()``."""
        return [state.clone() for state in self.walk()]

    def new_game(self) -> GeisterState:
        """The state before the first move of a Geister-family game, built from the tags (``Game``, ``Start``,
        ``Setup1``/``Setup2``)."""
        if not self.is_geister:
            raise RecordError(f"this is a record of {self.tags['Game']}, not of a Geister-family game")
        state = self.new_state()
        assert isinstance(state, GeisterState)
        return state

    def replay(self) -> list[GeisterState]:
        """Every state of a Geister-family game: before the first move, then after each move. Raises
        ``RecordError``."""
        self.new_game()  # a record of another game is refused as such
        return [_geister(state).clone() for state in self.walk()]

    def walk(self) -> Iterator[Game[Any, Any]]:
        """Every state of the game in turn, before the first move and after each move or round: one state, played on
        (a caller that keeps one keeps its ``clone()``). Each move is checked as it is played and the result at the
        end: ``RecordError`` when the walk comes to what does not replay. Holds one state, however long the record."""
        state = self.new_game() if self.is_geister else self.new_state()
        first = state.to_move if isinstance(state, GeisterState) else Side.P1
        yield state
        for index in range(len(self.moves)):
            self._play(state, index, first)
            yield state
        self._check_end(state)

    def final_state(self) -> Game[Any, Any]:
        """The state the moves end in, every move and the result checked (``walk``): ``replay_states()[-1]`` without
        the copies."""
        return collections.deque(self.walk(), maxlen=1)[0]  # the walk yields the start at least

    def positions(self, every: int | None = None) -> Positions[Any]:
        """Every state by its ply, checked once, holding a few (``Positions``): for what steps through a record."""
        return Positions(self, every)

    def _play(self, state: Game[Any, Any], index: int, first: Side) -> None:
        """Play the ``index``-th recorded move (0-based) on ``state``; ``first``: who moved first (a Geister game's
        moves are numbered as in chess). ``RecordError`` names the move when it does not parse or is illegal."""
        recorded = self.moves[index]
        if isinstance(state, GeisterState):
            number, side = _move_number(index, first)
            where = f"move {number}{'.' if side is Side.P1 else '...'} {clipped(recorded.text)}"
        else:
            where = f"{'round' if self.game_kind == 'simultaneous' else 'move'} {index + 1} {clipped(recorded.text)}"
        if state.is_terminal():
            raise RecordError(f"{where}: the game was already over ({state.outcome()})", recorded.line)
        try:
            if isinstance(state, GeisterState):
                state.push(Move.parse(recorded.text))
            elif self.game_kind == "simultaneous":
                state.apply_joint(state.parse_action(recorded.text))
            else:
                state.apply(state.parse_action(recorded.text))
        except ValueError as error:  # NotationError, IllegalMoveError
            raise RecordError(f"{where}: {error}", recorded.line) from None

    def _check_end(self, final: Game[Any, Any]) -> None:
        """The result the record claims is the one its moves reach (a result the moves do not reach, a
        resignation, is taken from the tags)."""
        outcome = final.outcome()
        if outcome is None or self.result == "*":
            return
        reached = result_text(final.game_name, outcome)  # the game's own form (Footstep's points)
        if self.result != reached:
            raise RecordError(f"the record claims {self.result} but the moves end in {reached} ({outcome})")

    def iter_positions(self) -> Iterator[str]:
        for state in self.replay():
            yield state.position()

    def _first_mover(self) -> Side:
        """Who moved first, from the Start tag; player 1 when the tag is missing or malformed (writing a record
        must not fail on a tag that only replay needs to be right)."""
        fields = self.tags.get("Start", "").split()
        return Side.P2 if len(fields) > 1 and fields[1] == "2" else Side.P1


#: How many plies apart the states ``Positions`` keeps are: a state is at most this many moves from one kept. A
#: heap game's state holds its history, so 10,000 plies keep about 8 MB (every state kept: about 830 MB), and the
#: state at any ply is a copy and at most 99 moves away (a few milliseconds).
CHECKPOINT_PLIES = 100

StateT = TypeVar("StateT", bound="Game[Any, Any]")


class Positions(Sequence[StateT]):
    """Every state of a record's game by its ply (0: before the first move), as ``replay_states`` lists them, while
    holding only one every ``every`` plies (``CHECKPOINT_PLIES``): the state at ply p is the one kept at or before
    it, copied, with the moves since played on it. The record is walked once when this is made (``RecordError`` for
    what does not replay, as ``replay_states``), so every later state replays.

    The last two states asked are kept too (a viewer shows a ply and the one before it), and the next ply is played
    on from them: stepping through the game plays one move a step. A state returned is shared with the next asks of
    the same ply: read it, and ``clone()`` it to play on."""

    #: How many of the states last asked are kept.
    RECENT = 2

    def __init__(self, record: Record, every: int | None = None) -> None:
        self.record = record
        self.every = every or CHECKPOINT_PLIES
        self._kept: list[StateT] = []
        players: list[int] = []
        first = Side.P1
        for ply, state in enumerate(record.walk()):
            if ply == 0 and isinstance(state, GeisterState):
                first = state.to_move
            if ply % self.every == 0:
                self._kept.append(state.clone())  # type: ignore[arg-type]
            players.append(state.current_player())
        self._first = first
        #: Who acts in each state (its ``current_player()``): a list of the moves names its movers without a state.
        self.players: tuple[int, ...] = tuple(players)
        #: The states last asked, by ply, the latest last.
        self._recent: list[tuple[int, StateT]] = []

    def __len__(self) -> int:
        return len(self.players)

    @overload
    def __getitem__(self, index: int) -> StateT: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[StateT]: ...

    def __getitem__(self, index: int | slice) -> StateT | Sequence[StateT]:
        if isinstance(index, slice):
            return [self[ply] for ply in range(*index.indices(len(self)))]
        ply = index + len(self) if index < 0 else index
        if not 0 <= ply < len(self):
            raise IndexError(f"ply {index} of a record of {len(self) - 1} plies")
        for asked, state in self._recent:
            if asked == ply:
                return state
        # The nearest state at or before the ply: the one kept there, or one asked since it.
        start, state = (ply - ply % self.every), self._kept[ply // self.every]
        for asked, recent in self._recent:
            if start < asked < ply:
                start, state = asked, recent
        state = state.clone()
        for played in range(start, ply):
            self.record._play(state, played, self._first)
        self._recent = [*self._recent, (ply, state)][-self.RECENT :]
        return state

    def __iter__(self) -> Iterator[StateT]:
        """Every state in turn from ply 0, in time linear in the record, holding two states. ``Sequence``'s own
        iteration asks each ply, and each ask is a copy: a heap game's state holds its history, so 10,000 plies
        copied about 50 million history entries. Here two states take turns, each played on by two moves to reach
        the ply after the other's: no copy a ply, each move played twice.

        A state yielded stays the one at its ply until the one after the next is asked: read it, or pair it with the
        next (``itertools.pairwise``: each ply with the one after it, no slice), and ``clone()`` one to keep it
        (a ``list()`` of the iteration would hold two states, each many times)."""
        states = [self._kept[0].clone()]
        yield states[0]
        for ply in range(1, len(self)):
            if ply == 1:
                states.append(states[0].clone())  # the second state, at ply 0: only for a record with moves
            state = states[ply % 2]
            if ply > 1:
                self.record._play(state, ply - 2, self._first)
            self.record._play(state, ply - 1, self._first)
            yield state

    @property
    def stored(self) -> int:
        """How many states this holds (the kept ones and the last asked): about ``len / every``, not ``len``."""
        return len(self._kept) + len(self._recent)


def _geister(state: Game[Any, Any]) -> GeisterState:
    assert isinstance(state, GeisterState), state
    return state


#: How a record file is opened: never waiting (a named pipe with no writer, a device), never becoming the process's
#: terminal, and not inherited by a child.
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


def read_record_bytes(path: str | Path) -> bytes:
    """The bytes of the record file at ``path``, at most ``MAX_RECORD_CHARS`` of them (``read_capped``)."""
    return read_capped(path, MAX_RECORD_CHARS, "a record")


def read_capped(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of the file at ``path`` (``what`` it should be, for the messages: "a record"), at most ``limit`` of
    them. Only a regular file is read: the path is looked at before it is opened (a named pipe opened for reading
    waits for ever for a writer, and Ctrl-C cannot reach a process waiting in ``open``), and what was opened is
    looked at again (it may have been replaced in between); a file past the cap is refused by its size, before a
    byte is read. ``RecordError`` for what is not such a file, ``OSError`` for what cannot be read."""
    where = printable(str(path))
    _check_regular(os.stat(path).st_mode, where, what)
    descriptor = os.open(path, _READ)
    try:
        status = os.fstat(descriptor)
        _check_regular(status.st_mode, where, what)
        if status.st_size > limit:
            raise RecordError(f"{where} is larger than {limit:,} bytes: too large for {what}")
        chunks: list[bytes] = []
        left = limit + 1  # one byte past the cap: a file that grew since fstat is still caught
        while left > 0:
            chunk = os.read(descriptor, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit:
        raise RecordError(f"{where} is larger than {limit:,} bytes: too large for {what}")
    return data


#: What is not a regular file, in words, by ``stat``'s test of it.
_NOT_REGULAR = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def not_regular(mode: int) -> str:
    """What a file of ``mode`` (``stat``'s) that is not a regular file is, as a message says it: "is not a regular
    file (a named pipe)"."""
    kind = next((words for test, words in _NOT_REGULAR if test(mode)), "not a file")
    return f"is not a regular file ({kind})"


def _check_regular(mode: int, where: str, what: str) -> None:
    if not stat.S_ISREG(mode):
        raise RecordError(f"{where} {not_regular(mode)}: {what} is a file")


def result_text(game: str, outcome: Outcome | None) -> str:
    """A record's result for ``outcome`` of ``game``: ``*`` while it goes on; Footstep's in points."""
    from core.games import game_type

    return game_type(game).result_text(outcome)


def _comment(move: RecordedMove) -> str:
    if not move.comment:
        return ""
    # A brace would end the comment early; PGN has no escape for it, so it is written as a parenthesis.
    return " {" + move.comment.replace("{", "(").replace("}", ")") + "}"


def prepare_record_folder(folder: Path) -> None:
    """Make ``folder`` (and its parents) if missing, and check that a file can be written in it: asked before a run
    that writes records plays its first game. ``OSError`` says why not."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=folder):
        pass


#: How the temporary file is opened: made here and now (never an existing file, never through a symbolic link).
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)

#: A temporary file (or scratch folder) untouched for this long is no writer's any more, and is removed when its
#: folder is opened (``remove_stale_temporaries``). A record or a save is written in milliseconds and the largest
#: solved table in seconds, each write touching the file as it goes: an hour leaves a second nashplay that is
#: writing right now (or a slow disk) far more than it needs, and still clears a killed write's file the next day.
STALE_TEMPORARY_SECONDS = 3600.0

#: The names ``temporary_name`` makes (a dot, the target's name, 12 hex digits, ``.tmp``): nothing else is taken
#: for a leftover, so a file of the user's own is never removed. (DOTALL: a file name may hold a newline.)
_TEMPORARY_NAME = re.compile(r"\..+\.[0-9a-f]{12}\.tmp", re.DOTALL)


def write_text_atomically(path: Path, text: str, private: bool = False, durable: bool = True) -> None:
    """Write ``text`` to ``path`` as UTF-8, whole or not at all (see ``replacing``)."""
    with replacing(path, private, durable) as file:
        file.write(text.encode("utf-8"))


@contextlib.contextmanager
def replacing(path: Path, private: bool = False, durable: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new content into; when the block ends, it replaces ``path`` whole. Every
    writer of saves, records, settings and caches goes through here.

    The content goes to a uniquely named temporary file beside ``path`` (``temporary_name``), which is synced to the
    disk and then renamed over ``path``, and the folder is synced after the rename: a reader never sees half a file,
    two processes writing one path never share a temporary file (the last rename wins whole), and after a power cut
    the file is either the old one or the new one, never an empty one (a rename can reach the disk before the data
    it names). If the block or the write fails, the temporary file is removed; a kill leaves it, and it is removed
    when its folder is next opened (``remove_stale_temporaries``).

    The file gets the mode that writing it in place would give it: an existing file keeps its own, a new one gets
    what the umask leaves of 0666 (``mkstemp``, used before, made every record and setting 0600). ``private`` files
    (the saved games' secrets) are 0600 whatever the umask or an earlier mode.

    ``durable=False`` leaves out the syncs, for a file rewritten many times a minute whose next version follows soon
    (a contest game's record after each move): still whole or not at all when the process is killed, since the
    kernel keeps what was written, but a power cut may lose the last versions. Each sync costs the disk a flush."""
    _check_replaceable(path)
    handle, temporary = _create_beside(path, 0o600 if private else 0o666)
    try:
        with os.fdopen(handle, "wb") as file:
            if not private:
                with contextlib.suppress(FileNotFoundError):
                    os.fchmod(file.fileno(), stat.S_IMODE(path.stat().st_mode) & 0o777)
            yield file
            file.flush()
            if durable:
                os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    if durable:
        _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Sync ``folder``'s entries (a rename just made in it) to the disk, where the platform allows: Windows cannot
    open a folder, and some file systems refuse to sync one. The rename has happened either way, so a refusal is
    not an error."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def temporary_name(name: str) -> str:
    """A fresh name for a temporary file that will become the file ``name``: hidden, and recognised as a leftover
    by ``is_temporary_name``."""
    return f".{name}.{secrets.token_hex(6)}.tmp"


def is_temporary_name(name: str) -> bool:
    """Whether ``name`` is one that ``temporary_name`` makes."""
    return _TEMPORARY_NAME.fullmatch(name) is not None


def remove_stale_temporaries(
    folder: Path,
    now: float | None = None,
    age: float = STALE_TEMPORARY_SECONDS,
    ours: Callable[[str], bool] = is_temporary_name,
) -> list[Path]:
    """Remove the temporary files a killed write left in ``folder`` (not below it): the ones ``ours`` recognises by
    name (by default those ``temporary_name`` makes) and untouched for ``age`` seconds before ``now`` (default: the
    time now). A younger one may be another process's write in progress, and is left to it. Returns what was
    removed; a folder that cannot be read, or a file that cannot be removed, is passed over in silence (cleaning is
    a convenience, never a reason to stop)."""
    limit = (time.time() if now is None else now) - age
    removed = []
    try:
        with os.scandir(folder) as entries:
            candidates = [entry for entry in entries if ours(entry.name)]
    except OSError:
        return []
    for entry in candidates:
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < limit:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:  # gone already (another nashplay cleaned it), or not ours to remove
            continue
    return removed


def _check_replaceable(path: Path) -> None:
    """Only a file is written: a path that names a folder (".", "/", "..") or a file that is not a regular one (a
    named pipe, a device: a save prompt given /dev/null) is refused with an ``OSError`` the writers already report in
    one line. "." crashed the app (no name to put a temporary file beside), and the rename replaced a device or a
    pipe with a regular file."""
    if path.name in ("", ".", ".."):
        raise IsADirectoryError(errno.EISDIR, "that names a folder: give a file name", str(path))
    try:
        mode = path.stat().st_mode  # through a link: a link to a regular file is written as before
    except OSError:
        return  # nothing there yet (or unreadable: the write says why)
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "that is a folder: give a file name", str(path))
    if not stat.S_ISREG(mode):
        raise FileExistsError(errno.EEXIST, f"that {not_regular(mode)}, which is not replaced", str(path))


def _create_beside(path: Path, mode: int) -> tuple[int, Path]:
    """A new temporary file beside ``path`` (``temporary_name``), open for writing; ``mode`` less the umask, as
    ``open`` creates a file."""
    for _ in range(100):
        temporary = path.with_name(temporary_name(path.name))
        try:
            return os.open(temporary, _CREATE, mode), temporary
        except FileExistsError:  # 48 random bits taken already: another writer's, or a leftover; draw again
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(path.parent))


def _move_number(index: int, first: Side) -> tuple[int, Side]:
    """Full-move number and mover of the ``index``-th move (0-based) when ``first`` moved first."""
    offset = 0 if first is Side.P1 else 1
    ply = index + offset
    return ply // 2 + 1, Side.P1 if ply % 2 == 0 else Side.P2


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(words: list[str], width: int) -> str:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return "\n".join(lines)


__all__ = [
    "CHECKPOINT_PLIES",
    "POINT_RESULTS",
    "RESULTS",
    "Positions",
    "Record",
    "RecordedMove",
    "not_regular",
    "printable",
    "read_capped",
    "read_record_bytes",
    "result_text",
]
