"""The compiled Geister engine (``solvers.geister_engine``) on one core, against today's engines in the same run.

    taskset -c 0 python benchmarks/geister_engine.py        (one core, as the figures are stated)

Measured from the initial position and a mid-game position (both from ``benchmarks/playouts.py``, so the figures
line up with its report):

* engine nodes a second: ``make``/``unmake`` pairs while counting perft, next to ``core.geister`` doing the same
  count with ``push``/``pop`` (the referee; the only other engine that makes and takes back single moves);
* random (uniform) playouts a second: the engine, the numpy batch playouts of ``solvers.geister.playouts`` (batches of
  16,384 games), and the plain pure-Python engine of ``benchmarks/playouts.py`` (imported, not copied);
* guided playouts a second (``solvers.geister.montecarlo.GUIDED``: escape first, capture 0.5, advance 0.8): the engine
  and the numpy playouts (the pure-Python engine has no guided policy);
* numba's compile time with an empty cache folder, and the load time from the cache, each in a fresh process.

Ends with one JSON line of the figures.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.geister import GeisterState  # noqa: E402
from solvers.geister import playouts as po  # noqa: E402


def _load_playouts_benchmark() -> ModuleType:
    """``benchmarks/playouts.py`` as a module, for its positions and its pure-Python engine."""
    spec = importlib.util.spec_from_file_location("playouts_benchmark", Path(__file__).with_name("playouts.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _load_playouts_benchmark()

#: Fresh process: import the kernels and compile or load every one of them; prints the seconds of each step.
_LOAD_SCRIPT = (
    "import json, time\n"
    "started = time.perf_counter()\n"
    "from solvers.geister_engine import kernel\n"
    "imported = time.perf_counter() - started\n"
    "warm = kernel.warm_up()\n"
    "print(json.dumps({'import': imported, 'warm_up': warm}))\n"
)


def load_times() -> tuple[dict[str, float], dict[str, float]]:
    """(cold, cached): import and warm-up seconds in a fresh process, first with an empty cache folder, then
    again with the folder the first run filled."""
    with tempfile.TemporaryDirectory(prefix="geister-engine-bench-") as folder:
        env = dict(os.environ, NUMBA_CACHE_DIR=folder, PYTHONPATH=str(ROOT))
        runs = []
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, "-c", _LOAD_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, check=True
            )
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return runs[0], runs[1]


def engine_nodes_rate(kernel: ModuleType, state: GeisterState, depth: int, seconds: float) -> float:
    from solvers.geister_engine.convert import from_state
    from solvers.geister_engine.tables import tables

    s = from_state(state)
    t = tables(state.variant)
    nodes = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        nodes += kernel.perft_nodes(s, t, depth)[1]
    return nodes / (time.perf_counter() - started)


def core_nodes_rate(state: GeisterState, depth: int, seconds: float) -> float:
    game = state.clone()
    nodes = 0

    def walk(d: int) -> None:
        nonlocal nodes
        if d == 0 or game.is_terminal():
            return
        for move in game.legal_moves():
            game.push(move)
            nodes += 1
            walk(d - 1)
            game.pop()

    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        walk(depth)
    return nodes / (time.perf_counter() - started)


def engine_playout_rate(kernel: ModuleType, state: GeisterState, seconds: float, policy: po.Policy) -> float:
    from solvers.geister_engine.convert import from_state
    from solvers.geister_engine.tables import new_rng, tables

    s = from_state(state)
    t = tables(state.variant)
    rng = new_rng(1)
    games = 0
    chunk = 2000
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        kernel.run_playouts(s, t, rng, chunk, policy)
        games += chunk
    return games / (time.perf_counter() - started)


def row(label: str, engine: float, baseline: float, against: str) -> None:
    print(f"  {label:<30}{engine:>12,.0f}{baseline:>12,.0f}{engine / baseline:>8,.1f}x  vs {against}")


def main() -> None:
    from solvers.geister.montecarlo import GUIDED

    cold, cached = load_times()
    from solvers.geister_engine import kernel

    kernel.warm_up()
    states = bench.start_states()
    figures: dict[str, float] = {
        "cold_compile_s": round(cold["import"] + cold["warm_up"], 2),
        "cached_load_s": round(cached["import"] + cached["warm_up"], 2),
    }
    print(f"Geister engine on one core (affinity: {sorted(os.sched_getaffinity(0))}); higher is better\n")
    for label, state in states.items():
        key = label.replace("-", "_")
        print(f"{label} (ply {state.ply}, {len(state.captured)} captured)")
        print(f"  {'':<30}{'engine':>12}{'baseline':>12}{'ratio':>9}")
        engine = engine_nodes_rate(kernel, state, 5, 2.0)
        core = core_nodes_rate(state, 3, 2.0)
        row("nodes/s (perft make/unmake)", engine, core, "core.geister push/pop")
        uniform = engine_playout_rate(kernel, state, 2.0, po.UNIFORM)
        numpy_uniform, length = bench.vectorised_rate(state, 3.0)
        python_uniform = bench.baseline_rate(state, 2.0)
        row("random playouts/s", uniform, numpy_uniform, "numpy batches")
        row("", uniform, python_uniform, "pure Python")
        guided = engine_playout_rate(kernel, state, 2.0, GUIDED)
        numpy_guided, _ = bench.vectorised_rate(state, 3.0, GUIDED)
        row("guided playouts/s", guided, numpy_guided, "numpy batches")
        print(f"  ({length:.0f} plies per random game on average)\n")
        figures |= {
            f"{key}_engine_nodes_per_s": round(engine),
            f"{key}_core_nodes_per_s": round(core),
            f"{key}_engine_playouts_per_s": round(uniform),
            f"{key}_numpy_playouts_per_s": round(numpy_uniform),
            f"{key}_python_playouts_per_s": round(python_uniform),
            f"{key}_engine_guided_playouts_per_s": round(guided),
            f"{key}_numpy_guided_playouts_per_s": round(numpy_guided),
        }
    print(
        f"numba compile, empty cache folder: {figures['cold_compile_s']:.2f} s "
        f"(import {cold['import']:.2f} s + warm_up {cold['warm_up']:.2f} s); "
        f"from the cache: {figures['cached_load_s']:.2f} s "
        f"(import {cached['import']:.2f} s + warm_up {cached['warm_up']:.2f} s)"
    )
    figures["playouts_ratio_vs_numpy"] = round(
        figures["initial_engine_playouts_per_s"] / figures["initial_numpy_playouts_per_s"], 1
    )
    figures["playouts_ratio_vs_python"] = round(
        figures["initial_engine_playouts_per_s"] / figures["initial_python_playouts_per_s"], 1
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
