"""A game of the Geister family between the user and an AI opponent: who plays which side, whose turn, undo, the
record, resuming a save (the other games' session is ``tui.local_session``).

No Textual here: the screen asks the session for views and hands it moves; the session uses ``core`` for every
rule and a ``solvers`` player for the opponent. That keeps the flow testable without a terminal.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections.abc import Mapping

from core.errors import IllegalMoveError, NotationError, quoted
from core.game import Outcome, Side
from core.geister import Colour, GeisterState, GeisterView, Setup
from core.geister_board import hide_colours
from core.notation import Move
from core.record import Record
from solvers.catalogue import make_player, player_entry
from solvers.players import Player
from tui.config import (
    DEFAULT_THINK_TIME,
    SHARED_KEYBOARD,
    THINK_TIME_RANGE,
    GeisterConfig,
)
from tui.game_clock import GameClock, parse_time_control
from tui.game_life import (
    SEED_TAG,
    TAKEBACKS_TAG,
    concluded,
    moves_by,
    read_seed,
    read_takebacks,
    resignation,
    takebacks_allowed,
    takebacks_text,
)
from tui.search_process import RemotePlayer, shared_process

#: The record's tag of the seconds the opponent thinks a move.
THINK_TIME_TAG = "ThinkTime"

#: Numbers the games whose search opponent lives in the search process (each game gets its own player there).
_GAME_NUMBERS = itertools.count(1)


GeisterPlayer = Player[GeisterView, Setup | Move]


class SharedKeyboard:
    """The other side of a game two people play at one keyboard (the hot seat): nobody chooses for it."""

    name = SHARED_KEYBOARD

    def choose(self, view: GeisterView, rng: random.Random, limit: object = None) -> Setup | Move:
        raise RuntimeError("at a shared keyboard both sides move from the keyboard")


def make_opponent(name: str, variant: str = "mini-geister", think_time: float = DEFAULT_THINK_TIME) -> GeisterPlayer:
    """The catalogue's ``name`` player for ``variant``: a search player thinks in the search process (so the app
    keeps answering keys), any other in the app's own. ``UnknownPlayerError`` says which names play ``variant``."""
    if name == SHARED_KEYBOARD:
        return SharedKeyboard()
    entry = player_entry(name)
    if entry.runs == "search" and entry.plays(variant):
        return RemotePlayer(name, think_time, shared_process(), f"{variant}-{next(_GAME_NUMBERS)}", variant)
    player: GeisterPlayer = make_player(name, variant)
    return player


