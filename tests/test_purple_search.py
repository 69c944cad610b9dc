"""The purple-piece search and the players built on it: the model's rules, the forced moves (take a win, stop an
escape, never take what may be the last red on a guess), the belief, and determinism. No test depends on speed:
depths are fixed (``Limit(iterations=...)``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from twin_games import random_midgame

from core.game import Side
from core.geister import VARIANTS, GeisterState, GeisterView
from core.notation import Move
from solvers.geister.bayes import BayesPlayer
from solvers.geister.belief import belief
from solvers.geister.colour_evidence import careless_captures, exposed_reds, proven_reds
from solvers.geister.purple import PurplePlayer, risky_captures
from solvers.geister_engine import convert
from solvers.geister_engine import search as sr
from solvers.geister_engine.layout import MAX_MOVES
from solvers.geister_engine.tables import tables
from solvers.players import Limit

GEISTER = VARIANTS["geister"]
DEPTH = Limit(iterations=4)
PLAYERS = [PurplePlayer, BayesPlayer]


def best(player_class: type[PurplePlayer], position: str, depth: Limit = DEPTH) -> Move:
    state = GeisterState.from_position(position, "geister")
    move = player_class().choose(state.view(state.to_move), random.Random(1), depth)
    assert isinstance(move, Move)
    return move


@pytest.mark.parametrize("player_class", PLAYERS)
def test_an_escape_now_is_taken(player_class: type[PurplePlayer]) -> None:
    # Player 1's blue on a6 (its exit); other moves also win later, but the escape wins now.
    assert best(player_class, "B5/6/2u3/6/1u2u1/1R2RB 1 - 10") == Move.parse("a6-out")


@pytest.mark.parametrize("player_class", PLAYERS)
def test_a_piece_on_its_exit_is_captured(player_class: type[PurplePlayer]) -> None:
    # Player 2's unknown piece stands on a1, its exit, and player 1 to move can take it from a2: if it is blue it
    # escapes next, so the capture is forced (it may be red; two reds are left, so that costs nothing at once).
    position = "6/1uuu2/6/6/R5/u1BB2 1 rr 20"
    assert best(player_class, position) == Move.parse("a2-a1")


@pytest.mark.parametrize("player_class", PLAYERS)
def test_no_capture_of_what_may_be_the_last_red_while_another_move_exists(player_class: type[PurplePlayer]) -> None:
    # Player 2 has one red left among five unknown pieces; c3 is in reach of our b3 and c2, far from its exits.
    # No evidence says it is blue: taking it may be the last red, which loses at once.
    position = "3uu1/1u2u1/6/1Bu3/2B3/R5 1 BBRRRrrr 30"
    move = best(player_class, position)
    assert move.dst != Move.parse("b3-c3").dst


@pytest.mark.parametrize("player_class", PLAYERS)
def test_a_likely_blue_that_may_be_the_last_red_is_still_not_taken(player_class: type[PurplePlayer]) -> None:
    # Player 2 has one red left among three pieces, so the piece on c3 is blue two times in three; taking it loses
    # at once if it is the red. The rule holds whatever the belief says: another move exists, so no capture.
    position = "4u1/5u/6/2u3/2B3/R1B3 1 BBRRRbbrrr 40"
    view_state = GeisterState.from_position(position, "geister")
    view = view_state.view(view_state.to_move)
    assert Move.parse("c2-c3") in risky_captures(view, frozenset())
    assert best(player_class, position) != Move.parse("c2-c3")


def test_the_last_red_capture_is_taken_when_every_other_move_may_lose() -> None:
    # Player 2's unknown piece on a1 stands on its exit: if it is blue (two chances in three) it escapes next ply.
    # Taking it loses if it is the last red (one in three); every other move loses if it is blue. bayes takes it.
    # (purple, fearing the worst of both, sees two losses and puts off the nearer one: the contest programs' way.)
    position = "4u1/5u/6/6/R5/u1B2B 1 BBRRRbbrrr 40"
    assert best(BayesPlayer, position) == Move.parse("a2-a1")


@pytest.mark.parametrize("player_class", PLAYERS)
def test_the_same_seed_gives_the_same_moves(player_class: type[PurplePlayer]) -> None:
    state = GeisterState.from_setups(GEISTER, "BRRBBRRB", "RBBRRBBR")
    rng = random.Random(7)
    for _ in range(12):
        view = state.view(state.to_move)
        a = player_class().choose(view, random.Random(rng.random()), Limit(iterations=3))
        assert isinstance(a, Move)
        state.push(a)
    replay = GeisterState.from_setups(GEISTER, "BRRBBRRB", "RBBRRBBR")
    rng = random.Random(7)
    for move in state.moves():
        b = player_class().choose(replay.view(replay.to_move), random.Random(rng.random()), Limit(iterations=3))
        assert b == move
        replay.push(move)


def root_values(
    state: GeisterState, depth: int, flags: int, prob: np.ndarray | None = None, careful: bool = False
) -> dict[int, int]:
    """Every root move's value at ``depth`` (the whole window: exact values), with ``flags`` switching features off;
    with ``prob`` (chances of blue by square, thousandths), the chance-node search; ``careful``: the opponent spares
    what may be our last red (``search.C_CAREFUL``)."""
    view = state.view(state.to_move)
    t = tables(GEISTER)
    s = convert.from_view(view, purple_escapes=True)
    from solvers.geister.purple import _context

    c = _context(view, {}, chance=prob is not None, careful=careful)
    c[sr.C_MAX_NODES] = 1 << 62
    c[sr.C_MARGIN] = 1 << 40
    c[sr.C_FLAGS] = flags
    arrays = sr.new_context(tt_bits=16)
    moves = np.full(MAX_MOVES + 1, -1, dtype=np.int64)
    from solvers.geister_engine import kernel

    n = kernel.gen_moves(s, t, moves)
    moves[n:] = -1
    values = np.zeros(MAX_MOVES + 1, dtype=np.int64)
    done = sr.search_root(
        s,
        t,
        c,
        sr.DEFAULT_WEIGHTS,
        np.full(64, 1000, dtype=np.int64) if prob is None else prob.copy(),
        depth,
        arrays["tt_keys"],
        arrays["tt_data"],
        arrays["killers"],
        arrays["history"],
        arrays["move_stack"],
        arrays["score_stack"],
        moves,
        values,
    )
    assert done == n
    return {int(moves[i]): int(values[i]) for i in range(n)}


@pytest.mark.parametrize(("seed", "plies"), [(1, 12), (2, 30), (3, 50), (4, 70)])
def test_pruning_and_ordering_do_not_change_the_values(seed: int, plies: int) -> None:
    """Alpha-beta with ordering and extensions against plain minimax (no pruning, no ordering, no table), at
    depth 3, in positions from random games: every root move's value must be the same."""
    state = random_midgame(seed, plies)
    if state.is_terminal():
        pytest.skip("the random game ended early")
    plain = root_values(state, 3, sr.NO_TABLE | sr.NO_ORDERING | sr.NO_PRUNING)
    assert root_values(state, 3, sr.NO_TABLE) == plain
    assert root_values(state, 3, sr.NO_TABLE | sr.NO_ORDERING) == plain


