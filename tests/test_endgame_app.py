"""The endgame tables in the app (issue 19): a Geister game down to one blue and one red a side shows the tables'
exact advice, and the evaluation bar is marked."""

from __future__ import annotations

import pytest
from pilot_helpers import run, wait_for

from core.game import Side
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.widgets.advice import AdvicePanel
from tui.widgets.eval_bar import EvalBar

#: Player 1's blue one step from its exit a6, nothing of player 2's able to stop it (their colours hidden: drawn).
ESCAPE = "6/B5/6/3u2/4u1/5R 1 BBBRRRbbbrrr 100"


@pytest.mark.xdist_group("endgame-tables")  # on the worker that builds the 6x6 tables for test_endgame: once, not twice
@pytest.mark.usefixtures("use_shared_solved_tables")
def test_a_game_in_the_tables_shows_exact_advice_and_marks_the_bar() -> None:
    async def test() -> None:
        config = GeisterConfig("geister", Side.P1, "chototsu", None, 3, position=ESCAPE)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            await pilot.press("a")
            panel = app.screen.query_one("#search-advice", AdvicePanel)
            await wait_for(pilot, lambda: "Suggested:" in str(panel.render()), "the advice's first suggestion")
            text = str(panel.render())
            assert "Suggested: a5-a6" in text and "win in 3, exact" in text, text
            bar = app.screen.query_one("#eval-bar", EvalBar)
            assert bar.label == "W3" and bar.mark == "TB"
            assert "TB" in str(bar.render())  # said in letters, not by colour alone

    run(test)
