"""The Twice Clap Game screen, driven as a user would: advisor rounds, versus rounds, changing n, undo."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import numpy as np
import pytest
from pilot_helpers import close_game_over, run, wait_for
from rich.text import Text
from textual.app import App, ComposeResult
from waiting import HANG_SECONDS, released

from core.game import Side
from core.tcg import TcgAction
from solvers.tcg import TcgSolution
from tui.app import NashplayApp, StartRequest
from tui.config import TcgConfig
from tui.screens.menu import MenuScreen
from tui.screens.tcg import TcgScreen
from tui.widgets.heatmap import HeatMap
from tui.widgets.mix import MixBars

SIZE = (110, 36)


def tcg_app(mode: str = "advisor", side: Side = Side.P1, n: int = 3, takebacks: bool | None = None) -> NashplayApp:
    config = TcgConfig(n, mode, side, seed=1, takebacks=takebacks)  # type: ignore[arg-type]
    return NashplayApp(StartRequest.for_config(config))


def screen_of(app: NashplayApp) -> TcgScreen:
    screen = app.screen
    assert isinstance(screen, TcgScreen)
    return screen


def test_advisor_round_follows_the_suggestion_and_the_opponents_key() -> None:
    async def test() -> None:
        app = tcg_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            # (0, 0): the equilibrium is charge for sure, so the suggestion is charge.
            assert screen.suggestion is TcgAction.CHARGE
            bars = screen.query_one("#mix-you", MixBars)
            assert bars.probabilities == pytest.approx((1.0, 0.0, 0.0, 0.0))
            await pilot.press("c")  # the opponent charged too
            await pilot.pause()
            assert screen.state.points == (1, 1)
            assert screen.query_one("#heat", HeatMap).current == (1, 1)
            assert screen.query_one("#mix-you", MixBars).probabilities == pytest.approx(
                (0.308, 0.222, 0.471, 0.0), abs=0.005
            )

    run(test)


def test_advisor_records_a_deviation() -> None:
    async def test() -> None:
        app = tcg_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("D")  # I defended instead of charging
            await pilot.press("c")  # the opponent charged
            await pilot.pause()
            assert screen.state.points == (0, 1)
            assert screen.state.history()[-1] == (TcgAction.DEFENSE, TcgAction.CHARGE)

    run(test)


def test_advisor_as_player_two_orders_the_round() -> None:
    async def test() -> None:
        app = tcg_app(side=Side.P2)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("a")  # the opponent (player 1) attacks with no points: player 1 loses
            await pilot.pause()
            outcome = screen.state.outcome()
            assert outcome is not None and outcome.winner is Side.P2
            assert "You win!" in str(screen.query_one("#tcg-state").render())

    run(test)


def test_versus_mode_reveals_both_actions() -> None:
    async def test() -> None:
        app = tcg_app(mode="versus", takebacks=True)
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("d")
            await pilot.pause()
            # At (0, 0) the AI charges for sure: my defense against its charge gives (0, 1).
            assert screen.state.history() == [(TcgAction.DEFENSE, TcgAction.CHARGE)]
            assert "Opponent: charge" in screen.message_text
            await pilot.press("u")
            await pilot.pause()
            assert screen.state.points == (0, 0)

    run(test)


def test_changing_n_solves_in_the_background_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solve is held back until the test lets it go: meanwhile the n = 3 game stays playable."""
    release = threading.Event()
    real_load = TcgSolution.load

    def slow_load(
        n: int, use_cache: bool = True, progress: object = None, compiling: object = None
    ) -> tuple[TcgSolution, str]:
        if n == 40:
            assert release.wait(timeout=HANG_SECONDS), "the test never released the solve"
        return real_load(n, use_cache, progress, compiling)  # type: ignore[arg-type]

    monkeypatch.setattr(TcgSolution, "load", staticmethod(slow_load))

    async def test() -> None:
        app = tcg_app()
        with released(release):
            async with app.run_test(size=SIZE) as pilot:
                await app.workers.wait_for_complete()
                await pilot.pause()
                screen = screen_of(app)
                await pilot.press("n", "ctrl+u", "4", "0", "enter")
                await pilot.pause()
                assert screen.n == 3 and screen.solving == 40
                assert "Solving n = 40" in screen.message_text and "x cancels" in screen.message_text
                await pilot.press("c")  # a round of the n = 3 game, while the solve runs
                await pilot.pause()
                assert screen.state.points == (1, 1)
                release.set()
                await app.workers.wait_for_complete()
                await pilot.pause()
                assert screen.solution is not None and screen.solution.n == 40 and screen.n == 40
                assert screen.state.points == (0, 0)  # a new game at the new n
                assert "n = 40" in screen.message_text
                assert screen.title == "Twice Clap Game, n = 40"

    run(test)


