"""Hostile runs against the whole client, by class, as issue 29 counted them (about 1,000 runs against an older main):
each class is a kind of attack or accident, tried many times with seeded variations on the real thing (the
installed ``nashplay`` command in a subprocess, the app headless through Textual's pilot, ``serve``'s server in the
harness's event loop), and each case's outcome counted:

- **clean**: refused in one line (exit code 2, one line on stderr, no traceback; or the app's one-line message) or
  handled (done, the app alive), with nothing lost and nothing leaked;
- **crash or hang**: a traceback, an exit code other than 0 or the documented refusal's 2 (``connect``: 1 with its
  one-line error), an app that dies or answers no more, control characters written to the terminal, text meant as
  text shown as markup, or no answer within the case's ceiling (the case is then killed: a hang);
- **lost**: a game, a move, a save or a record that should have survived and did not (a sound save no longer
  offered, a move played and not saved, a kill that spoiled the save, a game in progress with no record; also a
  false result kept as true, and, in the baseline, a sound input refused);
- **leaked**: something reached that should not be: a file written outside a web visitor's folder, another
  visitor's (or the owner's) game read, a visitor id printed or logged, a visitor's folder made without a word from
  them, a connection opened to a host the serve's owner did not allow, a secret colour shown; and, for the kills
  of item 8, a temporary file or folder left after the next start.

The ``item`` column is the number of the issue's list of what the first hostile runs found: (1) ``serve`` lets any
local user in (the token; the save and replay prompts leaving the visitor's folder; visitor ids; and the contest
dialog, which let a visitor make the serving machine connect anywhere), (2) a dead worker crashes the app, (3)
hostile Nim (and other) records, (4) a FIFO (and folders, devices, sockets) where a record or a save is read, (5)
markup injection, (6) slow connections, oversized and deep messages, folders made for websockets that never
spoke, (7) ``connect`` against a misbehaving server and killed mid-game, (8) terminal escapes and big comment
records, (9) kills during a save and a review. ``benchmarks/hostile/`` holds the cases, one module per family;
they reuse the project's own helpers (``tests/fake_server.py``, ``tests/pilot_helpers.py`` and the pilot's wait of
``tests/conftest.py``, ``benchmarks/hostile_files.py``'s damaged saves and secrets).

Baseline, in the same run: the same harness on sound inputs of every class (a request with the token, a path
inside the visitor's folder, a sound record, a regular file, a well-behaved contest server, no kill): all must be
clean, which shows the harness tells clean from not.

    python benchmarks/hostile_runs.py [--per-class N] [--seed S] [--quick] [--jobs J] [--only KEY ...] [--verbose]

``--per-class 50`` (the default) runs 1,000 hostile cases (classes are weighted: cheap ones more, the
seconds-long ones fewer) and 100 sound ones, on two processes, in about ten minutes on 2 cores; ``--quick`` 22
hostile and 17 sound ones (none of the engine's classes) in under a minute. The same seed gives the same inputs
(where a kill lands, to the millisecond, still depends on the machine).
Progress goes to stderr (``--verbose``: every case); the table, the failures (what, precisely) and one JSON line of
all figures to stdout. Exit code 1 when any case was not clean.

The run's environment (as ``tests/conftest.py`` sets it): one compiled-engine cache (``NUMBA_CACHE_DIR``, compiled
once at the start) and one bytecode cache for the run, no animations; each case has its own state, cache,
temporary and working folder, removed after it. No case names a path outside its folder for anything to be
written to (as root, a save prompt that wrote "to /dev/null" replaced the device), and every process is limited to
3 GB of data (``MEMORY_LIMIT``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
KINDS = ("clean", "crash", "lost", "leaked")


@dataclass(frozen=True)
class CaseClass:
    """One class of the table: ``count`` cases at ``--per-class 50``, each given ``timeout`` seconds before it is
    killed as a hang; ``engine``: it needs the compiled search engine (started once the run has compiled it)."""

    key: str
    name: str
    item: str
    count: int
    timeout: float
    case: str
    engine: bool = False


CLASSES = (
    CaseClass("token", "serve: no or wrong token", "1", 70, 60, "serve_cases:no_token"),
    CaseClass("save-prompt", "serve: save prompt leaving the folder", "1", 60, 60, "app_cases:save_prompt"),
    CaseClass("replay-prompt", "serve: replay prompt, others' files", "1", 50, 60, "app_cases:replay_prompt"),
    CaseClass("visitors", "serve: visitor ids and folders", "1, 6", 40, 60, "serve_cases:visitor_folders"),
    CaseClass("slow", "serve: slow, half-open, silent", "6", 30, 60, "serve_cases:slow_connections"),
    CaseClass("messages", "serve: oversized and deep messages", "6", 60, 60, "serve_cases:messages"),
    CaseClass("contest-dialog", "serve: contest dialog, any host", "1", 40, 60, "app_cases:contest_dialog"),
    CaseClass("advice-killed", "kill -9 of the advice worker", "2", 20, 150, "worker_cases:advice_killed", True),
    CaseClass(
        "opponent-killed", "kill -9 of the opponent's worker", "2", 20, 150, "worker_cases:opponent_killed", True
    ),
    CaseClass("records", "hostile records: commands", "3", 90, 60, "record_cases:hostile_records"),
    CaseClass("record-slot", "hostile records: save slot, menu", "3", 50, 60, "app_cases:hostile_slot"),
    CaseClass("special-files", "FIFOs, folders, devices: commands, prompts", "4", 60, 60, "record_cases:special_files"),
    CaseClass("special-state", "FIFOs, folders, devices: state", "4", 70, 60, "app_cases:special_state"),
    CaseClass("markup", "markup in paths, tags, names", "5", 70, 60, "app_cases:markup"),
    CaseClass("server", "connect: misbehaving server", "7", 50, 60, "connect_cases:misbehaving_server"),
    CaseClass("connect-killed", "connect: kill -9 mid-game", "7", 20, 60, "connect_cases:killed_mid_game"),
    CaseClass("escapes", "terminal escapes in records", "8", 80, 60, "record_cases:escapes"),
    CaseClass("comments", "big comment records", "8", 30, 60, "record_cases:big_comments"),
    CaseClass("save-killed", "kill -9 during a save", "9", 70, 60, "kill_cases:killed_saving"),
    CaseClass("review-killed", "kill -9 during a review", "9", 20, 90, "kill_cases:killed_reviewing", True),
)
BY_KEY = {spec.key: spec for spec in CLASSES}


@dataclass(frozen=True)
class Case:
    key: str
    index: int
    sound: bool
    seed: str

    @property
    def spec(self) -> CaseClass:
        return BY_KEY[self.key]

    def to_json(self) -> str:
        return json.dumps({"key": self.key, "index": self.index, "sound": self.sound, "seed": self.seed})


@dataclass
class Result:
    case: Case
    kind: str
    detail: str
    seconds: float
    figures: dict[str, float] = field(default_factory=dict)


# ------------------------------------------------------------------------------------------------ the worker


def run_case(message: dict[str, Any], run_dir: Path) -> dict[str, Any]:
    """One case, in a fresh folder that is its state, cache, temporary and working folder; the environment and the
    working folder are put back afterwards."""
    spec = BY_KEY[message["key"]]
    module_name, function_name = spec.case.split(":")
    case = getattr(importlib.import_module(f"hostile.{module_name}"), function_name)
    work = Path(tempfile.mkdtemp(prefix=f"{spec.key}-", dir=run_dir / "cases"))
    (work / "tmp").mkdir()
    saved_env, saved_cwd, saved_tempdir = dict(os.environ), os.getcwd(), tempfile.tempdir
    os.environ.update(
        NASHPLAY_STATE_DIR=str(work / "state"), NASHPLAY_CACHE_DIR=str(work / "cache"), TMPDIR=str(work / "tmp")
    )
    tempfile.tempdir = str(work / "tmp")
    os.chdir(work)
    start = time.perf_counter()
    try:
        outcome = case(random.Random(message["seed"]), work, bool(message["sound"]))
        kind, detail, figures = outcome.kind, outcome.detail, outcome.figures
    except Exception as error:  # the case itself raised: said with where, for the reader to judge
        where = traceback.extract_tb(error.__traceback__)[-1]
        kind = "crash"
        detail = f"raised {type(error).__name__}: {str(error)[:300]} (at {Path(where.filename).name}:{where.lineno})"
        figures = {}
    finally:
        seconds = time.perf_counter() - start
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        tempfile.tempdir = saved_tempdir
        shutil.rmtree(work, ignore_errors=True)
    return {"kind": kind, "detail": detail, "seconds": seconds, "figures": figures}


def worker_main(run_dir: Path) -> int:
    """Cases from stdin (one JSON line each), results to the original stdout; anything else printed goes to the
    worker's log (stderr)."""
    sys.path.insert(0, str(HERE))
    from hostile.common import wait_on_the_app

    wait_on_the_app()
    channel = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        message = json.loads(line)
        print(f"--- case {message['key']} {message['index']} sound={message['sound']}", file=sys.stderr, flush=True)
        result = run_case(message, run_dir)
        print(f"    {result['kind']}: {result['detail']}", file=sys.stderr, flush=True)
        channel.write(json.dumps(result) + "\n")
    return 0


