"""The test suite on an idle machine, then with every core held by a busy loop: its time both ways, and whether it
passed both ways.

The suite must never depend on the machine's speed: a test that waits on the clock, or reads a screen before the app
has drawn it, passes on an idle machine and fails on a loaded one. This runs the README's test command (``pytest -n
2``) twice, as the baseline on the idle machine and then with one busy loop per core (plain Python ``while True``
processes, each in its own session, killed when the run ends; never a signal to the suite's own process group).

    python benchmarks/suite_under_load.py [--loaded-only] [--runs N] [--loops N] [-- PYTEST-ARGS...]

Prints each run's time and result, the ten slowest tests of each, and ends with one JSON line. Exits 1 if a run
failed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-m", "pytest", "-n", "2", "-p", "no:cacheprovider", "-q", "--durations=10"]
BUSY_LOOP = "while True:\n    pass\n"


@dataclass
class SuiteRun:
    load: str
    seconds: float
    passed: int
    failed: int
    errors: int
    returncode: int
    failures: list[str]
    slowest: list[str]


def busy_loops(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that each keep a core busy; each in its own session, so nothing sent to them reaches us."""
    return [
        subprocess.Popen([sys.executable, "-c", BUSY_LOOP], start_new_session=True, stdin=subprocess.DEVNULL)
        for _ in range(count)
    ]


def stop(loops: list[subprocess.Popen[bytes]]) -> None:
    for loop in loops:
        if loop.poll() is None:
            os.killpg(loop.pid, signal.SIGKILL)
        loop.wait()


def count(summary: str, word: str) -> int:
    found = re.search(rf"(\d+) {word}", summary)
    return int(found.group(1)) if found else 0


def run_suite(load: str, extra: list[str]) -> SuiteRun:
    started = time.perf_counter()
    done = subprocess.run([*COMMAND, *extra], cwd=ROOT, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    lines = done.stdout.splitlines()
    summary = next((line for line in reversed(lines) if " in " in line and ("passed" in line or "failed" in line)), "")
    failures = [line.split(" ", 1)[1] for line in lines if line.startswith(("FAILED ", "ERROR "))]
    slowest = [line for line in lines if re.match(r"^\d+\.\d+s (call|setup|teardown) ", line)][:10]
    return SuiteRun(
        load,
        round(seconds, 1),
        count(summary, "passed"),
        count(summary, "failed"),
        count(summary, "error"),
        done.returncode,
        failures,
        slowest,
    )


def report(run: SuiteRun) -> None:
    verdict = "passed" if run.returncode == 0 else f"FAILED (exit {run.returncode})"
    print(
        f"\n{run.load}: {run.seconds:.0f} s, {run.passed} passed, {run.failed} failed, {run.errors} errors: {verdict}"
    )
    for failure in run.failures:
        print(f"  failed: {failure}")
    print("  ten slowest:")
    for line in run.slowest:
        print(f"    {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loaded-only", action="store_true", help="skip the idle baseline")
    parser.add_argument("--runs", type=int, default=1, help="loaded runs (default 1)")
    parser.add_argument("--loops", type=int, default=os.cpu_count() or 2, help="busy loops (default: one a core)")
    parser.add_argument("pytest_args", nargs="*", help="passed on to pytest (after --)")
    args = parser.parse_args()
    if not 1 <= args.runs <= 20 or not 1 <= args.loops <= 64:
        parser.error("--runs must be 1 to 20 and --loops 1 to 64")
    runs: list[SuiteRun] = []
    if not args.loaded_only:
        print("the suite on the idle machine (the baseline)...", flush=True)
        runs.append(run_suite("idle", args.pytest_args))
        report(runs[-1])
    for index in range(args.runs):
        print(f"\nthe suite with {args.loops} busy loops (run {index + 1} of {args.runs})...", flush=True)
        loops = busy_loops(args.loops)
        try:
            runs.append(run_suite(f"{args.loops} busy loops", args.pytest_args))
        finally:
            stop(loops)
        report(runs[-1])
    idle = next((r.seconds for r in runs if r.load == "idle"), None)
    loaded = [r.seconds for r in runs if r.load != "idle"]
    if idle and loaded:
        print(f"\nloaded / idle: {max(loaded) / idle:.2f}x (slowest loaded run)")
    ok = all(r.returncode == 0 for r in runs)
    print(json.dumps({"ok": ok, "idle_seconds": idle, "loaded_seconds": loaded, "runs": [asdict(r) for r in runs]}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
