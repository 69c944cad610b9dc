"""Goofspiel solved exactly by backward induction: values and equilibrium bids of any position (N = 8 in a minute).

For a position (hands, prizes face down ``P``, prize turned up ``u``, difference ``d`` of points) the value for
player 1 is the value of the zero-sum matrix game whose entry for bids ``(a, b)`` is the expected value, over the
next prize drawn uniformly from ``P``, of the position after the round (``u`` to the higher bid, nobody on a tie);
once the hands are empty it is ``sign(d)``. Win/loss returns make three facts exploitable:

* **Only the difference matters**, and only relative to what is still to win: once ``|d|`` exceeds the prizes left
  the game is decided (``sign(d)``) and nothing below it is solved.
* **Only the order of the cards matters**: a bid is only ever compared with the other player's, so the cards of both
  hands are renumbered by their rank in the union of the hands (``{3,4}`` against ``{4,6}`` is ``{1,2}`` against
  ``{2,3}``). Prizes keep their values: they are added up.
* **Swapping the players negates the value**: ``V(h1, h2, P, u, d) = -V(h2, h1, P, u, -d)``, so only one of each
  pair is kept.

The tables hold the value *before* the prize is turned up, ``W(h1, h2, P, d) = mean over u in P of V(h1, h2, P - u,
u, d)``: an entry of a stage game reads one of them instead of averaging ``k - 1`` positions. They are keyed on the
canonical state (renumbered hands, prizes, difference), which does not depend on ``N``, so one table serves every
``N`` and every query in the process. A query enumerates the canonical states below it that the tables lack, level
by level (cards in hand; numpy over the states, Python only once per distinct pair of hands), then solves them from
the last round up, each level's stage games together: identical games once, weakly dominated bids removed
(``solvers.matrix.undominated``), then ``solvers.matrix.solve_batch`` (vectorised support enumeration) up to 5x5 and
block-diagonal HiGHS LPs (``solve_lp_blocks``) above. The position asked about is solved on its own real cards with
``solvers.matrix.solve``, which gives the mixes.

How far it goes, measured from cold tables on this machine class (2 cores, both busy with other measurements) by
``.venv/bin/python -m solvers.goofspiel 5 6 7 8``: N = 5 in 0.02 s (3,100 positions), N = 6 in 0.15 s (26,029),
N = 7 in 2.3 s (218,584), **N = 8 in 31 s** (1,711,712 positions, 400,000 table entries, 210 MB peak for the
process). So one minute solves the whole game up to N = 8. Each N has about 8 times the positions of the one before
and each position costs more, so N = 9 (an estimate, not measured: some 14 million positions, 5 to 10 minutes, well
over a gigabyte) is out of a minute's reach, though any N = 9 position a few rounds from the end solves at once.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.game import Side
from core.goofspiel import DEFAULT_CARDS, GoofspielPosition, GoofspielView, check_cards, parse_position
from solvers.matrix import (
    MAX_ENUMERATION_SIZE,
    BoolArray,
    FloatArray,
    exploitability,
    solve,
    solve_batch,
    solve_lp_blocks,
    undominated,
)
from solvers.players import Limit

__all__ = [
    "GoofspielEquilibriumPlayer",
    "GoofspielSolution",
    "SolverStats",
    "clear_tables",
    "game_value",
    "solve_position",
    "solver_stats",
]

IntArray = NDArray[np.int64]

# A canonical state packed into one int64: hands (ranks, 18 bits each: the union of two 9-card hands has at most 18
# ranks), prizes face down (bits 1..9), difference + 64 (7 bits: |d| <= 45). 53 bits in all.
_HAND_BITS = 18
_PRIZE_BITS = 10
_DIFF_BITS = 7
_DIFF_OFFSET = 64
_PRIZE_MASK = (1 << _PRIZE_BITS) - 1
_DIFF_MASK = (1 << _DIFF_BITS) - 1
_PAIR_SHIFT = _PRIZE_BITS + _DIFF_BITS

#: Sum of the prizes in each prize set (bit p set: prize p).
_PRIZE_SUM: IntArray = np.array(
    [sum(p for p in range(_PRIZE_BITS) if mask >> p & 1) for mask in range(1 << _PRIZE_BITS)], dtype=np.int64
)

#: States per vectorised step: bounds the memory of a level's arrays (a level of N = 8 has hundreds of thousands).
_CHUNK = 8_000
#: Games per block-diagonal LP above the support-enumeration size.
_LP_CHUNK = 200
#: Payoffs are in [-1, 1]: a bid within this of another everywhere is dominated by it.
_DOMINANCE_TOLERANCE = 1e-12
#: Sides of a stage game: one per card in hand.
_MAX_SIDE = 9


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _mask(cards: frozenset[int]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card
    return out


def _renumber(hand1: int, hand2: int) -> tuple[int, int]:
    """Both hands with their cards renumbered 0, 1, 2, ... by rank in the union: all that bids compare."""
    union = hand1 | hand2
    out1 = out2 = 0
    rank = 0
    while union:
        low = union & -union
        if hand1 & low:
            out1 |= 1 << rank
        if hand2 & low:
            out2 |= 1 << rank
        rank += 1
        union ^= low
    return out1, out2


#: The children of a pair of hands (packed ``hand1 << 18 | hand2``), one per bid pair, row-major over the bids in
#: ascending order: which player takes the prize (+1, 0, -1), the children's renumbered hands in canonical order
#: (packed), whether that order swapped the players, and whether the two hands are equal.
_CHILDREN: dict[int, tuple[list[int], list[int], list[bool], list[bool]]] = {}


def _children(pair: int) -> tuple[list[int], list[int], list[bool], list[bool]]:
    cached = _CHILDREN.get(pair)
    if cached is not None:
        return cached
    hand1, hand2 = pair >> _HAND_BITS, pair & ((1 << _HAND_BITS) - 1)
    steps, pairs, swaps, ties = [], [], [], []
    for a in _bits(hand1):
        for b in _bits(hand2):
            child1, child2 = _renumber(hand1 & ~(1 << a), hand2 & ~(1 << b))
            swapped = child1 > child2
            if swapped:
                child1, child2 = child2, child1
            steps.append((a > b) - (a < b))
            pairs.append(child1 << _HAND_BITS | child2)
            swaps.append(swapped)
            ties.append(child1 == child2)
    out = (steps, pairs, swaps, ties)
    _CHILDREN[pair] = out
    return out


def _pack(hand1: int, hand2: int, prizes: int, diff: int) -> int:
    return (((hand1 << _HAND_BITS | hand2) << _PRIZE_BITS | prizes) << _DIFF_BITS) | (diff + _DIFF_OFFSET)


class _Successors:
    """The states after each bid pair, for a batch of states with ``level`` cards in hand, all at once.

    The per-pair work (which child hands, renumbered, in which order) is done once per distinct pair of hands, in
    Python; everything per state (prizes, differences, keys, the decided states) is numpy.
    """

    def __init__(self, keys: IntArray, level: int) -> None:
        self.keys = keys
        self.level = level
        pairs, self._inverse = np.unique(keys >> _PAIR_SHIFT, return_inverse=True)
        tables = [_children(int(pair)) for pair in pairs.tolist()]
        self._steps = np.array([t[0] for t in tables], dtype=np.int64).reshape(len(tables), level * level)
        self._pairs = np.array([t[1] for t in tables], dtype=np.int64).reshape(len(tables), level * level)
        self._swaps = np.array([t[2] for t in tables], dtype=np.bool_).reshape(len(tables), level * level)
        self._ties = np.array([t[3] for t in tables], dtype=np.bool_).reshape(len(tables), level * level)
        self.prizes = (keys >> _DIFF_BITS) & _PRIZE_MASK
        self.diffs = (keys & _DIFF_MASK) - _DIFF_OFFSET

    def after(self, rows: IntArray, up: int) -> tuple[IntArray, BoolArray, IntArray, BoolArray]:
        """For the states ``rows`` (indices into ``keys``, all with ``up`` among their prizes) and the prize ``up``
        turned up: per state and bid pair (row-major), the child's canonical key, whether it is decided, the
        difference after the round (whose sign is a decided child's value), and whether the child is stored with
        the players swapped (its value negated)."""
        inverse = self._inverse[rows]
        rest = self.prizes[rows] & ~(1 << up)
        after = self.diffs[rows, None] + self._steps[inverse] * up
        total = _PRIZE_SUM[rest][:, None]
        decided = (after > total) | (after < -total) | (total == 0)
        flip = self._swaps[inverse] | (self._ties[inverse] & (after < 0))
        stored = np.where(flip, -after, after)
        child = (((self._pairs[inverse] << _PRIZE_BITS) | rest[:, None]) << _DIFF_BITS) | (stored + _DIFF_OFFSET)
        return child, decided, after, flip

    def rows_with(self, up: int, start: int = 0, stop: int | None = None) -> IntArray:
        """Indices (in ``start:stop``) of the states with ``up`` among their prizes."""
        window = self.prizes[start:stop]
        return np.flatnonzero((window >> up) & 1) + start


class _Tables:
    """The values before the prize is turned up, ``W``, per canonical state (sorted keys and their values, one pair
    of arrays per number of cards in hand), and what it took to fill them."""

    def __init__(self) -> None:
        self.levels: dict[int, tuple[IntArray, FloatArray]] = {}
        self.positions = 0
        self.matrix_games = 0
        self.seconds = 0.0

    @property
    def size(self) -> int:
        return sum(keys.size for keys, _ in self.levels.values())

    def known(self, level: int, keys: IntArray) -> BoolArray:
        stored = self.levels.get(level)
        if stored is None:
            return np.zeros(keys.shape, dtype=np.bool_)
        return np.isin(keys, stored[0])

    def values(self, level: int, keys: IntArray) -> FloatArray:
        stored_keys, stored_values = self.levels[level]
        at = np.searchsorted(stored_keys, keys)
        at = np.minimum(at, stored_keys.size - 1)
        if not np.array_equal(stored_keys[at], keys):
            raise RuntimeError("a Goofspiel state was read before it was solved (a bug in the level order)")
        out: FloatArray = stored_values[at]
        return out

    def add(self, level: int, keys: IntArray, values: FloatArray) -> None:
        stored = self.levels.get(level)
        if stored is not None:
            keys = np.concatenate([stored[0], keys])
            values = np.concatenate([stored[1], values])
        order = np.argsort(keys, kind="stable")
        self.levels[level] = (keys[order], values[order])


_TABLES = _Tables()
#: Told how far a solve has come: table entries done, and in all.
Progress = Callable[[int, int], None]


def _missing_below(keys: IntArray, level: int, tables: _Tables) -> dict[int, IntArray]:
    """Every canonical state the tables lack that ``keys`` (``level`` cards in hand) need, by level."""
    levels: dict[int, IntArray] = {}
    todo = np.unique(keys)
    todo = todo[~tables.known(level, todo)]
    while todo.size:
        levels[level] = todo
        if level == 1:
            break
        found = []
        for start in range(0, todo.size, _CHUNK):
            batch = _Successors(todo[start : start + _CHUNK], level)
            for up in range(1, _PRIZE_BITS):
                rows = batch.rows_with(up)
                if rows.size:
                    child, decided, _, _ = batch.after(rows, up)
                    found.append(np.unique(child[~decided]))
        level -= 1
        todo = np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
        todo = todo[~tables.known(level, todo)]
    return levels


def _solve_level(level: int, keys: IntArray, tables: _Tables, solved: Callable[[int], None] | None = None) -> None:
    """``W`` of ``keys`` (all with ``level`` cards in hand), from the tables' values one level down; ``solved(count)``
    is told after each chunk of keys, so that a long level still shows it is moving."""
    if level == 1:
        # One card each: the bids are forced. Renumbered, the cards compare as their bit masks do.
        hand1 = keys >> (_PAIR_SHIFT + _HAND_BITS)
        hand2 = (keys >> _PAIR_SHIFT) & ((1 << _HAND_BITS) - 1)
        prizes = (keys >> _DIFF_BITS) & _PRIZE_MASK
        final = (keys & _DIFF_MASK) - _DIFF_OFFSET + np.sign(hand1 - hand2) * _PRIZE_SUM[prizes]
        tables.add(1, keys, np.sign(final).astype(np.float64))
        tables.positions += keys.size
        return
    averages = np.zeros(keys.size)
    for start in range(0, keys.size, _CHUNK):
        batch = _Successors(keys[start : start + _CHUNK], level)
        games, owners = [], []
        for up in range(1, _PRIZE_BITS):
            rows = batch.rows_with(up)
            if not rows.size:
                continue
            child, decided, after, flip = batch.after(rows, up)
            entries = np.sign(after).astype(np.float64)
            live = ~decided
            looked = tables.values(level - 1, child[live])
            entries[live] = np.where(flip[live], -looked, looked)
            games.append(entries.reshape(-1, level, level))
            owners.append(rows + start)
        stacked = np.concatenate(games)
        np.add.at(averages, np.concatenate(owners), _game_values(stacked))
        tables.positions += stacked.shape[0]
        tables.matrix_games += stacked.shape[0]
        if solved is not None:
            solved(min(start + _CHUNK, keys.size))
    tables.add(level, keys, averages / level)


def _game_values(games: FloatArray) -> FloatArray:
    """Values of stacked square stage games (k, m, m).

    Identical games (common: they differ only in cards that no longer matter) are solved once. Weakly dominated bids
    go first (``solvers.matrix.undominated``: the value is unchanged), which leaves a quarter of the 5x5 games of
    N = 7 with a saddle point and most of the rest smaller; the reduced games are solved by shape, by support
    enumeration up to 5x5 and by block-diagonal LPs above.
    """
    unique, inverse = np.unique(games.reshape(games.shape[0], -1), axis=0, return_inverse=True)
    stacked = unique.reshape(-1, games.shape[1], games.shape[2])
    rows, cols = undominated(stacked, tol=_DOMINANCE_TOLERANCE)
    # The surviving bids first (in their order): a game's reduced matrix is then its leading m x n block.
    row_order = np.argsort(~rows, axis=1, kind="stable")
    col_order = np.argsort(~cols, axis=1, kind="stable")
    shapes = rows.sum(axis=1) * (_MAX_SIDE + 1) + cols.sum(axis=1)
    values = np.empty(stacked.shape[0])
    for shape in np.unique(shapes).tolist():
        which = np.flatnonzero(shapes == shape)
        m, n = divmod(shape, _MAX_SIDE + 1)
        sub = stacked[which[:, None, None], row_order[which, :m, None], col_order[which, None, :n]]
        if max(m, n) <= MAX_ENUMERATION_SIZE:
            values[which] = solve_batch(sub)[0]
        else:
            for start in range(0, which.size, _LP_CHUNK):
                block = list(sub[start : start + _LP_CHUNK])
                values[which[start : start + len(block)]] = [solution.value for solution in solve_lp_blocks(block)]
    out: FloatArray = values[np.asarray(inverse).reshape(-1)]
    return out


def _offset(progress: Progress, done: int, total: int) -> Callable[[int], None]:
    """A level's count of keys solved, told to ``progress`` as entries of the whole fill."""
    return lambda count: progress(done + count, total)


def _fill(keys: IntArray, level: int, tables: _Tables, progress: Progress | None = None) -> int:
    """Solve whatever ``keys`` (``level`` cards in hand) need that the tables lack; returns how many positions that
    took. ``progress(done, total)`` is told, in table entries, as each level starts and after each chunk of one (the
    last levels take the most: a chunk is a fraction of a second)."""
    before = tables.positions
    started = time.perf_counter()
    missing = sorted(_missing_below(keys, level, tables).items())
    total = sum(level_keys.size for _, level_keys in missing)
    done = 0
    for below, level_keys in missing:
        if progress is not None:
            progress(done, total)
        _solve_level(below, level_keys, tables, None if progress is None else _offset(progress, done, total))
        done += level_keys.size
    if progress is not None:
        progress(total, total)
    tables.seconds += time.perf_counter() - started
    return tables.positions - before


@dataclass(frozen=True, eq=False)
class GoofspielSolution:
    """A position solved: player 1's value, both players' equilibrium mixes over their cards, and the stage game.

    ``matrix[i, j]`` is player 1's expected value when player 1 bids ``bids1[i]`` and player 2 ``bids2[j]`` (and
    both play the equilibrium afterwards); ``mix1`` and ``mix2`` are an equilibrium of it (read-only arrays, as
    ``solvers.matrix`` returns them). ``solved`` counts the positions this query had to solve (0 when the tables
    already held everything below it). A finished position has no bids: its value is ``sign(diff)``.
    """

    position: GoofspielPosition
    value: float
    bids1: tuple[int, ...]
    bids2: tuple[int, ...]
    mix1: tuple[float, ...]
    mix2: tuple[float, ...]
    matrix: FloatArray
    solved: int

    def bids(self, side: Side) -> tuple[int, ...]:
        return self.bids2 if side is Side.P2 else self.bids1

    def mix(self, side: Side) -> dict[int, float]:
        """``side``'s equilibrium mix, card -> probability (every card of the hand, zeros included)."""
        weights = self.mix2 if side is Side.P2 else self.mix1
        return dict(zip(self.bids(side), weights, strict=True))

    def value_for(self, side: Side) -> float:
        return -self.value if side is Side.P2 else self.value

    @property
    def exploitability(self) -> float:
        """What the two players together could gain by deviating from the mixes in this round (0 up to rounding)."""
        if not self.bids1:
            return 0.0
        return exploitability(self.matrix, np.array(self.mix1), np.array(self.mix2))

    def draw(self, side: Side, rng: random.Random) -> int:
        """One bid of ``side`` drawn from its equilibrium mix."""
        return rng.choices(self.bids(side), weights=self.mix2 if side is Side.P2 else self.mix1)[0]


def _frozen(matrix: FloatArray) -> FloatArray:
    out = np.array(matrix, dtype=np.float64)
    out.setflags(write=False)
    return out


def solve_position(
    position: GoofspielPosition | str, cards: int = DEFAULT_CARDS, progress: Progress | None = None
) -> GoofspielSolution:
    """The exact equilibrium of ``position`` (text is parsed for an ``N = cards`` game; a position object carries
    its own ``N``). Solves, and keeps, whatever the process's tables lack below it (``progress`` as ``_fill``
    tells it)."""
    if isinstance(position, str):
        position = parse_position(position, cards)
    up, diff, level = position.up, position.diff, position.rounds_left
    bids1, bids2 = tuple(sorted(position.hand1)), tuple(sorted(position.hand2))
    if up is None:
        return GoofspielSolution(position, float((diff > 0) - (diff < 0)), (), (), (), (), _frozen(np.zeros((0, 0))), 0)
    # The position as a state before its prize is turned up, on its real cards (the children are renumbered).
    root = _pack(_mask(position.hand1), _mask(position.hand2), _mask(position.prizes | {up}), diff)
    child, decided, after, flip = _Successors(np.array([root], dtype=np.int64), level).after(np.array([0]), up)
    child, decided, after, flip = child[0], decided[0], after[0], flip[0]
    solved = _fill(child[~decided], level - 1, _TABLES, progress) if level > 1 else 0
    entries = np.sign(after).astype(np.float64)
    if level > 1:
        looked = _TABLES.values(level - 1, child[~decided])
        entries[~decided] = np.where(flip[~decided], -looked, looked)
    matrix = entries.reshape(level, level)
    solution = solve(matrix)
    _TABLES.positions += 1
    _TABLES.matrix_games += 1
    return GoofspielSolution(
        position,
        solution.value,
        bids1,
        bids2,
        tuple(float(p) for p in solution.row),
        tuple(float(p) for p in solution.col),
        _frozen(matrix),
        solved + 1,
    )


def game_value(cards: int = DEFAULT_CARDS, progress: Progress | None = None) -> float:
    """Player 1's value of the whole ``N``-card game: the mean over the first prize turned up (0 by symmetry, up to
    rounding: a check on the solver rather than news). ``progress`` as ``_fill`` tells it."""
    check_cards(cards)
    everything = _mask(frozenset(range(1, cards + 1)))
    hand1, hand2 = _renumber(everything, everything)
    key = np.array([_pack(hand1, hand2, everything, 0)], dtype=np.int64)
    _fill(key, cards, _TABLES, progress)
    return float(_TABLES.values(cards, key)[0])


@dataclass(frozen=True)
class SolverStats:
    """What the process's tables hold: values before a prize is turned up (``averages``), and the positions (with
    a prize turned up) solved to fill them, ``matrix_games`` of them by a matrix game (the others were last rounds,
    whose bids are forced)."""

    averages: int
    positions: int
    matrix_games: int
    seconds: float


def solver_stats() -> SolverStats:
    return SolverStats(_TABLES.size, _TABLES.positions, _TABLES.matrix_games, _TABLES.seconds)


def clear_tables() -> None:
    """Forget every solved value (for measurements from cold tables, and for tests)."""
    global _TABLES
    _TABLES = _Tables()
    _CHILDREN.clear()


class GoofspielEquilibriumPlayer:
    """Draws its bid from its equilibrium mix at the current position (solved on first sight, then from tables)."""

    name = "equilibrium"

    def choose(self, view: GoofspielView, rng: random.Random, limit: Limit | None = None) -> int:
        return solve_position(view.position).draw(view.viewer, rng)

    def analyse(self, view: GoofspielView, limit: Limit | None, rng: random.Random) -> Iterator[GoofspielSolution]:
        """Exact at once: the position's value and both players' mixes."""
        yield solve_position(view.position)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m solvers.goofspiel [N ...]``: solve each ``N``-card game from cold tables and time it."""
    args = list(sys.argv[1:] if argv is None else argv)
    sizes = [int(arg) for arg in args] or [1, 2, 3, 4, 5, 6]
    figures = []
    for cards in sizes:
        clear_tables()
        started = time.perf_counter()
        value = game_value(cards)
        seconds = time.perf_counter() - started
        stats = solver_stats()
        print(
            f"N = {cards}: value {value:+.2e}, {stats.positions:,} positions ({stats.matrix_games:,} matrix games, "
            f"{stats.averages:,} table entries) in {seconds:.2f} s"
        )
        figures.append({"cards": cards, "seconds": round(seconds, 3), "positions": stats.positions, "value": value})
    print(json.dumps({"benchmark": "goofspiel", "results": figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
