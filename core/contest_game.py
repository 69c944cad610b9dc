"""One contest game from one side, mirrored locally with nashplay's engine (``ContestGame``).

So that our AIs and the board widget get a normal ``GeisterView`` (the opponent's pieces unknown until captured),
the opponent's last move is known (the server only sends boards: the move is found by comparing consecutive
boards), a full record can be written, and every board the server sends is checked against the mirror (a
disagreement is reported, never silently followed). The protocol itself is ``core.contest``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Literal

from core.contest import (
    DEFAULT_PLY_LIMIT,
    LETTERS,
    Accepted,
    Board,
    BoardPiece,
    DesyncError,
    GameOver,
    MoveRequest,
    Result,
    contest_variant,
    initial_board,
    move_command,
    parse_red_letters,
    red_letters,
    setup_from_letters,
    slot_of,
    to_square,
)
from core.errors import IllegalMoveError
from core.game import Outcome, Side
from core.geister import Colour, GeisterState, GeisterView, Piece, Setup
from core.notation import Move, Square
from core.record import Record, RecordedMove

__all__ = ["ContestGame", "TimeVerdict"]


Where = Square | Literal["captured", "escaped"]

#: What our own clock said when the server ended a game that the moves do not explain (``on_game_over``):
#: "out of time" (a move of ours took, or is taking, about as long as the clock allows), "answered in time" (every
#: move of ours was sent well within the clock: a loss then is the server's false time-out), or "choosing" (we were
#: still choosing, well within the clock). The client's clock is not the server's, hence three words, not a bool.
TimeVerdict = Literal["out of time", "answered in time", "choosing"]


class ContestGame:
    """One contest game from one side, mirrored locally with nashplay's engine.

    Use: ``setup_view()`` for the player's set-up, ``setup_command(setup)``; for each ``MOV?`` board,
    ``on_board(board)`` (returns the opponent's move, checks the board); ``view()`` for the player;
    ``move_command(move)`` (checks the move, raises ``IllegalMoveError`` before anything is sent);
    ``on_accepted(message)``; at the end ``on_game_over(message)``; ``record()`` at any time.

    The mirror holds our colours and the opponent's as unknown (a hidden set-up), so it plays by the rules without
    knowing more than we do. The opponent colours learnt from captures are kept apart (``known_colours``) and
    put into the views. The side given is a hint for the set-up: the first board tells which side we really
    are (the first player's first board shows no opponent move), and the mirror follows the board.
    """

    def __init__(self, side: Side = Side.P1, ply_limit: int = DEFAULT_PLY_LIMIT) -> None:
        self.side = side
        self.variant = contest_variant(ply_limit)
        self.letters: str | None = None
        self.state: GeisterState | None = None
        #: Opponent colours learnt so far, by slot (captures, then every colour at the end).
        self.known_colours: dict[int, Colour] = {}
        #: Server board lines, with the number of plies played when each arrived (for the record's comments).
        self.lines: list[tuple[int, str]] = []
        self.result: Result | None = None
        self.outcome: Outcome | None = None
        #: The game with every colour (when the final board revealed them all), for the record and final view.
        self.final_state: GeisterState | None = None
        #: Set when the server's result differs from what the rules say the moves gave (kept, not raised).
        self.note: str | None = None
        self._pending: Move | None = None

    # ---- set-up

    @property
    def them(self) -> Side:
        return self.side.other

    def setup_view(self) -> GeisterView:
        """A set-up phase view for our (assumed) side, for a player's ``choose``."""
        state = GeisterState(self.variant)
        if self.side is Side.P2:
            state.apply(Setup((Colour.UNKNOWN,) * 8))
        return state.view(self.side)

    def setup_command(self, setup: Setup | str) -> str:
        """The ``SET:`` command for a nashplay set-up (or for red letters given directly, e.g. ``"BCFG"``)."""
        self.letters = parse_red_letters(setup) if isinstance(setup, str) else red_letters(setup, self.side)
        return f"SET:{self.letters}"

    @property
    def our_setup(self) -> Setup | None:
        return None if self.letters is None else setup_from_letters(self.letters, self.side)

    # ---- boards

    def on_board(self, board: Board, line: str | None = None) -> Move | None:
        """Take a ``MOV?`` board: find the opponent's move since the last board, apply it, check the whole board.
        Returns the opponent's move (``None`` at the first player's first turn). Raises ``DesyncError``."""
        try:
            if self.letters is None:
                raise DesyncError("the server asked for a move before our set-up was accepted")
            if self.state is None:
                self._start(board)
            state = self._require_state()
            if self._pending is not None:
                raise DesyncError("the server asked for a move before it accepted or rejected our last one")
            if state.is_terminal():
                raise DesyncError(f"the server asked for a move, but the game is over here: {state.outcome()}")
            move = self._opponent_move(board, final=False)
            if state.to_move is not self.side:
                raise DesyncError(f"the server asked for our move, but it is {state.to_move}'s turn here")
            self._check(board)
            return move
        finally:
            self._keep_line(line or MoveRequest(board).to_text())

    def _keep_line(self, line: str) -> None:
        self.lines.append((0 if self.state is None else self.state.ply, line))

    def _is_start(self, board: Board) -> bool:
        return all(p == q for p, q in zip(board.theirs, initial_board().theirs, strict=True))

    def _start(self, board: Board) -> None:
        """Build the mirror at the first board: its opponent section says which side we are."""
        assert self.letters is not None
        self.side = Side.P1 if self._is_start(board) else Side.P2
        state = GeisterState(self.variant)
        hidden = Setup((Colour.UNKNOWN,) * 8)
        ours = setup_from_letters(self.letters, self.side)
        state.apply(ours if self.side is Side.P1 else hidden)
        state.apply(hidden if self.side is Side.P1 else ours)
        self.state = state

    def _require_state(self) -> GeisterState:
        if self.state is None:
            raise DesyncError("no board has been received yet")
        return self.state

    def where(self, owner: Side, slot: int) -> Where:
        """Where a piece is in the mirror."""
        state = self._require_state()
        for square, piece in state.pieces():
            if piece.side is owner and piece.slot == slot:
                return square
        escaped = state.escaped
        if escaped is not None and escaped.side is owner and escaped.slot == slot:
            return "escaped"
        return "captured"

    def _board_where(self, piece: BoardPiece) -> Where:
        if piece.captured:
            return "captured"
        if piece.escaped:
            return "escaped"
        return to_square(piece.x, piece.y, self.side)

    def _opponent_move(self, board: Board, final: bool) -> Move | None:
        """The opponent's move between the mirror and ``board``, applied to the mirror (``None``: no move)."""
        state = self._require_state()
        if state.is_terminal() or state.to_move is self.side:
            return None
        moved = []
        for index, piece in enumerate(board.theirs):
            slot = slot_of(LETTERS[index], self.them)
            before, after = self.where(self.them, slot), self._board_where(piece)
            if before != after:
                moved.append((LETTERS[index], before, after))
        if not moved:
            if final:
                return None
            raise DesyncError(f"the server asks for our move, but the opponent has not moved: {board}")
        _, src, dst = moved[0]
        if len(moved) > 1 or not isinstance(src, Square) or dst == "captured":
            changes = ", ".join(f"{letter}: {self._name(a)} -> {self._name(b)}" for letter, a, b in moved)
            raise DesyncError(f"the board is not one opponent move away from ours ({changes}): {board}")
        move = Move(src, dst if isinstance(dst, Square) else None)
        reason = state.why_illegal(move)
        if reason is not None:
            raise DesyncError(f"the opponent's move {move} (from the board {board}) is illegal here: {reason}")
        state.push(move)
        return move

    @staticmethod
    def _name(where: Where) -> str:
        return where.name if isinstance(where, Square) else where

    def _check(self, board: Board, final: bool = False) -> None:
        """Every piece of ``board`` where the mirror has it, our colours as we set them; learn opponent colours."""
        setup = self.our_setup
        assert setup is not None
        problems = []
        for owner, pieces in ((self.side, board.mine), (self.them, board.theirs)):
            for index, piece in enumerate(pieces):
                letter = LETTERS[index]
                slot = slot_of(letter, owner)
                ours, theirs = self.where(owner, slot), self._board_where(piece)
                who = f"{'our' if owner is self.side else 'their'} {letter}"
                if ours != theirs:
                    problems.append(f"{who} is on {self._name(theirs)}, here on {self._name(ours)}")
                colour = piece.colour
                if owner is self.side:
                    if colour is not setup.colours[slot]:
                        problems.append(f"{who} is {colour.word} there, {setup.colours[slot].word} in our set-up")
                elif colour is not Colour.UNKNOWN:
                    if not (final or not piece.on_board):
                        problems.append(f"{who} shows its colour while on the board")
                    known = self.known_colours.get(slot)
                    if known is not None and known is not colour:
                        problems.append(f"{who} was {known.word}, now {colour.word}")
                    self.known_colours[slot] = colour
        if problems:
            raise DesyncError(f"the server's board disagrees with ours: {'; '.join(problems)} (board {board})")

    # ---- our moves

    def move_command(self, move: Move) -> str:
        """The ``MOV:`` command for our ``move``, checked first: raises ``IllegalMoveError`` (nothing to send) for a
        move the rules forbid. A red piece never leaves the board; the exit squares are the server's corners."""
        state = self._require_state()
        if self._pending is not None:
            raise IllegalMoveError(f"our move {self._pending} is still waiting for the server's answer")
        if state.to_move is not self.side or state.is_terminal():
            raise IllegalMoveError("it is not our turn")
        reason = state.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(f"{move} is illegal: {reason}")
        piece = state.piece_at(move.src)
        assert piece is not None
        command = move_command(move, piece.slot, self.side)
        self._pending = move
        return command

    def on_accepted(self, message: Accepted) -> Piece | None:
        """The server accepted our pending move: play it in the mirror; returns the piece it captured (with its
        colour when the server told it)."""
        state = self._require_state()
        move = self._pending
        if move is None:
            raise DesyncError("the server accepted a move we did not send")
        self._pending = None
        if move.dst is None:
            # An escape captures nothing, whatever the acknowledgement says: the reference server answers an escape
            # with the previous capture's OKB/OKR when the escaping piece had just captured (it keeps its
            # last-captured piece), and then sends WON. Believing it would be a desync that is not there.
            state.push(move)
            return None
        target = state.piece_at(move.dst)
        if target is None and message.captured is not None:
            raise DesyncError(f"the server says {move} captured a piece, but {move.dst} is empty here")
        state.push(move)
        if target is None:
            return None
        colour = Colour.RED if message.captured == "r" else Colour.BLUE if message.captured == "b" else None
        if colour is not None:
            self.known_colours[target.slot] = colour
        known = self.known_colours.get(target.slot, Colour.UNKNOWN)
        return Piece(target.side, known, target.slot)

    def on_rejected(self) -> Move | None:
        """The server rejected our pending move (it counts as a loss); returns that move."""
        move, self._pending = self._pending, None
        return move

    @property
    def pending(self) -> Move | None:
        return self._pending

    # ---- the end

    def on_game_over(self, message: GameOver, line: str | None = None, our_time: TimeVerdict | None = None) -> Outcome:
        """The final board: the opponent's last move if any, every colour, and the outcome as the server says.

        The server's word decides the result. When the moves themselves ended the game differently (which a correct
        server never does) the record keeps the rules' result, so that it still replays, and notes the server's.
        When the moves did not end the game at all, the reason says what the server must have declared: a loss
        without ``NG`` while we are connected can only be a time-out, and ``our_time`` (what our own clock says)
        tells a true one from the server's false time-outs, which it declares against a player who answered in
        time (``spec/geister-protocol.md``, "Behaviour of the real server")."""
        self.result = message.result
        try:
            if self.state is not None and self._pending is None:
                self._opponent_move(message.board, final=True)
                self._check(message.board, final=True)
        finally:
            self._keep_line(line or message.to_text())
        self._pending = None  # a move sent too late (lost on time) was never played
        self.final_state = self._revealed_state()
        mirror = self.final_state or self.state
        rules = mirror.outcome() if mirror is not None else None
        winner = {"won": self.side, "lost": self.them, "draw": None}[message.result]
        if rules is not None and rules.winner is winner:
            self.outcome = rules
            return rules
        if rules is not None:
            reason = {
                "won": "the server declared our win",
                "lost": "the server declared our loss",
                "draw": "the server declared a draw",
            }[message.result]
            self.note = f"the server's result ({message.result}) differs from the rules' ({rules})"
        else:
            reason = _unexplained_reason(message.result, our_time)
        self.outcome = Outcome.draw(reason) if winner is None else Outcome.win(winner, reason)
        return self.outcome

    def _revealed_state(self) -> GeisterState | None:
        """The game replayed with both set-ups when every opponent colour is known, else ``None``."""
        state = self.state
        if state is None or self.letters is None or len(self.known_colours) < 8:
            return None
        theirs = Setup(tuple(self.known_colours[slot] for slot in range(8)))
        try:
            self.variant.check_setup(theirs, self.them)
        except IllegalMoveError:
            self.note = f"the colours revealed at the end ({theirs}) are not a legal set-up"
            return None
        ours = setup_from_letters(self.letters, self.side)
        full = GeisterState(self.variant)
        full.apply(ours if self.side is Side.P1 else theirs)
        full.apply(theirs if self.side is Side.P1 else ours)
        for move in state.moves():
            full.push(move)
        return full

    # ---- what players and the UI see

    def view(self) -> GeisterView:
        """Our view: the mirror's, with the colours of captured opponent pieces filled in; at the end, all of them
        (the server reveals every colour) and the server's outcome."""
        state = self._require_state()
        if self.final_state is not None or self.outcome is not None:
            return self._final_view()
        view = state.view(self.side)
        return replace(view, captured=tuple(self._colour(p) for p in view.captured))

    def _colour(self, piece: Piece) -> Piece:
        if piece.side is self.side or piece.colour is not Colour.UNKNOWN:
            return piece
        return Piece(piece.side, self.known_colours.get(piece.slot, Colour.UNKNOWN), piece.slot)

    def _final_view(self) -> GeisterView:
        source = self.final_state or self._require_state()
        board = tuple(None if p is None else self._colour(p) for p in self._full_board(source))
        view = source.view(self.side)
        escaped = view.escaped if view.escaped is None else self._colour(view.escaped)
        return replace(
            view,
            board=board,
            captured=tuple(self._colour(p) for p in source.captured),
            escaped=escaped,
            phase="over",
            outcome=self.outcome,
        )

    @staticmethod
    def _full_board(state: GeisterState) -> list[Piece | None]:
        board: list[Piece | None] = [None] * (state.variant.width * state.variant.height)
        for square, piece in state.pieces():
            board[state.variant.index(square)] = piece
        return board

    @property
    def moves(self) -> list[Move]:
        return [] if self.state is None else self.state.moves()

    def record(self, tags: Mapping[str, str] | None = None) -> Record:
        """The game so far in nashplay's notation; each server board line is the comment of the move after which it
        arrived (the first player's first board, before any move, is the ``ServerStart`` tag)."""
        source = self.final_state or self.state
        if source is None:
            source = GeisterState(self.variant)
            source.apply(Setup((Colour.UNKNOWN,) * 8))
            source.apply(Setup((Colour.UNKNOWN,) * 8))
        extra = {"Event": "contest server game", "PlyLimit": str(self.variant.ply_limit)}
        extra.update(tags or {})
        record = Record.from_game(source, extra)
        comments: dict[int, list[str]] = {}
        for ply, line in self.lines:
            if ply == 0 or not record.moves:
                record.tags.setdefault("ServerStart", line)
            else:
                comments.setdefault(min(ply, len(record.moves)) - 1, []).append(line)
        record.moves = [
            RecordedMove(m.text, " ".join(comments[i]) if i in comments else None) for i, m in enumerate(record.moves)
        ]
        if self.outcome is not None:
            record.tags["ServerResult"] = self.result or "*"
            if source.outcome() is None:  # the moves did not end the game: the server's word is the result
                record.tags["Result"] = self.outcome.result_text
                record.tags["Termination"] = self.outcome.reason
        if self.note:
            record.tags["Note"] = self.note
        return record

    def boards(self) -> Iterator[str]:
        """The server lines received so far (board messages only)."""
        for _, line in self.lines:
            yield line


def _unexplained_reason(result: Result, our_time: TimeVerdict | None) -> str:
    """Why the server ended a game that no rule ended, in the words the record's Termination tag keeps."""
    if result == "won":
        return (
            "the server declared our win: a time-out declared by the server, or the opponent's disconnection or "
            "rejected move (the moves alone did not end the game)"
        )
    if result == "draw":
        return "the server declared a draw (the moves alone did not end the game)"
    # A loss with no NG while we are still connected: the server's clock is the only rule left.
    return {
        "out of time": "lost on time: time-out declared by the server, and our clock had run out too",
        "answered in time": (
            "time-out declared by the server although we had answered in time (the server's false time-out)"
        ),
        "choosing": (
            "time-out declared by the server while we were choosing, well within our clock (the server's false "
            "time-out)"
        ),
        None: "time-out declared by the server (the moves alone did not end the game)",
    }[our_time]