@pytest.mark.parametrize(("seed", "plies"), [(5, 16), (6, 36), (7, 56), (8, 76)])
def test_the_chance_windows_do_not_change_the_values(seed: int, plies: int) -> None:
    """The chance-node search (captures and escapes weighed by beliefs) prunes each chance node's outcomes in the
    windows the other outcome leaves: against the same search without pruning, every root move's value at depth
    3 must be the same."""
    state = random_midgame(seed, plies)
    if state.is_terminal():
        pytest.skip("the random game ended early")
    rng = np.random.default_rng(seed)
    prob = rng.integers(50, 950, size=64).astype(np.int64)
    plain = root_values(state, 3, sr.NO_TABLE | sr.NO_ORDERING | sr.NO_PRUNING, prob)
    assert root_values(state, 3, sr.NO_TABLE, prob) == plain
    assert root_values(state, 3, 0, prob)[max(plain, key=lambda move: plain[move])] == max(plain.values())


def test_proven_reds_are_the_pieces_that_did_not_escape() -> None:
    # Player 2's piece walks a5-a4-a3-a2-a1 (its exit) and then, at its turn on a1, moves back up: it is red.
    state = GeisterState.from_setups(GEISTER, "BRRBBRRB", "RBBRRBBR")
    moves = ["b2-b3", "b5-a5", "b3-b4", "a5-a4", "e2-e3", "a4-a3", "e3-e4", "a3-a2", "b4-c4", "a2-a1"]
    for text in moves:
        state.push_text(text)
    view = state.view(Side.P1)
    assert proven_reds(view) == set()  # on its exit, but it has not had its turn there yet
    state.push_text("c4-c3")
    state.push_text("a1-a2")
    view = state.view(Side.P1)
    slot = next(p.slot for sq, p in view.pieces(Side.P2) if sq.name == "a2")
    assert proven_reds(view) == {slot}
    beliefs = belief(view)
    assert beliefs.blue[slot] < 0.05 and slot in beliefs.proven_red
    # The belief keeps the counts: the blue chances of player 2's pieces add up to its blues left.
    assert sum(beliefs.blue.values()) == pytest.approx(4.0)


