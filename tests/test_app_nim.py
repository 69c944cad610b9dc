"""The Nim screen, driven as a user would: choosing heaps and amounts by keys, the opponents, the advice panel,
take-and-break moves, undo, the set-up screen, the menu entry and ``nashplay play nim``."""

from __future__ import annotations

import pytest
from pilot_helpers import close_game_over, run, settle_workers
from screen_text import screen_text
from textual.pilot import Pilot
from textual.widgets import OptionList

from core.game import Side
from core.impartial import KAYLES, HeapMove, HeapRule, Nim, Subtraction
from solvers.grundy import analyse
from tui.app import NashplayApp, StartRequest
from tui.cli import main
from tui.config import NimConfig, NimOpponent
from tui.screens.menu import MenuScreen
from tui.screens.nim import NimScreen
from tui.screens.nim_setup import NimSetupScreen
from tui.widgets.advice import AdvicePanel
from tui.widgets.heaps import HeapRows, NimSumTable

SIZE = (110, 36)


def nim_app(
    heaps: tuple[int, ...] = (3, 4, 5),
    rule: HeapRule | None = None,
    opponent: NimOpponent = "perfect",
    human: Side = Side.P1,
    misere: bool = False,
    ascii_mode: bool = False,
    takebacks: bool | None = None,
) -> NashplayApp:
    config = NimConfig(heaps, rule or Nim(), misere, opponent, human, seed=3, takebacks=takebacks)
    return NashplayApp(StartRequest.for_config(config), ai_delay=0, ascii_mode=ascii_mode)


def screen_of(app: NashplayApp) -> NimScreen:
    screen = app.screen
    assert isinstance(screen, NimScreen)
    return screen


