"""``nashplay connect``: play on a Geister contest server, as a person in the app or headless as one of our AIs.

Headless play is the contest format: game after game, closing after each result and reconnecting (with retries)
for the next, one line per game and a summary at the end (wins, draws, losses, and a 95% Wilson interval of the
win rate). Every game's record is saved, with the server's board strings as comments, after every move (unfinished
until the end, so that even ``kill -9`` loses at most the move in hand) and however the game ends: a result, an
error, Ctrl-C, SIGTERM or SIGHUP. A connection the server drops before ``SET?`` is not a game (no
record, no error); a few failed games in a row stop the run.

Nothing heavy is imported at module level: ``nashplay --help`` must not load numpy (the search AIs do).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import math
import random
import signal
import sys
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from core.contest import DEFAULT_BUDGET, DEFAULT_PER_MOVE, DEFAULT_PLY_LIMIT, FIRST_PORT, parse_red_letters
from core.errors import NotationError, quoted
from core.record import prepare_record_folder, remove_stale_temporaries
from solvers.catalogue import make_player, players_for, strongest
from solvers.stats import wilson
from tui.arguments import seed_number
from tui.cli.common import open_app, plural
from tui.config import ContestSettings, ServerGameConfig

if TYPE_CHECKING:
    from tui.contest_events import ContestEvent
    from tui.opponents import OpponentMemory

DEFAULT_SETTINGS = ContestSettings()

#: The names ``--as`` accepts: the person at the keyboard (in the app), ``ai`` (the catalogue's strongest Geister
#: player, whichever that is), or any of the catalogue's Geister players by name.
PLAYER_NAMES = ("human", "ai", *(entry.name for entry in players_for("geister")))

# ---- the bounds of the numbers (outside them, argparse refuses the option in one line with the reason)

#: An AI's thinking time per move: an hour is far beyond any contest's clock (the reference server allows 10 s a
#: move once its 600 s budget is spent), and the time is cut to fit the clock anyway.
MAX_THINK = 3600.0
#: A player's time budget: a day; the reference server gives 600 s, and no contest plays one game for longer.
MAX_BUDGET = 86400.0
#: The per-move allowance once the budget is spent: an hour (the reference server: 10 s).
MAX_PER_MOVE = 3600.0
#: How long to keep trying to connect: a day (a contest server down for longer is not coming back this run).
MAX_CONNECT_TIMEOUT = 86400.0
#: The longest wait for the server to start a game: a day (a queued connection may wait out others' games).
MAX_START_TIMEOUT = 86400.0
#: Games in a row: a contest plays hundreds; 100,000 is days of play and as many record files.
MAX_GAMES = 100_000
#: The draw limit: the reference server plays 300 plies, forks 200; 10,000 is no contest's setting.
MAX_PLY_LIMIT = 10_000
#: Headless play stops after this many failed games in a row: the server or the network is not fit for play, and
#: going on would only write a broken record per game.
MAX_FAILED_IN_A_ROW = 3
#: Say what we are waiting for once the server has been silent this long after accepting the connection (a game
#: that starts within a second needs no word), then again every ``WAITING_REMINDER`` seconds.
SAY_WAITING_AFTER = 1.0
WAITING_REMINDER = 30.0


def _quoted(text: str) -> str:
    """Bad input as a message quotes it: at most a few dozen characters."""
    return repr(text) if len(text) <= 30 else repr(text[:27] + "...")


def seconds_option(high: float, why: str, zero: bool = False) -> Callable[[str], float]:
    """An argparse type for seconds in ``(0, high]`` (``[0, high]`` with ``zero``); NaN and infinity are refused
    (NaN passes every comparison the checks make, and forfeits or retries for ever)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of seconds, not {_quoted(text)}") from None
        low_ok = value >= 0 if zero else value > 0
        if not (math.isfinite(value) and low_ok and value <= high):
            bound = f"from 0 to {high:g} s" if zero else f"more than 0 and at most {high:g} s"
            raise argparse.ArgumentTypeError(f"must be {bound} ({why}), not {_quoted(text)}")
        return value

    return parse


