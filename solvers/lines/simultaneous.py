"""Solved lines of the simultaneous games, the Twice Clap Game, Footstep and Goofspiel: equilibrium play round by
round.

Each round the line shows both players' equilibrium mixes at the state (``solvers.tcg``, ``solvers.footstep``,
``solvers.goofspiel``), the
state's value, and the joint action played: each player's likeliest action (ties go to the first in the game's order:
``c a d s``, the lowest bid), or, with a seed, each action drawn from its player's mix (player 1's first, then player
2's, from one generator: the same seed gives the same line). Playing the likeliest action every round is not the
equilibrium (an opponent who knew it would answer it); the line shows what the equilibrium plays most often.

Goofspiel deals its prizes by chance: its line's deck is dealt from the seed (seed 0 for the likeliest line), so
the same seed gives the same deal; its states never repeat (every round spends a card of each hand).

A line ends with the game, or where it cannot: the likeliest line is deterministic and the state is all that matters
(both games are Markov games), so once it comes back to a state it goes round for ever, and it stops there and says
so (the Twice Clap Game's likeliest line does: both players charge, then both defend). Any line is cut at
``BOUND`` rounds, saying so (a drawn TCG line may go on that long; Footstep always ends sooner, every round costing
at least one point).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from core.footstep import FootstepPosition, FootstepState
from core.game import Game, Side
from core.tcg import TcgAction, TcgState
from solvers.lines import GameLine, LineStep, game_line
from solvers.tcg import round_like_source  # two decimals without trailing zeros, as the source prints mixes

if TYPE_CHECKING:
    from solvers.footstep import FootstepSolution
    from solvers.tcg import TcgSolution

__all__ = [
    "BOUND",
    "footstep_from_values",
    "footstep_line",
    "goofspiel_from_values",
    "goofspiel_line",
    "tcg_from_values",
    "tcg_line",
]

#: A long solve's report, in words (``nashplay replay`` prints it on one line of a terminal).
Tell = Callable[[str], None]

#: The most rounds a line plays before it is cut.
BOUND = 200
#: Probabilities this close are a tie (rounding noise of the solvers); a tie goes to the first in the game's order.
TIE = 1e-9
#: The most bids of a Footstep mix written out in a row or a comment (all of them are in the JSON).
SHOWN_BIDS = 3

A = TypeVar("A")


@dataclass(frozen=True)
class _Stage(Generic[A]):
    """What the solver says of one state: player 1's value, each player's mix (every action the game lists, in its
    order, with its probability), and a note on the state (a decided TCG state: who wins, and how soon)."""

    value: float
    mixes: tuple[Sequence[tuple[A, float]], Sequence[tuple[A, float]]]
    note: str = ""


def _likeliest(mix: Sequence[tuple[A, float]]) -> tuple[A, float]:
    """The likeliest action of a mix: the first in the game's order among those within ``TIE`` of the highest."""
    top = max(p for _, p in mix)
    return next((action, p) for action, p in mix if p >= top - TIE)


def _drawn(mix: Sequence[tuple[A, float]], rng: random.Random) -> tuple[A, float]:
    actions = [(action, p) for action, p in mix if p > 0]
    return rng.choices(actions, weights=[p for _, p in actions])[0]


@dataclass(frozen=True)
class _Round(Generic[A]):
    state: str
    stage: _Stage[A]
    joint: tuple[A, A]
    chance: float


def _play(
    state: Game[A, Any], judge: Callable[[Game[A, Any]], _Stage[A]], seed: int | None, bound: int
) -> tuple[list[_Round[A]], str]:
    """Play the line in ``state`` (its history grows by the line's rounds); the rounds and how the line ends."""
    rng = None if seed is None else random.Random(seed)
    rounds: list[_Round[A]] = []
    seen = {_text(state): 0}
    while not state.is_terminal():
        if len(rounds) >= bound:
            return rounds, f"cut at {bound} round{'' if bound == 1 else 's'}: the game goes on"
        stage = judge(state)
        picked = [_likeliest(mix) if rng is None else _drawn(mix, rng) for mix in stage.mixes]
        joint = (picked[0][0], picked[1][0])
        rounds.append(_Round(_text(state), stage, joint, picked[0][1] * picked[1][1]))
        state.apply_joint(joint)
        here = _text(state)
        if here in seen and not state.is_terminal():
            # In a Markov game, play that is deterministic from a state seen before (the likeliest line; or a drawn
            # one whose every round since was the only one possible) repeats the same rounds for ever.
            first = seen[here] + 1
            if rng is None or all(r.chance >= 1 - TIE for r in rounds[first - 1 :]):
                again = f"round {first}" if first == len(rounds) else f"rounds {first}-{len(rounds)}"
                play = "the likeliest play" if rng is None else "play (every mix on the way is pure)"
                return rounds, f"back at {here}, the state before round {first}: {play} repeats {again} for ever"
        seen[here] = len(rounds)
    outcome = state.outcome()
    assert outcome is not None
    return rounds, str(outcome)


