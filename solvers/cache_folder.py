"""Where nashplay caches what it computes (solved tables, compiled code): a module of its own so that the app can
ask at start-up without importing numpy (``solvers.cache`` needs it)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """``$NASHPLAY_CACHE_DIR``, else ``$XDG_CACHE_HOME/nashplay``, else ``~/.cache/nashplay``."""
    override = os.environ.get("NASHPLAY_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nashplay"


def numba_cache_dir() -> Path:
    """Where numba caches nashplay's compiled kernels: ``$NUMBA_CACHE_DIR``, else ``<cache dir>/numba``."""
    return Path(os.environ.get("NUMBA_CACHE_DIR") or str(cache_dir() / "numba"))
