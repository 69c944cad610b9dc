"""Issue 16's command-line defects: Ctrl-C ends every command cleanly (exit 130, no traceback, at once), texts say
what was computed (and in the singular for one), options a command does not use are refused or made to work,
and ``solve footstep`` and ``play footstep`` start from the same size."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pty
import select
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from waiting import HANG_SECONDS, wait_for_exit, wait_until

from core.game import Side
from core.geister import GeisterState, variant_by_name
from core.notation import Move
from core.record import Record
from tui.cli import build_parser, main
from tui.config import FootstepConfig

VENV_BIN = Path(sys.executable).parent
NASHPLAY = VENV_BIN / "nashplay"


def not_called(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the app was opened")


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``nashplay argv``: exit code 2 and one line on stderr, which is returned."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err, err
    return err


# --------------------------------------------------------------------------------------------------- Ctrl-C


class Terminal:
    """A command run as from a terminal: its own session and process group, stdin/stdout/stderr a pseudo-terminal
    (so progress lines show), and ``interrupt`` sends SIGINT to the whole group, as Ctrl-C does."""

    def __init__(self, argv: list[str]) -> None:
        master, slave = pty.openpty()
        self.master = master
        self.output = b""
        self.process = subprocess.Popen(
            [str(NASHPLAY), *argv], stdin=slave, stdout=slave, stderr=slave, start_new_session=True
        )
        os.close(slave)

    def read(self, wait: float) -> None:
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready:
            with contextlib.suppress(OSError):  # the other end closed: the process ended
                self.output += os.read(self.master, 65536)

    def wait_for(self, started: Callable[[], bool]) -> None:
        """Read the terminal until ``started()`` (the command is at work), failing if it ends first."""

        def at_work() -> bool:
            assert self.process.poll() is None, self.text()
            self.read(0.2)
            return started()

        wait_until(at_work, f"the command never started its work: {self.text()}", poll=0)

    def interrupt(self, group: bool = True) -> None:
        """Send SIGINT (to the group, or to the command alone) and wait for the command to end."""
        if group:
            os.killpg(self.process.pid, signal.SIGINT)
        else:
            self.process.send_signal(signal.SIGINT)

        def ended() -> bool:
            self.read(0.1)
            return self.process.poll() is not None

        wait_until(ended, "the interrupted command never ended", poll=0)

    def read_to_end(self) -> None:
        """Read what was written to the terminal to its last byte, once every process that had it has ended: the
        terminal then says end of file after the last of it (which may reach us a moment after its writer ended)."""
        while True:
            ready, _, _ = select.select([self.master], [], [], HANG_SECONDS)
            if not ready:
                raise AssertionError(f"the terminal never closed: {self.text()}")
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # end of file: no process holds the terminal any more
                return
            if not chunk:
                return
            self.output += chunk

    def text(self) -> str:
        return self.output.decode(errors="replace")

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.master)


def live_processes_in_group(group: int) -> list[int]:
    """The processes of a process group that still run (zombies waiting for their reaper do not count)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (name) state ppid pgrp ...": the name may hold spaces and parentheses, so split after its last ")".
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == group and fields[0] != "Z":
            pids.append(int(entry.name))
    return pids


def assert_ended_cleanly(terminal: Terminal) -> None:
    text = terminal.text()
    assert terminal.process.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert "nashplay: interrupted" in text, text


needs_the_command = pytest.mark.skipif(not NASHPLAY.exists(), reason="nashplay is not installed")


@needs_the_command
@pytest.mark.parametrize(
    ("argv", "marker", "finished"),
    [
        # Waiting at its prompt: no work to finish.
        (["play", "tcg", "--advisor"], b"opponent played>", None),
        (["solve", "tcg", "--n", "100", "--no-cache"], b"solving: sweep", b"solved in"),
        (["learn", "footstep", "--games", "100000", "--runs", "1"], b"learning: reward", b"vs random (exact)"),
    ],
    ids=["tcg-prompt", "solve-tcg", "learn-footstep"],
)
def test_ctrl_c_ends_a_command_at_work_with_130_and_no_traceback(
    argv: list[str], marker: bytes, finished: bytes | None
) -> None:
    """At once means before its work is done, whatever the machine's speed: the command's result (what it prints
    once it has finished) never shows."""
    terminal = Terminal(argv)
    try:
        terminal.wait_for(lambda: marker in terminal.output)
        terminal.interrupt()
        terminal.read_to_end()
    finally:
        terminal.close()
    assert_ended_cleanly(terminal)
    assert finished is None or finished not in terminal.output, terminal.text()


@needs_the_command
@pytest.mark.skipif(not Path("/proc/self/task").exists() or sys.platform != "linux", reason="Linux's tgkill")
def test_ctrl_c_ends_the_tcg_prompt_even_when_another_thread_receives_it() -> None:
    """The kernel hands a process's SIGINT to any of its threads that does not block it (numpy's BLAS starts some).
    Then Python's handler only marks it, and a main thread blocked reading the terminal never looked: the prompt
    ignored Ctrl-C for good (a CI run hung on it). Here the signal goes to a thread other than the main one on
    purpose (tgkill), every time."""
    import ctypes

    terminal = Terminal(["play", "tcg", "--advisor"])
    try:
        terminal.wait_for(lambda: b"opponent played>" in terminal.output)
        pid = terminal.process.pid
        others = [int(task) for task in os.listdir(f"/proc/{pid}/task") if int(task) != pid]
        assert others, "the prompt runs no other thread: this test would test nothing"
        libc = ctypes.CDLL(None, use_errno=True)
        tgkill = 234  # x86_64's syscall number; see below for others
        if os.uname().machine in ("aarch64", "arm64"):
            tgkill = 131
        assert libc.syscall(tgkill, pid, others[0], signal.SIGINT) == 0, ctypes.get_errno()

        def ended() -> bool:
            terminal.read(0.1)
            return terminal.process.poll() is not None

        wait_until(ended, "the prompt never heard the Ctrl-C another thread received", poll=0)
        terminal.read_to_end()
    finally:
        terminal.close()
    assert_ended_cleanly(terminal)


