"""The last "nothing lost, bounded input" gaps of issue 29.

1. What the app reads at start-up (a save's secret and lock, the settings, the records listed) is read only when it
   is a regular file: a named pipe, a folder or a device in its place is refused in one line (a damaged save is set
   aside, a setting falls back to its default), never opened in a way that waits, and nothing else is lost.
2. Every tag of a save or record that the app turns into a number (the clock, the takeback policy, the seed, the
   thinking times) is bounded as the command line bounds it: a damaged save is refused in one line naming the tag.
3. ``analyse`` and ``play`` agree where a Mini-Geister game ends: a position at ply 199 has one ply left, one at the
   limit (200) is over.
4. A replay keeps the states of a few checkpoints, not one state per ply: a 10,000-ply record no longer holds 10,000
   copies of a growing history.

The calls that could wait on a named pipe run in a thread that is watched: when the kernel says it waits on a pipe
(``/proc``'s ``wchan``), or at the ceiling only a hang reaches, the pipe is opened both ways to let it go and the test
fails instead of hanging.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from app_helpers import menu_options, notifications
from cli_helpers import refused
from hypothesis import given, settings
from hypothesis import strategies as st
from pilot_helpers import run, wait_for
from textual.widgets import Static
from waiting import HANG_SECONDS

from core.errors import NotationError, RecordError
from core.game import Side
from core.game_type import MAX_SEED
from core.geister import GeisterState
from core.impartial import HeapGameState, HeapMove
from core.notation import Move
from core.record import CHECKPOINT_PLIES, MAX_RECORD_MOVES, Positions, Record
from tui.app import NashplayApp, StartRequest
from tui.cli import main
from tui.config import DEFAULT_THINK_TIME, THINK_TIME_RANGE, GeisterConfig
from tui.game_clock import MAX_INCREMENT, MAX_SECONDS, GameClock
from tui.game_life import read_seed, read_takebacks
from tui.local_session import check_resumable, game_record, resume_record, secret_tags
from tui.saves import SaveFolderError, SaveSlot, SaveStore
from tui.screens.menu import MenuScreen
from tui.screens.recent import RecentGamesScreen
from tui.screens.record_viewer import RecordViewerScreen
from tui.screens.replay import ReplayScreen
from tui.session import GameSession, read_think_time
from tui.storage import Settings

T = TypeVar("T")

SIZE = (100, 32)


# --------------------------------------------------------------------------------------------------- no hanging


def _waits_on_a_pipe(thread: threading.Thread) -> bool:
    """Whether the kernel says ``thread`` sleeps in a pipe's open, read or write (``wchan``: ``wait_for_partner``,
    ``pipe_read``...); False where ``/proc`` does not say (the ceiling then catches a hang)."""
    try:
        with open(f"/proc/self/task/{thread.native_id}/wchan") as file:
            where = file.read()
    except OSError:
        return False
    return any(word in where for word in ("wait_for_partner", "fifo", "pipe"))


def _let_go(fifos: Sequence[Path]) -> None:
    """Open each pipe for reading and writing at once (which never waits): whoever waits in its open, as a reader or
    as a writer, goes on (a reader then reads an empty file)."""
    for fifo in fifos:
        try:
            os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))
        except OSError:
            continue


def without_hanging(call: Callable[[], T], fifos: Sequence[Path]) -> T:
    """``call()``'s result, or its exception; an ``AssertionError`` if it waited on one of ``fifos``."""
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    ceiling = time.monotonic() + HANG_SECONDS
    waited = False
    while thread.is_alive():
        thread.join(0.01)
        if thread.is_alive() and (_waits_on_a_pipe(thread) or time.monotonic() > ceiling):
            waited = True
            _let_go(fifos)  # as often as it waits: a second file may be a pipe too
    if waited:
        raise AssertionError(f"{getattr(call, '__name__', call)} waited on a named pipe")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


# --------------------------------------------------------------------------------------------------- 1: special files


def nim_save(store: SaveStore, opponent: str = "random") -> SaveSlot:
    """A Nim game in progress (one move played) in a slot of its own, released as a closed app leaves it."""
    state = HeapGameState([3, 4, 5])
    state.apply(HeapMove(0, 1))
    slot = store.new_slot()
    slot.save(game_record(state, Side.P1, opponent), secret_tags(12345))
    slot.release()
    return slot


