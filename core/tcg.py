"""Twice Clap Game (TCG): the rules of ``spec/tcg.md`` as a simultaneous-move ``Game``.

Each round both players pick one of four actions at once; the state is only the pair of points ``(i1, i2)``
(a Markov game), so solvers can work from ``points`` and the pure function ``resolve_round`` alone.

Text forms (``spec/notation.md``): an action is one letter ``c``/``a``/``d``/``s``; a round is player 1's
letter then player 2's, e.g. ``"ca"``; a state is ``"i1,i2"``, e.g. ``"1,2"``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, clipped, quoted
from core.game import SIMULTANEOUS, TERMINAL, Game, Outcome, Side, joint_of
from core.game_type import GameType, Parameter, initial, read_tag, whole_number_parser


class TcgAction(StrEnum):
    """One player's choice in a round; the value is the one-letter text form."""

    CHARGE = "c"
    ATTACK = "a"
    DEFENSE = "d"
    STRONG_ATTACK = "s"

    @property
    def label(self) -> str:
        """The word people read: ``charge``, ``attack``, ``defense``, ``strong attack``."""
        return self.name.lower().replace("_", " ")

    def delta(self, n: int) -> int:
        """How the action changes its player's points before the cap (a strong attack costs all ``n``)."""
        if self is TcgAction.CHARGE:
            return 1
        if self is TcgAction.ATTACK:
            return -1
        return 0 if self is TcgAction.DEFENSE else -n

    @classmethod
    def parse(cls, text: str) -> TcgAction:
        """Read a letter (``c``) or the word (``charge``, ``strong attack``); case and blanks are ignored."""
        cleaned = " ".join(text.lower().split())
        for action in cls:
            if cleaned in (action.value, action.label, action.label.replace(" ", "")):
                return action
        if cleaned == "defence":  # the British spelling, so a user is not told off for it
            return cls.DEFENSE
        raise InvalidMoveError(f"{quoted(text.strip())} is not a TCG action: expected one of {_ACTIONS_HELP}")

    def __repr__(self) -> str:
        return f"TcgAction.parse({self.value!r})"


_ACTIONS_HELP = "c (charge), a (attack), d (defense), s (strong attack)"

#: A round: player 1's action, then player 2's.
TcgRound = tuple[TcgAction, TcgAction]

#: The outcome table of ``spec/tcg.md``: (winner's action, loser's action). The table is antisymmetric, so
#: listing the winning pairs once covers both players.
_BEATS = frozenset(
    {
        (TcgAction.ATTACK, TcgAction.CHARGE),
        (TcgAction.STRONG_ATTACK, TcgAction.CHARGE),
        (TcgAction.STRONG_ATTACK, TcgAction.ATTACK),
        (TcgAction.STRONG_ATTACK, TcgAction.DEFENSE),
    }
)

_STATE_RE = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*")


class RoundResult(NamedTuple):
    """What one round does: the new points and, if the round ended the game, how.

    ``points`` after a decisive round are the changed points (possibly negative); after a double overdraft
    they are already the restart ``(0, 0)``.
    """

    points: tuple[int, int]
    outcome: Outcome | None


def resolve_round(n: int, points: tuple[int, int], joint: TcgRound) -> RoundResult:
    """Apply one round to ``points`` without touching any state: the whole rule of the game."""
    a1, a2 = joint
    new = (min(points[0] + a1.delta(n), n), min(points[1] + a2.delta(n), n))
    if new[0] < 0 and new[1] < 0:
        # Both overdrew: the source restarts the game rather than calling it a draw.
        return RoundResult((0, 0), None)
    for side, action in ((Side.P1, a1), (Side.P2, a2)):
        if new[side] < 0:
            reason = f"{side} had too few points for {action.label}"
            return RoundResult(new, Outcome.win(side.other, reason))
    if (a1, a2) in _BEATS:
        return RoundResult(new, Outcome.win(Side.P1, f"{a1.label} beats {a2.label}"))
    if (a2, a1) in _BEATS:
        return RoundResult(new, Outcome.win(Side.P2, f"{a2.label} beats {a1.label}"))
    return RoundResult(new, None)


