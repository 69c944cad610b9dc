"""``nashplay solve`` of Nim, Grundy sequences and the Twice Clap Game (issue 15): every number has a bound, checked
before any solving starts, and the refusal is one short line (exit code 2); what a solve reports says one in the
singular. ``solve footstep`` is in ``test_footstep_cli.py``."""

from __future__ import annotations

from typing import Any

import pytest
from cli_helpers import not_called, refused

from tui.cli import main

BOMB = "9" * 5000


def test_solve_nim_refuses_digit_bombs_and_too_many_heaps(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("solvers.grundy.analyse", not_called)
    err = refused(["solve", "nim", "--heaps", BOMB], capsys)
    assert "at most 9 digits" in err and "5,000 characters" in err
    assert "at most 100 heaps" in refused(["solve", "nim", "--heaps", ",".join(["3"] * 101)], capsys)
    assert "at most 100,000 stones" in refused(["solve", "nim", "--heaps", "100001"], capsys)
    # A game that splits heaps is bounded by the work of its Grundy sequence, not only by the heap size.
    assert "splits heaps" in refused(["solve", "nim", "--heaps", "60000", "--octal", "0.6"], capsys)


def test_solve_nim_with_forty_large_heaps_lists_no_moves_of_the_whole_position(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """40 heaps of 100,000 took 51 s and 2.46 GB: every one of their 4 million moves was checked against every
    heap, and the longest-line search built all 4 million children before counting them."""
    import core.impartial
    import solvers.grundy

    generated = 0
    real_heaps_after = core.impartial.heaps_after

    def counting(heaps: Any, move: Any) -> Any:
        nonlocal generated
        generated += 1
        return real_heaps_after(heaps, move)

    monkeypatch.setattr(solvers.grundy, "heaps_after", counting)
    heaps = ",".join(["100000"] * 40)
    assert main(["solve", "nim", "--heaps", heaps]) == 0
    out = capsys.readouterr().out
    assert "every move loses" in out and "1:1 (heap 1: take 1)" in out
    assert generated <= solvers.grundy.LONGEST_LINE_LIMIT + 1
    generated = 0
    assert main(["solve", "nim", "--heaps", "99999," + heaps, "--misere", "--json"]) == 0
    assert generated == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--subtraction", ""], "not a subtraction set"),  # used to mean plain Nim, silently
        (["--subtraction", " , "], "not a subtraction set"),
        (["--subtraction", "1,99999999"], "at most 10,000"),  # the period search ran for minutes
        (["--subtraction", "1," + BOMB], "at most 9 digits"),
        (["--subtraction", "1,x"], "not a subtraction set"),
        (["--rule", "{1,99999999}"], "at most 10,000"),
        (["--octal", ""], "not an octal game code"),
        (["--octal", "0." + "7" * 200], "at most 100 digits"),
        (["--subtraction", "1,2", "--upto", "10000001"], "0..10,000,000"),
        (["--subtraction", "1,2", "--upto", "-1"], "0..10,000,000"),
        (["--subtraction", "1,2", "--upto", "nan"], "whole number"),
        (["--octal", "0.6", "--upto", "50001"], "splits heaps at 1 take"),
        (["--octal", "0.66", "--upto", "40000"], "0..35,355 for a game that splits heaps at 2 takes"),
    ],
)
def test_solve_grundy_refuses_runaway_rules_and_lengths(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("solvers.grundy.grundy_sequence", not_called)
    assert message in refused(["solve", "grundy", *argv], capsys)


def test_solve_grundy_stops_when_no_period_shows_within_its_budget(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--upto 10000000 of a game whose period is not proven soon computed every value one by one (minutes)."""
    monkeypatch.setattr("tui.cli.solve.nim.MAX_COMPUTED", 1000)
    err = refused(["solve", "grundy", "--subtraction", "1,5000", "--upto", "10000000"], capsys)
    assert "no period" in err and "first 1,000 values" in err
    # A period proven within the budget still reaches any length.
    assert main(["solve", "grundy", "--subtraction", "1,2", "--upto", "10000000"]) == 0
    assert "G(n + 3) = G(n)" in capsys.readouterr().out


def test_solve_tcg_bounds_n(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("solvers.tcg.TcgSolution.load", not_called)
    assert "1..200" in refused(["solve", "tcg", "--n", "1000"], capsys)  # printed nothing in 600 s
    assert "1..200" in refused(["solve", "tcg", "--n", "0"], capsys)
    assert "5,000 characters" in refused(["solve", "tcg", "--n", BOMB], capsys)
    assert "1..200" in refused(["play", "tcg", "--advisor", "--n", "1000"], capsys)


def test_one_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "footstep", "--n", "3", "--k", "5"]) == 0
    assert "in 1 HiGHS call;" in capsys.readouterr().out
    assert main(["solve", "nim", "--heaps", "1", "--misere"]) == 0
    assert "lasts 1 more move," in capsys.readouterr().out
    assert main(["replay", "--solved", "mini-geister", "--position", "U1u1/4/4/u2U 1", "--list"]) == 0
    assert ": 1 ply from U1u1/4/4/u2U 1" in capsys.readouterr().out