def count_option(low: int, high: int, why: str) -> Callable[[str], int]:
    """An argparse type for a whole number in ``[low, high]``."""

    def parse(text: str) -> int:
        out_of_bounds = argparse.ArgumentTypeError(f"must be {low} to {high} ({why}), not {_quoted(text)}")
        try:
            value = int(text)
        except ValueError:
            if text.strip().lstrip("+-").isdigit():  # thousands of digits, which int() refuses to read
                raise out_of_bounds from None
            raise argparse.ArgumentTypeError(f"expected a whole number, not {_quoted(text)}") from None
        if not low <= value <= high:
            raise out_of_bounds
        return value

    return parse


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
    connect.add_argument(
        "--port",
        type=count_option(1, 65535, "a TCP port"),
        default=FIRST_PORT,
        help="10000: move first (default); 10001: move second",
    )
    connect.add_argument(
        "--as",
        dest="player",
        default="human",
        choices=PLAYER_NAMES,
        help=f"who plays: human (default), ai (our strongest: {strongest('geister').name}) or an AI by name",
    )
    connect.add_argument(
        "--time",
        type=seconds_option(MAX_THINK, "an hour a move is beyond any contest's clock"),
        help="an AI's thinking time per move, in seconds",
    )
    connect.add_argument(
        "--games",
        type=count_option(1, MAX_GAMES, "a contest plays hundreds; each game writes a record"),
        default=1,
        help=f"games to play in a row (default 1; at most {MAX_GAMES:,}); play stops after "
        f"{MAX_FAILED_IN_A_ROW} failed games in a row",
    )
    connect.add_argument(
        "--setup", default="random", help="'random' (the player chooses), or the letters of the 4 red pieces (BCFG)"
    )
    connect.add_argument("--name", help="your name, for the records")
    connect.add_argument(
        "--opponent",
        help="the opponent's name, for what our AI remembers of it between games and sessions (default: the host)",
    )
    connect.add_argument("--save", metavar="DIR", help="where records go (default: the state folder's contest/)")
    connect.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    connect.add_argument("--seed", type=seed_number, help="seed for the AI, for reproducible play")
    server = connect.add_argument_group("server settings")
    server.add_argument(
        "--ply-limit",
        type=count_option(2, MAX_PLY_LIMIT, "the reference server plays 300, forks 200"),
        default=DEFAULT_PLY_LIMIT,
        help=f"plies before a draw (default {DEFAULT_PLY_LIMIT}, the reference server; some forks use 200)",
    )
    server.add_argument(
        "--budget",
        type=seconds_option(MAX_BUDGET, "a day; the reference server gives 600 s", zero=True),
        default=DEFAULT_BUDGET,
        help=f"time budget per player (default {DEFAULT_BUDGET:g} s)",
    )
    server.add_argument(
        "--per-move",
        type=seconds_option(MAX_PER_MOVE, "an hour; the reference server gives 10 s"),
        default=DEFAULT_PER_MOVE,
        help=f"allowance per move once the budget is spent (default {DEFAULT_PER_MOVE:g} s)",
    )
    server.add_argument(
        "--connect-timeout",
        type=seconds_option(MAX_CONNECT_TIMEOUT, "a day; beyond it nobody is waiting for the answer", zero=True),
        default=DEFAULT_SETTINGS.connect_deadline,
        help="give up when the server refuses connections (or drops them before a game begins) for this long "
        f"(default {DEFAULT_SETTINGS.connect_deadline:g} s)",
    )
    server.add_argument(
        "--start-timeout",
        type=seconds_option(MAX_START_TIMEOUT, "a day; a queued connection may wait out other games"),
        default=DEFAULT_SETTINGS.start_timeout,
        help="give up when the server, once connected, starts no game (SET?) for this long "
        f"(default {DEFAULT_SETTINGS.start_timeout:g} s)",
    )


