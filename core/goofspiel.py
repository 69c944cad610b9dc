"""Goofspiel, the game of pure strategy (OpenSpiel's ``goofspiel``), as a simultaneous-move ``Game``.

Each player holds the cards ``1..N``; the prizes ``1..N`` lie shuffled face down. Each round the top prize is turned
up and both players bid one card of their hand at once: the higher bid takes the prize's points, equal bids leave
them to nobody, and both bid cards are discarded. After ``N`` rounds the player with more points wins: the returns
are +1 / 0 / -1 (OpenSpiel's ``win_loss`` returns), whatever the margin.

Chance is the deck order only, and it is fixed when a state is created (``seed=`` or an explicit ``deck=``), so a
state always has its prize turned up: ``current_player()`` is ``SIMULTANEOUS`` until the hands are empty. The state
knows the order of the prizes still face down; a player's ``view`` does not: it shows them as a set, with the prize
turned up now, both hands, both scores and the rounds played.

Text forms (the product's):

* a round is ``"<bid1>:<bid2>"``, e.g. ``"3:5"`` (``"35"`` is read too: every card is one digit);
* a position is ``HAND1/HAND2/PRIZES/UP/DIFF``, e.g. ``"235/145/24/3/+1"``: the cards left in player 1's and player
  2's hands (this round's bid included), the prizes still face down (``-`` for none), the prize turned up now, and
  player 1's points minus player 2's. Hands and prizes are written as ascending digits. DIFF always carries a sign:
  ``+1``, ``-3``, and ``+0`` for a level score (what ``f"{diff:+d}"`` writes, so the field has one shape);
  ``0`` and ``-0`` are read too. A finished game is ``-/-/-/-/+2``: empty hands, no deck, nothing turned up.

A position does not fix ``N``: the same text can be a position of a 5-card or of a 9-card game (the prizes already
played, and so which differences are possible, depend on it). Parsers take ``cards`` (``N``, default 5).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, NotationError, clipped, quoted
from core.game import SIMULTANEOUS, TERMINAL, Game, Outcome, Side, joint_of
from core.game_type import GameType, Parameter, initial, read_tag, whole_number_parser

__all__ = [
    "DEFAULT_CARDS",
    "MAX_CARDS",
    "GoofspielPosition",
    "GoofspielRound",
    "GoofspielState",
    "GoofspielView",
    "PlayedRound",
    "check_cards",
    "parse_position",
    "revealed_deck",
    "round_winner",
]

#: The standard game (OpenSpiel's default ``num_cards`` is 13; 5 keeps the exact solution instant).
DEFAULT_CARDS = 5
#: Every card is one digit in the text forms, so ``N`` stops at 9.
MAX_CARDS = 9

#: A round as it is applied: player 1's bid, then player 2's.
GoofspielRound = tuple[int, int]

_ROUND_RE = re.compile(r"\s*(\d+)\s*:\s*(\d+)\s*|\s*(\d)(\d)\s*")
_DIFF_RE = re.compile(r"[+-]?\d+")
_POSITION_HELP = "HAND1/HAND2/PRIZES/UP/DIFF, e.g. '235/145/24/3/+1'"


def check_cards(cards: int) -> int:
    """``cards`` (``N``) if it is a number of cards the game and its notation support, else a clear error."""
    if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= MAX_CARDS:
        raise ValueError(f"cards (N) runs from 1 to {MAX_CARDS} (one digit per card in the notation), not {cards!r}")
    return cards


def round_winner(prize_bids: GoofspielRound) -> Side | None:
    """Who takes the prize for these bids (``None`` on a tie): the whole rule of a round, without any state."""
    bid1, bid2 = prize_bids
    if bid1 == bid2:
        return None
    return Side.P1 if bid1 > bid2 else Side.P2


def _digits(cards: Iterable[int]) -> str:
    """Ascending digits, or ``-`` for none: how hands and the deck are written."""
    text = "".join(str(card) for card in sorted(cards))
    return text or "-"


def _listed(cards: Iterable[int]) -> str:
    """Cards for a message: ``1, 3 and 5``; ``none``."""
    ordered = [str(card) for card in sorted(cards)]
    if not ordered:
        return "none"
    return ordered[0] if len(ordered) == 1 else f"{', '.join(ordered[:-1])} and {ordered[-1]}"


def _signed_sums(prizes: Iterable[int]) -> set[int]:
    """Every difference the given prizes can make: each went to player 1 (+p), to player 2 (-p) or to nobody."""
    sums = {0}
    for prize in prizes:
        sums = {total + step for total in sums for step in (prize, 0, -prize)}
    return sums


@dataclass(frozen=True)
class GoofspielPosition:
    """Everything the rules need from now on: both hands, the prizes face down (a set: their order is chance),
    the prize turned up now (``None`` once the game is over) and player 1's points minus player 2's.

    Only the difference is kept because only it decides the game (the returns are win/loss), which is also what
    lets a solver share one table between scores. Every position built is valid for its ``cards``: the hands are
    subsets of ``1..N`` of equal size, one card more than the prizes face down, the prize turned up is not in the
    deck, and some sharing of the prizes already played gives the difference. (Whether the bids already played
    could have fallen that way is not checked: the position does not record them.) Sets given as ``set`` or
    ``tuple`` are stored as ``frozenset``.
    """

    hand1: frozenset[int]
    hand2: frozenset[int]
    prizes: frozenset[int]
    up: int | None
    diff: int = 0
    cards: int = DEFAULT_CARDS

    def __post_init__(self) -> None:
        for name in ("hand1", "hand2", "prizes"):
            object.__setattr__(self, name, frozenset(getattr(self, name)))
        self._check()

    @classmethod
    def start(cls, cards: int = DEFAULT_CARDS, up: int | None = None) -> GoofspielPosition:
        """The first round of an ``N``-card game with ``up`` turned up (default: the highest prize, ``N``)."""
        check_cards(cards)
        first = cards if up is None else up
        everything = frozenset(range(1, cards + 1))
        return cls(everything, everything, everything - {first}, first, 0, cards)

    @classmethod
    def from_text(cls, text: str, cards: int = DEFAULT_CARDS) -> GoofspielPosition:
        return parse_position(text, cards)

    @property
    def text(self) -> str:
        up = "-" if self.up is None else str(self.up)
        return f"{_digits(self.hand1)}/{_digits(self.hand2)}/{_digits(self.prizes)}/{up}/{self.diff:+d}"

    def hand(self, side: Side) -> frozenset[int]:
        return self.hand2 if side is Side.P2 else self.hand1

    @property
    def rounds_left(self) -> int:
        """Rounds still to play, this one included."""
        return len(self.hand1)

    @property
    def is_over(self) -> bool:
        return self.up is None

    @property
    def played_prizes(self) -> frozenset[int]:
        """The prizes of the rounds already played (in ``1..N``, neither face down nor turned up)."""
        return frozenset(range(1, self.cards + 1)) - self.prizes - {self.up}

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        if not self.is_over:
            return None
        if self.diff == 0:
            return Outcome.draw("both finished on the same points")
        leader = Side.P1 if self.diff > 0 else Side.P2
        lead = abs(self.diff)
        return Outcome.win(leader, f"{leader} finished {lead} point{'' if lead == 1 else 's'} ahead")

    def _check(self) -> None:
        check_cards(self.cards)
        n = self.cards
        for what, cards in (
            ("player 1's hand", self.hand1),
            ("player 2's hand", self.hand2),
            ("the deck", self.prizes),
        ):
            for card in cards:
                if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= n:
                    raise InvalidPositionError(f"{what} holds {card!r}: cards run from 1 to N = {n}")
        if len(self.hand1) != len(self.hand2):
            raise InvalidPositionError(
                f"both hands hold the same number of cards: player 1 has {len(self.hand1)}, player 2 {len(self.hand2)}"
            )
        if self.up is None:
            if self.hand1 or self.prizes:
                raise InvalidPositionError(
                    "no prize is turned up only when the game is over: the hands and the deck must then be empty"
                )
        else:
            if isinstance(self.up, bool) or not isinstance(self.up, int) or not 1 <= self.up <= n:
                raise InvalidPositionError(f"the prize turned up is {self.up!r}: prizes run from 1 to N = {n}")
            if self.up in self.prizes:
                raise InvalidPositionError(f"the prize turned up ({self.up}) cannot also be face down in the deck")
            if len(self.hand1) != len(self.prizes) + 1:
                raise InvalidPositionError(
                    f"each hand must hold one card more than the {len(self.prizes)} prizes face down (this round's "
                    f"bid), so {len(self.prizes) + 1}, not {len(self.hand1)}"
                )
        if isinstance(self.diff, bool) or not isinstance(self.diff, int):
            raise InvalidPositionError(f"the difference of points is a whole number, not {self.diff!r}")
        played = self.played_prizes
        if self.diff not in _signed_sums(played):
            raise InvalidPositionError(
                f"no sharing of the prizes already played ({_listed(played)}) gives player 1 a difference of "
                f"{self.diff:+d} with N = {n}"
            )

    def __repr__(self) -> str:
        return f"GoofspielPosition.from_text({self.text!r}, cards={self.cards})"


def _parse_cards(text: str, what: str, cards: int) -> frozenset[int]:
    if text == "-":
        return frozenset()
    if not text or not text.isascii() or not text.isdigit():
        raise InvalidPositionError(f"{what} {quoted(text)} must be digits, or '-' for none")
    seen: set[int] = set()
    for char in text:
        card = int(char)
        if card in seen:
            raise InvalidPositionError(f"{what} {quoted(text)} repeats the {card}: every card is there once")
        if not 1 <= card <= cards:
            raise InvalidPositionError(f"{what} {quoted(text)} has a {card}: cards run from 1 to N = {cards}")
        seen.add(card)
    return frozenset(seen)


def parse_position(text: str, cards: int = DEFAULT_CARDS) -> GoofspielPosition:
    """Read ``HAND1/HAND2/PRIZES/UP/DIFF`` for an ``N = cards`` game; one clear line for every way it can be wrong."""
    check_cards(cards)
    fields = text.strip().split("/")
    if len(fields) != 5:
        raise InvalidPositionError(
            f"{quoted(text.strip())} is not a Goofspiel position: expected five fields {_POSITION_HELP}"
        )
    hand1_text, hand2_text, prizes_text, up_text, diff_text = fields
    hand1 = _parse_cards(hand1_text, "player 1's hand", cards)
    hand2 = _parse_cards(hand2_text, "player 2's hand", cards)
    prizes = _parse_cards(prizes_text, "the deck", cards)
    if up_text == "-":
        up: int | None = None
    elif len(up_text) == 1 and up_text.isdigit() and 1 <= int(up_text) <= cards:
        up = int(up_text)
    else:
        raise InvalidPositionError(
            f"the prize turned up {quoted(up_text)} must be one card from 1 to N = {cards}, "
            "or '-' once the game is over"
        )
    if _DIFF_RE.fullmatch(diff_text) is None:
        raise InvalidPositionError(
            f"the difference {quoted(diff_text)} must be player 1's points minus player 2's, like '+1', '-3' or '+0'"
        )
    # No difference reaches three digits (45 at most): refused before converting a digit bomb.
    if len(diff_text.lstrip("+-").lstrip("0")) > 2:
        raise InvalidPositionError(f"the difference {quoted(diff_text)} is more points than all the prizes hold")
    return GoofspielPosition(hand1, hand2, prizes, up, int(diff_text), cards)


@dataclass(frozen=True)
class PlayedRound:
    """A round played: the prize turned up and both bids (all public once the round is over)."""

    prize: int
    bid1: int
    bid2: int

    @property
    def bids(self) -> GoofspielRound:
        return (self.bid1, self.bid2)

    def bid(self, side: Side) -> int:
        return self.bid2 if side is Side.P2 else self.bid1

    @property
    def winner(self) -> Side | None:
        return round_winner(self.bids)

    @property
    def change(self) -> int:
        """What the round did to the difference (player 1's points minus player 2's)."""
        winner = self.winner
        if winner is None:
            return 0
        return self.prize if winner is Side.P1 else -self.prize

    def __str__(self) -> str:
        return f"{self.prize}: {self.bid1}:{self.bid2}"


@dataclass(frozen=True)
class GoofspielView:
    """What ``viewer`` may know: both hands, both scores, the rounds played, the prize turned up now and the prizes
    still face down *as a set*. The order of the deck is not in it, so two deals that differ only in the order of the
    prizes still face down give equal views."""

    viewer: Side
    cards: int
    hands: tuple[frozenset[int], frozenset[int]]
    prizes: frozenset[int]
    up: int | None
    points: tuple[int, int]
    rounds: tuple[PlayedRound, ...]
    outcome: Outcome | None = field(default=None)

    @property
    def own_hand(self) -> frozenset[int]:
        return self.hands[self.viewer]

    @property
    def opponent_hand(self) -> frozenset[int]:
        return self.hands[self.viewer.other]

    @property
    def diff(self) -> int:
        """Player 1's points minus player 2's."""
        return self.points[0] - self.points[1]

    @property
    def position(self) -> GoofspielPosition:
        return GoofspielPosition(self.hands[0], self.hands[1], self.prizes, self.up, self.diff, self.cards)

    def legal_actions(self) -> list[int]:
        """The viewer's cards, ascending (both players bid in every round until the game ends)."""
        return [] if self.outcome is not None else sorted(self.own_hand)


