"""Numbers that run away (issue 15): every numeric option of every command has a bound, and NaN, infinities,
negative numbers, huge numbers and thousands of digits are refused with one line on stderr (exit code 2), before
anything is allocated or played. Ctrl-C during a long solve ends it with one line and exit code 130."""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from interrupt import interrupt_when

import tui.cli
from tui.cli import main

BOMB = "9" * 5000
VENV_BIN = Path(sys.executable).parent


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``nashplay argv`` and return its error line: exit code 2, one short line on stderr, no traceback."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n"), err[:500]
    assert "Traceback" not in err and len(err) < 400, err[:500]
    return err


def not_called(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the command went ahead with a value it should have refused")


# --------------------------------------------------------------------------------------------------- learn footstep


@pytest.mark.parametrize(
    ("option", "value", "bound"),
    [
        ("--height", "100000000", "3..200"),  # was a 3.6 GB grid, then MemoryError
        ("--width", "1000000000", "10..500"),  # the same, across
        ("--width", "1e9", "10..500"),  # was refused, but with argparse's usage block
        ("--runs", "100000", "1..1,000"),  # asked numpy for 6.9 GiB
        ("--games", "1e12", "1..100,000"),
        ("--games", "1000000000000", "1..100,000"),  # asked numpy for 7.3 TiB
        ("--block", "0", "1..100,000"),
        ("--seed", "-1", "0 or more"),  # crashed in numpy's SeedSequence
        ("--n", "150", "1..100"),
        ("--k", "11", "1..10"),
        ("--c", "nan", "[0, 1)"),
        ("--c", "1", "[0, 1)"),
    ],
)
def test_learn_refuses_numbers_out_of_bounds(
    option: str, value: str, bound: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("solvers.footstep_learning.learn", not_called)
    err = refused(["learn", "footstep", option, value], capsys)
    assert err.startswith(f"nashplay learn: error: {option}") and bound in err


def test_learn_refuses_an_empty_rule(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("solvers.footstep_learning.learn", not_called)
    assert "--rule names no rule" in refused(["learn", "footstep", "--rule", ""], capsys)
    assert "--rule names no rule" in refused(["learn", "footstep", "--rule", " , "], capsys)
    err = refused(["learn", "footstep", "--rule", "x" * 5000], capsys)
    assert "unknown rule" in err and "5,000 characters" in err


def test_learn_bounds_games_times_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("solvers.footstep_learning.learn", not_called)
    err = refused(["learn", "footstep", "--games", "100000", "--runs", "20"], capsys)
    assert "--games times --runs must be at most 1,000,000" in err


def test_learning_tables_are_bounded_before_they_are_allocated() -> None:
    from solvers.footstep_learning import MAX_TABLE_BYTES, LearningConfig, table_bytes

    with pytest.raises(ValueError, match="GiB"):
        LearningConfig(n=100, k=3, runs=1000)  # 8.2 GB of bid tables
    with pytest.raises(ValueError, match="GiB"):
        LearningConfig(n=100, k=10, runs=20, marker=True)
    with pytest.raises(ValueError, match="seed"):
        LearningConfig(seed=-1)
    assert table_bytes(20, 3, 20, False) < MAX_TABLE_BYTES  # the defaults: 1.5 MB
    assert table_bytes(20, 3, 1000, False) < MAX_TABLE_BYTES


# --------------------------------------------------------------------------------------------------- solve


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


def test_solve_footstep_bounds_n_k_and_state(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.cli.solve.footstep.load_with_progress", not_called)
    assert "1..100" in refused(["solve", "footstep", "--n", "200"], capsys)  # ran past 5 minutes
    assert "1..10" in refused(["solve", "footstep", "--k", "20"], capsys)
    err = refused(["solve", "footstep", "--state", BOMB + ",1,0"], capsys)
    assert "out of range" in err and "5,000 characters" in err
    assert "out of range" in refused(["solve", "footstep", "--state", "1,1," + BOMB], capsys)


# --------------------------------------------------------------------------------------------------- arena, play


def test_arena_refuses_a_save_folder_it_cannot_write_before_playing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("solvers.arena.run_match", not_called)
    err = refused(["arena", "geister", "--players", "random,random", "--save", "/proc/nope"], capsys)
    assert "--save: cannot write records in '/proc/nope'" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--time", "inf"], "finite number from 0.01 to 60 seconds"),
        (["--time", "nan"], "finite number"),
        (["--time", "0"], "from 0.01 to 60"),
        (["--time", "1e9"], "from 0.01 to 60"),
        (["--playouts", "0"], "1..1,000,000"),
        (["--playouts", BOMB], "5,000 characters"),
        (["--games", "1e12"], "1..100,000"),
        (["--games", "-3"], "1..100,000"),
        (["--workers", "1000"], "1..32"),
        (["--seed", "-1"], "0 or more"),
    ],
)
def test_arena_refuses_numbers_out_of_bounds(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("solvers.arena.run_match", not_called)
    assert message in refused(["arena", "geister", "--players", "random,chototsu", *argv], capsys)


@pytest.mark.parametrize(
    ("game", "argv", "message"),
    [
        ("tcg", ["--n", "1000"], "1..200"),
        ("footstep", ["--n", "150"], "1..100"),
        ("footstep", ["--k", "50"], "1..10"),
        ("nim", ["--heaps", "100000"], "at most 40 stones"),
        ("nim", ["--heaps", BOMB], "at most 9 digits"),
    ],
)
def test_arena_bounds_each_games_own_options(
    game: str, argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("solvers.arena.run_match", not_called)
    assert message in refused(["arena", game, "--players", "random,random", *argv], capsys)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "footstep", "--seed", "-1"],
        ["play", "footstep", "--seed", BOMB],
        ["play", "footstep", "--n", BOMB],
        ["play", "tcg", "--n", "nan"],
        ["play", "geister", "--time", "inf"],
        ["play", "mini-geister", "--time", "nan"],
        ["play", "nim", "--heaps", BOMB],
        ["play", "geister", "--time", "1e9"],
        ["play", "tcg", "--n", "99999999999999999"],
        ["play", "footstep", "--k", "0"],
        ["play", "nim", "--seed", "-1"],
    ],
)
def test_play_refuses_bad_numbers_in_one_short_line(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.cli.play.open_app", not_called)
    err = refused(argv, capsys)
    # The option's own bound, said by the number type (not argparse's "invalid int value").
    assert f"{argv[2]} must be" in err or f"{argv[2]}: expected" in err or argv[2] == "--heaps", err


def test_argument_errors_are_one_line_and_quote_little(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(["list", BOMB], capsys)  # argparse's own message, whatever the input
    assert err.startswith("nashplay: error: unrecognized arguments: 9999") and "(see nashplay --help)" in err
    err = refused(["learn", "footstep", "--n", "x" * 5000], capsys)
    assert "'xxxx" in err and "5,000 characters" in err


# --------------------------------------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_ends_a_command_with_one_line_and_code_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr("solvers.tcg.TcgSolution.load", interrupted)
    monkeypatch.setattr(sys, "argv", ["nashplay", "solve", "tcg", "--n", "200", "--no-cache"])
    assert tui.cli.run() == 130
    assert capsys.readouterr().err == "nashplay: interrupted\n"


def test_sigint_during_a_tcg_solve_exits_130_without_a_traceback() -> None:
    """The real thing: a solve of n = 200 (half a minute) stopped by SIGINT in the middle of solving. Its stderr is
    a terminal, so it shows its progress line once solving has begun: the interrupt is sent only then (an interrupt
    during the imports would be another case), whatever the machine's load."""
    result = interrupt_when(["solve", "tcg", "--n", "200", "--no-cache"], b"solving: sweep")
    assert result.returncode == 130, result.err
    assert "nashplay: interrupted" in result.err and "Traceback" not in result.err
    assert result.out == ""


# --------------------------------------------------------------------------------------------------- positions

DIGIT_BOMB = "99999999999/4/4/4 1"  # a rank of a hundred billion empty squares


@pytest.mark.parametrize("command", ["solve", "replay"])
def test_a_digit_bomb_position_is_refused_in_one_line_at_once(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``solve mini-geister --position`` and ``replay`` of a record whose [Start] holds the position: refused before
    a board is built from it (quickly, in little memory), in one line, with the reason."""
    monkeypatch.setattr("tui.app.NashplayApp.run", not_called)
    if command == "solve":
        argv = ["solve", "mini-geister", "--position", DIGIT_BOMB]
    else:
        record = tmp_path / "bomb.ngr"
        record.write_text(f'[Game "mini-geister"]\n[Start "{DIGIT_BOMB}"]\n\n*\n')
        argv = ["replay", str(record)]
    tracemalloc.start()
    try:
        err = refused(argv, capsys)
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert err.startswith(f"nashplay {command}")
    assert f"rank 4 of '{DIGIT_BOMB}' covers more than 26 squares" in err
    # Refused before anything was built from the number: the memory it took says so on any machine (a board of a
    # hundred billion squares, or a list of them, would take gigabytes; a loop over them would hang to the timeout).
    assert peak < 64 * 2**20, peak