def check_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str | None:
    """Validate the options (exit 2 with a clear message); returns the fixed red letters, if any."""

    def fail(message: str) -> NoReturn:
        parser.exit(2, f"nashplay connect: error: {message}\n")

    # The numbers were bounded by their argparse types.
    letters = None
    if args.setup.lower() != "random":
        try:
            letters = parse_red_letters(args.setup)
        except NotationError as error:
            fail(f"--setup: {error}")
    # Asked before the first game, as arena does: a folder named on purpose that takes no records is a mistake to
    # fix now, not games played for nothing (play_game would save nowhere, and say nothing).
    if args.save is not None:
        try:
            prepare_record_folder(Path(args.save).expanduser())
        except OSError as error:
            fail(f"--save: cannot write records in {quoted(args.save)}: {error.strerror or error}")
    return letters


def save_dir_for(args: argparse.Namespace) -> Path | None:
    """Where the records go: ``--save`` (checked by ``check_args``), else the state folder's ``contest/``; ``None``
    when that cannot take them, which is said once on stderr (the games are worth playing all the same). The folder
    is cleaned of the temporary files killed writes left (``core.record.remove_stale_temporaries``)."""
    if args.save is not None:
        folder = Path(args.save).expanduser()
    else:
        folder = _default_save_dir()
        try:
            prepare_record_folder(folder)
        except OSError as error:
            print(
                f"nashplay connect: game records will not be saved: cannot write in {folder}: "
                f"{error.strerror or error}",
                file=sys.stderr,
                flush=True,
            )
            return None
    # The records are written through temporary files, as the app's are: what a killed connect left there goes now
    # (a folder named by --save is one the app never opens, so it would never go otherwise).
    remove_stale_temporaries(folder)
    return folder


def player_factory(name: str) -> Callable[[], Any]:
    """A maker of fresh catalogue players called ``name`` for Geister (one per game: UPP learns within a game only).
    ``UnknownPlayerError`` (a ``ValueError``) for a name that does not play Geister."""
    make_player(name, "geister")  # fail now, not at the first game
    return lambda: make_player(name, "geister")


def config_from_args(args: argparse.Namespace) -> ServerGameConfig:
    """The app's server game for ``nashplay connect``'s options (already checked by ``check_args``)."""
    setup = None if args.setup.lower() == "random" else parse_red_letters(args.setup)
    return ServerGameConfig(
        host=args.host,
        port=args.port,
        setup=setup,
        name=args.name,
        save_dir=Path(args.save).expanduser() if args.save else _default_save_dir(),
        settings=settings_from_args(args),
        seed=args.seed,
    )


def settings_from_args(args: argparse.Namespace) -> ContestSettings:
    """The server settings of ``nashplay connect``'s options (``start_timeout`` may be missing on a namespace built by
    hand: the default then)."""
    return ContestSettings(
        ply_limit=args.ply_limit,
        budget=args.budget,
        per_move=args.per_move,
        connect_deadline=args.connect_timeout,
        start_timeout=getattr(args, "start_timeout", DEFAULT_SETTINGS.start_timeout),
    )


def run_human(args: argparse.Namespace) -> int:
    """The app on the server game; says where the records are once the app has gone."""
    from tui.app import StartRequest

    save_dir = save_dir_for(args)  # None: the screen says of each game that its record could not be saved
    config = dataclasses.replace(config_from_args(args), save_dir=save_dir)
    code = open_app(StartRequest("server", server=config), args)
    # Said after the app has gone: the screen showed each record's path, the terminal keeps where they all are.
    if save_dir is not None:
        print(f"nashplay connect: game records are in {save_dir}")
    else:
        print("nashplay connect: game records were not saved (see above)")
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
    save_dir = save_dir_for(args)
    print(
        f"nashplay connect: {plural(args.games, 'game')} as {args.player} on "
        f"{args.host}:{args.port}; {_records_in(save_dir)}",
        file=sys.stderr,
        flush=True,
    )
    try:
        asyncio.run(_stoppable(_headless(args, factory, letters, save_dir, tally), tally))
    except KeyboardInterrupt:
        # play_game has saved the unfinished game's record on its way out; report what was played.
        print(f"interrupted{tally.stopped_game()}", file=sys.stderr)
        tally.print(args, save_dir)
        return 130
    if tally.signal is not None:
        print(f"stopped by {signal.Signals(tally.signal).name}{tally.stopped_game()}", file=sys.stderr)
        tally.print(args, save_dir)
        return 128 + tally.signal  # the shell's convention for a process ended by a signal
    if tally.gave_up is not None:
        print(tally.gave_up, file=sys.stderr)
    tally.print(args, save_dir)
    return 0 if tally.errors == 0 else 1


