"""The compiled kernels: move generation, make/unmake, status, perft and playouts (the only module importing numba).

Every kernel takes the state ``s`` (an int64 array laid out as ``layout`` says) and the variant's tables ``t``
(``tables.tables(variant)``); see the package docstring for why plain arrays. Kernels call each other, so a searcher
written as another ``numba.njit`` function can call them without leaving compiled code.

Compilation is lazy and cached on disk (``cache=True``). Before numba is imported this module picks the cache
folder (``compiled_cache.engine_folder``: keyed on the engine's sources, found without numba). If that folder cannot
be written, a fresh temporary folder is used (removed at exit); if not even that works, the kernels compile without a
disk cache. So the app runs, quietly, without a writable cache. The folder is handed to numba's config only while each
kernel is decorated (``_kernel``), then the previous setting is put back: other numba users in the process and child
processes are not redirected. ``warm_up()`` compiles or loads every kernel, one process at a time per folder
(``compiled_cache.compiling``).

Numba pitfalls this module avoids (each costs a wrong answer or a recompilation when met):

* everything is int64: a uint64 mixed with an int64 (a literal is an int64) becomes a float64 in numba;
* right shifts of int64 are arithmetic, so the random generator masks after shifting, and bitboards stay below
  bit 62 (``layout.MAX_SQUARES``) so that they are never negative;
* a read-only array is a different numba type from a writable one: tables are always read-only, states always
  writable, and the Python wrappers turn flags into ``bool`` and knobs into ``float``, so one compilation serves
  every caller;
* a kernel called from compiled code with a bare constant argument (``make(s, t, m, PURPLE)``) is compiled once
  more, specialised on that value (numba types it ``Literal[int]``); ``int(np.int64(PURPLE))`` avoids it.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from solvers.geister.playouts import UNIFORM, Policy
from solvers.geister_engine import compiled_cache
from solvers.geister_engine.layout import (
    BLUE,
    BLUE0,
    CAPTURED,
    DRAW,
    ESCAPE_DST,
    ESCAPED,
    ESCAPED_KIND,
    HASH,
    KINDS,
    LOSS,
    MAX_MOVES,
    NO_MOVE,
    NONE,
    OCC0,
    ONGOING,
    PLY,
    PURPLE,
    PURPLE_ESCAPES,
    RED,
    RED0,
    SQUARE_BITS,
    SQUARE_MASK,
    STATE_SIZE,
    TURN,
    WIN,
)
from solvers.geister_engine.tables import (
    T_APPROACH,
    T_BLUES,
    T_BOARD,
    T_EXITS,
    T_NOT_FIRST_FILE,
    T_NOT_LAST_FILE,
    T_PLY_LIMIT,
    T_REDS,
    T_WIDTH,
    T_Z_CAPTURED,
    T_Z_PIECE,
    T_Z_TURN,
    Z_COUNTS,
)

__all__ = [
    "CACHE_FOLDER",
    "gen_moves",
    "make",
    "perft",
    "perft_nodes",
    "playout",
    "playout_batch",
    "playout_trace",
    "random_word",
    "run_playouts",
    "status",
    "unmake",
    "warm_up",
]

Ints = npt.NDArray[np.int64]


# --------------------------------------------------------------------------------------------------- the cache


def _writable(folder: Path) -> bool:
    """Whether numba could cache here: the same test numba makes (create the folder, write a temporary file)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _choose_cache_folder() -> str | None:
    folder = compiled_cache.engine_folder()
    if _writable(folder):
        return str(folder)
    try:
        temporary = tempfile.mkdtemp(prefix="nashplay-numba-")
    except OSError:
        return None
    atexit.register(shutil.rmtree, temporary, ignore_errors=True)
    return temporary


#: Where compiled kernels are cached in this process, or ``None`` when no folder could be written.
CACHE_FOLDER = _choose_cache_folder()

import numba  # noqa: E402 - the cache folder must be chosen first
from numba.core import cgutils, types  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

#: numba sets its config attributes at run time, so mypy cannot see them.
_numba_config: Any = numba.config
_jit = numba.njit(cache=CACHE_FOLDER is not None)

