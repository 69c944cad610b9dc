"""Footstep, the bidding game of ``spec/rules.md`` section 4, as a simultaneous-move ``Game``.

Both players bid at once from their points; the higher bid moves the marker one step toward the other
player's goal, and both bids are paid. The state is only ``(points1, points2, marker)``, so solvers can work
from ``position`` and the pure functions ``advance`` and ``position_outcome`` alone. The game always ends:
every round costs at least one point in all.

Text forms (``spec/notation.md``): a bid is an integer; a round is ``"<bid1>:<bid2>"``, e.g. ``"3:5"``; a
state is ``"x,y,z"`` (player 1's points, player 2's points, marker position counted positive toward player
2's goal), e.g. ``"50,50,0"``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, clipped, quoted
from core.game import SIMULTANEOUS, TERMINAL, Game, Outcome, Side, joint_of
from core.game_type import GameType, Parameter, initial, read_tag, whole_number_parser

#: A round: player 1's bid, then player 2's.
FootstepRound = tuple[int, int]

_ROUND_RE = re.compile(r"\s*(\d+)\s*:\s*(\d+)\s*")
_STATE_RE = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*,\s*([+-]?\d+)\s*")


class FootstepPosition(NamedTuple):
    """Player 1's points, player 2's points, and the marker (``+k`` is player 2's goal, ``-k`` player 1's)."""

    points1: int
    points2: int
    marker: int

    def points(self, side: Side) -> int:
        return self.points2 if side is Side.P2 else self.points1

    @property
    def text(self) -> str:
        return f"{self.points1},{self.points2},{self.marker}"


def legal_bids(points: int) -> list[int]:
    """``1..points``; a player with no points left bids 0, and only then."""
    return [0] if points == 0 else list(range(1, points + 1))


def advance(position: FootstepPosition, bids: FootstepRound) -> FootstepPosition:
    """The position after a round of legal bids (no checks: ``FootstepState.apply_joint`` does those)."""
    b1, b2 = bids
    step = (b1 > b2) - (b1 < b2)  # equal bids leave the marker where it is
    return FootstepPosition(position.points1 - b1, position.points2 - b2, position.marker + step)


def position_outcome(position: FootstepPosition, k: int) -> Outcome | None:
    """How the game ended at ``position``, or ``None`` if it goes on. Scores are in points (2, 1 or 0)."""
    if position.marker >= k:
        return Outcome.win(Side.P1, "the marker reached player 2's goal", points=2)
    if position.marker <= -k:
        return Outcome.win(Side.P2, "the marker reached player 1's goal", points=2)
    if position.points1 > 0 or position.points2 > 0:
        # One player may be out of points: they bid 0 from now on and the game goes on.
        return None
    if position.marker > 0:
        return Outcome.win(Side.P1, "both are out of points, the marker on player 2's half", points=1)
    if position.marker < 0:
        return Outcome.win(Side.P2, "both are out of points, the marker on player 1's half", points=1)
    return Outcome.draw("both are out of points, the marker on the centre line")


def parse_position(text: str, n: int, k: int) -> FootstepPosition:
    """Read ``"x,y,z"``: points ``0..n`` each and a marker ``-k..k``."""
    match = _STATE_RE.fullmatch(text)
    if match is None:
        raise InvalidPositionError(
            f"{quoted(text.strip())} is not a Footstep state: expected 'x,y,z' (player 1's points, player 2's "
            f"points, marker position), e.g. '{n},{n},0'"
        )
    # More digits than n (or k) has cannot be in range: refused before converting (Python will not convert 4,300
    # digits, and a shorter bomb still costs time).
    points1, points2, marker = match.groups()
    for number, most, what in ((points1, n, "points"), (points2, n, "points"), (marker, k, "marker position")):
        if len(number.lstrip("+-").lstrip("0")) > len(str(most)):
            raise InvalidPositionError(
                f"{what} {clipped(number)} is out of range: points run from 0 to n = {n}, the marker from -{k} to {k}"
            )
    position = FootstepPosition(int(points1), int(points2), int(marker))
    _check_position(position, n, k)
    return position


def _check_position(position: FootstepPosition, n: int, k: int) -> None:
    for side in Side:
        if not 0 <= position.points(side) <= n:
            raise InvalidPositionError(f"{side} has {position.points(side)} points: points run from 0 to n = {n}")
    if not -k <= position.marker <= k:
        raise InvalidPositionError(f"the marker is at {position.marker}: it runs from -{k} to {k} (the goals)")


@dataclass(frozen=True)
class FootstepView:
    """What ``player`` knows: everything (bids are secret only until both are made, and both are paid)."""

    viewer: Side
    n: int
    k: int
    position: FootstepPosition
    history: tuple[FootstepRound, ...]
    outcome: Outcome | None

    @property
    def own_points(self) -> int:
        return self.position.points(self.viewer)

    @property
    def opponent_points(self) -> int:
        return self.position.points(self.viewer.other)

    def legal_actions(self) -> list[int]:
        """The viewer's bids this round (both players bid in every round until the game ends)."""
        return [] if self.outcome is not None else legal_bids(self.own_points)


