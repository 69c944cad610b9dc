"""``nashplay ladder``: Elo ratings with 95% intervals over every arena game stored (``tui.results_store``), per
game, with each pairing's games and results."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, NoReturn

from core.games import GAME_TYPES
from tui.cli.common import plural

if TYPE_CHECKING:
    from solvers.ratings import Ratings


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ladder = commands.add_parser(
        "ladder",
        help="rate every player from the arena games stored (Elo with 95%% intervals)",
        description="Rates the players of every arena match played on this machine (they are stored in the state "
        "folder's results.sqlite) by maximum likelihood on the logistic Elo scale (Bradley-Terry, a draw half a "
        "win, BayesElo's prior of two virtual draws per pairing; the average rating is 0), with 95% intervals, "
        "and lists each pairing's games, wins, draws and losses. A player with a thinking budget is named with "
        "it (upp@1000 playouts): another budget is another player.",
    )
    ladder.add_argument("game", nargs="?", metavar="GAME", help=f"only this game: one of {', '.join(GAME_TYPES)}")
    ladder.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from solvers.ratings import Pairing, fit_ratings
    from tui.results_store import ResultsStore, ResultsStoreError, store_path

    def fail(message: str, status: int = 2) -> NoReturn:
        parser.exit(status, f"nashplay ladder: error: {message}\n")

    if args.game is not None and args.game not in GAME_TYPES:
        fail(f"{args.game[:30]!r}: unknown game; the games are {', '.join(GAME_TYPES)}")
    if not store_path().exists():
        fail("no arena game is stored yet: play some with nashplay arena", 1)
    try:
        with ResultsStore() as store:
            stored = list(store.games(args.game))
    except ResultsStoreError as error:
        fail(str(error), 1)
    by_game: dict[str, dict[tuple[str, str], Pairing]] = {}
    for game in stored:
        if game.player_a == game.player_b:
            continue  # a player against itself says nothing of its rating
        first, second = sorted((game.player_a, game.player_b))
        pairing = by_game.setdefault(game.game, {}).setdefault((first, second), Pairing(first, second))
        share = game.share_a if first == game.player_a else 1 - game.share_a
        winner = None if game.winner is None else (game.player_a if game.winner == "a" else game.player_b)
        pairing.score += share
        if winner is None:
            pairing.draws += 1
        elif winner == first:
            pairing.wins += 1
        else:
            pairing.losses += 1
    if not by_game:
        where = f" of {args.game}" if args.game is not None else ""
        fail(f"no arena game{where} between two different players is stored yet", 1)
    ladders = {game: fit_ratings(pairings.values()) for game, pairings in sorted(by_game.items())}
    if args.json:
        print(json.dumps({"games": {game: ladder_json(ratings) for game, ratings in ladders.items()}}))
        return 0
    print("\n\n".join(ladder_text(game, ratings) for game, ratings in ladders.items()))
    return 0


def ladder_json(ratings: Ratings) -> dict[str, Any]:
    return {
        "anchor": "average 0",
        "connected": ratings.connected,
        "players": [
            {
                "player": r.player,
                "elo": round(r.elo, 1),
                "ci95": [round(r.low, 1), round(r.high, 1)],
                "games": r.games,
                "score": round(r.score, 4),
            }
            for r in ratings.ratings
        ],
        "pairings": [
            {
                "players": [p.first, p.second],
                "games": p.games,
                "wins": p.wins,
                "draws": p.draws,
                "losses": p.losses,
            }
            for p in ratings.pairings
        ],
    }


def ladder_text(game: str, ratings: Ratings) -> str:
    games = sum(p.games for p in ratings.pairings)
    lines = [
        f"{GAME_TYPES[game].title}: {plural(len(ratings.ratings), 'player')}, {plural(games, 'game')} "
        "(Elo, average 0, 95% intervals)"
    ]
    if not ratings.connected:
        lines.append("Some players never met the others, even through third players: compare only within a group.")
    wide = max(6, *(len(r.player) for r in ratings.ratings))
    lines.append(f"{'rank':>4}  {'player':<{wide}} {'Elo':>6}   {'95% interval':<15} {'games':>6} {'score':>6}")
    for rank, r in enumerate(ratings.ratings, start=1):
        interval = f"[{r.low:+.0f}, {r.high:+.0f}]"
        lines.append(
            f"{rank:>4}  {r.player:<{wide}} {r.elo:>+6.0f}   {interval:<15} {r.games:>6} {100 * r.score:>5.1f}%"
        )
    lines.append("")
    pair_wide = max(len(f"{p.first} - {p.second}") for p in ratings.pairings)
    lines.append(f"{'pairing':<{pair_wide}} {'games':>6} {'wins':>5} {'draws':>5} {'losses':>6}")
    for p in ratings.pairings:
        lines.append(f"{p.first + ' - ' + p.second:<{pair_wide}} {p.games:>6} {p.wins:>5} {p.draws:>5} {p.losses:>6}")
    return "\n".join(lines)
