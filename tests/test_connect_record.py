"""``nashplay connect``'s record of a game: kept on disk after every move (so that even ``kill -9`` loses at most the
move in hand), under the name the finished record takes, unfinished (``*``) until the game ends; and a result line
before any ``SET?``, which no game precedes, is a protocol error, never a win and never a record."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fake_server import HandlerThread, ServerThread
from waiting import HANG_SECONDS, wait_until

from core.record import Record
from solvers.players import RandomPlayer
from tui.cli import connect as connect_cli
from tui.contest_events import ServerProtocolError
from tui.net import AIPlayer, play_game

ROOT = Path(__file__).resolve().parent.parent
#: The first player's board before any move (``spec``: the example of the protocol page).
BOARD = "14B24R34R44B15B25R35R45B41u31u21u11u40u30u20u10u"


def connect(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="nashplay")
    connect_cli.add_command(parser.add_subparsers(dest="command"))
    return connect_cli.run(parser.parse_args(["connect", *argv]), parser)


# ------------------------------------------------------------------------------------------- the record as it goes


def test_the_record_is_kept_after_every_move_under_its_final_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record was written once, when the game ended. Now every move rewrites it (atomically) at the one path
    the finished record takes, unfinished until the last write."""
    saves: list[tuple[Path, str, int]] = []
    save = Record.save

    def logged(self: Record, path: str | Path, durable: bool = True) -> None:
        saves.append((Path(path), self.result, len(self.moves)))
        save(self, path, durable)

    monkeypatch.setattr(Record, "save", logged)
    with ServerThread(opponent="chototsu", games=1) as server:
        code = connect(["--port", str(server.ports[0]), "--as", "random", "--seed", "3", "--save", str(tmp_path)])
        server.wait_games(1)
    out, err = capsys.readouterr()
    assert code == 0, err
    [path] = tmp_path.glob("*.ngr")
    assert f"[{path}]" in out
    assert {where for where, _, _ in saves} == {path}
    final = Record.load(path)
    assert final.result != "*"
    assert [result for _, result, _ in saves[:-1]] == ["*"] * (len(saves) - 1) and saves[-1][1] == final.result
    counts = [count for _, _, count in saves]
    assert counts == sorted(counts) and counts[0] <= 2 and len(saves) >= len(final.moves)
    assert all(later - earlier <= 1 for earlier, later in itertools.pairwise(counts))


def test_kill_9_mid_game_loses_at_most_the_move_in_hand(tmp_path: Path) -> None:
    """SIGKILL (no handler runs, nothing is saved on the way out) while the opponent thinks over its 4th move: the
    record on disk holds the game up to the last board received, unfinished."""
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
            assert server.holding.wait(HANG_SECONDS), "the game never got under way"
            process.kill()
            process.communicate(timeout=HANG_SECONDS)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
    assert process.returncode == -9
    [path] = tmp_path.glob("*.ngr")
    assert re.fullmatch(r"contest-\d{8}-\d{6}-0001-p1\.ngr", path.name), path.name
    record = Record.load(path)
    # Our three moves and the opponent's three were all on disk before our fourth was sent; the fourth itself, and
    # its acknowledgement, may or may not have been written when the kill came.
    assert record.result == "*" and len(record.moves) in (6, 7)
    record.replay()


# -------------------------------------------------------------------------------------------- a result before SET?


class ResultFirst:
    """A server that opens with a result line (no ``SET?``), then waits for the client to close; it notes whether the
    client closed the connection."""

    def __init__(self, result: str) -> None:
        self.result = result
        self.closed_by_client: list[bool] = []

    async def __call__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(f"{self.result}:{BOARD}\r\n".encode())
        await writer.drain()
        self.closed_by_client.append(await reader.read(100) == b"")


@pytest.mark.parametrize("result", ["WON", "LST", "DRW"])
def test_a_result_before_set_is_a_protocol_error_not_a_game(
    result: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``WON:`` before any ``SET?`` was counted as a win and recorded. It is an error said in one line, the
    connection is closed, nothing is counted but the error and nothing is recorded."""
    server_side = ResultFirst(result)
    with HandlerThread(server_side) as server:
        code = connect(["--port", str(server.port), "--as", "random", "--save", str(tmp_path)])
        wait_until(lambda: bool(server_side.closed_by_client), "the server sees the connection closed")
    out, err = capsys.readouterr()
    assert code == 1
    [line] = [line for line in err.splitlines() if line.startswith("game 1:")]
    assert line.startswith(f"game 1: error: the server sent '{result}:") and "before any SET?" in line, line
    assert "0 games as random: 0 wins, 0 draws, 0 losses, 1 error;" in out
    assert list(tmp_path.iterdir()) == []
    assert server_side.closed_by_client == [True]


def test_play_game_raises_on_a_result_before_set_with_no_record(tmp_path: Path) -> None:
    server_side = ResultFirst("WON")

    async def main() -> None:
        player = AIPlayer(RandomPlayer(), random.Random(1))
        await play_game("127.0.0.1", server.port, player, save_dir=tmp_path)

    with HandlerThread(server_side) as server, pytest.raises(ServerProtocolError) as raised:
        asyncio.run(main())
    assert raised.value.record is None and raised.value.record_path is None
    assert "\n" not in str(raised.value)
    assert list(tmp_path.iterdir()) == []
