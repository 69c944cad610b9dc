"""Exact Geister endgames (issue 19): the Mini-Geister mechanism on 5x5 and 6x6 boards, and the tables inside real
Geister games.

Derived, never stored: on 4x4 the endgame code reproduces the paper's figures (typed in from seeds/000 in
``test_mini_geister_solver``); on 6x6 a hand-checkable ending is a win in 3; the tables' values agree with
``core.geister``'s moves and with a plain search that knows nothing of them; the best lines count down one ply at a
time; and what a player is told depends only on its own view.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from test_mini_geister_solver import BASE_VALUE_1, EXTENDED_VALUE_0, EXTENDED_VALUE_1, TABLE_1

from core.game import Side
from core.geister import GeisterState, GeisterView
from core.notation import Move, Square
from solvers.geister.bayes import BayesPlayer
from solvers.geister.endgame import EndgameTables, covers, start_squares
from solvers.geister.tablebase import judge, winning_move
from solvers.players import Limit
from tui.cli import main

#: Each side down to one blue and one red; player 1's blue one step from its exit a6, nothing of player 2's near.
ESCAPE = "6/B5/6/3b2/4r1/5R 1 BBBRRRbbbrrr 100"
#: Player 2's pieces one step from its exits a1 and f1, player 1's too far to reach either: whichever is blue gets out.
LOST = "6/6/6/2BR2/b4r/6 1 BBBRRRbbbrrr 100"


#: The tables are built once in the run (they take seconds): every test of this module on one worker, reading the
#: run's shared cache (``conftest.shared_solved_tables``), which the endgame tests of other modules read too.
pytestmark = [pytest.mark.xdist_group("endgame-tables"), pytest.mark.usefixtures("use_shared_solved_tables")]


@pytest.fixture(scope="module")
def cache_dir(shared_solved_tables: Path) -> Iterator[Path]:
    """Module fixtures build before the per-test cache isolation applies: they use the run's shared cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NASHPLAY_CACHE_DIR", str(shared_solved_tables))
        yield shared_solved_tables


@pytest.fixture(scope="module")
def six(cache_dir: Path) -> EndgameTables:
    return EndgameTables.load(6)


def view_of(position: str, side: Side = Side.P1) -> GeisterView:
    return GeisterState.from_position(position, "geister").view(side)


# ---- the tables themselves


def test_the_paper_s_4x4_figures_through_the_endgame_tables(cache_dir: Path) -> None:
    tables = EndgameTables.load(4, use_cache=False)
    assert tables.base.counts()[1] == BASE_VALUE_1
    assert tables.base.distance_histogram(1) == TABLE_1
    assert tables.extended.counts()[1] == EXTENDED_VALUE_1 and tables.extended.counts()[0] == EXTENDED_VALUE_0
    first, second = tables.starts("base")
    assert (first.value, first.distance, second.value, second.distance) == (1, 13, 1, 16)  # section 3


def test_natural_starts_are_the_home_ranks_nearest_the_centre() -> None:
    assert start_squares(4) == ((1, 2), (13, 14))  # Mini-Geister's b1 c1 / b4 c4
    assert start_squares(6) == ((2, 3), (32, 33))  # c1 d1 / c6 d6
    assert start_squares(5) == ((1, 3), (21, 23))  # b1 d1 / b5 d5: symmetric about the centre file


