"""Monte Carlo players for the Geister family: plain Monte Carlo and UPP (Mishio & Kotani), on vectorised playouts.

Both players see only a ``GeisterView``. What they do not know is the colour of each opponent piece still on the
board; a *world* is one full colour assignment of the opponent's set-up slots (70 of them on 6x6: 4 blue among
8). A world is *possible* while it agrees with every captured piece's revealed colour.

* ``MonteCarloPlayer`` (the paper's baseline): repeat "draw a possible world uniformly, give every legal move one
  random playout in it" within the budget; play the move with the best average score (win 1, draw 1/2, loss 0).
* ``UPPPlayer`` (the paper's section 3): the same, but worlds are drawn by weight, and the weights learn from the
  opponent's moves by re-reading the previous decision's playouts (``UPPPlayer`` docstring).

The playouts themselves are ``solvers.playouts``: for ``MonteCarloPlayer`` uniformly random moves for both sides until
the game ends (the paper's method); UPP and ISMCTS use guided playouts (``GUIDED``: escape, capture, race blue
pieces to the exits), a deliberate deviation from the paper explained at ``GUIDED``.

For the app, every player here offers ``analyse(view, limit, rng)``: a generator of ``Analysis`` snapshots (per
legal move: playouts and average score; the suggested move; for each opponent piece on the board the estimated
probability that it is blue), one per batch of playouts, so a separate process can stream them. ``choose`` runs
``analyse`` to the end and plays its suggestion.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from core.game import Side
from core.geister import Colour, GeisterView, Setup, Variant
from core.notation import Move
from solvers import playouts as po
from solvers.baselines import random_setup
from solvers.players import Limit

__all__ = [
    "DEFAULT_LIMIT",
    "Analysis",
    "GuidedMonteCarloPlayer",
    "MonteCarloPlayer",
    "MoveStats",
    "UPPPlayer",
    "Worlds",
    "bait_prior",
]

Action = Setup | Move
Floats = npt.NDArray[np.float64]

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
class PieceBelief:
    """One opponent piece on the board: its set-up slot, where it stands, and the estimated P(blue)."""

    slot: int
    square: str
    blue: float


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


# --------------------------------------------------------------------------------------------------- worlds


class Worlds:
    """Every colour assignment of the opponent's set-up slots (``blue[w, slot]``), and which agree with a view."""

    def __init__(self, variant: Variant, opponent: Side) -> None:
        self.variant = variant
        self.opponent = opponent
        pieces = variant.pieces(opponent)
        combos = list(itertools.combinations(range(pieces), variant.blues[opponent]))
        self.blue = np.zeros((len(combos), pieces), dtype=bool)
        for w, blues in enumerate(combos):
            self.blue[w, list(blues)] = True

    def __len__(self) -> int:
        return int(self.blue.shape[0])

    def possible(self, view: GeisterView) -> npt.NDArray[np.bool_]:
        """Worlds that agree with every captured opponent piece whose colour was revealed."""
        ok = np.ones(len(self), dtype=bool)
        for piece in view.captured:
            if piece.side is self.opponent and piece.colour is not Colour.UNKNOWN:
                ok &= self.blue[:, piece.slot] == (piece.colour is Colour.BLUE)
        return ok

    def opponent_blue_words(self, view: GeisterView) -> npt.NDArray[np.uint64]:
        """Per world, the bitboard of the opponent's blue pieces on ``view``'s board."""
        _, _, slot_bits = po.position_bits(view)
        bits = np.zeros(self.blue.shape[1], dtype=po.U64)
        for slot, bit in slot_bits.items():
            bits[slot] = bit
        words: npt.NDArray[np.uint64] = np.bitwise_or.reduce(np.where(self.blue, bits, np.uint64(0)), axis=1)
        return words

    def beliefs(self, view: GeisterView, weights: Floats) -> tuple[PieceBelief, ...]:
        """P(blue) of every opponent piece on the board under the world distribution ``weights``."""
        total = float(weights.sum())
        result = []
        for square, piece in view.pieces(self.opponent):
            p = float(weights @ self.blue[:, piece.slot]) / total if total > 0 else math.nan
            result.append(PieceBelief(piece.slot, square.name, p))
        return tuple(result)


