"""Mini-Geister advice: the mover's expected result, from the solved tables, and past them from the search.

**What a value is.** Every value here is the advised player's expected result in the game's own units (+1 a win,
0 a draw or endless play, -1 a loss), over the colours each side drew at random and the other cannot see. The
tables (``solvers.mini_geister``) do not give it directly: they say, for a side's "purple" strategy (the paper's:
it never looks at its own colours), whether that side can force an event that is worth its target on average (an
escape attempt or a random capture is a coin flip over colours its opponent cannot tell apart), whether the
opponent can force its own first, or neither (endless play, worth 0). So a table verdict is a *guarantee*:

* the player's own table bounds its value from below: its target where it forces its event (2 vs 2: 0, the coin
  flip), ``min(0, target)`` where neither side can (endless play), nothing (-1, a loss at worst) where the opponent
  forces its event;
* the opponent's table, read the same way for the opponent, bounds the player's value from above.

Where the bounds meet, the value is exact: the equilibrium's (0 at the start of Mini-Geister: each side can force a
coin flip, 13 plies for the side that moves first). Where they do not, the value shown is the middle of the range and
the details say so ("between 0 and +1"); the range itself is in ``extra["bounds"]``. +1 is given only for a proven
win: a blue piece that escapes now, or a forced win in a position where every colour is known. The 3-vs-2 variants
use each side's section-6 strategy and target: red-red-blue keeps one red apart and aims for 0, red-blue-blue aims
for 1/3; the 2-piece side aims for 0 against red-red-blue and -1/2 against red-blue-blue (so that game's value lies
between 1/3 and 1/2, as the paper says).

**The moves.** Each legal move has the value of the position after it. Moves of equal value are ranked by what the
player's table (the rule asked for, in 2 vs 2) says after them: keeping its forcing first, then endless play, then
letting the opponent force its event; each move's note says which. The suggested move is the first; the
equilibrium's moves carry their weights (the Nash player draws one of them at random). At the opponent's turn the
list ranks its replies, the most dangerous first, each valued for the player.

**Past the tables.** A 3-vs-2 game leaves the tables at its first capture; from there the advice is the catalogue's
Geister-family search (``solvers.advice.geister``) at a fixed depth and seed (the same position always gets the
same advice), its chances turned into expected results, and marked as searched, not proven.

The position is the player's own view: the opponent's colours are never used (unless every colour is given, for a
proven win). ``advise`` is what ``nashplay analyse`` prints, the game screen's advice panel shows and the review
(``solvers.review.mini_geister``) judges with.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

import numpy as np

from core.errors import InvalidPositionError
from core.game import Side
from core.geister import Colour, GeisterState, check_geister_position
from core.notation import Move, Square
from solvers.advice import Advice, MoveAdvice, Result
from solvers.mini_geister.analysis import (
    Assessment,
    MiniGeisterTables,
    assessment,
    default_store,
    equilibrium_moves,
    perfect_information_value,
)
from solvers.mini_geister.model import MINI, Rule, flip_square
from solvers.mini_geister.tables import Table, empty_masks

if TYPE_CHECKING:
    from solvers.advice.registry import Request
    from solvers.mini_geister.three_vs_two import SideAnalysis

__all__ = ["SEARCH_DEPTH", "SEARCH_SEED", "TWO_VS_TWO", "Bounds", "advise", "guarantee", "perfect_information_text"]

#: The 2-vs-2 game's name; every other Mini-Geister variant is a 3-vs-2 one.
TWO_VS_TWO = "mini-geister"
#: The search past the 3-vs-2 tables: a fixed depth (about 20 ms a position on 4x4) and seed, so that the same
#: position always gets the same advice, and a review of it is the same on any machine.
SEARCH_DEPTH = 12
SEARCH_SEED = 0

_ZERO = Fraction(0)
_WIN = Fraction(1)
_LOSS = Fraction(-1)


# --------------------------------------------------------------------------------------------------- values


def guarantee(verdict: Assessment, target: Fraction) -> Fraction:
    """What a side's table verdict guarantees it on average: its ``target`` where it forces its event,
    ``min(0, target)`` where neither side can (endless play counts 0), and nothing (-1) where the opponent forces
    its own event first."""
    if verdict.value > 0:
        return target
    if verdict.value == 0:
        return min(_ZERO, target)
    return _LOSS


def fraction_text(value: Fraction) -> str:
    """A value in words: "0", "+1", "-1/2", "+1/3"."""
    return "0" if value == 0 else f"{'+' if value > 0 else '-'}{abs(value)}"


@dataclass(frozen=True)
class Bounds:
    """The player's expected result lies in ``[low, high]``: ``low`` its own strategy guarantees, ``high`` the
    opponent's holds it to."""

    low: Fraction
    high: Fraction

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def value(self) -> float:
        """The value shown: exact where the bounds meet, else the middle of the range."""
        return float((self.low + self.high) / 2)

    def text(self) -> str:
        if self.exact:
            return fraction_text(self.low)
        return f"{fraction_text(self.low)} to {fraction_text(self.high)}"

    def to_json(self) -> list[float]:
        return [float(self.low), float(self.high)]


