"""Nim advice (and every heap game's): the Sprague-Grundy verdict of ``solvers.grundy.analyse`` as an ``Advice``.

Impartial games hide nothing and have no chance: every position is a proven win or loss for the player to move. The
moves listed are the winning ones (each a proven win); in a lost position, the move that holds out longest, with the
moves the game then lasts where the exact search could count them (``solvers.grundy``'s remoteness). A win's
distance is not computed by the solver, so a win comes without one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from core.impartial import HeapRule, format_heaps
from solvers.advice import Advice, MoveAdvice, Result

if TYPE_CHECKING:
    from solvers.advice.registry import Request
    from solvers.grundy import Analysis

__all__ = ["ENGINES", "advice_of", "advise"]

#: How ``solvers.grundy.analyse`` reached its verdict, in words.
ENGINES = {
    "sprague-grundy": "Sprague-Grundy values",
    "misere nim": "Bouton's misere rule",
    "search": "exact game-tree search",
}


def advise(heaps: Sequence[int], rule: HeapRule, misere: bool = False) -> Advice:
    """The advice for the player to move at ``heaps``; ``ValueError`` when there is no move (the game is over) or
    the exact search a position needs is beyond its limit."""
    from solvers.grundy import analyse

    return advice_of(analyse(heaps, rule, misere=misere), rule)


def advice_of(analysis: Analysis, rule: HeapRule) -> Advice:
    """The advice an analysis of the position (``solvers.grundy.analyse``) gives the player to move; ``ValueError``
    when there is no move (the game is over)."""
    misere = analysis.misere
    play = "misere" if misere else "normal"
    position = format_heaps(analysis.heaps)
    if not analysis.winning_moves and analysis.longest_move is None:
        winner = "the player to move wins (misere)" if misere else "the player to move has lost"
        raise ValueError(f"no move at {position}: the game is over, {winner}")
    details = [
        f"Grundy values {', '.join(map(str, analysis.grundy))}; nim-sum {analysis.nim_sum} ({play} play)",
    ]
    if misere and analysis.method != "sprague-grundy":
        how = "Bouton's misere rule" if analysis.method == "misere nim" else "an exact search of the game tree"
        details.append(f"misere play is decided by {how}; the Grundy values are those of normal play")
    result: Result
    plies: int | None
    if analysis.first_player_wins:
        lines = tuple(MoveAdvice(move.to_text(), 1.0, result="win") for move in analysis.winning_moves)
        details.append("every winning move leaves the opponent a lost position; the perfect player picks one at random")
        value, result, plies = 1.0, "win", None  # the solver counts a win's moves nowhere
    else:
        longest = analysis.longest_move
        assert longest is not None
        remoteness = analysis.remoteness
        note = "holds out longest" if remoteness is not None else "takes the fewest stones from the largest heap"
        lines = (MoveAdvice(longest.to_text(), -1.0, result="loss", plies=remoteness, note=note),)
        details.append("every move loses against perfect play; the one listed makes the game last longest")
        value, result, plies = -1.0, "loss", remoteness
    return Advice(
        game="nim",
        position=position,
        player=1,  # impartial: the advice is the player to move's, whoever that is
        engine=ENGINES.get(analysis.method, analysis.method),
        exact=True,
        best=lines[0].move,
        moves=lines,
        value=value,
        scale="outcome",
        result=result,
        plies=plies,
        details=tuple(details),
        extra={"rule": rule.text, "misere": misere, "grundy": list(analysis.grundy), "nim_sum": analysis.nim_sum},
    )


def from_request(request: Request) -> Iterator[Advice]:
    """The advice ``nashplay analyse nim`` gives (``solvers.advice.registry``): the Sprague-Grundy verdict, for
    positions within what the solver is asked (``solvers.grundy_limits``; ``RequestError`` names the option)."""
    from core.impartial import parse_heaps
    from solvers.advice.registry import RequestError
    from solvers.grundy_limits import MAX_HEAP, MAX_HEAPS, MAX_TAKE, longest_sequence

    heaps = parse_heaps(request.position)
    rule: HeapRule = request.value("rule")
    if not any(heaps):
        raise RequestError("there must be at least one stone to take")
    if len(heaps) > MAX_HEAPS:
        raise RequestError(f"at most {MAX_HEAPS} heaps, not {len(heaps):,}")
    largest, why = longest_sequence(rule)
    largest = min(MAX_HEAP, largest)
    if max(heaps) > largest:
        raise RequestError(f"heaps of at most {largest:,} stones{why}, not {max(heaps):,}")
    from solvers.grundy import max_take  # numpy: only once the cheap checks passed

    if (max_take(rule) or 0) > MAX_TAKE:
        raise RequestError(f"the {rule} takes more than {MAX_TAKE:,} stones at once", "--rule")
    yield advise(heaps, rule, request.value("misere"))
