"""Solved lines of every solved game (issue 17): ``nashplay replay --solved tcg|footstep|nim|mini-geister-3v2-...``.

Every figure is derived from the solvers here: the mixes and values each round are the equilibrium's at the state,
the Nim winner's moves go to Grundy value 0 with the moves left dropping by one to 0, and the 3-vs-2 lines count the
section-6 tables' distance down to the event. Also: ``--list``/``--json``, the one-line refusals, and ``replay FILE
--list`` for records of the games outside the Geister family.
"""

from __future__ import annotations

import json
from functools import reduce
from operator import xor
from pathlib import Path
from typing import Any

import pytest

from core.footstep import FootstepPosition, FootstepState
from core.game import Side
from core.impartial import HeapGameState, parse_rule
from core.record import Record
from core.tcg import TcgState
from solvers.footstep import load_solution as footstep_solution
from solvers.grundy import GrundyTable, analyse
from solvers.lines import GameLine
from solvers.lines.nim import nim_line
from solvers.lines.simultaneous import footstep_line, tcg_line
from solvers.lines.three_vs_two import GAMES, three_vs_two_line
from solvers.mini_geister.analysis import default_store
from solvers.mini_geister.three_vs_two import three_vs_two
from solvers.tcg import ACTIONS
from solvers.tcg import load_solution as tcg_solution
from tui.cli import main
from tui.cli.replay import THREE_VS_TWO