def test_bad_n_is_refused() -> None:
    async def test() -> None:
        app = tcg_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("n", "ctrl+u", "x", "enter")
            await pilot.pause()
            assert "whole number" in screen.message_text and screen.n == 3

    run(test)


def test_tcg_is_in_the_menu() -> None:
    async def test() -> None:
        app = NashplayApp()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            from textual.widgets import OptionList

            games = app.screen.query_one("#games", OptionList)
            ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
            games.highlighted = ids.index("game:tcg")
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert isinstance(app.screen, TcgScreen)

    run(test)


def test_help_explains_this_game() -> None:
    async def test() -> None:
        app = tcg_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("question_mark")
            await pilot.pause()
            from tui.screens.help import HelpScreen

            assert isinstance(app.screen, HelpScreen) and app.screen.topic == "tcg"
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TcgScreen)

    run(test)


# ------------------------------------------------------------------------------------------------ defects (issue 16)


def suggestion_text(screen: TcgScreen) -> str:
    return str(screen.query_one("#tcg-suggestion").render())


def test_no_undo_once_the_game_is_over() -> None:
    """The last round stands once the game is over (u used to take it back and play on)."""

    async def test() -> None:
        app = tcg_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("a")  # the opponent attacked with no points: it loses
            await pilot.press("c")
            await close_game_over(app, pilot)
            assert screen.state.is_terminal()
            await pilot.press("u")
            await pilot.pause()
            assert screen.state.is_terminal() and len(screen.state.history()) == 1
            assert "The game is over: its moves stand" in screen.message_text

    run(test)


def test_versus_mode_stops_asking_for_an_action_once_the_game_is_over() -> None:
    async def test() -> None:
        app = tcg_app(mode="versus")
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            for _ in range(2):  # the first press may only warn (an attack with no points loses)
                if not screen.state.is_terminal():
                    await pilot.press("a")
                    await pilot.pause()
            assert screen.state.is_terminal()
            assert "Choose your action" not in suggestion_text(screen)
            assert "r: new game" in str(screen.query_one("#tcg-state").render())

    run(test)


def test_an_attack_without_points_is_explained_before_it_loses() -> None:
    """Attacking with 0 points is legal and loses at once (the points go below 0): the screen says so and waits
    for the same key again, rather than ending the game without a word."""

    async def test() -> None:
        app = tcg_app(mode="versus")
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            screen = screen_of(app)
            await pilot.press("a")
            await pilot.pause()
            assert not screen.state.is_terminal()
            assert "0 points" in screen.message_text and "lose" in screen.message_text
            await pilot.press("s")  # another key: a new choice, warned about too (a strong attack needs n points)
            await pilot.pause()
            assert not screen.state.is_terminal() and "strong attack" in screen.message_text
            await pilot.press("s")
            await pilot.pause()
            outcome = screen.state.outcome()
            assert outcome is not None and outcome.winner is Side.P2
            assert "too few points" in screen.message_text

    run(test)


def test_the_n_field_has_a_label() -> None:
    async def test() -> None:
        app = tcg_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("n")
            await pilot.pause()
            label = app.screen.query_one("#n-label")
            assert label.display and "n" in str(label.render())

    run(test)


def test_a_long_solve_shows_its_progress_and_x_cancels_it() -> None:
    """n = 200 takes minutes: the screen shows the sweeps and the residual as they come, the footer offers x, and
    x stops the solve (its worker ends at its next sweep) while the n = 3 game goes on."""

    async def test() -> None:
        app = tcg_app()
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await wait_for(pilot, lambda: screen.solution is not None and screen.solving is None, "the n = 3 solve")
            await pilot.pause()
            footer_keys = [key.key for key in app.screen.query("FooterKey")]
            assert "x" not in footer_keys  # nothing to cancel yet
            await pilot.press("n", "ctrl+u", "2", "0", "0", "enter")
            await wait_for(pilot, lambda: screen.solve_progress is not None, "the solve's first progress")
            assert screen.solving == 200
            assert "% done" in screen.message_text and "residual" in screen.message_text
            await pilot.pause()
            assert "x" in [key.key for key in app.screen.query("FooterKey")]
            await pilot.press("x")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.solving is None and screen.n == 3 and screen.solution is not None
            assert "cancelled" in screen.message_text
            assert all(worker.is_finished for worker in app.workers)

    run(test)


