"""Game records (``spec/notation.md``, "Game records"): reading, writing, replaying, and the errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import NotationError, RecordError
from core.game import Side
from core.geister import VARIANTS, GeisterState
from core.notation import Move
from core.record import RESULTS, Record

MINI = VARIANTS["mini-geister"]
GEISTER = VARIANTS["geister"]

# The spec's example, with its trailing "..." replaced by moves that finish the game: on move 4 player 2 takes
# player 1's only red piece, so player 1 wins.
SPEC_EXAMPLE = """\
[Game "mini-geister"]
[Player1 "human"]
[Player2 "nash (base rule)"]
[Setup1 "BR"]
[Setup2 "RB"]
[Start "1uu1/4/4/1UU1 1"]
[Result "1-0"]

1. b1-b2 b4-b3 2. c1-c2 {avg >= 0 in 9} c4-d4 3. b2-a2 b3-b2 4. a2-a3 b2-c2 1-0
"""
SPEC_MOVES = ["b1-b2", "b4-b3", "c1-c2", "c4-d4", "b2-a2", "b3-b2", "a2-a3", "b2-c2"]


def play(state: GeisterState, moves: list[str] | str) -> list[str]:
    """Play ``moves``; return the position before the first and after every move."""
    positions = [state.position()]
    for move in moves.split() if isinstance(moves, str) else moves:
        state.push_text(move)
        positions.append(state.position())
    return positions


def mini_record(body: str, **tags: str) -> str:
    head = {"Game": "mini-geister", "Setup1": "BR", "Setup2": "RB"} | tags
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + "\n" + body + "\n"


# --------------------------------------------------------------------------------------------------- reading


def test_spec_example_parses() -> None:
    record = Record.parse(SPEC_EXAMPLE)
    assert list(record.tags) == ["Game", "Player1", "Player2", "Setup1", "Setup2", "Start", "Result"]
    assert record.tags["Player2"] == "nash (base rule)"
    assert record.result == "1-0"
    assert [m.text for m in record.moves] == SPEC_MOVES
    # The comment belongs to the move before it and is not a move itself.
    assert [m.comment for m in record.moves] == [None, None, "avg >= 0 in 9", None, None, None, None, None]
    assert {m.line for m in record.moves} == {9}


def test_spec_example_replays() -> None:
    record = Record.parse(SPEC_EXAMPLE)
    states = record.replay()
    assert len(states) == len(SPEC_MOVES) + 1
    assert states[0].position(short=True) == "1rb1/4/4/1BR1 1"
    final = states[-1]
    assert final.moves() == [Move.parse(m) for m in SPEC_MOVES]
    assert final.outcome() is not None
    assert final.outcome().winner is Side.P1  # type: ignore[union-attr]
    # The same game played directly goes through the same positions.
    expected = play(GeisterState.from_setups(MINI, "BR", "RB"), SPEC_MOVES)
    assert [s.position() for s in states] == expected
    assert list(record.iter_positions()) == expected


def test_spec_example_round_trips_exactly() -> None:
    assert Record.parse(SPEC_EXAMPLE).to_text() == SPEC_EXAMPLE


def test_move_numbers_and_layout_are_free_on_input() -> None:
    text = mini_record("1.b1-b2 b4-b3\n2. c1-c2\n\n{comment on its own line}\nc4-d4 3. b2-a2 *")
    record = Record.parse(text)
    assert [m.text for m in record.moves] == ["b1-b2", "b4-b3", "c1-c2", "c4-d4", "b2-a2"]
    assert record.moves[2].comment == "comment on its own line"
    assert [m.line for m in record.moves] == [5, 5, 6, 9, 9]
    assert len(record.replay()) == 6


def test_moves_written_without_dashes_are_read() -> None:
    record = Record.parse(mini_record("1. b1b2 b4b3 *"))
    assert record.replay()[-1].moves() == [Move.parse("b1-b2"), Move.parse("b4-b3")]


def test_several_comments_on_one_move_are_kept() -> None:
    record = Record.parse(mini_record("1. b1-b2 {one} {two} b4-b3 *"))
    assert record.moves[0].comment == "one two"
    assert Record.parse(record.to_text()).moves[0].comment == "one two"


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "*"])
def test_every_result_is_read(result: str) -> None:
    assert result in RESULTS
    record = Record.parse(mini_record(f"1. b1-b2 {result}"))
    assert record.result == result
    assert record.tags["Result"] == result
    assert [m.text for m in record.moves] == ["b1-b2"]


def test_missing_result_means_unfinished() -> None:
    record = Record.parse(mini_record("1. b1-b2"))
    assert record.result == "*"


# --------------------------------------------------------------------------------------------------- writing


def test_from_game_writes_the_spec_shape() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    play(state, SPEC_MOVES)
    record = Record.from_game(state, {"Player1": "human", "Player2": "nash (base rule)"})
    # The spec example's tags, in its order (the writer may add more after them).
    spec_tags = Record.parse(SPEC_EXAMPLE).tags
    assert list(record.tags)[: len(spec_tags)] == list(spec_tags)
    assert {k: record.tags[k] for k in spec_tags} == spec_tags
    text = record.to_text()
    assert text.endswith("\n\n1. b1-b2 b4-b3 2. c1-c2 c4-d4 3. b2-a2 b3-b2 4. a2-a3 b2-c2 1-0\n")


def test_from_game_of_an_unfinished_game() -> None:
    state = GeisterState.from_setups(GEISTER, "BBBBRRRR", "RBRBRBRB")
    play(state, "b2-b3 b5-b4 b3-b4")
    record = Record.from_game(state)
    assert record.tags["Game"] == "geister"
    assert record.tags["Setup1"] == "BBBBRRRR"
    assert record.tags["Setup2"] == "RBRBRBRB"
    assert record.tags["Start"] == "1uuuu1/1uuuu1/6/6/1UUUU1/1UUUU1 1"
    assert record.result == "*"
    assert record.to_text().endswith("\n\n1. b2-b3 b5-b4 2. b3-b4 *\n")


def test_user_tags_cannot_override_the_games_own() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    record = Record.from_game(state, {"Setup1": "RB", "Start": "4/4/4/4 1", "Event": "club night"})
    assert record.tags["Setup1"] == "BR"
    assert record.tags["Start"] == "1uu1/4/4/1UU1 1"
    assert record.tags["Event"] == "club night"


def test_long_games_wrap_and_round_trip() -> None:
    state = GeisterState.from_setups(GEISTER, "BBBBRRRR", "BBBBRRRR")
    shuffle = "b1-a1 b6-a6 a1-b1 a6-b6 " * 20
    positions = play(state, shuffle)
    record = Record.from_game(state)
    text = record.to_text()
    assert all(len(line) <= 100 for line in text.splitlines())
    assert len(text.splitlines()) > 10
    again = Record.parse(text)
    assert again.to_text() == text
    assert [s.position() for s in again.replay()] == positions


def test_comments_and_tags_with_quotes_round_trip() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB")
    play(state, "b1-b2 b4-b3")
    record = Record.from_game(state, {"Player1": 'Anne "the ghost" \\ co', "Player2": ""})
    record.moves[0].comment = "avg >= 0 in 9"
    text = record.to_text()
    again = Record.parse(text)
    assert again.tags["Player1"] == 'Anne "the ghost" \\ co'
    assert again.tags["Player2"] == ""
    assert again.moves[0].comment == "avg >= 0 in 9"
    assert again.to_text() == text


def test_save_and_load(tmp_path: Path) -> None:
    state = GeisterState.from_setups(MINI, "RB", "BR")
    positions = play(state, "c1-c2 c4-c3 c2-c3")
    path = tmp_path / "games" / "one.txt"
    Record.from_game(state).save(path)
    loaded = Record.load(path)
    assert [s.position() for s in loaded.replay()] == positions
    assert loaded.result == state.outcome().result_text  # type: ignore[union-attr]
    assert not list(path.parent.glob("*.tmp"))


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Game "mini-geister"\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"bad\.txt") as info:
        Record.load(path)
    assert "line 1" in str(info.value)
    path.write_bytes(b'[Game "mini-geister"]\n\n1. b1-b2 \xff *\n')
    with pytest.raises(RecordError, match="UTF-8"):
        Record.load(path)


# --------------------------------------------------------------------------------------------------- replaying


def test_replay_reproduces_every_position_of_a_geister_game() -> None:
    state = GeisterState.from_setups(GEISTER, "BRBRBRBR", "RBRBRBRB")
    line = (
        "b2-b3 b5-b4 b3-b4 c5-c4 c2-c3 c4-c3 b1-a1 e5-f5 a1-a2 f5-f4 a2-a3 f4-f3 a3-a4 f3-f2 a4-a5 f2-f1 e2-e3 f1-out"
    )
    positions = play(state, line)
    assert state.outcome().winner is Side.P2  # type: ignore[union-attr]
    record = Record.parse(Record.from_game(state).to_text())
    states = record.replay()
    assert [s.position() for s in states] == positions
    assert [s.view(Side.P1) for s in states[-1:]] == [state.view(Side.P1)]
    assert states[-1].outcome() == state.outcome()


def test_replay_of_a_game_started_from_a_position() -> None:
    state = GeisterState.from_position("1rbrb1/1b1rr1/6/3B2/1BR3/1RBR2 1 Bb 7")
    positions = play(state, "d3-d4 d5-d4 c2-c3")
    text = Record.from_game(state).to_text()
    assert '[Start "1rbrb1/1b1rr1/6/3B2/1BR3/1RBR2 1 Bb 7"]' in text
    states = Record.parse(text).replay()
    assert [s.position() for s in states] == positions


def test_a_game_where_player_2_moves_first() -> None:
    state = GeisterState.from_setups(MINI, "BR", "RB", first=Side.P2)
    positions = play(state, "b4-b3 b1-b2 c4-c3")
    record = Record.from_game(state)
    assert record.tags["Start"].split()[1] == "2"
    text = record.to_text()
    assert text.endswith("\n\n1... b4-b3 2. b1-b2 c4-c3 *\n")
    again = Record.parse(text)
    assert again.to_text() == text
    assert [s.position() for s in again.replay()] == positions


def test_a_handwritten_record_where_player_2_moves_first() -> None:
    text = mini_record("1... c4-c3 2. c1-c2 c3-c2 1-0", Start="1uu1/4/4/1UU1 2")
    states = Record.parse(text).replay()
    assert states[0].to_move is Side.P2
    # Player 2's blue (on c4) takes player 1's red (on c1 -> c2): capturing the only red loses.
    assert states[-1].outcome() is not None
    assert states[-1].outcome().winner is Side.P1  # type: ignore[union-attr]
    with pytest.raises(RecordError, match="claims 0-1"):
        Record.parse(text.replace("1-0", "0-1")).replay()


def test_a_player_2_start_from_a_position() -> None:
    state = GeisterState.from_position("1r2/2b1/1B2/2R1 2 - 13")
    positions = play(state, "c3-d3 b2-b3")
    text = Record.from_game(state).to_text()
    assert "\n1... c3-d3 2. b2-b3 *\n" in text
    assert [s.position() for s in Record.parse(text).replay()] == positions


def test_hidden_setups_load_and_replay() -> None:
    # A record whose colours are hidden from the reader: the moves replay, captures decide nothing, and the
    # result tag says how the game ended.
    text = mini_record("1. b1-b2 b4-b3 2. b2-b3 c4-c3 3. c1-c2 0-1", Setup1="?", Setup2="?")
    record = Record.parse(text)
    states = record.replay()
    assert len(states) == 6
    assert states[0].position(short=True) == "1uu1/4/4/1UU1 1"
    assert states[-1].position() == "4/1Uu1/2U1/4 2 u 5"
    assert not states[-1].is_terminal()
    assert record.result == "0-1"
    assert Record.parse(record.to_text()).to_text() == record.to_text()


def test_a_game_with_hidden_setups_is_written_with_question_marks() -> None:
    state = GeisterState.from_setups(MINI, "?", "?")
    positions = play(state, "b1-b2 b4-b3")
    record = Record.from_game(state)
    assert (record.tags["Setup1"], record.tags["Setup2"]) == ("?", "?")
    assert [s.position() for s in Record.parse(record.to_text()).replay()] == positions


def test_one_hidden_setup() -> None:
    # Player 1's colours are known, player 2's are not: player 2 capturing player 1's blue still ends the game.
    text = mini_record("1. b1-b2 b4-b3 2. c1-d1 b3-b2 0-1", Setup2="?")
    final = Record.parse(text).replay()[-1]
    assert final.outcome() is not None
    assert final.outcome().winner is Side.P2  # type: ignore[union-attr]


def test_a_draw_by_the_ply_limit_replays() -> None:
    text = '[Game "mini-geister"]\n[Start "2r1/4/1b2/1BR1 1 - 199"]\n\n1. c1-d1 1/2-1/2\n'
    final = Record.parse(text).replay()[-1]
    assert final.outcome() is not None
    assert final.outcome().winner is None  # type: ignore[union-attr]
    with pytest.raises(RecordError, match="claims 1-0"):
        Record.parse(text.replace("1/2-1/2", "1-0")).replay()


# --------------------------------------------------------------------------------------------------- errors


def test_an_illegal_move_is_rejected_with_its_number_line_and_reason() -> None:
    text = mini_record("1. b1-b2 b4-b3\n2. c1-c3 c4-c3 *")
    record = Record.parse(text)  # parsing does not judge legality
    with pytest.raises(RecordError) as info:
        record.replay()
    assert info.value.line == 6
    message = str(info.value)
    assert message.startswith("line 6:")
    assert "move 2. c1-c3" in message
    assert "not one step" in message


def test_an_illegal_move_of_player_2_is_named_with_dots() -> None:
    text = mini_record("1. b1-b2 b4-b3\n2. c1-c2\nb3-b1 *")
    with pytest.raises(RecordError) as info:
        Record.parse(text).replay()
    assert info.value.line == 7
    assert "move 2... b3-b1" in str(info.value)


def test_an_unparseable_move_is_rejected_with_its_number_and_line() -> None:
    text = mini_record("1. b1-b2 b4-b3\n2. c1-c2 hello *")
    with pytest.raises(RecordError) as info:
        Record.parse(text).replay()
    assert info.value.line == 6
    assert "move 2... hello" in str(info.value)
    assert "expected" in str(info.value)


def test_a_move_after_the_end_is_rejected() -> None:
    text = mini_record("1. b1-b2 b4-b3 2. b2-b3 c4-c3 *")  # 2. b2-b3 takes player 2's red: the game is over
    with pytest.raises(RecordError, match="already over") as info:
        Record.parse(text).replay()
    assert "move 2... c4-c3" in str(info.value)
    assert info.value.line == 5


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ('[Game "mini-geister"]\n[Setup1 BR]\n\n1. b1-b2 *\n', 2, 'expected \\[Name "value"\\]'),
        ('[Game "mini-geister"\n\n1. b1-b2 *\n', 1, "malformed tag"),
        ('[Game "mini-geister"]\n[Setup1 "BR" extra]\n', 2, "malformed tag"),
        ('[Game "mini-geister"]\n\n1. b1-b2 {never closed\nb4-b3 *\n', 3, "not closed"),
        ('[Game "mini-geister"]\n\n{a comment first} 1. b1-b2 *\n', 3, "must follow a move"),
        ('[Game "mini-geister"]\n\n1. b1-b2 1-0\nb4-b3\n', 4, "after the result"),
        ('[Game "mini-geister"]\n\n1. b1-b2 * 1-0\n', 3, "after the result"),
    ],
)
def test_malformed_records_are_rejected_with_the_line(text: str, line: int, expected: str) -> None:
    with pytest.raises(RecordError, match=expected) as info:
        Record.parse(text)
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}:")


def test_missing_game_tag_is_rejected() -> None:
    with pytest.raises(RecordError, match=r'\[Game "\.\.\."\]'):
        Record.parse('[Setup1 "BR"]\n\n1. b1-b2 *\n')


def test_result_tag_contradicting_the_move_text_is_rejected() -> None:
    with pytest.raises(RecordError, match="Result tag says '0-1'"):
        Record.parse(mini_record("1. b1-b2 1-0", Result="0-1"))


def test_result_tag_contradicting_the_moves_is_rejected() -> None:
    # The spec example's moves end in a player 1 win.
    text = SPEC_EXAMPLE.replace('[Result "1-0"]', '[Result "0-1"]').replace(" 1-0\n", " 0-1\n")
    record = Record.parse(text)
    with pytest.raises(RecordError, match="claims 0-1"):
        record.replay()
    draw = Record.parse(SPEC_EXAMPLE.replace('[Result "1-0"]', '[Result "1/2-1/2"]').replace(" 1-0\n", "\n"))
    with pytest.raises(RecordError, match="1/2-1/2"):
        draw.replay()


def test_a_result_the_moves_do_not_reach_is_accepted() -> None:
    # A resignation: the moves do not end the game, the result tag says who won.
    record = Record.parse(mini_record("1. b1-b2 b4-b3 1-0"))
    assert not record.replay()[-1].is_terminal()


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        ({"Game": "chess"}, "unknown game 'chess'"),
        ({"Setup1": "BB"}, "blue"),
        ({"Setup1": "BRB"}, "expected"),
        ({"Start": "1uu1/4/4/1UU1 3"}, "1' or '2'|1 or 2"),
        ({"Start": "1uu1/4/4/1UU1"}, "expected"),
        ({"Start": "1uu1/4/1U2/1UU1 1"}, "more than 2 pieces"),
    ],
)
def test_bad_game_tags_are_rejected(tags: dict[str, str], expected: str) -> None:
    record = Record.parse(mini_record("1. b1-b2 *", **tags))
    with pytest.raises(RecordError, match=expected):
        record.replay()


def test_record_errors_are_notation_errors() -> None:
    assert issubclass(RecordError, NotationError)
    assert issubclass(RecordError, ValueError)
    assert RecordError("x", 3).line == 3
    assert str(RecordError("x")) == "x"
