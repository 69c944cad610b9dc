"""``nashplay solve GAME``: every exact solver as a plain command whose output reproduces the source documents'
tables, one module per game."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from tui.cli.solve import endgame, footstep, goofspiel, mini_geister, nim, tcg

Handler = Callable[[argparse.Namespace, argparse.ArgumentParser], int]

#: ``solve``'s sub-commands and the function that runs each.
HANDLERS: dict[str, Handler] = {
    "tcg": tcg.run,
    "nim": nim.run,
    "grundy": nim.run,
    "mini-geister": mini_geister.run,
    "mini-geister-3v2": mini_geister.run,
    "footstep": footstep.run,
    "geister-endgame": endgame.run,
    "goofspiel": goofspiel.run,
}


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    solve = commands.add_parser(
        "solve",
        help="solve a game and print the source's tables",
        description="Solve a game exactly and print what the source documents publish, so you can check us.",
    )
    solvers = solve.add_subparsers(dest="solver", metavar="GAME", required=True)
    for module in (tcg, nim, mini_geister, footstep, endgame, goofspiel):
        module.add_commands(solvers)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return HANDLERS[args.solver](args, parser)
