"""Every game is kept as it is played (TCG, Footstep, Nim and Goofspiel as the Geister family): in progress in a save
slot, offered for resume on the menu with its state, resumed from its record with the same opponent and options;
finished in the state folder's ``records/``. ``s`` (``ctrl+s`` where ``s`` is a game's key) saves a record that
replays to the game; after a game ``v`` asks for its review and ``m`` is a rematch with the sides swapped; a damaged
save of any game is set aside with one line and the app starts."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pilot_helpers import close_game_over, run, settle_workers, wait_for
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from core.errors import NotationError
from core.game import Side
from core.record import Record
from tui.app import NashplayApp, StartRequest
from tui.config import FootstepConfig, GeisterConfig, GoofspielConfig, NimConfig, TcgConfig
from tui.games import Config
from tui.local_session import check_resumable, resume_record
from tui.messages import OpenReview
from tui.saves import SaveStore
from tui.screens.footstep import FootstepScreen
from tui.screens.game import GameScreen
from tui.screens.goofspiel import GoofspielScreen
from tui.screens.menu import MenuScreen
from tui.screens.nim import NimScreen
from tui.screens.tcg import TcgScreen

SIZE = (110, 36)

Screen = TcgScreen | FootstepScreen | NimScreen | GoofspielScreen
Drive = Callable[[NashplayApp, Pilot[None]], Awaitable[None]]


def app_for(config: Config, **kwargs: Any) -> NashplayApp:
    return NashplayApp(StartRequest.for_config(config), ai_delay=0, **kwargs)


def notifications(app: NashplayApp) -> list[str]:
    return [n.message for n in app._notifications]


def menu_options(app: NashplayApp) -> list[tuple[str, str]]:
    games = app.screen.query_one("#games", OptionList)
    options = [games.get_option_at_index(i) for i in range(games.option_count)]
    return [(option.id or "", str(option.prompt)) for option in options]


def slots(state_dir: Path) -> list[Path]:
    return sorted((state_dir / "games").glob("*.ngr"))


def records(state_dir: Path) -> list[Path]:
    return sorted((state_dir / "records").glob("*.ngr"))


def moves_of(screen: Screen) -> list[str]:
    return [screen.state.format_action(action) for action in screen.state.history()]


def deck_of(screen: Screen) -> str:
    """Goofspiel's whole deck, the order of the prizes (the save's secret while the game runs)."""
    assert isinstance(screen, GoofspielScreen)
    return "".join(str(prize) for prize in screen.state.deck)


def state_text(state: Any) -> str:
    return str(getattr(state, "state_text", None) or state.heaps_text)


# ------------------------------------------------------------------------------------------------ driving each game


async def ready(app: NashplayApp, pilot: Pilot[None]) -> None:
    await settle_workers(app, pilot)


async def tcg_rounds(app: NashplayApp, pilot: Pilot[None]) -> None:
    """Advisor mode: I charged, they charged; I defended, they charged (the user's own action forced by Shift)."""
    await ready(app, pilot)
    for keys in (("C", "c"), ("D", "c")):
        await pilot.press(*keys)
        await pilot.pause()


async def tcg_lose(app: NashplayApp, pilot: Pilot[None]) -> None:
    """Versus mode: a strong attack with no points (said, then played) loses at once."""
    await ready(app, pilot)
    await pilot.press("s", "s")
    await pilot.pause()


async def footstep_rounds(app: NashplayApp, pilot: Pilot[None]) -> None:
    """Two tied rounds: the user bids what the opponent secretly chose (the test may look), the marker stays."""
    await ready(app, pilot)
    screen = app.screen
    assert isinstance(screen, FootstepScreen)
    for _ in range(2):
        assert screen.secret_bid is not None
        await pilot.press(*str(screen.secret_bid), "enter")
        await pilot.pause()
    assert not screen.state.is_terminal()


async def footstep_finish(app: NashplayApp, pilot: Pilot[None]) -> None:
    """k = 1: one bid above the opponent's (or all the points) ends the game."""
    await ready(app, pilot)
    screen = app.screen
    assert isinstance(screen, FootstepScreen)
    while not screen.state.is_terminal():
        assert screen.secret_bid is not None
        points = screen.state.position.points(screen.human)
        await pilot.press(*str(min(points, screen.secret_bid + 1)), "enter")
        await pilot.pause()


async def nim_moves(app: NashplayApp, pilot: Pilot[None]) -> None:
    """Two of the user's moves (the cursor's: one stone from the first heap) and the random player's replies."""
    await ready(app, pilot)
    for _ in range(2):
        await pilot.press("enter")
        await settle_workers(app, pilot)


async def nim_win(app: NashplayApp, pilot: Pilot[None]) -> None:
    """One heap of one stone: the user takes it and wins."""
    await ready(app, pilot)
    await pilot.press("enter")
    await settle_workers(app, pilot)


async def goofspiel_rounds(app: NashplayApp, pilot: Pilot[None]) -> None:
    """Two rounds: the user bids the 1, then the 2."""
    await ready(app, pilot)
    for card in "12":
        await pilot.press(card)
        await pilot.pause()


async def goofspiel_finish(app: NashplayApp, pilot: Pilot[None]) -> None:
    """N = 1: one round (both bid the 1, a tie) ends the game in a draw."""
    await ready(app, pilot)
    await pilot.press("1")
    await pilot.pause()


#: name: (configuration, a few moves, the menu's words for the game and its state)
GAMES: dict[str, tuple[Config, Drive, str]] = {
    "tcg": (TcgConfig(3, "advisor", Side.P1, seed=1), tcg_rounds, "TCG n=3 vs someone (advisor mode), 2 rounds"),
    "footstep": (
        FootstepConfig(20, 3, "random", Side.P2, seed=3),
        footstep_rounds,
        "Footstep 20,3 vs random, 2 rounds played, state ",
    ),
    "nim": (NimConfig((3, 4, 5), opponent="random", seed=3), nim_moves, "Nim vs random, 4 plies played, heaps "),
    "goofspiel": (GoofspielConfig(5, "random", Side.P2, seed=4), goofspiel_rounds, "Goofspiel N=5 vs random, 2 rounds"),
}

#: name: (configuration, how to end the game quickly)
FINISHED: dict[str, tuple[Config, Drive]] = {
    "tcg": (TcgConfig(3, "versus", Side.P1, seed=1), tcg_lose),
    "footstep": (FootstepConfig(6, 1, "random", Side.P1, seed=3), footstep_finish),
    "nim": (NimConfig((1,), opponent="perfect", seed=3), nim_win),
    "goofspiel": (GoofspielConfig(1, "equilibrium", Side.P1, seed=3), goofspiel_finish),
}


def game_screen(app: NashplayApp) -> Screen:
    """The game's screen (under the game-over panel once the game is over)."""
    games = TcgScreen | FootstepScreen | NimScreen | GoofspielScreen
    screen = next((screen for screen in reversed(app.screen_stack) if isinstance(screen, games)), app.screen)
    assert isinstance(screen, games), screen
    return screen


# ------------------------------------------------------------------------------------------------ resume


@dataclasses.dataclass(frozen=True)
class Played:
    """A game of ``GAMES`` driven through its few moves in an app that was then quit: its state folder's ``games/``
    as the quit left it, and what the app showed and wrote while the game was on."""

    games: Path
    screen: type[Screen]
    moves: list[str]
    where: str
    seed: int
    deck: str | None
    takebacks: Any
    over: bool
    #: The save slots while the game was on, and once the app had quit.
    slots_playing: list[Path]
    slots_after: list[Path]
    #: The slot's record and its secret as they were while the game was on.
    public: str
    secret: str

    def resume_in(self, state_dir: Path) -> Path:
        """This game's save, copied into ``state_dir`` as the quit left it; its slot's record."""
        shutil.copytree(self.games, state_dir / "games")
        [saved] = slots(state_dir)
        return saved


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Played]:
    """Each game of ``GAMES`` played once on this worker (in a state folder of its own), for every test that resumes
    it: an app driving a game is most of such a test's time, and the game and its save are the same each time."""

    @functools.cache
    def play(name: str) -> Played:
        config, drive, _ = GAMES[name]
        folder = tmp_path_factory.mktemp(f"played-{name}")
        state = folder / "state"

        async def test() -> Played:
            app = app_for(config)
            async with app.run_test(size=SIZE) as pilot:
                await drive(app, pilot)
                screen = game_screen(app)
                playing = slots(state)
                texts = [(path.read_text(), path.with_suffix(".secret").read_text()) for path in playing]
                deck = deck_of(screen) if name == "goofspiel" else None
                seen = (type(screen), moves_of(screen), state_text(screen.state), screen.seed, deck)
                takebacks, over = screen.session.takebacks, screen.state.is_terminal()
            public, secret = texts[0] if len(texts) == 1 else ("", "")
            return Played(state / "games", *seen, takebacks, over, playing, slots(state), public, secret)

        with pytest.MonkeyPatch.context() as patch:  # as the ``state_dir`` fixture does for a test
            patch.setenv("NASHPLAY_STATE_DIR", str(state))
            patch.setenv("NASHPLAY_CACHE_DIR", str(folder / "cache"))
            patch.chdir(folder)
            return asyncio.run(test())

    return play


