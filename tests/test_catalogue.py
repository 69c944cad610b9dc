"""The catalogues: every game and player is declared once, every declared player plays its games through the one
match runner, and ``nashplay list`` shows what they hold."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from core.game import Side
from core.games import GAME_TYPES, load_game
from solvers import footstep_learning
from solvers.arena import GameParams, run_match
from solvers.catalogue import PLAYERS, STRONGEST, make_player, players_for, strongest
from solvers.players import Limit
from tui.cli import main
from tui.games import GAMES

#: Small games, so that every player's arena game is quick (the solvers' tables are built per test).
SMALL = {"tcg": GameParams.of(n=2), "footstep": GameParams.of(n=4, k=2), "nim": GameParams.of(heaps=(2, 3))}
#: What the search players may spend per move here: the least that still runs their whole machinery.
TINY = Limit(playouts=64)
TINY_DEPTH = Limit(iterations=2)


#: The games the commands play but the app does not (no screen): ``nashplay list`` says so beside each. None now:
#: a game comes to the app with its catalogue entry (``tui.games``) and its screen.
COMMANDS_ONLY: set[str] = set()


def test_every_game_has_an_entry_in_both_catalogues_and_a_strongest_player() -> None:
    assert set(GAME_TYPES) == set(STRONGEST)
    assert set(GAMES) == set(GAME_TYPES) - COMMANDS_ONLY
    for game in GAME_TYPES:
        best = strongest(game)
        assert best.plays(game), game
        assert players_for(game)[0] is best, "the strongest comes first"


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_each_entry_resolves_to_a_class_that_carries_only_its_name(name: str) -> None:
    entry = PLAYERS[name]
    assert entry.description and not entry.description.startswith(name), "the description does not repeat the name"
    for game in entry.games:
        cls = entry.player_class(game)
        assert not hasattr(cls, "description"), f"{cls.__name__} keeps a copy of the description"
        assert make_player(name, game).name == name


def test_a_player_of_another_game_is_refused_with_the_right_names() -> None:
    with pytest.raises(ValueError, match="nash does not play geister: its players are sage"):
        make_player("nash", "geister")
    with pytest.raises(LookupError, match="unknown player 'alphazero'"):
        make_player("alphazero", "geister")


CASES = [(game, entry.name) for game in GAME_TYPES for entry in players_for(game)]


@pytest.mark.parametrize(("game", "name"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_every_listed_player_plays_an_arena_game(game: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The Footstep learner trains before its first game: 10,000 games against random (seconds) where a hundred run
    # the same machinery (TINY's counterpart for a player that learns instead of searching).
    monkeypatch.setattr(footstep_learning, "LEARNER_TRAINING", replace(footstep_learning.LEARNER_TRAINING, games=100))
    match = run_match(game, (name, "random"), 2, TINY, seed=3, params=SMALL.get(game, GameParams()))
    assert match.games == 2
    for result in match.results:
        assert result.plies > 0 and result.reason


def test_load_game_refuses_parameters_a_game_does_not_take() -> None:
    assert load_game("geister", first=Side.P2).current_player() == Side.P1  # player 1 sets up first
    with pytest.raises(ValueError, match="geister takes no n"):
        load_game("geister", n=5)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        load_game("chess")


def test_nashplay_list_json_holds_both_catalogues(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["name"] for g in data["games"]] == [*GAMES, *sorted(COMMANDS_ONLY)]
    assert [g["name"] for g in data["games"] if not g["app"]] == sorted(COMMANDS_ONLY)
    geister = next(g for g in data["games"] if g["name"] == "geister")
    assert geister["kind"] == "board" and "ismcts" in geister["players"] and "nash" not in geister["players"]
    players = {p["name"]: p for p in data["players"]}
    assert set(players) == set(PLAYERS)
    assert players["nash"]["games"] == ["mini-geister"] and players["upp"]["description"] == PLAYERS["upp"].description
    assert data["strongest"] == STRONGEST
    assert main(["list"]) == 0
    text = capsys.readouterr().out
    assert "bayes (strongest)" in text and "Players:" in text
    assert "Goofspiel: bid cards" in text and "commands only" not in text


def test_every_game_has_its_help_page() -> None:
    from importlib import resources

    from tui.screens.help import help_text

    for entry in GAMES.values():
        assert (resources.files("tui.help") / f"{entry.help_topic}.md").is_file(), entry.name
        assert help_text(entry.help_topic) != help_text("general")
    assert help_text("no-such-topic") == help_text("general")


def test_the_advising_player_is_the_strongest_player_whose_search_reports_advise() -> None:
    """``advising_player`` picks what the live advice, ``analyse`` and the review search with: on 6x6 the strongest
    (sage); where the strongest cannot advise (Mini-Geister's tables), the strongest that can; none in the solved
    games."""
    from core.geister import GeisterState
    from solvers.catalogue import advising_player
    from solvers.geister.purple import SearchReport

    assert advising_player("geister") is strongest("geister")
    assert advising_player("mini-geister").advises and not strongest("mini-geister").advises
    for game in ("tcg", "footstep", "nim", "goofspiel"):
        with pytest.raises(LookupError):
            advising_player(game)
    state = GeisterState.from_position("1uu1/4/4/1BR1 1", "mini-geister")
    for entry in (entry for entry in PLAYERS.values() if entry.advises):
        reports = list(entry.make("mini-geister").analyse(state.view(state.to_move), TINY_DEPTH, random.Random(1)))
        assert reports and all(isinstance(report, SearchReport) for report in reports), entry.name