def bait_prior(worlds: Worlds, view: GeisterView, weights: Floats, floor: float) -> Floats:
    """Worlds in which the opponent's *last* red piece is one we can capture now, off its exits, get at least
    ``floor`` of the mass.

    Capturing the last red loses at once, and the opponent knows which piece it is and where it stands: a piece
    that walks into our reach while a single red is left is bait at least as often as not, whatever the playouts'
    opponent model says. Our guided playouts race blue pieces and never offer reds, so left alone the search (and
    UPP's update, which reads the same playouts) judge an approaching piece blue and take the bait; measured: every
    loss of the guided players to plain Monte Carlo, whose uniform playouts reward offering reds, was such a capture.
    Only the *last* red matters (earlier red captures cost nothing at once), so weights are unchanged otherwise.
    """
    variant, opponent = view.variant, worlds.opponent
    red_captured = sum(1 for p in view.captured if p.side is opponent and p.colour is Colour.RED)
    if floor <= 0 or variant.reds[opponent] - red_captured != 1:
        return weights
    # A piece on one of its exits may be a blue escaping with its next move: that capture is a real gamble, left to
    # the search as it is. Anywhere else there is still time (a blue piece next to an exit needs two moves, and can
    # be taken on the exit), so taking the bait can wait for better evidence.
    exits = variant.exits[opponent]
    reachable = sorted(
        {
            target.slot
            for move in view.legal_moves()
            if move.dst is not None
            and (target := view.piece_at(move.dst))
            and target.side is opponent
            and move.dst not in exits
        }
    )
    total = float(weights.sum())
    if not reachable or total <= 0:
        return weights
    captured_slots = [p.slot for p in view.captured if p.side is opponent]
    red = ~worlds.blue
    red[:, captured_slots] = False  # the red still on the board, per world
    bait = red[:, reachable].any(axis=1)
    mass = float(weights[bait].sum()) / total
    if mass <= 0 or mass >= floor:
        return weights
    scale = floor * (1 - mass) / (mass * (1 - floor))
    return np.where(bait, weights * scale, weights)


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


def _joined(moves: list[Move], records: list[Playouts]) -> Playouts | None:
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
class _Belief:
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


def _legal_or_raise(view: GeisterView) -> list[Move]:
    if not view.my_turn:
        raise ValueError(f"it is not {view.viewer}'s turn to move")
    moves = view.legal_moves()
    if not moves:
        raise ValueError(f"{view.viewer} has no legal move")
    return moves


class _Budget:
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


class MonteCarloPlayer:
    """Plain Monte Carlo over sampled worlds (the paper's baseline, section 2; "世界評価無し": no world weights)."""

    name = "mc"

    #: How playouts choose moves: uniformly random, as in the paper.
    POLICY: po.Policy = po.UNIFORM

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
        moves = _legal_or_raise(view)
        belief = self._belief(view)
        nprng = np.random.default_rng(rng.getrandbits(64))
        budget = _Budget(limit, len(moves))
        totals = np.zeros(len(moves))
        count = 0
        n_moves = len(moves)
        records: list[Playouts] = []
        self._track(view, lambda: _joined(moves, records))
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

    def _belief(self, view: GeisterView) -> _Belief:
        worlds = self.worlds(view)
        weights = self.world_weights(view)
        if not weights.any():  # captures contradict every world (a record with odd colours): assume nothing
            weights = np.ones(len(worlds))
        return _Belief(
            worlds,
            weights / weights.sum(),
            worlds.opponent_blue_words(view),
            worlds.beliefs(view, weights),
            int(np.count_nonzero(weights)),
        )

    def _snapshot(
        self, moves: list[Move], totals: Floats, rounds: int, belief: _Belief, elapsed: float, final: bool
    ) -> Analysis:
        rates = totals / max(rounds, 1)
        order = sorted(range(len(moves)), key=lambda i: -rates[i])
        stats = tuple(MoveStats(moves[i], rounds, float(rates[i])) for i in order)
        return Analysis(stats, moves[order[0]], belief.beliefs, rounds * len(moves), elapsed, belief.possible, final)


