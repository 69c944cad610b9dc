"""The Mini-Geister solver: the paper's figures, derived by our retrograde analysis, and checks that do not trust it.

The literal numbers below are typed in from the paper (seeds/000: section 3, Table 1, sections 4-6); every other
number is computed. Independent checks: the terminal events recomputed square by square in plain Python, the value
equations checked against ``core.geister``'s move generator on a sample, a plain depth-limited search from the start,
the left-right mirror symmetry, and the combinatorial ranking against its inverse.
"""

from __future__ import annotations

import argparse
import io
import json
import random
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from core.errors import InvalidPositionError
from core.game import Side
from core.geister import GeisterState
from solvers.mini_geister import analysis as mg
from solvers.mini_geister.analysis import (
    BASE,
    EXTENDED,
    MiniGeisterTables,
    analyse_position,
    equilibrium_moves,
    perfect_information_value,
    solved_line,
)
from solvers.mini_geister.model import Army, ColourlessSpec
from solvers.mini_geister.tables import TableStore
from solvers.mini_geister.three_vs_two import ThreeVsTwo, three_vs_two
from solvers.retrograde import Layout, popcount
from tui.cli.solve import HANDLERS
from tui.cli.solve import mini_geister as solve_mini_geister

# ---- the paper's figures (typed in from seeds/000)

