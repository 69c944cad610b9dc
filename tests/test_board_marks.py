"""The board's marks: an exit's arrows are never covered, the picked piece's legal targets are marked, and the hint
and the last move are told apart by shape, in Unicode and in ASCII."""

from __future__ import annotations

import pytest
from pilot_helpers import run

from core.game import Side
from core.notation import Move, Square
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.screens.game import GameScreen
from tui.theme import ASCII, UNICODE
from tui.widgets.board import CELL_WIDTH, LABEL_WIDTH, Board

# Player 1's pieces on b1 (blue) and b2 (red); player 2's on c4 and d3; player 1's exits are a4 and d4.
POSITION = "2u1/3u/1R2/1B2 1"


def mark_line(board: Board, square: Square) -> str:
    """The second line of ``square``'s cell, as drawn (player 1 at the bottom: rank 4 is the first row)."""
    lines = board.render().plain.splitlines()
    row = 4 - 1 - square.rank
    start = LABEL_WIDTH + square.file * CELL_WIDTH
    return lines[row * 2 + 1][start : start + CELL_WIDTH]


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
def test_marks_never_cover_an_exit_and_differ_in_shape(ascii_mode: bool) -> None:
    glyphs = ASCII if ascii_mode else UNICODE

    async def test() -> None:
        config = GeisterConfig("mini-geister", Side.P1, "random", None, 1, position=POSITION, takebacks=True)
        app = NashplayApp(StartRequest.for_config(config), ai_delay=0, ascii_mode=ascii_mode)
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            board = screen.query_one("#board", Board)
            a4, d4, b1, b3 = (Square.parse(text) for text in ("a4", "d4", "b1", "b3"))
            exit_line = mark_line(board, a4)
            assert exit_line[0] == exit_line[-1] == glyphs.own_exit
            # The hint onto an exit (its arrows stay at both edges: they were overwritten, "^@^")...
            board.hint = Move(Square.parse("c4"), d4)  # the board draws any hint it is given
            await pilot.pause()
            line = mark_line(board, d4)
            assert line[0] == line[-1] == glyphs.own_exit and glyphs.hint_to in line
            # ...the picked piece's targets...
            board.hint = None
            board.selected = b1
            await pilot.pause()
            targets = {m.dst for m in screen.session.view().legal_moves() if m.src == b1 and m.dst is not None}
            assert targets
            for square in targets:
                assert glyphs.target in mark_line(board, square), square
            assert glyphs.target not in mark_line(board, b3) or b3 in targets
            # ...and the hint's marks are not the last move's.
            assert not set(glyphs.hint_from + glyphs.hint_to) & set(glyphs.last_from + glyphs.last_to)
            if ascii_mode:
                assert board.render().plain.isascii()

    run(test)
