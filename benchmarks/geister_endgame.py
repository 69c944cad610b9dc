"""Geister endgame tables (``solvers.geister.endgame``): build time, memory and size on 5x5 and 6x6, and what a lookup
saves.

Each board's four tables (colourless under the base and extended rules, perfect information, sure wins) are built
with the cache bypassed, in a fresh process per board so that its peak memory (maximum RSS) is the board's own; the
4x4 Mini-Geister tables, built the same way in the same run, are the baseline for time and memory. The sizes are of
the arrays in memory and of the cache files on disk.

The lookup, the baseline being a plain depth-limited search (the way a program without tables finds a sure win),
on random 6x6 endings (one blue and one red a side), both agreeing on every position:

* where the sure-win table proves a win in at most ``--plies`` plies: the tables' judgement of the player's view
  (the position and every move) against the search proving the same win and that no shorter one exists;
* where it proves none: the judgement against the search ruling a sure win out to the table's longest one (19
  plies on 6x6; a search cannot know that no longer one exists, the tables do).

    python benchmarks/geister_endgame.py [--positions 40] [--plies 7] [--none 10]

Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.game import Side
from core.geister import GeisterState
from core.notation import Square


def build(size: int, folder: str, out: Any) -> None:
    """In a child: build every table of a ``size`` board into ``folder`` and report timings, sizes and peak RSS."""
    os.environ["NASHPLAY_CACHE_DIR"] = folder
    from solvers.geister.endgame import EndgameTables

    tables = EndgameTables.load(size, use_cache=True)  # an empty cache folder: everything is built and saved
    seconds: dict[str, float] = {}
    for name in ("base", "perfect", "sure", "extended"):  # the extended rule's guess reads the perfect table
        started = time.perf_counter()
        getattr(tables, name)
        seconds[name] = round(time.perf_counter() - started, 2)
    disk = sum(path.stat().st_size for path in Path(folder).rglob("*") if path.is_file())
    states = {name: int(2 * getattr(tables, name).placements) for name in seconds}
    out.put(
        {
            "board": f"{size}x{size}",
            "seconds": seconds,
            "total_seconds": round(sum(seconds.values()), 2),
            "states": states,
            "memory_mb": round(tables.nbytes / 1e6, 1),
            "disk_mb": round(disk / 1e6, 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 0),
        }
    )


def build_in_child(size: int) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    with tempfile.TemporaryDirectory() as folder:
        child = context.Process(target=build, args=(size, folder, queue))
        child.start()
        result: dict[str, Any] = queue.get()
        child.join()
    return result


# ---------------------------------------------------------------------------------------------- the plain search

EXITS, THEIR_EXITS = {Square(0, 5), Square(5, 5)}, {Square(0, 0), Square(5, 0)}


def steps(square: Square) -> Iterator[Square]:
    for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        f, r = square.file + df, square.rank + dr
        if 0 <= f < 6 and 0 <= r < 6:
            yield Square(f, r)


@cache
def forces(blue: Square, red: Square, theirs: frozenset[Square], my_turn: bool, depth: int) -> bool:
    """Does player 1 (its colours known to it, player 2's hidden) get its blue out within ``depth`` plies, whatever
    player 2's pieces are and do? (Player 2 wins with a piece on its exit at its turn, or by taking the blue.)"""
    if depth <= 0:
        return False
    occupied = theirs | {blue, red}
    if my_turn:
        if blue in EXITS:
            return True
        return any(forces(t, red, theirs, False, depth - 1) for t in steps(blue) if t not in occupied) or any(
            forces(blue, t, theirs, False, depth - 1) for t in steps(red) if t not in occupied
        )
    if theirs & THEIR_EXITS or any(blue in set(steps(t)) for t in theirs):
        return False
    replies = [theirs - {p} | {t} for p in theirs for t in steps(p) if t not in occupied]
    return bool(replies) and all(forces(blue, red, after, True, depth - 1) for after in replies)


def random_ending(rng: random.Random) -> GeisterState:
    squares = rng.sample([Square(f, r) for f in range(6) for r in range(6)], 4)
    board = ["6"] * 6
    rows = [["."] * 6 for _ in range(6)]
    for square, letter in zip(squares, "BRbr", strict=True):
        rows[square.rank][square.file] = letter
    for rank in range(6):
        text, empty = "", 0
        for cell in rows[rank]:
            if cell == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + cell
            empty = 0
        board[5 - rank] = text + (str(empty) if empty else "")
    return GeisterState.from_position("/".join(board) + " 1 BBBRRRbbbrrr 100", "geister")


def lookups(positions: int, plies: int, none: int) -> dict[str, Any]:
    from solvers.geister.endgame import endgame_tables
    from solvers.geister.tablebase import judge

    tables = endgame_tables(6)
    longest = max(tables.sure.distance_histogram(1))
    rng = random.Random(2026)
    seconds = {"win_table": 0.0, "win_search": 0.0, "none_table": 0.0, "none_search": 0.0}
    wins = nones = 0
    while wins < positions or nones < none:
        state = random_ending(rng)
        if state.is_terminal():
            continue
        view = state.view(Side.P1)
        started = time.perf_counter()
        judgement = judge(view, tables)
        elapsed = time.perf_counter() - started
        assert judgement is not None
        here = judgement.here
        won = here is not None and here.result == "win"
        if won and (here is None or here.source != "sure" or (here.plies or 0) > plies or wins >= positions):
            continue
        if not won and nones >= none:
            continue
        mine = {piece.colour.name: square for square, piece in state.pieces() if piece.side is Side.P1}
        theirs = frozenset(square for square, piece in state.pieces() if piece.side is Side.P2)
        forces.cache_clear()
        started = time.perf_counter()
        if won and here is not None:
            distance = here.plies or 0
            agrees = forces(mine["BLUE"], mine["RED"], theirs, True, distance)
            agrees = agrees and not forces(mine["BLUE"], mine["RED"], theirs, True, distance - 1)
        else:
            agrees = not forces(mine["BLUE"], mine["RED"], theirs, True, longest)
        searched = time.perf_counter() - started
        if not agrees:
            raise SystemExit(f"the plain search disagrees with the tables on {state.position()}")
        kind = "win" if won else "none"
        seconds[f"{kind}_table"] += elapsed
        seconds[f"{kind}_search"] += searched
        wins, nones = (wins + 1, nones) if won else (wins, nones + 1)
    return {
        "positions": positions,
        "max_plies": plies,
        "win_table_ms": round(1000 * seconds["win_table"] / positions, 2),
        "win_search_ms": round(1000 * seconds["win_search"] / positions, 2),
        "none_positions": none,
        "none_depth": longest,
        "none_table_ms": round(1000 * seconds["none_table"] / max(none, 1), 2),
        "none_search_ms": round(1000 * seconds["none_search"] / max(none, 1), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--plies", type=int, default=7)
    parser.add_argument("--none", type=int, default=10)
    args = parser.parse_args()
    boards = [build_in_child(size) for size in (4, 5, 6)]
    print(f"{'board':<7}{'states (colourless/perfect/sure)':>36}{'build s':>10}{'memory MB':>11}{'disk MB':>9}", end="")
    print(f"{'peak RSS MB':>13}")
    for board in boards:
        states = board["states"]
        counts = f"{states['base']:,} / {states['perfect']:,} / {states['sure']:,}"
        print(
            f"{board['board']:<7}{counts:>36}{board['total_seconds']:>10.2f}{board['memory_mb']:>11.1f}"
            f"{board['disk_mb']:>9.1f}{board['peak_rss_mb']:>13,.0f}"
        )
    for board in boards:
        print(f"  {board['board']} per table (s): " + ", ".join(f"{k} {v}" for k, v in board["seconds"].items()))
    baseline = boards[0]
    print(f"(baseline: the 4x4 Mini-Geister tables, {baseline['total_seconds']} s; 6x6 takes ", end="")
    print(f"{boards[2]['total_seconds'] / max(baseline['total_seconds'], 1e-9):.0f} times as long)")
    found = lookups(args.positions, args.plies, args.none)
    print(
        f"\nJudging a 6x6 ending from the tables (the position and every move), against a plain search:\n"
        f"  a sure win of up to {args.plies} plies ({found['positions']} positions): "
        f"tables {found['win_table_ms']} ms, search proving it and that none is shorter {found['win_search_ms']} ms\n"
        f"  no sure win ({found['none_positions']} positions): tables {found['none_table_ms']} ms, search ruling one "
        f"out to {found['none_depth']} plies {found['none_search_ms']} ms\n"
        "  (all agreeing)"
    )
    print(json.dumps({"boards": boards, "baseline": baseline, "lookup": found}))


if __name__ == "__main__":
    main()
