"""The post-game review's cost, game by game, next to the cost of playing the same game with the same engine.

For each game a record is played here by the catalogue's players (seeded; Geister's with bayes against purple at
0.05 s a move, the first game of at least 100 plies cut to 100; TCG between two equilibrium players, whose games
last longer than against random), and then, each in a fresh process:

* the review on a first run: an empty solver cache, so every table or equilibrium the review needs is solved;
* the review with warm caches: the same cache folder again (tables read from disk);
* the baseline, measured in the same run: the game's strongest player choosing a move at every position of the
  record from its mover's view, at the same budget (Geister: 0.1 s a move, the review's default), with warm caches.
  It is what the review costs at least (Geister's review runs the same search once a move); the ratio shows what
  judging adds to it.

    python benchmarks/review.py [--time 0.1]

Times are wall-clock seconds inside each process (the interpreter's start excluded). Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.game import SIMULTANEOUS, Side  # noqa: E402
from core.games import load_game  # noqa: E402
from core.record import Record  # noqa: E402
from solvers.catalogue import make_player  # noqa: E402
from solvers.players import Limit  # noqa: E402

#: (label, game, players, parameters) of each record reviewed.
GAMES: tuple[tuple[str, str, tuple[str, str], dict[str, object]], ...] = (
    ("nim 3,4,5,7,9", "nim", ("perfect", "random"), {"heaps": (3, 4, 5, 7, 9)}),
    # Two equilibrium players: against random the game is often over in a round or two.
    ("tcg n=3", "tcg", ("equilibrium", "equilibrium"), {"n": 3}),
    ("footstep n=50 k=4", "footstep", ("equilibrium", "random"), {"n": 50, "k": 4}),
    ("mini-geister", "mini-geister", ("nash", "random"), {}),
    ("mini-geister-3v2-rbb", "mini-geister-3v2-rbb", ("random", "random"), {}),
    ("geister", "geister", ("bayes", "purple"), {}),
)
GEISTER_PLIES = 100

# Run in a fresh process: reviews the record (or times the baseline) and prints its seconds as JSON.
CHILD = """
import json, random, sys, time
from core.game import SIMULTANEOUS, Side
from core.record import Record
from solvers.catalogue import make_player, strongest
from solvers.players import Limit
mode, path, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
record = Record.load(path)
started = time.perf_counter()
if mode == "review":
    from solvers.review.records import review_record
    review = review_record(record, time=seconds)
    entries, judged = len(review.moves), sum(m.verdict is not None for m in review.moves)
else:
    states = record.replay_states()
    game = record.tags["Game"]
    players = {side: make_player(strongest(game).name, game) for side in Side}
    rng = random.Random(0)
    limit = Limit(time=seconds)
    entries = judged = 0
    for state in states[:-1]:
        movers = list(Side) if state.current_player() == SIMULTANEOUS else [Side(state.current_player())]
        for side in movers:
            players[side].choose(state.view(side), rng, limit)
            entries += 1
print(json.dumps({"seconds": time.perf_counter() - started, "entries": entries, "judged": judged}))
"""


def play(game: str, names: tuple[str, str], seed: int, params: dict[str, object], limit: Limit) -> Record:
    state = load_game(game, **params)  # type: ignore[arg-type]
    players = {side: make_player(name, game) for side, name in zip(Side, names, strict=True)}
    rngs = {side: random.Random(seed * 2 + side.number) for side in Side}
    steps = 0
    while not state.is_terminal() and steps < 400:
        if state.current_player() == SIMULTANEOUS:
            state.apply_joint(tuple(players[s].choose(state.view(s), rngs[s], limit) for s in Side))
        else:
            side = Side(state.current_player())
            state.apply(players[side].choose(state.view(side), rngs[side], limit))
        steps += 1
    return Record.from_state(state, {"Player1": names[0], "Player2": names[1]})


def geister_record() -> tuple[Record, int]:
    """The first bayes-purple game of at least ``GEISTER_PLIES`` plies, cut there (the longest of 16 otherwise)."""
    longest: Record | None = None
    for seed in range(16):
        record = play("geister", ("bayes", "purple"), seed, {}, Limit(time=0.05))
        if longest is None or len(record.moves) > len(longest.moves):
            longest = record
        if len(record.moves) >= GEISTER_PLIES:
            break
    assert longest is not None
    full = len(longest.moves)
    if full > GEISTER_PLIES:
        longest.moves = longest.moves[:GEISTER_PLIES]
        longest.tags["Result"] = "*"
        longest.tags.pop("Termination", None)
    return longest, full


def child(mode: str, path: Path, cache: Path, seconds: float) -> dict[str, float]:
    env = dict(os.environ, NASHPLAY_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(path), str(seconds)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=0.1, help="Geister's seconds a move (default 0.1)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        print(f"review at {args.time:g} s a move for Geister; each figure a fresh process\n")
        print(f"{'game':<22}{'entries':>8}{'judged':>8}{'first run':>11}{'warm':>9}{'baseline':>10}{'ratio':>8}")
        for label, game, names, params in GAMES:
            if game == "geister":
                record, full = geister_record()
                label = f"geister ({len(record.moves)} of {full} plies)"
            else:
                record = play(game, names, 1, params, Limit(iterations=1))
            path = base / f"{game}.ngr"
            record.save(path)
            cache = base / f"cache-{game}"
            started = time.perf_counter()
            first = child("review", path, cache, args.time)
            warm = child("review", path, cache, args.time)
            baseline = child("baseline", path, cache, args.time)
            ratio = warm["seconds"] / baseline["seconds"] if baseline["seconds"] > 0 else float("inf")
            row = {
                "game": label,
                "entries": int(warm["entries"]),
                "judged": int(warm["judged"]),
                "first_run_seconds": round(first["seconds"], 3),
                "warm_seconds": round(warm["seconds"], 3),
                "baseline_seconds": round(baseline["seconds"], 3),
                "ratio": round(ratio, 2),
                "wall_seconds": round(time.perf_counter() - started, 1),
            }
            rows.append(row)
            print(
                f"{label:<22}{row['entries']:>8}{row['judged']:>8}{row['first_run_seconds']:>10.2f}s"
                f"{row['warm_seconds']:>8.2f}s{row['baseline_seconds']:>9.2f}s{row['ratio']:>8.2f}"
            )
    print(
        "\nfirst run: empty solver cache; warm: the cache from the first run; baseline: the strongest player choosing "
        "at every position (same budget, warm cache); ratio = warm / baseline"
    )
    print(json.dumps({"time": args.time, "games": rows}))


if __name__ == "__main__":
    main()
