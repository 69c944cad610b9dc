"""Mini-Geister in the app with the solved tables: the advice panel (values under both rules, every move, the
equilibrium's choice), its toggle, the Nash and mirror opponents, and perfect-information values after the game."""

from __future__ import annotations

import json
from pathlib import Path

from pilot_helpers import SEED, close_game_over, run, settle, settle_workers, type_move

from core.game import Side
from solvers.advice.mini_geister import advise
from solvers.catalogue import players_for
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.session import make_opponent
from tui.storage import Settings
from tui.widgets.advice import AdvicePanel
from tui.widgets.eval_bar import EvalBar

SIZE = (110, 40)


def app_for(opponent: str = "chototsu", side: Side = Side.P1, setup: str = "BR") -> NashplayApp:
    return NashplayApp(StartRequest.for_config(GeisterConfig("mini-geister", side, opponent, setup, SEED)), ai_delay=0)


def panel_text(app: NashplayApp) -> str:
    return str(app.screen.query_one("#mini-advice", AdvicePanel).render())


def test_advice_at_the_start_shows_the_papers_distances() -> None:
    async def test() -> None:
        app = app_for()
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            text = panel_text(app)
            # Player 1 to move at the start: a coin flip forced in 13 plies (base rule), 11 (extended rule); the
            # opponent's in 16. Worth 0: a coin flip is no win, so the game's value is the start's (3: it said +1).
            words = " ".join(text.split())  # the panel wraps its details to its width
            assert "Value for you: +0.00, exact" in text
            assert "You can force a coin flip" in words and "in 13 plies (extended rule: 11 plies)" in words, text
            assert "in 16 plies" in words, text
            assert "b1-b2" in text and "c1-c2" in text
            assert " <" in text  # the suggested move is marked, and the equilibrium's moves carry their weights
            assert "25%" in text
            # The bar beside the board gives the exact value.
            assert app.screen.query_one("#eval-bar", EvalBar).label == "+0.00"
            await pilot.press("a")
            assert not app.screen.query_one("#mini-advice").display and app.advice_shown("mini-geister") is False
            await pilot.press("a")
            await settle_workers(app, pilot)
            assert app.screen.query_one("#mini-advice").display

    run(test)


def test_advice_uses_only_the_users_view() -> None:
    # The same position from the user's view with the opponent's colours swapped gives the same advice.
    one = advise("1ub1/4/4/1BR1 1", "mini-geister", Side.P1)
    other = advise("1bu1/4/4/1BR1 1", "mini-geister", Side.P1)
    assert one.value == other.value and one.moves == other.moves


def test_advice_follows_the_game_and_reveals_perfect_information_after_it() -> None:
    async def test() -> None:
        app = app_for("nash")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for _ in range(30):
                if screen.session.is_over:
                    break
                legal = screen.session.view().legal_moves()
                await type_move(app, pilot, legal[0].to_text())
                await settle(app, pilot)
            assert screen.session.is_over
            await close_game_over(app, pilot)
            await settle_workers(app, pilot)
            assert panel_text(app).lower().count("the game is over") == 1  # it was said twice
            await pilot.press("tab", "home")
            await settle_workers(app, pilot)
            text = panel_text(app)
            assert "All colours known" in text

    run(test)


def test_mini_geister_offers_the_nash_and_mirror_opponents() -> None:
    assert {"nash", "nash-extended", "mirror"} <= {e.name for e in players_for("mini-geister")}
    assert "nash" not in {e.name for e in players_for("geister")}
    assert make_opponent("nash").name == "nash"
    assert make_opponent("mirror").name == "mirror"


def test_the_mirror_opponent_mirrors_in_the_app() -> None:
    async def test() -> None:
        app = app_for("mirror")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            await type_move(app, pilot, "b1-b2")
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert [m.to_text() for m in screen.session.state.moves()] == ["b1-b2", "b4-b3"]

    run(test)


def test_the_advice_choice_is_remembered_between_sessions(state_dir: Path) -> None:
    async def test() -> None:
        app = app_for()
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            await pilot.press("a")
            assert app.advice_shown("mini-geister") is False
        again = app_for()
        async with again.run_test(size=SIZE) as pilot:
            await settle_workers(again, pilot)
            assert not again.screen.query_one("#mini-advice").display

    run(test)
    assert json.loads((state_dir / "settings.json").read_text())["mini_geister_advice"] is False


def test_a_damaged_settings_file_means_the_defaults(state_dir: Path) -> None:
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "settings.json").write_text("{not json")
    settings = Settings()
    assert settings.get("mini_geister_advice") is True and settings.get("search_advice") is False
    settings.set("search_advice", True)
    assert Settings().get("search_advice") is True


def test_the_3_vs_2_variants_get_the_exact_section_6_advice() -> None:
    """They had Monte Carlo advice; the solver computes their exact analysis (section 6), and the panel shows it."""

    async def test() -> None:
        config = GeisterConfig("mini-geister-3v2-rrb", Side.P1, "chototsu", "BRR", SEED)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            text = panel_text(app)
            assert "solved tables" in text and "exact" in text, text
            assert not app.screen.query_one("#search-advice").display  # no search runs beside the tables
            expected = advise(app.screen.session.view().position(), "mini-geister-3v2-rrb", Side.P1)
            assert f"Suggested: {expected.best}" in text, text

    run(test)