def _text(state: Game[Any, Any]) -> str:
    text = getattr(state, "state_text", None)
    assert isinstance(text, str), "the simultaneous games' states have a text form"
    return text


def _clean(value: float) -> float:
    """``value`` without its last bits of rounding noise, and never ``-0.0`` (printed ``-0.000``)."""
    return round(value, 12) + 0.0


def _how(seed: int | None) -> tuple[str, str]:
    """The line's key and how its actions are chosen, in words."""
    if seed is None:
        return "likeliest", "each player's likeliest action"
    return "sampled", f"actions drawn from the mixes (seed {seed})"


def _bids_text(mix: Sequence[tuple[int, float]]) -> str:
    """A mix of bids or cards in a row: the likeliest ``SHOWN_BIDS`` as ``bid:probability``, and how many more."""
    likeliest = sorted(((bid, p) for bid, p in mix if p > TIE), key=lambda item: (-item[1], item[0]))
    shown = " ".join(f"{bid}:{round_like_source(p)}" for bid, p in likeliest[:SHOWN_BIDS])
    more = len(likeliest) - SHOWN_BIDS
    return shown + (f" +{more} more" if more > 0 else "")


def _bids_data(played: _Round[int]) -> dict[str, object]:
    """Both players' whole mixes of bids or cards, for the JSON."""
    return {f"p{side + 1}": {str(bid): p for bid, p in mix} for side, mix in enumerate(played.stage.mixes)}


@dataclass(frozen=True)
class _BidColumns:
    """How a line whose actions are numbers (Footstep's bids, Goofspiel's cards) writes its rounds: the state's
    column and its width, the action's name, the width of a mix and of the round played, and the value's words
    (``{}`` for player 1's value)."""

    state: str
    state_width: int
    action: str
    mix_width: int
    joint_width: int
    value_words: str

    def row(self, played: _Round[int]) -> str:
        mixes = [_bids_text(mix) for mix in played.stage.mixes]
        joint = f"{played.joint[0]}:{played.joint[1]}"
        value = f"{played.stage.value:+.3f}"
        return (
            f"{played.state:<{self.state_width}} {value:<7} {mixes[0]:<{self.mix_width}} {mixes[1]:<{self.mix_width}} "
            f"{joint:<{self.joint_width}} {played.chance:.2f}"
        )

    def comment(self, played: _Round[int]) -> str:
        mixes = [_bids_text(mix) for mix in played.stage.mixes]
        value = self.value_words.format(f"{played.stage.value:+.3f}")
        return (
            f"at {played.state} player 1's {value}; {self.action}s ({self.action}:probability) {mixes[0]} and "
            f"{mixes[1]}; this round's chance {played.chance:.2f}"
        )

    def header(self) -> str:
        mix = self.mix_width
        return (
            f"{self.state:<{self.state_width}} {'value':<7} {'player 1 ' + self.action + 's':<{mix}} "
            f"{'player 2 ' + self.action + 's':<{mix}} {'played':<{self.joint_width}} chance"
        )

    def figures(self, rounds: Sequence[_Round[int]], ending: str) -> tuple[list[LineStep], str]:
        """The line's steps and its header."""
        return _figures(rounds, ending, _pair_text, self.row, self.comment, _bids_data), self.header()


def _pair_text(joint: tuple[int, int]) -> str:
    return f"{joint[0]}:{joint[1]}"


def _figures(
    rounds: Sequence[_Round[A]],
    ending: str,
    action_text: Callable[[tuple[A, A]], str],
    row: Callable[[_Round[A]], str],
    comment: Callable[[_Round[A]], str],
    data: Callable[[_Round[A]], dict[str, object]],
) -> list[LineStep]:
    steps = []
    for index, played in enumerate(rounds):
        left = len(rounds) - index
        words = comment(played)
        after = left - 1
        words += f"; {after} round{'' if after == 1 else 's'} left" if after else f"; then {ending}"
        figures = {"value": _clean(played.stage.value), **data(played), "chance": played.chance}
        if played.stage.note:
            figures["note"] = played.stage.note
        shown = row(played).rstrip()
        steps.append(LineStep("both", action_text(played.joint), played.state, left, shown, words, figures))
    return steps