@pytest.mark.parametrize("name", list(GAMES))
def test_a_game_in_progress_is_offered_on_the_menu_and_resumed_as_it_was(
    name: str, state_dir: Path, played: Callable[[str], Played]
) -> None:
    config, _, words = GAMES[name]
    first = played(name)
    moves, where, seed = first.moves, first.where, first.seed
    assert len(moves) >= 2 and not first.over
    [saved] = first.slots_playing
    # What the user may open (the slot's record) hides the seed that would foretell the opponent's choices.
    public = Record.parse(first.public)
    assert "Seed" not in public.tags and [m.text for m in public.moves] == moves
    secret = json.loads(first.secret)["tags"]
    assert secret == {"Seed": str(seed), **({"Deck": first.deck} if name == "goofspiel" else {})}
    assert first.slots_after == [saved]  # quitting keeps it
    saved = first.resume_in(state_dir)  # the same slot, in this test's state folder

    async def test() -> None:
        second = NashplayApp(ai_delay=0)
        async with second.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(second.screen, MenuScreen)
            option_id, prompt = menu_options(second)[0]
            assert option_id == f"resume:{saved.stem}"
            assert prompt.startswith(f"Resume: {words}"), prompt
            assert where in prompt
            await pilot.press("enter")
            await settle_workers(second, pilot)
            resumed = game_screen(second)
            assert type(resumed) is first.screen
            assert moves_of(resumed) == moves and state_text(resumed.state) == where
            # The same opponent, side, options and seed, and the takeback policy it was played under, now explicit.
            assert resumed.config == dataclasses.replace(config, takebacks=first.takebacks)
            assert resumed.seed == seed
            assert resumed.keeper is not None and resumed.keeper.slot is not None
            assert resumed.keeper.slot.id == saved.stem  # going on in its own slot
            assert not notifications(second)

    run(test)


