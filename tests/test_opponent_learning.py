"""Learning an opponent across games: the profile a finished game teaches, what ``connect`` keeps of it on disk,
and the arena's pairings, whose learning does not depend on how many processes play them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from core.game import Side
from core.geister import VARIANTS, GeisterState
from core.record import Record
from solvers.arena import LEARNING_BATCH, run_match
from solvers.catalogue import make_player
from solvers.geister.choice_belief import OpponentProfile, load_mixture
from solvers.players import Limit
from tui.opponents import KEPT_GAMES, OpponentMemory


def finished_game(opponent: str, seed: int, opponent_side: Side = Side.P2) -> Record:
    """A whole game of ``opponent`` (at ``opponent_side``) against ``random``, as its record (both set-ups)."""
    state = GeisterState(VARIANTS["geister"], Side.P1)
    names = {opponent_side: opponent, opponent_side.other: "random"}
    players = {side: make_player(name, "geister") for side, name in names.items()}
    rngs = {side: random.Random(seed * 2 + side) for side in Side}
    while not state.is_terminal():
        side = Side(state.current_player())
        state.apply(players[side].choose(state.view(side), rngs[side], Limit(iterations=1)))
    return Record.from_state(state)


def weights(mixture: object) -> dict[str, float]:
    return {style.name: weight for style, weight in zip(mixture.styles, mixture.prior, strict=True)}  # type: ignore[attr-defined]


def test_finished_games_teach_the_profile_which_style_the_opponent_plays() -> None:
    """Chototsu charges its pieces at the exits whatever their colour: after a few of its games, the profile's prior
    gives the learned ``chototsu`` style the most weight, far more than the shipped prior does."""
    mixture = load_mixture()
    profile = OpponentProfile("them")
    for seed in range(3):
        profile.learn_record(finished_game("chototsu", seed), Side.P2, mixture)
    assert profile.games == 3
    before, after = weights(mixture), weights(profile.prior(mixture))
    assert max(after, key=after.__getitem__) == "chototsu"
    assert after["chototsu"] > 0.9 > before["chototsu"] * 5
    assert min(after.values()) > 0  # a style explaining the games worst keeps a sliver: the opponent may change


def test_an_unfinished_game_teaches_nothing() -> None:
    mixture = load_mixture()
    state = GeisterState(VARIANTS["geister"], Side.P1)
    rng = random.Random(1)
    player = make_player("random", "geister")
    for _ in range(12):
        side = Side(state.current_player())
        state.apply(player.choose(state.view(side), rng, None))
    profile = OpponentProfile("them")
    profile.learn_record(Record.from_state(state), Side.P2, mixture)
    assert profile.games == 0 and profile.prior(mixture) == mixture


def test_the_memory_of_an_opponent_round_trips_and_keeps_the_latest_games(tmp_path: Path) -> None:
    memory = OpponentMemory.load("their AI", tmp_path)
    assert memory.games == [] and memory.problem is None
    records = [finished_game("random", seed, Side.P1 if seed % 2 else Side.P2) for seed in range(KEPT_GAMES + 2)]
    for seed, record in enumerate(records):
        assert memory.remember(record, Side.P1 if seed % 2 else Side.P2) is None
    again = OpponentMemory.load("their AI", tmp_path)
    kept = again.records()
    assert len(kept) == KEPT_GAMES
    assert [record.to_text() for record, _ in kept] == [r.to_text() for r in records[-KEPT_GAMES:]]
    assert [side for _, side in kept] == [Side.P1 if s % 2 else Side.P2 for s in range(2, KEPT_GAMES + 2)]


def test_a_hostile_name_stays_in_the_opponents_folder(tmp_path: Path) -> None:
    folder = tmp_path / "opponents"
    memory = OpponentMemory.load("../../etc/passwd", folder)
    assert memory.path.parent == folder and ".." not in memory.path.name


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "damaged"),
        ('{"games": [{"record": "x", "opponent": 7}]}', "damaged"),
        ('{"games": 3}', "damaged"),
        ("[" * 100_000, "damaged"),
    ],
)
def test_a_damaged_profile_is_said_in_one_line_and_replaced(tmp_path: Path, content: str, words: str) -> None:
    (tmp_path / "them.json").write_text(content, encoding="utf-8")
    memory = OpponentMemory.load("them", tmp_path)
    assert memory.games == [] and memory.problem is not None and words in memory.problem
    assert "\n" not in memory.problem
    assert memory.remember(finished_game("random", 1), Side.P2) is None
    assert len(json.loads((tmp_path / "them.json").read_text(encoding="utf-8"))["games"]) == 1


def test_an_arena_pairing_learns_the_same_whatever_the_workers() -> None:
    """``sage`` reads ``chototsu`` with the pairing's earlier games: played in batches, each knowing the batches
    before it, so one process and two play the very same games."""
    games = LEARNING_BATCH + 4
    one = run_match("geister", ("sage", "chototsu"), games, Limit(iterations=1), workers=1, seed=3)
    two = run_match("geister", ("sage", "chototsu"), games, Limit(iterations=1), workers=2, seed=3)
    assert [r.record for r in one.results] == [r.record for r in two.results]
    assert all(r.record for r in one.results)
