"""``nashplay arena``: a match between two players of any game, with a progress bar and confidence intervals."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from core.errors import quoted
from core.games import GAME_TYPES, Parameter, load_game
from core.record import prepare_record_folder
from solvers.catalogue import PLAYERS, player_entry, players_for
from tui.arguments import parameter_type
from tui.cli.common import plural, real_number, seed_number, whole_number
from tui.config import THINK_TIME_RANGE

if TYPE_CHECKING:
    from solvers.arena import GameParams, GameResult, MatchResult, Runner
    from solvers.players import Limit
    from solvers.sprt import SequentialTest, SprtSettings, SprtVerdict
    from tui.results_store import ResultsStore

#: Games in one match: each game's spec and result stay in memory, and random against chototsu, about the fastest
#: pair, plays about 360 games a second on 2 workers, so 100,000 games take about 5 minutes.
MAX_GAMES = 100_000
#: Playouts per move: ismcts, the slowest, takes about 1.5 s a move at 100,000 (and its tree grows with them), so a
#: million is about 15 s a move, within the 60 s --time allows.
MAX_PLAYOUTS = 1_000_000
#: Worker processes: each is a Python interpreter of 30-60 MB with the engine loaded, and more than the cores only
#: queue for them.
MAX_WORKERS = 32
#: Search depth per move: the purple search reaches 9 to 11 plies in half a second from the opening; 12 takes seconds
#: a move there, more in the middle game.
MAX_DEPTH = 12


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    arena = commands.add_parser(
        "arena",
        help="play a match between two AIs and report wins with 95%% confidence intervals",
        description="Play GAMES games between two AIs, swapping the sides (and in the Geister family the first "
        "player) every game, on several processes. Prints wins, draws and losses per player with 95% Wilson "
        "confidence intervals, and the average game length. nashplay list names every game's players.",
    )
    arena.add_argument("game", choices=list(GAME_TYPES), metavar="GAME", help=f"one of: {', '.join(GAME_TYPES)}")
    arena.add_argument("--players", required=True, help="two players, comma separated, e.g. upp,chototsu")
    arena.add_argument(
        "--games",
        type=whole_number(1, MAX_GAMES),
        default=100,
        help=f"games, up to {MAX_GAMES:,} (default 100)",
    )
    budget = arena.add_mutually_exclusive_group()
    budget.add_argument(
        "--time", type=real_number(*THINK_TIME_RANGE, unit="seconds"), help="seconds per move (default 0.25)"
    )
    budget.add_argument(
        "--playouts",
        type=whole_number(1, MAX_PLAYOUTS),
        help="playouts per move instead of a time (reproducible)",
    )
    budget.add_argument(
        "--depth",
        type=whole_number(1, MAX_DEPTH),
        help="search depth per move instead of a time, for the alpha-beta players (reproducible); the Monte Carlo "
        "players take it as playouts",
    )
    arena.add_argument(
        "--workers", type=whole_number(1, MAX_WORKERS), default=2, help="processes to play on (default 2)"
    )
    arena.add_argument("--seed", type=seed_number, default=0, help="match seed: every game's seed derives from it")
    arena.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the games as Ray tasks on a Ray cluster, one per CPU it has (instead of --workers): auto for one "
        "started on this machine (ray start --head), HOST:PORT or ray://HOST:PORT for another; needs the cluster "
        "extra (pip install -e '.[cluster]') and nashplay on every machine",
    )
    arena.add_argument(
        "--sprt",
        metavar="ELO0,ELO1[,ALPHA,BETA]",
        help="a sequential test: stop as soon as the game pairs (sides swapped) show player A ELO1 Elo stronger than "
        "B (H1) or only ELO0 (H0), at error rates ALPHA and BETA (0.05 each unless given); --games is then the "
        "most played. E.g. --sprt 0,50",
    )
    arena.add_argument("--save", metavar="DIR", help="save every game's record in DIR (game-0001.ngr, ...)")
    arena.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    options = arena.add_argument_group("the game's own options (each game takes only its own)")
    for name, uses in _option_uses().items():
        flag = all(parameter.flag for _, parameter in uses)
        words = "; ".join(f"{', '.join(games)}: {parameter.help}" for parameter, games in _by_help(uses))
        if flag:
            options.add_argument(f"--{name}", action="store_true", default=None, help=words)
        else:
            options.add_argument(f"--{name}", metavar=uses[0][1].metavar or name.upper(), help=words)


def _option_uses() -> dict[str, list[tuple[str, Parameter]]]:
    """Every game parameter a match may set, by option name, with the games that take it (who moves first is
    alternated, not set)."""
    uses: dict[str, list[tuple[str, Parameter]]] = {}
    for game in GAME_TYPES.values():
        for parameter in game.parameters:
            if not parameter.alternated:
                uses.setdefault(parameter.name, []).append((game.name, parameter))
    return uses


def _by_help(uses: list[tuple[str, Parameter]]) -> list[tuple[Parameter, list[str]]]:
    """The games that share one meaning of an option (the Geister variants, say), grouped."""
    grouped: dict[str, tuple[Parameter, list[str]]] = {}
    for game, parameter in uses:
        grouped.setdefault(parameter.help, (parameter, []))[1].append(game)
    return list(grouped.values())


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


def _params(args: argparse.Namespace) -> GameParams:
    """The game's own options, each read by its parameter (``ValueError`` says what is wrong, naming the option)."""
    from solvers.arena import GameParams

    game = GAME_TYPES[args.game]
    values: dict[str, Any] = {}
    for name in _option_uses():
        given = getattr(args, name, None)
        if given is None:
            continue
        parameter = game.by_name.get(name)
        if parameter is None or parameter.alternated:
            takes = ", ".join(f"--{p.name}" for p in game.parameters if not p.alternated) or "none of them"
            raise ValueError(f"{game.name} takes no --{name} (it takes {takes})")
        if parameter.flag:
            values[name] = True
            continue
        try:
            values[name] = parameter_type(parameter)(given)
        except argparse.ArgumentTypeError as error:
            raise ValueError(f"--{name}: {error}") from None
    try:
        # The players are the app's: the app's limits on what they play hold.
        game.check_playable({p.name: values.get(p.name, p.default) for p in game.parameters})
    except ValueError as error:
        option = f"--{game.playable_parameter}: " if game.playable_parameter else ""
        raise ValueError(f"{game.name}: {option}{error}") from None
    try:
        load_game(game.name, **values)
    except ValueError as error:
        raise ValueError(f"{game.name}: {error}") from None
    return GameParams.of(**values)


