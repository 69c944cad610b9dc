"""Random playouts for the Geister family, many games at once: bitboards in numpy arrays.

Why this shape: Monte Carlo players live on playouts, and a per-ply Python loop plays only about 1,400 random games
a second (``spec/conventions.md``). Here every game of a batch is four 64-bit words (the occupancy and the blue
pieces of each side; a 6x6 board is 36 bits) and the batch advances one ply per numpy step, so the Python overhead
is paid once per ply for thousands of games instead of once per ply per game.

The state is kept *relative to the side to move*: ``me`` is the player to move, ``op`` the other, and after every
ply the two swap (swapping Python references, which costs nothing). Because both sides move in all four directions
only the exits tell the sides apart, and they swap along. Games in one batch may start from different positions
and at different plies (tree search evaluates many leaves at once); each keeps its own count of plies left before
the draw.

Random policy: each ply the side to move plays a move drawn uniformly from *all* its legal moves (every step of
every piece, plus escapes of blue pieces standing on an own exit). The draw happens when the game's total ply count
reaches the variant's limit (300 for Geister), counting plies played before the playout.

Guided policies (``Policy``; our attempt to go beyond the paper, used by UPP and ISMCTS): a side escapes whenever
it can, captures with some probability, and otherwise with some probability steps a blue piece nearer its exit;
the remaining moves are drawn uniformly as above. They narrow the move words before the same draw.

Drawing a uniform move without a 40-wide mask per game: the four destination bitboards (one per direction) and
the escape bitboard are counted (popcounts) and their running sum gives the number of legal moves ``L``; with
``r`` uniform in ``[0, L)`` one comparison finds the bitboard holding the ``r``-th move, popcounts of its 12-bit
chunks find the chunk, and a 4096 x 12 table selects the bit inside that chunk (``_random_step``).

The rules follow ``core.geister`` exactly (tests compare the two on thousands of random positions): an escape wins
at once; capturing the opponent's last blue piece wins; capturing the opponent's last red piece loses; reaching
the ply limit draws; a side to move with no legal move loses.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from core.game import Side
from core.geister import Colour, GeisterView, Variant
from core.notation import Move

__all__ = [
    "ESCAPE",
    "ESCAPE_FIRST",
    "UNIFORM",
    "Batch",
    "Policy",
    "Tables",
    "apply_moves",
    "batch_from_arrays",
    "legal_move_arrays",
    "move_from_squares",
    "playout",
    "position_bits",
    "tables",
]

U64 = np.dtype("<u8")
Bits = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.int64]

#: ``dst`` of an escape in the square-index form of moves (a piece leaving the board).
ESCAPE = -1
#: Plies left for a variant without a ply limit (the exact solvers' Mini-Geister): effectively never.
NO_LIMIT = 30_000

if sys.byteorder != "little":  # pragma: no cover - every machine we run on is little-endian
    raise ImportError("solvers.geister.playouts reads uint64 words byte by byte and assumes a little-endian machine")


@dataclass(frozen=True)
class Tables:
    """Per-variant constants of move generation (bit masks, byte layout, lookup tables)."""

    width: int
    height: int
    board: int
    not_first_file: int
    not_last_file: int
    exits: tuple[int, int]
    #: Per direction group (north, south, east, west, escape): how far ``dst`` lies from ``src``.
    delta: Ints
    #: ``bit[s]`` = ``1 << s`` for squares, and 0 for the ``ESCAPE`` pseudo square (index -1 = the last entry).
    bit: Bits
    #: 12-bit chunks in a word of the board (for selecting a set bit).
    chunks: int
    ply_limit: int
    #: ``approach[side, group]``: destination squares of a step in direction ``group`` (north, south, east, west)
    #: that bring a piece of ``side`` nearer its nearest exit (guided playouts).
    approach: Bits


@cache
def tables(variant: Variant) -> Tables:
    width, height = variant.width, variant.height
    squares = width * height
    if squares > 64:
        raise ValueError(f"{variant.title}: a {width}x{height} board does not fit in 64-bit words")
    board = (1 << squares) - 1
    first = sum(1 << (r * width) for r in range(height))
    last = sum(1 << (r * width + width - 1) for r in range(height))
    exits = tuple(sum(1 << variant.index(s) for s in variant.exits[side]) for side in Side)
    bit = np.array([1 << s for s in range(squares)] + [0], dtype=U64)
    approach = np.zeros((2, 4), dtype=U64)
    for side in Side:
        exit_squares = [variant.index(s) for s in variant.exits[side]]
        distance = [
            min(abs(i % width - e % width) + abs(i // width - e // width) for e in exit_squares) for i in range(squares)
        ]
        for group, d in enumerate((width, -width, 1, -1)):
            for dst in range(squares):
                src = dst - d
                step = 0 <= src < squares and abs(src % width - dst % width) + abs(src // width - dst // width) == 1
                if step and distance[dst] < distance[src]:
                    approach[side, group] |= np.uint64(1 << dst)
    return Tables(
        width=width,
        height=height,
        board=board,
        not_first_file=board & ~first,
        not_last_file=board & ~last,
        exits=(exits[0], exits[1]),
        delta=np.array([width, -width, 1, -1, 0], dtype=np.int64),
        bit=bit,
        chunks=(squares + CHUNK - 1) // CHUNK,
        ply_limit=variant.ply_limit if variant.ply_limit is not None else NO_LIMIT,
        approach=approach,
    )


@dataclass
class Batch:
    """Many games, relative to the side to move: ``me_*`` moves next, ``op_*`` is the other side.

    ``me_exit``/``op_exit`` are each side's exit squares (per game, because games may differ in who is to move),
    ``plies_left`` the plies before the ply-limit draw.
    """

    me_occ: Bits
    me_blue: Bits
    op_occ: Bits
    op_blue: Bits
    me_exit: Bits
    op_exit: Bits
    plies_left: npt.NDArray[np.int32]

    def __len__(self) -> int:
        return int(self.me_occ.shape[0])

    def swap(self) -> None:
        """The other side is to move now (references swap: no copying)."""
        self.me_occ, self.op_occ = self.op_occ, self.me_occ
        self.me_blue, self.op_blue = self.op_blue, self.me_blue
        self.me_exit, self.op_exit = self.op_exit, self.me_exit

    def take(self, index: npt.NDArray[np.intp] | npt.NDArray[np.bool_]) -> Batch:
        return Batch(
            self.me_occ[index],
            self.me_blue[index],
            self.op_occ[index],
            self.op_blue[index],
            self.me_exit[index],
            self.op_exit[index],
            self.plies_left[index],
        )


def batch_from_arrays(
    t: Tables,
    to_move: Side | npt.NDArray[np.int8],
    occ: tuple[Bits, Bits] | tuple[int, int],
    blue: tuple[Bits, Bits] | tuple[int, int],
    ply: int | npt.NDArray[np.int32],
    n: int,
) -> Batch:
    """A batch of ``n`` games from per-side words (absolute sides: index 0 is player 1), broadcasting scalars."""

    def words(value: Bits | int) -> Bits:
        return np.broadcast_to(np.asarray(value, dtype=U64), (n,)).copy()

    side = np.broadcast_to(np.asarray(int(to_move) if isinstance(to_move, Side) else to_move, dtype=np.int8), (n,))
    p1 = side == 0
    occ0, occ1 = words(occ[0]), words(occ[1])
    blue0, blue1 = words(blue[0]), words(blue[1])
    exit0, exit1 = words(t.exits[0]), words(t.exits[1])
    plies_left = np.broadcast_to(np.asarray(t.ply_limit - np.asarray(ply), dtype=np.int32), (n,)).copy()
    return Batch(
        me_occ=np.where(p1, occ0, occ1),
        me_blue=np.where(p1, blue0, blue1),
        op_occ=np.where(p1, occ1, occ0),
        op_blue=np.where(p1, blue1, blue0),
        me_exit=np.where(p1, exit0, exit1),
        op_exit=np.where(p1, exit1, exit0),
        plies_left=plies_left,
    )


def _move_words(t: Tables, b: Batch) -> Bits:
    """The legal moves of the side to move as five words per game (rows: steps north, south, east, west, by
    destination square, and escapes by source square), as one ``(5, n)`` array so that counting over the groups
    runs along contiguous rows."""
    n = len(b)
    me = b.me_occ
    free = ~me
    free &= np.uint64(t.board)
    words = np.empty((5, n), dtype=U64)
    np.left_shift(me, np.uint64(t.width), out=words[0])
    np.right_shift(me, np.uint64(t.width), out=words[1])
    np.bitwise_and(me, np.uint64(t.not_last_file), out=words[2])
    words[2] <<= np.uint64(1)
    np.bitwise_and(me, np.uint64(t.not_first_file), out=words[3])
    words[3] >>= np.uint64(1)
    words[:4] &= free
    np.bitwise_and(b.me_blue, b.me_exit, out=words[4])
    return words


def legal_move_arrays(t: Tables, b: Batch, game: int) -> list[tuple[int, int]]:
    """The legal moves of one game of the batch as ``(src, dst)`` square indices (``dst = ESCAPE``); for tests."""
    words = _move_words(t, b.take(np.array([game])))
    moves = []
    for group in range(5):
        word = int(words[group, 0])
        for square in range(t.width * t.height):
            if word >> square & 1:
                moves.append((square, ESCAPE) if group == 4 else (square - int(t.delta[group]), square))
    return moves


def apply_moves(t: Tables, b: Batch, src: Ints, dst: Ints) -> npt.NDArray[np.int8]:
    """Play one given move in every game (``dst = ESCAPE`` escapes) and swap sides.

    Returns each game's result *for the side that moved*: +1 won, -1 lost, 0 draw (the ply limit), 2 not over.
    The moves must be legal; they are not checked here (the callers take them from the legal-move generator).
    """
    return _apply(t, b, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64))


def _apply(t: Tables, b: Batch, src: Ints, dst: Ints) -> npt.NDArray[np.int8]:
    """Move ``src`` -> ``dst`` (``ESCAPE``: leave the board) in every game; the result for the mover (2: not over).

    ``t.bit[ESCAPE]`` is 0, so an escape clears the source bit and sets none.
    """
    src_bit = t.bit[src]
    dst_bit = t.bit[dst]
    move_bits = src_bit | dst_bit
    b.me_blue ^= np.where((b.me_blue & src_bit) != 0, move_bits, _ZERO)
    b.me_occ ^= move_bits
    captured = b.op_occ & dst_bit
    b.op_occ ^= captured
    b.op_blue ^= b.op_blue & captured
    b.plies_left -= 1
    result = np.full(len(b), 2, dtype=np.int8)
    result[b.plies_left <= 0] = 0
    # A capture of the last red loses; of the last blue wins. (One capture changes one count, so never both.)
    result[(b.op_occ & ~b.op_blue) == 0] = -1
    result[(dst < 0) | (b.op_blue == 0)] = 1
    b.swap()
    return result


_ZERO = np.uint64(0)
#: Square selection inside a word works on chunks of this many bits, with a table of 2**CHUNK x CHUNK entries.
CHUNK = 12


@cache
def _select_chunk() -> npt.NDArray[np.int64]:
    """``table[bits, k]``: the position of the ``k``-th set bit of the ``CHUNK``-bit value ``bits``."""
    table = np.zeros((1 << CHUNK, CHUNK), dtype=np.int64)
    for value in range(1 << CHUNK):
        positions = [b for b in range(CHUNK) if value >> b & 1]
        table[value, : len(positions)] = positions
    return table


@dataclass(frozen=True)
class Policy:
    """How playouts choose their moves. The default, ``Policy()``, is uniform among all legal moves (the paper's
    random playouts; what the plain Monte Carlo player uses).

    Uniform playouts are a poor model of any real opponent: a blue piece standing on its exit escapes only when
    its one escape move happens to be drawn, and pieces wander instead of racing. The guided options (our
    attempt to go beyond the paper) make every playout side play a little like a player with a plan:

    * ``escape_first``: a side that can escape always does;
    * ``capture``: with this probability, a side that can capture plays a capture (uniform among them);
    * ``advance``: otherwise, with this probability, a side with a blue piece that can step nearer its nearest
      exit plays such a step (uniform among them; a step onto an opponent piece captures it).

    Each side knows its own colours in a playout (the colours of the sampled world), so ``advance`` is fair.
    """

    escape_first: bool = False
    capture: float = 0.0
    advance: float = 0.0

    @property
    def guided(self) -> bool:
        return self.capture > 0 or self.advance > 0


UNIFORM = Policy()
ESCAPE_FIRST = Policy(escape_first=True)


def _guide(t: Tables, b: Batch, words: Bits, policy: Policy, rng: np.random.Generator) -> None:
    """Narrow each game's step words (rows 0-3 of ``words``, in place) to the preferred moves the policy picks."""
    n = len(b)
    steps = words[:4]
    if policy.capture > 0:
        captures = steps & b.op_occ
        captured = (rng.random(n) < policy.capture) & (captures != 0).any(axis=0)
        steps[:, captured] = captures[:, captured]
    else:
        captured = np.zeros(n, dtype=bool)
    if policy.advance > 0:
        blue = b.me_blue
        p1 = b.me_exit == np.uint64(t.exits[0])
        moved = np.empty((4, n), dtype=U64)
        np.left_shift(blue, np.uint64(t.width), out=moved[0])
        np.right_shift(blue, np.uint64(t.width), out=moved[1])
        np.left_shift(blue & np.uint64(t.not_last_file), np.uint64(1), out=moved[2])
        np.right_shift(blue & np.uint64(t.not_first_file), np.uint64(1), out=moved[3])
        moved &= steps
        moved &= np.where(p1, t.approach[0][:, None], t.approach[1][:, None])
        use = ~captured & (rng.random(n) < policy.advance) & (moved != 0).any(axis=0)
        steps[:, use] = moved[:, use]


