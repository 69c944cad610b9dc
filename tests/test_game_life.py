"""A game's life beyond its rules, in every game: the takeback policy (chosen at set-up, kept in the record, none
once the game is over), resigning (a loss in the game's units, in the record, never resumed), aborting before one's
second move (nothing kept), the game-over panel, Esc back to the menu and q saying where the game is."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from pilot_helpers import close_game_over, run, settle_workers, wait_for
from screen_text import assert_fits, screen_text
from textual.widgets import OptionList, RadioSet, Static
from waiting import HANG_SECONDS, released

from core.errors import NotationError
from core.footstep import FootstepState
from core.game import Side
from core.geister import GeisterView
from core.impartial import HeapGameState, Nim
from core.notation import Move
from core.record import Record
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig, NimConfig
from tui.game_life import TAKEBACKS_TAG, default_takebacks, may_abort, moves_by, read_takebacks, resignation
from tui.local_session import LocalSession, resume_record
from tui.saves import GameKeeper, SaveStore
from tui.screens.ask_path import Confirm
from tui.screens.game import GameScreen
from tui.screens.game_over import GameOverPanel
from tui.screens.hand_over import HandOverScreen
from tui.screens.menu import MenuScreen
from tui.screens.nim import NimScreen
from tui.screens.recent import RecentGamesScreen
from tui.screens.review import ReviewScreen
from tui.screens.setup import SetupScreen
from tui.session import GameSession, resumable
from tui.widgets.board import Board
from tui.widgets.choice import CheckChoice, ChoiceButton
from tui.widgets.setup_picker import SetupPicker

SIZE = (110, 34)


def slots(state_dir: Path) -> list[Path]:
    return sorted((state_dir / "games").glob("*.ngr"))


def records(state_dir: Path) -> list[Path]:
    return sorted((state_dir / "records").glob("*.ngr"))


# ------------------------------------------------------------------------------------------------ the rules of it


def test_takebacks_by_default_but_none_against_the_strongest_ai() -> None:
    assert default_takebacks("geister", "random") and default_takebacks("nim", "random")
    assert not default_takebacks("geister", "sage") and not default_takebacks("nim", "perfect")
    assert not default_takebacks("mini-geister", "nash") and not default_takebacks("footstep", "equilibrium")


def test_a_damaged_takeback_tag_is_damage_and_an_old_save_allowed_them() -> None:
    assert read_takebacks({}) and read_takebacks({TAKEBACKS_TAG: "allowed"})
    assert not read_takebacks({TAKEBACKS_TAG: "none"})
    with pytest.raises(NotationError, match="'allowed' or 'none'"):
        read_takebacks({TAKEBACKS_TAG: "sometimes"})


def test_abort_until_ones_second_move() -> None:
    assert [may_abort(n) for n in range(4)] == [True, True, False, False]
    # Player 2 in a game player 1 began: after 3 turns player 2 has made one move.
    assert moves_by(3, Side.P1, Side.P2) == 1 and moves_by(3, Side.P1, Side.P1) == 2


def test_resigning_is_a_loss_in_the_games_units() -> None:
    assert resignation("footstep", Side.P1).score == -2.0  # Footstep's stake is its goal: 2 points
    assert resignation("nim", Side.P2).winner is Side.P1


def test_a_resigned_local_game_is_kept_with_its_result_and_never_resumed() -> None:
    session = LocalSession(HeapGameState((3, 4), Nim()), Side.P1, "random", seed=5, takebacks=False)
    session.state.apply(session.state.legal_actions()[0])
    assert session.takeback_refusal() == "No takebacks in this game (its policy, set when it began)"
    session.resign()
    assert session.over and not session.state.is_terminal()
    assert session.takeback_refusal() is not None and "over" in session.takeback_refusal()  # type: ignore[operator]
    record = Record.parse(session.record().to_text())
    assert record.result == "0-1" and record.tags["Termination"] == "player 1 resigned"
    assert record.tags[TAKEBACKS_TAG] == "none" and record.tags["Seed"] == "5"  # over: the seed is shown
    assert len(record.replay_states()) == 2  # the moves stand as played
    with pytest.raises(NotationError, match="already over"):
        resume_record(record)


def test_a_resigned_footstep_game_says_the_points() -> None:
    session = LocalSession(FootstepState(6, 1), Side.P2, "random", seed=1)
    session.resign()
    assert session.record().result == "2-0"


def test_a_resigned_geister_game_reveals_every_colour_and_is_never_resumed() -> None:
    session = GameSession(GeisterConfig("mini-geister", Side.P1, "random", "BR", seed=3))
    assert session.takebacks  # against random
    session.play(session.view().legal_moves()[0])
    session.resign()
    assert session.is_over and session.undo() >= 0 and session.takeback_refusal() is not None
    record = session.record(reveal=False)  # over: nothing is hidden any more
    assert record.result == "0-1" and record.tags["Termination"] == "player 1 resigned"
    assert "?" not in record.tags["Setup2"]
    assert all(piece.colour.name != "UNKNOWN" for _, piece in session.view().pieces(Side.P2))
    with pytest.raises(NotationError, match="already over"):
        resumable(record)


def test_a_discarded_game_leaves_nothing(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    session = LocalSession(HeapGameState((3,), Nim()), Side.P1, "random", seed=1)
    session.keeper = GameKeeper(store)
    session.state.apply(session.state.legal_actions()[0])
    assert session.keep() is None and len(slots(tmp_path)) == 1
    session.abort()
    assert slots(tmp_path) == [] and records(tmp_path) == []


# ------------------------------------------------------------------------------------------------ in the app


def geister_app(opponent: str = "random", takebacks: bool | None = None) -> NashplayApp:
    config = GeisterConfig("mini-geister", Side.P1, opponent, "BR", seed=3, takebacks=takebacks)
    return NashplayApp(StartRequest.for_config(config), ai_delay=0)


async def play_one(app: NashplayApp, pilot: object) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    move = screen.session.view().legal_moves()[0]
    screen.play(move)
    await settle_workers(app, pilot)  # type: ignore[arg-type]
    return screen


def test_resigning_in_the_app_opens_the_game_over_panel_and_keeps_the_record(state_dir: Path) -> None:
    async def test() -> None:
        app = geister_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = await play_one(app, pilot)
            await play_one(app, pilot)
            await pilot.press("R")
            await wait_for(pilot, lambda: isinstance(app.screen, Confirm), "the question")
            await pilot.press("n")  # no: nothing happens
            await wait_for(pilot, lambda: app.screen is screen, "the game again")
            assert not screen.session.is_over
            await pilot.press("R", "y")
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
            panel = app.screen
            text = " ".join(str(widget.render()) for widget in panel.query("Static"))
            assert "Game over: You lost" in text and "player 1 resigned (0-1)" in text
            [kept] = records(state_dir)
            assert "Its record:" in text and str(kept) in text and slots(state_dir) == []
            assert Record.load(kept).tags["Termination"] == "player 1 resigned"
            await close_game_over(app, pilot)
            assert "You lost" in str(screen.query_one("#status").render())
            await pilot.press("u")
            assert "over" in screen.message_text and screen.session.is_over

    run(test)


def test_the_game_over_panel_leads_to_a_rematch_and_the_menu(state_dir: Path) -> None:
    async def test() -> None:
        app = geister_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await play_one(app, pilot)
            await play_one(app, pilot)
            await pilot.press("R", "y")
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
            await pilot.press("enter")  # nothing chosen yet: Enter out of habit does nothing
            await pilot.pause()
            assert isinstance(app.screen, GameOverPanel)
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the rematch")
            rematch = app.screen
            assert isinstance(rematch, GameScreen) and rematch.session.human is Side.P2
            assert not rematch.session.takebacks or rematch.session.config.takebacks is None
            await settle_workers(app, pilot)
            await pilot.press("R", "y")  # no move of the user's yet: abort
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            assert slots(state_dir) == [] and len(records(state_dir)) == 1  # the aborted game left nothing

    run(test)


def test_no_takebacks_against_the_strongest_unless_chosen(state_dir: Path) -> None:
    async def test() -> None:
        app = geister_app(opponent="nash")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = await play_one(app, pilot)
            await pilot.press("u")
            assert screen.message_text == "No takebacks in this game (its policy, set when it began)"
            assert len(screen.session.state.moves()) == 2
            [slot] = slots(state_dir)
            assert Record.load(slot).tags[TAKEBACKS_TAG] == "none"

    run(test)


def test_escape_goes_back_to_the_menu_with_the_game_saved_and_q_says_where(state_dir: Path) -> None:
    async def test() -> None:
        app = geister_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await play_one(app, pilot)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            [slot] = slots(state_dir)
            await pilot.press("enter")  # the game left is first on the menu
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game resumed")
            message = app.where_the_game_is()
            assert message is not None and str(slot) in message and "Resume" in message

    run(test)


def test_resigning_nim_in_the_app(state_dir: Path) -> None:
    async def test() -> None:
        config = NimConfig((3, 4, 5), opponent="random", seed=3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = app.screen
            assert isinstance(screen, NimScreen)
            await pilot.press("R", "y")  # before any move: abort, nothing kept
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            assert slots(state_dir) == [] and records(state_dir) == []

    run(test)


def test_the_set_up_chooses_the_takebacks_and_tab_reaches_start_last(state_dir: Path) -> None:
    """The Geister set-up: the strongest AI by default (it was chototsu), no takebacks against it by default and
    takebacks against another unless the user chose; every choice list's cursor on its chosen line (Textual's stood
    on the first, which looked chosen); Tab reaches Start after the opponents (it came before them)."""

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.open_game("geister")
            await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen), "the set-up")
            setup = app.screen
            assert isinstance(setup, SetupScreen)
            await pilot.pause()
            assert setup.opponent == "sage"
            box = setup.query_one("#takebacks", CheckChoice)
            assert box.value is False
            think = setup.query_one("#think-time", RadioSet)
            assert think._selected == think.pressed_index == 0
            order: list[str] = []
            for _ in range(6):
                await pilot.press("tab")
                order.append(str(app.focused.id if app.focused is not None else None))
            assert order == ["side-choice", "takebacks", "clock", "opponent", "think-time", "start"], order
            opponents = setup.query_one("#opponent", RadioSet)
            opponents.query(ChoiceButton)[1].value = True  # random
            await pilot.pause()
            assert box.value is True  # the default follows the opponent
            box.focus()
            await pilot.press("space")  # the user's own choice: none
            opponents.query(ChoiceButton)[2].value = True  # chototsu
            await pilot.pause()
            assert box.value is False
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
            game = app.screen
            assert isinstance(game, GameScreen) and game.session.takebacks is False
            assert game.session.config.opponent == "chototsu"

    run(test)


# ------------------------------------------------------------------------------------------------ saved games ended


def saved_nim_game(state_dir: Path) -> Path:
    """A Nim game in progress against random, kept in a slot as the app keeps one."""
    session = LocalSession(HeapGameState((3, 4), Nim()), Side.P1, "random", seed=2)
    session.keeper = GameKeeper(SaveStore(state_dir))
    session.state.apply(session.state.legal_actions()[0])
    assert session.keep() is None
    [slot] = slots(state_dir)
    return slot


def test_a_saved_game_is_resigned_or_deleted_from_the_menu_after_a_question(state_dir: Path) -> None:
    saved_nim_game(state_dir)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            menu = app.screen
            assert isinstance(menu, MenuScreen)
            await pilot.press("R")
            await wait_for(pilot, lambda: isinstance(app.screen, Confirm), "the question")
            await pilot.press("escape")  # no
            await wait_for(pilot, lambda: app.screen is menu, "the menu again")
            assert len(slots(state_dir)) == 1
            await pilot.press("R", "y")
            await wait_for(pilot, lambda: "Resigned" in menu._message, "the resignation")
            [kept] = records(state_dir)
            record = Record.load(kept)
            assert record.result == "0-1" and record.tags["Termination"] == "player 1 resigned"
            assert record.tags["Seed"] == "2"  # the secret revealed, as at any end
            assert slots(state_dir) == [] and not any(o.startswith("resume:") for o, _ in menu_ids(menu))
            await pilot.press("d")  # not on a Resume line: nothing to delete
            await pilot.pause()
            assert not isinstance(app.screen, Confirm)

    run(test)


def menu_ids(menu: MenuScreen) -> list[tuple[str, str]]:
    games = menu.query_one("#games", OptionList)
    options = [games.get_option_at_index(i) for i in range(games.option_count)]
    return [(option.id or "", str(option.prompt)) for option in options]


def test_the_recent_games_delete_a_save_or_a_record_after_a_question(state_dir: Path) -> None:
    saved_nim_game(state_dir)
    finished = SaveStore(state_dir).keep_record(Record.parse('[Game "nim"]\n[Heaps "1"]\n\n1. 1:1 1-0\n'))

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, RecentGamesScreen), "the recent games")
            recent = app.screen
            assert isinstance(recent, RecentGamesScreen) and len(recent.games) == 2
            for _ in recent.games:
                await pilot.press("d", "y")
                await pilot.pause()
            assert recent.games == [] and slots(state_dir) == [] and not finished.exists()

    run(test)


# ------------------------------------------------------------------------------------------------ premoves


def test_a_move_made_during_the_opponents_turn_is_kept_and_played_when_legal(state_dir: Path) -> None:
    """A move typed while the AI thinks was refused and the refusal overwritten at once: the move was lost. It is
    kept as a premove (shown; Esc cancels it) and played as soon as it is the user's turn, if it is legal then."""
    gate = threading.Event()

    async def test() -> None:
        # The AI's pieces (c4, d3) cannot reach c1 in one move: the premove b1-c1 stays legal whatever it answers.
        config = GeisterConfig("mini-geister", Side.P1, "random", None, 1, position="2u1/3u/1R2/1B2 1", takebacks=True)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        with released(gate):
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, GameScreen)
                asked: list[object] = []
                choose = screen.session.choose_opponent_move

                def thinking(view: GeisterView) -> Move:
                    asked.append(view)
                    gate.wait(HANG_SECONDS)
                    return choose(view)

                screen.session.choose_opponent_move = thinking  # type: ignore[method-assign]
                screen.play(Move.parse("b2-a2"))
                await wait_for(pilot, lambda: len(asked) == 1, "the AI to think")
                screen.play(Move.parse("b1-c1"))
                assert screen.premove == Move.parse("b1-c1") and "Premove b1-c1" in screen.message_text
                assert "Premove: b1-c1" in str(screen.query_one("#status").render())
                await pilot.press("escape")  # cancelled...
                assert screen.premove is None and isinstance(app.screen, GameScreen)
                screen.play(Move.parse("b1-c1"))  # ...and made again
                gate.set()
                await wait_for(pilot, lambda: len(screen.session.state.moves()) >= 3, "the premove to be played")
                moves = screen.session.state.moves()
                assert moves[0] == Move.parse("b2-a2") and moves[2] == Move.parse("b1-c1")
                assert screen.premove is None

    run(test)


