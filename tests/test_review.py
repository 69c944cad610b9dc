"""The post-game review (issue 17): every move of a record judged for its mover, checked against theory.

Games are played here by the catalogue's players; what the review says is checked against the rules and the project's
solvers reached another way than the judges reach them (nim-sums from the heaps, Bouton's misere rule, the TCG and
Footstep solutions' own values, the Mini-Geister tables' values). Geister's search runs to a fixed depth.
"""

from __future__ import annotations

import itertools
import pickle
import random
from functools import reduce
from operator import xor
from typing import Any

import pytest

from core.errors import RecordError
from core.game import SIMULTANEOUS, Game, Side
from core.games import load_game
from core.geister import Colour, GeisterState
from core.impartial import HeapGameState
from core.record import Record
from solvers.catalogue import make_player
from solvers.players import Limit
from solvers.review import MoveReview, Review
from solvers.review.records import ReviewCancelled, entries_of, review_record


def play(game: str, names: tuple[str, str], seed: int, **params: Any) -> Game[Any, Any]:
    """A whole game between two catalogue players (each with its own generator), as the arena plays it."""
    state = load_game(game, **params)
    players = {side: make_player(name, game) for side, name in zip(Side, names, strict=True)}
    rngs = {side: random.Random(seed * 2 + side.number) for side in Side}
    limit = Limit(iterations=1)
    steps = 0
    while not state.is_terminal() and steps < 400:
        if state.current_player() == SIMULTANEOUS:
            state.apply_joint(tuple(players[s].choose(state.view(s), rngs[s], limit) for s in Side))
        else:
            side = Side(state.current_player())
            state.apply(players[side].choose(state.view(side), rngs[side], limit))
        steps += 1
    return state


def record_of(state: Game[Any, Any], names: tuple[str, str]) -> Record:
    """The record as a file holds it: written and read back."""
    return Record.parse(Record.from_state(state, {"Player1": names[0], "Player2": names[1]}).to_text())


def reviewed(game: str, names: tuple[str, str], seed: int, **params: Any) -> tuple[Record, Review]:
    record = record_of(play(game, names, seed, **params), names)
    return record, review_record(record)


def entries_by(review: Review, name: str) -> list[MoveReview]:
    """The entries of the player called ``name`` in the review."""
    return [m for m in review.moves if review.players[str(m.player)] == name]


# --------------------------------------------------------------------------------------------------- Nim


@pytest.mark.parametrize("heaps", [(3, 4, 5), (1, 2, 7, 9), (6, 6, 11)])
def test_nim_a_move_is_best_exactly_when_it_leaves_a_nim_sum_of_zero(heaps: tuple[int, ...]) -> None:
    checked = 0
    for seed in range(4):
        for names in (("perfect", "random"), ("random", "perfect"), ("random", "random")):
            record, review = reviewed("nim", names, seed, heaps=heaps)
            assert len(review.moves) == review.plies == len(record.moves)
            states = record.replay_states()
            for entry, before, after in zip(review.moves, states, states[1:], strict=False):
                assert isinstance(before, HeapGameState) and isinstance(after, HeapGameState)
                assert entry.position == before.heaps_text and entry.player == before.to_move.number
                nim_sum, left = reduce(xor, before.heaps, 0), reduce(xor, after.heaps, 0)
                assert entry.value_before == (1.0 if nim_sum else -1.0)
                if nim_sum:
                    # Theory: from a non-zero nim-sum, leaving zero wins and anything else loses.
                    assert (entry.verdict == "best") == (left == 0), entry
                    assert entry.value_after == (1.0 if left == 0 else -1.0)
                    assert entry.verdict in ("best", "blunder")
                    checked += 1
                else:
                    assert entry.verdict == "best" and entry.value_after == -1.0  # every move loses alike
            assert all(m.verdict == "best" for m in entries_by(review, "perfect"))
    assert checked > 10


