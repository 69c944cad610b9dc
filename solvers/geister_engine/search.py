"""Alpha-beta over purple pieces, compiled: the search the contest programs run, with what they leave out.

The model (Kawakami and Hashimoto's "purple pieces", as the GAT 2020 winner plays it): the searching side ("me")
knows its own colours; every opponent piece whose colour it does not know is *purple*, and the search takes the
worst case for it:

* a purple piece on its own exit, its side to move, escapes (it may be blue): the escape is a legal move here;
* a purple piece we capture may be red: the opponent's pieces at the root hold ``r0`` reds, ``k0`` of them known
  (kind ``RED``: a piece that stood on its exit at its turn and did not escape) and the rest among the ``p0``
  purple ones. After ``capK`` known-red and ``capP`` purple captures, the reds we may have taken are
  ``capK + min(capP, r0 - k0)``: when that reaches ``r0`` we may have taken the last red, and the search scores a
  loss. So it never walks into the fourth red; and while a known red stands, purple captures are safe;
* capturing every purple piece is a win (every blue is among them), unless the known reds went first;
* the opponent is modelled as knowing our colours (our true colours decide our escapes and our losses).

On top of the contest programs' fixed-depth negamax: iterative deepening under a node budget (the Python driver
turns the time left into nodes from the speed measured so far), a transposition table keyed on the engine's Zobrist
hash (which covers captured counts), move ordering (the table's move, wins, captures of pieces that threaten to
escape, other captures, killer moves, history), mate-distance scores, and an escape-threat extension: a node whose
side to move faces an opponent piece on its exit is searched one ply deeper, so the horizon never hides a forced
escape. The leaf evaluation's terms and weights are an array (``WEIGHTS``), tuned by matches.

Everything here runs inside numba; ``search_root`` is the entry point.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from solvers.geister_engine.context import (
    C_ABORT,
    C_B0,
    C_BLUE_CAPTURED,
    C_CAREFUL,
    C_CHANCE,
    C_EVAL,
    C_FLAGS,
    C_GENERATION,
    C_K0,
    C_MARGIN,
    C_MAX_EXTENSION,
    C_MAX_NODES,
    C_ME,
    C_NODES,
    C_P0,
    C_R0,
    C_RED_CAPTURED,
    C_SALT,
    C_SELDEPTH,
    C_SIZE,
    C_THEM,
    EVAL_HANDCRAFTED,
    EVAL_LEARNED,
    NO_ORDERING,
    NO_PRUNING,
    NO_TABLE,
)
from solvers.geister_engine.evaluation import (
    DEFAULT_WEIGHTS,
    W_BLUE,
    W_CAPTURE_BLUE,
    W_CAPTURE_RED,
    W_DANGER_1,
    W_DANGER_2,
    W_DANGER_FAR,
    W_GUARD,
    W_RACE,
    W_RACE_FIRST,
    W_RACE_LOST,
    W_RACE_WON,
    W_RED_ADVANCE,
    W_RED_TAKEN,
    W_SIZE,
    _distance,
    static_value,
)
from solvers.geister_engine.kernel import _ctz, _kernel, _popcount, gen_moves, make, unmake
from solvers.geister_engine.layout import (
    BLUE,
    CAPTURED,
    ESCAPE_DST,
    ESCAPED,
    HASH,
    KINDS,
    MATE,
    MAX_MOVES,
    NONE,
    OCC0,
    PLY,
    PURPLE,
    RED,
    RED0,
    SQUARE_BITS,
    SQUARE_MASK,
    TURN,
)
from solvers.geister_engine.tables import T_BLUES, T_EXITS, T_PLY_LIMIT, T_REDS

__all__ = [
    "C_ABORT",
    "C_B0",
    "C_BLUE_CAPTURED",
    "C_CAREFUL",
    "C_CHANCE",
    "C_EVAL",
    "C_FLAGS",
    "C_GENERATION",
    "C_K0",
    "C_MARGIN",
    "C_MAX_EXTENSION",
    "C_MAX_NODES",
    "C_ME",
    "C_NODES",
    "C_P0",
    "C_R0",
    "C_RED_CAPTURED",
    "C_SALT",
    "C_SELDEPTH",
    "C_SIZE",
    "C_THEM",
    "DEFAULT_WEIGHTS",
    "EVAL_HANDCRAFTED",
    "EVAL_LEARNED",
    "MATE",
    "MAX_PLY",
    "NO_ORDERING",
    "NO_PRUNING",
    "NO_TABLE",
    "TT_BITS",
    "W_BLUE",
    "W_CAPTURE_BLUE",
    "W_CAPTURE_RED",
    "W_DANGER_1",
    "W_DANGER_2",
    "W_DANGER_FAR",
    "W_GUARD",
    "W_RACE",
    "W_RACE_FIRST",
    "W_RACE_LOST",
    "W_RACE_WON",
    "W_RED_ADVANCE",
    "W_RED_TAKEN",
    "W_SIZE",
    "expected_line",
    "model_salt",
    "new_context",
    "search_root",
    "warm_up",
]

Ints = npt.NDArray[np.int64]

INF = 2_000_000
#: Deepest ply a search reaches (the depth plus the extensions).
MAX_PLY = 64
#: The transposition table holds ``2 ** TT_BITS`` entries.
TT_BITS = 20

# TT entry: value + 2**21 in bits 0-21 (values lie within +-(INF + MAX_PLY) after the mate-distance shift), depth + 1
# in 22-29, bound in 30-31, move + 1 in 32-45, the search's generation (``C_GENERATION``, below 2**16) in 46-61.
_EXACT = 0
_LOWER = 1
_UPPER = 2


@_kernel
def _tt_pack(value: int, depth: int, bound: int, move: int, generation: int) -> int:
    return (value + (1 << 21)) | (depth + 1) << 22 | bound << 30 | (move + 1) << 32 | generation << 46


@_kernel
def _to_tt(value: int, ply: int) -> int:
    """Mate scores are stored relative to the node (not the root), so a hit at another ply stays exact."""
    if value > MATE - 1000:
        return value + ply
    if value < -MATE + 1000:
        return value - ply
    return value


@_kernel
def _from_tt(value: int, ply: int) -> int:
    if value > MATE - 1000:
        return value - ply
    if value < -MATE + 1000:
        return value + ply
    return value


# --------------------------------------------------------------------------------------------------- the model


@_kernel
def _result(s: Ints, t: Ints, c: Ints) -> int:
    """The model's verdict on the position for "me": 1 won, -1 lost, 0 drawn, 2 going on (no move generation)."""
    me = int(c[C_ME])
    them = int(c[C_THEM])
    escaped = int(s[ESCAPED])
    if escaped != NONE:
        return 1 if escaped == me else -1
    mine = CAPTURED + KINDS * me
    if s[mine + BLUE] >= t[T_BLUES + me]:
        return -1
    if s[mine + RED] >= t[T_REDS + me]:
        return 1
    # The model's opponent pieces: known (or taken as) red, taken as blue, and purple. The purple ones at the
    # root hold the reds not known: captures of them count as red first (the worst case), as blue after.
    theirs = CAPTURED + KINDS * them
    red_taken = int(s[theirs + RED]) - int(c[C_RED_CAPTURED])
    blue_taken = int(s[theirs + BLUE]) - int(c[C_BLUE_CAPTURED])
    purple_taken = int(s[theirs + PURPLE])
    reds = int(c[C_R0])
    hidden_reds = reds - int(c[C_K0])
    if red_taken + min(purple_taken, hidden_reds) >= reds:
        return -1  # we may have taken their last red
    if c[C_B0] > 0 and blue_taken + max(0, purple_taken - hidden_reds) >= c[C_B0]:
        return 1  # every blue is taken, however the purple ones were coloured
    if s[PLY] >= t[T_PLY_LIMIT]:
        return 0
    return 2


