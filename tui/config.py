"""What defines a new game of each kind, and the checks that decide whether the app will play it.

A configuration comes from the command line, a set-up screen or a saved game; the screen that plays it takes it as
it is. Each ``check`` raises ``ConfigError`` (a ``ValueError``) with one line a user can act on, so the command line
and the set-up screens refuse the same things with the same words. No Textual and no numpy here: the command line
reads this module before anything heavy is loaded.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from core.contest import DEFAULT_BUDGET, DEFAULT_PER_MOVE, DEFAULT_PLY_LIMIT, FIRST_PORT
from core.errors import IllegalMoveError, NotationError
from core.footstep import MAX_SOLVED_K as MAX_SOLVED_FOOTSTEP_K
from core.footstep import MAX_SOLVED_N as MAX_SOLVED_FOOTSTEP_N
from core.game import Side
from core.geister import SEARCH_SECONDS, Colour, GeisterState, Setup, Variant, variant_by_name
from core.goofspiel import CARDS_PARAMETER, DEFAULT_CARDS
from core.impartial import MAX_PLAYED_HEAP, MAX_PLAYED_HEAPS, HeapRule, Nim, check_played
from core.tcg import MAX_SOLVED_N as MAX_SOLVED_TCG_N
from solvers.catalogue import UnknownPlayerError, player_entry, players_for

if TYPE_CHECKING:
    from tui.game_clock import GameClock

__all__ = [
    "DEFAULT_THINK_TIME",
    "ConfigError",
    "ContestSettings",
    "FootstepConfig",
    "GeisterConfig",
    "GoofspielConfig",
    "NimConfig",
    "ServerGameConfig",
    "TcgConfig",
    "check_heaps",
    "make_clock",
]


class ConfigError(ValueError):
    """A configuration the app will not play; the message says why and what is allowed. ``option`` names the
    command-line option the problem comes from (``--setup``), for the command line's message."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option

    def for_command_line(self) -> str:
        return f"{self.option}: {self}" if self.option else str(self)


#: Seconds a search AI thinks per move unless the set-up screen or ``--time`` says otherwise (the paper's 0.25 s).
DEFAULT_THINK_TIME = 0.25
#: A thinking time below this answers before the search has begun; above it a person waits a minute a move.
THINK_TIME_RANGE = SEARCH_SECONDS


def check_seconds(value: float, what: str, low: float, high: float, option: str | None = None) -> None:
    """A time in ``[low, high]``; NaN and infinities are refused (comparisons with NaN are always false)."""
    if not math.isfinite(value) or not low <= value <= high:
        raise ConfigError(f"{what} must be {low:g}..{high:g} seconds, not {value}", option)


def _check_player(name: str, game: str) -> None:
    known = ", ".join(e.name for e in players_for(game))
    try:
        entry = player_entry(name)
    except UnknownPlayerError:
        raise ConfigError(f"unknown opponent {name[:30]!r} for {game}: expected one of {known}", "--opponent") from None
    if not entry.plays(game):
        raise ConfigError(f"{name} does not play {game}: expected one of {known}", "--opponent")


# --------------------------------------------------------------------------------------------------- Geister

#: The opponent's name for two people at one keyboard (the hot seat), as Nim's ``human``.
SHARED_KEYBOARD = "human"


