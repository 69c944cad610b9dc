"""``nashplay connect``: options, headless play game after game against the fake server, the summary."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fake_server import HandlerThread, ServerOptions, ServerThread, free_ports
from waiting import HANG_SECONDS

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
    assert "0 games as random" in out and "1 error;" in out


def test_the_connect_timeout_is_waited_out_and_said(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--connect-timeout 3`` said "gave up ... after 2 s": the back-off stopped at 1.55 s, because its next wait
    (1.6 s) would have passed 3 s. The last wait must end at the deadline, one more attempt be made, and the
    message report the timeout used. (The waits are recorded, not slept: the test takes no time.)"""
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def no_wait(seconds: float, *args: object) -> None:
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", no_wait)
    with free_ports(1) as ports:
        code = connect(["--port", str(ports[0]), "--as", "random", "--connect-timeout", "3"])
    err = capsys.readouterr().err
    assert code == 1
    gave_up = next(line for line in err.splitlines() if "gave up connecting" in line)
    assert "after 3 s" in gave_up, gave_up
    assert sum(w for w in waits if w > 0) == pytest.approx(3.0, abs=0.2), waits


def test_an_unknown_player_is_named() -> None:
    with pytest.raises(LookupError, match="unknown player 'alphazero'"):
        connect_cli.player_factory("alphazero")
    assert connect_cli.player_factory("random")().name == "random"
    assert connect_cli.player_factory("upp")().name == "upp"


def test_importing_the_command_loads_no_numpy() -> None:
    script = "import sys, tui.cli.connect, tui.net; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