# ------------------------------------------------------------------------------------------------ the pool


class Worker:
    """A process that runs cases one at a time, in a process group of its own (a hang is killed with everything
    it started)."""

    def __init__(self, number: int, env: dict[str, str], run_dir: Path) -> None:
        self.number = number
        self.env = env
        self.run_dir = run_dir
        self.case: Case | None = None
        self.deadline = 0.0
        self.started = 0.0
        self.log_path = run_dir / f"worker-{number}.log"
        self._start()

    def _start(self) -> None:
        self.log: IO[bytes] = open(self.log_path, "ab")  # noqa: SIM115 - kept open for the process's life
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(self.run_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=self.env,
            cwd=ROOT,
            start_new_session=True,
            text=True,
            preexec_fn=limit_memory,
        )

    def give(self, case: Case) -> None:
        assert self.process.stdin is not None
        self.case = case
        self.started = time.monotonic()
        self.deadline = self.started + case.spec.timeout
        self.process.stdin.write(case.to_json() + "\n")
        self.process.stdin.flush()

    def fileno(self) -> int:
        assert self.process.stdout is not None
        return self.process.stdout.fileno()

    def read(self) -> Result | None:
        """The case's result, once its line has come; ``None`` when the worker died (its case then a crash)."""
        assert self.process.stdout is not None and self.case is not None
        line = self.process.stdout.readline()
        case, self.case = self.case, None
        if not line:
            log = self.log_path.read_text(errors="replace").strip().splitlines()[-3:]
            self.restart()
            return Result(case, "crash", f"the harness's worker died during the case: {' | '.join(log)}", 0.0)
        data = json.loads(line)
        return Result(case, data["kind"], data["detail"], data["seconds"], data["figures"])

    def kill(self) -> Result:
        """The case has run past its ceiling: a hang. The worker and all it started are killed, and replaced."""
        assert self.case is not None
        case, self.case = self.case, None
        seconds = time.monotonic() - self.started
        self.restart()
        return Result(case, "crash", f"no answer in {seconds:.0f} s: the case hung (killed)", seconds)

    def restart(self) -> None:
        self.stop(kill=True)
        self._start()

    def stop(self, kill: bool = False) -> None:
        if kill:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        elif self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # what the worker left behind
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self.log.close()


