"""Monte Carlo players for the Geister family: plain Monte Carlo and UPP (Mishio & Kotani), on vectorised playouts.

Both players see only a ``GeisterView``. What they do not know is the colour of each opponent piece still on the
board: they keep a weight per possible *world* (``solvers.geister.worlds``). ``solvers.geister.ismcts`` builds a tree
search on the same belief, playout records and budget.

* ``MonteCarloPlayer`` (the paper's baseline): repeat "draw a possible world uniformly, give every legal move one
  random playout in it" within the budget; play the move with the best average score (win 1, draw 1/2, loss 0).
* ``UPPPlayer`` (the paper's section 3): the same, but worlds are drawn by weight, and the weights learn from the
  opponent's moves by re-reading the previous decision's playouts (``UPPPlayer`` docstring).

The playouts themselves are ``solvers.geister.playouts``. The paper says only "random simulation"; ``mc`` and ``upp``
play ``RACE`` playouts (random moves, except that a side that can escape does, and a side with a blue piece that can
step nearer its exit does so with probability 0.8): the choice the paper leaves open that reproduces its Tables 1-3
(see ``RACE``). ``mc-guided`` and ISMCTS use ``GUIDED`` (``RACE`` plus captures), our own deviation.

For the app, every player here offers ``analyse(view, limit, rng)``: a generator of ``Analysis`` snapshots (per
legal move: playouts and average score; the suggested move; for each opponent piece on the board the estimated
probability that it is blue), one per batch of playouts, so a separate process can stream them. ``choose`` runs
``analyse`` to the end and plays its suggestion.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from core.geister import GeisterView, Setup
from core.notation import Move
from solvers.geister import playouts as po
from solvers.geister.baselines import random_setup
from solvers.geister.worlds import Floats, PieceBelief, Worlds
from solvers.players import Limit

__all__ = [
    "DEFAULT_LIMIT",
    "GUIDED",
    "Analysis",
    "GuidedMonteCarloPlayer",
    "MonteCarloPlayer",
    "MoveStats",
    "UPPPlayer",
]

Action = Setup | Move

#: The budget when the caller gives none: the paper's shortest thinking time.
DEFAULT_LIMIT = Limit(time=0.25)
#: Playouts in one vectorised batch at most: larger batches gain little speed and delay the next snapshot.
MAX_BATCH = 16_384
#: The first batch of a timed search, small enough to measure the speed without overshooting short budgets.
FIRST_TIMED_BATCH = 2_048


# --------------------------------------------------------------------------------------------------- results


@dataclass(frozen=True)
class MoveStats:
    """One legal move: how many playouts it got and their average score for the player (win 1, draw 1/2)."""

    move: Move
    playouts: int
    win_rate: float


@dataclass(frozen=True)
class Analysis:
    """A snapshot of a search (picklable, so a worker process can send it to the app).

    ``moves`` lists every legal move (best first); ``best`` is the move the player would play now; ``beliefs``
    covers every opponent piece still on the board; ``playouts`` and ``elapsed`` are the work done so far;
    ``worlds`` is how many colour assignments are still possible; ``final`` marks the last snapshot.
    """

    moves: tuple[MoveStats, ...]
    best: Move
    beliefs: tuple[PieceBelief, ...]
    playouts: int
    elapsed: float
    worlds: int
    final: bool = False
    #: Player-specific figures (ISMCTS: iterations and tree size; UPP: the weight update it made).
    extra: dict[str, float] = field(default_factory=dict)

    def stats_for(self, move: Move) -> MoveStats | None:
        return next((s for s in self.moves if s.move == move), None)


# --------------------------------------------------------------------------------------------------- playouts


@dataclass
class Playouts:
    """The record of one decision's playouts, one entry per playout (what UPP re-reads at the next decision)."""

    moves: list[Move]
    world: npt.NDArray[np.int64]
    move: npt.NDArray[np.int64]
    reply_src: npt.NDArray[np.int64]
    reply_dst: npt.NDArray[np.int64]
    score: Floats


