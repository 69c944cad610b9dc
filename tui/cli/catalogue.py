"""``nashplay list``: what the catalogues hold (every game, every player, the strongest player of each game), for
people and, with ``--json``, for scripts."""

from __future__ import annotations

import argparse
import json
from typing import Any

from core.games import GAME_TYPES
from solvers.catalogue import PLAYERS, STRONGEST, players_for
from tui.games import GAMES


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    listing = commands.add_parser(
        "list",
        help="list the games and players (the strongest of each game first)",
        description="Every game nashplay plays and every player, with the games each plays and the strongest "
        "player of each game (what the live advice uses).",
    )
    listing.add_argument("--json", action="store_true", help="one JSON object: games, players, strongest")


def catalogue() -> dict[str, Any]:
    """The catalogues as one object (the ``--json`` output)."""
    return {
        "games": [
            {
                "name": game.name,
                "title": GAMES[name].title if name in GAMES else game.title,
                "kind": game.kind,
                "family": game.family,
                "summary": game.summary,
                "players": [player.name for player in players_for(name)],
                # Whether the app plays it (``nashplay play``); every game has the commands.
                "app": name in GAMES,
            }
            # The app's order first (its menu's), then the games only the commands play.
            for name, game in (
                (name, GAME_TYPES[name]) for name in (*GAMES, *(n for n in GAME_TYPES if n not in GAMES))
            )
        ],
        "players": [
            {
                "name": entry.name,
                "description": entry.description,
                "games": list(entry.games),
                "runs": entry.runs,
            }
            for entry in PLAYERS.values()
        ],
        "strongest": dict(STRONGEST),
    }


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    data = catalogue()
    if args.json:
        print(json.dumps(data))
        return 0
    print("Games (nashplay play GAME; the strongest player first):")
    for game in data["games"]:
        best = data["strongest"][game["name"]]
        others = [name for name in game["players"] if name != best]
        summary = game["summary"] + ("" if game["app"] else " (commands only: analyse, solve, arena, review)")
        print(f"  {game['name']:<22} {game['title']}: {summary}")
        print(f"  {'':<22} players: {best} (strongest), {', '.join(others)}")
    print("\nPlayers:")
    for player in data["players"]:
        where = "thinks in the search process" if player["runs"] == "search" else "decides at once"
        print(f"  {player['name']:<14} {player['description']} ({where})")
    return 0