def test_5x5_figures_are_whole_and_symmetric(cache_dir: Path) -> None:
    tables = EndgameTables.load(5, use_cache=False)
    placements = 25 * 24 // 2 * (23 * 22 // 2)
    for table in (tables.base, tables.extended):
        assert sum(table.counts().values()) == 2 * placements
        assert sum(table.distance_histogram(1).values()) == table.counts()[1]
        mirror = table.mirror_indices()
        assert (table.value[mirror] == table.value).all() and (table.distance[mirror] == table.distance).all()
    perfect = tables.perfect.counts()
    assert perfect[1] == perfect[-1]  # every win for the side to move is a loss for the other side to move
    assert sum(tables.sure.counts().values()) == 2 * 25 * 24 * (23 * 22 // 2)


def test_a_blue_one_step_from_its_exit_that_nothing_can_stop_is_a_win_in_3(six: EndgameTables) -> None:
    state = GeisterState.from_position(ESCAPE, "geister")
    mine, theirs, turn = six.frame(state, Side.P1)
    blue = next(square for square, colour in mine if colour.name == "BLUE")
    red = next(square for square, colour in mine if colour.name == "RED")
    squares = (theirs[0][0], theirs[1][0])
    assert six.sure_value(blue, red, squares, turn).to_json() == {"value": 1, "distance": 3}
    their_blue = next(square for square, colour in theirs if colour.name == "BLUE")
    their_red = next(square for square, colour in theirs if colour.name == "RED")
    assert six.perfect_value((blue, red), (their_blue, their_red), turn).to_json() == {"value": 1, "distance": 3}
    # Seen from player 2 (the board flipped), the same position with player 2 to move: the frames agree.
    flipped = GeisterState.from_position("6/6/6/6/6/6 1", "geister")  # the geometry only
    assert six.index_of(Square.parse("a5"), Side.P2) == six.index_of(Square.parse("a2"), Side.P1)
    assert flipped.variant.exits[Side.P2][0] == Square.parse("a1")


def _sure_forces(blue: Square, red: Square, theirs: frozenset[Square], my_turn: bool, depth: int) -> bool:
    """A plain search, no tables: does player 1, knowing its colours and not player 2's, get its blue out within
    ``depth`` plies whatever player 2's pieces are and do? Player 2 wins if a piece of its (either may be blue)
    stands on its exit at its turn, or if it can take player 1's blue; nobody captures otherwise (a capture of a
    hidden piece is a gamble, and player 2 taking player 1's red hands player 1 the game)."""
    exits, their_exits = {Square(0, 5), Square(5, 5)}, {Square(0, 0), Square(5, 0)}

    def steps(square: Square) -> Iterator[Square]:
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            f, r = square.file + df, square.rank + dr
            if 0 <= f < 6 and 0 <= r < 6:
                yield Square(f, r)

    @cache
    def forces(blue: Square, red: Square, theirs: frozenset[Square], my_turn: bool, depth: int) -> bool:
        if depth <= 0:
            return False
        if my_turn:
            if blue in exits:
                return True
            occupied = theirs | {blue, red}
            return any(
                forces(target, red, theirs, False, depth - 1) for target in steps(blue) if target not in occupied
            ) or any(forces(blue, target, theirs, False, depth - 1) for target in steps(red) if target not in occupied)
        if theirs & their_exits or any(blue in set(steps(t)) for t in theirs):
            return False
        occupied = theirs | {blue, red}
        replies = [theirs - {piece} | {target} for piece in theirs for target in steps(piece) if target not in occupied]
        return bool(replies) and all(forces(blue, red, after, True, depth - 1) for after in replies)

    return forces(blue, red, theirs, my_turn, depth)


def _random_ending(rng: random.Random, to_move: int) -> str:
    squares = rng.sample([Square(f, r) for f in range(6) for r in range(6)], 4)
    letters = {squares[0]: "B", squares[1]: "R", squares[2]: "b", squares[3]: "r"}
    ranks = []
    for rank in range(5, -1, -1):
        row, empty = "", 0
        for file in range(6):
            letter = letters.get(Square(file, rank))
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(ranks)} {to_move} BBBRRRbbbrrr 100"


def test_the_sure_table_agrees_with_a_plain_search_on_a_sample(six: EndgameTables) -> None:
    rng = random.Random(19)
    checked = {"win": 0, "other": 0}
    for _ in range(400):
        state = GeisterState.from_position(_random_ending(rng, rng.choice((1, 2))), "geister")
        if state.is_terminal():
            continue
        judgement = judge(state.view(Side.P1), six)
        assert judgement is not None
        mine = {piece.colour.name: square for square, piece in state.pieces() if piece.side is Side.P1}
        theirs = frozenset(square for square, piece in state.pieces() if piece.side is Side.P2)
        my_turn = state.to_move is Side.P1
        here = judgement.here
        if here is not None and here.result == "win" and here.source == "sure" and (here.plies or 0) <= 6:
            plies = here.plies or 0
            assert _sure_forces(mine["BLUE"], mine["RED"], theirs, my_turn, plies)
            assert not _sure_forces(mine["BLUE"], mine["RED"], theirs, my_turn, plies - 1)
            checked["win"] += 1
        elif here is None or here.result != "win":
            assert not _sure_forces(mine["BLUE"], mine["RED"], theirs, my_turn, 5)
            checked["other"] += 1
    assert checked["win"] >= 20 and checked["other"] >= 20, checked