PLACEMENTS = 21840
BASE_VALUE_1 = 12339
#: Table 1: plies needed -> placements.
TABLE_1 = {
    1: 3749, 2: 1976, 3: 2355, 4: 1198, 5: 696, 6: 307, 7: 242, 8: 253, 9: 281, 10: 262,
    11: 254, 12: 277, 13: 231, 14: 136, 15: 63, 16: 47, 17: 2, 18: 2, 19: 2, 20: 6,
}  # fmt: skip
EXTENDED_VALUE_1 = 12688
EXTENDED_VALUE_0 = 791
START = "1uu1/4/4/1UU1 1"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Module fixtures solve before the per-test cache isolation applies: give them a cache of their own."""
    folder = tmp_path_factory.mktemp("mini-geister-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NASHPLAY_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture(scope="module")
def store(cache_dir: Path) -> TableStore:
    return TableStore(use_cache=False)


@pytest.fixture(scope="module")
def tables(store: TableStore) -> MiniGeisterTables:
    return MiniGeisterTables.from_store(store)


@pytest.fixture(scope="module")
def section_6(store: TableStore) -> dict[str, ThreeVsTwo]:
    return {colours: three_vs_two(colours, store=store) for colours in ("rrb", "rbb")}


# ---------------------------------------------------------------------------------------------- the paper's figures


def test_base_rule_reproduces_section_3_and_table_1(tables: MiniGeisterTables) -> None:
    counts = tables.counts("base")
    assert sum(counts.values()) == PLACEMENTS
    assert counts[1] == BASE_VALUE_1
    assert tables.distance_histogram("base") == TABLE_1
    assert max(tables.distance_histogram("base")) == 20


def test_extended_rule_reproduces_sections_4_and_5(tables: MiniGeisterTables) -> None:
    counts = tables.counts("extended")
    assert counts[1] == EXTENDED_VALUE_1
    assert counts[0] == EXTENDED_VALUE_0
    assert sum(counts.values()) == PLACEMENTS


def test_start_position_distances(tables: MiniGeisterTables) -> None:
    first, second = tables.initial_distances("base")
    assert (first.value, first.distance) == (1, 13)  # player 1 needs 13 plies
    assert (second.value, second.distance) == (1, 16)  # player 2 (the opponent moves first) needs 16
    extended_first, _ = tables.initial_distances("extended")
    assert (extended_first.value, extended_first.distance) == (1, 11)  # the extended rule's 11-ply line
    # Player 2's perspective is the mirror image: analysed, it needs 13 when it moves first.
    assert tables.assess("1uu1/4/4/1UU1 2", Side.P2).distance == 13
    assert tables.assess(START, Side.P2).distance == 16


def test_section_6_red_red_blue(section_6: dict[str, ThreeVsTwo]) -> None:
    three, two = section_6["rrb"].analyses
    assert three.three_piece_side and not two.three_piece_side
    # 6.1.1: the red-red-blue side's start is 0 for both sides to move (secures 0 with endless play counted 0).
    assert [a.value for a in three.initial] == [0, 0]
    # 6.1.2: the 2-piece side's start is 1 for both sides to move.
    assert [a.value for a in two.initial] == [1, 1]
    assert three.secured and two.secured


def test_section_6_red_blue_blue(section_6: dict[str, ThreeVsTwo]) -> None:
    three, half, third_by_capture, third_by_naming = section_6["rbb"].analyses
    assert three.spec.target == Fraction(1, 3) and half.spec.target == Fraction(-1, 2)
    assert [a.value for a in three.initial] == [1, 1]  # 6.2.1: the 3-piece side secures 1/3
    assert [a.value for a in half.initial] == [0, 0]  # 6.2.2: the 2-piece side secures -1/2
    assert [a.value for a in third_by_capture.initial] == [-1, -1]  # both attempts at -1/3 fail
    assert third_by_naming.designated and [a.value for a in third_by_naming.initial] == [-1, -1]
    assert three.secured and half.secured and not third_by_capture.secured and not third_by_naming.secured
    for analysis in (*section_6["rrb"].analyses, *section_6["rbb"].analyses):
        assert [a.value for a in analysis.initial] == [analysis.paper] * 2


def test_section_6_event_averages_switch_rules_on_and_off() -> None:
    """The general mechanism decides from the piece counts which events reach the target."""
    three_purple = ColourlessSpec(Army(purple_blue=2, purple_red=1), mg.PURPLE_PAIR, Fraction(1, 3))
    assert three_purple.escape_average == Fraction(1, 3)  # 2 blue, 1 red unseen: 1/3
    assert three_purple.guess_average == 0 and not three_purple.guess_allowed  # 0 < 1/3
    versus_three = ColourlessSpec(mg.PURPLE_PAIR, Army(purple_blue=2, purple_red=1), Fraction(-1, 2))
    assert versus_three.guess_average == Fraction(-1, 3) and versus_three.guess_allowed
    assert BASE.escape_average == 0 and not BASE.guess_allowed and EXTENDED.guess_allowed
    with pytest.raises(ValueError, match="both colours"):
        ColourlessSpec(Army(purple_blue=2), mg.PURPLE_PAIR)


# ---------------------------------------------------------------------------------------------- independent checks


def _neighbours(square: int) -> set[int]:
    file, rank = square % 4, square // 4
    return {r * 4 + f for f, r in ((file + 1, rank), (file - 1, rank), (file, rank + 1), (file, rank - 1))
            if 0 <= f < 4 and 0 <= r < 4}  # fmt: skip


def _placements() -> list[tuple[frozenset[int], frozenset[int]]]:
    layout = Layout((2, 2))
    masks = layout.enumerate()
    return [
        (frozenset(s for s in range(16) if a >> s & 1), frozenset(s for s in range(16) if o >> s & 1))
        for a, o in masks.tolist()
    ]


def test_terminal_events_follow_the_definitions(tables: MiniGeisterTables) -> None:
    """Recomputed square by square: distance 1 exactly where the paper's events are available."""
    placements = _placements()
    n = len(placements)
    guess_only = 0
    for i, (mine, theirs) in enumerate(placements):
        escape = bool(mine & {12, 15})
        both_in_reach = all(_neighbours(t) & mine for t in theirs)
        assert (tables.base.distance[i] == 1) == (escape or both_in_reach)
        extended_terminal = tables.extended.distance[i] == 1
        assert extended_terminal >= (escape or both_in_reach)  # the guess includes the random capture
        guess_only += extended_terminal and not (escape or both_in_reach)
        threat = bool(theirs & {0, 3})
        for table in (tables.base, tables.extended):
            assert (table.value[n + i] == -1 and table.distance[n + i] == 1) == threat
    assert guess_only > 0


def _position(mine: frozenset[int], theirs: frozenset[int], analysed_to_move: bool) -> str:
    ranks = []
    for rank in range(3, -1, -1):
        row = "".join("U" if rank * 4 + f in mine else "u" if rank * 4 + f in theirs else "." for f in range(4))
        ranks.append(row)
    text = "/".join(ranks)
    for run in ("....", "...", "..", "."):
        text = text.replace(run, str(len(run)))
    return f"{text} {'1' if analysed_to_move else '2'}"


