"""Property tests: whatever text or bytes a user (or a damaged disk) hands the parsers, they answer with the
project's ``ValueError`` subclasses and short messages, never another exception, and never by allocating what the
input claims."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import NotationError
from core.geister import GeisterState
from core.notation import Move, Square
from core.record import Record
from tui.saves import SaveStore
from tui.session import resumable

#: Messages may name what was wrong; they never echo a long input back.
MESSAGE_LIMIT = 400


def refusal(parse: Callable[[], object]) -> str:
    """The message ``parse`` refuses its input with ("" when it accepts it); any exception but ``NotationError``
    propagates and fails the test."""
    try:
        parse()
    except NotationError as error:
        return str(error)
    return ""


# Text built from the notation's own alphabet (so the parsers get past their first checks), digit runs of any
# length (the bombs), and anything else.
NOTATION = st.text(alphabet="BRUbru0123456789/ -?", max_size=120)
DIGIT_RUNS = st.integers(1, 5000).map(lambda n: "9" * n)
POSITIONS = st.one_of(
    NOTATION,
    st.builds(lambda run, rest: f"{run}/4/4/4 {rest}", DIGIT_RUNS, NOTATION),
    st.builds(lambda run: f"1uu1/4/4/1UU1 1 - {run}", DIGIT_RUNS),
    st.text(max_size=200),
)


@settings(max_examples=300, deadline=None)
@given(POSITIONS)
def test_any_position_text_is_a_position_or_a_notation_error(text: str) -> None:
    assert len(refusal(lambda: GeisterState.from_position(text))) < MESSAGE_LIMIT


@settings(max_examples=300, deadline=None)
@given(st.one_of(NOTATION, st.text(max_size=60), DIGIT_RUNS.map(lambda run: f"a{run}-a2")))
def test_any_move_or_square_text_parses_or_is_a_notation_error(text: str) -> None:
    assert len(refusal(lambda: Move.parse(text))) < MESSAGE_LIMIT
    assert len(refusal(lambda: Square.parse(text))) < MESSAGE_LIMIT


TAG_VALUES = st.one_of(NOTATION, DIGIT_RUNS, st.sampled_from(["nan", "inf", "-1", "1e9", "?", "", "BR", "RB"]))
RECORDS = st.builds(
    lambda game, start, think, seed, human, setup, moves: (
        f'[Game "{game}"]\n[Start "{start}"]\n[ThinkTime "{think}"]\n[Seed "{seed}"]\n[Human "{human}"]\n'
        f'[Setup1 "{setup}"]\n[Setup2 "?"]\n\n{moves}\n'
    ),
    st.sampled_from(["mini-geister", "geister", "mini-geister-3v2-rrb", "chess"]),
    st.one_of(st.just("1uu1/4/4/1UU1 1"), POSITIONS),
    TAG_VALUES,
    TAG_VALUES,
    st.sampled_from(["1", "2", "3", "x"]),
    TAG_VALUES,
    st.one_of(st.just("b1-b2 c4-c3"), NOTATION, st.text(max_size=100)),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=RECORDS)
def test_any_saved_game_resumes_or_is_refused_with_a_notation_error(tmp_path: Path, text: str) -> None:
    """What the app does with a save at start: read it, replay it, check its tags. Only ``NotationError`` (which
    sets the save aside) may come out."""
    store = SaveStore(tmp_path)
    slot = store.new_slot()
    slot.folder.mkdir(parents=True, exist_ok=True)
    slot.path.write_text(text, encoding="utf-8", errors="surrogateescape")
    assert len(refusal(lambda: resumable(slot.load()))) < MESSAGE_LIMIT + len(str(slot.path))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_record_text_parses_or_is_a_notation_error(text: str) -> None:
    assert len(refusal(lambda: Record.parse(text).replay())) < MESSAGE_LIMIT
