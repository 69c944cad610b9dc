"""A posterior over the opponent's hidden colours, from everything its moves show.

Each opponent turn is evidence about the piece it moved, and a little about the pieces it left standing:

* hard: a piece that stood on its exit at its turn and was not escaped with is red (``colour_evidence``), up to
  ``IRRATIONAL``, the chance that an opponent passes up a win;
* soft: what the move did (``move_features``): stepping next to one of our pieces, stepping away from them,
  capturing, advancing on its exits, retreating, running free toward an exit, or moving at all. Each feature has a
  likelihood ratio (red : blue), fitted from the moves of purple-type players whose colours were known
  (``benchmarks/belief_fit.py`` prints the fit), and softened by a bluff rate: a fraction ``BLUFF`` of moves is
  taken to carry no information, so no single feature can make a piece certain.

The pieces' evidence multiplies into one weight per colouring of the opponent's pieces still on the board (the
counts of blues and reds left are known), and a piece's chance of blue is the weighted share of the colourings in
which it is blue: exact under the model, and consistent with the counts.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

from core.geister import Colour, GeisterView, Variant
from core.notation import Square
from solvers.colour_evidence import Turn, opponent_turns

__all__ = ["BLUFF", "FEATURES", "IRRATIONAL", "RATIOS", "Belief", "belief", "move_features"]

#: The chance that an opponent with a blue piece on its exit does not escape: how red "proven red" is.
IRRATIONAL = 0.01
#: The share of moves taken to say nothing about the moved piece's colour (bluffs, noise).
BLUFF = 0.2

FEATURES = ("moved", "approach", "flee", "capture", "advance", "retreat", "free_run", "idle_runner")

#: Likelihood ratios red : blue of each feature, fitted by ``python benchmarks/belief_fit.py --games 400 --depth 4``
#: (purple against itself; on 80 other games the belief's log loss per piece was 0.502, against 0.614 for the
#: counts alone and 0.599 for the hard evidence alone).
RATIOS: dict[str, float] = {
    "moved": 1.581,
    "approach": 7.432,
    "flee": 0.166,
    "capture": 0.613,
    "advance": 1.038,
    "retreat": 1.009,
    "free_run": 0.249,
    "idle_runner": 1.75,
}


def _distance(square: Square, targets: tuple[Square, ...]) -> int:
    return min(square.distance(t) for t in targets)


def _adjacent(square: Square, others: dict[int, Square]) -> bool:
    return any(square.distance(o) == 1 for o in others.values())


def move_features(variant: Variant, turn: Turn) -> Iterator[tuple[int, str]]:
    """``(slot, feature)`` for what ``turn`` shows: the moved piece's features, and ``idle_runner`` for each
    piece with a free run to its exit that was not moved (a blue one would have run)."""
    them_exits = variant.exits[turn.mover]
    ours = turn.ours
    moved = next((slot for slot, square in turn.theirs.items() if square == turn.move.src), None)
    if moved is None:  # pragma: no cover - every turn moves one of the mover's pieces
        return
    src, dst = turn.move.src, turn.move.dst
    yield moved, "moved"
    if dst is None:
        return
    before = _adjacent(src, ours)
    if dst in ours.values():
        yield moved, "capture"
    remaining = {slot: sq for slot, sq in ours.items() if sq != dst}
    after = _adjacent(dst, remaining)
    if after and not before:
        yield moved, "approach"
    elif before and not after:
        yield moved, "flee"
    d_before, d_after = _distance(src, them_exits), _distance(dst, them_exits)
    if d_after < d_before:
        yield moved, "advance"
        if _free_run(src, them_exits, ours):
            yield moved, "free_run"
    elif d_after > d_before:
        yield moved, "retreat"
    for slot, square in turn.theirs.items():
        if slot != moved and _free_run(square, them_exits, ours):
            yield slot, "idle_runner"


def _free_run(square: Square, exits: tuple[Square, ...], ours: dict[int, Square]) -> bool:
    """Whether the piece on ``square`` is strictly nearer one of its exits than any of our pieces is."""
    for exit_square in exits:
        mine = square.distance(exit_square)
        if all(o.distance(exit_square) > mine for o in ours.values()):
            return True
    return False


@dataclass(frozen=True)
class Belief:
    """Each opponent piece on the board (by slot) with its chance of being blue, which are proven red, and the
    posterior itself: every colouring consistent with the counts (its blue slots) with its probability."""

    blue: dict[int, float]
    proven_red: frozenset[int]
    colourings: tuple[tuple[tuple[int, ...], float], ...] = ()

    def red(self, slot: int) -> float:
        return 1.0 - self.blue[slot]


def belief(view: GeisterView, ratios: dict[str, float] | None = None, bluff: float = BLUFF) -> Belief:
    """The posterior chance of blue of every opponent piece on the board (see the module docstring)."""
    ratios = RATIOS if ratios is None else ratios
    them = view.viewer.other
    variant = view.variant
    pieces = {piece.slot: square for square, piece in view.pieces(them)}
    if not pieces:
        return Belief({}, frozenset(), (((), 1.0),))
    blues_left = variant.blues[them] - sum(1 for p in view.captured if p.side is them and p.colour is Colour.BLUE)
    exits = set(variant.exits[them])
    log_red = dict.fromkeys(pieces, 0.0)  # log(P(evidence | red) / P(evidence | blue)) per piece
    proven: set[int] = set()
    for turn in opponent_turns(view):
        for slot, square in turn.theirs.items():
            if square in exits and slot in pieces:
                proven.add(slot)
        for slot, feature in move_features(variant, turn):
            if slot in log_red:
                ratio = ratios.get(feature, 1.0)
                log_red[slot] += math.log((1 - bluff) * ratio + bluff)
    for slot in proven:
        log_red[slot] += math.log(1 / IRRATIONAL)
    slots = sorted(pieces)
    blues_left = max(0, min(blues_left, len(slots)))
    # Log-weight of a colouring: the evidence of its red pieces (relative to all blue); shifted before exp.
    logs = {
        combo: sum(log_red[s] for s in slots if s not in combo) for combo in itertools.combinations(slots, blues_left)
    }
    top = max(logs.values())
    weights = {combo: math.exp(value - top) for combo, value in logs.items()}
    total = sum(weights.values())
    blue = {slot: sum(w for combo, w in weights.items() if slot in combo) / total for slot in slots}
    colourings = tuple((combo, w / total) for combo, w in weights.items())
    return Belief(blue, frozenset(proven), colourings)