@pytest.mark.parametrize("rule", ["base", "extended"])
def test_value_equations_hold_with_core_moves(tables: MiniGeisterTables, rule: mg.Rule) -> None:
    """On a sample of placements, the value and distance agree with the successors ``core.geister`` generates."""
    placements = _placements()
    table = tables.table(rule)
    rng = random.Random(3)
    n = len(placements)
    for index in rng.sample(range(2 * n), 300):
        turn, rank = divmod(index, n)
        mine, theirs = placements[rank]
        value, distance = int(table.value[index]), int(table.distance[index])
        if distance == 1:
            continue  # terminal: checked against the definitions above
        state = GeisterState.from_position(_position(mine, theirs, turn == 0), "mini-geister")
        results = []
        for move in state.legal_moves():
            if move.dst is None or state.piece_at(move.dst) is not None:
                continue  # escapes and captures are the events, not moves of the analysis
            after = state.clone()
            after.push(move)
            found = tables.assess(after, Side.P1, rule)
            results.append((found.value, found.distance or 0))
        ones = [d for v, d in results if v == 1]
        minus = [d for v, d in results if v == -1]
        if turn == 0:
            if value == 1:
                assert min(ones) == distance - 1
            elif value == -1:
                assert len(minus) == len(results) and max(minus) == distance - 1
            else:
                assert not ones and len(minus) < len(results)
        else:
            if value == 1:
                assert len(ones) == len(results) and max(ones) == distance - 1
            elif value == -1:
                assert min(minus) == distance - 1
            else:
                assert not minus and len(ones) < len(results)


def _forces(start: GeisterState, limit: int, analysed: Side = Side.P1) -> bool:
    """Plain depth-limited search (no tables): can ``analysed`` force an escape attempt or a capture of both
    opponent pieces at random within ``limit`` plies, the opponent never stepping onto its exit first?"""

    def key(state: GeisterState) -> tuple[frozenset[int], frozenset[int], bool]:
        mine = frozenset(mg.MINI.index(sq) for sq, p in state.pieces() if p.side is analysed)
        theirs = frozenset(mg.MINI.index(sq) for sq, p in state.pieces() if p.side is not analysed)
        return mine, theirs, state.to_move is analysed

    exits = {12, 15} if analysed is Side.P1 else {0, 3}
    their_exits = {0, 3} if analysed is Side.P1 else {12, 15}

    @cache
    def forces(mine: frozenset[int], theirs: frozenset[int], my_turn: bool, depth: int) -> bool:
        if depth <= 0:
            return False
        if my_turn and (mine & exits or all(_neighbours(t) & mine for t in theirs)):
            return True
        if not my_turn and theirs & their_exits:
            return False
        movers, others = (mine, theirs) if my_turn else (theirs, mine)
        outcomes = []
        for square in movers:
            for target in _neighbours(square):
                if target in mine or target in theirs:
                    continue
                moved = (movers - {square}) | {target}
                after = (moved, others) if my_turn else (others, moved)
                outcomes.append(forces(after[0], after[1], not my_turn, depth - 1))
        return any(outcomes) if my_turn else bool(outcomes) and all(outcomes)

    return forces(*key(start), limit)


def test_plain_search_confirms_the_start_distances() -> None:
    start = GeisterState.from_position(START, "mini-geister")
    assert _forces(start, 13) and not _forces(start, 12)
    second = GeisterState.from_position("1uu1/4/4/1UU1 2", "mini-geister")
    assert _forces(second, 16) and not _forces(second, 15)


def test_plain_search_agrees_on_a_sample(tables: MiniGeisterTables) -> None:
    placements = _placements()
    n = len(placements)
    rng = random.Random(11)
    checked = 0
    for index in rng.sample(range(2 * n), 400):
        if tables.base.value[index] != 1 or tables.base.distance[index] > 7:
            continue
        turn, rank = divmod(index, n)
        state = GeisterState.from_position(_position(*placements[rank], turn == 0), "mini-geister")
        distance = int(tables.base.distance[index])
        assert _forces(state, distance) and not _forces(state, distance - 1)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("name", ["base", "extended", "perfect"])
