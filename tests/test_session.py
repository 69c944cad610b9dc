"""The game session (``tui.session``) of the Geister family: a new game after a resumed one draws a fresh seed (a
seed the user gave is kept), and the record of a game in progress keeps what its captures revealed, and only that."""

from __future__ import annotations

import random

from core.game import Side
from core.geister import Colour
from core.record import Record
from tui.config import GeisterConfig
from tui.session import GameSession


def test_a_new_game_after_resume_draws_a_fresh_seed() -> None:
    """After Resume, New game started the same game every time: the resumed configuration kept the saved seed, so
    the opponent drew the same set-up, which the first game's end had revealed."""
    session = GameSession(GeisterConfig("geister", Side.P1, "random", "BRRBBRRB", seed=None))
    session.play(session.state.legal_moves()[0])
    resumed = GameSession.from_record(session.record(reveal=True))
    assert resumed.seed == session.seed  # the resumed game goes on with its own generator
    assert resumed.config.seed is None
    assert GameSession(resumed.config).seed != session.seed
    # A seed the user gave is kept: the same command gives the same game.
    given = GameSession(GeisterConfig("geister", Side.P1, "random", "BRRBBRRB", seed=7))
    assert GameSession(given.config).seed == 7


def capture_game() -> GameSession:
    """A game against the random player in which the user has captured at least one of the opponent's pieces."""
    for seed in range(200):
        session = GameSession(GeisterConfig("geister", Side.P1, "random", "BRRBBRRB", seed=seed))
        rng = random.Random(seed)
        state = session.state
        for _ in range(120):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            captures = [m for m in moves if m.dst is not None and state.piece_at(m.dst) is not None]
            state.push(rng.choice(captures or moves))
            if any(p.side is Side.P2 for p in state.captured) and not state.is_terminal() and state.to_move is Side.P1:
                return session
    raise AssertionError("no game with a capture")


def test_a_mid_game_record_keeps_the_colours_its_captures_revealed() -> None:
    """``s`` mid-game wrote ``Setup2 "?"`` and lost the revealed colours of the captured pieces: the record now
    names those (and only those), and replays with them."""
    session = capture_game()
    record = session.record(reveal=False)
    full = session.record(reveal=True)
    taken = {p.slot: p.colour for p in session.state.captured if p.side is Side.P2}
    shown = record.tags["Setup2"]
    assert "?" in shown and "Seed" not in record.tags
    for slot, letter in enumerate(shown):
        if slot in taken:
            assert letter == taken[slot].value == full.tags["Setup2"][slot]
        else:
            assert letter == "?"  # nothing the user has not seen
    replayed = Record.parse(record.to_text()).replay()[-1]
    assert sorted((p.slot, p.colour) for p in replayed.captured if p.side is Side.P2) == sorted(taken.items())
    assert all(p.colour is Colour.UNKNOWN for _, p in replayed.pieces() if p.side is Side.P2)