def not_called(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the app was opened")


def lines_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    assert main(["replay", "--solved", *argv, "--list", "--json"]) == 0
    lines: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["lines"]
    return lines


def replayed(line: GameLine) -> list[str]:
    """The states of the line's record, read back from its text: before each step, and the last."""
    states = Record.parse(line.record.to_text()).replay_states()
    return [str(getattr(s, "state_text", None) or getattr(s, "heaps_text", "")) for s in states]


# --------------------------------------------------------------------------------------------------- TCG


def check_rounds(line: GameLine) -> None:
    """Each round's state, value and both mixes are the solver's (the record replays through the same states)."""
    solution = tcg_solution(line.data["n"])[0]
    for step, before in zip(line.figures, replayed(line), strict=False):
        assert step.state == before
        i1, i2 = (int(x) for x in before.split(","))
        advice = solution.advice(i1, i2)
        assert step.data["value"] == pytest.approx(solution.value(i1, i2), abs=1e-12)
        for key, mix in (("p1", advice.p1), ("p2", advice.p2)):
            shown = step.data[key]
            assert isinstance(shown, dict)
            assert [shown[a.value] for a in ACTIONS] == pytest.approx(list(mix), abs=1e-12)


def test_the_tcg_likeliest_line_shows_the_equilibrium_at_each_state() -> None:
    solution = tcg_solution(3)[0]
    line = tcg_line(3)
    assert line.plies == len(line.figures) == len(line.record.moves) > 0
    check_rounds(line)
    for step in line.figures:
        advice = solution.advice(*(int(x) for x in step.state.split(",")))
        # Each player's likeliest action, the first in c a d s order on a tie.
        picked = [max(range(4), key=lambda i, m=mix: (round(m[i], 9), -i)) for mix in (advice.p1, advice.p2)]
        assert step.move == ACTIONS[picked[0]].value + ACTIONS[picked[1]].value
        assert step.data["chance"] == pytest.approx(advice.p1[picked[0]] * advice.p2[picked[1]])
    # The countdown: steps left in the line, to 1 on the last.
    assert [step.left for step in line.figures] == list(range(line.plies, 0, -1))
    # The likeliest play of a Markov game is deterministic: it ends, or comes back to a state and says so.
    final = TcgState(3)
    for step in line.figures:
        final.apply_joint(final.parse_action(step.move))
    if final.is_terminal():
        assert line.record.result != "*"
    else:
        assert final.state_text in [step.state for step in line.figures]
        assert "for ever" in line.ending and line.record.tags["Termination"] == line.ending


def test_a_sampled_tcg_line_is_reproducible_and_ends_or_says_why_not() -> None:
    solution = tcg_solution(3)[0]
    for seed in (1, 2, 3):
        line = tcg_line(3, seed)
        again = tcg_line(3, seed)
        assert [s.move for s in line.figures] == [s.move for s in again.figures]
        check_rounds(line)
        state = TcgState(3)
        for step in line.figures:
            advice = solution.advice(*state.points)
            a1, a2 = state.parse_action(step.move)
            chance = advice.p1[ACTIONS.index(a1)] * advice.p2[ACTIONS.index(a2)]
            assert chance > 0 and step.data["chance"] == pytest.approx(chance)  # drawn from the mixes
            state.apply_joint((a1, a2))
        assert state.is_terminal() or "cut at" in line.ending or "for ever" in line.ending
        if state.is_terminal():
            assert line.ending == str(state.outcome()) and line.record.result == state.outcome().result_text
    cut = tcg_line(3, 1, bound=1)  # the first round (both charge, for sure) never ends the game
    assert cut.plies == 1 and cut.ending == "cut at 1 round: the game goes on"
    assert cut.record.result == "*" and cut.record.tags["Termination"] == cut.ending
    # At n = 1 every mix on the way is pure: a drawn line goes round for ever too, and says so.
    assert "for ever" in tcg_line(1, 5).ending


# --------------------------------------------------------------------------------------------------- Footstep


@pytest.mark.parametrize("seed", [None, 4])
def test_footstep_lines_show_both_mixes_and_the_value(seed: int | None) -> None:
    n, k = 8, 2
    solution = footstep_solution(n, k)[0]
    line = footstep_line(n, k, seed)
    state = FootstepState(n, k)
    for step in line.figures:
        position = FootstepPosition(*(int(x) for x in step.state.split(",")))
        assert position == state.position
        assert step.data["value"] == pytest.approx(solution.value(position), abs=1e-9)
        mixes = [solution.mix(position, side) for side in Side]
        assert [step.data["p1"], step.data["p2"]] == [{str(b): p for b, p in sorted(m.items())} for m in mixes]
        bids = state.parse_action(step.move)
        if seed is None:  # each player's likeliest bid, the lowest on a tie
            assert list(bids) == [min(m, key=lambda b, m=m: (-round(m[b], 9), b)) for m in mixes]
        assert all(m.get(b, 0) > 0 for m, b in zip(mixes, bids, strict=True))
        state.apply_joint(bids)
    assert state.is_terminal(), "every round costs a point: a Footstep line always ends"
    assert line.ending == str(state.outcome()) and replayed(line)[-1] == state.state_text


# --------------------------------------------------------------------------------------------------- Nim


@pytest.mark.parametrize(
    ("heaps", "rule", "misere"),
    [((3, 4, 5), "nim", False), ((1, 2, 3), "nim", False), ((3, 4, 5), "nim", True), ((5, 7), "kayles", False)],
)
def test_the_nim_line_hurries_the_winner_and_counts_down(heaps: tuple[int, ...], rule: str, misere: bool) -> None:
    game = parse_rule(rule)
    line = nim_line(heaps, game, misere)
    start = analyse(heaps, game, misere)
    winner = Side.P1 if start.first_player_wins else Side.P2
    assert line.analysed is winner and line.record.result == ("1-0" if winner is Side.P1 else "0-1")
    table = GrundyTable.build(game, max(heaps) + 1)
    state = HeapGameState(heaps, game, misere)
    for step in line.figures:
        assert step.state == state.heaps_text
        mover = state.to_move
        before = analyse(state.heaps, game, misere)
        state.apply(state.parse_action(step.move))
        after = analyse(state.heaps, game, misere) if not state.is_terminal() else None
        if mover is winner:
            assert before.first_player_wins and (after is None or not after.first_player_wins)
            if not misere:  # normal play: to Grundy value 0
                assert reduce(xor, (table(h) for h in state.heaps), 0) == 0 == step.data["nim_sum"]
        else:
            assert not before.first_player_wins
            if before.remoteness is not None:  # the solver's longest losing line
                assert step.left == before.remoteness
    # The moves left drop by exactly one a move, to 0 at the end.
    assert [s.left for s in line.figures] == list(range(line.plies, 0, -1))
    assert [s.data["left_after"] for s in line.figures] == list(range(line.plies - 1, -1, -1))
    assert state.is_terminal() and state.outcome() is not None and state.outcome().winner is winner


def test_nim_lines_refuse_heaps_too_big_and_finished_games() -> None:
    with pytest.raises(ValueError, match="too big for an exact line"):
        nim_line((30, 40, 50), parse_rule("nim"), limit=5_000)
    with pytest.raises(ValueError, match="the game is over"):
        nim_line((0, 0), parse_rule("nim"))


# --------------------------------------------------------------------------------------------------- 3 vs 2


@pytest.mark.parametrize("game", GAMES)
def test_the_3v2_lines_count_the_tables_distance_down_to_the_event(game: str) -> None:
    assert game in THREE_VS_TWO
    line = three_vs_two_line(game)
    # From the start the section-6 analysis says how long it takes (player 1 moves first: the analysed side moves
    # first when it is player 1).
    colours = "rrb" if game.endswith("rrb") else "rbb"
    three_piece = Side.P1 if "3v2" in game else Side.P2
    analysis = next(
        a
        for a in three_vs_two(colours, store=default_store()).analyses
        if a.three_piece_side == (line.analysed is three_piece) and not a.designated
    )
    first, second = analysis.initial
    expected = first if line.analysed is Side.P1 else second
    assert expected.value == 1 and line.plies == expected.distance
    assert [d for _, _, d, _ in line.steps] == list(range(line.plies, 0, -1))
    *quiet, last = line.steps
    assert all(event is None for *_, event in quiet)
    assert last[3] in ("escape", "capture") and last[0] == str(line.analysed)
    states = Record.parse(line.record.to_text()).replay()
    assert len(states) == line.plies  # every ply but the event, whose outcome is a draw of the colours
    assert states[0].position(short=True) == line.position
    assert line.record.tags["Termination"].startswith(f"then {line.analysed} ")


def test_3v2_lines_for_a_side_that_cannot_force_its_event_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot force its event from the start"):
        three_vs_two_line("mini-geister-3v2-rrb", Side.P1)  # red-red-blue secures 0 only by endless play
    assert three_vs_two_line("mini-geister-3v2-rrb", Side.P2).analysed is Side.P2


# --------------------------------------------------------------------------------------------------- the CLI


def test_list_and_json_for_every_new_line(capsys: pytest.CaptureFixture[str]) -> None:
    (tcg,) = lines_json(capsys, "tcg", "--seed", "3")
    assert tcg["game"] == "tcg" and tcg["parameters"] == {"n": 3, "seed": 3} and tcg["line"] == "sampled"
    assert [m["distance"] for m in tcg["moves"]] == list(range(tcg["plies"], 0, -1))
    assert all({"p1", "p2", "value", "state", "chance"} <= set(m) for m in tcg["moves"])
    (footstep,) = lines_json(capsys, "footstep", "--n", "8", "--k", "2")
    assert footstep["parameters"] == {"n": 8, "k": 2, "seed": None} and footstep["position"] == "8,8,0"
    (nim,) = lines_json(capsys, "nim", "--heaps", "3,4,5")
    assert nim["plies"] == 11 and nim["moves"][-1]["left_after"] == 0 and nim["for"] == 1
    (three,) = lines_json(capsys, "mini-geister-3v2-rbb")
    assert three["plies"] == 13 and three["moves"][-1]["event"] == "escape" and three["rule"] == "section 6.2.1"
    assert main(["replay", "--solved", "nim", "--heaps", "1,2,3", "--rule", "{1,2,3}", "--misere", "--list"]) == 0
    out = capsys.readouterr().out
    assert "subtraction game {1,2,3} (misere play)" in out and "moves left" in out
    assert main(["replay", "--solved", "tcg", "--list"]) == 0
    out = capsys.readouterr().out
    assert "likeliest" in out and "P1 wins" in out and "for ever" in out


def test_without_list_the_line_opens_in_the_viewer(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[Any] = []
    monkeypatch.setattr("tui.cli.replay.open_app", lambda request, args: opened.append(request) or 0)
    assert main(["replay", "--solved", "nim", "--heaps", "2,3"]) == 0
    (request,) = opened
    assert request.kind == "replay" and request.record.tags["Game"] == "nim"
    assert request.replay_title.startswith("Solved line, 5 plies:")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--solved", "tcg", "--k", "3"], "--k is for --solved footstep lines, not --solved tcg"),
        (["--solved", "nim", "--n", "3"], "--n is for --solved tcg / footstep lines"),
        (["--solved", "footstep", "--heaps", "1,2"], "--heaps is for --solved nim lines"),
        (["--solved", "tcg", "--rule", "kayles"], "--rule is for --solved mini-geister / nim lines"),
        (["--solved", "mini-geister-3v2-rrb", "--seed", "1"], "--seed"),
        (["--solved", "tcg", "--for", "1"], "a 3-vs-2 variant"),
        (["--solved", "footstep", "--n", "150"], "--n for footstep: must be 1..100"),
        (["--solved", "nim", "--heaps", "3,x", "--list"], "--heaps for nim:"),
        (["--solved", "nim", "--rule", "bogus", "--list"], "--rule for nim:"),
        (["--solved", "nim", "--heaps", "0,0", "--list"], "the game is over"),
        (["--solved", "mini-geister", "--position", "1uu1/4/4/1UU1 1", "--rule", "kayles"], "base or extended"),
        (["--solved", "mini-geister-3v2-rrb", "--for", "1", "--list"], "cannot force its event"),
        (["--solved", "tcg", "--seed", "1", "--json"], "--json goes with --list"),
        (["record.ngr", "--seed", "3"], "--seed is for --solved lines, not a record file"),
    ],
)
def test_options_that_do_not_apply_are_refused_in_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.cli.replay.open_app", not_called)
    with pytest.raises(SystemExit) as exit_:
        main(["replay", *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_replay_list_prints_a_tcg_record_saved_by_the_arena(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    assert main(["arena", "tcg", "--players", "equilibrium,random", "--games", "1", "--save", str(folder)]) == 0
    capsys.readouterr()
    (path,) = folder.glob("*.ngr")
    record = Record.load(path)
    states = record.replay_states()
    assert main(["replay", str(path), "--list"]) == 0
    out = capsys.readouterr().out
    rows = [row for row in out.splitlines() if row.strip()[:1].isdigit() and ". round " in row]
    assert len(rows) == len(record.moves) > 0
    for row, recorded, after in zip(rows, record.moves, states[1:], strict=True):
        assert recorded.text in row and row.rstrip().endswith(getattr(after, "state_text", "?")), row
    assert main(["replay", str(path), "--list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "tcg" and data["start"] == "0,0" and data["result"] == record.result
    assert [m["move"] for m in data["moves"]] == [m.text for m in record.moves]
    assert [m["position"] for m in data["moves"]] == [getattr(s, "state_text", "?") for s in states[1:]]
    assert all(m["side"] is None for m in data["moves"])  # a round is both players'


def test_replay_list_prints_nim_and_footstep_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nim = nim_line((2, 3), parse_rule("nim"))
    footstep = footstep_line(6, 2, seed=1)
    for line, kind in ((nim, "player"), (footstep, "round")):
        path = tmp_path / f"{line.game}.ngr"
        line.record.save(path)
        assert main(["replay", str(path), "--list", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert [m["position"] for m in data["moves"]] == replayed(line)[1:]
        assert [m["comment"] for m in data["moves"]] == [s.comment for s in line.figures]
        assert data["termination"] == line.ending
        assert main(["replay", str(path), "--list"]) == 0
        out = capsys.readouterr().out
        assert f"1. {kind}" in out and line.figures[0].move in out
    assert json.loads(json.dumps(nim.figures[0].to_json()))["side"] == "player 1"


def test_a_3v2_line_opens_in_the_geister_replay_viewer() -> None:
    from pilot_helpers import run
    from textual.widgets import Static

    from tui.app import NashplayApp, StartRequest
    from tui.screens.replay import ReplayScreen

    line = three_vs_two_line("mini-geister-3v2-rbb")

    async def test() -> None:
        app = NashplayApp(StartRequest("replay", record=line.record, replay_title=line.title))
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            await pilot.press("right")
            status = str(app.screen.query_one("#status", Static).render())
            assert f"{line.plies - 1} plies to player 1's event" in status, status
            await pilot.press("end")
            status = str(app.screen.query_one("#status", Static).render())
            assert "tries to escape" in status, status

    run(test)
