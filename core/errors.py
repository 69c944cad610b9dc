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


#: How much of a bad input a message may quote: enough to recognise it, never a 50 MB line echoed back.
QUOTE_LIMIT = 40


def clipped(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` for a message as it is when short, else its first ``limit`` characters and its length."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for a message (``repr``), cut to ``limit`` characters with an ellipsis and its length."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"
