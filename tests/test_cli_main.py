"""The command line's parser and ``main``: the documented commands parsed, arguments turned into the app's start
request (a theme only when one is named), bad set-ups, records and themes refused before the app opens, argument
errors in one short line, and ``--help`` from the shell."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from app_helpers import finished_record
from cli_helpers import refused
from waiting import HANG_SECONDS

from core.game import Side
from solvers.catalogue import strongest
from tui.app import NashplayApp, StartRequest
from tui.cli import build_parser, main
from tui.config import GeisterConfig

BOMB = "9" * 5000
VENV_BIN = Path(sys.executable).parent


def test_parser_reads_the_documented_commands() -> None:
    parser = build_parser()
    args = parser.parse_args([])
    assert args.command is None and args.ascii is False and args.theme is None
    args = parser.parse_args(
        ["play", "mini-geister", "--opponent", "random", "--setup", "BR", "--side", "2", "--seed", "7"]
    )
    assert (args.command, args.game, args.opponent, args.setup, args.side, args.seed) == (
        "play",
        "mini-geister",
        "random",
        "BR",
        "2",
        7,
    )
    args = parser.parse_args(["play", "geister"])
    # The game's strongest AI, as on the menu: a game against nashplay means that one.
    assert (args.opponent, args.setup, args.side, args.seed) == (strongest("geister").name, None, "1", None)
    args = parser.parse_args(["--ascii", "--theme", "nashplay-light", "play", "geister"])
    assert args.ascii is True and args.theme == "nashplay-light"
    args = parser.parse_args(["play", "geister", "--ascii", "--theme", "nashplay-colourblind"])
    assert args.ascii is True and args.theme == "nashplay-colourblind"
    args = parser.parse_args(["replay", "game.ngr", "--side", "2"])
    assert (args.command, args.file, args.side) == ("replay", "game.ngr", "2")
    for bad in (["play", "chess"], ["play", "geister", "--side", "3"], ["play", "geister", "--opponent", "x"]):
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args(bad)
        assert exit_info.value.code == 2


class RunStub:
    """Stands in for ``App.run`` so that ``main`` can be tested without a terminal."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.apps: list[NashplayApp] = []
        stub = self

        def fake_run(app: NashplayApp, *args: object, **kwargs: object) -> None:
            stub.apps.append(app)

        monkeypatch.setattr(NashplayApp, "run", fake_run)


def test_main_turns_arguments_into_a_start_request(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    runs = RunStub(monkeypatch)
    assert main(["play", "mini-geister", "--setup", "BR", "--side", "2", "--seed", "5", "--ascii"]) == 0
    request = runs.apps[-1].start_request
    assert request.kind == "game" and not request.setup
    assert request.config == GeisterConfig("mini-geister", Side.P2, strongest("mini-geister").name, "BR", 5)
    assert runs.apps[-1].ascii_mode
    main(["play", "geister", "--theme", "nashplay-light"])
    assert runs.apps[-1].start_request.setup and runs.apps[-1].initial_theme == "nashplay-light"
    path = tmp_path / "game.ngr"
    finished_record().save(path)
    main(["replay", str(path), "--side", "2"])
    request = runs.apps[-1].start_request
    assert request.kind == "replay" and request.replay_side is Side.P2 and request.record is not None
    main([])
    assert runs.apps[-1].start_request.kind == "menu"


def test_main_rejects_a_bad_set_up(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    runs = RunStub(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "mini-geister", "--setup", "XX"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "--setup" in error and "expected 2 letters B/R for b1 c1, with 1 B and 1 R" in error
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "geister", "--setup", "BBBBBRRR"])
    assert exit_info.value.code == 2
    assert "4 blue and 4 red" in capsys.readouterr().err
    assert runs.apps == []


def test_main_rejects_a_missing_or_broken_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    runs = RunStub(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", "missing.ngr"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("nashplay replay: error:") and "missing.ngr" in error
    broken = tmp_path / "broken.ngr"
    broken.write_text('[Game "mini-geister"]\n\n1. b1-b3 *\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(broken)])
    assert exit_info.value.code == 2
    assert "b1-b3" in capsys.readouterr().err
    assert runs.apps == []


def test_main_rejects_an_unknown_theme(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    runs = RunStub(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        main(["--theme", "no-such-theme"])
    assert exit_info.value.code == 2
    assert "no-such-theme" in capsys.readouterr().err
    assert runs.apps == []


@pytest.mark.parametrize(
    "argv",
    [
        ["--theme", "nope", "solve", "tcg", "--n", "2"],
        ["--theme", "nope", "list"],
        ["--theme", "nope", "connect", "--as", "random", "--port", "1", "--connect-timeout", "0"],
        ["--theme", "nope", "arena", "tcg", "--players", "random,random", "--games", "1", "--workers", "1"],
    ],
    ids=["solve", "list", "connect-headless", "arena"],
)
def test_an_unknown_theme_is_refused_by_every_command_in_one_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``nashplay --theme nope solve tcg`` solved, printed its table and exited 0: only the commands that open the
    app looked at the theme. Now every command refuses it before any work, as every bad option is refused."""
    runs = RunStub(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and runs.apps == []
    assert err.startswith("nashplay: error: --theme: unknown theme 'nope': expected one of nashplay,"), err
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err
    # A known theme is no mistake: a command that draws nothing runs (a shell alias may carry the display options).
    assert main(["--theme", "nashplay-light", "--ascii", "list"]) == 0


@pytest.mark.parametrize(
    "command",
    [[sys.executable, "-m", "tui", "--help"], [str(VENV_BIN / "nashplay"), "--help"]],
    ids=["python -m tui", "nashplay"],
)
def test_help_from_the_shell(command: list[str]) -> None:
    if not Path(command[0]).exists():
        pytest.skip(f"{command[0]} is not installed")
    done = subprocess.run(command, capture_output=True, text=True, timeout=HANG_SECONDS, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: nashplay")
    for word in ("play", "replay", "--ascii", "--theme", "examples:"):
        assert word in done.stdout


def test_argument_errors_are_one_line_and_quote_little(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(["list", BOMB], capsys)  # argparse's own message, whatever the input
    assert err.startswith("nashplay: error: unrecognized arguments: 9999") and "(see nashplay --help)" in err
    err = refused(["learn", "footstep", "--n", "x" * 5000], capsys)
    assert "'xxxx" in err and "5,000 characters" in err


def test_the_command_line_leaves_the_remembered_theme_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command passed the default theme by name, so the theme remembered from the last session never applied
    from the command line; only an explicit --theme names one."""
    import argparse

    from tui.cli.common import open_app

    opened: list[NashplayApp] = []
    monkeypatch.setattr(NashplayApp, "run", lambda app: opened.append(app))
    open_app(StartRequest(), argparse.Namespace())
    open_app(StartRequest(), argparse.Namespace(theme="nashplay-light"))
    assert [app.initial_theme for app in opened] == [None, "nashplay-light"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_status_line_writes_on_a_terminal_only_pads_over_longer_text_and_clears(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.cli.common import StatusLine

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with StatusLine(delay=0) as status:
        status.show("solving: 10")
        status.show("done 9")
    assert terminal.getvalue() == "\rsolving: 10\rdone 9     " + "\r" + " " * 11 + "\r"
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    with StatusLine(delay=0) as status:
        status.show("solving")
    assert pipe.getvalue() == ""  # pipes and JSON stay clean
