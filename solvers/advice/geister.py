"""Geister advice: the strongest search's verdict, with the forced results first and the values as chances.

The search (``solvers.geister.purple``'s reports, from the catalogue's strongest Geister player) gives each root move a
value: a proven result (``MATE`` less the plies to it), a chance node's weighed result (a capture that may take the
last red, an escape that may be a blue's), or a score in thousandths of a blue piece. This module turns them into
what a player reads:

* **forced results, first and in words**, read off the position itself, so that no tie in the search's numbers can
  hide them: an escape that wins now; a capture of a piece standing on its exit (if it is blue it escapes next);
  a capture that loses at once if the piece is the opponent's last red; then the search's proven wins and losses;
* **the player's chance to win** for every move. The strongest player (``sage``) searches with the learned value
  model, whose values are expected results: a value ``v`` is a chance to win of ``(1 + v / MATE) / 2`` (its logit
  stretched by a calibration fitted on training games: ``solvers.geister.value.SearchCalibration``), the same
  model judging every move, so the suggested move (the search's best) has the highest chance and moves the search
  tells apart show different chances. For a search with the handcrafted evaluation (``bayes``, ``purple``):
  proven results are 1 or 0, a chance node's expected result ``E`` is ``(1 + E) / 2``, and otherwise a logistic
  model of the position (pieces left, the nearest runners, the search's score), fitted on how games from such
  positions ended.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from core.errors import InvalidPositionError
from core.game import Side
from core.geister import Colour, GeisterView
from core.notation import Move
from solvers.advice import Advice, MoveAdvice, Result
from solvers.advice.geister_endgame import exact_advice, with_tables
from solvers.geister.tablebase import judge
from solvers.geister_engine.layout import MATE
from solvers.players import Limit

if TYPE_CHECKING:
    from solvers.advice.registry import Request
    from solvers.geister.purple import PurplePlayer, SearchReport

__all__ = [
    "CHANCE_WEIGHTS",
    "DECIDED",
    "FEATURES",
    "advise",
    "analyse",
    "chance_of",
    "features",
    "forced_moves",
]

#: Scores beyond this are no position's worth: they are proven results or a chance of one (``solvers.geister.purple``).
DECIDED = 50_000
#: The weights of ``features`` in the chance to win's logistic model, fitted by ``python
#: benchmarks/advice_calibration.py --games 120 --depth 4`` (bayes against purple, both sides' decisions, so that
#: the chance reads the position rather than the stronger player). A rough estimate, and said so: held-out log loss
#: 0.678 against a coin's 0.693; it reads mostly the pieces left (the search's score, relative to its root, adds
#: nothing measurable).
CHANCE_WEIGHTS = (0.3059, 0.5628, -0.5506, -0.0146, 0.0853, -0.1601)
#: ``features``' names, for the benchmark's report.
FEATURES = ("bias", "blues ahead", "reds ahead", "search score", "my nearest runner", "their nearest runner")


def features(view: GeisterView, score: int) -> tuple[float, ...]:
    """What the chance-to-win model reads of a position and the search's ``score`` of it (see ``CHANCE_WEIGHTS``):
    blues and reds each side has left (differences), the score in blue pieces (bounded), and the steps from each
    side's nearest piece that may be blue to its exits (bounded)."""
    me, them = view.viewer, view.viewer.other
    variant = view.variant
    blues = view.remaining(me, Colour.BLUE) - view.remaining(them, Colour.BLUE)
    reds = view.remaining(me, Colour.RED) - view.remaining(them, Colour.RED)

    def nearest(side: Side, colours: tuple[Colour, ...]) -> float:
        steps = [
            min(square.distance(exit_square) for exit_square in variant.exits[side])
            for square, piece in view.pieces(side)
            if piece.colour in colours
        ]
        return float(min(steps, default=6))

    return (
        1.0,
        float(blues),
        float(reds),
        max(-8.0, min(8.0, score / 1000)),
        min(6.0, nearest(me, (Colour.BLUE,))),
        min(6.0, nearest(them, (Colour.BLUE, Colour.UNKNOWN))),
    )


