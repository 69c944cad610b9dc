"""Nim and other impartial heap games (``spec/rules.md`` section 5) as a turn-based, perfect-information ``Game``.

A *rule* says which moves a heap allows; the state is the row of heaps, the rule and the play convention:

* ``Nim()``: take any positive number of stones from one heap;
* ``Subtraction({1, 2, 3})``: take a number of stones in the set from one heap;
* ``Octal("0.77")``: a take-and-break game in octal notation (Kayles ``0.77``, Dawson's Kayles ``0.07``).
  Digit ``d_k`` (``k`` = 1, 2, ... after the point; ``d_0`` before it) says what may happen when ``k`` stones
  are taken from a heap: bit 1 -> the heap may be taken whole (no heap left), bit 2 -> the rest may be left as
  one heap, bit 4 -> the rest may be split into two non-empty heaps. ``d_0`` may only be 0 or 4 (splitting a
  heap without taking anything); a ``d_0`` with bit 2 would allow a move that changes nothing.

Players alternate, player 1 first. Normal play: a player who cannot move loses; misere: that player wins.

Text forms (``spec/notation.md``):

* heaps: ``"3,4,5"``; an emptied heap stays in the row as ``0`` so heap numbers do not shift under a player;
* a move: ``"<heap>:<take>"`` with heaps numbered from 1, e.g. ``"2:3"``: take 3 stones from heap 2 and
  leave the rest as one heap (or nothing, if all are taken);
* a move that splits: ``"<heap>:<take>/<a>+<b>"``, e.g. ``"2:1/1+3"``: take 1 stone from heap 2 and split
  the remaining 4 into heaps of 1 and 3, which take heap 2's place in that order (``1+3`` and ``3+1`` are
  both legal and give mirrored rows; ``legal_actions`` lists only ``a <= b``).
  ``parse_action`` also reads the short form ``"2:1"`` for a split when leaving one heap is not allowed and
  only one split is possible (up to order), e.g. ``"1:1"`` on a heap of 3 under rule ``0.4`` means
  ``"1:1/1+1"``. ``format_action`` always writes the split out.
* a rule: ``"nim"``, ``"{1,2,3}"`` (subtraction set), ``"0.77"`` (octal); ``parse_rule`` also knows the
  names ``kayles`` and ``dawsons-kayles``.
"""

from __future__ import annotations

import bisect
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, NotationError, clipped, quoted
from core.game import TERMINAL, Game, Outcome, Side
from core.game_type import GameType, Parameter, initial, read_tag

#: What a heap turns into after a move: nothing, one heap, or two heaps.
Parts = tuple[int, ...]

#: What the text forms accept, checked before anything is converted or built. Nothing here lists the moves of a heap
#: of a billion stones (one by one), so heap sizes, takes and subtraction values have at most 9 digits (and a
#: number of 4,300 digits is never handed to ``int``, which refuses it with a plain ValueError).
MAX_NUMBER_DIGITS = 9
#: A row of more heaps than this, or a subtraction set of more values, is no game anyone plays; a 50 MB row would be
#: split into millions of strings before anything else looked at it.
MAX_ROW = 1_000
#: Octal codes in the literature have a handful of digits; each digit is a take every heap is tried with.
MAX_OCTAL_DIGITS = 100