def _misere_nim_wins(heaps: tuple[int, ...]) -> bool:
    """Bouton's misere rule, written here: with no heap above 1, the mover wins iff the 1s are even in number."""
    if all(h <= 1 for h in heaps):
        return sum(heaps) % 2 == 0
    return reduce(xor, heaps, 0) != 0


def test_misere_nim_is_judged_by_bouton_s_rule() -> None:
    blunders = 0
    for seed in range(6):
        for names in (("perfect", "random"), ("random", "perfect")):
            record, review = reviewed("nim", names, seed, heaps=(2, 3, 4), misere=True)
            states = record.replay_states()
            for entry, before, after in zip(review.moves, states, states[1:], strict=False):
                assert isinstance(before, HeapGameState) and isinstance(after, HeapGameState)
                wins = _misere_nim_wins(before.heaps)
                assert entry.value_before == (1.0 if wins else -1.0)
                # No stones left: the opponent, who cannot move, wins (the rule above says so too).
                mover_wins = not _misere_nim_wins(after.heaps)
                assert entry.value_after == (1.0 if mover_wins else -1.0), entry
                if wins:
                    assert (entry.verdict == "best") == mover_wins
                blunders += entry.verdict == "blunder"
            assert all(m.verdict == "best" for m in entries_by(review, "perfect"))
    assert blunders > 0  # the random player gives wins away


def test_kayles_perfect_play_is_never_faulted() -> None:
    for seed in range(3):
        _, review = reviewed("nim", ("perfect", "random"), seed, heaps=(3, 8), rule="kayles")
        assert review.engine == "Sprague-Grundy values"
        assert all(m.verdict == "best" for m in entries_by(review, "perfect"))


# --------------------------------------------------------------------------------------------------- TCG


