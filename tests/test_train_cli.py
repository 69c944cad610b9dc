"""``nashplay train geister`` end to end on the smallest corpus: it plays, fits and writes models the players read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from waiting import HANG_SECONDS

from solvers.geister import learning
from solvers.geister.choice_belief import load_mixture
from solvers.geister.learned import LearnedPlayer
from solvers.geister.value import load_value_model
from tui.cli import main


def train(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """Run ``nashplay *argv`` (a ``train --json``) in this process, require it to succeed, and return its report.
    The command runs here, not in a fresh interpreter: nothing in it is about processes (with one worker it plays its
    games in the process that runs it), and a fresh interpreter spent seconds importing what this one has loaded;
    the command line itself is run for real by the refusal below."""
    capsys.readouterr()
    assert main(list(argv)) == 0
    done = capsys.readouterr()
    report: dict[str, Any] = json.loads(done.out)
    return report


def test_training_on_a_small_corpus_writes_models_the_player_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "models"
    # The value model reads every 12th ply, not every 3rd, and the search's calibration searches every 30th, not
    # every 6th: still a model and a calibration fitted on positions of the corpus (more than a hundred and some
    # twenty), in a quarter of the time (each fit runs twice here; they took most of the test's 8 s).
    monkeypatch.setattr(learning, "VALUE_EVERY", 12)
    monkeypatch.setattr(learning, "CALIBRATION_EVERY", 30)
    # One worker: the games are played in this process (no pool of fresh interpreters to start).
    command = ["train", "geister", "--games", "12", "--seed", "3", "--workers", "1"]
    report = train(capsys, *command, "--corpus", str(corpus), "--out", str(out), "--json")
    assert report["games"] == 12 and report["held_out"] == ["feeder"]
    assert set(report["times"]) == {"corpus", "belief", "value", "calibration"}
    assert len(list(corpus.glob("game-*.ngr"))) == 12
    mixture = load_mixture(out / "belief.json")
    assert "feeder" not in {style.name for style in mixture.styles}
    model = load_value_model(out / "value.json")
    assert model.about["held_out"] == ["feeder"] and model.search_calibration.positions > 0
    # The player searches with what was written.
    player = LearnedPlayer(mixture, model)
    assert (player.weights == model.array).all()  # type: ignore[attr-defined]
    # A second run keeps the corpus's games and only fits again.
    played = {path.name: path.stat().st_mtime_ns for path in corpus.glob("game-*.ngr")}
    train(capsys, *command, "--corpus", str(corpus), "--out", str(out), "--json")
    assert {path.name: path.stat().st_mtime_ns for path in corpus.glob("game-*.ngr")} == played
    assert len((corpus / "index.jsonl").read_text(encoding="utf-8").splitlines()) == 12


def test_a_hold_out_that_names_no_player_is_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui", "train", "geister", "--hold-out", "nobody", "--corpus", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--hold-out names no corpus player: nobody" in done.stderr
