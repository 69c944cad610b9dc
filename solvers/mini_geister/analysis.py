"""What the solved Mini-Geister tables say about a position: the 2-vs-2 tables (base and extended rule, colours
known), each move's result, the Nash strategy's moves, solved lines, and perfect-information values.

This is the query side of the solver: positions come in as ``core.geister`` states or position text and are seen
from the analysed side in the analysis frame (``solvers.mini_geister.model``); the tables come from a
``TableStore`` (``solvers.mini_geister.tables``), by default the process's own, read from the disk cache.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import numpy as np

from core.errors import InvalidPositionError
from core.game import Side
from core.geister import Colour, GeisterState, Variant
from core.notation import Move, Square
from solvers.mini_geister.model import (
    ANALYSED,
    MINI,
    OPPONENT,
    Army,
    ColourlessSpec,
    IntArray,
    Progress,
    Rule,
    flip_square,
)
from solvers.mini_geister.tables import Table, TableStore, empty_masks

PURPLE_PAIR = Army(purple_blue=1, purple_red=1)
#: Section 2-3: escape attempts and the random capture when both opponent pieces are in reach.
BASE = ColourlessSpec(PURPLE_PAIR, PURPLE_PAIR, Fraction(0), capture=True, guess=False)
#: Section 4: the random capture is replaced by the guess, which includes it (the capture stays on: it changes
#: nothing, and the continuation tables of section 6 use exactly this table).
EXTENDED = ColourlessSpec(PURPLE_PAIR, PURPLE_PAIR, Fraction(0), capture=True, guess=True)
SPECS: dict[str, ColourlessSpec] = {"base": BASE, "extended": EXTENDED}
RULES: tuple[Rule, ...] = ("base", "extended")
START = MINI.standard_start()
#: Mini-Geister as the tables solve it: without the game's ply limit (``spec/rules.md``: the solver has no limit,
#: endless play is worth 0; people get a draw after 200 plies). The game's own variant made the moves from a
#: position at ply 199, which the game plays, lead to "the game is over" and the analysis refuse it.
SOLVED_MINI = dataclasses.replace(MINI, ply_limit=None)


@dataclass(frozen=True)
class Assessment:
    """A placement's value for the analysed side and the plies to the deciding event (``None`` when undecided)."""

    value: int
    distance: int | None

    def to_json(self) -> dict[str, int | None]:
        return {"value": self.value, "distance": self.distance}

    def text(self) -> str:
        if self.value == 0:
            return "undecided (neither side can force its event)"
        who = "the analysed side" if self.value == 1 else "the opponent"
        return f"{who} forces its event in {self.distance} {'ply' if self.distance == 1 else 'plies'}"


def assessment(table: Table, index: int) -> Assessment:
    value = int(table.value[index])
    return Assessment(value, int(table.distance[index]) if value else None)


@dataclass(frozen=True)
class _Frame:
    """A Mini-Geister position seen from the analysed side: its squares and the opponent's in the analysis frame
    (flipped up-down when player 2 is analysed), and whose turn it is (0: the analysed side's)."""

    analysed: Side
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    turn: int

    def masks(self) -> dict[tuple[int, str], IntArray]:
        masks = empty_masks(1)
        masks[(ANALYSED, "p")] = np.array([sum(1 << s for s in self.mine)], dtype=np.int64)
        masks[(OPPONENT, "p")] = np.array([sum(1 << s for s in self.theirs)], dtype=np.int64)
        return masks


def _to_frame(square: Square, analysed: Side) -> int:
    index = MINI.index(square)
    return flip_square(index) if analysed is Side.P2 else index


def parse_position(position: str | GeisterState, variant: Variant | str | None = MINI) -> GeisterState:
    """A game state from position text (``spec/notation.md``; ``variant=None`` infers it), or the state itself."""
    if isinstance(position, GeisterState):
        return position
    return GeisterState.from_position(position, variant)


def colourless_state(position: str | GeisterState) -> GeisterState:
    """The Mini-Geister position with every colour hidden (``U``/``u``), as the purple strategy plays it: any piece
    on its exit may try to escape, whatever colour the text gave it; in the game as the tables solve it, without
    the ply limit (``SOLVED_MINI``). A position the game has ended (its ply limit included) is refused."""
    state = parse_position(position)
    if (state.variant.width, state.variant.height) != (4, 4):
        raise InvalidPositionError(f"Mini-Geister is played on 4x4, not {state.variant.width}x{state.variant.height}")
    if state.is_terminal():
        raise InvalidPositionError(f"the game is over: {state.outcome()}")
    ranks, _, rest = state.position().partition(" ")
    hidden = ranks.translate(str.maketrans("BRbr", "UUuu"))
    return GeisterState.from_position(f"{hidden} {rest}", SOLVED_MINI)


