"""The player catalogue: the one place a player is declared.

Each entry holds a player's name, its one-line description (the only copy: the set-up screens, ``--help``, the arena
and ``nashplay list`` read it here), the games it plays, where it thinks (in the app's own process, or in the
search process, because a search holds the interpreter for seconds) and a lazy reference to its class per game
family. The catalogue also names the strongest player of each game: the live advice and ``connect``'s default use
it. Adding an AI is one module plus one entry here.

Nothing heavy is imported: the references are ``"module:Class"`` strings resolved on use, so the app starts and
``nashplay --help`` answers without numpy (the search players load it).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from core.games import GAME_TYPES, game_type

__all__ = [
    "PLAYERS",
    "STRONGEST",
    "PlayerEntry",
    "UnknownPlayerError",
    "advising_player",
    "make_player",
    "player_entry",
    "players_for",
    "strongest",
]

#: ``app``: decides at once, in the app's own process; ``search``: thinks for a time budget, in the search process.
Runs = Literal["app", "search"]

GEISTER_FAMILY: tuple[str, ...] = tuple(name for name, game in GAME_TYPES.items() if game.family == "geister")


class UnknownPlayerError(ValueError, LookupError):
    """A player name the catalogue does not know, or one that does not play the game asked for."""


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    #: One line for menus, ``--help`` and ``nashplay list``; it does not repeat the name.
    description: str
    #: The games (``core.games`` names) it plays.
    games: tuple[str, ...]
    runs: Runs
    #: Its class for each game family, as ``"module:Class"`` (imported on first use).
    classes: Mapping[str, str]
    #: Keyword arguments its class is made with (``rule="extended"`` for the extended-rule Nash player).
    options: Mapping[str, Any] = field(default_factory=dict)
    #: It can advise: it implements the analyst protocol with the search reports the live advice, ``analyse`` and
    #: the review read (``solvers.geister.purple.SearchReport``), so ``advising_player`` may pick it.
    advises: bool = False

    @property
    def thinks(self) -> bool:
        """Whether it takes a thinking time (the search players)."""
        return self.runs == "search"

    def plays(self, game: str) -> bool:
        return game in self.games

    def player_class(self, game: str) -> type[Any]:
        """Its class for ``game`` (imports the class's module)."""
        if not self.plays(game):
            raise UnknownPlayerError(f"{self.name} does not play {game}: it plays {', '.join(self.games)}")
        module, _, attribute = self.classes[game_type(game).family].partition(":")
        cls: type[Any] = getattr(importlib.import_module(module), attribute)
        return cls

    def make(self, game: str) -> Any:
        """A fresh player for ``game`` (one per game played: some players learn within a game)."""
        return self.player_class(game)(**self.options)


def _entries(*entries: PlayerEntry) -> dict[str, PlayerEntry]:
    return {entry.name: entry for entry in entries}


_MONTE_CARLO = "solvers.geister.montecarlo"

PLAYERS: dict[str, PlayerEntry] = _entries(
    PlayerEntry(
        "random",
        "uniformly random legal moves",
        tuple(GAME_TYPES),
        "app",
        dict.fromkeys({game.family for game in GAME_TYPES.values()}, "solvers.players:RandomPlayer"),
    ),
    PlayerEntry(
        "chototsu",
        "blue pieces charge straight for the exits (the UPP paper's baseline)",
        GEISTER_FAMILY,
        "app",
        {"geister": "solvers.geister.baselines:ChototsuPlayer"},
    ),
    PlayerEntry(
        "greedy",
        "escapes when it can, else captures the most advanced piece in reach, else moves at random",
        GEISTER_FAMILY,
        "app",
        {"geister": "solvers.geister.baselines:GreedyPlayer"},
    ),
    PlayerEntry(
        "mc",
        "Monte Carlo over sampled worlds with random playouts that race for the exits (the UPP paper's baseline)",
        GEISTER_FAMILY,
        "search",
        {"geister": f"{_MONTE_CARLO}:MonteCarloPlayer"},
    ),
    PlayerEntry(
        "mc-guided",
        "Monte Carlo with guided playouts (racing and capturing, as ISMCTS's): beyond the paper",
        GEISTER_FAMILY,
        "search",
        {"geister": f"{_MONTE_CARLO}:GuidedMonteCarloPlayer"},
    ),
    PlayerEntry(
        "upp",
        "Monte Carlo that learns which world is real from the opponent's moves (Mishio & Kotani)",
        GEISTER_FAMILY,
        "search",
        {"geister": f"{_MONTE_CARLO}:UPPPlayer"},
    ),
    PlayerEntry(
        "ismcts",
        "information-set Monte Carlo tree search over UPP's beliefs, wary of bait (beyond the paper)",
        GEISTER_FAMILY,
        "search",
        {"geister": "solvers.geister.ismcts:ISMCTSPlayer"},
    ),
    PlayerEntry(
        "purple",
        "alpha-beta over purple pieces, the contest programs' way: unknown pieces may escape, captures may be red",
        GEISTER_FAMILY,
        "search",
        {"geister": "solvers.geister.purple:PurplePlayer"},
        advises=True,
    ),
    PlayerEntry(
        "sage",
        "purple-piece alpha-beta judged by what games taught: a learned chance to win and a learned colour belief",
        GEISTER_FAMILY,
        "search",
        {"geister": "solvers.geister.learned:LearnedPlayer"},
        advises=True,
    ),
    PlayerEntry(
        "bayes",
        "purple-piece alpha-beta that also weighs what the opponent's moves say about its colours",
        GEISTER_FAMILY,
        "search",
        {"geister": "solvers.geister.bayes:BayesPlayer"},
        advises=True,
    ),
    PlayerEntry(
        "feeder",
        "a style: purple's search that offers its reds (they march into contact, its blues wait behind)",
        GEISTER_FAMILY,
        "search",
        {"geister": "solvers.geister.styles:FeederPlayer"},
    ),
    PlayerEntry(
        "bluffer",
        "a style: purple's search whose reds lead the advance like runners while its blues follow",
        GEISTER_FAMILY,
        "search",
        {"geister": "solvers.geister.styles:BlufferPlayer"},
    ),
    PlayerEntry(
        "rusher",
        "a style: purple's search that sprints its blues for the exits and guards nothing",
        GEISTER_FAMILY,
        "search",
        {"geister": "solvers.geister.styles:RusherPlayer"},
    ),
    PlayerEntry(
        "turtle",
        "a style: purple's search that stays home, guards its corners and takes what comes near",
        GEISTER_FAMILY,
        "search",
        {"geister": "solvers.geister.styles:TurtlePlayer"},
    ),
    PlayerEntry(
        "nash",
        "the Nash equilibrium (Tanaka & Takaoka): never looks at its own colours; average payoff >= 0",
        ("mini-geister",),
        "app",
        {"geister": "solvers.mini_geister.players:NashPlayer"},
    ),
    PlayerEntry(
        "nash-extended",
        "the Nash equilibrium with the section-4 guess: shorter games",
        ("mini-geister",),
        "app",
        {"geister": "solvers.mini_geister.players:NashPlayer"},
        {"rule": "extended"},
    ),
    PlayerEntry(
        "mirror",
        "the section-5 mirror strategy (as player 2: copies player 1's moves upside down)",
        ("mini-geister",),
        "app",
        {"geister": "solvers.mini_geister.players:MirrorPlayer"},
    ),
    PlayerEntry(
        "adversary",
        "reads the Nash player's own table and exploits what its play gives away",
        ("mini-geister",),
        "app",
        {"geister": "solvers.mini_geister.players:TableAdversary"},
    ),
    PlayerEntry(
        "equilibrium",
        "plays the exact equilibrium mix, drawing its action at random",
        ("tcg", "footstep", "goofspiel"),
        "app",
        {
            "tcg": "solvers.tcg:TcgEquilibriumPlayer",
            "footstep": "solvers.footstep:FootstepEquilibriumPlayer",
            "goofspiel": "solvers.goofspiel:GoofspielEquilibriumPlayer",
        },
    ),
    PlayerEntry(
        "learner",
        "the source's reward learner, trained on 10,000 games against random and still learning",
        ("footstep",),
        "app",
        {"footstep": "solvers.footstep_learning:LearnerPlayer"},
    ),
    PlayerEntry(
        "perfect",
        "the perfect player: a move to a Grundy value of 0 whenever one exists (Sprague-Grundy)",
        ("nim",),
        "app",
        {"nim": "solvers.grundy:PerfectPlayer"},
    ),
)

#: The strongest player of each game: what the live advice runs and what ``connect`` plays by default.
STRONGEST: dict[str, str] = {
    # bayes: measured against purple, ismcts, upp and chototsu (the README's strength table); on 6x6, sage beats it
    # (its models are learned from 6x6 games, so the 4x4 variants keep bayes).
    **dict.fromkeys(GEISTER_FAMILY, "bayes"),
    "geister": "sage",
    "mini-geister": "nash",
    "tcg": "equilibrium",
    "footstep": "equilibrium",
    "nim": "perfect",
    "goofspiel": "equilibrium",
}


def player_entry(name: str) -> PlayerEntry:
    try:
        return PLAYERS[name]
    except KeyError:
        raise UnknownPlayerError(f"unknown player {name!r}: expected one of {', '.join(PLAYERS)}") from None


def players_for(game: str) -> list[PlayerEntry]:
    """The players of ``game``: its strongest first, then the others in catalogue order."""
    best = STRONGEST[game_type(game).name]  # an unknown game is an error, not an empty list
    playing = [entry for entry in PLAYERS.values() if entry.plays(game)]
    return sorted(playing, key=lambda entry: entry.name != best)


def strongest(game: str) -> PlayerEntry:
    return PLAYERS[STRONGEST[game_type(game).name]]


def advising_player(game: str) -> PlayerEntry:
    """The player whose search advises in ``game`` (the live advice, ``analyse``, the review): the strongest that
    advises (``PlayerEntry.advises``). ``LookupError`` for a game none of them plays."""
    for entry in players_for(game):
        if entry.advises:
            return entry
    raise LookupError(f"no player of the catalogue advises in {game}")


def make_player(name: str, game: str) -> Any:
    """A fresh ``name`` player for ``game``; ``UnknownPlayerError`` (a ``ValueError``) says what is known."""
    entry = player_entry(name)
    if not entry.plays(game):
        known = ", ".join(e.name for e in players_for(game))
        raise UnknownPlayerError(f"{name} does not play {game}: its players are {known}")
    return entry.make(game)
