"""The search AIs in the app: they think in a separate process (as opponents, and for the live advice panel), and
the set-up screen offers them with a thinking time."""

from __future__ import annotations

import pytest
from pilot_helpers import run, settle

from core.game import Side
from solvers.catalogue import players_for
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.widgets.board import Board
from tui.widgets.search_advice import SearchAdvicePanel

SIZE = (120, 40)


def test_search_ais_are_offered_for_geister() -> None:
    assert {"greedy", "mc", "upp", "ismcts"} <= {e.name for e in players_for("geister")}


def test_live_advice_searches_in_a_process_and_keys_stay_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GameScreen, "ADVICE_BUDGET", 2.0)
    monkeypatch.setattr(GameScreen, "ADVICE_SLICE", 0.3)

    async def test() -> None:
        config = GeisterConfig("geister", Side.P1, "chototsu", "BRRBBRRB", 3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            panel = app.screen.query_one("#search-advice", SearchAdvicePanel)
            assert not panel.display  # off until asked for: it keeps a core busy
            await pilot.press("a")
            assert panel.display
            board = app.screen.query_one("#board", Board)
            text = ""
            answered_while_searching = 0
            for presses in range(1, 201):
                searching = "done" not in str(panel.render())
                await pilot.press("f")  # any key: flip the board; it must be answered while the search runs
                # Behaviour, not timing (benchmarks/key_latency.py measures the time): the key took effect.
                assert board.flipped == (presses % 2 == 1)
                answered_while_searching += searching
                await pilot.pause(0.05)
                text = str(panel.render())
                if "done" in text:
                    break
            assert "Suggested:" in text and "depth" in text and "nodes" in text and "chance of blue" in text, text
            assert answered_while_searching >= 1

    run(test)


def test_an_upp_opponent_plays_from_its_process() -> None:
    async def test() -> None:
        config = GeisterConfig("geister", Side.P1, "upp", "BRRBBRRB", 3, think_time=0.05)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("colon", *"b2-b3", "enter")
            for _ in range(100):
                await settle(app, pilot)
                if len(screen.session.state.moves()) == 2:
                    break
            assert len(screen.session.state.moves()) == 2
            assert screen.session.record().tags["Opponent"] == "upp"

    run(test)
