"""Goofspiel advice: the exact equilibrium of a position (``solvers.goofspiel``), as the one ``Advice`` shape.

The advice is for one player (``--for``): each card it may bid, with its weight in the equilibrium mix and what it
is worth bid for sure against the opponent's equilibrium mix (the expected result, +1 a win, -1 a loss); the value
is the position's for that player. Both mixes are in ``extra`` (``mixes``) and in the details: the issue's "both
players' equilibrium mixes". A position whose value is +1 or -1 is won or lost whatever the opponent does: it says
so, with the rounds left.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from core.game import Side
from solvers.advice import Advice, MoveAdvice, Result

if TYPE_CHECKING:
    from solvers.advice.registry import Request
    from solvers.goofspiel import GoofspielSolution

__all__ = ["advise", "from_request"]

#: Values this close to +1 or -1 are a sure win or loss (the LPs' rounding).
SURE = 1e-9
#: How often a long solve says how far it has come.
PROGRESS_SECONDS = 0.25


def advise(solution: GoofspielSolution, player: Side = Side.P1) -> Advice:
    """The equilibrium advice for ``player`` on the solved position."""
    position = solution.position
    value = solution.value_for(player)
    mix = solution.mix(player)
    matrix = np.asarray(solution.matrix)
    if player is Side.P1:
        worth = matrix @ np.array(solution.mix2) if solution.bids1 else np.zeros(0)
    else:
        worth = -(np.array(solution.mix1) @ matrix) if solution.bids2 else np.zeros(0)
    lines = [
        MoveAdvice(str(card), float(value_of), float(mix[card]))
        for card, value_of in zip(solution.bids(player), worth, strict=True)
    ]
    # Best first: by probability (the mix is the advice), then by what the card is worth bid for sure.
    lines.sort(key=lambda line: (-(line.probability or 0.0), -(line.value or 0.0)))
    result: Result | None = None
    if value >= 1 - SURE:
        result = "win"
    elif value <= -1 + SURE:
        result = "loss"
    mixes = {str(side.number): {str(card): float(p) for card, p in solution.mix(side).items()} for side in Side}
    details = [
        "play the mix (draw a card by these probabilities): an opponent who knew your card could answer it",
        "each card's value: your expected result (+1 a win, 0 a draw, -1 a loss) bidding it for sure against the "
        "opponent's equilibrium mix",
        *(
            f"player {side}'s mix: " + ", ".join(f"{card} {p:.1%}" for card, p in mixes[side].items() if p > 0)
            for side in ("1", "2")
        ),
    ]
    return Advice(
        game="goofspiel",
        position=position.text,
        player=player.number,
        engine=f"solved equilibrium (N = {position.cards})",
        exact=True,
        best=lines[0].move if lines else "",
        moves=tuple(lines),
        value=float(value),
        scale="expected",
        result=result,
        plies=position.rounds_left if result is not None else None,
        details=tuple(details),
        extra={"cards": position.cards, "mixes": mixes},
    )


def from_request(request: Request) -> Iterator[Advice]:
    """The advice ``nashplay analyse goofspiel`` gives (``solvers.advice.registry``). A large position takes a
    while (the whole 8-card game about half a minute): the solve runs in a thread, and an unfinished advice says
    how far it has come every quarter of a second (Ctrl-C stops the wait; the thread ends with the process)."""
    from core.goofspiel import parse_position
    from solvers.advice.registry import side_of
    from solvers.goofspiel import solve_position

    position = parse_position(request.position, request.value("cards"))
    if position.is_over:
        raise ValueError(f"the game is over: {position.outcome()}")
    counts = [0, 0]
    solved: list[GoofspielSolution] = []
    failed: list[BaseException] = []

    def tell(done: int, total: int) -> None:
        counts[:] = [done, total]

    def work() -> None:
        try:
            solved.append(solve_position(position, progress=tell))
        except BaseException as error:  # handed to the caller's thread below
            failed.append(error)

    worker = threading.Thread(target=work, name="goofspiel solve", daemon=True)
    worker.start()
    player = side_of(request).number
    while worker.is_alive():
        worker.join(PROGRESS_SECONDS)
        if worker.is_alive():
            done, total = counts
            text = f"solving: {done:,} of {total:,} positions" if total else "solving: finding what to solve"
            yield Advice(
                game="goofspiel",
                position=position.text,
                player=player,
                engine="solved equilibrium (solving)",
                exact=True,
                best="",
                moves=(),
                final=False,
                details=(text,),
            )
    if failed:
        raise failed[0]
    yield advise(solved[0], side_of(request))