def _random_step(
    t: Tables, b: Batch, rng: np.random.Generator, policy: Policy = UNIFORM
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One random legal move in every game (uniform, or as ``policy`` guides); returns (result for the mover,
    src, dst) as in ``apply_moves`` (a game whose mover had no legal move is lost for it).

    Selection: per-group move counts (popcounts) and their running sum give the number of legal moves ``L``; with
    ``r`` uniform in ``[0, L)`` one comparison picks the group holding the ``r``-th move; within that group's
    word, popcounts of 12-bit chunks find the chunk, and a 4096 x 12 table the bit. With ``escape_first`` a side
    that can escape does (the first escape move; either wins the game the same way). A guided policy first
    narrows the step words to the preferred moves (``_guide``), then draws the same way among what is left.
    """
    n = len(b)
    words = _move_words(t, b)
    none_legal = ~words.any(axis=0)
    if policy.guided:
        _guide(t, b, words, policy, rng)
    counts = np.bitwise_count(words)
    running = counts.copy()
    for g in range(1, 5):
        running[g] += running[g - 1]
    total = running[4]
    r = (rng.random(n) * total).astype(np.int64)
    if policy.escape_first:
        r = np.where(counts[4] > 0, running[3], r)
    group = (running[:4] <= r).sum(axis=0)
    rows = np.arange(n)
    flat = group * n + rows
    word = words.reshape(-1)[flat]
    r -= (running.reshape(-1)[flat] - counts.reshape(-1)[flat]).astype(np.int64)
    square = np.zeros(n, dtype=np.int64)
    mask = np.uint64((1 << CHUNK) - 1)
    for _ in range(t.chunks - 1):
        low = word & mask
        in_low = np.bitwise_count(low).astype(np.int64)
        high = r >= in_low
        r -= in_low * high
        square += CHUNK * high
        word = np.where(high, word >> np.uint64(CHUNK), low)
    square += _select_chunk()[(word & mask).astype(np.intp), r]
    src = square - t.delta[group]
    dst = np.where(group == 4, ESCAPE, square)
    result = _apply(t, b, src, dst)
    result[none_legal] = -1
    return result, src, dst


def playout(
    t: Tables,
    b: Batch,
    rng: np.random.Generator,
    first_moves: bool = False,
    policy: Policy = UNIFORM,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64] | None, npt.NDArray[np.int64] | None]:
    """Play every game of ``b`` to its end with random moves (``b`` is used up): uniform among all legal moves,
    or as ``policy`` guides.

    Returns each game's result for the side to move at the start (+1 win, 0 draw, -1 loss) and, with
    ``first_moves``, the first move played in each game as ``(src, dst)`` square indices (what UPP looks at).
    """
    n = len(b)
    results = np.zeros(n, dtype=np.int8)
    index = np.arange(n)
    first_src = first_dst = None
    sign = 1
    step = 0
    while len(b):
        outcome, src, dst = _random_step(t, b, rng, policy)
        if step == 0 and first_moves:
            first_src, first_dst = src, dst
        over = outcome != 2
        if over.any():
            results[index[over]] = outcome[over] * sign
            live = ~over
            # Finished games leave the batch, so that later plies only pay for games still running.
            b = b.take(live)
            index = index[live]
        sign = -sign
        step += 1
    return results, first_src, first_dst


# --------------------------------------------------------------------------------------------------- views


def position_bits(view: GeisterView) -> tuple[tuple[int, int], tuple[int, int], dict[int, int]]:
    """A view as words: occupancy per side, the *viewer's* blue pieces (the opponent's blue word is 0), and the
    square bit of each opponent piece on the board by its slot (what a sampled world colours)."""
    occ = [0, 0]
    blue = [0, 0]
    slots: dict[int, int] = {}
    for index, piece in enumerate(view.board):
        if piece is None:
            continue
        occ[piece.side] |= 1 << index
        if piece.side is view.viewer and piece.colour is Colour.BLUE:
            blue[piece.side] |= 1 << index
        if piece.side is not view.viewer:
            slots[piece.slot] = 1 << index
    return (occ[0], occ[1]), (blue[0], blue[1]), slots


def move_squares(variant: Variant, move: Move) -> tuple[int, int]:
    return variant.index(move.src), ESCAPE if move.dst is None else variant.index(move.dst)


def move_from_squares(variant: Variant, src: int, dst: int) -> Move:
    return Move(variant.square(src), None if dst == ESCAPE else variant.square(dst))
