"""Sprague-Grundy for impartial heap games: Grundy sequences, their periods, sums, winning moves, misere Nim.

One mechanism for the whole family: a rule (``core.impartial.HeapRule``) says which takes may leave no heap, one
heap, or two heaps, and the Grundy value of a heap of ``n`` is the mex of the values of everything a move can leave
(the xor of the two parts for a split). Nim, subtraction games and octal (take-and-break) games are all rules.

Speed: each new value is computed with numpy over all of its options at once (for a split, the xors of every way
to cut the rest are one vector operation), so Kayles to 20,000 takes well under a second. Subtraction games (and
octal games whose digits stop) become periodic; once a period is *proven*, the rest of the sequence is the period
repeated, which is how a subtraction game reaches a million in milliseconds.

Proofs of periodicity:

* a game whose moves only take stones and leave at most one heap, with at most ``t`` stones taken (a subtraction
  game), depends on the previous ``t`` values only: once a window of ``t`` values repeats ``p`` later, the sequence
  is periodic with period ``p`` from there on;
* an octal game with a last non-zero digit at ``t`` obeys the Guy-Smith periodicity theorem: if
  ``G(n + p) = G(n)`` for all ``i <= n < 2i + p + t``, then for all ``n >= i``.

Nim (take any number) is never periodic (``G(n) = n``); neither is any rule with unboundedly large takes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from core.impartial import HeapMove, HeapRule, HeapView, Nim, Octal, Subtraction, heap_moves, heaps_after
from solvers.players import Limit

#: Most positions the exact search may generate: for a verdict (misere play of rules other than Nim), and for the
#: longest losing line (advice only, so it gives up sooner and falls back to a rule of thumb). Pure Python, about
#: 4 microseconds a position: these bound the search to about 4 s and 0.4 s.
SEARCH_LIMIT = 1_000_000
LONGEST_LINE_LIMIT = 100_000


class SearchTooLargeError(ValueError):
    """The exact search would look at more positions than allowed."""


class SequenceTooLongError(ValueError):
    """More Grundy values would be computed one by one than allowed, with no period proven to repeat instead."""


@dataclass(frozen=True)
class Periodicity:
    """``G(n + period) = G(n)`` for every ``n >= preperiod``."""

    preperiod: int
    period: int


def max_take(rule: HeapRule) -> int | None:
    """The most stones a move may take (and the last octal digit), or ``None`` when unbounded (Nim)."""
    if isinstance(rule, Subtraction):
        return max(rule.values)
    if isinstance(rule, Octal):
        return len(rule.digits) - 1
    return None


def _takes(rule: HeapRule, leaves: int, upto: int) -> np.ndarray:
    """Every take (0..upto) that may leave ``leaves`` heaps."""
    return np.array([t for t in range(upto + 1) if rule.allows(t, leaves)], dtype=np.int64)


def grundy_sequence(rule: HeapRule, upto: int, use_period: bool = True, max_computed: int | None = None) -> np.ndarray:
    """``G(0..upto)`` for heaps under ``rule``.

    With ``use_period`` the computation stops as soon as a period is proven and repeats it; without, every value
    is computed from its options (the benchmark times both). ``max_computed`` caps the values computed one by one
    (a few microseconds each, more for games that split heaps) before a period is proven: past it
    ``SequenceTooLongError``. Nim needs no cap (``G(n) = n`` at once).
    """
    if upto < 0:
        raise ValueError(f"upto must be >= 0, not {upto}")
    if isinstance(rule, Nim):
        return np.arange(upto + 1, dtype=np.int64)  # every smaller heap is an option: mex = n
    bound = max_take(rule)
    limit = upto if bound is None else min(upto, bound)
    take_all = set(_takes(rule, 0, limit).tolist())
    take_one = _takes(rule, 1, limit)
    take_two = _takes(rule, 2, limit)
    values = np.zeros(upto + 1, dtype=np.int64)
    # Periods are looked for at doubling lengths, so the search (quadratic in the length) costs no more in total
    # than one search at the end, even for a game that never turns periodic.
    next_check = max(64, 4 * (bound or 0))
    for n in range(1, upto + 1):
        if max_computed is not None and n > max_computed:
            raise SequenceTooLongError(
                f"no period of the {rule} is proven within its first {max_computed:,} values, and computing "
                f"{upto:,} one by one would take too long: ask for at most {max_computed:,}"
            )
        options = []
        if n in take_all:
            options.append(np.zeros(1, dtype=np.int64))
        ones = take_one[(take_one < n) & (take_one >= 0)]
        ones = ones[n - ones > 0]
        if ones.size:
            options.append(values[n - ones])
        for t in take_two[take_two <= n - 2]:
            rest = n - t
            half = rest // 2
            # Cut the rest into a + b, 1 <= a <= b: G(a) xor G(rest - a) for every a at once.
            a = np.arange(1, half + 1)
            options.append(values[a] ^ values[rest - a])
        values[n] = _mex(np.concatenate(options)) if options else 0
        if use_period and bound is not None and n == next_check:
            next_check *= 2
            period = find_period(values[: n + 1], rule)
            if period is not None:
                _extend_periodic(values, n + 1, period)
                break
    return values


def _mex(options: np.ndarray) -> int:
    """The least non-negative integer not among ``options``."""
    if options.size == 0:
        return 0
    seen = np.zeros(options.size + 1, dtype=bool)
    small = options[options <= options.size]
    seen[small] = True
    return int(np.argmin(seen))


def _extend_periodic(values: np.ndarray, start: int, period: Periodicity) -> None:
    """Fill ``values[start:]`` by repeating the proven period."""
    base = period.preperiod
    index = np.arange(start, values.size)
    values[start:] = values[base + (index - base) % period.period]


#: Comparisons made first for each candidate period, at the end of the sequence where a wrong period shows at
#: once: most candidates are refused for the price of this many, not of the whole sequence.
_TAIL_PROBE = 64


def find_period(values: np.ndarray, rule: HeapRule) -> Periodicity | None:
    """The shortest period (with the least pre-period) that ``values`` proves, or ``None`` (see module doc).

    A period ``p`` with pre-period ``i`` is proven when ``G(m + p) = G(m)`` holds for ``i <= m < n - p`` and that
    range is long enough (``n - p >= i + t``, or ``2i + p + t`` for a game that splits heaps, and at least ``p``).
    So only the comparisons from a limit up to ``n - p`` can refuse ``p``: those are checked first, the end first,
    and the pre-period is looked for only once they all hold. Checking every comparison of every candidate made the
    search quadratic in the length (a million values of ``{1, 99999999}`` ran for minutes).
    """
    bound = max_take(rule)
    if bound is None:
        return None
    splits = isinstance(rule, Octal) and any(rule.allows(t, 2) for t in range(bound + 1))
    n = values.size
    # Larger periods cannot be proven: what is verified (n - p values) must reach past p + bound (split) or bound.
    longest = (n - bound) // 2 if splits else min(n // 2, n - bound)
    for p in range(1, longest + 1):
        end = n - p  # G(m + p) = G(m) is checked for m < end
        # The pre-period may be at most `latest` for p to be proven, so no comparison from there on may fail.
        latest = min((end - p - bound) // 2 if splits else end - bound, end - p)
        probe = max(latest, end - _TAIL_PROBE)
        if np.any(values[probe + p :] != values[probe:end]):
            continue
        if latest < probe and np.any(values[latest + p : probe + p] != values[latest:probe]):
            continue
        mismatch = np.flatnonzero(values[p : latest + p] != values[:latest])
        return Periodicity(int(mismatch[-1]) + 1 if mismatch.size else 0, p)
    return None


@dataclass
class GrundyTable:
    """Grundy values of one rule, computed as far as asked and extended on demand."""

    rule: HeapRule
    values: np.ndarray

    @classmethod
    def build(cls, rule: HeapRule, upto: int = 64) -> GrundyTable:
        return cls(rule, grundy_sequence(rule, upto))

    def __call__(self, n: int) -> int:
        if n >= self.values.size:
            self.values = grundy_sequence(self.rule, max(n, 2 * self.values.size))
        return int(self.values[n])

    @property
    def period(self) -> Periodicity | None:
        return find_period(self.values, self.rule)


# --------------------------------------------------------------------------------------------------- positions


@dataclass(frozen=True)
class Analysis:
    """Everything the advice panel and ``solve nim`` show for one position."""

    heaps: tuple[int, ...]
    grundy: tuple[int, ...]
    nim_sum: int
    first_player_wins: bool
    winning_moves: tuple[HeapMove, ...]
    #: When every move loses: the move that keeps the game longest (and how many moves the game then lasts).
    longest_move: HeapMove | None
    remoteness: int | None
    misere: bool
    #: How the verdict was reached: "sprague-grundy", "misere nim", or "search".
    method: str


def analyse(heaps: Sequence[int], rule: HeapRule, misere: bool = False, table: GrundyTable | None = None) -> Analysis:
    heaps = tuple(int(h) for h in heaps)
    if any(h < 0 for h in heaps):
        raise ValueError("heap sizes cannot be negative")
    table = table or GrundyTable.build(rule, max(heaps, default=0) + 1)
    grundy = tuple(table(h) for h in heaps)
    nim_sum = 0
    for g in grundy:
        nim_sum ^= g
    # Moves are never listed for the whole position: 40 heaps of 100,000 have 4 million, and checking each against
    # every heap took 51 s. Each heap's winning moves are found from that heap alone.
    if not misere:
        winning = tuple(
            move
            for index in range(len(heaps))
            for move in _winning_moves(heaps, index, nim_sum ^ grundy[index], rule, table)
        )
        wins, method = nim_sum != 0, "sprague-grundy"
    elif isinstance(rule, Nim):
        wins = _misere_nim_wins(heaps)
        winning = tuple(move for index in range(len(heaps)) for move in _misere_nim_winning_moves(heaps, index))
        method = "misere nim"
    else:
        search = PositionSearch(rule, misere=True)
        wins = search.wins(heaps)
        winning = tuple(m for m in heap_moves(heaps, rule) if not search.wins(heaps_after(heaps, m)))
        method = "search"
    longest, remoteness = None, None
    if not wins and next(heap_moves(heaps, rule), None) is not None:
        longest, remoteness = _longest_losing_line(heaps, rule, misere)
    return Analysis(heaps, grundy, nim_sum, wins, winning, longest, remoteness, misere, method)


def _winning_moves(heaps: Sequence[int], index: int, target: int, rule: HeapRule, table: GrundyTable) -> list[HeapMove]:
    """The moves on heap ``index`` that leave Grundy value ``target`` there (the xor of the other heaps' values, so
    that the nim-sum becomes 0), in ``heap_moves`` order: by take, one heap before its splits, smaller part first."""
    size = heaps[index]
    if size == 0:
        return []
    if isinstance(rule, Nim):
        # G(n) = n: the only winning move leaves exactly `target` stones.
        return [HeapMove(index, size - target)] if target < size else []
    table(size)  # computed at least this far
    values = table.values
    bound = max_take(rule)
    found: list[HeapMove] = []
    for take in range(min(size, size if bound is None else bound) + 1):
        rest = size - take
        if rest == 0:
            if rule.allows(take, 0) and target == 0:
                found.append(HeapMove(index, take))
            continue
        if rule.allows(take, 1) and values[rest] == target:
            found.append(HeapMove(index, take))
        if rest >= 2 and rule.allows(take, 2):
            # Every cut of the rest into a + b (a <= b) at once: G(a) xor G(b) must be the target.
            a = np.arange(1, rest // 2 + 1)
            for first in a[(values[a] ^ values[rest - a]) == target].tolist():
                found.append(HeapMove(index, take, (first, rest - first)))
    return found


def _misere_nim_wins(heaps: Sequence[int]) -> bool:
    """Bouton's misere rule: with every heap at most 1 the player to move wins iff the number of 1s is even;
    otherwise exactly as in normal Nim (nim-sum non-zero)."""
    if all(h <= 1 for h in heaps):
        return sum(heaps) % 2 == 0
    total = 0
    for h in heaps:
        total ^= h
    return total != 0


def _misere_nim_winning_moves(heaps: Sequence[int], index: int) -> list[HeapMove]:
    """The moves on heap ``index`` after which the opponent loses misere Nim (Bouton's rule, see
    ``_misere_nim_wins``), every size the heap may be left at checked at once."""
    size = heaps[index]
    others = [h for i, h in enumerate(heaps) if i != index]
    others_xor = 0
    for h in others:
        others_xor ^= h
    left = np.arange(size)  # what the heap is left with: take size - left
    if any(h > 1 for h in others):
        opponent_wins = (others_xor ^ left) != 0
    else:
        small = left <= 1
        ones = sum(others) + (left == 1)
        opponent_wins = np.where(small, ones % 2 == 0, (others_xor ^ left) != 0)
    return [HeapMove(index, size - int(r)) for r in left[~opponent_wins][::-1]]


class PositionSearch:
    """Exact game-tree search over positions (heaps as a sorted multiset), for what Grundy values do not give:
    misere play of rules other than Nim, and how long a lost game can be made to last."""

    def __init__(self, rule: HeapRule, misere: bool, limit: int = SEARCH_LIMIT) -> None:
        self.rule = rule
        self.misere = misere
        self.limit = limit
        self.visited = 0
        # Unbounded caches: the visit count, not the cache size, is what limits the work.
        self.wins = lru_cache(maxsize=None)(self._wins)
        self.remoteness = lru_cache(maxsize=None)(self._remoteness)

    @staticmethod
    def key(heaps: Sequence[int]) -> tuple[int, ...]:
        return tuple(sorted(h for h in heaps if h))

    def children(self, heaps: tuple[int, ...]) -> list[tuple[int, ...]]:
        # Counted in positions generated (not visited): that is what the time is spent on, and a take-and-break
        # position has many children.
        # The limit is checked as they are generated: 40 heaps of 100,000 have 4 million children, and building
        # them all before counting took 2.5 GB.
        found = []
        for move in heap_moves(heaps, self.rule):
            self.visited += 1
            if self.visited > self.limit:
                raise SearchTooLargeError(
                    f"an exact search of this position would look at more than {self.limit:,} positions"
                )
            found.append(self.key(heaps_after(heaps, move)))
        return found

    def _wins(self, heaps: tuple[int, ...]) -> bool:
        heaps = self.key(heaps)
        children = self.children(heaps)
        if not children:
            return self.misere  # no move: the player to move loses (normal) or wins (misere)
        return any(not self.wins(child) for child in children)

    def _remoteness(self, heaps: tuple[int, ...]) -> int:
        """Moves left with the winner hurrying and the loser dragging it out (Steinhaus)."""
        heaps = self.key(heaps)
        children = self.children(heaps)
        if not children:
            return 0
        if self.wins(heaps):
            return 1 + min(self.remoteness(c) for c in children if not self.wins(c))
        return 1 + max(self.remoteness(c) for c in children)


def _longest_losing_line(heaps: tuple[int, ...], rule: HeapRule, misere: bool) -> tuple[HeapMove, int | None]:
    """The losing move that makes the game last longest (exact while the search stays within its limit); else the
    move that takes the fewest stones from the largest heap, the usual way to drag a game out, with no length
    promised."""
    search = PositionSearch(rule, misere, limit=LONGEST_LINE_LIMIT)
    try:
        scored = [(search.remoteness(heaps_after(heaps, m)), m) for m in heap_moves(heaps, rule)]
    except (SearchTooLargeError, RecursionError):
        # Each heap's first move takes the fewest stones it allows; the first of the least wins ties, as min does.
        firsts = [move for index in range(len(heaps)) for move in _first_move(heaps, index, rule)]
        return min(firsts, key=lambda m: (m.take, -heaps[m.index])), None
    length, move = max(scored, key=lambda item: (item[0], -item[1].take))
    return move, length + 1


def _first_move(heaps: Sequence[int], index: int, rule: HeapRule) -> list[HeapMove]:
    """The first move ``heap_moves`` lists on heap ``index`` (none if the heap allows none)."""
    for take, parts in rule.moves(heaps[index]):
        return [HeapMove(index, take, (parts[0], parts[1]) if len(parts) == 2 else None)]
    return []


def best_move(heaps: Sequence[int], rule: HeapRule, misere: bool, rng: random.Random) -> HeapMove:
    """The perfect player: a winning move if there is one (chosen at random among them), else the move that
    keeps a lost game going longest."""
    analysis = analyse(heaps, rule, misere)
    if analysis.winning_moves:
        return rng.choice(list(analysis.winning_moves))
    if analysis.longest_move is not None:
        return analysis.longest_move
    raise ValueError("no move: the game is over")


def binary_rows(analysis: Analysis) -> tuple[list[str], str, list[bool]]:
    """Each heap's Grundy value and the nim-sum in binary, right-aligned to one width, and which columns (bits)
    make the nim-sum non-zero: what the advice panel draws."""
    width = max([1, *(g.bit_length() for g in analysis.grundy)])
    rows = [format(g, f"0{width}b") for g in analysis.grundy]
    total = format(analysis.nim_sum, f"0{width}b")
    return rows, total, [bit == "1" for bit in total]


class PerfectPlayer:
    """The perfect player of any heap game: a winning move whenever there is one (chosen at random among them),
    else the move that keeps a lost game going longest (``best_move``). Its analysis is the Sprague-Grundy verdict
    the advice panel explains."""

    name = "perfect"

    def choose(self, view: HeapView, rng: random.Random, limit: Limit | None = None) -> HeapMove:
        return best_move(view.heaps, view.rule, view.misere, rng)

    def analyse(self, view: HeapView, limit: Limit | None, rng: random.Random) -> Iterator[Analysis]:
        """Exact at once: one report."""
        yield analyse(view.heaps, view.rule, view.misere)
