"""Players for Mini-Geister built on the solved tables: the paper's Nash strategy, its section-5 mirror strategy for
player 2, and the strongest opponent the equilibrium is tested against (an adversary that reads the Nash player's
own table). ``benchmarks/mini_geister_nash.py`` plays them in the arena.

The Nash player (Tanaka & Takaoka, section 2) draws its colours at random and then plays as if it did not know them
("purple"): every move comes from the colourless table, so its play carries no information about its colours, and
each event that ends the game averages exactly 0 for it:

* an escape attempt (a piece of its own on its exit at its turn): it looks at the piece; blue escapes and wins;
  red may not leave the board here (the paper counts it as a foul loss, -1). The guarantee has then been spent
  (the paper books -1), so the player plays on knowing its colours (Chototsu's charge), which can only do better;
* a random capture (every opponent piece next to one of its own): it takes one of the two at random, a 50% win;
* a guess (extended rule, section 4): it guesses the opponent's colours at random and plays the perfect-information
  win for that guess, using its own colours from now on: right half the time, and then a sure win;
* being captured: the captured piece's colour was a coin toss, so 0 on average.

Against any opponent that cannot see its colours, then, its average payoff is >= 0 from any placement of table
value 1, and also from value 0 if endless play scores 0 (the paper's section 5 convention; here the ply limit
makes it a draw).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.game import Side
from core.geister import Colour, GeisterState, GeisterView, Setup
from core.notation import Move, Square
from solvers.geister.baselines import ChototsuPlayer, random_setup
from solvers.mini_geister.analysis import MiniGeisterTables, equilibrium_moves, perfect_information_value
from solvers.mini_geister.model import MINI, Rule
from solvers.players import Limit, RandomPlayer


def _with_opponent_colours(view: GeisterView, guess: dict[Square, Colour]) -> str:
    """The viewer's position with the opponent's unknown pieces given the guessed colours (ranks from the top)."""
    text = view.position()
    ranks, _, rest = text.partition(" ")
    theirs = view.viewer.other
    unknown = Colour.UNKNOWN.letter(theirs)
    squares = sorted(
        (sq for sq, piece in view.pieces(theirs) if piece.colour is Colour.UNKNOWN), key=lambda s: (-s.rank, s.file)
    )
    out, index = [], 0
    for char in ranks:
        if char == unknown:
            out.append(guess[squares[index]].letter(theirs))
            index += 1
        else:
            out.append(char)
    return "".join(out) + " " + rest


def perfect_information_move(state: GeisterState, rng: random.Random) -> Move:
    """The fastest forced win in a colours-known position (or, without one, the longest resistance), by the
    perfect-information table: each move's result is read from the position after it."""
    best: tuple[int, int] | None = None
    choices: list[Move] = []
    for move in state.legal_moves():
        after = state.clone()
        after.push(move)
        outcome = after.outcome()
        if outcome is not None:
            score = (1, 0) if outcome.winner is state.to_move else ((-1, 0) if outcome.winner is not None else (0, 0))
        else:
            reply = perfect_information_value(after)  # for the opponent, now to move
            value = -reply.value
            distance = reply.distance or 0
            # Winners hurry, losers delay.
            score = (value, -distance if value > 0 else distance)
        if best is None or score > best:
            best, choices = score, [move]
        elif score == best:
            choices.append(move)
    return rng.choice(choices)


@dataclass
class _Game:
    """What the Nash player remembers about the game in progress (it is told nothing else between moves)."""

    moves_seen: int = 0
    #: Set once the purple phase is over: "guess" (playing a guessed world) or "charge" (after a red escape attempt).
    mode: str = "purple"
    guess: dict[Square, Colour] | None = None