_PROVEN_WIN = Bounds(_WIN, _WIN)
_PROVEN_LOSS = Bounds(_LOSS, _LOSS)


def perfect_information_text(revealed: str) -> str:
    """The perfect-information verdict on a position with every colour given (after the game), in one line."""
    state = GeisterState.from_position(revealed)
    outcome = state.outcome()
    if outcome is not None:
        return f"The game is over: {outcome}"
    verdict = perfect_information_value(state)
    mover = state.to_move
    if verdict.value == 0:
        return f"All colours known: neither side can force a win ({mover} to move): endless play"
    winner = mover if verdict.value > 0 else mover.other
    return f"All colours known: {winner} wins by force in {verdict.distance} plies ({mover} to move)"


# --------------------------------------------------------------------------------------------------- strategies


@dataclass(frozen=True)
class _Strategy:
    """One side's strategy as the tables judge it: its side, what it aims for on average, its tables by rule (the
    2-vs-2 game's base and extended rules; a 3-vs-2 variant's one section-6 table), and the slot of the red it keeps
    apart (the red-red-blue side's)."""

    side: Side
    target: Fraction
    tables: tuple[tuple[str, Table], ...]
    kept_red: int | None = None
    analysis: SideAnalysis | None = None

    def verdicts(self, state: GeisterState) -> dict[str, Assessment]:
        return {rule: _index(table, state, self.side, self.kept_red) for rule, table in self.tables}

    def guaranteed(self, verdicts: dict[str, Assessment]) -> Fraction:
        """The best guarantee of the side's tables (a guarantee under either rule is one)."""
        return max(guarantee(verdict, self.target) for verdict in verdicts.values())


def _index(table: Table, state: GeisterState, analysed: Side, known_red: int | None) -> Assessment:
    """The table's verdict on ``state`` for ``analysed``: its pieces purple but for the slot ``known_red``."""
    masks = empty_masks(1)
    for square, piece in state.pieces():
        side = 0 if piece.side is analysed else 1
        role = "kr" if side == 0 and piece.slot == known_red else "p"
        index = MINI.index(square)
        if analysed is Side.P2:
            index = flip_square(index)
        masks[(side, role)] = masks[(side, role)] | np.int64(1 << index)
    turn = 0 if state.to_move is analysed else 1
    return assessment(table, int(table.index(masks, turn)[0]))


def _better(a: Assessment, b: Assessment) -> bool:
    """Whether ``a`` is better than ``b`` for the analysed side: a higher value, then a faster win or a slower loss."""
    key_a = (a.value, -(a.distance or 0) if a.value > 0 else a.distance or 0)
    key_b = (b.value, -(b.distance or 0) if b.value > 0 else b.distance or 0)
    return key_a > key_b


def _section_6(game: str, side: Side) -> SideAnalysis:
    """The section-6 analysis that judges ``side``'s side in ``game`` (the one that secures its target)."""
    from solvers.mini_geister.three_vs_two import three_vs_two

    colours: Literal["rrb", "rbb"] = "rrb" if game.endswith("rrb") else "rbb"
    three_piece = Side.P1 if "3v2" in game else Side.P2
    result = three_vs_two(colours, store=default_store())
    return next(a for a in result.analyses if a.three_piece_side == (side is three_piece) and not a.designated)


def _strategies(state: GeisterState, player: Side, tables: MiniGeisterTables | None) -> tuple[_Strategy, _Strategy]:
    """The player's strategy and the opponent's. A red-red-blue side keeps apart the red that suits it best: the
    player one of its own reds (any piece if it gave no colours), the opponent whichever of its pieces is best for it
    (the paper's keeps the one set up on b2, b3 for player 2, which is that piece at the start). The player cannot
    tell the opponent's reds from its blue, so this may credit the opponent with a guarantee its actual reds do not
    give; the two sides' figures then differ by that (a position text does not say which piece started where)."""
    game = state.variant.name
    if game == TWO_VS_TWO:
        found = tables or MiniGeisterTables.from_store(default_store())
        pair = (("base", found.base), ("extended", found.extended))
        return _Strategy(player, _ZERO, pair), _Strategy(player.other, _ZERO, pair)
    made = []
    for side in (player, player.other):
        analysis = _section_6(game, side)
        strategy = _Strategy(side, analysis.spec.target, (("table", analysis.table),), None, analysis)
        if analysis.spec.analysed.known_red:
            own = [(square, piece) for square, piece in state.pieces() if piece.side is side]
            reds = [piece.slot for _, piece in own if piece.colour is Colour.RED]
            candidates = reds or [piece.slot for _, piece in own if piece.colour is Colour.UNKNOWN]
            if not candidates:
                raise InvalidPositionError(f"{side}'s pieces show no red, but the red-red-blue side has two")
            best: Assessment | None = None
            for slot in candidates:
                verdict = _index(analysis.table, state, side, slot)
                if best is None or _better(verdict, best):
                    best, strategy = verdict, replace(strategy, kept_red=slot)
        made.append(strategy)
    return made[0], made[1]


