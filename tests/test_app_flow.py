"""User-level tests of the app around the game: menu, set-up, save and resume, replay viewer, help, palette,
themes, ASCII and NO_COLOR, small terminals, and the command line.

Driven through Textual's pilot; each test has its own state directory (``NASHPLAY_STATE_DIR``), ``ai_delay=0``
and a fixed seed, and asserts on the model and widget state. Plain functions run their coroutine with
``asyncio.run`` (no async plugin needed).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from pilot_helpers import first_move, play_app, run, settle, type_move, view_of, wait_for
from textual.command import CommandList, CommandPalette
from textual.widgets import Input, OptionList
from unprivileged import call_unprivileged, make_read_only, shared_folder
from waiting import HANG_SECONDS, released

import tui.app as tui_app
from core.game import Side
from core.geister import Colour, GeisterView, variant_by_name
from core.notation import Move
from core.record import Record
from tui.app import NashplayApp, StartRequest
from tui.cli import build_parser, main
from tui.config import GeisterConfig
from tui.saves import MAX_LISTED, SaveStore
from tui.screens.ask_path import AskPath
from tui.screens.game import GameScreen
from tui.screens.help import HelpScreen
from tui.screens.menu import MenuScreen
from tui.screens.replay import SPEEDS, ReplayScreen
from tui.screens.setup import SetupScreen
from tui.session import GameSession
from tui.widgets.board import Board
from tui.widgets.moves import MoveList
from tui.widgets.setup_picker import SetupPicker

SIZE = (100, 32)
SEED = 7
VENV_BIN = Path(sys.executable).parent


def notifications(app: NashplayApp) -> list[str]:
    return [n.message for n in app._notifications]


def menu_options(app: NashplayApp) -> list[tuple[str | None, str]]:
    games = app.screen.query_one("#games", OptionList)
    return [
        (games.get_option_at_index(i).id, str(games.get_option_at_index(i).prompt)) for i in range(games.option_count)
    ]


def finished_record() -> Record:
    """A whole Geister game (human: first legal move; opponent: chototsu), with a comment on the third move."""
    session = GameSession(GeisterConfig("geister", Side.P1, "chototsu", "BBBBRRRR", SEED))
    while not session.is_over:
        if session.humans_turn:
            session.play(session.view().legal_moves()[0])
        else:
            session.apply_opponent(session.choose_opponent_move(session.opponent_view()), session.state.ply)
    record = session.record()
    record.moves[2].comment = "a note"
    return record


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


# ------------------------------------------------------------------------------------------------ save and resume


def saved_slots(state_dir: Path) -> list[Path]:
    """The records of the games in progress (one per game)."""
    return sorted((state_dir / "games").glob("*.ngr"))


def test_ctrl_c_quits_and_the_game_stays_for_resume(state_dir: Path) -> None:
    """Ctrl-C ends the app as it ends every command (Textual's default only said to press ctrl+q), the game kept."""

    async def test() -> None:
        app = play_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await first_move(app, pilot)
            assert app.is_running
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert not app.is_running

    run(test)
    assert len(saved_slots(state_dir)) == 1


def resume_options(app: NashplayApp) -> list[tuple[str, str]]:
    return [(option_id, prompt) for option_id, prompt in menu_options(app) if (option_id or "").startswith("resume:")]


def test_game_in_progress_is_saved_and_resumed(state_dir: Path) -> None:
    async def test() -> None:
        first = play_app()
        async with first.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await first_move(first, pilot)
            session = first.screen.session  # type: ignore[attr-defined]
            position = session.state.position()
            shown = view_of(first).position()
            [saved] = saved_slots(state_dir)
            slot = SaveStore(state_dir).slot(saved.stem)
            assert slot.load().replay()[-1].position() == position

        second = NashplayApp(ai_delay=0)
        async with second.run_test(size=SIZE) as pilot:
            await pilot.pause()
            # Said on the menu, where Resume is (a toast saying so outlived the menu: it showed after resuming).
            assert "Resume (above) goes on" in str(second.screen.query_one("#menu-message").render())
            option_id, prompt = menu_options(second)[0]
            assert option_id == f"resume:{saved.stem}"
            assert prompt.startswith("Resume: mini-geister vs chototsu, 2 plies played (saved ")
            await pilot.press("enter")
            await pilot.pause()
            screen = second.screen
            assert isinstance(screen, GameScreen)
            assert not any("Resume" in text for text in notifications(second))
            assert screen.session.state.position() == position
            assert view_of(second).position() == shown
            assert screen.session.human is Side.P1 and screen.session.humans_turn
            assert screen.query_one("#moves", MoveList).moves == tuple(m.to_text() for m in session.state.moves())
            await type_move(second, pilot, "b2-a2")
            assert len(screen.session.state.moves()) == 4
            assert saved_slots(state_dir) == [saved]
            assert len(slot.load().moves) == 4

    run(test)


def test_the_save_folder_hides_the_opponents_secret_until_the_game_ends(state_dir: Path) -> None:
    """What a user can open as a record (the slot's .ngr, e.g. with ``nashplay replay``) shows neither the
    opponent's set-up nor the seed that would replay it; resuming reads them from the secret file beside it."""

    async def test() -> None:
        app = play_app(variant="geister", setup="BBBBRRRR")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await type_move(app, pilot, "b1-b2")
            session = app.screen.session  # type: ignore[attr-defined]
            [saved] = saved_slots(state_dir)
            text = saved.read_text()
            public = Record.load(saved)
            assert public.tags["Setup2"] == "?" and "Seed" not in public.tags
            assert session.state.setup(Side.P2).to_text() not in text
            final = public.replay()[-1]
            assert all(p.colour is Colour.UNKNOWN for _, p in final.pieces() if p.side is Side.P2)
            secret = saved.with_suffix(".secret").read_text()
            assert session.state.setup(Side.P2).to_text() in secret
            assert SaveStore(state_dir).slot(saved.stem).load().tags["Setup2"] != "?"

    run(test)


def test_a_new_game_keeps_the_unfinished_one(state_dir: Path) -> None:
    async def test() -> None:
        first = play_app()
        async with first.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await first_move(first, pilot)
        [old] = saved_slots(state_dir)
        old_text = old.read_text()
        second = play_app()
        async with second.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await type_move(second, pilot, "a1-a2")
            assert old.read_text() == old_text
            assert len(saved_slots(state_dir)) == 2
        third = NashplayApp(ai_delay=0)
        async with third.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert len(resume_options(third)) == 2  # every unfinished game is offered

    run(test)


def test_a_game_open_in_another_nashplay_is_neither_offered_nor_overwritten(state_dir: Path) -> None:
    """Two instances: the game the first is playing holds its slot's lock; the second does not offer it, and its own
    new game takes a slot of its own, so neither loses a move."""

    async def test() -> None:
        first = play_app()
        async with first.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await first_move(first, pilot)
        [old] = saved_slots(state_dir)
        elsewhere = SaveStore(state_dir).slot(old.stem)
        assert elsewhere.claim()  # "another nashplay" is playing it now
        try:
            second = NashplayApp(ai_delay=0)
            async with second.run_test(size=SIZE) as pilot:
                await pilot.pause()
                assert resume_options(second) == []
                second.resume_game(old.stem)  # e.g. from a menu drawn before the other instance took it
                await pilot.pause()
                assert isinstance(second.screen, MenuScreen)
                assert any("open in another nashplay" in text for text in notifications(second))
        finally:
            elsewhere.release()
        third = NashplayApp(ai_delay=0)
        async with third.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert [option_id for option_id, _ in resume_options(third)] == [f"resume:{old.stem}"]

    run(test)


def test_corrupt_save_at_start_is_reported_and_set_aside(state_dir: Path) -> None:
    async def test() -> None:
        (state_dir / "games").mkdir(parents=True)
        (state_dir / "games" / "broken.ngr").write_text("this is not a record\n\x00garbage")
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert any("could not be read" in text for text in notifications(app))
            assert (state_dir / "games" / "damaged" / "broken.ngr").is_file()
            assert saved_slots(state_dir) == []
            assert resume_options(app) == []

    run(test)


@pytest.mark.parametrize(
    "damage",
    [
        '[Game "mini-geister"]\n[Start "99999999999/4/4/4 1"]\n\n*\n',  # a digit bomb in the position
        '\ufeff[Game "mini-geister"]\n[Start "1uu1/4/4/1UU1 1"]\n[Human "1"]\n[ThinkTime "nan"]\n\n*\n',
        '[Game "mini-geister"]\n[Human "1"]\n[Seed "' + "9" * 5000 + '"]\n\n*\n',
        '[Game "mini-geister"]\n' + "b1-b2 " * 300_000 + "\n",  # 1.8 MB of moves
        "\xff\xfe not UTF-8",
    ],
    ids=["digit-bomb", "nan-think-time", "seed-digits", "oversized", "not-utf8"],
)
def test_a_damaged_legacy_save_never_stops_the_app(state_dir: Path, damage: str) -> None:
    """The single save of older versions is adopted as a slot; whatever is wrong with it, the app starts, says so once
    and moves it aside."""

    async def test() -> None:
        state_dir.mkdir(parents=True)
        (state_dir / "game-in-progress.ngr").write_bytes(damage.encode("utf-8", "surrogateescape"))
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            warnings = [text for text in notifications(app) if "could not be read" in text]
            assert len(warnings) == 1 and len(warnings[0]) < 400, warnings
            assert len(list((state_dir / "games" / "damaged").glob("*.ngr"))) == 1
            assert resume_options(app) == []

    run(test)


def test_corrupt_save_at_resume_is_reported_and_set_aside(state_dir: Path) -> None:
    async def test() -> None:
        first = play_app()
        async with first.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await first_move(first, pilot)
        [saved] = saved_slots(state_dir)
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert menu_options(app)[0][0] == f"resume:{saved.stem}"
            saved.write_text("garbage, not a record")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert any("could not be resumed" in text for text in notifications(app))
            moved = list((state_dir / "games" / "damaged").glob("*.ngr"))
            assert len(moved) == 1 and moved[0].read_text() == "garbage, not a record"
            assert resume_options(app) == []

    run(test)


def test_a_state_folder_that_cannot_be_written_is_said_once_and_the_game_goes_on(tmp_path: Path) -> None:
    """The state "folder" is a file here (so every write fails, even for root): the game is played, the problem is
    said once, not after every move."""

    async def test() -> None:
        blocked = tmp_path / "not-a-folder"
        blocked.write_text("")
        app = play_app(saves=SaveStore(blocked))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await first_move(app, pilot)
            await type_move(app, pilot, "b2-a2")
            assert isinstance(app.screen, GameScreen) and len(app.screen.session.state.moves()) == 4
            said = [text for text in notifications(app) if "cannot be saved" in text]
            assert len(said) == 1, notifications(app)

    run(test)


def said_once(app: NashplayApp) -> list[str]:
    """What the app said about a state folder it cannot use (it says it once: ``report_save_problem``)."""
    return [n.message for n in app._notifications if n.title == "Games are not saved"]


def test_a_state_folder_that_cannot_be_read_leaves_the_menu_working(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A games folder the user may not read (PermissionError; faked, since the tests may run as root: the real
    ``chmod 000`` is in ``test_saves.py``). ``Path.glob`` took it for an empty folder, without a word."""
    games = state_dir / "games"
    games.mkdir(parents=True)
    real_scandir = os.scandir

    def refusing_scandir(path: object = ".") -> object:
        if Path(str(path)) == games:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", refusing_scandir)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert resume_options(app) == []
            assert said_once(app) == [f"cannot read the saved games in {games}: Permission denied"]
            await pilot.press("down", "enter")  # the menu still starts games
            await pilot.pause()
            assert len(said_once(app)) == 1
            assert not isinstance(app.screen, MenuScreen)

    run(test)


class _StylesheetInMemoryApp(NashplayApp):
    """The app with its stylesheet read by the test process, not by the app: the unprivileged user may not be able
    to read the checkout (CI clones it under a ``mktemp -d`` folder, mode 0700, as root), and Textual reads
    ``CSS_PATH`` when an app starts."""

    CSS_PATH = None
    CSS = Path(tui_app.__file__).with_name(str(NashplayApp.CSS_PATH)).read_text()


def resume_from_a_read_only_state_folder(state: Path) -> None:
    """As a user bound by permissions (``call_unprivileged``): the state folder and its save are read-only."""
    if os.access(state / "games", os.W_OK):
        pytest.skip("file permissions are not enforced for this user")
    [saved] = saved_slots(state)
    secret = saved.with_suffix(".secret")
    before = (saved.read_text(), secret.read_text())

    async def test() -> None:
        app = _StylesheetInMemoryApp(ai_delay=0, saves=SaveStore(state))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert resume_options(app)[0][0] == f"resume:{saved.stem}"
            await pilot.press("enter")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen), notifications(app)
            assert len(screen.session.state.moves()) == 2
            await type_move(app, pilot, "b2-a2")
            if not screen.session.is_over:
                await type_move(app, pilot, screen.session.view().legal_moves()[0].to_text())
            assert len(screen.session.state.moves()) >= 4
            [said] = said_once(app)
            assert "will not be saved" in said and "Permission denied" in said, said

    run(test)
    assert (saved.read_text(), secret.read_text()) == before
    assert [slot.id for slot in SaveStore(state).unfinished()] == [saved.stem]


def test_a_read_only_state_folder_with_a_save_present_resumes_it_unsaved() -> None:
    """Issue 15: a read-only state folder with a save in it. The app starts, offers the save and resumes it; the
    user is told once that the game's new moves are not saved; the save itself stays as it was, to resume again.
    (Resuming used to fail: the lock file could not be opened for writing.)"""
    with shared_folder() as folder:
        state = folder / "state"

        async def save_a_game() -> None:
            first = play_app(saves=SaveStore(state))
            async with first.run_test(size=SIZE) as pilot:
                await pilot.pause()
                await first_move(first, pilot)

        run(save_a_game)
        make_read_only(state)
        call_unprivileged(resume_from_a_read_only_state_folder, state)


def test_the_menu_says_how_many_unfinished_games_it_does_not_list(state_dir: Path) -> None:
    session = GameSession(GeisterConfig("mini-geister", Side.P1, "chototsu", "BR", SEED))
    session.play(session.view().legal_moves()[0])
    store = SaveStore(state_dir)
    for _ in range(MAX_LISTED + 2):
        slot = store.new_slot()
        slot.save(session.record(reveal=False), session.secrets())
        slot.release()

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert len(resume_options(app)) == MAX_LISTED
            options = menu_options(app)
            assert options[MAX_LISTED] == (
                None,
                f"... and 2 more unfinished games in {state_dir / 'games'} (the newest {MAX_LISTED} are listed)",
            )
            assert (options[MAX_LISTED + 1][0] or "").startswith("game:")

    run(test)


# ------------------------------------------------------------------------------------------------ replay viewer


def test_replay_viewer_steps_plays_and_never_changes_the_record() -> None:
    async def test() -> None:
        record = finished_record()
        text = record.to_text()
        states = record.replay()
        positions = [state.position() for state in states]
        assert len(positions) > 10
        app = NashplayApp(StartRequest("replay", record=record, replay_title="Replay: test"), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen) and screen.title == "Replay: test"
            last = len(positions) - 1
            assert screen.last_ply == last

            def shown() -> str:
                return view_of(app).position()

            assert screen.ply == 0 and shown() == positions[0]
            await pilot.press("right")
            assert screen.ply == 1 and shown() == positions[1]
            await pilot.press("left", "left")
            assert screen.ply == 0 and shown() == positions[0]
            await pilot.press("end")
            assert screen.ply == last and shown() == positions[-1]
            assert "Game over" in str(screen.query_one("#status").render())
            await pilot.press("right")
            assert screen.ply == last
            await pilot.press("home", "right", "right", "right")
            assert screen.ply == 3 and shown() == positions[3]
            assert "a note" in str(screen.query_one("#status").render())
            # Every position matches Record.replay(), and hides nothing (a finished game).
            for ply in range(last + 1):
                screen.ply = ply
                assert shown() == positions[ply]
            await pilot.press("home")

            # Space plays, space pauses; the timer's tick advances one move. The test ticks itself, on a timer that
            # never comes due here (on a loaded machine the real one could step between the key and the check).
            screen.start_playback(HANG_SECONDS)
            await pilot.press("space")
            assert screen.playing
            screen._tick()
            screen._tick()
            assert screen.ply == 2
            await pilot.press("space")
            assert not screen.playing

            # + and - change the speed, within the table.
            assert SPEEDS[screen.speed_index] == 1.0
            await pilot.press("plus")
            assert SPEEDS[screen.speed_index] == 0.5
            await pilot.press("minus", "minus", "minus")
            assert screen.speed_index == 0
            await pilot.press(*["plus"] * 6)
            assert screen.speed_index == len(SPEEDS) - 1

            # At the fastest speed the real timer moves on by itself, and stops when paused: while a probe timer of
            # the same period ticks three times in the same event loop, the paused one does not move the position.
            await pilot.press("home", "space")
            await wait_for(pilot, lambda: screen.ply >= 2, "the replay's timer to play two moves")
            await pilot.press("space")
            stopped = screen.ply
            ticks: list[int] = []
            probe = screen.set_interval(SPEEDS[screen.speed_index], lambda: ticks.append(1))
            await wait_for(pilot, lambda: len(ticks) >= 3, "three ticks of a timer at the replay's speed")
            probe.stop()
            assert screen.ply == stopped and shown() == positions[stopped]
            # At the end, play starts again from the start (on a timer that does not come due while we look);
            # a tick past the end stops playing.
            await pilot.press(*["minus"] * 5)
            screen.start_playback(HANG_SECONDS)
            await pilot.press("end", "space")
            assert screen.ply == 0 and screen.playing
            screen.ply = last
            screen._tick()
            assert not screen.playing and screen.ply == last
            await pilot.press("escape")
            await pilot.pause()
        assert record.to_text() == text
        assert [s.position() for s in record.replay()] == positions

    run(test)


def test_menu_opens_a_record_file(tmp_path: Path) -> None:
    async def test() -> None:
        record = finished_record()
        path = tmp_path / "game.ngr"
        record.save(path)
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("o")
            await pilot.pause()
            assert isinstance(app.screen, AskPath)
            field = app.screen.query_one("#path", Input)
            assert field.value == f"{Path.cwd()}/"
            field.value = str(tmp_path / "missing.ngr")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert "Cannot replay" in str(app.screen.query_one("#menu-message").render())
            await pilot.press("o")
            await pilot.pause()
            app.screen.query_one("#path", Input).value = str(path)
            await pilot.press("enter")
            await pilot.pause()
            replay = app.screen
            assert isinstance(replay, ReplayScreen) and replay.last_ply == len(record.moves)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)

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
                    assert "^^^" in board and "vvv" in board and "*" in board
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


# ------------------------------------------------------------------------------------------------ command line


def test_parser_reads_the_documented_commands() -> None:
    parser = build_parser()
    args = parser.parse_args([])
    assert args.command is None and args.ascii is False and args.theme is None
    args = parser.parse_args(
        ["play", "mini-geister", "--opponent", "random", "--setup", "BR", "--side", "2", "--seed", "7"]
    )
    assert (args.command, args.game, args.opponent, args.setup, args.side, args.seed) == (
        "play",
        "mini-geister",
        "random",
        "BR",
        "2",
        7,
    )
    args = parser.parse_args(["play", "geister"])
    assert (args.opponent, args.setup, args.side, args.seed) == ("chototsu", None, "1", None)
    args = parser.parse_args(["--ascii", "--theme", "nashplay-light", "play", "geister"])
    assert args.ascii is True and args.theme == "nashplay-light"
    args = parser.parse_args(["play", "geister", "--ascii", "--theme", "nashplay-colourblind"])
    assert args.ascii is True and args.theme == "nashplay-colourblind"
    args = parser.parse_args(["replay", "game.ngr", "--side", "2"])
    assert (args.command, args.file, args.side) == ("replay", "game.ngr", "2")
    for bad in (["play", "chess"], ["play", "geister", "--side", "3"], ["play", "geister", "--opponent", "x"]):
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args(bad)
        assert exit_info.value.code == 2


class RunStub:
    """Stands in for ``App.run`` so that ``main`` can be tested without a terminal."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.apps: list[NashplayApp] = []
        stub = self

        def fake_run(app: NashplayApp, *args: object, **kwargs: object) -> None:
            stub.apps.append(app)

        monkeypatch.setattr(NashplayApp, "run", fake_run)


def test_main_turns_arguments_into_a_start_request(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    runs = RunStub(monkeypatch)
    assert main(["play", "mini-geister", "--setup", "BR", "--side", "2", "--seed", "5", "--ascii"]) == 0
    request = runs.apps[-1].start_request
    assert request.kind == "game" and not request.setup
    assert request.config == GeisterConfig("mini-geister", Side.P2, "chototsu", "BR", 5)
    assert runs.apps[-1].ascii_mode
    main(["play", "geister", "--theme", "nashplay-light"])
    assert runs.apps[-1].start_request.setup and runs.apps[-1].initial_theme == "nashplay-light"
    path = tmp_path / "game.ngr"
    finished_record().save(path)
    main(["replay", str(path), "--side", "2"])
    request = runs.apps[-1].start_request
    assert request.kind == "replay" and request.replay_side is Side.P2 and request.record is not None
    main([])
    assert runs.apps[-1].start_request.kind == "menu"


def test_main_rejects_a_bad_set_up(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    runs = RunStub(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "mini-geister", "--setup", "XX"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "--setup" in error and "expected 2 letters B/R for b1 c1, with 1 B and 1 R" in error
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "geister", "--setup", "BBBBBRRR"])
    assert exit_info.value.code == 2
    assert "4 blue and 4 red" in capsys.readouterr().err
    assert runs.apps == []


def test_main_rejects_a_missing_or_broken_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    runs = RunStub(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", "missing.ngr"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("nashplay replay: error:") and "missing.ngr" in error
    broken = tmp_path / "broken.ngr"
    broken.write_text('[Game "mini-geister"]\n\n1. b1-b3 *\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(broken)])
    assert exit_info.value.code == 2
    assert "b1-b3" in capsys.readouterr().err
    assert runs.apps == []


def test_main_rejects_an_unknown_theme(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    runs = RunStub(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        main(["--theme", "no-such-theme"])
    assert exit_info.value.code == 2
    assert "no-such-theme" in capsys.readouterr().err
    assert runs.apps == []


@pytest.mark.parametrize(
    "command",
    [[sys.executable, "-m", "tui", "--help"], [str(VENV_BIN / "nashplay"), "--help"]],
    ids=["python -m tui", "nashplay"],
)
def test_help_from_the_shell(command: list[str]) -> None:
    if not Path(command[0]).exists():
        pytest.skip(f"{command[0]} is not installed")
    done = subprocess.run(command, capture_output=True, text=True, timeout=HANG_SECONDS, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: nashplay")
    for word in ("play", "replay", "--ascii", "--theme", "examples:"):
        assert word in done.stdout


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