class GameSession:
    """The user's game: a ``GeisterState`` plus who is human and the opponent AI."""

    def __init__(
        self, config: GeisterConfig, state: GeisterState | None = None, setup_rng: random.Random | None = None
    ) -> None:
        """A new game from ``config`` (or going on from ``state``). ``setup_rng`` draws what the start hides: the
        user's random set-up, or in a game from ``config.position`` the colours of the opponent's unknown pieces; by
        default the operating system's randomness, apart from the opponent's generator (``config.seed``): a seed the
        user knows must not recompute what the user may not see."""
        self.config = config
        self.variant = config.resolved_variant()
        #: Two people at one keyboard: each side moves in turn, and the side to move is the one shown.
        self.hot_seat = config.hot_seat
        self._human = config.human
        self.opponent = make_opponent(config.opponent, config.variant, config.think_time)
        seed = config.seed if config.seed is not None else random.randrange(2**31)
        #: The seed of the opponent's generator: secret while the game runs (it would replay the opponent's set-up).
        self.seed = seed
        #: The opponent's generator, and only the opponent's.
        self.rng = random.Random(seed)
        if state is None and config.position is not None and config.setup is None:
            state = config.start_position(setup_rng or random.SystemRandom())
        if state is None:
            state = GeisterState(self.variant)
            human_setup = config.human_setup(setup_rng or random.SystemRandom())
            if not human_setup.is_complete:
                raise IllegalMoveError("your own set-up cannot be hidden ('?'): name your colours, or say 'random'")
            while state.phase == "setup":
                side = Side(state.current_player())
                if side is self._human:
                    state.apply(human_setup)
                elif self.hot_seat:  # the other person's pieces: as they chose them, else drawn and seen by nobody
                    state.apply(config.other_person_setup(setup_rng or random.SystemRandom()))
                else:
                    state.apply(self.opponent.choose(state.view(side), self.rng))
        self.state = state
        #: Bumped by every change of the game; an opponent's answer computed for an older version is stale.
        self.version = 0
        #: Whether the user may take moves back (the policy chosen at set-up, kept in the record).
        self.takebacks = takebacks_allowed(config.variant, config.opponent, config.takebacks)
        #: How the game ended off the board (a resignation); ``None`` while it goes on or when the rules ended it.
        self.ending: Outcome | None = None
        #: The chess clock, if the game has one (running for the side to move).
        self.clock: GameClock | None = None
        if config.clock is not None:
            self.clock = GameClock(*parse_time_control(config.clock))
            self.clock.start(self.state.to_move)

    @property
    def human(self) -> Side:
        """The side the keyboard plays; at a shared keyboard, the side to move (whose view is shown)."""
        return self.state.to_move if self.hot_seat and not self.is_over else self._human

    # ---- what the screen shows

    def view(self) -> GeisterView:
        """The user's view; every colour once the game is over (a resignation too, as the rules' end does)."""
        if self.ending is not None or self.config.analysis:  # an analysis board hides nothing
            return self.view_at(len(self.state.moves()))
        return self.state.view(self.human)

    def _state_at(self, moves: int) -> GeisterState:
        """The game after its first ``moves`` moves (a game started from a position counts from there)."""
        state = self.state.clone()
        while len(state.moves()) > moves:
            state.pop()
        return state

    def view_at(self, moves: int) -> GeisterView:
        """The user's view as it was after ``moves`` moves (for browsing the move list). Once the game is over every
        colour is known, and the view of an earlier position shows them too."""
        state = self._state_at(moves)
        return state.revealed_view(self.human) if self.is_over or self.config.analysis else state.view(self.human)

    def full_position_at(self, moves: int) -> str:
        """Every colour of the position after ``moves`` moves: for after the game only (it reveals the opponent)."""
        return self._state_at(moves).position()

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: by its rules, or by a resignation."""
        return self.ending is not None or self.state.is_terminal()

    def outcome(self) -> Outcome | None:
        """How the game ended (a resignation first: the rules' end never came), ``None`` while it goes on."""
        return self.ending if self.ending is not None else self.state.outcome()

    def user_moves(self) -> int:
        """How many moves the user has made."""
        return moves_by(len(self.state.moves()), self.state.first, self.human)

    def resign(self) -> Outcome:
        """The user resigns: the game is over, a loss; every colour is revealed as at any end."""
        self.ending = resignation(self.variant.name, self.human)
        self.version += 1
        if self.clock is not None:
            self.clock.stop()
        return self.ending

    def takeback_refusal(self) -> str | None:
        """Why the user may not take a move back now (``None``: they may)."""
        if self.is_over:
            return "The game is over: its moves stand (m: rematch, n: new game)"
        if not self.takebacks:
            return "No takebacks in this game (its policy, set when it began)"
        return None

    @property
    def humans_turn(self) -> bool:
        return not self.is_over and self.state.to_move is self.human

    @property
    def opponents_turn(self) -> bool:
        return not self.is_over and self.state.to_move is not self.human

    # ---- playing

    def play(self, move: Move) -> None:
        """The user's move; raises ``IllegalMoveError`` (nothing changes) when the rules forbid it."""
        if not self.humans_turn:
            raise IllegalMoveError("the game is over" if self.is_over else f"wait: it is {self.state.to_move}'s turn")
        mover = self.state.to_move
        self.state.push(move)
        self.version += 1
        self._clock_moved(mover)

    def _clock_moved(self, mover: Side) -> None:
        if self.clock is not None:
            if self.is_over:
                self.clock.stop()
            else:
                self.clock.moved(mover)

    def check_clock(self) -> Outcome | None:
        """A flag fallen: the side whose time ran out loses (``ending``); the outcome, or ``None``."""
        if self.clock is None or self.is_over:
            return None
        flagged = self.clock.flagged()
        if flagged is None:
            return None
        self.clock.stop()
        self.ending = Outcome.win(flagged.other, f"{flagged} ran out of time")
        self.version += 1
        return self.ending

    def play_text(self, text: str) -> Move:
        """A typed move; raises ``InvalidMoveError`` for text that does not parse, ``IllegalMoveError`` otherwise."""
        move = Move.parse(text)
        self.play(move)
        return move

    def opponent_view(self) -> GeisterView:
        return self.state.view(self.human.other)

    def choose_opponent_move(self, view: GeisterView) -> Move:
        """The opponent's choice from its own view (safe to run in a worker: it reads no shared state)."""
        action = self.opponent.choose(view, self.rng)
        assert isinstance(action, Move)
        return action

    def opponent_news(self) -> str:
        """What the opponent's last choice had to tell besides the choice ("" mostly): a search opponent's process
        that died was restarted, or its set-up had to be drawn at random."""
        return self.opponent.news if isinstance(self.opponent, RemotePlayer) else ""

    def apply_opponent(self, move: Move, version: int) -> bool:
        """Apply the opponent's move if the game is still where it was asked (``version``); False if stale.

        The ply alone is not enough: after an undo and a new move the ply matches again but the position differs.
        """
        if not self.opponents_turn or self.version != version or not self.state.is_legal(move):
            return False
        mover = self.state.to_move
        self.state.push(move)
        self.version += 1
        self._clock_moved(mover)
        return True

    def undo(self) -> int:
        """Take back moves until the user is to move again, at least one of the user's own. Returns plies undone.

        After ``pop`` the side to move is the side that made the popped move, which is how the loop knows when it
        has taken back one of the user's moves.
        """
        if self.hot_seat:  # one ply: the move of the side that just moved
            if not self.state.moves():
                return 0
            self.version += 1
            self.state.pop()
            return 1
        if not self._human_has_moved():
            return 0
        undone = 0
        self.version += 1
        while self.state.moves():
            self.state.pop()
            undone += 1
            if self.state.to_move is self.human:
                break
        return undone

    def _human_has_moved(self) -> bool:
        moves = len(self.state.moves())
        # The first mover made moves 1, 3, 5...: the user has moved if they moved first and there is a move,
        # or moved second and there are two.
        return moves >= (1 if self.state.first is self.human else 2)

    # ---- records

    def record(self, reveal: bool = True) -> Record:
        """The game's record. ``reveal=False`` (what the user saves, replays or finds in the save folder mid-game)
        leaves out ``secrets()``: the opponent's set-up is written ``?`` but for the colours its captures revealed, and
        the seed of its generator, which would replay that set-up, is left out. Once the game is over everything is
        revealed."""
        tags = {
            "Player1": "human" if self.human is Side.P1 else self.opponent.name,
            "Player2": "human" if self.human is Side.P2 else self.opponent.name,
            "Human": str(self._human.number),
            "Opponent": self.config.opponent,
            SEED_TAG: str(self.seed),
            THINK_TIME_TAG: f"{self.config.think_time:g}",
            TAKEBACKS_TAG: takebacks_text(self.takebacks),
        }
        if self.clock is not None:
            tags.update(self.clock.tags())
        record = Record.from_game(self.state, tags)
        if self.ending is not None:
            concluded(record, self.ending)
        if not reveal and not self.is_over:
            # What the user has seen, no more: the colours of the opponent's pieces captured so far.
            them = self.human.other
            revealed = {piece.slot: piece.colour for piece in self.state.captured if piece.side is them}
            count = self.variant.pieces(them)
            seen = Setup(tuple(revealed.get(slot, Colour.UNKNOWN) for slot in range(count)))
            record.tags[f"Setup{them.number}"] = seen.to_text()
            del record.tags[SEED_TAG]
            start = self.state.start_position
            if start is not None:  # a game from a position: its start names the opponent's colours
                record.tags["Start"] = hide_colours(start, self.human)
        return record

    def secrets(self) -> dict[str, str]:
        """What resuming needs that the user may not see while the game runs (kept apart from the record)."""
        full = self.record(reveal=True)
        setup_tag = f"Setup{self.human.other.number}"
        hidden = {setup_tag: full.tags[setup_tag], SEED_TAG: full.tags[SEED_TAG]}
        if self.state.start_position is not None:
            hidden["Start"] = full.tags["Start"]
        return hidden

    def rematch_config(self) -> GeisterConfig:
        """The same game with the sides swapped: the user's set-up letters if they fit the other side (else a random
        set-up); a game from a position starts from that position again, the new opponent's colours hidden and
        drawn afresh. A seed of its own, as a new game from a resumed one (the old one's set-ups are known now)."""
        config = self.config
        human = self.human.other
        start = self.state.start_position
        if start is not None:
            return dataclasses.replace(config, human=human, setup=None, seed=None, position=hide_colours(start, human))
        setup = config.setup
        if setup is not None and setup.lower() != "random":
            try:
                self.variant.parse_setup(setup, human)
            except ValueError:  # NotationError, IllegalMoveError: the other side has another number of pieces
                setup = "random"
        return dataclasses.replace(config, human=human, setup=setup or "random", seed=None)

    @classmethod
    def from_record(cls, record: Record) -> GameSession:
        """Resume a saved game (raises ``NotationError``, e.g. ``RecordError``, for a save that cannot be resumed)."""
        config, state = resumable(record)
        config = dataclasses.replace(config, takebacks=read_takebacks(record.tags))
        session = cls(config, state)
        # Continue the opponent's random stream where a fresh one would differ from the old game: mixing in the
        # ply keeps resumed games reproducible without storing the generator's state.
        session.rng = random.Random(session.seed * 1_000_003 + state.ply)
        # The saved seed belongs to this game only: a new game from here (n) draws its own. Kept, it gave every later
        # game the same opponent set-up, which the first game's end had revealed.
        session.config = dataclasses.replace(config, seed=None)
        clock = GameClock.from_tags(record.tags)  # the time each side had when it was saved
        if clock is not None:
            clock.start(state.to_move)
            session.clock = clock
            session.config = dataclasses.replace(session.config, clock=f"{clock.initial / 60:g}+{clock.increment:g}")
        return session


def resumable(record: Record) -> tuple[GeisterConfig, GeisterState]:
    """The configuration and the position of a saved game, every tag checked as the command line checks it; raises
    ``NotationError`` (``RecordError`` for moves that do not replay) for a save that cannot be resumed. Makes no
    opponent, so it is cheap enough to check every save when the app starts."""
    states = record.replay()
    if record.result != "*":  # ended off the board (resigned): the moves alone do not say so
        raise NotationError(f"the saved game is already over ({record.tags.get('Termination', record.result)})")
    read_takebacks(record.tags)  # a damaged policy is a damaged save
    GameClock.from_tags(record.tags)  # and so is a damaged clock
    try:
        human = Side.from_number(record.tags.get("Human", "1"))
        config = GeisterConfig(
            variant=record.tags["Game"],
            human=human,
            opponent=record.tags.get("Opponent", "chototsu"),
            seed=read_seed(record.tags),
            think_time=read_think_time(record.tags),
        )
        config.check()  # the thinking time's bounds (NaN, inf, 1e9 refused) and the opponent's name
    except ValueError as error:  # ConfigError is one
        raise NotationError(f"the saved game's tags are damaged: {error}") from None
    if any(piece.colour is Colour.UNKNOWN for _, piece in states[-1].pieces() if piece.side is human):
        # Pieces of unknown colour could each escape: a save like that would be a cheat, not a game.
        raise NotationError("the saved game hides your own set-up ('?'): it cannot be resumed")
    return config, states[-1]


def read_think_time(tags: Mapping[str, str]) -> float:
    """The seconds the opponent of a saved game thinks a move (``DEFAULT_THINK_TIME`` when not said), bounded as
    ``--time`` is (``THINK_TIME_RANGE``); ``NotationError`` naming the tag for anything else (NaN, infinities, a
    thousand digits, a negative time)."""
    text = tags.get(THINK_TIME_TAG)
    if not text:
        return DEFAULT_THINK_TIME
    low, high = THINK_TIME_RANGE
    try:
        seconds = float(text) if len(text) <= 24 else math.nan  # a longer one is refused before it is converted
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and low <= seconds <= high):
        raise NotationError(f"the {THINK_TIME_TAG} tag is {low:g}..{high:g} seconds, not {quoted(text)}")
    return seconds
