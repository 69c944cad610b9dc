"""The solvers' compiled kernels made ready before a solve that needs them, with a share that moves while they compile.

TCG's large solves (the batched stage games, ``solvers.matrix``) and Footstep's (its levels, ``solvers.footstep``)
run numba kernels that are compiled the first time they are used on a machine: 2.7 s and 3.5 s on 2 cores, which a
new user saw as a progress bar stuck at 3% (TCG n = 200) or with no percentage at all (Footstep (50, 4)), in solves
that take 1.3 s and 0.3 s once compiled. ``make_ready`` compiles them first, telling a share of the compilation by the
time it has taken against the time it takes (a compilation says nothing until it ends), and leaves a marker in the
compiled-code cache so that the next solve only loads them. The marker is keyed on the kernels' sources, as numba's
own cache is.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from collections.abc import Callable
from pathlib import Path

from solvers.cache_folder import numba_cache_dir

#: Each set of kernels: the sources it is compiled from, and the seconds it takes to compile from an empty cache on
#: 2 cores (measured with another process busy: 2.7 s for the matrix games' kernels, 3.5 s more for Footstep's).
KERNEL_SETS: dict[str, tuple[tuple[str, ...], float]] = {
    "matrix": (("matrix.py",), 2.7),
    "footstep": (("matrix.py", "footstep.py"), 6.2),
}
#: Told while kernels compile: the share compiled (by the time taken against the time it takes) and the seconds so far.
Compiling = Callable[[float, float], None]
#: How often the share is told while the kernels compile.
TELL_EVERY = 0.25
#: The share told never passes this before the compilation ends (the time it takes is an estimate).
MOST = 0.95


def time_left_words(share: float, seconds: float) -> str:
    """ ", about N s left" from the share compiled and the seconds it took (nothing before any share)."""
    return f", about {max(1, round(seconds * (1 - share) / share))} s left" if share > 0 else ""


def _marker(kernels: str) -> Path:
    sources, _ = KERNEL_SETS[kernels]
    sha = hashlib.sha256()
    for name in sources:
        with contextlib.suppress(OSError):
            sha.update((Path(__file__).resolve().parent / name).read_bytes())
    return numba_cache_dir() / f"{kernels}-kernels-compiled-{sha.hexdigest()[:16]}"


def is_ready(kernels: str) -> bool:
    """Whether ``kernels`` ("matrix" or "footstep") are compiled and cached on this machine."""
    return _marker(kernels).exists()


def make_ready(kernels: str, warm_up: Callable[[], object], progress: Compiling | None = None) -> bool:
    """Compile ``kernels`` now by calling ``warm_up`` (the solver's own, which compiles or loads them) if they are
    not cached yet, telling ``progress(share, seconds so far)`` every ``TELL_EVERY`` seconds meanwhile; whether there
    was anything to compile. The solvers pass their warm-up: this module imports none of them (they import it)."""
    if kernels not in KERNEL_SETS:
        raise ValueError(f"no kernels called {kernels!r}: one of {', '.join(KERNEL_SETS)}")
    if is_ready(kernels):
        return False
    _, expected = KERNEL_SETS[kernels]
    started = time.monotonic()
    done = threading.Event()

    def tell() -> None:
        while not done.wait(TELL_EVERY):
            elapsed = time.monotonic() - started
            if progress is not None:
                progress(min(MOST, elapsed / expected), elapsed)

    teller = threading.Thread(target=tell, name=f"{kernels}-kernels-compiling", daemon=True)
    teller.start()
    try:
        warm_up()
    finally:
        done.set()
        teller.join()
    with contextlib.suppress(OSError):  # a cache that cannot take the marker compiles (or loads) again next time
        _marker(kernels).parent.mkdir(parents=True, exist_ok=True)
        _marker(kernels).write_text("compiled\n")
    return True