F = TypeVar("F", bound=Callable[..., Any])


def _kernel(function: F) -> F:
    """``numba.njit`` that keeps the Python signature for mypy (numba has no type stubs), cached in
    ``CACHE_FOLDER``: numba picks a function's cache folder from its config when the function is decorated, so the
    folder is set around each decoration (here, and in ``evaluation`` and ``search``, which decorate with this) and
    put back after it."""
    previous = _numba_config.CACHE_DIR
    if CACHE_FOLDER is not None:
        _numba_config.CACHE_DIR = CACHE_FOLDER
    try:
        return cast(F, _jit(function))
    finally:
        _numba_config.CACHE_DIR = previous


# --------------------------------------------------------------------------------------------------- bit tricks


@intrinsic
def _ctz_intrinsic(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit: one ``tzcnt`` instruction (numba exposes no bit scan of its own)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], cgutils.true_bit)

    return types.int64(types.int64), codegen


_ctz = cast(Callable[[int], int], _ctz_intrinsic)


@intrinsic
def _popcount_intrinsic(typingctx: Any, x: Any) -> Any:
    """Number of set bits: one ``popcnt`` instruction."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


_popcount = cast(Callable[[int], int], _popcount_intrinsic)


@_kernel
def _kind_at(s: Ints, side: int, bit: int) -> int:
    if s[BLUE0 + side] & bit:
        return BLUE
    if s[RED0 + side] & bit:
        return RED
    return PURPLE


@_kernel
def _escapers(s: Ints, t: Ints, side: int) -> int:
    """Pieces of ``side`` that may escape now: on an own exit, and blue (or purple, when purple escapes are on)."""
    on_exit = int(s[OCC0 + side] & t[T_EXITS + side])
    if s[PURPLE_ESCAPES]:
        return on_exit & ~int(s[RED0 + side])
    return on_exit & int(s[BLUE0 + side])


# --------------------------------------------------------------------------------------------------- moves


@_kernel
def _emit(out: Ints, n: int, targets: int, delta: int) -> int:
    """Append a step to each square of ``targets`` from the square ``delta`` before it; the new count."""
    while targets:
        dst = _ctz(targets)
        out[n] = (dst - delta) | dst << SQUARE_BITS
        n += 1
        targets &= targets - 1
    return n


@_kernel
def gen_moves(s: Ints, t: Ints, out: Ints) -> int:
    """The legal moves of the side to move, written to ``out`` (at least ``MAX_MOVES`` long); their number.

    Escapes come first, then steps north, south, east, west, each by destination square (the order in which
    playouts number the moves they draw from). The state is not checked for being over: ask ``status`` first.
    """
    side = int(s[TURN])
    own = int(s[OCC0 + side])
    target = int(t[T_BOARD]) & ~own
    width = int(t[T_WIDTH])
    n = 0
    escapers = _escapers(s, t, side)
    while escapers:
        out[n] = _ctz(escapers) | ESCAPE_DST << SQUARE_BITS
        n += 1
        escapers &= escapers - 1
    n = _emit(out, n, (own << width) & target, width)
    n = _emit(out, n, (own >> width) & target, -width)
    n = _emit(out, n, ((own & int(t[T_NOT_LAST_FILE])) << 1) & target, 1)
    return _emit(out, n, ((own & int(t[T_NOT_FIRST_FILE])) >> 1) & target, -1)


@_kernel
def _has_move(s: Ints, t: Ints) -> bool:
    side = int(s[TURN])
    own = int(s[OCC0 + side])
    target = int(t[T_BOARD]) & ~own
    width = int(t[T_WIDTH])
    steps = (own << width) | (own >> width)
    steps |= ((own & int(t[T_NOT_LAST_FILE])) << 1) | ((own & int(t[T_NOT_FIRST_FILE])) >> 1)
    return (steps & target) != 0 or _escapers(s, t, side) != 0


@_kernel
def _z_piece(t: Ints, side: int, kind: int, square: int) -> int:
    return int(t[T_Z_PIECE + 64 * (KINDS * side + kind) + square])


@_kernel
def _z_captured(t: Ints, side: int, kind: int, count: int) -> int:
    return int(t[T_Z_CAPTURED + Z_COUNTS * (KINDS * side + kind) + count])


@_kernel
def _flip(s: Ints, side: int, kind: int, bits: int) -> None:
    """Toggle ``bits`` in ``side``'s occupancy and, for a blue or red piece, in its colour board."""
    s[OCC0 + side] ^= bits
    if kind == BLUE:
        s[BLUE0 + side] ^= bits
    elif kind == RED:
        s[RED0 + side] ^= bits


