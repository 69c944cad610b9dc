"""A local game of any game but the Geister family's (TCG, Footstep, Nim, Goofspiel, and any game added through its
catalogue entry): the session that holds it, and its saved records (their tags, resuming one).

``LocalSession`` is what the game screens share: the state, the user's side, the opponent (a catalogue player, or
nobody: two people at one keyboard, TCG's advisor), the generators (one seed, saved apart; a resumed game goes on
with generators of its own), the record as the user may see it and the secret a resume needs, keeping it on disk
after every change (``tui.saves.GameKeeper``), takebacks and new games. The Geister family has its own session
(``tui.session.GameSession``: set-ups, hidden colours, a search opponent in another process).

No Textual here: the screens draw the session and hand it the user's actions.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from core.errors import NotationError, quoted
from core.game import Game, Outcome, Side
from core.game_type import MAX_SEED
from core.games import game_type
from core.record import Record
from tui.game_clock import GameClock
from tui.game_life import (
    TAKEBACKS_TAG,
    concluded,
    lost_on_time,
    moves_by,
    read_seed,
    read_takebacks,
    resignation,
    takebacks_text,
)
from tui.games import GAMES, Config, SavedGame
from tui.session import resumable

if TYPE_CHECKING:
    from tui.saves import GameKeeper, SaveStore

StateT = TypeVar("StateT", bound="Game[Any, Any]")


@dataclasses.dataclass(frozen=True)
class ResumedGame:
    """A saved local game (TCG, Footstep, Nim, Goofspiel), ready to go on: its game, its configuration (the same
    opponent, side, options and seed), and the state its record replays to."""

    game: str
    config: Config
    state: Game[Any, Any]

    @property
    def ply(self) -> int:
        return len(self.state.history())


def game_record(
    state: Game[Any, Any], human: Side, opponent: str, seed: int | None = None, tags: dict[str, str] | None = None
) -> Record:
    """The record of a local game of any kind but the Geister family's: who played which side (``opponent`` is the
    catalogue name, or ``human`` for two people at one keyboard), plus ``tags``. ``seed`` (of the opponent's
    generator) goes in only once the game is over: while it runs it would foretell the opponent's choices, so it is
    kept apart (``secret_tags``)."""
    names = {human: "human", human.other: opponent}
    record_tags = {
        "Player1": names[Side.P1],
        "Player2": names[Side.P2],
        "Human": str(human.number),
        "Opponent": opponent,
        **(tags or {}),
    }
    if seed is not None:
        record_tags["Seed"] = str(seed)
    return Record.from_state(state, record_tags)


def secret_tags(seed: int) -> dict[str, str]:
    """What resuming a game needs and its record must not show while it runs: the seed of the generators."""
    return {"Seed": str(seed)}


def resumed_seed(seed: int, ply: int) -> int:
    """The seed the generators of a game resumed at ``ply`` start from: not the old game's stream again (its draws
    so far are in the record), yet reproducible from the save (as ``GameSession.from_record``)."""
    return seed * 1_000_003 + ply


def resume_record(record: Record) -> ResumedGame:
    """The game a saved record of a local game (not the Geister family's) goes on with, every tag checked as the
    command line checks it (each game's catalogue entry, ``tui.games``, says what it takes). Raises
    ``NotationError`` (``RecordError`` for moves that do not replay) for a save that cannot be resumed; cheap enough
    to check every save when the app starts."""
    game = record.tags.get("Game", "")
    entry = GAMES.get(game)
    if record.is_geister or entry is None or entry.resume is None:
        raise NotationError(f"not a saved game the app resumes: {quoted(game)}")
    # The start and the end only: every state of a 10,000-move record would be 10,000 copies of its history.
    final, start = record.final_state(), record.new_state()
    if final.is_terminal():
        raise NotationError(f"the saved game is already over ({final.outcome()})")
    if record.result != "*":  # ended off the board (resigned)
        raise NotationError(f"the saved game is already over ({record.tags.get('Termination', record.result)})")
    takebacks = read_takebacks(record.tags)
    try:
        human = Side.from_number(record.tags.get("Human", "1"))
        seed = read_seed(record.tags)
        config = entry.resume(SavedGame(start, final, human, seed, record.tags.get("Opponent", ""), record.tags))
        config = dataclasses.replace(config, takebacks=takebacks)
        config.check()
    except ValueError as error:  # ConfigError is one
        raise NotationError(f"the saved game's tags are damaged: {error}") from None
    return ResumedGame(game, config, final)


def check_resumable(record: Record) -> None:
    """Whether a save of any game can be resumed: ``NotationError`` says why not."""
    if record.is_geister:
        resumable(record)
    else:
        resume_record(record)


# ------------------------------------------------------------------------------------------------ the session


class LocalSession(Generic[StateT]):
    """One local game as it goes: ``state`` (any game on the ``Game`` protocol), the user's side (``human``), the
    opponent's catalogue name (``opponent``: ``human`` for two people at one keyboard, or words for who is not a
    player, as TCG's advisor mode), and ``tags`` its record adds (TCG's ``Mode``).

    The generators come from one ``seed`` (drawn when none is given): ``rng`` for the user's side (a suggestion drawn
    from a mix, the next game's deal) and ``opponent_rng`` for the opponent's own choices, which see only its view.
    The seed is kept in the save's secret while the game runs and shown in the record once it is over; a game
    ``resumed`` from its save goes on with generators of its own (``resumed_seed``), reproducible from the save but
    not the old stream again.
    """

    def __init__(
        self,
        state: StateT,
        human: Side,
        opponent: str,
        seed: int | None = None,
        *,
        resumed: bool = False,
        tags: dict[str, str] | None = None,
        takebacks: bool = True,
        clock: GameClock | None = None,
    ) -> None:
        self.state = state
        self.human = human
        self.opponent = opponent
        self.seed = seed if seed is not None else random.randrange(MAX_SEED)
        base = resumed_seed(self.seed, len(state.history())) if resumed else self.seed
        self.rng = random.Random(base)
        self.opponent_rng = random.Random(base + 1)
        self.tags = dict(tags or {})
        #: Whether the user may take moves back (the policy chosen at set-up, kept in the record).
        self.takebacks = takebacks
        #: How the game ended off the board (a resignation); ``None`` while it goes on or when the rules ended it.
        self.ending: Outcome | None = None
        #: Where the game is kept (``None``: nowhere, as in tests of the flow alone).
        self.keeper: GameKeeper | None = None
        #: The chess clock, if the game has one: it follows the game's moves (``sync_clock``), the side to move's
        #: time running; in a game of simultaneous moves the user's, since the AI answers at once.
        self.clock = clock
        self._clock_plies = len(state.history())
        if clock is not None and not self.over:
            clock.start(self._clock_side())

    @property
    def over(self) -> bool:
        """Whether the game has ended: by its rules, or by a resignation."""
        return self.ending is not None or self.state.is_terminal()

    def outcome(self) -> Outcome | None:
        """How the game ended (a resignation first: the rules' end never came), ``None`` while it goes on."""
        return self.ending if self.ending is not None else self.state.outcome()

    @property
    def simultaneous(self) -> bool:
        return game_type(self.state.game_name).kind == "simultaneous"

    def user_moves(self) -> int:
        """How many moves (rounds, in a game of simultaneous moves) the user has made."""
        played = len(self.state.history())
        if self.simultaneous or self.opponent == "human":
            return played
        first = Side.P1  # every local game but the Geister family's starts with player 1
        return moves_by(played, first, self.human)

    def resign(self) -> Outcome:
        """The user resigns (at one keyboard: the side to move): the game is over, a loss in the game's units."""
        side = self.human
        if self.opponent == "human" and not self.simultaneous:
            side = Side(self.state.current_player())
        self.ending = resignation(self.state.game_name, side)
        return self.ending

    # ---- the clock

    def _clock_side(self) -> Side:
        return self.human if self.simultaneous else Side(self.state.current_player())

    def sync_clock(self) -> None:
        """After any change to the game: each move or round made since stops its mover's time (adding the
        increment) and runs the other's; a takeback only sets the side to move's time running again."""
        clock = self.clock
        if clock is None:
            return
        plies = len(self.state.history())
        if self.over:
            clock.stop()
        else:
            for _ in range(max(0, plies - self._clock_plies)):
                if self.simultaneous:  # both chose: each gets its increment, and the user's time runs again
                    clock.stop()  # (not ``moved`` twice: that ran the opponent's time for an instant)
                    for side in Side:
                        clock.left[side] += clock.increment
                else:
                    clock.moved(clock.running or Side(self.state.current_player()).other)
            clock.start(self._clock_side())
        self._clock_plies = plies

    def check_clock(self) -> Outcome | None:
        """A flag fallen: the side whose time ran out loses (``ending``); the outcome, or ``None``."""
        if self.clock is None or self.over:
            return None
        flagged = self.clock.flagged()
        if flagged is None:
            return None
        self.clock.stop()
        self.ending = lost_on_time(self.state.game_name, flagged)
        return self.ending

    def clock_text(self, names: dict[Side, str]) -> str:
        """``Clock:>you 4:59  perfect 5:00``: the running side marked by ``>``, not by colour; ``""`` without one."""
        return "" if self.clock is None else self.clock.line(names, self.human)

    def takeback_refusal(self) -> str | None:
        """Why the user may not take a move back now (``None``: they may)."""
        if self.over:
            return "The game is over: its moves stand (m: rematch, n: new game)"
        if not self.takebacks:
            return "No takebacks in this game (its policy, set when it began)"
        return None

    def opponent_choice(self, player: Any) -> Any:
        """``player``'s choice from the opponent's view, drawn from the opponent's own generator."""
        return player.choose(self.state.view(self.human.other), self.opponent_rng)

    # ---- the record: what the user may see, and what only a resume may read

    def _record_and_secret(self) -> tuple[Record, dict[str, str]]:
        """The record as the user may see it and the secret beside it, from one record: while the game runs the
        record has no seed (it would foretell the opponent's choices), and where a game's own tags would foretell
        it (Goofspiel's deck) only what has been shown (``GameType.in_progress_tags``); the secret has the seed and
        the full values of those tags."""
        tags = {**self.tags, TAKEBACKS_TAG: takebacks_text(self.takebacks)}
        if self.clock is not None:
            tags.update(self.clock.tags())
        record = game_record(self.state, self.human, self.opponent, self.seed if self.over else None, tags)
        if self.ending is not None:
            concluded(record, self.ending)
        secret = secret_tags(self.seed)
        hide = game_type(self.state.game_name).in_progress_tags
        if hide is not None:
            shown = hide(self.state)
            secret.update({tag: record.tags[tag] for tag in shown})
            if not self.over:
                record.tags.update(shown)
        return record, secret

    def record(self) -> Record:
        """The game's record as the user may see it (``_record_and_secret``)."""
        return self._record_and_secret()[0]

    def secret(self) -> dict[str, str]:
        """What a resume needs that the record may not show while the game runs."""
        return self._record_and_secret()[1]

    # ---- kept on disk

    def keep(self) -> str | None:
        """Keep the game as it stands (in its slot while it runs, with ``secret`` apart; in ``records/`` once over);
        the problem in words when it cannot be kept (the screen reports it once), else ``None``."""
        keeper = self.keeper
        if keeper is None:
            return None
        record, secret = self._record_and_secret()
        try:
            if self.over:
                keeper.keep(record, {}, record)
            else:
                keeper.keep(record, secret)
        except OSError as error:
            where = keeper.store.state
            return (
                f"This game cannot be saved in {where} ({error.strerror or error}); it will be lost if nashplay stops."
            )
        return None

    def save_record(self, store: SaveStore) -> tuple[bool, str]:
        """The user's save key: the record into ``records/`` (where the finished game is kept already, if it is
        finished); whether it was saved, and what to say."""
        kept = self.keeper.finished if self.keeper is not None else None
        try:
            path = store.keep_record(self.record(), kept)
        except OSError as error:
            return False, f"Could not save the record in {store.records}: {error.strerror or error}"
        return True, f"Saved to {path}"

    def new_game(self, state: StateT) -> None:
        """Start ``state``: the game played so far stays where it is kept (in progress: offered for resume)."""
        if self.keeper is not None:
            self.keeper.abandon()
        self.state = state
        self.ending = None
        if self.clock is not None:  # the same time control, full again
            self.clock = GameClock(self.clock.initial, self.clock.increment, now=self.clock.now)
            self._clock_plies = len(state.history())
            self.clock.start(self._clock_side())

    def abort(self) -> None:
        """End the game and keep nothing of it (allowed before the user's second move: ``game_life.may_abort``)."""
        if self.keeper is not None:
            self.keeper.discard()

    def release(self) -> None:
        """The screen closes: an unfinished game stays in its slot, offered for resume."""
        if self.keeper is not None:
            self.keeper.release()

    def undo(self) -> bool:
        """Take back the last move or round; whether there was one. The screen asks ``takeback_refusal`` first."""
        try:
            self.state.undo()
        except IndexError:
            return False
        return True
