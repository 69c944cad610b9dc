"""The compiled engine (``solvers.geister_engine``) against the rules engine ``core.geister``: the same legal moves,
the same result after every move, exact make/unmake, perft counts, purple pieces, playouts that follow the rules
and the policies of ``solvers.geister.playouts``, and the cache folder's fallbacks.

Every expected number is computed here from ``core`` or ``solvers.geister.playouts``; none is stored.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from waiting import HANG_SECONDS

from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState, Variant
from core.notation import Move
from solvers.geister import playouts as po
from solvers.geister_engine import layout
from solvers.geister_engine.convert import decode_move, encode_move, from_state, from_view, zobrist
from solvers.geister_engine.tables import _splitmix64, new_rng, tables

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The kernel module, compiled into a folder of this test session (never the user's cache)."""
    previous = os.environ.get("NUMBA_CACHE_DIR")
    os.environ["NUMBA_CACHE_DIR"] = str(tmp_path_factory.mktemp("numba"))
    try:
        from solvers.geister_engine import kernel as module
    finally:
        if previous is None:
            del os.environ["NUMBA_CACHE_DIR"]
        else:
            os.environ["NUMBA_CACHE_DIR"] = previous
    return module


def expected_status(state: GeisterState) -> int:
    """``core``'s outcome as the engine's status: for the side to move."""
    outcome = state.outcome()
    if outcome is None:
        return layout.ONGOING
    if outcome.winner is None:
        return layout.DRAW
    return layout.WIN if outcome.winner is state.to_move else layout.LOSS


def engine_moves(kernel: ModuleType, variant: Variant, s: np.ndarray) -> list[str]:
    out = np.empty(layout.MAX_MOVES, dtype=np.int64)
    n = kernel.gen_moves(s, tables(variant), out)
    return sorted(decode_move(variant, int(m)).to_text() for m in out[:n])


def texts(moves: list[Move]) -> list[str]:
    return sorted(m.to_text() for m in moves)


