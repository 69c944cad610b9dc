"""Twice Clap Game advice: the exact equilibrium at one state, for either player.

Both players choose at once, so the advice is a mix: each action's probability in the player's equilibrium
strategy (``solvers.tcg``), and what it is worth played for sure against the opponent's mix (the player's chance to
win). ``best`` is the likeliest action of the mix: playing it every time is not the equilibrium (an opponent who
knew would answer it), which the details say. Where the state is decided (a sure win or loss under best play), the
result comes with the rounds the winner needs at most, from the same attractor layers the solver's winner plays by.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from core.game import Side
from core.tcg import format_state
from solvers.advice import Advice, MoveAdvice, Result
from solvers.markov import DECIDED, WIN1, WIN2

if TYPE_CHECKING:
    from solvers.advice.registry import Request
    from solvers.markov import MarkovGame
    from solvers.tcg import TcgSolution

__all__ = ["advise", "rounds_to_win"]


def rounds_to_win(game: MarkovGame, state: int, winner: Side, region: np.ndarray) -> int | None:
    """The most rounds ``winner`` needs to win from ``state`` whatever the opponent plays, staying in ``region``
    (the states it wins for sure); ``None`` when it cannot force the win from there.

    Layer k holds the states won in at most k rounds: a state joins it when one action of the winner leads, against
    every reply, to the win or to an earlier layer (``solvers.markov._attractor`` builds its strategy the same way).
    """
    succ = game.successor if winner is Side.P1 else game.successor.transpose(0, 2, 1)  # (S, own, opponent)
    target = WIN1 if winner is Side.P1 else WIN2
    count = game.states
    solved = np.zeros(count + 2, dtype=bool)  # the last two slots are WIN2 (-2) and WIN1 (-1)
    solved[target] = True
    layer = 0
    while not solved[state]:
        layer += 1
        good = solved[succ].all(axis=2).any(axis=1)
        new = region & ~solved[:count] & good
        if not new.any():
            return None
        solved[:count] |= new
    return layer


def advise(solution: TcgSolution, i1: int, i2: int, player: Side = Side.P1) -> Advice:
    """The equilibrium advice for ``player`` at state ``(i1, i2)`` of the solved game (``solvers.tcg``)."""
    from solvers.tcg import ACTIONS, state_index

    advice = solution.advice(i1, i2)  # checks the points
    index = state_index(solution.n, i1, i2)
    stage = solution.stages[index]  # player 1's win chance for each joint action
    if player is Side.P1:
        mix, keeps, star = advice.p1, advice.keeps1, advice.star1
        worth = stage @ advice.p2  # each own action against the opponent's mix
        chance = advice.value
    else:
        mix, keeps, star = advice.p2, advice.keeps2, advice.star2
        worth = 1.0 - advice.p1 @ stage
        chance = 1.0 - advice.value
    result: Result | None = None
    rounds: int | None = None
    if chance >= 1 - DECIDED or chance <= DECIDED:
        winner = player if chance >= 1 - DECIDED else player.other
        values = solution.solution.values
        region = values >= 1 - DECIDED if winner is Side.P1 else values <= DECIDED
        rounds = rounds_to_win(solution.game, index, winner, region)
        if rounds is not None:
            result = "win" if winner is player else "loss"
    lines: list[MoveAdvice] = []
    for action, probability, value, kept in zip(ACTIONS, mix, worth, keeps, strict=True):
        note = "keeps the value for sure" if star and kept else ""
        lines.append(MoveAdvice(action.value, float(value), float(probability), note=note))
    # Best first: by probability (the mix is the advice), then by what the action is worth played for sure.
    lines.sort(key=lambda line: (-(line.probability or 0.0), -(line.value or 0.0)))
    best = lines[0]
    label = {action.value: action.label for action in ACTIONS}
    details = [
        f"{best.move} ({label[best.move]}) is the likeliest action of the equilibrium mix: play the mix (draw an "
        "action by these probabilities), since an opponent who knew the action could answer it",
        "each action's value: the chance to win if played for sure against the opponent's equilibrium mix",
    ]
    if star:
        details.append("the winner may play with its food here: every action marked keeps the value")
    return Advice(
        game="tcg",
        position=format_state((i1, i2)),
        player=player.number,
        engine=f"solved equilibrium (n = {solution.n})",
        exact=True,
        best=best.move,
        moves=tuple(lines),
        value=float(chance),
        scale="chance",
        result=result,
        plies=rounds,
        details=tuple(details),
        extra={"n": solution.n},
    )


def from_request(request: Request) -> Iterator[Advice]:
    """The advice ``nashplay analyse tcg`` gives (``solvers.advice.registry``): the equilibrium at the points."""
    from core.tcg import parse_state
    from solvers.advice.registry import side_of
    from solvers.tcg import load_solution

    n = request.value("n")
    i1, i2 = parse_state(request.position, n)
    yield advise(load_solution(n)[0], i1, i2, side_of(request))