@_kernel
def make(s: Ints, t: Ints, move: int, capture_as: int) -> int:
    """Play ``move`` (legal for the side to move) in place; returns what ``unmake`` needs to take it back.

    ``capture_as`` (``BLUE``, ``RED`` or ``PURPLE``) is the kind a captured *purple* piece is counted as; a piece
    of known colour is counted as its colour whatever ``capture_as`` says. Undo word: bits 0-1 the captured
    piece's kind + 1 (0: no capture), bits 2-3 the kind it was counted as, bits 4-5 and 6-7 the previous
    ``ESCAPED`` + 1 and ``ESCAPED_KIND`` + 1.
    """
    side = int(s[TURN])
    other = 1 - side
    src = move & SQUARE_MASK
    dst = move >> SQUARE_BITS & SQUARE_MASK
    src_bit = 1 << src
    kind = _kind_at(s, side, src_bit)
    h = int(s[HASH]) ^ _z_piece(t, side, kind, src) ^ int(t[T_Z_TURN])
    undo = (int(s[ESCAPED]) + 1) << 4 | (int(s[ESCAPED_KIND]) + 1) << 6
    if dst == ESCAPE_DST:
        _flip(s, side, kind, src_bit)
        s[ESCAPED] = side
        s[ESCAPED_KIND] = kind
    else:
        dst_bit = 1 << dst
        _flip(s, side, kind, src_bit | dst_bit)
        h ^= _z_piece(t, side, kind, dst)
        if s[OCC0 + other] & dst_bit:
            victim = _kind_at(s, other, dst_bit)
            _flip(s, other, victim, dst_bit)
            h ^= _z_piece(t, other, victim, dst)
            counted = capture_as if victim == PURPLE else victim
            slot = CAPTURED + KINDS * other + counted
            count = int(s[slot])
            h ^= _z_captured(t, other, counted, count) ^ _z_captured(t, other, counted, count + 1)
            s[slot] = count + 1
            undo |= (victim + 1) | counted << 2
    s[TURN] = other
    s[PLY] += 1
    s[HASH] = h
    return undo


@_kernel
def unmake(s: Ints, t: Ints, move: int, undo: int) -> None:
    """Take back ``move``, played by ``make`` which returned ``undo``: every field, hash included, as before."""
    other = int(s[TURN])
    side = 1 - other
    src = move & SQUARE_MASK
    dst = move >> SQUARE_BITS & SQUARE_MASK
    src_bit = 1 << src
    h = int(s[HASH]) ^ int(t[T_Z_TURN])
    if dst == ESCAPE_DST:
        kind = int(s[ESCAPED_KIND])
        _flip(s, side, kind, src_bit)
        h ^= _z_piece(t, side, kind, src)
    else:
        dst_bit = 1 << dst
        kind = _kind_at(s, side, dst_bit)
        _flip(s, side, kind, src_bit | dst_bit)
        h ^= _z_piece(t, side, kind, src) ^ _z_piece(t, side, kind, dst)
        victim = (undo & 3) - 1
        if victim >= 0:
            counted = undo >> 2 & 3
            _flip(s, other, victim, dst_bit)
            h ^= _z_piece(t, other, victim, dst)
            slot = CAPTURED + KINDS * other + counted
            count = int(s[slot])
            h ^= _z_captured(t, other, counted, count) ^ _z_captured(t, other, counted, count - 1)
            s[slot] = count - 1
    s[ESCAPED] = (undo >> 4 & 3) - 1
    s[ESCAPED_KIND] = (undo >> 6 & 3) - 1
    s[TURN] = side
    s[PLY] -= 1
    s[HASH] = h


