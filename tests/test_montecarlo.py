"""The search players: world sampling, UPP's weight update, information hiding, and a short match each."""

from __future__ import annotations

import random

import numpy as np
import pytest
from twin_games import random_midgame, with_opponent_colours_swapped

from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState
from core.notation import Move, Square
from solvers.arena import run_match
from solvers.catalogue import make_player, players_for
from solvers.geister import playouts as po
from solvers.geister.baselines import GreedyPlayer
from solvers.geister.ismcts import ISMCTSPlayer
from solvers.geister.montecarlo import (
    GUIDED,
    GuidedMonteCarloPlayer,
    MonteCarloPlayer,
    Playouts,
    UPPPlayer,
    run_root_playouts,
)
from solvers.geister.worlds import Worlds, bait_prior
from solvers.players import Limit

GEISTER = VARIANTS["geister"]
SEARCH = [MonteCarloPlayer, GuidedMonteCarloPlayer, UPPPlayer, ISMCTSPlayer]
TINY = Limit(playouts=200)


def test_worlds_are_the_colourings_that_agree_with_captures() -> None:
    state = GeisterState.from_setups(GEISTER, "BBBBRRRR", "BRBRBRBR")
    for move in ("b2-b3", "c5-c4", "b3-b4", "c4-c3", "b4-b5"):  # b4xb5 captures player 2's slot 4 (blue)
        state.push_text(move)
    view = state.view(Side.P1)
    captured = [p for p in view.captured if p.side is Side.P2]
    assert len(captured) == 1 and captured[0].colour is Colour.BLUE
    worlds = Worlds(GEISTER, Side.P2)
    assert len(worlds) == 70
    possible = worlds.possible(view)
    assert possible.sum() == 35  # slot 4 blue: 3 more blues among the other 7 slots
    assert worlds.blue[possible, captured[0].slot].all()
    # Sampling by any weights only ever yields possible worlds, and the beliefs skip captured pieces.
    player = UPPPlayer()
    weights = player.world_weights(view)
    drawn = np.random.default_rng(0).choice(len(worlds), size=500, p=weights / weights.sum())
    assert possible[drawn].all()
    beliefs = worlds.beliefs(view, weights)
    assert len(beliefs) == 7 and all(b.blue == pytest.approx(3 / 7) for b in beliefs)


def test_opponent_blue_words_follow_the_world() -> None:
    state = GeisterState.from_setups(GEISTER, "BBBBRRRR", "BRBRBRBR")
    view = state.view(Side.P1)
    worlds = Worlds(GEISTER, Side.P2)
    words = worlds.opponent_blue_words(view)
    truth = next(w for w in range(len(worlds)) if worlds.blue[w].tolist() == [True, False] * 4)
    expected = sum(1 << GEISTER.index(sq) for sq, p in state.pieces() if p.side is Side.P2 and p.colour is Colour.BLUE)
    assert int(words[truth]) == expected


def test_upp_weight_update_follows_the_paper() -> None:
    """A constructed previous decision: after my b2-b3 and the opponent's c5-c4, my playouts score lower in the
    worlds where c5 (slot 5) is blue, so every world with slot 5 blue gets t += 1 and weight 1 + 0.1 t; the
    others keep weight 1. A second identical update gives 1.2."""
    state = GeisterState.from_setups(GEISTER, "BBBBRRRR", "BRBRBRBR")
    state.push_text("b2-b3")
    state.push_text("c5-c4")
    view = state.view(Side.P1)
    player = UPPPlayer()
    worlds = player.worlds(view)
    start = GeisterState.from_setups(GEISTER, "BBBBRRRR", "BRBRBRBR").view(Side.P1)
    moves = start.legal_moves()
    mine, reply = Move.parse("b2-b3"), Move.parse("c5-c4")
    src, dst = po.move_squares(GEISTER, reply)
    slot = 5
    world_ids = np.arange(len(worlds))
    blue = worlds.blue[:, slot]
    n = len(world_ids)
    # Every world: one matching playout (score 0.2 if slot 5 is blue there, 0.8 if red) and one with another reply.
    last = Playouts(
        moves=moves,
        world=np.concatenate([world_ids, world_ids]),
        move=np.full(2 * n, moves.index(mine)),
        reply_src=np.concatenate([np.full(n, src), np.full(n, 0)]),
        reply_dst=np.concatenate([np.full(n, dst), np.full(n, 1)]),
        score=np.concatenate([np.where(blue, 0.2, 0.8), np.full(n, 1.0)]),
    )
    player.last = last
    player._last_history = start.moves
    weights = player.world_weights(view)
    assert player.last_update["good"] == pytest.approx(0.2) and player.last_update["bad"] == pytest.approx(0.8)
    assert np.allclose(weights, np.where(blue, 1.1, 1.0))
    player.update(view, last)
    assert np.allclose(np.where(worlds.possible(view), 1 + 0.1 * player.counters, 0), np.where(blue, 1.2, 1.0))
    # The belief that c4 is blue rose above the prior 1/2.
    belief = next(b for b in worlds.beliefs(view, np.where(blue, 1.2, 1.0)) if b.square == "c4")
    assert belief.blue > 0.5


