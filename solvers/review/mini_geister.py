"""Mini-Geister's review (the 2-vs-2 game and the section-6 3-vs-2 variants): each move judged by the solved tables.

**While the position is in the colourless tables** (2 vs 2 before any capture; 3 vs 2 before any capture, by the
section-6 analysis of the mover's side), the move is judged as the tables' adviser (``solvers.advice.mini_geister``)
values it, for the mover as the analysed side. The tables' values are not a win or a loss: +1 means the mover's purple
strategy forces an event worth its target on average (an escape attempt, the random capture, a guess) whatever the
opponent does, -1 that the opponent forces its own event first, 0 that neither can (endless play, worth 0). A move
that keeps +1 is as good as the strategy can be; a move from +1 to 0 or -1 gives the guarantee away. The mover's own
colours settle what the colourless tables cannot: a blue on its exit escapes (a win, +1), a red there never tries.
A capture is valued by the tables only as their event (the random capture: every opponent piece in reach, or the
section-6 strategy's capture at its event); any other capture is decided by the piece's colour.

**Where the tables do not reach** (a capture the tables do not value; a 3-vs-2 position after a capture), the move is
judged with every colour known, by the perfect-information tables (+1 a forced win for the mover, -1 a forced loss, 0
neither), if the record reveals every colour (a finished game's record has both set-ups); otherwise it is not judged,
and the note says why. Whenever the colours are known, every entry also carries the perfect-information values
(``perfect_before``, ``perfect_after``): what the position was worth with everything known.
"""

from __future__ import annotations

from typing import Any

from core.errors import InvalidPositionError
from core.game import Game, Side
from core.geister import Colour, GeisterState
from core.notation import Move
from core.record import Record
from solvers.mini_geister.model import Rule
from solvers.review import MoveReview, Review
from solvers.review.judging import Budget, Tick, clean, judged, players_of, unjudged

__all__ = ["review"]

#: The outcome scale's width: -1 to +1.
SPAN = 2.0
#: The 2-vs-2 game's name (the others are 3-vs-2 variants).
TWO_VS_TWO = "mini-geister"
#: The table rule the 2-vs-2 game is judged by: the paper's base rule (escape attempts and the random capture).
RULE: Rule = "base"
KNOWN_NOTE = "judged with every colour known"


def review(record: Record, states: list[Game[Any, Any]], tick: Tick, budget: Budget) -> Review:
    game = record.tags["Game"]
    entries: list[MoveReview] = []
    for ply, (before, recorded) in enumerate(zip(states, record.moves, strict=False), start=1):
        assert isinstance(before, GeisterState)
        entries.append(_entry(game, ply, before, Move.parse(recorded.text).to_text()))
        tick(True)
    engine = f"solved tables ({RULE} rule)" if game == TWO_VS_TWO else "solved tables (section 6)"
    return Review(
        game=game,
        players=players_of(record),
        plies=len(record.moves),
        engine=engine + ", and perfect information where every colour is known",
        scale="outcome",
        span=SPAN,
        moves=tuple(entries),
        extra={
            "rule": RULE if game == TWO_VS_TWO else "section 6",
            "values": "the mover's, by the colourless tables: +1 its purple strategy forces an event worth its target "
            "on average (escape attempt, random capture, guess), -1 the opponent forces its event first, 0 neither "
            "(endless play); judged with every colour known: +1 a forced win, -1 a forced loss, 0 neither",
        },
    )


def _entry(game: str, ply: int, before: GeisterState, move: str) -> MoveReview:
    mover = before.to_move
    view = before.view(mover)
    position = view.position()
    known = _colours_known(before)
    perfect = _perfect_values(before) if known else None
    extra: dict[str, Any] = {}
    if perfect is not None:
        after = perfect[1].get(move)
        extra = {"perfect_before": clean(perfect[0]), "perfect_after": None if after is None else clean(after)}
    tables = _table_values(game, position, mover)
    judge = tables if tables is not None and move in tables[1] else perfect
    if judge is not None:
        note = "" if judge is tables else KNOWN_NOTE
        here, values = judge
        return judged(
            ply=ply,
            player=mover.number,
            move=move,
            position=position,
            before=here,
            values=values,
            span=SPAN,
            note=note,
            extra=extra,
        )
    if tables is not None:
        why = "a capture the colourless tables do not value (its piece's colour decides it)"
    else:
        why = "outside the colourless tables (after a capture)" if before.captured else "outside the colourless tables"
    if known:
        why += ", and beyond the perfect-information tables"
    else:
        why += ", and the record hides colours: not judged"
    before_value = None if tables is None else tables[0]
    return unjudged(
        ply=ply, player=mover.number, move=move, position=position, note=why, before=before_value, extra=extra
    )


def _table_values(game: str, position: str, mover: Side) -> tuple[float, dict[str, float]] | None:
    """The position's table value for the mover and each legal move's that the tables value; ``None`` outside."""
    from solvers.advice.mini_geister import advise

    try:
        advice = advise(position, game, player=mover, rule=RULE)
    except InvalidPositionError:
        return None
    here = float(advice.value or 0.0)
    state = GeisterState.from_position(position, game)
    event_capture = game == TWO_VS_TWO and _random_capture(state, mover)
    values: dict[str, float] = {}
    for line in advice.moves:
        if line.value is not None:
            values[line.move] = line.value
        elif line.probability is not None or event_capture:
            # A capture at the tables' event (the equilibrium's move there, or the 2-vs-2 random capture): worth
            # the event, which the position's value is.
            values[line.move] = 1.0
    return here, values


def _random_capture(state: GeisterState, mover: Side) -> bool:
    """Whether every opponent piece stands next to one of the mover's: the 2-vs-2 random capture (a coin toss between
    the last blue and the last red, worth 0 on average: the tables' event)."""
    mine = [square for square, piece in state.pieces() if piece.side is mover]
    theirs = [square for square, piece in state.pieces() if piece.side is not mover]
    return bool(theirs) and all(any(t.distance(m) == 1 for m in mine) for t in theirs)


def _colours_known(state: GeisterState) -> bool:
    return all(piece.colour is not Colour.UNKNOWN for _, piece in state.pieces())


def _perfect_values(state: GeisterState) -> tuple[float, dict[str, float]] | None:
    """With every colour known: the position's perfect-information value for the side to move and each legal move's
    (the outcome where the move ends the game); ``None`` beyond the perfect-information tables."""
    from solvers.mini_geister.analysis import perfect_information_value

    mover = state.to_move
    try:
        here = float(perfect_information_value(state).value)
        values: dict[str, float] = {}
        for move in state.legal_moves():
            after = state.clone()
            after.push(move)
            outcome = after.outcome()
            if outcome is not None:
                values[move.to_text()] = 0.0 if outcome.winner is None else 1.0 if outcome.winner is mover else -1.0
            else:
                values[move.to_text()] = -float(perfect_information_value(after).value)
    except InvalidPositionError:
        return None
    return here, values
