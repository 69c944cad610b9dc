"""The app's games in progress: saved as they are played, offered on the menu and resumed; the opponent's secret kept
out of the record; a game open in another nashplay left alone; damaged saves and state folders that cannot be read or
written said once and never a crash.

Driven through Textual's pilot; each test has its own state directory (``NASHPLAY_STATE_DIR``), ``ai_delay=0``
and a fixed seed, and asserts on the model and widget state. Plain functions run their coroutine with
``asyncio.run`` (no async plugin needed).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from app_helpers import SEED, SIZE, menu_options, notifications
from pilot_helpers import first_move, play_app, run, type_move, view_of
from unprivileged import call_unprivileged, make_read_only, shared_folder

import tui.app as tui_app
from core.game import Side
from core.geister import Colour
from core.record import Record
from tui.app import NashplayApp
from tui.config import GeisterConfig
from tui.saves import MAX_LISTED, SaveStore
from tui.screens.game import GameScreen
from tui.screens.menu import MenuScreen
from tui.session import GameSession
from tui.widgets.moves import MoveList


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
            await type_move(app, pilot, "b2-b3")  # a move of the game: from here it is kept
            session = app.screen.session  # type: ignore[attr-defined]
            assert session.state.moves()
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
            await first_move(second, pilot)
            assert second.screen.session.state.moves()  # type: ignore[attr-defined]
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


def test_a_game_left_before_any_move_is_not_kept(state_dir: Path) -> None:
    """Set-ups chosen, nothing played: leaving keeps nothing (such games once filled the menu with "0 plies played"
    entries; a game with a move is kept, as the Ctrl-C test above shows)."""

    async def test() -> None:
        config = GeisterConfig("mini-geister", Side.P1, "random", "BR", SEED)
        app = NashplayApp(tui_app.StartRequest.for_config(config), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.session.humans_turn
            assert not screen.session.state.moves()  # set up, nothing played
            await pilot.press("ctrl+c")
            await pilot.pause()

    run(test)
    assert saved_slots(state_dir) == []
