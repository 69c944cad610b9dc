"""The one interface every game implements (OpenSpiel's shape).

Solvers, AIs, records and the UI speak only this interface, so a new game plugs into all of them at once.
It covers three kinds of game:

* turn-based games with hidden information (the Geister family): ``current_player()`` is a side, and
  ``view(side)`` hides what that side may not know;
* simultaneous-move games with a small state (Twice Clap Game, Footstep): ``current_player()`` is
  ``SIMULTANEOUS`` and a round is applied with ``apply_joint((action_p1, action_p2))``;
* impartial games (Nim and friends): turn-based, perfect information, ``view`` shows everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Protocol, TypeVar, runtime_checkable

from core.errors import IllegalMoveError, quoted


class Side(IntEnum):
    """A player. The value indexes per-player arrays; the label is what people read ("player 1")."""

    P1 = 0
    P2 = 1

    @property
    def other(self) -> Side:
        return Side.P2 if self is Side.P1 else Side.P1

    @property
    def number(self) -> int:
        """1 or 2, as the rules, the notation and the command line count players."""
        return int(self) + 1

    @classmethod
    def from_number(cls, number: int | str) -> Side:
        if str(number) == "1":
            return cls.P1
        if str(number) == "2":
            return cls.P2
        raise ValueError(f"a player is 1 or 2, not {quoted(str(number))}")

    def __str__(self) -> str:
        return f"player {self.number}"


#: ``current_player()`` when both players choose at once (apply with ``apply_joint``).
SIMULTANEOUS = -2
#: ``current_player()`` when the game is over.
TERMINAL = -4


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (``None`` for a draw), a reason a person can read, and the payoff.

    ``score`` is player 1's payoff (zero-sum: player 2 gets ``-score``). Win/loss games use +1/-1;
    games scored in points (Footstep) use the points.
    """

    winner: Side | None
    reason: str
    score: float = 0.0

    @classmethod
    def win(cls, winner: Side, reason: str, points: float = 1.0) -> Outcome:
        return cls(winner, reason, points if winner is Side.P1 else -points)

    @classmethod
    def draw(cls, reason: str) -> Outcome:
        return cls(None, reason, 0.0)

    @property
    def result_text(self) -> str:
        """The record's result tag: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Side.P1 else "0-1"

    def returns(self) -> tuple[float, float]:
        return (self.score, -self.score)

    def __str__(self) -> str:
        if self.winner is None:
            return f"draw ({self.reason})"
        return f"{self.winner} wins ({self.reason})"


A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)
V_co = TypeVar("V_co", covariant=True)
S = TypeVar("S", bound="Game[Any, Any]")


@runtime_checkable
class View(Protocol[A_co]):
    """What one player may know of a game, and nothing more: what players and the UI are given.

    Every game's view is a frozen value built fresh by ``Game.view``; it holds no reference to the state, so a
    player handed a view cannot reach what it may not see.
    """

    @property
    def viewer(self) -> Side:
        """The player whose view this is."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        ...

    def legal_actions(self) -> Sequence[A_co]:
        """What the viewer may play now; empty when it is not the viewer's turn (or the game is over)."""
        ...


@runtime_checkable
class Game(Protocol[A, V_co]):
    """A game state. Mutable (``apply``/``undo``), cheap to ``clone``.

    ``A`` is the type of one player's action, ``V_co`` the type of a player's view. Actions are small immutable
    values with a text form; ``parse_action`` and ``format_action`` round-trip, which is what records and typed input
    use.
    """

    #: The registry name, e.g. ``"geister"`` or ``"tcg"``; records carry it in their ``Game`` tag.
    game_name: str

    def current_player(self) -> int:
        """A ``Side``, ``SIMULTANEOUS`` or ``TERMINAL``."""
        ...

    def legal_actions(self, player: Side | None = None) -> list[A]:
        """Legal actions of ``player`` (default: the player to move). Empty for a player who is not to act."""
        ...

    def apply(self, action: A) -> None:
        """Play one action of the player to move. Raises ``IllegalMoveError`` (state unchanged) if illegal."""
        ...

    def apply_joint(self, actions: Sequence[A]) -> None:
        """Play one action per player at once (simultaneous games only)."""
        ...

    def undo(self) -> None:
        """Take back the last ``apply``/``apply_joint``. Raises ``IndexError`` when there is nothing to undo."""
        ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        ...

    def returns(self) -> tuple[float, float]:
        """Payoffs of player 1 and player 2; ``(0, 0)`` while the game goes on."""
        ...

    def view(self, player: Side) -> V_co:
        """Everything ``player`` may know and nothing more: a new immutable object, never the state itself."""
        ...

    def clone(self: S) -> S: ...

    def parse_action(self, text: str) -> Any:
        """Read an action (or, for simultaneous games, a joint round) in the notation of ``notation.md``."""
        ...

    def format_action(self, action: Any) -> str: ...

    def history(self) -> Sequence[object]:
        """Actions (or joint rounds) applied so far, oldest first; replayed on a fresh game they reproduce it."""
        ...


def joint_of(actions: Sequence[A], outcome: Outcome | None, each: str = "bid") -> tuple[A, A]:
    """A simultaneous round's two actions (player 1's, then player 2's), as ``apply_joint`` takes them; refused
    with ``IllegalMoveError`` once the game is over, or unless there are exactly two (``each``: what one is)."""
    if outcome is not None:
        raise IllegalMoveError(f"the game is over: {outcome}")
    if len(actions) != 2:
        raise IllegalMoveError(f"a round is one {each} per player, two in all, not {len(actions)}")
    return actions[0], actions[1]
