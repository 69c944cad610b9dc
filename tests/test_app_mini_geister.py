"""Mini-Geister in the app with the solved tables: the advice panel (values under both rules, every move, the
equilibrium's choice), its toggle, the Nash and mirror opponents, and perfect-information values after the game."""

from __future__ import annotations

import json
from pathlib import Path

from pilot_helpers import SEED, run, settle, settle_workers, type_move

from core.game import Side
from solvers.catalogue import players_for
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen, mini_geister_advice
from tui.session import make_opponent
from tui.storage import Settings
from tui.widgets.mini_advice import MiniAdvicePanel

SIZE = (110, 40)


def app_for(opponent: str = "chototsu", side: Side = Side.P1, setup: str = "BR") -> NashplayApp:
    return NashplayApp(StartRequest.for_config(GeisterConfig("mini-geister", side, opponent, setup, SEED)), ai_delay=0)


def panel_text(app: NashplayApp) -> str:
    return str(app.screen.query_one("#mini-advice", MiniAdvicePanel).render())


def test_advice_at_the_start_shows_the_papers_distances() -> None:
    async def test() -> None:
        app = app_for()
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            text = panel_text(app)
            # Player 1 to move at the start: 13 plies (base rule), 11 (extended rule).
            assert "+1 in 13" in text and "+1 in 11" in text
            assert "b1-b2" in text and "c1-c2" in text
            assert " <" in text  # the equilibrium's moves are marked
            await pilot.press("a")
            assert not app.screen.query_one("#mini-advice").display and app.mini_geister_advice is False
            await pilot.press("a")
            await settle_workers(app, pilot)
            assert app.screen.query_one("#mini-advice").display

    run(test)


def test_advice_uses_only_the_users_view() -> None:
    # The same position from the user's view with the opponent's colours swapped gives the same advice.
    one = mini_geister_advice("1ub1/4/4/1BR1 1", Side.P1, None)
    other = mini_geister_advice("1bu1/4/4/1BR1 1", Side.P1, None)
    assert one.base == other.base and one.moves == other.moves


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
            await settle_workers(app, pilot)
            assert "The game is over" in panel_text(app)
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
            assert app.mini_geister_advice is False
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
