"""What a watched game is (two AIs of the catalogue playing a game of the Geister family, each with its own thinking
time) and its checks, shared by ``nashplay watch``, the set-up screen for watching and the App, so that the command
line and the screen refuse the same things with the same words.

No Textual and no numpy here: the command line reads this module before anything heavy is loaded.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from core.errors import quoted
from core.geister import SEARCH_SECONDS
from solvers.catalogue import GEISTER_FAMILY, PLAYERS, STRONGEST, players_for
from tui.arguments import real_number

__all__ = [
    "DEFAULT_WATCH_TIME",
    "WATCHABLE",
    "WATCH_TIME_RANGE",
    "WatchSettings",
    "default_players",
    "parse_watch_time",
    "players_problem",
]

#: The games a watch can show: the Geister family (the watch screen draws their board, and every player of the
#: catalogue that plays one of them plays it from a ``GeisterView``).
WATCHABLE: tuple[str, ...] = GEISTER_FAMILY
#: Seconds a searching AI thinks per move unless the set-up screen or ``--time`` says otherwise: long enough for the
#: search to mean something, short enough to watch a whole game.
DEFAULT_WATCH_TIME = 0.5
#: The same bounds as every other thinking time (``play --time``, ``arena --time``).
WATCH_TIME_RANGE = SEARCH_SECONDS

#: One thinking time from text: the number type of every command's ``--time``, so that the set-up screen's message
#: and the command line's are the same words ("must be from 0.01 to 60 seconds, not 0").
parse_watch_time = real_number(*WATCH_TIME_RANGE, unit="seconds")


def default_players(variant: str) -> tuple[str, str]:
    """The pairing offered first: the game's strongest player against the first other player that searches well
    enough to advise (purple, the contest programs' search); a game with no such player gets its second player."""
    best = STRONGEST[variant]
    others = [entry for entry in players_for(variant) if entry.name != best]
    rival = next((entry for entry in others if entry.advises), others[0])
    return best, rival.name


def players_problem(variant: str, players: tuple[str, ...]) -> str | None:
    """Why ``players`` cannot play a watched game of ``variant`` (one line naming the choices), or ``None``."""
    known = [entry.name for entry in players_for(variant)]
    choices = f"the players of {variant} are {', '.join(known)}"
    if len(players) != 2:
        given = f" ({', '.join(quoted(name) for name in players[:5])})" if players else ""
        return f"expected two players, player 1's first, not {len(players)}{given}: {choices}"
    for name in players:
        if name not in PLAYERS:
            return f"unknown player {quoted(name)}: {choices}"
        if name not in known:
            return f"{name} does not play {variant}: {choices}"
    return None


@dataclass(frozen=True)
class WatchSettings:
    """A watched game: ``variant``, its two ``players`` (catalogue names, player 1's first; ``None``: the variant's
    ``default_players``), the seconds each thinks a move (player 1's first: each side's time is its own) and the
    seed of their generators (``None``: drawn when the game starts)."""

    variant: str = "geister"
    players: tuple[str, str] | None = None
    think_times: tuple[float, float] = (DEFAULT_WATCH_TIME, DEFAULT_WATCH_TIME)
    seed: int | None = None

    def resolved_players(self) -> tuple[str, str]:
        return self.players if self.players is not None else default_players(self.variant)

    def check(self) -> None:
        """``ValueError`` with one line a user can act on: a game that is not of the family, a player that does not
        play it, a time out of bounds."""
        if self.variant not in WATCHABLE:
            raise ValueError(f"cannot watch {quoted(self.variant)}: expected one of {', '.join(WATCHABLE)}")
        if self.players is not None:
            problem = players_problem(self.variant, self.players)
            if problem is not None:
                raise ValueError(problem)
        for side, seconds in enumerate(self.think_times, 1):
            try:
                parse_watch_time(repr(seconds))
            except argparse.ArgumentTypeError as error:
                raise ValueError(f"player {side}'s time: {error}") from None
