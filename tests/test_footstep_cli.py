"""``nashplay solve footstep``: the JSON contract of the issue, the readable report, one state, and bad input."""

from __future__ import annotations

import json

import pytest

from tui.cli import main


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
