"""The Mini-Geister tables: building each table (its successors and terminal events, vectorised over every
placement of a turn), caching it on disk, and handing it out.

A table stores, for each placement and side to move, a value (1: the analysed side forces its event, -1: the
opponent forces its event, 0: neither) and a distance in plies, where the final escape, capture or guess counts as
one ply. Tables depend on each other (captures lead to tables with fewer pieces, guesses look at the
perfect-information table); a ``TableStore`` builds each once and caches it with ``solvers.cache``.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from solvers.cache import load_or_build
from solvers.mini_geister.model import (
    ANALYSED,
    EPS,
    MINI_BOARD,
    OPPONENT,
    ROLE_ORDER,
    Army,
    Board,
    BoolArray,
    ColourlessSpec,
    FloatArray,
    IntArray,
    Progress,
    Roles,
    lower_bound,
    map_mask,
    roles_of,
)
from solvers.retrograde import Layout, Solved, bits, lowest_squares, nth_square, retrograde

#: Bump when a table's contents change, so cached tables are rebuilt.
CACHE_VERSION = 1

#: A listener for the tables built in this thread by stores made without a ``progress`` of their own (the advice's
#: stores are made deep inside ``solvers.advice.mini_geister``): the app's game screen listens while it works out its
#: advice, so that a first use that must solve tables says so (``building_reported``).
_listening = threading.local()


@contextlib.contextmanager
def building_reported(progress: Progress) -> Iterator[None]:
    """Inside, a table this thread solves (not one read from the cache) is reported to ``progress`` (its name and
    the share of it done), whichever store solves it."""
    before = getattr(_listening, "progress", None)
    _listening.progress = progress
    try:
        yield
    finally:
        _listening.progress = before


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
    board: Board = MINI_BOARD

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
        mirrored = {role: map_mask(mask, self.board.mirror) for role, mask in masks.items()}
        ranks = self.layout.rank(stack_masks(mirrored, self.roles))
        return np.concatenate([ranks, ranks + self.placements])

    def distance_histogram(self, value: int = 1) -> dict[int, int]:
        picked = self.distance[self.value == value]
        numbers = np.bincount(picked.astype(np.int64))
        return {d: int(c) for d, c in enumerate(numbers) if c}


def empty_masks(n: int) -> dict[tuple[int, str], IntArray]:
    """Zero masks for every role of both sides (roles a table does not have stay empty)."""
    return {(side, role): np.zeros(n, dtype=np.int64) for side in (0, 1) for role in ROLE_ORDER}


def side_mask(masks: Mapping[tuple[int, str], IntArray], side: int) -> IntArray:
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

    def __init__(self, use_cache: bool = True, progress: Progress | None = None, board: Board = MINI_BOARD) -> None:
        self.use_cache = use_cache
        self.progress = progress
        #: The board every table of this store is on (Mini-Geister's 4x4, or a Geister endgame's 5x5 or 6x6).
        self.board = board
        self._tables: dict[str, Table] = {}

    def _load(
        self, name: str, params: dict[str, object], roles: Roles, layout: Layout, build: Callable[[], Solved]
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

        board = self.board
        # Mini-Geister's tables keep the names and keys they were cached under; larger boards have their own.
        cache_name = f"mini-geister-{name}" if board == MINI_BOARD else f"geister-endgame-{board.name}-{name}"
        if board != MINI_BOARD:
            params = {**params, "board": [board.width, board.height]}
        loaded = load_or_build(cache_name, params, arrays, version=CACHE_VERSION, use_cache=self.use_cache)
        value = loaded.arrays["value"].astype(np.int8)
        distance = loaded.arrays["distance"].astype(np.int16)
        if value.shape != (2 * layout.placements,) or distance.shape != value.shape:
            raise ValueError(f"table {name} has the wrong shape {value.shape}")
        table = Table(name, roles, layout, value, distance, loaded.source, holder.get("seconds", 0.0), board)
        self._tables[key] = table
        return table

    def _report(self, what: str) -> Callable[[float], None] | None:
        progress = self.progress or getattr(_listening, "progress", None)
        if progress is None:
            return None

        def report(fraction: float) -> None:
            progress(what, fraction)

        return report

    def _starting(self, what: str) -> None:
        """Say that ``what`` is being solved from its start: working out its events (its first half of the work)
        comes before the retrograde pass that reports shares, and a listener said nothing for most of a table."""
        report = self._report(what)
        if report is not None:
            report(0.0)

    # ---- the perfect-information tables

    def perfect(self, analysed: Army, opponent: Army) -> Table:
        """Colours known on both sides (``known_*`` counts only): 1 the analysed side forces a win, -1 the opponent
        does, 0 neither (endless play); distance = plies to the end with best play (the winner hurries)."""
        if analysed.purple or opponent.purple:
            raise ValueError("a perfect-information table has no purple pieces")
        roles = roles_of(analysed, opponent)
        counts = tuple((analysed if s == ANALYSED else opponent).counts()[r] for s, r in roles)
        layout = Layout(counts, self.board.squares)
        name = f"perfect-{analysed.known_blue}{analysed.known_red}-{opponent.known_blue}{opponent.known_red}"
        params: dict[str, object] = {"analysed": analysed.key(), "opponent": opponent.key()}
        return self._load(name, params, roles, layout, lambda: self._build_perfect(analysed, opponent, roles, layout))

    def _build_perfect(self, analysed: Army, opponent: Army, roles: Roles, layout: Layout) -> Solved:
        self._starting(f"perfect information, {analysed.text()} vs {opponent.text()}")
        placements = layout.placements
        base = layout.enumerate()
        masks = empty_masks(placements)
        for j, role in enumerate(roles):
            masks[role] = base[:, j]
        armies = (analysed, opponent)
        occupied = side_mask(masks, 0) | side_mask(masks, 1)
        halves_terminal: list[NDArray[np.int8]] = []
        halves_distance: list[NDArray[np.int16]] = []
        edges = _Edges(2 * placements)
        win_node = {0: edges.over(1), 1: edges.over(-1)}  # the mover has just won
        lose_node = {0: win_node[1], 1: win_node[0]}
        columns: list[list[IntArray]] = [[], []]
        for mover in (0, 1):
            other = 1 - mover
            own_all = side_mask(masks, mover)
            their_blue, their_red = masks[(other, "kb")], masks[(other, "kr")]
            for on, bit, moved in _steps(masks, armies[mover], mover, self.board):
                column = np.full(placements, -1, dtype=np.int64)
                empty = on & ((occupied & bit) == 0)
                column[empty] = layout.rank(stack_masks(moved, roles)[empty]) + other * placements
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
            wins = (own_blue & self.board.exits[mover]) != 0
            if armies[other].blues == 1:
                target = nth_square(their_blue, 0)
                wins |= (self.board.neighbours[target] & own_all) != 0
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
        roles = roles_of(spec.analysed, spec.opponent)
        counts = tuple((spec.analysed if s == ANALYSED else spec.opponent).counts()[r] for s, r in roles)
        layout = Layout(counts, self.board.squares)
        a, o = spec.analysed, spec.opponent
        target = str(spec.target).replace("-", "m").replace("/", "_")
        events = ("c" if spec.capture else "") + ("g" if spec.guess_allowed else "")
        name = f"colourless-{''.join(map(str, a.key()))}-{''.join(map(str, o.key()))}-t{target}-{events or 'none'}"
        return self._load(name, spec.params(), roles, layout, lambda: self._build_colourless(spec, roles, layout))

    def _build_colourless(self, spec: ColourlessSpec, roles: Roles, layout: Layout) -> Solved:
        self._starting(f"colourless, {spec.text()}")
        placements = layout.placements
        base = layout.enumerate()
        masks = empty_masks(placements)
        for j, role in enumerate(roles):
            masks[role] = base[:, j]
        terminal = (
            _analysed_events(self, spec, masks).astype(np.int8),
            -_opponent_events(self, spec, masks).astype(np.int8),
        )
        occupied = side_mask(masks, 0) | side_mask(masks, 1)
        armies = (spec.analysed, spec.opponent)
        blocks: list[IntArray] = []
        for mover in (0, 1):
            columns: list[IntArray] = []
            for on, bit, moved in _steps(masks, armies[mover], mover, self.board):
                column = np.full(placements, -1, dtype=np.int64)
                empty = on & ((occupied & bit) == 0)
                column[empty] = layout.rank(stack_masks(moved, roles)[empty]) + (1 - mover) * placements
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


def stack_masks(masks: Mapping[tuple[int, str], IntArray], roles: Roles) -> IntArray:
    return np.stack([masks[role] for role in roles], axis=1)


def _steps(
    masks: Mapping[tuple[int, str], IntArray], army: Army, mover: int, board: Board
) -> Iterator[tuple[BoolArray, IntArray, dict[tuple[int, str], IntArray]]]:
    """Every one-square step of every piece of ``mover``, for all placements at once: whether the target square is
    on the board, its bit, and the masks with the piece moved (the caller decides what may stand on the target)."""
    for role in ROLE_ORDER:
        squares = lowest_squares(masks[(mover, role)], army.counts()[role])
        for slot in range(army.counts()[role]):
            src = squares[slot]
            for direction in range(4):
                dst = board.step[src, direction]
                on = dst >= 0
                bit = bits(np.where(on, dst, 0))
                moved = dict(masks)
                moved[(mover, role)] = masks[(mover, role)] ^ bits(src) | bit
                yield on, bit, moved


# ---- terminal events of the colourless analysis (vectorised over all placements of one turn)


def _pieces(masks: Mapping[tuple[int, str], IntArray], army: Army, side: int) -> list[tuple[str, IntArray]]:
    """(role, square) of every piece of ``side``: one array of squares per piece slot."""
    return [
        (role, square) for role in ROLE_ORDER for square in lowest_squares(masks[(side, role)], army.counts()[role])
    ]


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
    victim_bit = bits(victim_square)
    out[(victim_side, victim_role)] = masks[(victim_side, victim_role)] & ~victim_bit
    after = victim_army.without(colour, purple=victim_role == "p")
    if victim_role == "p" and not after.purple:
        # The purple pieces left are all of one colour now: they count as known pieces of that colour.
        known = "kb" if after.known_blue > victim_army.known_blue else "kr"
        out[(victim_side, known)] = out[(victim_side, known)] | out[(victim_side, "p")]
        out[(victim_side, "p")] = np.zeros_like(out[(victim_side, "p")])
    mover = out[(capturer_side, capturer_role)]
    out[(capturer_side, capturer_role)] = mover ^ bits(capturer_square) | victim_bit
    return out, after


def _analysed_events(store: TableStore, spec: ColourlessSpec, masks: Mapping[tuple[int, str], IntArray]) -> BoolArray:
    """Where the analysed side, to move, can end the game for an average of at least ``spec.target``."""
    mine, theirs = spec.analysed, spec.opponent
    target = float(spec.target)
    exits = store.board.exits[ANALYSED]
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
    mine_all = side_mask(masks, ANALYSED)
    reach: list[BoolArray] = []
    outcome: list[dict[str, FloatArray]] = []
    for role, square in their_pieces:
        reach.append((store.board.neighbours[square] & mine_all) != 0)
        colours: tuple[Literal["B", "R"], ...] = ("B",) if role == "kb" else ("R",) if role == "kr" else ("B", "R")
        results: dict[str, FloatArray] = {}
        for colour in colours:
            last = (theirs.blues if colour == "B" else theirs.reds) == 1
            if last:
                results[colour] = np.full(n, 1.0 if colour == "B" else -1.0)
                continue
            best = np.full(n, -np.inf)
            for my_role, my_square in my_pieces:
                adjacent = (store.board.neighbours[square] >> my_square) & 1 == 1
                if not adjacent.any():
                    continue
                after, army = _after_capture(
                    masks, OPPONENT, role, square, colour, theirs, ANALYSED, my_role, my_square
                )
                sub = store.colourless(spec.continuation(mine, army))
                index = sub.index({r: after[r][adjacent] for r in sub.roles}, OPPONENT)
                bound = np.full(n, -np.inf)
                bound[adjacent] = lower_bound(sub.value[index], spec.continuation(mine, army).target)
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
            events |= reachable & (worst >= float(spec.target) - EPS)
    return events


def _guess(store: TableStore, mine: Army, theirs: Army, masks: Mapping[tuple[int, str], IntArray]) -> BoolArray:
    """Every colouring of both sides' purple pieces is a forced win with colours known, the analysed side to move."""
    perfect = store.perfect(Army(mine.blues, mine.reds), Army(theirs.blues, theirs.reds))
    n = len(masks[(0, "kb")])
    wins = np.ones(n, dtype=bool)
    colourings = []
    for side, army in ((ANALYSED, mine), (OPPONENT, theirs)):
        squares = lowest_squares(masks[(side, "p")], army.purple)
        options = []
        for blue_slots in itertools.combinations(range(army.purple), army.purple_blue):
            blue = np.zeros(n, dtype=np.int64)
            for slot in blue_slots:
                blue |= bits(squares[slot])
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
        events |= (escapers & store.board.exits[OPPONENT]) != 0
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
            adjacent = (store.board.neighbours[square] >> their_square) & 1 == 1
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
                bound[adjacent] = lower_bound(sub.value[index], spec.continuation(army, theirs).target)
                average += weight * bound
            events |= adjacent & (average < target - EPS)
    return events
