"""The game catalogue: for each game the app plays, how it appears and how it starts.

An entry joins a game of ``core.games`` (its name, title and kind) to what the application needs: the menu's line,
the help topic, the default configuration, the options of ``nashplay play GAME`` and how they make a
configuration, and the screens that set it up and play it (``"module:Class"``, imported on first use, so the app
starts without loading any game's solver). The menu, ``nashplay play``, the app's start-up and the help read it.
Adding a game is one entry here plus its own modules (rules in ``core``, players in ``solvers``, its screen).

No Textual here: the command line reads the catalogue before deciding whether to start the app at all.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.errors import NotationError
from core.game import Side
from core.games import GAME_TYPES, GameType, game_type
from core.impartial import parse_heaps, parse_rule
from solvers.catalogue import players_for
from tui.arguments import real_number, seed_number, whole_number
from tui.config import (
    DEFAULT_THINK_TIME,
    FOOTSTEP_MAX_K,
    FOOTSTEP_MAX_N,
    TCG_APP_MAX_N,
    THINK_TIME_RANGE,
    ConfigError,
    FootstepConfig,
    GeisterConfig,
    NimConfig,
    TcgConfig,
)

__all__ = ["GAMES", "Config", "GameEntry", "game_entry", "game_of", "load_screen"]

Config = GeisterConfig | TcgConfig | NimConfig | FootstepConfig


def load_screen(reference: str) -> Any:
    """The screen class named ``"module:Class"`` (its module is imported now, not at start-up)."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class GameEntry:
    game: GameType
    #: The menu's line (the title comes first; this says what is special).
    menu_note: str
    #: The help screen's topic for this game's screens.
    help_topic: str
    #: The screen that plays a configuration, and the one that sets a game up (``None``: the game screen itself
    #: has the choices).
    play_screen: str
    setup_screen: str | None
    default_config: Callable[[], Config]
    #: ``nashplay play GAME``'s own options, and the configuration they describe (``ConfigError`` if none).
    add_options: Callable[[argparse.ArgumentParser], None]
    config_from_args: Callable[[argparse.Namespace], Config]
    #: Whether the options leave a choice to the set-up screen (Geister without ``--setup``).
    asks_setup: Callable[[argparse.Namespace], bool] = lambda args: False

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def title(self) -> str:
        return self.game.title

    def opening_screen(self, setup: bool) -> str:
        """The screen to open: the set-up screen when asked for (and there is one), else the game screen."""
        return self.setup_screen if setup and self.setup_screen is not None else self.play_screen


# --------------------------------------------------------------------------------------------------- options


def _side(text: str) -> Side:
    return Side.from_number(text)


#: ``--side``'s help by how the game is played. The Geister family's default is not always 1: from a position
#: (``play GAME --position``) it is the side to move there.
SIDE_HELP = {
    "turns": "your side: 1 moves first (default), 2 second",
    "geister": "your side: 1 moves first, 2 second (default 1; with --position, the side to move there)",
    "simultaneous": "your side: 1 or 2 (default 1); both choose at once each turn",
}


def _common_options(parser: argparse.ArgumentParser, side_help: str = SIDE_HELP["turns"]) -> None:
    parser.add_argument("--side", choices=["1", "2"], default="1", help=side_help)
    parser.add_argument("--seed", type=seed_number, help="seed of the AI's generator, for reproducible games")


def _opponent_help(game: str, default: str) -> str:
    return f"one of: {', '.join(e.name for e in players_for(game))} (default {default})"


def _opponent(game: str, others: tuple[str, ...] = ()) -> Callable[[str], str]:
    """``--opponent``'s check: a catalogue player of ``game`` (or one of ``others``), refused while parsing."""

    def check(name: str) -> str:
        known = [e.name for e in players_for(game)] + list(others)
        if name not in known:
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(known)}, not {name[:30]!r}")
        return name

    return check


def _geister_options(game: str) -> Callable[[argparse.ArgumentParser], None]:
    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--opponent",
            type=_opponent(game),
            default="chototsu",
            metavar="NAME",
            help=_opponent_help(game, "chototsu"),
        )
        parser.add_argument(
            "--setup", help="'random', or one B/R letter per set-up square (e.g. BR, BRRBBRRB); without it, ask"
        )
        _common_options(parser, SIDE_HELP["geister"])
        parser.add_argument(
            "--time",
            type=real_number(*THINK_TIME_RANGE, "seconds"),
            default=DEFAULT_THINK_TIME,
            help=f"seconds per move for the search AIs (default {DEFAULT_THINK_TIME:g})",
        )

    return add


def _geister_config(args: argparse.Namespace) -> Config:
    config = GeisterConfig(
        variant=args.game,
        human=_side(args.side),
        opponent=args.opponent,
        setup=args.setup,
        seed=args.seed,
        think_time=args.time,
    )
    config.check()
    return config


