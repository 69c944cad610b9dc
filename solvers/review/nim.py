"""Nim's review (and every heap game's): each move judged exactly by ``solvers.grundy.analyse``.

Impartial games hide nothing and have no chance, so every position is a proven win or loss for the player to move
(the outcome scale: +1 a win, -1 a loss, span 2). The analysis of the position before a move lists every winning move
(those that leave the opponent a lost position: in normal play, a nim-sum of 0), so the move played is worth +1 if it
is one of them and -1 otherwise, and no position after a move needs analysing. In a lost position every move loses
and all are equally good: the best listed is the one that holds out longest (the advice's), and any move is ``best``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.game import Game
from core.impartial import HeapGameState, heaps_after
from core.record import Record
from solvers.review import Review
from solvers.review.judging import Budget, Tick, judged, players_of

__all__ = ["review"]

#: The outcome scale's width: a loss (-1) to a win (+1).
SPAN = 2.0


def review(record: Record, states: Sequence[Game[Any, Any]], tick: Tick, budget: Budget) -> Review:
    from solvers.advice.nim import ENGINES
    from solvers.grundy import GrundyTable, analyse

    start = states[0]
    assert isinstance(start, HeapGameState)
    rule, misere = start.rule, start.misere
    # One table for the whole game: every later position has smaller heaps.
    table = GrundyTable.build(rule, max(start.heaps, default=0) + 1)
    entries = []
    methods: list[str] = []
    for ply, (before, recorded) in enumerate(zip(states, record.moves, strict=False), start=1):
        assert isinstance(before, HeapGameState)
        move = before.parse_action(recorded.text)
        text = before.format_action(move)
        analysis = analyse(before.heaps, rule, misere, table)
        methods.append(analysis.method)
        winning = [m.to_text() for m in analysis.winning_moves]
        if analysis.first_player_wins:
            values = dict.fromkeys(winning, 1.0)
            note = ""
        else:
            longest = analysis.longest_move
            values = {} if longest is None else {longest.to_text(): -1.0}
            note = "every move loses against perfect play; the best listed holds out longest"
        values.setdefault(text, 1.0 if text in winning else -1.0)
        after = heaps_after(before.heaps, move)
        nim_sum_after = 0
        for heap in after:
            nim_sum_after ^= table(heap)
        entries.append(
            judged(
                ply=ply,
                player=before.to_move.number,
                move=text,
                position=before.heaps_text,
                before=1.0 if analysis.first_player_wins else -1.0,
                values=values,
                span=SPAN,
                note=note,
                extra={"nim_sum": analysis.nim_sum, "nim_sum_after": nim_sum_after},
            )
        )
        tick(True)
    method = max(set(methods), key=methods.count) if methods else ("misere nim" if misere else "sprague-grundy")
    return Review(
        game="nim",
        players=players_of(record),
        plies=len(record.moves),
        engine=ENGINES.get(method, method),
        scale="outcome",
        span=SPAN,
        moves=tuple(entries),
        extra={
            "rule": rule.text,
            "misere": misere,
            "values": "the mover's: +1 a proven win, -1 a proven loss (nim-sums are of normal play's Grundy values)",
        },
    )


def beyond_limits(state: Game[Any, Any]) -> str | None:
    """Why a record's heaps are beyond what the Sprague-Grundy solver takes (``GameType.review_check``), or
    ``None``: read from the tags, before anything is solved."""
    from solvers.grundy_limits import MAX_HEAP, MAX_HEAPS, MAX_TAKE, longest_sequence

    assert isinstance(state, HeapGameState)
    heaps, rule = state.heaps, state.rule
    if len(heaps) > MAX_HEAPS:
        return f"the record's Nim has {len(heaps):,} heaps: the review takes at most {MAX_HEAPS}"
    largest, why = longest_sequence(rule)
    largest = min(MAX_HEAP, largest)
    if max(heaps, default=0) > largest:
        return f"the record's Nim has a heap of {max(heaps):,} stones: at most {largest:,}{why}"
    from solvers.grundy import max_take  # numpy: only once the record is read

    if (max_take(rule) or 0) > MAX_TAKE:
        return f"the record's {rule} takes more than {MAX_TAKE:,} stones at once"
    return None
