"""The source's learners: the update rules as written in the paper, distributions that stay distributions, and a
learning experiment that learns (reward and carrot-and-stick beat reproach, as in the source's Figure 2); the
``learn footstep`` command, whose numbers are bounded before any table is allocated (issue 15)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import not_called, refused

from solvers.footstep_learning import BidTables, LearningConfig, learn
from tui import plot
from tui.cli import main


def one_state(x: int = 4) -> tuple[BidTables, np.ndarray]:
    tables = BidTables(6, 2, runs=1)
    key = tables.keys(np.array([x]), np.array([3]), np.array([0]))
    return tables, key


def test_a_fresh_learner_is_the_random_player() -> None:
    tables = BidTables(5, 2, runs=2)
    for own in range(6):
        key = tables.keys(np.array([own]), np.array([2]), np.array([0]))
        row = tables.p[0, key[0]]
        expected = np.zeros(6)
        if own == 0:
            expected[0] = 1.0
        else:
            expected[1 : own + 1] = 1 / own
        assert np.allclose(row, expected)


def test_reward_moves_mass_to_the_bid_made() -> None:
    tables, key = one_state()
    before = tables.p[0, key[0]].copy()
    tables.update(np.array([0]), key, np.array([2]), np.array([4]), np.array([1]), "reward", np.array([0.9]))
    after = tables.p[0, key[0]]
    expected = 0.9 * before
    expected[2] = (1 - 0.9) + 0.9 * before[2]
    assert np.allclose(after, expected) and after.sum() == pytest.approx(1.0)
    # Reward ignores losses.
    tables.update(np.array([0]), key, np.array([2]), np.array([4]), np.array([-1]), "reward", np.array([0.9]))
    assert np.allclose(tables.p[0, key[0]], expected)


def test_reproach_shares_the_bid_s_lost_mass_among_the_others() -> None:
    tables, key = one_state()
    before = tables.p[0, key[0]].copy()
    tables.update(np.array([0]), key, np.array([3]), np.array([4]), np.array([-1]), "reproach", np.array([0.9]))
    after = tables.p[0, key[0]]
    expected = before.copy()
    expected[1:5] += (1 - 0.9) * before[3] / 3
    expected[3] = 0.9 * before[3]
    assert np.allclose(after, expected) and after.sum() == pytest.approx(1.0)
    assert after[0] == 0 and after[5:].sum() == 0  # only affordable bids get mass
    tables.update(np.array([0]), key, np.array([3]), np.array([4]), np.array([1]), "reproach", np.array([0.9]))
    assert np.allclose(tables.p[0, key[0]], expected)  # reproach ignores wins


def test_draws_teach_nothing() -> None:
    tables, key = one_state()
    before = tables.p.copy()
    for rule in ("reward", "reproach", "carrot-stick"):
        tables.update(np.array([0]), key, np.array([1]), np.array([4]), np.array([0]), rule, np.array([0.9]))
    assert np.array_equal(tables.p, before)


@pytest.mark.parametrize(
    "options",
    [{}, {"credit": "turn"}, {"margin": "points"}, {"marker": True}],
    ids=["default", "turn", "points", "marker"],
)
def test_learned_tables_stay_distributions_over_affordable_bids(options: dict[str, object]) -> None:
    curve = learn(LearningConfig("carrot-stick", n=8, k=2, games=300, runs=3, **options))  # type: ignore[arg-type]
    p = curve.tables.p
    assert np.all(p >= -1e-12)
    assert np.allclose(p.sum(axis=-1), 1.0)
    bids = np.arange(9)
    markers = 5 if options.get("marker") else 1
    own = np.repeat(np.arange(9), 9 * markers)
    outside = (bids[None, :] > own[:, None]) | ((bids[None, :] == 0) & (own[:, None] > 0))
    assert np.all(p[:, outside] == 0)
    assert len(curve.means) == 3 and np.all(curve.ci95[:, 0] <= curve.means)


def test_learners_improve_and_reward_beats_reproach_as_in_the_source() -> None:
    curves = {
        rule: learn(LearningConfig(rule, games=2000, runs=8, seed=4)) for rule in ("reward", "reproach", "carrot-stick")
    }  # type: ignore[arg-type]
    for curve in curves.values():
        assert curve.final_mean > curve.means[0]  # every learner learns something against random
    assert curves["reward"].final_ci95[0] > curves["reproach"].final_ci95[1]
    assert curves["carrot-stick"].final_ci95[0] > curves["reproach"].final_ci95[1]


def test_learning_is_reproducible_with_a_seed() -> None:
    a = learn(LearningConfig("reward", n=6, k=2, games=200, runs=2, seed=9))
    b = learn(LearningConfig("reward", n=6, k=2, games=200, runs=2, seed=9))
    assert np.array_equal(a.means, b.means)


def test_bad_configs_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown learning rule"):
        LearningConfig("praise")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="decay"):
        LearningConfig(c=1.0)


def test_learn_command_prints_a_plot_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            ["learn", "footstep", "--rule", "reward,reproach", "--games", "300", "--runs", "2", "--n", "8", "--k", "2"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "R  reward" in out and "P  reproach" in out and "E  equilibrium player vs random" in out
    assert "|" in out and "games" in out
    assert main(["learn", "footstep", "--rule", "reward", "--games", "300", "--runs", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 300 and len(data["curves"]["reward"]["curve"]) == 3
    assert 0 < data["equilibrium_vs_random"] < data["best_response_vs_random"] <= 2
    with pytest.raises(SystemExit) as exit_info:
        main(["learn", "footstep", "--rule", "praise"])
    assert exit_info.value.code == 2
    assert "unknown rule" in capsys.readouterr().err


def test_series_in_one_cell_draw_one_overlap_mark_that_the_legend_names() -> None:
    """Two exact levels 0.09 apart fell in one row and took turns, "EBEBEB": it read as a dotted line of its own. A
    cell two series share is drawn once, with "*", and the legend says which series meet there."""
    series = [
        plot.Series("rising", "R", [0.0, 1.0, 2.0]),
        plot.Series("equilibrium", "E", [1.83], level=True),
        plot.Series("best response", "B", [1.915], level=True),
    ]
    lines = plot.render(series, width=50, height=5, y_range=(-0.5, 2.0), x_label="games", x_max=300)
    grid = "\n".join(line.split("|", 1)[1] for line in lines if "|" in line)
    assert "EB" not in grid and "BE" not in grid, grid
    assert "*" * 50 in grid  # the two levels' row, drawn as one line (the curve ends on it too)
    assert "        games    *  E and B; R, E and B in one cell" in lines, lines  # beside the x label: no line more
    assert len(lines) == 5 + 3 + len(series)
    # No x label: the note is the legend's last line.
    bare = plot.render(series[1:], width=20, height=4, y_range=(0.0, 2.0))
    assert bare[-1] == "  *  E and B in one cell" and "*" * 20 in "\n".join(bare), bare
    # A series that draws with "*" itself: the overlap mark is another.
    starred = plot.render([plot.Series("a", "*", [1.0], level=True), plot.Series("b", "B", [1.0], level=True)], 12, 3)
    assert "############" in "\n".join(starred) and starred[-1] == "  #  * and B in one cell", starred


# --------------------------------------------------------------------------------------------------- learn footstep


@pytest.mark.parametrize(
    ("option", "value", "bound"),
    [
        ("--height", "100000000", "3..200"),  # was a 3.6 GB grid, then MemoryError
        ("--width", "1000000000", "10..500"),  # the same, across
        ("--width", "1e9", "10..500"),  # was refused, but with argparse's usage block
        ("--runs", "100000", "1..1,000"),  # asked numpy for 6.9 GiB
        ("--games", "1e12", "1..100,000"),
        ("--games", "1000000000000", "1..100,000"),  # asked numpy for 7.3 TiB
        ("--block", "0", "1..100,000"),
        ("--seed", "-1", "0 or more"),  # crashed in numpy's SeedSequence
        ("--n", "150", "1..100"),
        ("--k", "11", "1..10"),
        ("--c", "nan", "[0, 1)"),
        ("--c", "1", "[0, 1)"),
    ],
)
def test_learn_refuses_numbers_out_of_bounds(
    option: str, value: str, bound: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("solvers.footstep_learning.learn", not_called)
    err = refused(["learn", "footstep", option, value], capsys)
    assert err.startswith(f"nashplay learn: error: {option}") and bound in err


def test_learn_refuses_an_empty_rule(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("solvers.footstep_learning.learn", not_called)
    assert "--rule names no rule" in refused(["learn", "footstep", "--rule", ""], capsys)
    assert "--rule names no rule" in refused(["learn", "footstep", "--rule", " , "], capsys)
    err = refused(["learn", "footstep", "--rule", "x" * 5000], capsys)
    assert "unknown rule" in err and "5,000 characters" in err


def test_learn_bounds_games_times_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("solvers.footstep_learning.learn", not_called)
    err = refused(["learn", "footstep", "--games", "100000", "--runs", "20"], capsys)
    assert "--games times --runs must be at most 1,000,000" in err


def test_learning_tables_are_bounded_before_they_are_allocated() -> None:
    from solvers.footstep_learning import MAX_TABLE_BYTES, LearningConfig, table_bytes

    with pytest.raises(ValueError, match="GiB"):
        LearningConfig(n=100, k=3, runs=1000)  # 8.2 GB of bid tables
    with pytest.raises(ValueError, match="GiB"):
        LearningConfig(n=100, k=10, runs=20, marker=True)
    with pytest.raises(ValueError, match="seed"):
        LearningConfig(seed=-1)
    assert table_bytes(20, 3, 20, False) < MAX_TABLE_BYTES  # the defaults: 1.5 MB
    assert table_bytes(20, 3, 1000, False) < MAX_TABLE_BYTES
