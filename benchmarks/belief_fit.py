"""Fits the colour belief's likelihood ratios (``solvers.geister.belief.RATIOS``) and measures how well the belief
predicts.

Games between purple-type players (``purple`` at a fixed depth, random set-ups, its random tie-breaks) are played to
the end, so every piece's colour is known afterwards. For each feature of ``solvers.geister.belief.move_features`` the
ratio red : blue is the feature's rate among red pieces over its rate among blue pieces (``moved`` per piece and
turn; the move's features per move of that colour; ``idle_runner`` per free-running piece not moved).

Then, on separate games, the belief is scored at every opponent decision: the log loss of each piece's chance of
blue against the truth, next to the baseline measured in the same run (the counts alone: every piece blue with
the share of blues left) and the hard evidence alone.

    python benchmarks/belief_fit.py [--games 400] [--depth 3] [--workers 2] [--seed 1]

Ends with one JSON line: the fitted ratios and the three log losses.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState
from solvers.catalogue import make_player
from solvers.geister.belief import FEATURES, belief, move_features
from solvers.geister.colour_evidence import opponent_turns
from solvers.geister.purple import PurplePlayer
from solvers.players import Limit

GEISTER = VARIANTS["geister"]


#: The styles fitted: the player whose moves are read (the other side is purple at the same depth).
STYLE_PLAYERS = {"baiter": "purple", "charger": "chototsu"}


def play(seed: int, depth: int, style: str = "baiter") -> GeisterState:
    """One game of purple at a fixed depth against the style's player (itself for ``baiter``), from random set-ups;
    the style's player is player 2."""
    rng = random.Random(seed)
    players: dict[Side, Any] = {Side.P1: PurplePlayer(), Side.P2: make_player(STYLE_PLAYERS[style], "geister")}
    rngs = {side: random.Random(rng.getrandbits(32)) for side in Side}
    state = GeisterState(GEISTER, rng.choice(list(Side)))
    limit = Limit(iterations=depth)
    while not state.is_terminal():
        side = Side(state.current_player())
        state.apply(players[side].choose(state.view(side), rngs[side], limit))
    return state


def colours_of(state: GeisterState, side: Side) -> dict[int, Colour]:
    setup = state.setup(side)
    assert setup is not None
    return dict(enumerate(setup.colours))


def counts(seed: int, depth: int, style: str = "baiter") -> tuple[Counter[tuple[str, str]], Counter[str]]:
    """Feature counts by colour, and the exposures each rate is taken over, from one game (the style player's
    moves: both sides' for ``baiter``, whose games are purple against itself)."""
    state = play(seed, depth, style)
    fired: Counter[tuple[str, str]] = Counter()
    exposure: Counter[str] = Counter()
    for viewer in Side if style == "baiter" else (Side.P1,):
        them = viewer.other
        colour = colours_of(state, them)
        view = state.view(viewer)
        for turn in opponent_turns(view):
            moved = next(s for s, sq in turn.theirs.items() if sq == turn.move.src)
            for slot in turn.theirs:
                exposure[f"piece/{colour[slot].word}"] += 1
            exposure[f"move/{colour[moved].word}"] += 1
            for slot, feature in move_features(GEISTER, turn):
                fired[(feature, colour[slot].word)] += 1
                if feature == "idle_runner":
                    exposure[f"runner/{colour[slot].word}"] += 1
            # Runners that did move count toward the runners' exposure too.
            for slot, feature in move_features(GEISTER, turn):
                if feature == "free_run":
                    exposure[f"runner/{colour[slot].word}"] += 1
    return fired, exposure


def fit(fired: Counter[tuple[str, str]], exposure: Counter[str]) -> dict[str, float]:
    ratios = {}
    for feature in FEATURES:
        base = "piece" if feature == "moved" else "runner" if feature == "idle_runner" else "move"
        red = (fired[(feature, "red")] + 1) / (exposure[f"{base}/red"] + 2)
        blue = (fired[(feature, "blue")] + 1) / (exposure[f"{base}/blue"] + 2)
        ratios[feature] = float(f"{red / blue:.4g}")
    return ratios


def log_losses(
    seed: int, depth: int, ratios: dict[str, float], style: str = "baiter"
) -> tuple[float, float, float, int]:
    """Summed log loss (natural) of the fitted belief, the hard evidence alone and the counts alone, over every
    piece at every decision of one game; and the number of predictions."""
    state = play(seed, depth, style)
    replay = GeisterState(GEISTER, state.first)
    for action in state.history()[:2]:
        replay.apply(action)
    fitted = hard = prior = 0.0
    n = 0
    no_soft = dict.fromkeys(FEATURES, 1.0)
    for move in state.moves():
        viewer = replay.to_move
        if style != "baiter" and viewer is not Side.P1:  # only the style player's moves are read
            replay.push(move)
            continue
        view = replay.view(viewer)
        truth = colours_of(state, viewer.other)
        for model, ratios_used in (("fitted", ratios), ("hard", no_soft)):
            b = belief(view, ratios_used)
            loss = sum(-math.log(max(1e-6, p if truth[s] is Colour.BLUE else 1 - p)) for s, p in b.blue.items())
            if model == "fitted":
                fitted += loss
            else:
                hard += loss
        pieces = [p for _, p in view.pieces(viewer.other)]
        blues = sum(1 for p in pieces if truth[p.slot] is Colour.BLUE)
        share = blues / len(pieces) if pieces else 0.5
        for piece in pieces:
            p = share if truth[piece.slot] is Colour.BLUE else 1 - share
            prior += -math.log(max(1e-6, p))
        n += len(pieces)
        replay.push(move)
    return fitted, hard, prior, n


def _counts_job(job: tuple[int, int, str]) -> tuple[Counter[tuple[str, str]], Counter[str]]:
    return counts(*job)


def _loss_job(job: tuple[int, int, dict[str, float], str]) -> tuple[float, float, float, int]:
    return log_losses(*job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--style", choices=sorted(STYLE_PLAYERS), default="baiter", help="whose moves to fit")
    args = parser.parse_args()
    started = time.perf_counter()
    fired: Counter[tuple[str, str]] = Counter()
    exposure: Counter[str] = Counter()
    jobs = [(args.seed * 1_000_003 + i, args.depth, args.style) for i in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for f, e in pool.map(_counts_job, jobs):
            fired.update(f)
            exposure.update(e)
        ratios = fit(fired, exposure)
        who = STYLE_PLAYERS[args.style]
        print(f"Fitted ({args.style}) on the moves of {who} in {args.games} games against purple (depth {args.depth}):")
        for feature in FEATURES:
            print(f"  {feature:<12} red : blue = {ratios[feature]:.3f}")
        tests = [(args.seed * 7_000_001 + i, args.depth, ratios, args.style) for i in range(max(20, args.games // 5))]
        totals = [0.0, 0.0, 0.0, 0]
        for result in pool.map(_loss_job, tests):
            for i, value in enumerate(result):
                totals[i] += value
    fitted, hard, prior, n = totals
    print(f"Log loss per piece and decision on {len(tests)} other games ({n} predictions):")
    print(f"  counts alone {prior / n:.4f}   hard evidence {hard / n:.4f}   fitted belief {fitted / n:.4f}")
    print(f"({time.perf_counter() - started:.0f} s)")
    summary = {
        "style": args.style,
        "games": args.games,
        "depth": args.depth,
        "ratios": ratios,
        "log_loss": {"counts": prior / n, "hard": hard / n, "fitted": fitted / n},
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