class GoofspielState:
    """A Goofspiel game in progress: mutable, ``apply_joint``/``undo``, cheap to ``clone``.

    ``GoofspielState(5, seed=7)`` deals a shuffled deck from the seed; ``deck=(3, 1, 5, 2, 4)`` gives the order the
    prizes are turned up (the first is up now); with neither the deck is shuffled from fresh randomness.
    ``position=`` (or ``from_text``) starts from a position: then ``deck`` is the order from the prize turned up now
    on, and a seed only orders the prizes face down. A position keeps only the difference of points, so the
    scores it starts from are ``points=`` if given, else the leader's lead against nothing (``+3`` is 3 to 0).
    """

    game_name = "goofspiel"

    def __init__(
        self,
        cards: int = DEFAULT_CARDS,
        *,
        seed: int | None = None,
        deck: Sequence[int] | None = None,
        position: GoofspielPosition | None = None,
        points: tuple[int, int] | None = None,
        known: int | None = None,
    ) -> None:
        """``known``: how many prizes of ``deck`` are really known (a record of a game in progress keeps only those
        turned up; the rest of ``deck`` is an order made up to fill it): a round past them is refused."""
        check_cards(cards)
        start = GoofspielPosition.start(cards) if position is None else position
        if start.cards != cards:
            raise ValueError(f"the position is one of an N = {start.cards} game, not of N = {cards}")
        self.cards = cards
        self._deck = _deal(start, seed, deck, position is None)
        self._known = len(self._deck) if known is None else known
        self._points = _start_points(start, points)
        self._hands: tuple[frozenset[int], frozenset[int]] = (start.hand1, start.hand2)
        self._history: list[GoofspielRound] = []
        self._undo: list[tuple[tuple[frozenset[int], frozenset[int]], tuple[int, int]]] = []

    @classmethod
    def from_text(
        cls, text: str, cards: int = DEFAULT_CARDS, *, seed: int | None = None, deck: Sequence[int] | None = None
    ) -> GoofspielState:
        return cls(cards, seed=seed, deck=deck, position=parse_position(text, cards))

    # ------------------------------------------------------------------------------------------------ what is known

    @property
    def deck(self) -> tuple[int, ...]:
        """The order the prizes are turned up in from this state's start (hidden from the players: records need it)."""
        return self._deck

    @property
    def up(self) -> int | None:
        """The prize turned up now, ``None`` once the game is over."""
        played = len(self._history)
        return self._deck[played] if played < len(self._deck) else None

    @property
    def prizes(self) -> frozenset[int]:
        """The prizes still face down, as a set (what the players know of them)."""
        return frozenset(self._deck[len(self._history) + 1 :])

    @property
    def points(self) -> tuple[int, int]:
        return self._points

    @property
    def diff(self) -> int:
        return self._points[0] - self._points[1]

    def hand(self, side: Side) -> frozenset[int]:
        return self._hands[side]

    @property
    def position(self) -> GoofspielPosition:
        return GoofspielPosition(self._hands[0], self._hands[1], self.prizes, self.up, self.diff, self.cards)

    @property
    def state_text(self) -> str:
        return self.position.text

    def rounds(self) -> tuple[PlayedRound, ...]:
        """The rounds played, with their prizes (the prize of round i is the i-th card of ``deck``)."""
        return tuple(PlayedRound(self._deck[i], b1, b2) for i, (b1, b2) in enumerate(self._history))

    # ------------------------------------------------------------------------------------------------ the protocol

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else SIMULTANEOUS

    def legal_actions(self, player: Side | None = None) -> list[int]:
        """``player``'s cards, ascending; none once the game is over."""
        if self.is_terminal():
            return []
        if player is None:
            # Both players act and their hands differ, so a default player would be a silent bug.
            raise ValueError("Goofspiel is simultaneous: ask for a player's bids, legal_actions(Side.P1) or (Side.P2)")
        return sorted(self._hands[player])

    def apply(self, action: int) -> None:
        raise IllegalMoveError(
            "Goofspiel is simultaneous: play both bids at once with apply_joint((bid1, bid2)), "
            "e.g. apply_joint(state.parse_action('3:5'))"
        )

    def apply_joint(self, actions: Sequence[int]) -> None:
        """Play a round: player 1's bid, then player 2's. Refused (state unchanged) unless both are in hand."""
        bids = joint_of(actions, self.outcome())
        for side in Side:
            bid, hand = bids[side], self._hands[side]
            if isinstance(bid, bool) or not isinstance(bid, int):
                raise IllegalMoveError(f"{side}'s bid must be a card (a whole number), not {bid!r}")
            if bid not in hand:
                raise IllegalMoveError(f"{side} cannot bid {bid}: their hand is {_listed(hand)}")
        up = self.up
        assert up is not None  # the game is not over
        if len(self._history) >= self._known:
            raise IllegalMoveError(
                f"round {len(self._history) + 1} was played for a prize the record does not say (its Deck stops at "
                f"{self._known} prizes)"
            )
        self._undo.append((self._hands, self._points))
        self._history.append(bids)
        self._hands = (self._hands[0] - {bids[0]}, self._hands[1] - {bids[1]})
        winner = round_winner(bids)
        if winner is Side.P1:
            self._points = (self._points[0] + up, self._points[1])
        elif winner is Side.P2:
            self._points = (self._points[0], self._points[1] + up)

    def undo(self) -> None:
        if not self._undo:
            raise IndexError("nothing to undo: no round has been played")
        self._hands, self._points = self._undo.pop()
        self._history.pop()

    def is_terminal(self) -> bool:
        return not self._hands[0]

    def outcome(self) -> Outcome | None:
        # Derived from the hands and points, so undo and clone never have to keep it in step.
        if not self.is_terminal():
            return None
        return self.position.outcome()

    def returns(self) -> tuple[float, float]:
        outcome = self.outcome()
        return outcome.returns() if outcome is not None else (0.0, 0.0)

    def view(self, player: Side) -> GoofspielView:
        return GoofspielView(
            player, self.cards, self._hands, self.prizes, self.up, self._points, self.rounds(), self.outcome()
        )

    def clone(self) -> GoofspielState:
        other = GoofspielState.__new__(GoofspielState)
        other.cards, other._deck, other._points, other._hands = self.cards, self._deck, self._points, self._hands
        other._known = self._known
        other._history = list(self._history)
        other._undo = list(self._undo)
        return other

    def parse_action(self, text: str) -> GoofspielRound:
        """Read a round ``"<bid1>:<bid2>"`` (or ``"35"``); whether the cards are in hand is for ``apply_joint``."""
        match = _ROUND_RE.fullmatch(text)
        if match is None:
            raise InvalidMoveError(
                f"{quoted(text.strip())} is not a Goofspiel round: expected '<bid1>:<bid2>', player 1's card then "
                "player 2's, e.g. '3:5'"
            )
        first, second = (match.group(1), match.group(2)) if match.group(1) is not None else match.group(3, 4)
        for bid in (first, second):
            if len(bid.lstrip("0")) > 1 or not 1 <= int(bid) <= self.cards:
                raise IllegalMoveError(f"nobody can bid {quoted(bid)}: cards run from 1 to N = {self.cards}")
        return (int(first), int(second))

    def format_action(self, action: GoofspielRound | int) -> str:
        """A round as ``"3:5"``; a single bid as its card."""
        if isinstance(action, int):
            return str(action)
        return f"{action[0]}:{action[1]}"

    def history(self) -> list[GoofspielRound]:
        return list(self._history)

    def __repr__(self) -> str:
        # The deck order is not in the position text (it is hidden information), so this is not round-trippable.
        return f"<GoofspielState cards={self.cards} position={self.state_text} rounds played={len(self._history)}>"