def _bounds(mine: _Strategy, theirs: _Strategy, state: GeisterState) -> tuple[Bounds, dict[str, Assessment]]:
    """The player's bounds on ``state`` (one the tables cover), and its own table verdicts there."""
    verdicts = mine.verdicts(state)
    low = mine.guaranteed(verdicts)
    high = -theirs.guaranteed(theirs.verdicts(state))
    return Bounds(low, max(low, high)), verdicts


# --------------------------------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class _Line:
    """One legal move with what the tables and the position say of it, before it becomes a ``MoveAdvice``."""

    move: Move
    bounds: Bounds | None
    #: The player's table verdicts after the move (quiet moves), by rule.
    verdicts: dict[str, Assessment] | None = None
    #: Where the move is the player's event (its escape attempt, or a capture of the random capture).
    event: bool = False
    result: Result | None = None
    forced: str = ""
    #: Its weight in the equilibrium's mix, if the equilibrium plays it here.
    weight: float | None = None


def _event_here(state: GeisterState, player: Side, here: dict[str, Assessment]) -> str | None:
    """The player's table event now, if a verdict of ``here`` forces one in 1 at its turn (the tables' order):
    ``"escape"`` (a piece of its own on its exit: the escape attempt), ``"capture"`` (the random capture: in 2 vs 2
    both opponent pieces in reach, in 3 vs 2 any in reach), else ``"guess"`` (the guess at the opponent's colours,
    then the perfect-information win)."""
    if not any(verdict.value > 0 and verdict.distance == 1 for verdict in here.values()):
        return None
    exits = state.variant.exits[player]
    if any(square in exits for square, piece in state.pieces() if piece.side is player):
        return "escape"
    targets = {move.dst for move in state.legal_moves() if move.dst is not None and state.piece_at(move.dst)}
    theirs = sum(1 for _, piece in state.pieces() if piece.side is not player)
    if targets and (len(targets) == theirs or state.variant.name != TWO_VS_TWO):
        return "capture"
    return "guess"


def _coloured(state: GeisterState, player: Side, blue: set[Square]) -> GeisterState:
    """``state`` with the opponent's pieces on ``blue`` blue and its others red."""
    theirs = player.other
    ranks = []
    for rank in reversed(range(state.variant.height)):
        row = ""
        for file in range(state.variant.width):
            square = Square(file, rank)
            piece = state.piece_at(square)
            if piece is not None and piece.side is theirs:
                piece = replace(piece, colour=Colour.BLUE if square in blue else Colour.RED)
            row += "." if piece is None else piece.letter
        ranks.append(row)
    board = "/".join(_compress(row) for row in ranks)
    _, _, rest = state.position().partition(" ")
    return GeisterState.from_position(f"{board} {rest}", state.variant)


def _compress(row: str) -> str:
    """A rank of the notation: runs of empty squares as digits."""
    out, empty = "", 0
    for letter in row:
        if letter == ".":
            empty += 1
            continue
        out += (str(empty) if empty else "") + letter
        empty = 0
    return out + (str(empty) if empty else "")


def _guess_weights(state: GeisterState, player: Side) -> dict[Move, float]:
    """The guess's moves and weights: each colouring of the opponent's pieces is guessed alike, and each guess plays
    its world's fastest perfect-information win (its moves alike). Empty where the player's own colours are not
    given (the guess needs them)."""
    mine = [piece for _, piece in state.pieces() if piece.side is player]
    if any(piece.colour is Colour.UNKNOWN for piece in mine):
        return {}
    theirs = [square for square, piece in state.pieces() if piece.side is not player]
    blues = state.variant.blues[player.other]
    colourings = list(itertools.combinations(theirs, blues))
    weights: dict[Move, float] = {}
    for blue_squares in colourings:
        world = _coloured(state, player, set(blue_squares))
        wins: list[tuple[int, Move]] = []
        for move in world.legal_moves():
            after = world.clone()
            after.push(move)
            outcome = after.outcome()
            if outcome is not None:
                if outcome.winner is player:
                    wins.append((1, move))
                continue
            reply = perfect_information_value(after)
            if reply.value < 0:
                wins.append((1 + (reply.distance or 0), move))
        if not wins:
            return {}  # not a guess of the tables after all: no weights
        fastest = min(plies for plies, _ in wins)
        chosen = [move for plies, move in wins if plies == fastest]
        for move in chosen:
            weights[move] = weights.get(move, 0.0) + 1.0 / len(colourings) / len(chosen)
    return weights