@pytest.mark.parametrize("name", list(GAMES))
def test_esc_to_the_menu_offers_the_game_just_left_at_the_top(name: str, state_dir: Path) -> None:
    """Back on the menu, the game just left is the first entry, ready to resume (its slot is let go before the menu
    lists the saves, not whenever the game's screen happens to go)."""
    config, drive, words = GAMES[name]

    async def test() -> None:
        app = app_for(config)
        async with app.run_test(size=SIZE) as pilot:
            await drive(app, pilot)
            [saved] = slots(state_dir)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            option_id, prompt = menu_options(app)[0]
            assert option_id == f"resume:{saved.stem}" and prompt.startswith(f"Resume: {words}"), prompt

    run(test)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_resumed_game_goes_on_in_its_slot_and_its_end_goes_to_records(
    name: str, state_dir: Path, played: Callable[[str], Played]
) -> None:
    """Resumed, played on to its end: the slot is cleared and the whole record (its seed now revealed) is in
    ``records/``, replaying to the game's last state."""
    played(name).resume_in(state_dir)

    async def test() -> None:
        second = NashplayApp(ai_delay=0)
        async with second.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("enter")
            await settle_workers(second, pilot)
            screen = game_screen(second)
            await finish(screen, second, pilot)
            assert screen.state.is_terminal()
            assert slots(state_dir) == []
            [kept] = records(state_dir)
            record = Record.load(kept)
            assert record.tags["Seed"] == str(screen.seed) and record.result != "*"
            assert [m.text for m in record.moves] == moves_of(screen)
            assert state_text(record.replay_states()[-1]) == state_text(screen.state)

    run(test)