# --------------------------------------------------------------------------------------------------- TCG


def tcg_line(n: int = 3, seed: int | None = None, solution: TcgSolution | None = None, bound: int = BOUND) -> GameLine:
    """The Twice Clap Game from ``0,0`` with ``n`` points at most: the likeliest line of the equilibrium, or (``seed``)
    one drawn from its mixes; ``solution`` is the solved game for ``n`` (default: ``solvers.tcg.load_solution``)."""
    from solvers.advice.tcg import rounds_to_win
    from solvers.markov import DECIDED
    from solvers.tcg import ACTIONS, load_solution, state_index

    solved = solution if solution is not None else load_solution(n)[0]
    if solved.n != n:
        raise ValueError(f"the solution is for n = {solved.n}, not {n}")
    decided: dict[tuple[int, int], str] = {}

    def note(i1: int, i2: int, value: float) -> str:
        """Who wins a decided state, and in at most how many rounds (the winner's strategy in the solver)."""
        if DECIDED < value < 1 - DECIDED:
            return ""
        if (i1, i2) not in decided:
            winner = Side.P1 if value >= 1 - DECIDED else Side.P2
            values = solved.solution.values
            region = values >= 1 - DECIDED if winner is Side.P1 else values <= DECIDED
            rounds = rounds_to_win(solved.game, state_index(n, i1, i2), winner, region)
            when = "" if rounds is None else f" in at most {rounds} round{'' if rounds == 1 else 's'}"
            decided[(i1, i2)] = f"{winner} wins for sure{when}"
        return decided[(i1, i2)]

    def judge(state: Game[TcgAction, Any]) -> _Stage[TcgAction]:
        assert isinstance(state, TcgState)
        advice = solved.advice(*state.points)
        mixes = tuple([(a, float(p)) for a, p in zip(ACTIONS, mix, strict=True)] for mix in (advice.p1, advice.p2))
        return _Stage(_clean(advice.value), (mixes[0], mixes[1]), note(*state.points, advice.value))

    state = TcgState(n)
    rounds, ending = _play(state, judge, seed, bound)
    key, how = _how(seed)

    def mix_text(mix: Sequence[tuple[TcgAction, float]]) -> str:
        return "/".join(round_like_source(p) for _, p in mix)

    def row(played: _Round[TcgAction]) -> str:
        mixes = [mix_text(mix) for mix in played.stage.mixes]
        line = f"{played.state:<7} {played.stage.value:<7.3f} {mixes[0]:<20} {mixes[1]:<20} "
        line += f"{played.joint[0].value}{played.joint[1].value:<6} {played.chance:<6.2f}"
        return line + (f" {played.stage.note}" if played.stage.note else "")

    def comment(played: _Round[TcgAction]) -> str:
        mixes = [mix_text(mix) for mix in played.stage.mixes]
        words = f"at {played.state} player 1 wins {played.stage.value:.3f}"
        if played.stage.note:
            words += f" ({played.stage.note})"
        return words + f"; mixes c/a/d/s {mixes[0]} and {mixes[1]}; this round's chance {played.chance:.2f}"

    def data(played: _Round[TcgAction]) -> dict[str, object]:
        return {f"p{side + 1}": {a.value: p for a, p in mix} for side, mix in enumerate(played.stage.mixes)}

    figures = _figures(rounds, ending, lambda joint: joint[0].value + joint[1].value, row, comment, data)
    header = f"{'state':<7} {'P1 wins':<7} {'player 1 c/a/d/s':<20} {'player 2 c/a/d/s':<20} {'played':<7} chance"
    title = f"the Twice Clap Game (n = {n}), equilibrium play: {how}"
    return _equilibrium_line(key, how, title, state, figures, ending, header, {"n": n, "seed": seed})


# --------------------------------------------------------------------------------------------------- Footstep


