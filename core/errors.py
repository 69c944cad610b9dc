"""Errors that say what was wrong and what was expected, so a user can act on them.

All are ``ValueError`` subclasses: code that only wants "bad input" can catch ``ValueError``.
"""

from __future__ import annotations


class NotationError(ValueError):
    """Text that does not parse (a square, move, position, set-up or record)."""


class InvalidMoveError(NotationError):
    """Move text that does not parse, e.g. ``b9-b2`` or ``hello``."""


class InvalidPositionError(NotationError):
    """Position text that does not parse or describes an impossible position."""


class IllegalMoveError(ValueError):
    """A well-formed move that the position forbids (an occupied square, a red piece escaping, ...)."""


class RecordError(NotationError):
    """A game record that does not parse or does not replay; ``line`` is 1-based where known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)
