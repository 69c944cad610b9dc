"""Geister's review: each move judged by the strongest search, from the mover's own view, at a budget per move.

Geister is not solved, so each position before a move is given to the catalogue's strongest player's search
(``solvers.advice.geister.analyse``, which hands a position the endgame tables cover to them instead) exactly as the
live advice does: with the mover's view (``GeisterState.view``: the mover's own colours, the opponent's unknown but
for what captures revealed), never the record's hidden colours, so the review judges a move on what its player could
know. Each side has its own player, as in a game (its search keeps its tables from one of its moves to the next), and
each move its own generator seeded from the review's seed and the ply, so a fixed-depth review is the same on any
machine and a side's entries depend on nothing the other side hid.

Values are the mover's chance to win (0..1, span 1), as the advice gives them: the position's before the move, and the
move played's from the same search's list; the loss and the verdict come from them. The best moves are ranked by the
search's own values, finer than the chances (which read mostly the pieces left, so that most quiet moves share
one): those within ``SCORE_TIE`` of the top one, and the search's own suggestion. A move the search gave no value
(a capture held back because it may take the last red, which the search values only if every other move is as
bad) is not judged, and the note says so.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from core.game import Game, Side
from core.geister import Colour, GeisterState
from core.notation import Move
from core.record import Record
from solvers.players import Limit
from solvers.review import DEFAULT_TIME, MoveReview, Review
from solvers.review.judging import Budget, Tick, judged, players_of, unjudged

if TYPE_CHECKING:
    from solvers.advice import Advice

__all__ = ["SPAN", "TIE", "review"]

#: Chances run from 0 to 1.
SPAN = 1.0
#: Moves whose chance is within this of the top one are among the best: the chance model cannot tell them apart.
TIE = 0.005
#: Search values (thousandths of a blue piece) this close to the top one are among the best moves.
SCORE_TIE = 10
#: How often (seconds) a timed search comes back to Python: the cancel and Ctrl-C are heard that often.
SLICE_SECONDS = 0.25


def review(record: Record, states: Sequence[Game[Any, Any]], tick: Tick, budget: Budget) -> Review:
    from solvers.catalogue import advising_player, make_player

    name = advising_player("geister").name
    players = {side: make_player(name, "geister") for side in Side}
    seed = budget.seed
    if budget.depth is not None:
        limit, spent = Limit(iterations=budget.depth), f"depth {budget.depth}"
    else:
        seconds = DEFAULT_TIME if budget.time is None else budget.time
        limit, spent = Limit(time=seconds, slice_seconds=SLICE_SECONDS), f"{seconds:g} s a move"
    entries: list[MoveReview] = []
    for ply, (before, recorded) in enumerate(zip(states, record.moves, strict=False), start=1):
        assert isinstance(before, GeisterState)
        move = Move.parse(recorded.text).to_text()
        entries.append(_entry(ply, before, move, players[before.to_move], limit, seed, tick))
        tick(True)
    return Review(
        game="geister",
        players=players_of(record),
        plies=len(record.moves),
        engine=f"{name} search, {spent}",
        scale="chance",
        span=SPAN,
        moves=tuple(entries),
        extra={
            "values": "the mover's chance to win as the search sees it from the mover's view (1 a proven win, 0 a "
            "proven loss; otherwise an estimate)",
            "limit": {"time": None, "depth": budget.depth}
            if budget.depth is not None
            else {"time": limit.time, "depth": None},
            "seed": seed,
        },
    )


def _entry(ply: int, before: GeisterState, move: str, player: Any, limit: Limit, seed: int, tick: Tick) -> MoveReview:
    from solvers.advice.geister import analyse

    mover = before.to_move
    view = before.view(mover)
    position = view.position()
    if any(piece.colour is Colour.UNKNOWN for _, piece in view.pieces(mover)):
        note = "the record hides this player's colours, which the search needs: not judged"
        return unjudged(ply=ply, player=mover.number, move=move, position=position, note=note)
    rng = random.Random(f"{seed}:{ply}")
    reports: list[Advice] = []
    for report in analyse(view, limit, rng, player):
        reports.append(report)
        tick(False)  # between the search's reports: a cancel need not wait for the whole budget
    # The last report that values the move played: a timed search whose budget ran out inside an iteration lists
    # only the moves that iteration finished, and then the iteration before (every move, one ply shallower) judges
    # it. Every value compared comes from one report, so from one depth.
    advice = next((r for r in reversed(reports) if any(m.move == move and m.value is not None for m in r.moves)), None)
    advice = advice or reports[-1]
    values = {line.move: float(line.value) for line in advice.moves if line.value is not None}
    extra: dict[str, Any] = {"engine": advice.engine}
    if "depth" in advice.extra:
        extra["depth"] = advice.extra["depth"]
    before_value = advice.value if advice.value is not None else max(values.values(), default=None)
    if move not in values or before_value is None:
        line = next((line for line in advice.moves if line.move == move), None)
        why = line.forced if line is not None and line.forced else "the search did not value it"
        return unjudged(
            ply=ply,
            player=mover.number,
            move=move,
            position=position,
            note=f"not judged: {why}",
            before=before_value,
            best=[advice.best],
            extra=extra,
        )
    scores: dict[str, int] = advice.extra.get("scores", {})
    best = [advice.best] if advice.best else []
    if scores:  # ranked by the search's values; a proven result or an escape (not searched) by its chance
        top = max(scores.values())
        best += [m for m, score in scores.items() if score >= top - SCORE_TIE]
        best += [line.move for line in advice.moves if line.result == "win" and line.plies == 1]
    return judged(
        ply=ply,
        player=mover.number,
        move=move,
        position=position,
        before=before_value,
        values=values,
        span=SPAN,
        tie=None if scores else TIE,
        best=best,
        extra=extra,
    )
