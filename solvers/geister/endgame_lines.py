"""Solved lines of Geister endings (``solvers.geister.tablebase``): a sure win played out, as a replayable record.

The side with the sure win (its own colours known, the opponent's hidden from it) plays the tables' fastest move;
the opponent answers with the quiet reply after which the win takes longest (what the tables say of each); the line
ends with the escape. The opponent's colours stay hidden in the record (``u``): the winner never needs them, and a
line shows nothing its winner did not know. The comments count the plies down.
"""

from __future__ import annotations

from core.errors import InvalidPositionError
from core.game import Side
from core.geister import Colour, GeisterState
from core.geister_board import hide_colours
from core.notation import Move
from core.record import Record
from solvers.geister.endgame import covers
from solvers.geister.tablebase import judge
from solvers.mini_geister.lines import SolvedLine

__all__ = ["build_endgame_line"]

#: Far more plies than any sure win on 6x6 takes (19): a guard, never reached by a sound table.
MAX_PLIES = 200


def build_endgame_line(position: str, winner: Side | None = None) -> SolvedLine:
    """The sure-win line from ``position`` (a 6x6 Geister ending: one blue and one red a side) for ``winner``
    (default: the side to move), whose colours the position must give. ``InvalidPositionError`` where the tables do
    not cover the position or prove no sure win for that side."""
    given = GeisterState.from_position(position, "geister")
    side = given.to_move if winner is None else winner
    if not covers(given):
        raise InvalidPositionError("the endgame tables cover 6x6 positions with one blue and one red a side")
    if {p.colour for _, p in given.pieces() if p.side is side} != {Colour.BLUE, Colour.RED}:
        raise InvalidPositionError(
            f"{side}'s colours are needed (its blue and its red: it plays by them); or name the other side with --for"
        )
    # The opponent's colours hidden: the winner plays without them.
    state = GeisterState.from_position(hide_colours(given.position(), side), given.variant)
    first = judge(state.view(side))
    if first is None or first.here is None or first.here.result != "win":
        raise InvalidPositionError(f"{side} has no sure win here (one that no colouring or play of theirs can stop)")
    steps: list[tuple[str, str, int, str | None]] = []
    distance = first.here.plies or 0
    comments: list[str] = []
    for _ in range(MAX_PLIES):
        mover = state.to_move
        move = _winner_move(state, side) if mover is side else _longest_reply(state, side)
        event = "escape" if move.dst is None else None
        steps.append((str(mover), move.to_text(), distance, event))
        left = distance - 1
        comments.append(f"{left} {'ply' if left == 1 else 'plies'} to {side}'s escape" if left else "escapes: a win")
        state.push(move)
        distance = left
        if state.is_terminal():
            break
    else:  # pragma: no cover - the tables' distances count down to the escape
        raise AssertionError("the sure-win line did not end")
    tags = {"Player1": "endgame tables", "Player2": "endgame tables", "Event": "Solved line: a sure win"}
    record = Record.from_game(state, tags)
    for recorded, comment in zip(record.moves, comments, strict=True):
        recorded.comment = comment
    title = f"{side}'s sure win, by the endgame tables"
    return SolvedLine("position", title, state.start_position or position, side, "sure", len(steps), record, steps)


def _winner_move(state: GeisterState, side: Side) -> Move:
    judgement = judge(state.view(side))
    assert judgement is not None and judgement.best is not None
    return judgement.best


def _longest_reply(state: GeisterState, side: Side) -> Move:
    """The opponent's quiet move after which the sure win takes longest (captures and escapes are no reply: a sure
    win leaves it none that helps)."""
    best: tuple[int, Move] | None = None
    for move in state.legal_moves():
        if move.dst is None or state.piece_at(move.dst) is not None:
            continue
        after = state.clone()
        after.push(move)
        seen = judge(after.view(side))
        plies = 0 if seen is None or seen.here is None else seen.here.plies or 0
        if best is None or plies > best[0]:
            best = (plies, move)
    assert best is not None, "a sure win leaves the opponent a quiet move or none at all"
    return best[1]