# --------------------------------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("option", "value", "bound"),
    [
        *(
            (option, value, "more than 0 and at most 3600 s")
            for option in ("--time", "--per-move")
            for value in ("nan", "inf", "-1", "0", "1e12")
        ),
        *(("--budget", value, "from 0 to 86400 s") for value in ("nan", "inf", "-inf", "-1", "1e12")),
        *(("--connect-timeout", value, "from 0 to 86400 s") for value in ("nan", "inf", "-0.5", "1e12")),
        *(("--start-timeout", value, "more than 0 and at most 86400 s") for value in ("nan", "inf", "0", "1e12")),
        *(("--games", value, "1 to 100000") for value in ("0", "-3", "1000000000000")),
        ("--games", "1e12", "expected a whole number"),
        pytest.param("--games", "9" * 5000, "1 to 100000", id="--games-5000-digits"),
        ("--ply-limit", "1", "2 to 10000"),
        ("--ply-limit", "1000000000000", "2 to 10000"),
        ("--port", "70000", "1 to 65535"),
        ("--time", "soon", "expected a number of seconds"),
    ],
)
def test_numbers_out_of_bounds_are_refused_in_one_line(
    option: str, value: str, bound: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """NaN passed every check (``nan <= 0`` is false): --time nan forfeited every game at once, --connect-timeout
    nan retried for ever. Every number is bounded, and a bad one is named with its bound and why, in one line."""
    with pytest.raises(SystemExit) as exit_info:
        parse(["--as", "random", f"{option}={value}"])  # "=": argparse would take "-inf" for an option
    assert exit_info.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith(f"nashplay connect: error: argument {option}: ")
    assert bound in last
    if not bound.startswith("expected"):
        assert re.search(r"\(.{8,}\), not '", last), last  # and why, in brackets, before the bad input
    assert len(last) < 200  # a 5000-digit number is quoted in a few dozen characters


def test_numbers_within_bounds_are_taken() -> None:
    args, _ = parse(
        ["--time", "0.01", "--budget", "0", "--per-move", "3600", "--connect-timeout", "0", "--start-timeout", "5"]
    )
    assert (args.time, args.budget, args.per_move, args.connect_timeout, args.start_timeout) == (0.01, 0, 3600, 0, 5)
    args, _ = parse(["--games", "100000", "--ply-limit", "10000"])
    assert (args.games, args.ply_limit) == (100_000, 10_000)
    assert connect_cli.settings_from_args(args).start_timeout == 600


# --------------------------------------------------------------------------------------------------- waiting, failing


def test_waiting_for_a_game_is_said_and_bounded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No opponent on the other port: the server accepts us and starts no game. The wait is said on stderr, it ends
    after --start-timeout, and no record is written for a game that never began."""
    with ServerThread() as server:
        code = connect(
            ["--port", str(server.ports[0]), "--as", "random", "--start-timeout", "1.5", "--save", str(tmp_path)]
        )
    out, err = capsys.readouterr()
    assert code == 1
    assert "waiting for the server to start a game (SET?)" in err and "--start-timeout" in err
    assert "started no game within 1.5 s" in err
    assert "0 games as random" in out and "1 error;" in out
    assert list(tmp_path.glob("*.ngr")) == []


async def _close_at_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    return  # HandlerThread closes the connection


async def _set_then_close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(b"SET?\r\n")
    await writer.drain()
    await reader.read(100)


def test_a_server_that_accepts_and_closes_writes_no_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Such a server made --games 2000 write 2000 empty records in 6 s. A connection closed before SET? is no game:
    nothing is recorded, attempts back off, and play gives up at the connect deadline."""
    with HandlerThread(_close_at_once) as server:
        code = connect(
            [
                *("--port", str(server.port), "--as", "random", "--games", "50"),
                *("--connect-timeout", "1", "--save", str(tmp_path)),
            ]
        )
        connections = server.connections
    out, err = capsys.readouterr()
    assert code == 1
    assert list(tmp_path.glob("*.ngr")) == []
    # Back-off 0.05, 0.1, 0.2, 0.4 s, then a wait to the 1 s deadline and one last attempt (time connected not
    # counted; fewer only if a loaded machine made an attempt itself time out). Five until tui/net.py waits out the
    # deadline (see test_the_connect_timeout_is_waited_out_and_said), six after.
    assert 0 < connections <= 6
    assert err.count("dropped the connection before a game began") <= connections - 1  # the last one gave up
    assert "gave up connecting" in err
    assert "0 games as random" in out and "1 error;" in out


def test_play_stops_after_three_failed_games_in_a_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A server that begins each game (SET?) and then closes: each is a failed game with its record so far, and play
    stops after 3 in a row instead of failing all 20."""
    with HandlerThread(_set_then_close) as server:
        code = connect(["--port", str(server.port), "--as", "random", "--games", "20", "--save", str(tmp_path)])
        connections = server.connections
    out, err = capsys.readouterr()
    assert code == 1
    assert connections == 3
    assert "stopped after 3 failed games in a row" in err
    assert "3 games as random: 0 wins, 0 draws, 0 losses, 3 errors" in out
    assert len(list(tmp_path.glob("*.ngr"))) == 3


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_saves_the_game_so_far_and_exits_cleanly(signum: signal.Signals, tmp_path: Path) -> None:
    """SIGTERM (or SIGHUP) while a game is under way: the record of the game so far is saved and named, the summary
    printed, and the exit code says which signal stopped play (128 + its number)."""
    script = "import sys; from tui.cli import main; sys.exit(main(sys.argv[1:]))"
    with ServerThread(opponent="random", games=1, hold_after=3) as server:
        command = ["connect", "--port", str(server.ports[0]), "--as", "random", "--save", str(tmp_path)]
        process = subprocess.Popen(
            [sys.executable, "-c", script, *command],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.holding.wait(120), "the game never got under way"
            process.send_signal(signum)
            out, err = process.communicate(timeout=HANG_SECONDS)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
    assert process.returncode == 128 + signum, err
    (path,) = tmp_path.glob("*.ngr")
    assert f"stopped by {signum.name}; the record of the game in progress is saved in {path}" in err
    record = Record.load(path)
    assert record.result == "*" and len(record.moves) >= 6
    record.replay()
    assert "0 games as random" in out


# --------------------------------------------------------------------------------------------------- where records go


@pytest.mark.parametrize("player", ["random", "human"])
def test_a_save_folder_that_cannot_be_written_is_refused_before_playing(
    player: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--save /proc/nope`` played its games and said "records in /proc/nope" while every record was lost. It is
    checked before the first game, as ``arena --save`` is: one line, exit code 2, no game played."""

    def no_app(*args: object, **kwargs: object) -> int:
        raise AssertionError("the app was opened on a folder that takes no records")

    monkeypatch.setattr(connect_cli, "open_app", no_app)
    with ServerThread(opponent="chototsu", games=1) as server:
        with pytest.raises(SystemExit) as exit_info:
            connect(["--port", str(server.ports[0]), "--as", player, "--save", "/proc/nope"])
        assert server.server is not None and server.server.games == []
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err == "nashplay connect: error: --save: cannot write records in '/proc/nope': No such file or directory\n"


def test_a_default_folder_that_cannot_be_written_is_said_once_and_play_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No --save, and the state folder cannot take the contest/ folder (a file is in its way: read-only even for
    root): said once, and the games are played without records."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("NASHPLAY_STATE_DIR", str(blocked))
    with ServerThread(opponent="chototsu", games=2) as server:
        code = connect(["--port", str(server.ports[0]), "--as", "random", "--games", "2", "--json"])
        server.wait_games(2)
    out, err = capsys.readouterr()
    assert code == 0, err
    warnings = [line for line in err.splitlines() if "not be saved" in line]
    assert warnings == [
        f"nashplay connect: game records will not be saved: cannot write in {blocked / 'contest'}: Not a directory"
    ]
    assert "records in" not in err and "records not saved" in err
    assert len([line for line in err.splitlines() if line.startswith("game ")]) == 2
    summary = json.loads(out)
    assert summary["games"] == 2 and summary["records"] is None


def test_a_record_that_cannot_be_saved_is_said_in_its_games_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder was fine at the start and the disk fills up: the game's line says its record was not saved."""

    def disk_full(self: Record, path: object, durable: bool = True) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Record, "save", disk_full)
    with ServerThread(opponent="chototsu", games=1) as server:
        code = connect(["--port", str(server.ports[0]), "--as", "random", "--save", str(tmp_path)])
        server.wait_games(1)
    out, err = capsys.readouterr()
    assert code == 0, err
    [line] = [line for line in out.splitlines() if line.startswith("game 1:")]
    assert line.endswith(f"[the record could not be saved in {tmp_path}]")