def joined(moves: list[Move], records: list[Playouts]) -> Playouts | None:
    """One decision's playout records, batch after batch, as one."""
    if not records:
        return None
    return Playouts(
        moves,
        np.concatenate([r.world for r in records]),
        np.concatenate([r.move for r in records]),
        np.concatenate([r.reply_src for r in records]),
        np.concatenate([r.reply_dst for r in records]),
        np.concatenate([r.score for r in records]),
    )


@dataclass(frozen=True)
class WorldBelief:
    """What one search believes about the opponent's colours: the worlds, how likely each is, each world's blue
    pieces as a bitboard, and what the belief says of each piece (for the advice panel)."""

    worlds: Worlds
    probability: Floats
    opponent_blue: npt.NDArray[np.uint64]
    beliefs: tuple[PieceBelief, ...]
    #: How many worlds the belief leaves possible.
    possible: int


def run_root_playouts(
    view: GeisterView,
    moves: list[Move],
    opponent_blue: npt.NDArray[np.uint64],
    world_ids: npt.NDArray[np.int64],
    rng: np.random.Generator,
    policy: po.Policy = po.UNIFORM,
) -> tuple[Floats, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One playout per (sampled world, legal move): the root move, then random play to the end.

    Returns the scores for the viewer (shape ``(worlds, moves)``; win 1, draw 1/2, loss 0) and the opponent's
    first reply in each playout as square indices (``-2`` where the root move ended the game).
    """
    variant = view.variant
    t = po.tables(variant)
    occ, blue, _ = po.position_bits(view)
    me = view.viewer
    n_worlds, n_moves = len(world_ids), len(moves)
    n = n_worlds * n_moves
    blues = [np.full(n, blue[0], dtype=po.U64), np.full(n, blue[1], dtype=po.U64)]
    blues[me.other] = np.repeat(opponent_blue[world_ids], n_moves)
    batch = po.batch_from_arrays(t, me, occ, (blues[0], blues[1]), view.ply, n)
    squares = np.array([po.move_squares(variant, m) for m in moves], dtype=np.int64).reshape(n_moves, 2)
    src = np.tile(squares[:, 0], n_worlds)
    dst = np.tile(squares[:, 1], n_worlds)
    first = po.apply_moves(t, batch, src, dst)
    score = np.where(first == 2, 0.0, (first.astype(np.float64) + 1) / 2)
    reply_src = np.full(n, -2, dtype=np.int64)
    reply_dst = np.full(n, -2, dtype=np.int64)
    going = np.flatnonzero(first == 2)
    if going.size:
        rest, fsrc, fdst = po.playout(t, batch.take(going), rng, first_moves=True, policy=policy)
        # ``rest`` is for the opponent, who moves first in the playout.
        score[going] = (1 - rest.astype(np.float64)) / 2
        assert fsrc is not None and fdst is not None
        reply_src[going] = fsrc
        reply_dst[going] = fdst
    shape = (n_worlds, n_moves)
    return score.reshape(shape), reply_src.reshape(shape), reply_dst.reshape(shape)


def legal_or_raise(view: GeisterView) -> list[Move]:
    if not view.my_turn:
        raise ValueError(f"it is not {view.viewer}'s turn to move")
    moves = view.legal_moves()
    if not moves:
        raise ValueError(f"{view.viewer} has no legal move")
    return moves


class Budget:
    """Turns a ``Limit`` into batch sizes: a playout count is met exactly (in whole rounds of one playout per
    move), a time limit is filled by sizing each batch from the speed measured so far."""

    def __init__(self, limit: Limit | None, moves: int) -> None:
        limit = limit if limit is not None and (limit.time or limit.playouts) else DEFAULT_LIMIT
        self.moves = moves
        self.started = time.perf_counter()
        self.deadline = self.started + limit.time if limit.time else math.inf
        self.rounds_left = max(1, limit.playouts // moves) if limit.playouts else None
        self.done = 0

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def next_rounds(self) -> int:
        """World samples for the next batch (each gives every move one playout); 0 when the budget is spent."""
        cap = max(1, MAX_BATCH // self.moves)
        if self.rounds_left is not None:
            rounds = min(cap, self.rounds_left)
            if self.deadline < math.inf and time.perf_counter() >= self.deadline:
                rounds = 0
            self.rounds_left -= rounds
            return rounds
        now = time.perf_counter()
        if now >= self.deadline:
            return 0
        if self.done == 0:
            return max(1, min(cap, FIRST_TIMED_BATCH // self.moves))
        rate = self.done / max(now - self.started, 1e-6)
        rounds = int(rate * (self.deadline - now) * 0.9) // self.moves
        # Too little time left for a batch that pays its fixed cost: stop here rather than overshoot.
        return min(cap, rounds) if rounds >= 4 else 0

    def spent(self, playouts: int) -> None:
        self.done += playouts


# --------------------------------------------------------------------------------------------------- players

#: The playouts of UPP and ISMCTS (our deviation from the paper, whose playouts are uniformly random): escape
#: whenever possible; else capture with probability 1/2; else, with probability 0.8, step a blue piece nearer its
#: exit; else a uniformly random move. Uniform playouts misjudge Geister badly: a blue piece on its exit escapes only
#: when its one escape move is drawn among ~20, and random sides capture so much that most playouts end with
#: someone's reds all taken, so capturing an unknown piece looks bad (-0.04 if it is red, +0.03 if blue, measured
#: in a position where the capture is the obvious move) and UPP comes to believe a charging piece red. Measured
#: with plain Monte Carlo at 4,000 playouts a decision: against Chototsu 3/20 wins with uniform playouts, 11/20
#: with escape-first ones, 39/40 with these; the capture half keeps it from racing blue pieces into a greedy
#: capturer (29/30 against greedy; 11/40 with advance-only playouts).
GUIDED = po.Policy(escape_first=True, capture=0.5, advance=0.8)

#: The playouts of the paper's players, ``mc`` and ``upp``: the paper's "random simulation" leaves the policy open,
#: and uniform moves do not reproduce its tables (plain Monte Carlo against Chototsu at 1,875 playouts a decision,
#: the paper's 0.25 s: 5% with uniform playouts against the paper's 80%). Chototsu charges its outer blues at the
#: exits and escapes in about 12 plies; a uniform playout never sees the charge coming, because its opponent
#: wanders. What makes the playouts see it is a side that races: escape when it can, and otherwise step a blue piece
#: nearer its exit with probability 0.8 (``GUIDED``'s figure; uniform moves the rest of the time). Plain Monte
#: Carlo against Chototsu at 1,875 playouts, 40 games each: escape-first alone 18/40, with advance 0.3 34/40, with
#: advance 0.8 39/40, with GUIDED's captures as well 40/40 (``python benchmarks/paper_tables.py`` measures the
#: policies and the paper's tables).
RACE = po.Policy(escape_first=True, advance=0.8)


class MonteCarloPlayer:
    """Plain Monte Carlo over sampled worlds (the paper's baseline, section 2; "世界評価無し": no world weights)."""

    name = "mc"

    #: How playouts choose moves: random, racing for the exits (``RACE``: the paper leaves the policy open).
    POLICY: po.Policy = RACE

    def __init__(self) -> None:
        self._worlds: Worlds | None = None
        #: The last decision's playouts (only UPP reads them; kept here so both players share one search loop).
        self._last: Playouts | None = None
        #: Builds ``last`` from the previous search's records when first asked (see ``last``).
        self._pending: Callable[[], Playouts | None] | None = None
        self._last_history: tuple[Move, ...] | None = None

    # ---- the Player protocol

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Action:
        if view.phase == "setup":
            self.reset()  # a new game begins
            return random_setup(view.variant, view.viewer, rng)
        snapshots = list(self.analyse(view, limit, rng))
        return snapshots[-1].best

    # ---- search

    def worlds(self, view: GeisterView) -> Worlds:
        if self._worlds is None or self._worlds.variant != view.variant or self._worlds.opponent != view.viewer.other:
            self._worlds = Worlds(view.variant, view.viewer.other)
            self.reset()
        return self._worlds

    def reset(self) -> None:
        """Forget everything learnt in the current game (a new game, or a history that is not a continuation)."""
        self.last = None
        self._last_history = None

    @property
    def last(self) -> Playouts | None:
        """The previous decision's playouts, as far as that search got.

        Built on first use from the search's records, which grow as it runs: a search cut short (the app's advice
        moves on when the position changes, long before its budget is spent) still leaves what it played, so UPP's
        next update has something to read.
        """
        if self._pending is not None:
            self._last = self._pending()
            self._pending = None
        return self._last

    @last.setter
    def last(self, value: Playouts | None) -> None:
        self._last = value
        self._pending = None

    def _track(self, view: GeisterView, build: Callable[[], Playouts | None]) -> None:
        """This search's playouts become ``last`` (lazily), whether or not the search runs to its end."""
        self._last = None
        self._pending = build
        self._last_history = view.moves

    def world_weights(self, view: GeisterView) -> Floats:
        """The sampling distribution over worlds (unnormalised): uniform over the possible ones."""
        return self.worlds(view).possible(view).astype(np.float64)

    def analyse(self, view: GeisterView, limit: Limit | None, rng: random.Random) -> Iterator[Analysis]:
        """Snapshots of the search, one per batch of playouts; the last one has ``final=True``."""
        moves = legal_or_raise(view)
        belief = self._belief(view)
        nprng = np.random.default_rng(rng.getrandbits(64))
        budget = Budget(limit, len(moves))
        totals = np.zeros(len(moves))
        count = 0
        n_moves = len(moves)
        records: list[Playouts] = []
        self._track(view, lambda: joined(moves, records))
        while (rounds := budget.next_rounds()) > 0:
            world_ids = nprng.choice(len(belief.worlds), size=rounds, p=belief.probability)
            scores, rsrc, rdst = run_root_playouts(view, moves, belief.opponent_blue, world_ids, nprng, self.POLICY)
            # One record per playout, world-major: (world 0, move 0), (world 0, move 1), ...
            records.append(
                Playouts(
                    moves,
                    np.repeat(world_ids, n_moves),
                    np.tile(np.arange(n_moves), rounds),
                    rsrc.reshape(-1),
                    rdst.reshape(-1),
                    scores.reshape(-1),
                )
            )
            totals += scores.sum(axis=0)
            count += rounds
            budget.spent(rounds * n_moves)
            yield self._snapshot(moves, totals, count, belief, budget.elapsed, False)
        yield self._snapshot(moves, totals, count, belief, budget.elapsed, True)

    def _belief(self, view: GeisterView) -> WorldBelief:
        worlds = self.worlds(view)
        weights = self.world_weights(view)
        if not weights.any():  # captures contradict every world (a record with odd colours): assume nothing
            weights = np.ones(len(worlds))
        return WorldBelief(
            worlds,
            weights / weights.sum(),
            worlds.opponent_blue_words(view),
            worlds.beliefs(view, weights),
            int(np.count_nonzero(weights)),
        )

    def _snapshot(
        self, moves: list[Move], totals: Floats, rounds: int, belief: WorldBelief, elapsed: float, final: bool
    ) -> Analysis:
        rates = totals / max(rounds, 1)
        order = sorted(range(len(moves)), key=lambda i: -rates[i])
        stats = tuple(MoveStats(moves[i], rounds, float(rates[i])) for i in order)
        return Analysis(stats, moves[order[0]], belief.beliefs, rounds * len(moves), elapsed, belief.possible, final)


class GuidedMonteCarloPlayer(MonteCarloPlayer):
    """Plain Monte Carlo (uniform worlds) with the guided playouts of ISMCTS (``GUIDED``: ``RACE`` plus captures).

    What captures in the playouts add to ``RACE``: a yardstick for the paper's players, and ISMCTS's playouts with
    no tree.
    """

    name = "mc-guided"
    POLICY = GUIDED


class UPPPlayer(MonteCarloPlayer):
    """UPP, "Using Past Payout" (Mishio & Kotani, section 3), with the paper's c = 0.1.

    Each world ``n`` has a counter ``t_n`` and a flag ``F_n`` (still possible). Its weight is
    ``W_n = 1 + t_n * c`` when ``F_n = 1``, else 0, and worlds are drawn with probability ``W_n / sum W``.

    At each decision (steps 1-3): take my previous move and the opponent's reply; among the playouts of my previous
    decision keep those that began with exactly these two moves; split them by whether the world made the piece the
    opponent just moved blue ("good") or red ("bad"), and average my scores in each half. The half where *my*
    score is lower is the one where the opponent's move was better for the opponent, so it is the likelier truth:
    every world in that half gets ``t_n += 1``. (The paper: "if world n holds the piece good and the win rate with
    it bad is higher, t_n++; else if world n holds it bad and the win rate with it good is higher, t_n++" - the
    win rate being the searching player's, as the abstract says: "the higher the other side's win rate, the more
    likely that world is the actual one".) Step 4 is the weighted search; step 5 sets ``F_n = 0`` for worlds that
    contradict a capture.

    Where the paper is ambiguous, chosen here:

    * "Average the win rates per world, then per move" (step 4): the average over all playouts of a move, so each
      world counts in proportion to how often it was drawn, i.e. to its weight. Averaging each drawn world's rate
      with equal say would undo the weighting whenever all 70 worlds are drawn (they are, at a few thousand
      playouts a decision).
    * Step 5 prunes right after our capturing move is chosen; the colour is only revealed once the move is played,
      so here pruning happens at the start of the next decision, from the view's captured pieces (the same thing,
      a half-move later). Captures of our pieces by the opponent reveal nothing and prune nothing.
    * Step 2 re-reads only playouts of worlds still possible (a world our last capture ruled out tells nothing).
      If either half has no playout, or both averages are equal, no counter changes.
    * Draws score 1/2 (the paper speaks only of win rates; draws by the ply limit are rare).
    * There are no previous playouts at a player's first decision, or when the game did not continue from our last
      decision (the app's undo, a new game): counters then reset to 0 for a new game, and stay as they are
      otherwise (the update is skipped).
    """

    name = "upp"

    #: The paper's "random simulation", as ``mc`` plays it (``RACE``): the same playouts as plain Monte Carlo, so that
    #: UPP against MC measures the world weights alone, as the paper's Table 3 means to.

    def __init__(self, c: float = 0.1) -> None:
        super().__init__()
        self.c = c
        self.counters: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self.last_update: dict[str, float] = {}

    def reset(self) -> None:
        super().reset()
        if self._worlds is not None:
            self.counters = np.zeros(len(self._worlds), dtype=np.int64)

    def worlds(self, view: GeisterView) -> Worlds:
        worlds = super().worlds(view)
        if len(self.counters) != len(worlds):
            self.counters = np.zeros(len(worlds), dtype=np.int64)
        return worlds

    def world_weights(self, view: GeisterView) -> Floats:
        worlds = self.worlds(view)
        history = view.moves
        previous = self._last_history
        if previous is not None and (len(history) < len(previous) or history[: len(previous)] != previous):
            self.reset()  # not a continuation of the game we searched: a new game (or moves taken back)
        elif previous is not None and len(history) == len(previous) + 2 and self.last is not None:
            self.update(view, self.last)
        possible = worlds.possible(view)
        return np.where(possible, 1.0 + self.c * self.counters, 0.0)

    def update(self, view: GeisterView, last: Playouts) -> None:
        """Steps 1-3: compare my scores in the previous playouts where the opponent's just-moved piece was blue vs
        red, and add 1 to the counter of every world in the half where my score was lower."""
        worlds = self.worlds(view)
        mine, reply = view.moves[-2], view.moves[-1]
        self.last_update = {}
        if mine not in last.moves or reply.dst is None:
            return
        piece = view.piece_at(reply.dst)
        if piece is None or piece.side is view.viewer:
            return
        src, dst = po.move_squares(view.variant, reply)
        chosen = (last.move == last.moves.index(mine)) & (last.reply_src == src) & (last.reply_dst == dst)
        chosen &= worlds.possible(view)[last.world]
        blue_world = worlds.blue[last.world, piece.slot]
        good, bad = chosen & blue_world, chosen & ~blue_world
        if not good.any() or not bad.any():
            return
        good_rate, bad_rate = float(last.score[good].mean()), float(last.score[bad].mean())
        self.last_update = {"good": good_rate, "bad": bad_rate, "n_good": float(good.sum()), "n_bad": float(bad.sum())}
        if bad_rate > good_rate:
            self.counters[worlds.blue[:, piece.slot]] += 1
        elif good_rate > bad_rate:
            self.counters[~worlds.blue[:, piece.slot]] += 1
