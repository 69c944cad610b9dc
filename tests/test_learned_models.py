"""The learned judgement of Geister: the choice model and its belief, the value model inside the search, the player
that uses both, and the training run, checked by derivation (a model fitted on moves drawn from known parameters
finds them; a posterior equals the enumeration it stands for; the search's evaluation equals the model's)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from core.game import Side
from core.geister import VARIANTS, Colour, GeisterState, GeisterView, Setup
from solvers.geister.choice import MOVE_FEATURES, N_MOVE_FEATURES, Style, TurnChoices, TurnData, fit
from solvers.geister.choice_belief import StyleMixture, choice_belief, game_turns
from solvers.geister.value import ValueModel, load_value_model, position_features
from solvers.players import Limit, RandomPlayer

GEISTER = VARIANTS["geister"]


def random_game(seed: int, plies: int) -> GeisterState:
    rng = random.Random(seed)
    state = GeisterState(GEISTER)
    for side in Side:
        state.apply(rng.choice(GEISTER.setups(side)))
    player = RandomPlayer()
    while state.ply < plies and not state.is_terminal():
        state.apply(player.choose(state.view(state.to_move), rng))
    return state


# --------------------------------------------------------------------------------------------------- choices


def test_every_legal_move_is_a_candidate_and_the_played_one_is_marked() -> None:
    state = random_game(3, 20)
    for mover in Side:
        view = state.view(mover.other)
        for turn, choices in game_turns(view, mover):
            steps = len(choices.slots) - int(choices.escapes.sum())
            replay = GeisterState.from_position(_position_of(state, turn.ply), GEISTER)  # colours as they were
            assert steps == sum(1 for m in replay.legal_moves() if m.dst is not None)
            assert choices.features.shape == (len(choices.slots), N_MOVE_FEATURES)
            played_slot = int(choices.slots[choices.played])
            assert turn.theirs[played_slot] == turn.move.src


def _position_of(state: GeisterState, ply: int) -> str:
    replay = GeisterState(state.variant, state.first)
    for side in Side:
        setup = state.setup(side)
        assert setup is not None
        replay.apply(setup)
    for move in state.moves()[:ply]:
        replay.push(move)
    return replay.position()


def _sampled_turns(style: Style, count: int, seed: int) -> list[tuple[TurnChoices, dict[int, Colour]]]:
    """Turns whose move is drawn from ``style``'s own choice probabilities, on positions of random games."""
    rng = np.random.default_rng(seed)
    turns = []
    game = 0
    while len(turns) < count:
        state = random_game(1000 + game, 60)
        game += 1
        for mover in Side:
            colours = dict(enumerate(state.setup(mover).colours))  # type: ignore[union-attr]
            for _, choices in game_turns(state.view(mover.other), mover):
                blue = np.array([colours[int(s)] is Colour.BLUE for s in choices.slots])
                utility = np.where(blue, choices.features @ style.blue, choices.features @ style.red)
                utility = np.where(blue | ~choices.escapes, utility, -np.inf)
                chance = np.exp(utility - utility.max())
                chance /= chance.sum()
                drawn = int(rng.choice(len(chance), p=chance))
                turns.append((TurnChoices(choices.slots, choices.features, choices.escapes, drawn), colours))
    return turns[:count]


