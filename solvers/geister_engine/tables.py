"""Per-variant constants of the compiled engine, as one flat ``np.int64`` array (numpy only, no numba).

Why one flat array: numba passes a plain array to every kernel at no cost and sees no Python objects, and one array
per variant keeps the kernels' signatures the same for every variant (one compilation serves 6x6 and 4x4). The
fields are at the ``T_*`` offsets below; per-square fields have 64 entries whatever the board size.

Zobrist keys come from a fixed-seed splitmix64 written here in Python (not numpy's generators, whose streams are
not promised to stay the same across numpy releases), so a hash means the same in every process and release.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from core.game import Side
from core.geister import Variant
from core.notation import Square
from solvers.geister_engine.layout import KINDS, MAX_PIECES, MAX_SQUARES

__all__ = [
    "NO_PLY_LIMIT",
    "T_APPROACH",
    "T_BLUES",
    "T_BOARD",
    "T_DISTANCE",
    "T_EXITS",
    "T_HEIGHT",
    "T_NEIGHBOURS",
    "T_NOT_FIRST_FILE",
    "T_NOT_LAST_FILE",
    "T_PLY_LIMIT",
    "T_REDS",
    "T_SIZE",
    "T_SQUARES",
    "T_WIDTH",
    "T_Z_CAPTURED",
    "T_Z_PIECE",
    "T_Z_TURN",
    "Z_COUNTS",
    "new_rng",
    "tables",
]

Ints = npt.NDArray[np.int64]

#: The ply limit of a variant without one (the exact solvers' Mini-Geister): never reached.
NO_PLY_LIMIT = 1 << 62
#: Captured-count keys per (side, kind): counts 0 .. Z_COUNTS - 1.
Z_COUNTS = 32

T_WIDTH = 0
T_HEIGHT = 1
T_SQUARES = 2
#: Every square of the board.
T_BOARD = 3
#: The board without the first file (a); without the last file: the squares a step west / east may start from.
T_NOT_FIRST_FILE = 4
T_NOT_LAST_FILE = 5
#: ``T_EXITS + side``: the exit squares of ``side``.
T_EXITS = 6
#: ``T_BLUES + side``, ``T_REDS + side``: pieces of each colour ``side`` starts with.
T_BLUES = 8
T_REDS = 10
T_PLY_LIMIT = 12
T_Z_TURN = 13
#: ``T_APPROACH + 4 * side + direction`` (north, south, east, west): the squares a step in that direction reaches
#: coming nearer ``side``'s nearest exit (the guided playouts' ``advance``).
T_APPROACH = 16
#: ``T_NEIGHBOURS + square``: the squares one orthogonal step away.
T_NEIGHBOURS = T_APPROACH + 8
#: ``T_DISTANCE + 64 * side + square``: steps from ``square`` to ``side``'s nearest exit.
T_DISTANCE = T_NEIGHBOURS + 64
#: ``T_Z_PIECE + 64 * (KINDS * side + kind) + square``.
T_Z_PIECE = T_DISTANCE + 2 * 64
#: ``T_Z_CAPTURED + Z_COUNTS * (KINDS * side + kind) + count``.
T_Z_CAPTURED = T_Z_PIECE + 2 * KINDS * 64
T_SIZE = T_Z_CAPTURED + 2 * KINDS * Z_COUNTS

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
#: Any fixed number will do; changing it changes every hash (tests compare hashes only within one run).
_ZOBRIST_SEED = 0x6765697374657221


def _splitmix64(state: int) -> tuple[int, int]:
    """One step of splitmix64 on Python ints: (next state, output), both unsigned 64-bit."""
    state = (state + _GOLDEN) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _zobrist_keys(count: int) -> list[int]:
    state = _ZOBRIST_SEED
    keys = []
    for _ in range(count):
        state, z = _splitmix64(state)
        keys.append(_signed(z))
    return keys


def new_rng(seed: int) -> Ints:
    """A generator state for the kernels: one int64 word of splitmix64 (each AI owns its own array).

    The seed is mixed once, so that nearby seeds (0, 1, 2) start far apart in the stream.
    """
    _, mixed = _splitmix64(seed & _MASK64)
    return np.array([_signed(mixed)], dtype=np.int64)


@functools.cache
def tables(variant: Variant) -> Ints:
    """The constants of ``variant`` at the ``T_*`` offsets. Read-only: one array is shared by every caller, and
    numba compiles a read-only array as its own type, so handing kernels always this array keeps one compilation.
    """
    width, height = variant.width, variant.height
    squares = width * height
    if squares > MAX_SQUARES:
        raise ValueError(f"{variant.title}: the engine handles boards of at most {MAX_SQUARES} squares")
    for side in Side:
        if variant.pieces(side) > MAX_PIECES or max(variant.blues[side], variant.reds[side]) >= Z_COUNTS:
            raise ValueError(f"{variant.title}: the engine handles at most {MAX_PIECES} pieces a side")
    t = np.zeros(T_SIZE, dtype=np.int64)
    board = (1 << squares) - 1
    first_file = sum(1 << (rank * width) for rank in range(height))
    last_file = first_file << (width - 1)
    t[T_WIDTH] = width
    t[T_HEIGHT] = height
    t[T_SQUARES] = squares
    t[T_BOARD] = board
    t[T_NOT_FIRST_FILE] = board & ~first_file
    t[T_NOT_LAST_FILE] = board & ~last_file
    for side in Side:
        exits = [variant.index(square) for square in variant.exits[side]]
        t[T_EXITS + side] = sum(1 << e for e in exits)
        t[T_BLUES + side] = variant.blues[side]
        t[T_REDS + side] = variant.reds[side]
        for index in range(squares):
            file, rank = index % width, index // width
            t[T_DISTANCE + 64 * side + index] = min(abs(file - e % width) + abs(rank - e // width) for e in exits)
        distance = t[T_DISTANCE + 64 * side : T_DISTANCE + 64 * side + squares]
        for direction, (dfile, drank) in enumerate(((0, 1), (0, -1), (1, 0), (-1, 0))):
            for index in range(squares):
                file, rank = index % width - dfile, index // width - drank  # where the step starts
                if 0 <= file < width and 0 <= rank < height and distance[index] < distance[rank * width + file]:
                    t[T_APPROACH + 4 * side + direction] |= 1 << index
    t[T_PLY_LIMIT] = NO_PLY_LIMIT if variant.ply_limit is None else variant.ply_limit
    for index in range(squares):
        t[T_NEIGHBOURS + index] = sum(1 << variant.index(square) for square in _steps(variant, index))
    keys = _zobrist_keys(1 + 2 * KINDS * 64 + 2 * KINDS * Z_COUNTS)
    t[T_Z_TURN] = keys[0]
    t[T_Z_PIECE:T_Z_CAPTURED] = keys[1 : 1 + 2 * KINDS * 64]
    t[T_Z_CAPTURED:T_SIZE] = keys[1 + 2 * KINDS * 64 :]
    t.flags.writeable = False
    return t


def _steps(variant: Variant, index: int) -> list[Square]:
    square = variant.square(index)
    candidates = (square.offset(0, 1), square.offset(0, -1), square.offset(1, 0), square.offset(-1, 0))
    return [s for s in candidates if variant.on_board(s)]
