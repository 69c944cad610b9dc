"""Matches between any two players of any game, on several processes, with Wilson confidence intervals.

The one match runner: the games come from ``core.games.load_game`` and the players from ``solvers.catalogue``, so a
new game or player is in the arena as soon as it is in the catalogues.

A match of ``games`` games between players A and B swaps the sides every game pair and, in turn-based games where
either side may start (the Geister family), who moves first (A moves first in even games; A plays player 1 in
games 0, 1, 4, 5, ... and player 2 in the others), so neither side nor move order favours anyone; ``a_side`` and
``first`` pin them instead (the Mini-Geister equilibrium experiment plays the Nash player on one side). Every game
has its own seed, derived from the match seed and the game's number, so one game can be replayed alone and a match
gives the same games whatever the number of workers (with playout budgets; time budgets depend on the machine).

Each player sees only its own view, draws from its own generator (seeded from the game's seed and the player's
letter, never from anything hidden), and is a fresh instance per game (UPP's beliefs do not leak between games).
"""

from __future__ import annotations

import dataclasses
import random
import re
import signal
import threading
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from core.game import SIMULTANEOUS, Side
from core.games import game_type, load_game, units_of
from core.record import Record, write_text_atomically
from solvers.catalogue import make_player, player_entry
from solvers.players import Limit, tell_game_over
from solvers.stats import Z95, wilson

__all__ = [
    "GameParams",
    "GameResult",
    "GameSpec",
    "MatchResult",
    "Runner",
    "WorkersStoppedError",
    "game_specs",
    "play_game",
    "record_path",
    "run_match",
]

#: Steps (moves or rounds) after which a game that has not ended counts as a draw: TCG can go round for ever.
MAX_STEPS = 2_000
#: A match with a player that learns its opponent plays its games in batches of this many, each batch knowing the
#: games before it (at most ``LEARNING_HISTORY`` of them, the latest).
LEARNING_BATCH = 10
LEARNING_HISTORY = 40
#: A worker process that dies (``kill -9``, out of memory) breaks its pool: the games it left unfinished are played in
#: a fresh pool, with the same seeds. A game left unfinished by this many broken pools stops the match instead.
MAX_TRIES = 3


@dataclass(frozen=True)
class GameParams:
    """A game's parameters by name (``core.games.load_game``'s), the ones not given left out; plain data that
    pickles under ``spawn``. ``GameParams.of(n=4)``."""

    values: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, **values: Any) -> GameParams:
        return cls(tuple((name, value) for name, value in values.items() if value is not None))


#: No parameters: every one at its game's default.
NO_PARAMS = GameParams()


@dataclass(frozen=True)
class GameSpec:
    """One game of a match: everything a worker process needs (plain data, so it pickles under ``spawn``)."""

    index: int
    game: str
    names: tuple[str, str]
    a_side: Side
    first: Side
    seed: int
    limit: Limit
    params: GameParams = NO_PARAMS
    save_dir: str | None = None
    #: The pairing's earlier games, for players that learn their opponent (``use_profile``): each record's text
    #: and the side player A played in it.
    history: tuple[tuple[str, int], ...] = ()
    #: Send the record (``save_dir``'s) back in ``GameResult.saved`` instead of writing it: a cluster's workers may
    #: run on other machines, and the records belong where the match was asked for.
    send_record: bool = False


@dataclass(frozen=True)
class GameResult:
    index: int
    #: 0 if player A won, 1 if B won, ``None`` for a draw.
    winner: int | None
    #: Player A's payoff (+1/-1 in win/loss games; points in Footstep).
    score: float
    plies: int
    reason: str
    a_side: Side
    first: Side
    #: The game's record (when the match keeps a history for players that learn their opponent).
    record: str | None = None
    #: The record to write in ``save_dir``, tagged, when the spec asked for it to be sent (``GameSpec.send_record``).
    saved: str | None = None


