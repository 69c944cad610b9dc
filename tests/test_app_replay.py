"""The replay viewer of a Geister record, opened from the command line's request or the menu: stepping, playing at a
speed, pausing, and the record left as it was. Other games' records in the viewer: ``test_record_viewer.py``.

Driven through Textual's pilot; each test has its own state directory (``NASHPLAY_STATE_DIR``), ``ai_delay=0``
and a fixed seed, and asserts on the model and widget state. Plain functions run their coroutine with
``asyncio.run`` (no async plugin needed).
"""

from __future__ import annotations

from pathlib import Path

from app_helpers import SIZE, finished_record
from pilot_helpers import run, view_of, wait_for
from screen_text import layout_problems, screen_text
from textual.widgets import Input
from waiting import HANG_SECONDS

from tui.app import NashplayApp, StartRequest
from tui.screens.ask_path import AskPath
from tui.screens.menu import MenuScreen
from tui.screens.replay import SPEEDS, ReplayScreen


def test_replay_viewer_steps_plays_and_never_changes_the_record() -> None:
    async def test() -> None:
        record = finished_record()
        text = record.to_text()
        states = record.replay()
        positions = [state.position() for state in states]
        assert len(positions) > 10
        app = NashplayApp(StartRequest("replay", record=record, replay_title="Replay: test"), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen) and screen.title == "Replay: test"
            last = len(positions) - 1
            assert screen.last_ply == last

            def shown() -> str:
                return view_of(app).position()

            assert screen.ply == 0 and shown() == positions[0]
            await pilot.press("right")
            assert screen.ply == 1 and shown() == positions[1]
            await pilot.press("left", "left")
            assert screen.ply == 0 and shown() == positions[0]
            await pilot.press("end")
            assert screen.ply == last and shown() == positions[-1]
            assert "Game over" in str(screen.query_one("#status").render())
            await pilot.press("right")
            assert screen.ply == last
            await pilot.press("home", "right", "right", "right")
            assert screen.ply == 3 and shown() == positions[3]
            assert "a note" in str(screen.query_one("#status").render())
            # Every position matches Record.replay(), and hides nothing (a finished game).
            for ply in range(last + 1):
                screen.ply = ply
                assert shown() == positions[ply]
            await pilot.press("home")

            # Space plays, space pauses; the timer's tick advances one move. The test ticks itself, on a timer that
            # never comes due here (on a loaded machine the real one could step between the key and the check).
            screen.start_playback(HANG_SECONDS)
            await pilot.press("space")
            assert screen.playing
            screen._tick()
            screen._tick()
            assert screen.ply == 2
            await pilot.press("space")
            assert not screen.playing

            # + and - change the speed, within the table.
            assert SPEEDS[screen.speed_index] == 1.0
            await pilot.press("plus")
            assert SPEEDS[screen.speed_index] == 0.5
            await pilot.press("minus", "minus", "minus")
            assert screen.speed_index == 0
            await pilot.press(*["plus"] * 6)
            assert screen.speed_index == len(SPEEDS) - 1

            # At the fastest speed the real timer moves on by itself, and stops when paused: while a probe timer of
            # the same period ticks three times in the same event loop, the paused one does not move the position.
            await pilot.press("home", "space")
            await wait_for(pilot, lambda: screen.ply >= 2, "the replay's timer to play two moves")
            await pilot.press("space")
            stopped = screen.ply
            ticks: list[int] = []
            probe = screen.set_interval(SPEEDS[screen.speed_index], lambda: ticks.append(1))
            await wait_for(pilot, lambda: len(ticks) >= 3, "three ticks of a timer at the replay's speed")
            probe.stop()
            assert screen.ply == stopped and shown() == positions[stopped]
            # At the end, play starts again from the start (on a timer that does not come due while we look);
            # a tick past the end stops playing.
            await pilot.press(*["minus"] * 5)
            screen.start_playback(HANG_SECONDS)
            await pilot.press("end", "space")
            assert screen.ply == 0 and screen.playing
            screen.ply = last
            screen._tick()
            assert not screen.playing and screen.ply == last
            await pilot.press("escape")
            await pilot.pause()
        assert record.to_text() == text
        assert [s.position() for s in record.replay()] == positions

    run(test)


def test_menu_opens_a_record_file(tmp_path: Path) -> None:
    async def test() -> None:
        record = finished_record()
        path = tmp_path / "game.ngr"
        record.save(path)
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("o")
            await pilot.pause()
            assert isinstance(app.screen, AskPath)
            field = app.screen.query_one("#path", Input)
            assert field.value == f"{Path.cwd()}/"
            field.value = str(tmp_path / "missing.ngr")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert "Cannot replay" in str(app.screen.query_one("#menu-message").render())
            await pilot.press("o")
            await pilot.pause()
            app.screen.query_one("#path", Input).value = str(path)
            await pilot.press("enter")
            await pilot.pause()
            replay = app.screen
            assert isinstance(replay, ReplayScreen) and replay.last_ply == len(record.moves)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)

    run(test)


LONG_PATH = "Replay: /home/someone/Documents/nashplay/records/geister-2024-05-01-against-chototsu.ngr"


def test_the_title_and_the_position_are_never_cut_at_80x24_nor_at_110x34() -> None:
    """At 80x24 the header said "Replay..." (a long path cut at its first space) and the status ended its position
    with an ellipsis (a cut position cannot be copied). A shorter title is chosen instead (the file's name), and the
    position goes whole on a line of its own; at 110x34 it is back beside "Position:"."""

    async def test() -> None:
        record = finished_record()
        app = NashplayApp(StartRequest("replay", record=record, replay_title=LONG_PATH), ai_delay=0, ascii_mode=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("right")
            await pilot.pause()
            assert screen.title == "Replay: geister-2024-05-01-against-chototsu.ngr", screen.title
            position = view_of(app).position()
            lines = str(screen.query_one("#status").render()).splitlines()
            assert position in lines and "Position:" in lines, lines
            assert "..." not in screen.title and "\u2026" not in screen_text(app) and not layout_problems(app)
            await pilot.resize_terminal(110, 34)
            await pilot.pause()
            await pilot.pause()
            lines = str(screen.query_one("#status").render()).splitlines()
            assert f"Position: {position}" in lines and "left/right: step; Home/End: the ends; f: flip" in lines
            # 110 columns: still not the whole path, but the file's name and who played.
            assert (screen.title, screen.sub_title) == (
                "Replay: geister-2024-05-01-against-chototsu.ngr",
                "human vs chototsu, result 0-1",
            )
            assert not layout_problems(app)

    run(test)
