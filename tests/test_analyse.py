"""``nashplay analyse`` (issue 16): the advice on one position, headless, for every game.

Expected values come from the rules (``core``), the project's own solvers reached another way than the adviser
reaches them, or a small search written here; never from stored solver output. Geister's search runs to a fixed depth
(the same answer on any machine).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import refused
from interrupt import interrupt_when
from waiting import HANG_SECONDS

from core.footstep import FootstepPosition
from core.game import Side
from core.geister import GeisterState
from core.notation import Square
from core.tcg import TcgAction, resolve_round
from tui.cli import main

VENV_BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent

#: Player 1's blue on a6 (its exit); player 2's last blue hides among three pieces; every piece accounted for.
BLUE_ON_EXIT = "B4u/6/2uu2/6/6/1RRR2 1 BBBRbbbrr 30"
#: Player 2's piece on a1 (its exit), player 1's red on b1 next to it; both sides complete, nothing captured.
THEIRS_ON_EXIT = "1uuuu1/1uuu2/6/6/1BRRB1/uRBBR1 1 - 10"


def analyse(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``nashplay analyse ... --json``: exactly one JSON object on one line of stdout, nothing on stderr."""
    assert main(["analyse", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("\n") == 1 and out.endswith("\n"), out[:300]
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


# --------------------------------------------------------------------------------------------------- Geister


def test_geister_our_blue_on_its_exit_escapes_first_a_win_in_one(capsys: pytest.CaptureFixture[str]) -> None:
    state = GeisterState.from_position(BLUE_ON_EXIT, "geister")
    escapes = [move for move in state.legal_moves() if move.dst is None]
    assert len(escapes) == 1
    after = state.clone()
    after.push(escapes[0])
    outcome = after.outcome()
    assert outcome is not None and outcome.winner is Side.P1  # the rules say: an escape wins at once

    advice = analyse(["geister", "--position", BLUE_ON_EXIT, "--depth", "2", "--seed", "1"], capsys)
    assert advice["best"] == escapes[0].to_text() == "a6-out"
    assert (advice["result"], advice["in"]) == ("win", 1)
    first = advice["moves"][0]
    assert first["move"] == "a6-out" and first["forced"].startswith("escapes") and first["in"] == 1
    assert advice["exact"] is False and advice["player"] == 1


def test_geister_their_piece_on_its_exit_is_captured_first(capsys: pytest.CaptureFixture[str]) -> None:
    state = GeisterState.from_position(THEIRS_ON_EXIT, "geister")
    exit_square = Square.parse("a1")
    assert exit_square in state.variant.exits[Side.P2]
    captures = [move.to_text() for move in state.legal_moves() if move.dst == exit_square]
    assert captures == ["b1-a1"]

    advice = analyse(["geister", "--position", THEIRS_ON_EXIT, "--depth", "2", "--seed", "1"], capsys)
    first = advice["moves"][0]
    assert first["move"] == "b1-a1" and "stops an escape" in first["forced"]
    assert advice["best"] == "b1-a1"
    assert set(advice["blue"]) == {str(square) for square, piece in state.pieces() if piece.side is Side.P2}


def test_geister_plain_output_says_the_forced_result_first_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "geister", "--position", BLUE_ON_EXIT, "--depth", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "  a6-out: escapes now: a win"
    assert lines[2] == "Suggested: a6-out"
    assert "proven win in 1 ply" in lines[3]


# --------------------------------------------------------------------------------------------------- Mini-Geister


@cache
def two_vs_two() -> Any:
    from solvers.mini_geister.analysis import MiniGeisterTables

    return MiniGeisterTables.load()


def analyse_text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``nashplay analyse ...``'s plain output."""
    assert main(["analyse", *argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


@pytest.mark.parametrize("position", ["1uu1/4/4/1UU1 1", "1uu1/4/4/1UU1 2", "1uu1/4/4/1BR1 1"])
def test_mini_geister_start_is_worth_0_each_side_forcing_a_coin_flip(
    position: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The start's value is the game's equilibrium value, 0, not the tables' +1 ("the side can force its event": a
    coin flip over colours, worth 0 on average): the mover forces one in the paper's 13 plies, and so does the other
    side, in its 16 (it moves second)."""
    tables = two_vs_two()
    first, second = tables.initial_distances("base")
    extended, _ = tables.initial_distances("extended")
    advice = analyse(["mini-geister", "--position", position], capsys)
    assert advice["value"] == 0 and advice["exact"] is True and "result" not in advice
    assert advice["scale"] == "expected" and advice["bounds"] == [0, 0]
    assert advice["player"] == int(position[-1])
    assert advice["base"] == {"value": first.value, "distance": first.distance} == {"value": 1, "distance": 13}
    assert advice["extended"] == {"value": extended.value, "distance": extended.distance}
    assert advice["opponent"]["base"] == {"value": second.value, "distance": second.distance}
    assert second.distance == 16
    assert [move["value"] for move in advice["moves"]] == [0] * len(advice["moves"])  # every first move keeps it
    mix = [move["probability"] for move in advice["moves"] if "probability" in move]
    assert mix and sum(mix) == pytest.approx(1.0)
    assert advice["best"] == advice["moves"][0]["move"]
    # In plain words: what each side can force, no table jargon.
    text = " ".join(analyse_text(["mini-geister", "--position", position], capsys).split())
    assert "You can force a coin flip" in text and "in 13 plies" in text
    assert "Your opponent can force a coin flip" in text and "in 16 plies" in text
    assert "Value 0, exact" in text
    assert "forces its event" not in text and "section" not in text and "+1" not in text


def test_mini_geister_each_move_is_the_table_of_the_position_after_it(capsys: pytest.CaptureFixture[str]) -> None:
    tables = two_vs_two()
    position = "1uu1/4/4/1BR1 1"
    advice = analyse(["mini-geister", "--position", position], capsys)
    for entry in advice["tables"]:
        after = GeisterState.from_position(position, "mini-geister")
        after.push_text(entry["move"])
        found = tables.assess(after, Side.P1, "base")
        assert entry["base"] == {"value": found.value, "distance": found.distance}


def test_mini_geister_our_blue_escapes_before_anything(capsys: pytest.CaptureFixture[str]) -> None:
    advice = analyse(["mini-geister", "--position", "B2u/4/1u2/2R1 1"], capsys)
    assert advice["best"] == "a4-out" and (advice["result"], advice["in"]) == ("win", 1)
    assert advice["moves"][0]["forced"] == "escapes now: a win"
    # A red piece on its exit never tries: the colourless tables' escape attempt is not offered.
    red = analyse(["mini-geister", "--position", "R2u/4/1u2/2B1 1"], capsys)
    assert "a4-out" not in {move["move"] for move in red["moves"]}


# The section-6 tables take a second to build: the run's shared cache (the Mini-Geister advice tests build them too).
@pytest.mark.usefixtures("use_shared_solved_tables")
@pytest.mark.parametrize(
    ("game", "position", "colours", "section"),
    [
        ("mini-geister-3v2-rbb", "1uu1/4/1U2/1UU1 1", "rbb", "6.2.1"),
        ("mini-geister-2v3-rrb", "1uu1/1u2/4/1UU1 1", "rrb", "6.1.2"),
        ("mini-geister-3v2-rrb", "1uu1/4/1R2/1RB1 1", "rrb", "6.1.1"),
        ("mini-geister-2v3-rbb", "1uu1/1u2/4/1UU1 1", "rbb", "6.2.2"),
    ],
)
def test_three_vs_two_start_is_section_six(
    game: str, position: str, colours: str, section: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from solvers.mini_geister.analysis import default_store
    from solvers.mini_geister.three_vs_two import three_vs_two

    analyses = three_vs_two("rrb" if colours == "rrb" else "rbb", store=default_store()).analyses
    expected = next(a for a in analyses if a.section == section)  # the side's first: the strategy that secures
    other = next(a for a in analyses if a.three_piece_side != expected.three_piece_side and not a.designated)
    moving_first = expected.initial[0]
    advice = analyse([game, "--position", position], capsys)
    assert advice["section"] == section and advice["scale"] == "expected"
    assert advice["table"] == {"value": moving_first.value, "distance": moving_first.distance}
    assert advice["target"] == str(expected.spec.target)
    # The value lies between what the player's strategy secures and what the opponent's (moving second) leaves it.
    low = guaranteed(moving_first.value, expected.spec.target)
    high = -guaranteed(other.initial[1].value, other.spec.target)
    assert advice["bounds"] == [float(low), float(high)] and advice["exact"] is (low == high)
    assert advice["value"] == pytest.approx(float(low + high) / 2)
    # The paper's section 6: red-red-blue is worth 0; red-blue-blue between 1/3 and 1/2 to its side.
    paper = {"rrb": (0, 0), "rbb": (Fraction(1, 3), Fraction(1, 2))}[colours]
    assert (low, high) == (paper if expected.three_piece_side else (-paper[1], -paper[0]))
    if section == "6.1.1":
        assert advice["kept_red"] == "b2"  # the paper's strategy keeps b2's red apart


def guaranteed(value: int, target: Fraction) -> Fraction:
    """What a side's table value guarantees it (the paper's sections 5 and 6): its target where it forces its event,
    endless play's 0 (or a lower target) where neither side can, nothing (a loss) where the opponent forces."""
    return target if value == 1 else min(Fraction(0), target) if value == 0 else Fraction(-1)


def test_three_vs_two_over_after_a_capture_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(["analyse", "mini-geister-3v2-rrb", "--position", "1u2/4/1R2/1RB1 1 b"], capsys)
    assert "over" in err


#: A red-blue-blue game after player 2 took a blue: past the section-6 tables (they end at the first capture).
PAST_THE_TABLES = "4/1u1u/BR2/4 1 B 14"


@pytest.mark.usefixtures("use_shared_solved_tables")
def test_three_vs_two_past_the_tables_is_searched(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's "the tables do not cover this position": the search advises instead, to a fixed depth and seed
    (the same answer each time), says so, and claims nothing exact."""
    from solvers.advice.mini_geister import SEARCH_DEPTH

    advice = analyse(["mini-geister-3v2-rbb", "--position", PAST_THE_TABLES], capsys)
    assert advice["exact"] is False and advice["searched"] is True and advice["depth"] == SEARCH_DEPTH
    assert advice["scale"] == "expected" and -1 <= advice["value"] <= 1
    state = GeisterState.from_position(PAST_THE_TABLES, "mini-geister-3v2-rbb")
    assert {move["move"] for move in advice["moves"]} == {move.to_text() for move in state.legal_moves()}
    assert advice["best"] == advice["moves"][0]["move"]
    valued = [move["value"] for move in advice["moves"] if move["value"] is not None]
    assert advice["value"] == max(valued)  # the suggestion is never ranked below another
    assert analyse(["mini-geister-3v2-rbb", "--position", PAST_THE_TABLES], capsys) == advice
    text = analyse_text(["mini-geister-3v2-rbb", "--position", PAST_THE_TABLES], capsys)
    assert "searched to depth" in text and "not proven" in text and "a search's estimate" in text


# --------------------------------------------------------------------------------------------------- TCG


def test_tcg_state_0_1_is_the_sources_table(capsys: pytest.CaptureFixture[str]) -> None:
    from solvers.tcg import ACTIONS, load_solution

    solution = load_solution(3)[0]
    exact = solution.advice(0, 1)
    for player, mix, printed in ((1, exact.p1, [0.65, 0, 0.35, 0]), (2, exact.p2, [0.65, 0.35, 0, 0])):
        advice = analyse(["tcg", "--n", "3", "--position", "0,1", "--for", str(player)], capsys)
        found = {move["move"]: move["probability"] for move in advice["moves"]}
        assert [round(found[a.value], 2) for a in ACTIONS] == printed  # the README's and the source's row
        assert [found[a.value] for a in ACTIONS] == [float(p) for p in mix]
        assert advice["best"] == "c" and advice["player"] == player
        win = solution.value(0, 1)
        assert advice["value"] == pytest.approx(win if player == 1 else 1 - win)
        assert "result" not in advice


def test_tcg_a_strong_attack_against_nothing_wins_in_one_round(capsys: pytest.CaptureFixture[str]) -> None:
    # By the rules: at (3, 0) player 1's strong attack wins whatever player 2 does.
    for reply in TcgAction:
        outcome = resolve_round(3, (3, 0), (TcgAction.STRONG_ATTACK, reply)).outcome
        assert outcome is not None and outcome.winner is Side.P1
    winner = analyse(["tcg", "--position", "3,0"], capsys)
    assert (winner["best"], winner["result"], winner["in"]) == ("s", "win", 1)
    loser = analyse(["tcg", "--position", "3,0", "--for", "2"], capsys)
    assert (loser["result"], loser["in"], loser["value"]) == ("loss", 1, 0.0)


# --------------------------------------------------------------------------------------------------- Footstep


def test_footstep_mix_sums_to_one_and_the_value_is_the_solvers(capsys: pytest.CaptureFixture[str]) -> None:
    from solvers.footstep import load_solution

    solution = load_solution(20, 3)[0]
    for state, player in (("20,20,0", 1), ("12,9,1", 2), ("7,15,-1", 1)):
        advice = analyse(["footstep", "--n", "20", "--k", "3", "--position", state, "--for", str(player)], capsys)
        assert sum(move["probability"] for move in advice["moves"]) == pytest.approx(1.0)
        position = FootstepPosition(*(int(x) for x in state.split(",")))
        assert advice["value"] == pytest.approx(solution.value(position, Side.from_number(player)), abs=1e-12)
        mix = solution.mix(position, Side.from_number(player))
        assert advice["best"] == str(max(sorted(mix), key=lambda bid: mix[bid]))


def test_footstep_a_sure_goal_counts_its_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    # Player 2 holds 2 points: a bid of 3 wins every round, and the marker needs 3 steps, one a round at most.
    advice = analyse(["footstep", "--n", "20", "--k", "3", "--position", "20,2,0"], capsys)
    assert (advice["best"], advice["result"], advice["in"], advice["value"]) == ("3", "win", 3, 2.0)


# --------------------------------------------------------------------------------------------------- Nim


@cache
def nim_wins(heaps: tuple[int, ...]) -> bool:
    """Plain game-tree search of normal-play Nim: the player to move wins iff some move leaves a lost position."""
    return any(not nim_wins(after) for _, after in nim_moves(heaps))


def nim_moves(heaps: tuple[int, ...]) -> list[tuple[str, tuple[int, ...]]]:
    return [
        (f"{index + 1}:{take}", tuple(sorted((*heaps[:index], size - take, *heaps[index + 1 :]))))
        for index, size in enumerate(heaps)
        for take in range(1, size + 1)
    ]


@cache
def nim_remoteness(heaps: tuple[int, ...]) -> int:
    """Moves left with the winner hurrying and the loser dragging it out."""
    children = [after for _, after in nim_moves(heaps)]
    if not children:
        return 0
    if nim_wins(heaps):
        return 1 + min(nim_remoteness(c) for c in children if not nim_wins(c))
    return 1 + max(nim_remoteness(c) for c in children)


def test_nim_winning_moves_are_the_game_trees(capsys: pytest.CaptureFixture[str]) -> None:
    heaps = (3, 4, 5)
    expected = {move for move, after in nim_moves(heaps) if not nim_wins(after)}
    advice = analyse(["nim", "--position", "3,4,5"], capsys)
    assert {move["move"] for move in advice["moves"]} == expected
    assert all(move["result"] == "win" for move in advice["moves"])
    assert advice["result"] == "win" and advice["best"] in expected


def test_nim_a_lost_position_holds_out_longest(capsys: pytest.CaptureFixture[str]) -> None:
    heaps = (1, 2, 3)
    assert not nim_wins(heaps)
    advice = analyse(["nim", "--position", "1,2,3"], capsys)
    assert (advice["result"], advice["in"]) == ("loss", nim_remoteness(heaps))


# --------------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "argv",
    [
        ["geister", "--position", "1uuuu1/1uuuu1/6/6/1UUUU1/1RBBR1 1"],  # the side to move hides its own colours
        ["geister", "--position", "1uuuu1/1uuu2/6/6/1BRRB1/1RBBR1 1"],  # a piece missing, not listed as captured
        ["geister", "--position", "1uuuu1/1uuuu1/6/6/1BRRB1/1RBBR1 3"],
        ["geister", "--position", "99999999999/4/4/4 1"],
        ["geister", "--position", "9" * 5000],
        ["geister", "--position", "1uu1/4/4/1BR1 1"],  # a Mini-Geister board
        ["mini-geister", "--position", "1uu1/4/4/1BR1 1 b"],  # over: player 2's blue was captured
        ["mini-geister", "--position", "1u2/4/4/1BR1 1 r"],  # after a capture: no table
        ["mini-geister-3v2-rrb", "--position", "1uu1/4/4/1BR1 1"],
        ["mini-geister-3v2-rbb", "--position", "4/1u1u/UU2/4 1 B 14"],  # past the tables: the search needs colours
        ["tcg", "--position", "5,1"],
        ["tcg", "--position", "9" * 5000 + ",1"],
        ["tcg", "--position", "a,b"],
        ["footstep", "--position", "1,1,9", "--n", "20", "--k", "3"],
        ["footstep", "--position", "0,0,1", "--n", "20", "--k", "3"],  # both out of points: over
        ["nim", "--position", "0,0"],
        ["nim", "--position", "3,x"],
        ["nim", "--position", "9" * 5000],
        ["nim", "--position", "200000"],
        ["nim", "--position", ",".join(["1"] * 101)],
        ["nim", "--position", "3,4", "--rule", "nonsense"],
    ],
)
def test_bad_positions_are_refused_in_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert "--position" in refused(["analyse", *argv], capsys) or "--rule" in argv


ABSURD = ("nan", "inf", "-1", "0", "1e12", "9" * 5000, "", "abc")


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["geister", "--position", BLUE_ON_EXIT], "--time"),
        (["geister", "--position", BLUE_ON_EXIT], "--depth"),
        (["geister", "--position", BLUE_ON_EXIT], "--seed"),
        (["tcg"], "--n"),
        (["footstep"], "--n"),
        (["footstep"], "--k"),
    ],
)
def test_absurd_numbers_are_refused_in_one_line(
    command: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for value in ABSURD:
        if option == "--seed" and value == "0":
            continue  # a seed of 0 is a seed
        assert option in refused(["analyse", *command, f"{option}={value}"], capsys)
    assert "--depth" in refused(["analyse", "geister", "--position", BLUE_ON_EXIT, "--depth", "11"], capsys)


def test_options_of_other_games_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["analyse", "mini-geister", "--position", "1uu1/4/4/1BR1 1", "--for", "2"])
    assert info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


# --------------------------------------------------------------------------------------------------- start-up


def test_analyse_help_loads_no_numpy() -> None:
    script = (
        "import json, sys\n"
        "from tui.cli import main\n"
        "for game in ('geister', 'mini-geister', 'tcg', 'footstep', 'nim'):\n"
        "    for argv in (['analyse', '--help'], ['analyse', game, '--help']):\n"
        "        try:\n"
        "            main(argv)\n"
        "        except SystemExit:\n"
        "            pass\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert not loaded & {"numpy", "scipy", "numba"}, sorted(loaded & {"numpy", "scipy", "numba"})


def test_sigint_during_a_geister_search_exits_130_in_one_line() -> None:
    """A minute's search stopped by SIGINT once its progress line shows (so mid-search, not mid-import): exit 130,
    one line, no traceback, nothing on stdout."""
    start = "1uuuu1/1uuuu1/6/6/1BRRB1/1RBBR1 1"
    result = interrupt_when(["analyse", "geister", "--position", start, "--time", "60"], b"searching:")
    assert result.returncode == 130, result.err
    assert "nashplay: interrupted" in result.err and "Traceback" not in result.err
    assert result.out == ""