def test_tables_are_mirror_symmetric(tables: MiniGeisterTables, name: str) -> None:
    table = getattr(tables, name)
    mirror = table.mirror_indices()
    assert not np.array_equal(mirror, np.arange(len(mirror)))
    assert np.array_equal(table.value[mirror], table.value)
    assert np.array_equal(table.distance[mirror], table.distance)


def test_perfect_information_table_is_symmetric_between_the_sides(tables: MiniGeisterTables) -> None:
    counts = tables.perfect.counts()
    assert sum(counts.values()) == 2 * 16 * 15 * 14 * 13 == 87360
    assert counts[1] == counts[-1]  # the game is the same for both sides: wins and losses pair up


@pytest.mark.parametrize("counts", [(2, 2), (1, 1, 1, 1), (1, 2, 2), (3, 2), (1, 1, 2, 1)])
def test_ranking_inverts_the_enumeration(counts: tuple[int, ...]) -> None:
    layout = Layout(counts)
    masks = layout.enumerate()
    assert len(masks) == layout.placements
    assert np.array_equal(layout.rank(masks), np.arange(layout.placements))
    assert all(np.array_equal(popcount(masks[:, j]), np.full(len(masks), k)) for j, k in enumerate(counts))
    union = np.bitwise_or.reduce(masks, axis=1)
    assert np.array_equal(popcount(union), np.full(len(masks), sum(counts)))  # kinds never share a square
    assert len(np.unique(masks, axis=0)) == layout.placements


# ---------------------------------------------------------------------------------------------- the API


def test_analyse_position_at_the_start(tables: MiniGeisterTables) -> None:
    analysis = analyse_position(START, tables=tables)
    assert analysis.analysed is Side.P1 and analysis.to_move is Side.P1
    assert analysis.base.to_json() == {"value": 1, "distance": 13}
    assert analysis.extended.to_json() == {"value": 1, "distance": 11}
    moves = {m.move.to_text(): m for m in analysis.moves}
    assert set(moves) == {"b1-b2", "b1-a1", "c1-c2", "c1-d1"}
    assert all(m.base == mg.Assessment(1, 12) for m in moves.values())
    assert moves["b1-b2"].extended == mg.Assessment(1, 10) and moves["b1-a1"].extended == mg.Assessment(1, 12)
    payload = analysis.to_json()
    assert payload["for"] == 1 and payload["position"] == START
    # Player 2 analysed while player 1 moves: the opponent moves first, 16 plies.
    assert analyse_position(START, Side.P2, tables).base.distance == 16
    # Colours in the text are ignored: the strategy never looks at them.
    assert analyse_position("1br1/4/4/1BR1 1", tables=tables).base == analysis.base


def test_analyse_position_names_the_events(tables: MiniGeisterTables) -> None:
    analysis = analyse_position("U3/1u2/2u1/U3 1", tables=tables)  # a4 may try to escape
    escape = next(m for m in analysis.moves if m.move.to_text() == "a4-out")
    assert escape.event == "escape" and escape.base == mg.Assessment(1, 0)
    assert analysis.base == mg.Assessment(1, 1)
    capture = analyse_position("4/4/uU2/Uu2 1", tables=tables)  # both opponent pieces in reach
    assert capture.base == mg.Assessment(1, 1)
    assert {m.event for m in capture.moves} >= {"capture", None}
    assert all(m.base is None for m in capture.moves if m.event == "capture")
    threat = analyse_position("4/4/u3/u1UU 2", Side.P1, tables)  # the opponent stands on a1
    assert threat.base == mg.Assessment(-1, 1)


@pytest.mark.parametrize(
    "position",
    ["1uuu/4/4/1UU1 1", "1uu1/4/4/1U2 1", "2u1/4/4/1UU1 1 u", "1uu1/4/4/1UX1 1", "1uuuu1/6/6/6/6/1UUUU1 1", "nonsense"],
)
def test_bad_positions_are_refused_clearly(tables: MiniGeisterTables, position: str) -> None:
    with pytest.raises(ValueError, match=r"\w") as info:
        analyse_position(position, tables=tables)
    assert isinstance(info.value, InvalidPositionError) or "expected" in str(info.value)


