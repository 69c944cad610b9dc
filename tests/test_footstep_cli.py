"""``nashplay solve footstep``: the JSON contract of the issue, the readable report, one state, bad input and the
bounds of its numbers, and the standard size it shares with ``play footstep``."""

from __future__ import annotations

import argparse
import json

import pytest
from cli_helpers import not_called, refused

from tui.cli import build_parser, main
from tui.config import FootstepConfig
from tui.games import game_entry

BOMB = "9" * 5000


def test_solve_footstep_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "footstep", "--n", "20", "--k", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n"] == 20 and data["k"] == 3
    assert data["value"] == pytest.approx(0.0, abs=1e-9)
    assert data["states"] == 21 * 21 * 5 and data["matrix_games"] == 2000
    assert data["pure_commitment_value"] == -2.0
    for side in ("p1", "p2"):
        mix = data["first_turn"][side]
        assert sum(mix.values()) == pytest.approx(1.0, abs=1e-6)
        assert all(p >= 1e-9 for p in mix.values()) and all(1 <= int(b) <= 20 for b in mix)
    assert data["seconds"] > 0


def test_solve_footstep_text_and_one_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "footstep", "--n", "10", "--k", "2"]) == 0
    out = capsys.readouterr().out
    assert "Value at the start for player 1: +0.000000" in out
    assert "every pure strategy loses by 2" in out
    assert main(["solve", "footstep", "--n", "10", "--k", "2", "--state", "0,3,1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # Out of points with the marker one step from its own goal... one step from player 2's: player 2 bids 1 thrice.
    assert data == {"n": 10, "k": 2, "state": "0,3,1", "value": -2.0, "p1": {"0": 1.0}, "p2": {"1": 1.0}}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--n", "10", "--k", "2", "--state", "1,2"], "not a Footstep state"),
        (["--n", "10", "--k", "2", "--state", "30,2,0"], "points run from 0"),
        (["--n", "0"], "--n must be"),
        (["--k", "99"], "--k must be"),
    ],
)
def test_bad_input_is_one_clear_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", "footstep", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_play_footstep_refuses_a_geister_opponent(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "footstep", "--opponent", "chototsu"])
    assert exit_info.value.code == 2
    assert "equilibrium, random, learner" in capsys.readouterr().err


def test_solve_footstep_says_what_committing_first_is_worth_at_this_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "footstep", "--n", "3", "--k", "5"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("Committing"))
    assert "player 1 gets +0" in line and "loses by 2 (" not in line and "does not hold" in line, line
    assert main(["solve", "footstep", "--n", "10", "--k", "2"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("Committing"))
    assert "player 1 gets -2" in line and "every pure strategy loses by 2" in line, line


def test_solve_footstep_bounds_n_k_and_state(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.cli.solve.footstep.load_with_progress", not_called)
    assert "1..100" in refused(["solve", "footstep", "--n", "200"], capsys)  # ran past 5 minutes
    assert "1..10" in refused(["solve", "footstep", "--k", "20"], capsys)
    err = refused(["solve", "footstep", "--state", BOMB + ",1,0"], capsys)
    assert "out of range" in err and "5,000 characters" in err
    assert "out of range" in refused(["solve", "footstep", "--state", "1,1," + BOMB], capsys)


def parsed(argv: list[str]) -> argparse.Namespace:
    args = build_parser().parse_args(argv)
    assert isinstance(args, argparse.Namespace)
    return args


def test_solve_and_play_footstep_default_to_the_standard_size() -> None:
    solve, play = parsed(["solve", "footstep"]), game_entry("footstep").config_from_args(parsed(["play", "footstep"]))
    assert isinstance(play, FootstepConfig)
    assert (solve.n, solve.k) == (play.n, play.k) == (FootstepConfig().n, FootstepConfig().k) == (50, 4)


@pytest.mark.parametrize("command", [["solve", "footstep"], ["play", "footstep"]])
def test_the_footstep_help_names_the_default_size(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "(default 50" in out and "(default 4" in out, out
