"""Solved lines of the section-6 Mini-Geister variants (three pieces against two), from the start.

Each side of a variant has its section-6 strategy (``solvers.mini_geister.three_vs_two``): a purple strategy judged
by its own table. From the start one side's strategy forces its event (value 1): the 2-piece side against
red-red-blue (6.1.2), the red-blue-blue side (6.2.1). Its line is the 2-vs-2 lines' (``solvers.mini_geister.lines``):
the side that forces its event plays a distance-minimising move, the other side its longest-resisting quiet reply
(captures it could make are no reply: the table counts them as giving the strategy its target), and the line ends
with the event, one ply, whose outcome is a draw of the colours (an escape attempt or a random capture). The colours
stay hidden in the record: the strategy never looks at them. The comments count the plies down.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

import numpy as np

from core.game import Side
from core.geister import GeisterState, variant_by_name
from core.notation import Move, Square
from core.record import Record
from solvers.mini_geister.analysis import Assessment, assessment, default_store
from solvers.mini_geister.lines import SolvedLine
from solvers.mini_geister.model import EPS, MINI, IntArray, flip_square, lower_bound
from solvers.mini_geister.tables import TableStore, empty_masks

if TYPE_CHECKING:
    from solvers.mini_geister.three_vs_two import SideAnalysis

__all__ = ["GAMES", "three_vs_two_line"]

#: The section-6 variants, by name.
GAMES = ("mini-geister-3v2-rrb", "mini-geister-3v2-rbb", "mini-geister-2v3-rrb", "mini-geister-2v3-rbb")
#: Far more plies than any line of these tables takes (16 from the start): a guard, never reached by a sound table.
MAX_PLIES = 200


def strategies(game: str, store: TableStore | None = None) -> dict[Side, SideAnalysis]:
    """Each side's section-6 strategy in ``game``: the first analysis of its side, the one that secures its target
    (the others are the paper's failed attempts)."""
    from solvers.mini_geister.three_vs_two import three_vs_two

    if game not in GAMES:
        raise ValueError(f"the section-6 variants are {', '.join(GAMES)}, not {game!r}")
    colours: Literal["rrb", "rbb"] = "rrb" if game.endswith("rrb") else "rbb"
    three_piece = Side.P1 if "-3v2-" in game else Side.P2
    analyses = three_vs_two(colours, store=store or default_store()).analyses
    return {
        side: next(a for a in analyses if a.three_piece_side == (side is three_piece) and not a.designated)
        for side in Side
    }


@dataclass(frozen=True)
class _Plan:
    """A side's strategy as the line plays it: the side, its analysis, the slot of the red it keeps apart (the
    red-red-blue side's piece set up on b2, b3 for player 2; ``None`` for the others), and the tables' store."""

    side: Side
    analysis: SideAnalysis
    known_red: int | None
    store: TableStore

    @classmethod
    def of(cls, state: GeisterState, side: Side, analysis: SideAnalysis, store: TableStore) -> _Plan:
        known_red = None
        if analysis.spec.analysed.known_red:
            piece = state.piece_at(Square.parse("b2" if side is Side.P1 else "b3"))
            assert piece is not None and piece.side is side, "the start has the third piece on b2 (b3 for player 2)"
            known_red = piece.slot
        return cls(side, analysis, known_red, store)

    def masks(self, state: GeisterState, their_role: str = "p") -> dict[tuple[int, str], IntArray]:
        """``state``'s placement in the analysis frame (flipped for player 2): the side's pieces purple but the
        red kept apart, the opponent's in ``their_role``."""
        masks = empty_masks(1)
        for square, piece in state.pieces():
            who = 0 if piece.side is self.side else 1
            role = ("kr" if piece.slot == self.known_red else "p") if who == 0 else their_role
            index = MINI.index(square)
            if self.side is Side.P2:
                index = flip_square(index)
            masks[(who, role)] = masks[(who, role)] | np.int64(1 << index)
        return masks

    def assess(self, state: GeisterState) -> Assessment:
        """The strategy's table on ``state``."""
        table = self.analysis.table
        turn = 0 if state.to_move is self.side else 1
        return assessment(table, int(table.index(self.masks(state), turn)[0]))


def _describe(verdict: Assessment) -> str:
    if verdict.value == 0:
        return "neither side can force its event (endless play, worth 0)"
    return f"the opponent forces its event in {verdict.distance} plies"


def three_vs_two_line(game: str, side: Side | None = None, store: TableStore | None = None) -> SolvedLine:
    """The line from the start of ``game`` for ``side``'s strategy (default: the side whose strategy forces its
    event). ``ValueError`` when that strategy cannot force its event from the start."""
    store = store or default_store()
    analyses = strategies(game, store)
    variant = variant_by_name(game)
    start = variant.standard_start(Side.P1)
    state = GeisterState.from_position(start, variant)
    plans = [_Plan.of(state, s, analyses[s], store) for s in ([side] if side is not None else list(Side))]
    forcing = [plan for plan in plans if plan.assess(state).value == 1]
    if not forcing:
        if side is None:  # pragma: no cover - every variant has a side that forces its event
            raise ValueError(f"neither side's section-6 strategy forces its event from the start of {game}")
        analysis = plans[0].analysis
        raise ValueError(
            f"{side}'s strategy ({analysis.section}: {analysis.title}) cannot force its event from the start: "
            f"{_describe(plans[0].assess(state))}; {analysis.claim}"
        )
    plan = forcing[0]
    steps: list[tuple[str, str, int, str | None]] = []
    while True:
        if len(steps) >= MAX_PLIES:  # pragma: no cover - the tables' distances count down to the event
            raise AssertionError("the section-6 line did not end")
        here = plan.assess(state)
        assert here.value == 1 and here.distance is not None, "a forced event stays forced along the line"
        if here.distance == 1:
            kind, moves, words = _event(state, plan)
            steps.append((str(state.to_move), moves[0].to_text() if moves else "guess", 1, kind))
            break
        move = _best(state, plan)
        steps.append((str(state.to_move), move.to_text(), here.distance, None))
        state.push(move)
    analysis = plan.analysis
    tags = {"Player1": "section-6 strategy", "Player2": "section-6 strategy", "Event": f"Solved line: {analysis.title}"}
    record = Record.from_game(state, tags)
    for recorded, (_, _, distance, _) in zip(record.moves, steps[:-1], strict=True):
        left = distance - 1
        recorded.comment = f"{left} {'ply' if left == 1 else 'plies'} to {plan.side}'s event"
    final = f"then {plan.side} {words}"
    if record.moves:
        record.moves[-1].comment = f"{record.moves[-1].comment}; {final}"
    record.tags["Termination"] = final
    title = (
        f"{variant.title}: {plan.side} ({variant.pieces(plan.side)} pieces) forces its event, section "
        f"{analysis.section} ({analysis.claim})"
    )
    return SolvedLine(game, title, start, plan.side, f"section {analysis.section}", len(steps), record, steps)


def _quiet(state: GeisterState, move: Move) -> bool:
    return move.dst is not None and state.piece_at(move.dst) is None


def _best(state: GeisterState, plan: _Plan) -> Move:
    """The strategy's side: the quiet move one ply closer to its event; the opponent: the quiet reply that delays it
    longest (the first such in ``legal_moves`` order)."""
    scored: list[tuple[Move, Assessment]] = []
    for move in state.legal_moves():
        if not _quiet(state, move):
            continue
        after = state.clone()
        after.push(move)
        scored.append((move, plan.assess(after)))
    if state.to_move is plan.side:
        forced = [(move, verdict.distance or 0) for move, verdict in scored if verdict.value == 1]
        return min(forced, key=lambda item: item[1])[0]
    # At a forced event every quiet reply stays forced (the table's rule for the opponent's turn).
    return max(scored, key=lambda item: item[1].distance or 0)[0]


def _event(state: GeisterState, plan: _Plan) -> tuple[str, list[Move], str]:
    """The event a distance-1 placement ends with (the strategy's side to move): its kind, its moves (none for a
    guess) and what it is, in words."""
    spec = plan.analysis.spec
    moves = state.legal_moves()
    escape = spec.escape_average
    if escape is not None and escape >= spec.target:
        escapes = [m for m in moves if m.dst is None and _slot(state, m.src) != plan.known_red]
        if escapes:
            chance = Fraction(spec.analysed.purple_blue, spec.analysed.purple)
            words = (
                f"tries to escape with {escapes[0].to_text()}: the piece is blue with chance {chance} "
                f"(average {escape}, its target {spec.target})"
            )
            return "escape", escapes, words
    if spec.capture:
        found = _random_capture(state, plan)
        if found is not None:
            return "capture", *found
    if spec.guess_allowed:
        return "guess", [], "guesses the opponent's colours and, if right, wins by force with every colour known"
    raise AssertionError(f"no event of the table in {state.position()}")  # pragma: no cover - the table says so


def _slot(state: GeisterState, square: Square) -> int:
    piece = state.piece_at(square)
    assert piece is not None
    return piece.slot


def _random_capture(state: GeisterState, plan: _Plan) -> tuple[list[Move], str] | None:
    """The table's random capture here (``solvers.mini_geister.tables``), for this one placement: the set of
    opponent pieces in reach whose capture at random is worth the most on average against the opponent's worst
    colouring of them (a smaller set on ties), if that reaches the target; its capturing moves, and in words."""
    spec = plan.analysis.spec
    theirs = spec.opponent
    captures = [m for m in state.legal_moves() if m.dst is not None and not _quiet(state, m)]
    targets = sorted({m.dst for m in captures if m.dst is not None}, key=MINI.index)
    # What each target is worth captured, for each colour it may have (every section-6 strategy faces purple
    # pieces only): the best of the strategy's pieces that can take it.
    colours: tuple[Literal["B", "R"], ...] = ("B", "R") if theirs.purple else ("B",) if theirs.known_blue else ("R",)
    worth: list[dict[str, float]] = []
    for target in targets:
        worth.append(
            {colour: max(_captured(state, plan, m, colour) for m in captures if m.dst == target) for colour in colours}
        )
    best: tuple[float, int, tuple[int, ...]] | None = None
    for size in range(1, len(targets) + 1):
        for chosen in itertools.combinations(range(len(targets)), size):
            worst = min(
                (
                    sum(worth[q][c] for q, c in zip(chosen, colouring, strict=True)) / size
                    for colouring in itertools.product(*(sorted(worth[q]) for q in chosen))
                    if colouring.count("B") <= theirs.purple_blue + theirs.known_blue
                    and colouring.count("R") <= theirs.purple_red + theirs.known_red
                ),
                default=float("-inf"),
            )
            if best is None or (worst, -size) > (best[0], -len(best[2])):
                best = (worst, size, chosen)
    if best is None or best[0] < float(spec.target) - EPS:
        return None
    worst, _, chosen = best
    picked = [m for m in captures if m.dst in {targets[q] for q in chosen}]
    shown = Fraction(worst).limit_denominator(12)
    if len(chosen) == 1:
        words = f"captures with {picked[0].to_text()}: worth at least {shown} whatever the piece's colour"
    else:
        squares = " and ".join(str(targets[q]) for q in chosen)
        words = (
            f"captures one of the pieces on {squares} at random ({', '.join(m.to_text() for m in picked)}): "
            f"at least {shown} on average however the opponent coloured them (its target {spec.target})"
        )
    return picked, words


def _captured(state: GeisterState, plan: _Plan, move: Move, colour: Literal["B", "R"]) -> float:
    """What ``move`` (a capture by the strategy's side) is worth if the piece taken is ``colour``: the opponent's last
    blue 1, its last red -1, else what the continuation table (the pieces left) guarantees."""
    spec = plan.analysis.spec
    theirs = spec.opponent
    if (theirs.blues if colour == "B" else theirs.reds) == 1:
        return 1.0 if colour == "B" else -1.0
    after = state.clone()
    after.push(move)
    army = theirs.without(colour, purple=bool(theirs.purple))
    continuation = spec.continuation(spec.analysed, army)
    # The opponent's pieces left all of one colour are known ones; else they stay purple (``_after_capture``).
    their_role = "p" if army.purple else "kb" if army.known_blue > theirs.known_blue else "kr"
    table = plan.store.colourless(continuation)
    verdict = table.value[int(table.index(plan.masks(after, their_role), 1)[0])]
    return float(lower_bound(np.array([verdict]), continuation.target)[0])
