"""The app's menu and set-up screens, help and the command palette: how a user gets to a game and around it.

Driven through Textual's pilot; each test has its own state directory (``NASHPLAY_STATE_DIR``), ``ai_delay=0``
and a fixed seed, and asserts on the model and widget state. Plain functions run their coroutine with
``asyncio.run`` (no async plugin needed).
"""

from __future__ import annotations

from pathlib import Path

from app_helpers import SEED, SIZE, menu_options
from pilot_helpers import first_move, play_app, run, settle, view_of, wait_for
from textual.command import CommandList, CommandPalette
from textual.widgets import Input, OptionList

from core.game import Side
from core.geister import Colour, variant_by_name
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.screens.help import HelpScreen
from tui.screens.menu import MenuScreen
from tui.screens.setup import SetupScreen
from tui.widgets.board import Board
from tui.widgets.setup_picker import SetupPicker

# ------------------------------------------------------------------------------------------------ menu and set-up


def test_the_menu_plays_on_a_contest_server_at_the_host_and_port_given(state_dir: Path) -> None:
    """The menu's contest entry asks for the server (the defaults of ``nashplay connect``), refuses a bad port with
    a word, and opens the server screen with the records in the state folder's ``contest/``, as ``connect`` does."""
    from tui.screens.ask_path import AskServer
    from tui.screens.server import ServerGameScreen

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            games = app.screen.query_one("#games", OptionList)
            ids = [option_id for option_id, _ in menu_options(app)]
            games.highlighted = ids.index("connect")
            await pilot.press("enter")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, AskServer)
            assert dialog.query_one("#server-host", Input).value == "127.0.0.1"
            assert dialog.query_one("#server-port", Input).value == "10000"
            dialog.query_one("#server-port", Input).value = "port"
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is dialog and "1 to 65535" in str(dialog.query_one("#server-problem").render())
            dialog.query_one("#server-port", Input).value = "1"  # nobody listens there: refused at once
            await pilot.press("enter")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ServerGameScreen)
            assert (screen.config.host, screen.config.port) == ("127.0.0.1", 1)
            assert screen.config.save_dir == state_dir / "contest"

    run(test)


def test_menu_offers_the_games_and_set_up_starts_a_game() -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            options = menu_options(app)
            ids = [option_id for option_id, _ in options]
            # Every game of the catalogue, the 2-vs-3 variants (the third piece with player 2) included.
            assert ids == [
                "game:geister",
                "game:mini-geister",
                "game:mini-geister-3v2-rrb",
                "game:mini-geister-3v2-rbb",
                "game:mini-geister-2v3-rrb",
                "game:mini-geister-2v3-rbb",
                "game:tcg",
                "game:nim",
                "game:footstep",
                "game:goofspiel",
                "watch",
                "recent",
                "connect",
                "replay",
                "quit",
            ], "no Resume without a saved game"
            prompts = [prompt for _, prompt in options]
            assert prompts[0].startswith("Geister") and "6x6" in prompts[0]
            assert prompts[1].startswith("Mini-Geister") and "4x4" in prompts[1]
            assert all("3 vs 2" in p for p in prompts[2:4])

            await pilot.press("down", "enter")
            await pilot.pause()
            setup = app.screen
            assert isinstance(setup, SetupScreen) and setup.variant.name == "mini-geister"
            picker = setup.query_one("#picker", SetupPicker)
            assert app.focused is picker
            count = setup.query_one("#setup-count")
            assert sorted(c.value for c in picker.colours) == ["B", "R"]

            # Space turns the piece under the cursor: two reds (or two blues) is not a set-up.
            await pilot.press("space")
            assert len(set(picker.colours)) == 1
            assert "choose exactly 1 red" in str(count.render())
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is setup, "an invalid set-up does not start"
            assert "Not yet" in str(setup.query_one("#setup-message").render())
            await pilot.press("right", "space")
            assert picker.cursor == 1 and sorted(c.value for c in picker.colours) == ["B", "R"]
            assert "choose exactly" not in str(count.render())

            # r: a random legal set-up; 2: play second (the picker moves to player 2's squares).
            for _ in range(3):
                await pilot.press("r")
                variant_by_name("mini-geister").check_setup(picker.setup, picker.side)
            await pilot.press("2")
            await pilot.pause()
            assert setup.human is Side.P2 and picker.side is Side.P2
            chosen = picker.setup
            await pilot.press("ctrl+s")
            await pilot.pause()
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            session = screen.session
            assert session.human is Side.P2 and session.variant.name == "mini-geister"
            assert session.state.setup(Side.P2) == chosen
            assert len(session.state.moves()) == 1 and session.humans_turn, "the AI (player 1) moved first"
            assert view_of(app).viewer is Side.P2

    run(test)


