"""``nashplay review FILE`` (issue 17): the table, the JSON, the refusals and Ctrl-C.

Records are played here by the catalogue's players (``test_review.play``); what the review judges is checked in
``test_review.py``, and here what the command makes of it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import refused
from interrupt import interrupt_when
from test_review import play, record_of
from waiting import HANG_SECONDS

from core.record import Record
from solvers.review import MARKS, THRESHOLDS
from tui.cli import main

ROOT = Path(__file__).resolve().parent.parent


def saved(tmp_path: Path, game: str, names: tuple[str, str], seed: int = 1, **params: Any) -> Path:
    path = tmp_path / f"{game}-{seed}.ngr"
    record_of(play(game, names, seed, **params), names).save(path)
    return path


def review_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``nashplay review ... --json``: exactly one JSON object on one line of stdout, nothing on stderr."""
    assert main(["review", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("\n") == 1 and out.endswith("\n"), out[:300]
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_json_is_the_issue_s_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(tmp_path, "nim", ("perfect", "random"), heaps=(3, 4, 5))
    data = review_json([str(path)], capsys)
    assert list(data)[:8] == ["game", "players", "plies", "engine", "scale", "span", "moves", "summary"]
    assert data["game"] == "nim" and data["players"] == {"1": "perfect", "2": "random"}
    record = Record.load(path)
    assert data["plies"] == len(record.moves) == len(data["moves"])
    for ply, move in enumerate(data["moves"], start=1):
        assert list(move)[:8] == ["ply", "player", "move", "position", "value_before", "value_after", "best", "verdict"]
        assert move["ply"] == ply and move["move"] == record.moves[ply - 1].text
        assert move["verdict"] in ("best", "inaccuracy", "mistake", "blunder")
    assert data["summary"]["1"]["judged"] + data["summary"]["2"]["judged"] == data["plies"]


def test_a_simultaneous_game_has_two_entries_a_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(tmp_path, "footstep", ("equilibrium", "random"), n=8, k=2)
    data = review_json([str(path)], capsys)
    assert len(data["moves"]) == 2 * data["plies"] and data["span"] == 4.0
    assert [m["player"] for m in data["moves"]] == [1, 2] * data["plies"]
    assert [m["ply"] for m in data["moves"][::2]] == list(range(1, data["plies"] + 1))


def test_geister_at_a_fixed_depth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(tmp_path, "geister", ("random", "chototsu"))
    data = review_json([str(path), "--depth", "1"], capsys)
    assert data["engine"] == "sage search, depth 1" and data["scale"] == "chance"
    assert len(data["moves"]) == data["plies"] == len(Record.load(path).moves)
    assert review_json([str(path), "--depth", "1"], capsys) == data  # the same on any run


def test_geister_by_default_at_a_fixed_depth_and_by_time_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same record reviewed twice gives the same verdicts (the issue's gave two): a fixed depth unless --time."""
    from solvers.review import DEFAULT_DEPTH

    path = saved(tmp_path, "geister", ("random", "chototsu"))
    record = Record.load(path)
    record.moves = record.moves[:6]
    record.tags["Result"] = "*"
    record.save(path)
    data = review_json([str(path)], capsys)
    assert data["engine"] == f"sage search, depth {DEFAULT_DEPTH}" and data["limit"]["time"] is None
    assert review_json([str(path)], capsys) == data
    timed = review_json([str(path), "--time", "0.05"], capsys)
    assert timed["engine"] == "sage search, 0.05 s a move" and timed["limit"] == {"time": 0.05, "depth": None}


def test_the_table_says_each_verdict_and_the_thresholds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = saved(tmp_path, "tcg", ("random", "equilibrium"), seed=3, n=3)
    data = review_json([str(path)], capsys)
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line[:5].strip().isdigit()]
    assert len(rows) == len(data["moves"])
    for row, move in zip(rows, data["moves"], strict=True):
        assert move["move"] in row.split()
        verdict = move["verdict"]
        assert verdict in row and (not MARKS[verdict] or row.rstrip().endswith(MARKS[verdict]))
    assert "player 1 (random)" in out and "player 2 (equilibrium)" in out and "accuracy" in out
    for name, share in THRESHOLDS.items():
        assert f"{name} {MARKS[name]} from {share:.0%}" in out.replace("\n", " ")
    assert out.isascii()


def test_help_states_the_thresholds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["review", "--help"])
    assert info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for name, share in THRESHOLDS.items():
        assert f"{name} {MARKS[name]} from {share:.0%}" in text


# --------------------------------------------------------------------------------------------------- refusals


def test_bad_files_are_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot read" in refused(["review", str(tmp_path / "missing.ngr")], capsys)
    assert refused(["review", str(tmp_path)], capsys)  # a folder
    garbage = tmp_path / "garbage.ngr"
    garbage.write_bytes(b"\xff\xfe\x00 not a record")
    assert "UTF-8" in refused(["review", str(garbage)], capsys)
    untagged = tmp_path / "untagged.ngr"
    untagged.write_text("1. 2:3 *\n")
    assert "Game" in refused(["review", str(untagged)], capsys)
    illegal = tmp_path / "illegal.ngr"
    illegal.write_text('[Game "nim"]\n[Start "3,4,5"]\n\n1. 2:9 *\n')
    assert "move 1" in refused(["review", str(illegal)], capsys)
    chess = tmp_path / "chess.ngr"
    chess.write_text('[Game "chess"]\n\n1. e4 *\n')
    assert refused(["review", str(chess)], capsys)
    huge = tmp_path / "huge.ngr"
    huge.write_text('[Game "tcg"]\n[N "1000"]\n[Start "0,0"]\n\n1. cc *\n')
    assert "n = 1000" in refused(["review", str(huge)], capsys)
    wide = tmp_path / "wide.ngr"
    wide.write_text('[Game "nim"]\n[Start "' + ",".join(["1"] * 101) + '"]\n\n1. 1:1 *\n')
    assert "heaps" in refused(["review", str(wide)], capsys)


ABSURD = ("nan", "inf", "-1", "0", "1e12", "9" * 5000, "", "abc")


def test_absurd_numbers_and_options_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    geister = saved(tmp_path, "geister", ("random", "random"))
    for option in ("--time", "--depth"):
        for value in ABSURD:
            assert option in refused(["review", str(geister), f"{option}={value}"], capsys)
    assert "--depth" in refused(["review", str(geister), "--depth", "11"], capsys)
    assert "not both" in refused(["review", str(geister), "--time", "1", "--depth", "2"], capsys)
    tcg = saved(tmp_path, "tcg", ("random", "random"), n=3)
    assert "tcg record is judged exactly" in refused(["review", str(tcg), "--time", "1"], capsys)
    assert "tcg record is judged exactly" in refused(["review", str(tcg), "--depth", "1"], capsys)


@pytest.mark.usefixtures("use_shared_solved_tables")
def test_a_three_vs_two_review_takes_a_depth_for_its_search_past_the_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past the first capture the 3-vs-2 variants are searched, to a fixed depth: ``--depth`` sets it (it was
    refused, "judged exactly"); a time is not a budget this search takes."""
    record = saved(tmp_path, "mini-geister-3v2-rbb", ("random", "random"))
    assert "depth 3" in review_json([str(record), "--depth", "3"], capsys)["engine"]
    assert "searched to a --depth past its tables" in refused(["review", str(record), "--time", "1"], capsys)


# --------------------------------------------------------------------------------------------------- start-up, Ctrl-C


def test_review_help_loads_no_numpy() -> None:
    script = (
        "import json, sys\n"
        "from tui.cli import main\n"
        "try:\n"
        "    main(['review', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
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


def test_sigint_during_a_geister_review_exits_130_in_one_line(tmp_path: Path) -> None:
    """A review at a minute a move stopped by SIGINT once its progress bar shows (the record read, the review begun:
    the first move's search takes a minute): exit 130, one line, no traceback, nothing on stdout."""
    path = saved(tmp_path, "geister", ("random", "chototsu"))
    result = interrupt_when(["review", str(path), "--time", "60"], b"reviewing:")
    assert result.returncode == 130, result.err
    assert "nashplay: interrupted" in result.err and "Traceback" not in result.err
    assert result.out == ""
