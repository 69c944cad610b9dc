"""The model of the Mini-Geister analysis: the 4x4 board in the analysis frame, armies of known and purple pieces,
and the specification of one analysis (its pieces, the payoff it aims for and the events it allows).

Conventions: the analysed side ("A") always plays up the board like player 1 (exits a4, d4); the opponent ("O")
plays down (exits a1, d1). A position where player 2 is analysed is flipped up-down on the way in and out. Squares
are ``rank * 4 + file`` as in ``core.geister.Variant.index``; a set of squares is a 16-bit mask. The same model on
a larger ``Board`` is the Geister endgame tables' (``solvers.geister.endgame``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from core.geister import VARIANTS

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]

#: What ``progress`` is told: a description of the table being solved and the share of its states decided so far.
Progress = Callable[[str, float], None]
Rule = Literal["base", "extended"]

ANALYSED, OPPONENT = 0, 1
MINI = VARIANTS["mini-geister"]
SQUARES = 16
#: Two averages closer than this are equal.
EPS = 1e-9

# --------------------------------------------------------------------------------------------------- geometry

_STEPS = ((0, 1), (0, -1), (-1, 0), (1, 0))


@dataclass(frozen=True)
class Board:
    """A board in the analysis frame: the analysed side leaves from the two far corners (top rank), the opponent
    from the two near ones. Squares are ``rank * width + file``; a set of squares is a mask of ``squares`` bits.
    Mini-Geister's is 4x4 (``MINI_BOARD``); the Geister endgame tables use 5x5 and 6x6 boards."""

    width: int
    height: int

    @property
    def squares(self) -> int:
        return self.width * self.height

    @property
    def step(self) -> IntArray:
        """``step[square, direction]``: the square one step away (north, south, west, east), -1 off the board."""
        return _step_table(self.width, self.height)

    @property
    def neighbours(self) -> IntArray:
        """The mask of the squares one step from each square."""
        return _neighbour_masks(self.width, self.height)

    @property
    def exits(self) -> tuple[np.int64, np.int64]:
        """Exit squares (masks) of each side in the analysis frame: the analysed side's on the top rank's corners."""
        top = (self.height - 1) * self.width
        return (
            np.int64((1 << top) | (1 << (top + self.width - 1))),
            np.int64((1 << 0) | (1 << (self.width - 1))),
        )

    @property
    def flip(self) -> IntArray:
        """Each square's up-down mirror image: how player 2 is seen as the analysed side."""
        w, h = self.width, self.height
        return np.array([(h - 1 - s // w) * w + s % w for s in range(self.squares)], dtype=np.int64)

    @property
    def mirror(self) -> IntArray:
        """Each square's left-right mirror image (the rules are symmetric)."""
        w = self.width
        return np.array([(s // w) * w + w - 1 - s % w for s in range(self.squares)], dtype=np.int64)

    @property
    def name(self) -> str:
        return f"{self.width}x{self.height}"


@cache
def _step_table(width: int, height: int) -> IntArray:
    table = np.full((width * height, 4), -1, dtype=np.int64)
    for square in range(width * height):
        for direction, (df, dr) in enumerate(_STEPS):
            f, r = square % width + df, square // width + dr
            if 0 <= f < width and 0 <= r < height:
                table[square, direction] = r * width + f
    table.flags.writeable = False
    return table


@cache
def _neighbour_masks(width: int, height: int) -> IntArray:
    step = _step_table(width, height)
    masks = np.array([sum(1 << int(t) for t in step[s] if t >= 0) for s in range(width * height)], dtype=np.int64)
    masks.flags.writeable = False
    return masks


MINI_BOARD = Board(4, 4)
SQUARES = MINI_BOARD.squares
STEP = MINI_BOARD.step
NEIGHBOURS = MINI_BOARD.neighbours
#: Exit squares of each side in the analysis frame: A leaves from a4/d4, O from a1/d1.
EXITS = MINI_BOARD.exits
FLIP = MINI_BOARD.flip
MIRROR = MINI_BOARD.mirror


def map_mask(masks: IntArray, squares: IntArray) -> IntArray:
    """Each mask with every square s replaced by ``squares[s]`` (the up-down flip or the left-right mirror)."""
    out = np.zeros_like(masks)
    for s in range(len(squares)):
        out |= ((masks >> s) & 1) << squares[s]
    return out


def flip_square(index: int) -> int:
    """The up-down mirror image of a square index: how player 2 is seen as the analysed side."""
    return int(FLIP[index])


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


#: The groups of a table, in order: (side, "kb" known blue | "kr" known red | "p" purple).
Roles = tuple[tuple[int, str], ...]
ROLE_ORDER = ("kb", "kr", "p")


def roles_of(analysed: Army, opponent: Army) -> Roles:
    return tuple(
        (side, role)
        for side, army in ((ANALYSED, analysed), (OPPONENT, opponent))
        for role in ROLE_ORDER
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


def lower_bound(value: NDArray[np.int8], target: Fraction) -> FloatArray:
    """What a continuation table guarantees: its target at 1, min(target, 0) at 0 (endless play), -1 at -1."""
    return np.where(value == 1, float(target), np.where(value == 0, min(float(target), 0.0), -1.0))
