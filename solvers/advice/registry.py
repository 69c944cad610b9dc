"""The advice on a position of any game, as ``nashplay analyse`` asks for it.

Each game names its adviser in its descriptor (``GameType.adviser``): a function in its own module
(``solvers.advice.geister``, ``.mini_geister``, ``.tcg``, ``.footstep``, ``.nim``, ``.goofspiel``) that reads a
``Request``
(position text and options, as the command line has them), checks the position with the game's own parser, and
advises. Nothing heavy is imported until a request runs: the advisers (numpy, the solvers, the compiled search) load
then, so the command line can read this module for ``--help``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.game import Side
from core.game_type import resolve
from core.games import game_type

if TYPE_CHECKING:
    from solvers.advice import Advice

__all__ = ["SLICE_SECONDS", "Request", "RequestError", "advise", "adviser", "side_of"]

#: How often (seconds) a timed Geister search comes back to Python between slices of its work.
SLICE_SECONDS = 0.25


@dataclass(frozen=True)
class Request:
    """One position to advise on, as text, with the options of its game (``None``: the game's default)."""

    game: str
    position: str
    #: Whose advice in a simultaneous game: 1 or 2. The turn-based games advise the side to move.
    player: int | None = None
    #: The values of the game's parameters and of its advice's (``GameType.parameters`` and ``advice_parameters``,
    #: by name), as the command line read them; a missing one is its default.
    values: tuple[tuple[str, Any], ...] = ()

    def value(self, name: str) -> Any:
        """The value of the parameter ``name``: the one given, else its default."""
        given = dict(self.values)
        if name in given:
            return given[name]
        game = game_type(self.game)
        for parameter in (*game.parameters, *game.advice_parameters):
            if parameter.name == name:
                return parameter.default
        raise KeyError(f"{self.game} has no parameter {name!r}")


class RequestError(ValueError):
    """A request its adviser will not take (beyond what its solver is asked to do): ``option`` says which option
    to change (``--position`` unless another)."""

    def __init__(self, message: str, option: str = "--position") -> None:
        super().__init__(message)
        self.option = option


def adviser(game: str) -> Callable[[Request], Iterator[Advice]]:
    """``game``'s adviser (``GameType.adviser``; imports its module). ``UnknownGameError`` for a name no catalogue
    knows, ``ValueError`` for a game without one."""
    reference = game_type(game).adviser
    if reference is None:
        raise ValueError(f"no adviser for {game}")
    found: Callable[[Request], Iterator[Advice]] = resolve(reference)
    return found


def advise(request: Request) -> Iterator[Advice]:
    """The advice on ``request``'s position: one ``Advice`` for the solved games, improving ones (the last final)
    for Geister's search. ``NotationError`` for a position that does not parse, ``ValueError`` for one the adviser
    cannot judge (the game is over, outside the solved tables); both say why in one line."""
    game = game_type(request.game)
    if request.player is not None and game.kind != "simultaneous":
        raise ValueError(f"{game.name} is advised for the side to move; --for is for the simultaneous games")
    yield from adviser(game.name)(request)


def side_of(request: Request) -> Side:
    """Whose advice ``request`` asks for in a simultaneous game (player 1 unless ``--for 2``)."""
    return Side.from_number(request.player or 1)
