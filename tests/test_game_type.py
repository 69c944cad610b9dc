"""The game descriptors (``core.game_type``): every game says its parameters and records once, and they round-trip."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.game import Game, Side
from core.game_type import GameType, initial
from core.games import GAME_TYPES, load_game
from core.goofspiel import GAME_TYPES as GOOFSPIEL_TYPES
from core.goofspiel import GoofspielState
from core.record import Record

GOOFSPIEL = GOOFSPIEL_TYPES[0]


@pytest.mark.parametrize("name", list(GAME_TYPES))
def test_every_parameter_reads_back_its_own_text(name: str) -> None:
    for parameter in GAME_TYPES[name].parameters:
        assert parameter.parse(parameter.text(parameter.default)) == parameter.default


@pytest.mark.parametrize("name", list(GAME_TYPES))
def test_a_game_starts_from_its_defaults_and_refuses_what_it_does_not_take(name: str) -> None:
    game = GAME_TYPES[name]
    state = game.start()
    assert state.game_name == name
    assert game.values_of(state) == {
        p.name: p.default for p in game.parameters if p.tag is not None and p.name in game.values_of(state)
    }
    with pytest.raises(ValueError, match="takes no colour"):
        game.start(colour="blue")


def _play_out(state: Game[Any, Any], rng: random.Random, limit: int = 40) -> None:
    """Random actions (both players' at once in a simultaneous game) until the end or ``limit`` steps."""
    game = GAME_TYPES.get(state.game_name, GOOFSPIEL)
    for _ in range(limit):
        if state.is_terminal():
            return
        if game.kind == "simultaneous":
            state.apply_joint([rng.choice(state.legal_actions(side)) for side in Side])
        else:
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["tcg", "footstep", "nim"])
@given(seed=st.integers(0, 2**32))
def test_a_record_rebuilds_the_game_it_was_written_from(name: str, seed: int) -> None:
    state = load_game(name)
    _play_out(state, random.Random(seed))
    record = Record.parse(Record.from_state(state).to_text())
    replayed = record.replay_states()[-1]
    assert replayed.history() == state.history()
    assert GAME_TYPES[name].state_text(replayed) == GAME_TYPES[name].state_text(state)


def _through_tags(game: GameType, state: Game[Any, Any]) -> Game[Any, Any]:
    """``state``'s start rebuilt from the tags its record would keep, with its actions played again."""
    values = game.values_of(state)
    tags = {"Game": game.name, **{p.tag: p.text(values[p.name]) for p in game.parameters if p.tag}}
    tags.update(game.start_tags(state))
    rebuilt = game.from_tags(tags)
    for action in state.history():
        rebuilt.apply_joint(state.parse_action(state.format_action(action)))
    return rebuilt


@given(cards=st.integers(1, 9), seed=st.integers(0, 2**32))
def test_goofspiel_tags_keep_the_deck_so_the_bids_replay_to_the_same_end(cards: int, seed: int) -> None:
    rng = random.Random(seed)
    state = GoofspielState(cards, seed=seed)
    _play_out(state, rng)
    rebuilt = _through_tags(GOOFSPIEL, state)
    assert rebuilt.outcome() == state.outcome()
    assert GOOFSPIEL.state_text(rebuilt) == GOOFSPIEL.state_text(state)
    assert GOOFSPIEL.state_text(initial(rebuilt)) == GOOFSPIEL.start_tags(state)["Start"]


def test_a_goofspiel_record_without_its_deck_is_refused() -> None:
    with pytest.raises(ValueError, match="needs the order its prizes came up in"):
        GOOFSPIEL.from_tags({"Game": "goofspiel", "Cards": "5"})


@pytest.mark.parametrize("name", list(GAME_TYPES))
def test_every_game_names_an_adviser_that_exists(name: str) -> None:
    # core names it as text (it imports no solver); the name must still lead somewhere.
    from solvers.advice.registry import adviser

    assert callable(adviser(name))


@pytest.mark.parametrize("name", list(GAME_TYPES))
def test_every_game_names_a_reviewer_that_exists(name: str) -> None:
    import importlib

    reference = GAME_TYPES[name].reviewer
    assert reference is not None
    module, _, function = reference.partition(":")
    assert callable(getattr(importlib.import_module(module), function))
