"""The longest records (``MAX_RECORD_MOVES``) held in bounded memory: ``replay --list``, ``replay``, ``review`` and the
review screen step through ``Record.positions`` (a state every ``CHECKPOINT_PLIES``) instead of keeping a state a ply
(``replay_states``: a 10,000-move heap game held about 830 MB, as each heap-game state holds its history); iterating
a ``Positions`` walks forward without a copy a ply; and an opponent's profile is read only from a regular file of at
most ``MAX_BYTES`` (issue 29).

Each test counts what is kept and played (states held, copies made, moves played), never the clock or the bytes.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import refused
from test_bounded_inputs import in_place_of, long_nim_record, without_hanging
from test_record_viewer import GAMES, game_record, geister_record
from test_review import short_game

from core.game import Game, Side
from core.game_type import resolve
from core.games import GAME_TYPES, state_text
from core.geister import GeisterState
from core.impartial import HeapGameState
from core.record import CHECKPOINT_PLIES, MAX_RECORD_MOVES, Positions, Record
from solvers.review.judging import Budget
from tui.cli import main
from tui.opponents import MAX_BYTES, OpponentMemory
from tui.screens.review import ReviewScreen

#: The most states a ``Positions`` of the longest record holds: one every ``CHECKPOINT_PLIES``, and the last asked.
BOUND = MAX_RECORD_MOVES // CHECKPOINT_PLIES + 1 + Positions.RECENT


def every_state(self: Record) -> list[Game[Any, Any]]:
    raise AssertionError("every state of the record was kept (replay_states)")


class Counts:
    """How many heap-game states were copied, moves played and ``Positions`` made while installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.clones = 0
        self.plays = 0
        self.made: list[Positions[Any]] = []
        clone, play, positions = HeapGameState.clone, Record._play, Record.positions

        def counted_clone(state: HeapGameState) -> HeapGameState:
            self.clones += 1
            return clone(state)

        def counted_play(record: Record, state: Game[Any, Any], index: int, first: Side) -> None:
            self.plays += 1
            play(record, state, index, first)

        def kept_positions(record: Record, every: int | None = None) -> Positions[Any]:
            made = positions(record, every)
            self.made.append(made)
            return made

        monkeypatch.setattr(HeapGameState, "clone", counted_clone)
        monkeypatch.setattr(Record, "_play", counted_play)
        monkeypatch.setattr(Record, "positions", kept_positions)
        monkeypatch.setattr(Record, "replay_states", every_state)


@pytest.fixture
def long_file(tmp_path: Path) -> Path:
    path = tmp_path / "long.ngr"
    long_nim_record().save(path, durable=False)
    return path


# --------------------------------------------------------------------------------------------------- Positions