async def finish(screen: Screen, app: NashplayApp, pilot: Pilot[None]) -> None:
    """Play any game on to its end."""
    for _ in range(60):
        if screen.state.is_terminal():
            return
        if isinstance(screen, TcgScreen):
            await pilot.press("a")  # advisor mode: the opponent attacks; with no points it loses
        elif isinstance(screen, FootstepScreen):
            assert screen.secret_bid is not None
            points = screen.state.position.points(screen.human)
            await pilot.press(*(str(min(points, screen.secret_bid + 1)) if points else ""), "enter")
        elif isinstance(screen, GoofspielScreen):
            await pilot.press(str(min(screen.state.hand(screen.human))))
        else:
            await pilot.press("enter")
        await settle_workers(app, pilot)
    raise AssertionError("the game did not end")


def test_once_the_game_is_over_no_takeback_and_its_record_stays(state_dir: Path) -> None:
    """A finished game stands: u is refused (it used to take the last round back and reopen the slot), the record
    stays in ``records/``, and no slot offers it for resume; a new game starts a slot of its own."""

    async def test() -> None:
        app = app_for(TcgConfig(3, "advisor", Side.P1, seed=1))
        async with app.run_test(size=SIZE) as pilot:
            await tcg_rounds(app, pilot)
            await pilot.press("C", "a")  # they attack a charge: they win
            await close_game_over(app, pilot)
            screen = game_screen(app)
            assert screen.state.is_terminal() and slots(state_dir) == [] and len(records(state_dir)) == 1
            await pilot.press("u")
            await pilot.pause()
            assert screen.state.is_terminal() and len(records(state_dir)) == 1 and slots(state_dir) == []
            assert "The game is over: its moves stand" in screen.message_text
            await pilot.press("r")  # a new game
            await pilot.press("C", "c")
            await pilot.pause()
            assert len(slots(state_dir)) == 1 and len(records(state_dir)) == 1

    run(test)


def test_a_game_back_at_its_start_is_not_offered(state_dir: Path) -> None:
    async def test() -> None:
        app = app_for(NimConfig((3, 4, 5), opponent="human", seed=3))
        async with app.run_test(size=SIZE) as pilot:
            await ready(app, pilot)
            await pilot.press("enter")
            await pilot.pause()
            assert len(slots(state_dir)) == 1
            await pilot.press("u")
            await pilot.pause()
            assert slots(state_dir) == []

    run(test)


# ------------------------------------------------------------------------------------------------ save a record


SAVE_KEY = {"tcg": "ctrl+s", "footstep": "ctrl+s", "nim": "s", "goofspiel": "ctrl+s"}


