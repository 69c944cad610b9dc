"""Defects of the Geister game screen and its session, each with the test that failed before its fix (issue 16)."""

from __future__ import annotations

import random

import pytest
from pilot_helpers import run, wait_for

from core.errors import IllegalMoveError, NotationError
from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState
from core.record import Record
from tui.app import NashplayApp, StartRequest
from tui.config import ConfigError, GeisterConfig
from tui.screens.game import GameScreen
from tui.session import GameSession
from tui.widgets.board import Board

GEISTER = VARIANTS["geister"]


def test_a_new_game_after_resume_draws_a_fresh_seed() -> None:
    """After Resume, New game started the same game every time: the resumed configuration kept the saved seed, so
    the opponent drew the same set-up, which the first game's end had revealed."""
    session = GameSession(GeisterConfig("geister", Side.P1, "random", "BRRBBRRB", seed=None))
    session.play(session.state.legal_moves()[0])
    resumed = GameSession.from_record(session.record(reveal=True))
    assert resumed.seed == session.seed  # the resumed game goes on with its own generator
    assert resumed.config.seed is None
    assert GameSession(resumed.config).seed != session.seed
    # A seed the user gave is kept: the same command gives the same game.
    given = GameSession(GeisterConfig("geister", Side.P1, "random", "BRRBBRRB", seed=7))
    assert GameSession(given.config).seed == 7


def capture_game() -> GameSession:
    """A game against the random player in which the user has captured at least one of the opponent's pieces."""
    for seed in range(200):
        session = GameSession(GeisterConfig("geister", Side.P1, "random", "BRRBBRRB", seed=seed))
        rng = random.Random(seed)
        state = session.state
        for _ in range(120):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            captures = [m for m in moves if m.dst is not None and state.piece_at(m.dst) is not None]
            state.push(rng.choice(captures or moves))
            if any(p.side is Side.P2 for p in state.captured) and not state.is_terminal() and state.to_move is Side.P1:
                return session
    raise AssertionError("no game with a capture")


def test_a_mid_game_record_keeps_the_colours_its_captures_revealed() -> None:
    """``s`` mid-game wrote ``Setup2 "?"`` and lost the revealed colours of the captured pieces: the record now
    names those (and only those), and replays with them."""
    session = capture_game()
    record = session.record(reveal=False)
    full = session.record(reveal=True)
    taken = {p.slot: p.colour for p in session.state.captured if p.side is Side.P2}
    shown = record.tags["Setup2"]
    assert "?" in shown and "Seed" not in record.tags
    for slot, letter in enumerate(shown):
        if slot in taken:
            assert letter == taken[slot].value == full.tags["Setup2"][slot]
        else:
            assert letter == "?"  # nothing the user has not seen
    replayed = Record.parse(record.to_text()).replay()[-1]
    assert sorted((p.slot, p.colour) for p in replayed.captured if p.side is Side.P2) == sorted(taken.items())
    assert all(p.colour is Colour.UNKNOWN for _, p in replayed.pieces() if p.side is Side.P2)


def test_partly_known_set_ups_round_trip_and_keep_the_counts() -> None:
    setup = GEISTER.parse_setup("B?R?????", Side.P2)
    assert setup.to_text() == "B?R?????" and not setup.is_complete and not setup.is_hidden
    assert GEISTER.parse_setup("?", Side.P2).to_text() == "?"
    with pytest.raises(IllegalMoveError):
        GEISTER.parse_setup("BBBBB???", Side.P2)  # five blues: there are four
    with pytest.raises(NotationError):
        GEISTER.parse_setup("B?X?????", Side.P2)
    # One's own set-up must be complete, partly hidden or not.
    with pytest.raises(ConfigError):
        GeisterConfig("geister", Side.P1, "random", "B?RBBRRB").check()
    state = GeisterState(GEISTER)
    state.apply(GEISTER.parse_setup("BRRBBRRB", Side.P1))
    state.apply(setup)
    assert state.setup(Side.P2) == setup


