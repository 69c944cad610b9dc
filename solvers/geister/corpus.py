"""A corpus of Geister games between many styles, with both sides' colours kept: what the models learn from.

Every player of the catalogue takes part (the search players at fixed depths or playout budgets, so that thousands
of games take an hour or so on two cores, and so that the same seed gives the same games on any machine), paired
with every other and with itself, on random set-ups of their own choosing, each side's budget drawn per game. A
game's record keeps both set-ups (``Setup1``, ``Setup2``): the colours a learner needs, which no player saw of its
opponent while it played.

The corpus is a folder: one record a game (``game-00001.ngr``) and ``index.jsonl``, one line a game (its file, the
players and budgets of each side, who moved first, the seed, the result and how it ended). A style can be held out
of training by its name (``CorpusGame.players``).
"""

from __future__ import annotations

import json
import random
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from functools import partial
from multiprocessing import get_context
from pathlib import Path

from core.game import Side
from core.geister import GeisterState, variant_by_name
from core.record import Record, write_text_atomically
from solvers.catalogue import make_player
from solvers.players import Limit, tell_game_over

__all__ = [
    "BUDGETS",
    "CORPUS_PLAYERS",
    "CorpusGame",
    "corpus_jobs",
    "generate",
    "load_corpus",
    "play_corpus_game",
    "play_corpus_game_sent",
]

#: The players of the corpus: every Geister player of the catalogue (the styles among them).
CORPUS_PLAYERS: tuple[str, ...] = (
    "random",
    "chototsu",
    "greedy",
    "mc",
    "upp",
    "ismcts",
    "purple",
    "bayes",
    "feeder",
    "bluffer",
    "rusher",
    "turtle",
)

#: The budgets a player's side is drawn from in each game: search depths for the alpha-beta players, playouts for
#: the Monte Carlo ones (both independent of the machine's speed); the rest decide at once.
BUDGETS: dict[str, tuple[Limit, ...]] = {
    **dict.fromkeys(
        ("purple", "bayes", "sage", "feeder", "bluffer", "rusher", "turtle"),
        (Limit(iterations=2), Limit(iterations=3), Limit(iterations=4)),
    ),
    **dict.fromkeys(("mc", "upp", "ismcts"), (Limit(playouts=300), Limit(playouts=1000))),
}
#: Steps after which a game is stopped (the ply limit ends every Geister game long before).
MAX_PLIES = 1_000


@dataclass(frozen=True)
class CorpusJob:
    """One game to play: plain data, so that it pickles for the worker processes."""

    index: int
    variant: str
    players: tuple[str, str]
    limits: tuple[Limit, Limit]
    first: Side
    seed: int
    folder: str


@dataclass(frozen=True)
class CorpusGame:
    """One game of the corpus, as ``index.jsonl`` lists it."""

    file: str
    #: Player 1's and player 2's names.
    players: tuple[str, str]
    #: Their budgets: ``"depth 3"``, ``"1000 playouts"`` or ``"-"``.
    budgets: tuple[str, str]
    first: int
    seed: int
    #: ``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``.
    result: str
    reason: str
    plies: int

    def record(self, folder: Path) -> Record:
        return Record.load(folder / self.file)


def _budget_text(limit: Limit) -> str:
    if limit.iterations:
        return f"depth {limit.iterations}"
    if limit.playouts:
        return f"{limit.playouts} playouts"
    return "-"


def corpus_jobs(
    games: int,
    seed: int,
    folder: str,
    players: tuple[str, ...] = CORPUS_PLAYERS,
    variant: str = "geister",
    focus: tuple[str, ...] = (),
) -> list[CorpusJob]:
    """``games`` games cycling over every ordered pair of ``players`` (each against each, both ways, and each
    against itself; only the pairs with a player of ``focus`` when given), each with its budgets and first mover
    drawn from the game's own seed."""
    pairs = [(a, b) for a in players for b in players if not focus or a in focus or b in focus]
    jobs = []
    for index in range(games):
        rng = random.Random(f"corpus:{seed}:{index}")
        one, two = pairs[index % len(pairs)]
        limits = (rng.choice(BUDGETS.get(one, (Limit(),))), rng.choice(BUDGETS.get(two, (Limit(),))))
        first = rng.choice((Side.P1, Side.P2))
        jobs.append(CorpusJob(index, variant, (one, two), limits, first, rng.getrandbits(48), folder))
    return jobs


