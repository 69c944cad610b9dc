"""Watching two AIs: each decides from its own view with its own generator and its own thinking time, the watcher
sees every colour, pauses, steps one move at a time, and the finished game's record is kept to review. The set-up
screen for watching (from the menu) chooses the game, the players and each one's time; ``nashplay watch`` does the
same from the command line.

The watches here are played by players that decide at once (random, chototsu) or by stand-ins, so no search runs
and no test depends on the machine's speed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import menu_options
from cli_helpers import not_called, refused
from pilot_helpers import run, wait_for
from screen_text import assert_fits, non_ascii
from textual.widgets import Input, OptionList, RadioSet

from core.geister import Colour, GeisterView
from core.record import Record
from solvers.catalogue import make_player
from tui.app import NashplayApp, StartRequest
from tui.cli import main
from tui.screens.help import HelpScreen
from tui.screens.watch import SPEEDS, WatchScreen
from tui.screens.watch_setup import WatchSetupScreen
from tui.watching import WatchSettings, default_players
from tui.widgets.board import Board


class Recording:
    """Wraps a player: remembers every view it was given."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.name = player.name
        self.views: list[GeisterView] = []

    def choose(self, view: GeisterView, rng: Any, limit: Any = None) -> Any:
        self.views.append(view)
        return self.player.choose(view, rng)


def test_two_ais_play_paused_stepped_and_their_game_kept(state_dir: Path) -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            watch = WatchScreen("mini-geister", ("chototsu", "random"), (0.1, 0.2), seed=5)  # 9 moves
            watch.players = tuple(Recording(player) for player in watch.players)
            watch.paused = True  # stepped by hand from the start
            app.push_screen(watch)
            await wait_for(pilot, lambda: app.screen is watch and not watch.thinking, "the first set-up")
            for expected in range(2, 6):  # two set-ups, then moves
                await pilot.press("right")
                await wait_for(pilot, lambda: not watch.thinking, "one step")
                assert len(watch.state.history()) == expected
            status = str(watch.query_one("#status").render())
            assert not watch.state.is_terminal() and "paused" in status and "both decide at once" in status
            board = watch.query_one("#board", Board).view
            assert board is not None and all(
                p.colour is not Colour.UNKNOWN for _, p in board.pieces(board.viewer.other)
            )
            # Each AI saw its own view only: the other side's colours hidden.
            for recording in watch.players:
                for view in recording.views:  # type: ignore[attr-defined]
                    if view.phase != "setup":
                        assert all(p.colour is Colour.UNKNOWN for _, p in view.pieces(view.viewer.other))
            watch.pause_index = SPEEDS.index(0.0)
            await pilot.press("space")
            await wait_for(pilot, lambda: watch.state.is_terminal() and watch.kept is not None, "the end")
            record = Record.load(watch.kept or "")
            assert record.tags["Player1"] == "chototsu" and record.result != "*"
            # Each side's own time, in a tag of its own.
            assert (record.tags["ThinkTime1"], record.tags["ThinkTime2"]) == ("0.1", "0.2")
            assert watch.active_bindings["v"].binding.action == "review" and watch.check_action("review", ())

    run(test)


# ------------------------------------------------------------------------------------------------ the set-up screen


class Opponents:
    """Stands in for ``make_opponent`` in the watch screen: remembers each player asked for, with its game and time,
    and plays random (no search process starts)."""

    def __init__(self) -> None:
        self.made: list[tuple[str, str, float]] = []

    def __call__(self, name: str, variant: str, think_time: float) -> Any:
        self.made.append((name, variant, think_time))
        return make_player("random", variant)


@pytest.fixture
def opponents(monkeypatch: pytest.MonkeyPatch) -> Opponents:
    made = Opponents()
    monkeypatch.setattr("tui.screens.watch.make_opponent", made)
    return made


def chosen(screen: WatchSetupScreen, list_id: str) -> str | None:
    button = screen.query_one(f"#{list_id}", RadioSet).pressed_button
    return button.name if button is not None else None


def players(screen: WatchSetupScreen, list_id: str) -> list[str | None]:
    return [button.name for button in screen.query_one(f"#{list_id}", RadioSet).children]


async def choose(pilot: Any, screen: WatchSetupScreen, list_id: str, name: str) -> None:
    """Pick ``name`` in the list ``list_id`` as a user does: the list gets the keyboard, the cursor goes down to it
    (from the chosen line), Enter."""
    radios = screen.query_one(f"#{list_id}", RadioSet)
    radios.focus()
    await pilot.pause()
    steps = players(screen, list_id).index(name) - (radios._selected or 0)
    await pilot.press(*(["down"] * steps if steps >= 0 else ["up"] * -steps), "enter")
    await wait_for(pilot, lambda: chosen(screen, list_id) == name, f"{name} chosen")