@_kernel
def _can_escape(s: Ints, t: Ints, side: int) -> bool:
    """Whether ``side`` could escape at its turn: a blue on its exit (or, for the opponent, a purple piece)."""
    on_exit = int(s[OCC0 + side] & t[T_EXITS + side])
    return (on_exit & ~int(s[RED0 + side])) != 0


@_kernel
def _spared(s: Ints, t: Ints, c: Ints, moves: Ints, n: int) -> int:
    """Our pieces (a bitboard) that the opponent, to move, does not capture in the model: all of them when it is
    careful (``C_CAREFUL``), we have one red piece left, none of our pieces stands on our exits (then it must take
    its chances: an escape is at stake) and it has a move that neither captures nor escapes (an escape the search
    weighs as a chance node is not one); else none.

    The worst case (it captures as if it knew our colours) makes our blue pieces its targets and our reds never: but
    an opponent that cannot tell our last red from the blues, and would lose at once by taking it, takes none of
    them while it has anything else to do, as ``purple`` and ``bayes`` themselves do (``risky_captures``)."""
    me = int(c[C_ME])
    if c[C_CAREFUL] == 0 or int(s[TURN]) == me:
        return 0
    if t[T_REDS + me] - s[CAPTURED + KINDS * me + RED] != 1:
        return 0
    ours = int(s[OCC0 + me])
    if ours & int(t[T_EXITS + me]):
        return 0
    for i in range(n):
        dst = moves[i] >> SQUARE_BITS & SQUARE_MASK
        if dst != ESCAPE_DST and not ours & (1 << dst):
            return ours
    return 0


