"""Hostile records, and what every reader of records does with them: the numbers a record carries are bounded as the
command line bounds them before anything is built from them; only regular files of a bounded size are read (a named
pipe, a device or a folder is refused in one line, never opened in a way that waits); a record's text and a file's
name reach the screen as text, never as markup, and the terminal never gets a control character from them; comments
are joined in linear time.

Every reader is driven: ``Record`` itself, ``replay --list``, ``replay``, ``review``, the menu's scan of the saved
games, its replay prompt, the recent games and the viewers. The commands that could hang (a named pipe) run in a
child process with a ceiling only a hang reaches."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import not_called, refused
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pilot_helpers import run, wait_for
from textual.pilot import Pilot
from textual.widgets import Input, OptionList
from waiting import HANG_SECONDS

from core.errors import NotationError, RecordError
from core.impartial import (
    MAX_RECORDED_HEAP,
    MAX_RECORDED_HEAPS,
    MAX_RECORDED_TAKE,
    HeapGameState,
    HeapMove,
    parse_rule,
)
from core.record import MAX_RECORD_CHARS, Record
from tui.app import NashplayApp, StartRequest
from tui.cli import main
from tui.saves import SaveStore
from tui.screens.ask_path import AskPath
from tui.screens.menu import MenuScreen
from tui.screens.recent import RecentGamesScreen
from tui.screens.record_viewer import RecordViewerScreen
from tui.widgets.heaps import HeapRows

SIZE = (110, 34)
#: Messages name what was wrong in a line; they never echo a long input back.
MESSAGE_LIMIT = 400


def nim_text(tags: str, moves: str = "*") -> str:
    """A Nim record's text with these tag lines (after its ``Game`` tag) and move text."""
    return f'[Game "nim"]\n{tags}\n\n{moves}\n'


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def control_characters(text: str) -> list[str]:
    """The control characters in ``text`` but the line breaks a listing is made of."""
    return sorted({c for c in text if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) < 0xA0})


# --------------------------------------------------------------------------------------------------- 3: numbers


#: Records whose numbers go past what any command takes (``analyse nim``, ``review``: the solver's bounds).
BEYOND = {
    "a take of a billion, a heap of a billion": nim_text('[Rule "{999999999}"]\n[Start "999999998"]'),
    "a heap of a billion": nim_text('[Start "999999999"]'),
    "a heap one past the bound": nim_text(f'[Start "{MAX_RECORDED_HEAP + 1}"]'),
    "one heap too many": nim_text(f'[Start "{",".join(["1"] * (MAX_RECORDED_HEAPS + 1))}"]'),
    "a take one past the bound": nim_text(f'[Rule "{{1,{MAX_RECORDED_TAKE + 1}}}"]\n[Start "3"]'),
}


def test_the_record_bounds_are_the_command_line_s() -> None:
    """What a record may say is what ``analyse nim`` and ``review`` take (the Sprague-Grundy solver's bounds), so that
    every record one command accepts, the others accept too."""
    from solvers.grundy_limits import MAX_HEAP, MAX_HEAPS, MAX_TAKE

    assert (MAX_RECORDED_HEAP, MAX_RECORDED_HEAPS, MAX_RECORDED_TAKE) == (MAX_HEAP, MAX_HEAPS, MAX_TAKE)


@pytest.mark.parametrize("text", BEYOND.values(), ids=BEYOND.keys())
def test_a_record_s_numbers_past_the_bounds_are_refused_before_anything_is_built(text: str) -> None:
    record = Record.parse(text)
    with pytest.raises(RecordError) as refusal:
        record.replay_states()
    assert len(str(refusal.value)) < MESSAGE_LIMIT and "\n" not in str(refusal.value)