def _deal(start: GoofspielPosition, seed: int | None, deck: Sequence[int] | None, fresh: bool) -> tuple[int, ...]:
    """The order of the prizes from ``start`` on: ``deck`` checked, or the prizes face down shuffled by ``seed``."""
    if seed is not None and deck is not None:
        raise ValueError("give either a deck order or a seed to shuffle one, not both")
    if start.up is None:
        if deck:
            raise InvalidPositionError("the game is over: there is no deck left to order")
        return ()
    if deck is not None:
        order = tuple(deck)
        wanted = start.prizes | {start.up}
        valid = sorted(order) == sorted(wanted) and all(isinstance(p, int) for p in order)
        if fresh and not valid:
            raise InvalidPositionError(
                f"the deck must hold the prizes 1 to {start.cards} once each, in the order they are turned up; "
                f"got {order}"
            )
        if not fresh and not (valid and order[0] == start.up):
            raise InvalidPositionError(
                f"the deck must start with the prize turned up ({start.up}) and then hold the prizes face down "
                f"({_listed(start.prizes)}) once each; got {order}"
            )
        return order
    rng = random.Random(seed)
    if fresh:
        order_list = list(range(1, start.cards + 1))
        rng.shuffle(order_list)
        return tuple(order_list)
    rest = sorted(start.prizes)
    rng.shuffle(rest)
    return (start.up, *rest)


