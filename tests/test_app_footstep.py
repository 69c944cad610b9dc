"""The Footstep screen driven as a user would: type bids, see both revealed, the advice panel, the learner."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pilot_helpers import close_game_over, run, wait_for
from screen_text import screen_text
from textual.widgets import Static

from core.game import Side
from tui.app import NashplayApp, StartRequest
from tui.config import FootstepConfig
from tui.screens import footstep_learning
from tui.screens.footstep import FootstepScreen
from tui.screens.footstep_learning import FootstepLearningScreen
from tui.widgets.mix import MixBars
from tui.widgets.track import Track

SIZE = (110, 36)


def footstep_app(opponent: str = "random", side: Side = Side.P1, n: int = 6, k: int = 2) -> NashplayApp:
    return NashplayApp(StartRequest.for_config(FootstepConfig(n, k, opponent, side, seed=3)))


def screen_of(app: NashplayApp) -> FootstepScreen:
    screen = app.screen
    assert isinstance(screen, FootstepScreen)
    return screen


def text_of(app: NashplayApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def test_a_round_reveals_both_bids_and_moves_the_marker() -> None:
    async def test() -> None:
        app = footstep_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            assert screen.solution is not None
            secret = screen.secret_bid
            assert secret is not None and 1 <= secret <= 6
            assert "hidden" in text_of(app, "#fs-bid")
            assert str(secret) not in text_of(app, "#fs-history")
            await pilot.press("3")
            assert "3" in text_of(app, "#fs-bid")
            await pilot.press("enter")
            await pilot.pause()
            assert screen.state.history() == [(3, secret)]
            assert screen.state.position.points1 == 3 and screen.state.position.points2 == 6 - secret
            history = text_of(app, "#fs-history")
            assert f"3 / {secret}" in history
            mine = 3
            expected_marker = (mine > secret) - (mine < secret)
            assert screen.query_one(Track).marker == expected_marker
            assert f"You bid 3, the opponent bid {secret}" in screen.message_text

    run(test)


def test_bids_are_checked_and_adjusted_from_the_keyboard() -> None:
    async def test() -> None:
        app = footstep_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("enter")
            assert "Type a bid" in screen.message_text and not screen.state.history()
            await pilot.press("9")  # more than the 6 points: kept, and said
            assert screen.entry == "9" and "more than your 6 points" in screen.message_text
            await pilot.press("enter")
            assert not screen.state.history() and "more than your 6 points" in screen.message_text
            await pilot.press("backspace", "plus", "plus", "up")
            assert screen.entry == "3"
            await pilot.press("minus", "backspace", "5")
            assert screen.entry == "5"

    run(test)


def test_advice_shows_the_equilibrium_mix_and_toggles() -> None:
    async def test() -> None:
        app = footstep_app("equilibrium")
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            assert screen.solution is not None
            # The shared advice panel draws the equilibrium's Advice: the value, the likeliest bid suggested.
            shown = screen_text(app)
            likeliest = max(sorted(screen.solution.mix(screen.state.position, Side.P1).items()), key=lambda b: b[1])
            assert "Value for you: +0.00, exact" in shown and f"Suggested: {likeliest[0]}" in shown
            bars = app.screen.query_one("#fs-mix", MixBars)
            mix = screen.solution.mix(screen.state.position, Side.P1)
            assert bars.probabilities == pytest.approx([mix[b] for b in sorted(mix)])
            assert len(bars.labels) == len(mix) >= 2
            await pilot.press("s")
            assert screen.entry == str(screen.suggestion)
            await pilot.press("a")
            assert not app.screen.query_one("#fs-right").display
            assert app.advice_shown("footstep") is False
            await pilot.press("n")  # a new game keeps the choice
            assert not app.screen.query_one("#fs-right").display

    run(test)


def test_a_whole_game_as_player_two_ends_with_a_result_and_a_score() -> None:
    async def test() -> None:
        app = footstep_app("equilibrium", side=Side.P2, n=4, k=2)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            for _ in range(12):
                if screen.state.is_terminal():
                    break
                if screen.state.position.points2:
                    await pilot.press("1")
                await pilot.press("enter")
            assert screen.state.is_terminal()
            await close_game_over(app, pilot)
            assert len(screen.scores) == 1
            assert "n: new game" in text_of(app, "#fs-bid")
            await pilot.press("n")
            assert not screen.state.history() and screen.state.position.points2 == 4

    run(test)


def test_the_learner_opponent_trains_in_a_process_then_learns_from_you() -> None:
    async def test() -> None:
        app = footstep_app("learner", n=5, k=2)
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await wait_for(
                pilot, lambda: screen.learner is not None and screen.solution is not None, "the learner's training"
            )
            learner = screen.learner
            assert learner is not None
            # Games until one is decided (a draw teaches the learner nothing); with the seed fixed, the same games
            # every time, and the first or second is decided.
            for _ in range(20):
                before = learner.p.copy()
                while not screen.state.is_terminal():
                    if screen.state.position.points1:
                        await pilot.press("1")
                    await pilot.press("enter")
                if screen.scores[-1] != 0:
                    break
                await pilot.press("n")
            assert screen.scores[-1] != 0, "twenty drawn games in a row"
            # The decided game's result changed the learner's tables, in this very learner.
            assert screen.learner is learner and not (learner.p == before).all()

    run(test)


def test_learning_curves_screen_plots_all_three_learners(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(footstep_learning, "APP_GAMES", 200)
    monkeypatch.setattr(footstep_learning, "APP_RUNS", 2)

    async def test() -> None:
        app = footstep_app(n=6, k=2)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("l")
            screen = app.screen
            assert isinstance(screen, FootstepLearningScreen)
            await wait_for(pilot, lambda: len(screen.curves) == 3, "the three learning curves")
            await pilot.pause()
            plot_text = text_of(app, "#learn-plot")
            for line in ("R  reward", "P  reproach", "C  carrot-and-stick", "E  equilibrium", "B  best response"):
                assert line in plot_text
            await pilot.press("escape")
            assert isinstance(app.screen, FootstepScreen)

    run(test)


def test_the_menu_opens_footstep() -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            from textual.widgets import OptionList

            games = app.screen.query_one("#games", OptionList)
            ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
            games.highlighted = ids.index("game:footstep")
            await pilot.press("enter")
            await pilot.pause()
            screen = screen_of(app)
            assert (screen.n, screen.k, screen.opponent) == (50, 4, "equilibrium")
            await pilot.press("o")
            assert screen.opponent == "random" and "random player" in screen.sub_title
            await pilot.press("o")
            # The learner trains in the background (the message may already be about the solve finishing).
            assert screen.opponent == "learner" and screen.learner is None and "learner" in screen.sub_title
            await pilot.press("question_mark")
            await pilot.pause()
            assert "Footstep: keys" in str(app.screen.query("Markdown").first().source)

    run(test)


def test_a_bid_typed_above_the_points_is_never_another_bid() -> None:
    """Typing 5 then 1 with 50 points once bid 1 (the number above the limit became its last digit): the screen
    keeps 51, says it is above the limit, and Enter refuses it."""

    async def test() -> None:
        app = footstep_app(n=20, k=2)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("5", "1")
            assert screen.entry == "51"
            assert "51 is more than your 20 points" in screen.message_text
            assert "51" in text_of(app, "#fs-bid")
            await pilot.press("enter")
            await pilot.pause()
            assert not screen.state.history()
            assert "more than your 20 points" in screen.message_text
            await pilot.press("backspace", "enter")
            await pilot.pause()
            assert screen.state.history()[0][0] == 5

    run(test)


def test_the_size_field_has_a_label() -> None:
    async def test() -> None:
        app = footstep_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("g")
            await pilot.pause()
            label = app.screen.query_one("#fs-size-label")
            assert label.display and "n,k" in str(label.render())

    run(test)


def test_the_solves_progress_is_the_share_of_the_work_not_of_the_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar moved a level at a time, and a level count is no measure of the work (the last levels hold the largest
    games: off by 42% of the time at (80, 6)): it moves by the levels' shares of the work, with the time left."""
    from solvers.footstep import level_shares
    from tui.screens import footstep as footstep_screen

    told: list[tuple[int, int, str]] = []

    def load(n: int, k: int, progress: Callable[[int, int], None], compiling: object) -> tuple[None, str]:
        for level in range(2 * n + 2):
            progress(level, 2 * n + 1)
        return None, "solved"

    monkeypatch.setattr(footstep_screen, "load_solution", load)
    footstep_screen._solved_game(30, 3, lambda done, total, words, *extra: told.append((done, total, words)))
    shares = level_shares(30, 3)
    assert [done for done, _, _ in told] == [round(1000 * share) for share in shares]
    assert all(total == 1000 for _, total, _ in told) and told[-1][0] == 1000
    assert told[30][0] < 500  # half the levels are well under half the work
    assert all("%" in words for _, _, words in told)
