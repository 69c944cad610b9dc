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
from waiting import HANG_SECONDS

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
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        check=False,
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
    assert "numba" not in loaded


# ------------------------------------------------------------------------------------------------ the import graph


def module_files() -> dict[str, Path]:
    """Every module of the three layers by dotted name (a package by its ``__init__``)."""
    files = {}
    for package in ("core", "solvers", "tui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "__pycache__" in parts:
                continue
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def import_graph(files: dict[str, Path]) -> dict[str, set[str]]:
    """Which of our modules each module imports, wherever the import stands (functions, ``if TYPE_CHECKING``).

    ``from package import name`` is an edge to the submodule ``package.name`` when there is one (the package's
    ``__init__`` runs first for any submodule import, as it must; that is not a dependency of the importer)."""

    def ours(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                targets.update(filter(None, (ours(alias.name) for alias in node.names)))
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    target = full if full in files else ours(node.module)
                    if target:
                        targets.add(target)
        targets.discard(module)
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles (strongly connected components of more than one module), by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_there_is_no_import_cycle() -> None:
    graph = import_graph(module_files())
    assert len(graph) > 60
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


#: tui's floors, lowest first: a module imports tui modules of its own floor or below, never above. Screens sit on
#: one floor but never import each other (only the shared screen bases): the App navigates.
TUI_FLOORS: tuple[tuple[str, ...], ...] = (
    ("tui", "tui.theme", "tui.plot", "tui.storage", "tui.saves", "tui.opponents", "tui.arguments", "tui.help"),
    ("tui.config",),
    ("tui.games",),
    ("tui.search_process", "tui.session", "tui.local_session", "tui.contest_events", "tui.net"),
    ("tui.messages",),
    ("tui.widgets",),
    ("tui.screens",),
    ("tui.app",),
    ("tui.cli",),
    ("tui.__main__",),
)
#: What screens share (their bases, and the background-solve helper), which any screen may import.
SCREEN_BASES = {
    "tui.screens",
    "tui.screens.base",
    "tui.screens.board_screen",
    "tui.screens.solving",
    "tui.screens.game_over",  # every game's end
    "tui.screens.ask_path",  # the small dialogs (a yes-or-no before resigning) every game's screen may ask
    "tui.screens.hand_over",  # the hot seat's cover between turns
}


def floor_of(module: str) -> int:
    best = None
    for number, members in enumerate(TUI_FLOORS):
        for member in members:
            if (module == member or module.startswith(member + ".")) and (best is None or len(member) > best[1]):
                best = (number, len(member))
    assert best is not None, f"{module} is on no floor of TUI_FLOORS: give it one"
    return best[0]


def test_tui_imports_go_down_its_floors() -> None:
    graph = import_graph(module_files())
    upward = {
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module.startswith("tui")
        for target in targets
        if target.startswith("tui") and floor_of(target) > floor_of(module)
    }
    assert upward == set()


def test_no_screen_imports_another_screen() -> None:
    graph = import_graph(module_files())
    screens = {m for m in graph if m.startswith("tui.screens.") and m not in SCREEN_BASES}
    offences = {
        f"{m} -> {t}" for m in screens for t in graph[m] if t.startswith("tui.screens") and t not in SCREEN_BASES
    }
    assert offences == set()


def test_the_floor_test_would_see_a_screen_importing_the_app() -> None:
    # The app imports the screens; a screen that imported the app would be one floor up and one cycle in.
    assert floor_of("tui.app") > floor_of("tui.screens.menu") > floor_of("tui.widgets.board") > floor_of("tui.games")
    assert cycles({"tui.app": {"tui.screens.menu"}, "tui.screens.menu": {"tui.app"}}) == [
        ["tui.app", "tui.screens.menu"]
    ]