class HeapRule(ABC):
    """Which moves a single heap allows. Subclasses say only ``allows``; the rest follows from it."""

    @abstractmethod
    def allows(self, take: int, leaves: int) -> bool:
        """May ``take`` stones be removed leaving ``leaves`` heaps (0: none, 1: one, 2: two non-empty)?"""

    @property
    @abstractmethod
    def text(self) -> str:
        """The rule's text form, read back by ``parse_rule``."""

    @property
    def can_split(self) -> bool:
        """Whether a move may break a heap in two (a take-and-break game such as Kayles)."""
        return False

    def takes(self, size: int) -> Iterable[int]:
        """The takes ``allows`` may say yes to on a heap of ``size``, ascending: every number up to the heap here;
        the rules narrow it, so that a heap of a hundred thousand stones under ``{10000}`` is one take to try,
        not a hundred thousand."""
        return range(size + 1)

    def moves(self, size: int) -> Iterator[tuple[int, Parts]]:
        """Every move from a heap of ``size``: ``(take, parts left)``, two parts listed once with ``a <= b``."""
        for take in self.takes(size):
            rest = size - take
            if rest == 0:
                if self.allows(take, 0):
                    yield take, ()
                continue
            if self.allows(take, 1):
                yield take, (rest,)
            if rest >= 2 and self.allows(take, 2):
                for a in range(1, rest // 2 + 1):
                    yield take, (a, rest - a)

    def options(self, size: int) -> set[Parts]:
        """The heaps a heap of ``size`` can become, sorted (what a Grundy computation needs)."""
        return {parts for _, parts in self.moves(size)}


@dataclass(frozen=True)
class Nim(HeapRule):
    """Take any positive number of stones from one heap."""

    def allows(self, take: int, leaves: int) -> bool:
        return take >= 1 and leaves <= 1

    def takes(self, size: int) -> Iterable[int]:
        return range(1, size + 1)

    @property
    def text(self) -> str:
        return "nim"

    def __str__(self) -> str:
        return "Nim"


@dataclass(frozen=True)
class Subtraction(HeapRule):
    """Take ``s`` stones from one heap, for ``s`` in the subtraction set."""

    values: frozenset[int]
    #: The values ascending (``takes``).
    ordered: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __init__(self, values: Iterable[int]) -> None:
        chosen = frozenset(values)
        if not chosen or min(chosen) < 1:
            raise ValueError(f"a subtraction set holds positive numbers (at least one), not {sorted(chosen)}")
        object.__setattr__(self, "values", chosen)
        object.__setattr__(self, "ordered", tuple(sorted(chosen)))

    def allows(self, take: int, leaves: int) -> bool:
        return take in self.values and leaves <= 1

    def takes(self, size: int) -> Iterable[int]:
        return self.ordered[: bisect.bisect_right(self.ordered, size)]

    @property
    def text(self) -> str:
        return "{" + ",".join(str(v) for v in sorted(self.values)) + "}"

    def __str__(self) -> str:
        return f"subtraction game {self.text}"


_OCTAL_RE = re.compile(r"([0-7]?)\.([0-7]*)")


@dataclass(frozen=True)
class Octal(HeapRule):
    """A take-and-break game given by its octal code, e.g. ``Octal("0.77")`` (Kayles); see the module docstring."""

    code: str
    #: ``digits[k]`` is the octal digit for taking ``k`` stones (``digits[0]``: the digit before the point).
    digits: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __init__(self, code: str) -> None:
        match = _OCTAL_RE.fullmatch(code.strip())
        if match is None:
            raise NotationError(
                f"{quoted(code.strip())} is not an octal game code: expected a point then octal digits 0-7, e.g. '0.77'"
            )
        if len(match.group(2).rstrip("0")) > MAX_OCTAL_DIGITS:
            raise NotationError(f"octal code {quoted(code.strip())}: at most {MAX_OCTAL_DIGITS} digits after the point")
        first = int(match.group(1) or "0")
        if first not in (0, 4):
            raise NotationError(
                f"octal code {quoted(code.strip())}: the digit before the point may only be 0 or 4 "
                "(splitting a heap without taking stones); other bits would allow taking nothing"
            )
        digits = (first, *(int(d) for d in match.group(2).rstrip("0")))
        object.__setattr__(self, "digits", digits)
        object.__setattr__(self, "code", f"{first}." + ("".join(str(d) for d in digits[1:]) or "0"))

    def allows(self, take: int, leaves: int) -> bool:
        return 0 <= take < len(self.digits) and bool(self.digits[take] & (1 << leaves))

    def takes(self, size: int) -> Iterable[int]:
        return range(min(size, len(self.digits) - 1) + 1)

    @property
    def can_split(self) -> bool:
        return any(self.allows(take, 2) for take in range(len(self.digits)))

    @property
    def text(self) -> str:
        return self.code

    def __str__(self) -> str:
        return f"octal game {self.code}"


KAYLES = Octal("0.77")
DAWSONS_KAYLES = Octal("0.07")

_RULE_NAMES: dict[str, HeapRule] = {"nim": Nim(), "kayles": KAYLES, "dawsons-kayles": DAWSONS_KAYLES}
_SET_RE = re.compile(r"(?:s\s*=\s*)?\{([\d\s,]*)\}")


def parse_rule(text: str) -> HeapRule:
    """Read ``nim``, ``kayles``, ``dawsons-kayles``, a subtraction set ``{1,2,3}`` or an octal code ``0.77``."""
    cleaned = text.strip().lower()
    if cleaned in _RULE_NAMES:
        return _RULE_NAMES[cleaned]
    if _OCTAL_RE.fullmatch(cleaned):
        return Octal(cleaned)
    match = _SET_RE.fullmatch(cleaned)
    if match is not None:
        return parse_subtraction(match.group(1))
    raise NotationError(
        f"{quoted(text.strip())} is not a heap-game rule: expected 'nim', 'kayles', 'dawsons-kayles', "
        "a subtraction set like '{1,2,3}', or an octal code like '0.77'"
    )


_NUMBER_RE = re.compile(r"\s*\d+\s*")


def parse_subtraction(text: str) -> Subtraction:
    """Read a subtraction set without its braces, ``"1,2,3"``: one or more positive whole numbers. An empty set is
    refused, not read as Nim (``--subtraction ''`` used to play Nim without a word)."""
    numbers = text.split(",", MAX_ROW)
    if len(numbers) > MAX_ROW:
        raise NotationError(f"a subtraction set holds at most {MAX_ROW:,} numbers, not more")
    if not all(_NUMBER_RE.fullmatch(number) for number in numbers):
        raise NotationError(
            f"{quoted(text.strip())} is not a subtraction set: expected positive whole numbers separated by commas, "
            "e.g. '1,2,3'"
        )
    for number in numbers:
        if len(number.strip().lstrip("0")) > MAX_NUMBER_DIGITS:
            raise NotationError(f"a take of {clipped(number.strip())} is too large: at most {MAX_NUMBER_DIGITS} digits")
    try:
        return Subtraction(int(number) for number in numbers)
    except ValueError as error:
        raise NotationError(str(error)) from None


_MOVE_RE = re.compile(r"\s*(\d+)\s*:\s*(\d+)\s*(?:/\s*(\d+)\s*\+\s*(\d+)\s*)?")


@dataclass(frozen=True, order=True, slots=True)
class HeapMove:
    """Take ``take`` stones from heap ``index`` (0-based; the text counts from 1), maybe splitting the rest.

    ``split`` is ``None`` when the rest stays one heap (or nothing is left), else the two new heaps in the
    order they take the old heap's place.
    """

    index: int
    take: int
    split: tuple[int, int] | None = None

    @property
    def number(self) -> int:
        """The heap's number as people and the notation count: 1 for the first heap."""
        return self.index + 1

    @classmethod
    def parse(cls, text: str) -> HeapMove:
        """Read ``"2:3"`` or ``"2:1/1+3"`` without a position (``HeapGameState.parse_action`` reads short splits)."""
        match = _MOVE_RE.fullmatch(text)
        if match is None:
            raise InvalidMoveError(
                f"{quoted(text.strip())} is not a heap move: expected '<heap>:<take>' like '2:3', or "
                "'<heap>:<take>/<a>+<b>' like '2:1/1+3' to split the rest into heaps a and b"
            )
        for group in match.groups():
            if group is not None and len(group.lstrip("0")) > MAX_NUMBER_DIGITS:
                raise InvalidMoveError(
                    f"{quoted(text.strip())}: no heap or take has more than {MAX_NUMBER_DIGITS} digits"
                )
        number = int(match.group(1))
        if number < 1:
            raise InvalidMoveError(f"{quoted(text.strip())}: heaps are numbered from 1")
        split = None if match.group(3) is None else (int(match.group(3)), int(match.group(4)))
        return cls(number - 1, int(match.group(2)), split)

    def to_text(self) -> str:
        base = f"{self.number}:{self.take}"
        return base if self.split is None else f"{base}/{self.split[0]}+{self.split[1]}"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"HeapMove.parse({self.to_text()!r})"


_HEAPS_RE = re.compile(r"\s*\d+\s*(?:,\s*\d+\s*)*")


def parse_heaps(text: str) -> tuple[int, ...]:
    """Read ``"3,4,5"``: one or more heap sizes (0 allowed for an emptied heap); at most ``MAX_ROW`` heaps of at
    most ``MAX_NUMBER_DIGITS`` digits, checked before any is converted."""
    if text.count(",") >= MAX_ROW:
        raise InvalidPositionError(f"a row holds at most {MAX_ROW:,} heaps, not {text.count(',') + 1:,}")
    if _HEAPS_RE.fullmatch(text) is None:
        raise InvalidPositionError(
            f"{quoted(text.strip())} is not a row of heaps: expected heap sizes separated by commas, e.g. '3,4,5'"
        )
    parts = text.split(",")
    for part in parts:
        if len(part.strip().lstrip("0")) > MAX_NUMBER_DIGITS:
            raise InvalidPositionError(
                f"a heap of {clipped(part.strip())} stones is too large: at most {MAX_NUMBER_DIGITS} digits"
            )
    return tuple(int(part) for part in parts)


def format_heaps(heaps: Sequence[int]) -> str:
    return ",".join(str(h) for h in heaps)


@dataclass(frozen=True)
class HeapView:
    """What ``player`` knows: everything (impartial games have no hidden information)."""

    viewer: Side
    heaps: tuple[int, ...]
    rule: HeapRule
    misere: bool
    to_move: Side | None
    history: tuple[HeapMove, ...]
    outcome: Outcome | None

    def legal_actions(self) -> list[HeapMove]:
        """The viewer's moves when it is the viewer's turn."""
        return list(heap_moves(self.heaps, self.rule)) if self.to_move is self.viewer else []


def heap_moves(heaps: Sequence[int], rule: HeapRule) -> Iterator[HeapMove]:
    """Every move ``rule`` allows on ``heaps`` (splits listed once, smaller part first), heap by heap; lazily, since
    ``is_terminal`` needs only the first."""
    for index, size in enumerate(heaps):
        for take, parts in rule.moves(size):
            yield HeapMove(index, take, (parts[0], parts[1]) if len(parts) == 2 else None)


def heaps_after(heaps: Sequence[int], move: HeapMove) -> tuple[int, ...]:
    """The heaps after ``move``: a split's parts take the heap's place, and an emptied heap stays as 0 so that heap
    numbers do not shift under a player."""
    rest = heaps[move.index] - move.take
    parts = move.split if move.split is not None else (rest,)
    return (*heaps[: move.index], *parts, *heaps[move.index + 1 :])


class HeapGameState:
    """A heap game in progress: mutable, ``apply``/``undo``, cheap to ``clone``.

    ``HeapGameState((3, 4, 5))`` is Nim; ``HeapGameState.from_text("3,4,5", Subtraction({1, 2, 3}))``,
    ``HeapGameState((5,), KAYLES, misere=True)`` other games.
    """

    game_name = "nim"

    def __init__(self, heaps: Sequence[int], rule: HeapRule | None = None, misere: bool = False) -> None:
        start = tuple(int(h) for h in heaps)
        if not start:
            raise InvalidPositionError("a heap game needs at least one heap, e.g. '3,4,5'")
        if min(start) < 0:
            raise InvalidPositionError(f"heap sizes cannot be negative: {format_heaps(start)}")
        self.heaps = start
        self.rule: HeapRule = rule if rule is not None else Nim()
        self.misere = misere
        self._history: list[HeapMove] = []
        self._undo: list[tuple[int, ...]] = []

    @classmethod
    def from_text(cls, text: str, rule: HeapRule | str | None = None, misere: bool = False) -> HeapGameState:
        return cls(parse_heaps(text), parse_rule(rule) if isinstance(rule, str) else rule, misere)

    @property
    def heaps_text(self) -> str:
        return format_heaps(self.heaps)

    @property
    def to_move(self) -> Side:
        """Whose turn it is (also after the game ends: the player who could not move)."""
        return Side.P1 if len(self._history) % 2 == 0 else Side.P2

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move

    def legal_actions(self, player: Side | None = None) -> list[HeapMove]:
        if player is not None and player != self.to_move:
            return []
        return list(heap_moves(self.heaps, self.rule))

    def why_illegal(self, move: HeapMove) -> str | None:
        """Why ``move`` may not be played here, or ``None`` if it may."""
        if not 0 <= move.index < len(self.heaps):
            return f"there is no heap {move.number}: heaps are numbered 1 to {len(self.heaps)}"
        size = self.heaps[move.index]
        if move.take > size:
            return f"heap {move.number} has {size} stones: cannot take {move.take}"
        rest = size - move.take
        if move.split is None:
            leaves = 0 if rest == 0 else 1
            if not self.rule.allows(move.take, leaves):
                left = "nothing" if rest == 0 else f"a heap of {rest}"
                return f"the {self.rule} does not allow taking {move.take} from heap {move.number} leaving {left}"
            return None
        a, b = move.split
        if a < 1 or b < 1 or a + b != rest:
            return f"the {rest} stones left must split into two non-empty heaps, not {a}+{b}"
        if not self.rule.allows(move.take, 2):
            return f"the {self.rule} does not allow taking {move.take} and splitting the rest in two"
        return None

    def apply(self, action: HeapMove) -> None:
        if self.is_terminal():
            raise IllegalMoveError(f"the game is over: {self.outcome()}")
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalMoveError(f"{action.to_text()} is illegal: {reason}")
        self._undo.append(self.heaps)
        self._history.append(action)
        self.heaps = heaps_after(self.heaps, action)

    def apply_joint(self, actions: Sequence[HeapMove]) -> None:
        raise IllegalMoveError("heap games are turn-based: play one move at a time with apply(move)")

    def undo(self) -> None:
        if not self._undo:
            raise IndexError("nothing to undo: no move has been played")
        self.heaps = self._undo.pop()
        self._history.pop()

    def is_terminal(self) -> bool:
        return next(heap_moves(self.heaps, self.rule), None) is None

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        stuck = self.to_move
        if self.misere:
            return Outcome.win(stuck, f"{stuck} cannot move (misere play: whoever cannot move wins)")
        return Outcome.win(stuck.other, f"{stuck} cannot move (normal play: whoever cannot move loses)")

    def returns(self) -> tuple[float, float]:
        outcome = self.outcome()
        return outcome.returns() if outcome is not None else (0.0, 0.0)

    def view(self, player: Side) -> HeapView:
        outcome = self.outcome()
        to_move = None if outcome is not None else self.to_move
        return HeapView(player, self.heaps, self.rule, self.misere, to_move, tuple(self._history), outcome)

    def clone(self) -> HeapGameState:
        other = HeapGameState.__new__(HeapGameState)
        other.heaps, other.rule, other.misere = self.heaps, self.rule, self.misere
        other._history = list(self._history)
        other._undo = list(self._undo)
        return other

    def parse_action(self, text: str) -> HeapMove:
        """Read a move; a short ``heap:take`` that can only mean one split is read as that split."""
        move = HeapMove.parse(text)
        if move.split is None and self.why_illegal(move) is not None and 0 <= move.index < len(self.heaps):
            # The splits this take allows are counted from the heap alone (every move of every heap listed to find
            # them was millions of moves on a record's big heaps): the rest into a + b, 1 <= a <= b.
            rest = self.heaps[move.index] - move.take
            count = rest // 2 if rest >= 2 and self.rule.allows(move.take, 2) else 0
            splits = [HeapMove(move.index, move.take, (a, rest - a)) for a in range(1, min(count, 4) + 1)]
            if count == 1:
                return splits[0]
            if splits:
                choices = " or ".join(m.to_text() for m in splits) + (" or ..." if count > 4 else "")
                raise InvalidMoveError(f"{clipped(text.strip())!r} must say how the rest splits: write {choices}")
        return move

    def format_action(self, action: HeapMove) -> str:
        return action.to_text()

    def history(self) -> list[HeapMove]:
        return list(self._history)

    def __repr__(self) -> str:
        kind = ", misere=True" if self.misere else ""
        return f"HeapGameState.from_text({self.heaps_text!r}, {self.rule.text!r}{kind})"


# ------------------------------------------------------------------------------------------------ the descriptor


def _parse_yes_no(text: str) -> bool:
    if text not in ("yes", "no"):
        raise NotationError(f'misere play is "yes" or "no", not {clipped(quoted(text))}')
    return text == "yes"


HEAPS_PARAMETER = Parameter(
    "heaps",
    (3, 4, 5),
    "stones per heap, e.g. 3,4,5 (the default)",
    parse_heaps,
    format_heaps,
    metavar="HEAPS",
    in_position=True,
)
RULE_PARAMETER = Parameter(
    "rule",
    _RULE_NAMES["nim"],
    "nim (default), kayles, dawsons-kayles, a subtraction set like {1,2,3}, or an octal code like 0.77",
    parse_rule,
    lambda rule: str(rule.text),
    tag="Rule",
)
MISERE_PARAMETER = Parameter(
    "misere",
    False,
    "misere play: whoever takes the last stone loses",
    _parse_yes_no,
    lambda on: "yes" if on else "no",
    tag="Misere",
    kind="flag",
)


#: Limits of a position the players are asked to play (the app, the arena): the rows must fit the screen, and the
#: advice's exact search (misere play of take-and-break games, the longest losing line) must stay under about a
#: second and a half.
MAX_PLAYED_HEAPS = 8
MAX_PLAYED_HEAP = 40
MAX_SPLIT_STONES = 30


def check_played(heaps: Sequence[int], rule: HeapRule) -> None:
    """Whether the players will play these heaps (not too many, not too big, something to take); else
    ``InvalidPositionError`` says why."""
    if not any(heaps):
        raise InvalidPositionError("there must be at least one stone to take")
    if len(heaps) > MAX_PLAYED_HEAPS:
        raise InvalidPositionError(f"at most {MAX_PLAYED_HEAPS} heaps fit on the screen, not {len(heaps)}")
    if max(heaps) > MAX_PLAYED_HEAP:
        raise InvalidPositionError(f"a heap may hold at most {MAX_PLAYED_HEAP} stones, not {max(heaps)}")
    if rule.can_split and sum(heaps) > MAX_SPLIT_STONES:
        raise InvalidPositionError(
            f"take-and-break games are played here with at most {MAX_SPLIT_STONES} stones in all "
            f"(the advice's exact search grows fast), not {sum(heaps)}"
        )


#: What a record of a heap game may hold: the most that any command takes (``analyse nim`` and ``review``, whose
#: Sprague-Grundy solver is bounded by ``solvers.grundy_limits``' ``MAX_HEAPS``, ``MAX_HEAP`` and ``MAX_TAKE``; the
#: app and the arena play far less, ``MAX_PLAYED_HEAP``), so that a record one command reads, every reader reads.
#: Checked on the tags before a state is built: a heap of a billion under ``{999999999}`` made a replay look at a
#: billion takes, one at a time, for every state.
MAX_RECORDED_HEAPS = 100
MAX_RECORDED_HEAP = 100_000
MAX_RECORDED_TAKE = 10_000


def largest_take(rule: HeapRule) -> int:
    """The most stones ``rule`` takes at once (a heap's size for Nim: no bound of its own, so 0 here)."""
    if isinstance(rule, Subtraction):
        return max(rule.values)
    if isinstance(rule, Octal):
        return len(rule.digits) - 1
    return 0


def check_recorded(heaps: Sequence[int], rule: HeapRule) -> None:
    """Whether a record may hold these heaps and this rule (``MAX_RECORDED_HEAPS``...); else
    ``InvalidPositionError`` says which bound they pass."""
    if len(heaps) > MAX_RECORDED_HEAPS:
        raise InvalidPositionError(f"a record holds at most {MAX_RECORDED_HEAPS} heaps, not {len(heaps):,}")
    if heaps and max(heaps) > MAX_RECORDED_HEAP:
        raise InvalidPositionError(f"a record's heaps hold at most {MAX_RECORDED_HEAP:,} stones, not {max(heaps):,}")
    if largest_take(rule) > MAX_RECORDED_TAKE:
        raise InvalidPositionError(
            f"a record's rule takes at most {MAX_RECORDED_TAKE:,} stones at once, not {largest_take(rule):,}"
        )


def _heaps(state: Game[Any, Any]) -> HeapGameState:
    assert isinstance(state, HeapGameState), state
    return state


def _nim_from_tags(tags: Mapping[str, str]) -> HeapGameState:
    misere = read_tag(tags, MISERE_PARAMETER)
    start = tags.get("Start")
    if start is None:
        raise NotationError('a Nim record needs its heaps: [Start "3,4,5"]')
    heaps, rule = parse_heaps(start), read_tag(tags, RULE_PARAMETER)
    check_recorded(heaps, rule)  # before any state is built from them
    return HeapGameState(heaps, rule, misere)


def _nim_label(tags: Mapping[str, str]) -> str:
    rule = tags.get("Rule", "nim")
    name = "Nim" if rule == "nim" else f"Heaps {clipped(rule, 20)}"
    return name + (" misere" if tags.get("Misere") == "yes" else "")


GAME_TYPES = (
    GameType(
        "nim",
        "Nim and impartial games",
        "impartial",
        "nim",
        "Nim, subtraction games, Kayles: take stones",
        new_state=HeapGameState,
        start_tags=lambda state: {"Start": _heaps(initial(state)).heaps_text},
        from_tags=_nim_from_tags,
        adviser="solvers.advice.nim:from_request",
        reviewer="solvers.review.nim:review",
        review_check="solvers.review.nim:beyond_limits",
        parameters=(HEAPS_PARAMETER, RULE_PARAMETER, MISERE_PARAMETER),
        # A ply is one player's turn: "2 moves" once read as a move of each player (tests/test_app_nim.py).
        units=("ply", "plies"),
        state_name="heaps",
        check_playable=lambda values: check_played(values["heaps"], values["rule"]),
        check_recorded=lambda values: check_recorded(values["heaps"], values["rule"]),
        playable_parameter="heaps",
        position_metavar="HEAPS",
        position_help="heap sizes, e.g. 3,4,5",
        advice_summary="the Sprague-Grundy verdict for the player to move: every winning move, or the longest "
        "resistance.",
        values_of=lambda state: {"rule": _heaps(state).rule, "misere": _heaps(state).misere},
        state_text=lambda state: _heaps(state).heaps_text,
        label=_nim_label,
        lines="solvers.lines.nim:nim_from_values",
    ),
)
