"""The vectorised playout engine against the rules engine ``core.geister``: same legal moves, same results of
every move (captures, escapes, wins, the ply-limit draw), on thousands of positions from random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState
from core.notation import Move
from solvers.geister import playouts as po


def full_bits(state: GeisterState) -> tuple[tuple[int, int], tuple[int, int]]:
    occ, blue = [0, 0], [0, 0]
    for square, piece in state.pieces():
        bit = 1 << state.variant.index(square)
        occ[piece.side] |= bit
        if piece.colour is Colour.BLUE:
            blue[piece.side] |= bit
    return (occ[0], occ[1]), (blue[0], blue[1])


def expected(state: GeisterState, mover: Side) -> int:
    outcome = state.outcome()
    if outcome is None:
        return 2
    if outcome.winner is None:
        return 0
    return 1 if outcome.winner is mover else -1


def check_game(state: GeisterState, rng: random.Random) -> int:
    """Play ``state`` to its end with random moves, checking every position; returns the positions checked."""
    variant = state.variant
    t = po.tables(variant)
    checked = 0
    while not state.is_terminal():
        occ, blue = full_bits(state)
        batch = po.batch_from_arrays(t, state.to_move, occ, blue, state.ply, 1)
        legal = sorted(po.move_squares(variant, m) for m in state.legal_moves())
        assert sorted(po.legal_move_arrays(t, batch, 0)) == legal, state.position()
        # Every legal move, applied to a copy in one batch, against the rules engine.
        n = len(legal)
        many = po.batch_from_arrays(t, state.to_move, occ, blue, state.ply, n)
        src = np.array([m[0] for m in legal])
        dst = np.array([m[1] for m in legal])
        results = po.apply_moves(t, many, src, dst)
        mover = state.to_move
        for i, move in enumerate(state.legal_moves()):
            square_move = po.move_squares(variant, move)
            j = legal.index(square_move)
            state.push(move)
            assert results[j] == expected(state, mover), (state.position(), move)
            if not state.is_terminal():
                occ2, blue2 = full_bits(state)
                me = state.to_move
                got = (int(many.me_occ[j]), int(many.me_blue[j]), int(many.op_occ[j]), int(many.op_blue[j]))
                assert got == (occ2[me], blue2[me], occ2[me.other], blue2[me.other])
            state.pop()
            del i
        state.push(rng.choice(state.legal_moves()))
        checked += 1
    return checked


@pytest.mark.parametrize("variant", ["geister", "mini-geister", "mini-geister-3v2-rbb"])
def test_engine_matches_the_rules_engine_on_random_games(variant: str) -> None:
    rng = random.Random(2024)
    checked = 0
    games = 25 if variant == "geister" else 80
    for _ in range(games):
        state = GeisterState(VARIANTS[variant], rng.choice(list(Side)))
        while state.phase == "setup":
            state.apply(rng.choice(state.legal_actions()))
        checked += check_game(state, rng)
    assert checked > 1000 if variant == "geister" else checked > 500


def test_ply_limit_draw_counts_plies_already_played() -> None:
    # Ply 299: the next move that decides nothing ends the game in a draw; a capture of the last blue still wins.
    state = GeisterState.from_position("6/6/2b3/2Br2/5r/1R2RB 1 bbbrr 299", "geister")
    assert state.outcome() is None
    t = po.tables(state.variant)
    occ, blue = full_bits(state)
    batch = po.batch_from_arrays(t, Side.P1, occ, blue, state.ply, 2)
    c3, c4, d3 = (state.variant.index(state.variant.square(0).offset(f, r)) for f, r in ((2, 2), (2, 3), (3, 2)))
    results = po.apply_moves(t, batch, np.array([c3, c3]), np.array([c4, d3]))
    # c3-c4 captures the last blue: a win at the limit; c3-d3 captures a red (not the last): the limit draws.
    assert results.tolist() == [1, 0]
    for move, result in (("c3-c4", 1), ("c3-d3", 0)):
        game = state.clone()
        game.push_text(move)
        assert expected(game, Side.P1) == result


def test_playouts_end_every_game_with_legal_results() -> None:
    state = GeisterState.from_setups(VARIANTS["geister"], "BRBRBRBR", "RBRBRBRB")
    t = po.tables(state.variant)
    occ, blue = full_bits(state)
    batch = po.batch_from_arrays(t, Side.P1, occ, blue, 0, 2000)
    results, src, dst = po.playout(t, batch, np.random.default_rng(0), first_moves=True)
    assert set(results.tolist()) <= {-1, 0, 1}
    assert src is not None and dst is not None
    legal = {po.move_squares(state.variant, m) for m in state.legal_moves()}
    assert {(int(s), int(d)) for s, d in zip(src, dst, strict=True)} <= legal
    # Every opening move appears: the first move is uniform over the legal ones.
    assert len({(int(s), int(d)) for s, d in zip(src, dst, strict=True)}) == len(legal)


def test_random_playouts_agree_with_the_baseline_in_distribution() -> None:
    """Same rules, same policy: the outcome frequencies of the vectorised engine and of random games played with
    ``core.geister`` agree (player 1 win rates within sampling error)."""
    state = GeisterState.from_setups(VARIANTS["geister"], "BBRRBBRR", "RRBBRRBB")
    t = po.tables(state.variant)
    occ, blue = full_bits(state)
    results, _, _ = po.playout(t, po.batch_from_arrays(t, Side.P1, occ, blue, 0, 4000), np.random.default_rng(1))
    fast = float((results == 1).mean())
    rng = random.Random(1)
    wins = 0
    games = 150
    for _ in range(games):
        game = state.clone()
        while not game.is_terminal():
            game.push(rng.choice(game.legal_moves()))
        outcome = game.outcome()
        assert outcome is not None
        wins += outcome.winner is Side.P1
    assert abs(fast - wins / games) < 4 * (0.25 / games) ** 0.5


def test_escape_first_playouts_escape_at_once() -> None:
    # Player 1's blue on a6 escapes on the first ply in every playout.
    state = GeisterState.from_position("B5/6/2r3/6/1b2b1/1R2RB 1 - 10", "geister")
    t = po.tables(state.variant)
    occ, blue = full_bits(state)
    batch = po.batch_from_arrays(t, Side.P1, occ, blue, state.ply, 50)
    results, _, dst = po.playout(t, batch, np.random.default_rng(0), first_moves=True, policy=po.ESCAPE_FIRST)
    assert dst is not None and (dst == po.ESCAPE).all() and (results == 1).all()


def test_guided_playouts_capture_and_advance_blue_pieces() -> None:
    # Player 1 to move: the red c3 can capture c4 (the only capture); the blue b2 and e1 step nearer their exits
    # (a6/f6) by b2-b3, b2-a2, e1-e2 and e1-f1.
    state = GeisterState.from_position("1rr3/6/2b3/2R3/1B4/4B1 1 - 10", "geister")
    t = po.tables(state.variant)
    occ, blue = full_bits(state)
    variant = state.variant
    legal = {po.move_squares(variant, m) for m in state.legal_moves()}

    def first_moves(policy: po.Policy) -> set[tuple[int, int]]:
        batch = po.batch_from_arrays(t, Side.P1, occ, blue, state.ply, 400)
        results, src, dst = po.playout(t, batch, np.random.default_rng(0), first_moves=True, policy=policy)
        assert src is not None and dst is not None and set(results.tolist()) <= {-1, 0, 1}
        return {(int(s), int(d)) for s, d in zip(src, dst, strict=True)}

    capture = {po.move_squares(variant, Move.parse("c3-c4"))}
    assert first_moves(po.Policy(capture=1.0)) == capture
    blue_steps = {po.move_squares(variant, Move.parse(m)) for m in ("b2-b3", "b2-a2", "e1-e2", "e1-f1")}
    assert first_moves(po.Policy(advance=1.0)) == blue_steps
    # Half-guided: every legal move still occurs, the preferred ones more often.
    assert first_moves(po.Policy(capture=0.5, advance=0.5)) == legal
