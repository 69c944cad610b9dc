"""Random legal games on every shipped Geister variant keep the rules' invariants (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.game import TERMINAL, Side
from core.geister import VARIANTS, Colour, GeisterState, Setup, Variant
from core.record import Record

VARIANT_NAMES = sorted(VARIANTS)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_setup(variant: Variant, side: Side, rng: random.Random, hidden: bool) -> Setup:
    if hidden:
        return Setup((Colour.UNKNOWN,) * variant.pieces(side))
    return rng.choice(variant.setups(side))


def random_game(
    variant: Variant, seed: int, first: Side, hidden: bool = False, max_plies: int | None = None
) -> tuple[GeisterState, list[str]]:
    """Play a random legal game; return the final state and the position before each move and at the end."""
    rng = random.Random(seed)
    state = GeisterState(variant, first)
    state.apply(random_setup(variant, Side.P1, rng, hidden))
    state.apply(random_setup(variant, Side.P2, rng, hidden))
    positions = [state.position()]
    while not state.is_terminal() and (max_plies is None or state.ply < max_plies):
        legal = state.legal_moves()
        # Lean toward escapes and captures now and then, so that every kind of ending shows up.
        escapes = [m for m in legal if m.is_escape]
        move = rng.choice(escapes) if escapes and rng.random() < 0.5 else rng.choice(legal)
        state.push(move)
        positions.append(state.position())
    return state, positions


def check_invariants(state: GeisterState) -> None:
    variant = state.variant
    on_board = list(state.pieces())
    squares = [square for square, _ in on_board]
    assert len(squares) == len(set(squares)), "two pieces on one square"
    assert all(variant.on_board(square) for square in squares)
    for side in Side:
        board = sum(1 for _, p in on_board if p.side is side)
        captured = sum(1 for p in state.captured if p.side is side)
        escaped = 1 if state.escaped is not None and state.escaped.side is side else 0
        assert board + captured + escaped == variant.pieces(side)
        # Every piece keeps its own slot: no slot twice, every slot somewhere.
        slots = [p.slot for _, p in on_board if p.side is side] + [p.slot for p in state.captured if p.side is side]
        if escaped:
            slots.append(state.escaped.slot)  # type: ignore[union-attr]
        assert sorted(slots) == list(range(variant.pieces(side)))
    assert state.ply == len(state.moves())
    if not state.is_terminal():
        assert state.current_player() == state.to_move
        assert state.legal_moves()
    else:
        assert state.current_player() == TERMINAL
        assert state.legal_moves() == []


def check_views(state: GeisterState) -> None:
    for viewer in Side:
        view = state.view(viewer)
        assert view.moves == tuple(state.moves())
        assert view.captured == state.captured
        for square, piece in view.pieces():
            true = state.piece_at(square)
            assert true is not None
            assert (piece.side, piece.slot) == (true.side, true.slot)
            if piece.side is viewer or state.is_terminal():
                assert piece.colour is true.colour
            else:
                assert piece.colour is Colour.UNKNOWN
        if not state.is_terminal() and state.to_move is viewer:
            assert sorted(view.legal_moves(), key=str) == sorted(state.legal_moves(), key=str)
        else:
            assert view.legal_moves() == []


def check_outcome(state: GeisterState, hidden: bool) -> None:
    outcome = state.outcome()
    variant = state.variant
    if outcome is None:
        assert variant.ply_limit is None or state.ply < variant.ply_limit
        return
    last = state.moves()[-1] if state.moves() else None
    mover = state.to_move.other  # who made the last move
    if last is not None and last.is_escape:
        assert outcome.winner is mover
        assert state.escaped is not None
        assert state.escaped.side is mover
        assert state.escaped.colour is not Colour.RED
        assert last.src in variant.exits[mover]
        return
    assert state.escaped is None
    for side in Side:
        taken = [p for p in state.captured if p.side is side]
        if sum(p.colour is Colour.BLUE for p in taken) == variant.blues[side]:
            assert outcome.winner is side.other, "all of a side's blues were captured: the capturer wins"
            return
        if sum(p.colour is Colour.RED for p in taken) == variant.reds[side]:
            assert outcome.winner is side, "all of a side's reds were captured: that side wins"
            return
    if variant.ply_limit is not None and state.ply >= variant.ply_limit:
        assert outcome.winner is None
        assert state.ply == variant.ply_limit
        return
    # Otherwise the side to move had no legal move (possible only when colours are hidden and captures decide
    # nothing, so that a side can lose every piece).
    assert hidden
    assert not any(p.side is state.to_move for _, p in state.pieces())
    assert outcome.winner is state.to_move.other


def check_record(state: GeisterState, positions: list[str]) -> None:
    text = Record.from_game(state).to_text()
    record = Record.parse(text)
    assert record.to_text() == text
    states = record.replay()
    assert [s.position() for s in states] == positions
    assert states[-1].outcome() == state.outcome()


@SETTINGS
@given(
    name=st.sampled_from(VARIANT_NAMES),
    seed=st.integers(0, 2**32 - 1),
    first=st.sampled_from(list(Side)),
)
def test_random_games_keep_the_invariants(name: str, seed: int, first: Side) -> None:
    variant = VARIANTS[name]
    rng = random.Random(seed)
    state = GeisterState(variant, first)
    start = (state.position(), state.view(Side.P1), state.view(Side.P2))
    state.apply(random_setup(variant, Side.P1, rng, hidden=False))
    state.apply(random_setup(variant, Side.P2, rng, hidden=False))
    positions = [state.position()]
    check_invariants(state)
    while not state.is_terminal():
        legal = state.legal_moves()
        escapes = [m for m in legal if m.is_escape]
        move = rng.choice(escapes) if escapes and rng.random() < 0.5 else rng.choice(legal)
        assert state.is_legal(move)
        state.push(move)
        positions.append(state.position())
        check_invariants(state)
        if state.ply % 7 == 0 or state.is_terminal():
            check_views(state)
    check_views(state)
    check_outcome(state, hidden=False)
    check_record(state, positions)
    # Take everything back, moves and set-ups: the start comes back exactly.
    for expected in reversed(positions[:-1]):
        state.undo()
        assert state.position() == expected
    state.undo()
    state.undo()
    assert (state.position(), state.view(Side.P1), state.view(Side.P2)) == start
    assert state.phase == "setup"
    assert state.history() == []


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(VARIANT_NAMES), seed=st.integers(0, 2**32 - 1), first=st.sampled_from(list(Side)))
def test_random_games_with_hidden_colours(name: str, seed: int, first: Side) -> None:
    # The colourless analysis and '?' records: captures decide nothing, a side may lose every piece.
    state, positions = random_game(VARIANTS[name], seed, first, hidden=True)
    check_invariants(state)
    check_views(state)
    check_outcome(state, hidden=True)
    check_record(state, positions)


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(VARIANT_NAMES), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40), hidden=st.booleans()
)
def test_positions_round_trip_mid_game(name: str, seed: int, plies: int, hidden: bool) -> None:
    state, _ = random_game(VARIANTS[name], seed, Side.P1, hidden=hidden, max_plies=plies)
    text = state.position()
    again = GeisterState.from_position(text, state.variant)
    assert again.position() == text
    if state.escaped is None:  # the notation has no field for an escaped piece: that end is not in the text
        assert again.outcome() == state.outcome()
        assert sorted(again.legal_moves(), key=str) == sorted(state.legal_moves(), key=str)
        for viewer in Side:
            assert again.view(viewer).position() == state.view(viewer).position()
    short = state.position(short=True)
    assert GeisterState.from_position(short, state.variant).position() == text


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(VARIANT_NAMES), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30))
def test_views_ignore_the_opponents_hidden_colours(name: str, seed: int, plies: int) -> None:
    """Replaying the same moves against another opponent set-up gives the viewer the same view (until a capture
    or the end reveals something)."""
    variant = VARIANTS[name]
    state, _ = random_game(variant, seed, Side.P1, max_plies=plies)
    if state.is_terminal() or state.captured:
        return
    for viewer in Side:
        others = variant.setups(viewer.other)
        for other in others[:: max(1, len(others) // 6)]:
            setups = {viewer: state.setup(viewer), viewer.other: other}
            twin = GeisterState.from_setups(variant, setups[Side.P1], setups[Side.P2])  # type: ignore[arg-type]
            for move in state.moves():
                twin.push(move)
            assert twin.view(viewer) == state.view(viewer)


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(VARIANT_NAMES), seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 60))
def test_clone_and_pop_round_trip(name: str, seed: int, plies: int) -> None:
    state, positions = random_game(VARIANTS[name], seed, Side.P2, max_plies=plies)
    copy = state.clone()
    while state.moves():
        state.pop()
    assert state.position() == positions[0]
    assert not state.is_terminal()
    assert copy.position() == positions[-1]
    for move in copy.moves():
        state.push(move)
    assert state.position() == copy.position()
    assert state.outcome() == copy.outcome()


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(VARIANT_NAMES), seed=st.integers(0, 2**32 - 1), first=st.sampled_from(list(Side)))
def test_peaceful_games_end_in_a_draw_at_the_ply_limit(name: str, seed: int, first: Side) -> None:
    # Both sides avoid captures and escapes whenever they can: most such games reach the ply limit.
    variant = VARIANTS[name]
    rng = random.Random(seed)
    state = GeisterState(variant, first)
    state.apply(random_setup(variant, Side.P1, rng, hidden=False))
    state.apply(random_setup(variant, Side.P2, rng, hidden=False))
    positions = [state.position()]
    while not state.is_terminal():
        legal = state.legal_moves()
        quiet = [m for m in legal if m.dst is not None and state.piece_at(m.dst) is None]
        state.push(rng.choice(quiet or legal))
        positions.append(state.position())
    check_invariants(state)
    check_views(state)
    check_outcome(state, hidden=False)
    if not state.captured and state.escaped is None:
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winner is None
        assert state.ply == variant.ply_limit
    check_record(state, positions)
