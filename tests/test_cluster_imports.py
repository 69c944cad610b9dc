"""Ray is the ``cluster`` extra's: only ``solvers/cluster.py`` imports it, and a match without ``--cluster`` (the
local process pool) never loads it (issue 31). Beside ``test_import_hygiene.py``, with its helpers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from test_import_hygiene import ROOT, import_in_subprocess, imported_roots
from waiting import HANG_SECONDS


def test_only_the_cluster_module_imports_ray() -> None:
    importers = sorted(
        str(path.relative_to(ROOT))
        for package in ("core", "solvers", "tui")
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts and "ray" in imported_roots(path)
    )
    assert importers == ["solvers/cluster.py"]


def test_the_commands_and_the_arena_load_no_ray() -> None:
    loaded = import_in_subprocess(["tui.cli", "tui.cli.arena", "tui.cli.ladder", "solvers.arena", "solvers.sprt"])
    assert "ray" not in loaded


def test_a_local_match_with_its_test_and_store_loads_no_ray(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from tui.cli import main\n"
        "status = main(['arena', 'geister', '--players', 'chototsu,random', '--games', '4', '--workers', '1', "
        "'--sprt', '0,400', '--json'])\n"
        "main(['ladder', '--json'])\n"
        "print('RAY' if 'ray' in sys.modules else 'NO RAY', status)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), NASHPLAY_STATE_DIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=HANG_SECONDS
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "NO RAY 0"