#: How a game ended, by the words of its reason (each game's ``Outcome.reason``; a pattern found in it): what a
#: match's summary counts, the winner's way to win in a few words. The Geister family's first (``core.geister``),
#: then TCG's, Footstep's, Goofspiel's and the heap games'.
ENDINGS = (
    ("escape", "escaped"),
    ("blues taken", "blue pieces"),
    ("reds taken", "red pieces"),
    ("no move", "no legal move"),
    ("ply limit", "plies"),
    ("opponent short of points", "too few points"),
    ("reached the goal", "reached"),
    ("ahead when points ran out", "out of points, the marker on"),
    ("more points", r"points? ahead"),
    ("made the last move", "normal play"),
    ("had no move (misere)", "misere play"),
)

#: A TCG round that decides the game: "strong attack beats charge" is its own way to win.
_BEATS = re.compile(r"^[a-z ]+ beats [a-z ]+$")


def ending(reason: str) -> str:
    """The way a game was won, from its reason: ``escape``, ``blues taken`` (the winner took every blue), ``reds
    taken`` (the loser took every red: lured), ``no move``, ``ply limit``; TCG's ``opponent short of points`` or the
    round that won ("attack beats charge"); Footstep's ``reached the goal`` or ``ahead when points ran out``;
    Goofspiel's ``more points``; a heap game's ``made the last move`` (``had no move (misere)``). A reason none of
    these knows is given itself, shortened."""
    found = next((name for name, words in ENDINGS if re.search(words, reason)), None)
    if found is not None:
        return found
    if _BEATS.match(reason):
        return reason
    return reason if len(reason) <= 40 else reason[:37].rstrip() + "..."


def _labels(names: tuple[str, str]) -> tuple[str, str]:
    """Names as reported: the same player twice becomes ``upp`` and ``upp#2``."""
    return (names[0], names[1]) if names[0] != names[1] else (names[0], f"{names[1]}#2")


def _new_game(spec: GameSpec) -> Any:
    values = dict(spec.params.values)
    if "first" in game_type(spec.game).by_name:  # who moves first alternates, as the sides do
        values["first"] = spec.first
    return load_game(spec.game, seed=spec.seed, **values)


def play_game(spec: GameSpec) -> GameResult:
    """Play one game (a top-level function, so worker processes started by ``spawn`` can run it)."""
    state = _new_game(spec)
    by_side = {spec.a_side: 0, spec.a_side.other: 1}
    players = {side: make_player(spec.names[who], spec.game) for side, who in by_side.items()}
    for side, who in by_side.items():
        _learn_opponent(players[side], spec, who)
    rngs = {side: random.Random(spec.seed * 2 + who) for side, who in by_side.items()}
    steps = 0
    while not state.is_terminal() and steps < MAX_STEPS:
        current = state.current_player()
        if current == SIMULTANEOUS:
            state.apply_joint(tuple(players[side].choose(state.view(side), rngs[side], spec.limit) for side in Side))
        else:
            side = Side(current)
            state.apply(players[side].choose(state.view(side), rngs[side], spec.limit))
        steps += 1
    for side, player in players.items():
        tell_game_over(player, state.view(side))
    outcome = state.outcome()
    saved = None
    if spec.save_dir is not None:
        labels = _labels(spec.names)
        tags = {
            "Event": f"nashplay arena {labels[0]} vs {labels[1]}",
            "Round": str(spec.index + 1),
            "Player1": labels[by_side[Side.P1]],
            "Player2": labels[by_side[Side.P2]],
            "Seed": str(spec.seed),
        }
        tagged = Record.from_state(state, tags)
        if spec.send_record:
            saved = tagged.to_text()
        else:
            tagged.save(record_path(spec.save_dir, spec.index))
    plies = len(game_type(spec.game).move_texts(state))
    record = Record.from_state(state).to_text() if any(_learns(p) for p in players.values()) else None
    if outcome is None:
        reason = f"no result after {steps} steps"
        return GameResult(spec.index, None, 0.0, plies, reason, spec.a_side, spec.first, record, saved)
    winner = None if outcome.winner is None else by_side[outcome.winner]
    score = outcome.returns()[spec.a_side]
    return GameResult(spec.index, winner, score, plies, outcome.reason, spec.a_side, spec.first, record, saved)