class FootstepState:
    """A Footstep game in progress: mutable, ``apply_joint``/``undo``, cheap to ``clone``.

    ``FootstepState()`` is the standard game (n = 50 points each, k = 4 steps to each goal);
    ``FootstepState(20, 3)`` the source's simplified one; ``position=`` or ``from_text`` start elsewhere.
    """

    game_name = "footstep"

    def __init__(
        self, n: int = 50, k: int = 4, position: FootstepPosition | tuple[int, int, int] | None = None
    ) -> None:
        if n < 1 or k < 1:
            raise ValueError(f"n (points) and k (steps to a goal) must be at least 1, not n = {n}, k = {k}")
        start = FootstepPosition(n, n, 0) if position is None else FootstepPosition(*position)
        _check_position(start, n, k)
        self.n = n
        self.k = k
        self.position = start
        self._history: list[FootstepRound] = []
        self._undo: list[FootstepPosition] = []

    @classmethod
    def from_text(cls, text: str, n: int = 50, k: int = 4) -> FootstepState:
        return cls(n, k, parse_position(text, n, k))

    @property
    def state_text(self) -> str:
        return self.position.text

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else SIMULTANEOUS

    def legal_actions(self, player: Side | None = None) -> list[int]:
        """Bids of ``player``: ``1..points``, or ``[0]`` when out of points; none once the game is over."""
        if self.is_terminal():
            return []
        if player is None:
            # Both players act and their bids differ, so a default player would be a silent bug.
            raise ValueError("Footstep is simultaneous: ask for a player's bids, legal_actions(Side.P1) or (Side.P2)")
        return legal_bids(self.position.points(player))

    def apply(self, action: int) -> None:
        raise IllegalMoveError(
            "Footstep is simultaneous: play both bids at once with apply_joint((bid1, bid2)), "
            "e.g. apply_joint(state.parse_action('3:5'))"
        )

    def apply_joint(self, actions: Sequence[int]) -> None:
        bids = joint_of(actions, self.outcome())
        for side in Side:
            bid, points = bids[side], self.position.points(side)
            if isinstance(bid, bool) or not isinstance(bid, int):
                raise IllegalMoveError(f"{side}'s bid must be a whole number, not {bid!r}")
            if bid not in legal_bids(points):
                expected = "0 (they have no points left)" if points == 0 else f"1 to {points}"
                raise IllegalMoveError(f"{side} cannot bid {bid}: they have {points} points, so a bid is {expected}")
        self._undo.append(self.position)
        self._history.append(bids)
        self.position = advance(self.position, bids)

    def undo(self) -> None:
        if not self._undo:
            raise IndexError("nothing to undo: no round has been played")
        self.position = self._undo.pop()
        self._history.pop()

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def outcome(self) -> Outcome | None:
        # Derived from the position (a Markov game), so undo and clone never have to keep it in step.
        return position_outcome(self.position, self.k)

    def returns(self) -> tuple[float, float]:
        outcome = self.outcome()
        return outcome.returns() if outcome is not None else (0.0, 0.0)

    def view(self, player: Side) -> FootstepView:
        return FootstepView(player, self.n, self.k, self.position, tuple(self._history), self.outcome())

    def clone(self) -> FootstepState:
        other = FootstepState.__new__(FootstepState)
        other.n, other.k, other.position = self.n, self.k, self.position
        other._history = list(self._history)
        other._undo = list(self._undo)
        return other

    def parse_action(self, text: str) -> FootstepRound:
        """Read a round ``"<bid1>:<bid2>"``, e.g. ``"3:5"``; whether the bids are affordable is for ``apply_joint``."""
        match = _ROUND_RE.fullmatch(text)
        if match is None:
            raise InvalidMoveError(
                f"{quoted(text.strip())} is not a Footstep round: expected '<bid1>:<bid2>', player 1's bid then "
                "player 2's, e.g. '3:5'"
            )
        for bid in match.groups():
            # A bid with more digits than n is unaffordable, as apply_joint would say: said before converting it.
            if len(bid.lstrip("0")) > len(str(self.n)):
                raise IllegalMoveError(f"nobody can bid {clipped(bid)}: bids run from 0 to n = {self.n}")
        return (int(match.group(1)), int(match.group(2)))

    def format_action(self, action: FootstepRound | int) -> str:
        """A round as ``"3:5"``; a single bid as its number."""
        if isinstance(action, int):
            return str(action)
        return f"{action[0]}:{action[1]}"

    def history(self) -> list[FootstepRound]:
        return list(self._history)

    def __repr__(self) -> str:
        return f"FootstepState.from_text({self.state_text!r}, n={self.n}, k={self.k})"


