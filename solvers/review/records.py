"""``review_record``: a game record's review, by the judge of its game (``solvers.review``'s modules, one a game).

The record is replayed first (``Record.positions``: a damaged record is refused before any judging; a state kept
every 100 plies, not every ply, which for a 10,000-move heap game was about 830 MB), then each move is judged from
its mover's point of view, the states walked forward once. ``progress(done, total)`` is told after each entry (and
once at the start, with 0 done); ``should_stop()`` is asked between entries, and between the reports of Geister's
search, and ``ReviewCancelled`` ends the review when it says so. A module-level function of plain arguments: it
pickles, so the app can run it in another process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.errors import NotationError, RecordError
from core.game import Game
from core.game_type import resolve
from core.games import GAME_TYPES
from core.record import Record
from solvers.review import DEFAULT_DEPTH, Review
from solvers.review.judging import Budget, Tick

__all__ = ["DEFAULT_DEPTH", "ReviewCancelled", "beyond_limits", "entries_of", "review_record"]


#: A game's judge (``GameType.reviewer``): the record, its replayed states, the tick, what a search may spend. The
#: states are a ``Positions``: a judge reads them (never plays on one), the first by index, then in turn (a state
#: iterated stays as it is until the one after the next is asked).
Judge = Callable[[Record, Sequence[Game[Any, Any]], Tick, Budget], Review]


class ReviewCancelled(Exception):  # noqa: N818 (the name the app and the screens code against)
    """The caller's ``should_stop`` asked the review to end."""


def entries_of(record: Record) -> int:
    """How many entries the review of ``record`` has: one a move, two a round in a simultaneous game."""
    return len(record.moves) * (2 if record.game_kind == "simultaneous" else 1)


def beyond_limits(record: Record) -> str | None:
    """Why the record's game is beyond what the review solves (the app's bounds), or ``None``: a record's tags are
    read before anything is solved, so that a hostile file cannot ask for a table of a million states."""
    game = GAME_TYPES.get(record.tags.get("Game", ""))
    if game is None:
        return None  # replaying the record says what is wrong
    try:
        state = record.new_state()
    except NotationError as error:
        return str(error)
    values = game.values_of(state)
    for parameter in game.parameters:
        value = values.get(parameter.name)
        if parameter.limits is None or value is None:
            continue
        low, high = parameter.limits
        if not low <= value <= high:
            return (
                f"the record's {game.title} has {parameter.name} = {value}: the review solves {parameter.name} from "
                f"{low:g} to {high:g}"
            )
    if game.review_check is not None:  # the reviewer's own limits (the Sprague-Grundy solver's)
        check: Callable[[Game[Any, Any]], str | None] = resolve(game.review_check)
        return check(state)
    return None


def review_record(
    record: Record,
    *,
    time: float | None = None,
    depth: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    seed: int = 0,
) -> Review:
    """Every move of ``record`` judged for its mover (see ``solvers.review``). Geister's moves get the strongest
    search to a fixed ``depth`` (``DEFAULT_DEPTH`` when neither is given: the same review on any machine), or for
    ``time`` seconds each, its tie-breaks drawn from ``seed``; Mini-Geister's search past its 3-vs-2 tables takes
    ``depth`` too (its advice's depth by default); the solved games ignore the three. Raises ``RecordError`` for a
    record that does not replay and ``ReviewCancelled`` when ``should_stop`` says so."""
    name = record.tags.get("Game", "")
    game = GAME_TYPES.get(name)
    if game is None:
        raise RecordError(f"no game called {name[:40]!r}: expected one of {', '.join(GAME_TYPES)}")
    too_large = beyond_limits(record)
    if too_large is not None:
        raise RecordError(too_large)
    states = record.positions()
    total = entries_of(record)
    done = 0

    def tick(finished: bool) -> None:
        nonlocal done
        if finished:
            done += 1
            if progress is not None:
                progress(done, total)
        if should_stop is not None and should_stop():
            raise ReviewCancelled(f"review stopped after {done} of {total} moves")

    tick(False)
    if progress is not None:
        progress(0, total)
    if game.reviewer is None:
        raise RecordError(f"no review for {game.title} yet")
    judge: Judge = resolve(game.reviewer)
    if time is None and depth is None and game.review_searches:
        depth = DEFAULT_DEPTH  # a fixed depth unless a time is asked for: the same review on any machine
    return judge(record, states, tick, Budget(time, depth, seed))
