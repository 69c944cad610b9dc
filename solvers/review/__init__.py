"""Post-game review: every move of a record judged from its mover's point of view (issue 17).

One shape for every game, as the advice has (``solvers.advice``): a ``Review`` of ``MoveReview`` entries, each with
the value before the move, the value after it, the best move(s) and a verdict. Values are the mover's, on the
review's ``scale``; the loss of a move is ``(best value - value after) / span``, the share of the whole value range
that the move gave away, and the verdict follows from it (``verdict_of``, thresholds in ``THRESHOLDS``):

* ``best``: one of the best moves, or a loss below the ``inaccuracy`` threshold;
* ``inaccuracy``, ``mistake``, ``blunder``: a loss of at least 2%, 8% and 20% of the range.

Exact games are judged exactly (Nim by Grundy values, TCG and Footstep by the equilibrium, Mini-Geister by its
tables' bounds on the mover's expected result), Geister by the strongest search. A search judges each move to a fixed
depth by default (``DEFAULT_DEPTH``; Mini-Geister's search past its 3-vs-2 tables to its advice's), with a fixed seed,
so that the same record gets the same review on any machine; a time a move is an option, and then the review depends
on the machine's speed. A move the judge cannot value (a record that hides its mover's colours) has ``verdict``
``None``: not judged, and said so.

Each game's judge lives in its own module here; ``review_record`` (``solvers.review.records``) picks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["DEFAULT_DEPTH", "DEFAULT_TIME", "THRESHOLDS", "VERDICTS", "MoveReview", "Review", "Verdict", "verdict_of"]

#: Geister's search depth a move when a review is asked for without a budget (``records.review_record`` gives it to the
#: judge): the same review on any machine. Depth 5 is what 0.1 s a move, the earlier default, reached on most moves
#: (measured on a 60-ply game: depth 5 on 43 of 60, at about 40 ms a move on 2 cores against 80 ms).
DEFAULT_DEPTH = 5
#: Geister's search time a move (seconds) for a judge given neither a depth nor a time; ``review_record`` always
#: gives one of them.
DEFAULT_TIME = 0.1

Verdict = Literal["best", "inaccuracy", "mistake", "blunder"]
VERDICTS: tuple[Verdict, ...] = ("best", "inaccuracy", "mistake", "blunder")
#: The smallest loss (a share of the value range) of each verdict worse than ``best``.
THRESHOLDS: dict[Verdict, float] = {"inaccuracy": 0.02, "mistake": 0.08, "blunder": 0.20}
#: Marks that say the verdict without colour (as chess annotators write them).
MARKS: dict[Verdict, str] = {"best": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def verdict_of(loss: float, among_best: bool = False) -> Verdict:
    """The verdict of a move that gave away ``loss`` (a share of the value range, 0 to 1); one of the best moves is
    ``best`` whatever a rounding error says."""
    if among_best:
        return "best"
    verdict: Verdict = "best"
    for name, threshold in THRESHOLDS.items():
        if loss >= threshold - 1e-12:
            verdict = name
    return verdict


@dataclass(frozen=True)
class MoveReview:
    """One move (for a simultaneous game: one player's action in one round) judged for its mover."""

    #: 1-based: the ply in a turn-based game, the round in a simultaneous one (both players' entries share it).
    ply: int
    player: int
    move: str
    #: The position before the move, in the game's notation (the mover's view for the Geister family).
    position: str
    value_before: float | None
    value_after: float | None
    best: tuple[str, ...]
    verdict: Verdict | None
    #: Anything worth a word: "outside the tables", "judged with every colour known".
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "ply": self.ply,
            "player": self.player,
            "move": self.move,
            "position": self.position,
            "value_before": self.value_before,
            "value_after": self.value_after,
            "best": list(self.best),
            "verdict": self.verdict,
        }
        if self.note:
            data["note"] = self.note
        data.update(self.extra)
        return data


@dataclass(frozen=True)
class Review:
    """A game's review: its moves judged, with what the values mean."""

    game: str
    #: The players' names from the record, by number ("1", "2").
    players: dict[str, str]
    #: Plies (turn-based games) or rounds (simultaneous ones) in the game.
    plies: int
    #: Who judged: "Grundy values", "equilibrium (exact)", "solved tables", "bayes search, 0.1 s a move".
    engine: str
    #: What values mean: "chance" (the mover's chance to win, 0..1), "outcome" (-1..1), "expected" (payoff).
    scale: str
    #: The width of the value range, which losses are divided by (1 for chances, 2 for outcomes, 4 for Footstep).
    span: float
    moves: tuple[MoveReview, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per player: how many moves of each verdict, how many were judged, and an accuracy figure (100 less the
        average loss in percent of the range, over the judged moves)."""
        out: dict[str, dict[str, Any]] = {}
        for number in ("1", "2"):
            mine = [m for m in self.moves if str(m.player) == number and m.verdict is not None]
            counts: dict[str, Any] = {v: sum(1 for m in mine if m.verdict == v) for v in VERDICTS}
            losses = [self.loss(m) for m in mine]
            accuracy = None if not losses else round(100 * (1 - sum(losses) / len(losses)), 1)
            out[number] = {**counts, "judged": len(mine), "accuracy": accuracy}
        return out

    def loss(self, move: MoveReview) -> float:
        """The share of the value range a judged move gave away (0 for the best)."""
        best = move.extra.get("best_value", move.value_before)
        if best is None or move.value_after is None or not self.span:
            return 0.0
        return max(0.0, min(1.0, (float(best) - move.value_after) / self.span))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "plies": self.plies,
            "engine": self.engine,
            "scale": self.scale,
            "moves": [move.to_json() for move in self.moves],
            "summary": self.summary(),
            **self.extra,
        }
