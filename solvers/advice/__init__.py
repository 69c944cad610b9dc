"""Advice in one shape for every game: what the app's panels show and ``nashplay analyse`` prints.

Each game's adviser (``solvers.advice.geister``, ``.mini_geister``, ``.tcg``, ``.footstep``, ``.nim``) turns its
solver's or search's verdict into an ``Advice``: the suggested action, every action with its value or probability,
and, where the result is proven, the result and its distance. Forced results come first and say what they are (an
escape that wins now, a capture that stops one, a move that loses at once, a proven win): a tie in the numbers must
never hide them behind a list.

The value types are plain data (picklable: the search process sends them to the app) with a JSON form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Advice", "MoveAdvice", "Result"]

#: A proven result for the player to move.
Result = Literal["win", "loss", "draw"]


@dataclass(frozen=True)
class MoveAdvice:
    """One action the player may take, in the game's notation, with what the adviser knows of it."""

    move: str
    #: The player's value after this action, on the advice's scale (``Advice.scale``); ``None`` when not known (a
    #: move the search gave only a bound).
    value: float | None = None
    #: Its weight in the equilibrium mix (simultaneous games, and the solved Mini-Geister's equilibrium moves).
    probability: float | None = None
    #: A proven result of the action for the player, and in how many plies (moves in Nim, rounds in TCG/Footstep).
    result: Result | None = None
    plies: int | None = None
    #: A forced result in words ("escapes now: a win", "stops an escape", "loses at once if red"), or ``""``.
    forced: str = ""
    #: Anything else worth a word ("may take their last red").
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": self.move, "value": self.value}
        if self.probability is not None:
            data["probability"] = self.probability
        if self.result is not None:
            data["result"] = self.result
            data["in"] = self.plies
        if self.forced:
            data["forced"] = self.forced
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class Advice:
    """What an adviser says about one position, for the player to move (``player``: 1 or 2)."""

    game: str
    position: str
    player: int
    #: Who worked it out: a search AI of the catalogue ("bayes search, depth 9") or a solver ("solved tables").
    engine: str
    #: Whether the values are the game's exact values (solved), not a search's estimates.
    exact: bool
    #: The suggested action (for a mixed strategy: one drawn from the equilibrium mix, or its likeliest).
    best: str
    #: Every action considered, forced results first, then best first.
    moves: tuple[MoveAdvice, ...]
    #: The position's value for the player, on ``scale``.
    value: float | None = None
    #: What ``value`` means: "chance" (the player's chance to win, 0..1), "expected" (the expected payoff under the
    #: equilibrium), "outcome" (+1 / 0 / -1 as the tables define it).
    scale: Literal["chance", "expected", "outcome"] = "chance"
    #: A proven result of the position for the player, and its distance in plies (rounds, moves).
    result: Result | None = None
    plies: int | None = None
    #: The search is still running (a later advice for the same position will follow).
    final: bool = True
    #: Lines of detail the panel and the CLI print after the moves (depth reached, what the values mean...).
    details: tuple[str, ...] = ()
    #: Geister: each opponent piece on the board (its square) with its chance of being blue.
    blue: tuple[tuple[str, float], ...] = ()
    #: The line a search expects, ``best`` first, both sides' moves in turn (its principal variation); empty when
    #: the adviser has none.
    line: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def forced(self) -> tuple[MoveAdvice, ...]:
        return tuple(move for move in self.moves if move.forced)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "position": self.position,
            "player": self.player,
            "engine": self.engine,
            "exact": self.exact,
            "best": self.best,
            "value": self.value,
            "scale": self.scale,
        }
        if self.result is not None:
            data["result"] = self.result
            data["in"] = self.plies
        data["moves"] = [move.to_json() for move in self.moves]
        if self.blue:
            data["blue"] = dict(self.blue)
        if self.line:
            data["line"] = list(self.line)
        data.update(self.extra)
        return data
