"""Footstep's review: each player's bid in each round judged against the opponent's equilibrium mix.

Bids are secret and simultaneous, so a round gives two entries, one per player. A bid is worth its expected payoff
played for sure against the opponent's equilibrium mix at that state (the stage game of ``solvers.footstep``, whose
entries are the continuation's equilibrium values: the adviser's ``worth``, here for every legal bid, not only the
mix's); the state's value is the player's equilibrium value. Every bid of the equilibrium's support is worth exactly
the state's value and none is worth more, so the equilibrium player's bids are always ``best``. Values are points for
the player, -2..2 (span 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.footstep import FootstepState
from core.game import Game, Side
from core.record import Record
from solvers.review import MoveReview, Review
from solvers.review.judging import Budget, Tick, clean, judged, players_of

__all__ = ["review"]

#: Points from the opponent's goal (-2) to one's own (+2).
SPAN = 4.0


def review(record: Record, states: Sequence[Game[Any, Any]], tick: Tick, budget: Budget) -> Review:
    from solvers.footstep import load_solution

    start = states[0]
    assert isinstance(start, FootstepState)
    solution = load_solution(start.n, start.k)[0]
    entries: list[MoveReview] = []
    for number, (before, recorded) in enumerate(zip(states, record.moves, strict=False), start=1):
        assert isinstance(before, FootstepState)
        bids = before.parse_action(recorded.text)
        position = before.position
        bids1, bids2, stage = solution.stage_game(position)  # player 1's payoffs
        for side, bid in zip(Side, bids, strict=True):
            own, theirs = (bids1, bids2) if side is Side.P1 else (bids2, bids1)
            payoff = stage if side is Side.P1 else -stage.T  # rows: this player's bids
            their_mix = solution.mix_array(position, side.other)[theirs]
            worth = payoff @ their_mix
            values = {str(int(b)): float(w) for b, w in zip(own, worth, strict=True)}
            mix = solution.mix(position, side)
            entries.append(
                judged(
                    ply=number,
                    player=side.number,
                    move=str(bid),
                    position=position.text,
                    before=solution.value(position, side),
                    values=values,
                    span=SPAN,
                    extra={"probability": clean(mix.get(bid, 0.0))},
                )
            )
            tick(True)
    return Review(
        game="footstep",
        players=players_of(record),
        plies=len(record.moves),
        engine=f"equilibrium (exact, n = {start.n}, k = {start.k})",
        scale="expected",
        span=SPAN,
        moves=tuple(entries),
        extra={
            "n": start.n,
            "k": start.k,
            "values": "points for the player (-2..2); each bid's value is its expected points played for sure against "
            "the opponent's equilibrium mix at that state",
        },
    )