def _default_save_dir() -> Path:
    from tui.storage import state_dir

    return state_dir() / "contest"


def _records_in(save_dir: Path | None) -> str:
    return f"records in {save_dir}" if save_dir is not None else "records not saved"


@dataclass
class Tally:
    """Results so far, kept outside the event loop so that an interrupted run still prints its summary."""

    counts: dict[str, int] = field(default_factory=lambda: {"won": 0, "draw": 0, "lost": 0})
    errors: int = 0
    #: Games that began (the server's SET?): finished ones and failed ones.
    played: int = 0
    #: Failed games (or attempts) since the last finished game.
    failed_in_a_row: int = 0
    #: Why play stopped before all the games were played (a failed run), if it did.
    gave_up: str | None = None
    #: The signal that stopped play (SIGTERM, SIGHUP), if one did.
    signal: int | None = None
    #: Where the record of a game stopped part-way went.
    stopped_record: Path | None = None

    def stopped_game(self) -> str:
        path = self.stopped_record
        return f"; the record of the game in progress is saved in {path}" if path is not None else ""

    def summary(self, args: argparse.Namespace, save_dir: Path | None) -> dict[str, Any]:
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
            "records": str(save_dir) if save_dir is not None else None,
        }

    def print(self, args: argparse.Namespace, save_dir: Path | None) -> None:
        summary = self.summary(args, save_dir)
        if args.json:
            print(json.dumps(summary))
            return
        rate = "n/a" if summary["win_rate"] is None else f"{summary['win_rate']:.1%}"
        low, high = summary["win_rate_95"]
        print(
            f"{plural(self.played, 'game')} as {args.player}: {plural(summary['wins'], 'win')}, "
            f"{plural(summary['draws'], 'draw')}, {plural(summary['losses'], 'loss', 'losses')}, "
            f"{plural(self.errors, 'error')}; win rate {rate} (95% Wilson interval "
            f"{low:.1%} - {high:.1%}); {_records_in(save_dir)}"
        )


async def _stoppable(body: Coroutine[Any, Any, None], tally: Tally) -> None:
    """Run ``body`` until it ends or SIGTERM / SIGHUP arrives; a signal cancels it the way Ctrl-C does, so that the
    game in progress saves its record on the way out, and is noted in ``tally.signal``."""
    from tui.net import STOP_SIGNALS, on_signals

    task = asyncio.current_task()
    assert task is not None

    def stop(signum: int) -> None:
        # The first signal names the stop; each one cancels again, in case a cancellation was lost on its way.
        tally.signal = tally.signal or signum
        task.cancel()

    restore = on_signals(STOP_SIGNALS, stop)
    try:
        await body
    except asyncio.CancelledError:
        if tally.signal is None:
            raise
    finally:
        restore()


class _Reporter:
    """What headless play says on stderr while it waits: each failed connection attempt, and, once connected, that
    it is waiting for the server to start a game (after ``SAY_WAITING_AFTER`` seconds, then every
    ``WAITING_REMINDER``), so that a long wait is never silent."""

    def __init__(self, args: argparse.Namespace, tally: Tally) -> None:
        self.args = args
        self.tally = tally
        self.number = 0
        self._notice: asyncio.TimerHandle | None = None

    def on_event(self, event: ContestEvent) -> None:
        from tui.contest_events import Connected, Connecting, GameAborted, SetupRequested

        if isinstance(event, Connecting):
            self._quiet()
            self._say(event.text)
        elif isinstance(event, Connected):
            self._quiet()
            loop = asyncio.get_running_loop()
            self._notice = loop.call_later(SAY_WAITING_AFTER, self._waiting, loop.time())
        elif isinstance(event, SetupRequested):
            self._quiet()
        elif isinstance(event, GameAborted):
            self._quiet()
            self.tally.stopped_record = event.error.record_path

    def _waiting(self, since: float) -> None:
        loop = asyncio.get_running_loop()
        waited = loop.time() - since
        limit = self.args.start_timeout
        self._say(
            f"connected to {self.args.host}:{self.args.port}; waiting for the server to start a game (SET?)... "
            f"{waited:.0f} s so far, giving up after {limit:g} s (--start-timeout)"
        )
        self._notice = loop.call_later(WAITING_REMINDER, self._waiting, since)

    def _say(self, text: str) -> None:
        print(f"  game {self.number}: {text}", file=sys.stderr, flush=True)

    def _quiet(self) -> None:
        if self._notice is not None:
            self._notice.cancel()
            self._notice = None

    def done(self) -> None:
        self._quiet()
        self.tally.stopped_record = None