def random_positions(variant: Variant, games: int, seed: int) -> Iterator[GeisterState]:
    """Every position of ``games`` random games (the state itself: copy it before keeping it)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = GeisterState(variant, rng.choice(list(Side)))
        while state.phase == "setup":
            state.apply(rng.choice(state.legal_actions()))
        while not state.is_terminal():
            yield state
            legal = state.legal_moves()
            # Lean toward escapes now and then, so that escape endings show up besides capture endings.
            escapes = [m for m in legal if m.is_escape]
            state.push(rng.choice(escapes) if escapes and rng.random() < 0.3 else rng.choice(legal))


def mid_game(seed: int, plies: int, captures: int) -> GeisterState:
    """A Geister position after random plies, with some pieces captured (the game still going)."""
    rng = random.Random(seed)
    while True:
        state = GeisterState.from_setups(
            VARIANTS["geister"], rng.choice(VARIANTS["geister"].setups(Side.P1)), "RBBRRBBR"
        )
        while not state.is_terminal() and (state.ply < plies or len(state.captured) < captures):
            state.push(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


# --------------------------------------------------------------------------------------------------- rules


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_moves_make_unmake_and_status_match_the_rules_engine(kernel: ModuleType, name: str) -> None:
    variant = VARIANTS[name]
    t = tables(variant)
    checked = 0
    for state in random_positions(variant, 15 if name == "geister" else 25, seed=len(name)):
        s = from_state(state)
        assert int(s[layout.HASH]) == zobrist(s, t)
        assert kernel.status(s, t) == layout.ONGOING
        assert engine_moves(kernel, variant, s) == texts(state.legal_moves()), state.position()
        for move in state.legal_moves():
            code = encode_move(variant, move)
            assert decode_move(variant, code) == move
            work = s.copy()
            undo = kernel.make(work, t, code, layout.PURPLE)
            state.push(move)
            # A fresh conversion computes the hash from scratch: equal arrays mean an exact incremental hash.
            assert work.tolist() == from_state(state).tolist(), (state.position(), move)
            assert kernel.status(work, t) == expected_status(state), (state.position(), move)
            state.pop()
            kernel.unmake(work, t, code, undo)
            assert work.tolist() == s.tolist(), (state.position(), move)
        checked += 1
    assert checked > (1000 if name == "geister" else 300)


def test_status_covers_the_ply_limit_and_a_side_without_moves(kernel: ModuleType) -> None:
    # Ply 299: c3-c4 takes the last blue (a win even at the limit); c3-d3 takes a red, not the last: a draw.
    state = GeisterState.from_position("6/6/2b3/2Br2/5r/1R2RB 1 bbbrr 299", "geister")
    s = from_state(state)
    t = tables(state.variant)
    for text in ("c3-c4", "c3-d3", "b1-b2"):
        work = s.copy()
        kernel.make(work, t, encode_move(state.variant, Move.parse(text)), layout.PURPLE)
        state.push_text(text)
        assert kernel.status(work, t) == expected_status(state), text
        state.pop()
    # Player 1 has no piece left (both captured unseen): no legal move, so it has lost.
    empty = GeisterState.from_position("4/4/4/1rb1 1 UU 2", "mini-geister")
    assert kernel.status(from_state(empty), tables(empty.variant)) == expected_status(empty) == layout.LOSS


def test_tables_exist_for_every_variant_and_hashes_are_reproducible() -> None:
    for variant in VARIANTS.values():
        t = tables(variant)
        assert t.dtype == np.int64 and not t.flags.writeable
    geister = VARIANTS["geister"]
    state = GeisterState.from_setups(geister, "BRBRBRBR", "RBBRRBBR")
    script = (
        "from core.geister import VARIANTS, GeisterState\n"
        "from solvers.geister_engine.convert import from_state\n"
        "from solvers.geister_engine.layout import HASH\n"
        "print(int(from_state(GeisterState.from_setups(VARIANTS['geister'], 'BRBRBRBR', 'RBBRRBBR'))[HASH]))\n"
    )
    assert int(run_python(script, {}).stdout) == int(from_state(state)[layout.HASH])


# --------------------------------------------------------------------------------------------------- perft


def count_leaves(state: GeisterState, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for move in state.legal_moves():
        state.push(move)
        total += count_leaves(state, depth - 1)
        state.pop()
    return total


def perft_positions() -> list[object]:
    geister = VARIANTS["geister"]
    mini = VARIANTS["mini-geister"]
    mini_position = GeisterState.from_setups(mini, "BR", "RB")
    for move in ("b1-a1", "c4-c3", "c1-c2"):
        mini_position.push_text(move)
    cases = [
        ("opening 1", GeisterState.from_setups(geister, "BRBRBRBR", "RBBRRBBR"), 3),
        ("opening 2", GeisterState.from_setups(geister, "BBBBRRRR", "RRRRBBBB"), 3),
        ("opening 3, player 2 first", GeisterState.from_setups(geister, "RBRBRBRB", "BRRBBRRB", Side.P2), 3),
        ("mid-game 1", mid_game(seed=1, plies=20, captures=2), 3),
        ("mid-game 2", mid_game(seed=2, plies=40, captures=5), 3),
        ("mini-geister", mini_position, 3),
        ("3 vs 2", GeisterState.from_setups(VARIANTS["mini-geister-3v2-rbb"], "RBB", "BR"), 3),
        ("mid-game 1, depth 4", mid_game(seed=1, plies=20, captures=2), 4),
    ]
    return [pytest.param(state, depth, id=label) for label, state, depth in cases]


@pytest.mark.parametrize(("state", "depth"), perft_positions())
def test_perft_matches_a_recursive_count_over_the_rules_engine(
    kernel: ModuleType, state: GeisterState, depth: int
) -> None:
    s = from_state(state)
    before = s.copy()
    assert kernel.perft(s, tables(state.variant), depth) == count_leaves(state, depth), state.position()
    assert s.tolist() == before.tolist()


def test_perft_with_purple_pieces_matches_unknown_pieces_in_the_rules_engine(kernel: ModuleType) -> None:
    # core lets a piece of unknown colour escape and decides nothing on its capture: the engine's purple pieces
    # with purple escapes on.
    state = mid_game(seed=3, plies=30, captures=3)
    unknown = GeisterState.from_position(state.view(Side.P1).position(), "geister")
    s = from_view(state.view(Side.P1), purple_escapes=True)
    assert s.tolist() == from_state(unknown, purple_escapes=True).tolist()
    assert kernel.perft(s, tables(state.variant), 3) == count_leaves(unknown, 3)


# --------------------------------------------------------------------------------------------------- purple pieces


def test_views_convert_with_and_without_an_assumed_world(kernel: ModuleType) -> None:
    for state in random_positions(VARIANTS["geister"], 3, seed=11):
        for viewer in Side:
            view = state.view(viewer)
            truth = {p.slot: p.colour for _, p in state.pieces() if p.side is not viewer}
            assert from_view(view, truth).tolist() == from_state(state).tolist()
            s = from_view(view)
            t = tables(state.variant)
            assert int(s[layout.BLUE0 + viewer.other]) == int(s[layout.RED0 + viewer.other]) == 0
            assert int(s[layout.HASH]) == zobrist(s, t)
            if view.my_turn:
                assert engine_moves(kernel, state.variant, s) == texts(view.legal_moves())


def test_a_captured_purple_piece_counts_as_the_kind_asked_and_unmake_restores(kernel: ModuleType) -> None:
    # Mini-Geister, player 1 to move: b2 can take the piece on b3, which player 1 sees as purple.
    state = GeisterState.from_position("2r1/1b2/1B2/1R2 1", "mini-geister")
    variant = state.variant
    t = tables(variant)
    s = from_view(state.view(Side.P1))
    code = encode_move(variant, Move.parse("b2-b3"))
    after = {}
    for kind, expected in ((layout.BLUE, layout.LOSS), (layout.RED, layout.WIN), (layout.PURPLE, layout.ONGOING)):
        work = s.copy()
        undo = kernel.make(work, t, code, kind)
        counts = [int(work[layout.CAPTURED + layout.KINDS * 1 + k]) for k in range(layout.KINDS)]
        assert counts == [int(k == kind) for k in range(layout.KINDS)]
        assert int(work[layout.HASH]) == zobrist(work, t)
        # For player 2, to move: all its blues (one) taken loses, all its reds taken wins; purple decides nothing.
        assert kernel.status(work, t) == expected
        after[kind] = int(work[layout.HASH])
        kernel.unmake(work, t, code, undo)
        assert work.tolist() == s.tolist()
    assert len(set(after.values())) == 3
    # A piece of known colour counts as its colour whatever the searcher asks.
    known = from_state(state)
    kernel.make(known, t, code, layout.RED)
    assert int(known[layout.CAPTURED + layout.KINDS * 1 + layout.BLUE]) == 1 and kernel.status(known, t) == layout.LOSS


def test_a_purple_piece_on_its_exit_escapes_only_when_the_flag_is_on(kernel: ModuleType) -> None:
    # Player 2 to move with a piece on a1 (its exit); player 1 sees it as purple.
    state = GeisterState.from_position("2r1/4/1B2/b1R1 2", "mini-geister")
    variant = state.variant
    t = tables(variant)
    view = state.view(Side.P1)
    escape = "a1-out"
    assert escape not in engine_moves(kernel, variant, from_view(view))
    s = from_view(view, purple_escapes=True)
    assert escape in engine_moves(kernel, variant, s)
    undo = kernel.make(s, t, encode_move(variant, Move.parse(escape)), layout.PURPLE)
    assert (int(s[layout.ESCAPED]), int(s[layout.ESCAPED_KIND])) == (Side.P2, layout.PURPLE)
    assert kernel.status(s, t) == layout.LOSS  # player 1, to move, has lost to the escape
    kernel.unmake(s, t, encode_move(variant, Move.parse(escape)), undo)
    assert s.tolist() == from_view(view, purple_escapes=True).tolist()
    slot = state.piece_at(Move.parse(escape).src).slot  # type: ignore[union-attr]
    # A red piece never escapes, flag or not; a blue one always may.
    assert escape not in engine_moves(kernel, variant, from_view(view, {slot: Colour.RED}, purple_escapes=True))
    assert escape in engine_moves(kernel, variant, from_view(view, {slot: Colour.BLUE}))


# --------------------------------------------------------------------------------------------------- playouts


def test_the_random_generator_is_splitmix64(kernel: ModuleType) -> None:
    rng = new_rng(42)
    state = int(rng[0]) % (1 << 64)
    for _ in range(100):
        state, expected = _splitmix64(state)
        assert int(kernel.random_word(rng)) % (1 << 64) == expected


def test_playouts_are_reproducible_and_end_with_legal_results(kernel: ModuleType) -> None:
    state = GeisterState.from_setups(VARIANTS["geister"], "BRBRBRBR", "RBRBRBRB")
    s = from_state(state)
    t = tables(state.variant)
    runs = [kernel.run_playouts(s, t, new_rng(seed), 2000, first_moves=True) for seed in (5, 5, 6)]
    results, first = runs[0]
    assert set(results.tolist()) <= {-1, 0, 1}
    assert results.tolist() == runs[1][0].tolist() and first.tolist() == runs[1][1].tolist()
    assert results.tolist() != runs[2][0].tolist()
    # The first move is uniform over the legal ones: every one of them shows up, and nothing else.
    assert {decode_move(state.variant, int(m)) for m in first} == set(state.legal_moves())
    assert kernel.playout(s, t, new_rng(1), False, 0.0, 0.0) in (-1, 0, 1)
    assert s.tolist() == from_state(state).tolist()


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_playout_move_is_legal_and_the_result_is_the_rules_engines(kernel: ModuleType, name: str) -> None:
    """Replaying traced playouts (uniform and guided) with ``core`` gives the same moves and ends."""
    variant = VARIANTS[name]
    t = tables(variant)
    rng = new_rng(len(name))
    trace = np.empty(400, dtype=np.int64)
    policies = [po.UNIFORM, po.Policy(escape_first=True, capture=0.5, advance=0.8), po.Policy(capture=1.0)]
    for game, state in enumerate(random_positions(variant, 4, seed=7)):
        if game % 5:
            continue
        policy = policies[game % len(policies)]
        s = from_state(state)
        result = kernel.playout_trace(s, t, rng, policy.escape_first, policy.capture, policy.advance, trace)
        replay = state.clone()
        mover = replay.to_move
        for code in trace:
            if code == layout.NO_MOVE:
                break
            replay.push(decode_move(variant, int(code)))
        assert replay.is_terminal(), (state.position(), policy)
        outcome = replay.outcome()
        assert outcome is not None
        assert result == (0 if outcome.winner is None else 1 if outcome.winner is mover else -1)


def test_escape_first_playouts_escape_at_once(kernel: ModuleType) -> None:
    state = GeisterState.from_position("B5/6/2r3/6/1b2b1/1R2RB 1 - 10", "geister")
    results, first = kernel.run_playouts(
        from_state(state), tables(state.variant), new_rng(0), 50, po.ESCAPE_FIRST, first_moves=True
    )
    assert (results == 1).all()
    assert {decode_move(state.variant, int(m)) for m in first} == {Move.parse("a6-out")}
    # Uniform playouts escape only when the escape happens to be drawn.
    _, first = kernel.run_playouts(from_state(state), tables(state.variant), new_rng(0), 400, first_moves=True)
    assert {decode_move(state.variant, int(m)) for m in first} == set(state.legal_moves())


def numpy_first_moves(state: GeisterState, policy: po.Policy, n: int, seed: int) -> set[str]:
    """The first moves of ``n`` numpy playouts from ``state``, as text."""
    nt = po.tables(state.variant)
    occ, blue = [0, 0], [0, 0]
    for square, piece in state.pieces():
        occ[piece.side] |= 1 << state.variant.index(square)
        if piece.colour is Colour.BLUE:
            blue[piece.side] |= 1 << state.variant.index(square)
    batch = po.batch_from_arrays(nt, state.to_move, (occ[0], occ[1]), (blue[0], blue[1]), state.ply, n)
    _, src, dst = po.playout(nt, batch, np.random.default_rng(seed), first_moves=True, policy=policy)
    assert src is not None and dst is not None
    return {po.move_from_squares(state.variant, int(a), int(b)).to_text() for a, b in zip(src, dst, strict=True)}


@pytest.mark.parametrize(
    ("position", "policy", "expected"),
    [
        # c3 can capture c4 (the only capture); the blue b2 and e1 step nearer their exits by b2-b3, b2-a2, e1-e2
        # and e1-f1; half-guided, every move may still come first.
        ("1rr3/6/2b3/2R3/1B4/4B1 1 - 10", po.Policy(capture=1.0), {"c3-c4"}),
        ("1rr3/6/2b3/2R3/1B4/4B1 1 - 10", po.Policy(advance=1.0), {"b2-b3", "b2-a2", "e1-e2", "e1-f1"}),
        ("1rr3/6/2b3/2R3/1B4/4B1 1 - 10", po.Policy(capture=0.5, advance=0.5), None),
        # A blue on a6 could escape and c3 can capture c4: the numpy engine narrows only the steps, so the escape
        # stays among the preferred moves.
        ("B5/1r4/2b3/2R3/1B4/4B1 1 - 10", po.Policy(capture=1.0), {"c3-c4", "a6-out"}),
        ("B5/1r4/2b3/2R3/1B4/4B1 1 - 10", po.Policy(advance=1.0), {"a6-out", "b2-b3", "b2-a2", "e1-e2", "e1-f1"}),
        # An escape but no capture: the capture knob does not narrow anything, every move may come first.
        ("B5/6/2r3/6/6/1R2RB 1 - 10", po.Policy(capture=1.0), None),
    ],
)
def test_guided_shortlists_are_those_of_the_numpy_policy(
    kernel: ModuleType, position: str, policy: po.Policy, expected: set[str] | None
) -> None:
    state = GeisterState.from_position(position, "geister")
    _, first = kernel.run_playouts(from_state(state), tables(state.variant), new_rng(4), 400, policy, first_moves=True)
    ours = {decode_move(state.variant, int(m)).to_text() for m in first}
    assert ours == numpy_first_moves(state, policy, 400, seed=4) == (expected or set(texts(state.legal_moves())))


def test_a_batch_plays_its_starts_in_turn(kernel: ModuleType) -> None:
    # Start 0: player 1 has already escaped (player 2 to move has lost); start 1: a game still going.
    over = GeisterState.from_position("B5/6/2r3/6/1b2b1/1R2RB 1 - 10", "geister")
    over.push_text("a6-out")
    going = GeisterState.from_setups(VARIANTS["geister"], "BRBRBRBR", "RBRBRBRB")
    starts = np.stack([from_state(over), from_state(going)])
    results, first = kernel.run_playouts(starts, tables(going.variant), new_rng(9), 100, first_moves=True)
    assert (results[0::2] == layout.LOSS).all() and (first[0::2] == layout.NO_MOVE).all()
    assert (first[1::2] != layout.NO_MOVE).all()


@pytest.mark.parametrize("policy", [po.UNIFORM, po.Policy(escape_first=True, capture=0.5, advance=0.8)])
def test_playouts_agree_with_the_numpy_playouts_in_distribution(kernel: ModuleType, policy: po.Policy) -> None:
    """Same rules and policy: player 1's win and draw rates agree within five standard errors (fixed seeds)."""
    state = GeisterState.from_setups(VARIANTS["geister"], "BBRRBBRR", "RRBBRRBB")
    n = 4000
    ours, _ = kernel.run_playouts(from_state(state), tables(state.variant), new_rng(1), n, policy)
    nt = po.tables(state.variant)
    occ, blue = [0, 0], [0, 0]
    for square, piece in state.pieces():
        occ[piece.side] |= 1 << state.variant.index(square)
        if piece.colour is Colour.BLUE:
            blue[piece.side] |= 1 << state.variant.index(square)
    batch = po.batch_from_arrays(nt, Side.P1, (occ[0], occ[1]), (blue[0], blue[1]), 0, n)
    theirs, _, _ = po.playout(nt, batch, np.random.default_rng(1), policy=policy)
    bound = 5 * (0.25 / n + 0.25 / n) ** 0.5
    for value in (1, 0):
        assert abs(float((ours == value).mean()) - float((theirs == value).mean())) < bound, value


