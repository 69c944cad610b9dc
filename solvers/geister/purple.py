"""``purple``: a contest-style alpha-beta player for the Geister family, on the compiled engine.

The search is ``solvers.geister_engine.search`` (the purple-piece model of Kawakami and Hashimoto, as the GAT 2020
winner plays it, with iterative deepening, a transposition table, move ordering and an escape-threat extension).
This module is the player around it:

* the model's inputs from the view: our colours, the opponent's pieces purple except the ones proven red
  (``solvers.geister.colour_evidence``), and the counts of reds and blues the captures have revealed;
* time: iterative deepening, each iteration given the nodes the time left allows at the search's speed (measured
  over this search once it has run long enough to tell, else over the player's earlier searches); a
  new iteration starts only when it is likely to finish;
* the choice: the best root move; ties (moves within ``MARGIN`` of the best) are broken at random with the
  player's own generator, so that its play does not give its colours away by always choosing the same way;
* set-up: random (``random_setup``).

It is the sparring partner the strongest AI must beat, and a player of its own in the arena and the app.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from core.geister import Colour, GeisterView, Setup, Variant
from core.notation import Move, Square
from solvers.geister.baselines import random_setup
from solvers.geister.colour_evidence import proven_reds
from solvers.geister_engine import convert
from solvers.geister_engine.layout import MAX_MOVES
from solvers.geister_engine.tables import tables
from solvers.players import Limit

__all__ = ["PurplePlayer", "SearchReport", "risky_captures"]

Ints = npt.NDArray[np.int64]

#: The budget when the caller gives none: the contest programs' usual fraction of a second.
DEFAULT_TIME = 0.5
#: Root moves whose values are within this of the best are equally good to the player: one is drawn at random.
MARGIN = 4
#: No search goes deeper than this (the engine's stacks are sized for it, with room for extensions).
MAX_DEPTH = 40
#: Search nodes per playout of a playout budget: about what one playout costs the engine, measured
#: (``benchmarks/geister_engine.py``: ~34 million nodes and ~250,000 random playouts a second on one core).
NODES_PER_PLAYOUT = 100
#: Search speed assumed before any search has been measured (nodes a second; the engine does 2-3 million on one
#: core of the reference machine, so this errs on the side of finishing early), and the running time after which
#: a search's own speed is trusted.
FIRST_SPEED = 1_000_000.0
SPEED_SAMPLE = 0.02
#: Values beyond this are no position's worth (the evaluation stays far below it, a test checks): they are proven
#: results, or a chance node's weighed one (a move that may lose or win the game at once).
DECIDED = 50_000


@dataclass(frozen=True)
class SearchReport:
    """One iteration of the search: what it found and what it cost (picklable, for the advice process)."""

    depth: int
    #: Root moves, best first, with their values for the player (``MATE - plies`` for a proven win).
    moves: tuple[tuple[Move, int], ...]
    best: Move
    nodes: int
    seldepth: int
    elapsed: float
    final: bool = False
    #: The opponent's pieces (slots) the model takes as red.
    proven_red: frozenset[int] = field(default_factory=frozenset)
    #: Each opponent piece on the board (its square) with the chance of blue the search gave it, most likely blue
    #: first (``purple``: proven reds 0, the others shared out by the counts; ``bayes``: its belief).
    blue: tuple[tuple[Square, float], ...] = ()
    #: Captures that lose at once if the piece is red (the opponent's last red may be it): held back from the search
    #: while another move risks no immediate loss (``risky_captures``).
    risky: frozenset[Move] = field(default_factory=frozenset)
    #: The values are expected results times ``MATE`` (the learned evaluation's, ``context.EVAL_LEARNED``): a value
    #: ``v`` is a chance to win of ``(1 + v / MATE) / 2``. Else scores in thousandths of a blue piece.
    expected: bool = False
    #: The line the search expects, ``best`` first (its principal variation: the moves its table kept). It ends
    #: early after a capture of a piece whose colour is unknown, as the rest depends on that colour.
    line: tuple[Move, ...] = ()

    @property
    def value(self) -> int:
        return self.moves[0][1]


def _context(view: GeisterView, kinds: dict[int, Colour], chance: bool = False, careful: bool = False) -> Ints:
    """The search's context for ``view``, the opponent pieces of ``kinds`` taken as that colour (the rest purple);
    ``chance``: captures and escapes weighed by belief; ``careful``: the opponent spares what may be our last red."""
    from solvers.geister_engine import search as sr

    me, them = view.viewer, view.viewer.other
    variant = view.variant
    reds_captured = sum(1 for p in view.captured if p.side is them and p.colour is Colour.RED)
    blues_captured = sum(1 for p in view.captured if p.side is them and p.colour is Colour.BLUE)
    on_board = [piece for _, piece in view.pieces(them)]
    taken_red = sum(1 for piece in on_board if kinds.get(piece.slot) is Colour.RED)
    taken_blue = sum(1 for piece in on_board if kinds.get(piece.slot) is Colour.BLUE)
    c = np.zeros(sr.C_SIZE, dtype=np.int64)
    c[sr.C_ME], c[sr.C_THEM] = int(me), int(them)
    c[sr.C_R0] = variant.reds[them] - reds_captured
    c[sr.C_B0] = variant.blues[them] - blues_captured
    c[sr.C_K0] = taken_red
    c[sr.C_P0] = len(on_board) - taken_red - taken_blue
    c[sr.C_RED_CAPTURED] = reds_captured
    c[sr.C_BLUE_CAPTURED] = blues_captured
    c[sr.C_CHANCE] = int(chance)
    c[sr.C_CAREFUL] = int(careful)
    c[sr.C_SALT] = sr.model_salt(c)
    c[sr.C_MAX_EXTENSION] = 4
    c[sr.C_MARGIN] = MARGIN
    return c


class PurplePlayer:
    """Alpha-beta over purple pieces (see the module docstring)."""

    name = "purple"

    def __init__(self, weights: Ints | None = None) -> None:
        from solvers.geister_engine import search as sr

        self.weights = sr.DEFAULT_WEIGHTS.copy() if weights is None else np.asarray(weights, dtype=np.int64)
        self._arrays: dict[str, Any] | None = None
        #: Nodes a second, measured over earlier searches (a first guess until one has run long enough).
        self._speed = FIRST_SPEED
        #: This player's searches so far, modulo the table's field (``search.C_GENERATION``).
        self._searches = 0
        sr.warm_up()  # compiled (or loaded) before the first decision, not during it

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Setup | Move:
        if view.phase == "setup":
            return random_setup(view.variant, view.viewer, rng)
        if self.ENDGAME_TABLES:
            from solvers.geister.tablebase import winning_move

            won = winning_move(view)  # None (the tables unread) unless each side is down to one blue and one red
            if won is not None:
                return won
        *_, final = self.analyse(view, limit, rng)
        return final.best

    #: Weigh captures and escapes of purple pieces by their chance of being blue (``blue_chances``) instead of
    #: taking the worst case.
    CHANCE = False
    #: Play the endgame tables' sure wins (``solvers.geister.tablebase``) once each side is down to one blue and one
    #: red: the search can miss a win past its horizon that the tables prove. Off here (the baseline); bayes uses them.
    ENDGAME_TABLES = False
    #: Search features switched off (``search.NO_TABLE``, ``NO_ORDERING``, ``NO_PRUNING``): for benchmarks' baselines.
    FLAGS = 0
    #: The static evaluation (``context.EVAL_HANDCRAFTED``, with ``weights``; or ``EVAL_LEARNED``, with the learned
    #: model's weights): the handcrafted one here.
    EVAL = 0
    #: Root moves within this of the best are equally good (one is drawn at random), in the search's units.
    MARGIN = MARGIN
    #: Hold back the captures that may take the opponent's last red while any other move risks no immediate loss
    #: (``risky_captures``), whatever the belief says. Off for a player whose belief is calibrated: it weighs them.
    HOLD_BACK_RISKY = True

    def kinds(self, view: GeisterView) -> dict[int, Colour]:
        """The opponent pieces (slots) the model takes as red or blue instead of purple: here the proven reds
        (hard evidence only, as the contest programs do)."""
        return dict.fromkeys(proven_reds(view), Colour.RED)

    def careful_opponent(self, view: GeisterView) -> bool:
        """Whether the search takes the opponent to spare our pieces while one of them may be our last red
        (``search.C_CAREFUL``). Not here: purple takes the worst case, an opponent that knows our colours."""
        return False

    def probabilities(self, view: GeisterView, chances: dict[int, float]) -> Ints:
        """What the search reads of ``chances`` (``blue_chances``): each opponent piece's chance of being blue, in
        thousandths, by square; every square 1000 (the worst case) unless ``CHANCE``."""
        prob = np.full(64, 1000, dtype=np.int64)
        if self.CHANCE:
            for square, piece in view.pieces(view.viewer.other):
                prob[view.variant.index(square)] = round(1000 * chances[piece.slot])
        return prob

    def blue_chances(self, view: GeisterView) -> dict[int, float]:
        """Each opponent piece's (slot's) chance of being blue as the player sees it, for reports: the proven reds
        none, the others an equal share of the blues left (purple itself fears each of them as a blue)."""
        them = view.viewer.other
        proven = proven_reds(view)
        slots = [piece.slot for _, piece in view.pieces(them)]
        open_slots = [slot for slot in slots if slot not in proven]
        blues_left = view.remaining(them, Colour.BLUE)
        share = min(1.0, blues_left / len(open_slots)) if open_slots else 0.0
        return {slot: (0.0 if slot in proven else share) for slot in slots}

    def _search_arrays(self) -> dict[str, Any]:
        """The table, killers, history and move stacks this player keeps from one search to the next."""
        from solvers.geister_engine import search as sr

        if self._arrays is None:
            self._arrays = sr.new_context()
        return self._arrays

    def _iteration(self, s: Ints, t: Ints, c: Ints, prob: Ints, depth: int, moves: Ints, values: Ints) -> int:
        """One deepening iteration over the root ``moves`` (see ``search.search_root``): the moves finished."""
        from solvers.geister_engine import search as sr

        arrays = self._search_arrays()
        done: int = sr.search_root(
            s,
            t,
            c,
            self.weights,
            prob,
            depth,
            arrays["tt_keys"],
            arrays["tt_data"],
            arrays["killers"],
            arrays["history"],
            arrays["move_stack"],
            arrays["score_stack"],
            moves,
            values,
        )
        return done

    def _expected_line(self, variant: Variant, s: Ints, t: Ints, c: Ints, best: Move, depth: int) -> tuple[Move, ...]:
        """The line the last iteration expects after ``best`` (``search.expected_line``), at most ``depth`` moves."""
        from solvers.geister_engine import search as sr

        arrays = self._search_arrays()
        codes = sr.expected_line(
            s, t, c, arrays["tt_keys"], arrays["tt_data"], convert.encode_move(variant, best), max(depth, 1)
        )
        return tuple(convert.decode_move(variant, code) for code in codes)

    def analyse(self, view: GeisterView, limit: Limit | None, rng: random.Random) -> Iterator[SearchReport]:
        """One report per completed iteration of the deepening search; the last has ``final=True``."""
        from solvers.geister_engine import kernel
        from solvers.geister_engine import search as sr

        if not view.my_turn:
            raise ValueError(f"it is not {view.viewer}'s turn to move")
        started = time.perf_counter()
        variant = view.variant
        t = tables(variant)
        kinds = self.kinds(view)
        s = convert.from_view(view, kinds, purple_escapes=True)
        c = _context(view, kinds, self.CHANCE, self.careful_opponent(view))
        c[sr.C_FLAGS] = self.FLAGS
        c[sr.C_EVAL] = self.EVAL
        expected = self.EVAL == sr.EVAL_LEARNED
        c[sr.C_MARGIN] = self.MARGIN
        c[sr.C_SALT] = sr.model_salt(c)
        if self.CHANCE:
            # The beliefs change from one search to the next: values an earlier search left in the table were
            # searched under others (a capture judged risky then may be sure now), so only their moves are reused.
            self._searches = self._searches % 0xFFFF + 1
            c[sr.C_GENERATION] = self._searches
        if limit is not None and limit.exact:
            # Exact values for every root move (the live advice lists them), instead of bounds for the moves more
            # than ``MARGIN`` below the best (enough to choose a move, and cheaper).
            c[sr.C_MARGIN] = 4 * sr.MATE
        chances = self.blue_chances(view)
        prob = self.probabilities(view, chances)
        arrays = self._search_arrays()
        arrays["killers"].fill(-1)
        arrays["history"] //= 8  # old history still orders, but the new search soon outweighs it
        moves = np.full(MAX_MOVES + 1, -1, dtype=np.int64)
        n = kernel.gen_moves(s, t, moves)
        if n == 0:
            raise ValueError(f"{view.viewer} has no legal move")
        moves[n:] = -1
        proven = frozenset(slot for slot, colour in kinds.items() if colour is Colour.RED)
        risky = risky_captures(view, proven)
        # A capture that may take the opponent's last red is never played while another move exists that risks no
        # immediate loss, whatever the belief says the capture is worth: a wrong belief loses the game at once, and
        # an opponent who offers a piece may be offering its last red. So such captures are held back from the root
        # and join only if every other move's value is at or below ``-DECIDED`` (a piece that may be blue stands on
        # its exit, say). Held back, not filtered afterwards: the values of the moves that are not best are only
        # bounds, which cannot tell a safe move from a losing one.
        risky_codes = {convert.encode_move(variant, move) for move in risky} if self.HOLD_BACK_RISKY else set()
        held_back = [int(m) for m in moves[:n] if int(m) in risky_codes]
        if held_back and len(held_back) < n:
            searched = [int(m) for m in moves[:n] if int(m) not in risky_codes]
            moves[: len(searched)] = searched
            moves[len(searched) :] = -1
            n = len(searched)
        else:
            held_back = []
        values = np.zeros(MAX_MOVES + 1, dtype=np.int64)
        seconds = _seconds(limit)
        fixed_depth = limit.depth if limit is not None and limit.depth else None
        # Report at least this often on a time budget (``Limit.slice_seconds``); the table keeps what a slice found.
        slice_seconds = limit.slice_seconds if limit is not None else None
        # A playout budget (the arena's reproducible unit) becomes a node budget: the same nodes on any machine.
        node_budget = limit.playouts * NODES_PER_PLAYOUT if limit is not None and limit.playouts else None
        deadline = started + seconds
        nodes_before = 0
        last: SearchReport | None = None
        depth = 0
        squares = {piece.slot: square for square, piece in view.pieces(view.viewer.other)}
        blue = tuple(sorted(((squares[slot], p) for slot, p in chances.items()), key=lambda sp: (-sp[1], str(sp[0]))))
        # The search's speed is measured from here: reading the view (beliefs, evidence) costs time too, but no nodes.
        search_started = time.perf_counter()
        while depth < MAX_DEPTH:
            depth += 1
            now = time.perf_counter()
            if fixed_depth is not None:
                if depth > fixed_depth:
                    break
                c[sr.C_MAX_NODES] = 1 << 62
            elif node_budget is not None:
                if c[sr.C_NODES] >= node_budget:
                    break
                c[sr.C_MAX_NODES] = node_budget
            else:
                left = deadline - now
                if left <= 0:
                    break
                # A few milliseconds say little about the speed (the first iterations are tiny and call overhead
                # dominates): trust this search's own figure only once it has run for a while.
                spent = now - search_started
                speed = nodes_before / spent if spent >= SPEED_SAMPLE else self._speed
                slice_left = left if slice_seconds is None else min(left, slice_seconds)
                c[sr.C_MAX_NODES] = int(c[sr.C_NODES]) + max(int(speed * slice_left), 1_000)
            c[sr.C_ABORT] = 0
            done = self._iteration(s, t, c, prob, depth, moves, values)
            nodes_before = int(c[sr.C_NODES])
            sliced = fixed_depth is None and node_budget is None and slice_seconds is not None
            if done < n and sliced and time.perf_counter() < deadline:
                # The slice ended inside this iteration: say so (the last finished iteration stands), then take the
                # same depth up again, its finished subtrees now in the table.
                if last is not None:
                    yield replace(last, nodes=nodes_before, elapsed=time.perf_counter() - started)
                depth -= 1
                continue
            if done == 0:
                break  # not one root move finished: the previous iteration stands
            if held_back and done == n and int(values[0]) <= -DECIDED:
                # Every other move risks losing at once as well: the held-back captures join, at this depth again.
                moves[n : n + len(held_back)] = held_back
                n += len(held_back)
                held_back = []
                depth -= 1
                continue
            ranked = tuple((convert.decode_move(variant, int(moves[i])), int(values[i])) for i in range(done))
            best = _pick(ranked, rng, self.MARGIN)
            last = SearchReport(
                depth,
                ranked,
                best,
                nodes_before,
                int(c[sr.C_SELDEPTH]),
                time.perf_counter() - started,
                False,
                proven,
                blue,
                risky,
                expected,
                self._expected_line(variant, s, t, c, best, depth),
            )
            yield last
            if done < n or abs(ranked[0][1]) > sr.MATE - 1000:
                break  # the budget ran out in this iteration, or the result is proven
            if fixed_depth is None and node_budget is None:
                now = time.perf_counter()
                # The next iteration costs about twice the search so far: start it only if it can likely finish.
                if (now - search_started) * 2 > deadline - now:
                    break
        if last is None:  # no iteration finished at all (a tiny budget): depth 1 with no limit
            c[sr.C_MAX_NODES] = 1 << 62
            c[sr.C_ABORT] = 0
            done = self._iteration(s, t, c, prob, 1, moves, values)
            ranked = tuple((convert.decode_move(variant, int(moves[i])), int(values[i])) for i in range(done))
            best = _pick(ranked, rng, self.MARGIN)
            last = SearchReport(
                1,
                ranked,
                best,
                int(c[sr.C_NODES]),
                1,
                0.0,
                False,
                proven,
                blue,
                risky,
                expected,
                self._expected_line(variant, s, t, c, best, 1),
            )
        search_time = time.perf_counter() - search_started
        if search_time >= SPEED_SAMPLE:
            self._speed = int(c[sr.C_NODES]) / search_time
        elapsed = time.perf_counter() - started
        yield SearchReport(
            last.depth,
            last.moves,
            last.best,
            int(c[sr.C_NODES]),
            int(c[sr.C_SELDEPTH]),
            elapsed,
            True,
            proven,
            blue,
            risky,
            expected,
            last.line,
        )


def _seconds(limit: Limit | None) -> float:
    if limit is not None and limit.time:
        return float(limit.time)
    return DEFAULT_TIME


def risky_captures(view: GeisterView, proven_red: frozenset[int]) -> frozenset[Move]:
    """The captures that lose at once if the piece taken is red: when the opponent has one red left and the piece
    is not known blue (it is known blue when the last red is a proven red elsewhere)."""
    them = view.viewer.other
    if view.remaining(them, Colour.RED) != 1:
        return frozenset()
    on_board = dict(view.pieces(them))
    last_red_known = any(piece.slot in proven_red for piece in on_board.values())
    risky = set()
    for move in view.legal_moves():
        taken = on_board.get(move.dst) if move.dst is not None else None
        if taken is not None and (taken.slot in proven_red or not last_red_known):
            risky.add(move)
    return frozenset(risky)


def _pick(ranked: tuple[tuple[Move, int], ...], rng: random.Random, margin: int = MARGIN) -> Move:
    """One of the moves within ``margin`` of the best, at random; but a proven win is taken by its shortest way
    (a win in one ply is an escape: never traded for a longer win that a wrong belief might spoil)."""
    from solvers.geister_engine.search import MATE

    best = ranked[0][1]
    if abs(best) > MATE - 1000:
        return ranked[0][0]
    near = [move for move, value in ranked if value >= best - margin]
    return rng.choice(near) if len(near) > 1 else ranked[0][0]