def check_save_dir(folder: str) -> str | None:
    """Why records cannot be written in ``folder`` (made if missing), or ``None``: asked before the first game, so
    that a match does not play on (or fail after its games) towards a folder it cannot write, nor write over the
    records of an earlier match there (its games are named ``game-0001.ngr`` and on, as this one's would be)."""
    try:
        prepare_record_folder(Path(folder))
        earlier = sorted(path.name for path in Path(folder).glob("game-*.ngr"))
    except OSError as error:
        return f"--save: cannot write records in {quoted(folder)}: {error.strerror or error}"
    if earlier:
        held = f"{earlier[0]}" + (f" and {len(earlier) - 1:,} more" if len(earlier) > 1 else "")
        return (
            f"--save: {quoted(folder)} already holds an earlier match's records ({held}), which this match would "
            "write over: give another folder, or empty this one"
        )
    return None


def budget_words(match: MatchResult) -> str:
    """The thinking budget, said of the players that take it: "0.25 s per move", "upp 0.25 s per move (chototsu
    answers at once)", or that no player thinks (TCG's, Footstep's, Nim's players answer at once)."""
    if match.limit.time is not None:
        budget = f"{match.limit.time:g} s per move"
    elif match.limit.iterations is not None:
        budget = f"depth {match.limit.iterations} per move"
    else:
        budget = f"{plural(match.limit.playouts or 0, 'playout')} per move"
    labels = list(match.to_json()["players"])
    thinking = match.thinking
    if not thinking:
        return "no thinking time (neither player searches: both answer at once)"
    if len(thinking) == len(labels):
        return budget
    instant = next(label for label in labels if label not in thinking)
    return f"{thinking[0]} {budget} ({instant} answers at once)"


def report(match: MatchResult) -> str:
    data = match.to_json()
    many = data["length_unit"]
    lines = [f"{plural(data['games'], 'game')}, {budget_words(match)}; average {data['avg_length']} {many} per game"]
    lines.append("")
    wide = max(6, *(len(name) for name in data["players"]))
    lines.append(
        f"{'player':<{wide}} {'wins':>5} {'draws':>5} {'losses':>6} {'win rate':>8}   95% CI (Wilson)    won by"
    )
    for name, row in data["players"].items():
        lo, hi = row["ci95"]
        won_by = ", ".join(f"{how} {count}" for how, count in sorted(row["won_by"].items()))
        lines.append(
            f"{name:<{wide}} {row['wins']:>5} {row['draws']:>5} {row['losses']:>6} {row['win_rate']:>8.3f}   "
            f"[{lo:.3f}, {hi:.3f}]   {won_by}".rstrip()
        )
    return "\n".join(lines)