@pytest.mark.parametrize("name", list(GAMES))
def test_the_save_key_writes_a_record_that_replays_to_the_game(name: str, state_dir: Path) -> None:
    config, drive, _ = GAMES[name]

    async def test() -> None:
        app = app_for(config)
        async with app.run_test(size=SIZE) as pilot:
            await drive(app, pilot)
            screen = game_screen(app)
            await pilot.press(SAVE_KEY[name])
            await pilot.pause()
            [path] = records(state_dir)
            assert screen.message_text == f"Saved to {path}"  # one line, saying where
            record = Record.load(path)
            assert "Seed" not in record.tags and record.result == "*"
            assert [m.text for m in record.moves] == moves_of(screen)
            assert state_text(record.replay_states()[-1]) == state_text(screen.state)
            assert record.tags["Human"] == str(screen.config.human.number)

    run(test)


# ------------------------------------------------------------------------------------------------ after the game


def captured_reviews(monkeypatch: pytest.MonkeyPatch) -> list[OpenReview]:
    """The reviews the App is asked for (``OpenReview``), kept instead of opened (a Geister review searches)."""
    reviews: list[OpenReview] = []

    def open_review(self: NashplayApp, record: Record, title: str | None = None) -> None:
        reviews.append(OpenReview(record, title))

    monkeypatch.setattr(NashplayApp, "open_review", open_review)
    return reviews


def footer_keys(app: NashplayApp) -> set[str]:
    return {binding.key for _, binding, _, _ in app.screen.active_bindings.values() if binding.show}


