"""Exact Geister endgames: the Mini-Geister analysis on 5x5 and 6x6 boards, two pieces a side.

A Geister game in which each side is down to one blue and one red piece is a 2-vs-2 position of Tanaka and
Takaoka's model on a larger board: each side knows its own colours and that the opponent has one of each. The same
tables as Mini-Geister's (``solvers.mini_geister.tables``, built on a ``Board`` of the size) answer it:

* **colourless** (the paper's base and extended rules): the analysed side plays "purple", never looking at its own
  colours; value 1 where it forces an event worth 0 on average (an escape attempt, a random capture, under the
  extended rule a guess) in the plies given, -1 where the opponent forces its piece onto its exit first, 0 where
  neither can (endless play);
* **perfect information** (every colour known): value 1 where the side to move forces a win, -1 a loss, 0 neither,
  with the plies to the end. A forced win with every colour known is a forced win whatever the opponent knows;
* **sure wins** (``SURE``): the analysed side knows its own colours, not the opponent's, and wins only by escaping
  with its blue while no opponent piece that may be blue reaches its exit and its blue cannot be taken. This is the
  position of a player in a real game, and value 1 there is a win nothing can stop.

``solvers.geister.tablebase`` reads a real game's position with these tables (the live advice, ``nashplay analyse
geister`` and the strongest AI use it).

The figures the paper gives for 4x4 (positions of each value, the distance table, the natural starting positions)
are printed for 5x5 and 6x6 by ``nashplay solve geister-endgame``; the tables are cached like Mini-Geister's.
Squares are in the analysis frame: the analysed side plays up the board (player 2's positions are flipped).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property

import numpy as np

from core.errors import InvalidPositionError
from core.game import Side
from core.geister import Colour, GeisterState, GeisterView
from core.notation import Square
from solvers.mini_geister.analysis import BASE, EXTENDED, Assessment, assessment
from solvers.mini_geister.model import ANALYSED, OPPONENT, Army, Board, ColourlessSpec, IntArray, Progress, Rule
from solvers.mini_geister.tables import Table, TableStore, empty_masks

__all__ = ["SIZES", "SURE", "EndgameTables", "covers", "endgame_tables", "start_squares"]

#: The boards the endgame tables are built for (the real game's 6x6, and 5x5 between it and Mini-Geister's 4x4).
SIZES = (5, 6)
PAIR = Army(1, 1)
#: The sure-win analysis: the analysed side knows its own blue and red, the opponent's two pieces are purple to it,
#: and it aims for a payoff of 1 (a sure win): its blue escaping is its only event (a capture is a gamble on a hidden
#: colour, so none is allowed); it fails wherever the opponent can put a piece that may be blue on its exit, or can
#: capture its blue. Value 1 is a win that no colouring of the opponent's pieces and no play of the opponent's can
#: stop: what a player of a real game can be told is exact ("win in 3, exact"), whatever the opponent knows.
SURE = ColourlessSpec(PAIR, Army(purple_blue=1, purple_red=1), Fraction(1), capture=False, guess=False)
#: One side's pieces in the analysis frame: (square, colour) pairs.
Pieces = tuple[tuple[int, Colour], ...]


def start_squares(size: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The natural starting placement on a ``size`` board: each side's two pieces on the squares of its home rank
    nearest the centre file (Mini-Geister's b1 c1 / b4 c4 on 4x4; c1 d1 / c6 d6 on 6x6; b1 d1 / b5 d5 on 5x5, the
    centre file left empty so that the placement stays symmetric). Squares in the analysis frame."""
    files = (size // 2 - 1, size // 2) if size % 2 == 0 else (size // 2 - 1, size // 2 + 1)
    top = (size - 1) * size
    return (files[0], files[1]), (top + files[0], top + files[1])


@dataclass(frozen=True)
class EndgameTables:
    """The 2-vs-2 tables of one board: colourless under both rules, perfect information, and sure wins. Each is
    loaded (or built) when first asked for: the live advice needs only the sure-win table and, once the opponent's
    colours are known, the perfect-information one (6x6: about 3 s and 6 s to build, 1.3 GB at the peak)."""

    store: TableStore = field(compare=False, repr=False)

    @classmethod
    def load(cls, size: int, use_cache: bool = True, progress: Progress | None = None) -> EndgameTables:
        """The tables of a ``size`` board, each read from the disk cache, or built (and saved) when missing, stale or
        damaged, when first used."""
        if size not in (4, *SIZES):
            raise ValueError(f"the endgame tables are for boards of 4, 5 or 6 squares a side, not {size}")
        return cls(TableStore(use_cache, progress, Board(size, size)))

    @property
    def board(self) -> Board:
        return self.store.board

    @cached_property
    def base(self) -> Table:
        return self.store.colourless(BASE)

    @cached_property
    def extended(self) -> Table:
        return self.store.colourless(EXTENDED)

    @cached_property
    def perfect(self) -> Table:
        return self.store.perfect(PAIR, PAIR)

    @cached_property
    def sure(self) -> Table:
        return self.store.colourless(SURE)

    def table(self, rule: Rule) -> Table:
        return self.base if rule == "base" else self.extended

    @property
    def seconds(self) -> float:
        return self.base.seconds + self.extended.seconds + self.perfect.seconds + self.sure.seconds

    @property
    def nbytes(self) -> int:
        """The tables' size in memory (a byte of value and two of distance per state)."""
        return sum(t.value.nbytes + t.distance.nbytes for t in (self.base, self.extended, self.perfect, self.sure))

    # ---- positions

    def colourless(self, mine: tuple[int, int], theirs: tuple[int, int], turn: int, rule: Rule = "base") -> Assessment:
        """The colourless value of the analysed side's pieces on ``mine`` against the opponent's on ``theirs``
        (squares in the analysis frame; ``turn`` 0: the analysed side moves)."""
        table = self.table(rule)
        masks = empty_masks(1)
        masks[(ANALYSED, "p")] = _mask(mine)
        masks[(OPPONENT, "p")] = _mask(theirs)
        return assessment(table, int(table.index(masks, turn)[0]))

    def perfect_value(self, mine: tuple[int, int], theirs: tuple[int, int], turn: int) -> Assessment:
        """The perfect-information value, the analysed side's blue and red on ``mine`` (in that order) against the
        opponent's blue and red on ``theirs``."""
        masks = empty_masks(1)
        masks[(ANALYSED, "kb")], masks[(ANALYSED, "kr")] = _mask(mine[:1]), _mask(mine[1:])
        masks[(OPPONENT, "kb")], masks[(OPPONENT, "kr")] = _mask(theirs[:1]), _mask(theirs[1:])
        return assessment(self.perfect, int(self.perfect.index(masks, turn)[0]))

    def sure_value(self, blue: int, red: int, theirs: tuple[int, int], turn: int) -> Assessment:
        """The sure-win value (``SURE``) of the analysed side's blue on ``blue`` and red on ``red`` against the
        opponent's two pieces, colours unknown, on ``theirs``."""
        masks = empty_masks(1)
        masks[(ANALYSED, "kb")], masks[(ANALYSED, "kr")] = _mask((blue,)), _mask((red,))
        masks[(OPPONENT, "p")] = _mask(theirs)
        return assessment(self.sure, int(self.sure.index(masks, turn)[0]))

    def starts(self, rule: Rule = "base") -> tuple[Assessment, Assessment]:
        """The natural starting placement (``start_squares``) when the analysed side moves first, and second."""
        mine, theirs = start_squares(self.board.width)
        return self.colourless(mine, theirs, 0, rule), self.colourless(mine, theirs, 1, rule)

    def frame(self, position: GeisterState | GeisterView, analysed: Side) -> tuple[Pieces, Pieces, int]:
        """``position``'s pieces in the analysis frame of ``analysed``: each side's (square, colour) pairs
        (``UNKNOWN`` for a hidden one), and whose turn it is (0: the analysed side's). ``InvalidPositionError`` where
        no table covers the position."""
        if not covers(position):
            raise InvalidPositionError("the endgame tables cover one blue and one red a side on a 5x5 or 6x6 board")
        variant = position.variant
        if (variant.width, variant.height) != (self.board.width, self.board.height):
            raise InvalidPositionError(f"these tables are for {self.board.name}, the game is {variant.name}")
        sides: dict[Side, list[tuple[int, Colour]]] = {Side.P1: [], Side.P2: []}
        for square, piece in position.pieces():
            sides[piece.side].append((self.index_of(square, analysed), piece.colour))
        return tuple(sides[analysed]), tuple(sides[analysed.other]), 0 if position.to_move is analysed else 1

    def index_of(self, square: Square, analysed: Side) -> int:
        """A board square's index in the analysis frame of ``analysed`` (player 2's board is flipped)."""
        index = square.rank * self.board.width + square.file
        return int(self.board.flip[index]) if analysed is Side.P2 else index

    def square_of(self, index: int, analysed: Side) -> Square:
        """The board square of an analysis-frame index, for ``analysed``."""
        framed = int(self.board.flip[index]) if analysed is Side.P2 else index
        return Square(framed % self.board.width, framed // self.board.width)

    # ---- the figures

    def figures(self) -> dict[str, object]:
        """What ``solve geister-endgame`` prints: counts, distance tables, the starts, sizes."""
        out: dict[str, object] = {"board": self.board.name, "states": int(2 * self.base.placements)}
        for rule in ("base", "extended"):
            table = self.table(rule)
            first, second = self.starts(rule)
            out[rule] = {
                "counts": {str(v): n for v, n in table.counts().items()},
                "distances": {str(d): n for d, n in table.distance_histogram(1).items()},
                "start": {"first": first.to_json(), "second": second.to_json()},
            }
        out["perfect"] = {
            "states": int(2 * self.perfect.placements),
            "counts": {str(v): n for v, n in self.perfect.counts().items()},
            "distances": {str(d): n for d, n in self.perfect.distance_histogram(1).items()},
        }
        out["sure"] = {
            "states": int(2 * self.sure.placements),
            "counts": {str(v): n for v, n in self.sure.counts().items()},
            "distances": {str(d): n for d, n in self.sure.distance_histogram(1).items()},
        }
        out["bytes"] = self.nbytes
        out["seconds"] = round(self.seconds, 2)
        out["sources"] = {
            name: table.source
            for name, table in (("base", self.base), ("extended", self.extended), ("perfect", self.perfect))
        } | {"sure": self.sure.source}
        return out


def covers(position: GeisterState | GeisterView) -> bool:
    """Whether ``position`` (a state, or a player's view) is an ending the tables cover: a 5x5 or 6x6 game going on,
    each side with exactly one blue and one red piece on the board (captured pieces tell the counts, so this holds
    for hidden pieces too)."""
    variant = position.variant
    if variant.width != variant.height or variant.width not in SIZES:
        return False
    over = position.is_terminal() if isinstance(position, GeisterState) else position.outcome is not None
    if over or (isinstance(position, GeisterView) and position.phase != "play"):
        return False
    for side in Side:
        on_board = sum(1 for _, piece in position.pieces() if piece.side is side)
        taken = [piece for piece in position.captured if piece.side is side]
        blues = variant.blues[side] - sum(1 for p in taken if p.colour is Colour.BLUE)
        reds = variant.reds[side] - sum(1 for p in taken if p.colour is Colour.RED)
        if on_board != 2 or blues != 1 or reds != 1:
            return False
    return True


def _mask(squares: tuple[int, ...]) -> IntArray:
    return np.array([sum(1 << s for s in squares)], dtype=np.int64)


@cache
def endgame_tables(size: int) -> EndgameTables:
    """The process's tables of a board, loaded (or built) once."""
    return EndgameTables.load(size)
