"""The search's static evaluation of a position, from the searching side's ("me"'s) point of view: two of them.

* ``handcrafted``: weighted terms (blues left, races to the exits, threats to our corners, guards), in thousandths
  of a blue piece, the weights tuned by matches (``DEFAULT_WEIGHTS``; the styles weight them otherwise). ``purple``,
  ``bayes`` and the styles search with it.
* ``learned``: a model learned from games (``solvers.geister.value``) of the searching side's chance to win. It reads
  ``features`` of the position (pieces left each side, the runners, the opponent's pieces near their exits weighed
  by their chance of being blue, races, guards, contacts, whose turn it is, the plies played) and returns the
  expected result ``E = P(win) - P(loss)`` times ``MATE`` (``EVAL_BOUND`` at most): so the search's values are
  expected results, a chance node (a capture that may be the last red, an escape that may be a blue's) weighs them
  as expectations, and a value ``v`` shown as a chance to win is ``(1 + v / MATE) / 2``. Its weights travel in the
  search's weight array, in millionths (``LEARNED_UNIT``).

The context array (``context``) says which one a search uses (``C_EVAL``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from solvers.geister_engine.context import (
    C_B0,
    C_BLUE_CAPTURED,
    C_CHANCE,
    C_EVAL,
    C_ME,
    C_P0,
    C_R0,
    C_RED_CAPTURED,
    C_THEM,
    EVAL_LEARNED,
)
from solvers.geister_engine.kernel import _ctz, _kernel, _popcount
from solvers.geister_engine.layout import BLUE, BLUE0, CAPTURED, KINDS, MATE, OCC0, PLY, PURPLE, RED, RED0, TURN
from solvers.geister_engine.tables import T_DISTANCE, T_EXITS, T_NEIGHBOURS, T_WIDTH

__all__ = [
    "DEFAULT_WEIGHTS",
    "EVAL_BOUND",
    "FEATURES",
    "LEARNED_UNIT",
    "N_FEATURES",
    "W_SIZE",
    "features",
    "handcrafted",
    "learned",
    "static_value",
]

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# ---- the handcrafted evaluation's weights (from "me"'s side), thousandths of a blue piece
#: Each of my blue pieces on the board.
W_BLUE = 0
#: Each of my red pieces the opponent has captured (it brings my red-capture win nearer).
W_RED_TAKEN = 1
#: Each opponent piece captured in the search, by its expected colour: + for the blue share, - for the red share.
W_CAPTURE_BLUE = 2
W_CAPTURE_RED = 3
#: Per step: my nearest blue's distance to my exits, my other blues', my reds'.
W_RACE_FIRST = 4
W_RACE = 5
W_RED_ADVANCE = 6
#: An opponent purple piece one / two steps from its exit (my home corners), and its distance beyond.
W_DANGER_1 = 7
W_DANGER_2 = 8
W_DANGER_FAR = 9
#: Each of my home corners with one of my pieces on it or next to it.
W_GUARD = 10
#: A race I win outright (a blue nearer its exit than any opponent piece, counting the tempo), or they win.
W_RACE_WON = 11
W_RACE_LOST = 12
W_SIZE = 13

DEFAULT_WEIGHTS = np.array(
    [1000, 120, 600, 300, 25, 5, 2, 250, 40, 2, 30, 3000, 3000],
    dtype=np.int64,
)


@_kernel
def _distance(t: Ints, side: int, square: int) -> int:
    return int(t[T_DISTANCE + 64 * side + square])


@_kernel
def _nearest(t: Ints, pieces: int, side: int) -> int:
    """The least distance of ``pieces`` to ``side``'s exits (99 when there is none)."""
    best = 99
    while pieces:
        square = _ctz(pieces)
        pieces &= pieces - 1
        d = _distance(t, side, square)
        if d < best:
            best = d
    return best


