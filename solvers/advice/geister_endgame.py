"""Geister advice from the endgame tables, once each side is down to one blue and one red piece.

``solvers.geister.tablebase`` says what is exact for the player (a win nothing can stop, a loss nothing can prevent,
with the plies to it). Where the position itself has an exact result, the advice is the tables' alone (``exact``: "win
in 3, exact"), with every move's result; where it has none, the search's advice stands, and the tables only add
what they prove of single moves (a move after which the opponent has a sure win is a loss, exactly) and a line
saying that they see no forced result. Either way ``extra["tablebase"]`` marks that the game is in the tables (the
app marks the evaluation bar).
"""

from __future__ import annotations

import dataclasses

from core.errors import InvalidPositionError
from core.geister import GeisterView
from solvers.advice import Advice, MoveAdvice
from solvers.geister.endgame_lines import build_endgame_line
from solvers.geister.tablebase import Judgement, MoveJudgement, TableResult

__all__ = ["ENGINE", "exact_advice", "with_tables"]

ENGINE = "endgame tables (exact)"

_WHY = {
    "sure": "your blue gets out whatever their colours and moves",
    "perfect": "every colour is known (their red stood on its exit)",
    "rules": "the rules decide it now",
}
_WHY_LOSS = {
    "sure": "their blue gets out whichever of their pieces it is, whatever you do",
    "perfect": "every colour is known to both sides, and they force it",
    "rules": "the rules decide it now",
}


def _chance(result: TableResult | None) -> float | None:
    if result is None:
        return None
    return {"win": 1.0, "loss": 0.0, "draw": 0.5}[result.result]


def _line(item: MoveJudgement) -> MoveAdvice:
    result = item.result
    forced = ""
    if item.move.dst is None:
        forced = "escapes now: a win"
    elif result is None and item.note:
        forced = item.note  # a capture of a hidden piece: said, never hidden in a list
    elif result is not None and result.result == "loss" and result.plies == 1:
        forced = "loses at once: it takes their red"
    note = "" if result is None else f"exact ({result.source} table)" if result.source != "rules" else "exact"
    return MoveAdvice(
        str(item.move),
        _chance(result),
        None,
        None if result is None else result.result,
        None if result is None else result.plies,
        forced,
        note,
    )


def _rank(line: MoveAdvice) -> tuple[int, int]:
    """Wins fastest first, then moves the tables do not decide, draws, and losses slowest first."""
    plies = line.plies or 0
    if line.result == "win":
        return (0, plies)
    if line.result is None:
        return (1, 0)
    if line.result == "draw":
        return (2, 0)
    return (3, -plies)


def _summary(here: TableResult) -> str:
    if here.result == "win":
        return f"Endgame tables: win in {here.plies}, exact: {_WHY[here.source]}"
    if here.result == "loss":
        return f"Endgame tables: loss in {here.plies} at most, exact: {_WHY_LOSS[here.source]}"
    return "Endgame tables: a draw (endless play), exact: every colour is known and neither side can force a win"


def exact_advice(view: GeisterView, judgement: Judgement) -> Advice:
    """The tables' advice where the position has an exact result (``judgement.here``)."""
    here = judgement.here
    assert here is not None, "exact_advice needs a position with an exact result"
    lines = sorted((_line(item) for item in judgement.moves), key=_rank)
    best_move = judgement.best
    best = str(best_move) if best_move is not None else (lines[0].move if lines else "")
    lines.sort(key=lambda line: (_rank(line), line.move != best))
    blue: tuple[tuple[str, float], ...] = ()
    if judgement.their_blue is not None:
        blue = tuple(
            (str(square), 1.0 if square == judgement.their_blue else 0.0)
            for square, _ in view.pieces(view.viewer.other)
        )
    return Advice(
        game=view.variant.name,
        position=view.position(),
        player=view.viewer.number,
        engine=ENGINE,
        line=_sure_win(view, best) if here.result == "win" else (),
        exact=True,
        best=best,
        moves=tuple(lines),
        value=_chance(here),
        scale="chance",
        result=here.result,
        plies=here.plies,
        details=(_summary(here),),
        blue=blue,
        extra={"tablebase": here.source},
    )


def _sure_win(view: GeisterView, best: str) -> tuple[str, ...]:
    """The tables' line of a sure win from ``view`` (their fastest moves, the longest-lasting replies, to the escape),
    when it starts with ``best``; else none."""
    try:
        steps = build_endgame_line(view.position(), view.viewer).steps
    except InvalidPositionError:
        return ()
    line = tuple(move for _, move, _, _ in steps)
    return line if line and line[0] == best else ()


def with_tables(advice: Advice, judgement: Judgement) -> Advice:
    """The search's ``advice`` where the position has no exact result: each move the tables decide gets their
    exact result, the moves they prove lost go last (and are not suggested while another move is not), and a line
    says the tables see no forced result."""
    lines = []
    for line in advice.moves:
        result = next((item.result for item in judgement.moves if str(item.move) == line.move), None)
        if result is not None and line.result is None:
            line = dataclasses.replace(
                line, value=_chance(result), result=result.result, plies=result.plies, note=f"exact ({result.source})"
            )
        lines.append(line)
    lines.sort(key=lambda line: line.result == "loss")  # stable: the search's order stays among the rest
    best = advice.best
    best_line = next((line for line in lines if line.move == best), None)
    if best_line is not None and best_line.result == "loss" and lines[0].result != "loss":
        best_line = lines[0]
        best = best_line.move
    details = (*advice.details, "Endgame tables: no forced result for either side (exact); the search decides")
    return dataclasses.replace(
        advice,
        best=best,
        line=advice.line if advice.line[:1] == (best,) else (best,),
        moves=tuple(lines),
        value=advice.value if best_line is None else best_line.value,
        result=advice.result if best_line is None else best_line.result,
        plies=advice.plies if best_line is None else best_line.plies,
        details=details,
        extra={**advice.extra, "tablebase": "no forced result"},
    )