GEISTER_PLAYERS = sorted(entry.name for entry in players_for("geister"))


@pytest.mark.parametrize("name", GEISTER_PLAYERS)
def test_no_player_can_read_hidden_colours(name: str) -> None:
    """Twin games that differ only in the opponent's hidden colours give every AI the same view and the same
    choice; the search players' whole analysis (move statistics, colour beliefs) is identical too."""
    compared = 0
    for seed in range(4):
        state = random_midgame(seed, 6 + 2 * seed)
        viewer = state.to_move
        if state.is_terminal() or any(p.side is viewer.other for p in state.captured):
            continue
        twin = with_opponent_colours_swapped(state, viewer)
        assert state.view(viewer) == twin.view(viewer)
        a = make_player(name, "geister").choose(state.view(viewer), random.Random(seed), TINY)
        b = make_player(name, "geister").choose(twin.view(viewer), random.Random(seed), TINY)
        assert a == b
        player = make_player(name, "geister")
        if isinstance(player, MonteCarloPlayer):
            analysis = list(player.analyse(state.view(viewer), TINY, random.Random(seed)))[-1]
            twin_player = make_player(name, "geister")
            assert isinstance(twin_player, MonteCarloPlayer)
            twin_analysis = list(twin_player.analyse(twin.view(viewer), TINY, random.Random(seed)))[-1]
            assert analysis.moves == twin_analysis.moves and analysis.beliefs == twin_analysis.beliefs
        compared += 1
    assert compared >= 2


def test_views_hold_no_reference_to_the_state() -> None:
    state = random_midgame(1, 10)
    view = state.view(state.to_move)
    seen: set[int] = set()

    def walk(obj: object) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        assert not isinstance(obj, GeisterState)
        for child in getattr(obj, "__dict__", {}).values():
            walk(child)
        if isinstance(obj, tuple | list):
            for child in obj:
                walk(child)

    walk(view)


@pytest.mark.parametrize("player_class", SEARCH)
def test_analysis_covers_every_legal_move_and_piece(player_class: type[MonteCarloPlayer]) -> None:
    state = random_midgame(4, 8)
    view = state.view(state.to_move)
    snapshots = list(player_class().analyse(view, Limit(playouts=1200), random.Random(0)))
    assert snapshots[-1].final and not any(s.final for s in snapshots[:-1])
    final = snapshots[-1]
    assert {s.move for s in final.moves} == set(view.legal_moves())
    assert final.best in view.legal_moves()
    assert {b.square for b in final.beliefs} == {sq.name for sq, _ in view.pieces(view.viewer.other)}
    assert all(0 <= b.blue <= 1 for b in final.beliefs)
    assert 0 < final.playouts <= 1200


@pytest.mark.parametrize("player_class", SEARCH)
def test_search_players_take_an_escape(player_class: type[MonteCarloPlayer]) -> None:
    state = GeisterState.from_position("B5/6/2u3/6/1u2u1/1R2RB 1 - 10", "geister")
    assert player_class().choose(state.view(Side.P1), random.Random(0), TINY) == Move.parse("a6-out")


@pytest.mark.parametrize("name", ["mc", "upp", "ismcts"])
def test_search_players_beat_random(name: str) -> None:
    # 2,000 playouts: ISMCTS at 200 (25 tree iterations) hardly searches, and its guided playouts then capture
    # recklessly (2 of 4 won against random at seed 1).
    match = run_match("geister", (name, "random"), 4, Limit(playouts=2000), workers=1, seed=1)
    wins, _, _ = match.record(0)
    assert wins >= 3


def test_greedy_escapes_then_captures_the_most_advanced() -> None:
    greedy = GreedyPlayer()
    escape = GeisterState.from_position("B5/6/2u3/6/1u2u1/1R2RB 1 - 10", "geister")
    assert greedy.choose(escape.view(Side.P1), random.Random(0)) == Move.parse("a6-out")
    # Two captures in reach: b3 (advanced to rank 3) and c5; greedy takes b3.
    capture = GeisterState.from_position("6/2u3/2B3/6/1u4/1B2R1 1 - 10", "geister")
    assert greedy.choose(capture.view(Side.P1), random.Random(0)) == Move.parse("b1-b2")
    assert "greedy" in GEISTER_PLAYERS