def in_place_of(path: Path, kind: str) -> Path:
    """``kind`` (a named pipe, a folder, a device) at ``path``, in place of whatever was there."""
    if path.is_dir():
        path.rmdir()
    else:
        path.unlink(missing_ok=True)
    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to(os.devnull)
    return path


KINDS = ("pipe", "folder", "device")


@pytest.mark.parametrize("kind", KINDS)
def test_a_secret_that_is_not_a_regular_file_is_refused_in_one_line(state_dir: Path, kind: str) -> None:
    store = SaveStore(state_dir)
    slot = nim_save(store)
    secret = in_place_of(slot.secret_path, kind)
    with pytest.raises(RecordError) as refusal:
        without_hanging(slot.load, [secret])
    said = str(refusal.value)
    assert "not a regular file" in said and "\n" not in said, said
    assert slot.load_public().moves  # the record itself is untouched


@pytest.mark.parametrize("kind", KINDS)
def test_a_lock_that_is_not_a_regular_file_is_refused_in_one_line(state_dir: Path, kind: str) -> None:
    store = SaveStore(state_dir)
    damaged, sound = nim_save(store), nim_save(store)
    lock = in_place_of(damaged.lock_path, kind)
    listed = without_hanging(store.unfinished, [lock])
    assert {slot.id for slot in listed} == {damaged.id, sound.id}  # listed: the scan sets it aside, with its reason
    with pytest.raises(RecordError) as refusal:
        without_hanging(store.slot(damaged.id).load, [lock])
    said = str(refusal.value)
    assert "lock" in said and "not a regular file" in said and "\n" not in said, said
    with pytest.raises(SaveFolderError) as refused_claim:
        without_hanging(store.slot(damaged.id).claim, [lock])
    assert "not a regular file" in str(refused_claim.value) and "\n" not in str(refused_claim.value)
    recent = without_hanging(store.recent, [lock])
    assert {game.slot_id for game in recent} == {damaged.id, sound.id}
    check_resumable(store.slot(sound.id).load())  # the other save is whole


def test_records_that_are_not_regular_files_are_listed_with_the_reason(state_dir: Path) -> None:
    """A named pipe or a device named like a record in ``games/`` or ``records/``: the recent games say why it cannot
    be opened, in one line; a save's record that is one is set aside at start-up like any damaged save."""
    store = SaveStore(state_dir)
    sound = nim_save(store)
    store.records.mkdir(parents=True)
    pipes = [in_place_of(store.records / "pipe.ngr", "pipe"), in_place_of(store.folder / "x-pipe.ngr", "pipe")]
    in_place_of(store.records / "device.ngr", "device")
    recent = without_hanging(store.recent, pipes)
    problems = {game.path.name: game.problem for game in recent if game.problem is not None}
    assert set(problems) == {"pipe.ngr", "x-pipe.ngr", "device.ngr"}, problems
    assert all("not a regular file" in problem for problem in problems.values()), problems
    assert any(game.slot_id == sound.id and game.problem is None for game in recent)
    listed = without_hanging(store.unfinished, pipes)
    assert {slot.id for slot in listed} == {sound.id, "x-pipe"}
    with pytest.raises(RecordError, match="not a regular file"):
        without_hanging(store.slot("x-pipe").load, pipes)


@pytest.mark.parametrize("kind", KINDS)
def test_settings_that_are_not_a_regular_file_are_the_defaults(state_dir: Path, kind: str) -> None:
    state_dir.mkdir(parents=True)
    path = in_place_of(state_dir / "settings.json", kind)
    settings = without_hanging(lambda: Settings(path), [path])
    assert settings.values == Settings.DEFAULTS and settings.texts == Settings.TEXT_DEFAULTS