def _start_points(start: GoofspielPosition, points: tuple[int, int] | None) -> tuple[int, int]:
    if points is None:
        return (max(start.diff, 0), max(-start.diff, 0))
    p1, p2 = points
    won = sum(start.played_prizes)
    if p1 < 0 or p2 < 0 or p1 - p2 != start.diff or p1 + p2 > won:
        raise InvalidPositionError(
            f"points {p1} and {p2} do not fit the position: they differ by {start.diff:+d} and share at most the "
            f"{won} points of the prizes already played"
        )
    return (p1, p2)


# ------------------------------------------------------------------------------------------------ the descriptor

#: The most cards the commands and the app play: the whole game solves in 31 s at 8 (from cold tables, with both
#: cores busy; ``python -m solvers.goofspiel 8``), and about ten times as long, with a gigabyte or more, at 9.
MAX_SOLVED_CARDS = 8
CARDS_PARAMETER = Parameter(
    "cards",
    DEFAULT_CARDS,
    f"cards in each hand (1..N) and prizes, 1..{MAX_SOLVED_CARDS} (default {DEFAULT_CARDS})",
    whole_number_parser("cards (N)", 1, MAX_CARDS),
    tag="Cards",
    kind="whole",
    limits=(1, MAX_SOLVED_CARDS),
    metavar="N",
)


