"""``nashplay play GAME --position P`` (issue 16): play on from a position of the Geister family.

The user plays the side to move (or ``--side``) with the colours the position gives; the opponent's unknown pieces
get colours drawn from its counts by a generator the user's ``--seed`` does not reach; the game saves and resumes
from its [Start] tag, whose opponent colours stay in the secret file while the game runs.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import run, settle, type_move, view_of

from core.game import Side
from core.geister import Colour, GeisterState
from core.geister_board import hide_colours
from core.notation import Move
from core.record import Record
from tui.app import NashplayApp, StartRequest
from tui.cli import main
from tui.config import ConfigError, GeisterConfig
from tui.saves import SaveStore
from tui.screens.game import GameScreen
from tui.session import GameSession

#: Player 2's eight pieces unknown (one on its exit a1), player 1's coloured, ply 10, player 1 to move.
GEISTER = "1uuuu1/1uuu2/6/6/1BRRB1/uRBBR1 1 - 10"
#: Mini-Geister, player 2 to move, player 2's colours given, player 1's unknown.
MINI_P2 = "1br1/4/1U2/2U1 2"


def requested(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> StartRequest:
    """What ``nashplay play ...`` would open the app on (the app itself is not started)."""
    seen: list[StartRequest] = []

    def capture(request: StartRequest, args: argparse.Namespace) -> int:
        seen.append(request)
        return 0

    monkeypatch.setattr("tui.cli.play.open_app", capture)
    assert main(["play", *argv]) == 0
    return seen[0]


def opponent_colours(state: GeisterState, them: Side) -> dict[str, Colour]:
    return {str(square): piece.colour for square, piece in state.pieces() if piece.side is them}


# --------------------------------------------------------------------------------------------------- the command


def test_the_user_plays_the_side_to_move_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    request = requested(["mini-geister", "--position", MINI_P2, "--opponent", "random"], monkeypatch)
    config = request.config
    assert isinstance(config, GeisterConfig)
    assert (config.human, config.position, request.setup) == (Side.P2, MINI_P2, False)
    other = requested(["geister", "--position", GEISTER, "--side", "1", "--seed", "3"], monkeypatch)
    assert isinstance(other.config, GeisterConfig) and other.config.human is Side.P1 and other.config.seed == 3
    # Without --position nothing changes: player 1, and the set-up screen when no --setup is given.
    plain = requested(["mini-geister"], monkeypatch)
    assert isinstance(plain.config, GeisterConfig) and plain.config.human is Side.P1 and plain.setup


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["mini-geister", "--position", MINI_P2, "--side", "1"], "your own pieces"),  # player 1's are unknown
        (["geister", "--position", "1uuuu1/1uuu2/6/6/1BRRB1/1RBBR1 1"], "captured"),  # a piece missing
        (["geister", "--position", GEISTER, "--setup", "BRRBBRRB"], "--setup"),
        (["mini-geister", "--position", "1u2/4/4/1BR1 1 r"], "over"),
        (["mini-geister", "--position", "1uu1/4/4/1BR1 9"], "side to move"),
        (["mini-geister", "--position", "9" * 5000], "--position"),
        (["geister", "--position", "1uu1/4/4/1BR1 1"], "6x6"),
        (["geister", "--position", "1uuuu1/1uu3/6/6/1BRRB1/uRBBR1 1 u 10"], "colours"),  # a captured one hidden
    ],
)
def test_positions_that_cannot_be_played_are_refused_in_one_line(
    argv: list[str], words: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_app(*args: Any) -> int:
        raise AssertionError("the app was opened")

    monkeypatch.setattr("tui.cli.play.open_app", no_app)
    with pytest.raises(SystemExit) as info:
        main(["play", *argv])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and len(err) < 400, err[:500]
    assert words in err


# --------------------------------------------------------------------------------------------------- the session


def test_the_opponents_colours_fit_its_counts_and_ignore_the_users_seed() -> None:
    variant_blues = 4
    seen: set[tuple[tuple[str, Colour], ...]] = set()
    for draw in range(30):
        colours = []
        for seed in (1, 2):  # the opponent's generator (the user's --seed) changes; the colour generator does not
            config = GeisterConfig("geister", Side.P1, "random", None, seed, position=GEISTER)
            session = GameSession(config, setup_rng=random.Random(draw))
            colours.append(opponent_colours(session.state, Side.P2))
            assert session.view().position() == GEISTER  # the user sees the position as given
        assert colours[0] == colours[1]
        assert list(colours[0].values()).count(Colour.BLUE) == variant_blues
        assert set(colours[0].values()) == {Colour.BLUE, Colour.RED}
        seen.add(tuple(sorted(colours[0].items())))
    assert len(seen) > 10  # different draws give different colourings


def test_known_opponent_colours_are_kept_and_count() -> None:
    # Two of player 2's blues are captured and one of its pieces is a known red: two blues left among five unknown.
    position = "1uuuu1/1r4/6/6/1BRRB1/uRBBR1 1 bb 10"
    config = GeisterConfig("geister", Side.P1, "random", None, 1, position=position)
    for draw in range(10):
        state = GameSession(config, setup_rng=random.Random(draw)).state
        colours = opponent_colours(state, Side.P2)
        assert colours["b5"] is Colour.RED
        assert list(colours.values()).count(Colour.BLUE) == 2 and len(colours) == 6


def test_a_game_from_a_position_saves_hidden_and_resumes_whole(tmp_path: Path) -> None:
    config = GeisterConfig("geister", Side.P1, "chototsu", None, 5, position=GEISTER)
    session = GameSession(config, setup_rng=random.Random(1))
    session.play(Move.parse("b1-a1"))  # takes the piece on its exit, before it can escape
    session.apply_opponent(session.choose_opponent_move(session.opponent_view()), session.version)
    assert not session.is_over
    slot = SaveStore(tmp_path).new_slot()
    slot.save(session.record(reveal=False), session.secrets())
    public = Record.load(slot.path)
    full_start = session.state.start_position
    assert full_start is not None
    assert public.tags["Start"] == hide_colours(full_start, Side.P1) == GEISTER  # the user's view, no more
    assert public.tags["Start"] != full_start
    resumed = GameSession.from_record(slot.load())
    assert resumed.state.position() == session.state.position()  # the opponent's colours came back
    assert resumed.state.start_position == full_start and resumed.human is Side.P1
    finished = Record.parse(session.record(reveal=True).to_text())
    assert finished.tags["Start"] == full_start


def test_a_set_up_chosen_afterwards_starts_from_the_beginning() -> None:
    # The set-up screen (after n) gives a set-up: that is a new game from the start, not from the position.
    config = GeisterConfig("mini-geister", Side.P1, "random", "BR", 1, position="1uu1/4/4/2BR 1")
    session = GameSession(config)
    assert session.state.start_position is None and session.state.ply == 0
    with pytest.raises(ConfigError):
        config.check()  # the command line refuses both at once


# --------------------------------------------------------------------------------------------------- the app


def test_play_geister_from_a_position_shows_it_and_takes_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    request = requested(["geister", "--position", GEISTER, "--opponent", "random", "--seed", "7"], monkeypatch)

    async def body() -> None:
        app = NashplayApp(request, ai_delay=0)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert view_of(app).position() == GEISTER  # the board shows the position, their colours hidden
            hidden = [piece.colour is Colour.UNKNOWN for _, piece in view_of(app).pieces(Side.P2)]
            assert len(hidden) == 8 and all(hidden)
            await type_move(app, pilot, "b1-a1")  # takes the piece on its exit
            moves = screen.session.state.moves()
            assert moves[0] == Move.parse("b1-a1")
            assert len(moves) == 2 or screen.session.is_over  # the opponent answered (or the capture ended it)
            assert view_of(app).ply >= 11

    run(body)
