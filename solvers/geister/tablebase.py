"""Real Geister games read with the endgame tables: exact results for a player who knows only its own colours.

When each side is down to one blue and one red piece (``solvers.geister.endgame.covers``), a player's view of a 6x6
game is
a position of the endgame tables, and some results are then exact whatever the opponent knows or does:

* a **win**, when the sure-win table (the player's own colours known, the opponent's hidden:
``solvers.geister.endgame.SURE``)
  says 1; or, once the opponent's colours are known to the player (a piece proven red by standing on its exit
  without escaping, so the other is blue), when the perfect-information table says 1: a win with every colour known
  asks nothing of what the opponent knows;
* a **loss**, when the opponent, who knows its own colours, has a sure win from its side under every colouring of
  its pieces that the player cannot rule out; or, when both sides' colours are known to both (the player's red
  exposed on its exit too), when the perfect-information table says -1; a **draw** (endless play) only then.

Everything else is not exact: the search decides there, and the advice says that the tables see no forced result.
A move's result counts the move itself: a blue one step from its exit that nothing can stop is a win in 3 plies
(the step, the opponent's reply, the escape).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.game import Side
from core.geister import Colour, GeisterView
from core.notation import Move, Square
from solvers.geister.colour_evidence import exposed_reds, proven_reds
from solvers.geister.endgame import EndgameTables, covers, endgame_tables

__all__ = ["Judgement", "TableResult", "judge", "winning_move"]

#: Which table proved a result: ``sure`` (own colours known, the opponent's hidden), ``perfect`` (every colour
#: known), ``rules`` (the move ends the game: an escape, or a capture of a piece whose colour is known).
Source = Literal["sure", "perfect", "rules"]


@dataclass(frozen=True)
class TableResult:
    """An exact result for the player, in plies from the position (a move's counts the move)."""

    result: Literal["win", "loss", "draw"]
    plies: int | None
    source: Source

    def text(self) -> str:
        if self.result == "draw":
            return "draw (endless play), exact"
        return f"{self.result} in {self.plies}, exact"


@dataclass(frozen=True)
class MoveJudgement:
    """One legal move of the player's with its exact result (``None``: the tables prove none) and, for a capture
    of a hidden piece, what it gambles."""

    move: Move
    result: TableResult | None
    note: str = ""


@dataclass(frozen=True)
class Judgement:
    """What the tables say of a player's view: the position's exact result, if any, and each move's."""

    here: TableResult | None
    moves: tuple[MoveJudgement, ...]
    #: The opponent's colours are known to the player (and which of its squares holds its blue).
    their_blue: Square | None
    #: The player's red is known to the opponent (it stood on the player's exit and stayed).
    exposed: bool

    @property
    def best(self) -> Move | None:
        """The move that keeps the position's exact result best: the fastest win, else the longest loss (the
        opponent may yet go wrong); ``None`` without an exact result."""
        if self.here is None:
            return None
        kept = [(m.result.plies or 0, m.move) for m in self.moves if m.result and m.result.result == self.here.result]
        if not kept:
            return None
        pick = max if self.here.result == "loss" else min
        return pick(kept, key=lambda item: item[0])[1]

    def result_of(self, move: Move) -> TableResult | None:
        return next((m.result for m in self.moves if m.move == move), None)


@dataclass(frozen=True)
class _Position:
    """Squares of one position: the player's blue and red, the opponent's two pieces (its blue first when known)."""

    blue: Square
    red: Square
    theirs: tuple[Square, Square]
    their_blue: Square | None
    player_moves: bool


def _verdict(tables: EndgameTables, me: Side, at: _Position, exposed: bool) -> TableResult | None:
    """The exact result of one position for ``me`` (see the module docstring), or ``None``."""
    index = tables.index_of
    turn = 0 if at.player_moves else 1
    mine = (index(at.blue, me), index(at.red, me))
    theirs = (index(at.theirs[0], me), index(at.theirs[1], me))
    wins: list[TableResult] = []
    sure = tables.sure_value(mine[0], mine[1], theirs, turn)
    if sure.value == 1:
        wins.append(TableResult("win", sure.distance, "sure"))
    perfect = None
    if at.their_blue is not None:
        their_red = at.theirs[1] if at.theirs[0] == at.their_blue else at.theirs[0]
        perfect = tables.perfect_value(mine, (index(at.their_blue, me), index(their_red, me)), turn)
        if perfect.value == 1:
            wins.append(TableResult("win", perfect.distance, "perfect"))
    if wins:
        return min(wins, key=lambda r: r.plies or 0)
    if perfect is not None and exposed:  # every colour known to both: the perfect table is the game
        if perfect.value == -1:
            return TableResult("loss", perfect.distance, "perfect")
        return TableResult("draw", None, "perfect")
    # The opponent's sure win from its side, under each colouring of its pieces the player cannot rule out.
    them = me.other
    colourings = [at.theirs, at.theirs[::-1]]
    if at.their_blue is not None:
        colourings = [c for c in colourings if c[0] == at.their_blue]
    ours = (index(at.blue, them), index(at.red, them))
    plies: list[int] = []
    for blue, red in colourings:
        theirs_sure = tables.sure_value(index(blue, them), index(red, them), ours, 1 - turn)
        if theirs_sure.value != 1:
            return None
        plies.append(theirs_sure.distance or 0)
    return TableResult("loss", max(plies), "sure")


def judge(view: GeisterView, tables: EndgameTables | None = None) -> Judgement | None:
    """The tables' judgement of ``view`` (one player's, its own colours known), or ``None`` where they do not cover
    it (see ``solvers.geister.endgame.covers``: 6x6, one blue and one red a side, the game going on)."""
    if not covers(view):
        return None
    tables = endgame_tables(view.variant.width) if tables is None else tables
    me, them = view.viewer, view.viewer.other
    mine = {piece.colour: square for square, piece in view.pieces(me)}
    if set(mine) != {Colour.BLUE, Colour.RED}:
        return None  # not the player's own view (its colours hidden): nothing is exact for it
    slots = {piece.slot: square for square, piece in view.pieces(them)}
    theirs = tuple(slots.values())
    proven = proven_reds(view) & set(slots)
    their_blue: Square | None = None
    if len(proven) == 1:  # one of the two proven red: the other is the blue
        their_blue = next(square for slot, square in slots.items() if slot not in proven)
    red_slot = next(piece.slot for _, piece in view.pieces(me) if piece.colour is Colour.RED)
    exposed = red_slot in exposed_reds(view)
    at = _Position(mine[Colour.BLUE], mine[Colour.RED], (theirs[0], theirs[1]), their_blue, view.to_move is me)
    here = _verdict(tables, me, at, exposed)
    moves: list[MoveJudgement] = []
    for move in view.legal_moves():
        moves.append(_judge_move(tables, me, at, exposed, move))
    return Judgement(here, tuple(moves), their_blue, exposed)


def _judge_move(tables: EndgameTables, me: Side, at: _Position, exposed: bool, move: Move) -> MoveJudgement:
    if move.dst is None:
        return MoveJudgement(move, TableResult("win", 1, "rules"), "escapes now")
    if move.dst in at.theirs:
        if at.their_blue is None:
            return MoveJudgement(move, None, "a gamble: a win if it is their blue, a loss if their red")
        if move.dst == at.their_blue:
            return MoveJudgement(move, TableResult("win", 1, "rules"), "takes their blue")
        return MoveJudgement(move, TableResult("loss", 1, "rules"))
    blue, red = (move.dst, at.red) if move.src == at.blue else (at.blue, move.dst)
    after = _verdict(tables, me, _Position(blue, red, at.theirs, at.their_blue, False), exposed)
    if after is None:
        return MoveJudgement(move, None)
    plies = None if after.plies is None else after.plies + 1  # the move itself counts
    return MoveJudgement(move, TableResult(after.result, plies, after.source))


def winning_move(view: GeisterView) -> Move | None:
    """The tables' fastest sure win from ``view`` when it is the player's turn and one exists, else ``None``: what
    the strongest AI plays before any search."""
    if not view.my_turn:
        return None
    judgement = judge(view)
    if judgement is None or judgement.here is None or judgement.here.result != "win":
        return None
    return judgement.best
