"""The search AIs in the app: they think in a separate process (as opponents, and for the live advice panel), and
the set-up screen offers them with a thinking time."""

from __future__ import annotations

from typing import Any

import pytest
from pilot_helpers import run, wait_for

from core.game import Side
from solvers.catalogue import players_for
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.search_process import SearchProcess
from tui.widgets.advice import AdvicePanel
from tui.widgets.board import Board

SIZE = (120, 40)


def test_search_ais_are_offered_for_geister() -> None:
    assert {"greedy", "mc", "upp", "ismcts"} <= {e.name for e in players_for("geister")}


def test_live_advice_searches_in_a_process_and_keys_stay_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Behaviour, not timing (benchmarks/key_latency.py measures the time): the advice's reports come from the search
    process, and while that search is still running (a budget it cannot finish during the test) every key takes
    effect at once. An earlier version waited a fixed number of short pauses for the search to finish, and failed
    when a loaded machine took longer."""
    monkeypatch.setattr(GameScreen, "ADVICE_BUDGET", 3600.0)
    monkeypatch.setattr(GameScreen, "ADVICE_SLICE", 0.3)
    submitted: list[str] = []
    real_submit = SearchProcess.submit

    def submit(process: SearchProcess, fn: Any, *args: Any) -> Any:
        submitted.append(fn.__name__)
        return real_submit(process, fn, *args)

    monkeypatch.setattr(SearchProcess, "submit", submit)

    async def test() -> None:
        config = GeisterConfig("geister", Side.P1, "chototsu", "BRRBBRRB", 3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            panel = app.screen.query_one("#search-advice", AdvicePanel)

            def shown() -> bool:  # a call, so that the type checker does not narrow the first answer into the next
                return bool(panel.display)

            assert not shown()  # off until asked for: it keeps a core busy
            await pilot.press("a")
            assert shown()
            await wait_for(pilot, lambda: "Suggested:" in str(panel.render()), "the advice's first suggestion")
            text = str(panel.render())
            assert "Suggested:" in text and "depth" in text and "nodes" in text and "chance of blue" in text, text
            assert "thinking" in text and "done" not in text, text  # the hour's budget is not spent: still searching
            assert "advise_in_child" in submitted  # the report came through the search process
            searching = [w for w in app.screen.workers if w.group == "search-advice"]
            assert searching and all(w.is_running for w in searching)  # waiting on the process in a thread
            board = app.screen.query_one("#board", Board)
            for presses in range(1, 5):
                await pilot.press("f")  # any key: flip the board; it must be answered while the search runs
                assert board.flipped == (presses % 2 == 1)
            assert all(w.is_running for w in searching)  # the keys came while the search went on
            await pilot.press("a")  # advice off: the search stops with it
            await app.workers.wait_for_complete()
            assert not shown()
            assert not any(w.is_running for w in searching)

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
            await wait_for(pilot, lambda: len(screen.session.state.moves()) == 2, "upp's reply")
            assert screen.session.record().tags["Opponent"] == "upp"

    run(test)


def test_the_advices_process_is_readied_as_the_game_opens_and_its_first_report_is_a_short_slice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The advice's process started only when ``a`` was pressed, and the first advice waited for it to start and load
    the compiled engine (1.6 s on an idle machine, measured by benchmarks/key_latency.py); now the game readies it
    as it opens, nobody asking, and the first slice of a position's search is the short one."""
    monkeypatch.setattr(GameScreen, "WARM_ADVICE_AHEAD", True)
    monkeypatch.setattr(GameScreen, "ADVICE_BUDGET", 3600.0)
    calls: list[tuple[str, tuple[Any, ...]]] = []
    real_submit = SearchProcess.submit

    def submit(process: SearchProcess, fn: Any, *args: Any) -> Any:
        calls.append((fn.__name__, args))
        return real_submit(process, fn, *args)

    monkeypatch.setattr(SearchProcess, "submit", submit)

    async def test() -> None:
        config = GeisterConfig("geister", Side.P1, "chototsu", "BRRBBRRB", 3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await wait_for(pilot, lambda: screen._advice_ready is not None, "the advice's process started")
            assert [name for name, _ in calls] == ["warm_in_child"]  # nobody asked: readied ahead
            ready = screen._advice_ready
            assert ready is not None
            await wait_for(pilot, ready.done, "the advice's engine loaded")
            await pilot.press("a")
            panel = screen.query_one("#search-advice", AdvicePanel)
            await wait_for(pilot, lambda: "Suggested:" in str(panel.render()), "the first suggestion")
            slices = [args[3] for name, args in calls if name == "advise_in_child"]
            assert slices[0] == GameScreen.FIRST_ADVICE_SLICE < GameScreen.ADVICE_SLICE, slices
            await wait_for(pilot, lambda: len([n for n, _ in calls if n == "advise_in_child"]) >= 2, "a second slice")
            slices = [args[3] for name, args in calls if name == "advise_in_child"]
            assert slices[1] == GameScreen.ADVICE_SLICE, slices
            await pilot.press("a")

    run(test)


def test_the_panel_says_what_it_waits_for_with_the_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until a position's first report the panel says whether the engine is still loading (compiled on its first
    use: up to a minute) or the search starting, and the seconds waited move."""
    from concurrent.futures import Future

    async def test() -> None:
        config = GeisterConfig("geister", Side.P1, "chototsu", "BRRBBRRB", 3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.pause()
            clock = [100.0]
            monkeypatch.setattr("tui.screens.board_screen.time.monotonic", lambda: clock[0])
            screen._advice_ready = Future()  # the engine still loading
            screen._advice_asked = 97.0
            assert screen._waiting_note()[0].startswith("Loading the search engine (compiled on its first use")
            assert screen._waiting_note()[0].endswith("... 3 s")
            screen._advice_ready.set_result(None)
            clock[0] = 105.0
            assert screen._waiting_note() == (
                "Starting the search in a background process... 8 s",
                "Starting the search... 8 s",
            )

    run(test)