# --------------------------------------------------------------------------------------------------- status


@_kernel
def _decided(s: Ints, t: Ints) -> int:
    """``status`` without the no-legal-move check (which playouts get for free from move generation)."""
    to_move = int(s[TURN])
    escaped = int(s[ESCAPED])
    if escaped != NONE:
        return WIN if escaped == to_move else LOSS
    # The same order as core.geister: player 1's losses first, all blues taken before all reds taken.
    for loser in range(2):
        blues = int(t[T_BLUES + loser])
        if blues and s[CAPTURED + KINDS * loser + BLUE] >= blues:
            return LOSS if loser == to_move else WIN
        reds = int(t[T_REDS + loser])
        if reds and s[CAPTURED + KINDS * loser + RED] >= reds:
            return WIN if loser == to_move else LOSS
    if s[PLY] >= t[T_PLY_LIMIT]:
        return DRAW
    return ONGOING


@_kernel
def status(s: Ints, t: Ints) -> int:
    """``ONGOING``, or the result for the side to move: ``WIN``, ``LOSS``, ``DRAW``.

    The rules of ``core.geister``: an escape wins for the side that escaped (also a purple escape, when allowed:
    the searcher that allows it means it as a threat; ``ESCAPED_KIND`` tells the two apart); all of a side's blue
    pieces captured loses for it; all its red pieces captured wins for it; the ply limit draws; a side to move
    with no legal move loses. Only captures counted as blue or red decide; purple captures decide nothing.
    """
    result = _decided(s, t)
    if result == ONGOING and not _has_move(s, t):
        return LOSS
    return result


@_kernel
def perft(s: Ints, t: Ints, depth: int) -> int:
    """Leaves of the move tree ``depth`` plies deep; a finished position is a leaf, not expanded.

    Each node costs one ``make`` and one ``unmake``; captured purple pieces stay purple. ``s`` is left as it was.
    """
    leaves, _ = perft_nodes(s, t, depth)
    return leaves


@_kernel
def perft_nodes(s: Ints, t: Ints, depth: int) -> tuple[int, int]:
    """``perft`` and the number of ``make`` calls it took (every node below the root: what benchmarks count).

    Iterative, with an explicit stack of move lists, so that numba needs no recursive typing.
    """
    if depth <= 0 or status(s, t) != ONGOING:
        return 1, 0
    moves = np.empty((depth, MAX_MOVES), dtype=np.int64)
    counts = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    undos = np.zeros(depth, dtype=np.int64)
    counts[0] = gen_moves(s, t, moves[0])
    as_purple = int(np.int64(PURPLE))  # a bare constant would compile another make, specialised on its value
    level = 0
    leaves = 0
    nodes = 0
    while level >= 0:
        if index[level] == counts[level]:
            level -= 1
            if level >= 0:
                unmake(s, t, moves[level, index[level]], undos[level])
                index[level] += 1
            continue
        move = moves[level, index[level]]
        undos[level] = make(s, t, move, as_purple)
        nodes += 1
        if level + 1 == depth or status(s, t) != ONGOING:
            leaves += 1
            unmake(s, t, move, undos[level])
            index[level] += 1
        else:
            level += 1
            counts[level] = gen_moves(s, t, moves[level])
            index[level] = 0
    return leaves, nodes


# --------------------------------------------------------------------------------------------------- random


@_kernel
def random_word(rng: Ints) -> int:
    """The next 64-bit output of splitmix64 (the state is ``rng[0]``), as a signed int64.

    The same stream as ``tables._splitmix64``; in int64 arithmetic (which wraps), with masks after right shifts
    because they are arithmetic on int64.
    """
    state = int(rng[0]) + -7046029254386353131  # 0x9E3779B97F4A7C15 as an int64
    rng[0] = state
    z = state
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * -4658895280553007687  # 0xBF58476D1CE4E5B9
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * -7723592293110705685  # 0x94D049BB133111EB
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


