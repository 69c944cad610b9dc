"""What the moves of a Geister game tell a player about the opponent's hidden colours.

Hard evidence: an opponent piece that stood on one of its exits at its turn, and was not escaped with, is red
(a blue piece there wins at once by escaping; contest programs call it "proven red"). Soft evidence is the rest of
the opponent's moves, which ``solvers.belief`` weighs.

Everything is read from the view alone, by replaying its moves from its start without colours: which piece (by its
set-up slot) stood where at each of the opponent's turns.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from core.game import Side
from core.geister import GeisterState, GeisterView
from core.notation import Move, Square

__all__ = ["Turn", "opponent_turns", "proven_reds"]


@dataclass(frozen=True)
class Turn:
    """One of the opponent's turns: where its pieces stood (slot -> square), where ours stood, and its move."""

    mover: Side
    theirs: dict[int, Square]
    ours: dict[int, Square]
    move: Move
    #: The plies played before this turn.
    ply: int


def _first_mover(view: GeisterView) -> Side:
    return view.to_move if len(view.moves) % 2 == 0 else view.to_move.other


def opponent_turns(view: GeisterView) -> Iterator[Turn]:
    """Each turn the opponent has played, oldest first, with the placement it moved from."""
    them = view.viewer.other
    start = view.start if view.start is not None else view.variant.standard_start(_first_mover(view))
    # Colours play no part in where pieces stand: replay with every colour hidden.
    ranks, _, rest = start.partition(" ")
    state = GeisterState.from_position(f"{ranks.translate(str.maketrans('BRbr', 'UUuu'))} {rest}", view.variant)
    for move in view.moves:
        mover = state.to_move
        if mover is them:
            theirs = {piece.slot: square for square, piece in state.pieces() if piece.side is them}
            ours = {piece.slot: square for square, piece in state.pieces() if piece.side is not them}
            yield Turn(them, theirs, ours, move, state.ply)
        state.push(move)


def proven_reds(view: GeisterView) -> set[int]:
    """Slots of the opponent pieces still on the board that stood on one of its exits at its turn and were not
    escaped with: red, for any opponent that takes a win when it has one."""
    them = view.viewer.other
    exits = set(view.variant.exits[them])
    on_board = {piece.slot for _, piece in view.pieces(them)}
    red: set[int] = set()
    for turn in opponent_turns(view):
        for slot, square in turn.theirs.items():
            if square in exits:
                red.add(slot)
    # A piece the current position shows on its exit with the opponent to move has not had its chance yet.
    return red & on_board