async def press(app: NashplayApp, pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle_workers(app, pilot)


def text_of(screen: NimScreen, selector: str) -> str:
    return str(screen.query_one(selector).render())


def stones(row: str) -> str:
    """A drawn heap row's stones, without the spacing, the marker, the number and the count."""
    return "".join(ch for ch in row if ch in "●○ox|")


# ------------------------------------------------------------------------------------------------ drawing


def test_heaps_render_as_numbered_rows_of_stones() -> None:
    async def test() -> None:
        for ascii_mode, (stone, taken) in ((False, ("●", "○")), (True, ("o", "x"))):
            app = nim_app(opponent="human", ascii_mode=ascii_mode)
            async with app.run_test(size=SIZE) as pilot:
                await settle_workers(app, pilot)
                screen = screen_of(app)
                rows = str(screen.query_one("#heaps", HeapRows).render()).splitlines()
                assert len(rows) == 3
                assert rows[0].startswith(">") and not rows[1].startswith(">")
                for number, (row, size) in enumerate(zip(rows, (3, 4, 5), strict=True), 1):
                    assert row.split()[1 if number == 1 else 0] == str(number)
                    assert row.rstrip().endswith(str(size))
                    assert len(stones(row)) == size
                # The default move on heap 1 takes one stone: drawn differently, at the end of the row.
                assert stones(rows[0]) == stone * 2 + taken
                assert stones(rows[2]) == stone * 5
                assert "Your" not in text_of(screen, "#nim-status")  # two people: no "your turn"
                assert "Player 1 to move" in text_of(screen, "#nim-status")

    run(test)


# ------------------------------------------------------------------------------------------------ playing


def test_keys_choose_the_heap_and_the_amount_and_enter_plays() -> None:
    async def test() -> None:
        app = nim_app(opponent="human")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            await press(app, pilot, "down", "j")  # heap 3
            await press(app, pilot, "right", "plus", "l")  # take 4
            await press(app, pilot, "minus", "h")  # take 2
            assert screen.pending_move() == HeapMove(2, 2)
            assert "Enter plays 3:2" in text_of(screen, "#nim-move")
            await press(app, pilot, "enter")
            assert screen.state.heaps == (3, 4, 3)
            assert screen.state.history() == [HeapMove(2, 2)]
            await press(app, pilot, "k", "4", "enter")  # heap 2, take all 4
            assert screen.state.heaps == (3, 0, 3)
            assert screen.state.history()[-1] == HeapMove(1, 4)
            # The emptied heap is skipped: the cursor moves to a heap with stones.
            assert screen.selected != 1
            await press(app, pilot, "up")
            assert screen.selected == 0

    run(test)


def test_an_illegal_move_is_refused_and_nothing_changes() -> None:
    async def test() -> None:
        app = nim_app(rule=Subtraction({1, 2, 3}), opponent="human")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            await press(app, pilot, "down", "down", "4")
            assert screen.pending_move() == HeapMove(2, 4)
            assert "Not allowed" in text_of(screen, "#nim-move")
            await press(app, pilot, "enter")
            assert "Refused" in screen.message_text and "does not allow taking 4" in screen.message_text
            assert screen.state.heaps == (3, 4, 5) and screen.state.history() == []
            assert "Player 1 to move" in text_of(screen, "#nim-status")

    run(test)


def test_the_perfect_opponent_answers_with_a_move_to_nim_sum_zero() -> None:
    async def test() -> None:
        app = nim_app()
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            assert "Your turn (player 1)" in text_of(screen, "#nim-status")
            await press(app, pilot, "down", "enter")  # 2:1, not the winning 1:2
            history = screen.state.history()
            assert history[0] == HeapMove(1, 1) and len(history) == 2
            assert analyse(screen.state.heaps, Nim()).nim_sum == 0
            assert "The perfect player took" in screen.message_text
            assert "Your turn" in text_of(screen, "#nim-status")

    run(test)


def test_from_a_losing_position_the_perfect_player_beats_you() -> None:
    async def test() -> None:
        app = nim_app(heaps=(1, 2, 3))
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            for _ in range(12):
                if screen.state.is_terminal():
                    break
                await press(app, pilot, "enter")  # whatever move the cursor offers
            outcome = screen.state.outcome()
            assert outcome is not None and outcome.winner is Side.P2
            status = text_of(screen, "#nim-status")
            assert "Game over" in status and "You lose" in status
            await close_game_over(app, pilot)
            await press(app, pilot, "enter")
            assert "The game is over" in screen.message_text

    run(test)


def test_two_people_take_turns_at_the_keyboard() -> None:
    async def test() -> None:
        app = nim_app(opponent="human")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            await press(app, pilot, "enter")
            assert len(screen.state.history()) == 1  # nobody answered for player 2
            assert "Player 2 to move" in text_of(screen, "#nim-status")
            await press(app, pilot, "enter")
            assert len(screen.state.history()) == 2
            assert "Player 1 to move" in text_of(screen, "#nim-status")
            assert "(P1)" in text_of(screen, "#nim-history") and "(P2)" in text_of(screen, "#nim-history")
            await press(app, pilot, "u")  # two people: one move back
            assert len(screen.state.history()) == 1

    run(test)


def test_the_ai_moves_first_when_you_are_player_two() -> None:
    async def test() -> None:
        app = nim_app(opponent="random", human=Side.P2)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            assert len(screen.state.history()) == 1
            assert "Your turn (player 2)" in text_of(screen, "#nim-status")
            await press(app, pilot, "u")
            assert "Nothing to undo" in screen.message_text
            assert len(screen.state.history()) == 1

    run(test)


def test_undo_takes_back_your_move_and_the_reply() -> None:
    async def test() -> None:
        app = nim_app(takebacks=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            await press(app, pilot, "down", "enter")
            assert len(screen.state.history()) == 2
            await press(app, pilot, "u")
            assert screen.state.heaps == (3, 4, 5) and screen.state.history() == []
            assert "Took back 2 moves" in screen.message_text
            await press(app, pilot, "u")
            assert "Nothing to undo" in screen.message_text

    run(test)


# ------------------------------------------------------------------------------------------------ take and break


def test_kayles_brackets_move_the_knocked_out_run_and_the_model_gets_the_split() -> None:
    async def test() -> None:
        app = nim_app(heaps=(5, 3), rule=KAYLES, opponent="human")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            assert screen.pending_move() == HeapMove(0, 1)  # the run starts at the right end: no split
            await press(app, pilot, "left_square_bracket", "left_square_bracket", "left_square_bracket")
            await press(app, pilot, "right_square_bracket")
            assert screen.run_start == 2
            assert screen.pending_move() == HeapMove(0, 1, (2, 2))
            row = str(screen.query_one("#heaps", HeapRows).render()).splitlines()[0]
            assert stones(row) == "●●○●●"
            assert "leaves 2 + 2" in text_of(screen, "#nim-move")
            await press(app, pilot, "enter")
            assert screen.state.history() == [HeapMove(0, 1, (2, 2))]
            assert screen.state.heaps == (2, 2, 3)
            # Two pins from the left end of the last row: a plain take, no split.
            await press(app, pilot, "up", "2", *["left_square_bracket"] * 3)
            assert screen.selected == 2 and screen.pending_move() == HeapMove(2, 2)
            await press(app, pilot, "enter")
            assert screen.state.heaps == (2, 2, 1)

    run(test)


def test_brackets_explain_themselves_in_plain_nim() -> None:
    async def test() -> None:
        app = nim_app(opponent="human")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            await press(app, pilot, "left_square_bracket")
            assert "take-and-break" in screen.message_text
            assert screen.pending_move() == HeapMove(0, 1)

    run(test)


# ------------------------------------------------------------------------------------------------ advice


def test_the_advice_panel_explains_3_4_5() -> None:
    async def test() -> None:
        app = nim_app(opponent="human")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            lines = str(screen.query_one("#nim-sum", NimSumTable).render()).splitlines()
            rows = [line.split() for line in lines if line.split()[:1] in (["1"], ["2"], ["3"])]
            assert rows == [["1", "3", "3", "011"], ["2", "4", "4", "100"], ["3", "5", "5", "101"]]
            at = next(i for i, line in enumerate(lines) if line.startswith("nim-sum"))
            assert lines[at].split() == ["nim-sum", "2", "010"]
            one = lines[at].rindex("1")
            # The '^' stands exactly under the nim-sum's 1-column and nowhere else.
            assert lines[at + 1].rstrip().endswith("^") and len(lines[at + 1].rstrip()) == one + 1
            assert lines[at + 1].count("^") == 1
            # The advice itself is the shared panel's: the one winning move, for the player to move.
            advice = " ".join(screen_text(app).split())
            assert "Player 1 wins (proven)" in advice and "Suggested: 1:2 wins" in advice

    run(test)


def test_a_lost_position_says_every_move_loses_and_names_the_longest() -> None:
    async def test() -> None:
        app = nim_app(heaps=(1, 2, 3), opponent="human")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            text = " ".join(screen_text(app).split())
            assert "Player 1 loses in 6 plies (proven)" in text
            assert "Suggested: 1:1 loses in 6 plies" in text and "every move loses against perfect play" in text
            assert "^ marks" not in text

    run(test)


def test_misere_advice_says_which_method_decided() -> None:
    async def test() -> None:
        for rule, method in ((Nim(), "Bouton's misere rule"), (KAYLES, "exact game-tree search")):
            app = nim_app(heaps=(3, 2), rule=rule, opponent="human", misere=True)
            async with app.run_test(size=SIZE) as pilot:
                await settle_workers(app, pilot)
                text = " ".join(screen_text(app).split())
                assert f"Advice (a hides it): {method}" in text

    run(test)


def test_a_toggles_the_advice_and_a_new_game_keeps_the_choice() -> None:
    async def test() -> None:
        app = nim_app(opponent="human")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            assert screen.query_one("#nim-right").display
            await press(app, pilot, "a")
            assert not screen.query_one("#nim-right").display and app.advice_shown("nim") is False
            await press(app, pilot, "n")
            assert isinstance(app.screen, NimSetupScreen)
            await press(app, pilot, "ctrl+s")
            second = screen_of(app)
            assert second is not screen and not second.query_one("#nim-right").display
            assert second.analysis is None  # hidden advice is not even worked out
            await press(app, pilot, "a")
            assert second.query_one("#nim-right").display
            assert "011" in str(second.query_one("#nim-sum", NimSumTable).render())  # worked out now
            assert isinstance(second.query_one("#advice"), AdvicePanel)

    run(test)


# ------------------------------------------------------------------------------------------------ menu, set-up, cli


def test_the_menu_opens_the_set_up_and_start_begins_the_chosen_game() -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            games = app.screen.query_one("#games", OptionList)
            ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
            assert ids.index("game:nim") == ids.index("game:footstep") - 1 == ids.index("connect") - 5
            games.highlighted = ids.index("game:nim")
            await press(app, pilot, "enter")
            assert isinstance(app.screen, NimSetupScreen)
            await press(app, pilot, "ctrl+u", *"3,x", "ctrl+s")
            assert isinstance(app.screen, NimSetupScreen)
            assert "Not yet" in str(app.screen.query_one("#nim-setup-message").render())
            await press(app, pilot, "ctrl+u", *"1,4")
            await press(app, pilot, "tab", "down", "down", "enter")  # the rule: Kayles
            await press(app, pilot, "ctrl+s")
            screen = screen_of(app)
            assert screen.config.rule == KAYLES and screen.config.heaps == (1, 4)
            assert screen.state.heaps == (1, 4) and screen.state.rule == KAYLES
            assert screen.title == "Kayles (0.77)"

    run(test)


def test_the_set_up_reads_a_subtraction_set() -> None:
    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            app.switch_screen(NimSetupScreen(NimConfig(opponent="human")))
            await settle_workers(app, pilot)
            # Tab to the rule, pick the subtraction game (the set field shows and takes the focus), type a set,
            # ctrl+s starts.
            await press(app, pilot, "tab", "down", "enter", "ctrl+u", *"1,3,4", "ctrl+s")
            screen = screen_of(app)
            assert screen.config.rule == Subtraction({1, 3, 4}) and screen.config.opponent == "human"

    run(test)


class RunStub:
    """Stands in for ``App.run`` so that ``main`` can be tested without a terminal."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.apps: list[NashplayApp] = []
        stub = self

        def fake_run(app: NashplayApp, *args: object, **kwargs: object) -> None:
            stub.apps.append(app)

        monkeypatch.setattr(NashplayApp, "run", fake_run)


def test_play_nim_on_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = RunStub(monkeypatch)
    assert main(["play", "nim", "--heaps", "1,2", "--rule", "kayles"]) == 0
    request = runs.apps[-1].start_request
    assert request.kind == "game" and request.game == "nim"
    assert request.config == NimConfig((1, 2), KAYLES, False, "perfect", Side.P1, None)
    main(["play", "nim", "--rule", "{1,2,3}", "--misere", "--opponent", "human", "--side", "2", "--seed", "4"])
    assert runs.apps[-1].start_request.config == NimConfig((3, 4, 5), Subtraction({1, 2, 3}), True, "human", Side.P2, 4)
    for bad in (
        ["play", "nim", "--opponent", "chototsu"],
        ["play", "nim", "--heaps", "3,x"],
        ["play", "nim", "--rule", "0.9"],
        ["play", "geister", "--opponent", "perfect"],
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(bad)
        assert exit_info.value.code == 2
    assert len(runs.apps) == 2


def test_the_end_counts_plies_not_moves() -> None:
    """A game of two turns (one each) once said "2 moves played": a move of each player is two plies."""

    async def test() -> None:
        app = nim_app((1, 1), opponent="human")
        async with app.run_test(size=SIZE) as pilot:
            await settle_workers(app, pilot)
            screen = screen_of(app)
            assert "Ply 0" in text_of(screen, "#nim-status")  # as the Geister board counts ("ply 1" was said)
            await press(app, pilot, "enter", "enter")
            assert screen.state.is_terminal()
            status = text_of(screen, "#nim-status")
            assert "2 plies" in status and "moves played" not in status

    run(test)


def test_the_set_up_starts_with_ctrl_s_only_and_shows_the_field_the_rule_needs() -> None:
    """One start key, said alike by the button, the footer and the help (Enter in a field once started too: it
    now goes to the next field); the subtraction set and the octal code show only for the rule that reads them."""

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            app.switch_screen(NimSetupScreen(NimConfig(opponent="human")))
            await settle_workers(app, pilot)
            setup = app.screen
            assert "ctrl+s" in str(setup.query_one("#nim-start").label)
            footer = {key.description: key.key_display for key in setup.query("FooterKey")}  # type: ignore[attr-defined]
            assert footer.get("Start") == "ctrl+s"
            assert not setup.query_one("#nim-set-field").display and not setup.query_one("#nim-octal-field").display
            await press(app, pilot, "enter")
            assert app.screen is setup and app.focused is setup.query_one("#nim-rule")
            await press(app, pilot, "down", "enter")  # the subtraction game: its set field shows
            assert setup.query_one("#nim-set-field").display
            await press(app, pilot, "ctrl+s")
            assert isinstance(app.screen, NimScreen)
            await press(app, pilot, "question_mark")
            assert "ctrl+s" in str(app.screen.query("Markdown").first().source)  # type: ignore[attr-defined]

    run(test)