def test_the_menu_comes_up_past_pipes_and_loses_nothing_else(state_dir: Path) -> None:
    """A save whose secret is a named pipe, one whose lock is, the settings a pipe, a pipe among the records: the menu
    shows, the sound save is offered for resume, the two damaged ones are set aside (kept in ``games/damaged/``) with
    a notification each, and the recent games list the pipe with its reason."""
    store = SaveStore(state_dir)
    sound, secret_pipe, lock_pipe = nim_save(store), nim_save(store), nim_save(store)
    store.records.mkdir(parents=True)
    pipes = [
        in_place_of(secret_pipe.secret_path, "pipe"),
        in_place_of(lock_pipe.lock_path, "pipe"),
        in_place_of(state_dir / "settings.json", "pipe"),
        in_place_of(store.records / "pipe.ngr", "pipe"),
    ]

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            # The saves are scanned as the menu is pushed: once it shows, what the scan found has been said.
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen.is_mounted, "the menu")
            await pilot.pause()
            resume = [line for key, line in menu_options(app) if line.startswith("Resume")]
            assert len(resume) == 1 and (f"resume:{sound.id}", resume[0]) in menu_options(app), menu_options(app)
            said = notifications(app)
            assert sum("not a regular file" in message for message in said) == 2, said
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, RecentGamesScreen), "the recent games")
            recent = app.screen
            assert isinstance(recent, RecentGamesScreen)
            assert any(game.problem and "not a regular file" in game.problem for game in recent.games)

    without_hanging(lambda: run(test), pipes)
    damaged = {path.name for path in (store.folder / "damaged").iterdir()}
    assert {f"{secret_pipe.id}.ngr", f"{lock_pipe.id}.ngr", f"{lock_pipe.id}.secret"} <= damaged, damaged
    check_resumable(store.slot(sound.id).load())
    assert Record.load(store.folder / "damaged" / f"{lock_pipe.id}.ngr").moves


# --------------------------------------------------------------------------------------------------- 2: the tags


def geister_record(**tags: str) -> Record:
    """A Mini-Geister game in progress (two moves), whole (the secret's tags in), with ``tags`` changed."""
    session = GameSession(GeisterConfig("mini-geister", Side.P1, "chototsu", "BR", 3, clock="5+3"))
    for _ in range(2):
        if session.humans_turn:
            session.play(session.view().legal_moves()[0])
        else:
            session.apply_opponent(session.choose_opponent_move(session.opponent_view()), session.version)
    record = session.record()
    record.tags.update(tags)
    return record


def nim_record(**tags: str) -> Record:
    """A Nim game in progress (one move), as resuming reads it (the secret's seed in), with ``tags`` changed."""
    state = HeapGameState([3, 4, 5])
    state.apply(HeapMove(0, 1))
    record = game_record(state, Side.P1, "random", 12345, {"TimeControl": "300+3", "Clock": "290.5,300"})
    record.tags.update(tags)
    return record


#: Damaged tags, each with the name a refusal must give: digit bombs, NaN and infinities, negative numbers, numbers
#: past the command line's bounds, and words where numbers belong.
DAMAGED_TAGS = [
    ("Seed", "9" * 5000),
    ("Seed", "-1"),
    ("Seed", str(2**63)),  # one past the largest --seed
    ("Seed", "99999999999999999999"),  # 20 digits were taken
    ("Seed", "\u0661\u0662"),  # Arabic-Indic digits: str.isdigit says yes
    ("Seed", " 7"),
    ("TimeControl", "nan+0"),
    ("TimeControl", "inf"),
    ("TimeControl", "9" * 5000),
    ("TimeControl", "-300+3"),
    ("TimeControl", "0+0"),  # no time at all: --clock refuses it
    ("TimeControl", "300+7200"),  # an increment past an hour
    ("TimeControl", "172800+0"),  # two days
    ("Clock", "nan,300"),
    ("Clock", "1e999,300"),
    ("Clock", "-1,300"),
    ("Clock", "300"),
    ("Clock", "300,300,300"),
    ("Clock", "9" * 5000 + ",300"),
    ("Clock", "40000,300"),  # more than 300 s and 10,000 increments of 3 s: no game gets there
    ("Takebacks", "maybe"),
    ("Takebacks", "x" * 5000),
]


def refusal_of(record: Record) -> str:
    with pytest.raises(NotationError) as refusal:
        check_resumable(record)
    said = str(refusal.value)
    assert "\n" not in said and len(said) < 400, said
    return said


