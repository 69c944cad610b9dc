"""What a game is, said once: its descriptor (OpenSpiel's ``GameType``).

Each game's own module describes it with a ``GameType`` (its ``GAME_TYPES``); ``core.games`` lists those modules
(the one entry a new game adds) and is where everything else looks games up. A descriptor says what people read about
the game (name, title, kind, summary), its parameters (``Parameter``: default, help, how a command-line value or a
record tag is read and written), how a game starts from them, and how its records are written and read, so that no
code outside a game's modules needs to know which game it holds.

Nothing here imports a game: the game modules import this one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from core.errors import NotationError, clipped, quoted
from core.game import Game, Outcome

__all__ = [
    "MAX_SEED",
    "GameType",
    "Kind",
    "Parameter",
    "UnknownGameError",
    "initial",
    "read_tag",
    "resolve",
    "whole_number_parser",
]

#: ``board``: a turn-based board game with hidden colours (the Geister family); ``simultaneous``: both players
#: choose at once (TCG, Footstep, Goofspiel); ``impartial``: turn-based, perfect information, both sides have the
#: same moves.
Kind = Literal["board", "simultaneous", "impartial"]


#: Seeds are whole numbers 0 .. 2**63 - 1: numpy's generators refuse negative seeds, and 63 bits suit every
#: generator the players use.
MAX_SEED = 2**63 - 1


class UnknownGameError(NotationError):
    """A game name nashplay does not know."""


@dataclass(frozen=True)
class Parameter:
    """One parameter of a game: its keyword (``load_game``'s, and the command line's ``--name``), its default,
    what it means, and how its text (an option's value, a record tag) is read and written."""

    name: str
    default: Any
    help: str
    #: Text to value; raises ``ValueError`` with a one-line message that names no option (callers add where).
    parse: Callable[[str], Any]
    #: Value to text (a record tag, a default shown in help); ``parse(text(value)) == value``.
    text: Callable[[Any], str] = str
    #: The record tag that keeps it (``None``: the records do not keep it; it is part of the ``Start`` tag, say).
    tag: str | None = None
    #: How the command line reads it: a ``whole`` or ``real`` number within ``limits``, ``text`` (through
    #: ``parse``), or a ``flag`` (an on/off switch: given means on).
    kind: Literal["whole", "real", "text", "flag"] = "text"
    #: The range the commands and the app accept (a record may say more: the app then refuses to resume it).
    limits: tuple[float, float] | None = None
    #: What a number counts (``seconds``), for the messages.
    unit: str = ""
    metavar: str | None = None
    #: A position says it (Nim's heaps; who moves first in Geister): commands that take a position take no option.
    in_position: bool = False
    #: A match alternates it from game to game, as it does the sides (who moves first): no option of the arena.
    alternated: bool = False

    @property
    def flag(self) -> bool:
        return self.kind == "flag"


def _default_result_text(outcome: Outcome | None) -> str:
    return "*" if outcome is None else outcome.result_text


def _history_texts(state: Game[Any, Any]) -> list[str]:
    return [state.format_action(action) for action in state.history()]


@dataclass(frozen=True)
class GameType:
    """One game: what people and scripts read about it, its parameters, and its records."""

    name: str
    title: str
    kind: Kind
    #: The games that share rules and players with this one (``geister`` for every Geister-family variant).
    family: str
    #: One line: what the game is.
    summary: str
    #: A new game from its parameters (keywords, each one of ``parameters``; the defaults filled in).
    new_state: Callable[..., Game[Any, Any]]
    #: The record tags, beyond the parameters', that rebuild the start of ``state``'s game (``Start``; Geister's
    #: set-ups), in order.
    start_tags: Callable[[Game[Any, Any]], dict[str, str]]
    #: The state before the first move of a record, from its tags; raises ``ValueError`` (or ``RecordError``).
    from_tags: Callable[[Mapping[str, str]], Game[Any, Any]]
    #: ``state`` in the game's position notation (what ``Start`` tags and listings show).
    state_text: Callable[[Game[Any, Any]], str]
    parameters: tuple[Parameter, ...] = ()
    #: The largest payoff a game can give a player: 1 for a win, Footstep's 2 points for reaching the goal.
    max_payoff: float = 1.0
    #: What one step of the game is called, and its plural: a Geister ply, a TCG round, a Nim move.
    units: tuple[str, str] = ("move", "moves")
    #: What a state of the game is called where it is shown after a number of steps ("points 1,2", "heaps 3,4,5").
    state_name: str = "state"
    #: Its records hide what a player must not see while the game goes on (Geister's colours): no replay of a game
    #: in progress shows its states, and no review reads it.
    hidden_information: bool = False
    #: What ``--position`` reads (its metavar and help), and the position when none is given (from the values of
    #: the parameters; ``None``: a position must be given).
    position_metavar: str = "P"
    position_help: str = "the position in the game's notation"
    default_position: Callable[[Mapping[str, Any]], str] | None = None
    #: What its advice is, in a few words (``nashplay analyse GAME --help``).
    advice_summary: str = ""
    #: Options of its advice beyond the game's parameters (a search's time, depth and seed; a table's rule).
    advice_parameters: tuple[Parameter, ...] = ()
    #: What the players (the app's, the arena's) are asked to play, beyond each parameter's own limits: raises
    #: ``ValueError`` for values they would not finish with (Nim's heaps in a take-and-break game, say).
    check_playable: Callable[[Mapping[str, Any]], None] = lambda values: None
    #: The parameter ``check_playable`` judges (its option is what to change), if one.
    playable_parameter: str | None = None
    #: What a record may say, beyond each parameter's own parser: raises ``ValueError`` for values that no command
    #: takes (Nim's heaps past the solver's bounds). ``from_tags`` checks it before it builds a state, and a solved
    #: line's values are checked with it before the line is built, so that every record the viewer gets, it replays.
    check_recorded: Callable[[Mapping[str, Any]], None] = lambda values: None
    #: Its start is dealt by chance (Goofspiel's deck): ``new_state`` takes a ``seed``, which a match draws for each
    #: game so that the same match seed plays the same games.
    deals: bool = False
    #: Its adviser, as ``"module:function"`` (imported on first use: core imports no solver): a function from a
    #: ``solvers.advice.registry.Request`` to the ``Advice`` on its position (improving ones, the last final).
    adviser: str | None = None
    #: Its judge of a record, as ``"module:function"`` (``solvers.review.records.Judge``; imported on first use).
    reviewer: str | None = None
    #: Why a record's start is beyond what its reviewer solves, as ``"module:function"`` of the start state to a
    #: reason or ``None`` (checked from the tags before anything is solved), beyond each parameter's limits.
    review_check: str | None = None
    #: Its review is a search, judged for so long or so deep a move (``nashplay review --time/--depth``), not
    #: exact.
    review_searches: bool = False
    #: The budgets its review takes (``"time"``, ``"depth"``): a search's, where one judges some moves (the 3-vs-2
    #: variants search past their tables, to a depth); none where every move is judged exactly.
    review_budgets: tuple[str, ...] = ()
    #: A record's ``Result`` for an outcome (``*`` while the game goes on).
    result_text: Callable[[Outcome | None], str] = _default_result_text
    #: The record's move text: every action played, in the game's notation.
    move_texts: Callable[[Game[Any, Any]], list[str]] = _history_texts
    #: The values of ``state``'s parameters that its records keep (by parameter name).
    values_of: Callable[[Game[Any, Any]], dict[str, Any]] = lambda state: {}
    #: Its solved line (``nashplay replay --solved GAME``), as ``"module:function"``: a function of the parameters'
    #: values, a seed (``None``: the likeliest line) and a progress callback taking words, to a
    #: ``solvers.lines.GameLine``; and whether a seed draws the line from the equilibrium's mixes.
    lines: str | None = None
    line_draws: bool = False
    #: The tags a record of a game in progress shows instead of its own, where those would foretell the game
    #: (Goofspiel's ``Deck``: only the prizes turned up so far); the app keeps the full ones in the save's secret.
    in_progress_tags: Callable[[Game[Any, Any]], dict[str, str]] | None = None
    #: A record's game in a few words, from its tags (the lists of saved and recent games): "TCG n=3"; ``None``:
    #: the title and each parameter's tag as ``name=value`` ("Goofspiel N=5").
    label: Callable[[Mapping[str, str]], str] | None = None
    #: Parameters by name (filled in from ``parameters``).
    by_name: Mapping[str, Parameter] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {parameter.name: parameter for parameter in self.parameters})

    def label_of(self, tags: Mapping[str, str]) -> str:
        """A record's game in a few words (``label``), every value clipped: a damaged tag never widens a list."""
        if self.label is not None:
            return self.label(tags)
        values = [
            f"{parameter.metavar or parameter.name}={clipped(tags[parameter.tag], 5)}"
            for parameter in self.parameters
            if parameter.tag is not None and parameter.tag in tags
        ]
        return " ".join([self.title, *values])

    def start(self, *, seed: int | None = None, **values: Any) -> Game[Any, Any]:
        """A new game with these parameter values (the rest at their defaults), dealt from ``seed`` if the game
        deals (``deals``; fresh randomness without one). Raises ``ValueError`` for a parameter the game does not
        take, and for values that do not fit."""
        unknown = sorted(set(values) - set(self.by_name))
        if unknown:
            takes = ", ".join(self.by_name) or "no parameters"
            raise ValueError(f"{self.name} takes no {', '.join(unknown)} (it takes: {takes})")
        filled = {parameter.name: values.get(parameter.name, parameter.default) for parameter in self.parameters}
        if self.deals:
            filled["seed"] = seed
        return self.new_state(**filled)


