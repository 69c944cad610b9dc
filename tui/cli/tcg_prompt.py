"""``nashplay play tcg --advisor``: the source's play mode in a plain line-oriented terminal.

You play TCG against a person away from the computer. Each round the program shows the state, your equilibrium
mix and one action drawn from it; you play, then type what the opponent did (and what you did, if you did not
follow the suggestion). Anything else gets a one-line hint and is asked again; the game goes on to its end.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from core.errors import NotationError
from core.game import Side
from core.tcg import TcgAction, TcgState
from solvers.tcg import ACTIONS, TcgSolution, round_like_source
from tui.arguments import parameter_value
from tui.cli.common import plural, read_line
from tui.config import ConfigError
from tui.games import TCG_N

HINT = "type the opponent's action (c a d s), then yours if you did not play the suggestion, e.g. 'a' or 'a d'; q quits"


def _mix_text(mix: Sequence[float]) -> str:
    values = list(mix)
    return "  ".join(
        f"{a.value} {a.label} {round_like_source(float(p) * 100)}%" for a, p in zip(ACTIONS, values, strict=True)
    )


def parse_reply(text: str, suggestion: TcgAction) -> tuple[TcgAction, TcgAction]:
    """``"a"`` -> (opponent a, you followed the suggestion); ``"a d"`` -> (opponent a, you d)."""
    words = text.replace(",", " ").split()
    if not 1 <= len(words) <= 2:
        raise NotationError(HINT)
    opponent = TcgAction.parse(words[0])
    mine = TcgAction.parse(words[1]) if len(words) == 2 else suggestion
    return opponent, mine


def from_options(args: argparse.Namespace) -> int | None:
    """``nashplay play tcg --advisor``: this prompt instead of the app (the TCG entry's ``instead_of_app``); ``None``
    without ``--advisor``. ``ConfigError`` for ``--mode``, which is the app's."""
    if not args.advisor:
        return None
    if args.mode is not None:
        raise ConfigError("--mode is the app's; --advisor is the plain-terminal advisor")
    return run(parameter_value(args, TCG_N), Side.from_number(args.side), args.seed)


def run(
    n: int = 3,
    side: Side = Side.P1,
    seed: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    solution: TcgSolution | None = None,
) -> int:
    read = stdin or sys.stdin
    out = stdout or sys.stdout
    rng = random.Random(seed)
    if solution is None:
        solution, _ = TcgSolution.load(n)
    state = TcgState(n)
    me = side.number
    print(f"Twice Clap Game, n = {n}. You are player {me}. Each round: {HINT}.", file=out)
    rounds = 0
    while not state.is_terminal():
        i1, i2 = state.points
        advice = solution.advice(i1, i2)
        mine_mix = advice.p1 if me == 1 else advice.p2
        win = advice.value if me == 1 else 1 - advice.value
        suggestion = solution.draw(i1, i2, me, rng)
        print(
            f"\nRound {rounds + 1}: points you {state.points[side]}, opponent {state.points[side.other]}; "
            f"your chance to win {round_like_source(win * 100)}%",
            file=out,
        )
        print(f"  equilibrium mix: {_mix_text(list(mine_mix))}", file=out)
        print(f"  suggestion: {suggestion.value} ({suggestion.label})", file=out)
        while True:
            print("opponent played> ", end="", file=out, flush=True)
            line = read_line(read)
            if not line:
                print("\nEnd of input: game left unfinished.", file=out)
                return 1
            line = line.strip()
            if line.lower() in ("q", "quit", "exit"):
                print("Game left unfinished.", file=out)
                return 1
            try:
                opponent, mine = parse_reply(line, suggestion)
            except NotationError:
                print(f"  ? {HINT}", file=out)
                continue
            break
        joint = (mine, opponent) if me == 1 else (opponent, mine)
        state.apply_joint(joint)
        rounds += 1
        print(f"  round: you {mine.label}, opponent {opponent.label}", file=out)
    outcome = state.outcome()
    assert outcome is not None
    verdict = "You win!" if outcome.winner is side else "You lose."
    print(f"\n{verdict} {outcome.reason} after {plural(rounds, 'round')}.", file=out)
    return 0