@dataclass(frozen=True)
class GeisterConfig:
    """A game of the Geister family against an AI; each field can also come from the command line."""

    variant: str = "mini-geister"
    human: Side = Side.P1
    opponent: str = "chototsu"
    #: ``"random"`` or one letter B/R per set-up square (``BRRBBRRB``); ``None``: ask on the set-up screen.
    setup: str | None = None
    seed: int | None = None
    #: Takebacks allowed (``True``), none (``False``), or the default for the opponent (``tui.game_life``).
    takebacks: bool | None = None
    #: Seconds per move for the search AIs (mc, upp, ismcts).
    think_time: float = DEFAULT_THINK_TIME
    #: A position to play on from (``spec/notation.md``) instead of a set-up phase; a set-up chosen (the set-up
    #: screen's, after ``n``) starts a game from the beginning instead.
    position: str | None = None
    #: An analysis board: both sides moved from the keyboard, every colour shown, nothing saved (with
    #: ``opponent=SHARED_KEYBOARD`` and a ``position`` of every colour).
    analysis: bool = False
    #: A chess clock, minutes plus seconds a move ("5+3"); ``None``: no clock.
    clock: str | None = None
    #: At a shared keyboard: the other person's set-up (as ``setup``), chosen on their own set-up screen after the
    #: first person's; ``None``: not chosen yet (``"random"``: drawn).
    other_setup: str | None = None

    @property
    def game(self) -> str:
        return self.variant

    def resolved_variant(self) -> Variant:
        return variant_by_name(self.variant)

    def human_setup(self, rng: random.Random) -> Setup:
        variant = self.resolved_variant()
        if self.setup is None or self.setup.lower() == "random":
            return rng.choice(variant.setups(self.human))
        return variant.parse_setup(self.setup, self.human)

    def other_person_setup(self, rng: random.Random) -> Setup:
        """At a shared keyboard, the other side's set-up: the one its player chose, else drawn with ``rng``."""
        variant = self.resolved_variant()
        side = self.human.other
        if self.other_setup is None or self.other_setup.lower() == "random":
            return rng.choice(variant.setups(side))
        return variant.parse_setup(self.other_setup, side)

    @property
    def sets_up_next(self) -> Side | None:
        """At a shared keyboard, once the first person has chosen their set-up: the side whose player chooses next
        (on their own set-up screen, the first one's hidden); else ``None``."""
        if self.hot_seat and self.setup is not None and self.other_setup is None and self.position is None:
            return self.human.other
        return None

    def start_position(self, rng: random.Random) -> GeisterState:
        """The game from ``position``: the opponent's pieces of unknown colour (``u``/``U``) are given colours drawn
        with ``rng`` from what its counts leave (each colouring equally likely). ``rng`` must not be one the user can
        recompute (not the opponent's seeded generator): those colours are what the user plays to find out."""
        assert self.position is not None
        state = self.position_state()
        them = self.human.other
        variant = state.variant
        known = [piece for _, piece in state.pieces() if piece.side is them] + [
            piece for piece in state.captured if piece.side is them
        ]
        unknown = sorted(
            (square for square, piece in state.pieces() if piece.side is them and piece.colour is Colour.UNKNOWN),
            key=lambda square: (-square.rank, square.file),
        )
        blues = variant.blues[them] - sum(1 for piece in known if piece.colour is Colour.BLUE)
        chosen = set(rng.sample(range(len(unknown)), blues))
        colours = iter(Colour.BLUE if i in chosen else Colour.RED for i in range(len(unknown)))
        letter = Colour.UNKNOWN.letter(them)
        ranks, _, rest = self.position.strip().partition(" ")
        # Ranks are written from the top, files from a: the order ``unknown`` is sorted in.
        coloured = "".join(next(colours).letter(them) if char == letter else char for char in ranks)
        return GeisterState.from_position(f"{coloured} {rest}", variant)

    def position_state(self) -> GeisterState:
        """``position`` as a game state (the opponent's colours as given, ``u``/``U`` where unknown); ``ConfigError``
        for a position that does not parse, is over, leaves pieces out, or hides the user's own colours."""
        assert self.position is not None
        from core.geister import check_geister_position

        try:
            state = GeisterState.from_position(self.position, self.resolved_variant())
            outcome = state.outcome()
            if outcome is not None:
                raise ConfigError(f"the game is over there: {outcome}", "--position")
            if any(piece.colour is Colour.UNKNOWN for _, piece in state.pieces() if piece.side is self.human):
                letters = "B/R" if self.human is Side.P1 else "b/r"
                raise ConfigError(
                    f"your own pieces ({self.human}'s) need their colours ({letters}, not U): a piece of unknown "
                    "colour could escape as a blue",
                    "--position",
                )
            check_geister_position(state, self.human)
        except NotationError as error:
            raise ConfigError(str(error), "--position") from None
        return state

    def check(self) -> None:
        try:
            variant = self.resolved_variant()
        except NotationError as error:
            raise ConfigError(str(error)) from None
        if self.opponent != SHARED_KEYBOARD:
            _check_player(self.opponent, self.variant)
        check_seconds(self.think_time, "the thinking time", *THINK_TIME_RANGE, option="--time")
        if self.clock is not None:
            from tui.game_clock import parse_time_control

            try:
                parse_time_control(self.clock)
            except ValueError as error:
                raise ConfigError(str(error), "--clock") from None
        if self.position is not None:
            if self.setup is not None:
                raise ConfigError("a game from --position takes its colours from the position, not --setup", "--setup")
            self.position_state()
            return
        if self.setup is not None and self.setup.lower() != "random":
            try:
                setup = variant.parse_setup(self.setup, self.human)
            except (NotationError, IllegalMoveError) as error:
                raise ConfigError(str(error), "--setup") from None
            if not setup.is_complete:
                # '?' is how a record hides the opponent's set-up; as one's own it would make every piece a
                # possible blue, free to escape: a cheat, not a game.
                raise ConfigError(
                    f"your own set-up cannot be hidden ('?'): give your colours ({variant.setup_text_help(self.human)})"
                    " or 'random'",
                    "--setup",
                )

    @property
    def opponent_thinks(self) -> bool:
        """Whether the opponent takes a thinking time (a search AI)."""
        return self.opponent != SHARED_KEYBOARD and player_entry(self.opponent).thinks

    @classmethod
    def analysis_board(cls, state: GeisterState) -> GeisterConfig:
        """An analysis board on ``state`` (every colour known): both sides from the keyboard, nothing saved."""
        position = state.position()
        return cls(state.variant.name, state.to_move, SHARED_KEYBOARD, position=position, analysis=True, takebacks=True)

    @property
    def hot_seat(self) -> bool:
        """Two people at one keyboard, each moving in turn (``opponent`` is ``SHARED_KEYBOARD``)."""
        return self.opponent == SHARED_KEYBOARD


