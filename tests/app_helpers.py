"""Helpers for the app tests around the game (menu, set-up, saves, replay, display, the command line): the terminal
size and seed they share, what the app said, the menu's entries, and a finished Geister game."""

from __future__ import annotations

from textual.widgets import OptionList

from core.game import Side
from core.record import Record
from tui.app import NashplayApp
from tui.config import GeisterConfig
from tui.session import GameSession

SIZE = (100, 32)
SEED = 7


def notifications(app: NashplayApp) -> list[str]:
    return [n.message for n in app._notifications]


def menu_options(app: NashplayApp) -> list[tuple[str | None, str]]:
    games = app.screen.query_one("#games", OptionList)
    return [
        (games.get_option_at_index(i).id, str(games.get_option_at_index(i).prompt)) for i in range(games.option_count)
    ]


def finished_record() -> Record:
    """A whole Geister game (human: first legal move; opponent: chototsu), with a comment on the third move."""
    session = GameSession(GeisterConfig("geister", Side.P1, "chototsu", "BBBBRRRR", SEED))
    while not session.is_over:
        if session.humans_turn:
            session.play(session.view().legal_moves()[0])
        else:
            session.apply_opponent(session.choose_opponent_move(session.opponent_view()), session.state.ply)
    record = session.record()
    record.moves[2].comment = "a note"
    return record