# --------------------------------------------------------------------------------------------------- loading


def run_python(script: str, env: dict[str, str | None]) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a fresh interpreter at the repository root, with ``env`` changes (``None``: unset)."""
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    for key, value in env.items():
        if value is None:
            environment.pop(key, None)
        else:
            environment[key] = value
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=HANG_SECONDS
    )
    assert done.returncode == 0, done.stderr
    return done


#: Compiles one small kernel (not all of them: a cold compile of everything takes seconds) and reports where the
#: cache went and whether the kernel came from it.
CACHE_SCRIPT = (
    "import json\n"
    "from solvers.geister_engine import kernel\n"
    "from solvers.geister_engine.tables import new_rng\n"
    "kernel.random_word(new_rng(1))\n"
    "hits = sum(kernel.random_word.stats.cache_hits.values())\n"
    "print(json.dumps({'folder': kernel.CACHE_FOLDER, 'hits': hits}))\n"
)


def test_the_kernels_cache_in_the_nashplay_cache_folder_and_load_from_it(tmp_path: Path) -> None:
    env: dict[str, str | None] = {"NUMBA_CACHE_DIR": None, "NASHPLAY_CACHE_DIR": str(tmp_path / "nashplay")}
    first = json.loads(run_python(CACHE_SCRIPT, env).stdout)
    assert Path(first["folder"]).parent == tmp_path / "nashplay" / "numba"
    assert first["hits"] == 0 and any(Path(first["folder"]).rglob("*.nbi"))
    second = json.loads(run_python(CACHE_SCRIPT, env).stdout)
    assert second == {"folder": first["folder"], "hits": 1}


def test_an_unwritable_cache_folder_falls_back_to_a_temporary_one_quietly(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")  # even root cannot create a folder inside a file
    done = run_python(CACHE_SCRIPT, {"NUMBA_CACHE_DIR": str(blocker / "numba")})
    report = json.loads(done.stdout)
    assert "nashplay-numba-" in report["folder"] and done.stderr == ""
    assert not Path(report["folder"]).exists()  # removed at exit


def test_without_any_writable_folder_the_kernels_run_uncached(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    script = (
        "import tempfile\n"
        "def refuse(*args, **kwargs):\n"
        "    raise OSError('no temporary folder')\n"
        "tempfile.mkdtemp = refuse\n" + CACHE_SCRIPT
    )
    done = run_python(script, {"NUMBA_CACHE_DIR": str(blocker / "numba")})
    assert json.loads(done.stdout) == {"folder": None, "hits": 0} and done.stderr == ""


def test_only_the_kernel_module_imports_numba() -> None:
    script = (
        "import json, sys\n"
        "import solvers.geister_engine, solvers.geister_engine.layout\n"
        "import solvers.geister_engine.tables, solvers.geister_engine.convert\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    loaded = set(json.loads(run_python(script, {}).stdout))
    assert "solvers" in loaded and not loaded & {"numba", "llvmlite"}


def test_the_search_and_evaluation_kernels_cache_there_too(tmp_path: Path) -> None:
    """numba picks a kernel's cache folder when it is decorated: the kernels of ``evaluation`` and ``search``
    (decorated after ``kernel``'s) once went to the package's own ``__pycache__``, not to the nashplay folder."""
    script = (
        "import json\n"
        "from core.geister import GEISTER\n"
        "from solvers.geister_engine import evaluation, kernel\n"
        "from solvers.geister_engine.tables import tables\n"
        "evaluation._distance(tables(GEISTER), 0, 0)\n"
        "print(json.dumps({'folder': kernel.CACHE_FOLDER}))\n"
    )
    env: dict[str, str | None] = {"NUMBA_CACHE_DIR": None, "NASHPLAY_CACHE_DIR": str(tmp_path / "nashplay")}
    folder = Path(json.loads(run_python(script, env).stdout)["folder"])
    assert any("evaluation._distance" in path.name for path in folder.rglob("*.nbi"))
    package_cache = ROOT / "solvers" / "geister_engine" / "__pycache__"
    assert not any("evaluation._distance" in path.name for path in package_cache.glob("*.nbi"))