@_kernel
def _steps_to(t: Ints, pieces: int, target: int) -> int:
    """The least Manhattan distance from ``pieces`` to the square ``target`` (99 when there is none)."""
    width = int(t[T_WIDTH])
    tx = target % width
    ty = target // width
    best = 99
    while pieces:
        square = _ctz(pieces)
        pieces &= pieces - 1
        d = abs(square % width - tx) + abs(square // width - ty)
        if d < best:
            best = d
    return best


@_kernel
def _race(s: Ints, t: Ints, runner: int, runners: int, chasers: int, runner_to_move: bool) -> bool:
    """Whether one of ``runners`` reaches an exit of ``runner`` and escapes before any of ``chasers`` can stand in
    its way: strictly nearer that exit than every chaser once the tempo is counted."""
    exits = int(t[T_EXITS + runner])
    tempo = 0 if runner_to_move else 1
    while exits:
        exit_square = _ctz(exits)
        exits &= exits - 1
        mine = _steps_to(t, runners, exit_square)
        if mine >= 99:
            continue
        theirs = _steps_to(t, chasers, exit_square)
        if mine + tempo < theirs:
            return True
    return False


@_kernel
def handcrafted(s: Ints, t: Ints, c: Ints, w: Ints, prob: Ints) -> int:
    """The static value of a quiet position for "me" (see the weights' names)."""
    me = int(c[C_ME])
    them = int(c[C_THEM])
    my_blue = int(s[BLUE0 + me])
    my_red = int(s[RED0 + me])
    my_all = int(s[OCC0 + me])
    their_all = int(s[OCC0 + them])
    their_purple = their_all & ~int(s[RED0 + them])
    score = w[W_BLUE] * _popcount(my_blue)
    score += w[W_RED_TAKEN] * s[CAPTURED + KINDS * me + RED]
    # Captures made in the search: purple ones valued by the share of blues among the purple pieces at the root,
    # the others by their colour.
    theirs = CAPTURED + KINDS * them
    taken = int(s[theirs + PURPLE])
    if taken and c[C_P0] > 0:
        blue_share = c[C_B0] * 1000 // c[C_P0]
        score += taken * (w[W_CAPTURE_BLUE] * blue_share - w[W_CAPTURE_RED] * (1000 - blue_share)) // 1000
    score += w[W_CAPTURE_BLUE] * (int(s[theirs + BLUE]) - int(c[C_BLUE_CAPTURED]))
    score -= w[W_CAPTURE_RED] * (int(s[theirs + RED]) - int(c[C_RED_CAPTURED]))
    # My race to the exits.
    nearest = 99
    total = 0
    pieces = my_blue
    while pieces:
        square = _ctz(pieces)
        pieces &= pieces - 1
        d = _distance(t, me, square)
        total += d
        if d < nearest:
            nearest = d
    if nearest < 99:
        score -= w[W_RACE_FIRST] * nearest + w[W_RACE] * (total - nearest)
    pieces = my_red
    while pieces:
        square = _ctz(pieces)
        pieces &= pieces - 1
        score -= w[W_RED_ADVANCE] * _distance(t, me, square)
    # Their purple pieces near their exits (my home corners), and my guards there.
    corners = int(t[T_EXITS + them])
    guarded = 0
    while corners:
        corner = _ctz(corners)
        corners &= corners - 1
        if (my_all & ((1 << corner) | int(t[T_NEIGHBOURS + corner]))) != 0:
            guarded += 1
    score += w[W_GUARD] * guarded
    chance = c[C_CHANCE] != 0
    pieces = their_purple
    while pieces:
        square = _ctz(pieces)
        pieces &= pieces - 1
        d = _distance(t, them, square)
        # A piece is as dangerous as it is likely to be blue (the worst case: fully).
        scale = int(prob[square]) if chance else 1000
        if d <= 1:
            score -= w[W_DANGER_1] * scale // 1000
        elif d == 2:
            score -= w[W_DANGER_2] * scale // 1000
        else:
            score += w[W_DANGER_FAR] * d
    my_turn = int(s[TURN]) == me
    if my_blue and _race(s, t, me, my_blue, their_all, my_turn):
        score += w[W_RACE_WON]
    if their_purple and _race(s, t, them, their_purple, my_all, not my_turn):
        score -= w[W_RACE_LOST]
    return int(score)


# --------------------------------------------------------------------------------------------------- learned

#: What ``features`` writes, in order (the learned model's inputs; ``solvers.geister.value`` names its weights so).
FEATURES = (
    "bias",
    "my blues",
    "my reds",
    "their blues",
    "their reds",
    "my last blue",
    "my last red",
    "their last red",
    "their last blue",
    "my runner",
    "my second runner",
    "their blue on exit",
    "their blues 1 away",
    "their blues 2 away",
    "their blues 3 away",
    "my race won",
    "their race won",
    "my guards",
    "my turn",
    "plies / 100",
    "my reds' distance",
    "my blues in contact",
    "their blues in my reach",
    "my reds in contact",
)
N_FEATURES = len(FEATURES)
#: A learned weight ``x`` travels in the int64 weight array as ``round(x * LEARNED_UNIT)``.
LEARNED_UNIT = 1_000_000
#: The learned evaluation's expected results lie within this (a chance to win of 2.5% to 97.5%), and are scaled by
#: ``MATE``: so a value ``v`` is an expected result ``v / MATE`` whether it comes from the model, a proven result
#: (``MATE - plies``, above every evaluation) or a chance node that weighs the two.
EVAL_BOUND = 0.95
#: Runners' distances are counted up to this (a piece farther away is as good as absent).
FAR = 8


@_kernel
def _adjacent_to(t: Ints, square: int, pieces: int) -> bool:
    return (int(t[T_NEIGHBOURS + square]) & pieces) != 0


@_kernel
def _in_contact(t: Ints, pieces: int, others: int) -> int:
    """How many of ``pieces`` stand next to one of ``others``."""
    count = 0
    while pieces:
        square = _ctz(pieces)
        pieces &= pieces - 1
        if _adjacent_to(t, square, others):
            count += 1
    return count


@_kernel
def features(s: Ints, t: Ints, c: Ints, prob: Ints, out: Floats) -> None:
    """The learned model's inputs (``FEATURES``) of position ``s`` for "me", into ``out``. Opponent pieces whose
    colour is unknown count by their chance of being blue (``prob``, thousandths by square; every one 1000, blue,
    when the search takes the worst case); the captures made in the search by the colour they were made as."""
    me = int(c[C_ME])
    them = int(c[C_THEM])
    my_blue = int(s[BLUE0 + me])
    my_red = int(s[RED0 + me])
    my_all = int(s[OCC0 + me])
    their_all = int(s[OCC0 + them])
    their_unknown = their_all & ~int(s[RED0 + them]) & ~int(s[BLUE0 + them])
    their_blue_known = int(s[BLUE0 + them])
    chance = c[C_CHANCE] != 0
    blues = _popcount(my_blue)
    reds = _popcount(my_red)
    theirs = CAPTURED + KINDS * them
    taken_purple = int(s[theirs + PURPLE])
    share = float(c[C_B0]) / float(c[C_P0]) if c[C_P0] > 0 else 0.0
    their_blues = float(c[C_B0]) - (int(s[theirs + BLUE]) - int(c[C_BLUE_CAPTURED])) - taken_purple * share
    their_reds = float(c[C_R0]) - (int(s[theirs + RED]) - int(c[C_RED_CAPTURED])) - taken_purple * (1.0 - share)
    out[0] = 1.0
    out[1] = blues
    out[2] = reds
    out[3] = their_blues
    out[4] = their_reds
    out[5] = 1.0 if blues == 1 else 0.0
    out[6] = 1.0 if reds == 1 else 0.0
    out[7] = min(1.0, max(0.0, 2.0 - their_reds))
    out[8] = min(1.0, max(0.0, 2.0 - their_blues))
    # My runners: the two blues nearest my exits.
    first = FAR
    second = FAR
    pieces = my_blue
    while pieces:
        square = _ctz(pieces)
        pieces &= pieces - 1
        d = min(FAR, _distance(t, me, square))
        if d < first:
            second = first
            first = d
        elif d < second:
            second = d
    out[9] = first
    out[10] = second
    # Their pieces near their exits (my home corners), by their chance of being blue.
    near0 = 0.0
    near1 = 0.0
    near2 = 0.0
    near3 = 0.0
    reach = 0.0
    pieces = their_unknown | their_blue_known
    while pieces:
        square = _ctz(pieces)
        pieces &= pieces - 1
        known_blue = (their_blue_known >> square) & 1
        p = float(prob[square]) / 1000.0 if chance and not known_blue else 1.0
        d = _distance(t, them, square)
        if d == 0:
            near0 += p
        elif d == 1:
            near1 += p
        elif d == 2:
            near2 += p
        elif d == 3:
            near3 += p
        if _adjacent_to(t, square, my_all):
            reach += p
    out[11] = near0
    out[12] = near1
    out[13] = near2
    out[14] = near3
    my_turn = int(s[TURN]) == me
    out[15] = 1.0 if my_blue and _race(s, t, me, my_blue, their_all, my_turn) else 0.0
    racers = their_all & ~int(s[RED0 + them])
    out[16] = 1.0 if racers and _race(s, t, them, racers, my_all, not my_turn) else 0.0
    corners = int(t[T_EXITS + them])
    guarded = 0
    while corners:
        corner = _ctz(corners)
        corners &= corners - 1
        if (my_all & ((1 << corner) | int(t[T_NEIGHBOURS + corner]))) != 0:
            guarded += 1
    out[17] = guarded
    out[18] = 1.0 if my_turn else 0.0
    out[19] = float(s[PLY]) / 100.0
    total = 0
    pieces = my_red
    while pieces:
        square = _ctz(pieces)
        pieces &= pieces - 1
        total += _distance(t, me, square)
    out[20] = total / reds if reds else 0.0
    out[21] = _in_contact(t, my_blue, their_all)
    out[22] = reach
    out[23] = _in_contact(t, my_red, their_all)


@_kernel
def learned(s: Ints, t: Ints, c: Ints, w: Ints, prob: Ints) -> int:
    """The learned model's expected result for "me", times ``MATE``: ``tanh(z / 2)`` of its logit ``z`` (that is
    ``2 * sigmoid(z) - 1``: the model's chance to win ``sigmoid(z)``, draws counting half, as an expected result),
    within ``EVAL_BOUND``.

    The weight array (in millionths, ``LEARNED_UNIT``) holds the model: ``w[0]`` hidden units ``H``; with none, the
    logit is linear, ``z = w[1:1 + F] . features``; else a layer of ``H`` rectified units (``H`` rows of ``F``
    weights, the first feature being the constant 1), then ``H`` output weights and the output's bias."""
    values = np.empty(N_FEATURES)
    features(s, t, c, prob, values)
    hidden = int(w[0])
    z = 0.0
    if hidden == 0:
        for i in range(N_FEATURES):
            z += w[1 + i] * values[i]
    else:
        second = 1 + hidden * N_FEATURES
        for h in range(hidden):
            row = 1 + h * N_FEATURES
            a = 0.0
            for i in range(N_FEATURES):
                a += w[row + i] * values[i]
            if a > 0.0:
                z += w[second + h] * (a / LEARNED_UNIT)
        z += w[second + hidden]
    z /= LEARNED_UNIT
    expected = min(EVAL_BOUND, max(-EVAL_BOUND, np.tanh(z / 2.0)))
    return int(MATE * expected)


@_kernel
def static_value(s: Ints, t: Ints, c: Ints, w: Ints, prob: Ints) -> int:
    """The evaluation the context asks for (``C_EVAL``), for "me"."""
    if c[C_EVAL] == EVAL_LEARNED:
        return learned(s, t, c, w, prob)
    return handcrafted(s, t, c, w, prob)
