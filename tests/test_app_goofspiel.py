"""The Goofspiel screen driven as a user would: press a card, see both cards and who took the prize, the exact
equilibrium's advice, a whole game; the solve before the first round (its bar, its cancel); the deck's order kept
out of the screen and out of the save while the game runs."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from pilot_helpers import close_game_over, run, settle_workers, wait_for
from screen_text import screen_text
from textual.widgets import ProgressBar, RadioSet, Static
from waiting import HANG_SECONDS, released

from core.game import Side
from core.goofspiel import GoofspielState
from core.record import Record
from solvers.goofspiel import solve_position
from tui.app import NashplayApp, StartRequest
from tui.config import GoofspielConfig
from tui.screens import goofspiel as goofspiel_screen
from tui.screens.goofspiel import GoofspielScreen
from tui.screens.parameter_setup import ParameterSetupScreen
from tui.widgets.choice import ChoiceButton
from tui.widgets.solve_bar import SolveBar

SIZE = (110, 34)


def goofspiel_app(cards: int = 5, opponent: str = "equilibrium", side: Side = Side.P1, seed: int = 3) -> NashplayApp:
    return NashplayApp(StartRequest.for_config(GoofspielConfig(cards, opponent, side, seed)), ai_delay=0)


def screen_of(app: NashplayApp) -> GoofspielScreen:
    screen = app.screen
    assert isinstance(screen, GoofspielScreen)
    return screen


def text_of(app: NashplayApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def test_a_round_reveals_both_cards_and_gives_the_prize_to_the_higher() -> None:
    async def test() -> None:
        app = goofspiel_app(opponent="random", seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            secret, prize = screen.secret_bid, screen.state.up
            assert secret is not None and prize is not None
            assert f"Prize up: {prize}" in text_of(app, "#gs-status")
            assert "hidden" in text_of(app, "#gs-bid") and "none yet" in text_of(app, "#gs-rounds")
            await pilot.press("3")
            await pilot.pause()
            assert screen.state.history() == [(3, secret)]
            taken = prize if secret < 3 else 0
            lost = prize if secret > 3 else 0
            assert screen.state.points == (taken, lost)
            assert f"Prize {prize}: you bid 3, the opponent bid {secret}" in screen.message_text
            assert f"prize {prize}: you 3, them {secret}" in text_of(app, "#gs-rounds")
            assert "3" not in text_of(app, "#gs-hands").splitlines()[0]  # spent

    run(test)


def test_a_card_not_in_hand_is_refused_and_nothing_is_played() -> None:
    async def test() -> None:
        app = goofspiel_app(cards=4)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            await pilot.press("2")
            await pilot.pause()
            before = screen.state.history()
            await pilot.press("2")  # spent already
            assert screen.message_text.startswith("You do not hold a 2") and screen.state.history() == before
            await pilot.press("7")  # no such card in a 4-card game
            assert screen.message_text.startswith("You do not hold a 7") and screen.state.history() == before

    run(test)


def test_the_advice_is_the_exact_equilibrium_of_the_position_and_toggles() -> None:
    async def test() -> None:
        app = goofspiel_app(cards=5, side=Side.P2, seed=11)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            advice = screen.advice
            assert advice is not None and advice.player == 2 and advice.exact
            # Equal hands and no points yet: the value is 0 by symmetry, whatever prize is up.
            assert advice.value == pytest.approx(0, abs=1e-9)
            solution = solve_position(screen.state.position)
            mix = solution.mix(Side.P2)
            assert {line.move: line.probability for line in advice.moves} == pytest.approx(
                {str(card): p for card, p in mix.items()}
            )
            # The suggested card is the likeliest, listed first.
            assert advice.best == advice.moves[0].move
            assert all((line.probability or 0) <= (advice.moves[0].probability or 0) for line in advice.moves)
            shown = screen_text(app)
            assert f"Suggested: {advice.best}" in shown and "Value for you: +0.00, exact" in shown
            assert "-0.00" not in shown
            await pilot.press("a")
            assert not app.screen.query_one("#gs-right").display and app.advice_shown("goofspiel") is False
            await pilot.press("n")  # a new game keeps the choice
            assert not app.screen.query_one("#gs-right").display

    run(test)


def test_a_whole_game_from_the_mix_ends_with_a_result_and_its_record(state_dir: Path) -> None:
    async def test() -> None:
        app = goofspiel_app(cards=5, side=Side.P2, seed=7)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            for _ in range(5):
                await pilot.press("s")
                await pilot.pause()
            assert screen.state.is_terminal() and len(screen.state.history()) == 5
            await close_game_over(app, pilot)
            outcome = screen.state.outcome()
            assert outcome is not None
            verdict = {1.0: "You win", -1.0: "You lose", 0.0: "A draw"}[outcome.returns()[Side.P2]]
            assert verdict in text_of(app, "#gs-bid")
            await pilot.press("1")  # nothing left to bid: said, nothing played
            assert "The game is over" in screen.message_text
            [kept] = sorted((state_dir / "records").glob("*.ngr"))
            record = Record.load(kept)
            assert record.tags["Deck"] == "".join(map(str, screen.state.deck)) and record.tags["Seed"] == "7"
            final = record.replay_states()[-1]
            assert isinstance(final, GoofspielState) and final.points == screen.state.points

    run(test)


def test_the_deck_order_stays_out_of_the_save_until_the_game_is_over(state_dir: Path) -> None:
    """The slot's record (what a user may open) has the prizes turned up so far; the rest of the order is in the
    secret, and the resumed game deals exactly the prizes it would have dealt."""

    async def test() -> None:
        app = goofspiel_app(cards=6, seed=21)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            await pilot.press("6", "5")
            await pilot.pause()
            deck = "".join(map(str, screen.state.deck))
            [saved] = sorted((state_dir / "games").glob("*.ngr"))
            public = Record.load(saved)
            assert public.tags["Deck"] == deck[:3] and deck not in saved.read_text()
            secret = json.loads(saved.with_suffix(".secret").read_text())["tags"]
            assert secret == {"Seed": "21", "Deck": deck}
            # The public record replays (the prizes still face down as a set), and refuses a round it cannot know.
            last = public.replay_states()[-1]
            assert isinstance(last, GoofspielState) and last.up == int(deck[2])
            assert last.prizes == frozenset(int(prize) for prize in deck[3:])
        second = NashplayApp(ai_delay=0)
        async with second.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # the menu's first entry: resume
            await settle_workers(second, pilot)
            resumed = screen_of(second)
            assert "".join(map(str, resumed.state.deck)) == deck
            assert [mine for mine, _ in resumed.state.history()] == [6, 5] and resumed.seed == 21

    run(test)


def test_a_long_solve_shows_a_bar_that_moves_and_x_cancels_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole game is solved before the first round: a solve held at a gate shows its bar (after half a second),
    reports its progress on it, and ``x`` cancels it (the solve stops at its next report); nothing can be bid."""
    started, gate = threading.Event(), threading.Event()

    def held_solve(cards: int, tell: object) -> float:
        assert callable(tell)
        tell(10, 40)
        started.set()
        gate.wait(HANG_SECONDS)
        tell(20, 40)  # cancelled by now: raises inside the worker
        raise AssertionError("a cancelled solve went on")

    monkeypatch.setattr(goofspiel_screen, "game_value", held_solve)

    async def test() -> None:
        app = goofspiel_app(cards=7, seed=1)
        with released(gate):
            async with app.run_test(size=SIZE) as pilot:
                screen = screen_of(app)
                bar = app.screen.query_one(SolveBar)
                await wait_for(pilot, lambda: started.is_set() and bool(bar.display), "the solve's bar")
                progress = bar.query_one(ProgressBar)
                await wait_for(pilot, lambda: progress.progress == 10 and progress.total == 40, "its progress")
                assert "x" in {b.key for _, b, _, _ in app.screen.active_bindings.values() if b.show}
                await pilot.press("1")
                assert "still solving" in screen.message_text and not screen.state.history()
                await pilot.press("x")
                assert not screen.solver.running and not bar.display
                assert "cancelled" in screen.message_text
                gate.set()
                await settle_workers(app, pilot)
                assert screen.solved is None and screen.secret_bid is None

    run(test)


