"""A generic retrograde engine over numpy arrays: combinatorial indexing of piece placements, and counter-based
AND/OR propagation with distances.

Why this shape: a game whose states are placements of a few groups of interchangeable pieces on a small board is
solved fastest by ranking every placement (no dictionaries), building successor arrays with vectorised operations,
and propagating values backwards from the terminal states in sweeps of increasing distance. The Mini-Geister
solver (``solvers.mini_geister``) is built on it; nothing here knows the rules of any game.

Squares are bit positions in an ``int64`` mask (boards up to 63 squares); a group of ``k`` pieces is a ``k``-subset
of the squares the earlier groups left free, ranked in colex order.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from math import comb, factorial

import numpy as np
from numpy.typing import NDArray

__all__ = ["Layout", "Solved", "bits", "colex_digit", "lowest_squares", "nth_square", "popcount", "retrograde"]

IntArray = NDArray[np.int64]


def bits(squares: IntArray) -> IntArray:
    """The mask of each square (``1 << square``)."""
    return np.left_shift(np.int64(1), squares)


def popcount(masks: IntArray) -> IntArray:
    """Squares in each mask (numpy >= 2 counts bits natively; older numpy adds up the bits)."""
    counter = getattr(np, "bitwise_count", None)
    if counter is not None:
        counted: IntArray = counter(masks).astype(np.int64)
        return counted
    return sum(((masks >> s) & 1 for s in range(63)), np.zeros_like(masks))


def lowest_squares(masks: IntArray, count: int) -> list[IntArray]:
    """The ``count`` lowest squares of each mask, ascending: the pieces of a group, slot by slot."""
    out, rest = [], masks
    for _ in range(count):
        low = rest & -rest
        out.append(popcount(low - 1))
        rest = rest ^ low
    return out


def nth_square(masks: IntArray, slot: int) -> IntArray:
    """The ``slot``-th lowest square of each mask."""
    return lowest_squares(masks, slot + 1)[slot]


def colex_digit(positions: list[IntArray]) -> IntArray:
    """The colex rank of sorted positions c0 < c1 < ...: sum of C(c_i, i + 1), in arithmetic (no table look-ups)."""
    digit = np.zeros_like(positions[0])
    for i, c in enumerate(positions):
        term = c.copy()
        for j in range(1, i + 1):
            term = term * (c - j)
        digit += term // factorial(i + 1)
    return digit


@cache
def _colex_combinations(n: int, k: int) -> IntArray:
    """All k-subsets of range(n) as sorted rows, in colex order (the order ``Layout.rank`` counts in)."""
    rows = np.array(list(itertools.combinations(range(n), k)), dtype=np.int64).reshape(-1, k)
    ranks = sum(np.array([comb(int(c), i + 1) for c in rows[:, i]], dtype=np.int64) for i in range(k))
    return rows[np.argsort(ranks, kind="stable")]


@dataclass(frozen=True)
class Layout:
    """Placements of groups of interchangeable pieces ("kinds") on a board of ``squares`` squares, ranked
    combinatorially.

    Kind j's pieces form a k-subset of the squares kinds 0..j-1 left free; its colex rank among those
    ``C(free, k)`` subsets is one mixed-radix digit of the placement's rank (kind 0 most significant).
    """

    counts: tuple[int, ...]
    squares: int = 16

    @cached_property
    def radices(self) -> tuple[int, ...]:
        used, radices = 0, []
        for k in self.counts:
            radices.append(comb(self.squares - used, k))
            used += k
        return tuple(radices)

    @cached_property
    def placements(self) -> int:
        return int(np.prod(self.radices, dtype=np.int64))

    def enumerate(self) -> IntArray:
        """Every placement as one mask per kind, shape (placements, kinds), in rank order."""
        masks = np.zeros((1, 0), dtype=np.int64)
        used = 0
        for k in self.counts:
            free_count = self.squares - used
            rows = _colex_combinations(free_count, k)
            taken = masks.sum(axis=1) if masks.shape[1] else np.zeros(len(masks), dtype=np.int64)
            free = ((taken[:, None] >> np.arange(self.squares)) & 1) == 0
            free_squares = np.nonzero(free)[1].reshape(len(masks), free_count)
            new = bits(free_squares[:, rows]).sum(axis=2).reshape(-1, 1)
            masks = np.concatenate([np.repeat(masks, len(rows), axis=0), new], axis=1)
            used += k
        return masks

    def rank(self, masks: IntArray) -> IntArray:
        """The rank of each placement (one mask per kind in the last axis); the inverse of ``enumerate``."""
        rank = np.zeros(masks.shape[0], dtype=np.int64)
        taken = np.zeros(masks.shape[0], dtype=np.int64)
        used = 0
        for j, k in enumerate(self.counts):
            mask = masks[:, j]
            compressed = [sq - popcount(taken & (bits(sq) - 1)) for sq in lowest_squares(mask, k)]
            rank = rank * comb(self.squares - used, k) + colex_digit(compressed)
            used += k
            taken |= mask
        return rank


@dataclass(frozen=True)
class Solved:
    value: NDArray[np.int8]
    distance: NDArray[np.int16]
    sweeps: int


def retrograde(
    successors: IntArray,
    turn: NDArray[np.int8],
    terminal: NDArray[np.int8],
    terminal_distance: NDArray[np.int16],
    external_value: NDArray[np.int8],
    external_distance: NDArray[np.int16],
    progress: Callable[[float], None] | None = None,
) -> Solved:
    """Counter-based retrograde analysis of an AND-OR game graph, resolved in sweeps of increasing distance.

    ``successors[s]`` lists s's successors (-1 pads; an index >= n names external node ``index - n``, e.g. a state of
    a table with fewer pieces, whose value and distance are already known). ``turn[s]`` is 0 where the analysed side
    moves (value 1 needs *some* successor at 1, value -1 needs *all* at -1) and 1 where the opponent moves (the
    reverse). Terminal states carry their value and distance. Value 1 states get 1 + the least distance of a value-1
    successor at the analysed side's turns and 1 + the greatest at the opponent's (the opponent delays); -1 states the
    other way round. A non-terminal state without successors stays 0. Each sweep handles the states decided at one
    distance: the analysed side's predecessors of a value-1 state are decided at once, the opponent's predecessors
    only when their count of undecided successors drops to zero.
    """
    n = len(turn)
    total = n + len(external_value)
    value = np.concatenate([terminal, external_value]).astype(np.int8)
    distance = np.concatenate([np.where(terminal != 0, terminal_distance, 0), external_distance]).astype(np.int16)
    side = np.concatenate([turn, np.full(len(external_value), 2, dtype=np.int8)])
    width = successors.shape[1]
    source = np.repeat(np.arange(n, dtype=np.int64), width)
    target = successors.reshape(-1)
    keep = (target >= 0) & (terminal[source] == 0)
    source, target = source[keep], target[keep]
    order = np.argsort(target, kind="stable")
    predecessor = source[order]
    start = np.searchsorted(target[order], np.arange(total + 1))
    remaining = np.bincount(source, minlength=total).astype(np.int64)

    def predecessors(nodes: IntArray) -> IntArray:
        first = start[nodes]
        sizes = start[nodes + 1] - first
        count = int(sizes.sum())
        offsets = np.repeat(first - np.cumsum(sizes) + sizes, sizes) + np.arange(count)
        found: IntArray = predecessor[offsets]
        return found

    known = np.nonzero(value != 0)[0]
    pending: dict[int, list[IntArray]] = {int(d): [known[distance[known] == d]] for d in np.unique(distance[known])}
    sweeps, decided = 0, int(np.count_nonzero(value[:n]))
    while pending:
        d = min(pending)
        frontier = np.concatenate(pending.pop(d))
        new: list[IntArray] = []
        for sign in (1, -1):
            reached = predecessors(frontier[value[frontier] == sign])
            reached = reached[value[reached] == 0]
            # The side that wants this result takes it at once; the other side only when it has no way out.
            chooser = 0 if sign == 1 else 1
            eager = np.unique(reached[side[reached] == chooser])
            forced, hits = np.unique(reached[side[reached] != chooser], return_counts=True)
            remaining[forced] -= hits
            forced = forced[remaining[forced] == 0]
            resolved = np.union1d(eager, forced)
            value[resolved] = sign
            distance[resolved] = d + 1
            new.append(resolved)
        fresh = np.concatenate(new)
        if len(fresh):
            pending.setdefault(d + 1, []).append(fresh)
            pending[d + 1] = [np.concatenate(pending[d + 1])]
        sweeps += 1
        decided += len(fresh)
        if progress is not None:
            progress(decided / max(n, 1))
    return Solved(value[:n].copy(), distance[:n].copy(), sweeps)
