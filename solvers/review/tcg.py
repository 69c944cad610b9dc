"""The Twice Clap Game's review: each player's action in each round judged against the opponent's equilibrium mix.

Both players act at once, so a round gives two entries, one per player, each judged as the equilibrium adviser
(``solvers.advice.tcg``) values the actions: an action played for sure against the opponent's equilibrium mix at that
state (the continuation's value included) is worth what it is worth; the state's value is the player's equilibrium
value. No action is worth more than the state, and every action of the equilibrium's support is worth exactly that,
so the equilibrium player's actions are always ``best``. Values are the player's payoff, +1 a win and -1 a loss
(``2 * chance - 1`` of the adviser's chance to win; span 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.game import Game, Side
from core.record import Record
from core.tcg import TcgState
from solvers.review import MoveReview, Review
from solvers.review.judging import Budget, Tick, clean, judged, players_of

__all__ = ["review"]

#: A payoff from a loss (-1) to a win (+1).
SPAN = 2.0


def review(record: Record, states: Sequence[Game[Any, Any]], tick: Tick, budget: Budget) -> Review:
    from solvers.advice.tcg import advise
    from solvers.tcg import load_solution

    start = states[0]
    assert isinstance(start, TcgState)
    solution = load_solution(start.n)[0]
    entries: list[MoveReview] = []
    for number, (before, recorded) in enumerate(zip(states, record.moves, strict=False), start=1):
        assert isinstance(before, TcgState)
        joint = before.parse_action(recorded.text)
        i1, i2 = before.points
        for side, action in zip(Side, joint, strict=True):
            advice = advise(solution, i1, i2, side)
            values = {line.move: 2.0 * (line.value or 0.0) - 1.0 for line in advice.moves}
            mix = {line.move: clean(line.probability or 0.0) for line in advice.moves}
            entries.append(
                judged(
                    ply=number,
                    player=side.number,
                    move=action.value,
                    position=before.state_text,
                    before=2.0 * (advice.value or 0.0) - 1.0,
                    values=values,
                    span=SPAN,
                    extra={"probability": mix[action.value], "mix": mix},
                )
            )
            tick(True)
    return Review(
        game="tcg",
        players=players_of(record),
        plies=len(record.moves),
        engine=f"equilibrium (exact, n = {start.n})",
        scale="expected",
        span=SPAN,
        moves=tuple(entries),
        extra={
            "n": start.n,
            "values": "the player's payoff (+1 a win, -1 a loss); each action's value is its payoff played for sure "
            "against the opponent's equilibrium mix at that state",
        },
    )
