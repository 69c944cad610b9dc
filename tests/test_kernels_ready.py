"""The solvers' kernels compiled before a large solve, said while they compile (``solvers.kernels_ready``).

A new user's TCG n = 200 sat at 3% and Footstep (50, 4) showed no percentage while the kernels compiled (about 3 and
6 s the first time on a machine). These tests stand in for the compilation (seconds of processor time) with a
warm-up that waits until the share has been told: what is checked is what is told, the marker and the words."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from solvers import footstep, kernels_ready, matrix
from solvers import tcg as solvers_tcg
from tui.screens import footstep as footstep_screen
from tui.screens import tcg as tcg_screen
from tui.screens.solving import COMPILING


@pytest.fixture
def empty_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setattr(kernels_ready, "TELL_EVERY", 0.01)
    return tmp_path / "numba"


def slow_warm_up(told: threading.Event, calls: list[str], name: str) -> object:
    def warm_up() -> None:
        calls.append(name)
        assert told.wait(60), "nothing was told while compiling"

    return warm_up


def test_make_ready_tells_a_moving_share_then_leaves_a_marker(
    monkeypatch: pytest.MonkeyPatch, empty_cache: Path
) -> None:
    shares: list[float] = []
    told = threading.Event()
    calls: list[str] = []
    monkeypatch.setattr(matrix, "warm_up", slow_warm_up(told, calls, "matrix"))
    monkeypatch.setattr(footstep, "warm_up", slow_warm_up(told, calls, "footstep"))

    def progress(share: float, seconds: float) -> None:
        shares.append(share)
        if len(shares) >= 3:
            told.set()

    assert not kernels_ready.is_ready("footstep")
    assert kernels_ready.make_ready("footstep", footstep.warm_up_with_matrix, progress)
    assert calls == ["matrix", "footstep"]
    assert shares == sorted(shares) and 0 < shares[-1] <= kernels_ready.MOST
    assert kernels_ready.is_ready("footstep") and not kernels_ready.is_ready("matrix")
    assert not kernels_ready.make_ready("footstep", footstep.warm_up_with_matrix, progress)  # compiled: nothing told
    assert calls == ["matrix", "footstep"]
    with pytest.raises(ValueError, match="no kernels called"):
        kernels_ready.make_ready("tcg", matrix.warm_up)


def test_the_screens_say_they_compile_the_solver_before_a_large_solve(
    monkeypatch: pytest.MonkeyPatch, empty_cache: Path
) -> None:
    """TCG n = 200 and Footstep (50, 4) from an empty cache: the first reports say the solver compiles, with a share
    and the time left, before the solve's own."""
    reports: list[tuple[object, ...]] = []

    def compiled(kernels: str, warm_up: object, progress: object) -> bool:
        progress(0.5, 1.5)  # type: ignore[operator]
        return True

    def stop(*args: object, **kwargs: object) -> object:
        raise RuntimeError("stop")  # where the solve itself would begin

    # The solvers make their kernels ready when they build a table (not when they read one, nor for a small game).
    monkeypatch.setattr(solvers_tcg, "make_ready", compiled)
    monkeypatch.setattr(footstep, "make_ready", compiled)
    monkeypatch.setattr(solvers_tcg.TcgSolution, "compute", stop)
    monkeypatch.setattr(footstep.FootstepSolution, "compute", stop)
    monkeypatch.setattr(solvers_tcg, "_SOLVED", {})
    monkeypatch.setattr(footstep, "_SOLVED", {})
    with pytest.raises(RuntimeError, match="stop"):
        tcg_screen._solved_game(200, lambda *report: reports.append(report))
    with pytest.raises(RuntimeError, match="stop"):
        footstep_screen._solved_game(50, 4, lambda *report: reports.append(report))
    assert reports == [
        (500, 1000, "Solving n = 200: compiling the solver once, 50%, about 2 s left", COMPILING),
        (
            500,
            1000,
            "Solving Footstep(50, 4): compiling the solver once, 50%, about 2 s left",
            COMPILING,
        ),
    ]
    reports.clear()
    with pytest.raises(RuntimeError, match="stop"):
        tcg_screen._solved_game(20, lambda *report: reports.append(report))  # small: numpy, nothing compiles
    assert reports == []


def test_the_solve_commands_compile_the_solver_first_and_say_so(
    monkeypatch: pytest.MonkeyPatch, empty_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`solve footstep` from an empty cache waited seconds saying nothing, then 'level 90/101': now its status line
    says the solver compiles, then the share of the solve done with the time left."""
    from tui.cli import common
    from tui.cli.solve import footstep as footstep_command

    asked: list[str] = []

    def compiled(kernels: str, warm_up: object, progress: object) -> bool:
        asked.append(kernels)
        progress(0.5, 1.5)  # type: ignore[operator]
        return True

    def solve(n: int, k: int, progress: object) -> object:
        progress(100, 101)  # type: ignore[operator]
        raise RuntimeError("stop")  # where the table would be written

    monkeypatch.setattr(footstep, "make_ready", compiled)
    monkeypatch.setattr(footstep.FootstepSolution, "compute", solve)
    monkeypatch.setattr(common.StatusLine, "__init__", lambda self, delay=0.0, width=110: _live(self))
    with pytest.raises(RuntimeError, match="stop"):
        footstep_command.load_with_progress(50, 4, True, False)
    said = capsys.readouterr().err
    assert asked == ["footstep"]
    assert "compiling the solver once (the first time on this machine): 50%, about 2 s left" in said
    assert "solving Footstep(50, 4): 100%" in said
    assert common.compiling_text(0.0, 0.1) == "compiling the solver once (the first time on this machine): 0%"


def _live(line: object) -> None:
    """A status line written whatever stderr is (the test's is not a terminal) and at once."""
    import time

    line.live, line.delay, line.width, line.started, line.shown = True, 0.0, 200, time.monotonic(), 0  # type: ignore[attr-defined]
