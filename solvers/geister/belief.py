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

No one set of ratios fits every opponent. A purple-type player walks its reds into contact (a piece that approaches
is likely red); Chototsu charges with its blues and never moves a red (a piece that approaches is blue, one that
never moved is red). Trusting the first reading against the second loses most games (measured: 35% against
Chototsu at 0.05 s a move). So the belief is a mixture over ``STYLES``, each a set of ratios fitted from one kind
of player: the purple-type ``baiter``, the Chototsu-type ``charger``, and ``silent`` (moves say nothing: the counts
and the hard evidence alone, for a player whose moves do not depend on its colours). Each style's weight starts at
``STYLE_PRIOR`` and is updated by the pieces whose colours the game has revealed (the ones we captured): under each
style, the chance it gave the revealed colour from that piece's evidence. A style that called the captured
chargers red soon loses its say.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from core.geister import Colour, GeisterView, Variant
from core.notation import Square
from solvers.geister.colour_evidence import Turn, opponent_turns

__all__ = [
    "BLUFF",
    "CHARGER_RATIOS",
    "FEATURES",
    "IRRATIONAL",
    "RATIOS",
    "STYLES",
    "STYLE_PRIOR",
    "ColourBelief",
    "belief",
    "move_features",
]

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

#: Likelihood ratios of a charger (Chototsu: blues charge for the exits, reds never move unless nothing else can),
#: fitted by ``python benchmarks/belief_fit.py --style charger --games 400 --depth 3`` (Chototsu's moves against
#: purple; on 80 other games the log loss per piece was 0.444, against 0.638 for the counts alone). The extreme
#: ratios are a charger's: a red moves only when nothing else can, so any red move's feature is rare among blues.
CHARGER_RATIOS: dict[str, float] = {
    "moved": 0.0001393,
    "approach": 1.063,
    "flee": 8.042,
    "capture": 4.848,
    "advance": 0.5004,
    "retreat": 2099.0,
    "free_run": 110.5,
    "idle_runner": 10.0,
}

#: The opponent styles the belief weighs (see the module docstring): ratios red : blue per feature.
STYLES: dict[str, dict[str, float]] = {
    "baiter": RATIOS,
    "charger": CHARGER_RATIOS,
    "silent": dict.fromkeys(FEATURES, 1.0),
}
#: Each style's weight before the game reveals any colour: the purple-type reading first (the contest programs
#: play so), the other two as the hedge.
STYLE_PRIOR: dict[str, float] = {"baiter": 0.5, "charger": 0.25, "silent": 0.25}


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
class ColourBelief:
    """Each opponent piece on the board (by slot) with its chance of being blue, which are proven red, and the
    posterior itself: every colouring consistent with the counts (its blue slots) with its probability."""

    blue: dict[int, float]
    proven_red: frozenset[int]
    colourings: tuple[tuple[tuple[int, ...], float], ...] = ()
    #: Each style's weight after the colours revealed so far (``STYLES``; one ``given`` style for given ratios).
    styles: dict[str, float] = field(default_factory=dict)

    def red(self, slot: int) -> float:
        return 1.0 - self.blue[slot]


def belief(view: GeisterView, ratios: dict[str, float] | None = None, bluff: float = BLUFF) -> ColourBelief:
    """The posterior chance of blue of every opponent piece on the board (see the module docstring): a mixture over
    ``STYLES``, or the one set of ``ratios`` given."""
    them = view.viewer.other
    variant = view.variant
    pieces = {piece.slot: square for square, piece in view.pieces(them)}
    if not pieces:
        return ColourBelief({}, frozenset(), (((), 1.0),), dict(STYLE_PRIOR) if ratios is None else {"given": 1.0})
    blues_left = variant.blues[them] - sum(1 for p in view.captured if p.side is them and p.colour is Colour.BLUE)
    exits = set(variant.exits[them])
    fired: dict[int, Counter[str]] = {}  # every opponent piece's features, captured ones included
    proven: set[int] = set()
    for turn in opponent_turns(view):
        for slot, square in turn.theirs.items():
            if square in exits and slot in pieces:
                proven.add(slot)
        for slot, feature in move_features(variant, turn):
            fired.setdefault(slot, Counter())[feature] += 1
    styles = {"given": ratios} if ratios is not None else STYLES
    prior = {"given": 1.0} if ratios is not None else STYLE_PRIOR
    revealed = [(p.slot, p.colour) for p in view.captured if p.side is them]
    mixture: dict[tuple[int, ...], float] = {}
    weights: dict[str, float] = {}
    logs_by_style: dict[str, dict[int, float]] = {}
    for name, style in styles.items():
        factors = {f: math.log((1 - bluff) * style.get(f, 1.0) + bluff) for f in FEATURES}
        log_red = {slot: sum(factors[f] * n for f, n in counts.items()) for slot, counts in fired.items()}
        logs_by_style[name] = log_red
        # The style's say: the chance it gave each revealed piece's true colour (even odds before the evidence).
        evidence = 0.0
        for slot, colour in revealed:
            red_odds = log_red.get(slot, 0.0)
            log_p_red = -_softplus(-red_odds)
            log_p_blue = -_softplus(red_odds)
            evidence += log_p_red if colour is Colour.RED else log_p_blue
        weights[name] = math.log(prior[name]) + evidence
    top_weight = max(weights.values())
    style_share = {name: math.exp(w - top_weight) for name, w in weights.items()}
    total_share = sum(style_share.values())
    slots = sorted(pieces)
    blues_left = max(0, min(blues_left, len(slots)))
    for name in styles:
        log_red = {slot: logs_by_style[name].get(slot, 0.0) for slot in slots}
        for slot in proven:
            log_red[slot] += math.log(1 / IRRATIONAL)
        # Log-weight of a colouring: the evidence of its red pieces (relative to all blue); shifted before exp.
        logs = {
            combo: sum(log_red[s] for s in slots if s not in combo)
            for combo in itertools.combinations(slots, blues_left)
        }
        top = max(logs.values())
        combo_weights = {combo: math.exp(value - top) for combo, value in logs.items()}
        total = sum(combo_weights.values())
        share = style_share[name] / total_share
        for combo, w in combo_weights.items():
            mixture[combo] = mixture.get(combo, 0.0) + share * w / total
    blue = {slot: sum(w for combo, w in mixture.items() if slot in combo) for slot in slots}
    styles_after = {name: share / total_share for name, share in style_share.items()}
    return ColourBelief(blue, frozenset(proven), tuple(mixture.items()), styles_after)


def _softplus(x: float) -> float:
    """``log(1 + e**x)`` without overflow."""
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))