def _opponent_memory(args: argparse.Namespace, factory: Callable[[], Any]) -> OpponentMemory | None:
    """What was kept of this opponent (``--opponent``, else the host), when our player learns its opponent."""
    from tui.opponents import OpponentMemory

    if not callable(getattr(factory(), "use_profile", None)):
        return None
    memory = OpponentMemory.load(args.opponent or args.host)
    if memory.problem is not None:
        print(f"nashplay connect: {memory.problem}", file=sys.stderr, flush=True)
    return memory


def _read_opponent(player: Any, memory: OpponentMemory) -> None:
    """Give ``player`` the opponent's profile from the games remembered against it."""
    from solvers.geister.choice_belief import OpponentProfile

    profile = OpponentProfile(memory.name)
    for record, side in memory.records():
        profile.learn_record(record, side, player.mixture)
    player.use_profile(profile)


async def _headless(
    args: argparse.Namespace, factory: Callable[[], Any], letters: str | None, save_dir: Path | None, tally: Tally
) -> None:
    """Game after game: a fresh player and a fresh connection each time; a failed game is counted and reported,
    and play goes on (the server starts the next game), unless the server cannot be reached at all or
    ``MAX_FAILED_IN_A_ROW`` games in a row failed."""
    from tui.contest_events import ConnectError, ContestError
    from tui.net import AIPlayer, play_game

    settings = settings_from_args(args)
    rng = random.Random(args.seed)
    out = sys.stderr if args.json else sys.stdout
    reporter = _Reporter(args, tally)
    memory = _opponent_memory(args, factory)

    for number in range(1, args.games + 1):
        reporter.number = number
        ai = factory()
        if memory is not None:
            _read_opponent(ai, memory)
        player = AIPlayer(ai, random.Random(rng.getrandbits(64)), args.time, letters, False)
        try:
            result = await play_game(
                args.host,
                args.port,
                player,
                settings=settings,
                on_event=reporter.on_event,
                save_dir=save_dir,
                game_number=number,
                name=args.name,
            )
        except ConnectError as error:
            reporter.done()
            tally.errors += 1
            print(f"game {number}: {error}", file=sys.stderr, flush=True)
            return  # the server is gone: more attempts would only wait out the same deadline again
        except ContestError as error:
            reporter.done()
            tally.errors += 1
            tally.played += error.record is not None  # a game began (SET?); else only an attempt failed
            tally.failed_in_a_row += 1
            print(f"game {number}: error: {error}", file=sys.stderr, flush=True)
            if tally.failed_in_a_row >= MAX_FAILED_IN_A_ROW:
                tally.gave_up = (
                    f"stopped after {tally.failed_in_a_row} failed games in a row (the limit is "
                    f"{MAX_FAILED_IN_A_ROW}): the server or the network is not fit for play; see the errors above"
                )
                return
            continue
        reporter.done()
        tally.failed_in_a_row = 0
        tally.played += 1
        tally.counts[result.result] += 1
        if memory is not None and (problem := memory.remember(result.record, result.side.other)) is not None:
            print(f"game {number}: the opponent's profile was not kept: {problem}", file=sys.stderr, flush=True)
        if result.record_path is not None:
            where = f" [{result.record_path}]"
        else:  # play_game could not write it (a full disk, a folder removed since the start): not in silence
            where = f" [the record could not be saved in {save_dir}]" if save_dir is not None else ""
        note = f" (note: {result.note})" if result.note else ""
        print(f"game {number}: {result.summary}{note}{where}", file=out, flush=True)
