"""``nashplay replay`` on the command line (issues 15 and 16): ``--list`` prints a record's or a solved line's moves
and positions without the app, options that would be ignored are refused, and a position that claims a board of a
hundred billion squares (a record's ``[Start]``, or ``solve mini-geister --position``) is refused before anything is
built from it."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from cli_helpers import not_called, refused

from core.game import Side
from core.geister import GeisterState, variant_by_name
from core.notation import Move
from core.record import Record
from tui.cli import main


def write_record(path: Path) -> list[str]:
    """A short Mini-Geister record; its moves."""
    variant = variant_by_name("mini-geister")
    state = GeisterState(variant)
    for side in Side:
        state.apply(variant.setups(side)[0])
    moves = []
    for _ in range(3):
        move = state.legal_moves()[0]
        moves.append(move.to_text())
        state.push(move)
    Record.from_game(state, {"Player1": "alice", "Player2": "bob"}).save(path)
    return moves


def test_replay_file_list_prints_the_moves_and_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.cli.replay.open_app", not_called)
    path = tmp_path / "game.ngr"
    moves = write_record(path)
    states = Record.load(path).replay()
    assert main(["replay", str(path), "--list"]) == 0
    out = capsys.readouterr().out
    assert "alice" in out and "bob" in out
    for move, after in zip(moves, states[1:], strict=True):
        assert any(move in line and after.position() in line for line in out.splitlines()), out
    assert states[0].position() in out
    assert main(["replay", str(path), "--list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["move"] for m in data["moves"]] == moves
    assert [m["position"] for m in data["moves"]] == [s.position() for s in states[1:]]
    assert data["start"] == states[0].position() and data["tags"]["Player1"] == "alice"
    assert Move.parse(data["moves"][0]["move"]) is not None


def test_replay_solved_list_prints_only_the_line_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--solved", "mini-geister", "--line", "extended", "--list"]) == 0
    out = capsys.readouterr().out
    assert "11 plies" in out and "13 plies" not in out and "16 plies" not in out, out
    assert main(["replay", "--solved", "mini-geister", "--list"]) == 0  # no --line: all three
    out = capsys.readouterr().out
    assert all(f"{plies} plies" in out for plies in (11, 13, 16))


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["replay", "FILE", "--line", "p2"], "--line"),
        (["replay", "FILE", "--rule", "extended"], "--rule"),
        (["replay", "FILE", "--for", "2"], "--for"),
        (["replay", "FILE", "--position", "1uu1/4/4/1UU1 1"], "--position"),
        (["replay", "FILE", "--solved", "mini-geister"], "--solved"),
        (["replay", "FILE", "--json"], "--json"),
        (["replay", "--solved", "mini-geister", "--json"], "--json"),
        (["replay", "--solved", "mini-geister", "--line", "p2", "--position", "1uu1/4/4/1UU1 1"], "--line"),
        (["replay", "--solved", "mini-geister", "--rule", "extended"], "--rule"),
        (["replay", "--solved", "mini-geister", "--for", "1"], "--for"),
        (["replay", "FILE", "--list", "--side", "2"], "--side"),
    ],
)
def test_replay_refuses_options_that_would_be_ignored(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.cli.replay.open_app", not_called)
    path = tmp_path / "game.ngr"
    write_record(path)
    err = refused([str(path) if word == "FILE" else word for word in argv], capsys)
    assert err.startswith("nashplay replay: error: ") and words in err, err


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
