"""The ``nashplay`` command: the app (menu, play, replay) and, as their issues land, the plain solvers."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence

from core.errors import IllegalMoveError, NotationError
from core.game import Side
from core.geister import VARIANTS, variant_by_name
from core.record import Record
from tui import arena_cli, connect_cli, footstep_cli, solve_mini_geister, solve_nim, solved_lines
from tui.session import ALL_OPPONENTS, GameConfig, opponents_for

PLAY_GAMES = [*VARIANTS, "tcg", "nim", "footstep"]
FOOTSTEP_OPPONENTS = ["equilibrium", "random", "learner"]

EPILOG = """\
examples:
  nashplay                                   open the game menu
  nashplay play mini-geister                 choose your set-up, then play Mini-Geister
  nashplay play geister --opponent chototsu --setup random --side 1 --seed 7
                                             start straight on the board
  nashplay play mini-geister --setup BR      blue on b1, red on c1
  nashplay play nim --heaps 3,4,5 --rule kayles --opponent random
  nashplay play footstep --n 50 --k 4 --opponent equilibrium
  nashplay solve footstep --n 20 --k 3       the exact equilibrium of the source's simplified game
  nashplay learn footstep --rule reward      a learning curve against the random player
  nashplay replay game.ngr                   step through a saved record
  nashplay connect --port 10001              play a game on a Geister contest server (as the second player)
  nashplay --ascii --theme nashplay-colourblind

Set-ups name the colour of each set-up square in order: player 1 uses its back row then its front row
from file a (Geister b1 c1 d1 e1 b2 c2 d2 e2), player 2 the up-down mirror (b6 c6 d6 e6 b5 c5 d5 e5).
In a game press ? for the keys; ctrl+p opens the command palette. A game in progress is saved
(under $XDG_STATE_HOME/nashplay) and offered for resume next time.
"""


def _display_options(suppress: bool) -> argparse.ArgumentParser:
    """Options every command takes. On sub-commands their defaults are suppressed, so that
    ``nashplay --ascii play ...`` keeps the value given before the sub-command."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--ascii",
        action="store_true",
        default=argparse.SUPPRESS if suppress else False,
        help="draw with ASCII characters only (for poor fonts)",
    )
    parent.add_argument(
        "--theme",
        default=argparse.SUPPRESS if suppress else None,
        help="colour theme: nashplay (default), nashplay-colourblind, nashplay-light, or any Textual theme",
    )
    return parent


#: ``play nim``'s opponents (``tui.screens.nim.NIM_OPPONENTS``, not imported here: it would load Textual).
NIM_OPPONENTS = ("perfect", "random", "human")