# --------------------------------------------------------------------------------------------------- clocks


def make_clock(clock: str | None, left: tuple[float, float] | None = None) -> GameClock | None:
    """A local game's chess clock from its configuration: ``clock`` minutes plus seconds a move ("5+3"), with a
    resumed game's seconds ``left`` (player 1's, player 2's); ``None`` without one. ``ConfigError`` names
    ``--clock``, the option every local game takes it from."""
    if clock is None:
        return None
    from tui.game_clock import GameClock, parse_time_control

    try:
        made = GameClock(*parse_time_control(clock))
    except ValueError as error:
        raise ConfigError(str(error), "--clock") from None
    if left is not None:
        made.left = {Side.P1: left[0], Side.P2: left[1]}
    return made


# --------------------------------------------------------------------------------------------------- TCG

TcgMode = Literal["advisor", "versus"]
#: The largest TCG solved anywhere (``core.tcg.MAX_SOLVED_N``).
TCG_APP_MAX_N = MAX_SOLVED_TCG_N


@dataclass(frozen=True)
class TcgConfig:
    n: int = 3
    mode: TcgMode = "advisor"
    human: Side = Side.P1
    seed: int | None = None
    #: Takebacks allowed (``True``), none (``False``), or the default for the opponent (``tui.game_life``).
    takebacks: bool | None = None
    #: A chess clock, minutes plus seconds a round ("5+3"); ``None``: no clock.
    clock: str | None = None
    #: A resumed game's seconds left on each side's clock (player 1's, player 2's); ``None``: the full time.
    clock_left: tuple[float, float] | None = None

    @property
    def game(self) -> str:
        return "tcg"

    def check(self) -> None:
        if not 1 <= self.n <= TCG_APP_MAX_N:
            raise ConfigError(f"in the app n must be 1..{TCG_APP_MAX_N}, not {self.n}", "--n")
        self.new_clock()

    def new_clock(self) -> GameClock | None:
        """The game's clock, with a resumed game's time left (``make_clock``); ``None`` without one."""
        return make_clock(self.clock, self.clock_left)