def test_solved_lines_have_the_papers_lengths(tables: MiniGeisterTables) -> None:
    cases: list[tuple[str, Side | None, mg.Rule, int]] = [
        (START, None, "base", 13),
        ("1uu1/4/4/1UU1 2", Side.P1, "base", 16),
        (START, None, "extended", 11),
    ]
    for position, analysed, rule, plies in cases:
        line = solved_line(position, analysed, rule, tables)
        assert len(line) == plies
        assert [step.distance for step in line] == list(range(plies, 0, -1))
        assert line[-1].event in ("escape", "capture", "guess")
        assert all(step.event is None for step in line[:-1])
        assert line[-1].side is Side.P1  # the analysed side makes the deciding move
        state = GeisterState.from_position(position, "mini-geister")
        for step in line:
            assert step.side is state.to_move
            if step.move is not None:
                state.push(step.move)  # every move is legal in the rules engine
        assert state.ply == plies or line[-1].move is None


def test_solved_line_for_the_opponent_and_undecided_positions(tables: MiniGeisterTables) -> None:
    line = solved_line("4/4/2u1/u1UU 2", Side.P1, "base", tables)  # the opponent escapes from a1 at once
    assert [(s.to_text(), s.event) for s in line] == [("a1-out", "escape")]
    undecided = next(i for i in range(PLACEMENTS) if tables.base.value[i] == 0 and i < PLACEMENTS // 2)
    mine, theirs = _placements()[undecided]
    with pytest.raises(ValueError, match="never end"):
        solved_line(_position(mine, theirs, True), Side.P1, "base", tables)


def test_equilibrium_moves(tables: MiniGeisterTables) -> None:
    assert {m.to_text() for m in equilibrium_moves(START, tables=tables)} == {"b1-b2", "b1-a1", "c1-c2", "c1-d1"}
    assert {m.to_text() for m in equilibrium_moves(START, rule="extended", tables=tables)} == {"b1-b2", "c1-c2"}
    assert [m.to_text() for m in equilibrium_moves("U3/1u2/2u1/U3 1", tables=tables)] == ["a4-out"]
    captures = equilibrium_moves("4/4/uU2/Uu2 1", tables=tables)
    assert {m.to_text() for m in captures} == {"b2-a2", "a1-b1"} or len({m.dst for m in captures}) == 2
    # The opponent's best replies, by player 1's table: player 2 moves first, and every move keeps 16 plies -> 15.
    replies = equilibrium_moves("1uu1/4/4/1UU1 2", Side.P1, "base", tables)
    assert len(replies) == 4 and all(m.src.rank == 3 for m in replies)
    # Player 1 to move, judged by player 2's table: the moves that delay player 2's event longest.
    assert {m.to_text() for m in equilibrium_moves(START, Side.P2, "base", tables)} == {
        "b1-b2",
        "b1-a1",
        "c1-c2",
        "c1-d1",
    }


def test_perfect_information_values(store: TableStore) -> None:
    """Values for the side to move, colours known."""
    assert perfect_information_value("B1r1/1b2/4/2R1 1", store) == mg.Assessment(1, 1)  # player 1 escapes from a4
    assert perfect_information_value("1Br1/1b2/4/2R1 2", store) == mg.Assessment(1, 1)  # b3 takes the only blue
    assert perfect_information_value("B1r1/4/4/b1R1 2", store) == mg.Assessment(1, 1)  # player 2 escapes first
    assert perfect_information_value("B1r1/4/4/b1R1 1", store) == mg.Assessment(1, 1)  # player 1 is faster
    start = perfect_information_value("1br1/4/4/1BR1 1", store)
    assert start == perfect_information_value("1br1/4/4/1BR1 2", store)  # the same position, sides swapped
    three = perfect_information_value("1br1/4/R3/1BR1 1", store)  # 3 vs 2 (red-red-blue) works too
    assert three.value in (-1, 0, 1)
    with pytest.raises(InvalidPositionError, match="colour"):
        perfect_information_value(START, store)


def test_cache_round_trip_and_corruption(tmp_path: Path) -> None:
    built = MiniGeisterTables.load()
    assert set(built.sources.values()) == {"built"}
    again = MiniGeisterTables.load()
    assert set(again.sources.values()) == {"cache"}
    assert np.array_equal(again.base.value, built.base.value)
    files = sorted((tmp_path / "cache").glob("mini-geister-colourless-*.npz"))
    assert files
    for file in files:
        file.write_bytes(file.read_bytes()[:100])
    repaired = MiniGeisterTables.load()
    assert repaired.base.source.startswith("rebuilt") and repaired.extended.source.startswith("rebuilt")
    assert repaired.counts("base")[1] == BASE_VALUE_1
    fresh = MiniGeisterTables.load(use_cache=False)
    assert fresh.base.source == "built"


def test_progress_is_reported_while_solving() -> None:
    seen: list[tuple[str, float]] = []
    MiniGeisterTables.load(use_cache=False, progress=lambda what, fraction: seen.append((what, fraction)))
    assert seen and all(0 <= fraction <= 1 for _, fraction in seen)
    assert any("perfect information" in what for what, _ in seen) and any("colourless" in what for what, _ in seen)


# ---------------------------------------------------------------------------------------------- the command line


def _run(*argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="nashplay")
    commands = parser.add_subparsers(dest="command")
    solve = commands.add_parser("solve")
    solvers = solve.add_subparsers(dest="solver", required=True)
    solve_mini_geister.add_commands(solvers)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            args = parser.parse_args(["solve", *argv])
            assert HANDLERS[args.solver] is solve_mini_geister.run
            code = solve_mini_geister.run(args, parser)
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_cli_json_reports_the_figures() -> None:
    code, out, _ = _run("mini-geister", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["rule"] == "base" and result["placements"] == PLACEMENTS
    assert result["values"]["1"] == BASE_VALUE_1
    assert result["distances"] == {str(d): n for d, n in TABLE_1.items()}
    assert result["initial"] == {"moves_first": 13, "moves_second": 16}
    code, out, _ = _run("mini-geister", "--rule", "extended", "--json")
    extended = json.loads(out)
    assert extended["values"]["1"] == EXTENDED_VALUE_1 and extended["values"]["0"] == EXTENDED_VALUE_0
    assert extended["initial"]["moves_first"] == 11


def test_cli_text_shows_table_1() -> None:
    code, out, _ = _run("mini-geister")
    assert code == 0
    assert "12,339" in out and "3749" in out and "13 plies when the analysed side moves first, 16" in out


def test_cli_position() -> None:
    code, out, _ = _run("mini-geister", "--position", START, "--json")
    assert code == 0
    result = json.loads(out)
    assert result["base"] == {"value": 1, "distance": 13} and result["extended"] == {"value": 1, "distance": 11}
    assert {m["move"] for m in result["moves"]} == {"b1-b2", "b1-a1", "c1-c2", "c1-d1"}
    code, out, _ = _run("mini-geister", "--position", START, "--for", "2", "--json")
    assert json.loads(out)["base"]["distance"] == 16
    code, out, _ = _run("mini-geister", "--position", START)
    assert code == 0 and "b1-b2" in out and "13 plies" in out


@pytest.mark.parametrize("bad", ["1uuu/4/4/1UU1 1", "1uu1/4/4/1UZ1 1", "1uu1/4/4/1UU1"])
def test_cli_bad_position_is_one_line(bad: str) -> None:
    code, out, err = _run("mini-geister", "--position", bad)
    assert code == 2 and not out
    assert err.startswith("nashplay solve mini-geister: error: --position:") and err.count("\n") == 1
    assert "Traceback" not in err


def test_cli_for_needs_position() -> None:
    code, _, err = _run("mini-geister", "--for", "2")
    assert code == 2 and "--for needs --position" in err


def test_cli_three_vs_two() -> None:
    code, out, _ = _run("mini-geister-3v2", "--colours", "rrb", "--json")
    assert code == 0
    (result,) = json.loads(out)["results"]
    assert result["colours"] == "rrb"
    starts = [(a["initial"]["moves_first"]["value"], a["initial"]["moves_second"]["value"]) for a in result["analyses"]]
    assert starts == [(0, 0), (1, 1)]
    assert all(a["secured"] for a in result["analyses"])