def play_corpus_game(job: CorpusJob) -> CorpusGame:
    """Play and save one game (a top-level function, for the worker processes)."""
    game, record = _play(job)
    record.save(Path(job.folder) / game.file)
    return game


def play_corpus_game_sent(job: CorpusJob) -> tuple[CorpusGame, str]:
    """Play one game and send its record back instead of saving it (for a cluster's workers, which may be on other
    machines: the corpus is written where it was asked for)."""
    game, record = _play(job)
    return game, record.to_text()


def _play(job: CorpusJob) -> tuple[CorpusGame, Record]:
    variant = variant_by_name(job.variant)
    state = GeisterState(variant, job.first)
    players = {side: make_player(job.players[side], job.variant) for side in Side}
    rngs = {side: random.Random(job.seed * 2 + side) for side in Side}
    while not state.is_terminal() and state.ply < MAX_PLIES:
        side = Side(state.current_player())
        state.apply(players[side].choose(state.view(side), rngs[side], job.limits[side]))
    for side, player in players.items():
        tell_game_over(player, state.view(side))
    outcome = state.outcome()
    result = "1/2-1/2" if outcome is None or outcome.winner is None else ("1-0" if outcome.winner is Side.P1 else "0-1")
    name = f"game-{job.index + 1:05d}.ngr"
    budgets = (_budget_text(job.limits[0]), _budget_text(job.limits[1]))
    tags = {
        "Event": "nashplay corpus",
        "Round": str(job.index + 1),
        "Player1": job.players[0],
        "Player2": job.players[1],
        "Budget1": budgets[0],
        "Budget2": budgets[1],
        "Seed": str(job.seed),
    }
    game = CorpusGame(
        name,
        job.players,
        budgets,
        job.first.number,
        job.seed,
        result,
        outcome.reason if outcome is not None else "stopped",
        state.ply,
    )
    return game, Record.from_state(state, tags)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def generate(
    folder: Path,
    games: int,
    seed: int,
    workers: int = 2,
    players: tuple[str, ...] = CORPUS_PLAYERS,
    progress: Callable[[int, int], None] | None = None,
    focus: tuple[str, ...] = (),
    cluster: str | None = None,
) -> list[CorpusGame]:
    """Play the corpus into ``folder`` (games already in its index are kept, not played again); its games, in
    order. On ``workers`` processes, or on the Ray cluster at ``cluster`` (``solvers.cluster``: the same games)."""
    folder.mkdir(parents=True, exist_ok=True)
    index_path = folder / "index.jsonl"
    done = {game.file: game for game in load_index(folder)} if index_path.exists() else {}
    jobs = [
        job
        for job in corpus_jobs(games, seed, str(folder), players, focus=focus)
        if f"game-{job.index + 1:05d}.ngr" not in done
    ]
    finished = len(done)
    if progress is not None:
        progress(finished, games)
    with index_path.open("a", encoding="utf-8") as index:

        def keep(game: CorpusGame) -> None:
            nonlocal finished
            done[game.file] = game
            index.write(json.dumps(asdict(game)) + "\n")
            index.flush()
            finished += 1
            if progress is not None:
                progress(finished, games)

        if cluster is not None:
            from solvers.cluster import cluster_map, warm_players

            warm = partial(warm_players, jobs[0].variant, players) if jobs else None
            for game, text in cluster_map(play_corpus_game_sent, jobs, cluster, warm):
                write_text_atomically(folder / game.file, text)
                keep(game)
        elif workers <= 1:
            for job in jobs:
                keep(play_corpus_game(job))
        else:
            pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=_ignore_interrupts)
            try:
                for future in as_completed([pool.submit(play_corpus_game, job) for job in jobs]):
                    keep(future.result())
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                for process in list((pool._processes or {}).values()):
                    process.terminate()
                raise
            pool.shutdown()
    return sorted(done.values(), key=lambda game: game.file)


def load_index(folder: Path) -> list[CorpusGame]:
    games = []
    for line in (folder / "index.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            data = json.loads(line)
            data["players"] = tuple(data["players"])
            data["budgets"] = tuple(data["budgets"])
            games.append(CorpusGame(**data))
    return sorted(games, key=lambda game: game.file)


def load_corpus(folder: Path, without: tuple[str, ...] = (), only: tuple[str, ...] = ()) -> Iterator[CorpusGame]:
    """The corpus's games, without those where a player of ``without`` plays, or only those where one of ``only``
    plays (a held-out style's games)."""
    for game in load_index(folder):
        if without and set(game.players) & set(without):
            continue
        if only and not set(game.players) & set(only):
            continue
        yield game
