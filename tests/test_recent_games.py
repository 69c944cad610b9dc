"""Finding games again: the recent games (in progress and finished, every game, newest first, bounded) to resume,
replay or review; the last game one key away; files that cannot be read listed as such, never a crash."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from pilot_helpers import run, settle_workers
from textual.widgets import OptionList

from core.game import Side
from core.impartial import HeapGameState, HeapMove
from core.record import Record
from core.tcg import TcgAction, TcgState
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig, NimConfig
from tui.local_session import game_record, secret_tags
from tui.saves import SaveStore
from tui.screens.menu import MenuScreen
from tui.screens.nim import NimScreen
from tui.screens.recent import RecentGamesScreen
from tui.screens.tcg import TcgScreen
from tui.session import GameSession

SIZE = (110, 36)


def nim_record(human: Side = Side.P1) -> Record:
    """A finished Nim game: player 1 takes the only heap (human: ``human``, against the perfect player)."""
    state = HeapGameState((3,))
    state.apply(HeapMove(0, 3))
    return game_record(state, human, "perfect", seed=5)


def tcg_in_progress() -> tuple[Record, dict[str, str]]:
    state = TcgState(3)
    state.apply_joint((TcgAction.CHARGE, TcgAction.CHARGE))
    return game_record(state, Side.P1, "equilibrium", tags={"Mode": "versus"}), secret_tags(11)


def aged(path: Path, seconds_ago: float) -> None:
    when = time.time() - seconds_ago
    os.utime(path, (when, when))


def store_with_games(state: Path) -> SaveStore:
    """Newest first: a TCG game in progress (1 min ago), a finished Nim game (1 h), a damaged record (2 h), a
    contest game's record (3 h)."""
    store = SaveStore(state)
    record, secret = tcg_in_progress()
    slot = store.new_slot()
    slot.save(record, secret)
    slot.release()
    aged(slot.path, 60)
    aged(store.keep_record(nim_record()), 3600)
    damaged = store.records / "broken.ngr"
    damaged.write_bytes(b"\xff\xfe not a record")
    aged(damaged, 7200)
    session = GameSession(GeisterConfig("mini-geister", Side.P1, "chototsu", "BR", 3))
    (state / "contest").mkdir()
    contest = state / "contest" / "game-0001.ngr"
    session.record().save(contest)
    aged(contest, 3 * 3600)
    return store


def test_the_recent_games_are_every_kind_newest_first_and_say_what_they_are(state_dir: Path) -> None:
    store = store_with_games(state_dir)
    games = store.recent()
    assert [game.path.parent.name for game in games] == ["games", "records", "records", "contest"]
    tcg, nim, broken, contest = games
    assert tcg.in_progress and tcg.problem is None
    assert tcg.line().endswith("TCG n=3 vs equilibrium: in progress, 1 round played")
    assert not nim.in_progress and nim.line().endswith("Nim vs perfect: you won (1-0)")
    assert broken.problem is not None and broken.problem.startswith("damaged: ") and "broken.ngr" in broken.line()
    assert contest.line().endswith("mini-geister vs chototsu: unfinished, 0 plies played")
    assert all("\n" not in game.line() and len(game.line(70)) <= 70 for game in games)
    assert nim.load().to_text() == nim_record().to_text()
    assert RecentGamesScreen  # the screen that lists them (imported: it must import without the app)


def test_the_list_is_bounded_and_leaves_out_games_open_in_another_nashplay(state_dir: Path) -> None:
    store = store_with_games(state_dir)
    assert len(store.recent(limit=2)) == 2
    [slot_game] = [game for game in store.recent() if game.in_progress]
    assert slot_game.slot_id is not None
    elsewhere = store.slot(slot_game.slot_id)
    assert elsewhere.claim()
    try:
        assert not [game for game in store.recent() if game.in_progress]
    finally:
        elsewhere.release()


