"""Squares, moves and positions of the Geister family: the text forms of ``spec/notation.md``."""

from __future__ import annotations

import pytest

from core.errors import InvalidMoveError, InvalidPositionError, NotationError
from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState
from core.notation import Move, Square

GEISTER = VARIANTS["geister"]
MINI = VARIANTS["mini-geister"]


# --------------------------------------------------------------------------------------------------- squares


def test_error_hierarchy() -> None:
    assert issubclass(InvalidMoveError, NotationError)
    assert issubclass(InvalidPositionError, NotationError)
    assert issubclass(NotationError, ValueError)


@pytest.mark.parametrize(
    ("text", "file", "rank"),
    [("a1", 0, 0), ("b1", 1, 0), ("a2", 0, 1), ("f6", 5, 5), ("d4", 3, 3), ("c10", 2, 9)],
)
def test_square_parse(text: str, file: int, rank: int) -> None:
    square = Square.parse(text)
    assert (square.file, square.rank) == (file, rank)
    assert str(square) == text
    assert square.name == text


def test_square_parse_ignores_case_and_blanks() -> None:
    assert Square.parse(" B1 ") == Square(1, 0)


def test_every_square_of_a_6x6_board_round_trips() -> None:
    names = [f"{f}{r}" for f in "abcdef" for r in range(1, 7)]
    squares = [Square.parse(n) for n in names]
    assert [str(s) for s in squares] == names
    assert len(set(squares)) == 36


def test_square_repr_round_trips_through_eval() -> None:
    square = Square.parse("e5")
    assert eval(repr(square), {"Square": Square}) == square


def test_square_distance_is_manhattan() -> None:
    assert Square.parse("b1").distance(Square.parse("b2")) == 1
    assert Square.parse("b1").distance(Square.parse("c2")) == 2
    assert Square.parse("a1").distance(Square.parse("f6")) == 10


@pytest.mark.parametrize("text", ["", "a", "1a", "a0", "aa", "b-1", "b 1", "é1", "a1a", "a100"])
def test_malformed_square(text: str) -> None:
    with pytest.raises(NotationError, match="expected") as info:
        Square.parse(text)
    assert repr(text) in str(info.value)


# --------------------------------------------------------------------------------------------------- moves


@pytest.mark.parametrize(
    ("text", "src", "dst", "canonical"),
    [
        ("b1-b2", "b1", "b2", "b1-b2"),
        ("b1b2", "b1", "b2", "b1-b2"),
        ("B1-B2", "b1", "b2", "b1-b2"),
        ("  c4-c3 ", "c4", "c3", "c4-c3"),
        ("d4-out", "d4", None, "d4-out"),
        ("a6-OUT", "a6", None, "a6-out"),
        ("e5-e4", "e5", "e4", "e5-e4"),
    ],
)
def test_move_parse(text: str, src: str, dst: str | None, canonical: str) -> None:
    move = Move.parse(text)
    assert move.src == Square.parse(src)
    assert move.dst == (None if dst is None else Square.parse(dst))
    assert move.is_escape is (dst is None)
    assert move.to_text() == canonical
    assert str(move) == canonical
    assert Move.parse(move.to_text()) == move


def test_escape_constructor() -> None:
    assert Move.escape(Square.parse("d4")) == Move.parse("d4-out")


@pytest.mark.parametrize("text", ["b1-b2", "d4-out", "a1-a2", "f6-out"])
def test_move_repr_round_trips_through_eval(text: str) -> None:
    move = Move.parse(text)
    assert eval(repr(move), {"Move": Move}) == move