@_kernel
def _uniform(rng: Ints) -> float:
    """A float in [0, 1) from the top 53 bits."""
    return float((random_word(rng) >> 11) & 0x1FFFFFFFFFFFFF) * (1.0 / 9007199254740992.0)


@_kernel
def _below(rng: Ints, n: int) -> int:
    """An int in [0, n) by multiply-and-shift on 32 random bits (bias below n / 2**32: nothing for n <= 128)."""
    return ((random_word(rng) >> 32) & 0xFFFFFFFF) * n >> 32


# --------------------------------------------------------------------------------------------------- playouts


@_kernel
def _nth_bit(word: int, n: int) -> int:
    """The square of the ``n``-th set bit of ``word``, counting from 0 at the lowest."""
    for _ in range(n):
        word &= word - 1
    return _ctz(word)


@_kernel
def _run(
    w: Ints, t: Ints, rng: Ints, escape_first: bool, capture: float, advance: float, trace: Ints
) -> tuple[int, int]:
    """Play ``w`` to its end (``w`` is read, not changed); (result for its side to move, first move played).

    Moves go to ``trace`` while it has room (an empty array: no trace).

    Policy, as ``solvers.geister.playouts.Policy``: escape first if asked and possible; else with probability
    ``capture``, if some step captures, a move uniform among the captures *and the escapes*; else with probability
    ``advance``, if some blue piece can step nearer its nearest exit, uniform among those steps and the escapes;
    else uniform among all legal moves. (The numpy engine narrows only its step words and keeps its escape word,
    hence the escapes in the shortlists.) The random draws come in the same order as there. The one difference
    is the generator (splitmix64 here, numpy's PCG64 there; an index drawn from 32 bits here, from a float there),
    so the same seed plays other games with the same distribution, which the tests compare.

    Why this shape: playouts are what Monte Carlo players spend their time on. With the state in an array the
    compiler must store and reload it every ply (it cannot prove that the state and the tables do not overlap),
    and listing every move to draw one took half of each ply. Here the position lives in local variables relative
    to the side to move, and a move is drawn from the counts of five bitboards (escapes, steps north, south, east,
    west; the order ``gen_moves`` lists them) then the bit inside one: 2.7 times the speed of ``gen_moves`` plus
    ``make``. The rules are those of ``make`` (purple captures counted as purple) and ``status`` for a start that
    ``status`` finds going on: one move changes one captured count, so only that count can decide.
    """
    start = int(w[TURN])
    result = status(w, t)
    if result != ONGOING:
        return result, NO_MOVE
    me = start
    me_occ, op_occ = int(w[OCC0 + me]), int(w[OCC0 + 1 - me])
    me_blue, op_blue = int(w[BLUE0 + me]), int(w[BLUE0 + 1 - me])
    me_red, op_red = int(w[RED0 + me]), int(w[RED0 + 1 - me])
    me_exit, op_exit = int(t[T_EXITS + me]), int(t[T_EXITS + 1 - me])
    # Captures each side can still suffer before it loses (blues) or wins (reds); below 0 when it has none.
    me_blues = int(t[T_BLUES + me]) - int(w[CAPTURED + KINDS * me + BLUE])
    op_blues = int(t[T_BLUES + 1 - me]) - int(w[CAPTURED + KINDS * (1 - me) + BLUE])
    me_reds = int(t[T_REDS + me]) - int(w[CAPTURED + KINDS * me + RED])
    op_reds = int(t[T_REDS + 1 - me]) - int(w[CAPTURED + KINDS * (1 - me) + RED])
    if me_blues <= 0:
        me_blues = -1
    if op_blues <= 0:
        op_blues = -1
    if me_reds <= 0:
        me_reds = -1
    if op_reds <= 0:
        op_reds = -1
    purple_escapes = w[PURPLE_ESCAPES] != 0
    plies_left = int(t[T_PLY_LIMIT]) - int(w[PLY])
    board = int(t[T_BOARD])
    not_first = int(t[T_NOT_FIRST_FILE])
    not_last = int(t[T_NOT_LAST_FILE])
    width = int(t[T_WIDTH])
    guided = capture > 0.0 or advance > 0.0
    first = NO_MOVE
    plies = 0
    while True:
        escapers = me_occ & me_exit & (~me_red if purple_escapes else me_blue)
        if escape_first and escapers:
            src = _ctz(escapers)
            dst = ESCAPE_DST
        else:
            target = board & ~me_occ
            north = (me_occ << width) & target
            south = (me_occ >> width) & target
            east = ((me_occ & not_last) << 1) & target
            west = ((me_occ & not_first) >> 1) & target
            if guided:
                narrowed = False
                if capture > 0.0 and _uniform(rng) < capture and (north | south | east | west) & op_occ:
                    north &= op_occ
                    south &= op_occ
                    east &= op_occ
                    west &= op_occ
                    narrowed = True
                if not narrowed and advance > 0.0 and _uniform(rng) < advance:
                    approach = T_APPROACH + 4 * me
                    a_north = north & (me_blue << width) & t[approach]
                    a_south = south & (me_blue >> width) & t[approach + 1]
                    a_east = east & ((me_blue & not_last) << 1) & t[approach + 2]
                    a_west = west & ((me_blue & not_first) >> 1) & t[approach + 3]
                    if a_north | a_south | a_east | a_west:
                        north, south, east, west = a_north, a_south, a_east, a_west
            n_escapes = _popcount(escapers)
            n_north = _popcount(north)
            n_south = _popcount(south)
            n_east = _popcount(east)
            n_west = _popcount(west)
            total = n_escapes + n_north + n_south + n_east + n_west
            if total == 0:
                result = LOSS
                break
            r = _below(rng, total)
            if r < n_escapes:
                src = _nth_bit(escapers, r)
                dst = ESCAPE_DST
            else:
                r -= n_escapes
                if r < n_north:
                    dst = _nth_bit(north, r)
                    src = dst - width
                else:
                    r -= n_north
                    if r < n_south:
                        dst = _nth_bit(south, r)
                        src = dst + width
                    else:
                        r -= n_south
                        if r < n_east:
                            dst = _nth_bit(east, r)
                            src = dst - 1
                        else:
                            dst = _nth_bit(west, r - n_east)
                            src = dst + 1
        if plies == 0:
            first = src | dst << SQUARE_BITS
        if plies < trace.shape[0]:
            trace[plies] = src | dst << SQUARE_BITS
        plies += 1
        if dst == ESCAPE_DST:
            result = WIN
            break
        src_bit = 1 << src
        dst_bit = 1 << dst
        me_occ ^= src_bit | dst_bit
        if me_blue & src_bit:
            me_blue ^= src_bit | dst_bit
        elif me_red & src_bit:
            me_red ^= src_bit | dst_bit
        if op_occ & dst_bit:
            op_occ ^= dst_bit
            if op_blue & dst_bit:
                op_blue ^= dst_bit
                op_blues -= 1
                if op_blues == 0:
                    result = WIN
                    break
            elif op_red & dst_bit:
                op_red ^= dst_bit
                op_reds -= 1
                if op_reds == 0:
                    result = LOSS
                    break
        plies_left -= 1
        if plies_left <= 0:
            result = DRAW
            break
        me_occ, op_occ = op_occ, me_occ
        me_blue, op_blue = op_blue, me_blue
        me_red, op_red = op_red, me_red
        me_exit, op_exit = op_exit, me_exit
        me_blues, op_blues = op_blues, me_blues
        me_reds, op_reds = op_reds, me_reds
        me = 1 - me
    # ``result`` is for ``me``: the side that moved last, or that had no move.
    return (result if me == start else -result), first