def _colourless_frame(state: GeisterState, analysed: Side | None) -> _Frame:
    """The 2-vs-2 placement of ``state`` for the colourless tables; a clear error if there is none."""
    if (state.variant.width, state.variant.height) != (4, 4):
        raise InvalidPositionError(f"Mini-Geister is played on 4x4, not {state.variant.width}x{state.variant.height}")
    if state.captured:
        raise InvalidPositionError("the colourless analysis covers positions before any capture (2 pieces a side)")
    if state.is_terminal():
        raise InvalidPositionError(f"the game is over: {state.outcome()}")
    side = state.to_move if analysed is None else analysed
    squares: dict[Side, list[int]] = {Side.P1: [], Side.P2: []}
    for square, piece in state.pieces():
        squares[piece.side].append(_to_frame(square, side))
    for who, found in squares.items():
        if len(found) != 2:
            raise InvalidPositionError(
                f"{who} has {len(found)} pieces on the board; Mini-Geister positions have 2 a side"
            )
    return _Frame(
        side, tuple(sorted(squares[side])), tuple(sorted(squares[side.other])), 0 if state.to_move is side else 1
    )


@dataclass(frozen=True)
class MoveAssessment:
    """A legal move of the side to move and what it leads to for the analysed side, under each rule.

    ``event`` names moves that end the game at once: ``escape`` (an escape attempt), ``capture`` (the analysed side
    takes a piece: decided by that piece's colour, so no value; the base rule's event chooses between two such
    captures at random) and ``captured`` (the opponent takes an unseen piece: average 0, the analysed side's target).
    """

    move: Move
    event: str | None
    base: Assessment | None
    extended: Assessment | None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"move": self.move.to_text()}
        if self.event is not None:
            out["event"] = self.event
        out["base"] = None if self.base is None else self.base.to_json()
        out["extended"] = None if self.extended is None else self.extended.to_json()
        return out


@dataclass(frozen=True)
class PositionAnalysis:
    """``analyse_position``'s answer: the placement under both rules, and every legal move's result."""

    position: str
    analysed: Side
    to_move: Side
    base: Assessment
    extended: Assessment
    moves: tuple[MoveAssessment, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "position": self.position,
            "for": self.analysed.number,
            "to_move": self.to_move.number,
            "base": self.base.to_json(),
            "extended": self.extended.to_json(),
            "moves": [m.to_json() for m in self.moves],
        }


@dataclass(frozen=True)
class LineStep:
    """One ply of a solved line: who plays, the move (``None`` for a guess), the event it is (if it ends the game),
    and the distance before the ply (the last step has distance 1)."""

    ply: int
    side: Side
    move: Move | None
    event: str | None
    distance: int

    def to_text(self) -> str:
        return "guess" if self.move is None else self.move.to_text()


@dataclass(frozen=True)
class MiniGeisterTables:
    """The 2-vs-2 tables: colourless under the base and extended rules, and the perfect-information table."""

    base: Table
    extended: Table
    perfect: Table
    store: TableStore = field(compare=False, repr=False)

    @classmethod
    def load(cls, use_cache: bool = True, progress: Progress | None = None) -> MiniGeisterTables:
        """From the disk cache, or solved (and saved) when missing, stale or corrupt."""
        store = TableStore(use_cache, progress)
        return cls.from_store(store)

    @classmethod
    def from_store(cls, store: TableStore) -> MiniGeisterTables:
        return cls(
            store.colourless(BASE),
            store.colourless(EXTENDED),
            store.perfect(Army(1, 1), Army(1, 1)),
            store,
        )

    def table(self, rule: Rule) -> Table:
        if rule not in RULES:
            raise ValueError(f"the rule is 'base' or 'extended', not {rule!r}")
        return self.base if rule == "base" else self.extended

    @property
    def seconds(self) -> float:
        """Seconds spent solving in this process (0 when every table came from the cache)."""
        return self.base.seconds + self.extended.seconds + self.perfect.seconds

    @property
    def sources(self) -> dict[str, str]:
        return {"base": self.base.source, "extended": self.extended.source, "perfect": self.perfect.source}

    def assess(self, position: str | GeisterState, analysed: Side | None = None, rule: Rule = "base") -> Assessment:
        frame = _colourless_frame(colourless_state(position), analysed)
        table = self.table(rule)
        return assessment(table, int(table.index(frame.masks(), frame.turn)[0]))

    def value(self, position: str | GeisterState, analysed: Side | None = None, rule: Rule = "base") -> int:
        return self.assess(position, analysed, rule).value

    def distance(self, position: str | GeisterState, analysed: Side | None = None, rule: Rule = "base") -> int | None:
        return self.assess(position, analysed, rule).distance

    def counts(self, rule: Rule = "base") -> dict[int, int]:
        """Placements of each value (both sides to move; the paper's 12,339 for value 1 under the base rule)."""
        return self.table(rule).counts()

    def distance_histogram(self, rule: Rule = "base") -> dict[int, int]:
        """Value-1 placements by distance (the paper's Table 1 under the base rule)."""
        return self.table(rule).distance_histogram(1)

    def initial_distances(self, rule: Rule = "base") -> tuple[Assessment, Assessment]:
        """The start position when the analysed side moves first, and when the opponent does."""
        first = self.assess(MINI.standard_start(Side.P1), Side.P1, rule)
        second = self.assess(MINI.standard_start(Side.P2), Side.P1, rule)
        return first, second


