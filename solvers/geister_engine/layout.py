"""The engine's encodings as named integers: the state array, moves, piece kinds, results.

Plain Python ints, no numpy and no numba, so that converters and searchers can name fields without loading the
compiler. The kernels read these as globals, which numba freezes into the machine code at compile time; that is
why ``kernel`` keys its on-disk cache on this file's content too (numba's own key covers only ``kernel.py``).

State array (``np.int64``, length ``STATE_SIZE``; side ``s`` is 0 for player 1, 1 for player 2):

==================  =================================================================================
``OCC0 + s``        squares holding a piece of side ``s`` (bit ``i`` = square index ``rank * width + file``)
``BLUE0 + s``       pieces of side ``s`` known to be blue
``RED0 + s``        pieces of side ``s`` known to be red; purple (colour unknown) = ``OCC & ~BLUE & ~RED``
``CAPTURED + 3*s + kind``  pieces of side ``s`` captured so far, counted as ``kind`` (``BLUE``, ``RED`` or
                    ``PURPLE``: a capture that did not reveal the colour, as the searcher chose)
``TURN``            the side to move
``PLY``             plies since the start of the game (as ``GeisterState.ply``: the ply-limit draw reads it)
``ESCAPED``         the side that escaped a piece (the game is then over), or ``NONE``
``ESCAPED_KIND``    the kind of the piece that escaped (``BLUE``, or ``PURPLE`` when purple escapes are on)
``PURPLE_ESCAPES``  1: a purple piece on its side's exit may escape (the purple searcher's threat model)
``HASH``            Zobrist hash of pieces by (side, kind, square), the side to move and the captured counts
==================  =================================================================================

Moves are ints ``src | dst << SQUARE_BITS``; an escape has ``dst = ESCAPE_DST`` (a square index no board uses,
since boards have at most ``MAX_SQUARES`` squares).
"""

from __future__ import annotations

# ---- state array fields
OCC0 = 0
OCC1 = 1
BLUE0 = 2
BLUE1 = 3
RED0 = 4
RED1 = 5
#: ``CAPTURED + 3 * side + kind``: six counters.
CAPTURED = 6
TURN = 12
PLY = 13
ESCAPED = 14
ESCAPED_KIND = 15
PURPLE_ESCAPES = 16
HASH = 17
STATE_SIZE = 18

# ---- piece kinds (also the ``capture_as`` argument of ``make``)
BLUE = 0
RED = 1
PURPLE = 2
KINDS = 3

#: "No side" in ``ESCAPED`` and ``ESCAPED_KIND``.
NONE = -1

# ---- moves
SQUARE_BITS = 6
SQUARE_MASK = (1 << SQUARE_BITS) - 1
#: ``dst`` of an escape: the piece leaves the board.
ESCAPE_DST = SQUARE_MASK
#: Bit 63 is the sign of an int64 and 63 is the escape pseudo square; 62 squares keep every shift positive.
MAX_SQUARES = 62
#: Room for every move of one side: each piece has at most four steps and one escape.
MAX_MOVES = 128
MAX_PIECES = MAX_MOVES // 5
#: "No move": the first move of a playout that started on a finished game.
NO_MOVE = -1

# ---- results, for the side to move (``status``) or the side to move at the start (playouts)
WIN = 1
DRAW = 0
LOSS = -1
ONGOING = 2


def move_code(src: int, dst: int) -> int:
    """The engine move from square indices (``dst = ESCAPE_DST`` for an escape)."""
    return src | dst << SQUARE_BITS


def move_src(move: int) -> int:
    return move & SQUARE_MASK


def move_dst(move: int) -> int:
    return move >> SQUARE_BITS & SQUARE_MASK


# ---- search values
#: A won game scores ``MATE - plies`` (for the searching side); anything above ``MATE - 1000`` is a proven result.
#: Here, with no numba, so that readers of search values (the advice) need not load the compiler.
MATE = 1_000_000
