"""Dependencies point one way: ``tui`` -> ``solvers`` -> ``core`` (``spec/conventions.md``, "Shape of the code").

``core`` imports neither the UI (``textual``, ``rich``), nor ``solvers``/``tui``, nor the numeric stack; ``solvers``
imports no UI. Checked twice: by importing in a fresh interpreter and looking at ``sys.modules``, and statically
over the source, so that an import hidden inside a function is caught too.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

UI = ("textual", "rich")
FORBIDDEN = {
    "core": {*UI, "numpy", "scipy", "solvers", "tui"},
    "solvers": {*UI, "tui"},
}


def package_modules(package: str) -> list[str]:
    """Every module of ``package`` (its ``__init__`` and each ``.py`` below it), as dotted names."""
    base = ROOT / package
    if not (base / "__init__.py").exists():
        return []
    names = []
    for path in sorted(base.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if "__pycache__" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts[-1] == "__main__":
            continue  # running it is not importing it
        names.append(".".join(parts))
    return names


def import_in_subprocess(modules: list[str]) -> set[str]:
    """Import ``modules`` in a fresh interpreter; return the top-level names then in ``sys.modules``."""
    script = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, f"importing {modules} failed:\n{done.stderr}"
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_packages_are_found() -> None:
    core = package_modules("core")
    assert {"core", "core.game", "core.errors", "core.notation", "core.geister", "core.record"} <= set(core)


def test_importing_core_loads_no_ui_and_no_upper_layer() -> None:
    loaded = import_in_subprocess(package_modules("core"))
    assert "core" in loaded
    assert not loaded & {*UI, "solvers", "tui"}, sorted(loaded & {*UI, "solvers", "tui"})


def test_importing_solvers_loads_no_ui() -> None:
    modules = package_modules("solvers")
    if not modules:
        pytest.skip("there is no solvers package yet")
    loaded = import_in_subprocess(modules)
    assert "solvers" in loaded
    assert not loaded & {*UI, "tui"}, sorted(loaded & {*UI, "tui"})


def imported_roots(path: Path) -> set[str]:
    """Top-level names of every absolute import in the file, wherever it stands (functions, ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            roots.add(node.args[0].value.split(".")[0])
    return roots


def test_imported_roots_sees_every_kind_of_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os.path\n"
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "if TYPE_CHECKING:\n"
        "    from rich.text import Text\n"
        "def f():\n"
        "    import numpy as np\n"
        "    importlib.import_module('textual.app')\n"
        "    return __import__('scipy')\n",
        encoding="utf-8",
    )
    assert imported_roots(sample) == {"os", "typing", "rich", "numpy", "textual", "scipy"}


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_forbidden_import_in_the_source(package: str) -> None:
    files = sorted(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)
    if package == "core":
        assert files, "core/ has no Python files"
    offences = {
        str(path.relative_to(ROOT)): sorted(imported_roots(path) & FORBIDDEN[package])
        for path in files
        if imported_roots(path) & FORBIDDEN[package]
    }
    assert offences == {}


def test_the_subprocess_check_does_see_ui_imports() -> None:
    pytest.importorskip("rich")
    assert "rich" in import_in_subprocess(["rich.text"])


def test_start_up_does_not_load_the_heavy_solvers() -> None:
    """Opening the app or parsing the command line must not import scipy (about half a second on this machine
    class): the TCG and Nim screens and the solve commands load it when first used."""
    loaded = import_in_subprocess(["tui.app", "tui.cli"])
    assert "scipy" not in loaded
    assert "numpy" not in loaded
