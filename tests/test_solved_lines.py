"""``nashplay replay --solved mini-geister``: the paper's lines come from the solver (13, 16 and 11 plies), the
distance counts down ply by ply, lines from any position, and the replay viewer shows them."""

from __future__ import annotations

import argparse
import json

import pytest
from pilot_helpers import run
from textual.widgets import Static

from tui.app import NashplayApp, StartRequest
from tui.cli import build_parser, main
from tui.cli.replay import chosen_lines
from tui.screens.replay import ReplayScreen


def lines_json(capsys: pytest.CaptureFixture[str], *extra: str) -> list[dict[str, object]]:
    assert main(["replay", "--solved", "mini-geister", "--list", "--json", *extra]) == 0
    data = json.loads(capsys.readouterr().out)
    lines: list[dict[str, object]] = data["lines"]
    return lines


def test_the_papers_lines_and_their_lengths(capsys: pytest.CaptureFixture[str]) -> None:
    lines = {line["line"]: line for line in lines_json(capsys)}
    assert {key: line["plies"] for key, line in lines.items()} == {"p1": 13, "p2": 16, "extended": 11}
    for line in lines.values():
        moves = line["moves"]
        assert isinstance(moves, list)
        # The distance counts down by one each ply, to the event at distance 1.
        assert [m["distance"] for m in moves] == list(range(len(moves), 0, -1))
        assert moves[-1]["event"] in ("escape", "capture", "guess")
        assert all(m["event"] is None for m in moves[:-1])
    assert lines["p2"]["moves"][-1]["side"] == "player 2"  # type: ignore[index]


def test_a_line_from_the_users_position(capsys: pytest.CaptureFixture[str]) -> None:
    lines = lines_json(capsys, "--position", "1uu1/4/4/1UU1 2", "--for", "1")
    assert len(lines) == 1 and lines[0]["plies"] == 16 and lines[0]["for"] == 1


def test_bad_positions_and_undecided_ones_get_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", "--solved", "mini-geister", "--list", "--position", "1uu1/4/4"])
    assert exit_info.value.code == 2
    assert "nashplay replay --solved: error:" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["replay"])
    assert "give a record file" in capsys.readouterr().err


def test_the_viewer_counts_the_distance_down() -> None:
    args = build_parser().parse_args(["replay", "--solved", "mini-geister", "--line", "p1"])
    assert isinstance(args, argparse.Namespace)
    line = chosen_lines(args)[0]

    async def test() -> None:
        app = NashplayApp(StartRequest("replay", record=line.record, replay_title=line.title))
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            await pilot.press("right")
            status = str(app.screen.query_one("#status", Static).render())
            assert "12 plies to player 1's event" in status
            await pilot.press("end")
            status = str(app.screen.query_one("#status", Static).render())
            assert "tries to escape with a4-out" in status

    run(test)