def test_after_the_review_the_game_over_panel_gives_each_players_accuracy(state_dir: Path) -> None:
    async def test() -> None:
        config = NimConfig((1,), opponent="random", seed=3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            await pilot.press("enter")  # the only stone: a win
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the game-over panel")
            assert not app.screen.query("#game-over-accuracy")  # not reviewed yet
            await pilot.press("v")
            await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
            review = app.screen
            assert isinstance(review, ReviewScreen)
            await wait_for(pilot, lambda: review.phase == "done", "the review to finish")
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, GameOverPanel), "the panel again")
            accuracy = str(app.screen.query_one("#game-over-accuracy", Static).render())
            assert accuracy == "Accuracy: you 100%, random -"  # random never moved: nothing of it judged

    run(test)


# ------------------------------------------------------------------------------------------------ the hot seat


def test_two_people_at_one_keyboard_hand_over_with_the_board_hidden(state_dir: Path) -> None:
    """Geister's hot seat: each side moves in turn from the keyboard; between turns the whole screen is covered
    until the player to move presses Enter, and then the board shows that player's view (their colours, the other's
    hidden)."""

    async def test() -> None:
        config = GeisterConfig("mini-geister", Side.P1, "human", "BR", seed=3)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.session.hot_seat
            assert "Player 1 to move" in str(screen.query_one("#status").render())
            screen.play(Move.parse("b1-b2"))
            await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen), "the hand-over")
            await wait_for(pilot, lambda: "Player 2's turn" in screen_text(app), "the hand-over drawn")
            covered = screen_text(app)
            assert "Player 2's turn" in covered and "b1-b2" in covered
            assert not set("BRU?") & set(covered.replace("Player", "").replace("Enter", "")), covered
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen is screen, "the board again")
            view = screen.query_one("#board", Board).view
            assert view is not None and view.viewer is Side.P2
            assert all(piece.colour.name != "UNKNOWN" for _, piece in view.pieces(Side.P2))
            assert all(piece.colour.name == "UNKNOWN" for _, piece in view.pieces(Side.P1))
            assert "Player 2 to move" in str(screen.query_one("#status").render())
            [slot] = slots(state_dir)
            saved = Record.load(slot)
            assert saved.tags["Player1"] == saved.tags["Player2"] == "human"

    run(test)