# --------------------------------------------------------------------------------------------------- Nim

#: ``human``: two people at one keyboard; the others are catalogue players of ``nim``.
NimOpponent = Literal["perfect", "random", "human"]
NIM_OPPONENTS: tuple[NimOpponent, ...] = ("perfect", "random", "human")
#: Limits of a position in the app (``core.impartial.check_played``).
MAX_HEAPS = MAX_PLAYED_HEAPS
MAX_HEAP = MAX_PLAYED_HEAP


def check_heaps(heaps: tuple[int, ...], rule: HeapRule) -> None:
    """Whether the app will play these heaps (not too many, not too big, something to take)."""
    try:
        check_played(heaps, rule)
    except ValueError as error:
        raise ConfigError(str(error), "--heaps") from None


@dataclass(frozen=True)
class NimConfig:
    heaps: tuple[int, ...] = (3, 4, 5)
    rule: HeapRule = field(default_factory=Nim)
    misere: bool = False
    opponent: NimOpponent = "perfect"
    #: The side the keyboard plays against an AI (player 1 moves first); both sides with ``opponent="human"``.
    human: Side = Side.P1
    seed: int | None = None
    #: Takebacks allowed (``True``), none (``False``), or the default for the opponent (``tui.game_life``).
    takebacks: bool | None = None
    #: A chess clock, minutes plus seconds a move ("5+3"); ``None``: no clock.
    clock: str | None = None
    #: A resumed game's seconds left on each side's clock (player 1's, player 2's); ``None``: the full time.
    clock_left: tuple[float, float] | None = None

    @property
    def game(self) -> str:
        return "nim"

    def check(self) -> None:
        if self.opponent not in NIM_OPPONENTS:
            raise ConfigError(f"expected perfect, random or human, not {self.opponent[:30]!r}", "--opponent")
        check_heaps(self.heaps, self.rule)
        self.new_clock()

    def new_clock(self) -> GameClock | None:
        """The game's clock, with a resumed game's time left (``make_clock``); ``None`` without one."""
        return make_clock(self.clock, self.clock_left)


# --------------------------------------------------------------------------------------------------- Footstep

#: The largest Footstep solved anywhere (``core.footstep.MAX_SOLVED_N`` and ``MAX_SOLVED_K``).
FOOTSTEP_MAX_N = MAX_SOLVED_FOOTSTEP_N
FOOTSTEP_MAX_K = MAX_SOLVED_FOOTSTEP_K
FOOTSTEP_APP_MAX = (FOOTSTEP_MAX_N, FOOTSTEP_MAX_K)


@dataclass(frozen=True)
class FootstepConfig:
    n: int = 50
    k: int = 4
    opponent: str = "equilibrium"
    human: Side = Side.P1
    seed: int | None = None
    #: Takebacks allowed (``True``), none (``False``), or the default for the opponent (``tui.game_life``).
    takebacks: bool | None = None

    #: A chess clock, minutes plus seconds a round ("5+3"); ``None``: no clock.
    clock: str | None = None
    #: A resumed game's seconds left on each side's clock (player 1's, player 2's); ``None``: the full time.
    clock_left: tuple[float, float] | None = None

    @property
    def game(self) -> str:
        return "footstep"

    def check(self) -> None:
        max_n, max_k = FOOTSTEP_APP_MAX
        if not 1 <= self.n <= max_n:
            raise ConfigError(f"in the app n is 1..{max_n}, not {self.n}", "--n")
        if not 1 <= self.k <= max_k:
            raise ConfigError(f"in the app k is 1..{max_k}, not {self.k}", "--k")
        _check_player(self.opponent, "footstep")
        self.new_clock()

    def new_clock(self) -> GameClock | None:
        """The game's clock, with a resumed game's time left (``make_clock``); ``None`` without one."""
        return make_clock(self.clock, self.clock_left)


