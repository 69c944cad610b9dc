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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.errors import NotationError, quoted
from core.footstep import FootstepState
from core.game import Game, Side
from core.game_type import resolve
from core.games import GAME_TYPES, GameType, game_type
from core.goofspiel import CARDS_PARAMETER, GoofspielPosition, GoofspielState
from core.impartial import HeapGameState, parse_heaps, parse_rule
from core.tcg import TcgState
from solvers.catalogue import players_for, strongest
from tui.arguments import add_parameter_option, parameter_value, real_number, seed_number
from tui.config import (
    DEFAULT_THINK_TIME,
    NIM_OPPONENTS,
    SHARED_KEYBOARD,
    THINK_TIME_RANGE,
    ConfigError,
    FootstepConfig,
    GeisterConfig,
    GoofspielConfig,
    NimConfig,
    TcgConfig,
    TcgMode,
)
from tui.game_clock import GameClock

__all__ = ["GAMES", "Config", "GameEntry", "SavedGame", "game_entry", "game_of", "load_screen"]

Config = GeisterConfig | TcgConfig | NimConfig | FootstepConfig | GoofspielConfig


def load_screen(reference: str) -> Any:
    """The screen class named ``"module:Class"`` (its module is imported now, not at start-up)."""
    return resolve(reference)


@dataclass(frozen=True)
class SavedGame:
    """What a saved game of a local game (not the Geister family's, whose session reads its own saves) says about the
    game to go on with: its first and last states and the tags a resume reads, already checked where common."""

    start: Game[Any, Any]
    final: Game[Any, Any]
    human: Side
    seed: int
    opponent: str
    tags: dict[str, str]


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
    #: What ``nashplay play GAME`` runs instead of the app when the options ask for it (TCG's ``--advisor``, a plain
    #: prompt), as ``"module:function"`` of the options: its exit code, or ``None`` to open the app. Raises
    #: ``ConfigError`` for options that do not go with it.
    instead_of_app: str | None = None
    #: The configuration a saved game goes on with (``ConfigError`` for tags the app would not play); the screen
    #: takes it with the saved game's last state. ``None``: the Geister family, whose session reads its own saves.
    resume: Callable[[SavedGame], Config] | None = None
    #: The app's remembered setting that shows or hides this game's advice panel (``tui.storage.Settings``), or
    #: ``None`` where the advice is always shown (TCG: the mixes are the game).
    advice_setting: str | None = None
    #: A configuration from the values of the game's parameters, the opponent, the user's side and a seed: what the
    #: set-up screen generated from the descriptor makes (``tui.screens.parameter_setup``).
    config_from_values: Callable[[dict[str, Any], str, Side, int | None], Config] | None = None
    #: How a spectator sees a state (``"module:Class"``, a ``tui.widgets.pictures.StatePicture``): the record
    #: viewer's and the review's picture. ``None``: the Geister family, replayed on its board.
    picture: str | None = None

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


class SideNotGiven(str):
    """``--side``'s default in the Geister family: equal to the text it holds, and telling the configuration that the
    user did not choose it (with ``--position`` the side to move plays)."""

    __slots__ = ()


def _side_to_move(position: str, game: str) -> str:
    """Whose turn it is at ``position`` ("1" or "2"); ``ConfigError`` for a position that does not parse."""
    from core.geister import GeisterState

    try:
        return str(GeisterState.from_position(position, game).to_move.number)
    except NotationError as error:
        raise ConfigError(str(error), "--position") from None


def _geister_options(game: str) -> Callable[[argparse.ArgumentParser], None]:
    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--opponent",
            type=_opponent(game, (SHARED_KEYBOARD,)),
            # As on the menu: the game's strongest AI (a game against nashplay means that one).
            default=strongest(game).name,
            metavar="NAME",
            help=_opponent_help(game, strongest(game).name) + f"; {SHARED_KEYBOARD}: two people at one keyboard",
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
        parser.add_argument(
            "--position",
            metavar="P",
            help="play on from this position (e.g. '1uu1/4/4/1BR1 1'): your colours given, the opponent's u/U "
            "drawn at random from its counts; you play the side to move unless --side says otherwise",
        )
        _clock_option(parser)
        # Player 1 still, but marked as not given: with --position the side to move is the default.
        parser.set_defaults(side=SideNotGiven("1"))

    return add


def _geister_config(args: argparse.Namespace) -> Config:
    side = args.side
    if args.position is not None and isinstance(side, SideNotGiven):
        side = _side_to_move(args.position, args.game)
    config = GeisterConfig(
        variant=args.game,
        human=_side(side),
        opponent=args.opponent,
        setup=args.setup,
        seed=args.seed,
        think_time=args.time,
        position=args.position,
        clock=args.clock,
    )
    config.check()
    return config


