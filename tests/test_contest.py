"""The contest protocol as pure functions (``core.contest``): framing, messages, board strings, geometry, set-ups,
move commands and the local mirror of a game. No sockets here (``test_net.py`` has the network)."""

from __future__ import annotations

import random
from typing import Literal

import pytest

from core.contest import (
    Accepted,
    Board,
    Clock,
    DesyncError,
    GameOver,
    LineFramer,
    MalformedMessageError,
    MoveRequest,
    Rejected,
    SetRequest,
    command_to_move,
    contest_variant,
    from_square,
    letter_of,
    move_command,
    parse_message,
    parse_move_command,
    parse_red_letters,
    parse_setup_command,
    red_letters,
    setup_command,
    setup_from_letters,
    side_for_port,
    slot_of,
    to_square,
)
from core.contest_game import ContestGame, TimeVerdict
from core.errors import IllegalMoveError, NotationError
from core.game import Side
from core.geister import GEISTER, Colour, GeisterState
from core.notation import Move, Square
from core.record import Record

FIRST_BOARD = "14R24B34B44B15R25R35R45B41u31u21u11u40u30u20u10u"  # the spec's exchange, after SET:AEFG


# --------------------------------------------------------------------------------------------------- framing


def test_framer_joins_bytes_split_anywhere() -> None:
    stream = b"SET?\r\nOK \r\nMOV?" + FIRST_BOARD.encode() + b"\r\n"
    framer = LineFramer()
    lines = []
    for byte in stream:
        lines += framer.feed(bytes([byte]))
    assert lines == ["SET?", "OK ", "MOV?" + FIRST_BOARD]
    assert framer.pending == b""


def test_framer_splits_joined_messages_and_keeps_the_rest() -> None:
    framer = LineFramer()
    assert framer.feed(b"OK \r\nLST:" + FIRST_BOARD.encode() + b"\r\nMO") == ["OK ", "LST:" + FIRST_BOARD]
    assert framer.pending == b"MO"
    assert framer.feed(b"V?x\r") == []
    assert framer.feed(b"\n") == ["MOV?x"]


def test_a_bare_lf_or_cr_is_not_a_line_end() -> None:
    framer = LineFramer()
    assert framer.feed(b"OK \nNG \r") == []
    assert framer.feed(b"\n") == ["OK \nNG "]
    with pytest.raises(MalformedMessageError, match="unexpected message"):
        parse_message("OK \nNG ")


def test_framer_refuses_endless_lines_and_binary() -> None:
    with pytest.raises(MalformedMessageError, match="without a line end"):
        LineFramer().feed(b"x" * 5000)
    with pytest.raises(MalformedMessageError, match="non-ASCII"):
        LineFramer().feed("MOV?é\r\n".encode())


# --------------------------------------------------------------------------------------------------- messages


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("SET?", SetRequest()),
        ("OK ", Accepted()),
        ("OK", Accepted()),
        ("OKR", Accepted("r")),
        ("OKB", Accepted("b")),
        ("NG ", Rejected()),
        ("NG", Rejected()),
        ("MOV?" + FIRST_BOARD, MoveRequest(Board.parse(FIRST_BOARD))),
        ("WON:" + FIRST_BOARD, GameOver("won", Board.parse(FIRST_BOARD))),
        ("LST:" + FIRST_BOARD, GameOver("lost", Board.parse(FIRST_BOARD))),
        ("DRW:" + FIRST_BOARD, GameOver("draw", Board.parse(FIRST_BOARD))),
    ],
)
def test_messages_parse_and_format(line: str, message: object) -> None:
    assert parse_message(line) == message
    assert parse_message(message.to_text()) == message  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("HELLO", "unexpected message"),
        ("", "unexpected message"),
        ("MOV?" + FIRST_BOARD[:-3], "48 characters"),
        ("MOV?" + FIRST_BOARD[:-1] + "x", "not one of"),
        ("MOV?" + "x" + FIRST_BOARD[1:], "no 'x y' digits"),
        ("MOV?" + "67R" + FIRST_BOARD[3:], "neither a square"),
        ("MOV?" + "24R" + FIRST_BOARD[3:], "two pieces stand on 24"),
        ("MOV?" + "14u" + FIRST_BOARD[3:], "not one of R B r b"),
        ("WON:" + FIRST_BOARD[:-3] + "99u", "off the board"),
    ],
)
def test_malformed_lines_say_what_is_wrong(line: str, expected: str) -> None:
    with pytest.raises(MalformedMessageError, match=expected):
        parse_message(line)


