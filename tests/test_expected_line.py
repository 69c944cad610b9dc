"""The line a search expects (its principal variation), shown under its suggestion: legal play from the position,
its suggestion first, cut where the rest depends on a colour it does not know; the tables' line of a sure win counts
down to the escape. Depths and seeds are fixed: nothing here depends on the machine's speed."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from twin_games import random_midgame

from core.game import Side
from core.geister import GeisterState
from core.notation import Move
from solvers.advice import Advice
from solvers.advice.geister import analyse
from solvers.geister.bayes import BayesPlayer
from solvers.geister.purple import PurplePlayer, SearchReport
from solvers.geister_engine import convert
from solvers.geister_engine import search as sr
from solvers.geister_engine.tables import tables
from solvers.players import Limit
from tui.cli.analyse import render
from tui.widgets.advice import AdvicePanel

PLAYERS = [PurplePlayer, BayesPlayer]
DEPTH = 5


def reports(player: PurplePlayer, state: GeisterState, depth: int = DEPTH) -> list[SearchReport]:
    return list(player.analyse(state.view(state.to_move), Limit(iterations=depth), random.Random(0)))


def hidden_from(state: GeisterState, viewer: Side, square: object) -> bool:
    """Whether the piece on ``square`` is the opponent's, its colour unknown to ``viewer``."""
    view = state.view(viewer)
    return any(sq == square and piece.colour is None for sq, piece in view.pieces(viewer.other))


@pytest.mark.parametrize("player_class", PLAYERS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_line_is_legal_play_from_its_suggestion_and_stops_at_a_hidden_colour(
    player_class: type[PurplePlayer], seed: int
) -> None:
    start = random_midgame(seed, 6 + 4 * seed)
    if start.is_terminal():
        pytest.skip("the random game ended")  # pragma: no cover - seeds chosen so it does not
    viewer = start.to_move
    for report in reports(player_class(), start):
        assert report.line, report
        assert report.line[0] == report.best
        assert len(report.line) <= max(report.depth, 1)
        state = copy.deepcopy(start)
        for index, move in enumerate(report.line):
            assert move in state.legal_moves(), (report.line, index)
            unknown_capture = state.to_move is viewer and move.dst is not None and hidden_from(state, viewer, move.dst)
            state.push(move)
            if unknown_capture or state.is_terminal():
                assert index == len(report.line) - 1, f"the line goes on past {move}: {report.line}"
    final = reports(player_class(), start)[-1]
    assert final.final and final.line[0] == final.best


def test_lines_grow_with_the_depth() -> None:
    """Deeper iterations keep more of the line (up to the depth): the table holds the moves each one searched."""
    state = GeisterState.from_position("1uuuu1/1uuuu1/6/6/1BRRB1/1RBBR1 1", "geister")
    by_depth = {report.depth: report.line for report in reports(PurplePlayer(), state, 6) if not report.final}
    assert [len(by_depth[depth]) for depth in range(1, 7)] == list(range(1, 7))


def test_walking_the_line_leaves_the_searched_position_as_it_was() -> None:
    state = random_midgame(4, 8)
    view = state.view(state.to_move)
    player = PurplePlayer()
    report = reports(player, state)[-1]
    t = tables(view.variant)
    s = convert.from_view(view, player.kinds(view), purple_escapes=True)
    before = s.copy()
    c = np.zeros(sr.C_SIZE, dtype=np.int64)
    arrays = player._search_arrays()
    sr.expected_line(
        s, t, c, arrays["tt_keys"], arrays["tt_data"], convert.encode_move(view.variant, report.best), DEPTH
    )
    assert (s == before).all()


def test_a_capture_of_a_piece_of_unknown_colour_ends_the_line() -> None:
    # Player 2's unknown piece on a1, its exit: player 1 must take it from a2, and what follows depends on its colour.
    state = GeisterState.from_position("6/1uuu2/6/6/R5/u1BB2 1 rr 20", "geister")
    for player_class in PLAYERS:
        report = reports(player_class(), state)[-1]
        assert report.best == Move.parse("a2-a1")
        assert report.line == (Move.parse("a2-a1"),)


# On the worker that builds the 6x6 endgame tables for test_endgame, from the run's shared folder.
@pytest.mark.xdist_group("endgame-tables")
@pytest.mark.usefixtures("use_shared_solved_tables")
def test_the_tables_sure_win_line_counts_down_to_the_escape() -> None:
    state = GeisterState.from_position("6/B5/6/3u2/4u1/5R 1 BBBRRRbbbrrr 100", "geister")
    advice = list(analyse(state.view(Side.P1), Limit(iterations=2), random.Random(0)))[-1]
    assert advice.exact and advice.result == "win"
    assert advice.line[0] == advice.best
    assert len(advice.line) == advice.plies  # one move a ply, the escape last
    assert advice.line[-1].endswith("-out")
    played = state
    for text in advice.line:
        played.push_text(text)
    assert played.is_terminal() and played.outcome() is not None


def line_advice(line: tuple[str, ...]) -> Advice:
    return Advice(
        game="geister",
        position="1uuuu1/1uuuu1/6/6/1BRRB1/1RBBR1 1",
        player=1,
        engine="sage search, depth 6",
        exact=False,
        best=line[0],
        moves=(),
        value=0.5,
        line=line,
    )


def test_the_line_is_said_by_the_command_its_json_and_the_panel() -> None:
    line = ("b2-b3", "e5-e4", "b3-a3", "b5-b4", "e2-f2", "b4-a4")
    advice = line_advice(line)
    assert "Expected line: b2-b3 e5-e4 b3-a3 b5-b4 e2-f2 b4-a4" in render(advice)
    assert advice.to_json()["line"] == list(line)
    for width in (60, 40, 30, 20):
        shown = AdvicePanel.render_advice(advice, "sage", width=width).plain.splitlines()
        said = next(row for row in shown if "line: " in row.lower())
        assert len(said) <= width, (width, said)
        moves = said.split(": ", 1)[1].removesuffix(" ...").split()
        assert moves == list(line[: len(moves)]) and len(moves) >= 2, said  # whole moves, from the first
    assert "line" not in AdvicePanel.render_advice(line_advice(("b2-b3",)), "sage", width=60).plain.lower()
