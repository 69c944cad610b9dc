"""Solved lines of the heap games (Nim, subtraction games, octal games; normal or misere play): perfect play, the
winner hurrying and the loser holding out.

The player to move at the start wins or loses by the solver (``solvers.grundy``); the winner plays a winning move (to
a position lost for the player to move: Grundy value 0 in normal play), and among them the one after which the game
ends soonest; the loser plays the move that makes the game last longest. The moves left are the position's
remoteness (Steinhaus: the winner's fewest moves against the loser's most), computed by the solver's exact search of
the game tree; along the line it drops by exactly one a move, to 0 when the loser cannot move (normal play) or the
winner cannot (misere). Each step carries the Grundy values of the heaps and their nim-sum (normal play's, also
shown in misere play, where the winner follows Bouton's rule or the exact search instead).

The exact search is bounded (``SEARCH_LIMIT`` positions generated): bigger heaps are refused with
``LineTooLongError``, before any line is built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import reduce
from operator import xor
from typing import Any

from core.game import Side
from core.impartial import HeapGameState, HeapMove, HeapRule, format_heaps, heap_moves, heaps_after
from solvers.grundy import GrundyTable, SearchTooLargeError
from solvers.grundy import PositionSearch as Search  # the exact search: wins and remoteness of any position
from solvers.lines import GameLine, LineStep, LineTooLongError, game_line

__all__ = ["SEARCH_LIMIT", "nim_from_values", "nim_line"]

#: The most positions the exact search may generate for one line (about 4 microseconds each: a second at most).
SEARCH_LIMIT = 250_000


def nim_from_values(values: Mapping[str, Any], seed: int | None, tell: Callable[[str], None] | None = None) -> GameLine:
    """``nim_line`` for the game's parameters (``core.impartial``'s descriptor): perfect play draws nothing."""
    return nim_line(tuple(values["heaps"]), values["rule"], bool(values["misere"]))


def nim_line(heaps: tuple[int, ...], rule: HeapRule, misere: bool = False, limit: int = SEARCH_LIMIT) -> GameLine:
    """The line of perfect play from ``heaps`` under ``rule``: ``ValueError`` where the game is over at once, and
    ``LineTooLongError`` where the exact search would generate more than ``limit`` positions."""
    state = HeapGameState(heaps, rule, misere)
    if state.is_terminal():
        raise ValueError(f"no move at {state.heaps_text}: the game is over before it starts")
    search = Search(rule, misere, limit)
    try:
        total = search.remoteness(state.heaps)
        mover_wins = search.wins(state.heaps)
    except (SearchTooLargeError, RecursionError):
        raise LineTooLongError(
            f"the heaps {clipped_heaps(state.heaps)} are too big for an exact line: the search would look at more "
            f"than {limit:,} positions; give smaller heaps"
        ) from None
    winner = Side.P1 if mover_wins else Side.P2
    table = GrundyTable.build(rule, max(state.heaps) + 1)
    figures: list[LineStep] = []
    while not state.is_terminal():
        before = state.heaps
        wins = search.wins(before)
        move = _hurry(search, before, rule) if wins else _hold_out(search, before, rule)
        left = search.remoteness(before)
        state.apply(move)
        after = state.heaps
        figures.append(_step(state.to_move.other, move, before, after, left, wins, table, misere))
    assert len(figures) == total, "the remoteness counts the moves of this very line"
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is winner
    kind = "misere" if misere else "normal"
    header = f"{'player':<9} {'move':<9} {'heaps after':<14} {'Grundy after':<14} {'nim-sum':<8} moves left"
    return game_line(
        key="perfect",
        title=f"{rule} ({kind} play), perfect play: {winner} wins",
        state=state,
        analysed=winner,
        rule=f"{rule.text}, {kind} play",
        tags={"Event": "Solved line: perfect play", "Player1": "perfect", "Player2": "perfect"},
        figures=figures,
        ending=str(outcome),
        header=header,
        data={"heaps": list(heaps), "rule": rule.text, "misere": misere, "winner": winner.number, "moves": total},
    )


def clipped_heaps(heaps: tuple[int, ...]) -> str:
    """The heaps as text, the first few only: a refusal stays one short line."""
    text = format_heaps(heaps[:8])
    return text + (",..." if len(heaps) > 8 else "")


def _hurry(search: Search, heaps: tuple[int, ...], rule: HeapRule) -> HeapMove:
    """The winning move after which the game ends soonest (the first such in ``heap_moves`` order)."""
    winning = [m for m in heap_moves(heaps, rule) if not search.wins(heaps_after(heaps, m))]
    return min(winning, key=lambda m: search.remoteness(heaps_after(heaps, m)))


def _hold_out(search: Search, heaps: tuple[int, ...], rule: HeapRule) -> HeapMove:
    """The losing move after which the game lasts longest (the first such in ``heap_moves`` order)."""
    return max(heap_moves(heaps, rule), key=lambda m: search.remoteness(heaps_after(heaps, m)))


def _step(
    mover: Side,
    move: HeapMove,
    before: tuple[int, ...],
    after: tuple[int, ...],
    left: int,
    wins: bool,
    table: GrundyTable,
    misere: bool,
) -> LineStep:
    grundy = [table(h) for h in after]
    nim_sum = reduce(xor, grundy, 0)
    remaining = left - 1
    moves = f"{remaining} move{'' if remaining == 1 else 's'} left"
    if wins:
        role = "winner"
        if misere:  # the nim-sum is normal play's: misere play is decided by Bouton's rule or the exact search
            words = f"to a lost position for {mover.other} (misere play; the nim-sum is {nim_sum}); {moves}"
        else:
            words = f"to nim-sum 0: a lost position for {mover.other}; {moves}"
    else:
        role = "loser"
        words = f"holds out longest (nim-sum {nim_sum} for {mover.other}); {moves}"
    values = ",".join(map(str, grundy))
    row = f"{mover!s:<9} {move.to_text():<9} {format_heaps(after):<14} {values:<14} {nim_sum:<8} {remaining}  {role}"
    data: dict[str, object] = {
        "heaps": format_heaps(after),
        "grundy": grundy,
        "nim_sum": nim_sum,
        "left_after": remaining,
        "role": role,
    }
    return LineStep(str(mover), move.to_text(), format_heaps(before), left, row, words, data)