@needs_the_command
@pytest.mark.parametrize("group", [True, False], ids=["ctrl-c", "kill-int"])
def test_ctrl_c_ends_an_arena_match_at_once_and_keeps_its_records(group: bool, tmp_path: Path) -> None:
    """Ctrl-C reaches the workers too (the terminal signals the whole group); ``kill -INT`` only the command. Either
    way the match ends at once (it hung until every game had been played), the records written stay, and no worker
    goes on playing (or writing) after the command has ended."""
    folder = tmp_path / "records"
    argv = ["arena", "geister", "--players", "mc,chototsu", "--games", "400", "--time", "0.02", "--save", str(folder)]
    terminal = Terminal(argv)
    try:
        terminal.wait_for(lambda: folder.is_dir() and any(folder.glob("game-*.ngr")))
        terminal.interrupt(group)
        written = sorted(folder.glob("game-*.ngr"))
        # Every worker ends (the wait is woken by the kernel when it does), and none wrote a record after the command
        # had ended: one that went on playing would hang here or add records.
        for pid in live_processes_in_group(terminal.process.pid):
            wait_for_exit(pid, "a worker outlived the command")
        assert sorted(folder.glob("game-*.ngr")) == written, "a worker went on writing records"
        terminal.read_to_end()
    finally:
        terminal.close()
        for pid in live_processes_in_group(terminal.process.pid):
            os.kill(pid, signal.SIGKILL)
    assert_ended_cleanly(terminal)
    records = sorted(folder.glob("game-*.ngr"))
    # At once: long before the 400 games were played, however fast the machine.
    assert records and len(records) < 400
    for path in records:
        Record.load(path).replay()  # whole records, each of them


CHILD_INTERRUPTED_WHILE_LOADING = """
import importlib.abc, signal, sys

class Interrupt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "tui.cli.connect":  # one of the command modules tui.cli loads
            signal.raise_signal(signal.SIGINT)
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["nashplay", "list"]
from tui.cli import run  # what the nashplay script does
sys.exit(run())
"""


def test_ctrl_c_while_the_command_loads_exits_130_without_a_traceback() -> None:
    """The interrupt arrives while ``tui.cli`` imports its commands, before ``run`` can catch anything (a Ctrl-C in
    the first half second of any command)."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD_INTERRUPTED_WHILE_LOADING], capture_output=True, text=True, timeout=HANG_SECONDS
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr == "nashplay: interrupted\n"


def test_loading_the_commands_leaves_the_interrupt_handler_as_it_was() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import signal, tui.cli; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)",
        ],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert done.stdout == "True\n", done.stderr


# --------------------------------------------------------------------------------------------------- texts


def test_solve_footstep_says_what_committing_first_is_worth_at_this_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "footstep", "--n", "3", "--k", "5"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("Committing"))
    assert "player 1 gets +0" in line and "loses by 2 (" not in line and "does not hold" in line, line
    assert main(["solve", "footstep", "--n", "10", "--k", "2"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("Committing"))
    assert "player 1 gets -2" in line and "every pure strategy loses by 2" in line, line


def test_one_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "footstep", "--n", "3", "--k", "5"]) == 0
    assert "in 1 HiGHS call;" in capsys.readouterr().out
    assert main(["solve", "nim", "--heaps", "1", "--misere"]) == 0
    assert "lasts 1 more move," in capsys.readouterr().out
    assert main(["replay", "--solved", "mini-geister", "--position", "U1u1/4/4/u2U 1", "--list"]) == 0
    assert ": 1 ply from U1u1/4/4/u2U 1" in capsys.readouterr().out


def test_the_connect_summary_counts_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli.connect import Tally

    tally = Tally(counts={"won": 1, "draw": 0, "lost": 0}, errors=1, played=1)
    tally.print(argparse.Namespace(json=False, player="bayes"), None)
    out = capsys.readouterr().out
    assert out.startswith("1 game as bayes: 1 win, 0 draws, 0 losses, 1 error;"), out


def test_a_geister_opponent_of_another_game_is_refused_with_the_players_of_geister(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from solvers.catalogue import players_for

    err = refused(["play", "geister", "--opponent", "nash"], capsys)
    assert all(entry.name in err for entry in players_for("geister")), err
    assert "perfect" not in err and "human" not in err


# --------------------------------------------------------------------------------------------------- options


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


# --------------------------------------------------------------------------------------------------- Footstep sizes


def parsed(argv: list[str]) -> argparse.Namespace:
    args = build_parser().parse_args(argv)
    assert isinstance(args, argparse.Namespace)
    return args


def test_solve_and_play_footstep_default_to_the_standard_size() -> None:
    solve, play = parsed(["solve", "footstep"]), parsed(["play", "footstep"])
    assert (solve.n, solve.k) == (play.n, play.k) == (FootstepConfig().n, FootstepConfig().k) == (50, 4)


@pytest.mark.parametrize("command", [["solve", "footstep"], ["play", "footstep"]])
def test_the_footstep_help_names_the_default_size(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "(default 50" in out and "(default 4" in out, out


def test_the_side_help_says_the_side_to_move_is_the_default_from_a_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["play", "geister", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    side = out[out.index("--side {1,2} ") :]  # the option's help, not the usage line's "[--side {1,2}]"
    side = side[: side.index("--seed")]
    assert "(default)" not in side and "side to move" in side, side  # was "1 moves first (default), 2 second"
