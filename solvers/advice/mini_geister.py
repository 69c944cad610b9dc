"""Mini-Geister advice from the solved tables: exact, for the 2-vs-2 game and the section-6 3-vs-2 variants.

The tables (``solvers.mini_geister``) judge a placement for a side that plays "purple" (it never looks at its own
colours): value 1 where it forces an event worth its target on average (an escape attempt, a random capture, a
guess) in the plies given, -1 where the opponent forces one of its pieces onto its exit first, 0 where neither can
(endless play, which counts 0). The 2-vs-2 game is judged under both of the paper's rules (``analyse_position``);
a 3-vs-2 variant by the section-6 analysis of the side to advise (``three_vs_two``): the 3-piece side red-red-blue
keeps one red apart and aims for 0, red-blue-blue aims for 1/3; the 2-piece side aims for 0 against red-red-blue
and for -1/2 against red-blue-blue.

The position is the player's own view: its own colours may be given, and then settle what the colourless tables
cannot: a blue piece on its exit escapes now (a win, listed first), a red one never tries. The opponent's colours
are never used. Forced results come first, then the equilibrium's moves (each with its weight: the Nash player draws
one at random), then the rest by their table value.

``advise`` is what ``nashplay analyse`` prints and what the game screen's advice panel can show.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from core.errors import InvalidPositionError
from core.game import Side
from core.geister import Colour, GeisterState
from core.notation import Move
from solvers.advice import Advice, MoveAdvice
from solvers.mini_geister.analysis import (
    Assessment,
    MiniGeisterTables,
    analyse_position,
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

__all__ = ["TWO_VS_TWO", "advise", "perfect_information_text"]

#: The 2-vs-2 game's name; every other Mini-Geister variant is a 3-vs-2 one.
TWO_VS_TWO = "mini-geister"

_MEANING = (
    "table values: 1 the side's purple strategy forces an event worth its target on average (escape attempt, random "
    "capture, guess) in the plies given; -1 the opponent forces its escape first; 0 neither (endless play, worth 0)"
)


@dataclass(frozen=True)
class _Line:
    """One legal move with what the tables and the position say of it, before it becomes a ``MoveAdvice``."""

    move: Move
    event: str | None
    verdict: Assessment | None
    other_rule: Assessment | None = None
    chosen: bool = False
    forced: str = ""
    win_now: bool = False


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


def _state(position: str | GeisterState, game: str) -> GeisterState:
    state = position if isinstance(position, GeisterState) else GeisterState.from_position(position, game)
    if state.variant.name != game:
        raise InvalidPositionError(f"the position is one of {state.variant.name}, not of {game}")
    outcome = state.outcome()
    if outcome is not None:
        raise InvalidPositionError(f"the game is over: {outcome}")
    return state


def _words(state: GeisterState, move: Move, player: Side) -> tuple[str, bool]:
    """A move that ends the game or may, in words, and whether it is a sure win for ``player`` (its blue escapes)."""
    mover = state.to_move
    piece = state.piece_at(move.src)
    assert piece is not None
    if move.dst is None:
        if mover is player:
            if piece.colour is Colour.BLUE:
                return "escapes now: a win", True
            return "an escape attempt: a win if the piece is blue (the tables' event)", False
        return "their escape attempt: a loss if the piece is blue", False
    target = state.piece_at(move.dst)
    if target is None:
        return "", False
    if mover is player:
        exits = state.variant.exits[mover.other]
        why = f"stops an escape: {move.dst} may be blue; " if move.dst in exits else ""
        return f"{why}a capture: what it does depends on the piece's colour (the tables' random capture)", False
    return "they capture one of your pieces: decided by its colour", False


def _rank(line: _Line, player_moves: bool) -> tuple[int, int, int]:
    """Sort key: sure wins, the equilibrium's moves, other forced events, then quiet moves by value and distance."""
    if line.win_now:
        return (0, 0, 0)
    if line.chosen:
        return (1, 0, 0)
    if line.forced:
        return (2, 0, 0)
    verdict = line.verdict
    if verdict is None:
        return (3, 0, 0)
    sign = 1 if player_moves else -1  # the player's moves: high values first; the opponent's: its best replies first
    value = verdict.value * sign
    distance = verdict.distance or 0
    return (3, -value, distance if value > 0 else -distance)


def _cell(verdict: Assessment | None) -> str:
    if verdict is None:
        return "-"
    if verdict.value == 0:
        return "0 (endless)"
    return f"{verdict.value:+d} now" if not verdict.distance else f"{verdict.value:+d} in {verdict.distance}"


