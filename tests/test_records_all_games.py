"""Records of every game (issue 17): TCG, Footstep and Nim records through the same ``core.record`` as Geister's.

Property tests: random games of each game, written and read back, replay to the same states and result; damaged
tags are refused in one line before anything is built from them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import RecordError
from core.game import SIMULTANEOUS, Game, Side
from core.games import load_game
from core.record import Record

GAMES: dict[str, dict[str, Any]] = {
    "tcg": {"n": 3},
    "footstep": {"n": 6, "k": 2},
    "nim": {"heaps": (3, 4, 5)},
    "kayles": {"heaps": (2, 7), "rule": "kayles", "misere": True},
}


def random_game(name: str, seed: int, rounds: int) -> Game[Any, Any]:
    params = dict(GAMES[name])
    state = load_game("nim" if name == "kayles" else name, **params)
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history()) < rounds:
        if state.current_player() == SIMULTANEOUS:
            state.apply_joint(tuple(rng.choice(state.legal_actions(side)) for side in Side))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def snapshot(state: Game[Any, Any]) -> tuple[str, str, list[str]]:
    text = getattr(state, "state_text", None) or getattr(state, "heaps_text", "")
    return text, str(state.outcome()), [state.format_action(a) for a in state.history()]


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**6), rounds=st.integers(0, 40))
def test_a_record_replays_to_the_same_game(name: str, seed: int, rounds: int) -> None:
    state = random_game(name, seed, rounds)
    record = Record.from_state(state, {"Player1": "random", "Player2": "random"})
    text = record.to_text()
    again = Record.parse(text)
    assert again.to_text() == text
    states = again.replay_states()
    assert len(states) == len(state.history()) + 1
    assert snapshot(states[-1]) == snapshot(state)
    assert again.result == ("*" if state.outcome() is None else again.result)
    assert text.isascii()


def test_a_simultaneous_round_is_one_numbered_token() -> None:
    state = load_game("tcg", n=3)
    for joint in ("cc", "ca", "sd"):
        if not state.is_terminal():
            state.apply_joint(state.parse_action(joint))
    text = Record.from_state(state).to_text()
    assert "1. cc 2. ca" in text and '[N "3"]' in text and '[Start "0,0"]' in text


def test_footstep_results_are_in_points() -> None:
    state = load_game("footstep", n=5, k=1)
    state.apply_joint((3, 1))  # player 1 outbids: the marker reaches player 2's goal at once
    record = Record.from_state(state)
    assert record.result == "2-0"
    assert Record.parse(record.to_text()).replay_states()[-1].outcome() == state.outcome()


def test_a_record_from_a_position_keeps_its_start() -> None:
    from core.tcg import TcgState

    state = TcgState.from_text("2,1", 3)
    state.apply_joint(state.parse_action("ac"))
    record = Record.parse(Record.from_state(state).to_text())
    assert record.tags["Start"] == "2,1"
    assert snapshot(record.replay_states()[-1]) == snapshot(state)


@pytest.mark.parametrize(
    ("tags", "says"),
    [
        ({"Game": "tcg", "N": "9" * 500}, "N tag"),
        ({"Game": "tcg", "N": "0"}, "N tag"),
        ({"Game": "footstep", "K": "-3"}, "K tag"),
        ({"Game": "nim", "Start": "3,4", "Misere": "maybe"}, "Misere"),
        ({"Game": "nim"}, "heaps"),
        ({"Game": "nim", "Start": "3,x"}, "cannot set up"),
        ({"Game": "tcg", "Start": "7,7"}, "cannot set up"),
        ({"Game": "footstep", "N": "5", "Start": "9,9,9"}, "cannot set up"),
    ],
)
def test_damaged_tags_are_refused_in_one_line(tags: dict[str, str], says: str) -> None:
    with pytest.raises(RecordError) as error:
        Record(tags).replay_states()
    assert says in str(error.value) and "\n" not in str(error.value) and len(str(error.value)) < 300


def test_an_illegal_round_names_its_number() -> None:
    record = Record.parse('[Game "footstep"]\n[N "5"]\n[K "2"]\n\n1. 3:3 2. 9:1 *\n')
    with pytest.raises(RecordError, match="round 2"):
        record.replay_states()


def test_a_claimed_result_must_match_the_moves() -> None:
    record = Record.parse('[Game "nim"]\n[Start "1"]\n[Rule "nim"]\n[Misere "no"]\n\n1. 1:1 0-1\n')
    with pytest.raises(RecordError, match="claims 0-1"):
        record.replay_states()
