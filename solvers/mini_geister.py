"""Mini-Geister solved exactly: the colourless ("purple") analysis of Tanaka & Takaoka and its perfect-information twin.

The paper (``seeds/000``, summarised in ``spec/rules.md`` section 2) builds a strategy that guarantees an average
payoff >= 0 by never looking at one's own colours until the game ends. Whether it works from a placement is a
two-player reachability question over *colourless* placements: can the analysed side force one of the average-0
events (an escape attempt, a random capture, a guess) in finitely many plies, or can the opponent force one of its
pieces onto its exit first? This module answers it for every placement with a counter-based retrograde analysis over
numpy arrays, the same machinery for:

* the 2-vs-2 game under the paper's base rule and its extended rule (section 4, which needs the
  perfect-information table: every colour assignment known),
* the 3-vs-2 analyses of section 6, which differ only in the pieces on each side, the payoff the analysed side aims
  for, and which terminal events are allowed. Every event's average payoff is *computed* from the piece counts (an
  escape attempt with 2 blue and 1 red unseen pieces averages 1/3; a random capture among k pieces averages over the
  opponent's worst colouring), so a rule switches on exactly where the paper's argument holds.

Conventions (all internal arrays): the analysed side ("A") always plays up the board like player 1 (exits a4, d4); the
opponent ("O") plays down (exits a1, d1). A position where player 2 is analysed is flipped up-down on the way in and
out. Squares are ``rank * 4 + file`` as in ``core.geister.Variant.index``; a set of squares is a 16-bit mask. A table
stores, for each placement and side to move, a value (1: A forces its event, -1: O forces its event, 0: neither) and
a distance in plies, where the final escape, capture or guess counts as one ply.

States are indexed combinatorially: each group of interchangeable pieces (a "kind") is a k-subset of the squares
the earlier kinds left free, ranked in colex order, and the ranks are combined in mixed radix. Successors, the
predecessor index and every terminal rule are computed with array operations; the only Python loops run over
sweeps, pieces, directions and the (at most 3) opponent pieces of a capture rule, never over states.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from math import comb
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from core.errors import InvalidPositionError
from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState, Variant
from core.notation import Move, Square
from solvers.cache import load_or_build

__all__ = [
    "BASE",
    "CACHE_VERSION",
    "EXTENDED",
    "PURPLE_PAIR",
    "RULES",
    "START",
    "Army",
    "Assessment",
    "ColourlessSpec",
    "Layout",
    "LineStep",
    "MiniGeisterTables",
    "MoveAssessment",
    "PositionAnalysis",
    "Progress",
    "SideAnalysis",
    "Table",
    "TableStore",
    "ThreeVsTwo",
    "analyse_position",
    "colourless_state",
    "equilibrium_moves",
    "parse_position",
    "perfect_information_value",
    "retrograde",
    "solved_line",
    "three_vs_two",
]

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]

#: Bump when a table's contents change, so cached tables are rebuilt.
CACHE_VERSION = 1
#: What ``progress`` is told: a description of the table being solved and the share of its states decided so far.
Progress = Callable[[str, float], None]
Rule = Literal["base", "extended"]

ANALYSED, OPPONENT = 0, 1
MINI = VARIANTS["mini-geister"]
_EPS = 1e-9

# --------------------------------------------------------------------------------------------------- geometry

_STEPS = ((0, 1), (0, -1), (-1, 0), (1, 0))
_STEP = np.full((16, 4), -1, dtype=np.int64)
for _sq in range(16):
    for _d, (_df, _dr) in enumerate(_STEPS):
        _f, _r = _sq % 4 + _df, _sq // 4 + _dr
        if 0 <= _f < 4 and 0 <= _r < 4:
            _STEP[_sq, _d] = _r * 4 + _f
_NEIGHBOURS = np.array([sum(1 << int(t) for t in _STEP[s] if t >= 0) for s in range(16)], dtype=np.int64)
#: Exit squares of each side in the analysis frame: A leaves from a4/d4, O from a1/d1.
EXITS = (np.int64((1 << 12) | (1 << 15)), np.int64((1 << 0) | (1 << 3)))
_BINOMIAL = np.array([[comb(n, k) for k in range(5)] for n in range(17)], dtype=np.int64)
_FLIP = np.array([(3 - s // 4) * 4 + s % 4 for s in range(16)], dtype=np.int64)
_MIRROR = np.array([(s // 4) * 4 + 3 - s % 4 for s in range(16)], dtype=np.int64)


def _bits(squares: IntArray) -> IntArray:
    return np.left_shift(np.int64(1), squares)


def _popcount(masks: IntArray) -> IntArray:
    """Squares in each mask (numpy >= 2 counts bits natively; older numpy adds up the 16 bits)."""
    counter = getattr(np, "bitwise_count", None)
    if counter is not None:
        counted: IntArray = counter(masks).astype(np.int64)
        return counted
    return sum(((masks >> s) & 1 for s in range(16)), np.zeros_like(masks))


def _squares(masks: IntArray, count: int) -> list[IntArray]:
    """The ``count`` lowest squares of each mask, ascending: the pieces of a kind, slot by slot."""
    out, rest = [], masks
    for _ in range(count):
        low = rest & -rest
        out.append(_popcount(low - 1))
        rest = rest ^ low
    return out


def _square(masks: IntArray, slot: int) -> IntArray:
    return _squares(masks, slot + 1)[slot]


def _colex_digit(positions: list[IntArray]) -> IntArray:
    """The colex rank of sorted positions c0 < c1 < ...: sum of C(c_i, i + 1), in arithmetic (no table look-ups)."""
    digit = np.zeros_like(positions[0])
    for i, c in enumerate(positions):
        term = c.copy()
        for j in range(1, i + 1):
            term = term * (c - j)
        digit += term // _FACTORIAL[i + 1]
    return digit


_FACTORIAL = (1, 1, 2, 6, 24)


def _map_mask(masks: IntArray, squares: IntArray) -> IntArray:
    """Each mask with every square s replaced by ``squares[s]`` (the up-down flip or the left-right mirror)."""
    out = np.zeros_like(masks)
    for s in range(16):
        out |= ((masks >> s) & 1) << squares[s]
    return out


def flip_square(index: int) -> int:
    """The up-down mirror image of a square index: how player 2 is seen as the analysed side."""
    return int(_FLIP[index])


# --------------------------------------------------------------------------------------------------- layouts


@cache
def _colex_combinations(n: int, k: int) -> IntArray:
    """All k-subsets of range(n) as sorted rows, in colex order (the order ``Layout.rank`` counts in)."""
    rows = np.array(list(itertools.combinations(range(n), k)), dtype=np.int64).reshape(-1, k)
    ranks = sum(_BINOMIAL[rows[:, i], i + 1] for i in range(k))
    return rows[np.argsort(ranks, kind="stable")]


@dataclass(frozen=True)
class Layout:
    """Placements of groups of interchangeable pieces ("kinds") on the 16 squares, ranked combinatorially.

    Kind j's pieces form a k-subset of the squares kinds 0..j-1 left free; its colex rank among those
    ``C(free, k)`` subsets is one mixed-radix digit of the placement's rank (kind 0 most significant).
    """

    counts: tuple[int, ...]

    @cached_property
    def radices(self) -> tuple[int, ...]:
        used, radices = 0, []
        for k in self.counts:
            radices.append(comb(16 - used, k))
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
            free_count = 16 - used
            rows = _colex_combinations(free_count, k)
            taken = masks.sum(axis=1) if masks.shape[1] else np.zeros(len(masks), dtype=np.int64)
            free = ((taken[:, None] >> np.arange(16)) & 1) == 0
            free_squares = np.nonzero(free)[1].reshape(len(masks), free_count)
            new = _bits(free_squares[:, rows]).sum(axis=2).reshape(-1, 1)
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
            compressed = [sq - _popcount(taken & (_bits(sq) - 1)) for sq in _squares(mask, k)]
            rank = rank * comb(16 - used, k) + _colex_digit(compressed)
            used += k
            taken |= mask
        return rank


# --------------------------------------------------------------------------------------------------- retrograde


@dataclass(frozen=True)
class _Solved:
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
) -> _Solved:
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
    return _Solved(value[:n].copy(), distance[:n].copy(), sweeps)


# --------------------------------------------------------------------------------------------------- armies


@dataclass(frozen=True, order=True)
class Army:
    """One side's pieces as the analysed side sees them: some of known colour, the rest purple.

    ``purple_blue``/``purple_red``: how many of the purple pieces are blue and red (the analysed side's own purple
    pieces were coloured at random and are never looked at; the opponent's are hidden from it).
    """

    known_blue: int = 0
    known_red: int = 0
    purple_blue: int = 0
    purple_red: int = 0

    @property
    def purple(self) -> int:
        return self.purple_blue + self.purple_red

    @property
    def blues(self) -> int:
        return self.known_blue + self.purple_blue

    @property
    def reds(self) -> int:
        return self.known_red + self.purple_red

    @property
    def pieces(self) -> int:
        return self.blues + self.reds

    def counts(self) -> dict[str, int]:
        return {"kb": self.known_blue, "kr": self.known_red, "p": self.purple}

    def normalised(self) -> Army:
        """Purple pieces of a single colour are not purple any more: whoever holds them knows what they are."""
        if self.purple and not self.purple_red:
            return Army(self.known_blue + self.purple, self.known_red)
        if self.purple and not self.purple_blue:
            return Army(self.known_blue, self.known_red + self.purple)
        return self

    def without(self, colour: Literal["B", "R"], purple: bool) -> Army:
        """The army after losing one piece of ``colour`` (a purple one if ``purple``), normalised."""
        kb, kr, pb, pr = self.known_blue, self.known_red, self.purple_blue, self.purple_red
        if purple:
            pb, pr = (pb - 1, pr) if colour == "B" else (pb, pr - 1)
        else:
            kb, kr = (kb - 1, kr) if colour == "B" else (kb, kr - 1)
        return Army(kb, kr, pb, pr).normalised()

    def text(self) -> str:
        parts = [f"{self.known_blue} known blue"] * bool(self.known_blue) + [f"{self.known_red} known red"] * bool(
            self.known_red
        )
        if self.purple:
            parts.append(f"{self.purple} purple ({self.purple_blue} blue + {self.purple_red} red)")
        return ", ".join(parts)

    def key(self) -> list[int]:
        return [self.known_blue, self.known_red, self.purple_blue, self.purple_red]


Roles = tuple[tuple[int, str], ...]
_ROLE_ORDER = ("kb", "kr", "p")


def _roles(analysed: Army, opponent: Army) -> Roles:
    return tuple(
        (side, role)
        for side, army in ((ANALYSED, analysed), (OPPONENT, opponent))
        for role in _ROLE_ORDER
        if army.counts()[role]
    )


@dataclass(frozen=True)
class ColourlessSpec:
    """One analysis of the general mechanism: the pieces of each side, the payoff aimed for, the allowed events.

    Terminal events (each counts as one ply):

    * the analysed side, to move, has a piece that may escape on its exit: a known blue escapes (payoff 1), a purple
      one tries (average ``(blue - red) / purple`` of its purple pieces) -- an event if the payoff reaches ``target``;
    * ``capture``: the analysed side, to move, captures one of a set of opponent pieces chosen at random (each a
      different piece in reach); the average is taken over the opponent's worst colouring of them, with a capture of
      the opponent's last blue worth 1, of its last red -1, and otherwise the continuation table's guarantee;
    * ``guess``: the analysed side, to move, guesses the opponent's colours at random: an event when *every* colouring
      of both sides is a forced win with colours known (payoff 1 if right, -1 if wrong; average ``2/n - 1`` over the n
      possible colourings), if that average reaches ``target``;
    * the opponent, to move, has a piece that may be blue on its exit: failure (-1);
    * the opponent, to move, can capture an analysed piece for an average below ``target`` (a purple piece is blue or
      red at random: the analysed side never looked): failure.

    ``continuation_targets`` names the payoff a continuation table (the pieces left after a capture) is solved for;
    unnamed ones aim for 0. A continuation guarantees its target where its value is 1, ``min(target, 0)`` where it is
    0 (endless play scores 0, as in the paper's section 5) and -1 where the opponent forces its event.
    """

    analysed: Army
    opponent: Army
    target: Fraction = Fraction(0)
    capture: bool = True
    guess: bool = True
    continuation_targets: tuple[tuple[Army, Army, Fraction], ...] = ()

    def __post_init__(self) -> None:
        for army in (self.analysed, self.opponent):
            if army != army.normalised() or min(army.key()) < 0:
                raise ValueError(f"purple pieces come in both colours (else they are known): {army}")

    def continuation(self, analysed: Army, opponent: Army) -> ColourlessSpec:
        """The table that guarantees what follows a capture: the standard analysis of the pieces left (guessing
        allowed where it pays), aiming for the target ``continuation_targets`` names (else 0)."""
        target = next((t for a, o, t in self.continuation_targets if (a, o) == (analysed, opponent)), Fraction(0))
        pieces = analysed.pieces + opponent.pieces
        # Only entries that a later capture can still reach are passed on: equal specs share one table.
        onward = tuple(e for e in self.continuation_targets if e[0].pieces + e[1].pieces < pieces)
        return ColourlessSpec(analysed, opponent, target, True, True, onward)

    @property
    def escape_average(self) -> Fraction | None:
        army = self.analysed
        return Fraction(army.purple_blue - army.purple_red, army.purple) if army.purple else None

    @property
    def guess_average(self) -> Fraction:
        colourings = comb(self.opponent.purple, self.opponent.purple_blue)
        return Fraction(2, colourings) - 1

    @property
    def guess_allowed(self) -> bool:
        return self.guess and self.guess_average >= self.target

    def params(self) -> dict[str, object]:
        return {
            "analysed": self.analysed.key(),
            "opponent": self.opponent.key(),
            "target": str(self.target),
            "capture": self.capture,
            "guess": self.guess,
            "continuations": sorted([a.key(), o.key(), str(t)] for a, o, t in self.continuation_targets),
        }

    def text(self) -> str:
        return f"{self.analysed.text()} vs {self.opponent.text()}, target {self.target}" + (
            "" if self.guess_allowed else ", no guessing"
        )


def _lower_bound(value: NDArray[np.int8], target: Fraction) -> FloatArray:
    """What a continuation table guarantees: its target at 1, min(target, 0) at 0 (endless play), -1 at -1."""
    return np.where(value == 1, float(target), np.where(value == 0, min(float(target), 0.0), -1.0))


# --------------------------------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class Table:
    """A solved table: value and distance for every placement of ``roles`` and each side to move.

    The state index is ``turn * placements + layout.rank(masks)`` with turn 0 when the analysed side moves.
    """

    name: str
    roles: Roles
    layout: Layout
    value: NDArray[np.int8]
    distance: NDArray[np.int16]
    source: str
    seconds: float

    @property
    def placements(self) -> int:
        return self.layout.placements

    def index(self, masks: Mapping[tuple[int, str], IntArray], turn: int | IntArray) -> IntArray:
        stacked = np.stack([np.asarray(masks[role], dtype=np.int64) for role in self.roles], axis=-1)
        flat = stacked.reshape(-1, len(self.roles))
        ranks = self.layout.rank(flat).reshape(stacked.shape[:-1])
        return np.asarray(turn, dtype=np.int64) * self.placements + ranks

    def masks(self) -> dict[tuple[int, str], IntArray]:
        """The masks of every placement (one turn), keyed by role."""
        placements = self.layout.enumerate()
        return {role: placements[:, j] for j, role in enumerate(self.roles)}

    def counts(self) -> dict[int, int]:
        return {v: int(np.count_nonzero(self.value == v)) for v in (1, 0, -1)}

    def mirror_indices(self) -> IntArray:
        """For each state, the index of its left-right mirror image (the rules are symmetric: so is the table)."""
        masks = self.masks()
        mirrored = {role: _map_mask(mask, _MIRROR) for role, mask in masks.items()}
        ranks = self.layout.rank(_stack(mirrored, self.roles))
        return np.concatenate([ranks, ranks + self.placements])

    def distance_histogram(self, value: int = 1) -> dict[int, int]:
        picked = self.distance[self.value == value]
        numbers = np.bincount(picked.astype(np.int64))
        return {d: int(c) for d, c in enumerate(numbers) if c}


def _empty_masks(n: int) -> dict[tuple[int, str], IntArray]:
    """Zero masks for every role of both sides (roles a table does not have stay empty)."""
    return {(side, role): np.zeros(n, dtype=np.int64) for side in (0, 1) for role in _ROLE_ORDER}


def _side_mask(masks: Mapping[tuple[int, str], IntArray], side: int) -> IntArray:
    return masks[(side, "kb")] | masks[(side, "kr")] | masks[(side, "p")]


class _Edges:
    """External nodes of a table under construction: states of tables with fewer pieces (reached by captures), whose
    value and distance are known, and single "game over" nodes. A whole solved table is appended as one block the
    first time one of its states is reached, so a node id is the block's offset plus the state's index."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.blocks: dict[object, int] = {}
        self.values: list[NDArray[np.int8]] = []
        self.distances: list[NDArray[np.int16]] = []
        self.size = 0

    def _append(self, value: NDArray[np.int8], distance: NDArray[np.int16]) -> int:
        offset = self.n + self.size
        self.values.append(value)
        self.distances.append(distance)
        self.size += len(value)
        return offset

    def over(self, value: int) -> int:
        """A node for "the game is over", worth ``value`` to the analysed side, 0 plies from the end."""
        key = f"over{value}"
        if key not in self.blocks:
            self.blocks[key] = self._append(np.array([value], dtype=np.int8), np.zeros(1, dtype=np.int16))
        return self.blocks[key]

    def states(self, table: Table, index: IntArray) -> IntArray:
        """Node ids for states of another, already solved table."""
        if id(table) not in self.blocks:
            self.blocks[id(table)] = self._append(table.value, table.distance)
        return self.blocks[id(table)] + index

    def external_value(self) -> NDArray[np.int8]:
        return np.concatenate(self.values) if self.values else np.zeros(0, dtype=np.int8)

    def external_distance(self) -> NDArray[np.int16]:
        return np.concatenate(self.distances) if self.distances else np.zeros(0, dtype=np.int16)


class TableStore:
    """Builds, caches and hands out tables. Tables depend on each other (captures lead to tables with fewer pieces,
    guesses look at the perfect-information table); each is built once per store and cached on disk by
    ``solvers.cache`` under its parameters."""

    def __init__(self, use_cache: bool = True, progress: Progress | None = None) -> None:
        self.use_cache = use_cache
        self.progress = progress
        self._tables: dict[str, Table] = {}

    def _load(
        self, name: str, params: dict[str, object], roles: Roles, layout: Layout, build: Callable[[], _Solved]
    ) -> Table:
        key = name + repr(sorted(params.items()))
        if key in self._tables:
            return self._tables[key]
        started = time.perf_counter()
        holder: dict[str, float] = {}

        def arrays() -> dict[str, np.ndarray]:
            solved = build()
            holder["seconds"] = time.perf_counter() - started
            return {"value": solved.value, "distance": solved.distance}

        loaded = load_or_build(f"mini-geister-{name}", params, arrays, version=CACHE_VERSION, use_cache=self.use_cache)
        value = loaded.arrays["value"].astype(np.int8)
        distance = loaded.arrays["distance"].astype(np.int16)
        if value.shape != (2 * layout.placements,) or distance.shape != value.shape:
            raise ValueError(f"table {name} has the wrong shape {value.shape}")
        table = Table(name, roles, layout, value, distance, loaded.source, holder.get("seconds", 0.0))
        self._tables[key] = table
        return table

    def _report(self, what: str) -> Callable[[float], None] | None:
        if self.progress is None:
            return None
        progress = self.progress

        def report(fraction: float) -> None:
            progress(what, fraction)

        return report

    # ---- the perfect-information tables

    def perfect(self, analysed: Army, opponent: Army) -> Table:
        """Colours known on both sides (``known_*`` counts only): 1 the analysed side forces a win, -1 the opponent
        does, 0 neither (endless play); distance = plies to the end with best play (the winner hurries)."""
        if analysed.purple or opponent.purple:
            raise ValueError("a perfect-information table has no purple pieces")
        roles = _roles(analysed, opponent)
        layout = Layout(tuple((analysed if s == ANALYSED else opponent).counts()[r] for s, r in roles))
        name = f"perfect-{analysed.known_blue}{analysed.known_red}-{opponent.known_blue}{opponent.known_red}"
        params: dict[str, object] = {"analysed": analysed.key(), "opponent": opponent.key()}
        return self._load(name, params, roles, layout, lambda: self._build_perfect(analysed, opponent, roles, layout))

    def _build_perfect(self, analysed: Army, opponent: Army, roles: Roles, layout: Layout) -> _Solved:
        placements = layout.placements
        base = layout.enumerate()
        masks = _empty_masks(placements)
        for j, role in enumerate(roles):
            masks[role] = base[:, j]
        armies = (analysed, opponent)
        occupied = _side_mask(masks, 0) | _side_mask(masks, 1)
        halves_terminal: list[NDArray[np.int8]] = []
        halves_distance: list[NDArray[np.int16]] = []
        edges = _Edges(2 * placements)
        win_node = {0: edges.over(1), 1: edges.over(-1)}  # the mover has just won
        lose_node = {0: win_node[1], 1: win_node[0]}
        columns: list[list[IntArray]] = [[], []]
        for mover in (0, 1):
            other = 1 - mover
            own_all = _side_mask(masks, mover)
            their_blue, their_red = masks[(other, "kb")], masks[(other, "kr")]
            for on, bit, moved in _steps(masks, armies[mover], mover):
                column = np.full(placements, -1, dtype=np.int64)
                empty = on & ((occupied & bit) == 0)
                column[empty] = layout.rank(_stack(moved, roles)[empty]) + other * placements
                captures: tuple[tuple[IntArray, Literal["B", "R"], str], ...] = (
                    (their_blue, "B", "kb"),
                    (their_red, "R", "kr"),
                )
                for hit, colour, kind in captures:
                    captured = on & ((hit & bit) != 0)
                    if not captured.any():
                        continue
                    left = (armies[other].blues if colour == "B" else armies[other].reds) - 1
                    if left == 0:  # the opponent's last blue wins, its last red loses
                        column[captured] = win_node[mover] if colour == "B" else lose_node[mover]
                        continue
                    after = list(armies)
                    after[other] = armies[other].without(colour, purple=False)
                    sub = self.perfect(after[0], after[1])
                    sub_masks = dict(moved)
                    sub_masks[(other, kind)] = masks[(other, kind)] & ~bit
                    index = sub.index({r: sub_masks[r][captured] for r in sub.roles}, other)
                    column[captured] = edges.states(sub, index)
                columns[mover].append(column)
            # Terminal: an escape, or a capture of the opponent's last blue, wins at once for the side to move.
            own_blue = masks[(mover, "kb")]
            wins = (own_blue & EXITS[mover]) != 0
            if armies[other].blues == 1:
                target = _square(their_blue, 0)
                wins |= (_NEIGHBOURS[target] & own_all) != 0
            stacked = np.stack(columns[mover], axis=1)
            stuck = ~(stacked >= 0).any(axis=1)
            sign = 1 if mover == 0 else -1
            halves_terminal.append(np.where(wins, sign, np.where(stuck, -sign, 0)).astype(np.int8))
            halves_distance.append(np.where(wins, 1, 0).astype(np.int16))
        width = max(len(columns[0]), len(columns[1]))
        successors = np.full((2 * placements, width), -1, dtype=np.int64)
        for mover in (0, 1):
            block = np.stack(columns[mover], axis=1)
            successors[mover * placements : (mover + 1) * placements, : block.shape[1]] = block
        turn = np.repeat(np.array([0, 1], dtype=np.int8), placements)
        return retrograde(
            successors,
            turn,
            np.concatenate(halves_terminal),
            np.concatenate(halves_distance),
            edges.external_value(),
            edges.external_distance(),
            self._report(f"perfect information, {analysed.text()} vs {opponent.text()}"),
        )

    # ---- the colourless tables

    def colourless(self, spec: ColourlessSpec) -> Table:
        roles = _roles(spec.analysed, spec.opponent)
        layout = Layout(tuple((spec.analysed if s == ANALYSED else spec.opponent).counts()[r] for s, r in roles))
        a, o = spec.analysed, spec.opponent
        target = str(spec.target).replace("-", "m").replace("/", "_")
        events = ("c" if spec.capture else "") + ("g" if spec.guess_allowed else "")
        name = f"colourless-{''.join(map(str, a.key()))}-{''.join(map(str, o.key()))}-t{target}-{events or 'none'}"
        return self._load(name, spec.params(), roles, layout, lambda: self._build_colourless(spec, roles, layout))

    def _build_colourless(self, spec: ColourlessSpec, roles: Roles, layout: Layout) -> _Solved:
        placements = layout.placements
        base = layout.enumerate()
        masks = _empty_masks(placements)
        for j, role in enumerate(roles):
            masks[role] = base[:, j]
        terminal = (
            _analysed_events(self, spec, masks).astype(np.int8),
            -_opponent_events(self, spec, masks).astype(np.int8),
        )
        occupied = _side_mask(masks, 0) | _side_mask(masks, 1)
        armies = (spec.analysed, spec.opponent)
        blocks: list[IntArray] = []
        for mover in (0, 1):
            columns: list[IntArray] = []
            for on, bit, moved in _steps(masks, armies[mover], mover):
                column = np.full(placements, -1, dtype=np.int64)
                empty = on & ((occupied & bit) == 0)
                column[empty] = layout.rank(_stack(moved, roles)[empty]) + (1 - mover) * placements
                columns.append(column)
            blocks.append(np.stack(columns, axis=1))
        width = max(b.shape[1] for b in blocks)
        successors = np.full((2 * placements, width), -1, dtype=np.int64)
        for mover, block in enumerate(blocks):
            successors[mover * placements : (mover + 1) * placements, : block.shape[1]] = block
        turn = np.repeat(np.array([0, 1], dtype=np.int8), placements)
        terminal_all = np.concatenate(terminal)
        return retrograde(
            successors,
            turn,
            terminal_all,
            np.where(terminal_all != 0, 1, 0).astype(np.int16),
            np.zeros(0, dtype=np.int8),
            np.zeros(0, dtype=np.int16),
            self._report(f"colourless, {spec.text()}"),
        )


def _stack(masks: Mapping[tuple[int, str], IntArray], roles: Roles) -> IntArray:
    return np.stack([masks[role] for role in roles], axis=1)


def _steps(
    masks: Mapping[tuple[int, str], IntArray], army: Army, mover: int
) -> Iterator[tuple[BoolArray, IntArray, dict[tuple[int, str], IntArray]]]:
    """Every one-square step of every piece of ``mover``, for all placements at once: whether the target square is
    on the board, its bit, and the masks with the piece moved (the caller decides what may stand on the target)."""
    for role in _ROLE_ORDER:
        squares = _squares(masks[(mover, role)], army.counts()[role])
        for slot in range(army.counts()[role]):
            src = squares[slot]
            for direction in range(4):
                dst = _STEP[src, direction]
                on = dst >= 0
                bit = _bits(np.where(on, dst, 0))
                moved = dict(masks)
                moved[(mover, role)] = masks[(mover, role)] ^ _bits(src) | bit
                yield on, bit, moved


# ---- terminal events of the colourless analysis (vectorised over all placements of one turn)


def _pieces(masks: Mapping[tuple[int, str], IntArray], army: Army, side: int) -> list[tuple[str, IntArray]]:
    """(role, square) of every piece of ``side``: one array of squares per piece slot."""
    return [(role, square) for role in _ROLE_ORDER for square in _squares(masks[(side, role)], army.counts()[role])]


def _after_capture(
    masks: Mapping[tuple[int, str], IntArray],
    victim_side: int,
    victim_role: str,
    victim_square: IntArray,
    colour: Literal["B", "R"],
    victim_army: Army,
    capturer_side: int,
    capturer_role: str,
    capturer_square: IntArray,
) -> tuple[dict[tuple[int, str], IntArray], Army]:
    """Masks and the victim's army after a capture: the victim (of ``colour``) leaves, the capturer takes its square,
    and purple pieces left of a single colour become known ones."""
    out = dict(masks)
    victim_bit = _bits(victim_square)
    out[(victim_side, victim_role)] = masks[(victim_side, victim_role)] & ~victim_bit
    after = victim_army.without(colour, purple=victim_role == "p")
    if victim_role == "p" and not after.purple:
        # The purple pieces left are all of one colour now: they count as known pieces of that colour.
        known = "kb" if after.known_blue > victim_army.known_blue else "kr"
        out[(victim_side, known)] = out[(victim_side, known)] | out[(victim_side, "p")]
        out[(victim_side, "p")] = np.zeros_like(out[(victim_side, "p")])
    mover = out[(capturer_side, capturer_role)]
    out[(capturer_side, capturer_role)] = mover ^ _bits(capturer_square) | victim_bit
    return out, after


def _analysed_events(store: TableStore, spec: ColourlessSpec, masks: Mapping[tuple[int, str], IntArray]) -> BoolArray:
    """Where the analysed side, to move, can end the game for an average of at least ``spec.target``."""
    mine, theirs = spec.analysed, spec.opponent
    target = float(spec.target)
    exits = EXITS[ANALYSED]
    events = np.zeros(len(masks[(0, "kb")]), dtype=bool)
    if target <= 1:
        events |= (masks[(0, "kb")] & exits) != 0
    escape = spec.escape_average
    if escape is not None and escape >= spec.target:
        events |= (masks[(0, "p")] & exits) != 0
    if spec.capture:
        events |= _random_capture(store, spec, masks)
    if spec.guess_allowed:
        events |= _guess(store, mine, theirs, masks)
    return events


def _random_capture(store: TableStore, spec: ColourlessSpec, masks: Mapping[tuple[int, str], IntArray]) -> BoolArray:
    """The analysed side picks a set of opponent pieces in reach and captures one of them at random; the opponent has
    coloured them as badly as its counts allow. An event where some set's worst average reaches the target."""
    mine, theirs = spec.analysed, spec.opponent
    n = len(masks[(0, "kb")])
    my_pieces = _pieces(masks, mine, ANALYSED)
    their_pieces = _pieces(masks, theirs, OPPONENT)
    mine_all = _side_mask(masks, ANALYSED)
    reach: list[BoolArray] = []
    outcome: list[dict[str, FloatArray]] = []
    for role, square in their_pieces:
        reach.append((_NEIGHBOURS[square] & mine_all) != 0)
        colours: tuple[Literal["B", "R"], ...] = ("B",) if role == "kb" else ("R",) if role == "kr" else ("B", "R")
        results: dict[str, FloatArray] = {}
        for colour in colours:
            last = (theirs.blues if colour == "B" else theirs.reds) == 1
            if last:
                results[colour] = np.full(n, 1.0 if colour == "B" else -1.0)
                continue
            best = np.full(n, -np.inf)
            for my_role, my_square in my_pieces:
                adjacent = (_NEIGHBOURS[square] >> my_square) & 1 == 1
                if not adjacent.any():
                    continue
                after, army = _after_capture(
                    masks, OPPONENT, role, square, colour, theirs, ANALYSED, my_role, my_square
                )
                sub = store.colourless(spec.continuation(mine, army))
                index = sub.index({r: after[r][adjacent] for r in sub.roles}, OPPONENT)
                bound = np.full(n, -np.inf)
                bound[adjacent] = _lower_bound(sub.value[index], spec.continuation(mine, army).target)
                best = np.maximum(best, bound)
            results[colour] = best
        outcome.append(results)
    events = np.zeros(n, dtype=bool)
    slots = range(len(their_pieces))
    for size in range(1, len(their_pieces) + 1):
        for chosen in itertools.combinations(slots, size):
            reachable = np.logical_and.reduce([reach[q] for q in chosen])
            if not reachable.any():
                continue
            worst = np.full(n, np.inf)
            options = [sorted(outcome[q]) for q in chosen]
            for colouring in itertools.product(*options):
                purple_blue = sum(
                    1 for q, c in zip(chosen, colouring, strict=True) if their_pieces[q][0] == "p" and c == "B"
                )
                purple_red = sum(
                    1 for q, c in zip(chosen, colouring, strict=True) if their_pieces[q][0] == "p" and c == "R"
                )
                if purple_blue > theirs.purple_blue or purple_red > theirs.purple_red:
                    continue
                mean = sum(outcome[q][c] for q, c in zip(chosen, colouring, strict=True)) / size
                worst = np.minimum(worst, mean)
            events |= reachable & (worst >= float(spec.target) - _EPS)
    return events


def _guess(store: TableStore, mine: Army, theirs: Army, masks: Mapping[tuple[int, str], IntArray]) -> BoolArray:
    """Every colouring of both sides' purple pieces is a forced win with colours known, the analysed side to move."""
    perfect = store.perfect(Army(mine.blues, mine.reds), Army(theirs.blues, theirs.reds))
    n = len(masks[(0, "kb")])
    wins = np.ones(n, dtype=bool)
    colourings = []
    for side, army in ((ANALYSED, mine), (OPPONENT, theirs)):
        squares = _squares(masks[(side, "p")], army.purple)
        options = []
        for blue_slots in itertools.combinations(range(army.purple), army.purple_blue):
            blue = np.zeros(n, dtype=np.int64)
            for slot in blue_slots:
                blue |= _bits(squares[slot])
            options.append((blue, masks[(side, "p")] & ~blue))
        colourings.append(options)
    for (my_blue, my_red), (their_blue, their_red) in itertools.product(*colourings):
        known = {
            (0, "kb"): masks[(0, "kb")] | my_blue,
            (0, "kr"): masks[(0, "kr")] | my_red,
            (1, "kb"): masks[(1, "kb")] | their_blue,
            (1, "kr"): masks[(1, "kr")] | their_red,
        }
        wins &= perfect.value[perfect.index({r: known[r] for r in perfect.roles}, ANALYSED)] == 1
    return wins


def _opponent_events(store: TableStore, spec: ColourlessSpec, masks: Mapping[tuple[int, str], IntArray]) -> BoolArray:
    """Where the opponent, to move, can make the analysed side fall short: an escape (its piece may be blue), or a
    capture whose average (over the analysed side's random colours) is below the target."""
    mine, theirs = spec.analysed, spec.opponent
    target = float(spec.target)
    n = len(masks[(0, "kb")])
    events = np.zeros(n, dtype=bool)
    if target > -1:
        escapers = masks[(1, "kb")] | (masks[(1, "p")] if theirs.purple_blue else 0)
        events |= (escapers & EXITS[OPPONENT]) != 0
    their_pieces = _pieces(masks, theirs, OPPONENT)
    for role, square in _pieces(masks, mine, ANALYSED):
        colours: list[tuple[Literal["B", "R"], float]] = []
        if role == "kb":
            colours = [("B", 1.0)]
        elif role == "kr":
            colours = [("R", 1.0)]
        else:
            colours = [("B", mine.purple_blue / mine.purple), ("R", mine.purple_red / mine.purple)]
        for their_role, their_square in their_pieces:
            adjacent = (_NEIGHBOURS[square] >> their_square) & 1 == 1
            if not adjacent.any():
                continue
            average = np.zeros(n)
            for colour, weight in colours:
                if weight == 0:
                    continue
                last = (mine.blues if colour == "B" else mine.reds) == 1
                if last:
                    average += weight * (-1.0 if colour == "B" else 1.0)
                    continue
                after, army = _after_capture(
                    masks, ANALYSED, role, square, colour, mine, OPPONENT, their_role, their_square
                )
                sub = store.colourless(spec.continuation(army, theirs))
                index = sub.index({r: after[r][adjacent] for r in sub.roles}, ANALYSED)
                bound = np.zeros(n)
                bound[adjacent] = _lower_bound(sub.value[index], spec.continuation(army, theirs).target)
                average += weight * bound
            events |= adjacent & (average < target - _EPS)
    return events


# --------------------------------------------------------------------------------------------------- the 2-vs-2 game

PURPLE_PAIR = Army(purple_blue=1, purple_red=1)
#: Section 2-3: escape attempts and the random capture when both opponent pieces are in reach.
BASE = ColourlessSpec(PURPLE_PAIR, PURPLE_PAIR, Fraction(0), capture=True, guess=False)
#: Section 4: the random capture is replaced by the guess, which includes it (the capture stays on: it changes
#: nothing, and the continuation tables of section 6 use exactly this table).
EXTENDED = ColourlessSpec(PURPLE_PAIR, PURPLE_PAIR, Fraction(0), capture=True, guess=True)
SPECS: dict[str, ColourlessSpec] = {"base": BASE, "extended": EXTENDED}
RULES: tuple[Rule, ...] = ("base", "extended")
START = MINI.standard_start()
#: The analysed side's pieces and the opponent's at the start, in the analysis frame (b1 c1 / b4 c4; b2 and b3 for a
#: third piece).
START_SQUARES = ((1, 2, 5), (13, 14, 9))


@dataclass(frozen=True)
class Assessment:
    """A placement's value for the analysed side and the plies to the deciding event (``None`` when undecided)."""

    value: int
    distance: int | None

    def to_json(self) -> dict[str, int | None]:
        return {"value": self.value, "distance": self.distance}

    def text(self) -> str:
        if self.value == 0:
            return "undecided (neither side can force its event)"
        who = "the analysed side" if self.value == 1 else "the opponent"
        return f"{who} forces its event in {self.distance} {'ply' if self.distance == 1 else 'plies'}"


def _assessment(table: Table, index: int) -> Assessment:
    value = int(table.value[index])
    return Assessment(value, int(table.distance[index]) if value else None)


@dataclass(frozen=True)
class _Frame:
    """A Mini-Geister position seen from the analysed side: its squares and the opponent's in the analysis frame
    (flipped up-down when player 2 is analysed), and whose turn it is (0: the analysed side's)."""

    analysed: Side
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    turn: int

    def masks(self) -> dict[tuple[int, str], IntArray]:
        masks = _empty_masks(1)
        masks[(ANALYSED, "p")] = np.array([sum(1 << s for s in self.mine)], dtype=np.int64)
        masks[(OPPONENT, "p")] = np.array([sum(1 << s for s in self.theirs)], dtype=np.int64)
        return masks


def _to_frame(square: Square, analysed: Side) -> int:
    index = MINI.index(square)
    return flip_square(index) if analysed is Side.P2 else index


def parse_position(position: str | GeisterState, variant: Variant | str | None = MINI) -> GeisterState:
    """A game state from position text (``spec/notation.md``; ``variant=None`` infers it), or the state itself."""
    if isinstance(position, GeisterState):
        return position
    return GeisterState.from_position(position, variant)


def colourless_state(position: str | GeisterState) -> GeisterState:
    """The Mini-Geister position with every colour hidden (``U``/``u``), as the purple strategy plays it: any piece
    on its exit may try to escape, whatever colour the text gave it."""
    state = parse_position(position)
    if (state.variant.width, state.variant.height) != (4, 4):
        raise InvalidPositionError(f"Mini-Geister is played on 4x4, not {state.variant.width}x{state.variant.height}")
    ranks, _, rest = state.position().partition(" ")
    hidden = ranks.translate(str.maketrans("BRbr", "UUuu"))
    return GeisterState.from_position(f"{hidden} {rest}", MINI)


def _colourless_frame(state: GeisterState, analysed: Side | None) -> _Frame:
    """The 2-vs-2 placement of ``state`` for the colourless tables; a clear error if there is none."""
    if (state.variant.width, state.variant.height) != (4, 4):
        raise InvalidPositionError(f"Mini-Geister is played on 4x4, not {state.variant.width}x{state.variant.height}")
    if state.captured:
        raise InvalidPositionError("the colourless analysis covers positions before any capture (2 pieces a side)")
    if state.is_terminal():
        raise InvalidPositionError(f"the game is over: {state.outcome()}")
    side = state.to_move if analysed is None else analysed
    squares: dict[Side, list[int]] = {Side.P1: [], Side.P2: []}
    for square, piece in state.pieces():
        squares[piece.side].append(_to_frame(square, side))
    for who, found in squares.items():
        if len(found) != 2:
            raise InvalidPositionError(
                f"{who} has {len(found)} pieces on the board; Mini-Geister positions have 2 a side"
            )
    return _Frame(
        side, tuple(sorted(squares[side])), tuple(sorted(squares[side.other])), 0 if state.to_move is side else 1
    )


@dataclass(frozen=True)
class MoveAssessment:
    """A legal move of the side to move and what it leads to for the analysed side, under each rule.

    ``event`` names moves that end the game at once: ``escape`` (an escape attempt), ``capture`` (the analysed side
    takes a piece: decided by that piece's colour, so no value; the base rule's event chooses between two such
    captures at random) and ``captured`` (the opponent takes an unseen piece: average 0, the analysed side's target).
    """

    move: Move
    event: str | None
    base: Assessment | None
    extended: Assessment | None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"move": self.move.to_text()}
        if self.event is not None:
            out["event"] = self.event
        out["base"] = None if self.base is None else self.base.to_json()
        out["extended"] = None if self.extended is None else self.extended.to_json()
        return out


@dataclass(frozen=True)
class PositionAnalysis:
    """``analyse_position``'s answer: the placement under both rules, and every legal move's result."""

    position: str
    analysed: Side
    to_move: Side
    base: Assessment
    extended: Assessment
    moves: tuple[MoveAssessment, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "position": self.position,
            "for": self.analysed.number,
            "to_move": self.to_move.number,
            "base": self.base.to_json(),
            "extended": self.extended.to_json(),
            "moves": [m.to_json() for m in self.moves],
        }


@dataclass(frozen=True)
class LineStep:
    """One ply of a solved line: who plays, the move (``None`` for a guess), the event it is (if it ends the game),
    and the distance before the ply (the last step has distance 1)."""

    ply: int
    side: Side
    move: Move | None
    event: str | None
    distance: int

    def to_text(self) -> str:
        return "guess" if self.move is None else self.move.to_text()


@dataclass(frozen=True)
class MiniGeisterTables:
    """The 2-vs-2 tables: colourless under the base and extended rules, and the perfect-information table."""

    base: Table
    extended: Table
    perfect: Table
    store: TableStore = field(compare=False, repr=False)

    @classmethod
    def load(cls, use_cache: bool = True, progress: Progress | None = None) -> MiniGeisterTables:
        """From the disk cache, or solved (and saved) when missing, stale or corrupt."""
        store = TableStore(use_cache, progress)
        return cls.from_store(store)

    @classmethod
    def from_store(cls, store: TableStore) -> MiniGeisterTables:
        return cls(
            store.colourless(BASE),
            store.colourless(EXTENDED),
            store.perfect(Army(1, 1), Army(1, 1)),
            store,
        )

    def table(self, rule: Rule) -> Table:
        if rule not in RULES:
            raise ValueError(f"the rule is 'base' or 'extended', not {rule!r}")
        return self.base if rule == "base" else self.extended

    @property
    def seconds(self) -> float:
        """Seconds spent solving in this process (0 when every table came from the cache)."""
        return self.base.seconds + self.extended.seconds + self.perfect.seconds

    @property
    def sources(self) -> dict[str, str]:
        return {"base": self.base.source, "extended": self.extended.source, "perfect": self.perfect.source}

    def assess(self, position: str | GeisterState, analysed: Side | None = None, rule: Rule = "base") -> Assessment:
        frame = _colourless_frame(colourless_state(position), analysed)
        table = self.table(rule)
        return _assessment(table, int(table.index(frame.masks(), frame.turn)[0]))

    def value(self, position: str | GeisterState, analysed: Side | None = None, rule: Rule = "base") -> int:
        return self.assess(position, analysed, rule).value

    def distance(self, position: str | GeisterState, analysed: Side | None = None, rule: Rule = "base") -> int | None:
        return self.assess(position, analysed, rule).distance

    def counts(self, rule: Rule = "base") -> dict[int, int]:
        """Placements of each value (both sides to move; the paper's 12,339 for value 1 under the base rule)."""
        return self.table(rule).counts()

    def distance_histogram(self, rule: Rule = "base") -> dict[int, int]:
        """Value-1 placements by distance (the paper's Table 1 under the base rule)."""
        return self.table(rule).distance_histogram(1)

    def initial_distances(self, rule: Rule = "base") -> tuple[Assessment, Assessment]:
        """The start position when the analysed side moves first, and when the opponent does."""
        first = self.assess(MINI.standard_start(Side.P1), Side.P1, rule)
        second = self.assess(MINI.standard_start(Side.P2), Side.P1, rule)
        return first, second


@cache
def _default_store() -> TableStore:
    """The process's store for callers that pass none: tables come from the disk cache (or are solved once)."""
    return TableStore()


@cache
def _default_tables() -> MiniGeisterTables:
    return MiniGeisterTables.from_store(_default_store())


def _tables(tables: MiniGeisterTables | None) -> MiniGeisterTables:
    return tables if tables is not None else _default_tables()


def _event_of(state: GeisterState, move: Move) -> str | None:
    if move.dst is None:
        return "escape"
    target = state.piece_at(move.dst)
    if target is not None:
        return "capture" if target.side is not state.to_move else None
    return None


def _move_result(
    tables: MiniGeisterTables, state: GeisterState, move: Move, analysed: Side
) -> tuple[str | None, Assessment | None, Assessment | None]:
    """What ``move`` (by the side to move) leads to for ``analysed`` under each rule."""
    event = _event_of(state, move)
    mover_is_analysed = state.to_move is analysed
    if event == "escape":
        outcome = Assessment(1, 0) if mover_is_analysed else Assessment(-1, 0)
        return event, outcome, outcome
    if event == "capture":
        if mover_is_analysed:
            return "capture", None, None
        return "captured", Assessment(1, 0), Assessment(1, 0)
    after = state.clone()
    after.push(move)
    frame = _colourless_frame(after, analysed)
    masks = frame.masks()
    results = [_assessment(t, int(t.index(masks, frame.turn)[0])) for t in (tables.base, tables.extended)]
    return None, results[0], results[1]


def analyse_position(
    position: str | GeisterState, analysed: Side | None = None, tables: MiniGeisterTables | None = None
) -> PositionAnalysis:
    """The placement's value and distance for ``analysed`` (default: the side to move) under both rules, and the
    same for the position after each legal move: what the CLI's ``--position`` and the app's advice panel show."""
    tables = _tables(tables)
    state = colourless_state(position)
    frame = _colourless_frame(state, analysed)
    masks = frame.masks()
    base = _assessment(tables.base, int(tables.base.index(masks, frame.turn)[0]))
    extended = _assessment(tables.extended, int(tables.extended.index(masks, frame.turn)[0]))
    moves = []
    for move in state.legal_moves():
        event, after_base, after_extended = _move_result(tables, state, move, frame.analysed)
        moves.append(MoveAssessment(move, event, after_base, after_extended))
    return PositionAnalysis(state.position(short=True), frame.analysed, state.to_move, base, extended, tuple(moves))


def _terminal_event(state: GeisterState, frame: _Frame, rule: Rule) -> tuple[str, list[Move]]:
    """The event a distance-1 placement ends with, and its moves (none for a guess)."""
    moves = state.legal_moves()
    escapes = [m for m in moves if m.dst is None]
    if escapes:
        return "escape", escapes
    captures = [m for m in moves if _event_of(state, m) == "capture"]
    targets = {m.dst for m in captures}
    if frame.turn == 0 and len(targets) == 2:
        return "capture", captures
    if frame.turn == 0 and rule == "extended":
        return "guess", []
    raise AssertionError(f"no terminal event in {state.position()}")  # pragma: no cover - the tables say there is


def _best_moves(
    tables: MiniGeisterTables, state: GeisterState, analysed: Side, rule: Rule
) -> tuple[Assessment, str | None, list[Move]]:
    """The side to move's best moves by the analysed side's table (see ``equilibrium_moves``)."""
    frame = _colourless_frame(state, analysed)
    table = tables.table(rule)
    here = _assessment(table, int(table.index(frame.masks(), frame.turn)[0]))
    if here.distance == 1:
        event, moves = _terminal_event(state, frame, rule)
        return here, event, moves
    scored: list[tuple[Move, Assessment]] = []
    for move in state.legal_moves():
        if _event_of(state, move) is not None:
            continue
        after = state.clone()
        after.push(move)
        next_frame = _colourless_frame(after, analysed)
        scored.append((move, _assessment(table, int(table.index(next_frame.masks(), next_frame.turn)[0]))))
    # Key: larger is better for the side to move. The side that wins by a value hurries, the loser delays.
    sign = 1 if frame.turn == 0 else -1

    def key(item: tuple[Move, Assessment]) -> tuple[int, int]:
        result = item[1]
        mine = sign * result.value
        length = result.distance or 0
        return (mine, -length if mine > 0 else length)

    best = max(key(item) for item in scored)
    return here, None, [move for move, result in scored if key((move, result)) == best]


def equilibrium_moves(
    position: str | GeisterState,
    analysed: Side | None = None,
    rule: Rule = "base",
    tables: MiniGeisterTables | None = None,
) -> list[Move]:
    """The moves the paper's Nash strategy plays, for the side to move, by ``analysed``'s table (default: the side
    to move, which is the strategy itself).

    At the analysed side's turn: at value 1 the moves to value-1 placements one ply closer (the escape attempt, or
    both captures of the random capture, at distance 1; an empty list at a guess: the strategy guesses, looks at its
    own colours and plays the perfect-information win); at value 0 the moves that keep value 0 (endless play scores 0,
    as in section 5); at value -1 the moves that delay the opponent longest. At the opponent's turn, the replies that
    resist best: the fastest way to its own event, else keeping value 0, else the longest delay.
    """
    state = colourless_state(position)
    return _best_moves(_tables(tables), state, state.to_move if analysed is None else analysed, rule)[2]


def solved_line(
    position: str | GeisterState = START,
    analysed: Side | None = None,
    rule: Rule = "base",
    tables: MiniGeisterTables | None = None,
) -> list[LineStep]:
    """A line of best play from ``position``: the side whose event is forced plays a distance-minimising move, the
    other a distance-maximising reply, ending with the event (escape, random capture, or guess). From the start it is
    13 plies when the analysed side moves first and 16 when the opponent does (base rule); 11 under the extended rule.
    Raises ``ValueError`` for an undecided placement: its best play never ends."""
    tables = _tables(tables)
    state = colourless_state(position)
    side = state.to_move if analysed is None else analysed
    steps: list[LineStep] = []
    while True:
        here, event, moves = _best_moves(tables, state, side, rule)
        if here.value == 0:
            raise ValueError(f"neither side can force its event from {state.position(short=True)}: play may never end")
        assert here.distance is not None
        move = moves[0] if moves else None
        steps.append(LineStep(len(steps) + 1, state.to_move, move, event, here.distance))
        if event is not None:
            return steps
        assert move is not None
        state.push(move)


# --------------------------------------------------------------------------------------------------- perfect info


def perfect_information_value(position: str | GeisterState, store: TableStore | None = None) -> Assessment:
    """The position with every colour known, for the side to move: 1 it forces a win, -1 the opponent does,
    0 neither (endless play); distance = plies to the end with best play. Any Mini-Geister family position
    (2 vs 2, 3 vs 2, after captures)."""
    state = parse_position(position, variant=None)
    if (state.variant.width, state.variant.height) != (4, 4):
        raise InvalidPositionError("the perfect-information tables are for the 4x4 Mini-Geister family")
    if state.is_terminal():
        raise InvalidPositionError(f"the game is over: {state.outcome()}")
    mover = state.to_move
    squares: dict[tuple[int, str], list[int]] = {(s, r): [] for s in (0, 1) for r in ("kb", "kr")}
    for square, piece in state.pieces():
        if piece.colour is Colour.UNKNOWN:
            raise InvalidPositionError(
                f"the colour of the piece on {square} is not known: give every colour (B/R, b/r)"
            )
        who = ANALYSED if piece.side is mover else OPPONENT
        squares[(who, "kb" if piece.colour is Colour.BLUE else "kr")].append(_to_frame(square, mover))
    armies = [Army(len(squares[(s, "kb")]), len(squares[(s, "kr")])) for s in (0, 1)]
    if any(a.pieces > 3 or a.blues > 2 or a.reds > 2 for a in armies):
        raise InvalidPositionError("the perfect-information tables cover at most 3 pieces a side, 2 of a colour")
    table = (store or _default_store()).perfect(armies[0], armies[1])
    masks = _empty_masks(1)
    for key, found in squares.items():
        masks[key] = np.array([sum(1 << s for s in found)], dtype=np.int64)
    return _assessment(table, int(table.index(masks, ANALYSED)[0]))


# --------------------------------------------------------------------------------------------------- 3 vs 2 (section 6)


@dataclass(frozen=True)
class SideAnalysis:
    """One section-6 analysis: a side's strategy, the table it is judged by, and the result at the start.

    ``designated``: the strategy first names one opponent piece blue at random (the opponent may know which); the
    analysed side then plays for ``target`` as if that were true, so the start is secured only if it is from every
    choice (``initial`` is the worst of them). ``paper``: the start's value the paper reports.
    """

    section: str
    title: str
    three_piece_side: bool
    spec: ColourlessSpec
    table: Table
    initial: tuple[Assessment, Assessment]
    paper: int
    claim: str
    designated: bool = False

    @property
    def secured(self) -> bool:
        """Whether the start is secured for both sides to move: value 1, or 0 where endless play (0) meets the
        target."""
        return all(a.value == 1 or (a.value == 0 and self.spec.target <= 0) for a in self.initial)


@dataclass(frozen=True)
class ThreeVsTwo:
    colours: Literal["rrb", "rbb"]
    analyses: tuple[SideAnalysis, ...]
    seconds: float


def _initial(table: Table, spec: ColourlessSpec, designated: bool) -> tuple[Assessment, Assessment]:
    """The start for the analysed side moving first and second: its pieces on b1 c1 (b2), the opponent's on
    b4 c4 (b3). A known red goes on b2 (the red-red-blue strategy's fixed red); a designated blue on each opponent
    square in turn (the worst counts)."""
    mine, theirs = START_SQUARES[0][: spec.analysed.pieces], START_SQUARES[1][: spec.opponent.pieces]
    placements: list[dict[tuple[int, str], list[int]]] = []
    if designated:
        for chosen in theirs:
            placements.append({(0, "p"): list(mine), (1, "kb"): [chosen], (1, "p"): [q for q in theirs if q != chosen]})
    elif spec.analysed.known_red:
        placements.append({(0, "p"): list(mine[:2]), (0, "kr"): [mine[2]], (1, "p"): list(theirs)})
    else:
        placements.append({(0, "p"): list(mine), (1, "p"): list(theirs)})
    results = []
    for turn in (0, 1):
        found = []
        for placement in placements:
            masks = _empty_masks(1)
            for key, squares in placement.items():
                masks[key] = np.array([sum(1 << s for s in squares)], dtype=np.int64)
            found.append(_assessment(table, int(table.index(masks, turn)[0])))
        # Worst first: -1, then 0, then the longest 1.
        results.append(min(found, key=lambda a: (a.value, -(a.distance or 0) if a.value == 1 else a.distance or 0)))
    return results[0], results[1]


def _section_6(colours: Literal["rrb", "rbb"]) -> list[tuple[str, str, bool, ColourlessSpec, int, str, bool]]:
    if colours == "rrb":
        three = Army(known_red=1, purple_blue=1, purple_red=1)
        return [
            (
                "6.1.1",
                "red-red-blue side: b2 is red, b1 and c1 purple; aims for 0",
                True,
                ColourlessSpec(
                    three, PURPLE_PAIR, Fraction(0), continuation_targets=((Army(1, 1), PURPLE_PAIR, Fraction(1)),)
                ),
                0,
                "secures >= 0 (endless play counts 0)",
                False,
            ),
            (
                "6.1.2",
                "2-piece side against red-red-blue: no guessing; aims for 0",
                False,
                ColourlessSpec(PURPLE_PAIR, Army(purple_blue=1, purple_red=2), Fraction(0), guess=False),
                1,
                "secures >= 0",
                False,
            ),
        ]
    three = Army(purple_blue=2, purple_red=1)
    return [
        (
            "6.2.1",
            "red-blue-blue side: all three purple; aims for 1/3",
            True,
            ColourlessSpec(three, PURPLE_PAIR, Fraction(1, 3)),
            1,
            "secures >= 1/3",
            False,
        ),
        (
            "6.2.2",
            "2-piece side: random capture among 2 pieces in reach; aims for -1/2",
            False,
            ColourlessSpec(PURPLE_PAIR, three, Fraction(-1, 2), guess=False),
            0,
            "secures >= -1/2 (endless play counts 0)",
            False,
        ),
        (
            "6.2.2",
            "2-piece side: random capture among all 3 pieces; aims for -1/3",
            False,
            ColourlessSpec(PURPLE_PAIR, three, Fraction(-1, 3), guess=False),
            -1,
            "fails: -1/3 not secured",
            False,
        ),
        (
            "6.2.2",
            "2-piece side: names one piece blue at random (right 2/3 of the time), then aims for 0; -1/3 overall",
            False,
            ColourlessSpec(PURPLE_PAIR, Army(known_blue=1, purple_blue=1, purple_red=1), Fraction(0), guess=False),
            -1,
            "fails: -1/3 not secured",
            True,
        ),
    ]


def three_vs_two(
    colours: Literal["rrb", "rbb"],
    use_cache: bool = True,
    progress: Progress | None = None,
    store: TableStore | None = None,
) -> ThreeVsTwo:
    """The section-6 analyses for the 3-piece side's colours: each side's strategy, solved by the general mechanism
    (with the perfect-information and continuation tables it needs), and its value at the start for both sides to
    move. Red-red-blue: both sides secure >= 0 (the game's value is 0). Red-blue-blue: the 3-piece side secures
    >= 1/3, the 2-piece side >= -1/2 (two attempts at -1/3 fail)."""
    if colours not in ("rrb", "rbb"):
        raise ValueError(f"the 3-piece side's colours are 'rrb' or 'rbb', not {colours!r}")
    store = store or TableStore(use_cache, progress)
    started = time.perf_counter()
    analyses = []
    for section, title, three_piece, spec, paper, claim, designated in _section_6(colours):
        table = store.colourless(spec)
        analyses.append(
            SideAnalysis(
                section, title, three_piece, spec, table, _initial(table, spec, designated), paper, claim, designated
            )
        )
    return ThreeVsTwo(colours, tuple(analyses), time.perf_counter() - started)
