"""The source's learning players for Footstep (Nagumo, sections 6-8), and their learning curves against random.

A learner keeps a bid distribution per (own points, opponent's points), starting uniform (so it starts as the
random player), and after each game nudges the distributions of the states it bid in, with decay ``c``:

* **reward**, after a won game: ``P(k) <- c P(k)`` for every bid, then ``P(i) <- P(i) + (1 - c)`` for the bid
  ``i`` it made;
* **reproach**, after a lost game: ``P(i) <- c P(i)`` and the freed ``(1 - c) P(i)`` is shared equally by the
  other ``x - 1`` bids;
* **carrot-and-stick**: both, and nothing after a draw.

Where the source is silent the choices are parameters (:class:`LearningConfig`), with these defaults:

* ``credit="game"``: the update comes once a game is over, for every turn of that game ("1回のゲームが終了する毎に"
  = each time a game ends); ``"turn"`` instead judges each turn by whether the learner's bid moved the marker.
* ``margin="sign"``: a 1-point and a 2-point result count the same; ``"points"`` applies the update once per point
  (``c`` becomes ``c ** 2`` for a 2-point result).
* draws change nothing, for every rule (the source says so for carrot-and-stick; reward and reproach only name
  wins and losses).
* ``marker=False``: the distribution ignores the marker, the source's own simplification (section 7);
  ``marker=True`` keeps one per (own points, opponent's points, marker).
* the learner is player 1 and the random player (uniform bid from 1 to its points) player 2; the game is
  symmetric, so this loses nothing.

Many independent learners (``runs``) are simulated side by side, vectorised over the runs: each game is a short
loop over turns whose every step is one numpy operation on all runs, and the spread between runs gives the
confidence intervals of the curve.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from core.footstep import FootstepView
from core.game import Side
from solvers.players import Limit

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

Rule = Literal["reward", "reproach", "carrot-stick"]
RULES: tuple[Rule, ...] = ("reward", "reproach", "carrot-stick")
RULE_TITLES = {"reward": "reward", "reproach": "reproach", "carrot-stick": "carrot-and-stick"}

#: ``progress(games_done, games)``: called now and then during a run.
Progress = Callable[[int, int], None]

#: The learners' bid tables (8 bytes per run, state and bid) may take this much memory: 100,000 runs asked numpy for
#: 6.9 GiB at n = 20, and one run at n = 100 holds 8.2 MB (172 MB with the marker at k = 10). The tables are nearly
#: all a run's memory: 20 runs at n = 200 (1.3 GB of tables) peaked at 1.39 GB.
MAX_TABLE_BYTES = 1 << 30


def table_bytes(n: int, k: int, runs: int, marker: bool) -> int:
    """What ``BidTables(n, k, runs, marker)`` holds, in bytes: checked before anything is allocated."""
    markers = 2 * k + 1 if marker else 1
    return 8 * runs * (n + 1) ** 2 * markers * (n + 1)


@dataclass(frozen=True)
class LearningConfig:
    rule: Rule = "reward"
    n: int = 20
    k: int = 3
    games: int = 10_000
    #: Independent learners simulated side by side; the confidence intervals come from their spread.
    runs: int = 20
    c: float = 0.9
    credit: Literal["game", "turn"] = "game"
    margin: Literal["sign", "points"] = "sign"
    marker: bool = False
    block: int = 100
    seed: int = 1

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise ValueError(f"unknown learning rule {self.rule!r}: expected one of {', '.join(RULES)}")
        if not 0 <= self.c < 1:
            raise ValueError(f"the decay c must be in [0, 1), not {self.c}")
        if self.n < 1 or self.k < 1 or self.games < 1 or self.runs < 1 or self.block < 1:
            raise ValueError("n, k, games, runs and block must all be at least 1")
        if self.seed < 0:
            raise ValueError(f"the seed must be 0 or more (numpy's generators refuse negative seeds), not {self.seed}")
        size = table_bytes(self.n, self.k, self.runs, self.marker)
        if size > MAX_TABLE_BYTES:
            raise ValueError(
                f"{self.runs:,} learners' bid tables would take {size / 2**30:.1f} GiB, more than the "
                f"{MAX_TABLE_BYTES / 2**30:.0f} GiB allowed: fewer runs, a smaller n, or no marker"
            )


class BidTables:
    """The learners' bid distributions: ``p[run, key, bid]`` for ``runs`` learners at once.

    ``key`` is ``own * (n + 1) + opponent`` (times ``2k + 1``, plus the marker, when the marker counts). Row
    ``bid = 0`` is used only when the learner has no points left (it must bid 0 then).
    """

    def __init__(self, n: int, k: int, runs: int = 1, marker: bool = False) -> None:
        self.n, self.k, self.runs, self.marker = n, k, runs, marker
        markers = 2 * k + 1 if marker else 1
        own = np.repeat(np.arange(n + 1), (n + 1) * markers)
        bids = np.arange(n + 1)
        allowed = (bids[None, :] >= 1) & (bids[None, :] <= own[:, None])
        allowed[own == 0, 0] = True
        table = allowed / allowed.sum(axis=1, keepdims=True)
        self.p: FloatArray = np.repeat(table[None], runs, axis=0)

    def keys(self, own: IntArray, opponent: IntArray, marker: IntArray) -> IntArray:
        key = own * (self.n + 1) + opponent
        if self.marker:
            key = key * (2 * self.k + 1) + marker + self.k
        out: IntArray = key.astype(np.int64)
        return out

    def sample(self, keys: IntArray, uniform: FloatArray) -> IntArray:
        """One bid per run from ``p[run, keys[run]]``, by inverse transform of ``uniform`` (shape (runs,))."""
        rows = self.p[np.arange(self.runs), keys]
        cumulative = np.cumsum(rows, axis=1)
        bids: IntArray = (cumulative < uniform[:, None] * cumulative[:, -1:]).sum(axis=1).astype(np.int64)
        return bids

    def update(
        self, runs: IntArray, keys: IntArray, bids: IntArray, own: IntArray, result: IntArray, rule: Rule, c: FloatArray
    ) -> None:
        """Apply ``rule`` to the listed (run, state, bid) with the given results (+1 won, -1 lost, 0 drawn).

        ``c`` is the decay per entry (``c ** points`` with ``margin="points"``). Within one call a (run, key)
        appears at most once: a learner's points fall every turn it holds any, so no state repeats in a game.
        """
        win = (result > 0) & (rule != "reproach")
        lose = (result < 0) & (rule != "reward") & (own > 1)
        if win.any():
            r, key, bid, decay = runs[win], keys[win], bids[win], c[win]
            rows = self.p[r, key] * decay[:, None]
            rows[np.arange(len(r)), bid] += 1.0 - decay
            self.p[r, key] = rows
        if lose.any():
            r, key, bid, decay, x = runs[lose], keys[lose], bids[lose], c[lose], own[lose]
            rows = self.p[r, key]
            chosen = rows[np.arange(len(r)), bid]
            share = (1.0 - decay) * chosen / (x - 1)
            allowed = (np.arange(self.n + 1)[None, :] >= 1) & (np.arange(self.n + 1)[None, :] <= x[:, None])
            rows = rows + allowed * share[:, None]
            rows[np.arange(len(r)), bid] = decay * chosen
            self.p[r, key] = rows


@dataclass(frozen=True)
class LearningCurve:
    config: LearningConfig
    #: Mean score per block of ``config.block`` games (over all runs), and its 95% confidence interval.
    means: FloatArray
    ci95: FloatArray
    #: Mean score over the last tenth of the games, with its 95% interval (over the runs' own means).
    final_mean: float
    final_ci95: tuple[float, float]
    seconds: float
    tables: BidTables = field(repr=False)


def _interval(samples: FloatArray, axis: int) -> tuple[FloatArray, FloatArray]:
    """Mean and 95% half-width (normal approximation) of ``samples`` along ``axis``."""
    count = samples.shape[axis]
    mean = samples.mean(axis=axis)
    if count < 2:
        return mean, np.zeros_like(mean)
    half = 1.96 * samples.std(axis=axis, ddof=1) / math.sqrt(count)
    return mean, half


def learn(config: LearningConfig, progress: Progress | None = None) -> LearningCurve:
    """Play ``config.games`` games of learner (player 1) against random (player 2) in ``config.runs`` runs."""
    start = time.perf_counter()
    n, k, runs = config.n, config.k, config.runs
    rng = np.random.default_rng(config.seed)
    tables = BidTables(n, k, runs, config.marker)
    scores = np.zeros((config.games, runs))
    everyone = np.arange(runs)
    c_per_points = np.array([1.0, config.c, config.c**2 if config.margin == "points" else config.c])
    for game in range(config.games):
        x = np.full(runs, n, dtype=np.int64)
        y = np.full(runs, n, dtype=np.int64)
        z = np.zeros(runs, dtype=np.int64)
        playing = np.ones(runs, dtype=bool)
        turns: list[tuple[IntArray, IntArray, IntArray, IntArray]] = []
        while playing.any():
            keys = tables.keys(x, y, z)
            bid = np.where(x > 0, tables.sample(keys, rng.random(runs)), 0)
            other = np.where(y > 0, np.floor(rng.random(runs) * y).astype(np.int64) + 1, 0)
            step = np.sign(bid - other) * playing
            if config.credit == "turn":
                chosen = playing & (x > 0)
                tables.update(
                    everyone[chosen],
                    keys[chosen],
                    bid[chosen],
                    x[chosen],
                    step[chosen],
                    config.rule,
                    np.full(int(chosen.sum()), config.c),
                )
            else:
                chosen = playing & (x > 0)
                turns.append((everyone[chosen], keys[chosen], bid[chosen], x[chosen]))
            x = np.where(playing, x - bid, x)
            y = np.where(playing, y - other, y)
            z = z + step
            over = playing & ((np.abs(z) >= k) | ((x == 0) & (y == 0)))
            scores[game, over] = np.where(np.abs(z[over]) >= k, 2 * np.sign(z[over]), np.sign(z[over]))
            playing &= ~over
        if config.credit == "game" and turns:
            result = np.sign(scores[game]).astype(np.int64)
            decay = c_per_points[np.abs(scores[game]).astype(np.int64)]
            for r, key, bid, own in turns:
                tables.update(r, key, bid, own, result[r], config.rule, decay[r])
        if progress is not None and (game + 1) % 500 == 0:
            progress(game + 1, config.games)
    blocks = config.games // config.block
    per_block = scores[: blocks * config.block].reshape(blocks, config.block, runs).mean(axis=1)  # (blocks, runs)
    if runs >= 2:
        means, half = _interval(per_block, axis=1)
    else:
        means, half = _interval(scores[: blocks * config.block, 0].reshape(blocks, config.block), axis=1)
    tail = scores[-max(1, config.games // 10) :]
    if runs >= 2:
        final, final_half = _interval(tail.mean(axis=0), axis=0)
    else:
        final, final_half = _interval(tail[:, 0], axis=0)
    return LearningCurve(
        config=config,
        means=means,
        ci95=np.column_stack([means - half, means + half]),
        final_mean=float(final),
        final_ci95=(float(final - final_half), float(final + final_half)),
        seconds=time.perf_counter() - start,
        tables=tables,
    )


#: The learner player's training before its first game: the source's reward rule against random.
LEARNER_TRAINING = LearningConfig("reward", games=10_000, runs=1, seed=7)


class LearnerPlayer:
    """The source's reward learner as a player: trained against random before its first game (``train``; in a
    separate process where that matters, ``elsewhere=True``), then it plays from its bid table and keeps learning
    from every game it finishes (``game_over``).

    It learned as player 1; from player 2's seat it sees the state from its own side (its points first, the marker
    turned round), which is the same game by symmetry.
    """

    name = "learner"

    def __init__(self) -> None:
        self.tables: BidTables | None = None
        self._size: tuple[int, int] | None = None
        #: (key, bid, own points) of each turn of the game in progress: what ``game_over`` learns from.
        self._turns: list[tuple[int, int, int]] = []

    def train(self, n: int, k: int, elsewhere: bool = False) -> None:
        """Learn Footstep(n, k) from scratch against the random player (10,000 games)."""
        config = replace(LEARNER_TRAINING, n=n, k=k)
        curve = run_elsewhere(config) if elsewhere else learn(config)
        self.tables, self._size, self._turns = curve.tables, (n, k), []

    def untrained(self, n: int, k: int) -> None:
        """Start Footstep(n, k) from the uniform table, as the random player, learning only from the games it
        finishes: what a screen falls back on when the training fails (its process killed, say)."""
        self.tables, self._size, self._turns = BidTables(n, k, 1, LEARNER_TRAINING.marker), (n, k), []

    def choose(self, view: FootstepView, rng: random.Random, limit: Limit | None = None) -> int:
        own, other = view.own_points, view.opponent_points
        if own == 0:
            return 0
        if self.tables is None or self._size != (view.n, view.k):
            self.train(view.n, view.k)
        assert self.tables is not None
        if not view.history:
            self._turns = []  # a new game: an unfinished one is not learned from
        marker = view.position.marker if view.viewer is Side.P1 else -view.position.marker
        key = self.tables.keys(np.array([own]), np.array([other]), np.array([marker]))
        bid = int(self.tables.sample(key, np.array([rng.random()]))[0])
        self._turns.append((int(key[0]), bid, own))
        return bid

    def game_over(self, view: FootstepView) -> None:
        """Learn from the game just finished (the reward rule: only a won game changes the table)."""
        if self.tables is None or not self._turns or view.outcome is None:
            return
        result = int(np.sign(view.outcome.returns()[view.viewer]))
        turns, self._turns = self._turns, []
        self.tables.update(
            np.zeros(len(turns), dtype=np.int64),
            np.array([t[0] for t in turns]),
            np.array([t[1] for t in turns]),
            np.array([t[2] for t in turns]),
            np.full(len(turns), result),
            "reward",
            np.full(len(turns), LEARNER_TRAINING.c),
        )


def save_curve(curve: LearningCurve, path: str) -> None:
    """Write a curve (and its learners' tables) as one ``.npz``: how a learning run in another process reports."""
    np.savez(
        path,
        config=np.frombuffer(json.dumps(asdict(curve.config)).encode(), dtype=np.uint8),
        means=curve.means,
        ci95=curve.ci95,
        final=np.array([curve.final_mean, *curve.final_ci95, curve.seconds]),
        p=curve.tables.p,
    )


def load_curve(path: str) -> LearningCurve:
    with np.load(path, allow_pickle=False) as data:
        config = LearningConfig(**json.loads(bytes(data["config"]).decode()))
        tables = BidTables(config.n, config.k, config.runs, config.marker)
        if data["p"].shape != tables.p.shape:
            raise ValueError(f"a learning result of the wrong shape {data['p'].shape} in {path}")
        tables.p = np.asarray(data["p"], dtype=np.float64)
        final_mean, lo, hi, seconds = (float(v) for v in data["final"])
        return LearningCurve(config, data["means"], data["ci95"], final_mean, (lo, hi), seconds, tables)


class LearningStoppedError(RuntimeError):
    """The learning process ended without its result (killed, out of memory, out of time, or it failed). Its text is
    plain words, for a screen's message."""


def run_elsewhere(config: LearningConfig, timeout: float = 600.0) -> LearningCurve:
    """``learn(config)`` in a separate Python process, so that its many small numpy calls never hold this process's
    interpreter lock (the app's event loop keeps answering keys). A plain subprocess, not multiprocessing: a spawned
    child would re-import the parent's main module, which for the app is the app itself. ``LearningStoppedError`` when
    the process ends without its result (a ``kill -9`` included)."""
    with tempfile.TemporaryDirectory(prefix="nashplay-learn-") as folder:
        out = os.path.join(folder, "curve.npz")
        command = [sys.executable, "-m", "solvers.footstep_learning", json.dumps(asdict(config)), out]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise LearningStoppedError(f"the learning process took more than {timeout:g} s and was stopped") from None
        if done.returncode < 0:
            raise LearningStoppedError(f"the learning process was killed by signal {-done.returncode}")
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise LearningStoppedError(f"the learning process failed (exit status {done.returncode}): {last}")
        return load_curve(out)


if __name__ == "__main__":
    save_curve(learn(LearningConfig(**json.loads(sys.argv[1]))), sys.argv[2])