@pytest.mark.parametrize(("tag", "value"), DAMAGED_TAGS, ids=lambda value: str(value)[:12])
def test_a_nim_save_s_damaged_number_tags_are_refused_naming_the_tag(tag: str, value: str) -> None:
    check_resumable(nim_record())  # sound as written
    assert tag in refusal_of(nim_record(**{tag: value}))


GEISTER_DAMAGED_TAGS = [
    *DAMAGED_TAGS,
    ("ThinkTime", "nan"),
    ("ThinkTime", "-1"),
    ("ThinkTime", "1e999"),
    ("ThinkTime", "9" * 5000),
    ("ThinkTime", "3601"),
]


@pytest.mark.parametrize(("tag", "value"), GEISTER_DAMAGED_TAGS, ids=lambda value: str(value)[:12])
def test_a_geister_save_s_damaged_number_tags_are_refused_naming_the_tag(tag: str, value: str) -> None:
    check_resumable(geister_record())
    assert tag in refusal_of(geister_record(**{tag: value}))


def test_the_clock_left_may_hold_the_increments_of_the_moves_played() -> None:
    """A time left above the control is what increments give (and takebacks played again): kept, up to a bound."""
    clock = GameClock.from_tags({"TimeControl": "300+3", "Clock": "12.5,29000"})
    assert clock is not None and clock.left == {Side.P1: 12.5, Side.P2: 29000.0}
    assert GameClock.from_tags({"TimeControl": "300+3"}) == GameClock(300.0, 3.0)


def read_or_refusal(read: Callable[[], T]) -> T | str:
    """What ``read`` returns, or the message of the ``NotationError`` it raises (one line): nothing else."""
    try:
        return read()
    except NotationError as error:
        said = str(error)
    assert "\n" not in said and len(said) < 400, said
    return said


@given(st.text(max_size=60) | st.from_regex(r"-?[0-9]{1,30}(\.[0-9]*)?", fullmatch=True))
@settings(max_examples=300, deadline=None)
def test_the_seed_tag_is_a_bounded_whole_number_or_refused(text: str) -> None:
    seed = read_or_refusal(lambda: read_seed({"Seed": text}))
    if isinstance(seed, str):
        assert "Seed" in seed
    else:
        assert 0 <= seed <= MAX_SEED and str(seed) == text.lstrip("0").rjust(1, "0")


@given(st.text(max_size=40) | st.floats().map(str))
@settings(max_examples=300, deadline=None)
def test_the_think_time_tag_is_bounded_or_refused(text: str) -> None:
    seconds = read_or_refusal(lambda: read_think_time({"ThinkTime": text}))
    if isinstance(seconds, str):
        assert "ThinkTime" in seconds
    else:
        assert THINK_TIME_RANGE[0] <= seconds <= THINK_TIME_RANGE[1] or (not text and seconds == DEFAULT_THINK_TIME)


NUMBERS = st.floats(allow_nan=True, allow_infinity=True).map(lambda x: f"{x:g}") | st.integers().map(str)


@given(
    st.one_of(st.text(max_size=30), st.tuples(NUMBERS, NUMBERS).map("+".join)),
    st.none() | st.text(max_size=30) | st.tuples(NUMBERS, NUMBERS).map(",".join),
)
@settings(max_examples=500, deadline=None)
def test_the_clock_tags_are_bounded_or_refused(control: str, left: str | None) -> None:
    tags = {"TimeControl": control} | ({} if left is None else {"Clock": left})
    clock = read_or_refusal(lambda: GameClock.from_tags(tags))
    if isinstance(clock, str):
        assert "TimeControl" in clock or "Clock" in clock
        return
    assert clock is not None
    assert 0 < clock.initial <= MAX_SECONDS and 0 <= clock.increment <= MAX_INCREMENT
    bound = clock.initial + clock.increment * MAX_RECORD_MOVES
    assert all(math.isfinite(value) and 0 <= value <= bound for value in clock.left.values())


@given(st.text(max_size=20))
def test_the_takebacks_tag_is_one_of_two_words_or_refused(text: str) -> None:
    allowed = read_or_refusal(lambda: read_takebacks({"Takebacks": text}))
    if isinstance(allowed, str):
        assert "Takebacks" in allowed
    else:
        assert text in ("allowed", "none") and allowed == (text == "allowed")