def test_the_set_up_screen_is_generated_from_the_descriptor_and_refuses_what_the_game_does_not_take() -> None:
    """From the menu, Goofspiel opens the set-up screen made from its descriptor: the cards field (the parameter's
    help, default and limits), the catalogue's players of the game, the side; ctrl+s starts that game."""

    async def test() -> None:
        app = NashplayApp(StartRequest.for_config(GoofspielConfig(seed=2), setup=True), ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            setup = app.screen
            assert isinstance(setup, ParameterSetupScreen)
            shown = screen_text(app)
            assert "cards in each hand (1..N) and prizes, 1..8 (default" in shown  # the parameter's help
            assert "equilibrium" in shown and "random" in shown
            await pilot.press("ctrl+u", "9", "ctrl+s")
            await pilot.pause()
            assert app.screen is setup and "Not yet: Cards: must be 1..8, not 9" in screen_text(app)
            await pilot.press("ctrl+u", "3")
            setup.query_one("#setup-opponent", RadioSet).query(ChoiceButton)[1].value = True  # random
            setup.query_one("#setup-side", RadioSet).query(ChoiceButton)[1].value = True  # player 2
            await pilot.pause()
            await pilot.press("ctrl+s")
            await settle_workers(app, pilot)
            screen = screen_of(app)
            # Takebacks: none against the equilibrium (the strongest) at first, allowed once random is chosen.
            assert screen.config == GoofspielConfig(3, "random", Side.P2, 2, takebacks=True)
            assert screen.state.cards == 3 and screen.human is Side.P2

    run(test)
