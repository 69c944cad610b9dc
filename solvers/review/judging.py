"""What every game's judge shares: one entry built from the values of the moves, and the tick between moves.

A judge knows, for the position before a move, the mover's value of each move it can value (on the review's scale)
and the position's own value. From those this module makes the ``MoveReview``: the best moves (those within a tie
tolerance of the top value), the loss of the move played against the best one (a share of the range), and the
verdict. One rule for every game, so that a verdict means the same whatever judged it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.game import Side
from core.record import Record
from solvers.review import MoveReview, verdict_of

__all__ = ["Budget", "Tick", "clean", "judged", "players_of", "unjudged"]

#: Called by a judge after each entry it makes (``records.review_record`` turns it into the caller's progress and
#: its ``should_stop``); a judge that runs a long search also calls it with ``done=False`` between the search's
#: reports, so that a cancel does not wait for the move's whole budget.
Tick = Callable[[bool], None]


@dataclass(frozen=True)
class Budget:
    """What a search may spend on each move of a review: seconds, or a fixed depth (the same review on any machine),
    and the seed of its tie-breaks. The solved games' reviews need none and read none."""

    time: float | None = None
    depth: int | None = None
    seed: int = 0


def clean(value: float) -> float:
    """A value as the review shows it: rounded far below any difference that matters (so that an equilibrium's
    1e-15 noise does not print), never ``-0.0``."""
    return round(float(value), 12) + 0.0


def judged(
    *,
    ply: int,
    player: int,
    move: str,
    position: str,
    before: float,
    values: Mapping[str, float],
    span: float,
    tie: float | None = 1e-9,
    best: Sequence[str] = (),
    note: str = "",
    extra: dict[str, Any] | None = None,
) -> MoveReview:
    """The entry of ``move`` (which ``values`` must value) from the values of the moves the judge could value.

    ``best`` adds moves to the best ones (the search's own suggestion, say); otherwise the best are the moves within
    ``tie`` of the top value (``tie=None``: ``best`` alone names them, ranked by something finer than ``values``).
    The loss is measured from the top value; when that is not ``before`` (a value the position promised that no
    legal move keeps, or a search whose suggestion is not its top value) it is kept in ``extra["best_value"]``,
    where ``Review.loss`` reads it.
    """
    top = max(values.values())
    near = [] if tie is None else [m for m, v in values.items() if v >= top - tie]
    chosen = tuple(dict.fromkeys([*near, *best]))
    after = values[move]
    loss = max(0.0, (top - after) / span) if span else 0.0
    data = dict(extra or {})
    if abs(top - before) > 1e-12:
        data["best_value"] = clean(top)
    return MoveReview(
        ply=ply,
        player=player,
        move=move,
        position=position,
        value_before=clean(before),
        value_after=clean(after),
        best=chosen,
        verdict=verdict_of(loss, move in chosen),
        note=note,
        extra=data,
    )


def unjudged(
    *,
    ply: int,
    player: int,
    move: str,
    position: str,
    note: str,
    before: float | None = None,
    best: Sequence[str] = (),
    extra: dict[str, Any] | None = None,
) -> MoveReview:
    """The entry of a move the judge cannot value: no verdict, and ``note`` says why."""
    return MoveReview(
        ply=ply,
        player=player,
        move=move,
        position=position,
        value_before=None if before is None else clean(before),
        value_after=None,
        best=tuple(best),
        verdict=None,
        note=note,
        extra=dict(extra or {}),
    )


def players_of(record: Record) -> dict[str, str]:
    """The players' names the record gives, by number (``"?"`` where it gives none)."""
    return {str(side.number): record.tags.get(f"Player{side.number}", "?") for side in Side}