def test_a_learning_player_remembers_its_opponent_between_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sage`` reads each game's opponent with the games it played against that name before, in this session and
    in earlier ones: they are kept under the state folder's ``opponents/``."""
    from solvers.geister.learned import LearnedPlayer

    monkeypatch.setenv("NASHPLAY_STATE_DIR", str(tmp_path / "state"))
    known: list[int] = []
    use_profile = LearnedPlayer.use_profile

    def spy(self: LearnedPlayer, profile: object) -> None:
        known.append(profile.games)  # type: ignore[attr-defined]
        use_profile(self, profile)  # type: ignore[arg-type]

    monkeypatch.setattr(LearnedPlayer, "use_profile", spy)
    for games in (2, 1):
        with ServerThread(opponent="chototsu", games=games) as server:
            argv = ["--port", str(server.ports[0]), "--as", "sage", "--time", "0.02", "--games", str(games)]
            code = connect([*argv, "--opponent", "their bot", "--save", str(tmp_path / "records"), "--json"])
            server.wait_games(games)
        assert code == 0, capsys.readouterr().err
    assert known == [0, 1, 2]
    stored = json.loads((tmp_path / "state" / "opponents" / "their_bot.json").read_text(encoding="utf-8"))
    assert len(stored["games"]) == 3


def test_the_connect_summary_counts_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli.connect import Tally

    tally = Tally(counts={"won": 1, "draw": 0, "lost": 0}, errors=1, played=1)
    tally.print(argparse.Namespace(json=False, player="bayes"), None)
    out = capsys.readouterr().out
    assert out.startswith("1 game as bayes: 1 win, 0 draws, 0 losses, 1 error;"), out