#: The games' own parameters (``core``'s descriptors): the options below are generated from them.
TCG_N = game_type("tcg").by_name["n"]
FOOTSTEP_N, FOOTSTEP_K = game_type("footstep").by_name["n"], game_type("footstep").by_name["k"]
NIM = game_type("nim").by_name


def _tcg_options(parser: argparse.ArgumentParser) -> None:
    add_parameter_option(parser, TCG_N)
    parser.add_argument(
        "--mode", choices=["advisor", "versus"], help="in the app: advisor (default) or versus the equilibrium AI"
    )
    parser.add_argument(
        "--advisor",
        action="store_true",
        help="the plain-terminal advisor instead of the app: you type the opponent's action, it suggests yours",
    )
    _clock_option(parser)
    _common_options(parser, SIDE_HELP["simultaneous"])


def _tcg_config(args: argparse.Namespace) -> Config:
    n = parameter_value(args, TCG_N)
    config = TcgConfig(n, args.mode or "advisor", _side(args.side), args.seed, clock=args.clock)
    config.check()
    return config


#: The plain-terminal advisor of ``nashplay play tcg --advisor`` (named, as the screens are: the command line's module
#: is above the catalogue's floor).
TCG_PROMPT = "tui.cli.tcg_prompt:from_options"


def tcg_prompt(args: argparse.Namespace) -> int | None:
    """``nashplay play tcg --advisor``: the plain-terminal advisor (``TCG_PROMPT``), which has no clock: ``--clock``
    with it is refused rather than silently dropped."""
    if args.advisor and args.clock is not None:
        raise ConfigError("the clock is the app's; --advisor is the plain-terminal advisor", "--clock")
    code: int | None = resolve(TCG_PROMPT)(args)
    return code


def _clock_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--clock",
        metavar="M+S",
        help="a chess clock: M minutes each plus S seconds after each move (e.g. 5+3); out of time loses",
    )


def _nim_options(parser: argparse.ArgumentParser) -> None:
    # Read as text here and by the configuration, whose message names the option (``ConfigError``).
    for name in ("heaps", "rule"):
        parameter = NIM[name]
        parser.add_argument(f"--{name}", default=parameter.text(parameter.default), help=parameter.help)
    parser.add_argument("--misere", action="store_true", help=NIM["misere"].help)
    parser.add_argument(
        "--opponent",
        default="perfect",
        metavar="NAME",
        help="perfect (default), random, or human: two people at one keyboard",
    )
    _clock_option(parser)
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
    config = NimConfig(heaps, rule, args.misere, args.opponent, _side(args.side), args.seed, clock=args.clock)
    config.check()
    return config


def _footstep_options(parser: argparse.ArgumentParser) -> None:
    add_parameter_option(parser, FOOTSTEP_N)
    add_parameter_option(parser, FOOTSTEP_K)
    parser.add_argument(
        "--opponent",
        type=_opponent("footstep"),
        default="equilibrium",
        metavar="NAME",
        help=_opponent_help("footstep", "equilibrium"),
    )
    _clock_option(parser)
    _common_options(parser, SIDE_HELP["simultaneous"])


def _footstep_config(args: argparse.Namespace) -> Config:
    n, k = parameter_value(args, FOOTSTEP_N), parameter_value(args, FOOTSTEP_K)
    config = FootstepConfig(n, k, args.opponent, _side(args.side), args.seed, clock=args.clock)
    config.check()
    return config


def _goofspiel_options(parser: argparse.ArgumentParser) -> None:
    add_parameter_option(parser, CARDS_PARAMETER)
    parser.add_argument(
        "--opponent",
        type=_opponent("goofspiel"),
        default="equilibrium",
        metavar="NAME",
        help=_opponent_help("goofspiel", "equilibrium"),
    )
    _clock_option(parser)
    _common_options(parser, SIDE_HELP["simultaneous"])


def _goofspiel_config(args: argparse.Namespace) -> Config:
    cards = parameter_value(args, CARDS_PARAMETER)
    config = GoofspielConfig(cards, args.opponent, _side(args.side), args.seed, clock=args.clock)
    config.check()
    return config


# --------------------------------------------------------------------------------------------------- resuming