def sprt_words(verdict: SprtVerdict) -> str:
    """The test's verdict in one line, with the Elo difference and its 95% interval."""
    settings = verdict.settings
    lower, upper = settings.bounds
    hypotheses = f"H0 {settings.elo0:+g} Elo, H1 {settings.elo1:+g} Elo"
    outcome = "no verdict (the games ran out first)" if verdict.result is None else f"{verdict.result} accepted"
    return (
        f"SPRT ({hypotheses}; alpha {settings.alpha:g}, beta {settings.beta:g}): {outcome} after "
        f"{plural(verdict.pairs, 'game pair')}, LLR {verdict.llr:.2f} (bounds {lower:.2f}, {upper:.2f}); "
        f"Elo difference {elo_words(verdict)}"
    )


def elo_words(verdict: SprtVerdict) -> str:
    """``+35 [+12, +60] (95%)``, infinite ends said as such (a player that won every pair)."""
    estimate = verdict.elo

    def number(value: float | None, infinite: str) -> str:
        return infinite if value is None else f"{value:+.0f}"

    if verdict.pairs == 0:
        return "unknown (no pair of games finished)"
    centre = number(estimate.elo, "+inf" if estimate.score >= 1 else "-inf")
    return f"{centre} [{number(estimate.low, '-inf')}, {number(estimate.high, '+inf')}] (95%)"


def budget_text(limit: Limit) -> str:
    """A thinking player's budget in a few words, as the results store keeps it: ``0.25 s``, ``1000 playouts``,
    ``depth 3``."""
    if limit.iterations is not None:
        return f"depth {limit.iterations}"
    if limit.playouts is not None:
        return f"{limit.playouts} playouts"
    return f"{limit.time:g} s"