def test_fitting_moves_drawn_from_known_weights_finds_them() -> None:
    base_blue = [3.0, 1.0, -1.0, -0.5, 0.8, 0.5, -0.6, 0.4, 0.0, 0.7, 0.5, 0.3, -0.2, -0.3, 0.4]
    base_red = [0.0, -0.2, 0.1, 0.3, 1.2, 0.0, 0.9, -0.5, 0.3, -0.4, 0.0, 0.2, 0.1, 0.2, 0.3]
    # The second half: what changes once the mover is down to its last red (seldom seen in random games).
    truth = Style(
        "truth",
        np.array([*base_blue, *(0.3 * x for x in base_blue)]),
        np.array([*base_red, *(-0.5 * x for x in base_red)]),
    )
    assert len(truth.blue) == len(MOVE_FEATURES)
    data = TurnData.collect(_sampled_turns(truth, 6000, seed=1))
    # A penalty of 1e-3 a weight is nothing against 6,000 turns' log-likelihood, and keeps the fit well conditioned
    # (a second where 1e-6 took six).
    found = fit("found", data, l2=1e-3)
    # A weight is found where its feature shows often enough among the moves of that colour (early random games
    # seldom put a blue on its exit, and a red cannot escape at all); those are found within 0.35 (about three
    # standard errors at 6,000 turns).
    for colour, mask, fitted, true in (
        ("blue", data.blue, found.blue, truth.blue),
        ("red", ~data.blue & ~data.escapes, found.red, truth.red),
    ):
        seen = (data.features[mask] != 0).sum(axis=0) >= 300
        assert seen[:10].sum() >= 6, (colour, seen)  # most of the everyday features: the check checks something
        assert np.abs(fitted - true)[seen].max() < 0.35, (colour, (fitted - true)[seen])
    # And the fitted weights explain the moves at least as well as the true ones (it maximises the likelihood, less
    # a penalty far smaller than the sampling noise).
    assert data.log_likelihood(found) >= data.log_likelihood(truth) - 1e-6


def test_the_posterior_is_the_enumeration_of_colourings_it_stands_for() -> None:
    """``choice_belief`` against a brute force: every colouring of the opponent's eight pieces with four blues,
    weighted by the product of every turn's choice probability under it (two styles, one prior each)."""
    state = random_game(7, 40)
    view = state.view(Side.P1)
    styles = (
        Style("a", np.linspace(-1, 1, N_MOVE_FEATURES), np.linspace(1, -1, N_MOVE_FEATURES)),
        Style("b", np.linspace(0.5, -0.5, N_MOVE_FEATURES), np.zeros(N_MOVE_FEATURES)),
    )
    mixture = StyleMixture(styles, (0.3, 0.7), temper=1.0)
    reading = choice_belief(view, mixture)
    them = Side.P2
    known = {p.slot: p.colour for p in view.captured if p.side is them}
    turns = game_turns(view, them)
    totals: dict[int, float] = {}
    norm = 0.0
    for blues in itertools.combinations(range(8), 4):
        colours = {slot: Colour.BLUE if slot in blues else Colour.RED for slot in range(8)}
        if any(colours[slot] is not colour for slot, colour in known.items()):
            continue
        for style, prior in zip(styles, (0.3, 0.7), strict=True):
            weight = prior
            for _, choices in turns:
                blue = np.array([colours[int(s)] is Colour.BLUE for s in choices.slots])
                utility = np.where(blue, choices.features @ style.blue, choices.features @ style.red)
                utility = np.where(blue | ~choices.escapes, utility, -np.inf)
                weight *= float(np.exp(utility[choices.played]) / np.exp(utility).sum())
            norm += weight
            for slot in blues:
                totals[slot] = totals.get(slot, 0.0) + weight
    for slot, chance in reading.blue.items():
        assert chance == pytest.approx(totals.get(slot, 0.0) / norm, abs=1e-9)


def test_the_belief_reads_only_the_viewers_view() -> None:
    """Twin games: the same moves, the opponent's colours swapped between two pieces that were never captured. The
    belief must be the same (it may not read what the viewer cannot see)."""
    state = random_game(11, 30)
    setup = state.setup(Side.P2)
    assert setup is not None
    captured = {p.slot for p in state.captured if p.side is Side.P2}
    colours = list(setup.colours)
    blue = next(i for i, c in enumerate(colours) if c is Colour.BLUE and i not in captured)
    red = next(i for i, c in enumerate(colours) if c is Colour.RED and i not in captured)
    colours[blue], colours[red] = colours[red], colours[blue]
    twin = GeisterState(GEISTER, state.first)
    twin.apply(state.setup(Side.P1))  # type: ignore[arg-type]
    twin.apply(type(setup)(tuple(colours)))
    for move in state.moves():
        twin.push(move)
    if twin.position() == state.position() or twin.is_terminal() != state.is_terminal():
        pytest.skip("the swap changed the game (an escape or a red capture)")  # pragma: no cover
    assert choice_belief(state.view(Side.P1)).blue == choice_belief(twin.view(Side.P1)).blue