def test_the_menu_sets_aside_saves_with_damaged_tags_in_one_line_each(state_dir: Path) -> None:
    """Saves whose seed is past 2**63, whose clock is NaN, whose time left is a digit bomb: the menu comes up, each
    is set aside with a line naming its tag, and the sound save stays offered for resume."""
    store = SaveStore(state_dir)
    sound = nim_save(store)
    damaged = {"Seed": str(2**63), "TimeControl": "nan+3", "Clock": "9" * 5000 + ",300"}
    for tag, value in damaged.items():
        record = nim_record(**{tag: value})
        secret = {"Seed": record.tags.pop("Seed")}
        slot = store.new_slot()
        slot.save(record, secret)
        slot.release()

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen.is_mounted, "the menu")
            await pilot.pause()
            said = notifications(app)
            for tag in damaged:
                assert sum(f"the {tag} tag" in message for message in said) == 1, (tag, said)
            assert all(len(message) < 600 for message in said), said
            resume = [key for key, line in menu_options(app) if line.startswith("Resume")]
            assert resume == [f"resume:{sound.id}"], menu_options(app)

    run(test)
    assert len(list((store.folder / "damaged").glob("*.ngr"))) == len(damaged)


# --------------------------------------------------------------------------------------------------- 3: ply 199


#: The same Mini-Geister position (no capture yet, player 1 to move) one ply before the game's limit, and at it.
BEFORE_LIMIT = "1uu1/4/4/1BR1 1 - 199"
AT_LIMIT = "1uu1/4/4/1BR1 1 - 200"


def opened_by_play(position: str, monkeypatch: pytest.MonkeyPatch) -> StartRequest:
    """``nashplay play mini-geister --position P``: what it asks the app to open (the app itself is not run)."""
    seen: list[StartRequest] = []

    def capture(request: StartRequest, args: object) -> int:
        seen.append(request)
        return 0

    monkeypatch.setattr("tui.cli.play.open_app", capture)
    assert main(["play", "mini-geister", "--position", position, "--opponent", "random"]) == 0
    return seen[0]