def _finish(
    state: GeisterState,
    player: Side,
    lines: list[_Line],
    here: Assessment,
    rule_name: str,
    engine: str,
    details: list[str],
    extra: dict[str, object],
    game: str,
) -> Advice:
    player_moves = state.to_move is player
    lines.sort(key=lambda line: _rank(line, player_moves))
    chosen = sum(1 for line in lines if line.chosen)
    advice_lines: list[MoveAdvice] = []
    for line in lines:
        verdict = line.verdict
        # Short, so that a panel's line holds it: "+1 in 12 (extended +1 in 10)".
        other_rule = "base" if rule_name == "extended" else "extended"
        note = _cell(verdict)
        if line.other_rule is not None:
            note += f" ({other_rule} {_cell(line.other_rule)})"
        advice_lines.append(
            MoveAdvice(
                line.move.to_text(),
                1.0 if line.win_now else (None if verdict is None else float(verdict.value)),
                (1.0 / chosen) if line.chosen else None,
                result="win" if line.win_now else None,
                plies=1 if line.win_now else (None if verdict is None else verdict.distance),
                forced=line.forced,
                note="" if verdict is None or line.win_now else note,
            )
        )
    best = advice_lines[0].move if player_moves and advice_lines else ""
    if player_moves and lines and lines[0].chosen:
        why = (
            "the equilibrium's move here"
            if chosen == 1
            else (f"one of the equilibrium's {chosen} moves here (the Nash player draws one at random)")
        )
        details.insert(0, f"{best}: {why}")
    win_now = bool(lines) and lines[0].win_now
    return Advice(
        game=game,
        position=state.position(short=True),
        player=player.number,
        engine=engine,
        exact=True,
        best=best,
        moves=tuple(advice_lines),
        value=1.0 if win_now else float(here.value),
        scale="outcome",
        result="win" if win_now else None,
        plies=1 if win_now else None,
        details=tuple(details),
        extra=extra,
    )


# --------------------------------------------------------------------------------------------------- 2 vs 2


def _two_vs_two(
    state: GeisterState, player: Side, rule: Rule, tables: MiniGeisterTables | None, details: list[str]
) -> Advice:
    analysis = analyse_position(state, player, tables)
    player_moves = state.to_move is player
    chosen: set[Move] = set()
    if player_moves:
        chosen = {move for move in equilibrium_moves(state, player, rule, tables) if state.is_legal(move)}
    lines: list[_Line] = []
    for item in analysis.moves:
        if player_moves and not state.is_legal(item.move):
            continue  # the colourless tables let a red piece try to escape; the player knows it is red
        forced, win_now = _words(state, item.move, player)
        main, other = (item.base, item.extended) if rule == "base" else (item.extended, item.base)
        lines.append(_Line(item.move, item.event, main, other, item.move in chosen, forced, win_now))
    here = analysis.base if rule == "base" else analysis.extended
    details += [
        f"for {player}: base rule {analysis.base.text()}; extended rule {analysis.extended.text()}",
        _MEANING,
    ]
    if player_moves and not chosen:
        details.append("the equilibrium guesses here (extended rule) or has no legal move to prefer")
    extra: dict[str, object] = {
        "rule": rule,
        "base": analysis.base.to_json(),
        "extended": analysis.extended.to_json(),
        "tables": [item.to_json() for item in analysis.moves if any(line.move == item.move for line in lines)],
    }
    engine = f"solved tables ({rule} rule)"
    return _finish(state, player, lines, here, rule, engine, details, extra, TWO_VS_TWO)


# --------------------------------------------------------------------------------------------------- 3 vs 2


def _strategy(game: str, player: Side) -> SideAnalysis:
    """The section-6 analysis that judges ``player``'s side in ``game`` (the one that secures its target)."""
    from solvers.mini_geister.three_vs_two import three_vs_two

    colours: Literal["rrb", "rbb"] = "rrb" if game.endswith("rrb") else "rbb"
    three_piece = Side.P1 if "3v2" in game else Side.P2
    result = three_vs_two(colours, store=default_store())
    return next(
        a for a in result.analyses if a.three_piece_side == (player is three_piece) and not a.designated
    )  # the first for each side is the strategy that secures its target


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


