"""The search engine compiled ahead, in the background, the first time the app runs on a machine.

Compiling the Geister engine takes about 6-9 s on 2 cores (``solvers.geister_engine.compiled_cache``); a user who
opens a Geister game and asks for advice at once used to wait for all of it after pressing ``a``. So when the app
starts and the engine of this installation is not compiled yet, it starts a process that compiles it into the cache,
whatever the user goes on to do: by the time they have read the menu and chosen a game it is done, and the advice's
process, which waits for that compilation rather than repeating it, only loads the result. The advice panel reads the
compilation's progress meanwhile. The process ends with the app (what it compiled so far stays cached, function by
function).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys

from solvers.geister_engine import compiled_cache

#: What the background process runs: the search's warm-up, which compiles the search with what it calls, tells its
#: progress and marks the cache compiled; then the playouts' kernels, which the other AIs use. At the app's own
#: priority: it takes one core, and the advice's process, which used to compile at that priority itself, waits for it
#: (a lowered priority made that wait longer whenever anything else ran: 11.6 s instead of 5-7 s, measured by
#: benchmarks/first_advice_cold.py); the app, on the other core, answers keys as fast as beside a search
#: (benchmarks/key_latency.py).
COMPILE_CODE = "from solvers.geister_engine import kernel, search\nsearch.warm_up()\nkernel.warm_up()\n"


def start_compiling() -> subprocess.Popen[bytes] | None:
    """Start compiling the engine in the background if it is not compiled yet; the process, or ``None`` when
    there is nothing to do (compiled already) or it could not start (the first search will compile, as before)."""
    if compiled_cache.is_compiled():
        return None
    try:
        return subprocess.Popen(
            [sys.executable, "-c", COMPILE_CODE],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None


def stop_compiling(process: subprocess.Popen[bytes] | None) -> None:
    """End the background compilation with the app (what it cached so far is kept for the next start)."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(OSError):
        process.terminate()
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            process.kill()
        process.wait()
