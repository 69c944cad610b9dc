"""The results store and ``nashplay ladder``: every arena game appended to the state folder's database, a damaged
one said in one line without losing the match's output, and maximum-likelihood Elo ratings that rank players of
known order (issue 31)."""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import refused

from solvers.ratings import Pairing, fit_ratings
from tui.cli import arena as arena_cli
from tui.cli import main
from tui.results_store import ResultsStore


def _arena(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="nashplay")
    arena_cli.add_command(parser.add_subparsers(dest="command"))
    return arena_cli.run(parser.parse_args(["arena", *argv]), parser)


def _store_games(results: dict[tuple[str, str], tuple[int, int, int]], game: str = "geister") -> None:
    """Synthetic games: for each pairing (A, B), A's wins, draws and losses."""
    with ResultsStore() as store:
        for (a, b), (wins, draws, losses) in results.items():
            match = store.begin_match(game, {}, (a, b), "-", 0, wins + draws + losses, "synthetic")
            outcomes = [("a", 1.0)] * wins + [(None, 0.0)] * draws + [("b", -1.0)] * losses
            for number, (winner, score) in enumerate(outcomes, start=1):
                store.add_game(
                    match, number, game, {}, (a, b), ("", ""), number, 1, 1, winner, score, "r", "escape", 10, None
                )


def test_the_ratings_rank_players_of_known_order_with_intervals() -> None:
    ratings = fit_ratings(
        [
            Pairing("strong", "middle", wins=30, draws=4, losses=6, score=32.0),
            Pairing("middle", "weak", wins=28, draws=6, losses=6, score=31.0),
            Pairing("strong", "weak", wins=38, draws=2, losses=0, score=39.0),
        ]
    )
    assert [r.player for r in ratings.ratings] == ["strong", "middle", "weak"]
    assert sum(r.elo for r in ratings.ratings) == pytest.approx(0.0, abs=1e-6)  # anchored: the average is 0
    assert all(r.low < r.elo < r.high for r in ratings.ratings)
    assert ratings.connected and [r.games for r in ratings.ratings] == [80, 80, 80]


def test_two_even_players_are_rated_alike_and_a_sweep_stays_finite() -> None:
    even = fit_ratings([Pairing("a", "b", wins=5, draws=2, losses=5, score=6.0)])
    assert [r.elo for r in even.ratings] == pytest.approx([0.0, 0.0], abs=1e-6)
    sweep = fit_ratings([Pairing("a", "b", wins=10, score=10.0)])
    assert 0 < sweep.ratings[0].elo < 1000  # the virtual draws keep a clean sweep finite


def test_players_that_never_met_are_said_to_be_apart() -> None:
    ratings = fit_ratings([Pairing("a", "b", wins=3, losses=1, score=3.0), Pairing("c", "d", wins=2, score=2.0)])
    assert not ratings.connected


def test_the_ladder_ranks_stored_games_and_counts_each_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    _store_games(
        {("purple", "random"): (19, 0, 1), ("chototsu", "random"): (15, 1, 4), ("purple", "chototsu"): (14, 2, 4)}
    )
    _store_games({("x", "y"): (1, 0, 0)}, game="nim")
    assert main(["ladder", "geister", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["games"]) == ["geister"]
    ladder = data["games"]["geister"]
    assert [row["player"] for row in ladder["players"]] == ["purple", "chototsu", "random"]
    pairings = {tuple(p["players"]): (p["wins"], p["draws"], p["losses"]) for p in ladder["pairings"]}
    assert pairings == {
        ("purple", "random"): (19, 0, 1),
        ("chototsu", "random"): (15, 1, 4),
        ("chototsu", "purple"): (4, 2, 14),
    }
    assert main(["ladder"]) == 0
    text = capsys.readouterr().out
    assert "Geister: 3 players, 60 games" in text and "Nim and impartial games: 2 players, 1 game" in text
    assert text.index("purple") < text.index("chototsu") < text.index("random")


def test_an_arena_match_appends_every_game(state_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "records"
    assert _arena(["geister", "--players", "chototsu,random", "--games", "4", "--seed", "2", "--save", str(save)]) == 0
    assert _arena(["nim", "--players", "random,random", "--games", "2", "--json"]) == 0
    capsys.readouterr()
    with sqlite3.connect(state_dir / "results.sqlite") as connection:
        rows = connection.execute(
            "SELECT game, player_a, player_b, game_number, seed, winner, ending, length, record_path, finished "
            "FROM games ORDER BY id"
        ).fetchall()
        matches = connection.execute("SELECT game, seed, games_asked, played_on FROM matches").fetchall()
    assert len(rows) == 6 and matches[0] == ("geister", 2, 4, "2 local processes")
    geister = sorted(rows[:4], key=lambda row: row[3])
    assert [row[3] for row in geister] == [1, 2, 3, 4]
    assert {row[1:3] for row in geister} == {("chototsu", "random")}
    assert all(row[5] in ("a", "b", None) and row[7] > 0 and row[9] for row in geister)
    assert [Path(row[8]) for row in geister] == [save / f"game-{n:04d}.ngr" for n in range(1, 5)]
    assert len({row[4] for row in geister}) == 4  # each game's own seed
    assert all(row[8] is None for row in rows[4:])  # nim's match saved no records


def test_a_damaged_database_is_said_in_one_line_and_the_match_still_reports(
    state_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "results.sqlite").write_bytes(b"not a database at all" * 100)
    assert _arena(["geister", "--players", "chototsu,random", "--games", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 2
    assert err.count("\n") == 1 and "not stored" in err and "damaged" in err
    with pytest.raises(SystemExit) as stopped:
        main(["ladder"])
    assert stopped.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "damaged" in err


def test_the_ladder_refuses_an_unknown_game_and_says_when_nothing_is_stored(capsys: pytest.CaptureFixture[str]) -> None:
    assert "unknown game" in refused(["ladder", "chess"], capsys)
    with pytest.raises(SystemExit) as stopped:
        main(["ladder"])
    assert stopped.value.code == 1 and "no arena game is stored" in capsys.readouterr().err


def test_a_locked_database_is_said_in_one_line_and_the_match_still_reports(
    state_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.results_store.BUSY_SECONDS", 0.05)  # how long a write waits for the lock: not 5 s
    ResultsStore().close()  # the database exists, with its tables
    holder = sqlite3.connect(state_dir / "results.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than a write waits
    try:
        assert _arena(["geister", "--players", "chototsu,random", "--games", "2", "--json"]) == 0
    finally:
        holder.close()
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 2
    assert err.count("\n") == 1 and "not stored" in err and "locked" in err