def record_path(save_dir: str, index: int) -> Path:
    """Where game ``index`` (from 0) of a match saved in ``save_dir`` has its record."""
    return Path(save_dir) / f"game-{index + 1:04d}.ngr"


def _learns(player: object) -> bool:
    """Whether ``player`` reads its opponent with what the pairing's earlier games showed (``use_profile``)."""
    return callable(getattr(player, "use_profile", None))


def _learn_opponent(player: Any, spec: GameSpec, who: int) -> None:
    """Give a player that learns its opponent (player ``who``: 0 for A) a profile of the pairing's earlier games."""
    if not _learns(player) or not spec.history:
        return
    from solvers.geister.choice_belief import OpponentProfile

    profile = OpponentProfile(_labels(spec.names)[1 - who])
    for text, a_side in spec.history:
        opponent = Side(a_side).other if who == 0 else Side(a_side)
        profile.learn_record(Record.parse(text), opponent, player.mixture)
    player.use_profile(profile)


def game_specs(
    game: str,
    names: tuple[str, str],
    games: int,
    limit: Limit,
    seed: int = 0,
    save_dir: str | None = None,
    params: GameParams = NO_PARAMS,
    a_side: Side | None = None,
    first: Side | None = None,
) -> list[GameSpec]:
    """The match's games: sides and first movers alternate unless ``a_side`` / ``first`` pin them."""
    specs = []
    for index in range(games):
        side = a_side if a_side is not None else (Side.P1 if index // 2 % 2 == 0 else Side.P2)
        mover = first if first is not None else (side if index % 2 == 0 else side.other)
        game_seed = random.Random(f"{seed}:{index}").getrandbits(48)
        specs.append(GameSpec(index, game, names, side, mover, game_seed, limit, params, save_dir))
    return specs


class WorkersStoppedError(RuntimeError):
    """A match stopped because its worker processes kept dying. Its text is plain words; ``match`` holds the games
    finished before (``run_match`` sets it)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.match: MatchResult | None = None


@dataclass
class MatchResult:
    names: tuple[str, str]
    limit: Limit
    game: str = "geister"
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    def record(self, who: int) -> tuple[int, int, int]:
        """(wins, draws, losses) of player ``who`` (0: A, 1: B)."""
        wins = sum(1 for r in self.results if r.winner == who)
        draws = sum(1 for r in self.results if r.winner is None)
        return wins, draws, self.games - wins - draws

    def mean_score(self, who: int = 0) -> float:
        """Player ``who``'s average payoff per game."""
        sign = 1 if who == 0 else -1
        return sign * sum(r.score for r in self.results) / self.games if self.results else 0.0

    def score_ci95(self, who: int = 0, z: float = Z95) -> tuple[float, float]:
        """The 95% interval (or the one ``z`` asks for) of player ``who``'s average payoff: the Wilson interval of
        its payoffs mapped onto [0, 1] (a draw in a win/loss game counts half a win, as chess scores do), mapped
        back."""
        bound = game_type(self.game).max_payoff
        sign = 1 if who == 0 else -1
        shares = sum((sign * r.score + bound) / (2 * bound) for r in self.results)
        low, high = wilson(shares, self.games, z)
        return (2 * low - 1) * bound, (2 * high - 1) * bound

    @property
    def avg_plies(self) -> float:
        """The average length of a game, in its game's steps (plies, rounds: ``core.games.units_of``)."""
        return sum(r.plies for r in self.results) / self.games if self.results else 0.0

    @property
    def thinking(self) -> tuple[str, ...]:
        """The players (as reported: ``upp#2`` for a second ``upp``) that take the thinking budget (``limit``); the
        others decide at once, whatever it is."""
        labels = zip(_labels(self.names), self.names, strict=True)
        return tuple(label for label, name in labels if player_entry(name).thinks)

    def to_json(self) -> dict[str, Any]:
        players: dict[str, Any] = {}
        for who, label in enumerate(_labels(self.names)):
            wins, draws, losses = self.record(who)
            lo, hi = wilson(wins, self.games)
            score_lo, score_hi = self.score_ci95(who)
            players[label] = {
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_rate": wins / self.games if self.games else 0.0,
                "ci95": [round(lo, 4), round(hi, 4)],
                "mean_score": round(self.mean_score(who), 4),
                "mean_score_ci95": [round(score_lo, 4), round(score_hi, 4)],
                "won_by": dict(Counter(ending(r.reason) for r in self.results if r.winner == who)),
            }
        result: dict[str, Any] = {"game": self.game, "games": self.games, "thinking": list(self.thinking)}
        # The budget is said only where a player takes it: TCG's and Footstep's players decide at once.
        if self.thinking and self.limit.time is not None:
            result["seconds_per_move"] = self.limit.time
        if self.thinking and self.limit.playouts is not None:
            result["playouts_per_move"] = self.limit.playouts
        if self.thinking and self.limit.iterations is not None:
            result["depth"] = self.limit.iterations
        result["players"] = players
        result["avg_length"] = round(self.avg_plies, 2)
        result["length_unit"] = units_of(self.game)[1]
        return result


#: Where a match's games are played: given the games' specs, their results as they finish. The local process pool
#: (``_results``) unless a match is given another (``solvers.cluster.on_cluster``: Ray tasks on a cluster).
Runner = Callable[[list[GameSpec]], Iterator[GameResult]]


def run_match(
    game: str,
    names: tuple[str, str],
    games: int,
    limit: Limit,
    workers: int = 1,
    seed: int = 0,
    save_dir: str | None = None,
    progress: Callable[[MatchResult], None] | None = None,
    params: GameParams = NO_PARAMS,
    a_side: Side | None = None,
    first: Side | None = None,
    restarted: Callable[[str], None] | None = None,
    runner: Runner | None = None,
    finished: Callable[[GameResult], None] | None = None,
    enough: Callable[[MatchResult], bool] | None = None,
) -> MatchResult:
    """Play the match, on ``workers`` processes (1: in this process), or where ``runner`` plays games (a cluster);
    ``finished`` hears each game as it ends, then ``progress`` the match so far. ``enough`` is asked after every
    game: when it says so, the match stops there (the games under way are dropped) and returns the games finished.

    A worker process that dies breaks the pool: the games not finished are played again in a fresh one, with the
    same seeds (so the match's games are the same), and ``restarted`` hears it in one line. A game left unfinished
    ``MAX_TRIES`` times raises ``WorkersStoppedError``, with the games finished before in its ``match``."""
    for name in names:
        make_player(name, game)  # fail early, in this process, on an unknown name or a player of another game
    if save_dir is not None:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
    specs = game_specs(game, names, games, limit, seed, save_dir, params, a_side, first)
    match = MatchResult(names, limit, game)
    learning = any(_learns(make_player(name, game)) for name in set(names))
    # A player that learns its opponent reads the games played before: they are played in batches, each knowing the
    # ones before it, so the games are the same whatever the number of workers.
    batches = [specs[i : i + LEARNING_BATCH] for i in range(0, len(specs), LEARNING_BATCH)] if learning else [specs]
    play: Runner = runner if runner is not None else lambda batch: _results(batch, workers, restarted)
    history: list[tuple[str, int]] = []
    stopped_early = False
    for batch in batches:
        if learning:
            known = tuple(history[-LEARNING_HISTORY:])
            batch = [dataclasses.replace(spec, history=known) for spec in batch]
        # ``closing``: an exception here (Ctrl-C in ``progress``) or a match stopped early ends the workers now, not
        # when the generator is collected.
        done = []
        try:
            with closing(_generator(play(batch))) as results:
                for result in results:
                    if result.saved is not None and save_dir is not None:
                        # Sent back by a worker that may be on another machine: written here, whole or not at all.
                        write_text_atomically(record_path(save_dir, result.index), result.saved)
                        result = dataclasses.replace(result, saved=None)
                    match.results.append(result)
                    done.append(result)
                    if finished is not None:
                        finished(result)
                    if progress is not None:
                        progress(match)
                    if enough is not None and enough(match):
                        stopped_early = True
                        break
        except WorkersStoppedError as stopped:
            match.results.sort(key=lambda r: r.index)
            stopped.match = match
            raise
        if stopped_early:
            break
        history.extend((r.record, int(r.a_side)) for r in sorted(done, key=lambda r: r.index) if r.record)
    match.results.sort(key=lambda r: r.index)
    return match


def _generator(results: Iterator[GameResult]) -> Generator[GameResult, None, None]:
    """``results`` as a generator, so that ``closing`` it ends the runner's (a runner may return a plain
    iterator)."""
    if isinstance(results, Generator):
        return results

    def wrapped() -> Generator[GameResult, None, None]:
        yield from results

    return wrapped()


def _ignore_interrupts() -> None:
    """A worker's initializer. Ctrl-C signals every process of the terminal's group: a worker would fail its game
    with a traceback and take the next one. The parent alone answers it, and ends the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _results(
    specs: list[GameSpec], workers: int, restarted: Callable[[str], None] | None = None
) -> Generator[GameResult, None, None]:
    """The games' results as they finish. A worker that dies breaks its pool (its futures, and those of the games
    the other workers were playing or had not begun, fail with ``BrokenProcessPool``): the games finished are kept,
    the others are played in a fresh pool, from the same specs (so the same seeds)."""
    if workers <= 1:
        for spec in specs:
            yield play_game(spec)
        return
    pending = {spec.index: spec for spec in specs}
    tries: Counter[int] = Counter()
    while pending:
        # ``spawn``: fresh interpreters, the same on every platform, and safe whatever threads the parent runs.
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=_ignore_interrupts)
        try:
            futures: dict[Future[GameResult], GameSpec] = {}
            try:
                for spec in pending.values():
                    futures[pool.submit(play_game, spec)] = spec
                for future in as_completed(futures):
                    result = future.result()
                    del pending[futures[future].index]
                    yield result
            except BrokenProcessPool:  # a worker died: every future not done fails with it, soon
                wait(futures)
                for future, spec in futures.items():
                    if spec.index in pending and not isinstance(future.exception(), BrokenProcessPool):
                        result = future.result()  # finished before the pool broke (or a game's own failure)
                        del pending[spec.index]
                        yield result
        except BaseException:  # Ctrl-C, a failed game, or the consumer gone (GeneratorExit)
            _stop(pool)
            raise
        if not pending:
            pool.shutdown()
            return
        _stop(pool)
        tries.update(pending.keys())  # each game not finished: one more try lost
        worst = min(pending, key=lambda index: (-tries[index], index))
        if tries[worst] >= MAX_TRIES:
            times = "once" if tries[worst] == 1 else f"{tries[worst]} times"
            raise WorkersStoppedError(
                f"worker processes stopped {times} before game {worst + 1} could finish (killed, or out of memory)"
            )
        if restarted is not None:
            unfinished = (
                f"the {len(pending)} games not finished are" if len(pending) > 1 else "the game not finished is"
            )
            restarted(
                f"a worker process stopped (killed, or out of memory): {unfinished} played in fresh processes, "
                "with the same seeds"
            )


def _stop(pool: ProcessPoolExecutor) -> None:
    """End a match at once: drop the games not begun and terminate the workers in the middle of theirs (a record is
    written whole or not at all: ``Record.save`` renames a finished file). ``shutdown`` alone would wait for the
    games under way, and the interpreter's exit for the pending ones too. The pool's processes are private, but
    the public ``terminate_workers`` comes only in Python 3.14."""
    processes = list((pool._processes or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # a Thread (typeshed says otherwise)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
    # The pool's own thread notices its workers gone and closes its wake-up pipe: let it finish first, or the
    # interpreter's exit hook may write to that pipe as it closes ("Bad file descriptor" printed after Ctrl-C).
    if isinstance(manager, threading.Thread):
        manager.join(timeout=5)