def _saved_clock(saved: SavedGame) -> tuple[str | None, tuple[float, float] | None]:
    """The clock a saved game was played with (as ``--clock`` takes it) and the seconds each side had left (player
    1's, player 2's): the game goes on with them. ``(None, None)`` for a game without one."""
    clock = GameClock.from_tags(saved.tags)
    if clock is None:
        return None, None
    return clock.control(), (clock.left[Side.P1], clock.left[Side.P2])


def _tcg_resume(saved: SavedGame) -> Config:
    mode = saved.tags.get("Mode", "versus")
    if mode not in ("advisor", "versus"):
        raise ConfigError(f"the mode is advisor or versus, not {quoted(mode)}")
    start, final = saved.start, saved.final
    if not isinstance(start, TcgState) or not isinstance(final, TcgState) or start.points != (0, 0):
        raise ConfigError("the app plays TCG from 0,0 only")
    control, left = _saved_clock(saved)
    mode_played: TcgMode = "advisor" if mode == "advisor" else "versus"
    return TcgConfig(final.n, mode_played, saved.human, saved.seed, clock=control, clock_left=left)


def _footstep_resume(saved: SavedGame) -> Config:
    start, final = saved.start, saved.final
    if not isinstance(start, FootstepState) or not isinstance(final, FootstepState):
        raise ConfigError("not a Footstep game")
    if start.position != FootstepState(final.n, final.k).position:
        raise ConfigError("the app plays Footstep from the start only")
    control, left = _saved_clock(saved)
    opponent = saved.opponent or "equilibrium"
    return FootstepConfig(final.n, final.k, opponent, saved.human, saved.seed, clock=control, clock_left=left)


def _nim_resume(saved: SavedGame) -> Config:
    start, final = saved.start, saved.final
    if not isinstance(start, HeapGameState) or not isinstance(final, HeapGameState):
        raise ConfigError("not a heap game")
    if saved.opponent not in NIM_OPPONENTS:
        raise ConfigError(f"the opponent is one of {', '.join(NIM_OPPONENTS)}, not {quoted(saved.opponent)}")
    control, left = _saved_clock(saved)
    return NimConfig(
        start.heaps, final.rule, final.misere, saved.opponent, saved.human, saved.seed, clock=control, clock_left=left
    )


def _goofspiel_resume(saved: SavedGame) -> Config:
    start = saved.start
    if not isinstance(start, GoofspielState):
        raise ConfigError("not a Goofspiel game")
    if start.position != GoofspielPosition.start(start.cards, start.up):
        raise ConfigError("the app plays Goofspiel from the first round only")
    control, left = _saved_clock(saved)
    opponent = saved.opponent or "equilibrium"
    return GoofspielConfig(start.cards, opponent, saved.human, saved.seed, clock=control, clock_left=left)


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
        # The game's strongest AI by default (chototsu, the simplest, was): what a game against nashplay means.
        lambda: GeisterConfig(variant=name, opponent=strongest(name).name),
        _geister_options(name),
        _geister_config,
        # Asked on the set-up screen: the user's pieces when not given; at a shared keyboard, the other person's.
        lambda args: args.position is None and (args.setup is None or args.opponent == SHARED_KEYBOARD),
        advice_setting="search_advice" if name == "geister" else "mini_geister_advice",
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
        resume=_tcg_resume,
        instead_of_app="tui.games:tcg_prompt",
        picture="tui.widgets.pictures.tcg:TcgPicture",
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
        resume=_nim_resume,
        picture="tui.widgets.pictures.heaps:HeapPicture",
        advice_setting="nim_advice",
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
        resume=_footstep_resume,
        picture="tui.widgets.pictures.footstep:FootstepPicture",
        advice_setting="footstep_advice",
    ),
    "goofspiel": GameEntry(
        game_type("goofspiel"),
        "bid your cards for prizes: the exact equilibrium",
        "goofspiel",
        "tui.screens.goofspiel:GoofspielScreen",
        "tui.screens.parameter_setup:ParameterSetupScreen",
        GoofspielConfig,
        _goofspiel_options,
        _goofspiel_config,
        resume=_goofspiel_resume,
        config_from_values=lambda values, opponent, human, seed: GoofspielConfig(
            values["cards"], opponent, human, seed
        ),
        picture="tui.widgets.pictures.goofspiel:GoofspielPicture",
        advice_setting="goofspiel_advice",
    ),
}


def game_of(config: Config) -> str:
    """The game a configuration is for."""
    return config.game


def game_entry(name: str) -> GameEntry:
    try:
        return GAMES[name]
    except KeyError:
        game_type(name)  # the same error for a name no catalogue knows
        raise ConfigError(f"the app does not play {name}") from None
