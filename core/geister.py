"""The Geister family as a game: one rules engine for every ``Variant``, its state and each player's view.

A game starts with a set-up phase: player 1, then player 2, chooses which of its pieces are red (a ``Setup`` action,
hidden from the opponent's view); then the players alternate moves. The board itself (pieces, variants, move rules,
the position notation) is ``core.geister_board``; this module re-exports its names, so ``core.geister`` is the
family's one public module.

Colours may be ``UNKNOWN`` in a full state too: the colourless Mini-Geister analysis and records whose set-ups are
hidden (``?``) use them. Such a piece may try to escape (only a blue one could have), and capturing it decides
nothing; the record's result tag says how such a game ended.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from core.errors import IllegalMoveError, InvalidPositionError
from core.game import TERMINAL, Game, Outcome, Side
from core.game_type import MAX_SEED, GameType, Parameter
from core.geister_board import (
    GEISTER,
    MINI_GEISTER,
    VARIANTS,
    Colour,
    Piece,
    Setup,
    Variant,
    format_position,
    hide_colours,
    moves_for,
    parse_position,
    variant_by_name,
    why_illegal,
)
from core.notation import Move, Square

__all__ = [
    "GEISTER",
    "MINI_GEISTER",
    "VARIANTS",
    "Colour",
    "GeisterState",
    "GeisterView",
    "Piece",
    "Setup",
    "Variant",
    "check_geister_position",
    "variant_by_name",
]


# --------------------------------------------------------------------------------------------------- the state

Phase = Literal["setup", "play", "over"]


@dataclass(frozen=True)
class _MoveUndo:
    move: Move
    piece: Piece
    captured: Piece | None
    outcome: Outcome | None


@dataclass(frozen=True)
class _SetupUndo:
    side: Side
    setup: Setup


class GeisterState:
    """A Geister-family game: set-up phase, then moves. Implements ``core.game.Game``.

    Actions are ``Setup`` values in the set-up phase and ``Move`` values after it.
    """

    def __init__(self, variant: Variant, first: Side = Side.P1) -> None:
        """A new game in its set-up phase: player 1 chooses its set-up, then player 2, then ``first`` moves."""
        self.variant = variant
        self.game_name = variant.name
        self._board: list[Piece | None] = [None] * (variant.width * variant.height)
        self._first = first
        self._to_move = first
        self._ply = 0
        self._setups: list[Setup | None] = [None, None]
        self._captured: list[Piece] = []
        self._escaped: Piece | None = None
        self._outcome: Outcome | None = None
        self._undo: list[_MoveUndo | _SetupUndo] = []
        self._start: str | None = None  # a position the game started from, instead of a set-up phase

    # ---- construction

    @classmethod
    def from_setups(
        cls, variant: Variant, setup1: Setup | str, setup2: Setup | str, first: Side = Side.P1
    ) -> GeisterState:
        state = cls(variant, first)
        for side, setup in ((Side.P1, setup1), (Side.P2, setup2)):
            state.apply(variant.parse_setup(setup, side) if isinstance(setup, str) else setup)
        return state

    @classmethod
    def from_position(cls, text: str, variant: Variant | str | None = None) -> GeisterState:
        """A game starting from a position (``spec/notation.md``); the variant is inferred when not given."""
        if isinstance(variant, str):
            variant = variant_by_name(variant)
        parsed = parse_position(text, variant)
        state = cls(parsed.variant, parsed.to_move)
        state._board = parsed.board
        state._captured = parsed.captured
        state._ply = parsed.ply
        state._start = state.position()
        state._setups = [None, None]
        state._outcome = state._decide_after_capture(None) or state._decide_turn()
        return state

    # ---- the Game protocol

    def current_player(self) -> int:
        if self._outcome is not None:
            return TERMINAL
        return int(self._setup_side() if self.phase == "setup" else self._to_move)

    def legal_actions(self, player: Side | None = None) -> list[Setup | Move]:
        if self._outcome is not None:
            return []
        acting = self._setup_side() if self.phase == "setup" else self._to_move
        if player is not None and player is not acting:
            return []
        if self.phase == "setup":
            return list(self.variant.setups(acting))
        return list(self.legal_moves())

    def apply(self, action: Setup | Move) -> None:
        if isinstance(action, Setup):
            self._apply_setup(action)
        else:
            self.push(action)

    def apply_joint(self, actions: Sequence[Setup | Move]) -> None:
        raise IllegalMoveError("Geister is turn-based: apply one action at a time")

    def undo(self) -> None:
        if not self._undo:
            raise IndexError("nothing to undo")
        record = self._undo.pop()
        if isinstance(record, _SetupUndo):
            for square in self.variant.setup_squares[record.side]:
                self._board[self.variant.index(square)] = None
            self._setups[record.side] = None
            return
        self._pop_move(record)

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def returns(self) -> tuple[float, float]:
        return self._outcome.returns() if self._outcome else (0.0, 0.0)

    def view(self, player: Side) -> GeisterView:
        reveal_all = self._outcome is not None
        board = tuple(
            None if piece is None else piece if reveal_all or piece.side is player else piece.hidden()
            for piece in self._board
        )
        return GeisterView(
            variant=self.variant,
            viewer=player,
            phase=self.phase,
            to_move=self._to_move,
            ply=self._ply,
            board=board,
            captured=tuple(self._captured),
            escaped=self._escaped,
            moves=tuple(self.moves()),
            outcome=self._outcome,
            own_setup=self._setups[player],
            start=self._start if reveal_all or self._start is None else hide_colours(self._start, player),
        )

    def revealed_view(self, player: Side) -> GeisterView:
        """``player``'s view with every colour on the board shown: after the game, on an analysis board, and for
        a watcher of two AIs. Nothing else differs from ``view``."""
        variant = self.variant
        board = tuple(self.piece_at(variant.square(index)) for index in range(variant.width * variant.height))
        return replace(self.view(player), board=board)

    def clone(self) -> GeisterState:
        other = GeisterState.__new__(GeisterState)
        other.__dict__.update(self.__dict__)
        other._board = list(self._board)
        other._setups = list(self._setups)
        other._captured = list(self._captured)
        other._undo = list(self._undo)
        return other

    def parse_action(self, text: str) -> Setup | Move:
        if self.phase == "setup":
            return self.variant.parse_setup(text, self._setup_side())
        return Move.parse(text)

    def format_action(self, action: Setup | Move) -> str:
        return action.to_text()

    def history(self) -> list[Setup | Move]:
        return [r.setup if isinstance(r, _SetupUndo) else r.move for r in self._undo]

    # ---- Geister specifics

    @property
    def phase(self) -> Phase:
        if self._outcome is not None:
            return "over"
        if self._start is None and (self._setups[Side.P1] is None or self._setups[Side.P2] is None):
            return "setup"
        return "play"

    @property
    def first(self) -> Side:
        """The side that moves first in the play phase."""
        return self._first

    @property
    def to_move(self) -> Side:
        """The side to move in the play phase (after the game ends: the side that would have moved)."""
        return self._to_move

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def captured(self) -> tuple[Piece, ...]:
        return tuple(self._captured)

    @property
    def escaped(self) -> Piece | None:
        return self._escaped

    @property
    def start_position(self) -> str | None:
        """The position the game started from, when it did not start with a set-up phase."""
        return self._start

    def setup(self, side: Side) -> Setup | None:
        return self._setups[side]

    def piece_at(self, square: Square) -> Piece | None:
        return self._board[self.variant.index(square)] if self.variant.on_board(square) else None

    def pieces(self) -> Iterator[tuple[Square, Piece]]:
        for index, piece in enumerate(self._board):
            if piece is not None:
                yield self.variant.square(index), piece

    def moves(self) -> list[Move]:
        """The moves played so far (without the set-ups)."""
        return [r.move for r in self._undo if isinstance(r, _MoveUndo)]

    def legal_moves(self) -> list[Move]:
        if self.phase != "play":
            return []
        return moves_for(self.variant, self._board, self._to_move)

    def why_illegal(self, move: Move) -> str | None:
        if self._outcome is not None:
            return f"the game is over: {self._outcome}"
        if self.phase == "setup":
            return f"the game is still in its set-up phase ({self._setup_side()} chooses)"
        return why_illegal(self.variant, self._board, self._to_move, move)

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def push(self, move: Move) -> None:
        """Play ``move`` for the side to move; raises ``IllegalMoveError`` with the reason (nothing changes)."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(f"{move} is illegal: {reason}")
        variant = self.variant
        src = variant.index(move.src)
        piece = self._board[src]
        assert piece is not None
        self._board[src] = None
        captured = None
        if move.dst is None:
            self._escaped = piece
        else:
            dst = variant.index(move.dst)
            captured = self._board[dst]
            if captured is not None:
                self._captured.append(captured)
            self._board[dst] = piece
        self._undo.append(_MoveUndo(move, piece, captured, self._outcome))
        self._ply += 1
        mover = self._to_move
        self._to_move = mover.other
        if move.dst is None:
            self._outcome = Outcome.win(mover, f"{mover} escaped a blue piece from {move.src}")
        else:
            self._outcome = self._decide_after_capture(captured) or self._decide_turn()

    def push_text(self, text: str) -> Move:
        """Parse and play a move; raises ``InvalidMoveError`` or ``IllegalMoveError``."""
        move = Move.parse(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move (not a set-up)."""
        if not self._undo or not isinstance(self._undo[-1], _MoveUndo):
            raise IndexError("no move to take back")
        record = self._undo.pop()
        assert isinstance(record, _MoveUndo)
        self._pop_move(record)
        return record.move

    def position(self, short: bool = False) -> str:
        """This position in the notation of ``spec/notation.md`` (every colour shown)."""
        return format_position(self.variant, self._board, self._to_move, self._captured, self._ply, short)

    def __repr__(self) -> str:
        return f"<GeisterState {self.variant.name} {self.phase} {self.position()!r}>"

    # ---- internals

    def _setup_side(self) -> Side:
        return Side.P1 if self._setups[Side.P1] is None else Side.P2

    def _apply_setup(self, setup: Setup) -> None:
        if self.phase != "setup":
            raise IllegalMoveError("the set-up phase is over: both players have placed their pieces")
        side = self._setup_side()
        self.variant.check_setup(setup, side)
        for slot, (square, colour) in enumerate(zip(self.variant.setup_squares[side], setup.colours, strict=True)):
            if self._board[self.variant.index(square)] is not None:
                raise IllegalMoveError(f"set-up square {square} is already occupied")
            self._board[self.variant.index(square)] = Piece(side, colour, slot)
        self._setups[side] = setup
        self._undo.append(_SetupUndo(side, setup))
        if self._setups[side.other] is not None:  # both sides are placed: the play phase begins
            self._outcome = self._decide_turn()

    def _pop_move(self, record: _MoveUndo) -> None:
        move = record.move
        self._board[self.variant.index(move.src)] = record.piece
        if move.dst is None:
            self._escaped = None
        else:
            self._board[self.variant.index(move.dst)] = record.captured
            if record.captured is not None:
                self._captured.pop()
        self._ply -= 1
        self._to_move = self._to_move.other
        self._outcome = record.outcome

    def _decide_after_capture(self, captured: Piece | None) -> Outcome | None:
        """The end the captures so far decide, if any (``captured``: the piece just taken, for the reason text)."""
        for loser in Side:
            taken = [p for p in self._captured if p.side is loser]
            blues = sum(1 for p in taken if p.colour is Colour.BLUE)
            reds = sum(1 for p in taken if p.colour is Colour.RED)
            if self.variant.blues[loser] and blues == self.variant.blues[loser]:
                return Outcome.win(loser.other, f"{loser.other} captured all of {loser}'s blue pieces")
            if self.variant.reds[loser] and reds == self.variant.reds[loser]:
                return Outcome.win(loser, f"{loser.other} captured all of {loser}'s red pieces")
        return None

    def _decide_turn(self) -> Outcome | None:
        """Ends that do not depend on the last move: the ply limit, and a side to move with no legal move."""
        limit = self.variant.ply_limit
        if limit is not None and self._ply >= limit:
            return Outcome.draw(f"{limit} plies without a winner")
        if not moves_for(self.variant, self._board, self._to_move):
            return Outcome.win(self._to_move.other, f"{self._to_move} has no legal move")
        return None


# --------------------------------------------------------------------------------------------------- views


@dataclass(frozen=True)
class GeisterView:
    """What one player may know: own colours, captured pieces (revealed), every move. Nothing else.

    Built fresh by ``GeisterState.view``; it holds no reference to the state, so an AI given a view cannot reach
    the opponent's hidden colours. When the game is over every colour is revealed.
    """

    variant: Variant
    viewer: Side
    phase: Phase
    to_move: Side
    ply: int
    board: tuple[Piece | None, ...]
    captured: tuple[Piece, ...]
    escaped: Piece | None
    moves: tuple[Move, ...]
    outcome: Outcome | None
    own_setup: Setup | None
    start: str | None = field(default=None)

    def piece_at(self, square: Square) -> Piece | None:
        return self.board[self.variant.index(square)] if self.variant.on_board(square) else None

    def pieces(self, side: Side | None = None) -> Iterator[tuple[Square, Piece]]:
        for index, piece in enumerate(self.board):
            if piece is not None and (side is None or piece.side is side):
                yield self.variant.square(index), piece

    @property
    def my_turn(self) -> bool:
        return self.phase == "play" and self.to_move is self.viewer

    @property
    def last_move(self) -> Move | None:
        return self.moves[-1] if self.moves else None

    def legal_moves(self) -> list[Move]:
        """The viewer's legal moves when it is the viewer's turn (they depend only on what the viewer knows)."""
        if not self.my_turn:
            return []
        return moves_for(self.variant, self.board, self.viewer)

    def legal_actions(self) -> list[Setup | Move]:
        """Set-ups while the viewer has none, then its legal moves on its turn."""
        if self.phase == "setup":
            return list(self.variant.setups(self.viewer)) if self.own_setup is None else []
        return list(self.legal_moves())

    def why_illegal(self, move: Move) -> str | None:
        if self.outcome is not None:
            return f"the game is over: {self.outcome}"
        if not self.my_turn:
            return f"it is {self.to_move}'s turn"
        return why_illegal(self.variant, self.board, self.viewer, move)

    def captured_of(self, side: Side) -> list[Piece]:
        """Pieces of ``side`` that the other side has captured, in order."""
        return [p for p in self.captured if p.side is side]

    def remaining(self, side: Side, colour: Colour) -> int:
        """How many ``colour`` pieces ``side`` still has on the board (public: set-up counts minus captures)."""
        total = self.variant.blues[side] if colour is Colour.BLUE else self.variant.reds[side]
        gone = sum(1 for p in self.captured if p.side is side and p.colour is colour)
        if self.escaped is not None and self.escaped.side is side and self.escaped.colour is colour:
            gone += 1
        return total - gone

    def position(self, short: bool = False) -> str:
        """The position as this player sees it: ``U``/``u`` for colours it cannot see."""
        return format_position(self.variant, self.board, self.to_move, self.captured, self.ply, short)


# ------------------------------------------------------------------------------------------------ positions


def check_geister_position(state: GeisterState, knows: Side) -> None:
    """What a Geister-family position must give before anyone plays or advises from it: every piece of each side
    accounted for (on the board or among the captured, whose colours a capture reveals), and ``knows``'s own colours
    (a side always knows them; pieces of unknown colour could each escape). ``InvalidPositionError`` says what is
    missing, in one line."""
    variant = state.variant
    if any(piece.colour is Colour.UNKNOWN for piece in state.captured):
        raise InvalidPositionError("captured pieces show their colours (a capture reveals them): write B/R or b/r")
    for side in Side:
        on_board = sum(1 for _, piece in state.pieces() if piece.side is side)
        taken = sum(1 for piece in state.captured if piece.side is side)
        if on_board + taken != variant.pieces(side):
            raise InvalidPositionError(
                f"{side} has {on_board} pieces on the board and {taken} captured; {variant.title} gives "
                f"{variant.pieces(side)}: list the captured ones after the side to move"
            )
    if any(piece.colour is Colour.UNKNOWN for _, piece in state.pieces() if piece.side is knows):
        letters = "B/R" if knows is Side.P1 else "b/r"
        raise InvalidPositionError(f"{knows}'s own pieces need their colours ({letters}, not U): they know them")


# ------------------------------------------------------------------------------------------------ the descriptors


def _geister(state: Game[Any, Any]) -> GeisterState:
    assert isinstance(state, GeisterState), state
    return state


def _is_standard_start(start: str, variant: Variant) -> bool:
    """A start with only unknown pieces, all on their set-up squares: the set-up tags then give the colours."""
    fields = start.split()
    if len(fields) < 2:
        return False
    standard = variant.standard_start().split()
    rest_is_default = fields[2:] in ([], ["-"], ["-", "0"])
    return fields[0] == standard[0] and rest_is_default


def state_from_tags(tags: Mapping[str, str]) -> GeisterState:
    """The state before the first move of a Geister-family record: its ``Game`` (the variant), ``Start`` and the
    set-ups ``Setup1``/``Setup2`` (``?``: unknown). Raises ``ValueError``."""
    variant = variant_by_name(tags["Game"])
    start = tags.get("Start", variant.standard_start())
    setups = [tags.get(f"Setup{side.number}", "?") for side in Side]
    if _is_standard_start(start, variant):
        state = GeisterState(variant, Side.from_number(start.split()[1]))
        for side, text in zip(Side, setups, strict=True):
            state.apply(variant.parse_setup(text, side))
        return state
    return GeisterState.from_position(start, variant)


def _start_tags(state: Game[Any, Any]) -> dict[str, str]:
    geister = _geister(state)
    tags = {}
    for side in Side:
        setup = geister.setup(side)
        tags[f"Setup{side.number}"] = setup.to_text() if setup is not None else "?"
    tags["Start"] = geister.start_position or geister.variant.standard_start(geister.first)
    return tags


#: Seconds a search may think on one move, in the app and on the command line.
SEARCH_SECONDS = (0.01, 60.0)
#: The deepest fixed-depth search ``analyse`` runs: depth 10 takes about 2 s from the opening, and each ply about 4
#: times the last (depth 11 7 s, 12 29 s, 13 113 s; measured with bayes on this machine class). A fixed depth is
#: searched without time slices, so Ctrl-C waits for the iteration in hand: this bound keeps that wait short.
MAX_ANALYSED_DEPTH = 10

#: The options of the strongest search's advice (``nashplay analyse geister``).
SEARCH_PARAMETERS = (
    Parameter(
        "time",
        1.0,
        f"seconds the search thinks, {SEARCH_SECONDS[0]:g} to {SEARCH_SECONDS[1]:g} (default 1)",
        float,
        kind="real",
        limits=SEARCH_SECONDS,
        unit="seconds",
    ),
    Parameter(
        "depth",
        None,
        f"search to this depth instead, 1..{MAX_ANALYSED_DEPTH}: the same answer on any machine",
        int,
        kind="whole",
        limits=(1, MAX_ANALYSED_DEPTH),
    ),
    Parameter("seed", None, "seed of the search's tie-breaks", int, kind="whole", limits=(0, MAX_SEED)),
)


def _parse_table_rule(text: str) -> str:
    if text not in ("base", "extended"):
        raise ValueError(f"the Mini-Geister rule is base or extended, not {text[:30]!r}")
    return text


#: The option of the solved tables' advice on 2-vs-2 Mini-Geister: which of the paper's tables ranks the moves.
TABLE_RULE_PARAMETER = Parameter(
    "rule",
    "base",
    "which of the paper's tables ranks the moves: base (default) or extended (with the guess)",
    _parse_table_rule,
    metavar="{base,extended}",
)


def example_position(variant: Variant) -> str:
    """A position of ``variant`` to show in help texts: the start, player 1's colours given."""
    blues, reds = variant.blues[Side.P1], variant.reds[Side.P1]
    colours = iter("BR" * min(blues, reds) + "B" * (blues - reds) + "R" * (reds - blues))
    ranks, _, rest = variant.standard_start().partition(" ")
    return "".join(next(colours) if letter == "U" else letter for letter in ranks) + " " + rest


FIRST_PARAMETER = Parameter(
    "first",
    Side.P1,
    "who moves first: 1 (default) or 2",
    Side.from_number,
    lambda side: str(side.number),
    in_position=True,
    alternated=True,
)
_SUMMARIES = {
    "geister": "6x6 board, 4 blue and 4 red ghosts a side, colours hidden from the opponent",
    "mini-geister": "4x4 board, 1 blue and 1 red a side, solved exactly (Nash equilibrium)",
}


def _game_type(variant: Variant) -> GameType:
    return GameType(
        variant.name,
        variant.title,
        "board",
        "geister",
        _SUMMARIES.get(variant.name, "4x4 Mini-Geister with a third piece on one side (section 6 of its paper)"),
        new_state=lambda first: GeisterState(variant, first),
        label=lambda tags: variant.name,
        start_tags=_start_tags,
        from_tags=state_from_tags,
        parameters=(FIRST_PARAMETER,),
        adviser=(
            "solvers.advice.geister:from_request"
            if variant.name == "geister"
            else "solvers.advice.mini_geister:from_request"
        ),
        reviewer="solvers.review.geister:review" if variant.name == "geister" else "solvers.review.mini_geister:review",
        review_searches=variant.name == "geister",
        review_budgets=("time", "depth")
        if variant.name == "geister"
        else ()
        if variant.name == "mini-geister"
        else ("depth",),
        units=("ply", "plies"),
        state_name="position",
        position_help="the position in the notation, the side to move's colours given "
        f"(e.g. {example_position(variant)!r})",
        advice_summary=(
            "the strongest search's advice for the side to move (sage), with the chance to win of each move."
            if variant.name == "geister"
            else "the solved tables' exact advice for the side to move, and the equilibrium's moves."
            if variant.name == "mini-geister"
            else "the solved tables' exact advice for the side to move, and the equilibrium's moves; past the "
            "tables (after the first capture) a search's estimates, said so."
        ),
        advice_parameters=(
            SEARCH_PARAMETERS
            if variant.name == "geister"
            else (TABLE_RULE_PARAMETER,)
            if variant.name == "mini-geister"
            else ()
        ),
        hidden_information=True,
        move_texts=lambda state: [move.to_text() for move in _geister(state).moves()],
        state_text=lambda state: _geister(state).position(),
    )


#: Every variant is a game of its own (they differ in board, pieces and who may play them).
GAME_TYPES = tuple(_game_type(variant) for variant in VARIANTS.values())
