"""The local session every game but the Geister family's plays through (``tui.local_session``), without a screen:
what its record shows and hides, its generators, the opponent's view, takebacks, and keeping the game on disk."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from core.footstep import FootstepState
from core.game import Side
from core.goofspiel import GoofspielState
from core.record import Record
from tui.local_session import LocalSession, resumed_seed
from tui.saves import GameKeeper, SaveStore


def test_a_goofspiel_record_shows_the_deck_and_seed_only_once_the_game_is_over() -> None:
    state = GoofspielState(3, deck=(2, 3, 1))
    session = LocalSession(state, Side.P1, "equilibrium", 17)
    state.apply_joint((3, 1))
    record = session.record()
    # Only the prizes turned up so far (the 2 played for, the 3 up now); no seed; the rest is in the secret.
    assert record.tags["Deck"] == "23" and "Seed" not in record.tags
    assert session.secret() == {"Seed": "17", "Deck": "231"}
    state.apply_joint((1, 3))
    state.apply_joint((2, 2))
    assert session.over
    finished = session.record()
    assert finished.tags["Deck"] == "231" and finished.tags["Seed"] == "17"
    assert Record.parse(finished.to_text()).replay_states()[-1].points == state.points  # type: ignore[attr-defined]


def test_a_game_without_hidden_tags_keeps_only_its_seed_apart() -> None:
    session = LocalSession(FootstepState(6, 2), Side.P2, "random", 5, tags={"Note": "x"})
    record = session.record()
    assert "Seed" not in record.tags and record.tags["Note"] == "x" and record.tags["Human"] == "2"
    assert record.tags["Player1"] == "random" and record.tags["Player2"] == "human"
    assert session.secret() == {"Seed": "5"}


def test_generators_come_from_the_seed_and_a_resumed_game_gets_fresh_ones() -> None:
    fresh = LocalSession(FootstepState(6, 2), Side.P1, "random", 9)
    again = LocalSession(FootstepState(6, 2), Side.P1, "random", 9)
    assert fresh.rng.random() == again.rng.random() and fresh.opponent_rng.random() == again.opponent_rng.random()
    # The user's generator and the opponent's are different streams.
    other = LocalSession(FootstepState(6, 2), Side.P1, "random", 9)
    assert [other.rng.random() for _ in range(3)] != [other.opponent_rng.random() for _ in range(3)]
    played = FootstepState(6, 2)
    played.apply_joint((1, 1))
    resumed = LocalSession(played, Side.P1, "random", 9, resumed=True)
    assert resumed.rng.random() == random.Random(resumed_seed(9, 1)).random()
    assert resumed.opponent_rng.random() == random.Random(resumed_seed(9, 1) + 1).random()


class Spy:
    """A player that keeps what it was shown."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def choose(self, view: Any, rng: random.Random, limit: object = None) -> int:
        self.seen.append((view, rng))
        return 1


def test_the_opponent_chooses_from_its_own_view_and_generator() -> None:
    session = LocalSession(GoofspielState(4, seed=3), Side.P1, "spy", 1)
    spy = Spy()
    assert session.opponent_choice(spy) == 1
    [(view, rng)] = spy.seen
    assert view.viewer is Side.P2 and not hasattr(view, "deck") and rng is session.opponent_rng


def test_undo_says_whether_there_was_a_round_to_take_back() -> None:
    session = LocalSession(FootstepState(6, 2), Side.P1, "random", 1)
    assert not session.undo()
    session.state.apply_joint((2, 1))
    assert session.undo() and session.state.history() == []


def test_the_game_is_kept_as_it_goes_and_a_new_game_leaves_it_for_resume(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    session = LocalSession(FootstepState(6, 2), Side.P1, "random", 1)
    session.keeper = GameKeeper(store, None)
    session.state.apply_joint((2, 1))
    assert session.keep() is None
    [first] = sorted((tmp_path / "games").glob("*.ngr"))
    session.new_game(FootstepState(6, 2))
    session.state.apply_joint((1, 1))
    assert session.keep() is None
    slots = sorted((tmp_path / "games").glob("*.ngr"))
    assert len(slots) == 2 and first in slots  # the first game stays, offered for resume
    session.release()