# --------------------------------------------------------------------------------------------------- ordering


@_kernel
def _order(
    s: Ints,
    t: Ints,
    moves: Ints,
    n: int,
    scores: Ints,
    tt_move: int,
    killers: Ints,
    ply: int,
    history: Ints,
) -> None:
    """Score ``moves[:n]`` for ordering (highest first): the table's move, escapes, captures (pieces about to
    escape first), killers, then history."""
    side = int(s[TURN])
    other = 1 - side
    their = int(s[OCC0 + other])
    for i in range(n):
        move = moves[i]
        dst = move >> SQUARE_BITS & SQUARE_MASK
        if move == tt_move:
            scores[i] = 1 << 40
        elif dst == ESCAPE_DST:
            scores[i] = 1 << 39
        elif their & (1 << dst):
            # Nearer its exit, more urgent: a piece on its exit escapes next.
            scores[i] = (1 << 38) - _distance(t, other, dst)
        elif move == killers[2 * ply] or move == killers[2 * ply + 1]:
            scores[i] = 1 << 37
        else:
            scores[i] = history[side * 4096 + (move & 4095)]


@_kernel
def _pick(moves: Ints, scores: Ints, start: int, n: int) -> int:
    """Selection sort one step: bring the best remaining move to ``start`` and return it."""
    best = start
    for i in range(start + 1, n):
        if scores[i] > scores[best]:
            best = i
    if best != start:
        moves[start], moves[best] = moves[best], moves[start]
        scores[start], scores[best] = scores[best], scores[start]
    return int(moves[start])


# --------------------------------------------------------------------------------------------------- the search


@_kernel
def _weigh(blue_value: int, red_value: int, blue_share: int) -> int:
    """A chance node's value: ``blue_share`` thousandths of ``blue_value``, the rest of ``red_value``."""
    return (blue_share * blue_value + (1000 - blue_share) * red_value) // 1000


@_kernel
def _window_low(alpha: int, other: int, other_share: int, share: int) -> int:
    """The lowest value a chance node's child (weight ``share``) can take for the node to beat ``alpha`` when its
    other child (weight ``other_share``) is worth ``other``; one below, so that integer rounding errs wide."""
    low = (1000 * alpha - other_share * other) // share - 1
    return max(low, -INF)


