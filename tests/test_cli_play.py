"""``nashplay play GAME``'s options (issues 15 and 16): an option the game does not take, an opponent of another game
and a number out of bounds are refused in one short line (exit code 2) before the app opens; the help says what a
default is. Playing from a position is in ``test_play_position.py``."""

from __future__ import annotations

import pytest
from cli_helpers import not_called, refused

from tui.cli import main

BOMB = "9" * 5000


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "tcg", "--opponent", "random"], "nashplay play tcg: error: unrecognized arguments: --opponent"),
        (["play", "geister", "--n", "5"], "nashplay play geister: error: unrecognized arguments: --n 5"),
        (["play", "tcg", "--advisor", "--mode", "versus"], "nashplay play tcg: error: --mode is the app's"),
        (["play", "nim", "--time", "1"], "nashplay play nim: error: unrecognized arguments: --time"),
    ],
)
def test_play_refuses_an_option_its_game_does_not_take(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.cli.play.open_app", not_called)
    err = refused(argv, capsys)
    assert words in err, err
    assert "unrecognized" not in err or f"(see nashplay play {argv[1]} --help)" in err, err


def test_a_geister_opponent_of_another_game_is_refused_with_the_players_of_geister(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from solvers.catalogue import players_for

    err = refused(["play", "geister", "--opponent", "nash"], capsys)
    assert all(entry.name in err for entry in players_for("geister")), err
    assert "perfect" not in err and "human" in err  # Nim's perfect player is not one; two people at a keyboard are


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


def test_the_side_help_says_the_side_to_move_is_the_default_from_a_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["play", "geister", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    side = out[out.index("--side {1,2} ") :]  # the option's help, not the usage line's "[--side {1,2}]"
    side = side[: side.index("--seed")]
    assert "(default)" not in side and "side to move" in side, side  # was "1 moves first (default), 2 second"