def test_a_record_at_the_bounds_replays_and_its_moves_are_found_without_counting_stones() -> None:
    """The largest heaps a record may hold, with a rule whose take is the largest: a subtraction game's moves are its
    takes (not every number up to the heap), and a short split is read from its own heap (not from every move of
    every heap)."""
    heaps = ",".join([str(MAX_RECORDED_HEAP)] * MAX_RECORDED_HEAPS)
    text = nim_text(f'[Rule "{{1,{MAX_RECORDED_TAKE}}}"]\n[Start "{heaps}"]', "1. 1:10000 1:1 2. 2:1 *")
    states = Record.parse(text).replay_states()
    assert len(states) == 4
    last = states[-1]
    assert isinstance(last, HeapGameState)
    assert last.heaps[:2] == (MAX_RECORDED_HEAP - 10_001, MAX_RECORDED_HEAP - 1)
    assert len(last.legal_actions()) == 2 * MAX_RECORDED_HEAPS
    splitting = HeapGameState((MAX_RECORDED_HEAP,) * MAX_RECORDED_HEAPS, parse_rule("0.4"))
    with pytest.raises(NotationError, match="must say how the rest splits"):
        splitting.parse_action("1:1")
    assert HeapGameState((3,), parse_rule("0.4")).parse_action("1:1") == HeapMove(0, 1, (1, 1))


def test_replay_list_and_review_refuse_a_hostile_nim_record_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record that made ``replay --list`` spin for minutes: both commands refuse it as ``review`` did."""
    monkeypatch.setattr("tui.cli.replay.open_app", not_called)
    path = write(tmp_path / "rule.ngr", BEYOND["a take of a billion, a heap of a billion"])
    for argv in (["replay", "--list", str(path)], ["replay", str(path)], ["review", str(path)]):
        assert "at most" in refused(argv, capsys)
    big = write(tmp_path / "big.ngr", BEYOND["a heap of a billion"])
    assert "at most" in refused(["replay", str(big)], capsys)


def test_the_menu_appears_past_a_hostile_save_and_sets_it_aside(state_dir: Path) -> None:
    """The same record as a save slot in ``games/`` kept the menu from ever appearing."""
    store = SaveStore(state_dir)
    slot = store.new_slot()
    slot.folder.mkdir(parents=True, exist_ok=True)
    write(
        slot.path,
        BEYOND["a take of a billion, a heap of a billion"].replace('[Game "nim"]', '[Game "nim"]\n[Human "1"]'),
    )

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            await wait_for(pilot, lambda: (store.folder / "damaged" / slot.path.name).is_file(), "the save set aside")
            assert any("at most" in str(n.message) for n in app._notifications)
            await pilot.press("q")
            await pilot.pause()
        assert app.return_code in (0, None)

    run(test)


def test_a_bounded_but_big_heap_is_drawn_as_a_number(state_dir: Path) -> None:
    """A heap of a hundred thousand stones is a number on the screen, not a hundred thousand glyphs."""
    text = nim_text(f'[Start "{MAX_RECORDED_HEAP},3"]', "1. 1:5 *")
    record = Record.parse(text)

    async def test() -> None:
        app = NashplayApp(StartRequest("replay", record=record, replay_title="Replay: big"), ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, RecordViewerScreen)
            rows = app.screen.query_one(HeapRows)
            drawn = rows.render().plain
            assert len(drawn) < 200, len(drawn)
            # The heap, and the stones the next move takes (a glyph of their own, as when they are drawn).
            assert drawn.splitlines()[0].endswith(f"{MAX_RECORDED_HEAP - 5:,} + ○ 5 taken = {MAX_RECORDED_HEAP:,}")
            await pilot.press("right")
            await pilot.pause()
            drawn = rows.render().plain
            assert len(drawn) < 200 and f"{MAX_RECORDED_HEAP - 5:,}" in drawn and "taken" not in drawn

    run(test)


# --------------------------------------------------------------------------------------------------- 4: files


@contextlib.contextmanager
def unblocked_if_opened(fifo: Path) -> Iterator[None]:
    """While the block runs, a writer waits on ``fifo`` so that a reader that opens it (the defect) gets an empty
    file instead of waiting for ever; on the way out the writer is let go (a reader of our own, which never
    waits)."""
    writer = threading.Thread(target=lambda: open(fifo, "wb").close(), daemon=True)
    writer.start()
    try:
        yield
    finally:
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        writer.join()
        os.close(reader)


def not_regular_files(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "pipe.ngr"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.ngr"
    folder.mkdir()
    return {"a named pipe": fifo, "a folder": folder, "a device": Path(os.devnull)}


def test_record_load_refuses_what_is_not_a_regular_file_without_opening_it(tmp_path: Path) -> None:
    for what, path in not_regular_files(tmp_path).items():
        guard = unblocked_if_opened(path) if what == "a named pipe" else contextlib.nullcontext()
        with guard, pytest.raises(RecordError) as refusal:
            Record.load(path)
        said = str(refusal.value)
        assert "not a regular file" in said and "\n" not in said, (what, said)


def test_record_load_refuses_a_file_past_the_size_cap_before_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.ngr"
    with path.open("wb") as file:
        file.truncate(50 * MAX_RECORD_CHARS)  # sparse: nothing to read, only a size
    with pytest.raises(RecordError) as refusal:
        Record.load(path)
    assert "larger than" in str(refusal.value)


@pytest.mark.parametrize("argv", [["review"], ["replay"], ["replay", "--list"]], ids=" ".join)
def test_a_named_pipe_is_refused_by_the_commands_in_one_line(tmp_path: Path, argv: list[str]) -> None:
    fifo = tmp_path / "pipe.ngr"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from tui.cli import run; sys.exit(run())", *argv, str(fifo)],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,  # only a hang gets there: the command waited on the pipe for a writer
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stdout == "" and done.stderr.count("\n") == 1 and "not a regular file" in done.stderr, done.stderr


def menu_message(app: NashplayApp) -> str:
    return str(app.screen.query_one("#menu-message").render())


async def open_in_prompt(app: NashplayApp, pilot: Pilot[None], typed: str) -> None:
    """Type ``typed`` in the menu's replay prompt (``o``) and press Enter."""
    await pilot.press("o")
    await pilot.pause()
    assert isinstance(app.screen, AskPath)
    app.screen.query_one("#path", Input).value = typed
    await pilot.press("enter")
    await pilot.pause()