def footstep_line(
    n: int = 50, k: int = 4, seed: int | None = None, solution: FootstepSolution | None = None, bound: int = BOUND
) -> GameLine:
    """Footstep(n, k) from the start: the likeliest line of the equilibrium, or (``seed``) one drawn from its mixes;
    ``solution`` is the solved game (default: ``solvers.footstep.load_solution``)."""
    from solvers.footstep import load_solution

    solved = solution if solution is not None else load_solution(n, k)[0]
    if (solved.n, solved.k) != (n, k):
        raise ValueError(f"the solution is for n = {solved.n}, k = {solved.k}, not n = {n}, k = {k}")

    def judge(state: Game[int, Any]) -> _Stage[int]:
        assert isinstance(state, FootstepState)
        position: FootstepPosition = state.position
        mixes = tuple(sorted(solved.mix(position, side).items()) for side in Side)
        return _Stage(_clean(solved.value(position)), (mixes[0], mixes[1]))

    state = FootstepState(n, k)
    rounds, ending = _play(state, judge, seed, bound)
    key, how = _how(seed)

    columns = _BidColumns("state", 9, "bid", 30, 7, "value {} points")
    figures, header = columns.figures(rounds, ending)
    title = f"Footstep (n = {n}, k = {k}), equilibrium play: {how}"
    return _equilibrium_line(key, how, title, state, figures, ending, header, {"n": n, "k": k, "seed": seed})


# --------------------------------------------------------------------------------------------------- Goofspiel


def goofspiel_line(cards: int = 5, seed: int | None = None, bound: int = BOUND) -> GameLine:
    """Goofspiel with ``cards`` cards, its deck dealt from ``seed`` (0 when none): the likeliest line of the exact
    equilibrium, or (``seed``) one drawn from its mixes. Each position is solved as it comes (``solvers.goofspiel``)."""
    from core.goofspiel import GoofspielState
    from solvers.goofspiel import solve_position

    def judge(state: Game[int, Any]) -> _Stage[int]:
        assert isinstance(state, GoofspielState)
        solution = solve_position(state.position)
        mixes = tuple(sorted(solution.mix(side).items()) for side in Side)
        return _Stage(_clean(solution.value), (mixes[0], mixes[1]))

    deal = 0 if seed is None else seed
    state = GoofspielState(cards, seed=deal)
    deck = "".join(str(prize) for prize in state.deck)
    rounds, ending = _play(state, judge, seed, bound)
    key, how = _how(seed)

    columns = _BidColumns("position", 20, "card", 26, 6, "expected result {}")
    figures, header = columns.figures(rounds, ending)
    title = f"Goofspiel (N = {cards}, deck {deck} dealt from seed {deal}), equilibrium play: {how}"
    return _equilibrium_line(key, how, title, state, figures, ending, header, {"cards": cards, "seed": seed})


# --------------------------------------------------------------------------------------------------- from a descriptor


def tcg_from_values(values: Mapping[str, Any], seed: int | None, tell: Tell | None = None) -> GameLine:
    """``tcg_line`` for the game's parameters (``core.tcg``'s descriptor), solved with progress told in words."""
    from solvers.tcg import load_solution

    n = int(values["n"])
    progress = None if tell is None else (lambda step, residual, left: tell(f"tcg (n = {n}): {1 - left:.0%} solved"))
    return tcg_line(n, seed, load_solution(n, progress=progress)[0])


def footstep_from_values(values: Mapping[str, Any], seed: int | None, tell: Tell | None = None) -> GameLine:
    """``footstep_line`` for the game's parameters, solved with progress told in words."""
    from solvers.footstep import load_solution

    n, k = int(values["n"]), int(values["k"])
    progress = None if tell is None else (lambda level, levels: tell(f"footstep ({n}, {k}): level {level}/{levels}"))
    return footstep_line(n, k, seed, load_solution(n, k, progress=progress)[0])


def goofspiel_from_values(values: Mapping[str, Any], seed: int | None, tell: Tell | None = None) -> GameLine:
    """``goofspiel_line`` for the game's parameters; the whole game is solved first, with progress told in words."""
    from solvers.goofspiel import game_value

    cards = int(values["cards"])
    game_value(
        cards, None if tell is None else lambda done, total: tell(f"goofspiel (N = {cards}): {done:,}/{total:,}")
    )
    return goofspiel_line(cards, seed)


def _equilibrium_line(
    key: str,
    how: str,
    title: str,
    state: Game[Any, Any],
    figures: Sequence[LineStep],
    ending: str,
    header: str,
    data: dict[str, object],
) -> GameLine:
    """A line of equilibrium play (both sides the equilibrium player, values for player 1) as a ``GameLine``."""
    return game_line(
        key=key,
        title=title,
        state=state,
        analysed=Side.P1,
        rule=f"equilibrium, {key}",
        tags={"Event": f"Solved line: equilibrium play, {how}", "Player1": "equilibrium", "Player2": "equilibrium"},
        figures=figures,
        ending=ending,
        header=header,
        data=data,
    )