def test_tcg_equilibrium_is_never_a_mistake_and_values_are_the_solvers() -> None:
    from solvers.tcg import ACTIONS, load_solution

    solution = load_solution(3)[0]
    faulted = 0
    for seed in range(12):
        for names in (("equilibrium", "random"), ("random", "equilibrium")):
            record, review = reviewed("tcg", names, seed, n=3)
            assert len(review.moves) == 2 * review.plies == entries_of(record)
            states = record.replay_states()
            for index, entry in enumerate(review.moves):
                before = states[index // 2]
                assert entry.ply == index // 2 + 1 and entry.player == index % 2 + 1
                i1, i2 = before.points
                assert entry.position == f"{i1},{i2}"
                # The solver's own value and stage game: the action against the opponent's equilibrium mix.
                advice = solution.advice(i1, i2)
                stage = solution.stages[i1 * 4 + i2]
                action = ACTIONS.index(next(a for a in ACTIONS if a.value == entry.move))
                if entry.player == 1:
                    chance, worth = advice.value, float(stage[action] @ advice.p2)
                else:
                    chance, worth = 1 - advice.value, float(1 - advice.p1 @ stage[:, action])
                assert entry.value_before == pytest.approx(2 * chance - 1, abs=1e-9)
                assert entry.value_after == pytest.approx(2 * worth - 1, abs=1e-9)
            assert not any(m.verdict in ("mistake", "blunder") for m in entries_by(review, "equilibrium"))
            faulted += sum(m.verdict in ("mistake", "blunder") for m in entries_by(review, "random"))
    assert faulted > 0  # the review can tell: random's actions are sometimes mistakes


# --------------------------------------------------------------------------------------------------- Footstep


def test_footstep_equilibrium_is_never_a_mistake() -> None:
    from core.footstep import FootstepState
    from solvers.footstep import load_solution

    solution, source = load_solution(8, 2)
    assert source in ("built", "memory", "cache")
    faulted = 0
    for seed in range(6):
        for names in (("equilibrium", "random"), ("random", "equilibrium")):
            record, review = reviewed("footstep", names, seed, n=8, k=2)
            assert len(review.moves) == 2 * review.plies
            states = record.replay_states()
            for index, entry in enumerate(review.moves):
                before = states[index // 2]
                assert isinstance(before, FootstepState)
                side = Side.from_number(str(entry.player))
                assert entry.value_before == pytest.approx(solution.value(before.position, side), abs=1e-9)
                assert entry.best and all(int(b) <= before.position.points(side) for b in entry.best)
            assert not any(m.verdict in ("mistake", "blunder") for m in entries_by(review, "equilibrium"))
            faulted += sum(m.verdict in ("mistake", "blunder") for m in entries_by(review, "random"))
    assert faulted > 0


# --------------------------------------------------------------------------------------------------- Mini-Geister


#: A short 2-vs-2 game (the issue's kind): player 1 runs its blue up the a-file; player 2 first gives up forcing its
#: coin flip for endless play (c3-d3), then lets player 1's blue through unopposed (d3-d2).
SHORT_GAME = ("BR", "RB", "b1-a1 c4-c3 a1-a2 c3-d3 a2-a3 d3-d2 a3-a4 d2-d1 a4-out")


def short_game() -> Record:
    setup1, setup2, moves = SHORT_GAME
    state = GeisterState.from_setups(load_game("mini-geister").variant, setup1, setup2)
    for move in moves.split():
        state.push_text(move)  # the rules engine checks each move
    return record_of(state, ("nash", "random"))


def test_a_short_mini_geister_game_is_valued_in_game_units_without_zigzag() -> None:
    """The issue's review swung between +1 and -1 every ply (each side's table said "+1: forces its event") and gave
    both sides 100%. Values are now each mover's expected result: 0 from the start (each side can force a coin
    flip), what a move leaves is what the next mover starts from (negated), and a move that lets the opponent force
    its event loses value."""
    record = short_game()
    review = review_record(record)
    assert review.scale == "expected" and review.span == 2.0
    moves = review.moves
    assert len(moves) == 9 and all(m.verdict is not None for m in moves)
    for entry in moves:
        assert entry.value_before is not None and entry.value_after is not None
        assert -1 <= entry.value_before <= 1 and -1 <= entry.value_after <= 1
    assert moves[0].value_before == 0  # the start: the equilibrium value
    # No zigzag: the value a move leaves its mover is the next mover's value negated (until the last ply, where
    # player 1 knows what player 2 did not: the piece on its exit is blue).
    for one, two in itertools.pairwise(moves[:-1]):
        assert one.value_after == -(two.value_before or 0.0), (one, two)
    for_player_one = [m.value_before if m.player == 1 else -(m.value_before or 0.0) for m in moves]
    assert for_player_one == sorted(for_player_one)  # it only rises, as player 2 gives its chances away
    assert moves[-1].move == "a4-out" and moves[-1].value_after == 1  # a proven win is +1, and only it
    assert all(m.value_before != 1 for m in moves[:-1])
    by_move = {m.move: m for m in moves}
    # Player 2's d3-d2 gives up its guarantee: its opponent can now force an escape attempt it cannot stop.
    assert by_move["d3-d2"].verdict in ("mistake", "blunder") and Review.loss(review, by_move["d3-d2"]) >= 0.2
    # c3-d3 gives up player 2's forcing for endless play: the same value, but not one of the best moves.
    assert by_move["c3-d3"].verdict == "best" and "c3-d3" not in by_move["c3-d3"].best
    summary = review.summary()
    assert summary["1"]["accuracy"] == 100.0 and summary["2"]["accuracy"] < 100.0


def test_mini_geister_values_are_the_advices() -> None:
    """Every entry's values are the advice's on the mover's view: the review and the panel say the same."""
    from solvers.advice.mini_geister import advise

    for seed in range(2):
        for names in (("nash", "random"), ("random", "nash")):
            record, review = reviewed("mini-geister", names, seed)
            states = record.replay_states()
            assert len(review.moves) == review.plies == len(record.moves) > 0
            for entry, before in zip(review.moves, states, strict=False):
                assert isinstance(before, GeisterState)
                mover = before.to_move
                assert entry.verdict is not None, entry  # the 2-vs-2 game never leaves the tables
                assert entry.position == before.view(mover).position()
                assert "perfect_before" in entry.extra  # a finished game's record shows every colour
                advice = advise(entry.position, "mini-geister", mover)
                assert entry.value_before == advice.value
                assert entry.value_after == next(m.value for m in advice.moves if m.move == entry.move)


@pytest.mark.usefixtures("use_shared_solved_tables")
def test_three_vs_two_after_a_capture_is_searched() -> None:
    """A 3-vs-2 game past its first capture leaves the section-6 tables: judged by the search, as the advice is
    there (and said so), and not judged when the record hides the mover's colours."""
    for seed in range(40):
        record = record_of(play("mini-geister-3v2-rbb", ("random", "random"), seed), ("random", "random"))
        states = record.replay_states()
        # The ply that made the first capture: the entries after it judge positions past a capture.
        captured_at = next((ply for ply, s in enumerate(states) if s.captured), None)
        if captured_at is not None and captured_at + 2 < len(record.moves):
            break
    else:  # pragma: no cover - random games capture early
        pytest.fail("no game with a capture before its end")
    cut = Record.parse(record.to_text())  # a few plies past the capture are enough (and quick)
    cut.tags["Result"] = "*"
    cut.moves = cut.moves[: captured_at + 6]
    review = review_record(cut)
    later = [m for m in review.moves if m.ply > captured_at]
    assert later and all(m.note for m in later)
    judged = [m for m in later if m.verdict is not None]
    assert judged and all("searched" in m.note for m in judged)
    assert "search to depth" in review.engine
    assert review_record(cut).to_json() == review.to_json()  # a fixed depth and seed: the same review
    # The same game with player 2's colours hidden (as a record from one player's seat has them).
    hidden = Record.parse(cut.to_text())
    hidden.tags["Setup2"] = "?"
    again = review_record(hidden)
    after = [m for m in again.moves if m.ply > captured_at]
    assert all(m.verdict is None and "hides" in m.note for m in after if m.player == 2)
    for mine, seen in zip([m for m in after if m.player == 1], [m for m in later if m.player == 1], strict=True):
        assert (mine.value_before, mine.value_after, mine.verdict) == (
            seen.value_before,
            seen.value_after,
            seen.verdict,
        )
        assert "perfect_before" not in mine.extra  # the colours it hides are not used


# --------------------------------------------------------------------------------------------------- Geister


def _geister_record(seed: int) -> Record:
    return record_of(play("geister", ("random", "chototsu"), seed), ("random", "chototsu"))


def test_geister_gives_one_entry_per_ply_from_the_movers_view() -> None:
    record = _geister_record(1)
    review = review_record(record, depth=1)
    states = record.replay_states()
    assert [m.ply for m in review.moves] == list(range(1, len(record.moves) + 1)) == list(range(1, review.plies + 1))
    assert review.scale == "chance" and review.span == 1.0 and "depth 1" in review.engine
    for entry, before in zip(review.moves, states, strict=False):
        assert isinstance(before, GeisterState)
        mover = before.to_move
        assert entry.player == mover.number
        assert entry.position == before.view(mover).position()
        theirs = "rb" if mover is Side.P1 else "RB"
        board = entry.position.split()[0]
        assert not any(letter in board for letter in theirs)  # the opponent's colours never show
        if entry.verdict is not None:
            assert entry.value_after is not None and 0.0 <= entry.value_after <= 1.0
            assert entry.move in entry.best or entry.verdict != "best" or Review.loss(review, entry) < 0.02


def _swappable(state: GeisterState) -> tuple[int, int] | None:
    """Two of player 2's set-up slots of different colours whose pieces were never captured nor escaped."""
    setup = state.setup(Side.P2)
    assert setup is not None
    gone = {piece.slot for piece in state.captured if piece.side is Side.P2}
    if state.escaped is not None and state.escaped.side is Side.P2:
        gone.add(state.escaped.slot)
    free = [slot for slot in range(len(setup.colours)) if slot not in gone]
    blue = [s for s in free if setup.colours[s] is Colour.BLUE]
    red = [s for s in free if setup.colours[s] is Colour.RED]
    return (blue[0], red[0]) if blue and red else None


def test_geister_judges_a_move_on_what_its_player_could_know() -> None:
    """Two records that differ only in colours player 1 never saw give player 1 the same entries."""
    for seed in range(30):
        state = play("geister", ("random", "chototsu"), seed)
        assert isinstance(state, GeisterState)
        pair = _swappable(state)
        if pair is not None and len(state.moves()) >= 6:
            break
    else:  # pragma: no cover - most games leave pieces of both colours untouched
        pytest.fail("no game with two untouched pieces of player 2 of different colours")
    record = record_of(state, ("random", "chototsu"))
    colours = list(record.tags["Setup2"])
    first, second = pair
    colours[first], colours[second] = colours[second], colours[first]
    other = Record.parse(record.to_text())
    other.tags["Setup2"] = "".join(colours)
    assert other.tags["Setup2"] != record.tags["Setup2"]
    assert other.replay_states()[-1].outcome() == record.replay_states()[-1].outcome()
    one, two = review_record(record, depth=2), review_record(other, depth=2)
    mine = [m.to_json() for m in one.moves if m.player == 1]
    assert mine == [m.to_json() for m in two.moves if m.player == 1]
    assert len(mine) >= 3


def test_a_geister_review_is_the_same_twice_by_default() -> None:
    """The issue's review gave two verdicts for one record: it searched for a time a move. By default it searches
    to a fixed depth, with a fixed seed."""
    from solvers.review import DEFAULT_DEPTH

    record = _geister_record(1)
    one, two = review_record(record), review_record(record)
    assert one.to_json() == two.to_json()
    assert one.extra["limit"] == {"time": None, "depth": DEFAULT_DEPTH} and f"depth {DEFAULT_DEPTH}" in one.engine


def test_geister_hidden_own_colours_are_not_judged() -> None:
    record = _geister_record(2)
    record.tags["Setup1"] = "?"
    record.tags["Result"] = "*"
    record.moves = record.moves[:4]
    review = review_record(record, depth=1)
    assert [m.verdict for m in review.moves if m.player == 1] == [None, None]
    assert all("hides" in m.note for m in review.moves if m.player == 1)
    assert all(m.verdict is not None for m in review.moves if m.player == 2)


# --------------------------------------------------------------------------------------------------- the API


def test_progress_and_cancel() -> None:
    record = record_of(play("nim", ("random", "random"), 5, heaps=(4, 5, 6)), ("random", "random"))
    seen: list[tuple[int, int]] = []
    review = review_record(record, progress=lambda done, total: seen.append((done, total)))
    total = len(record.moves)
    assert seen == [(done, total) for done in range(total + 1)]
    assert len(review.moves) == total
    calls = 0

    def stop_after_two() -> bool:
        nonlocal calls
        calls += 1
        return calls > 2

    with pytest.raises(ReviewCancelled):
        review_record(record, should_stop=stop_after_two)


def test_review_pickles_for_another_process() -> None:
    record = record_of(play("tcg", ("equilibrium", "random"), 1, n=3), ("equilibrium", "random"))
    review = review_record(record)
    assert pickle.loads(pickle.dumps(review)) == review
    assert pickle.loads(pickle.dumps(review_record)) is review_record
    data = review.to_json()
    assert list(data)[:5] == ["game", "players", "plies", "engine", "scale"]
    assert data["players"] == {"1": "equilibrium", "2": "random"}


def test_a_record_of_no_known_game_is_refused() -> None:
    record = Record.parse('[Game "chess"]\n\n1. e4 *\n')
    with pytest.raises(RecordError, match="chess"):
        review_record(record)