def test_best_lines_count_down_one_ply_at_a_time(six: EndgameTables) -> None:
    """From sure wins, the winner plays the tables' fastest move and the loser the reply that lasts longest (both
    read off the tables from their own side): the distance drops by exactly one each ply, to the escape."""
    rng = random.Random(5)
    lines = 0
    while lines < 15:
        state = GeisterState.from_position(_random_ending(rng, 1), "geister")
        judgement = judge(state.view(Side.P1), six)
        if state.is_terminal() or judgement is None or judgement.here is None or judgement.here.source != "sure":
            continue
        if judgement.here.result != "win":
            continue
        expected = judgement.here.plies or 0
        while not state.is_terminal():
            view = state.view(state.to_move)
            if state.to_move is Side.P1:
                seen = judge(view, six)
                assert seen is not None and seen.here is not None and seen.here.plies == expected
                move = seen.best
                assert move is not None
            else:
                move = _longest_reply(state, six, expected)
            state.push(move)
            expected -= 1
        assert expected == 0 and state.outcome() is not None and state.outcome().winner is Side.P1  # type: ignore[union-attr]
        lines += 1


def _longest_reply(state: GeisterState, tables: EndgameTables, expected: int) -> Move:
    """Player 2's quiet reply after which player 1's sure win takes longest (it never takes longer than promised)."""
    replies = []
    for move in state.legal_moves():
        if move.dst is None or state.piece_at(move.dst) is not None:
            continue
        after = state.clone()
        after.push(move)
        seen = judge(after.view(Side.P1), tables)
        assert seen is not None and seen.here is not None and seen.here.result == "win"
        assert (seen.here.plies or 0) <= expected - 1
        replies.append((seen.here.plies or 0, move))
    longest = max(plies for plies, _ in replies)
    assert longest == expected - 1
    return next(move for plies, move in replies if plies == longest)


# ---- inside real games


def test_a_sure_win_and_its_moves(six: EndgameTables) -> None:
    judgement = judge(view_of(ESCAPE), six)
    assert judgement is not None and judgement.here is not None
    assert (judgement.here.result, judgement.here.plies) == ("win", 3)
    assert str(judgement.best) == "a5-a6"
    results = {str(m.move): m.result for m in judgement.moves}
    assert results["a5-a6"] is not None and results["a5-a6"].plies == 3
    assert all(r is not None and r.result == "win" for r in results.values())  # nothing they do can stop it


def test_a_sure_loss_needs_every_colouring_of_theirs(six: EndgameTables) -> None:
    judgement = judge(view_of(LOST), six)
    assert judgement is not None and judgement.here is not None
    assert (judgement.here.result, judgement.here.plies) == ("loss", 4)
    # Player 2 does not know player 1's colours, and its own two runners both threaten: from its side it is a win
    # only if both of its colourings are; here it is told so too.
    theirs = GeisterState.from_position(LOST.replace(" 1 ", " 2 "), "geister")
    seen = judge(theirs.view(Side.P2), six)
    assert seen is not None and seen.here is not None and seen.here.result == "win"
    # With player 1 one step from its exit the other way round, player 2 cannot be sure: a5 may be red.
    other = judge(view_of(ESCAPE.replace(" 1 ", " 2 "), Side.P2), six)
    assert other is not None and other.here is None


def test_what_a_player_is_told_depends_only_on_its_own_view(six: EndgameTables) -> None:
    rng = random.Random(7)
    compared = 0
    while compared < 40:
        position = _random_ending(rng, 1)
        swapped = position.split(" ")[0].replace("b", "x").replace("r", "b").replace("x", "r")
        one = GeisterState.from_position(position, "geister")
        two = GeisterState.from_position(f"{swapped} {position.split(' ', 1)[1]}", "geister")
        if one.is_terminal() or two.is_terminal():
            continue
        assert judge(one.view(Side.P1), six) == judge(two.view(Side.P1), six)
        compared += 1