@_kernel
def playout(s: Ints, t: Ints, rng: Ints, escape_first: bool, capture: float, advance: float) -> int:
    """One playout from ``s`` (left unchanged): +1 / 0 / -1 for the side to move in ``s``.

    Meant for fully coloured positions; a purple piece plays as one that may not advance, and its capture counts
    as purple (decides nothing). The policy knobs are those of ``solvers.geister.playouts.Policy``.
    """
    result, _ = _run(s, t, rng, escape_first, capture, advance, np.empty(0, dtype=np.int64))
    return result


@_kernel
def playout_trace(s: Ints, t: Ints, rng: Ints, escape_first: bool, capture: float, advance: float, trace: Ints) -> int:
    """``playout``, also writing the moves played to ``trace`` (``NO_MOVE`` after the last; cut at its length)."""
    trace[:] = NO_MOVE
    result, _ = _run(s, t, rng, escape_first, capture, advance, trace)
    return result


@_kernel
def playout_batch(
    starts: Ints,
    t: Ints,
    rng: Ints,
    escape_first: bool,
    capture: float,
    advance: float,
    results: npt.NDArray[np.int8],
    first_moves: Ints,
) -> None:
    """``len(results)`` playouts, playout ``i`` from ``starts[i % len(starts)]`` (a 2-D array of states, e.g. one
    per sampled world); results for each start's side to move, and each first move (``NO_MOVE`` if the start was
    over) when ``first_moves`` is as long as ``results`` (an empty array: not recorded)."""
    no_trace = np.empty(0, dtype=np.int64)
    worlds = starts.shape[0]
    record = first_moves.shape[0] >= results.shape[0]
    for i in range(results.shape[0]):
        result, first = _run(starts[i % worlds], t, rng, escape_first, capture, advance, no_trace)
        results[i] = result
        if record:
            first_moves[i] = first


