"""Baseline players for the Geister family: the UPP paper's Chototsu (foolhardy) player and a one-ply greedy player,
and the set-ups the players draw. (The uniform random player serves every game: ``solvers.players.RandomPlayer``.)

Both decide from a ``GeisterView`` alone: they know their own colours and nothing of the opponent's.
"""

from __future__ import annotations

import random

from core.game import Side
from core.geister import Colour, GeisterView, Setup, Variant
from core.notation import Move, Square
from solvers.players import Limit

Action = Setup | Move


def random_setup(variant: Variant, side: Side, rng: random.Random) -> Setup:
    """A set-up drawn uniformly from all legal ones.

    The paper does not say how its Monte Carlo and UPP programs set up. A fixed set-up would let an opponent that
    learns (or a person) read our colours from the start squares, so every search player here draws one at random.
    """
    return rng.choice(variant.setups(side))


def guarded_setup(variant: Variant, side: Side, rng: random.Random) -> Setup:
    """A set-up drawn uniformly from those with at least two reds in the front row and at most one red on the
    back row's two outer squares; uniformly from all where the set-up squares are a single row (4x4).

    Measured, not assumed: in 300 games of ``bayes`` against ``purple`` at 0.05 s a move (random set-ups on both
    sides, seed 41), ``bayes`` won 19 of 58 games (33%) with one red in front and 137 of 239 (57%) with two or
    more; 24 of 57 (42%) with reds on both back corners. Reds in front meet the first contacts (a capture there
    costs the opponent a piece it thought blue, or shows it a red it must avoid) while the blues wait behind
    them. Still a draw among 47 of Geister's 70 set-ups, so the colours are not read from the squares.
    """
    squares = variant.setup_squares[side]
    home = 0 if side is Side.P1 else variant.height - 1
    depth = [abs(square.rank - home) for square in squares]
    front = [i for i, d in enumerate(depth) if d == max(depth)]
    back = [i for i, d in enumerate(depth) if d == min(depth)]
    if front == back:
        return random_setup(variant, side, rng)
    back_corners = [
        i for i in back if squares[i].file in (min(squares[j].file for j in back), max(squares[j].file for j in back))
    ]

    def guarded(setup: Setup) -> bool:
        red = [colour is Colour.RED for colour in setup.colours]
        return sum(red[i] for i in front) >= 2 and sum(red[i] for i in back_corners) <= 1

    choices = [setup for setup in variant.setups(side) if guarded(setup)]
    return rng.choice(choices or variant.setups(side))


def outer_setup(variant: Variant, side: Side, rng: random.Random) -> Setup:
    """Blue on the set-up squares farthest from the board's centre file ("the outer four" on 6x6).

    On 6x6 this is exactly the paper's figure 2 (b and e files blue, c and d red). On 4x4 every set-up square is
    equally far from the centre, so the tie is broken at random rather than always giving the same set-up away.
    """
    squares = variant.setup_squares[side]
    centre = (variant.width - 1) / 2
    order = sorted(range(len(squares)), key=lambda i: (-abs(squares[i].file - centre), rng.random()))
    blues = set(order[: variant.blues[side]])
    return Setup(tuple(Colour.BLUE if i in blues else Colour.RED for i in range(len(squares))))


class ChototsuPlayer:
    """The "Chototsu" (foolhardy) player of the UPP paper (Mishio & Kotani, section 1).

    Set-up: the outer pieces blue, the inner ones red. Each turn, in order:

    1. escape with a blue piece if one stands on an own exit;
    2. else, if a blue piece has reached the far rank, step it toward the nearer own exit;
    3. else advance the blue piece nearest the far rank one square forward (ties broken at random).

    The paper leaves open what happens when the chosen step is blocked by an own piece. Chosen here: try the next
    candidate in the same order (the other far-rank blues, then the other blues by distance); if no blue piece can
    make its step, play a random legal move. Forward steps onto an opponent piece capture it, foolhardily.
    """

    name = "chototsu"

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Action:
        if view.phase == "setup":
            return outer_setup(view.variant, view.viewer, rng)
        legal = view.legal_moves()
        if not legal:
            raise ValueError(f"{view.viewer} has nothing to play")
        legal_set = set(legal)
        escapes = [m for m in legal if m.is_escape]
        if escapes:
            return escapes[0]
        for move in self._preferred_steps(view, rng):
            if move in legal_set:
                return move
        return rng.choice(legal)

    @staticmethod
    def _preferred_steps(view: GeisterView, rng: random.Random) -> list[Move]:
        variant, me = view.variant, view.viewer
        far = variant.far_rank(me)
        blues = [sq for sq, piece in view.pieces(me) if piece.colour is Colour.BLUE]
        on_far = [sq for sq in blues if sq.rank == far]
        steps: list[Move] = []

        def nearest_exit(square: Square) -> Square:
            return min(variant.exits[me], key=lambda e: (square.distance(e), e.file))

        for square in sorted(on_far, key=lambda s: (s.distance(nearest_exit(s)), rng.random())):
            target = nearest_exit(square)
            step = 1 if target.file > square.file else -1
            steps.append(Move(square, Square(square.file + step, square.rank)))
        others = [sq for sq in blues if sq.rank != far]
        for square in sorted(others, key=lambda s: (abs(far - s.rank), rng.random())):
            steps.append(Move(square, Square(square.file, square.rank + variant.forward(me))))
        return steps


class GreedyPlayer:
    """Escape if possible; else capture the most advanced opponent piece it can reach; else a random move.

    Why it exists: Chototsu is a weak yardstick (this player beats it most of the time), so a search player must
    also be measured against something that at least takes what is offered. "Most advanced": the opponent piece
    nearest to the rank it races toward (our home rank, where its exits are), ties broken at random. Set-up:
    random (``random_setup``).
    """

    name = "greedy"

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Action:
        if view.phase == "setup":
            return random_setup(view.variant, view.viewer, rng)
        legal = view.legal_moves()
        if not legal:
            raise ValueError(f"{view.viewer} has nothing to play")
        escapes = [m for m in legal if m.is_escape]
        if escapes:
            return escapes[0]
        their_goal = view.variant.far_rank(view.viewer.other)
        captures = []
        for move in legal:
            assert move.dst is not None
            target = view.piece_at(move.dst)
            if target is not None and target.side is not view.viewer:
                captures.append((abs(move.dst.rank - their_goal), rng.random(), move))
        if captures:
            return min(captures)[2]
        return rng.choice(legal)