def _goofspiel(state: Game[Any, Any]) -> GoofspielState:
    assert isinstance(state, GoofspielState), state
    return state


def _parse_deck(text: str, cards: int) -> tuple[int, ...]:
    if text == "":
        return ()  # a game that started over: no prize left to turn up
    if not (text.isascii() and text.isdigit()) or len(text) > cards:
        raise NotationError(
            f"a deck is the prizes in the order they are turned up, e.g. '31524', not {clipped(quoted(text))}"
        )
    return tuple(int(digit) for digit in text)


def _goofspiel_from_tags(tags: Mapping[str, str]) -> GoofspielState:
    """A record keeps the order the prizes came up in (``Deck``): the bids alone do not say who took what. A game
    in progress keeps only the prizes turned up so far (the order of the rest would foretell the game): the others
    follow in ascending order, an order the record does not claim to know."""
    cards = read_tag(tags, CARDS_PARAMETER)
    if "Deck" not in tags:
        raise NotationError('a Goofspiel record needs the order its prizes came up in: [Deck "31524"]')
    deck = _parse_deck(tags["Deck"], cards)
    start = tags.get("Start")
    if start is None:
        return GoofspielState(cards, deck=_completed(deck, set(range(1, cards + 1))), known=len(deck))
    position = parse_position(start, cards)
    if position.up is None:
        return GoofspielState(cards, position=position, deck=deck)
    prizes = position.prizes | {position.up}
    return GoofspielState(cards, position=position, deck=_completed(deck, prizes), known=len(deck))