@pytest.mark.parametrize("name", list(FINISHED))
def test_after_the_game_v_asks_for_its_review_and_m_swaps_the_sides(
    name: str, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, drive = FINISHED[name]
    reviews = captured_reviews(monkeypatch)

    async def test() -> None:
        app = app_for(config)
        async with app.run_test(size=SIZE) as pilot:
            await ready(app, pilot)
            assert "m" not in footer_keys(app)
            if name == "tcg":  # until the end TCG's v switches the mode
                assert app.screen.active_bindings["v"].binding.action == "switch_mode"
            else:
                assert "v" not in footer_keys(app)
            await drive(app, pilot)
            await close_game_over(app, pilot)
            screen = game_screen(app)
            assert screen.state.is_terminal()
            assert {"v", "m"} <= footer_keys(app)
            assert app.screen.active_bindings["v"].binding.action == "review"
            await pilot.press("v")
            await pilot.pause()
            [event] = reviews
            assert event.record.to_text() == Record.load(records(state_dir)[0]).to_text()
            assert [m.text for m in event.record.moves] == moves_of(screen) and event.title
            await pilot.press("m")
            await settle_workers(app, pilot)
            rematch = game_screen(app)
            assert rematch is not screen and type(rematch) is type(screen)
            assert rematch.config.human is config.human.other
            # A new game (in Nim the perfect player, now first, has taken the only stone already).
            assert len(rematch.state.history()) == (1 if name == "nim" else 0)
            assert rematch.config == type(config)(**{**config.__dict__, "human": config.human.other})

    run(test)


def test_in_nim_the_rematch_lets_the_other_player_move_first(state_dir: Path) -> None:
    async def test() -> None:
        app = app_for(NimConfig((1,), opponent="perfect", seed=3))
        async with app.run_test(size=SIZE) as pilot:
            await nim_win(app, pilot)
            await pilot.press("m")
            await settle_workers(app, pilot)
            screen = game_screen(app)
            assert isinstance(screen, NimScreen) and screen.config.human is Side.P2
            # The perfect player moved first, took the only stone, and won: the rematch is over, and kept.
            assert screen.state.is_terminal() and screen.state.outcome().winner is Side.P1  # type: ignore[union-attr]
            results = sorted(Record.load(path).tags["Human"] + Record.load(path).result for path in records(state_dir))
            assert results == ["11-0", "21-0"]

    run(test)


def test_a_geister_game_keeps_its_end_in_records_and_offers_review_and_rematch(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Geister family too: the finished game's record is kept in ``records/`` (``s`` proposes that file again),
    ``v`` reviews it, ``m`` replays the position with the sides swapped (the new opponent's colours hidden)."""
    reviews = captured_reviews(monkeypatch)
    config = GeisterConfig("mini-geister", Side.P1, "chototsu", None, 7, position="B2u/4/1u2/1R2 1")

    async def test() -> None:
        app = app_for(config)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "v" not in footer_keys(app)
            await pilot.press("colon", *"a4-out", "enter")
            await settle_workers(app, pilot)
            await close_game_over(app, pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.session.is_over
            assert slots(state_dir) == []
            [kept] = records(state_dir)
            assert Record.load(kept).to_text() == screen.session.record(reveal=True).to_text()
            assert {"v", "m"} <= footer_keys(app)
            await pilot.press("s")
            assert screen.query_one("#move-input", Input).value == str(kept)
            await pilot.press("escape", "v")
            await pilot.pause()
            [event] = reviews
            # Everything revealed: the start names the colours the board hid.
            start = screen.session.state.start_position
            assert event.record.result == "1-0" and event.record.tags["Start"] == start and "u" not in start
            await pilot.press("m")
            await settle_workers(app, pilot)
            rematch = next(screen for screen in reversed(app.screen_stack) if isinstance(screen, GameScreen))
            assert rematch is not screen
            assert rematch.session.human is Side.P2 and rematch.session.config.position is not None
            # The same position, the new opponent's pieces (the user's before) hidden: their colours drawn afresh.
            assert rematch.session.config.position.split()[0] in ("U2b/4/1r2/1U2", "U2r/4/1b2/1U2")

    run(test)


# ------------------------------------------------------------------------------------------------ damaged saves

DAMAGED = {
    "tcg-round": '[Game "tcg"]\n[N "3"]\n[Start "0,0"]\n[Human "1"]\n[Mode "versus"]\n\n1. cz *\n',
    "tcg-mode": '[Game "tcg"]\n[N "3"]\n[Start "0,0"]\n[Human "1"]\n[Mode "chess"]\n\n1. cc *\n',
    "tcg-n": '[Game "tcg"]\n[N "999"]\n[Start "0,0"]\n[Human "1"]\n[Mode "versus"]\n\n1. cc *\n',
    "footstep-bid": '[Game "footstep"]\n[N "6"]\n[K "2"]\n[Start "6,6,0"]\n[Opponent "random"]\n\n1. 9:1 *\n',
    "footstep-opponent": '[Game "footstep"]\n[N "6"]\n[K "2"]\n[Start "6,6,0"]\n[Opponent "nash"]\n\n1. 1:1 *\n',
    "footstep-over": '[Game "footstep"]\n[N "6"]\n[K "1"]\n[Start "6,6,0"]\n[Opponent "random"]\n\n1. 2:1 2-0\n',
    "nim-opponent": '[Game "nim"]\n[Rule "nim"]\n[Start "3,4,5"]\n[Opponent "chess"]\n\n1. 1:1 *\n',
    "nim-heaps": '[Game "nim"]\n[Rule "nim"]\n[Start "99,4,5"]\n[Opponent "random"]\n\n1. 1:1 *\n',
    "nim-seed": '[Game "nim"]\n[Rule "nim"]\n[Start "3,4,5"]\n[Opponent "random"]\n[Seed "' + "9" * 50 + '"]\n\n*\n',
}


@pytest.mark.parametrize("damage", list(DAMAGED))
def test_a_damaged_save_of_any_game_is_set_aside_with_one_line(damage: str, state_dir: Path) -> None:
    async def test() -> None:
        slot = SaveStore(state_dir).new_slot()
        slot.folder.mkdir(parents=True)
        slot.path.write_text(DAMAGED[damage])
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            said = [text for text in notifications(app) if "could not be read" in text]
            assert len(said) == 1 and "\n" not in said[0] and len(said[0]) < 400, notifications(app)
            assert (state_dir / "games" / "damaged" / slot.path.name).is_file()
            assert slots(state_dir) == []
            assert not [option for option, _ in menu_options(app) if option.startswith("resume:")]

    run(test)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_save_damaged_after_the_menu_listed_it_is_set_aside_when_resumed(
    name: str, state_dir: Path, played: Callable[[str], Played]
) -> None:
    saved = played(name).resume_in(state_dir)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            saved.write_text(saved.read_text().replace("1.", "1. 99:99"))  # a move no game allows
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert len([text for text in notifications(app) if "could not be resumed" in text]) == 1
            assert (state_dir / "games" / "damaged" / saved.name).is_file()

    run(test)


# ------------------------------------------------------------------------------------------------ any save at all

TAG_VALUES = st.one_of(
    st.sampled_from(["", "0", "1", "2", "3", "6", "999", "1001", "-1", "x", "9" * 30, "versus", "advisor", "random"]),
    st.text(alphabet="0123456789,.:{}-x ", max_size=12),
)
OTHER_RECORDS = st.builds(
    lambda game, n, k, start, rule, misere, human, opponent, mode, seed, moves: (
        f'[Game "{game}"]\n[N "{n}"]\n[K "{k}"]\n[Start "{start}"]\n[Rule "{rule}"]\n[Misere "{misere}"]\n'
        f'[Human "{human}"]\n[Opponent "{opponent}"]\n[Mode "{mode}"]\n[Seed "{seed}"]\n\n{moves}\n'
    ),
    st.sampled_from(["tcg", "footstep", "nim"]),
    TAG_VALUES,
    TAG_VALUES,
    st.one_of(st.sampled_from(["0,0", "3,3,0", "3,4,5", "6,6,0"]), TAG_VALUES),
    st.one_of(st.sampled_from(["nim", "0.77", "{1,2}"]), TAG_VALUES),
    st.sampled_from(["yes", "no", "maybe"]),
    st.sampled_from(["1", "2", "3", "x"]),
    st.one_of(st.sampled_from(["perfect", "random", "human", "equilibrium", "learner", "nash"]), TAG_VALUES),
    TAG_VALUES,
    TAG_VALUES,
    st.one_of(st.sampled_from(["1. cc 2. ca", "1. 1:1 2. 2:1", "1. 1:1 2:1", "*"]), st.text(max_size=40)),
)


def resumed_or_refused(text: str) -> str:
    """The message a save is refused with ("" when it resumes: then its configuration is one the app plays)."""
    try:
        record = Record.parse(text)
        check_resumable(record)
        resumed = resume_record(record)
    except NotationError as error:
        return str(error)
    resumed.config.check()
    assert not resumed.state.is_terminal()
    return ""


@settings(max_examples=300, deadline=None)
@given(OTHER_RECORDS)
def test_any_saved_game_of_tcg_footstep_or_nim_resumes_or_is_refused_with_a_notation_error(text: str) -> None:
    """What the app does with each save when it starts: only ``NotationError`` (which sets the save aside, in one
    short line) may come out of reading a record of any game and checking that it resumes."""
    assert len(resumed_or_refused(text)) < 400


def test_saves_the_app_wrote_resume() -> None:
    """The other side of the property above: well-formed saves of each game do resume."""
    texts = [
        '[Game "tcg"]\n[N "3"]\n[Start "0,0"]\n[Human "2"]\n[Opponent "equilibrium"]\n[Mode "versus"]\n\n1. cc *\n',
        '[Game "footstep"]\n[N "6"]\n[K "2"]\n[Start "6,6,0"]\n[Opponent "learner"]\n\n1. 1:1 2. 2:1 *\n',
        '[Game "nim"]\n[Rule "0.77"]\n[Misere "yes"]\n[Start "5,7"]\n[Opponent "human"]\n[Seed "4"]\n\n1. 1:1 *\n',
    ]
    assert [resumed_or_refused(text) for text in texts] == ["", "", ""]