# --------------------------------------------------------------------------------------------------- Python side


def run_playouts(
    starts: Ints,
    t: Ints,
    rng: Ints,
    count: int,
    policy: Policy = UNIFORM,
    first_moves: bool = False,
) -> tuple[npt.NDArray[np.int8], Ints | None]:
    """``count`` playouts from ``starts`` (one state, or a 2-D array of them used in turn), with ``policy``:
    the results (+1 / 0 / -1 for each start's side to move) and, if asked, the first move of each."""
    worlds = np.ascontiguousarray(np.atleast_2d(starts), dtype=np.int64)
    if worlds.shape[1] != STATE_SIZE:
        raise ValueError(f"a state has {STATE_SIZE} fields, not {worlds.shape[1]}")
    results = np.empty(count, dtype=np.int8)
    first = np.empty(count if first_moves else 0, dtype=np.int64)
    playout_batch(
        worlds,
        t,
        rng,
        bool(policy.escape_first),
        float(policy.capture),
        float(policy.advance),
        results,
        first,
    )
    return results, (first if first_moves else None)


def warm_up() -> float:
    """Compile (or load from the disk cache) every kernel, with the argument types callers use; the seconds it
    took. The app's background compilation calls it after the search's (``tui.engine_compile``), so that the
    players that run playouts do not wait for the compiler either. Another process compiling into the same folder is
    waited for (then this one loads)."""
    started = time.perf_counter()
    with compiled_cache.compiling(None if CACHE_FOLDER is None else Path(CACHE_FOLDER)):
        _call_every_kernel()
    return time.perf_counter() - started


def _call_every_kernel() -> None:
    from core.geister import VARIANTS, GeisterState
    from solvers.geister_engine.convert import from_state
    from solvers.geister_engine.tables import new_rng, tables

    variant = VARIANTS["mini-geister"]
    t = tables(variant)
    s = from_state(GeisterState.from_setups(variant, "BR", "RB"))
    rng = new_rng(0)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    gen_moves(s, t, moves)
    for kind in (BLUE, RED, PURPLE):
        undo = make(s, t, int(moves[0]), kind)
        status(s, t)
        unmake(s, t, int(moves[0]), undo)
    perft(s, t, 2)
    perft_nodes(s, t, 2)  # loaded by perft's machine code, but not into its own dispatcher
    random_word(rng)
    playout(s, t, rng, False, 0.0, 0.0)
    playout_trace(s, t, rng, True, 0.5, 0.5, np.empty(4, dtype=np.int64))
    run_playouts(s, t, rng, 2, UNIFORM, first_moves=True)
