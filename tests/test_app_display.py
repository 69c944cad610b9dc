"""How the app draws itself: themes (cycled with t, remembered between sessions), ASCII mode, NO_COLOR, and a
terminal too small for the game.

Driven through Textual's pilot; each test has its own state directory (``NASHPLAY_STATE_DIR``), ``ai_delay=0``
and a fixed seed, and asserts on the model and widget state. Plain functions run their coroutine with
``asyncio.run`` (no async plugin needed).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from app_helpers import SEED, SIZE
from pilot_helpers import first_move, play_app, run, settle
from waiting import HANG_SECONDS, released

from core.game import Side
from core.geister import GeisterView
from core.notation import Move
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.screens.help import HelpScreen
from tui.session import GameSession
from tui.widgets.board import Board

# ------------------------------------------------------------------------------------------------ ASCII, NO_COLOR, size


def test_ascii_mode_draws_the_board_with_ascii_only() -> None:
    async def test() -> None:
        for ascii_mode in (False, True):
            app = play_app(ascii_mode=ascii_mode)
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                await first_move(app, pilot)  # a last move, so its marks are drawn too
                board = app.screen.query_one("#board", Board).render().plain
                legend = str(app.screen.query_one("#legend").render())
                if ascii_mode:
                    assert board.isascii() and legend.isascii(), board
                    assert "^   ^" in board and "v   v" in board and "*" in board  # exits: arrows at both edges
                    assert app.has_class("-ascii")
                else:
                    assert not board.isascii() and "▲" in board, "the default glyphs are Unicode"
                assert "B" in board and "?" in board

    run(test)


def test_ascii_mode_status_is_ascii(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    choose = GameSession.choose_opponent_move

    def thinking(session: GameSession, view: GeisterView) -> Move:
        gate.wait(HANG_SECONDS)
        return choose(session, view)

    # The opponent (it moves first) thinks until the test lets it, so the status is read while it says "thinking".
    monkeypatch.setattr(GameSession, "choose_opponent_move", thinking)

    async def test() -> None:
        config = GeisterConfig("mini-geister", Side.P2, "chototsu", "BR", SEED)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0, ascii_mode=True)
        with released(gate):
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, GameScreen) and screen.session.opponents_turn
                for part in ("#status", "#captured", "#legend", "#board", "#mini-advice"):
                    text = str(screen.query_one(part).render())
                    assert text.isascii(), (part, text)
                gate.set()
                await settle(app, pilot)

    run(test)


def test_no_color_runs_and_letters_tell_the_pieces_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def test() -> None:
        app = play_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.no_color
            await first_move(app, pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert "<svg" in app.export_screenshot()  # the whole screen goes through the line API
            lines = screen.query_one("#board", Board).render().plain.splitlines()
            pieces = "".join(line[3:] for line in lines[0:8:2])  # the piece lines, without rank labels
            assert pieces.count("?") == 2 and pieces.count("B") == 1 and pieces.count("R") == 1
            await pilot.press("t", "question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            app.export_screenshot()

    run(test)


def test_too_small_terminal_shows_a_message_until_resized() -> None:
    async def test() -> None:
        app = play_app()
        async with app.run_test(size=(40, 12)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.has_class("-too-small")
            message = screen.query_one("#too-small")
            assert message.display and "40x12" in str(message.render())
            assert not screen.query_one("#main").display
            await pilot.resize_terminal(*SIZE)
            await pilot.pause()
            assert not screen.has_class("-too-small")
            assert not message.display and screen.query_one("#main").display
            await first_move(app, pilot)
            assert screen.session.state.moves()[0] == Move.parse("b1-b2")

    run(test)


# ------------------------------------------------------------------------------------------------ remembered theme


def test_the_theme_is_remembered_between_sessions(state_dir: Path) -> None:
    """The theme chosen (t, or the palette) is kept in the settings file like the advice toggles; a theme asked for
    by name (``--theme``) wins for that session."""

    async def test() -> None:
        first = NashplayApp(ai_delay=0)
        async with first.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert first.theme == "nashplay"
            await pilot.press("t")
            await pilot.pause()
            assert first.theme == "nashplay-colourblind"
        second = NashplayApp(ai_delay=0)
        async with second.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert second.theme == "nashplay-colourblind"
        third = NashplayApp(ai_delay=0, theme_name="nashplay-light")
        async with third.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert third.theme == "nashplay-light"

    run(test)


@pytest.mark.parametrize("stored", ['{"theme": 7}', '{"theme": "no-such-theme"}', '{"theme": ["nashplay-light"]}'])
def test_a_damaged_remembered_theme_means_the_default(state_dir: Path, stored: str) -> None:
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "settings.json").write_text(stored)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.theme == "nashplay"

    run(test)