def _three_vs_two(state: GeisterState, player: Side, details: list[str]) -> Advice:
    game = state.variant.name
    counts = [sum(1 for _, piece in state.pieces() if piece.side is side) for side in Side]
    if state.captured or sorted(counts) != [2, 3] or counts != [state.variant.pieces(side) for side in Side]:
        raise InvalidPositionError(
            "the section-6 tables cover positions before any capture (3 pieces against 2 on the board)"
        )
    strategy = _strategy(game, player)
    table = strategy.table
    mine = [(square, piece) for square, piece in state.pieces() if piece.side is player]
    candidates: Sequence[int | None] = [None]
    if strategy.spec.analysed.known_red:
        # The red-red-blue side keeps one red apart: any of its reds may be the one (unknown colours: any piece).
        reds = [piece.slot for _, piece in mine if piece.colour is Colour.RED]
        candidates = reds or [piece.slot for _, piece in mine if piece.colour is Colour.UNKNOWN]
        if not candidates:
            raise InvalidPositionError(f"{player}'s pieces show no red, but the red-red-blue side has two")
    here: Assessment | None = None
    known_red: int | None = None
    for slot in candidates:
        verdict = _index(table, state, player, slot)
        if here is None or _better(verdict, here):
            here, known_red = verdict, slot
    assert here is not None
    player_moves = state.to_move is player
    lines: list[_Line] = []
    quiet: list[tuple[Move, Assessment]] = []
    for move in state.legal_moves():
        forced, win_now = _words(state, move, player)
        target = None if move.dst is None else state.piece_at(move.dst)
        event = "escape" if move.dst is None else None if target is None else "capture"
        after_move: Assessment | None = None
        if event is None:
            after = state.clone()
            after.push(move)
            after_move = _index(table, after, player, known_red)
            quiet.append((move, after_move))
        lines.append(_Line(move, event, after_move, None, False, forced, win_now))
    if player_moves:
        chosen: set[Move] = set()
        if here.value == 1 and here.distance == 1:  # the strategy's event: an escape attempt, else its capture
            escapes = [line.move for line in lines if line.event == "escape"]
            chosen = set(escapes or [line.move for line in lines if line.event == "capture"])
        elif quiet:
            top = quiet[0][1]
            for _, after_move in quiet:
                top = after_move if _better(after_move, top) else top
            chosen = {move for move, after_move in quiet if after_move == top}
        lines = [
            _Line(line.move, line.event, line.verdict, None, line.move in chosen, line.forced, line.win_now)
            for line in lines
        ]
    details += [f"for {player}: {strategy.title} ({strategy.section}); here {_describe(here)}", _MEANING]
    extra: dict[str, object] = {
        "section": strategy.section,
        "strategy": strategy.title,
        "target": str(strategy.spec.target),
        "table": here.to_json(),
    }
    if known_red is not None:
        square = next(square for square, piece in mine if piece.slot == known_red)
        extra["kept_red"] = str(square)
        details.append(f"the red kept apart: the piece on {square}")
    engine = f"solved tables (section {strategy.section})"
    return _finish(state, player, lines, here, "table", engine, details, extra, game)


def _describe(verdict: Assessment) -> str:
    if verdict.value == 0:
        return "neither side can force its event (endless play)"
    who = "the side forces its event" if verdict.value == 1 else "the opponent forces its event"
    return f"{who} in {verdict.distance} {'ply' if verdict.distance == 1 else 'plies'}"


# --------------------------------------------------------------------------------------------------- the adviser


def from_request(request: Request) -> Iterator[Advice]:
    """The advice ``nashplay analyse`` gives on a Mini-Geister-family position (``solvers.advice.registry``)."""
    rule: Rule = "extended" if request.game == TWO_VS_TWO and request.value("rule") == "extended" else "base"
    yield advise(request.position, request.game, rule=rule)


def advise(
    position: str | GeisterState,
    game: str = TWO_VS_TWO,
    player: Side | None = None,
    rule: Rule = "base",
    revealed: str | None = None,
    tables: MiniGeisterTables | None = None,
) -> Advice:
    """The solved tables' advice on ``position`` (the player's view, in the notation) of ``game`` (Mini-Geister or a
    3-vs-2 variant) for ``player`` (default: the side to move); ``rule`` picks which of the 2-vs-2 tables ranks the
    moves. With ``revealed`` (the same position with every colour, after the game) the details also give the
    perfect-information verdict. ``InvalidPositionError`` for a position the tables do not cover (after a capture in
    2 vs 2, for one) or that does not parse."""
    state = _state(position, game)
    player = state.to_move if player is None else player
    details: list[str] = []
    if revealed is not None:
        details.append(perfect_information_text(revealed))
    if game == TWO_VS_TWO:
        return _two_vs_two(state, player, rule, tables, details)
    return _three_vs_two(state, player, details)