def test_the_belief_moves_with_the_evidence() -> None:
    """A piece that walks into contact looks red, one that keeps away from it looks blue, next to the others."""
    state = GeisterState.from_setups(GEISTER, "BRRBBRRB", "RBBRRBBR")
    for text in ["c2-c3", "c5-c4"]:  # player 2's c5 steps next to player 1's c3
        state.push_text(text)
    view = state.view(Side.P1)
    beliefs = belief(view)
    approached = next(p.slot for sq, p in view.pieces(Side.P2) if sq.name == "c4")
    others = [b for slot, b in beliefs.blue.items() if slot != approached]
    assert beliefs.blue[approached] < min(others) and beliefs.blue[approached] < 0.5 - 0.1
    # Proven colours never contradict the counts: every colouring has exactly the blues left.
    assert all(len(combo) == 4 for combo, _ in beliefs.colourings)
    assert sum(p for _, p in beliefs.colourings) == pytest.approx(1.0)


def test_the_styles_learn_from_the_colours_revealed() -> None:
    """A piece that charged into contact and was captured blue discredits the purple-type reading (approachers are
    red) and credits the charger's; one captured red does the opposite."""

    def after_capture(blue: bool) -> dict[str, float]:
        # Player 2's front-row piece of the colour asked steps into contact with ours, which takes it.
        state = GeisterState.from_setups(GEISTER, "BRRBBRRB", "RBBRRBBR")
        colour_of = {sq.name: p.colour.value for sq, p in state.view(Side.P2).pieces(Side.P2)}
        file = next(f for f in "bcde" if (colour_of[f + "5"] == "B") == blue)
        for text in [f"{file}2-{file}3", f"{file}5-{file}4", f"{file}3-{file}4"]:
            state.push_text(text)
        return belief(state.view(Side.P1)).styles

    prior = belief(GeisterState.from_setups(GEISTER, "BRRBBRRB", "RBBRRBBR").view(Side.P1)).styles
    blue_charger, red_charger = after_capture(True), after_capture(False)
    assert blue_charger["baiter"] < prior["baiter"] < red_charger["baiter"]
    assert blue_charger["charger"] > prior["charger"]
    assert sum(blue_charger.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(("seed", "plies"), [(9, 20), (10, 44)])
@pytest.mark.parametrize("player_class", PLAYERS)
def test_exact_mode_gives_every_move_its_true_value(player_class: type[PurplePlayer], seed: int, plies: int) -> None:
    """The live advice lists every move's value: with ``exact`` they are the values plain minimax gives (the
    playing search gives bounds for the moves it will not play)."""
    state = random_midgame(seed, plies)
    if state.is_terminal():
        pytest.skip("the random game ended early")
    view = state.view(state.to_move)

    class Plain(player_class):  # type: ignore[valid-type, misc]
        FLAGS = sr.NO_TABLE | sr.NO_ORDERING | sr.NO_PRUNING

    *_, fast = player_class().analyse(view, Limit(iterations=3, exact=True), random.Random(1))
    *_, slow = Plain().analyse(view, Limit(iterations=3), random.Random(1))
    assert dict(fast.moves) == dict(slow.moves)


def test_sliced_advice_reports_inside_deep_iterations_and_still_finishes() -> None:
    """With ``Limit.slice_seconds`` the search reports between slices (the live advice needs a report every slice, not
    one per iteration) and resumes the same depth: every report names a legal move, the last one is final."""
    state = random_midgame(3, 30)
    view = state.view(state.to_move)
    sliced = Limit(time=0.3, slice_seconds=0.001, exact=True)
    reports = list(BayesPlayer().analyse(view, sliced, random.Random(1)))
    assert reports[-1].final and not any(report.final for report in reports[:-1])
    # Some report came from inside an iteration: the same depth reported twice (a slice, then the iteration done).
    depths = [r.depth for r in reports]
    assert len(depths) > len(set(depths))
    legal = set(view.legal_moves())
    assert all(report.best in legal for report in reports)
    assert [r.depth for r in reports] == sorted(r.depth for r in reports)  # depth never goes back


#: Player 1 to move with one red left (a1) and blues on c2 and e1; player 2 has two blues and two reds, one on d3.
ONE_RED_LEFT = "5u/1u2u1/6/3u2/2B3/R3B1 1 RRRBBrrbb 40"


def test_a_careful_opponent_spares_what_may_be_our_last_red() -> None:
    """With one red left, none of our pieces is safe to take for an opponent that cannot tell which is the red: the
    careful model (``C_CAREFUL``) lets our blue step next to its piece, which the worst case (an opponent that knows
    our colours) takes at once."""
    state = GeisterState.from_position(ONE_RED_LEFT, "geister")
    worst = root_values(state, 2, 0)
    careful = root_values(state, 2, 0, careful=True)
    step = convert.encode_move(GEISTER, Move.parse("c2-c3"))  # next to d3
    assert careful[step] - worst[step] >= sr.DEFAULT_WEIGHTS[sr.W_BLUE] // 2
    # The model only takes options from the opponent: no move is worth less to us.
    assert all(careful[move] >= worst[move] for move in worst)


def test_a_careful_opponent_still_stops_an_escape() -> None:
    """Our piece on our exit may escape next turn: then the opponent must take its chances, and the careful model
    gives it every capture (the value is the worst case's: it takes our blue)."""
    # Player 1's blue steps from a5 onto a6, its exit, next to player 2's piece on b6; one red left.
    state = GeisterState.from_position("1u3u/B3u1/6/3u2/6/R3B1 1 RRRBBrrbb 40", "geister")
    onto_exit = convert.encode_move(GEISTER, Move.parse("a5-a6"))
    careful = root_values(state, 2, 0, careful=True)[onto_exit]
    assert careful == root_values(state, 2, 0)[onto_exit]
    assert careful < sr.MATE - 1000  # not an escape: b6 takes it


@pytest.mark.parametrize(
    "position",
    [ONE_RED_LEFT, "1u2u1/2u3/2B3/1u1B2/5B/R5 1 RRRBrrbb 44", "u4u/6/2Bu2/3B1B/1u4/3R2 1 RRRBrbbr 60"],
)
def test_pruning_agrees_with_minimax_when_the_opponent_is_careful(position: str) -> None:
    state = GeisterState.from_position(position, "geister")
    plain = root_values(state, 3, sr.NO_TABLE | sr.NO_ORDERING | sr.NO_PRUNING, careful=True)
    assert root_values(state, 3, 0, careful=True) == plain
    prob = np.full(64, 600, dtype=np.int64)
    plain = root_values(state, 3, sr.NO_TABLE | sr.NO_ORDERING | sr.NO_PRUNING, prob, careful=True)
    assert root_values(state, 3, sr.NO_TABLE, prob, careful=True) == plain


def test_the_opponent_shows_whether_it_is_careful() -> None:
    """``careless_captures`` counts the opponent's captures made while we had one red left and no escape was at
    stake; ``exposed_reds`` names our pieces the opponent knows are red (they stood on our exit and stayed)."""
    state = GeisterState.from_position("u4u/1u4/2u3/2B3/6/R5 2 RRRBBBrrbb 40", "geister")
    assert careless_captures(state.view(Side.P1)) == 0
    state.push(Move.parse("c4-c3"))  # c4 takes our blue on c3: it might have been our last red
    assert careless_captures(state.view(Side.P1)) == 1
    assert not BayesPlayer().careful_opponent(state.view(Side.P1))
    # Our red walks onto our exit (a6) and stays a turn: the opponent then knows it is the red.
    state = GeisterState.from_position("1u3u/R5/6/2u3/5B/1uB3 1 RRRBBrrbb 40", "geister")
    assert BayesPlayer().careful_opponent(state.view(Side.P1))
    for text in ["a5-a6", "c3-c4", "a6-a5"]:
        state.push(Move.parse(text))
    view = state.view(Side.P1)
    assert exposed_reds(view) == {next(p.slot for sq, p in view.pieces(Side.P1) if sq.name == "a5")}
    assert not BayesPlayer().careful_opponent(view)


def test_a_piece_that_may_escape_does_not_make_the_search_run_on() -> None:
    """Player 1's piece on f6, its exit, may be blue: every node of player 1's in the tree weighs its escape. That
    costs plies from the same extension budget as escape threats, so a shallow search stays shallow (without the
    bound, depth 1 searched 160,000 nodes to ply 10 in this position)."""
    state = GeisterState.from_position("1brbbB/6/6/1B4/B5/1RRbR1 2 rRrrB 21", "geister")
    view = state.view(Side.P2)
    *_, report = BayesPlayer().analyse(view, Limit(iterations=1), random.Random(1))
    assert report.seldepth <= 1 + 4 and report.nodes < 20_000  # depth 1 and four plies of extensions
    assert report.best == Move.parse("e6-f6")  # and it takes the piece that may escape


#: From a real game (sage as player 2 against a 2020 contest program): taking the blue on a2 wins in 5 plies (our
#: a2 piece walks to a1 and escapes; nothing of theirs is near). Their f5 piece is red; it stands next to its exit.
WON_BY_A3_A2 = "2br2/5R/6/b4b/B4r/1b2B1 2 RRrrRBB 65"


class _Believer(BayesPlayer):
    """bayes's search with beliefs set from outside (by square), weighing every capture by them."""

    HOLD_BACK_RISKY = False

    def __init__(self, chances: dict[str, float]) -> None:
        super().__init__()
        self.chances = chances

    def blue_chances(self, view: GeisterView) -> dict[int, float]:
        return {piece.slot: self.chances[str(square)] for square, piece in view.pieces(view.viewer.other)}


def _searched(player: PurplePlayer, position: str, depth: int = 4) -> tuple[Move, int]:
    state = GeisterState.from_position(position, "geister")
    *_, report = player.analyse(state.view(state.to_move), Limit(iterations=depth), random.Random(1))
    return report.moves[0]


def test_a_piece_believed_red_does_not_escape_in_the_search() -> None:
    # f5 believed red stands next to f6, its exit: stepping there and out is no threat, and the win stands. (The
    # search once let a purple piece of chance 0 escape as if it were blue, and saw a loss in 4 instead.)
    sure = {"a2": 1.0, "e1": 1.0, "f5": 0.0}
    assert _searched(_Believer(sure), WON_BY_A3_A2) == (Move.parse("a3-a2"), sr.MATE - 5)


@pytest.mark.parametrize("doubt", [{"a2": 0.6, "e1": 0.8, "f5": 0.6}, {"a2": 0.9, "e1": 0.9, "f5": 0.2}])
def test_a_search_under_new_beliefs_answers_as_a_fresh_one(doubt: dict[str, float]) -> None:
    # The table outlives a search, and its values were searched under that search's beliefs: read under new ones
    # they once made a player walk past this win for a hundred plies (the table said the capture was worth what it
    # had been worth while a2 might be the last red).
    sure = {"a2": 1.0, "e1": 1.0, "f5": 0.0}
    player = _Believer(doubt)
    _searched(player, WON_BY_A3_A2, depth=6)
    player.chances = sure
    assert _searched(player, WON_BY_A3_A2) == _searched(_Believer(sure), WON_BY_A3_A2)