def resolve(reference: str) -> Any:
    """The object a ``"module:name"`` reference names (an adviser, a reviewer, a line builder, a screen), its module
    imported now: descriptors name what lives outside ``core`` without importing it."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


def whole_number_parser(what: str, low: int, high: int) -> Callable[[str], int]:
    """A parser of whole numbers from ``low`` to ``high``: too many digits are refused before converting."""

    def parse(text: str) -> int:
        cleaned = text.strip()
        digits = cleaned.isascii() and cleaned.isdigit()
        if not digits or len(cleaned.lstrip("0")) > len(str(high)) or not low <= int(cleaned) <= high:
            raise ValueError(f"{what} is a whole number from {low} to {high}, not {clipped(quoted(text))}")
        return int(cleaned)

    return parse


def read_tag(tags: Mapping[str, str], parameter: Parameter) -> Any:
    """``parameter``'s value in a record's ``tags`` (its default when the tag is missing). Raises ``ValueError``
    that names the tag."""
    if parameter.tag is None or parameter.tag not in tags:
        return parameter.default
    try:
        return parameter.parse(tags[parameter.tag])
    except ValueError as error:
        raise ValueError(f"the {parameter.tag} tag: {error}") from None


def initial(state: Game[Any, Any]) -> Game[Any, Any]:
    """The state before ``state``'s first action (a copy: ``state`` is left as it is)."""
    start = state.clone()
    while start.history():
        start.undo()
    return start
