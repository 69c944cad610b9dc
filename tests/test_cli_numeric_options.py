"""The commands' numeric options, fuzzed (issue 15): every numeric option of play, solve, learn and arena given NaN,
infinities, negative numbers, huge numbers, thousands of digits, empty text and non-numbers must end with exit code
2 and one short line on stderr, without a traceback and before anything heavy starts (the solvers, the learners,
the arena and the app are replaced by a tripwire here, so a value that slipped through fails instead of running).

``connect`` is left out: its options belong to the contest client's own work.

Run as a script for the table the issue's closing note quotes (class, cases, outcomes):
``.venv/bin/python tests/test_cli_numeric_options.py``.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # as a script, from any folder

import tui.cli
from tui.cli import main

#: Bad values by class; each is tried in every numeric option below.
CLASSES: dict[str, tuple[str, ...]] = {
    "nan": ("nan", "NaN", "-nan", "+nan"),
    "inf": ("inf", "-inf", "Infinity", "1e999"),
    "negative": ("-1", "-0.5", "-99999999999", "-1e3"),
    # Beyond every bound, seeds' 2**63 included.
    "huge": ("1e12", "100000000000000000000", "99999999999999999999", "1e308"),
    "many digits": ("9" * 5000, "1" + "0" * 4400, "-" + "9" * 5000, "9" * 5000 + ".5"),
    "empty": ("", " ", "\t"),
    "non-number": ("abc", "0x10", "\u00bd", "12abc", "1.5.2", "\U0001f642", "one"),
}

#: Every numeric option: the command before it, the option, and how the value is written into it (X).
OPTIONS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    *((("learn", "footstep"), option, "X") for option in ("--games", "--runs", "--seed", "--n", "--k", "--c")),
    *((("learn", "footstep"), option, "X") for option in ("--block", "--width", "--height")),
    (("solve", "tcg"), "--n", "X"),
    (("solve", "footstep"), "--n", "X"),
    (("solve", "footstep"), "--k", "X"),
    (("solve", "footstep"), "--state", "X,1,0"),
    (("solve", "nim"), "--heaps", "X"),
    (("solve", "nim"), "--heaps", "3,X,5"),
    (("solve", "grundy", "--subtraction", "1,2"), "--upto", "X"),
    (("solve", "grundy"), "--subtraction", "1,X"),
    *((("arena", "geister", "--players", "random,chototsu"), option, "X") for option in ("--games", "--time")),
    *((("arena", "geister", "--players", "random,chototsu"), option, "X") for option in ("--playouts", "--workers")),
    (("arena", "geister", "--players", "random,chototsu"), "--seed", "X"),
    (("arena", "tcg", "--players", "random,equilibrium"), "--n", "X"),
    (("arena", "footstep", "--players", "random,equilibrium"), "--k", "X"),
    (("arena", "nim", "--players", "random,perfect"), "--heaps", "X"),
    (("play", "tcg"), "--n", "X"),
    (("play", "tcg", "--advisor"), "--n", "X"),
    (("play", "tcg"), "--seed", "X"),
    (("play", "footstep"), "--n", "X"),
    (("play", "footstep"), "--k", "X"),
    (("play", "footstep"), "--seed", "X"),
    (("play", "geister"), "--time", "X"),
    (("play", "mini-geister"), "--seed", "X"),
    (("play", "nim"), "--heaps", "X"),
)

#: What a refused value must never reach: each is replaced by a tripwire.
HEAVY = (
    "tui.cli.play.open_app",
    "tui.cli.tcg_prompt.run",
    "tui.cli.learn.load_with_progress",
    "tui.cli.solve.footstep.load_with_progress",
    "solvers.footstep_learning.learn",
    "solvers.tcg.TcgSolution.load",
    "solvers.arena.run_match",
    "solvers.grundy.analyse",
    "solvers.grundy.grundy_sequence",
)


class AcceptedError(Exception):
    """A bad value went through to the work it should have stopped."""


def tripwire(*args: Any, **kwargs: Any) -> Any:
    raise AcceptedError


@dataclass(frozen=True)
class Case:
    kind: str
    argv: tuple[str, ...]

    @property
    def label(self) -> str:
        text = " ".join(self.argv)
        return text if len(text) <= 90 else f"{text[:90]}... ({len(text):,} characters)"


def cases(kind: str | None = None) -> Iterator[Case]:
    for name, values in CLASSES.items():
        if kind is not None and name != kind:
            continue
        for value in values:
            for command, option, template in OPTIONS:
                # "--opt=value": a value starting with '-' is the option's, never taken for another option.
                yield Case(name, (*command, f"{option}={template.replace('X', value)}"))


@contextlib.contextmanager
def tripwires() -> Iterator[None]:
    """The heavy work replaced by tripwires; and the command's parser built once for all the cases, not once a case
    (building it is nearly all of a refusal's time: over a thousand cases took seconds). A parser keeps nothing of
    what it parsed, so each case meets the parser a fresh ``nashplay`` would build."""
    parser = tui.cli.build_parser()
    with contextlib.ExitStack() as stack:
        for target in HEAVY:
            stack.enter_context(mock.patch(target, tripwire))
        stack.enter_context(mock.patch.object(tui.cli, "build_parser", return_value=parser))
        yield


def outcome(case: Case) -> tuple[str, str]:
    """What the command did with the case: ``("refused", line)`` is the one right answer."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            main(list(case.argv))
    except SystemExit as exit_info:
        text = err.getvalue()
        if exit_info.code != 2:
            return f"exit code {exit_info.code}", text
        if text.count("\n") != 1 or not text.endswith("\n") or len(text) > 400:
            return "not one short line", text
        if "Traceback" in text:
            return "traceback", text
        return "refused", text
    except AcceptedError:
        return "accepted", err.getvalue()
    except Exception as error:  # what the fuzz is for: any exception is a finding
        return f"crashed: {type(error).__name__}", str(error)[:200]
    return "accepted", err.getvalue()


@pytest.mark.parametrize("kind", list(CLASSES))
def test_bad_numbers_are_refused_in_one_line(kind: str) -> None:
    with tripwires():
        failures = [(case.label, *outcome(case)) for case in cases(kind)]
    wrong = [failure for failure in failures if failure[1] != "refused"]
    assert not wrong, wrong[:5]
    assert len(failures) == len(CLASSES[kind]) * len(OPTIONS)


def table() -> str:
    """The classes tried, with counts, and what became of them (a Markdown table)."""
    rows = ["| class | cases | refused: exit 2, one line | anything else |", "|---|---:|---:|---|"]
    totals: Counter[str] = Counter()
    with tripwires():
        for kind in CLASSES:
            seen = Counter(outcome(case)[0] for case in cases(kind))
            totals.update(seen)
            others = ", ".join(f"{name} {count}" for name, count in sorted(seen.items()) if name != "refused")
            rows.append(f"| {kind} | {sum(seen.values())} | {seen['refused']} | {others or 'none'} |")
    others = ", ".join(f"{name} {count}" for name, count in sorted(totals.items()) if name != "refused")
    rows.append(f"| **all** | {sum(totals.values())} | {totals['refused']} | {others or 'none'} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(
        f"{len(OPTIONS)} numeric options of play, solve, learn and arena; values per class: "
        + ", ".join(f"{kind} {len(values)}" for kind, values in CLASSES.items())
    )
    print(table())
