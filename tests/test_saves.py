"""The games in progress on disk: one slot per game, locks between processes, atomic writes, secrets kept apart,
damaged files refused before they are read whole, and the generators that keep the user's set-up hidden."""

from __future__ import annotations

import os
import random
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from unprivileged import call_unprivileged, shared_folder
from waiting import HANG_SECONDS

from core.errors import IllegalMoveError, NotationError, RecordError
from core.game import Side
from core.record import MAX_RECORD_CHARS, Record
from tui.config import ConfigError, GeisterConfig
from tui.saves import LEGACY_SAVE, MAX_LISTED, MAX_SECRET_BYTES, SaveFolderError, SaveStore
from tui.session import GameSession, resumable
from tui.storage import Settings

ROOT = Path(__file__).resolve().parents[1]


def played_session(seed: int = 5, moves: int = 3) -> GameSession:
    session = GameSession(GeisterConfig("geister", Side.P1, "chototsu", "BBBBRRRR", seed))
    for _ in range(moves):
        if session.humans_turn:
            session.play(session.view().legal_moves()[0])
        else:
            session.apply_opponent(session.choose_opponent_move(session.opponent_view()), session.version)
    return session


def test_a_slot_round_trips_and_keeps_the_secret_apart(tmp_path: Path) -> None:
    session = played_session()
    slot = SaveStore(tmp_path).new_slot()
    slot.save(session.record(reveal=False), session.secrets())
    public = Record.load(slot.path)
    assert public.tags["Setup2"] == "?" and "Seed" not in public.tags
    whole = slot.load()
    assert whole.tags["Setup2"] == session.state.setup(Side.P2).to_text()  # type: ignore[union-attr]
    resumed = GameSession.from_record(whole)
    assert resumed.state.position() == session.state.position() and resumed.seed == session.seed
    slot.clear()
    assert not slot.path.exists() and not slot.secret_path.exists()


def test_new_slots_are_unique_within_one_second(tmp_path: Path) -> None:
    """Names of unfinished games used to have one-second resolution and overwrite each other."""
    store = SaveStore(tmp_path, clock=lambda: 1_700_000_000.0)
    assert len({store.new_slot().id for _ in range(2000)}) == 2000


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"x" * (MAX_SECRET_BYTES + 1), "larger than"),
        (b"\xff\xfe", "not the JSON"),
        (b'{"tags": [1, 2]}', "holds no tags"),
        (b"[" * 60_000, "not the JSON"),  # nested past the JSON parser's recursion limit
    ],
    ids=["oversized", "not-utf8", "no-tags", "nested"],
)
def test_a_damaged_secret_is_a_record_error(tmp_path: Path, content: bytes, message: str) -> None:
    session = played_session()
    slot = SaveStore(tmp_path).new_slot()
    slot.save(session.record(reveal=False), session.secrets())
    slot.secret_path.write_bytes(content)
    with pytest.raises(RecordError, match=message):
        slot.load()


def test_an_oversized_record_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.ngr"
    with big.open("wb") as file:
        file.write(b'[Game "geister"]\n\n')
        file.seek(50_000_000)  # a sparse 50 MB file: refused from its first megabyte
        file.write(b"*\n")
    with pytest.raises(RecordError, match="too large for a record"):
        Record.load(big)
    with pytest.raises(RecordError, match="too long for a record"):
        Record.parse('[Game "geister"]\n' + "a1-a2 " * (MAX_RECORD_CHARS // 6 + 1))


def test_a_byte_order_mark_is_not_part_of_the_first_tag(tmp_path: Path) -> None:
    text = played_session().record().to_text()
    path = tmp_path / "bom.ngr"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert Record.load(path).tags["Game"] == "geister"


def test_a_huge_word_is_quoted_in_a_few_dozen_characters() -> None:
    with pytest.raises(RecordError) as raised:
        Record.parse('[Game "geister"]\n[Start "1uu1/4/4/1UU1 1"]\n\n' + "x" * 5_000_000 + "\n").replay()
    assert len(str(raised.value)) < 300


# ------------------------------------------------------------------------------------------------ two processes

HOLDER = """
import sys, time
from pathlib import Path
from tui.saves import SaveStore
slot = SaveStore(Path(sys.argv[1])).slot(sys.argv[2])
assert slot.claim()
print("held", flush=True)
time.sleep(600)
"""


def test_a_game_held_by_another_process_is_offered_again_when_that_process_dies(tmp_path: Path) -> None:
    """Even ``kill -9``: the lock dies with its process, so the game is never lost to a stale lock."""
    session = played_session()
    store = SaveStore(tmp_path)
    slot = store.new_slot()
    slot.save(session.record(reveal=False), session.secrets())
    slot.release()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path), slot.id], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert store.unfinished() == []
        assert not store.slot(slot.id).claim()
    finally:
        holder.kill()
        holder.wait(timeout=HANG_SECONDS)
    assert [s.id for s in store.unfinished()] == [slot.id]
    assert store.slot(slot.id).claim()


