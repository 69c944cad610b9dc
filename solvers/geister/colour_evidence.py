"""What the moves of a Geister game tell a player about the opponent's hidden colours.

Hard evidence: an opponent piece that stood on one of its exits at its turn, and was not escaped with, is red
(a blue piece there wins at once by escaping; contest programs call it "proven red"). Soft evidence is the rest of
the opponent's moves, which ``solvers.geister.belief`` weighs.

Everything is read from the view alone, by replaying its moves from its start without colours: which piece (by its
set-up slot) stood where at each of the opponent's turns.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from core.game import Side
from core.geister import Colour, GeisterState, GeisterView
from core.notation import Move, Square

__all__ = ["Turn", "careless_captures", "exposed_reds", "opponent_turns", "proven_reds", "turns_of"]


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
    return turns_of(view, view.viewer.other)


def turns_of(view: GeisterView, mover: Side) -> Iterator[Turn]:
    """Each turn ``mover`` has played, oldest first, with the placement it moved from (``theirs`` are the mover's
    pieces, ``ours`` the other side's)."""
    start = view.start if view.start is not None else view.variant.standard_start(_first_mover(view))
    return (turn for turn in _turns(view.variant.name, start, view.moves) if turn.mover is mover)


@lru_cache(maxsize=8)
def _turns(variant_name: str, start: str, moves: tuple[Move, ...]) -> tuple[Turn, ...]:
    """Every turn of the game from ``start``, both sides' (cached: a player reads the same game several ways each
    decision, and replaying it is what costs)."""
    # Colours play no part in where pieces stand: replay with every colour hidden.
    ranks, _, rest = start.partition(" ")
    state = GeisterState.from_position(f"{ranks.translate(str.maketrans('BRbr', 'UUuu'))} {rest}", variant_name)
    turns = []
    for move in moves:
        mover = state.to_move
        theirs = {piece.slot: square for square, piece in state.pieces() if piece.side is mover}
        ours = {piece.slot: square for square, piece in state.pieces() if piece.side is not mover}
        turns.append(Turn(mover, theirs, ours, move, state.ply))
        state.push(move)
    return tuple(turns)


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


def exposed_reds(view: GeisterView) -> set[int]:
    """Slots of the viewer's own pieces on the board that the opponent knows to be red: the viewer's ``proven_reds``
    as the opponent sees them (each stood on one of the viewer's exits at the viewer's turn and did not escape)."""
    me = view.viewer
    exits = set(view.variant.exits[me])
    on_board = {piece.slot for _, piece in view.pieces(me)}
    red: set[int] = set()
    for turn in turns_of(view, me):
        red.update(slot for slot, square in turn.theirs.items() if square in exits)
    return red & on_board


def careless_captures(view: GeisterView) -> int:
    """How often the opponent captured one of the viewer's pieces while the viewer had one red piece left, which
    the opponent could not tell from the others (not exposed: ``exposed_reds``), and no piece of the viewer's stood
    on its exits: each time it risked losing at once, the piece being perhaps the last red, with no escape to stop."""
    me = view.viewer
    colours = {piece.slot: piece.colour for _, piece in view.pieces(me)}
    colours.update({piece.slot: piece.colour for piece in view.captured if piece.side is me})
    exits = set(view.variant.exits[me])
    # Where the viewer's pieces stood at its own turns, by ply: a piece on its exit then was exposed as red.
    exposed_at: dict[int, int] = {}
    for turn in turns_of(view, me):
        for slot, square in turn.theirs.items():
            if square in exits:
                exposed_at.setdefault(slot, turn.ply)
    careless = 0
    for turn in opponent_turns(view):
        if turn.move.dst is None or turn.move.dst not in turn.ours.values():
            continue
        reds = [slot for slot in turn.ours if colours.get(slot) is Colour.RED]
        known = any(exposed_at.get(slot, turn.ply) < turn.ply for slot in reds)
        threatened = any(square in exits for square in turn.ours.values())
        if len(reds) == 1 and not known and not threatened:
            careless += 1
    return careless