class NashPlayer:
    """The paper's equilibrium strategy for either player (see the module docstring)."""

    name = "nash"

    def __init__(self, rule: Rule = "base", tables: MiniGeisterTables | None = None) -> None:
        self.rule: Rule = rule
        if rule == "extended":
            self.name = "nash-extended"
        self.tables = tables
        self._game = _Game()
        #: The events it met, for the experiment's report ("escape", "capture", "guess", "captured").
        self.events: list[str] = []

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Setup | Move:
        if view.phase == "setup":
            self._game = _Game()
            return random_setup(view.variant, view.viewer, rng)
        if len(view.moves) < self._game.moves_seen:  # a new game (or an undo): start afresh
            self._game = _Game()
        self._game.moves_seen = len(view.moves)
        if self._game.mode == "guess":
            assert self._game.guess is not None
            return self._guessed_world_move(view, rng)
        if self._game.mode == "charge":
            return ChototsuPlayer().choose(view, rng)
        legal = view.legal_moves()
        mine = [sq for sq, _ in view.pieces(view.viewer)]
        theirs = [sq for sq, _ in view.pieces(view.viewer.other)]
        if len(mine) != 2 or len(theirs) != 2:  # not a 2-vs-2 placement: the tables do not apply
            return RandomPlayer().choose(view, rng)
        moves = equilibrium_moves(view.position(), view.viewer, self.rule, self.tables)
        escapes = [m for m in moves if m.is_escape]
        if escapes:
            # The escape attempt: only now does it look at the piece.
            self.events.append("escape")
            blue_escapes = [m for m in escapes if self._colour(view, m.src) is Colour.BLUE]
            if blue_escapes:
                return blue_escapes[0]
            self._game.mode = "charge"
            return ChototsuPlayer().choose(view, rng)
        captures = [m for m in moves if m.dst is not None and view.piece_at(m.dst) is not None]
        if captures:
            self.events.append("capture")
            target = rng.choice(sorted({m.dst for m in captures if m.dst is not None}, key=str))
            return rng.choice([m for m in captures if m.dst == target])
        if not moves:
            # The guess (extended rule): a coin decides the opponent's colours; then it plays that world's win.
            self.events.append("guess")
            squares = list(theirs)
            colours = [Colour.BLUE, Colour.RED]
            rng.shuffle(colours)
            self._game.guess = dict(zip(squares, colours, strict=True))
            self._game.mode = "guess"
            return self._guessed_world_move(view, rng)
        return rng.choice(moves) if moves else rng.choice(legal)

    @staticmethod
    def _colour(view: GeisterView, square: Square) -> Colour:
        piece = view.piece_at(square)
        assert piece is not None
        return piece.colour

    def _guessed_world_move(self, view: GeisterView, rng: random.Random) -> Move:
        guess = self._game.guess
        assert guess is not None
        # Follow the guessed pieces as they move: the opponent's last move carried one of them.
        last = view.last_move
        if last is not None and last.src in guess and last.dst is not None and view.to_move is view.viewer:
            guess[last.dst] = guess.pop(last.src)
        current = {sq for sq, _ in view.pieces(view.viewer.other)}
        if set(guess) != current:  # the opponent's pieces are not where the guess put them: play on its moves
            move = ChototsuPlayer().choose(view, rng)
            assert isinstance(move, Move)
            return move
        world = GeisterState.from_position(_with_opponent_colours(view, guess), MINI)
        return perfect_information_move(world, rng)


class MirrorPlayer:
    """The paper's section-5 strategy for player 2: random colours, then mirror player 1's last move up-down, so the
    board is symmetric at player 1's turn. Player 1 can then only gain by stepping from rank 2 to rank 3, which
    captures player 2's mirrored piece (a coin toss). As player 1 (nothing to mirror) it plays at random."""

    name = "mirror"

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Setup | Move:
        if view.phase == "setup":
            return random_setup(view.variant, view.viewer, rng)
        legal = view.legal_moves()
        last = view.last_move
        if view.viewer is Side.P2 and last is not None:
            height = view.variant.height
            mirrored = Move(
                Square(last.src.file, height - 1 - last.src.rank),
                None if last.dst is None else Square(last.dst.file, height - 1 - last.dst.rank),
            )
            if mirrored in legal:
                return mirrored
        return rng.choice(legal)


class TableAdversary:
    """The strongest opponent here: it reads the Nash player's own table and watches for what its play gives away.

    It plays the replies that resist the Nash player best by its table (fastest to its own exit event, else keeping
    the placement undecided, else the longest delay), and escapes whenever its blue stands on an exit. A capture of a
    purple piece is a coin toss, so it captures only what it has inferred: a Nash piece that stood on its exit at the
    Nash player's turn and did not leave must be red, so the other one is blue, and it takes that one when it can
    (and never the red one). This is exactly the information the paper's strategy leaks once its event has passed.
    """

    name = "adversary"

    def __init__(self, rule: Rule = "base", tables: MiniGeisterTables | None = None) -> None:
        self.rule: Rule = rule
        self.tables = tables
        #: The Nash pieces' squares (by slot) as the Nash player saw them at its last turn.
        self._before_their_turn: dict[int, Square] = {}
        self._known_red: set[int] = set()
        self._moves_seen = 0

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Setup | Move:
        if view.phase == "setup":
            self._before_their_turn, self._known_red, self._moves_seen = {}, set(), 0
            return random_setup(view.variant, view.viewer, rng)
        if len(view.moves) < self._moves_seen:
            self._before_their_turn, self._known_red = {}, set()
        self._moves_seen = len(view.moves)
        them = view.viewer.other
        exits = set(view.variant.exits[them])
        for slot, square in self._before_their_turn.items():
            if square in exits:  # it stood on its exit at its turn and is still in the game: it is red
                self._known_red.add(slot)
        legal = view.legal_moves()
        move = self._pick(view, legal, rng)
        # After this move the Nash pieces stand where they are now, which is what they will see at their turn.
        self._before_their_turn = {piece.slot: sq for sq, piece in view.pieces(them)}
        return move

    def _pick(self, view: GeisterView, legal: list[Move], rng: random.Random) -> Move:
        escapes = [m for m in legal if m.is_escape]
        if escapes:
            return escapes[0]
        them = view.viewer.other
        slots = {piece.slot for _, piece in view.pieces(them)}
        if self._known_red and slots - self._known_red:
            targets = [
                m
                for m in legal
                if m.dst is not None
                and (p := view.piece_at(m.dst)) is not None
                and p.side is them
                and p.slot not in self._known_red
            ]
            if targets:
                return targets[0]
        quiet_legal = [m for m in legal if m.dst is None or view.piece_at(m.dst) is None]
        if len(list(view.pieces())) != 4:
            return rng.choice(quiet_legal or legal)
        replies = equilibrium_moves(view.position(), them, self.rule, self.tables)
        quiet = [m for m in replies if m in quiet_legal]
        return rng.choice(quiet or quiet_legal or legal)
