"""Goofspiel's review: each player's bid in each round judged against the opponent's equilibrium mix.

As in the Twice Clap Game's review (``solvers.review.tcg``), a round gives two entries, one per player, each judged
as the equilibrium adviser (``solvers.advice.goofspiel``) values the bids: a card bid for sure against the
opponent's equilibrium mix at that position (the rounds after it played by the equilibrium) is worth what it is
worth; the position's value is the player's equilibrium value. Every card of the equilibrium's support is worth
exactly that, so the equilibrium player's bids are always ``best``. Values are the player's expected result, +1 a
win and -1 a loss (span 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.game import Game, Side
from core.goofspiel import GoofspielState
from core.record import Record
from solvers.review import MoveReview, Review
from solvers.review.judging import Budget, Tick, clean, judged, players_of

__all__ = ["review"]

#: A result from a loss (-1) to a win (+1).
SPAN = 2.0


def review(record: Record, states: Sequence[Game[Any, Any]], tick: Tick, budget: Budget) -> Review:
    from solvers.advice.goofspiel import advise
    from solvers.goofspiel import solve_position

    start = states[0]
    assert isinstance(start, GoofspielState)
    entries: list[MoveReview] = []
    for number, (before, recorded) in enumerate(zip(states, record.moves, strict=False), start=1):
        assert isinstance(before, GoofspielState)
        bids = before.parse_action(recorded.text)
        solution = solve_position(before.position)
        for side, bid in zip(Side, bids, strict=True):
            advice = advise(solution, side)
            values = {line.move: line.value or 0.0 for line in advice.moves}
            mix = {line.move: clean(line.probability or 0.0) for line in advice.moves}
            entries.append(
                judged(
                    ply=number,
                    player=side.number,
                    move=str(bid),
                    position=before.state_text,
                    before=advice.value or 0.0,
                    values=values,
                    span=SPAN,
                    extra={"probability": mix[str(bid)], "mix": mix},
                )
            )
            tick(True)
    return Review(
        game="goofspiel",
        players=players_of(record),
        plies=len(record.moves),
        engine=f"equilibrium (exact, N = {start.cards})",
        scale="expected",
        span=SPAN,
        moves=tuple(entries),
        extra={
            "cards": start.cards,
            "values": "the player's expected result (+1 a win, -1 a loss); each card's value is its result bid for "
            "sure against the opponent's equilibrium mix at that position",
        },
    )