def _player_moves(
    state: GeisterState, mine: _Strategy, theirs: _Strategy, position: Bounds, here: dict[str, Assessment]
) -> list[_Line]:
    """The player's moves, each with its bounds. A move of the table's event now (the random capture, the guess's
    moves) is worth the strategy's target as part of the event's mix, up to the position's upper bound (the
    opponent's guarantee there holds whatever the player does); any other capture is worth nothing sure (the opponent
    may have offered its red)."""
    player = mine.side
    event = _event_here(state, player, here)
    guessed = _guess_weights(state, player) if event == "guess" else {}
    lines: list[_Line] = []
    for move in state.legal_moves():
        piece = state.piece_at(move.src)
        assert piece is not None
        at_event = Bounds(mine.target, max(mine.target, position.high))
        if move.dst is None:
            if piece.colour is Colour.BLUE:
                lines.append(_Line(move, _PROVEN_WIN, result="win", forced="escapes now: a win"))
            else:  # a piece the position gives no colour: the table's escape attempt
                lines.append(_Line(move, at_event, event=True, forced="an escape attempt: a win if the piece is blue"))
            continue
        if move in guessed:
            lines.append(_Line(move, at_event, event=True, forced="the guess: wins if their colours are as guessed"))
            continue
        if state.piece_at(move.dst) is not None:
            stops = (
                f"stops an escape: {move.dst} may be blue; " if move.dst in state.variant.exits[player.other] else ""
            )
            if event == "capture":
                words = "the random capture: take either piece, at random"
                lines.append(_Line(move, at_event, event=True, forced=stops + words))
            else:
                words = "a capture: decided by the piece's colour (they may have offered their red)"
                lines.append(_Line(move, Bounds(_LOSS, max(_LOSS, position.high)), forced=stops + words))
            continue
        after = state.clone()
        after.push(move)
        bounds, verdicts = _bounds(mine, theirs, after)
        lines.append(_Line(move, bounds, verdicts))
    return lines


def _their_moves(state: GeisterState, mine: _Strategy, theirs: _Strategy, position: Bounds) -> list[_Line]:
    """The opponent's moves, each with the player's bounds after it; the player's own colours decide a capture of
    its piece."""
    player = mine.side
    lines: list[_Line] = []
    for move in state.legal_moves():
        if move.dst is None:  # possible only if the piece is blue
            lines.append(_Line(move, _PROVEN_LOSS, result="loss", forced="their escape attempt: a loss if it is blue"))
            continue
        target = state.piece_at(move.dst)
        after = state.clone()
        after.push(move)
        if target is None:
            bounds, verdicts = _bounds(mine, theirs, after)
            lines.append(_Line(move, bounds, verdicts))
        elif target.colour is Colour.UNKNOWN:
            bounds = Bounds(mine.target, max(mine.target, position.high))
            lines.append(_Line(move, bounds, forced="they capture one of your pieces: decided by its colour"))
        else:
            colour = target.colour.name.lower()
            outcome = after.outcome()
            if outcome is None:  # the game goes on, past the tables
                lines.append(_Line(move, None, forced=f"they capture your {colour} piece: past the solved tables"))
                continue
            result: Result = "win" if outcome.winner is player else "loss" if outcome.winner else "draw"
            bounds = {"win": _PROVEN_WIN, "loss": _PROVEN_LOSS, "draw": Bounds(_ZERO, _ZERO)}[result]
            words = {"win": "a win", "loss": "a loss", "draw": "a draw"}[result]
            lines.append(
                _Line(move, bounds, result=result, forced=f"they capture your {colour} piece: {words} for you")
            )
    return lines


# --------------------------------------------------------------------------------------------------- ranking


def _standing(line: _Line, rule: str) -> tuple[int, int]:
    """What the player's table says after a move, as a sort key (smaller is better for the player): forcing its
    event (sooner first), then endless play or a capture decided by a colour, then the opponent forcing (later
    first)."""
    if line.event:
        return (0, 0)
    verdict = None if line.verdicts is None else line.verdicts.get(rule)
    if verdict is None or verdict.value == 0:
        return (1, 0)
    if verdict.value > 0:
        return (0, verdict.distance or 0)
    return (2, -(verdict.distance or 0))


def _player_key(line: _Line, rule: str) -> tuple[bool, float, tuple[int, int], bool]:
    """The player's moves: valued ones by value, then by the table's standing, the equilibrium's moves first."""
    value = -2.0 if line.bounds is None else line.bounds.value
    return (line.bounds is None, -value, _standing(line, rule), line.weight is None)


def _their_key(line: _Line, rule: str) -> tuple[bool, float, tuple[int, int]]:
    """The opponent's replies: the worst for the player first."""
    value = 2.0 if line.bounds is None else line.bounds.value
    standing = _standing(line, rule)
    return (line.bounds is None, value, (-standing[0], -standing[1]))


def _verdict_words(verdict: Assessment) -> str:
    if verdict.value > 0:
        return f"you force in {verdict.distance}"
    if verdict.value == 0:
        return "endless"
    return f"they force in {verdict.distance}"