class GameKeeper:
    """Stores each game of a match in the results database as it ends; when the database cannot be written it says
    so once, in one line, and the match goes on unstored (its output is never lost for the store)."""

    def __init__(
        self,
        args: argparse.Namespace,
        names: tuple[str, str],
        limit: Limit,
        params: GameParams,
        seeds: list[int],
        say: Callable[[str], None],
    ) -> None:
        from solvers.catalogue import player_entry
        from tui.results_store import ResultsStore, ResultsStoreError, player_label

        self.args = args
        self.names = names
        #: Each game's seed, by its number from 0.
        self.seeds = seeds
        self.params = dict(params.values)
        self.say = say
        budget = budget_text(limit)
        self.budgets = tuple(budget if player_entry(name).thinks else "" for name in names)
        self.labels = (player_label(names[0], self.budgets[0]), player_label(names[1], self.budgets[1]))
        self.store: ResultsStore | None = None
        self.match_id = 0
        try:
            self.store = ResultsStore()
            self.match_id = self.store.begin_match(
                args.game,
                self.params,
                self.labels,
                budget,
                args.seed,
                args.games,
                f"cluster {args.cluster}" if args.cluster else f"{args.workers} local processes",
            )
        except ResultsStoreError as error:
            self._give_up(error)

    def _give_up(self, error: Exception) -> None:
        self.say(f"the games are not stored: {error}")
        if self.store is not None:
            self.store.close()
        self.store = None

    def keep(self, result: GameResult) -> None:
        from solvers.arena import ending, record_path
        from tui.results_store import ResultsStoreError

        if self.store is None:
            return
        path = str(record_path(self.args.save, result.index)) if self.args.save is not None else None
        winner = None if result.winner is None else "ab"[result.winner]
        try:
            self.store.add_game(
                self.match_id,
                result.index + 1,
                self.args.game,
                self.params,
                self.labels,
                (self.budgets[0], self.budgets[1]),
                self.seeds[result.index],
                int(result.a_side),
                int(result.first),
                winner,
                result.score,
                result.reason,
                ending(result.reason),
                result.plies,
                path,
            )
        except ResultsStoreError as error:
            self._give_up(error)

    def finish(self, verdict: SprtVerdict | None) -> None:
        from tui.results_store import ResultsStoreError

        if self.store is None:
            return
        try:
            self.store.end_match(self.match_id, verdict.to_json() if verdict is not None else None)
        except ResultsStoreError as error:
            self._give_up(error)
            return
        self.store.close()


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from core.games import game_type
    from solvers.arena import WorkersStoppedError, game_specs, run_match
    from solvers.players import Limit
    from solvers.sprt import SequentialTest, SprtSettings, SprtSettingsError

    def fail(message: str) -> NoReturn:
        parser.exit(2, f"nashplay arena: error: {message}\n")

    names = [n.strip() for n in args.players.split(",") if n.strip()]
    if len(names) != 2:
        return fail(f"--players takes two names separated by a comma, like upp,chototsu (got {args.players[:40]!r})")
    known = [e.name for e in players_for(args.game)]
    for name in names:
        if name not in known:
            where = "" if name in PLAYERS else "unknown player; "
            return fail(f"{name[:30]!r}: {where}the players of {args.game} are {', '.join(known)}")
    try:
        params = _params(args)
    except ValueError as error:
        return fail(str(error))
    if args.save is not None and (problem := check_save_dir(args.save)) is not None:
        return fail(problem)
    settings: SprtSettings | None = None
    if args.sprt is not None:
        try:
            settings = SprtSettings.parse(args.sprt)
        except SprtSettingsError as error:
            return fail(f"--sprt: {error}")
    runner: Runner | None = None
    if args.cluster is not None:
        from solvers.cluster import ClusterUnavailableError, on_cluster

        try:
            runner = on_cluster(args.cluster.strip())
        except ClusterUnavailableError as error:
            print(f"nashplay arena: {error}", file=sys.stderr)
            return 1
    if args.depth is not None:
        limit = Limit(iterations=args.depth)
    elif args.playouts is not None:
        limit = Limit(playouts=args.playouts)
    else:
        limit = Limit(time=args.time or 0.25)
    bar = _progress_bar(time.perf_counter(), args.games) if sys.stderr.isatty() else None
    finished = 0

    def progress(match: MatchResult) -> None:
        nonlocal finished
        finished = match.games
        if bar is not None:
            bar(match)

    def say(words: str) -> None:
        """One line on the error output, below the progress bar where it is drawn (it goes on on the next line)."""
        start = "\n" if bar is not None and 0 < finished < args.games else ""
        print(f"{start}nashplay arena: {words}", file=sys.stderr)

    given = next((f"--{name}" for name in ("time", "playouts", "depth") if getattr(args, name) is not None), None)
    if given is not None and not any(player_entry(name).thinks for name in names):
        # Not refused: a script may pass one budget to every pairing. Said, so that nobody reads it as used.
        print(
            f"nashplay arena: {given} is not used: neither player searches ({', '.join(dict.fromkeys(names))})",
            file=sys.stderr,
        )
    seeds = [spec.seed for spec in game_specs(args.game, (names[0], names[1]), args.games, limit, args.seed)]
    keeper = GameKeeper(args, (names[0], names[1]), limit, params, seeds, say)
    test: SequentialTest | None = None
    if settings is not None:
        from solvers.sprt import SequentialTest

        test = SequentialTest(settings, args.games)
    bound = game_type(args.game).max_payoff

    def finished_game(result: GameResult) -> None:
        keeper.keep(result)
        if test is not None:
            test.add(result.index, (result.score + bound) / (2 * bound))

    try:
        match = run_match(
            args.game,
            (names[0], names[1]),
            args.games,
            limit,
            workers=min(args.workers, args.games),
            seed=args.seed,
            save_dir=args.save,
            progress=progress,
            params=params,
            restarted=say,
            runner=runner,
            finished=finished_game,
            enough=None if test is None else lambda _: test.decided is not None,
        )
    except KeyboardInterrupt:
        # run_match has stopped the workers; end the progress line and say what is kept (``run`` says the rest).
        kept = f"; their records stay in {args.save}" if args.save is not None else ""
        say(f"stopped after {finished} of {plural(args.games, 'game')}{kept}")
        raise
    except WorkersStoppedError as stopped:
        # The workers kept dying: the games finished are reported, and the match ends with an error status.
        kept = f"; their records stay in {args.save}" if args.save is not None else ""
        say(f"stopped after {finished} of {plural(args.games, 'game')}: {stopped}{kept}")
        keeper.finish(None)
        if stopped.match is not None and stopped.match.games:
            print(json.dumps(stopped.match.to_json()) if args.json else report(stopped.match))
        return 1
    verdict = test.current() if test is not None else None
    keeper.finish(verdict)
    if bar is not None and finished < args.games:
        sys.stderr.write("\n")  # the progress bar ends its line only when every game is played
    if args.json:
        data = match.to_json()
        if verdict is not None:
            data["sprt"] = verdict.to_json()
        print(json.dumps(data))
    else:
        print(report(match))
        if verdict is not None:
            print(sprt_words(verdict))
    return 0
