"""``nashplay connect``: options, headless play game after game against the fake server, the summary."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest
from fake_server import ServerOptions, ServerThread, free_ports

from core.record import Record
from solvers.catalogue import STRONGEST
from tui import cli
from tui.cli import connect as connect_cli

ROOT = Path(__file__).resolve().parent.parent


def parse(argv: list[str]) -> tuple[argparse.Namespace, argparse.ArgumentParser]:
    parser = argparse.ArgumentParser(prog="nashplay")
    connect_cli.add_command(parser.add_subparsers(dest="command"))
    return parser.parse_args(["connect", *argv]), parser


def connect(argv: list[str]) -> int:
    args, parser = parse(argv)
    return connect_cli.run(args, parser)


def test_defaults() -> None:
    args, _ = parse([])
    assert (args.host, args.port, args.player, args.games, args.setup) == ("127.0.0.1", 10000, "human", 1, "random")
    assert (args.ply_limit, args.budget, args.per_move) == (300, 600.0, 10.0)


def test_headless_games_print_a_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ServerThread(opponent="chototsu", games=3) as server:
        code = connect(
            ["--port", str(server.ports[0]), "--as", "random", "--games", "3", "--json", "--save", str(tmp_path)]
        )
        played = server.wait_games(3)
    out, err = capsys.readouterr()
    assert code == 0, err
    summary = json.loads(out)
    assert summary["games"] == 3 and summary["errors"] == 0
    assert summary["wins"] + summary["draws"] + summary["losses"] == 3
    assert 0 <= summary["win_rate_95"][0] <= summary["win_rate_95"][1] <= 1
    assert err.count("game ") == 3  # one line per game, on stderr so that stdout stays JSON
    records = sorted(tmp_path.glob("*.ngr"))
    assert len(records) == 3
    for path in records:
        Record.load(path).replay()
    assert [g.results[0] for g in played] == [
        {"won": "won", "lost": "lost", "draw": "draw"}[Record.load(p).tags["ServerResult"]] for p in records
    ]


def test_as_ai_plays_the_strongest_geister_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ServerThread(opponent="chototsu", games=1) as server:
        code = connect(
            ["--port", str(server.ports[0]), "--as", "ai", "--time", "0.02", "--json", "--save", str(tmp_path)]
        )
        server.wait_games(1)
    out, err = capsys.readouterr()
    assert code == 0, err
    summary = json.loads(out)
    assert summary["player"] == STRONGEST["geister"] and summary["games"] == 1 and summary["errors"] == 0


def test_fixed_setup_and_text_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ServerThread(ServerOptions(ply_limit=200), opponent="random", games=2) as server:
        code = connect(
            [
                "--port",
                str(server.ports[0]),
                "--as",
                "chototsu",
                "--games",
                "2",
                "--setup",
                "gfcb",
                "--ply-limit",
                "200",
                "--name",
                "tester",
                "--save",
                str(tmp_path),
            ]
        )
        setups = [g.setups[0] for g in server.wait_games(2)]
    out, _ = capsys.readouterr()
    assert code == 0
    assert setups == ["BCFG", "BCFG"]
    assert out.count("game ") == 2 and "2 games as chototsu:" in out and "95% Wilson interval" in out
    record = Record.load(sorted(tmp_path.glob("*.ngr"))[0])
    assert record.tags["Player1"] == "tester" and record.tags["PlyLimit"] == "200"


def test_a_bad_setup_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        connect(["--as", "random", "--setup", "AAAA"])
    assert exit_info.value.code == 2
    assert "4 distinct letters among A..H" in capsys.readouterr().err


def test_human_mode_reaches_the_apps_server_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[argparse.Namespace] = []

    def run_human(args: argparse.Namespace) -> int:
        seen.append(args)
        return 0

    monkeypatch.setattr(connect_cli, "run_human", run_human)
    assert connect(["--port", "10001", "--setup", "gfcb"]) == 0
    assert len(seen) == 1 and seen[0].player == "human" and seen[0].port == 10001
    # The nashplay command dispatches to it too, with the app's display options.
    assert cli.main(["connect", "--ascii", "--name", "me"]) == 0
    assert len(seen) == 2 and seen[1].ascii and seen[1].name == "me"


def test_run_human_opens_the_app_on_the_server_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tui.app import NashplayApp

    started: list[NashplayApp] = []
    monkeypatch.setattr(NashplayApp, "run", lambda self, *a, **k: started.append(self))
    args, _ = parse(["--host", "example.org", "--port", "10001", "--setup", "gfcb", "--save", str(tmp_path)])
    args.ascii, args.theme = True, None
    args.ply_limit, args.budget, args.per_move, args.connect_timeout = 200, 300.0, 5.0, 7.0
    assert connect_cli.run_human(args) == 0
    (app,) = started
    request = app.start_request
    assert request.kind == "server" and app.ascii_mode
    config = request.server
    assert config is not None
    assert (config.host, config.port, config.setup, config.save_dir) == ("example.org", 10001, "BCFG", tmp_path)
    settings = config.settings
    assert (settings.ply_limit, settings.budget, settings.per_move, settings.connect_deadline) == (200, 300, 5, 7)
    args.setup, args.save = "random", None
    config = connect_cli.config_from_args(args)
    assert config.setup is None and config.save_dir is not None and config.save_dir.name == "contest"


def test_giving_up_when_no_server_answers(capsys: pytest.CaptureFixture[str]) -> None:
    with free_ports(1) as ports:
        code = connect(["--port", str(ports[0]), "--as", "random", "--games", "5", "--connect-timeout", "0.4"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "retrying in" in err and "gave up connecting" in err
    assert "0 games as random" in out and "1 errors" in out


def test_an_unknown_player_is_named() -> None:
    with pytest.raises(LookupError, match="unknown player 'alphazero'"):
        connect_cli.player_factory("alphazero")
    assert connect_cli.player_factory("random")().name == "random"
    assert connect_cli.player_factory("upp")().name == "upp"


def test_importing_the_command_loads_no_numpy() -> None:
    script = "import sys, tui.cli.connect, tui.net; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