def _note(line: _Line, rule: str) -> str:
    """What the player's table says after the move, short enough for a panel's line: "you force in 12 (extended:
    10)", "endless", "they force in 5"; and the range where the value is not exact."""
    words = ""
    if line.verdicts is not None:
        mine = line.verdicts[rule]
        words = _verdict_words(mine)
        for name, verdict in line.verdicts.items():
            if name != rule and verdict != mine:
                same = verdict.value == mine.value and verdict.value != 0
                words += f" ({name}: {verdict.distance if same else _verdict_words(verdict)})"
    if line.bounds is not None and not line.bounds.exact and line.result is None:
        words += ("; " if words else "") + f"range {line.bounds.text()}"
    return words


# --------------------------------------------------------------------------------------------------- words


def _events(game: str, target: Fraction, rule: str) -> str:
    """The events a side's strategy forces, in words."""
    if game == TWO_VS_TWO:
        guess = ", or a guess at their colours" if rule == "extended" else ""
        return f"a coin flip (an escape attempt, or a capture of one of two pieces at random{guess})"
    if target == 0:
        return "a coin flip (an escape attempt, or a capture among their pieces at random)"
    return f"an escape attempt or a random capture worth {fraction_text(target)} on average"


def _plies(distance: int | None) -> str:
    return "1 ply" if distance == 1 else f"{distance} plies"


def _strongest(strategy: _Strategy, verdicts: dict[str, Assessment], rule: str) -> tuple[str, Assessment]:
    """The rule asked for and its verdict, or the other rule where that guarantees the side more."""
    best = (rule, verdicts[rule])
    for name, verdict in verdicts.items():
        if guarantee(verdict, strategy.target) > guarantee(best[1], strategy.target):
            best = (name, verdict)
    return best


def _side_words(game: str, strategy: _Strategy, verdicts: dict[str, Assessment], rule: str, you: bool) -> str:
    """What one side's table says of the position, in words."""
    who, whom = ("You", "your opponent") if you else ("Your opponent", "you")
    used, verdict = _strongest(strategy, verdicts, rule)
    by = f" (by the {used} rule)" if used != rule else ""
    if verdict.value > 0:
        # The other rule's distance where it forces too, sooner or later (the extended rule's guess comes sooner).
        also = [
            f"{name} rule: {_plies(other.distance)}"
            for name, other in verdicts.items()
            if name != used and other.value > 0 and other.distance != verdict.distance
        ]
        by += f" ({'; '.join(also)})" if also else ""
        return f"{who} can force {_events(game, strategy.target, used)} in {_plies(verdict.distance)}{by}"
    if game == TWO_VS_TWO:
        event, first = "a coin flip", "a coin-flip escape attempt first"
    else:
        event = "a coin flip" if strategy.target == 0 else f"an event worth {fraction_text(strategy.target)}"
        first = f"an escape attempt (or a capture costing {'you' if you else 'them'} more than that) first"
    if verdict.value == 0:
        return f"{who} cannot force {event}, nor {whom} {first}{by}: play may go on for ever (worth 0)"
    return f"{whom.capitalize()} can force {first}, in {_plies(verdict.distance)}{by}"


def _value_words(bounds: Bounds) -> str:
    if bounds.exact:
        value = fraction_text(bounds.low)
        return (
            f"Value {value}, exact: your strategy guarantees you {value} on average, and your opponent's holds you "
            f"to it (the equilibrium's value)"
        )
    if bounds.low == _LOSS:
        low = "nothing is guaranteed you (a loss at worst)"
    else:
        low = f"your strategy guarantees you {fraction_text(bounds.low)} on average"
    if bounds.high == _WIN:
        high = "no strategy of your opponent's holds you below a win"
    else:
        high = f"your opponent's holds you to {fraction_text(bounds.high)}"
    between = f"{fraction_text(bounds.low)} and {fraction_text(bounds.high)}"
    return f"Value between {between} (shown: the middle, {bounds.value:+.2f}): {low}; {high}"


def _strategy_words(game: str, mine: _Strategy, theirs: _Strategy) -> list[str]:
    if game == TWO_VS_TWO:
        return [
            "A coin flip: the paper's strategy never looks at its own colours, so the piece that tries to escape, or "
            "the one taken of two in reach, is blue half the time: a win or a loss, 0 on average"
        ]
    out = []
    for strategy, whose in ((mine, "Your"), (theirs, "Their")):
        if strategy.analysis is not None:
            out.append(f"{whose} strategy, the paper's: {strategy.analysis.title}")
    return out


def _suggestion_words(lines: list[_Line]) -> str:
    best = lines[0]
    move = best.move.to_text()
    mixed = [line for line in lines if line.weight is not None]
    if best.result == "win":
        return f"{move}: {best.forced}"
    if best.weight is not None:
        if len(mixed) == 1:
            return f"{move}: the equilibrium's move here"
        return f"{move}: one of the equilibrium's {len(mixed)} moves here (the Nash player draws one by its weight)"
    if mixed:
        others = ", ".join(line.move.to_text() for line in mixed)
        return f"{move}: worth more than the equilibrium's moves here ({others})"
    return f"{move}: the best value here (the equilibrium has no move to offer here)"