def test_board_round_trip_and_sections() -> None:
    board = Board.parse(FIRST_BOARD)
    assert board.to_text() == FIRST_BOARD
    assert [p.char for p in board.mine] == list("RBBBRRRB")
    assert all(p.char == "u" and p.on_board for p in board.theirs)
    gone = Board.parse("99r88b" + FIRST_BOARD[6:])
    assert gone.mine[0].captured and gone.mine[1].escaped and not gone.mine[0].on_board


# --------------------------------------------------------------------------------------------------- geometry


@pytest.mark.parametrize("side", list(Side))
def test_squares_round_trip_for_both_sides(side: Side) -> None:
    for x in range(6):
        for y in range(6):
            assert from_square(to_square(x, y, side), side) == (x, y)


def test_the_second_players_view_is_the_first_players_turned() -> None:
    for x in range(6):
        for y in range(6):
            assert to_square(x, y, Side.P2) == to_square(5 - x, 5 - y, Side.P1)


@pytest.mark.parametrize("side", list(Side))
def test_the_exit_corners_are_the_variants_exits(side: Side) -> None:
    assert {to_square(0, 0, side), to_square(5, 0, side)} == set(GEISTER.exits[side])


@pytest.mark.parametrize("side", list(Side))
def test_letters_map_to_setup_slots(side: Side) -> None:
    for letter in "ABCDEFGH":
        assert letter_of(slot_of(letter, side), side) == letter
        index = "ABCDEFGH".index(letter)
        start = to_square(1 + index % 4, 4 + index // 4, side)
        assert GEISTER.setup_squares[side][slot_of(letter, side)] == start
    # Both sides see the opponent's A on (4, 1): one physical board.
    assert to_square(1, 4, Side.P2) == to_square(4, 1, Side.P1)


def test_the_standard_ports() -> None:
    assert side_for_port(10000) is Side.P1
    assert side_for_port(10001) is Side.P2
    assert side_for_port(4242) is Side.P1


# --------------------------------------------------------------------------------------------------- set-ups


@pytest.mark.parametrize("text", ["AAAA", "ABCI", "ABC", "ABCDE", "", "AB C", "1234"])
def test_bad_set_up_letters_are_refused(text: str) -> None:
    with pytest.raises(NotationError, match=r"4 distinct letters among A\.\.H"):
        parse_red_letters(text)


def test_a_huge_bad_set_up_is_quoted_in_a_few_dozen_characters() -> None:
    with pytest.raises(NotationError) as error:
        parse_red_letters("B" * 1_000_000)
    assert str(error.value).startswith("'BBBBBBBBBBBBBBBBBBBBBBBBBBB...' is not a contest set-up")
    assert len(str(error.value)) < 250


def test_set_up_letters_are_normalised() -> None:
    assert parse_red_letters(" gfcb ") == "BCFG"


@pytest.mark.parametrize("side", list(Side))
def test_every_set_up_round_trips_through_set_commands(side: Side) -> None:
    for setup in GEISTER.setups(side):
        command = setup_command(setup, side)
        assert command.startswith("SET:") and len(command) == 8
        assert parse_setup_command(command, side) == setup
        assert setup_from_letters(red_letters(setup, side), side) == setup


def test_set_up_letters_name_the_protocols_pieces() -> None:
    # The spec: SET:AEFG makes A (front row, x = 1) and E F G (back row) red.
    setup = setup_from_letters("AEFG", Side.P1)
    assert setup.to_text() == "RRRBRBBB"  # b1 c1 d1 e1 b2 c2 d2 e2
    state = GeisterState.from_setups(GEISTER, setup, "BBBBRRRR")
    piece = state.piece_at(Square.parse("b2"))
    assert piece is not None and piece.colour is Colour.RED and letter_of(piece.slot, Side.P1) == "A"


# --------------------------------------------------------------------------------------------------- moves


def _random_states(count: int, seed: int) -> list[GeisterState]:
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = GeisterState.from_setups(
            GEISTER, rng.choice(GEISTER.setups(Side.P1)), rng.choice(GEISTER.setups(Side.P2))
        )
        for _ in range(rng.randrange(0, 60)):
            if state.is_terminal():
                break
            state.push(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            states.append(state)
    return states


def test_every_legal_move_round_trips_through_mov_commands() -> None:
    checked = 0
    for state in _random_states(60, seed=3):
        side = state.to_move
        where = {piece.slot: square for square, piece in state.pieces() if piece.side is side}
        for move in state.legal_moves():
            piece = state.piece_at(move.src)
            assert piece is not None
            command = move_command(move, piece.slot, side)
            assert command_to_move(command, side, where) == move
            checked += 1
    assert checked > 500


@pytest.mark.parametrize(
    ("side", "corner", "commands"),
    [
        (Side.P1, "a6", ["N", "W", "NORTH", "WEST"]),
        (Side.P1, "f6", ["N", "E"]),
        (Side.P2, "a1", ["N", "E"]),  # a1 is on the second player's right: (5, 0) in its view
        (Side.P2, "f1", ["N", "W"]),
    ],
)
def test_escapes_from_either_corner(side: Side, corner: str, commands: list[str]) -> None:
    square = Square.parse(corner)
    assert move_command(Move(square, None), 0, side) == f"MOV:{letter_of(0, side)},N"
    for direction in commands:
        assert command_to_move(f"MOV:{letter_of(0, side)},{direction}", side, {0: square}) == Move(square, None)


def test_steps_off_the_board_elsewhere_are_not_escapes() -> None:
    with pytest.raises(IllegalMoveError, match="not an exit"):
        command_to_move("MOV:E,S", Side.P1, {0: Square.parse("b1")})
    with pytest.raises(IllegalMoveError, match="not an exit"):
        command_to_move("MOV:E,W", Side.P1, {0: Square.parse("a3")})


def test_move_commands_parse_strictly() -> None:
    assert parse_move_command("MOV:a,north") == ("A", "N")
    for bad in ["MOV:I,N", "MOV:A,X", "MOV:A, N", "MOV A,N", "MOV:AB,N"]:
        with pytest.raises(MalformedMessageError):
            parse_move_command(bad)


# --------------------------------------------------------------------------------------------------- the mirror


def _first_player_game() -> ContestGame:
    game = ContestGame(Side.P1)
    assert game.setup_command("AEFG") == "SET:AEFG"
    assert game.on_board(Board.parse(FIRST_BOARD)) is None
    return game


def test_the_specs_example_exchange() -> None:
    game = _first_player_game()
    assert game.side is Side.P1
    assert game.view().position() == "1uuuu1/1uuuu1/6/6/1RBBB1/1RRRB1 1 - 0"
    assert game.move_command(Move.parse("b2-b3")) == "MOV:A,N"
    assert game.on_accepted(Accepted()) is None
    reply = game.on_board(Board.parse("13R24B34B44B15R25R35R45B41u31u21u11u50u30u20u10u"))
    assert reply == Move.parse("e6-f6")  # their E, on (4, 0) in our view, stepped east
    view = game.view()
    assert view.my_turn and view.last_move == reply and view.ply == 2


def test_the_first_board_tells_the_side() -> None:
    game = ContestGame(Side.P1)  # guessed from a non-standard port
    game.setup_command("AEFG")
    # The first player has moved its A north (its (1,4) -> (1,3), which we see on (4,2)).
    move = game.on_board(Board.parse("14R24B34B44B15R25R35R45B42u31u21u11u40u30u20u10u"))
    assert game.side is Side.P2
    assert move == Move.parse("b2-b3")  # nashplay names squares from player 1's side
    assert game.view().viewer is Side.P2


def test_a_board_more_than_one_move_away_is_reported() -> None:
    game = _first_player_game()
    game.move_command(Move.parse("b2-b3"))
    game.on_accepted(Accepted())
    with pytest.raises(DesyncError, match="one opponent move"):
        game.on_board(Board.parse("13R24B34B44B15R25R35R45B42u32u21u11u40u30u20u10u"))


def test_a_board_that_moves_our_pieces_is_reported() -> None:
    game = _first_player_game()
    game.move_command(Move.parse("b2-b3"))
    game.on_accepted(Accepted())
    with pytest.raises(DesyncError, match="our A is on b4"):
        game.on_board(Board.parse("12R24B34B44B15R25R35R45B41u31u21u11u50u30u20u10u"))


def test_our_colours_must_be_what_we_set() -> None:
    game = ContestGame(Side.P1)
    game.setup_command("BCFG")
    with pytest.raises(DesyncError, match="red there, blue in our set-up"):
        game.on_board(Board.parse(FIRST_BOARD))


def test_illegal_moves_are_refused_before_sending() -> None:
    game = _first_player_game()
    with pytest.raises(IllegalMoveError, match="no piece on a1"):
        game.move_command(Move.parse("a1-a2"))
    with pytest.raises(IllegalMoveError, match="own pieces"):
        game.move_command(Move.parse("b1-b2"))
    assert game.pending is None


def test_a_red_piece_never_escapes() -> None:
    game = ContestGame(Side.P1)
    game.setup_command("AEFG")  # A (b2) is red
    # A walked to the corner (0, 0) = a6 while the opponent shuffled: build that board directly.
    board = "00R24B34B44B15R25R35R45B41u31u21u11u50u30u20u10u"
    game.state = GeisterState.from_setups(GEISTER, setup_from_letters("AEFG", Side.P1), "?")
    for move in ["b2-b3", "e6-f6", "b3-b4", "f6-e6", "b4-a4", "e6-f6", "a4-a5", "f6-e6", "a5-a6", "e6-f6"]:
        game.state.push(Move.parse(move))
    game._check(Board.parse(board))
    with pytest.raises(IllegalMoveError, match="red piece never escapes"):
        game.move_command(Move.parse("a6-out"))


def test_captures_reveal_colours_in_the_view() -> None:
    game = ContestGame(Side.P1)
    game.setup_command("AEFG")
    state = GeisterState.from_setups(GEISTER, setup_from_letters("AEFG", Side.P1), "?")
    for move in ["c2-c3", "c5-c4"]:
        state.push(Move.parse(move))
    game.state = state
    game.move_command(Move.parse("c3-c4"))
    captured = game.on_accepted(Accepted("b"))
    assert captured is not None and captured.colour is Colour.BLUE
    view = game.view()
    assert [p.colour for p in view.captured] == [Colour.BLUE]
    assert view.remaining(Side.P2, Colour.BLUE) == 3


def test_an_ok_with_a_capture_that_did_not_happen_is_reported() -> None:
    game = _first_player_game()
    game.move_command(Move.parse("b2-b3"))
    with pytest.raises(DesyncError, match="empty here"):
        game.on_accepted(Accepted("r"))


def test_game_over_reveals_colours_and_writes_a_replayable_record() -> None:
    game = _first_player_game()
    game.move_command(Move.parse("b2-b3"))
    game.on_accepted(Accepted())
    game.on_board(Board.parse("13R24B34B44B15R25R35R45B41u31u21u11u50u30u20u10u"))
    # We lose on time: no move, every colour revealed (their A..D red, E..H blue).
    final = "13R24B34B44B15R25R35R45B41r31r21r11r50b30b20b10b"
    outcome = game.on_game_over(GameOver("lost", Board.parse(final)))
    assert outcome.winner is Side.P2 and "time-out declared by the server" in outcome.reason
    view = game.view()
    assert view.phase == "over" and view.outcome == outcome
    theirs = [p for _, p in view.pieces(Side.P2)]
    assert len(theirs) == 8 and Colour.UNKNOWN not in {p.colour for p in theirs}
    record = game.record()
    text = record.to_text()
    assert "{MOV?13R24B34B44B15R25R35R45B41u31u21u11u50u30u20u10u LST:" + final + "}" in text
    again = Record.parse(text)
    assert again.result == "0-1" and again.tags["Setup2"] != "?"
    assert len(again.replay()) == 3


def test_ply_limit_is_a_setting() -> None:
    assert contest_variant().ply_limit == 300
    assert contest_variant(200).ply_limit == 200
    assert ContestGame(Side.P1, 200).variant.ply_limit == 200


# --------------------------------------------------------------------------------------------------- clocks


def test_clock_budget_then_per_move_allowance() -> None:
    clock = Clock(budget=10, per_move=2)
    assert clock.allowance() == 12
    assert clock.charge(9.9)  # whole seconds: 9 charged
    assert clock.remaining == 1
    assert clock.charge(2.5)  # 1 from the budget, 1 of the 2-second allowance
    assert clock.remaining == 0
    assert clock.charge(2.9)
    assert not clock.charge(3.0)


def test_clock_fractions() -> None:
    clock = Clock(budget=0.5, per_move=0.1, whole_seconds=False)
    assert clock.charge(0.45)
    assert not clock.charge(0.2)


# --------------------------------------------------------------------------------------------------- the real server


def test_an_escape_acknowledged_with_a_capture_captures_nothing() -> None:
    """The reference server acknowledges an escape with the previous capture's OKB/OKR when the escaping piece has
    just captured; an escape captures nothing, whatever the acknowledgement says."""
    game = ContestGame(Side.P1)
    game.setup_command("EFGH")  # A..D (b2 c2 d2 e2) blue
    state = GeisterState.from_setups(GEISTER, setup_from_letters("EFGH", Side.P1), "?")
    for move in ["b2-a2", "b6-a6", "a2-a3", "e5-f5", "a3-a4", "f5-e5", "a4-a5", "e5-f5"]:
        state.push(Move.parse(move))
    game.state = state
    game.move_command(Move.parse("a5-a6"))
    taken = game.on_accepted(Accepted("b"))
    assert taken is not None and taken.colour is Colour.BLUE
    state.push(Move.parse("f5-e5"))
    game.move_command(Move.parse("a6-out"))
    assert game.on_accepted(Accepted("b")) is None
    assert state.outcome() is not None and state.outcome().winner is Side.P1  # type: ignore[union-attr]
    assert len(game.known_colours) == 1 and len(game.view().captured) == 1


@pytest.mark.parametrize(
    ("result", "our_time", "expected", "score"),
    [
        ("lost", "answered in time", "time-out declared by the server although we had answered in time", "0-1"),
        ("lost", "choosing", "time-out declared by the server while we were choosing", "0-1"),
        ("lost", "out of time", "lost on time: time-out declared by the server", "0-1"),
        ("lost", None, "time-out declared by the server", "0-1"),
        ("won", "answered in time", "a time-out declared by the server, or the opponent's disconnection", "1-0"),
    ],
)
def test_a_result_no_rule_explains_is_recorded_as_the_servers_time_out(
    result: Literal["won", "lost"], our_time: TimeVerdict | None, expected: str, score: str
) -> None:
    """A LST or WON that the board cannot explain (the moves did not end the game, no NG came): the server's clock
    ended it. The record's result is the server's and its Termination says it was a time-out the server declared,
    and whether our own clock agrees (the reference server's stale timer declares false time-outs)."""
    game = _first_player_game()
    game.move_command(Move.parse("b2-b3"))
    game.on_accepted(Accepted())
    game.on_board(Board.parse("13R24B34B44B15R25R35R45B41u31u21u11u50u30u20u10u"))
    final = "13R24B34B44B15R25R35R45B41r31r21r11r50b30b20b10b"
    outcome = game.on_game_over(GameOver(result, Board.parse(final)), our_time=our_time)
    assert outcome.winner is (Side.P1 if result == "won" else Side.P2)
    record = Record.parse(game.record().to_text())
    assert record.result == score and record.tags["ServerResult"] == result
    assert expected in record.tags["Termination"]
    assert game.note is None  # not a disagreement with the rules: no rule had ended the game