@_kernel
def _window_high(beta: int, other: int, other_share: int, share: int) -> int:
    """The value above which a chance node's child makes the node reach ``beta`` (see ``_window_low``)."""
    high = -((other_share * other - 1000 * beta) // share) + 1
    return min(high, INF)


@_kernel
def _negamax(
    s: Ints,
    t: Ints,
    c: Ints,
    w: Ints,
    prob: Ints,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    extension: int,
    tt_keys: Ints,
    tt_data: Ints,
    killers: Ints,
    history: Ints,
    move_stack: Ints,
    score_stack: Ints,
) -> int:
    c[C_NODES] += 1
    if ply > c[C_SELDEPTH]:
        c[C_SELDEPTH] = ply
    if c[C_NODES] >= c[C_MAX_NODES]:
        c[C_ABORT] = 1
        return 0
    me = int(c[C_ME])
    them = int(c[C_THEM])
    side = int(s[TURN])
    sign = 1 if side == me else -1
    result = _result(s, t, c)
    if result != 2:
        if result == 0:
            return 0
        return sign * result * (MATE - ply)
    chance = c[C_CHANCE] != 0
    # A purple piece of theirs on its exit, their turn: it escapes if it is blue. Worst case: it is. With beliefs:
    # a chance node, ``escape`` thousandths of winning at once, the rest the best of their other moves.
    escape = 0
    # Their escape is weighed as a chance node (its chance may be 0: a piece believed red escapes in no line).
    weighed = False
    if _can_escape(s, t, side):
        if not chance or side == me:
            return MATE - ply - 1  # the side to move escapes now
        escapers = int(s[OCC0 + side] & t[T_EXITS + side]) & ~int(s[RED0 + side])
        escape = 1000 if _popcount(escapers) > 1 else int(prob[_ctz(escapers)])
        weighed = True
        if escape >= 1000:
            return MATE - ply - 1
    # Facing an escape next turn: the only answer is a capture of that piece, so look one ply further.
    threatened = _can_escape(s, t, 1 - side)
    if threatened and depth <= 0 and extension < c[C_MAX_EXTENSION]:
        depth = 1
        extension += 1
    if depth <= 0 or ply >= MAX_PLY - 1:
        if escape == 0:
            return sign * static_value(s, t, c, w, prob)
        # A piece that may escape is searched one ply more, on the same extension budget as the threats: without a
        # bound, a piece standing on its exit made every one of its side's nodes search on (160,000 nodes for a
        # depth-1 search, measured). Past the budget, the escape is weighed against the static value.
        if extension >= c[C_MAX_EXTENSION] or ply >= MAX_PLY - 1:
            return _weigh(MATE - ply - 1, sign * static_value(s, t, c, w, prob), escape)
        depth = 1
        extension += 1
    flags = int(c[C_FLAGS])
    use_table = (flags & NO_TABLE) == 0
    key = int(s[HASH]) ^ int(c[C_SALT])
    slot = key & (len(tt_keys) - 1)
    tt_move = -1
    if use_table and tt_keys[slot] == key:
        data = int(tt_data[slot])
        tt_move = (data >> 32 & 0x3FFF) - 1
        stored_depth = (data >> 22 & 0xFF) - 1
        if stored_depth >= depth and (data >> 46 & 0xFFFF) == c[C_GENERATION]:
            value = _from_tt((data & 0x3FFFFF) - (1 << 21), ply)
            bound = data >> 30 & 3
            if bound == _EXACT:
                return value
            if bound == _LOWER and value >= beta:
                return value
            if bound == _UPPER and value <= alpha:
                return value
    moves = move_stack[ply]
    scores = score_stack[ply]
    n = gen_moves(s, t, moves)
    if n == 0:
        return -(MATE - ply)  # no legal move loses
    depth = max(depth, 1)
    ordering = (flags & NO_ORDERING) == 0
    pruning = (flags & NO_PRUNING) == 0
    if ordering:
        _order(s, t, moves, n, scores, tt_move, killers, ply, history)
    if not pruning:
        alpha, beta = -INF, INF
    original_alpha = alpha
    original_beta = beta
    if escape and pruning:
        # The node is worth ``escape`` of a win and the rest of their best other move: search that move in the
        # window that makes the node's value land in ours.
        win = MATE - ply - 1
        alpha = _window_low(alpha, win, escape, 1000 - escape)
        beta = _window_high(beta, win, escape, 1000 - escape)
        if alpha >= MATE:
            return _weigh(win, MATE, escape)  # even their best possible move leaves the node below our window
        if beta <= -MATE:
            return _weigh(win, -MATE, escape)
    best = -INF
    best_move = -1
    as_purple = int(np.int64(PURPLE))
    as_blue = int(np.int64(BLUE))
    as_red = int(np.int64(RED))
    theirs = int(s[OCC0 + them])
    their_red = int(s[RED0 + them])
    spared = _spared(s, t, c, moves, n)
    for i in range(n):
        move = _pick(moves, scores, i, n) if ordering else int(moves[i])
        src = move & SQUARE_MASK
        dst = move >> SQUARE_BITS & SQUARE_MASK
        if dst == ESCAPE_DST and weighed:
            continue  # the chance node accounts for their escape
        if spared and dst != ESCAPE_DST and spared & (1 << dst):
            continue  # a careful opponent does not take what may be our last red
        blue_share = -1
        if chance and side == me and dst != ESCAPE_DST:
            bit = 1 << dst
            if theirs & bit and not their_red & bit:
                blue_share = int(prob[dst])
        if 0 < blue_share < 1000:
            # Capturing a piece that is blue with ``blue_share`` thousandths: both outcomes, weighed. The red one
            # first (when it may be their last red it ends the game at once: cheap), in the window that the blue
            # one's widest range leaves open; then the blue one in the window the red value leaves (Star1).
            red_share = 1000 - blue_share
            low = _window_low(alpha, MATE, blue_share, red_share)
            high = _window_high(beta, -MATE, blue_share, red_share)
            undo = make(s, t, move, as_red)
            red_value = -_negamax(
                s,
                t,
                c,
                w,
                prob,
                depth - 1,
                -high,
                -low,
                ply + 1,
                extension,
                tt_keys,
                tt_data,
                killers,
                history,
                move_stack,
                score_stack,
            )
            unmake(s, t, move, undo)
            # Outside its window the red value settles the capture, whatever the blue outcome (a bound); so does a
            # blue window beyond any value.
            settled = True
            if red_value <= low:
                value = _weigh(MATE, red_value, blue_share)
            elif red_value >= high:
                value = _weigh(-MATE, red_value, blue_share)
            else:
                low = _window_low(alpha, red_value, red_share, blue_share)
                high = _window_high(beta, red_value, red_share, blue_share)
                if low >= MATE:
                    value = _weigh(MATE, red_value, blue_share)
                elif high <= -MATE:
                    value = _weigh(-MATE, red_value, blue_share)
                else:
                    settled = False
            if not settled:
                undo = make(s, t, move, as_blue)
                blue_value = -_negamax(
                    s,
                    t,
                    c,
                    w,
                    prob,
                    depth - 1,
                    -high,
                    -low,
                    ply + 1,
                    extension,
                    tt_keys,
                    tt_data,
                    killers,
                    history,
                    move_stack,
                    score_stack,
                )
                unmake(s, t, move, undo)
                value = _weigh(blue_value, red_value, blue_share)
        else:
            capture_as = as_purple if blue_share < 0 else as_blue if blue_share >= 1000 else as_red
            carried = -1
            if chance and side == them and dst != ESCAPE_DST:
                carried = int(prob[dst])
                prob[dst] = prob[src]  # the belief moves with the piece
            undo = make(s, t, move, capture_as)
            value = -_negamax(
                s,
                t,
                c,
                w,
                prob,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                extension,
                tt_keys,
                tt_data,
                killers,
                history,
                move_stack,
                score_stack,
            )
            unmake(s, t, move, undo)
            if carried >= 0:
                prob[dst] = carried
        if c[C_ABORT]:
            return 0
        if value > best:
            best = value
            best_move = move
        if value > alpha and pruning:
            alpha = value
        if alpha >= beta:
            if not (int(s[OCC0 + 1 - side]) & (1 << dst)) and dst != ESCAPE_DST:
                if killers[2 * ply] != move:
                    killers[2 * ply + 1] = killers[2 * ply]
                    killers[2 * ply] = move
                history[side * 4096 + (move & 4095)] += depth * depth
            break
    if weighed:
        if best == -INF:  # escaping was their only move: a red there is stuck, and stuck loses
            best = -(MATE - ply - 1)
        best = _weigh(MATE - ply - 1, best, escape)
    if use_table:
        bound = _EXACT
        if best <= original_alpha:
            bound = _UPPER
        elif best >= original_beta:
            bound = _LOWER
        tt_keys[slot] = key
        tt_data[slot] = _tt_pack(_to_tt(best, ply), depth, bound, best_move, int(c[C_GENERATION]))
    return best


def search_root(
    s: Ints,
    t: Ints,
    c: Ints,
    w: Ints,
    prob: Ints,
    depth: int,
    tt_keys: Ints,
    tt_data: Ints,
    killers: Ints,
    history: Ints,
    move_stack: Ints,
    score_stack: Ints,
    root_moves: Ints,
    root_values: Ints,
) -> int:
    """One iteration at ``depth``: every root move's value for "me" (``root_values``, aligned with ``root_moves``,
    which the caller fills and which this sorts best first for the next iteration). Returns the number of root
    moves searched completely (fewer than all when the node budget ran out).

    Plain Python on purpose: numba's disk cache cannot hold a compiled function that calls a recursive one (it
    loads it broken, and the process dies), so the root loop calls the recursive search from here. It costs a
    few microseconds per root move.
    """
    n = 0
    while n < MAX_MOVES and root_moves[n] >= 0:
        n += 1
    best = -INF
    margin = int(c[C_MARGIN])
    chance = c[C_CHANCE] != 0
    them = int(c[C_THEM])
    done = 0

    def child(move: int, capture_as: int, low: int, high: int) -> int:
        undo = make(s, t, move, capture_as)
        value = -_negamax(
            s, t, c, w, prob, depth - 1, -high, -low, 1, 0, tt_keys, tt_data, killers, history, move_stack, score_stack
        )
        unmake(s, t, move, undo)
        return value

    for i in range(n):
        move = int(root_moves[i])
        dst = move >> SQUARE_BITS & SQUARE_MASK
        # A move more than ``margin`` below the best so far fails low (only its bound is known): it will not be
        # played. The ones within the margin get exact values, so the player can choose among near-equals.
        floor = -INF if best == -INF else best - margin - 1
        bit = 1 << dst if dst != ESCAPE_DST else 0
        purple = bool(int(s[OCC0 + them]) & bit) and not int(s[RED0 + them]) & bit
        share = int(prob[dst]) if chance and purple else -1
        if 0 < share < 1000:
            value = _root_chance(child, move, share, floor)
        else:
            value = child(move, PURPLE if share < 0 else BLUE if share >= 1000 else RED, floor, INF)
        if c[C_ABORT]:
            break
        root_values[i] = value
        done += 1
        best = max(best, value)
    # Best first, stable: the next iteration searches the likely best move first and fills the table for it.
    order = sorted(range(done), key=lambda i: -int(root_values[i]))
    root_moves[:done] = root_moves[order]
    root_values[:done] = root_values[order]
    return done


def expected_line(s: Ints, t: Ints, c: Ints, tt_keys: Ints, tt_data: Ints, first: int, longest: int) -> list[int]:
    """The line the search expects after its move ``first`` (the principal variation, ``first`` included): each
    next move is the one the table kept for the position reached, while it is legal there, up to ``longest`` moves.

    It stops where the table knows no move (or only one from another search: ``C_GENERATION``), where the game ends,
    and after a capture of a piece whose colour the searcher does not know: the line beyond depends on that colour.
    A piece of the side to move that escapes ends the line with its escape, which the search plays at once without
    keeping it in the table. ``s`` is played on and restored: it is the same when this returns.
    """
    line: list[int] = []
    undos: list[int] = []
    legal = np.zeros(MAX_MOVES, dtype=np.int64)
    them = int(c[C_THEM])
    generation = int(c[C_GENERATION])
    move = first
    while True:
        n = gen_moves(s, t, legal)
        if move not in legal[:n]:
            break  # a table slot another position overwrote, or an escape the search never keeps
        dst = move >> SQUARE_BITS & SQUARE_MASK
        mover = int(s[TURN])
        bit = 1 << dst if dst != ESCAPE_DST else 0
        unknown = mover != them and bool(int(s[OCC0 + them]) & bit) and not int(s[RED0 + them]) & bit
        undos.append(make(s, t, move, PURPLE))
        line.append(move)
        if unknown or len(line) >= longest or _result(s, t, c) != 2:
            break
        side = int(s[TURN])
        # As ``_negamax`` has it: the side to move escapes at once, but for theirs under beliefs (a chance node).
        if _can_escape(s, t, side) and (side != them or c[C_CHANCE] == 0):
            n = gen_moves(s, t, legal)
            escapes = [int(m) for m in legal[:n] if int(m) >> SQUARE_BITS & SQUARE_MASK == ESCAPE_DST]
            if not escapes:
                break
            move = escapes[0]
            continue
        key = int(s[HASH]) ^ int(c[C_SALT])
        slot = key & (len(tt_keys) - 1)
        data = int(tt_data[slot])
        if tt_keys[slot] != key or (data >> 46 & 0xFFFF) != generation:
            break
        move = (data >> 32 & 0x3FFF) - 1
        if move < 0:
            break
    for played, undo in zip(reversed(line), reversed(undos), strict=True):
        unmake(s, t, played, undo)
    return line


def _root_chance(child: Any, move: int, blue_share: int, floor: int) -> int:
    """A root capture of a piece that is blue with ``blue_share`` thousandths, as ``_negamax`` weighs one: the red
    outcome first, then the blue one in the window the red value leaves above ``floor``."""
    red_share = 1000 - blue_share
    low = _window_low(floor, MATE, blue_share, red_share)
    red_value = child(move, RED, low, INF)
    if red_value <= low:
        return _weigh(MATE, red_value, blue_share)
    low = _window_low(floor, red_value, red_share, blue_share)
    if low >= MATE:
        return _weigh(MATE, red_value, blue_share)
    return _weigh(child(move, BLUE, low, INF), red_value, blue_share)


def model_salt(c: Ints) -> int:
    """The table-key salt of the model in ``c`` (``C_SALT``): a fixed mix of its counts, the same in every process."""
    h = 0x9E3779B97F4A7C15
    for field in (C_ME, C_R0, C_B0, C_K0, C_P0, C_RED_CAPTURED, C_BLUE_CAPTURED, C_CHANCE, C_CAREFUL, C_EVAL):
        h = (h ^ int(c[field])) * 0x100000001B3 & 0xFFFFFFFFFFFFFFFF
    return h & 0x3FFFFFFFFFFFFFFF


def new_context(tt_bits: int = TT_BITS) -> dict[str, Any]:
    """The arrays one searcher keeps between its searches, in ``search_root``'s order: the transposition table
    (``2 ** tt_bits`` entries; the search reads its size from the array), killers, history and move stacks."""
    return {
        "tt_keys": np.zeros(1 << tt_bits, dtype=np.int64),
        "tt_data": np.zeros(1 << tt_bits, dtype=np.int64),
        "killers": np.full(2 * MAX_PLY, -1, dtype=np.int64),
        "history": np.zeros(2 * 4096, dtype=np.int64),
        "move_stack": np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
        "score_stack": np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
    }


_WARM = False


def warm_up() -> float:
    """Compile (or load from the disk cache) the search and the kernels it calls; seconds taken. A searcher calls
    it before its first decision, so that no decision pays for compilation. One process compiles into a cache folder
    at a time (``compiled_cache.compiling``: the others wait, then load); a process that compiles tells how far it is
    (``compiled_cache.report_progress``, for the app's advice panel) and marks the folder compiled at the end. Only
    what the search calls is compiled here (the playouts' kernels are ``kernel.warm_up``'s), so that the first
    advice on a machine waits for the search alone."""
    global _WARM
    started = time.perf_counter()
    if _WARM:
        return 0.0
    from solvers.geister_engine import compiled_cache
    from solvers.geister_engine.kernel import CACHE_FOLDER

    folder = None if CACHE_FOLDER is None else Path(CACHE_FOLDER)
    if folder is not None and compiled_cache.is_compiled(folder):
        _call_search()  # a load: no lock (the compiling process may be on to the playouts' kernels)
    else:
        with compiled_cache.compiling(folder):
            told = folder if folder is not None and not compiled_cache.is_compiled(folder) else None
            compiled_cache.report_progress(
                told, 0.0, time.time(), step_to=1.0, step_seconds=compiled_cache.SEARCH_COMPILE_SECONDS
            )
            _call_search()
            if folder is not None:
                compiled_cache.mark_compiled(folder)
    _WARM = True
    return time.perf_counter() - started


def _call_search() -> None:
    """One search of a small position, to depth 2: compiles (or loads) the search and everything it calls."""
    from core.game import Side
    from core.geister import VARIANTS, GeisterState
    from solvers.geister_engine import convert
    from solvers.geister_engine.tables import tables

    state = GeisterState.from_setups(VARIANTS["mini-geister"], "BR", "RB")
    t = tables(state.variant)
    s = convert.from_view(state.view(Side.P1), purple_escapes=True)
    c = np.zeros(C_SIZE, dtype=np.int64)
    c[C_ME], c[C_THEM], c[C_R0], c[C_B0], c[C_P0] = 0, 1, 1, 1, 2
    c[C_MAX_NODES] = 1_000
    arrays = new_context(tt_bits=10)
    moves = np.full(MAX_MOVES + 1, -1, dtype=np.int64)
    n = gen_moves(s, t, moves)
    moves[n:] = -1
    values = np.zeros(MAX_MOVES + 1, dtype=np.int64)
    search_root(
        s,
        t,
        c,
        DEFAULT_WEIGHTS,
        np.full(64, 500, dtype=np.int64),
        2,
        arrays["tt_keys"],
        arrays["tt_data"],
        arrays["killers"],
        arrays["history"],
        arrays["move_stack"],
        arrays["score_stack"],
        moves,
        values,
    )