# --------------------------------------------------------------------------------------------------- the tables


def _tables_advice(
    state: GeisterState, player: Side, rule: Rule, tables: MiniGeisterTables | None, details: list[str]
) -> Advice:
    game = state.variant.name
    mine, theirs = _strategies(state, player, tables)
    position, here = _bounds(mine, theirs, state)
    their_here = theirs.verdicts(state)
    player_moves = state.to_move is player
    table_rule = rule if game == TWO_VS_TWO else "table"
    if player_moves:
        lines = _player_moves(state, mine, theirs, position, here)
        weights = _weights(state, player, rule, tables, lines, here, table_rule)
        lines = [replace(line, weight=weights.get(line.move)) for line in lines]
        lines.sort(key=lambda line: _player_key(line, table_rule))
        if lines and lines[0].weight is None and lines[0].forced.startswith("the guess"):
            # The other rule's guess is worth more than this rule's moves: its mix is the one to play.
            weights = _guess_weights(state, player)
            lines = [replace(line, weight=weights.get(line.move)) for line in lines]
            lines.sort(key=lambda line: _player_key(line, table_rule))
    else:
        lines = _their_moves(state, mine, theirs, position)
        lines.sort(key=lambda line: _their_key(line, table_rule))
    advice_lines = [
        MoveAdvice(
            line.move.to_text(),
            None if line.bounds is None else line.bounds.value,
            line.weight,
            result=line.result,
            plies=1 if line.result is not None else None,
            forced=line.forced,
            note=_note(line, table_rule),
        )
        for line in lines
    ]
    top = lines[0] if player_moves and lines else None
    bounds = top.bounds if top is not None and top.bounds is not None else position
    result: Result | None = top.result if top is not None else None
    words: list[str] = []
    if top is not None:
        words.append(_suggestion_words(lines))
    if result is None:
        words.append(_value_words(bounds))
    words.append(_side_words(game, mine, here, table_rule, you=True))
    if _strongest(mine, here, table_rule)[1].value >= 0:  # else the line above said what the opponent forces
        words.append(_side_words(game, theirs, their_here, table_rule, you=False))
    words += _strategy_words(game, mine, theirs)
    extra: dict[str, object] = {"bounds": bounds.to_json()}
    if game == TWO_VS_TWO:
        extra.update(
            {
                "rule": rule,
                "base": here["base"].to_json(),
                "extended": here["extended"].to_json(),
                "opponent": {name: verdict.to_json() for name, verdict in their_here.items()},
            }
        )
        engine = f"solved tables ({rule} rule)"
    else:
        assert mine.analysis is not None and theirs.analysis is not None
        extra.update(
            {
                "section": mine.analysis.section,
                "strategy": mine.analysis.title,
                "target": str(mine.target),
                "table": here["table"].to_json(),
                "opponent": {
                    "section": theirs.analysis.section,
                    "target": str(theirs.target),
                    "table": their_here["table"].to_json(),
                },
            }
        )
        if mine.kept_red is not None:
            square = next(sq for sq, piece in state.pieces() if piece.side is player and piece.slot == mine.kept_red)
            extra["kept_red"] = str(square)
            words.append(f"The red you keep apart: the piece on {square}")
        engine = "solved tables"
    if player_moves:
        words.append(
            "Moves of equal value: keeping your forcing first, then endless play, then letting your opponent force "
            "(each move's note)"
        )
        if top is not None:
            extra["best_moves"] = [
                line.move.to_text()
                for line in lines
                if _player_key(line, table_rule)[:2] == _player_key(top, table_rule)[:2]
                and _standing(line, table_rule)[0] == _standing(top, table_rule)[0]
            ]
    extra["tables"] = [
        {
            "move": line.move.to_text(),
            **({} if line.verdicts is None else {name: v.to_json() for name, v in line.verdicts.items()}),
            "bounds": None if line.bounds is None else line.bounds.to_json(),
        }
        for line in lines
    ]
    return Advice(
        game=game,
        position=state.position(short=True),
        player=player.number,
        engine=engine,
        exact=bounds.exact,
        best=top.move.to_text() if top is not None else "",
        moves=tuple(advice_lines),
        value=bounds.value,
        scale="expected",
        result=result,
        plies=1 if result is not None else None,
        details=(*details, *words),
        extra=extra,
    )