def test_set_up_escape_returns_to_the_menu_and_a_3_vs_2_game_starts() -> None:
    async def test() -> None:
        app = NashplayApp(
            StartRequest.for_config(GeisterConfig("mini-geister-3v2-rrb", seed=SEED), setup=True), ai_delay=0
        )
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            setup = app.screen
            assert isinstance(setup, SetupScreen)
            picker = setup.query_one("#picker", SetupPicker)
            assert len(picker.colours) == 3 and picker.colours.count(Colour.RED) == 2
            await pilot.press("ctrl+s")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            own = [p for _, p in view_of(app).pieces(Side.P1)]
            assert len(own) == 3 and sum(p.colour is Colour.RED for p in own) == 2
            assert sum(1 for _ in view_of(app).pieces(Side.P2)) == 2
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)

    run(test)


def test_set_up_subtitle_follows_the_side() -> None:
    async def test() -> None:
        app = NashplayApp(
            StartRequest.for_config(GeisterConfig("mini-geister-3v2-rrb", seed=SEED), setup=True), ai_delay=0
        )
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            # The title is long: the sub-title leaves out "you are" to fit the header.
            assert app.screen.sub_title.endswith("player 1: 1 blue, 2 red")
            await pilot.press("2")
            await pilot.pause()
            picker = app.screen.query_one("#picker", SetupPicker)
            assert picker.side is Side.P2 and len(picker.colours) == 2
            assert app.screen.sub_title.endswith("player 2: 1 blue, 1 red")

    run(test)


# ------------------------------------------------------------------------------------------------ set-up screens