def test_a_red_proven_on_its_exit_makes_every_colour_known(six: EndgameTables) -> None:
    # Player 2's red stands on its exit a1 at its turn and steps off instead of escaping: it is red, so d4 is blue.
    state = GeisterState.from_position("6/6/3b2/3B2/6/r4R 2 BBBRRRbbbrrr 100", "geister")
    state.push(Move.parse("a1-b1"))
    judgement = judge(state.view(Side.P1), six)
    assert judgement is not None and judgement.their_blue == Square.parse("d4")
    assert judgement.here is not None and (judgement.here.result, judgement.here.plies) == ("win", 1)
    assert judgement.best == Move.parse("d3-d4")  # takes their last blue
    assert judgement.result_of(Move.parse("d3-d4")) is not None


def test_outside_the_tables_nothing_is_judged() -> None:
    assert judge(view_of("6/B5/6/3b2/4r1/5R 1 BBBRRbbbrrr 100")) is None  # player 1 has two reds
    assert not covers(GeisterState.from_position("1ub1/4/4/1BR1 1", "mini-geister"))


def test_bayes_plays_the_tables_sure_win(six: EndgameTables) -> None:
    rng = random.Random(3)
    found = 0
    while found < 5:
        view = view_of(_random_ending(rng, 1))
        judgement = judge(view, six) if view.outcome is None else None
        if judgement is None or judgement.here is None or judgement.here.result != "win":
            continue
        if (judgement.here.plies or 0) < 9:
            continue  # a long win: a depth-1 search cannot see it, the tables can
        move = BayesPlayer().choose(view, random.Random(1), Limit(iterations=1))
        assert move == winning_move(view) == judgement.best
        found += 1


def test_analyse_geister_says_exact(capsys: pytest.CaptureFixture[str], six: EndgameTables) -> None:
    escape = ESCAPE.replace("3b2/4r1", "3u2/4u1")  # the player's view: their colours hidden
    assert main(["analyse", "geister", "--position", escape, "--json", "--depth", "2"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["exact"] is True and result["result"] == "win" and result["in"] == 3
    assert result["best"] == "a5-a6" and result["tablebase"] == "sure"
    assert main(["analyse", "geister", "--position", escape, "--depth", "2"]) == 0
    text = capsys.readouterr().out
    assert "win in 3, exact" in text


def test_solve_geister_endgame_prints_the_figures(capsys: pytest.CaptureFixture[str], cache_dir: Path) -> None:
    assert main(["solve", "geister-endgame", "--board", "5", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["board"] == "5x5"
    assert sum(figures["base"]["counts"].values()) == figures["states"]
    assert set(figures) >= {"base", "extended", "perfect", "sure", "bytes", "seconds"}
    assert main(["solve", "geister-endgame", "--board", "5", "--rule", "extended"]) == 0
    text = capsys.readouterr().out
    assert "extended rule" in text and "From the natural start (your pieces on b1 d1, theirs on b5 d5)" in text
    assert "Sure wins" in text and "Plies to the sure win" in text


def test_replay_a_sure_win_line(capsys: pytest.CaptureFixture[str], six: EndgameTables) -> None:
    position = "6/1B4/6/3u2/4u1/5R 1 BBBRRRbbbrrr 100"
    assert main(["replay", "--solved", "geister-endgame", "--position", position, "--list", "--json"]) == 0
    (line,) = json.loads(capsys.readouterr().out)["lines"]
    assert line["plies"] == 5 and line["for"] == 1 and line["rule"] == "sure"
    assert [m["distance"] for m in line["moves"]] == [5, 4, 3, 2, 1]  # counting down to the escape
    assert line["moves"][-1]["event"] == "escape" and line["moves"][0]["move"] == "b5-b6"
    assert "u" in line["position"]  # their colours stay hidden: the winner never needed them


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--solved", "geister-endgame", "--list"], "needs --position"),
        (["--solved", "geister-endgame", "--position", LOST.replace("b4r", "u4u"), "--list"], "no sure win"),
        (["--solved", "geister-endgame", "--position", "6/1B4/6/3u2/4u1/5R 2 BBBRRRbbbrrr 100", "--list"], "--for"),
        (["--solved", "geister-endgame", "--position", "1uu1/4/4/1UU1 1", "--list"], "6x6"),
        (["--solved", "geister-endgame", "--position", ESCAPE, "--line", "p1"], "--line is for"),
    ],
)
def test_replay_endgame_lines_refuse_in_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["replay", *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1, err
