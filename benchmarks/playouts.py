"""Random Geister playouts per second on one core, next to a straightforward pure-Python engine measured in the
same run, and the search players' decisions per second at a fixed playout budget.

    taskset -c 0 python benchmarks/playouts.py        (one core, as the targets are stated)

Positions: the initial position (a fixed set-up pair) and a mid-game position (24 random plies later, two pieces
captured). Playouts are full-information random games to the end (uniformly random legal moves, the 300-ply
draw). The baseline is the obvious engine: a 36-square list, each ply listing the legal moves and picking one with
``random.choice``; it follows the same rules. Ends with one JSON line of the figures.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from core.geister import VARIANTS, Colour, GeisterState
from solvers.geister import playouts as po
from solvers.geister.ismcts import ISMCTSPlayer
from solvers.geister.montecarlo import GUIDED, MonteCarloPlayer, UPPPlayer
from solvers.players import Limit

VARIANT = VARIANTS["geister"]
BATCH = 16_384


def start_states() -> dict[str, GeisterState]:
    initial = GeisterState.from_setups(VARIANT, "BRBRBRBR", "RBBRRBBR")
    rng = random.Random(3)
    mid = initial.clone()
    while len(mid.captured) < 2 or mid.ply < 24:
        mid.push(rng.choice(mid.legal_moves()))
        if mid.is_terminal():  # pragma: no cover - the seed gives a game that goes on
            raise RuntimeError("the mid-game seed ended the game")
    return {"initial": initial, "mid-game": mid}


def full_bits(state: GeisterState) -> tuple[tuple[int, int], tuple[int, int]]:
    occ, blue = [0, 0], [0, 0]
    for square, piece in state.pieces():
        bit = 1 << VARIANT.index(square)
        occ[piece.side] |= bit
        if piece.colour is Colour.BLUE:
            blue[piece.side] |= bit
    return (occ[0], occ[1]), (blue[0], blue[1])


def vectorised_rate(state: GeisterState, seconds: float, policy: po.Policy = po.UNIFORM) -> tuple[float, float]:
    """Playouts per second and average plies per playout, in batches of ``BATCH`` games."""
    t = po.tables(VARIANT)
    occ, blue = full_bits(state)
    rng = np.random.default_rng(1)
    games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        batch = po.batch_from_arrays(t, state.to_move, occ, blue, state.ply, BATCH)
        po.playout(t, batch, rng, policy=policy)
        games += BATCH
    elapsed = time.perf_counter() - started
    return games / elapsed, average_length(state)


def average_length(state: GeisterState) -> float:
    """Average plies of a random game from ``state`` (by the baseline engine, 300 games)."""
    rng = random.Random(5)
    total = 0
    for _ in range(300):
        total += baseline_playout(state, rng)[1]
    return total / 300


# ---- the straightforward pure-Python engine

NEIGHBOURS = [
    [i + d for d, ok in ((6, i < 30), (-6, i >= 6), (1, i % 6 < 5), (-1, i % 6 > 0)) if ok] for i in range(36)
]
EXITS = ({30, 35}, {0, 5})


def baseline_playout(state: GeisterState, rng: random.Random) -> tuple[int, int]:
    """One random game to the end: (+1 player 1 won, -1 player 2 won, 0 draw; plies played)."""
    board: list[tuple[int, bool] | None] = [None] * 36  # (side, is_blue)
    for square, piece in state.pieces():
        board[VARIANT.index(square)] = (int(piece.side), piece.colour is Colour.BLUE)
    blues = [sum(1 for p in board if p and p[0] == s and p[1]) for s in (0, 1)]
    reds = [sum(1 for p in board if p and p[0] == s and not p[1]) for s in (0, 1)]
    side, ply, played = int(state.to_move), state.ply, 0
    while True:
        moves: list[tuple[int, int]] = []
        for square in range(36):
            piece = board[square]
            if piece is None or piece[0] != side:
                continue
            if piece[1] and square in EXITS[side]:
                moves.append((square, -1))
            for target in NEIGHBOURS[square]:
                occupant = board[target]
                if occupant is None or occupant[0] != side:
                    moves.append((square, target))
        if not moves:
            return (-1 if side == 0 else 1), played
        src, dst = rng.choice(moves)
        played += 1
        ply += 1
        winner = None
        if dst < 0:
            winner = side
        else:
            captured = board[dst]
            board[dst], board[src] = board[src], None
            if captured is not None:
                if captured[1]:
                    blues[1 - side] -= 1
                    if blues[1 - side] == 0:
                        winner = side
                else:
                    reds[1 - side] -= 1
                    if reds[1 - side] == 0:
                        winner = 1 - side
        if winner is not None:
            return (1 if winner == 0 else -1), played
        if ply >= 300:
            return 0, played
        side = 1 - side


def baseline_rate(state: GeisterState, seconds: float) -> float:
    rng = random.Random(1)
    games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        baseline_playout(state, rng)
        games += 1
    return games / (time.perf_counter() - started)


def decisions_per_second(player_class: type[MonteCarloPlayer], state: GeisterState, playouts: int) -> float:
    view = state.view(state.to_move)
    player = player_class()
    rng = random.Random(0)
    player.choose(view, rng, Limit(playouts=playouts))  # warm-up: tables and caches
    runs = 3
    started = time.perf_counter()
    for _ in range(runs):
        player.choose(view, rng, Limit(playouts=playouts))
    return runs / (time.perf_counter() - started)


def main() -> None:
    states = start_states()
    figures: dict[str, float] = {}
    print(f"Random playouts per second (one process; batches of {BATCH:,} games for the vectorised engine)")
    for label, state in states.items():
        fast, length = vectorised_rate(state, 4.0)
        slow = baseline_rate(state, 2.0)
        key = label.replace("-", "_")
        figures[f"{key}_playouts_per_s"] = round(fast)
        figures[f"{key}_baseline_playouts_per_s"] = round(slow)
        print(
            f"  {label:<9} ply {state.ply:>2}: numpy {fast:>9,.0f}/s   pure Python {slow:>7,.0f}/s   "
            f"-> {fast / slow:5.1f}x   ({length:.0f} plies per random game on average)"
        )
    guided, _ = vectorised_rate(states["initial"], 2.0, GUIDED)
    figures["guided_playouts_per_s"] = round(guided)
    print(f"  guided playouts (UPP and ISMCTS, {GUIDED}): {guided:,.0f}/s from the initial position")
    budget = 10_000
    print(f"Decisions per second at {budget:,} playouts per decision (initial position, player 1 to move):")
    for cls in (MonteCarloPlayer, UPPPlayer, ISMCTSPlayer):
        rate = decisions_per_second(cls, states["initial"], budget)
        figures[f"{cls.name}_decisions_per_s"] = round(rate, 2)
        print(f"  {cls.name:<7} {rate:6.2f} decisions/s")
    figures["playouts_per_s"] = figures["initial_playouts_per_s"]
    figures["baseline_playouts_per_s"] = figures["initial_baseline_playouts_per_s"]
    figures["ratio"] = round(figures["playouts_per_s"] / figures["baseline_playouts_per_s"], 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