# --------------------------------------------------------------------------------------------------- value


def test_the_search_evaluates_a_position_as_the_value_model_does() -> None:
    """The compiled evaluation (``evaluation.learned``) and the model in numpy agree on positions of random games:
    the chance the advice shows is the model's."""
    from solvers.geister.purple import _context
    from solvers.geister_engine import convert, evaluation
    from solvers.geister_engine import search as sr
    from solvers.geister_engine.tables import tables

    model = load_value_model()
    for seed in range(12):
        state = random_game(seed, 10 + 7 * seed)
        if state.is_terminal():
            continue
        view = state.view(state.to_move)
        chances = {piece.slot: 0.1 + 0.07 * piece.slot for _, piece in view.pieces(view.viewer.other)}
        expected = 2 * model.chance(position_features(view, chances)) - 1
        s = convert.from_view(view, {}, purple_escapes=True)
        c = _context(view, {}, chance=True)
        c[sr.C_EVAL] = sr.EVAL_LEARNED
        prob = np.full(64, 1000, dtype=np.int64)
        for square, piece in view.pieces(view.viewer.other):
            prob[view.variant.index(square)] = round(1000 * chances[piece.slot])
        value = evaluation.learned(s, tables(view.variant), c, model.array, prob) / sr.MATE
        bounded = max(-evaluation.EVAL_BOUND, min(evaluation.EVAL_BOUND, expected))
        assert value == pytest.approx(bounded, abs=2e-5)


def test_a_value_model_round_trips_through_json() -> None:
    model = load_value_model()
    again = ValueModel.from_json(json.loads(json.dumps(model.to_json())))
    assert np.array_equal(again.array, model.array)
    with pytest.raises(ValueError, match="other features"):
        ValueModel.from_json({**model.to_json(), "features": ["bias"]})


# --------------------------------------------------------------------------------------------------- the player


def test_sages_advice_ranks_its_suggestion_first_and_tells_different_values_apart() -> None:
    from solvers.advice.geister import analyse

    state = random_game(5, 24)
    view = state.view(state.to_move)
    *_, advice = analyse(view, Limit(iterations=3), random.Random(1), player=_sage())
    best = next(line for line in advice.moves if line.move == advice.best)
    assert best.value is not None
    assert all(line.value is None or line.value <= best.value for line in advice.moves if not line.forced)
    scores = advice.extra["scores"]
    assert isinstance(scores, dict)
    by_value: dict[float, set[int]] = {}
    for line in advice.moves:
        if line.move in scores and line.value is not None:
            by_value.setdefault(line.value, set()).add(scores[line.move])
    assert all(len(values) == 1 for values in by_value.values())  # one chance, one search value


def _sage():  # type: ignore[no-untyped-def]
    from solvers.geister.learned import LearnedPlayer

    return LearnedPlayer()


def test_the_shipped_models_say_how_they_were_trained() -> None:
    folder = Path(__file__).resolve().parents[1] / "solvers" / "geister" / "models"
    belief = json.loads((folder / "belief.json").read_text())
    value = json.loads((folder / "value.json").read_text())
    assert "feeder" in belief["about"]["held_out"] and "feeder" in value["about"]["held_out"]
    assert value["about"]["positions"] > 0 and belief["about"]["turns"] > 0
    assert value["search_calibration"]["positions"] > 0 and value["search_calibration"]["slope"] > 0