WRITER = """
import sys
from core.record import Record
record = Record.parse(sys.argv[2])
for _ in range(int(sys.argv[3])):
    record.save(sys.argv[1])
"""


def test_two_processes_saving_one_file_never_show_a_reader_a_torn_record(tmp_path: Path) -> None:
    """A fixed temporary name let two writers interleave (a quarter of the reads were torn or empty)."""
    path = tmp_path / "shared.ngr"
    texts = [played_session(seed, moves).record().to_text() for seed, moves in ((1, 2), (2, 9))]
    Record.parse(texts[0]).save(path)
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), text, "400"], cwd=ROOT) for text in texts]
    reads = 0
    while any(w.poll() is None for w in writers) or reads < 50:
        assert path.read_text() in texts
        reads += 1
    for writer in writers:
        assert writer.wait(timeout=HANG_SECONDS) == 0
    assert not list(tmp_path.glob("*.tmp"))  # no temporary file left behind


# ------------------------------------------------------------------------------------------------ hidden set-ups


def test_the_opponents_generator_cannot_replay_the_users_random_set_up() -> None:
    """The opponent's generator once also drew the user's random set-up, so its state gave the set-up away (200 of
    200 games). Now the set-up is drawn apart: the opponent's generator, replayed from its start, finds the user's
    set-up no more often than chance (1 in 70 set-ups in Geister)."""
    found = 0
    for seed in range(100):
        config = GeisterConfig("geister", Side.P1, "chototsu", "random", seed)
        session = GameSession(config, setup_rng=random.Random(10_000 + seed))
        replayed = config.human_setup(random.Random(seed))
        found += replayed == session.state.setup(Side.P1)
    assert found <= 8


def test_the_opponents_generator_does_not_depend_on_the_users_set_up() -> None:
    """Twin games whose hidden draws differ (other seeds for the user's set-up) give the opponent the very same
    generator and so the very same set-up and first move."""
    for seed in range(20):
        config = GeisterConfig("geister", Side.P2, "random", "random", seed)
        twins = [GameSession(config, setup_rng=random.Random(hidden)) for hidden in (seed, seed + 1000)]
        assert twins[0].state.setup(Side.P1) == twins[1].state.setup(Side.P1)
        assert twins[0].rng.getstate() == twins[1].rng.getstate()


def test_the_users_own_set_up_cannot_be_hidden() -> None:
    """``--setup ?`` gave the user colourless pieces, any of which could escape: a cheat."""
    with pytest.raises(ConfigError, match="cannot be hidden"):  # what `play mini-geister --setup '?'` checks
        GeisterConfig("mini-geister", Side.P1, "chototsu", "?", 1).check()
    with pytest.raises(IllegalMoveError, match="cannot be hidden"):
        GameSession(GeisterConfig("mini-geister", Side.P1, "chototsu", "?", 1))
    record = played_session().record()
    record.tags["Setup1"] = "?"
    with pytest.raises(NotationError, match="hides your own set-up"):
        resumable(record)


@pytest.mark.parametrize("think_time", ["nan", "inf", "-1", "1e9", "9" * 30])
def test_a_resumed_save_cannot_bypass_the_thinking_time_bounds(think_time: str) -> None:
    record = played_session().record()
    record.tags["ThinkTime"] = think_time
    with pytest.raises(NotationError, match="damaged"):
        resumable(record)


def test_the_position_parser_refuses_digit_bombs_before_allocating() -> None:
    from core.geister import GeisterState

    for position in ("99999999999/4/4/4 1", "1" + "9" * 5000 + "/4/4/4 1", "4/4/4/4 1 - " + "9" * 5000):
        with pytest.raises(NotationError):
            GeisterState.from_position(position)


def test_saves_of_older_versions_are_adopted(tmp_path: Path) -> None:
    session = played_session()
    session.record().save(tmp_path / "game-in-progress.ngr")
    (tmp_path / "unfinished").mkdir()
    session.record().save(tmp_path / "unfinished" / "20250101-101010-game-in-progress.ngr")
    slots = SaveStore(tmp_path).unfinished()
    assert len(slots) == 2
    assert all(GameSession.from_record(slot.load()).state.position() == session.state.position() for slot in slots)
    assert not (tmp_path / "game-in-progress.ngr").exists()


