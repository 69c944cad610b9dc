"""The keys of a game's life at a small terminal (issue 28, tried in tmux at 80x24): q and Ctrl-C quit from the
game-over panel and the hot seat's cover as from the game, Esc leaves the cover for the menu, the hot seat's texts
say who by side, u is out of the footer once a game is over and says why, the palette's "Back to the menu" says
what becomes of the game, and quitting a game with no move says that nothing was kept."""

from __future__ import annotations

from pathlib import Path

from pilot_helpers import run, settle_workers, wait_for
from screen_text import assert_fits, screen_text
from textual.pilot import Pilot

from core.game import Side
from core.impartial import Nim
from core.notation import Move
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig, NimConfig
from tui.screens.game import GameScreen
from tui.screens.game_over import GameOverPanel
from tui.screens.hand_over import HandOverScreen
from tui.screens.menu import MenuScreen
from tui.screens.nim import NimScreen

SIZE = (80, 24)


def geister_app(opponent: str = "random", ascii_mode: bool = False) -> NashplayApp:
    config = GeisterConfig("mini-geister", Side.P1, opponent, "BR", seed=3)
    return NashplayApp(StartRequest.for_config(config), ai_delay=0, ascii_mode=ascii_mode)


def nim_app(heaps: tuple[int, ...] = (1,)) -> NashplayApp:
    config = NimConfig(heaps, Nim(), False, "random", Side.P1, seed=3)
    return NashplayApp(StartRequest.for_config(config), ai_delay=0)


def shown_keys(app: NashplayApp) -> set[str]:
    """The footer's keys, by what they are called."""
    return {active.binding.description for active in app.screen.active_bindings.values() if active.binding.show}


async def quits(app: NashplayApp, pilot: Pilot[None], key: str) -> str:
    """Press ``key``: the app quits; what it says as it goes."""
    said: list[object] = []
    leave = app.exit

    def exit(result: None = None, return_code: int = 0, message: object = None) -> None:
        said.append(message)
        leave(result, return_code, message)  # type: ignore[arg-type]

    app.exit = exit  # type: ignore[method-assign]
    await pilot.press(key)
    await wait_for(pilot, lambda: bool(said), f"{key} to quit")
    return str(said[0])