def test_the_app_s_replay_prompt_refuses_a_named_pipe_in_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.ngr"
    os.mkfifo(fifo)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            with unblocked_if_opened(fifo):
                await open_in_prompt(app, pilot, str(fifo))
            assert isinstance(app.screen, MenuScreen)
            said = menu_message(app)
            assert "not a regular file" in said and "\n" not in said.strip(), said

    run(test)


def test_an_unknown_user_s_home_in_the_replay_prompt_is_one_line(tmp_path: Path) -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            await open_in_prompt(app, pilot, "~nosuchuser-of-nashplay/x.ngr")
            assert isinstance(app.screen, MenuScreen)
            said = menu_message(app)
            assert said.startswith("Cannot replay") and "~nosuchuser-of-nashplay" in said, said

    run(test)


# --------------------------------------------------------------------------------------------------- 5: markup


def test_a_path_with_markup_in_the_replay_prompt_is_said_as_text(tmp_path: Path) -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            await open_in_prompt(app, pilot, "/nonexistent/[/]x.ngr")
            assert isinstance(app.screen, MenuScreen)
            assert "/nonexistent/[/]x.ngr" in menu_message(app)

    run(test)


def test_damaged_saves_with_markup_in_their_tags_are_said_as_text(state_dir: Path) -> None:
    """Saves whose opponent tag is ``[/]`` (one with a move that does not replay): each is set aside, and the
    notification that says so quotes the tag as it is."""
    store = SaveStore(state_dir)
    for moves in ("*", "1. 9:9 *"):
        slot = store.new_slot()
        slot.folder.mkdir(parents=True, exist_ok=True)
        write(slot.path, nim_text('[Start "3,4"]\n[Human "1"]\n[Opponent "[/]"]', moves))
        slot.release()

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert any("'[/]'" in str(n.message) for n in app._notifications)
            await pilot.press("r")  # the app goes on
            await pilot.pause()
            assert isinstance(app.screen, RecentGamesScreen)
        assert len(list((store.folder / "damaged").glob("*.ngr"))) == 2

    run(test)


