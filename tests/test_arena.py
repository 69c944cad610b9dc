"""The arena: Wilson intervals, side swapping, reproducible seeded games, saved records, the command line and the
bounds of its numbers and of each game's own options (issue 15)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from cli_helpers import not_called, refused

from core.game import Side
from core.record import Record
from solvers.arena import GameResult, MatchResult, ending, game_specs, run_match
from solvers.players import Limit
from solvers.stats import wilson
from tui.cli import arena as arena_cli

BOMB = "9" * 5000


def test_wilson_interval() -> None:
    lo, hi = wilson(94, 100)
    assert lo == pytest.approx(0.875, abs=0.002) and hi == pytest.approx(0.972, abs=0.002)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_games_swap_first_player_and_sides() -> None:
    specs = game_specs("geister", ("upp", "chototsu"), 8, Limit(playouts=10))
    combos = {(s.a_side, s.first == s.a_side) for s in specs[:4]}
    assert combos == {(Side.P1, True), (Side.P1, False), (Side.P2, True), (Side.P2, False)}
    assert len({s.seed for s in specs}) == 8


def test_match_is_reproducible_and_saves_records(tmp_path: Path) -> None:
    a = run_match("geister", ("greedy", "chototsu"), 6, Limit(playouts=1), workers=1, seed=3, save_dir=str(tmp_path))
    b = run_match("geister", ("greedy", "chototsu"), 6, Limit(playouts=1), workers=1, seed=3)
    assert [(r.winner, r.plies) for r in a.results] == [(r.winner, r.plies) for r in b.results]
    files = sorted(tmp_path.glob("*.ngr"))
    assert len(files) == 6
    record = Record.load(files[0])
    assert len(record.replay()) == a.results[0].plies + 1
    assert {record.tags["Player1"], record.tags["Player2"]} == {"greedy", "chototsu"}


def test_match_on_two_processes_gives_the_same_games() -> None:
    one = run_match("geister", ("greedy", "random"), 4, Limit(playouts=1), workers=1, seed=9)
    two = run_match("geister", ("greedy", "random"), 4, Limit(playouts=1), workers=2, seed=9)
    assert [(r.winner, r.plies) for r in one.results] == [(r.winner, r.plies) for r in two.results]


def test_cli_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="nashplay")
    arena_cli.add_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        [
            "arena",
            "geister",
            "--players",
            "greedy,chototsu",
            "--games",
            "4",
            "--playouts",
            "1",
            "--workers",
            "1",
            "--json",
        ]
    )
    assert arena_cli.run(args, parser) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4 and set(data["players"]) == {"greedy", "chototsu"}
    row = data["players"]["greedy"]
    assert row["wins"] + row["draws"] + row["losses"] == 4
    assert 0 <= row["ci95"][0] <= row["win_rate"] <= row["ci95"][1] <= 1
    assert data["avg_length"] > 0 and data["length_unit"] == "plies"
    assert data["thinking"] == [] and "playouts_per_move" not in data  # neither greedy nor chototsu thinks


def test_cli_rejects_unknown_players() -> None:
    parser = argparse.ArgumentParser(prog="nashplay")
    arena_cli.add_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["arena", "geister", "--players", "upp,nobody"])
    with pytest.raises(SystemExit):
        arena_cli.run(args, parser)


# --------------------------------------------------------------------------------------------------- bounds


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


def test_save_refuses_a_folder_that_holds_an_earlier_matchs_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--save DIR`` once wrote over the records an earlier match had left in DIR (both name their games
    ``game-0001.ngr`` and on); it now refuses before the first game, and the earlier records stay as they were."""
    earlier = tmp_path / "game-0001.ngr"
    earlier.write_text("an earlier match's record\n")
    (tmp_path / "game-0002.ngr").write_text("another\n")
    monkeypatch.setattr("solvers.arena.run_match", not_called)
    err = refused(["arena", "nim", "--players", "perfect,random", "--games", "2", "--save", str(tmp_path)], capsys)
    assert "already holds an earlier match's records (game-0001.ngr and 1 more)" in err
    assert earlier.read_text() == "an earlier match's record\n"


# ------------------------------------------------------------------------------------------------ the report's words


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("player 1 had too few points for strong attack", "opponent short of points"),
        ("attack beats charge", "attack beats charge"),
        ("the marker reached player 2's goal", "reached the goal"),
        ("both are out of points, the marker on player 1's half", "ahead when points ran out"),
        ("player 2 finished 1 point ahead", "more points"),
        ("player 1 finished 3 points ahead", "more points"),
        ("player 2 cannot move (normal play: whoever cannot move loses)", "made the last move"),
        ("player 1 cannot move (misere play: whoever cannot move wins)", "had no move (misere)"),
        ("player 1 escaped a blue piece from a6", "escape"),
        ("player 1 captured all of player 2's blue pieces", "blues taken"),
    ],
)
def test_every_game_is_won_by_a_reason_that_says_how(reason: str, words: str) -> None:
    """Every game but Geister's was won by "other" (a label of no meaning): each says its own way to win."""
    assert ending(reason) == words


def _match(game: str, names: tuple[str, str], limit: Limit, reasons: list[str], plies: int = 2) -> MatchResult:
    results = [
        GameResult(i, i % 2, 1.0 if i % 2 == 0 else -1.0, plies, r, Side.P1, Side.P1) for i, r in enumerate(reasons)
    ]
    return MatchResult(names, limit, game, results)


def test_a_match_of_players_that_decide_at_once_says_no_thinking_time_and_counts_rounds() -> None:
    """TCG's players are exact and instant: the report said "0.25 s per move" and "plies" of a game of rounds."""
    match = _match("tcg", ("equilibrium", "random"), Limit(time=0.25), ["player 2 had too few points for attack"] * 2)
    text = arena_cli.report(match)
    first = text.splitlines()[0]
    said = "2 games, no thinking time (neither player searches: both answer at once); average 2.0 rounds per game"
    assert first == said, text
    assert "per move" not in text and "plies" not in text and "other" not in text
    assert "opponent short of points 1" in text
    # The columns line up under a name longer than "player" ("equilibrium" pushed its row one column right).
    rows = text.splitlines()[3:]
    assert len({row.index("[") for row in rows}) == 1, text


def test_the_budget_is_said_of_the_player_that_takes_it() -> None:
    match = _match("geister", ("mc", "chototsu"), Limit(playouts=20), ["player 1 escaped a blue piece from a6"])
    assert "mc 20 playouts per move (chototsu answers at once)" in arena_cli.report(match)
    both = _match("geister", ("mc", "upp"), Limit(time=0.5), ["player 1 escaped a blue piece from a6"])
    assert arena_cli.report(both).startswith("1 game, 0.5 s per move; average 2.0 plies per game")


def test_an_unused_budget_is_said_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        "solvers.arena.run_match", lambda *a, **k: _match("tcg", ("random", "random"), Limit(time=1), [])
    )
    parser = argparse.ArgumentParser(prog="nashplay")
    arena_cli.add_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["arena", "tcg", "--players", "random,random", "--time", "1", "--games", "1"])
    assert arena_cli.run(args, parser) == 0
    err = capsys.readouterr().err
    assert err == "nashplay arena: --time is not used: neither player searches (random)\n"