class GuidedMonteCarloPlayer(MonteCarloPlayer):
    """Plain Monte Carlo (uniform worlds) with UPP's guided playouts: the control for UPP.

    UPP here differs from the paper's Monte Carlo in two ways, its world weights and its playouts (``GUIDED``).
    Matching UPP against this player isolates the first, which is what the paper's UPP-versus-MC experiment means
    to measure.
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

    #: Deviation from the paper: guided playouts (``GUIDED``), not uniform ones; the weight update reads them.
    POLICY = GUIDED

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


# --------------------------------------------------------------------------------------------------- ISMCTS


class _Node:
    """A node of the information-set tree: reached by a sequence of moves from the root, whatever the world.

    ``total`` sums the rewards (1 win, 1/2 draw, 0 loss) of the player who made the move into this node.
    ``steps`` caches the node's non-escape moves (they depend only on occupancy, the same in every world) and
    ``exits`` the squares from which the mover could escape if that piece is blue in the world being played.
    """

    __slots__ = ("children", "exits", "steps", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[tuple[int, int], _Node] = {}
        self.steps: list[tuple[int, int]] | None = None
        self.exits: list[int] = []
        self.visits = 0
        self.total = 0.0


@dataclass
class _Determinized:
    """A full-information state in Python integers, for walking the tree (absolute sides: index 0 is player 1)."""

    occ: list[int]
    blue: list[int]
    to_move: int
    ply: int


@dataclass
class _Walk:
    """One iteration's way down the tree in one world: the nodes passed (with the side that moved into each), the
    state reached, and the score for the searching player once known (``None``: a playout must tell)."""

    world: int
    path: list[tuple[_Node, int]]
    state: _Determinized
    score: float | None
    first: tuple[int, int]
    reply: tuple[int, int] | None


class ISMCTSPlayer(UPPPlayer):
    """Information-set Monte Carlo tree search (single observer: Cowling, Powley and Whitehouse's SO-ISMCTS),
    with UPP's world weights as its belief. Our attempt to go beyond the paper.

    Each iteration draws a world by UPP's weights (the paper's step 4 distribution), walks one shared tree of move
    sequences from the root, choosing by UCB1 among the moves legal in that world (an opponent piece on its exit
    may escape only in worlds where it is blue), adds one node, and scores the rest of the game by playouts. The
    tree models the opponent as choosing its best replies under our belief, which flat Monte Carlo cannot do: a
    flat search lets a random opponent stroll past an exit, a tree sees the escape coming.

    For speed the iterations run in rounds: ``LEAVES`` walks, each counting a visit (a virtual loss) on every node
    it passes so that one round spreads over different lines, then all their playouts in one vectorised batch,
    ``PLAYOUTS_PER_LEAF`` per leaf, whose average score is the iteration's reward. Playouts here are ``GUIDED``
    (escape whenever possible, often capture, race blue pieces to the exits): an opponent whose blue piece stands
    on its exit and wanders away instead is not one worth planning against. The move played is the root's most visited.

    UPP's update needs, from the previous decision, "my move, the opponent's reply, my score, the world": every
    playout records those (the reply is the tree's second move, or the playout's first when the walk stopped at
    depth 1), so the belief learns as UPP's does. ``Limit.iterations`` counts walks, ``Limit.playouts`` playouts.

    On top of UPP's weights, the *bait prior* (``bait_prior``, ``BAIT_FLOOR``): once the opponent has a single red
    left, a piece we could capture off its exits is presumed to be that red at least 90% of the time. Without it,
    every game this player lost to plain Monte Carlo ended with it taking the last red (measured: 23 of 23 such
    losses over 40 games at 3,000 playouts a move; with it, 75% wins instead of 42.5%).
    """

    name = "ismcts"

    POLICY = GUIDED
    LEAVES = 64
    PLAYOUTS_PER_LEAF = 8
    EXPLORATION = 0.5
    #: Draw worlds by UPP's learnt weights (True) or uniformly among the possible ones (False).
    USE_UPP_BELIEF = True
    #: With one opponent red left, the least probability that it is a piece we can capture now (``bait_prior``).
    BAIT_FLOOR = 0.9

    def world_weights(self, view: GeisterView) -> Floats:
        weights = super().world_weights(view)
        if not self.USE_UPP_BELIEF:
            weights = (weights > 0).astype(np.float64)
        return bait_prior(self.worlds(view), view, weights, self.BAIT_FLOOR)

    def analyse(self, view: GeisterView, limit: Limit | None, rng: random.Random) -> Iterator[Analysis]:
        moves = _legal_or_raise(view)
        variant = view.variant
        t = po.tables(variant)
        belief = self._belief(view)
        nprng = np.random.default_rng(rng.getrandbits(64))
        self._random = random.Random(rng.getrandbits(64))
        occ, blue, _ = po.position_bits(view)
        me = int(view.viewer)
        self._me = me
        self._current_variant = variant
        self._neighbours = _neighbour_lists(variant)
        self._exits = (t.exits[0], t.exits[1])
        self._limit_ply = t.ply_limit
        root = _Node()
        index_of = {po.move_squares(variant, m): i for i, m in enumerate(moves)}
        if limit is None or not (limit.time or limit.playouts or limit.iterations):
            limit = DEFAULT_LIMIT
        started = time.perf_counter()
        deadline = started + limit.time if limit.time else math.inf
        k = self.PLAYOUTS_PER_LEAF
        iterations = playouts = 0
        records: list[Playouts] = []
        self._track(view, lambda: _joined(moves, records))
        while time.perf_counter() < deadline:
            leaves = self.LEAVES
            if limit.playouts is not None:
                leaves = min(leaves, max(0, limit.playouts - playouts) // k)
            if limit.iterations is not None:
                leaves = min(leaves, limit.iterations - iterations)
            if leaves <= 0:
                break
            walks = []
            for w in nprng.choice(len(belief.worlds), size=leaves, p=belief.probability).tolist():
                state = _Determinized([occ[0], occ[1]], [blue[0], blue[1]], me, view.ply)
                state.blue[me ^ 1] = int(belief.opponent_blue[w])
                walk = self._walk(root, state, w)
                if walk.score is not None:  # the game ended inside the tree: back up at once
                    _back_up(walk, me)
                walks.append(walk)
            pending = [walk for walk in walks if walk.score is None]
            records.append(self._evaluate(t, walks, me, moves, index_of, nprng))
            for walk in pending:
                _back_up(walk, me)
            iterations += leaves
            playouts += leaves * k
            yield self._tree_snapshot(moves, root, belief, time.perf_counter() - started, iterations)
        final = self._tree_snapshot(moves, root, belief, time.perf_counter() - started, iterations)
        yield replace(final, final=True)

    # ---- walking the tree

    def _legal(self, node: _Node, state: _Determinized) -> list[tuple[int, int]]:
        """The moves legal at ``node`` in this world: the cached steps, plus escapes of pieces blue here."""
        if node.steps is None:
            own = state.occ[state.to_move]
            steps = []
            exits = []
            bits = own
            while bits:
                low = bits & -bits
                square = low.bit_length() - 1
                bits ^= low
                for target in self._neighbours[square]:
                    if not own >> target & 1:
                        steps.append((square, target))
                if self._exits[state.to_move] >> square & 1:
                    exits.append(square)
            node.steps, node.exits = steps, exits
        blue = state.blue[state.to_move]
        escapes = [(square, po.ESCAPE) for square in node.exits if blue >> square & 1]
        return escapes + node.steps if escapes else node.steps

    def _walk(self, root: _Node, state: _Determinized, world: int) -> _Walk:
        """Select by UCB1 down to a node with an untried move, add that child, stop (or stop at a game's end)."""
        node = root
        path: list[tuple[_Node, int]] = [(root, -1)]
        root.visits += 1
        walk = _Walk(world, path, state, None, (0, 0), None)
        depth = 0
        log = math.log
        while True:
            legal = self._legal(node, state)
            if not legal:  # no legal move: the side to move loses
                walk.score = 0.0 if state.to_move == self._me else 1.0
                return walk
            untried = [m for m in legal if m not in node.children]
            if untried:
                move = untried[self._random.randrange(len(untried))]
                child = _Node()
                node.children[move] = child
            else:
                scale = self.EXPLORATION * math.sqrt(log(node.visits))
                best, move = -1.0, legal[0]
                for m in legal:
                    c = node.children[m]
                    value = c.total / c.visits + scale / math.sqrt(c.visits)
                    if value > best:
                        best, move = value, m
                child = node.children[move]
            mover = state.to_move
            outcome = self._play(state, move)
            child.visits += 1
            path.append((child, mover))
            if depth == 0:
                walk.first = move
            elif depth == 1:
                walk.reply = move
            depth += 1
            if outcome is not None:
                walk.score = outcome
                return walk
            if untried:
                return walk
            node = child

    def _play(self, state: _Determinized, move: tuple[int, int]) -> float | None:
        """Apply ``move`` (as ``core.geister`` would); the searching player's score if the game ended, else None."""
        src, dst = move
        mover, other = state.to_move, state.to_move ^ 1
        src_bit = 1 << src
        state.ply += 1
        state.to_move = other
        win = 1.0 if mover == self._me else 0.0
        if dst == po.ESCAPE:
            state.occ[mover] ^= src_bit
            return win
        dst_bit = 1 << dst
        state.occ[mover] ^= src_bit | dst_bit
        if state.blue[mover] & src_bit:
            state.blue[mover] ^= src_bit | dst_bit
        if state.occ[other] & dst_bit:
            state.occ[other] ^= dst_bit
            state.blue[other] &= ~dst_bit
            if not state.blue[other]:
                return win
            if not state.occ[other] & ~state.blue[other]:
                return 1.0 - win
        if state.ply >= self._limit_ply:
            return 0.5
        return None

    # ---- playouts and results

    def _evaluate(
        self,
        t: po.Tables,
        walks: list[_Walk],
        me: int,
        moves: list[Move],
        index_of: dict[tuple[int, int], int],
        rng: np.random.Generator,
    ) -> Playouts:
        """Score every walk that did not end the game by ``PLAYOUTS_PER_LEAF`` playouts in one batch; return one
        record per playout (and one per walk that ended in the tree) for UPP's next update."""
        k = self.PLAYOUTS_PER_LEAF
        pending = [w for w in walks if w.score is None]
        world: list[int] = []
        move: list[int] = []
        reply_src: list[int] = []
        reply_dst: list[int] = []
        score: list[float] = []
        for walk in walks:
            if walk.score is not None:
                world.append(walk.world)
                move.append(index_of[walk.first])
                reply_src.append(walk.reply[0] if walk.reply else -2)
                reply_dst.append(walk.reply[1] if walk.reply else -2)
                score.append(walk.score)
        if pending:
            n = len(pending) * k

            def column(values: list[int], dtype: npt.DTypeLike) -> npt.NDArray[Any]:
                return np.repeat(np.array(values, dtype=dtype), k)

            to_move = column([w.state.to_move for w in pending], np.int8)
            batch = po.batch_from_arrays(
                t,
                to_move,
                (column([w.state.occ[0] for w in pending], po.U64), column([w.state.occ[1] for w in pending], po.U64)),
                (
                    column([w.state.blue[0] for w in pending], po.U64),
                    column([w.state.blue[1] for w in pending], po.U64),
                ),
                column([w.state.ply for w in pending], np.int32),
                n,
            )
            result, fsrc, fdst = po.playout(t, batch, rng, first_moves=True, policy=self.POLICY)
            assert fsrc is not None and fdst is not None
            mine = np.where(to_move == me, (result + 1) / 2, (1 - result) / 2)
            per_walk = mine.reshape(-1, k).mean(axis=1)
            for i, walk in enumerate(pending):
                walk.score = float(per_walk[i])
                for j in range(i * k, i * k + k):
                    world.append(walk.world)
                    move.append(index_of[walk.first])
                    if walk.reply is not None:
                        reply_src.append(walk.reply[0])
                        reply_dst.append(walk.reply[1])
                    else:
                        reply_src.append(int(fsrc[j]))
                        reply_dst.append(int(fdst[j]))
                    score.append(float(mine[j]))
        return Playouts(
            moves,
            np.array(world, dtype=np.int64),
            np.array(move, dtype=np.int64),
            np.array(reply_src, dtype=np.int64),
            np.array(reply_dst, dtype=np.int64),
            np.array(score, dtype=np.float64),
        )

    def _tree_snapshot(
        self,
        moves: list[Move],
        root: _Node,
        belief: _Belief,
        elapsed: float,
        iterations: int,
    ) -> Analysis:
        stats = []
        for m in moves:
            child = root.children.get(po.move_squares(self._current_variant, m))
            visits = child.visits if child is not None else 0
            rate = child.total / child.visits if child is not None and child.visits else 0.0
            stats.append(MoveStats(m, visits, rate))
        stats.sort(key=lambda s: (-s.playouts, -s.win_rate))
        extra = {"iterations": float(iterations), "playouts_per_iteration": float(self.PLAYOUTS_PER_LEAF)}
        return Analysis(
            tuple(stats),
            stats[0].move,
            belief.beliefs,
            iterations * self.PLAYOUTS_PER_LEAF,
            elapsed,
            belief.possible,
            False,
            extra,
        )


def _back_up(walk: _Walk, me: int) -> None:
    """Add the walk's score to every node it passed, for the player who moved into that node."""
    assert walk.score is not None
    for node, mover in walk.path:
        node.total += walk.score if mover == me else 1.0 - walk.score


def _neighbour_lists(variant: Variant) -> list[list[int]]:
    """For each square index, the squares one orthogonal step away."""
    result = []
    for index in range(variant.width * variant.height):
        square = variant.square(index)
        steps = (square.offset(0, 1), square.offset(0, -1), square.offset(1, 0), square.offset(-1, 0))
        result.append([variant.index(s) for s in steps if variant.on_board(s)])
    return result
