"""The core parsers check digit counts and sizes before converting anything: a number of thousands of digits (which
``int`` refuses with a plain ``ValueError``, not the project's errors) or a row of thousands of heaps gives the
parser's own error, with a message that quotes a few dozen characters of the input at most."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, NotationError
from core.footstep import FootstepState, parse_position
from core.impartial import MAX_ROW, HeapGameState, HeapMove, Octal, parse_heaps, parse_rule, parse_subtraction
from core.tcg import TcgAction, TcgState, parse_state

BOMB = "9" * 5000


@pytest.mark.parametrize(
    ("parse", "error"),
    [
        (lambda: parse_heaps(BOMB), InvalidPositionError),
        (lambda: parse_heaps("3," + BOMB + ",5"), InvalidPositionError),
        (lambda: parse_heaps(",".join(["1"] * (MAX_ROW + 1))), InvalidPositionError),
        (lambda: parse_heaps("1," * 5_000_000), InvalidPositionError),  # 10 MB: refused before it is split
        (lambda: HeapGameState.from_text(BOMB), InvalidPositionError),
        (lambda: HeapMove.parse(f"1:{BOMB}"), InvalidMoveError),
        (lambda: HeapMove.parse(f"{BOMB}:1"), InvalidMoveError),
        (lambda: HeapMove.parse(f"1:1/{BOMB}+1"), InvalidMoveError),
        (lambda: parse_rule("{1," + BOMB + "}"), NotationError),
        (lambda: parse_subtraction(BOMB), NotationError),
        (lambda: parse_subtraction(""), NotationError),
        (lambda: parse_subtraction(",".join(["1"] * (MAX_ROW + 1))), NotationError),
        (lambda: Octal("0." + "7" * 5000), NotationError),
        (lambda: parse_state(BOMB + ",1", 3), InvalidPositionError),
        (lambda: parse_state("1," + BOMB, 200), InvalidPositionError),
        (lambda: TcgState.from_text("1," + BOMB, 3), InvalidPositionError),
        (lambda: TcgAction.parse("x" * 5000), InvalidMoveError),
        (lambda: parse_position(BOMB + ",1,0", 20, 3), InvalidPositionError),
        (lambda: parse_position("1,1,-" + BOMB, 20, 3), InvalidPositionError),
        (lambda: FootstepState.from_text("20,20," + BOMB, 20, 3), InvalidPositionError),
        (lambda: FootstepState(20, 3).parse_action(f"{BOMB}:1"), IllegalMoveError),
    ],
)
def test_digit_bombs_give_the_parsers_own_error_briefly(parse: Callable[[], object], error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        parse()
    assert len(str(info.value)) < 250, str(info.value)[:300]


def test_numbers_in_range_still_parse() -> None:
    assert parse_heaps("000003, 4,5") == (3, 4, 5)
    assert parse_heaps("999999999") == (999_999_999,)
    assert parse_subtraction(" 1, 2 ,3").values == frozenset({1, 2, 3})
    assert parse_rule("{0001,2}").text == "{1,2}"
    assert HeapMove.parse("0002:003") == HeapMove(1, 3)
    assert parse_state("003,0", 200) == (3, 0)
    assert parse_position("020,0,-03", 20, 3) == (20, 0, -3)
    assert FootstepState(20, 3).parse_action("020:1") == (20, 1)
    # A bid that is too large but short is still apply_joint's to refuse, as before.
    assert FootstepState(20, 3).parse_action("99:1") == (99, 1)
    with pytest.raises(InvalidPositionError, match="points run from 0"):
        parse_state("300,1", 200)
    with pytest.raises(InvalidPositionError, match="points run from 0"):
        parse_position("21,1,0", 20, 3)


def test_an_empty_subtraction_set_is_not_nim() -> None:
    for text in ("", " ", ",", "1,,2", "-1", "x"):
        with pytest.raises(NotationError, match="not a subtraction set"):
            parse_subtraction(text)
    with pytest.raises(NotationError, match="positive"):
        parse_subtraction("0")
