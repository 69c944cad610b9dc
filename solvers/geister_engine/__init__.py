"""A compiled (numba) Geister engine for search: alpha-beta over purple pieces, and Monte Carlo playouts.

Why a separate engine: ``core.geister`` is the referee (clear, checked, a few thousand positions a second) and
``solvers.geister.playouts`` plays many games at once in numpy, which suits batches of playouts but not a tree search
that makes and takes back one move at a time. Here one position is one small ``np.int64`` array and every hot function
is a ``numba.njit`` kernel, so a searcher written as another njit function runs without Python in the loop.

Modules:

* ``layout``: the state layout, move encoding, piece kinds and result codes as named ints (plain Python);
* ``tables``: per-variant constants (board masks, exits, colour counts, ply limit, Zobrist keys) as one flat
  read-only int64 array, and ``new_rng`` for the kernels' random generator state (numpy only);
* ``convert``: ``GeisterState`` / ``GeisterView`` (opponent pieces purple, optionally an assumed colouring) to
  engine states, and engine moves to and from ``core.notation.Move`` (numpy only);
* ``kernel``: the kernels (``gen_moves``, ``make``/``unmake``, ``status``, ``perft``, ``playout``,
  ``playout_batch``) and ``warm_up``; the only module that imports numba.

State: ``OCC0/OCC1`` occupancy bitboards per side, ``BLUE0/BLUE1`` and ``RED0/RED1`` pieces known blue / red
(purple = occupied and neither), captured counts per side and kind (blue, red, purple), side to move, ply, the
side that escaped (if any) and the kind it escaped with, a purple-escape flag, and an incremental Zobrist hash.
Square ``i`` is bit ``i`` with ``i = rank * width + file``. Moves are ``src | dst << 6``; ``dst = 63`` is an
escape. ``layout`` documents each field.

Importing this package, ``layout``, ``tables`` or ``convert`` does not import numba (the app starts without
paying for it); only ``kernel`` does.
"""