async def resign_geister(app: NashplayApp, pilot: Pilot[None]) -> GameScreen:
    """Two moves each, then a resignation: the game-over panel is open."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    for _ in range(2):
        screen.play(screen.session.view().legal_moves()[0])
        await settle_workers(app, pilot)
    await pilot.press("R", "y")
    await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
    return screen


async def finish_nim(app: NashplayApp, pilot: Pilot[None]) -> NimScreen:
    """One stone, taken: the game-over panel is open."""
    await settle_workers(app, pilot)
    screen = app.screen
    assert isinstance(screen, NimScreen)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
    return screen


# ------------------------------------------------------------------------------------------------ quitting


def test_q_and_ctrl_c_quit_from_the_game_over_panel_saying_where_the_record_is(state_dir: Path) -> None:
    async def test() -> None:
        for key in ("q", "ctrl+c"):
            before = set((state_dir / "records").glob("*.ngr"))
            app = geister_app()
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                await resign_geister(app, pilot)
                message = await quits(app, pilot, key)
            [kept] = set((state_dir / "records").glob("*.ngr")) - before
            assert f"The game's record is in {kept}" in message
        app = nim_app()
        async with app.run_test(size=SIZE) as pilot:
            await finish_nim(app, pilot)
            message = await quits(app, pilot, "q")
        assert "The game's record is in" in message

    run(test)


def test_quitting_a_game_with_no_move_says_nothing_was_kept(state_dir: Path) -> None:
    async def test() -> None:
        app = geister_app()
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: "Ply 0" in screen_text(app), "the board drawn")
            message = await quits(app, pilot, "q")
        assert message == "Nothing was kept: the game had no move."

    run(test)


# ------------------------------------------------------------------------------------------------ the hot seat


def hot_seat_app(ascii_mode: bool = False) -> NashplayApp:
    return geister_app("human", ascii_mode)


async def hand_over(app: NashplayApp, pilot: Pilot[None]) -> GameScreen:
    """Player 1 plays b1-b2: the cover for player 2."""
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, GameScreen) and screen.session.hot_seat
    screen.play(Move.parse("b1-b2"))
    await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen), "the hand-over")
    await wait_for(pilot, lambda: "Player 2's turn" in screen_text(app), "the hand-over drawn")
    return screen


def test_the_hand_over_names_its_keys_and_fits_in_ascii(state_dir: Path) -> None:
    async def test() -> None:
        for ascii_mode in (False, True):
            app = hot_seat_app(ascii_mode)
            async with app.run_test(size=SIZE) as pilot:
                await hand_over(app, pilot)
                text = screen_text(app)
                assert "Enter: continue" in text and "Esc: menu" in text and "q: quit" in text
                assert_fits(app, folding_allowed=("hand-over-how",))  # a sentence, folded by design
                if ascii_mode:
                    assert text.isascii(), text

    run(test)


def test_q_and_ctrl_c_quit_from_the_hand_over_with_the_game_saved(state_dir: Path) -> None:
    async def test() -> None:
        for key in ("q", "ctrl+c"):
            app = hot_seat_app()
            async with app.run_test(size=SIZE) as pilot:
                await hand_over(app, pilot)
                message = await quits(app, pilot, key)
            assert "Your game is saved in" in message and "Resume" in message

    run(test)


def test_escape_on_the_hand_over_goes_to_the_menu_with_the_game_saved(state_dir: Path) -> None:
    async def test() -> None:
        app = hot_seat_app()
        async with app.run_test(size=SIZE) as pilot:
            await hand_over(app, pilot)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            assert len(app.screen_stack) == 2  # the cover and the game gone, not left under the menu
            assert len(list((state_dir / "games").glob("*.ngr"))) == 1
            assert app.describe_saved_games()

    run(test)


def test_the_hot_seat_says_who_played_and_who_won_by_side(state_dir: Path) -> None:
    async def test() -> None:
        app = hot_seat_app()
        async with app.run_test(size=SIZE) as pilot:
            screen = await hand_over(app, pilot)
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen is screen, "the board again")
            assert screen.message_text.startswith("Player 1 played b1-b2"), screen.message_text
            screen.play(screen.session.view().legal_moves()[0])
            await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen), "the hand-over")
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen is screen, "the board again")
            screen.play(screen.session.view().legal_moves()[0])  # player 1's second move: a resignation is one
            await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen), "the hand-over")
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen is screen, "player 2's board")
            assert screen.session.human is Side.P2
            screen._resign()  # player 2 resigns (R, y)
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
            await wait_for(pilot, lambda: "Game over: Player 1 wins" in screen_text(app), "the panel drawn")
            status = str(screen.query_one("#status").render())
            assert "Player 1 wins" in status and "You" not in status, status

    run(test)


# ------------------------------------------------------------------------------------------------ undo after the end


def test_u_leaves_the_footer_once_nim_is_over_and_says_why(state_dir: Path) -> None:
    async def test() -> None:
        app = nim_app((1, 1))
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            assert "Undo" in shown_keys(app)
            app.exit()
        app = nim_app()
        async with app.run_test(size=SIZE) as pilot:
            screen = await finish_nim(app, pilot)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen, "the final position")
            assert "Undo" not in shown_keys(app)
            await pilot.press("u")
            await wait_for(pilot, lambda: "its moves stand" in screen.message_text, "the refusal")

    run(test)


def test_u_after_a_geister_game_says_its_moves_stand_and_leaves_the_footer(state_dir: Path) -> None:
    async def test() -> None:
        app = geister_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen) and "Undo" in shown_keys(app)
            await resign_geister(app, pilot)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen, "the final position")
            assert "Undo" not in shown_keys(app)
            await pilot.press("u")
            await wait_for(pilot, lambda: "The game is over: its moves stand" in screen.message_text, "the refusal")

    run(test)


# ------------------------------------------------------------------------------------------------ the palette


def test_the_palettes_back_to_the_menu_says_what_becomes_of_the_game(state_dir: Path) -> None:
    async def test() -> None:
        app = geister_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen

            def menu_help() -> list[str]:
                return [c.help for c in app.get_system_commands(screen) if c.title == "Back to the menu"]

            assert menu_help() == ["The game stays saved, offered for resume (Esc)"]
            await resign_geister(app, pilot)
            assert menu_help() == ["The game is over: its record is kept (Esc)"]

    run(test)
