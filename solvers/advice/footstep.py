"""Footstep advice: the exact equilibrium bid mix at one state, for either player, and the state's value.

Bids are secret and simultaneous, so the advice is a mix (``solvers.footstep``): each bid the equilibrium plays with
its probability, and what that bid is worth played for sure against the opponent's mix (in points, -2..2, the
player's). ``best`` is the likeliest bid of the mix (the details say why the mix, not the bid, is the advice). A
state worth the full 2 points is a forced goal: the result comes with the rounds the winner needs at most.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from core.footstep import FootstepPosition, legal_bids, position_outcome
from core.game import Side
from solvers.advice import Advice, MoveAdvice, Result

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from solvers.advice.registry import Request
    from solvers.footstep import FootstepSolution

__all__ = ["GOAL", "advise", "rounds_to_goal"]

#: What reaching the goal is worth (points); a value this close to it is a forced goal.
GOAL = 2.0
_SURE = 1e-9


def rounds_to_goal(solution: FootstepSolution, position: FootstepPosition, winner: Side) -> tuple[int, int] | None:
    """The most rounds ``winner`` needs to force the marker onto the opponent's goal from ``position`` whatever the
    opponent bids, and the bid that does it; ``None`` when the goal is not forced (the state is worth less than 2).

    Backward over the states with at most the points of ``position`` (every state reachable from it): a forced-goal
    state needs ``1 + min over own bids of max over the opponent's bids`` of its successors' rounds, counting only own
    bids after which every successor is still a forced goal (such a bid exists wherever the value is 2: the value is
    an average of successors worth at most 2).
    """
    k = solution.k
    values: NDArray[np.float64] = solution.values * (1.0 if winner is Side.P1 else -1.0)  # the winner's
    width = 2 * k + 1
    x0, y0, marker = position
    if values[x0, y0, marker + k] < GOAL - _SURE:
        return None
    never = np.iinfo(np.int64).max // 4
    rounds = np.full((x0 + 1, y0 + 1, width), never, dtype=np.int64)
    rounds[:, :, width - 1 if winner is Side.P1 else 0] = 0
    inner = np.arange(1, width - 1)

    def worst_by_bid(x: int, y: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """For every inner marker and every bid of the winner: the most rounds any reply leaves (``never`` where a
        reply leaves a state that is not a forced goal); and the winner's bids."""
        b1 = np.asarray(legal_bids(x), dtype=np.int64)
        b2 = np.asarray(legal_bids(y), dtype=np.int64)
        step = np.sign(b1[:, None] - b2[None, :])
        at = (x - b1[:, None], y - b2[None, :], inner[:, None, None] + step[None])
        after, sure = rounds[at], values[at] >= GOAL - _SURE  # (markers, bids of player 1, bids of player 2)
        replies = 2 if winner is Side.P1 else 1
        worst = np.where(sure.all(axis=replies), after.max(axis=replies), never)
        return worst, b1 if winner is Side.P1 else b2

    for level in range(x0 + y0 + 1):
        for x in range(max(0, level - y0), min(x0, level) + 1):
            y = level - x
            best = worst_by_bid(x, y)[0].min(axis=1)
            forced = values[x, y, inner] >= GOAL - _SURE
            rounds[x, y, inner] = np.where(forced & (best < never), best + 1, never)
    found = int(rounds[x0, y0, marker + k])
    if found >= never:
        return None
    worst, bids = worst_by_bid(x0, y0)
    return found, int(bids[int(np.argmin(worst[marker + k - 1]))])


def advise(solution: FootstepSolution, position: FootstepPosition, player: Side = Side.P1) -> Advice:
    """The equilibrium advice for ``player`` at ``position`` of the solved game; ``ValueError`` for a state that is
    not one of this game's (points beyond n, the marker beyond k) or where the game is over."""
    outcome = position_outcome(position, solution.k)
    if outcome is not None:
        raise ValueError(f"the game is over at {position.text}: {outcome.reason}")
    value = solution.value(position, player)  # checks the state
    bids1, bids2, stage = solution.stage_game(position)  # payoffs are player 1's
    payoff = stage if player is Side.P1 else -stage.T  # rows: the player's bids
    bids, their_bids = (bids1, bids2) if player is Side.P1 else (bids2, bids1)
    their_mix = solution.mix(position, player.other)
    worth = payoff @ np.array([their_mix.get(int(bid), 0.0) for bid in their_bids])
    mix = solution.mix(position, player)
    lines = [
        MoveAdvice(str(int(bid)), float(worth[row]) + 0.0, mix[int(bid)])
        for row, bid in enumerate(bids)
        if mix.get(int(bid), 0.0) > 0
    ]
    lines.sort(key=lambda line: (-(line.probability or 0.0), int(line.move)))
    result: Result | None = None
    rounds: int | None = None
    forced = rounds_to_goal(solution, position, player if value > 0 else player.other)
    if forced is not None:
        rounds, hurry = forced
        result = "win" if value > 0 else "loss"
        if result == "win":
            # The mix wins too, but maybe not as fast: the bid that forces the goal soonest comes first, in words.
            row = [int(bid) for bid in bids].index(hurry)
            others = [line for line in lines if line.move != str(hurry)]
            words = f"forces the goal in {rounds} round{'s' if rounds > 1 else ''} at most"
            lines = [MoveAdvice(str(hurry), float(worth[row]) + 0.0, mix.get(hurry, 0.0), result, rounds, words)]
            lines += others
    best = lines[0]
    why = (
        f"bid {best.move} forces the goal soonest"
        if best.forced
        else f"bid {best.move} is the likeliest of the equilibrium mix: play the mix (draw a bid by these "
        "probabilities), since an opponent who knew the bid could answer it"
    )
    details = (
        why,
        "values in points for the player (goal 2, out of points on the far half 1); each bid's value: played for sure "
        "against the opponent's equilibrium mix",
    )
    return Advice(
        game="footstep",
        position=position.text,
        player=player.number,
        engine=f"solved equilibrium (n = {solution.n}, k = {solution.k})",
        exact=True,
        best=best.move,
        moves=tuple(lines),
        value=round(value, 12) + 0.0,
        scale="expected",
        result=result,
        plies=rounds,
        details=details,
        extra={"n": solution.n, "k": solution.k},
    )


def from_request(request: Request) -> Iterator[Advice]:
    """The advice ``nashplay analyse footstep`` gives (``solvers.advice.registry``): the equilibrium there."""
    from core.footstep import parse_position
    from solvers.advice.registry import side_of
    from solvers.footstep import load_solution

    n, k = request.value("n"), request.value("k")
    position = parse_position(request.position, n, k)
    yield advise(load_solution(n, k)[0], position, side_of(request))
