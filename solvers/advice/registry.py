"""Which adviser advises which game, by the game's name (``core.games``): what ``nashplay analyse`` runs.

Each game's adviser lives in its own module (``solvers.advice.geister``, ``.mini_geister``, ``.tcg``, ``.footstep``,
``.nim``) and takes its game's own arguments; ``advise`` here reads a ``Request`` (position text and options, as the
command line has them), checks the position with the game's own parser, and calls the adviser. Nothing heavy is
imported until a request runs: the advisers (numpy, the solvers, the compiled search) load then, so the command line
can read this module for ``--help``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import InvalidPositionError
from core.game import Side
from core.games import GAME_TYPES, game_type

if TYPE_CHECKING:
    from core.geister import GeisterState
    from solvers.advice import Advice

__all__ = ["ADVISERS", "SLICE_SECONDS", "Request", "advise", "adviser", "check_geister_position"]

#: How often (seconds) a timed Geister search comes back to Python between slices of its work.
SLICE_SECONDS = 0.25

_GEISTER_FAMILY = tuple(name for name, game in GAME_TYPES.items() if game.family == "geister")

#: Each game's adviser, as ``"module:function"`` (imported on first use).
ADVISERS: dict[str, str] = {
    "geister": "solvers.advice.geister:analyse",
    **{name: "solvers.advice.mini_geister:advise" for name in _GEISTER_FAMILY if name != "geister"},
    "tcg": "solvers.advice.tcg:advise",
    "footstep": "solvers.advice.footstep:advise",
    "nim": "solvers.advice.nim:advise",
}


@dataclass(frozen=True)
class Request:
    """One position to advise on, as text, with the options of its game (``None``: the game's default)."""

    game: str
    position: str
    #: Whose advice in a simultaneous game (TCG, Footstep): 1 or 2. The Geister family and Nim advise the side to move.
    player: int | None = None
    #: TCG's most points (3); Footstep's points (50) and steps to a goal (4).
    n: int | None = None
    k: int | None = None
    #: Nim's heap rule (``nim``, ``kayles``, ``{1,2,3}``, ``0.77``) or the 2-vs-2 Mini-Geister rule (base, extended).
    rule: str | None = None
    misere: bool = False
    #: Geister's search: seconds, or a fixed depth (reproducible), and the seed of its tie-breaks.
    time: float | None = None
    depth: int | None = None
    seed: int | None = None


def adviser(game: str) -> Callable[..., Any]:
    """``game``'s adviser function (imports its module); ``UnknownGameError`` for a name no catalogue knows."""
    name = game_type(game).name
    module, _, function = ADVISERS[name].partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return found


def check_geister_position(state: GeisterState, knows: Side) -> None:
    """What a Geister-family position must give before anyone plays or advises from it: every piece of each side
    accounted for (on the board or among the captured, whose colours a capture reveals), and ``knows``'s own colours
    (a side always knows them; pieces of unknown colour could each escape). ``InvalidPositionError`` says what is
    missing, in one line."""
    from core.geister import Colour

    variant = state.variant
    if any(piece.colour is Colour.UNKNOWN for piece in state.captured):
        raise InvalidPositionError("captured pieces show their colours (a capture reveals them): write B/R or b/r")
    for side in Side:
        on_board = sum(1 for _, piece in state.pieces() if piece.side is side)
        taken = sum(1 for piece in state.captured if piece.side is side)
        if on_board + taken != variant.pieces(side):
            raise InvalidPositionError(
                f"{side} has {on_board} pieces on the board and {taken} captured; {variant.title} gives "
                f"{variant.pieces(side)}: list the captured ones after the side to move"
            )
    if any(piece.colour is Colour.UNKNOWN for _, piece in state.pieces() if piece.side is knows):
        letters = "B/R" if knows is Side.P1 else "b/r"
        raise InvalidPositionError(f"{knows}'s own pieces need their colours ({letters}, not U): they know them")


def _geister(request: Request) -> Iterator[Advice]:
    from core.geister import GeisterState
    from solvers.players import Limit

    state = GeisterState.from_position(request.position, request.game)
    outcome = state.outcome()
    if outcome is not None:
        raise InvalidPositionError(f"the game is over: {outcome}")
    check_geister_position(state, state.to_move)
    from solvers.catalogue import make_player, strongest

    limit = Limit(iterations=request.depth) if request.depth is not None else Limit(time=request.time or 1.0)
    rng = random.Random(request.seed)
    player = make_player(strongest(request.game).name, request.game)
    # A timed search reports between slices: Python (and so Ctrl-C) gets a word in that often.
    player.slice_seconds = SLICE_SECONDS
    analyse = adviser(request.game)
    yield from analyse(state.view(state.to_move), limit, rng, player)


def _mini_geister(request: Request) -> Iterator[Advice]:
    rule = request.rule or "base"
    if rule not in ("base", "extended"):
        raise ValueError(f"the Mini-Geister rule is base or extended, not {rule[:30]!r}")
    yield adviser(request.game)(request.position, request.game, rule=rule)


def _side(request: Request) -> Side:
    return Side.from_number(request.player or 1)


def _tcg(request: Request) -> Iterator[Advice]:
    from core.tcg import parse_state
    from solvers.tcg import load_solution

    n = 3 if request.n is None else request.n
    i1, i2 = parse_state(request.position, n)
    solution = load_solution(n)[0]
    yield adviser("tcg")(solution, i1, i2, _side(request))


def _footstep(request: Request) -> Iterator[Advice]:
    from core.footstep import parse_position
    from solvers.footstep import load_solution

    n = 50 if request.n is None else request.n
    k = 4 if request.k is None else request.k
    position = parse_position(request.position, n, k)
    solution = load_solution(n, k)[0]
    yield adviser("footstep")(solution, position, _side(request))


def _nim(request: Request) -> Iterator[Advice]:
    from core.impartial import parse_heaps, parse_rule

    heaps = parse_heaps(request.position)
    rule = parse_rule(request.rule or "nim")
    yield adviser("nim")(heaps, rule, request.misere)


_RUNNERS: dict[str, Callable[[Request], Iterator[Advice]]] = {
    "geister": _geister,
    "tcg": _tcg,
    "footstep": _footstep,
    "nim": _nim,
}


def advise(request: Request) -> Iterator[Advice]:
    """The advice on ``request``'s position: one ``Advice`` for the solved games, improving ones (the last final)
    for Geister's search. ``NotationError`` for a position that does not parse, ``ValueError`` for one the adviser
    cannot judge (the game is over, outside the solved tables); both say why in one line."""
    name = game_type(request.game).name
    runner = _RUNNERS.get(name, _mini_geister if name in _GEISTER_FAMILY else None)
    if runner is None:  # pragma: no cover - every game of core.games has an adviser
        raise ValueError(f"no adviser for {name}")
    if request.player is not None and game_type(name).kind != "simultaneous":
        raise ValueError(f"{name} is advised for the side to move; --for is for TCG and Footstep")
    yield from runner(request)