def test_the_heat_map_of_n_200_shows_a_window_around_the_current_state() -> None:
    """201 x 201 states fit no terminal: the map shows the rows and columns around the current state, says which,
    and brackets the current state (not only its colour); every line fits the widget."""
    import numpy as np
    from textual.app import App

    values = np.linspace(0, 1, 201 * 201).reshape(201, 201)

    class MapApp(App[None]):
        def compose(self) -> ComposeResult:
            yield HeatMap(id="heat")

    async def test() -> None:
        for width, columns in ((40, range(6)), (70, range(11))):
            app = MapApp()
            async with app.run_test(size=(width, 20)) as pilot:
                heat = app.query_one(HeatMap)
                heat.values = values
                heat.current = (150, 3)
                await pilot.pause()
                lines = heat.render().plain.split("\n")
                assert all(len(line) <= width for line in lines), lines
                window = f"rows 145-155, columns {columns.start}-{columns.stop - 1} of 0-200"
                assert window in lines, lines
                row = next(line for line in lines if line.startswith("  150 "))
                assert row.count("[") == 1 and row.index("[") == 6 + 5 * 3
                assert "now: 150,3" in lines[-1]
                assert heat.size.height == len(lines)

    run(test)


def test_the_heat_map_and_the_mixes_draw_the_same_whatever_the_last_bits() -> None:
    """Solved values differ between machines in their last bits (another processor, another BLAS): a snapshot once
    failed on another machine because a cell's colour was one RGB step off (``#595a64`` for ``#5a5a63``). What is
    drawn follows the digits shown, so values that differ by a few units in the last place draw the same, characters
    and colours, on the real n = 5 solution and on exact halves (bars of 2.5 cells, cells at 0.5)."""
    from tui.screens.tcg import load_solution

    solution, _ = load_solution(5)
    values = solution.values
    halves = np.full((3, 3), 0.5)

    async def drawn(grid: np.ndarray, mix: tuple[float, ...]) -> list[tuple[str, str]]:
        class Canvas(App[None]):
            def compose(self) -> ComposeResult:
                yield HeatMap(id="heat")
                yield MixBars(id="mix")

        app = Canvas()
        async with app.run_test(size=(80, 30)) as pilot:
            heat = app.query_one("#heat", HeatMap)
            heat.values = grid
            bars = app.query_one("#mix", MixBars)
            bars.BAR_WIDTH = 5
            bars.show("mix", ["c", "a", "d", "s"], mix, [False] * 4)
            await pilot.pause()
            segments: list[tuple[str, str]] = []
            for widget in (heat, bars):
                text = widget.render()
                assert isinstance(text, Text)
                segments += [(text.plain[span.start : span.end], str(span.style)) for span in text.spans]
            return segments

    async def test() -> None:
        for grid, mix in ((values, (0.3, 0.2, 0.5, 0.0)), (halves, (0.5, 0.5, 0.0, 0.0))):
            exact = await drawn(grid, mix)
            for ulps in (-3, 3):
                nudged = np.nextafter(grid, np.inf if ulps > 0 else -np.inf)
                for _ in range(abs(ulps) - 1):
                    nudged = np.nextafter(nudged, np.inf if ulps > 0 else -np.inf)
                shifted = tuple(float(np.nextafter(p, np.inf if ulps > 0 else -np.inf)) for p in mix)
                assert await drawn(nudged, shifted) == exact

    run(test)


def test_the_win_chance_is_given_to_the_mix_bars_precision() -> None:
    """ "Your win chance: 50%" stood beside bars of "17.3%": one number, one precision."""

    async def test() -> None:
        app = tcg_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            state = str(screen_of(app).query_one("#tcg-state").render())
            assert re.search(r"Your win chance \(equilibrium\): \d+\.\d%", state), state

    run(test)


def test_a_first_solve_says_where_its_table_is_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Solved once per machine, then read from the cache: while the first solve runs, the screen says where."""
    import tui.screens.tcg as tcg_screen

    go_on = threading.Event()
    solve = tcg_screen.load_solution

    def held(n: int, progress: object, compiling: object) -> tuple[TcgSolution, str]:
        assert go_on.wait(HANG_SECONDS)
        return solve(n, progress=progress, compiling=compiling)  # type: ignore[arg-type]

    monkeypatch.setattr(tcg_screen, "load_solution", held)
    short = tmp_path / "c"  # a cache folder whose path fits the screen's left column whole
    monkeypatch.setenv("NASHPLAY_CACHE_DIR", str(short))

    async def test() -> None:
        app = tcg_app(n=5)
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            state = screen.query_one("#tcg-state")
            kept = f"Solved once, then read from:\n{short}"
            await wait_for(pilot, lambda: kept in str(state.render()), "where the table is kept")
            go_on.set()
            await wait_for(pilot, lambda: screen.solution is not None, "the solve")
            assert "read from" not in str(state.render())

    try:
        run(test)
    finally:
        go_on.set()
