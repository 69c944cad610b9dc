"""Helpers for the command-line tests: a command refused as every command refuses, and a tripwire for the work a
refused command must never reach."""

from __future__ import annotations

from typing import Any

import pytest

from tui.cli import main


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``nashplay argv`` (the whole command line, the command's name first) and return its error line: exit code
    2, nothing on stdout, one short line on stderr (ending with its newline), no traceback."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "", out[:500]
    assert err.count("\n") == 1 and err.endswith("\n") and len(err) < 400, err[:500]
    assert "Traceback" not in err, err[:500]
    return err


def not_called(*args: Any, **kwargs: Any) -> Any:
    """Stands in for the work (the app, a solver, a learner, a match) that a refused command must not start."""
    raise AssertionError("the command went ahead: it should have stopped before this")
