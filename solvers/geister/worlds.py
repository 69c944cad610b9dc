"""What a Geister player believes of the opponent's hidden colours: the possible worlds and each piece's chance of
being blue.

A *world* is one full colour assignment of the opponent's set-up slots (70 of them on 6x6: 4 blue among 8). A world
is *possible* while it agrees with every captured piece's revealed colour. The search players
(``solvers.geister.montecarlo``, ``solvers.geister.ismcts``) keep a weight per world; ``bait_prior`` shifts those
weights where the opponent's last red piece may be offered as bait.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.game import Side
from core.geister import Colour, GeisterView, Variant
from solvers.geister import playouts as po

__all__ = ["Floats", "PieceBelief", "Worlds", "bait_prior"]

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class PieceBelief:
    """One opponent piece on the board: its set-up slot, where it stands, and the estimated P(blue)."""

    slot: int
    square: str
    blue: float


class Worlds:
    """Every colour assignment of the opponent's set-up slots (``blue[w, slot]``), and which agree with a view."""

    def __init__(self, variant: Variant, opponent: Side) -> None:
        self.variant = variant
        self.opponent = opponent
        pieces = variant.pieces(opponent)
        combos = list(itertools.combinations(range(pieces), variant.blues[opponent]))
        self.blue = np.zeros((len(combos), pieces), dtype=bool)
        for w, blues in enumerate(combos):
            self.blue[w, list(blues)] = True

    def __len__(self) -> int:
        return int(self.blue.shape[0])

    def possible(self, view: GeisterView) -> npt.NDArray[np.bool_]:
        """Worlds that agree with every captured opponent piece whose colour was revealed."""
        ok = np.ones(len(self), dtype=bool)
        for piece in view.captured:
            if piece.side is self.opponent and piece.colour is not Colour.UNKNOWN:
                ok &= self.blue[:, piece.slot] == (piece.colour is Colour.BLUE)
        return ok

    def opponent_blue_words(self, view: GeisterView) -> npt.NDArray[np.uint64]:
        """Per world, the bitboard of the opponent's blue pieces on ``view``'s board."""
        _, _, slot_bits = po.position_bits(view)
        bits = np.zeros(self.blue.shape[1], dtype=po.U64)
        for slot, bit in slot_bits.items():
            bits[slot] = bit
        words: npt.NDArray[np.uint64] = np.bitwise_or.reduce(np.where(self.blue, bits, np.uint64(0)), axis=1)
        return words

    def beliefs(self, view: GeisterView, weights: Floats) -> tuple[PieceBelief, ...]:
        """P(blue) of every opponent piece on the board under the world distribution ``weights``."""
        total = float(weights.sum())
        result = []
        for square, piece in view.pieces(self.opponent):
            p = float(weights @ self.blue[:, piece.slot]) / total if total > 0 else math.nan
            result.append(PieceBelief(piece.slot, square.name, p))
        return tuple(result)


def bait_prior(worlds: Worlds, view: GeisterView, weights: Floats, floor: float) -> Floats:
    """Worlds in which the opponent's *last* red piece is one we can capture now, off its exits, get at least
    ``floor`` of the mass.

    Capturing the last red loses at once, and the opponent knows which piece it is and where it stands: a piece
    that walks into our reach while a single red is left is bait at least as often as not, whatever the playouts'
    opponent model says. Our guided playouts race blue pieces and never offer reds, so left alone the search (and
    UPP's update, which reads the same playouts) judge an approaching piece blue and take the bait; measured: every
    loss of the guided players to plain Monte Carlo, whose uniform playouts reward offering reds, was such a capture.
    Only the *last* red matters (earlier red captures cost nothing at once), so weights are unchanged otherwise.
    """
    variant, opponent = view.variant, worlds.opponent
    red_captured = sum(1 for p in view.captured if p.side is opponent and p.colour is Colour.RED)
    if floor <= 0 or variant.reds[opponent] - red_captured != 1:
        return weights
    # A piece on one of its exits may be a blue escaping with its next move: that capture is a real gamble, left to
    # the search as it is. Anywhere else there is still time (a blue piece next to an exit needs two moves, and can
    # be taken on the exit), so taking the bait can wait for better evidence.
    exits = variant.exits[opponent]
    reachable = sorted(
        {
            target.slot
            for move in view.legal_moves()
            if move.dst is not None
            and (target := view.piece_at(move.dst))
            and target.side is opponent
            and move.dst not in exits
        }
    )
    total = float(weights.sum())
    if not reachable or total <= 0:
        return weights
    captured_slots = [p.slot for p in view.captured if p.side is opponent]
    red = ~worlds.blue
    red[:, captured_slots] = False  # the red still on the board, per world
    bait = red[:, reachable].any(axis=1)
    mass = float(weights[bait].sum()) / total
    if mass <= 0 or mass >= floor:
        return weights
    scale = floor * (1 - mass) / (mass * (1 - floor))
    return np.where(bait, weights * scale, weights)