def chance_of(value: int, view: GeisterView | None = None, expected: bool = False) -> float:
    """The chance to win that a search value means for the player (see the module docstring). A search whose values
    are expected results (the learned evaluation's: ``expected``) says it itself: ``(1 + value / MATE) / 2``, its
    logit stretched by the shipped ``SearchCalibration`` (the best of many estimates reads high).
    Else a score's chance needs the position (``view``), without which it is 0.5."""
    if value > MATE - 1000:
        return 1.0
    if value < -(MATE - 1000):
        return 0.0
    if expected:
        from solvers.geister.value import load_value_model

        return load_value_model().search_calibration.chance(value)
    if abs(value) > DECIDED:
        return min(1.0, max(0.0, (1.0 + value / MATE) / 2.0))
    if view is None:
        return 0.5
    z = sum(w * x for w, x in zip(CHANCE_WEIGHTS, features(view, value), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def proven(value: int) -> tuple[Result | None, int | None]:
    """A search value's proven result for the player and its plies, or ``(None, None)``."""
    if value > MATE - 1000:
        return "win", MATE - value
    if value < -(MATE - 1000):
        return "loss", MATE + value
    return None, None


def forced_moves(view: GeisterView, risky: frozenset[Move], proven_red: frozenset[int]) -> dict[Move, str]:
    """The moves whose result is forced, read off the position, with what forces it: escapes (a win now), captures
    of a piece on its exit (it escapes next if blue), captures that may take the last red (a loss at once)."""
    them = view.viewer.other
    exits = set(view.variant.exits[them])
    on_exit = {
        square: piece
        for square, piece in view.pieces(them)
        if square in exits and piece.slot not in proven_red and piece.colour is not Colour.RED
    }
    forced: dict[Move, str] = {}
    for move in view.legal_moves():
        if move.dst is None:
            forced[move] = "escapes now: a win"
        elif move in risky:
            forced[move] = "loses at once if it is their last red"
        elif move.dst in on_exit:
            forced[move] = f"stops an escape: {move.dst} may be blue"
    return forced


def _group(line: MoveAdvice) -> int:
    """Where a move goes in the list: escapes, proven wins, captures that stop an escape, the rest, then losses."""
    if line.forced.startswith("escapes"):
        return 0
    if line.result == "win":
        return 1
    if line.forced.startswith("stops"):
        return 2
    if line.result == "loss" or line.forced.startswith("loses"):
        return 4
    return 3


def advise(view: GeisterView, report: SearchReport, engine: str) -> Advice:
    """The advice of one search report on ``view`` (the player to move's): see the module docstring."""
    forced = forced_moves(view, report.risky, report.proven_red)
    lines: list[MoveAdvice] = []
    searched = {move for move, _ in report.moves}
    for move, value in report.moves:
        result, plies = proven(value)
        if move.dst is None:
            result, plies = "win", 1
        lines.append(
            MoveAdvice(str(move), chance_of(value, view, report.expected), None, result, plies, forced.get(move, ""))
        )
    for move, why in forced.items():
        if move not in searched:  # held back from the search (a possible last red), or beyond its budget
            escape = move.dst is None
            lines.append(
                MoveAdvice(
                    str(move),
                    1.0 if escape else None,
                    result="win" if escape else None,
                    plies=1 if escape else None,
                    forced=why,
                )
            )
    best = str(report.best)
    escapes = [line for line in lines if line.forced.startswith("escapes")]
    if escapes:
        best = escapes[0].move  # a win now is never traded, whatever the search ranked first

    def rank(line: MoveAdvice) -> tuple[int, int, int, float]:
        # The suggested move heads its group: the search drew it among near-equals, and it must show in the list.
        wins_in = line.plies or 0 if line.result == "win" else 0
        return (_group(line), wins_in, 0 if line.move == best else 1, -(line.value or 0))

    lines.sort(key=rank)
    best_line = next(line for line in lines if line.move == best)
    nodes = f"{report.nodes / 1e6:.1f} M" if report.nodes >= 100_000 else f"{report.nodes:,}"
    state = "done" if report.final else "thinking"
    details = (f"depth {report.depth} (to {report.seldepth}), {nodes} nodes in {report.elapsed:.1f} s ({state})",)
    return Advice(
        game=view.variant.name,
        position=view.position(),
        player=view.viewer.number,
        engine=engine,
        exact=False,
        best=best,
        moves=tuple(lines),
        value=best_line.value,
        scale="chance",
        result=best_line.result,
        plies=best_line.plies,
        final=report.final,
        details=details,
        blue=tuple((str(square), chance) for square, chance in report.blue),
        # The search's line starts with its own choice; a win taken instead of it (an escape) is a line of one.
        line=tuple(map(str, report.line)) if report.line and str(report.line[0]) == best else (best,),
        # The search's own values (thousandths of a blue piece, or proven results): the chances above are calibrated
        # but coarse (they read mostly the pieces left), so the review ranks moves by these.
        extra={"depth": report.depth, "nodes": report.nodes, "scores": {str(m): value for m, value in report.moves}},
    )


def from_request(request: Request) -> Iterator[Advice]:
    """The advice ``nashplay analyse geister`` gives (``solvers.advice.registry``): the position checked, then the
    strongest player's search, for its ``time`` (1 s by default) or to its ``depth``."""
    from core.geister import GeisterState, check_geister_position
    from solvers.advice.registry import SLICE_SECONDS
    from solvers.catalogue import advising_player, make_player

    state = GeisterState.from_position(request.position, request.game)
    outcome = state.outcome()
    if outcome is not None:
        raise InvalidPositionError(f"the game is over: {outcome}")
    check_geister_position(state, state.to_move)
    depth = request.value("depth")
    # A timed search reports between slices: Python (and so Ctrl-C) gets a word in that often.
    limit = Limit(iterations=depth) if depth is not None else Limit(request.value("time"), slice_seconds=SLICE_SECONDS)
    player = make_player(advising_player(request.game).name, request.game)
    yield from analyse(state.view(state.to_move), limit, random.Random(request.value("seed")), player)


def analyse(
    view: GeisterView, limit: Limit | None, rng: random.Random, player: PurplePlayer | None = None
) -> Iterator[Advice]:
    """Improving advice on ``view`` from ``player`` (the catalogue's strongest Geister player when not given), one per
    report of its search; the last is final."""
    if player is None:
        from solvers.catalogue import advising_player, make_player

        game = view.variant.name
        player = make_player(advising_player(game).name, game)
    assert player is not None
    judgement = judge(view)  # the endgame tables, where they cover the position
    if judgement is not None and judgement.here is not None:
        yield exact_advice(view, judgement)  # the endgame tables know the result: no search can add to it
        return
    # Every listed move's value exact, not a bound.
    exact = replace(limit, exact=True) if limit is not None else Limit(exact=True)
    for report in player.analyse(view, exact, rng):
        advice = advise(view, report, f"{player.name} search, depth {report.depth}")
        yield advice if judgement is None else with_tables(advice, judgement)