@pytest.mark.parametrize(
    "text", ["hello", "", "b1", "b1-", "-b2", "b1-b2-b3", "b0-b1", "out-b1", "b1 b2", "b1--b2", "b1-in", "11-12"]
)
def test_malformed_move(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(text)
    message = str(info.value)
    assert "expected" in message
    assert "b1-b2" in message  # shows an example of what a move looks like
    assert "out" in message  # and of an escape


# --------------------------------------------------------------------------------------------------- positions


def letter_at(state: GeisterState, name: str) -> str | None:
    piece = state.piece_at(Square.parse(name))
    return None if piece is None else piece.letter


FULL_POSITIONS = [
    # Geister, mid-game, with captures on both sides.
    ("1rbrb1/1b1rr1/6/3B2/1BR3/1RBR2 2 Bb 7", "geister"),
    ("brrr1b/2bb2/6/6/1BRRB1/1RBBR1 1 - 0", "geister"),
    ("6/6/6/6/6/6 1 - 0", "geister"),
    # Mini-Geister.
    ("1rb1/4/4/1BR1 1 - 0", "mini-geister"),
    ("1r2/2b1/1B2/2R1 2 - 13", "mini-geister"),
    ("1uu1/4/4/1UU1 2 - 42", "mini-geister"),
    # Colours hidden from the reader (a record with '?' set-ups): captured pieces stay unknown.
    ("2u1/1U2/4/2U1 2 u 3", "mini-geister"),
    ("1uuu2/1uuu2/6/6/1UUUU1/1UUU2 1 Uuu 12", "geister"),
    # 3 vs 2: player 1 has the third piece (red-red-blue), player 2 has it (red-blue-blue).
    ("1br1/4/1R2/1BR1 1 - 0", "mini-geister-3v2-rrb"),
    ("1bb1/1r2/4/1BR1 2 - 3", "mini-geister-2v3-rbb"),
]


@pytest.mark.parametrize(("text", "variant"), FULL_POSITIONS)
def test_full_position_round_trips(text: str, variant: str) -> None:
    state = GeisterState.from_position(text)
    assert state.variant.name == variant
    assert state.position() == text
    # Giving the variant explicitly reads the same position.
    assert GeisterState.from_position(text, variant).position() == text


@pytest.mark.parametrize(
    ("short", "full"),
    [
        ("1uu1/4/4/1UU1 1", "1uu1/4/4/1UU1 1 - 0"),
        ("1uu1/4/4/1BR1 2", "1uu1/4/4/1BR1 2 - 0"),
        ("1rbrb1/1brbr1/6/6/1BRRB1/1RBBR1 1", "1rbrb1/1brbr1/6/6/1BRRB1/1RBBR1 1 - 0"),
    ],
)
def test_short_position_round_trips(short: str, full: str) -> None:
    state = GeisterState.from_position(short)
    assert state.position(short=True) == short
    assert state.position() == full
    assert GeisterState.from_position(full).position(short=True) == short


def test_short_form_keeps_captures_and_ply() -> None:
    """The short form drops only an empty capture list together with ply 0: otherwise information would be lost."""
    text = "1rbrb1/1b1rr1/6/3B2/1BR3/1RBR2 2 Bb 7"
    assert GeisterState.from_position(text).position(short=True) == text
    with_ply = "1uu1/4/1U2/2U1 2 - 1"
    assert GeisterState.from_position(with_ply, "mini-geister").position(short=True) == with_ply


def test_captured_and_ply_fields_are_read() -> None:
    state = GeisterState.from_position("1rbrb1/1b1rr1/6/3B2/1BR3/1RBR2 2 Bb 7")
    assert state.ply == 7
    assert state.to_move is Side.P2
    assert [(p.side, p.colour) for p in state.captured] == [(Side.P1, Colour.BLUE), (Side.P2, Colour.BLUE)]
    assert letter_at(state, "d3") == "B"
    assert letter_at(state, "b6") == "r"
    assert letter_at(state, "e2") is None


def test_ranks_run_from_the_top_down() -> None:
    state = GeisterState.from_position("B3/4/4/3r 1", "mini-geister")
    assert letter_at(state, "a4") == "B"
    assert letter_at(state, "d1") == "r"
    assert [letter_at(state, name) for name in ("a1", "d4", "b2")] == [None, None, None]


# ---- the spec's examples


def test_spec_example_mini_start_hidden() -> None:
    assert MINI.standard_start() == "1uu1/4/4/1UU1 1"
    state = GeisterState.from_position("1uu1/4/4/1UU1 1")
    assert state.variant is MINI
    assert state.position(short=True) == "1uu1/4/4/1UU1 1"


def test_spec_example_mini_start_seen_by_player_1() -> None:
    # Player 1 put blue on b1 and red on c1.
    state = GeisterState.from_setups(MINI, "BR", "RB")
    assert state.view(Side.P1).position(short=True) == "1uu1/4/4/1BR1 1"
    assert state.view(Side.P2).position(short=True) == "1rb1/4/4/1UU1 1"
    assert state.position(short=True) == "1rb1/4/4/1BR1 1"


def test_spec_example_geister_start_seen_by_player_1() -> None:
    # b1..e1 = R B B R, b2..e2 = B R R B: the set-up order is b1..e1 then b2..e2.
    state = GeisterState.from_setups(GEISTER, "RBBRBRRB", "BBBBRRRR")
    assert state.view(Side.P1).position() == "1uuuu1/1uuuu1/6/6/1BRRB1/1RBBR1 1 - 0"
    assert GeisterState.from_position("1uuuu1/1uuuu1/6/6/1BRRB1/1RBBR1 1 - 0").variant is GEISTER


def test_geister_player_2_setup_order_mirrors_player_1() -> None:
    # Player 2's order is b6..e6 then b5..e5.
    state = GeisterState.from_setups(GEISTER, "BBBBRRRR", "RBBRBRRB")
    assert state.view(Side.P2).position() == "1rbbr1/1brrb1/6/6/1UUUU1/1UUUU1 1 - 0"


# ---- variant inference


@pytest.mark.parametrize(
    ("text", "variant"),
    [
        ("1uu1/4/4/1UU1 1", "mini-geister"),
        ("1uuuu1/1uuuu1/6/6/1UUUU1/1UUUU1 1", "geister"),
        ("1uu1/4/1R2/1RB1 1", "mini-geister-3v2-rrb"),
        ("1uu1/4/1B2/1RB1 1", "mini-geister-3v2-rbb"),
        ("1rr1/1b2/4/1UU1 1", "mini-geister-2v3-rrb"),
        ("1bb1/1r2/4/1UU1 2", "mini-geister-2v3-rbb"),
        # Captured pieces count too: three pieces of player 1 in all.
        ("1uu1/4/4/1RB1 2 R 5", "mini-geister-3v2-rrb"),
        # Fewer pieces than a variant has still fit the smallest variant.
        ("2u1/4/4/1U2 1 - 9", "mini-geister"),
    ],
)
def test_variant_inference(text: str, variant: str) -> None:
    assert GeisterState.from_position(text).variant.name == variant


def test_ambiguous_variant_is_refused_with_the_candidates() -> None:
    with pytest.raises(InvalidPositionError, match="several games") as info:
        GeisterState.from_position("1uu1/4/1U2/1UU1 1")
    assert "mini-geister-3v2-rrb" in str(info.value)
    assert "mini-geister-3v2-rbb" in str(info.value)
    # Naming the variant settles it.
    state = GeisterState.from_position("1uu1/4/1U2/1UU1 1", "mini-geister-3v2-rbb")
    assert state.variant.name == "mini-geister-3v2-rbb"


def test_no_variant_fits() -> None:
    with pytest.raises(InvalidPositionError, match="5x5"):
        GeisterState.from_position("1uu2/5/5/5/1UU2 1")
    with pytest.raises(InvalidPositionError, match="no known game"):
        GeisterState.from_position("uuuu/4/4/UUUU 1")


# ---- errors


@pytest.mark.parametrize(
    ("text", "variant", "expected"),
    [
        # bad rank contents: names the rank and the offending text
        ("1ux1/4/4/1UU1 1", None, r"rank 4 .*'x1'.*expected"),
        ("1uu1/4/4/1UQ1 1", None, r"rank 1 .*'Q1'"),
        ("1uu1//4/1UU1 1", None, r"rank 3 .*empty"),
        # ranks of different lengths
        ("1uu1/5/4/1UU1 1", None, "differ in length"),
        ("1uu1/3/4/1UU1 1", None, "differ in length"),
        ("1uu1/4/4/1UU 1", None, "differ in length"),
        # too many pieces for the named game
        ("uuu1/4/4/1UU1 1", "mini-geister", "more than 2 pieces"),
        ("1uu1/4/4/UUUU 1", "mini-geister", "more than 2 pieces"),
        ("1uu1/4/4/1UU1 1 B", "mini-geister", "more than 2 pieces"),
        ("1bb1/4/4/1UU1 1", "mini-geister", "2 blue pieces"),
        ("1uu1/4/4/1RR1 1", "mini-geister", "2 red pieces"),
        # the board does not match the named game
        ("1uu1/4/4/1UU1 1", "geister", "6x6"),
        # bad side to move
        ("1uu1/4/4/1UU1 3", None, "'1' or '2'"),
        ("1uu1/4/4/1UU1 x", None, "'1' or '2'"),
        ("1uu1/4/4/1UU1 0", None, "'1' or '2'"),
        # bad captured list or ply count
        ("1uu1/4/4/1UU1 1 X 0", None, "captured"),
        ("1uu1/4/4/1UU1 1 B- 0", None, "captured"),
        ("1uu1/4/4/1UU1 1 - -3", None, "negative"),
        ("1uu1/4/4/1UU1 1 - x", None, "number"),
        # wrong number of fields
        ("1uu1/4/4/1UU1", None, "expected '<ranks> <to-move>"),
        ("1uu1/4/4/1UU1 1 - 0 extra", None, "expected '<ranks> <to-move>"),
        ("", None, "expected '<ranks> <to-move>"),
    ],
)
def test_bad_position(text: str, variant: str | None, expected: str) -> None:
    with pytest.raises(InvalidPositionError, match=expected):
        GeisterState.from_position(text, variant)


def test_unknown_variant_name() -> None:
    with pytest.raises(NotationError, match="expected one of"):
        GeisterState.from_position("1uu1/4/4/1UU1 1", "chess")
