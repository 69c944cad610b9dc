"""Matches between Geister players, on several processes, with Wilson confidence intervals.

A match of ``games`` games between players A and B swaps the first player and the sides every game (A moves first
in even games; A plays player 1 in games 0, 1, 4, 5, ... and player 2 in the others), so neither side nor move
order favours anyone. Every game has its own seed, derived from the match seed and the game's number, so one game
can be replayed alone and a match gives the same games whatever the number of workers (with playout budgets;
time budgets depend on the machine's speed).

Each player sees only its own view (``GeisterState.view``) and gets a fresh instance per game (UPP's beliefs do
not leak from one game to the next).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from core.game import Side
from core.geister import GeisterState, variant_by_name
from core.record import Record
from solvers.baselines import PLAYERS
from solvers.greedy import GreedyPlayer
from solvers.montecarlo import GuidedMonteCarloPlayer, ISMCTSPlayer, MonteCarloPlayer, UPPPlayer
from solvers.players import Limit, Player
from solvers.stats import wilson

__all__ = ["ALL_PLAYERS", "GameResult", "GameSpec", "MatchResult", "make_player", "play_game", "run_match"]

#: Every Geister AI by its command-line name (the baselines' ``PLAYERS`` plus the search players).
ALL_PLAYERS: dict[str, Callable[[], Player]] = {
    **PLAYERS,
    GreedyPlayer.name: GreedyPlayer,
    MonteCarloPlayer.name: MonteCarloPlayer,
    GuidedMonteCarloPlayer.name: GuidedMonteCarloPlayer,
    UPPPlayer.name: UPPPlayer,
    ISMCTSPlayer.name: ISMCTSPlayer,
}


def make_player(name: str) -> Player:
    try:
        return ALL_PLAYERS[name]()
    except KeyError:
        raise ValueError(f"unknown player {name!r}: expected one of {', '.join(ALL_PLAYERS)}") from None


@dataclass(frozen=True)
class GameSpec:
    """One game of a match: everything a worker process needs (plain data, so it pickles under ``spawn``)."""

    index: int
    variant: str
    names: tuple[str, str]
    a_side: Side
    first: Side
    seed: int
    limit: Limit
    save_dir: str | None = None


@dataclass(frozen=True)
class GameResult:
    index: int
    #: 0 if player A won, 1 if B won, ``None`` for a draw.
    winner: int | None
    plies: int
    reason: str
    a_side: Side
    first: Side


def _labels(names: tuple[str, str]) -> tuple[str, str]:
    """Names as reported: the same player twice becomes ``upp`` and ``upp#2``."""
    return (names[0], names[1]) if names[0] != names[1] else (names[0], f"{names[1]}#2")


def play_game(spec: GameSpec) -> GameResult:
    """Play one game (a top-level function, so worker processes started by ``spawn`` can run it)."""
    variant = variant_by_name(spec.variant)
    state = GeisterState(variant, spec.first)
    by_side = {spec.a_side: 0, spec.a_side.other: 1}
    players = {side: make_player(spec.names[who]) for side, who in by_side.items()}
    rngs = {side: random.Random(spec.seed * 2 + who) for side, who in by_side.items()}
    while not state.is_terminal():
        side = Side(state.current_player())
        state.apply(players[side].choose(state.view(side), rngs[side], spec.limit))
    outcome = state.outcome()
    assert outcome is not None
    if spec.save_dir is not None:
        labels = _labels(spec.names)
        tags = {
            "Event": f"nashplay arena {labels[0]} vs {labels[1]}",
            "Round": str(spec.index + 1),
            "Player1": labels[by_side[Side.P1]],
            "Player2": labels[by_side[Side.P2]],
            "Seed": str(spec.seed),
        }
        Record.from_game(state, tags).save(Path(spec.save_dir) / f"game-{spec.index + 1:04d}.ngr")
    winner = None if outcome.winner is None else by_side[outcome.winner]
    return GameResult(spec.index, winner, state.ply, outcome.reason, spec.a_side, spec.first)


def game_specs(
    variant: str,
    names: tuple[str, str],
    games: int,
    limit: Limit,
    seed: int = 0,
    save_dir: str | None = None,
) -> list[GameSpec]:
    specs = []
    for index in range(games):
        first_is_a = index % 2 == 0
        a_side = Side.P1 if index // 2 % 2 == 0 else Side.P2
        first = a_side if first_is_a else a_side.other
        game_seed = random.Random(f"{seed}:{index}").getrandbits(48)
        specs.append(GameSpec(index, variant, names, a_side, first, game_seed, limit, save_dir))
    return specs


@dataclass
class MatchResult:
    names: tuple[str, str]
    limit: Limit
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    def record(self, who: int) -> tuple[int, int, int]:
        """(wins, draws, losses) of player ``who`` (0: A, 1: B)."""
        wins = sum(1 for r in self.results if r.winner == who)
        draws = sum(1 for r in self.results if r.winner is None)
        return wins, draws, self.games - wins - draws

    @property
    def avg_plies(self) -> float:
        return sum(r.plies for r in self.results) / self.games if self.results else 0.0

    def to_json(self) -> dict[str, Any]:
        players: dict[str, Any] = {}
        for who, label in enumerate(_labels(self.names)):
            wins, draws, losses = self.record(who)
            lo, hi = wilson(wins, self.games)
            players[label] = {
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "win_rate": wins / self.games if self.games else 0.0,
                "ci95": [round(lo, 4), round(hi, 4)],
            }
        result: dict[str, Any] = {"games": self.games}
        if self.limit.time is not None:
            result["seconds_per_move"] = self.limit.time
        if self.limit.playouts is not None:
            result["playouts_per_move"] = self.limit.playouts
        result["players"] = players
        result["avg_plies"] = round(self.avg_plies, 2)
        return result


def run_match(
    variant: str,
    names: tuple[str, str],
    games: int,
    limit: Limit,
    workers: int = 1,
    seed: int = 0,
    save_dir: str | None = None,
    progress: Callable[[MatchResult], None] | None = None,
) -> MatchResult:
    """Play the match, on ``workers`` processes (1: in this process); ``progress`` hears after every game."""
    for name in names:
        make_player(name)  # fail early, in this process, on an unknown name
    if save_dir is not None:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
    specs = game_specs(variant, names, games, limit, seed, save_dir)
    match = MatchResult(names, limit)
    for result in _results(specs, workers):
        match.results.append(result)
        if progress is not None:
            progress(match)
    match.results.sort(key=lambda r: r.index)
    return match


def _results(specs: list[GameSpec], workers: int) -> Iterator[GameResult]:
    if workers <= 1:
        for spec in specs:
            yield play_game(spec)
        return
    # ``spawn``: fresh interpreters, the same on every platform, and safe whatever threads the parent runs.
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(play_game, spec) for spec in specs]
        for future in as_completed(futures):
            yield future.result()