def _tcg_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--n",
        type=whole_number(1, TCG_APP_MAX_N),
        default=3,
        help="most points a player can hold (default 3, the source's)",
    )
    parser.add_argument(
        "--mode", choices=["advisor", "versus"], help="in the app: advisor (default) or versus the equilibrium AI"
    )
    parser.add_argument(
        "--advisor", action="store_true", help="the plain-terminal advisor instead of the app: type the opponent's"
    )
    _common_options(parser, SIDE_HELP["simultaneous"])


def _tcg_config(args: argparse.Namespace) -> Config:
    config = TcgConfig(args.n, args.mode or "advisor", _side(args.side), args.seed)
    config.check()
    return config


def _nim_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--heaps", default="3,4,5", help="stones per heap, e.g. 3,4,5 (the default)")
    parser.add_argument(
        "--rule", default="nim", help="nim (default), kayles, dawsons-kayles, a subtraction set like {1,2,3}, or 0.77"
    )
    parser.add_argument("--misere", action="store_true", help="misere play: whoever takes the last stone loses")
    parser.add_argument(
        "--opponent",
        default="perfect",
        metavar="NAME",
        help="perfect (default), random, or human: two people at one keyboard",
    )
    _common_options(parser)


def _nim_config(args: argparse.Namespace) -> Config:
    try:
        heaps = parse_heaps(args.heaps)
    except NotationError as error:
        raise ConfigError(str(error), "--heaps") from None
    try:
        rule = parse_rule(args.rule)
    except NotationError as error:
        raise ConfigError(str(error), "--rule") from None
    config = NimConfig(heaps, rule, args.misere, args.opponent, _side(args.side), args.seed)
    config.check()
    return config


def _footstep_options(parser: argparse.ArgumentParser) -> None:
    standard = FootstepConfig()  # the standard game, n = 50, k = 4 (``solve footstep``'s default too)
    parser.add_argument(
        "--n",
        type=whole_number(1, FOOTSTEP_MAX_N),
        default=standard.n,
        help=f"points each player starts with (default {standard.n}, the standard game)",
    )
    parser.add_argument(
        "--k",
        type=whole_number(1, FOOTSTEP_MAX_K),
        default=standard.k,
        help=f"steps from the centre to each goal (default {standard.k})",
    )
    parser.add_argument(
        "--opponent",
        type=_opponent("footstep"),
        default="equilibrium",
        metavar="NAME",
        help=_opponent_help("footstep", "equilibrium"),
    )
    _common_options(parser, SIDE_HELP["simultaneous"])


def _footstep_config(args: argparse.Namespace) -> Config:
    config = FootstepConfig(args.n, args.k, args.opponent, _side(args.side), args.seed)
    config.check()
    return config


# --------------------------------------------------------------------------------------------------- the catalogue


def _geister_entry(name: str) -> GameEntry:
    game = GAME_TYPES[name]
    notes = {
        "geister": "6x6, 4 blue + 4 red each; search AIs, live advice",
        "mini-geister": "4x4, solved: play the Nash equilibrium",
    }
    return GameEntry(
        game,
        notes.get(name, "a third piece: section 6 of the paper"),
        "geister",
        "tui.screens.game:GameScreen",
        "tui.screens.setup:SetupScreen",
        lambda: GeisterConfig(variant=name),
        _geister_options(name),
        _geister_config,
        lambda args: args.setup is None,
    )


GAMES: dict[str, GameEntry] = {
    **{name: _geister_entry(name) for name, game in GAME_TYPES.items() if game.family == "geister"},
    "tcg": GameEntry(
        game_type("tcg"),
        "the equilibrium advisor, or play the AI",
        "tcg",
        "tui.screens.tcg:TcgScreen",
        None,
        TcgConfig,
        _tcg_options,
        _tcg_config,
    ),
    "nim": GameEntry(
        game_type("nim"),
        "Nim, subtraction games, Kayles; advice",
        "nim",
        "tui.screens.nim:NimScreen",
        "tui.screens.nim_setup:NimSetupScreen",
        NimConfig,
        _nim_options,
        _nim_config,
        lambda args: False,
    ),
    "footstep": GameEntry(
        game_type("footstep"),
        "a bidding game: equilibrium, random, learner",
        "footstep",
        "tui.screens.footstep:FootstepScreen",
        None,
        FootstepConfig,
        _footstep_options,
        _footstep_config,
    ),
}


def game_of(config: Config) -> str:
    """The game a configuration is for."""
    if isinstance(config, GeisterConfig):
        return config.variant
    return {TcgConfig: "tcg", NimConfig: "nim", FootstepConfig: "footstep"}[type(config)]


def game_entry(name: str) -> GameEntry:
    try:
        return GAMES[name]
    except KeyError:
        game_type(name)  # the same error for a name no catalogue knows
        raise ConfigError(f"the app does not play {name}") from None