@cache
def default_store() -> TableStore:
    """The process's store for callers that pass none: tables come from the disk cache (or are solved once)."""
    return TableStore()


@cache
def _default_tables() -> MiniGeisterTables:
    return MiniGeisterTables.from_store(default_store())


def _tables(tables: MiniGeisterTables | None) -> MiniGeisterTables:
    return tables if tables is not None else _default_tables()


def _event_of(state: GeisterState, move: Move) -> str | None:
    if move.dst is None:
        return "escape"
    target = state.piece_at(move.dst)
    if target is not None:
        return "capture" if target.side is not state.to_move else None
    return None


def _move_result(
    tables: MiniGeisterTables, state: GeisterState, move: Move, analysed: Side
) -> tuple[str | None, Assessment | None, Assessment | None]:
    """What ``move`` (by the side to move) leads to for ``analysed`` under each rule."""
    event = _event_of(state, move)
    mover_is_analysed = state.to_move is analysed
    if event == "escape":
        outcome = Assessment(1, 0) if mover_is_analysed else Assessment(-1, 0)
        return event, outcome, outcome
    if event == "capture":
        if mover_is_analysed:
            return "capture", None, None
        return "captured", Assessment(1, 0), Assessment(1, 0)
    after = state.clone()
    after.push(move)
    frame = _colourless_frame(after, analysed)
    masks = frame.masks()
    results = [assessment(t, int(t.index(masks, frame.turn)[0])) for t in (tables.base, tables.extended)]
    return None, results[0], results[1]


def analyse_position(
    position: str | GeisterState, analysed: Side | None = None, tables: MiniGeisterTables | None = None
) -> PositionAnalysis:
    """The placement's value and distance for ``analysed`` (default: the side to move) under both rules, and the
    same for the position after each legal move: what the CLI's ``--position`` and the app's advice panel show."""
    tables = _tables(tables)
    state = colourless_state(position)
    frame = _colourless_frame(state, analysed)
    masks = frame.masks()
    base = assessment(tables.base, int(tables.base.index(masks, frame.turn)[0]))
    extended = assessment(tables.extended, int(tables.extended.index(masks, frame.turn)[0]))
    moves = []
    for move in state.legal_moves():
        event, after_base, after_extended = _move_result(tables, state, move, frame.analysed)
        moves.append(MoveAssessment(move, event, after_base, after_extended))
    return PositionAnalysis(state.position(short=True), frame.analysed, state.to_move, base, extended, tuple(moves))


def _terminal_event(state: GeisterState, frame: _Frame, rule: Rule) -> tuple[str, list[Move]]:
    """The event a distance-1 placement ends with, and its moves (none for a guess)."""
    moves = state.legal_moves()
    escapes = [m for m in moves if m.dst is None]
    if escapes:
        return "escape", escapes
    captures = [m for m in moves if _event_of(state, m) == "capture"]
    targets = {m.dst for m in captures}
    if frame.turn == 0 and len(targets) == 2:
        return "capture", captures
    if frame.turn == 0 and rule == "extended":
        return "guess", []
    raise AssertionError(f"no terminal event in {state.position()}")  # pragma: no cover - the tables say there is


