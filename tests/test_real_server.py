"""Issue 15's acceptance: against the fake server with every behaviour of the reference server switched on, 100
games in a row end with a result and 0 errors.

The behaviours (``ServerOptions.real``, ``spec/geister-protocol.md``, "Behaviour of the real server"): connections
made while a game runs are reset when it ends (and the first two on each port are dropped, so that drops happen
whatever the timing), an escape is acknowledged with the mover's previous capture, and every 10th game is ended by
a false time-out. Two nashplay clients play through it game after game, reconnecting at once after each result as
contest clients do. Fast players (random against greedy) keep it to seconds; nothing here reads a clock.

The same by hand, with the command line (the report quotes its output):
``python tests/fake_server.py --real --opponent greedy --games 100 --ports 18000,18001`` and
``nashplay connect --port 18000 --as random --games 100 --json``.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from fake_server import FakeServer, ServedGame, ServerOptions

from core.record import Record
from solvers.catalogue import make_player
from tui.config import ContestSettings
from tui.contest_events import Connecting, ContestError, ContestEvent, GameResult
from tui.net import AIPlayer, play_game

HOST = "127.0.0.1"
GAMES = 100

Played = tuple[list[GameResult], list[ContestError]]


async def contest_client(port: int, name: str, seed: int, save_dir: Path, events: list[ContestEvent]) -> Played:
    """``GAMES`` games in a row on ``port``, as ``nashplay connect --games`` plays them: a fresh player and a fresh
    connection for each game; errors are collected, not raised."""
    settings = ContestSettings(connect_deadline=60.0)
    rng = random.Random(seed)
    results: list[GameResult] = []
    errors: list[ContestError] = []
    for number in range(1, GAMES + 1):
        player = AIPlayer(make_player(name, "geister"), random.Random(rng.getrandbits(64)))
        try:
            result = await play_game(
                HOST, port, player, settings=settings, save_dir=save_dir, game_number=number, on_event=events.append
            )
        except ContestError as error:
            errors.append(error)
            continue
        results.append(result)
    return results, errors


def test_a_hundred_games_in_a_row_against_the_real_servers_behaviour(tmp_path: Path) -> None:
    options = ServerOptions.real(drop_first=2)
    events: tuple[list[ContestEvent], list[ContestEvent]] = ([], [])
    folders = (tmp_path / "first", tmp_path / "second")

    async def main() -> tuple[Played, Played, list[ServedGame], list[int]]:
        async with FakeServer(options, seed=15) as server:
            first, second = await asyncio.gather(
                contest_client(server.ports[0], "random", 1, folders[0], events[0]),
                contest_client(server.ports[1], "greedy", 2, folders[1], events[1]),
            )
            served = await server.wait_games(GAMES)
            return first, second, served, list(server.dropped)

    (ones, one_errors), (twos, two_errors), served, dropped = asyncio.run(main())

    assert [str(e) for e in one_errors + two_errors] == []
    assert len(ones) == len(twos) == len(served) == GAMES
    for one, two, game in zip(ones, twos, served, strict=True):
        assert [one.result, two.result] == game.results  # every game ended with the server's result, on both sides
        assert game.violations == []
    # The behaviours did happen: drops before SET? (each one a retry, not a game), and the false time-outs, which
    # the records name as the server's.
    assert dropped[0] >= 2 and dropped[1] >= 2
    retries = [e for e in events[0] + events[1] if isinstance(e, Connecting)]
    assert sum(e.dropped for e in retries) == sum(dropped)
    false_timeouts = [n for n, game in enumerate(served) if game.false_timeout]
    assert len(false_timeouts) == GAMES // 10
    for number in false_timeouts:
        for result in (ones[number], twos[number]):
            assert result.record_path is not None
            assert "time-out declared by the server" in Record.load(result.record_path).tags["Termination"]
    # One record per game and side, none for a dropped connection.
    assert [len(list(folder.glob("*.ngr"))) for folder in folders] == [GAMES, GAMES]
