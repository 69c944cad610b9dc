"""``nashplay connect``: play on a Geister contest server, as a person in the app or headless as one of our AIs.

Headless play is the contest format: game after game, closing after each result and reconnecting (with retries)
for the next, one line per game and a summary at the end (wins, draws, losses, and a 95% Wilson interval of the
win rate). Every game's record is saved, with the server's board strings as comments.

Nothing heavy is imported at module level: ``nashplay --help`` must not load numpy (the search AIs do).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from core.contest import DEFAULT_BUDGET, DEFAULT_PER_MOVE, DEFAULT_PLY_LIMIT, FIRST_PORT, parse_red_letters
from core.errors import NotationError
from solvers.catalogue import make_player, players_for, strongest
from solvers.stats import wilson
from tui.cli.common import open_app
from tui.config import ContestSettings, ServerGameConfig
from tui.games import seed_value

#: The names ``--as`` accepts: the person at the keyboard (in the app), ``ai`` (the catalogue's strongest Geister
#: player, whichever that is), or any of the catalogue's Geister players by name.
PLAYER_NAMES = ("human", "ai", *(entry.name for entry in players_for("geister")))

EPILOG = """\
examples:
  nashplay connect                                   play the server game in the app (first player)
  nashplay connect --port 10001 --as ai --games 100   our strongest AI plays 100 games as the second player
  nashplay connect --host contest.example.org --as purple --time 1 --setup BCFG --json

