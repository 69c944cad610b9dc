"""From the rules engine's positions to engine states, and moves both ways (numpy only, no numba).

Two sources: a ``GeisterState`` (the referee's position, every colour known: what tests and self-play use) and a
``GeisterView`` (one player's knowledge: the opponent's pieces are purple). A view may be given an assumed colouring
of the opponent's pieces by slot, which is how a Monte Carlo player turns a sampled world into a fully coloured
position for playouts; pieces the colouring leaves out stay purple.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import numpy.typing as npt

from core.game import Side
from core.geister import Colour, GeisterState, GeisterView, Piece, Variant
from core.notation import Move
from solvers.geister_engine.layout import (
    BLUE,
    BLUE0,
    CAPTURED,
    ESCAPE_DST,
    ESCAPED,
    ESCAPED_KIND,
    HASH,
    KINDS,
    NO_MOVE,
    NONE,
    OCC0,
    PLY,
    PURPLE,
    PURPLE_ESCAPES,
    RED,
    RED0,
    STATE_SIZE,
    TURN,
    move_code,
    move_dst,
    move_src,
)
from solvers.geister_engine.tables import T_Z_CAPTURED, T_Z_PIECE, T_Z_TURN, Z_COUNTS, tables

__all__ = ["decode_move", "encode_move", "from_state", "from_view", "zobrist"]

Ints = npt.NDArray[np.int64]

_KIND = {Colour.BLUE: BLUE, Colour.RED: RED, Colour.UNKNOWN: PURPLE}


def from_state(state: GeisterState, purple_escapes: bool = False) -> Ints:
    """The engine state of a game in its play phase (or over). A piece of ``UNKNOWN`` colour (a record with hidden
    set-ups) becomes purple; ``purple_escapes`` says whether such pieces may escape."""
    if state.phase == "setup":
        raise ValueError("the game is still in its set-up phase: the engine starts from a position")
    return _build(
        state.variant,
        ((state.variant.index(square), piece) for square, piece in state.pieces()),
        state.captured,
        state.escaped,
        state.to_move,
        state.ply,
        purple_escapes,
    )


def from_view(view: GeisterView, colours: Mapping[int, Colour] | None = None, purple_escapes: bool = False) -> Ints:
    """The engine state of what ``view.viewer`` knows: the opponent's pieces purple, except those ``colours`` (an
    assumed world: slot -> ``BLUE``/``RED``) colours. Captured pieces keep the colours their capture revealed."""
    if view.phase == "setup":
        raise ValueError("the game is still in its set-up phase: the engine starts from a position")
    assumed = colours or {}

    def coloured(piece: Piece) -> Piece:
        if piece.side is view.viewer or piece.colour is not Colour.UNKNOWN or piece.slot not in assumed:
            return piece
        return Piece(piece.side, assumed[piece.slot], piece.slot)

    return _build(
        view.variant,
        ((view.variant.index(square), coloured(piece)) for square, piece in view.pieces()),
        view.captured,
        view.escaped,
        view.to_move,
        view.ply,
        purple_escapes,
    )


def _build(
    variant: Variant,
    pieces: Iterable[tuple[int, Piece]],
    captured: Iterable[Piece],
    escaped: Piece | None,
    to_move: Side,
    ply: int,
    purple_escapes: bool,
) -> Ints:
    t = tables(variant)
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    for index, piece in pieces:
        bit = 1 << index
        s[OCC0 + piece.side] |= bit
        if piece.colour is Colour.BLUE:
            s[BLUE0 + piece.side] |= bit
        elif piece.colour is Colour.RED:
            s[RED0 + piece.side] |= bit
    for piece in captured:
        s[CAPTURED + KINDS * piece.side + _KIND[piece.colour]] += 1
    s[TURN] = int(to_move)
    s[PLY] = ply
    s[ESCAPED] = NONE if escaped is None else int(escaped.side)
    s[ESCAPED_KIND] = NONE if escaped is None else _KIND[escaped.colour]
    s[PURPLE_ESCAPES] = int(purple_escapes)
    s[HASH] = zobrist(s, t)
    return s


def zobrist(s: Ints, t: Ints) -> int:
    """The hash of ``s`` computed from scratch (the kernels keep it incrementally; tests compare the two)."""
    h = 0
    for side in (0, 1):
        occ = int(s[OCC0 + side])
        blue = int(s[BLUE0 + side])
        red = int(s[RED0 + side])
        while occ:
            square = (occ & -occ).bit_length() - 1
            occ &= occ - 1
            kind = BLUE if blue >> square & 1 else RED if red >> square & 1 else PURPLE
            h ^= int(t[T_Z_PIECE + 64 * (KINDS * side + kind) + square])
        for kind in range(KINDS):
            count = int(s[CAPTURED + KINDS * side + kind])
            if not 0 <= count < Z_COUNTS:
                raise ValueError(f"{count} captured pieces of one kind: the engine counts at most {Z_COUNTS - 1}")
            h ^= int(t[T_Z_CAPTURED + Z_COUNTS * (KINDS * side + kind) + count])
    if s[TURN]:
        h ^= int(t[T_Z_TURN])
    return h


def encode_move(variant: Variant, move: Move) -> int:
    """The engine's int for ``move`` (not checked for legality; the square must be on the board)."""
    if not variant.on_board(move.src) or (move.dst is not None and not variant.on_board(move.dst)):
        raise ValueError(f"{move} leaves the {variant.width}x{variant.height} board")
    dst = ESCAPE_DST if move.dst is None else variant.index(move.dst)
    return move_code(variant.index(move.src), dst)


def decode_move(variant: Variant, code: int) -> Move:
    """The ``Move`` of an engine move int."""
    if code < 0:
        raise ValueError(f"{code} is not a move (the engine's NO_MOVE is {NO_MOVE})")
    dst = move_dst(code)
    return Move(variant.square(move_src(code)), None if dst == ESCAPE_DST else variant.square(dst))