def parse_state(text: str, n: int) -> tuple[int, int]:
    """Read ``"i1,i2"``; both numbers must be points a player can hold, ``0..n``."""
    match = _STATE_RE.fullmatch(text)
    if match is None:
        raise InvalidPositionError(
            f"{quoted(text.strip())} is not a TCG state: expected 'i1,i2', two points like '1,2'"
        )
    # More digits than n has cannot be points: refused before converting (Python will not convert 4,300 digits).
    for number in match.groups():
        if len(number.lstrip("0")) > len(str(n)):
            raise InvalidPositionError(f"{clipped(number)} points: points run from 0 to n = {n}")
    points = (int(match.group(1)), int(match.group(2)))
    _check_points(points, n)
    return points


def format_state(points: tuple[int, int]) -> str:
    return f"{points[0]},{points[1]}"


def _check_points(points: tuple[int, int], n: int) -> None:
    for side in Side:
        if not 0 <= points[side] <= n:
            raise InvalidPositionError(f"{side} has {points[side]} points: points run from 0 to n = {n}")


@dataclass(frozen=True)
class TcgView:
    """What ``player`` knows: everything (TCG hides nothing but the opponent's choice in the current round)."""

    viewer: Side
    n: int
    points: tuple[int, int]
    history: tuple[TcgRound, ...]
    outcome: Outcome | None

    @property
    def own_points(self) -> int:
        return self.points[self.viewer]

    @property
    def opponent_points(self) -> int:
        return self.points[self.viewer.other]

    def legal_actions(self) -> list[TcgAction]:
        """All four actions, every round, until the game ends (both players act in every round)."""
        return [] if self.outcome is not None else list(TcgAction)


class TcgState:
    """A Twice Clap Game in progress: mutable, ``apply_joint``/``undo``, cheap to ``clone``.

    ``TcgState(n=3)`` starts at ``(0, 0)``; ``TcgState(n, points=(1, 2))`` or ``TcgState.from_text("1,2", n)``
    start from a given state. The game can go on for ever (charging back and forth), so callers that play it
    out should cap the rounds.
    """

    game_name = "tcg"

    def __init__(self, n: int = 3, points: tuple[int, int] = (0, 0)) -> None:
        if n < 1:
            raise ValueError(f"n (the most points a player can hold) must be at least 1, not {n}")
        points = (int(points[0]), int(points[1]))
        _check_points(points, n)
        self.n = n
        self.points = points
        self._outcome: Outcome | None = None
        self._history: list[TcgRound] = []
        # What undo needs: the points and outcome before each round (a restart loses the old points).
        self._undo: list[tuple[tuple[int, int], Outcome | None]] = []

    @classmethod
    def from_text(cls, text: str, n: int = 3) -> TcgState:
        return cls(n, parse_state(text, n))

    @property
    def state_text(self) -> str:
        return format_state(self.points)

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else SIMULTANEOUS

    def legal_actions(self, player: Side | None = None) -> list[TcgAction]:
        """All four actions for either player (``player`` only matters in that both are to act), none at the end."""
        return [] if self._outcome is not None else list(TcgAction)

    def apply(self, action: TcgAction) -> None:
        raise IllegalMoveError(
            "the Twice Clap Game is simultaneous: play both players' actions at once with "
            "apply_joint((p1, p2)), e.g. apply_joint(state.parse_action('ca'))"
        )

    def apply_joint(self, actions: Sequence[TcgAction | str]) -> None:
        """Play a round: player 1's action, then player 2's (letters are accepted too)."""
        first, second = joint_of(actions, self._outcome, "action")
        joint = (_as_action(first), _as_action(second))
        result = resolve_round(self.n, self.points, joint)
        self._undo.append((self.points, self._outcome))
        self._history.append(joint)
        self.points, self._outcome = result

    def undo(self) -> None:
        if not self._undo:
            raise IndexError("nothing to undo: no round has been played")
        self.points, self._outcome = self._undo.pop()
        self._history.pop()

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def returns(self) -> tuple[float, float]:
        return self._outcome.returns() if self._outcome is not None else (0.0, 0.0)

    def view(self, player: Side) -> TcgView:
        return TcgView(player, self.n, self.points, tuple(self._history), self._outcome)

    def clone(self) -> TcgState:
        other = TcgState.__new__(TcgState)
        other.n, other.points, other._outcome = self.n, self.points, self._outcome
        other._history = list(self._history)
        other._undo = list(self._undo)
        return other

    def parse_action(self, text: str) -> TcgRound:
        """Read a round ``<p1><p2>``, e.g. ``"ca"`` (blanks between the letters are allowed)."""
        cleaned = "".join(text.lower().split())
        if len(cleaned) != 2:
            raise InvalidMoveError(
                f"{quoted(text.strip())} is not a TCG round: expected two letters, player 1's action then player 2's, "
                f"e.g. 'ca'; each is one of {_ACTIONS_HELP}"
            )
        return (TcgAction.parse(cleaned[0]), TcgAction.parse(cleaned[1]))

    def format_action(self, action: TcgRound | TcgAction) -> str:
        """A round as ``"ca"``; a single action as its letter."""
        if isinstance(action, TcgAction):
            return action.value
        return action[0].value + action[1].value

    def history(self) -> list[TcgRound]:
        return list(self._history)

    def __repr__(self) -> str:
        # Not a round-trippable form: after a lost round the points may be negative, which no start state is.
        over = f", {self._outcome}" if self._outcome is not None else ""
        return f"<TcgState n={self.n} points={self.state_text}{over}>"


