"""Mini-Geister's review (the 2-vs-2 game and the section-6 3-vs-2 variants): each move judged by the advice's own
numbers (``solvers.advice.mini_geister``), from the mover's view.

Values are the mover's expected result (+1 a win, 0 a draw or endless play, -1 a loss), as the advice gives them:
exact where the two sides' table guarantees meet (0 at the start: each side can force a coin flip), the middle of
the range they leave otherwise, +1 and -1 only for proven results. Since one side's value is the other's negated,
the values of a game do not swing from ply to ply unless something happened (a guarantee given away, or a piece
whose colour its owner knows standing where it matters). The loss of a move is the share of the value range (2) it
gave away against the best move: a move that lets the opponent force its event, where another kept the mover's
forcing, drops from 0 to the middle of -1 and 0, a quarter of the range (a blunder). Moves of equal value are told
apart by what the mover's table says after them, as the advice ranks them: a move that gives up the mover's forcing
for endless play keeps the value but is not one of the best (``~`` in the review's marks).

Past the 3-vs-2 tables (after a capture) the advice is the search's, at its fixed depth (``SEARCH_DEPTH``, or the
review's ``--depth``) and seed, so a review is the same on any machine; its values are estimates and the note says
so. A move whose mover's colours the record hides is not judged. Whenever the record reveals every colour, each
entry also carries the perfect-information values (``perfect_before``, ``perfect_after``): what the position was
worth with everything known, as data beside the judgement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import InvalidPositionError
from core.game import Game
from core.geister import Colour, GeisterState
from core.notation import Move
from core.record import Record
from solvers.mini_geister.model import Rule
from solvers.review import MoveReview, Review
from solvers.review.judging import Budget, Tick, clean, judged, players_of, unjudged

__all__ = ["review"]

#: The expected result runs from -1 to +1.
SPAN = 2.0
#: The 2-vs-2 game's name (the others are 3-vs-2 variants).
TWO_VS_TWO = "mini-geister"
#: The 2-vs-2 table rule that ranks moves of equal value: the paper's base rule (the values use both rules).
RULE: Rule = "base"
#: Moves whose searched values are this close are equally good.
TIE = 1e-9


def review(record: Record, states: Sequence[Game[Any, Any]], tick: Tick, budget: Budget) -> Review:
    from solvers.advice.mini_geister import SEARCH_DEPTH

    game = record.tags["Game"]
    depth = budget.depth if budget.depth is not None else SEARCH_DEPTH
    entries: list[MoveReview] = []
    for ply, (before, recorded) in enumerate(zip(states, record.moves, strict=False), start=1):
        assert isinstance(before, GeisterState)
        entries.append(_entry(game, ply, before, Move.parse(recorded.text).to_text(), depth))
        tick(True)
    if game == TWO_VS_TWO:
        engine = f"solved tables ({RULE} rule)"
    else:
        engine = f"solved tables (section 6), and past them the search to depth {depth}"
    return Review(
        game=game,
        players=players_of(record),
        plies=len(record.moves),
        engine=engine,
        scale="expected",
        span=SPAN,
        moves=tuple(entries),
        extra={
            "rule": RULE if game == TWO_VS_TWO else "section 6",
            "values": "the mover's expected result (+1 a win, 0 a draw or endless play, -1 a loss): exact where the "
            "two sides' table guarantees meet, else the middle of the range they leave; past the 3-vs-2 tables, the "
            "search's estimate",
            "limit": {"time": None, "depth": depth},
        },
    )


def _entry(game: str, ply: int, before: GeisterState, move: str, depth: int) -> MoveReview:
    from solvers.advice.mini_geister import advise

    mover = before.to_move
    view = before.view(mover)
    position = view.position()
    extra: dict[str, Any] = {}
    perfect = _perfect_values(before) if _colours_known(before) else None
    if perfect is not None:
        after = perfect[1].get(move)
        extra = {"perfect_before": clean(perfect[0]), "perfect_after": None if after is None else clean(after)}
    if any(piece.colour is Colour.UNKNOWN for _, piece in view.pieces(mover)):
        note = "the record hides this player's colours, which the advice needs: not judged"
        return unjudged(ply=ply, player=mover.number, move=move, position=position, note=note, extra=extra)
    try:
        advice = advise(position, game, player=mover, rule=RULE, depth=depth)
    except InvalidPositionError as error:
        return unjudged(ply=ply, player=mover.number, move=move, position=position, note=str(error), extra=extra)
    values = {line.move: line.value for line in advice.moves if line.value is not None}
    searched = bool(advice.extra.get("searched"))
    note = f"past the solved tables: searched to depth {depth}, not proven" if searched else ""
    line = next((line for line in advice.moves if line.move == move), None)
    if move not in values or advice.value is None:
        why = line.forced if line is not None and line.forced else "the advice did not value it"
        return unjudged(
            ply=ply,
            player=mover.number,
            move=move,
            position=position,
            note=f"not judged: {why}",
            before=advice.value,
            best=[advice.best] if advice.best else [],
            extra=extra,
        )
    if line is not None and line.probability is not None:
        extra["probability"] = line.probability
    best_moves = advice.extra.get("best_moves")
    best = list(best_moves) if isinstance(best_moves, list) else [advice.best]
    return judged(
        ply=ply,
        player=mover.number,
        move=move,
        position=position,
        before=float(advice.value),
        values={name: float(value) for name, value in values.items()},
        span=SPAN,
        tie=TIE if searched else None,
        best=best,
        note=note,
        extra=extra,
    )


def _colours_known(state: GeisterState) -> bool:
    return all(piece.colour is not Colour.UNKNOWN for _, piece in state.pieces())


def _perfect_values(state: GeisterState) -> tuple[float, dict[str, float]] | None:
    """With every colour known: the position's perfect-information value for the side to move and each legal move's
    (the outcome where the move ends the game); ``None`` beyond the perfect-information tables."""
    from solvers.mini_geister.analysis import perfect_information_value

    mover = state.to_move
    try:
        here = float(perfect_information_value(state).value)
        values: dict[str, float] = {}
        for move in state.legal_moves():
            after = state.clone()
            after.push(move)
            outcome = after.outcome()
            if outcome is not None:
                values[move.to_text()] = 0.0 if outcome.winner is None else 1.0 if outcome.winner is mover else -1.0
            else:
                values[move.to_text()] = -float(perfect_information_value(after).value)
    except InvalidPositionError:
        return None
    return here, values