class _NoteGiven(argparse.Action):
    """Store the value and note that it was given: ``--opponent``'s default depends on the game."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[object] | None,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_given", True)


def build_parser() -> argparse.ArgumentParser:
    display = _display_options(suppress=True)
    parser = argparse.ArgumentParser(
        prog="nashplay",
        description="Play games whose right move is a mixed strategy, in the terminal, with solver advice.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[_display_options(suppress=False)],
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser(
        "play",
        parents=[display],
        help="play a game against an AI",
        description="Play a game against an AI. Geister family: without --setup the set-up screen asks. "
        "TCG: --advisor runs the source's play mode in a plain prompt; otherwise the app opens. "
        "Nim: --heaps, --rule, --misere; --opponent perfect, random or human (two people).",
    )
    play.add_argument("game", choices=PLAY_GAMES, metavar="GAME", help=f"one of: {', '.join(PLAY_GAMES)}")
    play.add_argument(
        "--opponent",
        choices=[
            *ALL_OPPONENTS,
            *(name for name in NIM_OPPONENTS if name not in ALL_OPPONENTS),
            *(name for name in FOOTSTEP_OPPONENTS if name not in ALL_OPPONENTS),
        ],
        default="chototsu",
        action=_NoteGiven,
        help=f"who you play against: Geister family {', '.join(ALL_OPPONENTS)} (default chototsu; nash, "
        "nash-extended and mirror are Mini-Geister's); "
        f"nim: {', '.join(NIM_OPPONENTS)} (default perfect; human: two people at one keyboard); "
        f"footstep: {', '.join(FOOTSTEP_OPPONENTS)} (default equilibrium)",
    )
    play.add_argument("--setup", help="'random', or one B/R letter per set-up square (e.g. BR, BRRBBRRB)")
    play.add_argument("--side", choices=["1", "2"], default="1", help="your side: 1 moves first (default), 2 second")
    play.add_argument("--seed", type=int, help="seed for the AI and random set-ups, for reproducible games")
    play.add_argument(
        "--time", type=float, default=0.25, help="seconds per move for the search AIs mc, upp, ismcts (default 0.25)"
    )
    tcg = play.add_argument_group("Twice Clap Game (tcg)")
    tcg.add_argument(
        "--n",
        type=int,
        help="tcg: most points a player can hold (default 3, the source's); footstep: points each (default 50)",
    )
    tcg.add_argument("--advisor", action="store_true", help="plain-terminal advisor: type the opponent's actions")
    tcg.add_argument(
        "--mode", choices=["advisor", "versus"], default="advisor", help="in the app: advisor (default) or versus"
    )
    nim = play.add_argument_group("Nim (nim)")
    nim.add_argument("--heaps", default="3,4,5", help="stones per heap, e.g. 3,4,5 (the default)")
    nim.add_argument(
        "--rule", default="nim", help="nim (default), kayles, dawsons-kayles, a subtraction set like {1,2,3}, or 0.77"
    )
    nim.add_argument("--misere", action="store_true", help="misere play: whoever takes the last stone loses")
    footstep = play.add_argument_group("Footstep (footstep)")
    footstep.add_argument("--k", type=int, default=4, help="steps from the centre to each goal (default 4)")

    solve = commands.add_parser(
        "solve",
        help="solve a game and print the source's tables",
        description="Solve a game exactly and print what the source documents publish, so you can check us.",
    )
    solvers = solve.add_subparsers(dest="solver", metavar="GAME", required=True)
    solve_tcg = solvers.add_parser(
        "tcg",
        help="Twice Clap Game: equilibrium strategies and win probabilities",
        description="Markov-game value iteration with batched stage games and policy evaluation.",
    )
    solve_tcg.add_argument("--n", type=int, default=3, help="most points a player can hold (default 3)")
    solve_tcg.add_argument("--json", action="store_true", help="one JSON object instead of the tables")
    solve_tcg.add_argument("--no-cache", action="store_true", help="solve afresh instead of reading the cache")
    solve_nim.add_commands(solvers)
    solve_mini_geister.add_commands(solvers)
    footstep_cli.add_solve_command(solvers)
    footstep_cli.add_learn_command(commands)
    arena_cli.add_command(commands)
    connect_cli.add_command(commands, parents=[display])

    replay = commands.add_parser(
        "replay",
        parents=[display],
        help="replay a game record, or a solved line",
        description="Step through a game record, or (--solved mini-geister) a line of the solved game.",
    )
    replay.add_argument("file", nargs="?", help="a record file (.ngr), as saved by the app")
    solved_lines.add_options(replay)
    replay.add_argument("--side", choices=["1", "2"], default="1", help="the side drawn at the bottom")
    return parser


def theme_names() -> list[str]:
    """nashplay's themes first, then Textual's built-in ones."""
    from textual.theme import BUILTIN_THEMES

    from tui.theme import THEMES

    return [t.name for t in THEMES] + sorted(BUILTIN_THEMES)


def _stderr_progress() -> Callable[[int, float], None] | None:
    """A one-line progress display on stderr (only when it is a terminal, so pipes and JSON stay clean)."""
    if not sys.stderr.isatty():
        return None
    started = time.monotonic()

    def show(sweep: int, residual: float) -> None:
        if time.monotonic() - started > 0.5:
            print(f"\rsolving: sweep {sweep}, Bellman residual {residual:.1e}   ", end="", file=sys.stderr, flush=True)

    return show


def solve_tcg(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from solvers.tcg import TcgSolution, strategy_table, to_json, value_table

    if not 1 <= args.n <= 1000:
        parser.exit(2, f"nashplay solve tcg: error: --n must be 1..1000, not {args.n}\n")
    solution, source = TcgSolution.load(args.n, use_cache=not args.no_cache, progress=_stderr_progress())
    if sys.stderr.isatty():
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(to_json(solution)))
        return 0
    result = solution.solution
    print(
        f"Twice Clap Game, n = {args.n}: {(args.n + 1) ** 2} states, solved in {result.seconds:.3f} s "
        f"({result.sweeps} sweeps; table {source})"
    )
    certificate = solution.certificate
    print(f"Bellman residual {result.residual:.1e}; certified error bound {certificate.gap:.1e}\n")
    unsettled = [i for i in range(solution.game.states) if certificate.upper[i] - certificate.lower[i] > 1e-6]
    if unsettled:
        names = ", ".join(f"({s // (args.n + 1)},{s % (args.n + 1)})" for s in unsettled[:8])
        print(
            f"Note: from {names} equilibrium play never ends (neither side can force a win); the values shown there"
            " are the symmetric fixed point, not guarantees.\n"
        )
    print("Equilibrium strategies for i1 <= i2 (probabilities of c / a / d / s; * = any of these keeps the value)")
    print(strategy_table(solution))
    print("\nPlayer 1's win probability (row: player 1's points, column: player 2's)")
    print(value_table(solution))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "solve" and args.solver in ("nim", "grundy"):
        return solve_nim.run(args, parser)
    if args.command == "solve" and solve_mini_geister.handles(args):
        return solve_mini_geister.run(args, parser)
    if args.command == "solve" and args.solver == "footstep":
        return footstep_cli.run_solve(args, parser)
    if args.command == "learn":
        return footstep_cli.run_learn(args, parser)
    if args.command == "arena":
        return arena_cli.run(args, parser)
    if args.command == "connect":
        return connect_cli.run(args, parser)
    if args.command == "play" and args.game == "tcg" and args.n is None:
        args.n = 3
    if args.command == "solve":
        return solve_tcg(args, parser)
    if args.command == "play" and args.game == "tcg" and args.advisor:
        from tui import tcg_prompt

        if not 1 <= args.n <= 1000:
            parser.exit(2, f"nashplay play tcg: error: --n must be 1..1000, not {args.n}\n")
        return tcg_prompt.run(args.n, Side.from_number(args.side), args.seed)

    # Imported here so that `nashplay --help` and argument errors stay fast.
    from tui.app import NashplayApp, StartRequest

    request = StartRequest()
    if args.command == "play" and args.game == "tcg":
        from tui.screens.tcg import TcgConfig

        if not 1 <= args.n <= 200:
            parser.exit(2, f"nashplay play tcg: error: in the app --n must be 1..200, not {args.n}\n")
        request = StartRequest("tcg", tcg=TcgConfig(args.n, args.mode, Side.from_number(args.side), args.seed))
    elif args.command == "play" and args.game == "nim":
        from tui.screens.nim import nim_config_from_text

        side = Side.from_number(args.side)
        try:
            opponent = args.opponent if getattr(args, "opponent_given", False) else None
            nim = nim_config_from_text(args.heaps, args.rule, args.misere, opponent, side, args.seed)
        except ValueError as error:
            parser.exit(2, f"nashplay play nim: error: {error}\n")
        request = StartRequest("nim", nim=nim)
    elif args.command == "play" and args.game == "footstep":
        from tui.screens.footstep import FootstepConfig

        n = 50 if args.n is None else args.n
        footstep_cli.check_size(parser, "play footstep", n, args.k)
        opponent = args.opponent if getattr(args, "opponent_given", False) else "equilibrium"
        if opponent not in FOOTSTEP_OPPONENTS:
            parser.exit(
                2, f"nashplay play footstep: error: --opponent: expected one of {', '.join(FOOTSTEP_OPPONENTS)}\n"
            )
        request = StartRequest(
            "footstep", footstep=FootstepConfig(n, args.k, opponent, Side.from_number(args.side), args.seed)
        )
    elif args.command == "play":
        allowed = opponents_for(args.game)
        if args.opponent not in allowed:
            parser.exit(
                2,
                f"nashplay play: error: --opponent for {args.game}: expected one of {', '.join(allowed)}, "
                f"not {args.opponent!r} (perfect and human are for nim)\n",
            )
        side = Side.from_number(args.side)
        if not 0.01 <= args.time <= 60:
            parser.exit(2, f"nashplay play: error: --time must be 0.01..60 seconds, not {args.time}\n")
        config = GameConfig(
            variant=args.game,
            human=side,
            opponent=args.opponent,
            setup=args.setup,
            seed=args.seed,
            think_time=args.time,
        )
        if args.setup is not None and args.setup.lower() != "random":
            try:
                variant_by_name(args.game).parse_setup(args.setup, side)
            except (NotationError, IllegalMoveError) as error:
                parser.exit(2, f"nashplay play: error: --setup: {error}\n")
        request = StartRequest("play" if args.setup is not None else "setup", config)
    elif args.command == "replay" and args.solved:
        lines = solved_lines.run(args, parser)
        if lines is None:
            return 0
        line = lines[0]
        request = StartRequest(
            "replay",
            record=line.record,
            replay_side=line.analysed,
            replay_title=f"Solved line, {line.plies} plies: {line.title}",
        )
    elif args.command == "replay":
        if not args.file:
            parser.exit(2, "nashplay replay: error: give a record file, or --solved mini-geister\n")
        try:
            record = Record.load(args.file)
            record.replay()
        except (NotationError, OSError) as error:
            parser.exit(2, f"nashplay replay: error: {error}\n")
        request = StartRequest(
            "replay", record=record, replay_side=Side.from_number(args.side), replay_title=f"Replay: {args.file}"
        )

    theme = args.theme or "nashplay"
    known = theme_names()
    if theme not in known:
        parser.exit(2, f"nashplay: error: unknown theme {theme!r}: expected one of {', '.join(known)}\n")
    app = NashplayApp(request, ascii_mode=args.ascii, theme_name=theme)
    app.run()
    return app.return_code or 0


def run() -> int:
    """The console script: ``main`` with a quiet exit when the output pipe closes (``nashplay solve ... | head``)."""
    try:
        return main()
    except BrokenPipeError:
        # Python would complain again while flushing stdout at exit; point it at devnull first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(run())