def test_register_has_every_player() -> None:
    from tui.cli import connect as connect_cli

    # Every player named in the issues is there (a new one needs only its module and its catalogue entry).
    assert {"random", "chototsu", "greedy", "mc", "mc-guided", "upp", "ismcts", "purple", "bayes"} <= set(
        GEISTER_PLAYERS
    )
    # The command line reads the names from the catalogue (which loads no numpy): they agree by construction.
    assert set(connect_cli.PLAYER_NAMES) == {*GEISTER_PLAYERS, "human", "ai"}


# Regression (uniform playouts could not see the threat): an opponent piece on a2, one step from its exit a1,
# which our b2 can capture. If it is blue it escapes in two moves; the search must take it.
THREAT = "1rrbb1/1rr3/6/6/bB2R1/1RRBB1 1 - 20"


def test_guided_playouts_value_the_capture_of_a_piece_next_to_its_exit() -> None:
    state = GeisterState.from_position(THREAT, "geister")
    view = state.view(Side.P1)
    worlds = Worlds(GEISTER, Side.P2)
    moves = view.legal_moves()
    world_ids = np.repeat(np.arange(len(worlds)), 60)  # every world alike: the plain Monte Carlo expectation
    scores, _, _ = run_root_playouts(
        view, moves, worlds.opponent_blue_words(view), world_ids, np.random.default_rng(0), GUIDED
    )
    means = scores.mean(axis=0)
    assert moves[int(np.argmax(means))] == Move.parse("b2-a2")


@pytest.mark.parametrize("seed", range(3))
def test_upp_captures_a_piece_next_to_its_exit(seed: int) -> None:
    state = GeisterState.from_position(THREAT, "geister")
    assert UPPPlayer().choose(state.view(Side.P1), random.Random(seed), Limit(playouts=4000)) == Move.parse("b2-a2")


# Player 2 has lost three reds: its last red is on c3, next to our c2, two squares from its nearest exit.
LAST_RED_IN_REACH = "1bb3/3bb1/6/2r3/1RBRB1/1BRRB1 1 rrr 20"


def _bait_mass(position: str, floor: float) -> tuple[float, float]:
    """P(the opponent's red still on the board stands on c3), before and after ``bait_prior``."""
    view = GeisterState.from_position(position, "geister").view(Side.P1)
    worlds = Worlds(GEISTER, Side.P2)
    weights = worlds.possible(view).astype(np.float64)
    c3 = view.piece_at(Square.parse("c3"))
    assert c3 is not None
    on_c3 = ~worlds.blue[:, c3.slot]
    after = bait_prior(worlds, view, weights, floor)
    return float(weights[on_c3].sum() / weights.sum()), float(after[on_c3].sum() / after.sum())


def test_the_last_red_in_reach_is_presumed_bait() -> None:
    before, after = _bait_mass(LAST_RED_IN_REACH, 0.9)
    assert before == pytest.approx(1 / 5)  # five pieces left, one of them red: uniform
    assert after == pytest.approx(0.9)


def test_bait_prior_leaves_other_positions_alone() -> None:
    # Two reds left: capturing one loses nothing at once.
    before, after = _bait_mass("1bb3/3bb1/6/2r3/1RBRB1/1BRRBr 1 rr 20", 0.9)
    assert after == pytest.approx(before)
    # Already presumed red beyond the floor: unchanged.
    before, after = _bait_mass(LAST_RED_IN_REACH, 0.1)
    assert after == pytest.approx(before)
    # The only piece in reach stands on its exit (f1, next to our e1): it may be a blue escaping next move, so the
    # capture stays the search's gamble.
    view = GeisterState.from_position("1bb3/3bb1/6/6/1RBRB1/1BRRBr 1 rrr 20", "geister").view(Side.P1)
    worlds = Worlds(GEISTER, Side.P2)
    weights = worlds.possible(view).astype(np.float64)
    assert np.array_equal(bait_prior(worlds, view, weights, 0.9), weights)


def test_an_interrupted_search_still_teaches_upp() -> None:
    """The app's advice abandons a search when the position changes, long before its budget is spent; what it
    played must still feed UPP's update, or the colour estimates would never learn from the opponent's moves."""
    state = GeisterState.from_setups(GEISTER, "BRBRBRBR", "RBBRRBBR")
    player = UPPPlayer()
    search = player.analyse(state.view(Side.P1), Limit(time=30), random.Random(1))
    next(search)  # one batch, then the position moves on
    search.close()
    last = player.last
    assert last is not None and len(last.score) > 0
    # Play a move and a reply that the interrupted search's playouts contain.
    i = int(np.flatnonzero(last.reply_src >= 0)[0])
    state.push(last.moves[int(last.move[i])])
    state.push(po.move_from_squares(GEISTER, int(last.reply_src[i]), int(last.reply_dst[i])))
    player.world_weights(state.view(Side.P1))
    assert player.counters.any()