def _best_moves(
    tables: MiniGeisterTables, state: GeisterState, analysed: Side, rule: Rule
) -> tuple[Assessment, str | None, list[Move]]:
    """The side to move's best moves by the analysed side's table (see ``equilibrium_moves``)."""
    frame = _colourless_frame(state, analysed)
    table = tables.table(rule)
    here = assessment(table, int(table.index(frame.masks(), frame.turn)[0]))
    if here.distance == 1:
        event, moves = _terminal_event(state, frame, rule)
        return here, event, moves
    scored: list[tuple[Move, Assessment]] = []
    for move in state.legal_moves():
        if _event_of(state, move) is not None:
            continue
        after = state.clone()
        after.push(move)
        next_frame = _colourless_frame(after, analysed)
        scored.append((move, assessment(table, int(table.index(next_frame.masks(), next_frame.turn)[0]))))
    # Key: larger is better for the side to move. The side that wins by a value hurries, the loser delays.
    sign = 1 if frame.turn == 0 else -1

    def key(item: tuple[Move, Assessment]) -> tuple[int, int]:
        result = item[1]
        mine = sign * result.value
        length = result.distance or 0
        return (mine, -length if mine > 0 else length)

    best = max(key(item) for item in scored)
    return here, None, [move for move, result in scored if key((move, result)) == best]


def equilibrium_moves(
    position: str | GeisterState,
    analysed: Side | None = None,
    rule: Rule = "base",
    tables: MiniGeisterTables | None = None,
) -> list[Move]:
    """The moves the paper's Nash strategy plays, for the side to move, by ``analysed``'s table (default: the side
    to move, which is the strategy itself).

    At the analysed side's turn: at value 1 the moves to value-1 placements one ply closer (the escape attempt, or
    both captures of the random capture, at distance 1; an empty list at a guess: the strategy guesses, looks at its
    own colours and plays the perfect-information win); at value 0 the moves that keep value 0 (endless play scores 0,
    as in section 5); at value -1 the moves that delay the opponent longest. At the opponent's turn, the replies that
    resist best: the fastest way to its own event, else keeping value 0, else the longest delay.
    """
    state = colourless_state(position)
    return _best_moves(_tables(tables), state, state.to_move if analysed is None else analysed, rule)[2]


def solved_line(
    position: str | GeisterState = START,
    analysed: Side | None = None,
    rule: Rule = "base",
    tables: MiniGeisterTables | None = None,
) -> list[LineStep]:
    """A line of best play from ``position``: the side whose event is forced plays a distance-minimising move, the
    other a distance-maximising reply, ending with the event (escape, random capture, or guess). From the start it is
    13 plies when the analysed side moves first and 16 when the opponent does (base rule); 11 under the extended rule.
    Raises ``ValueError`` for an undecided placement: its best play never ends."""
    tables = _tables(tables)
    state = colourless_state(position)
    side = state.to_move if analysed is None else analysed
    steps: list[LineStep] = []
    while True:
        here, event, moves = _best_moves(tables, state, side, rule)
        if here.value == 0:
            raise ValueError(f"neither side can force its event from {state.position(short=True)}: play may never end")
        assert here.distance is not None
        move = moves[0] if moves else None
        steps.append(LineStep(len(steps) + 1, state.to_move, move, event, here.distance))
        if event is not None:
            return steps
        assert move is not None
        state.push(move)


# --------------------------------------------------------------------------------------------------- perfect info


def perfect_information_value(position: str | GeisterState, store: TableStore | None = None) -> Assessment:
    """The position with every colour known, for the side to move: 1 it forces a win, -1 the opponent does,
    0 neither (endless play); distance = plies to the end with best play. Any Mini-Geister family position
    (2 vs 2, 3 vs 2, after captures)."""
    state = parse_position(position, variant=None)
    if (state.variant.width, state.variant.height) != (4, 4):
        raise InvalidPositionError("the perfect-information tables are for the 4x4 Mini-Geister family")
    if state.is_terminal():
        raise InvalidPositionError(f"the game is over: {state.outcome()}")
    mover = state.to_move
    squares: dict[tuple[int, str], list[int]] = {(s, r): [] for s in (0, 1) for r in ("kb", "kr")}
    for square, piece in state.pieces():
        if piece.colour is Colour.UNKNOWN:
            raise InvalidPositionError(
                f"the colour of the piece on {square} is not known: give every colour (B/R, b/r)"
            )
        who = ANALYSED if piece.side is mover else OPPONENT
        squares[(who, "kb" if piece.colour is Colour.BLUE else "kr")].append(_to_frame(square, mover))
    armies = [Army(len(squares[(s, "kb")]), len(squares[(s, "kr")])) for s in (0, 1)]
    if any(a.pieces > 3 or a.blues > 2 or a.reds > 2 for a in armies):
        raise InvalidPositionError("the perfect-information tables cover at most 3 pieces a side, 2 of a colour")
    table = (store or default_store()).perfect(armies[0], armies[1])
    masks = empty_masks(1)
    for key, found in squares.items():
        masks[key] = np.array([sum(1 << s for s in found)], dtype=np.int64)
    return assessment(table, int(table.index(masks, ANALYSED)[0]))