def test_the_menu_s_resume_lines_are_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a save's description holds (its tags, its slot's name), the menu lists it as it is."""
    described = [("one", "Nim vs [/], 0 plies played"), ("two", 'a saved game (damaged: it will be set aside) [x="]')]
    monkeypatch.setattr(NashplayApp, "describe_saved_games", lambda self: described)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            games = app.screen.query_one("#games", OptionList)
            lines = [str(games.get_option_at_index(i).prompt) for i in range(2)]
            assert lines == [f"Resume: {description}" for _, description in described]

    run(test)


def test_record_files_with_markup_in_their_names_and_moves_are_listed_and_said_as_text(state_dir: Path) -> None:
    """``bad[x="]y.ngr`` in ``records/`` (it does not parse), and ``[b]moves.ngr`` whose move is ``[/]`` (it parses,
    and fails on replay: the notification quotes the move)."""
    store = SaveStore(state_dir)
    store.records.mkdir(parents=True, exist_ok=True)
    write(store.records / 'bad[x="]y.ngr', "not a record [/]")
    write(store.records / "[b]moves.ngr", nim_text('[Start "3"]\n[Player1 "[/]"]', "1. [/] *"))

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            recent = app.screen
            assert isinstance(recent, RecentGamesScreen)
            listing = recent.query_one(OptionList)
            lines = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
            assert any('bad[x="]y.ngr' in line for line in lines), lines
            for index, game in enumerate(recent.games):
                listing.highlighted = index
                await pilot.press("enter")
                await pilot.pause()
                if game.problem is not None:
                    assert recent.message_text.startswith('bad[x="]y.ngr cannot be opened')
            assert any("[/]" in str(n.message) for n in app._notifications)
            assert app.screen is recent

    run(test)


@pytest.mark.parametrize("game", ["nim", "mini-geister"])
def test_the_viewers_titles_show_a_record_s_tags_as_text(game: str) -> None:
    tags = '[Player1 "[/]"]\n[Player2 "[b]x"]'
    text = nim_text(f'[Start "3"]\n{tags}', "1. 1:3 *") if game == "nim" else f'[Game "{game}"]\n{tags}\n\n*\n'
    record = Record.parse(text)

    async def test() -> None:
        app = NashplayApp(StartRequest("replay", record=record, replay_title="Replay: [/]x.ngr"), ai_delay=0)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            assert app.screen.title == "Replay: [/]x.ngr" and app.screen.sub_title.startswith("[/] vs [b]x")

    run(test)


# --------------------------------------------------------------------------------------------------- 8: escapes


ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;aGVsbG8=\x07\x9b31m\x08"


def escaped_record() -> str:
    return nim_text(
        f'[Start "3,4"]\n[Player1 "{ESCAPES}"]\n[Event "{ESCAPES}"]', f"1. 1:3 {{{ESCAPES} a note}} 2. 2:1 *"
    )


def test_a_record_s_text_never_carries_control_characters() -> None:
    record = Record.parse(escaped_record())
    assert not control_characters(" ".join(record.tags.values()))
    assert not control_characters(record.moves[0].comment or "") and "a note" in (record.moves[0].comment or "")


@pytest.mark.parametrize("argv", [["replay", "--list"], ["replay", "--list", "--json"], ["review"]], ids=" ".join)
def test_the_commands_print_no_terminal_escapes_from_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    path = write(tmp_path / f"{ESCAPES[:6]}.ngr", escaped_record())
    assert main([*argv, str(path)]) == 0
    out, err = capsys.readouterr()
    assert not control_characters(out) and not control_characters(err), control_characters(out + err)
    if "--json" in argv:
        assert "a note" in json.loads(out)["moves"][0]["comment"]


def test_analyse_prints_no_terminal_escapes(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(["analyse", "nim", "--position", f"3,{ESCAPES}"], capsys)
    assert not control_characters(err), err


def test_comments_are_joined_in_linear_time() -> None:
    """The largest record there may be: one move and a quarter of a million comments after it, joined in one go
    (joining them one by one copied the growing comment every time: 17 s for a megabyte)."""
    count = (MAX_RECORD_CHARS - 100) // 4
    record = Record.parse(nim_text('[Start "3"]', "1. 1:1 " + " ".join(["{a}"] * count) + " *"))
    assert record.moves[0].comment == " ".join(["a"] * count)


# --------------------------------------------------------------------------------------------------- fuzzing


NUMBERS = st.one_of(
    st.integers(0, 12).map(str),
    st.integers(0, 10**12).map(str),
    st.integers(1, 2000).map(lambda n: "9" * n),
    st.sampled_from(["", "-1", "1e9", "nan", "0x10", " 7 ", "٣"]),
)
ROWS = st.lists(NUMBERS, min_size=1, max_size=8).map(",".join) | st.integers(90, 1200).map(
    lambda n: ",".join(["1"] * n)
)
RULES = st.one_of(
    st.sampled_from(["nim", "kayles", "dawsons-kayles", "0.77", "4.07", "0." + "7" * 150, "[/]"]),
    st.lists(NUMBERS, min_size=1, max_size=5).map(lambda takes: "{" + ",".join(takes) + "}"),
)
HOSTILE_TEXT = st.lists(
    st.sampled_from(["[/]", "[b]", '[x="]', "{", "}", "\x1b", "\x07", "\x9b", "\r", "é", "a", " "]), max_size=12
).map("".join)
MOVES = st.lists(
    st.one_of(st.sampled_from(["1:1", "2:3", "1:1/1+1", "dd", "ca", "3:5", "b1-b2"]), NUMBERS), max_size=12
)


@st.composite
def hostile_records(draw: st.DrawFn) -> str:
    game = draw(st.sampled_from(["nim", "tcg", "footstep", "goofspiel", "mini-geister", "[/]"]))
    tags = {
        "Game": game,
        "Rule": draw(RULES),
        "Start": draw(st.one_of(ROWS, NUMBERS, HOSTILE_TEXT)),
        "N": draw(NUMBERS),
        "K": draw(NUMBERS),
        "Cards": draw(NUMBERS),
        "Deck": draw(st.one_of(NUMBERS, st.just("31524"))),
        "Player1": draw(HOSTILE_TEXT),
    }
    kept = [*draw(st.lists(st.sampled_from(sorted(tags)), unique=True)), "Game"]
    lines = [
        f'[{name} "{value.replace(chr(92), "").replace(chr(34), "")}"]' for name, value in tags.items() if name in kept
    ]
    comment = draw(st.one_of(st.just(""), HOSTILE_TEXT.map(lambda text: " {" + text.replace("}", "") + "}")))
    moves = " ".join(draw(MOVES))
    return "\n".join(lines) + f"\n\n{moves}{comment} *\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_records())
def test_any_hostile_record_replays_within_the_bounds_or_is_a_notation_error(text: str) -> None:
    said = ""
    try:
        record = Record.parse(text)
        states = record.replay_states()
    except NotationError as error:
        said = str(error)
    if said:
        assert len(said) < MESSAGE_LIMIT and "\n" not in said
        return
    assert not control_characters(" ".join(record.tags.values()))
    for state in states:
        if isinstance(state, HeapGameState):
            assert len(state.heaps) <= MAX_RECORDED_HEAPS and max(state.heaps) <= MAX_RECORDED_HEAP
