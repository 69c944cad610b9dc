"""Information-set Monte Carlo tree search for the Geister family, over UPP's beliefs about the opponent's colours.

Our attempt to go beyond the UPP paper: see ``ISMCTSPlayer``. It shares UPP's world weights, playout records and
budget (``solvers.geister.montecarlo``) and its belief (``solvers.geister.worlds``), and adds a tree of move sequences.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from core.geister import GeisterView, Variant
from core.notation import Move
from solvers.geister import playouts as po
from solvers.geister.montecarlo import (
    DEFAULT_LIMIT,
    GUIDED,
    Analysis,
    MoveStats,
    Playouts,
    UPPPlayer,
    WorldBelief,
    joined,
    legal_or_raise,
)
from solvers.geister.worlds import Floats, bait_prior
from solvers.players import Limit

__all__ = ["ISMCTSPlayer"]


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
        moves = legal_or_raise(view)
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
        self._track(view, lambda: joined(moves, records))
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
        belief: WorldBelief,
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
