"""The search's context array: what a search knows of its root and how far it may go, as named indices.

Plain Python ints (no numpy, no numba), like ``layout``: the kernels read them as globals, frozen into the machine
code, and ``kernel`` keys its disk cache on this file's content too. ``search`` re-exports every name.
"""

from __future__ import annotations

C_ME = 0
C_THEM = 1
#: The opponent's reds and blues on the board at the root, its known reds among them, its purple pieces.
C_R0 = 2
C_B0 = 3
C_K0 = 4
C_P0 = 5
#: Their reds and blues captured before the root (the engine's counts include them).
C_RED_CAPTURED = 6
C_NODES = 7
C_MAX_NODES = 8
#: 1 once the node budget is spent: the iteration is abandoned and its result ignored.
C_ABORT = 9
C_SELDEPTH = 10
#: Plies of escape-threat extension allowed on one line.
C_MAX_EXTENSION = 11
#: Root moves within this of the best get exact values (the player may choose among them); the others a bound.
C_MARGIN = 12
C_BLUE_CAPTURED = 13
#: Features switched off (``NO_TABLE``, ``NO_ORDERING``, ``NO_PRUNING``): for the tests (plain minimax must agree)
#: and for the benchmark's baseline (the contest programs' plain negamax).
C_FLAGS = 14
#: Mixed into every table key: a digest of the model (the counts above). Entries stored under another model
#: (before a capture revealed a colour, or a piece was proven red) then miss instead of answering wrongly.
C_SALT = 15
#: 1: weigh captures and escapes of purple pieces by their chance of being blue (``prob``, thousandths by square)
#: instead of taking the worst case (``bayes``); 0: the worst case (``purple``).
C_CHANCE = 16
#: 1: the opponent is careful with our last red: while we have one red piece left and none of our pieces stands on
#: our exits, it does not capture our pieces (any of them may be that red, and taking it loses at once), unless it
#: has no other move. 0: it captures as if it knew our colours (the worst case). See ``_spared``.
C_CAREFUL = 17
#: The static evaluation: ``EVAL_HANDCRAFTED`` (the weighted terms of ``evaluation.handcrafted``, in thousandths of a
#: blue piece) or ``EVAL_LEARNED`` (``evaluation.learned``: the learned model's expected result, scaled).
C_EVAL = 18
#: Which search the table's values may answer: a value depends on the beliefs (``prob``) it was searched under, and
#: a player's beliefs change from one search to the next, so an entry stored by an earlier search gives only its
#: move (for ordering), never its value. A player without beliefs keeps 0: its values depend on the position and
#: the model (``C_SALT``) alone, and stay good from one move to the next.
C_GENERATION = 19
C_SIZE = 20

EVAL_HANDCRAFTED = 0
EVAL_LEARNED = 1

NO_TABLE = 1
NO_ORDERING = 2
NO_PRUNING = 4