def test_the_search_calibration_recovers_a_known_scaling_and_keeps_the_order() -> None:
    """Results drawn from ``sigmoid(0.7 z - 0.3)``: Platt's scaling finds those numbers; the map it makes is
    strictly increasing in the searched value (so the suggested move keeps the highest chance, and different values
    stay different), and it round-trips through the model's JSON."""
    from solvers.geister.value import SearchCalibration, fit_logit_scaling
    from solvers.geister_engine.layout import MATE

    rng = np.random.default_rng(5)
    z = rng.normal(0.0, 2.0, 40_000)
    results = (rng.random(len(z)) < 1 / (1 + np.exp(-(0.7 * z - 0.3)))).astype(float)
    slope, intercept = fit_logit_scaling(z, results)
    assert abs(slope - 0.7) < 0.03 and abs(intercept + 0.3) < 0.03
    calibration = SearchCalibration(slope, intercept, 3, len(z))
    values = [round(MATE * np.tanh(x / 2)) for x in np.linspace(-6, 6, 200)]
    chances = [calibration.chance(v) for v in values]
    assert all(a < b for a, b in itertools.pairwise(chances))
    model = load_value_model()
    data = model.to_json()
    data["search_calibration"] = calibration.to_json()
    assert ValueModel.from_json(data).search_calibration == SearchCalibration(
        round(slope, 6), round(intercept, 6), 3, len(z)
    )
    data["search_calibration"] = dict(calibration.to_json(), slope=-1.0)
    with pytest.raises(ValueError, match="slope"):
        ValueModel.from_json(data)


def _twin_games_that_reveal_other_colours() -> tuple[GeisterView, GeisterView]:
    """Player 1's views, at the same ply of the same moves, of twin games: in one player 2 has lost three reds
    (one red left), in the other the third piece taken was a blue (player 2's set-up has those two swapped)."""
    for seed in range(500):
        state = random_game(seed, 300)
        setup = state.setup(Side.P2)
        assert setup is not None
        replay = GeisterState(GEISTER, state.first)
        for side in Side:
            replay.apply(state.setup(side))  # type: ignore[arg-type]
        moves = list(state.moves())
        for index, move in enumerate(moves):
            replay.push(move)
            view = replay.view(Side.P1)
            taken = [p for p in view.captured if p.side is Side.P2]
            reds = [p.slot for p in taken if p.colour is Colour.RED]
            if len(reds) == 3 and len(taken) - 3 <= 1 and index + 6 < len(moves):
                # Player 2 plays on with one red left (three turns): choices the twin reads as with two.
                for later in moves[index + 1 : index + 7]:
                    replay.push(later)
                view = replay.view(Side.P1)
                if len([p for p in view.captured if p.side is Side.P2]) != len(taken):
                    break  # another capture meanwhile: try another game
                blue = next(p.slot for _, p in view.pieces(Side.P2) if setup.colours[p.slot] is Colour.BLUE)
                colours = list(setup.colours)
                colours[reds[-1]], colours[blue] = colours[blue], colours[reds[-1]]
                twin = GeisterState(GEISTER, state.first)
                twin.apply(state.setup(Side.P1))  # type: ignore[arg-type]
                twin.apply(Setup(tuple(colours)))
                for played in replay.moves():
                    twin.push(played)
                return view, twin.view(Side.P1)
            if len(reds) >= 3:
                break
    raise AssertionError("no random game took three reds first: the test would test nothing")


def test_the_belief_of_a_game_is_not_read_from_the_cache_of_a_twin_that_revealed_other_colours() -> None:
    """The choices' features depend on whether the mover is down to its last red, which the moves alone do not say:
    twin games with the same moves but other colours revealed must not share cached turns."""
    from solvers.geister import choice_belief as module

    mixture = module.load_mixture()
    one, other = _twin_games_that_reveal_other_colours()
    assert [str(m) for m in one.moves] == [str(m) for m in other.moves] and one.captured != other.captured
    module._CHOICES.clear()
    module._LIKELIHOODS.clear()
    alone = choice_belief(other, mixture).blue
    module._CHOICES.clear()
    module._LIKELIHOODS.clear()
    choice_belief(one, mixture)
    assert choice_belief(other, mixture).blue == alone
