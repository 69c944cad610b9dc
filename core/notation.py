"""Squares and moves of the Geister family, in the text forms of ``spec/notation.md``.

``Square.parse("b1")`` / ``str(square)`` and ``Move.parse("b1-b2")`` / ``move.to_text()`` round-trip, and
``repr`` shows the round-trippable form, as python-chess does. A square does not know the board size: the
game state checks that a square is on its board, so the same value types serve 4x4 and 6x6 boards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.errors import InvalidMoveError, NotationError, quoted

FILES = "abcdefghijklmnopqrstuvwxyz"

#: Widest board the notation supports: one letter per file, ranks written with one or two digits.
MAX_BOARD = 26

_SQUARE_RE = re.compile(r"([a-z])([1-9][0-9]?)")
_MOVE_RE = re.compile(r"([a-z][1-9][0-9]?)(?:-|x)?([a-z][1-9][0-9]?|out)")


@dataclass(frozen=True, order=True, slots=True)
class Square:
    """A square: ``file`` counts columns from the left (0 = ``a``), ``rank`` rows from player 1's side (0 = rank 1)."""

    file: int
    rank: int

    @classmethod
    def parse(cls, text: str) -> Square:
        match = _SQUARE_RE.fullmatch(text.strip().lower())
        if match is None:
            raise NotationError(f"{quoted(text)} is not a square: expected a file letter and a rank number, like 'b1'")
        return cls(FILES.index(match.group(1)), int(match.group(2)) - 1)

    @property
    def name(self) -> str:
        return f"{FILES[self.file]}{self.rank + 1}"

    def offset(self, dfile: int, drank: int) -> Square:
        return Square(self.file + dfile, self.rank + drank)

    def distance(self, other: Square) -> int:
        """Manhattan distance: the fewest single orthogonal steps between the two squares."""
        return abs(self.file - other.file) + abs(self.rank - other.rank)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Square.parse({self.name!r})"


@dataclass(frozen=True, slots=True)
class Move:
    """One piece one step (``b1-b2``), or a piece leaving the board from an exit (``a4-out``: ``dst`` is ``None``)."""

    src: Square
    dst: Square | None

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``b1-b2``, ``b1b2``, ``b1xb2`` or ``a4-out`` (case and surrounding blanks ignored)."""
        cleaned = text.strip().lower()
        match = _MOVE_RE.fullmatch(cleaned)
        if match is None:
            raise InvalidMoveError(
                f"{quoted(text.strip())} is not a move: expected <from>-<to> like 'b1-b2', or <from>-out like 'a4-out'"
            )
        src = Square.parse(match.group(1))
        dst = None if match.group(2) == "out" else Square.parse(match.group(2))
        return cls(src, dst)

    @classmethod
    def escape(cls, src: Square) -> Move:
        return cls(src, None)

    @property
    def is_escape(self) -> bool:
        return self.dst is None

    def to_text(self) -> str:
        return f"{self.src.name}-{'out' if self.dst is None else self.dst.name}"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Move.parse({self.to_text()!r})"