def _as_action(value: TcgAction | str) -> TcgAction:
    return value if isinstance(value, TcgAction) else TcgAction.parse(value)


# ------------------------------------------------------------------------------------------------ the descriptor

#: The most points a record may give (far beyond what anyone plays: the app refuses to resume past ``MAX_SOLVED_N``).
MAX_RECORDED_N = 1000
#: The largest TCG solved anywhere (the app, ``solve tcg``, ``analyse``, the arena): (n+1)^2 states and about n sweeps,
#: so the work grows as n^3. Measured (solved once, then read from the cache): n = 100 in 4 s, n = 200 in 36 s
#: (65 s with both cores busy), and n = 1000 printed nothing in 600 s. The README promises n up to at least 200.
MAX_SOLVED_N = 200
N_PARAMETER = Parameter(
    "n",
    3,
    f"most points a player can hold, 1..{MAX_SOLVED_N} (default 3)",
    whole_number_parser("n (the most points a player can hold)", 1, MAX_RECORDED_N),
    tag="N",
    kind="whole",
    limits=(1, MAX_SOLVED_N),
)


def _tcg_from_tags(tags: Mapping[str, str]) -> TcgState:
    n = read_tag(tags, N_PARAMETER)
    start = tags.get("Start")
    return TcgState(n) if start is None else TcgState.from_text(start, n)


def _tcg(state: Game[Any, Any]) -> TcgState:
    assert isinstance(state, TcgState), state
    return state


def _tcg_start_tags(state: Game[Any, Any]) -> dict[str, str]:
    return {"Start": _tcg(initial(state)).state_text}


GAME_TYPES = (
    GameType(
        "tcg",
        "Twice Clap Game",
        "simultaneous",
        "tcg",
        "charge, attack, defend, strike: both choose at once",
        new_state=TcgState,
        start_tags=_tcg_start_tags,
        from_tags=_tcg_from_tags,
        adviser="solvers.advice.tcg:from_request",
        reviewer="solvers.review.tcg:review",
        parameters=(N_PARAMETER,),
        units=("round", "rounds"),
        state_name="points",
        position_metavar="I1,I2",
        position_help="the state: both players' points",
        default_position=lambda values: "0,0",
        advice_summary="each action's probability in the exact equilibrium, for player 1 (or --for 2), and the "
        "state's value.",
        values_of=lambda state: {"n": _tcg(state).n},
        state_text=lambda state: _tcg(state).state_text,
        label=lambda tags: f"TCG n={clipped(tags.get('N', '?'), 5)}",
        lines="solvers.lines.simultaneous:tcg_from_values",
        line_draws=True,
    ),
)