# --------------------------------------------------------------------------------------------------- Goofspiel


@dataclass(frozen=True)
class GoofspielConfig:
    """Goofspiel against a catalogue player: ``cards`` in each hand (the descriptor's limits: the whole game solves
    in half a minute at 8), the deck shuffled from ``seed``."""

    cards: int = DEFAULT_CARDS
    opponent: str = "equilibrium"
    human: Side = Side.P1
    seed: int | None = None
    #: Takebacks allowed (``True``), none (``False``), or the default for the opponent (``tui.game_life``).
    takebacks: bool | None = None

    #: A chess clock, minutes plus seconds a round ("5+3"); ``None``: no clock.
    clock: str | None = None
    #: A resumed game's seconds left on each side's clock (player 1's, player 2's); ``None``: the full time.
    clock_left: tuple[float, float] | None = None

    @property
    def game(self) -> str:
        return "goofspiel"

    def check(self) -> None:
        low, high = CARDS_PARAMETER.limits or (1, DEFAULT_CARDS)
        if not low <= self.cards <= high:
            raise ConfigError(f"cards (N) is {low:g}..{high:g} in the app, not {self.cards}", "--cards")
        _check_player(self.opponent, "goofspiel")
        self.new_clock()

    def new_clock(self) -> GameClock | None:
        """The game's clock, with a resumed game's time left (``make_clock``); ``None`` without one."""
        return make_clock(self.clock, self.clock_left)


# --------------------------------------------------------------------------------------------------- contest server


@dataclass(frozen=True)
class ContestSettings:
    """Everything about a contest server that differs between contests, plus our own patience."""

    #: The server's draw limit: 300 in the reference server, 200 in some forks.
    ply_limit: int = DEFAULT_PLY_LIMIT
    #: The server's time settings (seconds): a budget per player, then an allowance per move.
    budget: float = DEFAULT_BUDGET
    per_move: float = DEFAULT_PER_MOVE
    #: Whether the server charges whole seconds (it does); the local clocks follow.
    whole_seconds: bool = True
    #: Give up connecting after this many seconds of refused connections.
    connect_deadline: float = 30.0
    #: Longest wait for the game to start (the opponent may connect and set up late).
    start_timeout: float = 600.0
    #: Wait this much beyond the opponent's clock before calling the server silent.
    grace: float = 15.0
    #: Set ``TCP_QUICKACK`` before each receive (Linux); off only to measure what it saves.
    quickack: bool = True
    #: How many illegal moves a player may choose in one turn (each refused locally) before we give up the game.
    illegal_attempts: int = 3
    #: Seconds kept in hand when an AI's thinking time is cut to fit the clock.
    safety_margin: float = 1.0


@dataclass(frozen=True)
class ServerGameConfig:
    """One server game (and the next ones, when the user connects again) as the command line asked for it."""

    host: str = "127.0.0.1"
    port: int = FIRST_PORT
    #: The letters of the 4 red pieces (``BCFG``); ``None``: the user chooses on the screen.
    setup: str | None = None
    #: The user's name in the records (``None``: "human").
    name: str | None = None
    #: Where records go (``None``: nowhere; the command line always gives a folder).
    save_dir: Path | None = None
    settings: ContestSettings = field(default_factory=ContestSettings)
    #: Seed for the set-up proposed on the screen.
    seed: int | None = None