# ------------------------------------------------------------------------------------------------ the descriptor

#: The largest n and k a record may give (far beyond what anyone plays: the app refuses to resume past the solved).
MAX_RECORDED_N = 1000
MAX_RECORDED_K = 100
#: The largest Footstep solved anywhere (the app, ``solve footstep``, ``learn footstep``, ``analyse``): the exact
#: solution solves about n^2 (2k - 1) matrix games of up to n x n bids. Measured (built once, then read from the
#: cache): n = 50, k = 4 in 3 s; n = 70, k = 10 in 14 s; n = 100, k = 4 in 40 s and k = 10 in 65 s; but n = 150,
#: k = 2 in 146 s, and n = 200 ran past 5 minutes.
MAX_SOLVED_N = 100
MAX_SOLVED_K = 10
N_PARAMETER = Parameter(
    "n",
    50,
    f"points each player starts with, 1..{MAX_SOLVED_N} (default 50)",
    whole_number_parser("n (points)", 1, MAX_RECORDED_N),
    tag="N",
    kind="whole",
    limits=(1, MAX_SOLVED_N),
)
K_PARAMETER = Parameter(
    "k",
    4,
    f"steps from the centre to each goal, 1..{MAX_SOLVED_K} (default 4)",
    whole_number_parser("k (steps)", 1, MAX_RECORDED_K),
    tag="K",
    kind="whole",
    limits=(1, MAX_SOLVED_K),
)


def _footstep(state: Game[Any, Any]) -> FootstepState:
    assert isinstance(state, FootstepState), state
    return state


def _footstep_from_tags(tags: Mapping[str, str]) -> FootstepState:
    n, k = read_tag(tags, N_PARAMETER), read_tag(tags, K_PARAMETER)
    start = tags.get("Start")
    return FootstepState(n, k) if start is None else FootstepState.from_text(start, n, k)


def result_text(outcome: Outcome | None) -> str:
    """A Footstep record's result: the points, ``2-0`` for the goal, ``1-0`` for the half, ``0-0`` a draw."""
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return "0-0"
    points = round(abs(outcome.score))
    return f"{points}-0" if outcome.winner is Side.P1 else f"0-{points}"


GAME_TYPES = (
    GameType(
        "footstep",
        "Footstep",
        "simultaneous",
        "footstep",
        "secret bids push a marker toward a goal",
        new_state=FootstepState,
        start_tags=lambda state: {"Start": _footstep(initial(state)).state_text},
        from_tags=_footstep_from_tags,
        adviser="solvers.advice.footstep:from_request",
        reviewer="solvers.review.footstep:review",
        parameters=(N_PARAMETER, K_PARAMETER),
        max_payoff=2.0,
        units=("round", "rounds"),
        position_metavar="X,Y,Z",
        position_help="the state: player 1's points, player 2's, the marker (default n,n,0)",
        default_position=lambda values: f"{values['n']},{values['n']},0",
        advice_summary="each action's probability in the exact equilibrium, for player 1 (or --for 2), and the "
        "state's value.",
        result_text=result_text,
        values_of=lambda state: {"n": _footstep(state).n, "k": _footstep(state).k},
        state_text=lambda state: _footstep(state).state_text,
        label=lambda tags: f"Footstep {clipped(tags.get('N', '?'), 5)},{clipped(tags.get('K', '?'), 5)}",
        lines="solvers.lines.simultaneous:footstep_from_values",
        line_draws=True,
    ),
)
