"""``nashplay arena``: a match between two Geister AIs, with a progress bar and confidence intervals."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from core.errors import NotationError
from core.geister import variant_by_name

if TYPE_CHECKING:
    from solvers.arena import MatchResult

#: The player names the arena knows; kept here (not imported) so that ``nashplay --help`` does not load numpy.
PLAYER_NAMES = ("random", "chototsu", "greedy", "mc", "mc-guided", "upp", "ismcts")


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    arena = commands.add_parser(
        "arena",
        help="play a match between two AIs and report wins with 95%% confidence intervals",
        description="Play GAMES games between two AIs, swapping the first player and the sides every game, on "
        "several processes. Prints wins, draws and losses per player with 95% Wilson confidence intervals, and "
        f"the average game length. Players: {', '.join(PLAYER_NAMES)}.",
    )
    arena.add_argument("game", help="the game: geister (or a Mini-Geister variant)")
    arena.add_argument("--players", required=True, help="two players, comma separated, e.g. upp,chototsu")
    arena.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    budget = arena.add_mutually_exclusive_group()
    budget.add_argument("--time", type=float, help="seconds per move (default 0.25)")
    budget.add_argument("--playouts", type=int, help="playouts per move instead of a time (reproducible)")
    arena.add_argument("--workers", type=int, default=2, help="processes to play on (default 2)")
    arena.add_argument("--seed", type=int, default=0, help="match seed: every game's seed derives from it")
    arena.add_argument("--save", metavar="DIR", help="save every game's record in DIR (game-0001.ngr, ...)")
    arena.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


def _progress_bar(started: float, total: int) -> Callable[[MatchResult], None]:
    def show(match: MatchResult) -> None:
        done = match.games
        width = 30
        filled = width * done // total
        a, b = match.names
        wins = match.record(0)[0], match.record(1)[0]
        elapsed = time.perf_counter() - started
        eta = elapsed / done * (total - done) if done else 0.0
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {a} {wins[0]} - {wins[1]} {b}  "
            f"{elapsed:.0f}s elapsed, ~{eta:.0f}s left "
        )
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def report(match: MatchResult) -> str:
    data = match.to_json()
    budget = (
        f"{match.limit.time} s per move"
        if match.limit.time is not None
        else f"{match.limit.playouts} playouts per move"
    )
    lines = [f"{data['games']} games, {budget}; average {data['avg_plies']} plies per game", ""]
    lines.append(f"{'player':<10} {'wins':>5} {'draws':>5} {'losses':>6} {'win rate':>8}   95% CI (Wilson)")
    for name, row in data["players"].items():
        lo, hi = row["ci95"]
        lines.append(
            f"{name:<10} {row['wins']:>5} {row['draws']:>5} {row['losses']:>6} {row['win_rate']:>8.3f}   "
            f"[{lo:.3f}, {hi:.3f}]"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from solvers.arena import run_match
    from solvers.players import Limit

    def fail(message: str) -> NoReturn:
        parser.exit(2, f"nashplay arena: error: {message}\n")

    try:
        variant_by_name(args.game)
    except NotationError as error:
        return fail(str(error))
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    if len(names) != 2:
        return fail(f"--players takes two names separated by a comma, like upp,chototsu (got {args.players!r})")
    unknown = [n for n in names if n not in PLAYER_NAMES]
    if unknown:
        return fail(f"unknown player {unknown[0]!r}: expected one of {', '.join(PLAYER_NAMES)}")
    if args.games < 1:
        return fail(f"--games must be at least 1, not {args.games}")
    if args.workers < 1:
        return fail(f"--workers must be at least 1, not {args.workers}")
    if args.time is not None and not args.time > 0:
        return fail(f"--time must be positive, not {args.time}")
    if args.playouts is not None and args.playouts < 1:
        return fail(f"--playouts must be at least 1, not {args.playouts}")
    limit = Limit(playouts=args.playouts) if args.playouts is not None else Limit(time=args.time or 0.25)
    progress = _progress_bar(time.perf_counter(), args.games) if sys.stderr.isatty() else None
    match = run_match(
        args.game,
        (names[0], names[1]),
        args.games,
        limit,
        workers=min(args.workers, args.games),
        seed=args.seed,
        save_dir=args.save,
        progress=progress,
    )
    print(json.dumps(match.to_json()) if args.json else report(match))
    return 0