def test_the_menu_opens_the_set_up_which_starts_a_watch_of_the_chosen_game_players_and_times(
    opponents: Opponents,
) -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            games = app.screen.query_one("#games", OptionList)
            games.highlighted = [option_id for option_id, _ in menu_options(app)].index("watch")
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, WatchSetupScreen), "the set-up for watching")
            setup = app.screen
            assert isinstance(setup, WatchSetupScreen)
            # Geister first: its strongest against purple; the times as the defaults say.
            assert (chosen(setup, "watch-variant"), chosen(setup, "player-1"), chosen(setup, "player-2")) == (
                "geister",
                "sage",
                "purple",
            )
            assert default_players("geister") == ("sage", "purple")
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
            assert app.screen.topic == "watch"  # type: ignore[attr-defined]
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is setup, "the help closed")

            # Another game: the sides nobody chose follow it (Mini-Geister's strongest is nash).
            await choose(pilot, setup, "watch-variant", "mini-geister")
            await wait_for(pilot, lambda: chosen(setup, "player-1") == "nash", "the lists of mini-geister")
            assert chosen(setup, "player-2") == "purple"
            await choose(pilot, setup, "player-1", "chototsu")
            # A side chosen keeps its player in the next game; the other follows the game (bayes in 3 vs 2).
            await choose(pilot, setup, "watch-variant", "mini-geister-3v2-rrb")
            await wait_for(pilot, lambda: "nash" not in players(setup, "player-1"), "the 3-vs-2 lists")
            assert "nash" not in players(setup, "player-2") and players(setup, "player-2")[0] == "bayes"
            assert (chosen(setup, "player-1"), chosen(setup, "player-2")) == ("chototsu", "purple")
            await choose(pilot, setup, "player-2", "random")

            # The times, typed (each field's text is selected when it gets the keyboard), then ctrl+s.
            await pilot.press("tab")
            assert app.focused is setup.query_one("#time-1"), "Tab goes from player 2 to the times"
            await pilot.press(*"0.2", "tab", *"1.5")
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, WatchScreen), "the watch")
            watch = app.screen
            assert isinstance(watch, WatchScreen)
            assert watch.state.variant.name == "mini-geister-3v2-rrb"
            assert watch.names == ("chototsu", "random") and watch.think_times == (0.2, 1.5)
            # Each side's player was made with its own time.
            assert opponents.made == [
                ("chototsu", "mini-geister-3v2-rrb", 0.2),
                ("random", "mini-geister-3v2-rrb", 1.5),
            ]
            assert watch.help_topic == "watch"

    run(test)


#: Times the set-up refuses, with the words that say why (the command line's words, from the same number type).
BAD_TIMES = (
    ("0", "player 1's time: must be from 0.01 to 60 seconds, not 0"),
    ("-1", "must be from 0.01 to 60 seconds, not -1"),
    ("1e9", "must be from 0.01 to 60 seconds, not 1e9"),
    ("abc", "expected a number from 0.01 to 60 seconds, not 'abc'"),
    ("nan", "expected a finite number"),
    ("", "expected a number"),
)


def test_a_bad_time_is_refused_in_one_line_and_nothing_is_lost(opponents: Opponents) -> None:
    async def test() -> None:
        settings = WatchSettings("mini-geister", ("greedy", "chototsu"), (0.25, 2.0), seed=5)
        app = NashplayApp(StartRequest("watch", watch=settings, setup=True), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            setup = app.screen
            assert isinstance(setup, WatchSetupScreen)
            field = setup.query_one("#time-1", Input)
            message = setup.query_one("#watch-message")
            for text, words in BAD_TIMES:
                field.value = text
                await pilot.pause()  # as typed: the field's change is seen before ctrl+s
                await pilot.press("ctrl+s")
                await pilot.pause()
                assert setup.is_current, f"{text!r} started the watch"
                said = str(message.render())
                # "Not yet: " goes where the line would not fit 80 columns with it.
                assert message.display and words in said and "\n" not in said, (text, said)
                assert said.startswith(("Not yet: player 1's time: ", "player 1's time: ")), said
                assert app.focused is field, "the field to mend has the keyboard"
                # Nothing lost: the text as typed, the other time, the game and both players.
                assert field.value == text and setup.query_one("#time-2", Input).value == "2"
                assert (chosen(setup, "watch-variant"), chosen(setup, "player-1"), chosen(setup, "player-2")) == (
                    "mini-geister",
                    "greedy",
                    "chototsu",
                )
                assert_fits(app, "player 1's time: ")
            assert opponents.made == []
            # Mended, it starts (the seed given goes through).
            field.value = "0.05"
            await pilot.pause()
            assert not message.display, "the message goes once the text changes"
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, WatchScreen), "the watch")
            watch = app.screen
            assert isinstance(watch, WatchScreen)
            assert watch.think_times == (0.05, 2.0) and watch.seed == 5

    run(test)