Ports: 10000 is the player who moves first, 10001 the second. --setup names the 4 red pieces by the server's
letters: A B C D are the front row and E F G H the back row, left to right as you look at the board.
"""


def add_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], parents: Sequence[argparse.ArgumentParser] = ()
) -> None:
    """``parents``: options every app command takes (``--ascii``, ``--theme``), for the app's server mode."""
    connect = commands.add_parser(
        "connect",
        parents=list(parents),
        help="play on a Geister contest server (GPW/GAT protocol), yourself or with one of our AIs",
        description="Connect to a Geister contest server. --as human (the default) opens the app on the server "
        "game with live advice; any other player plays headless, game after game, printing each result and a "
        "summary. Every game's record is saved (nashplay notation, the server's board strings as comments).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    connect.add_argument("--host", default="127.0.0.1", help="the server's address (default 127.0.0.1)")
    connect.add_argument("--port", type=int, default=FIRST_PORT, help="10000: move first (default); 10001: move second")
    connect.add_argument(
        "--as",
        dest="player",
        default="human",
        choices=PLAYER_NAMES,
        help=f"who plays: human (default), ai (our strongest: {strongest('geister').name}) or an AI by name",
    )
    connect.add_argument("--time", type=float, help="an AI's thinking time per move, in seconds")
    connect.add_argument("--games", type=int, default=1, help="games to play in a row (default 1)")
    connect.add_argument(
        "--setup", default="random", help="'random' (the player chooses), or the letters of the 4 red pieces (BCFG)"
    )
    connect.add_argument("--name", help="your name, for the records")
    connect.add_argument("--save", metavar="DIR", help="where records go (default: the state folder's contest/)")
    connect.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    connect.add_argument("--seed", type=seed_value, help="seed for the AI, for reproducible play")
    server = connect.add_argument_group("server settings")
    server.add_argument(
        "--ply-limit",
        type=int,
        default=DEFAULT_PLY_LIMIT,
        help=f"plies before a draw (default {DEFAULT_PLY_LIMIT}, the reference server; some forks use 200)",
    )
    server.add_argument(
        "--budget", type=float, default=DEFAULT_BUDGET, help=f"time budget per player (default {DEFAULT_BUDGET:g} s)"
    )
    server.add_argument(
        "--per-move",
        type=float,
        default=DEFAULT_PER_MOVE,
        help=f"allowance per move once the budget is spent (default {DEFAULT_PER_MOVE:g} s)",
    )
    server.add_argument(
        "--connect-timeout",
        type=float,
        default=30.0,
        help="give up when the server refuses connections for this long (default 30 s)",
    )


def check_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str | None:
    """Validate the options (exit 2 with a clear message); returns the fixed red letters, if any."""

    def fail(message: str) -> NoReturn:
        parser.exit(2, f"nashplay connect: error: {message}\n")

    if not 1 <= args.port <= 65535:
        fail(f"--port must be 1..65535, not {args.port}")
    if args.games < 1:
        fail(f"--games must be at least 1, not {args.games}")
    if args.time is not None and args.time <= 0:
        fail(f"--time must be positive, not {args.time}")
    if args.ply_limit < 2:
        fail(f"--ply-limit must be at least 2, not {args.ply_limit}")
    if args.budget < 0 or args.per_move <= 0:
        fail("--budget must be >= 0 and --per-move > 0")
    if args.connect_timeout < 0:
        fail("--connect-timeout must be >= 0")
    if args.setup.lower() == "random":
        return None
    try:
        return parse_red_letters(args.setup)
    except NotationError as error:
        fail(f"--setup: {error}")


def player_factory(name: str) -> Callable[[], Any]:
    """A maker of fresh catalogue players called ``name`` for Geister (one per game: UPP learns within a game only).
    ``UnknownPlayerError`` (a ``ValueError``) for a name that does not play Geister."""
    make_player(name, "geister")  # fail now, not at the first game
    return lambda: make_player(name, "geister")


def config_from_args(args: argparse.Namespace) -> ServerGameConfig:
    """The app's server game for ``nashplay connect``'s options (already checked by ``check_args``)."""
    setup = None if args.setup.lower() == "random" else parse_red_letters(args.setup)
    settings = ContestSettings(
        ply_limit=args.ply_limit,
        budget=args.budget,
        per_move=args.per_move,
        connect_deadline=args.connect_timeout,
    )
    return ServerGameConfig(
        host=args.host,
        port=args.port,
        setup=setup,
        name=args.name,
        save_dir=Path(args.save).expanduser() if args.save else _default_save_dir(),
        settings=settings,
        seed=args.seed,
    )


def run_human(args: argparse.Namespace) -> int:
    """The app on the server game; says where the records are once the app has gone."""
    from tui.app import StartRequest

    config = config_from_args(args)
    code = open_app(StartRequest("server", server=config), args)
    if config.save_dir is not None:
        # Said after the app has gone: the screen showed each record's path, the terminal keeps where they all are.
        print(f"nashplay connect: game records are in {config.save_dir}")
    return code


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    letters = check_args(args, parser)
    if args.player == "human":
        return run_human(args)
    if args.player == "ai":
        args.player = strongest("geister").name  # the reports name the player that played
    try:
        factory = player_factory(args.player)
    except ValueError as error:
        parser.exit(2, f"nashplay connect: error: {error}\n")
    tally = Tally()
    save_dir = Path(args.save) if args.save else _default_save_dir()
    try:
        asyncio.run(_headless(args, factory, letters, save_dir, tally))
    except KeyboardInterrupt:
        # play_game has saved the unfinished game's record on its way out; report what was played.
        print("interrupted", file=sys.stderr)
        tally.print(args, save_dir)
        return 130
    tally.print(args, save_dir)
    return 0 if tally.errors == 0 else 1


def _default_save_dir() -> Path:
    from tui.storage import state_dir

    return state_dir() / "contest"


@dataclass
class Tally:
    """Results so far, kept outside the event loop so that an interrupted run still prints its summary."""

    counts: dict[str, int] = field(default_factory=lambda: {"won": 0, "draw": 0, "lost": 0})
    errors: int = 0
    played: int = 0

    def summary(self, args: argparse.Namespace, save_dir: Path) -> dict[str, Any]:
        finished = sum(self.counts.values())
        low, high = wilson(self.counts["won"], finished)
        return {
            "games": self.played,
            "wins": self.counts["won"],
            "draws": self.counts["draw"],
            "losses": self.counts["lost"],
            "errors": self.errors,
            "win_rate": self.counts["won"] / finished if finished else None,
            "win_rate_95": [round(low, 4), round(high, 4)],
            "player": args.player,
            "records": str(save_dir),
        }

    def print(self, args: argparse.Namespace, save_dir: Path) -> None:
        summary = self.summary(args, save_dir)
        if args.json:
            print(json.dumps(summary))
            return
        rate = "n/a" if summary["win_rate"] is None else f"{summary['win_rate']:.1%}"
        low, high = summary["win_rate_95"]
        print(
            f"{self.played} games as {args.player}: {summary['wins']} wins, {summary['draws']} draws, "
            f"{summary['losses']} losses, {self.errors} errors; win rate {rate} (95% Wilson interval "
            f"{low:.1%} - {high:.1%}); records in {save_dir}"
        )


async def _headless(
    args: argparse.Namespace, factory: Callable[[], Any], letters: str | None, save_dir: Path, tally: Tally
) -> None:
    """Game after game: a fresh player and a fresh connection each time; a failed game is counted and reported,
    and play goes on (the server starts the next game), except when the server cannot be reached at all."""
    from tui.contest_events import ConnectError, Connecting, ContestError, ContestEvent
    from tui.net import AIPlayer, play_game

    settings = ContestSettings(
        ply_limit=args.ply_limit,
        budget=args.budget,
        per_move=args.per_move,
        connect_deadline=args.connect_timeout,
    )
    rng = random.Random(args.seed)
    out = sys.stderr if args.json else sys.stdout

    def on_event(event: ContestEvent) -> None:
        if isinstance(event, Connecting):
            print(f"  {event.text}", file=sys.stderr, flush=True)

    for number in range(1, args.games + 1):
        player = AIPlayer(factory(), random.Random(rng.getrandbits(64)), args.time, letters, False)
        try:
            result = await play_game(
                args.host,
                args.port,
                player,
                settings=settings,
                on_event=on_event,
                save_dir=save_dir,
                game_number=number,
                name=args.name,
            )
        except ConnectError as error:
            tally.errors += 1
            print(f"game {number}: {error}", file=sys.stderr, flush=True)
            return  # the server is gone: more attempts would only wait out the same deadline again
        except ContestError as error:
            tally.errors += 1
            tally.played += 1
            print(f"game {number}: error: {error}", file=sys.stderr, flush=True)
            continue
        tally.played += 1
        tally.counts[result.result] += 1
        where = f" [{result.record_path}]" if result.record_path else ""
        note = f" (note: {result.note})" if result.note else ""
        print(f"game {number}: {result.summary}{note}{where}", file=out, flush=True)