def _weights(
    state: GeisterState,
    player: Side,
    rule: Rule,
    tables: MiniGeisterTables | None,
    lines: list[_Line],
    here: dict[str, Assessment],
    table_rule: str,
) -> dict[Move, float]:
    """The equilibrium's mix here, by the player's table (the rule asked for): at its event, the escape attempt, the
    random capture (each piece in reach alike, then each move that takes it) or the guess's moves; elsewhere its
    quiet moves that keep its standing best, alike (the Nash player's choice). Empty where the equilibrium has no move
    to offer (its escape attempt found a red: it then plays on knowing its colours)."""
    verdict = here[table_rule]
    if verdict.value > 0 and verdict.distance == 1:
        event = _event_here(state, player, {table_rule: verdict})
        if event == "guess":
            return _guess_weights(state, player)
        if event == "escape":
            escapes = [line.move for line in lines if line.move.dst is None]
            return {move: 1.0 / len(escapes) for move in escapes}
        captures: dict[str, list[Move]] = {}
        for line in lines:
            if line.event and line.move.dst is not None:
                captures.setdefault(str(line.move.dst), []).append(line.move)
        return {move: 1.0 / len(captures) / len(moves) for moves in captures.values() for move in moves}
    legal = {line.move for line in lines if line.verdicts is not None}
    if state.variant.name == TWO_VS_TWO:
        chosen = [move for move in equilibrium_moves(state, player, rule, tables) if move in legal]
    else:
        quiet = [(line.move, line.verdicts[table_rule]) for line in lines if line.verdicts is not None]
        top = quiet[0][1] if quiet else None
        for _, found in quiet:
            top = found if top is None or _better(found, top) else top
        chosen = [move for move, found in quiet if found == top]
    return {move: 1.0 / len(chosen) for move in chosen}


# --------------------------------------------------------------------------------------------------- proven wins


def _proven_win(state: GeisterState, player: Side, details: list[str]) -> Advice | None:
    """With every colour given: the perfect-information advice if the player wins by force (a proven win whatever
    the opponent knows), else ``None``."""
    if any(piece.colour is Colour.UNKNOWN for _, piece in state.pieces()):
        return None
    try:
        here = perfect_information_value(state)
    except InvalidPositionError:
        return None
    mover = state.to_move
    if (here.value if mover is player else -here.value) <= 0:
        return None
    scored: list[tuple[tuple[int, int], MoveAdvice]] = []
    for move in state.legal_moves():
        after = state.clone()
        after.push(move)
        outcome = after.outcome()
        if outcome is not None:
            value, plies = (0 if outcome.winner is None else 1 if outcome.winner is player else -1), 1
        else:
            reply = perfect_information_value(after)
            value = reply.value if after.to_move is player else -reply.value
            plies = 1 + (reply.distance or 0)
        result: Result | None = "win" if value > 0 else "loss" if value < 0 else None
        # The player's moves: the fastest win first; the opponent's: the longest resistance first.
        key = (-value, plies if value > 0 else -plies) if mover is player else (value, -plies)
        note = "" if result else "endless"
        scored.append(
            (key, MoveAdvice(move.to_text(), float(value), result=result, plies=plies if result else None, note=note))
        )
    scored.sort(key=lambda item: item[0])
    moves = tuple(line for _, line in scored)
    plies = here.distance or 0
    return Advice(
        game=state.variant.name,
        position=state.position(short=True),
        player=player.number,
        engine="perfect-information tables (every colour known)",
        exact=True,
        best=moves[0].move if mover is player and moves else "",
        moves=moves,
        value=1.0,
        scale="expected",
        result="win",
        plies=plies,
        details=(*details, f"Every colour is known: you win by force in {_plies(plies)}, whatever your opponent knows"),
        extra={"perfect": here.to_json()},
    )


# --------------------------------------------------------------------------------------------------- past the tables


def _expected(chance: float) -> float:
    """A chance to win (a draw counting half) as an expected result."""
    return round(2.0 * chance - 1.0, 12) + 0.0