def test_set_up_starts_with_ctrl_s_as_its_button_footer_and_help_say() -> None:
    """One start key everywhere (the button said s, the footer ctrl+s); s alone does nothing here."""

    async def test() -> None:
        app = NashplayApp(StartRequest.for_config(GeisterConfig("mini-geister", seed=SEED), setup=True), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            setup = app.screen
            assert isinstance(setup, SetupScreen)
            assert "ctrl+s" in str(setup.query_one("#start").label)
            footer = {key.description: key.key_display for key in setup.query("FooterKey")}  # type: ignore[attr-defined]
            assert footer.get("Start") == "ctrl+s"
            await pilot.press("question_mark")
            await pilot.pause()
            assert "ctrl+s" in str(app.screen.query("Markdown").first().source)  # type: ignore[attr-defined]
            await pilot.press("escape")
            await pilot.press("s")
            await pilot.pause()
            assert app.screen is setup
            await pilot.press("ctrl+s")
            await settle(app, pilot)
            assert isinstance(app.screen, GameScreen)

    run(test)


def test_set_up_shows_the_focused_control_by_its_frame_and_a_marker() -> None:
    """The focused control has a frame of its own (in ASCII the only one), and the highlighted choice a ``>``:
    focus is not told by colour alone. Opponents are listed by name, each described in full beside the list."""
    from tui.widgets.choice import ChoiceButton

    async def test() -> None:
        app = NashplayApp(
            StartRequest.for_config(GeisterConfig("mini-geister", seed=SEED), setup=True), ai_delay=0, ascii_mode=True
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            setup = app.screen
            opponents = setup.query_one("#opponent")
            picker = setup.query_one("#picker", SetupPicker)
            assert picker.styles.border_top[0] == "ascii" and opponents.styles.border_top[0] != "ascii"
            opponents.focus()
            await pilot.pause()
            assert opponents.styles.border_top[0] == "ascii" and picker.styles.border_top[0] != "ascii"
            buttons = list(opponents.query(ChoiceButton))
            assert all(":" not in str(button.label) for button in buttons)
            marked = [button for button in buttons if str(button.render()).startswith(">")]
            assert len(marked) == 1
            await pilot.press("down")
            await pilot.pause()
            highlighted = next(button for button in buttons if str(button.render()).startswith(">"))
            assert highlighted is not marked[0]
            from solvers.catalogue import player_entry

            about = str(setup.query_one("#opponent-about").render())
            assert player_entry(str(highlighted.name)).description.split()[0] in about

    run(test)


# ------------------------------------------------------------------------------------------------ help, palette, themes


def test_help_palette_and_themes() -> None:
    async def test() -> None:
        app = play_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            game = app.screen
            assert isinstance(game, GameScreen)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is game

            titles = [command.title for command in app.get_system_commands(app.screen)]
            for title in ("Type a move", "Undo", "Save record", "Replay this game", "New game", "Flip board"):
                assert title in titles
            assert "Help" in titles and "Next theme" in titles
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is game

            # t cycles the app's themes, and the board's colours follow the theme.
            board = game.query_one("#board", Board)
            assert app.theme == "nashplay"
            red = board._style("board--red").color
            seen = []
            for _ in range(3):
                await pilot.press("t")
                await pilot.pause()
                seen.append(app.theme)
                if app.theme == "nashplay-colourblind":
                    assert board._style("board--red").color != red
            assert seen == ["nashplay-colourblind", "nashplay-light", "nashplay"]

    run(test)


def test_palette_runs_a_screen_action() -> None:
    async def test() -> None:
        app = play_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            game = app.screen
            assert isinstance(game, GameScreen)
            await first_move(app, pilot)
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            await pilot.press(*"Undo")
            # The palette searches its providers in the background: Enter once it has found the command.
            hits = app.screen.query_one(CommandList)
            await wait_for(pilot, lambda: hits.option_count > 0, "the palette's hits for Undo")
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is game
            assert game.session.state.moves() == []
            assert game.message_text == "Took back 2 moves"

    run(test)


def test_saved_games_never_push_the_menus_heading_off_an_80x24_screen(state_dir: Path) -> None:
    """Five saved games made the 80x24 menu taller than the screen: the screen scrolled, the heading went off the
    top and a scrollbar took the footer's row. The list now scrolls inside the rows left to it."""
    from screen_text import screen_text

    from tui.saves import SaveStore
    from tui.session import GameSession

    store = SaveStore(state_dir)
    for seed in range(5):
        session = GameSession(GeisterConfig("mini-geister", Side.P1, "chototsu", "BR", seed))
        session.play(session.view().legal_moves()[0])
        slot = store.new_slot()
        slot.save(session.record(reveal=False), session.secrets())
        slot.release()

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "Choose a game" in text.splitlines()[1], text
            assert text.count("Resume: ") == 5 and "Saved games: Resume" in text, text
            assert text.splitlines()[-1].startswith("q Quit"), text  # the footer keeps its row
            games = app.screen.query_one("#games", OptionList)
            games.highlighted = games.option_count - 1  # Quit, at the end: scrolled into the list's own rows
            await pilot.pause()
            assert "Quit" in screen_text(app) and "Choose a game" in screen_text(app).splitlines()[1]

    run(test)


def test_the_keys_of_the_menu_and_the_recent_games_are_asked_for_safely_while_their_lists_are_gone() -> None:
    """The footer asks a screen for its keys after a refresh, and a screen being replaced has its widgets removed
    first: the menu looked up its list to tell whether ``d``/``R`` apply and crashed the app ("No nodes match
    '#games'", found by ``benchmarks/hostile_runs.py`` when a contest dialog replaced the menu). Without their list
    the screens now say those keys do not apply."""
    from tui.screens.recent import RecentGamesScreen

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            menu = app.screen
            assert isinstance(menu, MenuScreen)
            await menu.query_one("#games").remove()
            assert not menu.check_action("delete_saved", ()) and not menu.check_action("resign_saved", ())
            recent = RecentGamesScreen()
            await app.push_screen(recent)
            await pilot.pause()
            await recent.query_one("#recent-games").remove()
            assert not recent.check_action("resign", ())
            await pilot.pause()
        assert app.return_code in (0, None)

    run(test)