def test_walking_positions_forward_copies_no_state_a_ply(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Sequence``'s own iteration asked each ply, and each ask copied the state before it: 10,000 copies of a
    growing history. The walk plays each move twice on two states, and pairs each ply with the next."""
    positions = long_nim_record().positions()
    counts = Counts(monkeypatch)
    pairs = 0
    for ply, (before, after) in enumerate(itertools.pairwise(positions)):
        assert before.heaps == (100_000 - ply,) and after.heaps == (99_999 - ply,), ply
        assert before is not after
        pairs += 1
    assert pairs == MAX_RECORD_MOVES
    assert counts.clones <= 2 and counts.plays <= 2 * MAX_RECORD_MOVES, (counts.clones, counts.plays)
    assert positions.stored <= BOUND


def snapshot(state: Game[Any, Any]) -> tuple[str, int, str]:
    return state_text(state), state.current_player(), str(state.outcome())


@pytest.mark.parametrize("every", [1, 2, 3, 100])
@pytest.mark.parametrize("name", [*GAMES, "geister", "mini-geister"])
def test_walked_positions_are_the_states_replay_lists_each_with_the_next(name: str, every: int) -> None:
    record = geister_record(name, plies=40) if "geister" in name else game_record(name, rounds=30)
    expected = [snapshot(state) for state in record.replay_states()]
    positions = record.positions(every)
    walked = [(snapshot(before), snapshot(after)) for before, after in itertools.pairwise(positions)]
    assert walked == list(itertools.pairwise(expected))
    assert [snapshot(state) for state in positions] == expected  # a state read as it comes, twice over
    assert [snapshot(state) for state in positions] == expected


# --------------------------------------------------------------------------------------------------- replay


def test_replay_list_of_a_10000_move_record_keeps_a_state_every_hundred_plies(
    long_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    counts = Counts(monkeypatch)
    assert main(["replay", "--list", "--json", str(long_file)]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed["moves"]) == MAX_RECORD_MOVES and listed["start"] == "100000"
    assert [move["side"] for move in listed["moves"][:3]] == [1, 2, 1] and listed["moves"][-1]["side"] == 2
    assert listed["moves"][-1]["position"] == "90000" and listed["moves"][4_999]["position"] == "95000"
    (positions,) = counts.made
    assert positions.stored <= BOUND
    # The walk's checkpoints, its two states and the first and last shown: not a copy a ply.
    assert counts.clones <= BOUND + 4, counts.clones
    assert counts.plays <= 3 * MAX_RECORD_MOVES + CHECKPOINT_PLIES, counts.plays


def test_replay_of_a_10000_move_record_checks_it_keeping_its_end_alone(
    long_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = Counts(monkeypatch)
    opened: list[Any] = []
    monkeypatch.setattr("tui.cli.replay.open_app", lambda request, args: opened.append(request) or 0)
    assert main(["replay", str(long_file)]) == 0
    (request,) = opened
    assert len(request.record.moves) == MAX_RECORD_MOVES
    assert counts.clones == 0 and counts.made == [], (counts.clones, counts.made)  # the viewer makes its own


def test_a_long_record_that_goes_wrong_at_its_end_is_still_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = long_nim_record()
    record.moves[-1].text = "1:99999"
    path = tmp_path / "bad.ngr"
    record.save(path, durable=False)
    for argv in (["replay", str(path)], ["replay", "--list", str(path)]):
        assert "move 10000" in refused(argv, capsys)


# --------------------------------------------------------------------------------------------------- review


def test_review_of_a_10000_move_record_keeps_a_state_every_hundred_plies(
    long_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    counts = Counts(monkeypatch)
    assert main(["review", "--json", str(long_file)]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["plies"] == MAX_RECORD_MOVES and len(review["moves"]) == MAX_RECORD_MOVES
    assert review["moves"][-1]["position"] == "90001"
    (positions,) = counts.made
    assert positions.stored <= BOUND
    assert counts.clones <= BOUND + 4, counts.clones
    assert counts.plays <= 3 * MAX_RECORD_MOVES + CHECKPOINT_PLIES, counts.plays


def test_the_review_screen_keeps_a_state_every_hundred_plies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Record, "replay", every_state)
    counts = Counts(monkeypatch)
    screen = ReviewScreen(long_nim_record())
    states = screen.states
    assert isinstance(states, Positions) and len(states) == MAX_RECORD_MOVES + 1
    assert states.stored <= BOUND and counts.clones <= BOUND
    assert states[-1].heaps == (90_000,) and states[9_999].heaps == (90_001,) and states[0].heaps == (100_000,)
    assert states.stored <= BOUND


def test_a_geister_review_screen_keeps_its_positions_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    record = geister_record("geister", plies=30)
    expected = [state.position() for state in record.replay()]
    monkeypatch.setattr(Record, "replay", every_state)
    monkeypatch.setattr(Record, "replay_states", every_state)
    screen = ReviewScreen(record)
    try:
        assert isinstance(screen.states, Positions) and screen.states.stored <= 1 + Positions.RECENT
        assert [screen.states[ply].position() for ply in range(len(expected))] == expected
        assert isinstance(screen.states[-1], GeisterState)
    finally:
        if screen._process is not None:
            screen._process.shutdown()


def judged_records() -> Iterator[tuple[str, Callable[[], Record]]]:
    for name in GAMES:
        yield name, functools.partial(game_record, name, rounds=12)
    yield "mini-geister", short_game
    yield "geister", lambda: geister_record("geister", plies=6)


@pytest.mark.parametrize(("name", "make"), list(judged_records()))
def test_the_judges_only_read_the_states_they_judge(name: str, make: Callable[[], Record]) -> None:
    """The review walks its states forward (a state yielded is played on two states later): a judge that played on
    the state it judges would judge the next move on a wrong one. Each judge, on every state kept apart, leaves them
    as they were."""
    record = make()
    states = record.replay_states()
    before = [snapshot(state) for state in states]
    judge = resolve(GAME_TYPES[record.tags["Game"]].reviewer)
    review = judge(record, states, lambda finished: None, Budget(None, 1, 0))
    assert len(review.moves) >= len(record.moves) > 0
    assert [snapshot(state) for state in states] == before


# --------------------------------------------------------------------------------------------------- profiles


@pytest.mark.parametrize("kind", ["pipe", "folder", "device"])
def test_a_profile_that_is_not_a_regular_file_is_said_in_one_line_and_forgotten(tmp_path: Path, kind: str) -> None:
    """A named pipe in place of a profile was opened for reading: ``connect`` waited for ever for a writer."""
    path = in_place_of(tmp_path / "them.json", kind)
    memory = without_hanging(lambda: OpponentMemory.load("them", tmp_path), [path])
    assert memory.games == [] and memory.problem is not None
    assert "not a regular file" in memory.problem and "\n" not in memory.problem, memory.problem
    said = memory.remember(geister_record("geister", plies=4), Side.P2)
    # Nothing but a regular file is written over (core.record.replacing): a folder, a pipe or a device stays, said.
    assert said is not None and "\n" not in said and "cannot write" in said, said


def test_a_profile_past_the_cap_is_refused_by_its_size_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "them.json"
    with path.open("wb") as file:
        file.truncate(MAX_BYTES + 1)
    memory = OpponentMemory.load("them", tmp_path)
    assert memory.games == [] and memory.problem is not None
    assert "too large" in memory.problem and "\n" not in memory.problem, memory.problem
