"""Watching two AIs: each decides from its own view with its own generator, the watcher sees every colour, pauses,
steps one move at a time, and the finished game's record is kept to review."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pilot_helpers import run, wait_for

from core.geister import Colour, GeisterView
from core.record import Record
from tui.app import NashplayApp
from tui.screens.watch import SPEEDS, WatchScreen
from tui.widgets.board import Board


class Recording:
    """Wraps a player: remembers every view it was given."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.name = player.name
        self.views: list[GeisterView] = []

    def choose(self, view: GeisterView, rng: Any, limit: Any = None) -> Any:
        self.views.append(view)
        return self.player.choose(view, rng)


def test_two_ais_play_paused_stepped_and_their_game_kept(state_dir: Path) -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            watch = WatchScreen("mini-geister", ("chototsu", "random"), 0.1, seed=4)
            watch.players = tuple(Recording(player) for player in watch.players)  # type: ignore[assignment]
            watch.paused = True  # stepped by hand from the start
            app.push_screen(watch)
            await wait_for(pilot, lambda: app.screen is watch and not watch.thinking, "the first set-up")
            for expected in range(2, 6):  # two set-ups, then moves
                await pilot.press("right")
                await wait_for(pilot, lambda: not watch.thinking, "one step")
                assert len(watch.state.history()) == expected
            assert "paused" in str(watch.query_one("#status").render())
            board = watch.query_one("#board", Board).view
            assert board is not None and all(
                p.colour is not Colour.UNKNOWN for _, p in board.pieces(board.viewer.other)
            )
            # Each AI saw its own view only: the other side's colours hidden.
            for recording in watch.players:
                for view in recording.views:  # type: ignore[attr-defined]
                    if view.phase != "setup":
                        assert all(p.colour is Colour.UNKNOWN for _, p in view.pieces(view.viewer.other))
            watch.pause_index = SPEEDS.index(0.0)
            await pilot.press("space")
            await wait_for(pilot, lambda: watch.state.is_terminal() and watch.kept is not None, "the end")
            record = Record.load(watch.kept or "")
            assert record.tags["Player1"] == "chototsu" and record.result != "*"
            assert watch.active_bindings["v"].binding.action == "review" and watch.check_action("review", ())

    run(test)