#: Data memory of each process of a worker (the worker, the apps and commands it starts: each inherits the limit):
#: a reader that read /dev/zero to its end, or a viewer that drew a glyph per stone of a billion, would fail with
#: an out-of-memory error (a crash) instead of taking the machine. The heaviest sound case takes a few hundred MB.
MEMORY_LIMIT = 3 * 1024**3


def limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_DATA, (MEMORY_LIMIT, MEMORY_LIMIT))


COMPILE_ENGINE = "from solvers.geister_engine import kernel, search; kernel.warm_up(); search.warm_up()"


def run_env(run_dir: Path) -> dict[str, str]:
    """The environment of the workers and every command they start (see the module docstring)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("NO_COLOR", None)
    env.update(
        NUMBA_CACHE_DIR=str(run_dir / "numba"),
        PYTHONPYCACHEPREFIX=str(run_dir / "pycache"),
        TEXTUAL_ANIMATIONS="none",
        PYTHONUNBUFFERED="1",
    )
    return env


def plan(per_class: int, seed: int, quick: bool, only: list[str]) -> list[Case]:
    """Every case of the run: each class's hostile cases and its sound ones (a tenth as many, at least one),
    shuffled so that the two processes share the heavy and the light ones."""
    cases: list[Case] = []
    for spec in CLASSES:
        if only and spec.key not in only:
            continue
        count = max(1, round(spec.count * per_class / 50))
        # --quick: no sound case of the classes that need the engine (each takes seconds; the full run has them).
        sound = (0 if spec.engine else 1) if quick else max(1, round(count / 10))
        for index in range(count):
            cases.append(Case(spec.key, index, False, f"{seed}:{spec.key}:hostile:{index}"))
        for index in range(sound):
            cases.append(Case(spec.key, index, True, f"{seed}:{spec.key}:sound:{index}"))
    random.Random(seed).shuffle(cases)
    return cases


def dispatch(cases: list[Case], jobs: int, env: dict[str, str], run_dir: Path, verbose: bool = False) -> list[Result]:
    """Run ``cases`` on ``jobs`` workers; the engine's cases wait for its compilation. Progress on stderr."""
    begun = time.monotonic()
    compiling = subprocess.Popen(
        [sys.executable, "-c", COMPILE_ENGINE],
        env=env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    workers = [Worker(number, env, run_dir) for number in range(jobs)]
    pending = deque(cases)
    results: list[Result] = []
    said = begun
    try:
        while pending or any(w.case is not None for w in workers):
            engine_ready = compiling.poll() is not None
            for worker in workers:
                if worker.case is None and pending:
                    ready = [c for c in pending if engine_ready or not c.spec.engine]
                    if ready:
                        pending.remove(ready[0])
                        worker.give(ready[0])
            busy = [w for w in workers if w.case is not None]
            if not busy:
                time.sleep(0.2)
                continue
            readable, _, _ = select.select(busy, [], [], 0.2)
            done = [w.read() for w in readable]
            now = time.monotonic()
            done += [w.kill() for w in busy if w not in readable and now > w.deadline]
            for result in done:
                if result is None:
                    continue
                results.append(result)
                if result.kind != "clean" or verbose:
                    which = "sound" if result.case.sound else "hostile"
                    mark = "  " if result.kind == "clean" else "! "
                    print(
                        f"  {mark}{result.case.spec.name} ({which} #{result.case.index}, {result.seconds:.1f} s): "
                        f"{result.kind}: {result.detail}",
                        file=sys.stderr,
                        flush=True,
                    )
            if now - said > 10 or not (pending or any(w.case is not None for w in workers)):
                said = now
                counts = {kind: sum(r.kind == kind for r in results) for kind in KINDS}
                print(
                    f"[{len(results):>5}/{len(cases)} {now - begun:6.0f} s] {counts['clean']} clean, "
                    f"{counts['crash']} crash or hang, {counts['lost']} lost, {counts['leaked']} leaked",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        for worker in workers:
            worker.stop()
        stopped = compiling.poll() is None
        if stopped:
            compiling.kill()
        compiling.wait()
    if compiling.returncode != 0 and not stopped:
        assert compiling.stderr is not None
        print(f"the engine did not compile: {compiling.stderr.read()[-500:]!r}", file=sys.stderr)
    return results


# ------------------------------------------------------------------------------------------------ the report


def tally(results: list[Result]) -> dict[str, Any]:
    counts = {kind: sum(r.kind == kind for r in results) for kind in KINDS}
    slowest = max(results, key=lambda r: r.seconds, default=None)
    return {
        "cases": len(results),
        "clean": counts["clean"],
        "crash_or_hang": counts["crash"],
        "lost": counts["lost"],
        "leaked": counts["leaked"],
        "slowest_s": round(slowest.seconds, 2) if slowest else 0.0,
    }


def class_figures(spec: CaseClass, results: list[Result]) -> dict[str, Any]:
    """What a class measures beyond its counts: its peak memory, and for the big comments the time per megabyte
    at the largest records against the smallest (linear time: about 1)."""
    figures: dict[str, Any] = {}
    memory = [r.figures.get("max_rss_mb", 0.0) for r in results]
    if any(memory):
        figures["max_rss_mb"] = round(max(memory), 1)
    if spec.key == "comments":
        sized = sorted(
            (r.figures["bytes"], r.figures.get("parse_s", 0.0), r.figures.get("command_s", r.seconds))
            for r in results
            if "bytes" in r.figures and r.figures.get("parsed", 1.0)
        )
        if len(sized) >= 4:
            quarter = len(sized) // 4

            def per_mb(rows: list[tuple[float, float, float]]) -> float:
                return sum(t for _, t, _ in rows) / max(1e-9, sum(b for b, _, _ in rows) / 1e6)

            # The parse's seconds per megabyte, the smallest quarter of the records against the largest: about
            # equal when the time is linear (quadratic: it grows with the size).
            figures["parse_s_per_mb_smallest"] = round(per_mb(sized[:quarter]), 3)
            figures["parse_s_per_mb_largest"] = round(per_mb(sized[-quarter:]), 3)
        every = [(r.figures["bytes"], r.figures.get("command_s", r.seconds)) for r in results if "bytes" in r.figures]
        slowest = max(every, key=lambda row: row[1], default=None)
        if slowest is not None:
            figures["slowest_command_s"] = round(slowest[1], 2)
            figures["slowest_bytes"] = int(slowest[0])
    if spec.key == "save-killed":
        figures["tmp_left_by_kills"] = int(sum(r.figures.get("tmp_left", 0) for r in results))
    return figures


#: The figures of a class shown under the table.
FIGURES = (
    "max_rss_mb",
    "parse_s_per_mb_smallest",
    "parse_s_per_mb_largest",
    "slowest_command_s",
    "slowest_bytes",
    "tmp_left_by_kills",
)


def report(results: list[Result], args: argparse.Namespace, seconds: float) -> int:
    rows = []
    print(
        f"{'class':44} {'item':>4} {'cases':>6} {'clean':>6} {'crash or hang':>14} {'lost':>5} {'leaked':>7} "
        f"{'slowest s':>10}"
    )
    for spec in CLASSES:
        mine = [r for r in results if r.case.key == spec.key and not r.case.sound]
        if not mine:
            continue
        row = {"class": spec.name, "key": spec.key, "item": spec.item, **tally(mine), **class_figures(spec, mine)}
        row["failures"] = [f"#{r.case.index}: {r.kind}: {r.detail}" for r in mine if r.kind != "clean"][:5]
        rows.append(row)
        print(
            f"{spec.name:44} {spec.item:>4} {row['cases']:>6} {row['clean']:>6} {row['crash_or_hang']:>14} "
            f"{row['lost']:>5} {row['leaked']:>7} {row['slowest_s']:>10}"
        )
    hostile = [r for r in results if not r.case.sound]
    sound = [r for r in results if r.case.sound]
    total, baseline = tally(hostile), tally(sound)
    print(
        f"{'all hostile cases':44} {'':>4} {total['cases']:>6} {total['clean']:>6} {total['crash_or_hang']:>14} "
        f"{total['lost']:>5} {total['leaked']:>7} {total['slowest_s']:>10}"
    )
    print(
        f"{'baseline (sound inputs, every class)':44} {'':>4} {baseline['cases']:>6} {baseline['clean']:>6} "
        f"{baseline['crash_or_hang']:>14} {baseline['lost']:>5} {baseline['leaked']:>7} {baseline['slowest_s']:>10}"
    )
    notes = []
    for row in rows:
        extra = {k: v for k, v in row.items() if k in FIGURES}
        if extra:
            notes.append(f"  {row['class']}: " + ", ".join(f"{k} {v}" for k, v in extra.items()))
    if notes:
        print("\nfigures:")
        print("\n".join(notes))
    failures = [r for r in results if r.kind != "clean"]
    if failures:
        print("\nnot clean:")
        for r in sorted(failures, key=lambda r: (r.case.key, r.case.sound, r.case.index)):
            which = "sound" if r.case.sound else "hostile"
            print(f"  {r.case.spec.name} ({which} #{r.case.index}, seed {r.case.seed}): {r.kind}: {r.detail}")
    command = "python benchmarks/hostile_runs.py" + (" --quick" if args.quick else f" --per-class {args.per_class}")
    command += f" --seed {args.seed}" + (f" --only {' '.join(args.only)}" if args.only else "")
    print(
        f"\n{total['cases']:,} hostile cases and {baseline['cases']} sound ones in {seconds:.0f} s on "
        f"{args.jobs} processes: {command}"
    )
    sound_failures = [f"{r.case.key} #{r.case.index}: {r.kind}: {r.detail}" for r in sound if r.kind != "clean"]
    print(
        json.dumps(
            {
                "benchmark": "hostile_runs",
                "command": command,
                "seed": args.seed,
                "seconds": round(seconds, 1),
                "jobs": args.jobs,
                **total,
                "baseline": {**baseline, "failures": sound_failures[:10]},
                "classes": rows,
            }
        )
    )
    return 0 if not failures else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--per-class",
        type=int,
        default=50,
        choices=range(1, 10_001),
        metavar="N",
        help="cases of a class of average weight (default 50: about 1,000 in all)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="one or two cases a class: a smoke run under a minute")
    parser.add_argument(
        "--jobs",
        type=int,
        default=2,
        choices=range(1, 65),
        metavar="J",
        help="cases at once (default 2: this machine's cores)",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        default=[],
        choices=sorted(BY_KEY),
        metavar="KEY",
        help=f"only these classes: {', '.join(BY_KEY)}",
    )
    parser.add_argument("--verbose", action="store_true", help="every case's outcome on stderr as it ends")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        return worker_main(args.worker)
    if args.quick:
        args.per_class = 1
    run_dir = Path(tempfile.mkdtemp(prefix="nashplay-hostile-"))
    (run_dir / "cases").mkdir()
    try:
        cases = plan(args.per_class, args.seed, args.quick, args.only)
        print(f"{len(cases)} cases on {args.jobs} processes (run folder {run_dir})", file=sys.stderr, flush=True)
        start = time.monotonic()
        results = dispatch(cases, args.jobs, run_env(run_dir), run_dir, args.verbose)
        return report(results, args, time.monotonic() - start)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