@pytest.mark.usefixtures("use_shared_solved_tables")
def test_analyse_and_play_agree_that_ply_199_has_a_ply_left_and_ply_200_is_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``spec/rules.md``: a Mini-Geister game that reaches 200 plies without an end is a draw; the solver has no limit.
    ``analyse`` called ply 199 a finished game (each move led to ply 200, which its tables' game took for the end)
    while ``play`` opened it."""
    request = opened_by_play(BEFORE_LIMIT, monkeypatch)
    assert isinstance(request.config, GeisterConfig) and request.config.position == BEFORE_LIMIT
    assert main(["analyse", "mini-geister", "--position", BEFORE_LIMIT, "--json"]) == 0
    advice = json.loads(capsys.readouterr().out)
    assert advice["best"] and {move["move"] for move in advice["moves"]} >= {"b1-b2", "c1-c2"}, advice
    for rule in ("base", "extended"):
        assert main(["analyse", "mini-geister", "--position", BEFORE_LIMIT, "--rule", rule]) == 0
        assert "Suggested:" in capsys.readouterr().out
    # At the limit both say the game is over, in one line.
    assert "over" in refused(["play", "mini-geister", "--position", AT_LIMIT, "--opponent", "random"], capsys)
    assert "over" in refused(["analyse", "mini-geister", "--position", AT_LIMIT], capsys)
    # The game itself: one move from ply 199 is the draw at 200.
    state = GeisterState.from_position(BEFORE_LIMIT, "mini-geister")
    assert not state.is_terminal()
    state.push(Move.parse("b1-b2"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None


# --------------------------------------------------------------------------------------------------- 4: long replays


def long_nim_record(moves: int = MAX_RECORD_MOVES, heap: int = 100_000) -> Record:
    """The longest record there may be (``MAX_RECORD_MOVES``): Nim on one big heap, a stone a move."""
    text = "\n".join(f"{number}. 1:1 1:1" for number in range(1, moves // 2 + 1))
    record = Record.parse(f'[Game "nim"]\n[Start "{heap}"]\n\n{text} *\n')
    assert len(record.moves) == moves
    return record


def heaps_of(state: object) -> tuple[int, ...]:
    assert isinstance(state, HeapGameState)
    return state.heaps


def test_a_10000_ply_replay_keeps_a_state_every_hundred_plies_not_every_ply() -> None:
    """Each state of a heap game holds its history: one kept a ply was 10,000 copies of a growing history (about
    830 MB). The record viewer keeps one every ``CHECKPOINT_PLIES`` and the two last shown."""
    record = long_nim_record()
    screen = RecordViewerScreen(record)
    states = screen.states
    assert isinstance(states, Positions) and len(states) == MAX_RECORD_MOVES + 1 and screen.last_ply == 10_000
    bound = MAX_RECORD_MOVES // CHECKPOINT_PLIES + 1 + Positions.RECENT
    assert states.stored <= bound
    for ply in (0, 1, 99, 100, 101, 5_555, 9_999, 10_000, -1, 3, 2):
        state = states[ply]
        assert state.heaps == (100_000 - ply % 10_001,) and len(state.history()) == ply % 10_001, ply
        assert states.stored <= bound
    for ply in range(4_000, 4_300):  # stepping on, as the play key does, and back
        assert states[ply].heaps == (100_000 - ply,) and states[ply - 1].heaps == (100_001 - ply,)
    assert states.stored <= bound
    assert [Side(player).number for player in states.players[:4]] == [1, 2, 1, 2]


def at_ply(screen: RecordViewerScreen, ply: int) -> Callable[[], bool]:
    return lambda: screen.ply == ply


def test_the_record_viewer_steps_through_a_10000_ply_record_in_the_app() -> None:
    record = long_nim_record()
    bound = MAX_RECORD_MOVES // CHECKPOINT_PLIES + 1 + Positions.RECENT

    async def test() -> None:
        app = NashplayApp(StartRequest("replay", record=record), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, RecordViewerScreen), "the viewer")
            screen = app.screen
            assert isinstance(screen, RecordViewerScreen) and isinstance(screen.states, Positions)
            for key, ply in (("end", 10_000), ("left", 9_999), ("left", 9_998), ("home", 0), ("right", 1)):
                await pilot.press(key)
                await wait_for(pilot, at_ply(screen, ply), f"ply {ply}")
                assert screen.states.stored <= bound
            status = str(screen.query_one("#viewer-status", Static).render())
            assert "Ply 1 of 10000" in status, status

    run(test)


def test_the_geister_replay_keeps_its_positions_the_same_way() -> None:
    record = geister_record()
    screen = ReplayScreen(record)
    assert isinstance(screen.states, Positions) and screen.states.stored <= 1 + Positions.RECENT
    assert [state.position() for state in screen.states] == [state.position() for state in record.replay()]


@pytest.mark.parametrize("every", [1, 2, 3, 7, 100])
def test_positions_are_the_states_replay_states_lists_in_any_order(every: int) -> None:
    record = long_nim_record(moves=40, heap=50)
    expected = [heaps_of(state) for state in record.replay_states()]
    positions = record.positions(every)
    order = list(range(len(expected))) + list(range(len(expected) - 1, -1, -1)) + [5, 30, 5, 0, 39, 12, 13, 11]
    assert [positions[ply].heaps for ply in order] == [expected[ply] for ply in order]
    assert [state.heaps for state in positions[10:15]] == expected[10:15]
    with pytest.raises(IndexError):
        positions[41]


def test_a_long_save_s_menu_line_and_resume_read_its_end_without_every_state(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The menu's line of a heap game says its heaps, and resuming checks its start and end: neither keeps a state
    a move any more (``replay_states`` is not called). The app plays heaps of at most 40 stones, so this save (a
    hostile one) is refused, after its moves were checked."""
    record = long_nim_record()
    record.tags.update({"Human": "1", "Opponent": "random"})

    def every_state(self: Record) -> list[object]:
        raise AssertionError("every state of the record was kept")

    monkeypatch.setattr(Record, "replay_states", every_state)
    store = SaveStore(state_dir)
    slot = store.new_slot()
    slot.save(record, secret_tags(5))
    slot.release()
    assert "10000 plies played, heaps 90000" in slot.describe()
    with pytest.raises(NotationError, match="at most 40 stones"):
        resume_record(slot.load())