def test_a_fake_process_that_never_claims_is_refused_a_save(tmp_path: Path) -> None:
    """Saving takes the slot's lock first: a slot another process holds is never written over."""
    session = played_session()
    store = SaveStore(tmp_path)
    slot = store.new_slot()
    slot.save(session.record(reveal=False), session.secrets())
    other = store.slot(slot.id)
    with pytest.raises(OSError, match="open in another nashplay"):
        other.save(session.record(reveal=False), session.secrets())
    slot.release()
    other.save(session.record(reveal=False), session.secrets())


# ------------------------------------------------------------------------------------------------ the real world


def unreadable_games_folder(state: Path) -> None:
    """As a user bound by permissions (``call_unprivileged``): the saved games are there, and cannot be read."""
    games = state / "games"
    if os.access(games, os.R_OK):
        pytest.skip("file permissions are not enforced for this user")
    with pytest.raises(SaveFolderError, match=re.escape(f"cannot read the saved games in {games}: Permission denied")):
        SaveStore(state).unfinished()


def test_an_unreadable_games_folder_is_an_error_not_an_empty_list() -> None:
    """``Path.glob`` skips a folder it may not read (Python 3.11), so the saved games vanished from the menu without
    a word. A real ``chmod 000``, as a user that permissions bind."""
    with shared_folder() as folder:
        state = folder / "state"
        slot = SaveStore(state).new_slot()
        session = played_session()
        slot.save(session.record(reveal=False), session.secrets())
        slot.release()
        (state / "games").chmod(0)
        call_unprivileged(unreadable_games_folder, state)


def test_a_games_folder_that_refuses_listing_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same, faked (for a run where no user can be dropped to): listing the folder raises."""
    games = tmp_path / "games"
    games.mkdir()
    real_scandir = os.scandir

    def refusing_scandir(path: object = ".") -> object:
        if Path(str(path)) == games:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", refusing_scandir)
    with pytest.raises(SaveFolderError, match=r"cannot read the saved games in .*: Permission denied"):
        SaveStore(tmp_path).unfinished()


def test_a_legacy_save_adopted_by_another_instance_at_the_same_moment_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two nashplays starting together both see the old single save; the one that moves it second found it gone and
    said it could not read the saved games. The game is in the folder either way: the other instance adopted it."""
    played_session().record().save(tmp_path / LEGACY_SAVE)
    store = SaveStore(tmp_path)
    real_replace = Path.replace

    def adopted_elsewhere_first(self: Path, target: Path) -> Path:
        if self.name == LEGACY_SAVE and self.exists():
            real_replace(self, SaveStore(tmp_path).new_slot().path)  # the other instance, a moment earlier
        return real_replace(self, target)

    monkeypatch.setattr(Path, "replace", adopted_elsewhere_first)
    slots = store.unfinished()
    assert len(slots) == 1 and GameSession.from_record(slots[0].load()).state.moves()


def test_the_listing_counts_the_games_it_leaves_out(tmp_path: Path) -> None:
    session = played_session()
    store = SaveStore(tmp_path)
    for _ in range(MAX_LISTED + 3):
        slot = store.new_slot()
        slot.save(session.record(reveal=False), session.secrets())
        slot.release()
    assert len(store.unfinished()) == MAX_LISTED and store.unlisted == 3
    for slot in store.unfinished()[:5]:
        slot.clear()
    assert len(store.unfinished()) == MAX_LISTED - 2 and store.unlisted == 0


def test_records_and_settings_get_the_usual_mode_and_secrets_stay_private(tmp_path: Path) -> None:
    """Writing through a temporary file (``mkstemp``) made every record and the settings private (0600) whatever the
    umask; a file written in place would follow the umask (0644 under 022). The secret stays private."""
    old_umask = os.umask(0o022)
    try:
        session = played_session()
        record = tmp_path / "game.ngr"
        session.record().save(record)
        assert stat.S_IMODE(record.stat().st_mode) == 0o644
        slot = SaveStore(tmp_path).new_slot()
        slot.save(session.record(reveal=False), session.secrets())
        assert stat.S_IMODE(slot.path.stat().st_mode) == 0o644
        assert stat.S_IMODE(slot.secret_path.stat().st_mode) == 0o600
        slot.save(session.record(reveal=False), session.secrets())  # rewritten: still private
        assert stat.S_IMODE(slot.secret_path.stat().st_mode) == 0o600
        settings = Settings(tmp_path / "settings.json")
        settings.set("nim_advice", False)
        assert stat.S_IMODE(settings.path.stat().st_mode) == 0o644
        os.umask(0o077)
        session.record().save(tmp_path / "private.ngr")
        assert stat.S_IMODE((tmp_path / "private.ngr").stat().st_mode) == 0o600
        record.chmod(0o640)  # a mode the user chose for an existing file is kept, as writing it in place would
        session.record().save(record)
        assert stat.S_IMODE(record.stat().st_mode) == 0o640
    finally:
        os.umask(old_umask)
