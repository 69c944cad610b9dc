"""A Mini-Geister game whose tables are not solved yet says so while it solves them, with how far it is and where the
tables are kept (issue: "the first Mini-Geister 3-vs-2 tables: about 1.6 s of 'working it out...' on first use").

Each test has its own empty solver cache (``tests/conftest.py``), and the process's table store (kept for the process,
``solvers.mini_geister.analysis.default_store``) is a fresh one here, so the game's first advice solves its tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pilot_helpers import run, wait_for

from core.game import Side
from solvers.mini_geister.analysis import default_store
from solvers.mini_geister.tables import TableStore, building_reported
from solvers.mini_geister.three_vs_two import three_vs_two
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.widgets.advice import AdvicePanel


@pytest.fixture(autouse=True)
def fresh_store() -> Iterator[None]:
    """The process's store without the tables an earlier test of this worker solved or read."""
    default_store.cache_clear()
    yield
    default_store.cache_clear()


def test_a_store_without_progress_reports_to_the_threads_listener_only_what_it_solves() -> None:
    reports: list[tuple[str, float]] = []
    with building_reported(lambda what, share: reports.append((what, share))):
        three_vs_two("rbb", store=TableStore())
    assert reports, "nothing reported while solving"
    assert all(0.0 <= share <= 1.0 for _, share in reports)
    assert {what.split(",")[0] for what, _ in reports} <= {"colourless", "perfect information"}
    reports.clear()
    with building_reported(lambda what, share: reports.append((what, share))):
        three_vs_two("rbb", store=TableStore())  # read from the cache now: nothing is solved, nothing said
    assert reports == []
    three_vs_two("rrb", store=TableStore())  # nobody listening: nothing reported, nothing fails


def test_the_first_advice_of_a_three_vs_two_game_says_it_solves_the_tables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    said: list[str] = []
    show = AdvicePanel.show

    def recorded(panel: AdvicePanel, advice: object, engine: str, note: object = "", *args: object) -> None:
        if isinstance(note, tuple):
            said.append(note[0])
        show(panel, advice, engine, note, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(AdvicePanel, "show", recorded)

    async def test() -> None:
        config = GeisterConfig("mini-geister-3v2-rrb", Side.P1, "chototsu", "BRR", 3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=(110, 34)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("a")
            panel = screen.query_one("#mini-advice", AdvicePanel)
            await wait_for(pilot, lambda: "Suggested" in str(panel.render()), "the tables' advice")

    run(test)
    solving = [note for note in said if note.startswith("Solving this game's tables, once")]
    assert solving, said
    assert all("%" in note and "kept in" in note for note in solving), solving
    assert f"kept in {tmp_path / 'cache'}" in solving[0], solving[0]  # the test's own cache folder