def test_a_folder_that_cannot_be_read_is_a_line_not_an_error(state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = store_with_games(state_dir)
    real_scandir = os.scandir

    def refusing_scandir(path: object = ".") -> object:
        if Path(str(path)) == store.records:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", refusing_scandir)
    games = store.recent()
    assert games[0].problem == f"cannot read {store.records}: Permission denied"
    assert [game.path.parent.name for game in games[1:]] == ["games", "contest"]


def test_the_finished_games_record_is_in_the_list_and_opens_in_the_viewer_and_the_review(state_dir: Path) -> None:
    from tui.screens.record_viewer import RecordViewerScreen
    from tui.screens.review import ReviewScreen

    async def test() -> None:
        first = NashplayApp(StartRequest.for_config(NimConfig((1, 2), opponent="random", seed=4)), ai_delay=0)
        async with first.run_test(size=SIZE) as pilot:
            await settle_workers(first, pilot)
            screen = first.screen
            assert isinstance(screen, NimScreen)
            while not screen.state.is_terminal():
                await pilot.press("enter")
                await settle_workers(first, pilot)
            played = [screen.state.format_action(move) for move in screen.state.history()]
            result = screen.state.outcome()

        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            recent = app.screen
            assert isinstance(recent, RecentGamesScreen)
            [game] = recent.games
            won = "you won" if result is not None and result.winner is Side.P1 else "you lost"
            assert f"Nim vs random: {won}" in str(recent.query_one(OptionList).get_option_at_index(0).prompt)
            await pilot.press("enter")
            await pilot.pause()
            viewer = app.screen
            assert isinstance(viewer, RecordViewerScreen)
            assert [move.text for move in viewer.record.moves] == played
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is recent
            await pilot.press("v")
            await pilot.pause()
            review = app.screen
            assert isinstance(review, ReviewScreen) and review.record.to_text() == game.load().to_text()

    run(test)


def test_the_last_game_opens_with_one_key_and_from_the_palette(state_dir: Path) -> None:
    store_with_games(state_dir)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            titles = [command.title for command in app.get_system_commands(app.screen)]
            assert "Recent games" in titles and "Open the last game" in titles
            await pilot.press("l")  # the newest is the TCG game in progress: it is resumed
            await settle_workers(app, pilot)
            screen = app.screen
            assert isinstance(screen, TcgScreen)
            assert screen.state.history() == [(TcgAction.CHARGE, TcgAction.CHARGE)] and screen.seed == 11
            assert screen.config.mode == "versus"

    run(test)


def test_the_menu_lists_recent_games_and_damaged_lines_never_stop_the_list(state_dir: Path) -> None:
    store = store_with_games(state_dir)
    session = GameSession(GeisterConfig("mini-geister", Side.P1, "chototsu", "BR", 3))
    slot = store.new_slot()
    slot.save(session.record(reveal=False), session.secrets())
    slot.release()  # the newest: a Geister game in progress

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            menu = app.screen
            assert isinstance(menu, MenuScreen)
            games = menu.query_one("#games", OptionList)
            ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
            games.highlighted = ids.index("recent")
            await pilot.press("enter")
            await pilot.pause()
            recent = app.screen
            assert isinstance(recent, RecentGamesScreen) and len(recent.games) == 5
            await pilot.press("v")  # the Geister game in progress hides the opponent's colours: not yet
            await pilot.pause()
            assert "finish it" in recent.message_text
            await pilot.press("down", "down", "down", "enter")  # the damaged record
            await pilot.pause()
            assert app.screen is recent and recent.message_text.startswith("broken.ngr cannot be opened: damaged")
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)

    run(test)


def test_a_game_damaged_after_it_was_listed_is_set_aside_and_the_list_refilled(state_dir: Path) -> None:
    store = store_with_games(state_dir)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            recent = app.screen
            assert isinstance(recent, RecentGamesScreen)
            [slot] = list(store.folder.glob("*.ngr"))
            slot.write_text("garbage")
            await pilot.press("enter")  # the newest: the TCG game in progress
            await pilot.pause()
            assert app.screen is recent
            assert any("could not be resumed" in n.message for n in app._notifications)
            assert (store.folder / "damaged" / slot.name).is_file()
            assert not [game for game in recent.games if game.in_progress]

    run(test)


def test_the_menu_keeps_every_saved_game_to_one_line(state_dir: Path) -> None:
    """A saved game's line says its state: on a narrow terminal it drops when it was saved, then is cut, never
    wrapped."""
    store_with_games(state_dir)
    store = SaveStore(state_dir)
    for _ in range(2):
        record, secret = tcg_in_progress()
        record.tags["Opponent"] = "equilibrium with a very long name indeed"
        slot = store.new_slot()
        slot.save(record, secret)
        slot.release()

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            games = app.screen.query_one("#games", OptionList)
            prompts = [str(games.get_option_at_index(i).prompt) for i in range(games.option_count)]
            resumes = [prompt for prompt in prompts if prompt.startswith("Resume: ")]
            assert len(resumes) == 3 and all(len(prompt) <= 70 for prompt in resumes), resumes
            assert any(prompt.endswith("...") for prompt in resumes)
            assert "Resume: TCG n=3 vs equilibrium, 1 round played, points 1,1" in resumes

    run(test)


@pytest.mark.parametrize("name", ["tcg", "footstep", "nim"])
def test_every_finished_game_is_found_again_and_opens(name: str, state_dir: Path) -> None:
    """A game played to its end in one session is the first of the recent games in the next, and Enter replays it."""
    from test_app_saves_all_games import FINISHED, app_for, game_screen

    from tui.screens.record_viewer import RecordViewerScreen

    config, drive = FINISHED[name]

    async def test() -> None:
        first = app_for(config)
        async with first.run_test(size=SIZE) as pilot:
            await drive(first, pilot)
            screen = game_screen(first)
            outcome = screen.state.outcome()
            assert outcome is not None
            played = [screen.state.format_action(action) for action in screen.state.history()]
        won = "you won" if outcome.winner is config.human else "you lost" if outcome.winner else "draw"

        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            recent = app.screen
            assert isinstance(recent, RecentGamesScreen)
            assert f": {won} (" in recent.games[0].line() and not recent.games[0].in_progress
            await pilot.press("enter")
            await pilot.pause()
            viewer = app.screen
            assert isinstance(viewer, RecordViewerScreen)
            assert [move.text for move in viewer.record.moves] == played
            assert viewer.record.tags["Human"] == str(config.human.number)

    run(test)
