"""Goofspiel through the game descriptor: ``analyse``, ``solve``, ``arena``, ``review`` and records, checked by
derivation (the solver's figures are recomputed here by hand or by symmetry, never read from a fixture)."""

from __future__ import annotations

import json
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_helpers import refused
from goofspiel_reference import reference_matrix, reference_value

from core.games import load_game
from core.goofspiel import GoofspielState
from core.record import Record
from tui.cli import main


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main([*argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.count("\n") == 1
    data: dict[str, Any] = json.loads(out)
    return data


def test_analyse_with_one_round_left_knows_the_bids_are_forced(capsys: pytest.CaptureFixture[str]) -> None:
    # One card each: 4 against 2 for the 5 turned up, player 1 behind by 3: it takes the 5 and wins by 2.
    advice = run_json(["analyse", "goofspiel", "--cards", "5", "--position", "4/2/-/5/-3"], capsys)
    assert advice["value"] == 1.0 and advice["result"] == "win" and advice["in"] == 1
    assert advice["moves"] == [{"move": "4", "value": 1.0, "probability": 1.0}]
    loser = run_json(["analyse", "goofspiel", "--cards", "5", "--position", "4/2/-/5/-3", "--for", "2"], capsys)
    assert loser["value"] == -1.0 and loser["result"] == "loss"


def test_analyse_by_hand_two_cards_match_the_prize(capsys: pytest.CaptureFixture[str]) -> None:
    # N = 2, the 2 turned up: bidding 2 takes it or ties, so 2 is every player's only sensible bid (a tie, then the
    # 1s tie too: a draw). Bidding 1 against 2 gives up the 2 and gets the 1: a loss. Value 0.
    advice = run_json(["analyse", "goofspiel", "--cards", "2", "--position", "12/12/1/2/+0"], capsys)
    assert advice["value"] == pytest.approx(0.0, abs=1e-9)
    mix = {line["move"]: line["probability"] for line in advice["moves"]}
    assert mix == pytest.approx({"2": 1.0, "1": 0.0})
    assert advice["mixes"]["2"] == pytest.approx({"1": 0.0, "2": 1.0})


def test_analyse_the_issues_example_is_the_negative_of_its_mirror(capsys: pytest.CaptureFixture[str]) -> None:
    # Swapping the hands and the lead's sign swaps the players: the value for player 1 there is player 2's here.
    one = run_json(["analyse", "goofspiel", "--cards", "5", "--position", "235/145/24/3/+1"], capsys)
    mirror = run_json(["analyse", "goofspiel", "--cards", "5", "--position", "145/235/24/3/-1", "--for", "2"], capsys)
    assert one["value"] == pytest.approx(mirror["value"], abs=1e-9)
    assert sum(line["probability"] for line in one["moves"]) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--cards", "9"], "--cards must be 1..8"),
        (["--position", "23/145/24/3/+1"], "--position"),
        (["--position", "235/145/24/3/+1", "--n", "3"], "unrecognized arguments"),
    ],
)
def test_analyse_refuses_in_one_line(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["analyse", "goofspiel"] + ([] if "--position" in argv else ["--position", "4/2/-/5/-3"])
    assert words in refused([*base, *argv], capsys)


@pytest.mark.parametrize("cards", [1, 2, 3, 4])
def test_solve_gives_value_zero_by_symmetry(cards: int, capsys: pytest.CaptureFixture[str]) -> None:
    solved = run_json(["solve", "goofspiel", "--cards", str(cards)], capsys)
    assert solved["value"] == pytest.approx(0.0, abs=1e-9)
    for first in solved["first_round"].values():
        assert first["value"] == pytest.approx(0.0, abs=1e-9)  # each first prize: the same hands, no lead
        assert sum(first["mix1"].values()) == pytest.approx(1.0)


def test_an_arena_match_is_the_same_from_the_same_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for folder in ("a", "b"):
        argv = ["arena", "goofspiel", "--players", "equilibrium,random", "--games", "4", "--cards", "4"]
        assert main([*argv, "--seed", "7", "--workers", "1", "--save", str(tmp_path / folder), "--json"]) == 0
    capsys.readouterr()
    texts = [sorted(p.read_text() for p in (tmp_path / folder).glob("*.ngr")) for folder in ("a", "b")]
    assert texts[0] == texts[1] and len(texts[0]) == 4
    decks = {Record.parse(text).tags["Deck"] for text in texts[0]}
    assert len(decks) > 1  # each game dealt from its own seed


def test_a_record_keeps_the_deck_and_reviews_every_bid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = load_game("goofspiel", cards=3, seed=11)
    assert isinstance(state, GoofspielState)
    for bids in ((3, 1), (1, 2), (2, 3)):
        state.apply_joint(bids)
    path = tmp_path / "game.ngr"
    Record.from_state(state, {"Player1": "a", "Player2": "b"}).save(path)
    review = run_json(["review", str(path)], capsys)
    assert len(review["moves"]) == 6 and {m["player"] for m in review["moves"]} == {1, 2}
    # Every value lies between a loss and a win, and no bid is worth more than the position promised.
    for move in review["moves"]:
        assert -1 - 1e-9 <= move["value_after"] <= move["value_before"] + 1e-9 <= 1 + 2e-9


def test_every_deal_of_three_cards_replays_from_its_record() -> None:
    for deck in product(range(1, 4), repeat=3):
        if len(set(deck)) < 3:
            continue
        state = GoofspielState(3, deck=deck)
        for bids in ((1, 1), (2, 3), (3, 2)):
            state.apply_joint(bids)
        replayed = Record.parse(Record.from_state(state).to_text()).replay_states()[-1]
        assert replayed.outcome() == state.outcome()


def test_a_record_of_more_cards_than_the_solver_takes_is_refused_before_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nine.ngr"
    path.write_text(
        '[Game "goofspiel"]\n[Cards "9"]\n[Start "123456789/123456789/12345678/9/+0"]\n[Deck "912345678"]\n\n*\n'
    )
    assert "the review solves cards from 1 to 8" in refused(["review", str(path)], capsys)


def test_a_game_that_starts_finished_keeps_an_empty_deck_in_its_record() -> None:
    state = GoofspielState.from_text("-/-/-/-/+2", 3)
    record = Record.parse(Record.from_state(state).to_text())
    assert record.tags["Deck"] == "" and record.replay_states()[-1].outcome() == state.outcome()


def test_the_arena_names_the_option_a_playable_check_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    error = refused(["arena", "nim", "--players", "random,perfect", "--heaps", "50", "--games", "1"], capsys)
    assert "nim: --heaps: a heap may hold at most 40 stones" in error


def test_a_long_solve_says_how_far_it_has_come_until_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from waiting import HANG_SECONDS

    from solvers import goofspiel
    from solvers.advice.registry import Request, advise

    released = threading.Event()
    real = goofspiel.solve_position

    def slow(position: Any, cards: int = 5, progress: Any = None) -> Any:
        progress(1, 2)
        released.wait(HANG_SECONDS)  # until the test has seen the solve going on
        return real(position)

    monkeypatch.setattr(goofspiel, "solve_position", slow)
    advices = advise(Request("goofspiel", "235/145/24/3/+1"))
    first = next(advices)
    assert not first.final and first.details[0].startswith("solving:") and not first.moves
    released.set()
    last = list(advices)[-1]
    assert last.final and last.best and last.value == pytest.approx(real("235/145/24/3/+1").value)


@pytest.mark.parametrize("seed", [None, 4])
def test_a_solved_line_is_equilibrium_play_checked_round_by_round(
    seed: int | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay --solved goofspiel``: each round's value is the plain LP's (``goofspiel_reference``), each mix
    reaches it against every answer, the round played is the likeliest (or a drawn) one, and the line replays to
    its stated ending from its own record."""
    argv = ["replay", "--solved", "goofspiel", "--cards", "4", "--list", *(["--seed", str(seed)] if seed else [])]
    [line] = run_json(argv, capsys)["lines"]
    assert line["game"] == "goofspiel" and line["parameters"] == {"cards": 4, "seed": seed}
    state = GoofspielState(4, seed=seed or 0)
    for step in line["moves"]:
        position = state.position
        assert step["state"] == position.text
        assert position.up is not None
        value = reference_value(position.hand1, position.hand2, position.prizes, position.up, position.diff)
        assert step["value"] == pytest.approx(value, abs=1e-9)
        matrix = reference_matrix(position.hand1, position.hand2, position.prizes, position.up, position.diff)
        mix1 = [step["p1"][str(card)] for card in sorted(position.hand1)]
        mix2 = [step["p2"][str(card)] for card in sorted(position.hand2)]
        assert min(np.array(mix1) @ matrix) == pytest.approx(value, abs=1e-7)  # player 1 secures the value
        assert max(matrix @ np.array(mix2)) == pytest.approx(value, abs=1e-7)  # player 2 holds it there
        bid1, bid2 = (int(card) for card in step["move"].split(":"))
        if seed is None:
            assert mix1[sorted(position.hand1).index(bid1)] == pytest.approx(max(mix1))
            assert mix2[sorted(position.hand2).index(bid2)] == pytest.approx(max(mix2))
        else:
            assert mix1[sorted(position.hand1).index(bid1)] > 0 and mix2[sorted(position.hand2).index(bid2)] > 0
        state.apply_joint((bid1, bid2))
    assert state.is_terminal() and line["ending"] == str(state.outcome())