def _searched(state: GeisterState, player: Side, depth: int, details: list[str]) -> Advice:
    """Past the 3-vs-2 tables: the search's advice (``solvers.advice.geister``), at a fixed depth and seed, its
    chances turned into expected results. On the player's turn its own search; on the opponent's, the player's search
    after each of the opponent's replies (the player cannot search for a side whose colours it does not know)."""
    from solvers.advice.geister import analyse
    from solvers.catalogue import advising_player, make_player
    from solvers.players import Limit

    check_geister_position(state, player)  # the search needs the player's own colours
    game = state.variant.name
    name = advising_player(game).name
    limit = Limit(iterations=depth)
    said = f"Past the solved tables (after a capture): searched to depth {depth}; estimates, not proven"

    def search(position: GeisterState) -> Advice:
        reports = list(analyse(position.view(player), limit, random.Random(SEARCH_SEED), make_player(name, game)))
        return reports[-1]

    if state.to_move is player:
        advice = search(state)
        lines = [replace(line, value=None if line.value is None else _expected(line.value)) for line in advice.moves]

        def rank(line: MoveAdvice) -> tuple[bool, float, bool]:
            # An escape that wins now, then by value, the search's own choice first among equals: the suggestion is
            # the move of the highest value (the chances read the position more than the search's scores do).
            won_now = line.result == "win" and line.plies == 1
            return (not won_now, -(line.value if line.value is not None else -2.0), line.move != advice.best)

        lines.sort(key=rank)
        top = lines[0]
        return replace(
            advice,
            engine=f"{name} search, depth {depth}",
            exact=False,
            best=top.move,
            moves=tuple(lines),
            value=top.value,
            scale="expected",
            result=top.result,
            plies=top.plies,
            details=(*details, said, *advice.details),
            extra={**advice.extra, "searched": True, "depth": depth},
        )
    replies: list[MoveAdvice] = []
    for move in state.legal_moves():
        text = move.to_text()
        if move.dst is None:
            replies.append(
                MoveAdvice(text, -1.0, result="loss", plies=1, forced="their escape attempt: a loss if blue")
            )
            continue
        target = state.piece_at(move.dst)
        if target is not None and target.colour is Colour.UNKNOWN:
            replies.append(MoveAdvice(text, None, forced="they capture one of your pieces: decided by its colour"))
            continue
        after = state.clone()
        after.push(move)
        outcome = after.outcome()
        if outcome is not None:
            value = 0 if outcome.winner is None else 1 if outcome.winner is player else -1
            result: Result = "win" if value > 0 else "loss" if value < 0 else "draw"
            replies.append(MoveAdvice(text, float(value), result=result, plies=1, forced=f"they capture: a {result}"))
            continue
        answer = search(after)
        value_after = None if answer.value is None else _expected(answer.value)
        taken = "" if target is None else f"they capture your {target.colour.name.lower()} piece"
        note = f"then {answer.best}" if answer.best else ""
        replies.append(MoveAdvice(text, value_after, result=answer.result, plies=answer.plies, forced=taken, note=note))
    replies.sort(key=lambda line: line.value if line.value is not None else 2.0)
    return Advice(
        game=game,
        position=state.position(short=True),
        player=player.number,
        engine=f"{name} search, depth {depth}",
        exact=False,
        best="",
        moves=tuple(replies),
        value=None,
        scale="expected",
        details=(*details, said, "Their turn: each reply with your value after it, by your search"),
        extra={"searched": True, "depth": depth},
    )


# --------------------------------------------------------------------------------------------------- the adviser


def from_request(request: Request) -> Iterator[Advice]:
    """The advice ``nashplay analyse`` gives on a Mini-Geister-family position (``solvers.advice.registry``)."""
    rule: Rule = "extended" if request.game == TWO_VS_TWO and request.value("rule") == "extended" else "base"
    yield advise(request.position, request.game, rule=rule)


def _state(position: str | GeisterState, game: str) -> GeisterState:
    state = position if isinstance(position, GeisterState) else GeisterState.from_position(position, game)
    if state.variant.name != game:
        raise InvalidPositionError(f"the position is one of {state.variant.name}, not of {game}")
    outcome = state.outcome()
    if outcome is not None:
        raise InvalidPositionError(f"the game is over: {outcome}")
    return state


def _hide_theirs(state: GeisterState, player: Side) -> GeisterState:
    """The position with the opponent's pieces on the board of unknown colour (the player's view)."""
    theirs = [piece for _, piece in state.pieces() if piece.side is not player]
    if all(piece.colour is Colour.UNKNOWN for piece in theirs):
        return state
    ranks, _, rest = state.position().partition(" ")
    letters = "br" if player is Side.P1 else "BR"
    hidden = "u" if player is Side.P1 else "U"
    return GeisterState.from_position(f"{ranks.translate(str.maketrans(letters, hidden * 2))} {rest}", state.variant)


def _in_tables(state: GeisterState) -> bool:
    """Whether the colourless tables cover ``state``: no capture yet, every piece on the board."""
    return not state.captured and all(
        sum(1 for _, piece in state.pieces() if piece.side is side) == state.variant.pieces(side) for side in Side
    )


def advise(
    position: str | GeisterState,
    game: str = TWO_VS_TWO,
    player: Side | None = None,
    rule: Rule = "base",
    revealed: str | None = None,
    tables: MiniGeisterTables | None = None,
    depth: int = SEARCH_DEPTH,
) -> Advice:
    """The advice on ``position`` (the player's view, in the notation) of ``game`` (Mini-Geister or a 3-vs-2 variant)
    for ``player`` (default: the side to move): values are the player's expected results (see the module
    docstring). ``rule`` picks which of the 2-vs-2 tables ranks moves of equal value and names the equilibrium's
    moves. A 3-vs-2 position past the tables (after a capture) is searched to ``depth``. With ``revealed`` (the same
    position with every colour, after the game) the details also give the perfect-information verdict.
    ``InvalidPositionError`` for a position that is over or does not parse, or a 2-vs-2 one after a capture."""
    state = _state(position, game)
    player = state.to_move if player is None else player
    details: list[str] = []
    if revealed is not None:
        details.append(perfect_information_text(revealed))
    proven = _proven_win(state, player, details)
    if proven is not None:
        return proven
    state = _hide_theirs(state, player)
    if _in_tables(state):
        return _tables_advice(state, player, rule, tables, details)
    if game == TWO_VS_TWO:
        raise InvalidPositionError("the tables cover positions before any capture (2 pieces a side)")
    return _searched(state, player, depth, details)