def test_two_people_each_choose_their_set_up_the_first_one_hidden_from_the_second(state_dir: Path) -> None:
    """At a shared keyboard the set-up screen opens again for the other person once the first has chosen, covered
    until they press Enter, with their pieces only; the game starts with both chosen set-ups, and since player 1
    moves first but player 2 chose last, the board stays covered until player 1 is back."""

    async def test() -> None:
        config = GeisterConfig("mini-geister", Side.P1, "human", seed=3)
        app = NashplayApp(StartRequest.for_config(config, setup=True), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            first = app.screen
            assert isinstance(first, SetupScreen) and first.other_side is None
            first.query_one("#picker", SetupPicker).configure(Side.P1, first.variant.parse_setup("RB", Side.P1))
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen), "the cover for player 2")
            covered = screen_text(app)
            assert "Player 2's set-up" in covered and "RB" not in covered
            await pilot.press("enter")
            second = app.screen
            assert isinstance(second, SetupScreen) and second.other_side is Side.P2
            assert not second.query("#opponent") and not second.query("#side-choice")
            picker = second.query_one("#picker", SetupPicker)
            assert picker.side is Side.P2
            chosen = picker.setup.to_text()
            for size in ((80, 24), (110, 34)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
                assert_fits(app)
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen), "the cover for player 1")
            assert "Player 1's turn" in screen_text(app)
            await pilot.press("enter")
            game = app.screen
            assert isinstance(game, GameScreen) and game.session.hot_seat
            state = game.session.state
            setups = state.setup(Side.P1), state.setup(Side.P2)
            assert [setup.to_text() if setup else None for setup in setups] == ["RB", chosen]

    run(test)


# ------------------------------------------------------------------------------------------------ the analysis board

FINISHED = """[Game "mini-geister"]
[Setup1 "BR"]
[Setup2 "BR"]

1. b1-b2 c4-c3 2. c1-d1 c3-c2 *
"""


def test_analyse_from_here_opens_an_analysis_board_on_the_replayed_position(state_dir: Path) -> None:
    async def test() -> None:
        app = NashplayApp(StartRequest("replay", record=Record.parse(FINISHED)), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("end", "left")  # after 3 moves: player 2 to move
            await pilot.press("a")
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the analysis board")
            board = app.screen
            assert isinstance(board, GameScreen) and board.session.config.analysis and board.keeper is None
            assert board.title.startswith("Analysis board")
            view = board.session.view()
            assert view.to_move is Side.P2 and len(list(view.pieces(Side.P1))) == 2
            assert all(piece.colour.name != "UNKNOWN" for _, piece in view.pieces(Side.P1))  # every colour shown
            board.play(view.legal_moves()[0])
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)  # no hand-over: nothing is hidden here
            assert board.session.view().to_move is Side.P1 and slots(state_dir) == []

    run(test)