def test_a_picked_piece_shows_at_once() -> None:
    """Picking a piece showed nothing until the cursor moved away: the cursor's brackets hid the selection's."""

    async def test() -> None:
        config = GeisterConfig("mini-geister", Side.P1, "chototsu", "BR", 3)
        app = NashplayApp(StartRequest.for_config(config), ascii_mode=True, ai_delay=0)
        async with app.run_test(size=(90, 30)) as pilot:
            await pilot.pause()
            board = app.screen.query_one("#board", Board)
            assert board.has_focus and board.view is not None
            before = str(board.render())
            await pilot.press("enter")  # pick the piece under the cursor
            assert board.selected == board.cursor
            after = str(board.render())
            assert after != before and ("<B>" in after or "<R>" in after), after

    run(test)


def test_the_chances_of_blue_on_the_board_move_with_the_evidence() -> None:
    """In a real game every piece stayed at 50% for 16 moves. With the advice on, a telling sequence (player 2's
    e5 runs down the f file toward its exit f1 while we shuffle on the other wing: a blue runner's way) must move
    the digits on the board: that piece above the others."""

    async def test() -> None:
        config = GeisterConfig("geister", Side.P1, "random", "BRRBBRRB", 5)
        app = NashplayApp(StartRequest.for_config(config), ascii_mode=True, ai_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            board = screen.query_one("#board", Board)
            session = screen.session
            # Both sides' moves, played straight into the game.
            for text in ["b2-a2", "e5-f5", "a2-a3", "f5-f4", "b1-a1", "f4-f3", "a1-b1", "f3-f2"]:
                session.state.push_text(text)
            session.version += 1
            screen.refresh_game()
            await pilot.press("a")
            await wait_for(pilot, lambda: bool(board.blue_chances), "the chances of blue on the board")
            chances = {str(square): chance for square, chance in board.blue_chances}
            assert len(chances) == 8, chances
            others = [chance for square, chance in chances.items() if square != "f2"]
            assert chances["f2"] > max(others) + 0.1 and chances["f2"] > 0.6, chances
            # And the digit on the board says so.
            text = str(board.render())
            assert f"?{int(chances['f2'] * 10)}" in text
            await pilot.press("a")

    run(test)


def test_browsing_shows_the_browsed_positions_captures_and_after_the_game_its_colours() -> None:
    """Browsing showed the live position's captures and last move beside an earlier board, and after a game the
    opponent's pieces stayed '?' under "All colours are revealed"."""

    async def test() -> None:
        config = GeisterConfig("mini-geister", Side.P1, "random", "BR", 11)
        app = NashplayApp(StartRequest.for_config(config), ascii_mode=True, ai_delay=0)
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            session = screen.session
            rng = random.Random(1)
            while not session.is_over:  # play both sides straight into the game, to its end
                session.state.push(rng.choice(session.state.legal_moves()))
            session.version += 1
            screen.refresh_game()
            assert session.state.captured  # Mini-Geister ends with a capture or an escape; this game: a capture
            total = len(session.state.moves())
            await pilot.press("tab", "home")
            await pilot.pause()
            assert screen.browsing == 0
            board = screen.query_one("#board", Board)
            assert board.view is not None
            shown = {p.colour for _, p in board.view.pieces(Side.P2)}
            assert Colour.UNKNOWN not in shown  # the game is over: every colour is known, earlier positions too
            captured = str(screen.query_one("#captured").render())
            assert "You captured: none" in captured and "They captured: none" in captured, captured
            status = str(screen.query_one("#status").render())
            assert "Game over" not in status and f"after move 0 of {total}" in status, status

    run(test)


def test_the_command_line_leaves_the_remembered_theme_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command passed the default theme by name, so the theme remembered from the last session never applied
    from the command line; only an explicit --theme names one."""
    import argparse

    from tui.cli.common import open_app

    opened: list[NashplayApp] = []
    monkeypatch.setattr(NashplayApp, "run", lambda app: opened.append(app))
    open_app(StartRequest(), argparse.Namespace())
    open_app(StartRequest(), argparse.Namespace(theme="nashplay-light"))
    assert [app.initial_theme for app in opened] == [None, "nashplay-light"]