@pytest.mark.parametrize("ascii_mode", [True, False], ids=["ascii", "unicode"])
def test_the_set_up_screen_fits_at_80x24_and_110x34(ascii_mode: bool) -> None:
    """Mini-Geister has the longest lists of players (18): they fit whole, with the message line shown too."""

    async def test() -> None:
        app = NashplayApp(
            StartRequest("watch", watch=WatchSettings("mini-geister"), setup=True), ascii_mode=ascii_mode, ai_delay=0
        )
        async with app.run_test(size=(80, 24)) as pilot:
            for size in ((80, 24), (110, 34)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
                setup = app.screen
                assert isinstance(setup, WatchSetupScreen)
                lines = ("Game", "Player 1 (first)", "Player 2", "mini-geister-2v3-rbb", "adversary", "Start")
                text = assert_fits(app, *lines, "ctrl+s Start", "Seconds a move")
                assert not ascii_mode or not non_ascii(text), f"\n{text}\n{sorted(non_ascii(text))}"
                setup.query_one("#time-2", Input).value = "abc"
                await pilot.pause()
                await pilot.press("ctrl+s")
                await pilot.pause()
                text = assert_fits(app, *lines, "Not yet: player 2's time: expected a number")
                assert not ascii_mode or not non_ascii(text), f"\n{text}\n{sorted(non_ascii(text))}"
                setup.query_one("#time-2", Input).value = "0.5"
                await pilot.pause()

    run(test)


# ------------------------------------------------------------------------------------------------ nashplay watch


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[StartRequest]:
    """The start requests ``nashplay watch`` opens the app on (the app itself does not run)."""
    requests: list[StartRequest] = []

    def open_app(request: StartRequest, args: Any) -> int:
        requests.append(request)
        return 0

    monkeypatch.setattr("tui.cli.watch.open_app", open_app)
    return requests


def test_nashplay_watch_opens_the_app_on_the_watch_or_its_set_up(started: list[StartRequest]) -> None:
    argv = ["watch", "mini-geister", "--players", "nash", "chototsu", "--time", "0.3", "--time2", "2", "--seed", "3"]
    assert main(argv) == 0
    assert started[-1] == StartRequest(
        "watch", watch=WatchSettings("mini-geister", ("nash", "chototsu"), (0.3, 2.0), 3), setup=False
    )
    # One time for both; the arena's way of naming two players; GAME after them.
    main(["watch", "--players", "sage,purple", "--time", "1"])
    assert started[-1].watch == WatchSettings("geister", ("sage", "purple"), (1.0, 1.0))
    main(["watch", "--players", "sage", "purple", "mini-geister-2v3-rbb"])
    assert started[-1].watch == WatchSettings("mini-geister-2v3-rbb", ("sage", "purple"))
    # Without --players: the set-up screen, its choices starting from the options given.
    main(["watch", "mini-geister", "--time", "0.25"])
    assert started[-1] == StartRequest("watch", watch=WatchSettings("mini-geister", None, (0.25, 0.25)), setup=True)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["watch", "tcg"], "GAME: expected a game of the Geister family, one of geister, mini-geister"),
        (["watch", "--players", "sage", "nash"], "nash does not play geister: the players of geister are sage, random"),
        (["watch", "mini-geister", "--players", "foo", "random"], "unknown player 'foo': the players of mini-geister"),
        (["watch", "--players", "sage"], "expected two players, player 1's first, not 1 ('sage'): the players of"),
        (["watch", "--players", "sage", "purple", "random"], "not 3"),
        (["watch", "--players", "sage", "purple", "--time", "0"], "--time must be from 0.01 to 60 seconds, not 0"),
        (["watch", "--players", "sage", "purple", "--time", "-1"], "--time must be from 0.01 to 60 seconds, not -1"),
        (["watch", "--players", "sage", "purple", "--time2", "1e9"], "--time2 must be from 0.01 to 60 seconds"),
        (["watch", "--time", "abc"], "--time: expected a number from 0.01 to 60 seconds, not 'abc'"),
        (["watch", "--time", "nan"], "--time: expected a finite number"),
        (["watch", "--seed", "-1"], "--seed must be 0 or more"),
    ],
)
def test_nashplay_watch_refuses_in_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.cli.watch.open_app", not_called)
    err = refused(argv, capsys)
    assert err.startswith("nashplay watch: error: ") and words in err, err


def test_the_app_starts_on_the_watch_the_command_line_asked_for(opponents: Opponents) -> None:
    async def test() -> None:
        settings = WatchSettings("mini-geister-2v3-rbb", ("random", "chototsu"), (0.5, 3.0), seed=9)
        app = NashplayApp(StartRequest("watch", watch=settings), ai_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, WatchScreen), "the watch")
            watch = app.screen
            assert isinstance(watch, WatchScreen)
            assert (watch.state.variant.name, watch.names, watch.think_times, watch.seed) == (
                "mini-geister-2v3-rbb",
                ("random", "chototsu"),
                (0.5, 3.0),
                9,
            )
            assert [time for _, _, time in opponents.made] == [0.5, 3.0]

    run(test)
