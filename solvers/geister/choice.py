"""How a Geister player moves its blue and its red pieces: a choice model over all legal moves, learned from games
whose colours are known.

At each of its turns a player picks one move among all its legal ones. The model gives every legal move a utility
that depends on what the move does (``MOVE_FEATURES``: whether it advances, captures, steps next to an enemy piece,
onto an exit, ...) and on the colour of the piece that makes it: ``u(m) = theta[colour(m)] . phi(m)``, and the chance
of the move played is ``exp(u(played)) / sum(exp(u(m)) for every legal m)``: a conditional logit (McFadden). Given a
colouring of the mover's pieces, every turn has its likelihood; over the colourings consistent with what is known
(the counts, the colours captures revealed) that is a posterior, and a piece's chance of being blue is the weighted
share of the colourings where it is. The sum in the denominator runs over the moves of every piece, each under its
own colour, so that a piece is also judged by the moves it was not chosen to make (a blue on its exit that does not
escape, a runner with a free path left standing).

Where the feature ratios of ``solvers.geister.belief`` only look at the move made, this model looks at the choice: a red
that walks into contact is evidence only if a blue could have, and would have been less likely to.

Training (``fit``) maximises the likelihood of the moves played in a corpus, under the colours the records keep,
with a small L2 penalty (scipy's L-BFGS; the gradient is exact). A ``Style`` holds one set of parameters; the
belief (``solvers.geister.choice_belief``) mixes several and learns which fits its opponent.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from core.game import Side
from core.geister import Colour, Variant
from core.notation import Move, Square

__all__ = [
    "MOVE_FEATURES",
    "Style",
    "TurnChoices",
    "TurnData",
    "fit",
    "turn_choices",
]

Floats = npt.NDArray[np.float64]

#: What a move does, as the model reads it (``turn_choices``).
_MOVE_FEATURES = (
    "escape",
    "advance",
    "retreat",
    "exit distance after",
    "capture",
    "capture near their exit",
    "approach",
    "flee",
    "contacts after",
    "onto own exit",
    "free run",
    "forward",
    "backward",
    "first move of the piece",
    "same piece as last turn",
)
#: The same again, counted only while the mover is down to its last red (whose capture would lose the game for its
#: opponent: a player then moves that red, and its blues, otherwise; the contest programs bait with it).
MOVE_FEATURES: tuple[str, ...] = (*_MOVE_FEATURES, *(f"{name} (last red)" for name in _MOVE_FEATURES))
N_MOVE_FEATURES = len(MOVE_FEATURES)


@dataclass(frozen=True)
class TurnChoices:
    """One turn of a mover: every move it could have made (its piece's slot, what it does) and the one it made."""

    #: The slot of the piece each candidate move moves.
    slots: npt.NDArray[np.int64]
    #: ``(moves, N_MOVE_FEATURES)``.
    features: Floats
    #: Which candidates are escapes (a red piece has none: they count only where the piece is taken as blue).
    escapes: npt.NDArray[np.bool_]
    #: The candidate played.
    played: int


def _steps(variant: Variant, square: Square) -> Iterable[Square]:
    for dfile, drank in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        target = square.offset(dfile, drank)
        if variant.on_board(target):
            yield target


def _exit_distance(square: Square, exits: Sequence[Square]) -> int:
    return min(square.distance(e) for e in exits)


def turn_choices(
    variant: Variant,
    mover: Side,
    theirs: dict[int, Square],
    ours: Iterable[Square],
    move: Move,
    moved_before: set[int],
    last_slot: int | None,
    last_red: bool = False,
) -> TurnChoices:
    """The choices of ``mover``'s turn: ``theirs`` are the mover's pieces (slot -> square), ``ours`` the other
    side's squares, ``move`` the move it made, ``moved_before`` the slots it had moved before this turn and
    ``last_slot`` the one it moved last; ``last_red``: the mover was down to its last red. Every piece's every step
    (onto an empty square or an enemy piece) is a candidate, and the escape of a piece on one of the mover's exits
    (possible only for a blue one)."""
    exits = variant.exits[mover]
    enemy_exits = variant.exits[mover.other]
    enemies = set(ours)
    occupied = set(theirs.values())
    forward = variant.forward(mover)
    slots: list[int] = []
    rows: list[list[float]] = []
    escapes: list[bool] = []
    played = -1

    def adjacent(square: Square, pieces: set[Square]) -> int:
        return sum(1 for s in _steps(variant, square) if s in pieces)

    for slot, src in theirs.items():
        contacts_before = adjacent(src, enemies)
        d_before = _exit_distance(src, exits)
        free = all(e.distance(exit_) > src.distance(exit_) for exit_ in exits for e in enemies) if enemies else True
        first = 0.0 if slot in moved_before else 1.0
        same = 1.0 if slot == last_slot else 0.0
        if src in exits:
            slots.append(slot)
            rows.append([1.0, 1.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0, 1.0 if free else 0.0, 0, 0, first, same])
            escapes.append(True)
            if move.src == src and move.dst is None:
                played = len(rows) - 1
        for dst in _steps(variant, src):
            if dst in occupied:
                continue
            d_after = _exit_distance(dst, exits)
            capture = dst in enemies
            remaining = enemies - {dst} if capture else enemies
            contacts_after = adjacent(dst, remaining)
            near_exit = capture and _exit_distance(dst, enemy_exits) <= 1
            drank = dst.rank - src.rank
            slots.append(slot)
            rows.append(
                [
                    0.0,
                    1.0 if d_after < d_before else 0.0,
                    1.0 if d_after > d_before else 0.0,
                    d_after / 5.0,
                    1.0 if capture else 0.0,
                    1.0 if near_exit else 0.0,
                    1.0 if contacts_after and not contacts_before else 0.0,
                    1.0 if contacts_before and not contacts_after else 0.0,
                    float(contacts_after),
                    1.0 if dst in exits else 0.0,
                    1.0 if free and d_after < d_before else 0.0,
                    1.0 if drank == forward else 0.0,
                    1.0 if drank == -forward else 0.0,
                    first,
                    same,
                ]
            )
            escapes.append(False)
            if move.src == src and move.dst == dst:
                played = len(rows) - 1
    if played < 0:
        raise ValueError(f"{move} is not one of {mover}'s moves here")
    base = np.array(rows, dtype=np.float64)
    features = np.hstack([base, base if last_red else np.zeros_like(base)])
    return TurnChoices(np.array(slots, dtype=np.int64), features, np.array(escapes, dtype=bool), played)


@dataclass(frozen=True)
class Style:
    """One set of the model's parameters: the utility weights of a blue piece's moves and of a red piece's."""

    name: str
    blue: Floats
    red: Floats

    @cached_property
    def digest(self) -> bytes:
        """Tells these parameters apart from any others (for caches of what they computed)."""
        return hashlib.blake2b(self.name.encode() + self.blue.tobytes() + self.red.tobytes(), digest_size=16).digest()

    def utilities(self, choices: TurnChoices) -> tuple[Floats, Floats]:
        """Each candidate's utility if its piece is blue, and if it is red (``-inf`` for a red's escape)."""
        blue = choices.features @ self.blue
        red = np.where(choices.escapes, -np.inf, choices.features @ self.red)
        return blue, red

    def log_likelihoods(self, choices: TurnChoices, slots: Sequence[int], colourings: npt.NDArray[np.bool_]) -> Floats:
        """The log-chance of the move played, under each colouring: ``colourings[i, j]`` says whether the piece of
        ``slots[j]`` is blue in colouring ``i``. Every slot of ``choices`` must be among ``slots``."""
        blue, red = self.utilities(choices)
        column = {slot: j for j, slot in enumerate(slots)}
        pieces = sorted(set(choices.slots.tolist()))
        top = max(float(np.max(blue)), float(np.max(red[np.isfinite(red)], initial=-np.inf)))
        # Per piece: the sum of exp(utility) of its moves if blue, and if red.
        blue_sums = np.zeros(len(slots))
        red_sums = np.zeros(len(slots))
        for slot in pieces:
            mask = choices.slots == slot
            blue_sums[column[slot]] = float(np.exp(blue[mask] - top).sum())
            red_sums[column[slot]] = float(np.exp(red[mask] - top).sum())
        denominators = np.where(colourings, blue_sums, red_sums).sum(axis=1)
        played = choices.played
        played_column = column[int(choices.slots[played])]
        numerators = np.where(colourings[:, played_column], blue[played] - top, red[played] - top)
        with np.errstate(divide="ignore"):
            result: Floats = numerators - np.log(denominators)
        return result

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "blue": dict(zip(MOVE_FEATURES, (round(float(x), 6) for x in self.blue), strict=True)),
            "red": dict(zip(MOVE_FEATURES, (round(float(x), 6) for x in self.red), strict=True)),
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Style:
        blue = data["blue"]
        red = data["red"]
        assert isinstance(blue, dict) and isinstance(red, dict)
        return cls(
            str(data["name"]),
            np.array([float(blue[f]) for f in MOVE_FEATURES]),
            np.array([float(red[f]) for f in MOVE_FEATURES]),
        )


@dataclass
class TurnData:
    """Many turns, for training: every candidate move's features and its piece's true colour, and which one was
    played, flattened (``starts[i]`` is turn ``i``'s first candidate)."""

    features: Floats
    blue: npt.NDArray[np.bool_]
    escapes: npt.NDArray[np.bool_]
    starts: npt.NDArray[np.int64]
    played: npt.NDArray[np.int64]

    @classmethod
    def collect(cls, turns: Iterable[tuple[TurnChoices, dict[int, Colour]]]) -> TurnData:
        features, blue, escapes, starts, played = [], [], [], [], []
        offset = 0
        for choices, colours in turns:
            features.append(choices.features)
            blue.append(np.array([colours[int(s)] is Colour.BLUE for s in choices.slots]))
            escapes.append(choices.escapes)
            starts.append(offset)
            played.append(offset + choices.played)
            offset += len(choices.slots)
        return cls(
            np.concatenate(features) if features else np.zeros((0, N_MOVE_FEATURES)),
            np.concatenate(blue) if blue else np.zeros(0, dtype=bool),
            np.concatenate(escapes) if escapes else np.zeros(0, dtype=bool),
            np.array(starts, dtype=np.int64),
            np.array(played, dtype=np.int64),
        )

    @property
    def turns(self) -> int:
        return len(self.starts)

    def log_likelihood(self, style: Style) -> float:
        value, _ = _objective(np.concatenate([style.blue, style.red]), self, 0.0)
        return -value


def _objective(theta: Floats, data: TurnData, l2: float) -> tuple[float, Floats]:
    """The negative log-likelihood of the moves played (plus ``l2 * |theta|^2``) and its gradient."""
    k = N_MOVE_FEATURES
    blue_theta, red_theta = theta[:k], theta[k:]
    # A red piece's escape is no candidate (it cannot escape): its weight is zero.
    present = data.blue | ~data.escapes
    utility = np.where(data.blue, data.features @ blue_theta, data.features @ red_theta)
    utility = np.where(present, utility, -np.inf)
    # Log-sum-exp per turn, shifted by each turn's maximum.
    top = np.maximum.reduceat(utility, data.starts)
    shifted = np.exp(utility - np.repeat(top, np.diff(np.append(data.starts, len(utility)))))
    sums = np.add.reduceat(shifted, data.starts)
    log_z = top + np.log(sums)
    value = -(utility[data.played].sum() - log_z.sum()) + l2 * float(theta @ theta)
    # Gradient: expected features under the model minus the played ones, per colour's weights.
    share = shifted / np.repeat(sums, np.diff(np.append(data.starts, len(utility))))
    weighted = data.features * share[:, None]
    grad_blue = weighted[data.blue].sum(axis=0) - data.features[data.played][data.blue[data.played]].sum(axis=0)
    grad_red = weighted[~data.blue].sum(axis=0) - data.features[data.played][~data.blue[data.played]].sum(axis=0)
    grad = np.concatenate([grad_blue, grad_red]) + 2 * l2 * theta
    return float(value), grad


def fit(name: str, data: TurnData, l2: float = 1e-3, start: Style | None = None) -> Style:
    """The parameters that make the moves of ``data`` likeliest (maximum likelihood with an L2 penalty of ``l2``
    per turn), from ``start`` (or zeros: every move alike)."""
    from scipy.optimize import minimize

    if data.turns == 0:
        raise ValueError("no turns to learn from")
    theta0 = np.zeros(2 * N_MOVE_FEATURES) if start is None else np.concatenate([start.blue, start.red])
    penalty = l2 * data.turns
    result = minimize(_objective, theta0, args=(data, penalty), jac=True, method="L-BFGS-B")
    theta = result.x
    return Style(name, theta[:N_MOVE_FEATURES].copy(), theta[N_MOVE_FEATURES:].copy())


def log_softplus(x: float) -> float:
    """``log(1 + e**x)`` without overflow."""
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))