def _completed(deck: tuple[int, ...], prizes: set[int] | frozenset[int]) -> tuple[int, ...]:
    """``deck`` followed by the prizes it lacks, ascending (a deck that repeats a prize stays invalid: too long)."""
    return (*deck, *sorted(set(prizes) - set(deck)))


def revealed_deck(state: GoofspielState) -> str:
    """The ``Deck`` tag of a game in progress: the prizes turned up so far, the one up now included."""
    shown = len(state.history()) + (0 if state.up is None else 1)
    return "".join(str(prize) for prize in state.deck[:shown])


def _goofspiel_start_tags(state: Game[Any, Any]) -> dict[str, str]:
    start = _goofspiel(initial(state))
    return {"Start": start.state_text, "Deck": "".join(str(prize) for prize in start.deck)}


GAME_TYPES = (
    GameType(
        "goofspiel",
        "Goofspiel",
        "simultaneous",
        "goofspiel",
        "bid cards 1..N at once for prizes turned up one by one",
        new_state=GoofspielState,
        start_tags=_goofspiel_start_tags,
        from_tags=_goofspiel_from_tags,
        parameters=(CARDS_PARAMETER,),
        units=("round", "rounds"),
        state_name="position",
        position_metavar="HAND1/HAND2/PRIZES/UP/DIFF",
        position_help="the cards left in each hand, the prizes face down (- for none), the prize turned up and player "
        "1's lead, e.g. 235/145/24/3/+1",
        advice_summary="both players' bids in the exact equilibrium (the prizes still to come drawn at random), and "
        "the value for player 1 (or --for 2).",
        deals=True,
        adviser="solvers.advice.goofspiel:from_request",
        reviewer="solvers.review.goofspiel:review",
        values_of=lambda state: {"cards": _goofspiel(state).cards},
        state_text=lambda state: _goofspiel(state).state_text,
        lines="solvers.lines.simultaneous:goofspiel_from_values",
        in_progress_tags=lambda state: {"Deck": revealed_deck(_goofspiel(state))},
        line_draws=True,
    ),
)
