"""A posterior over the opponent's hidden colours from its choices (``solvers.geister.choice``), over a mixture of
learned styles, adapting within a game and across the games against one opponent.

Every colouring of the opponent's pieces consistent with what the viewer knows (the counts of blues and reds, the
colours its captures revealed) gets, under each style, the likelihood of every move the opponent has made; the
posterior over (style, colouring) is the prior times those. A piece's chance of being blue is the weighted share of
the colourings where it is blue; a style's weight says how well it explains this opponent so far. So the belief
adapts within a game twice over: its moves move the colourings, and its moves and the colours its captures reveal
move the styles (an opponent that feeds us reds soon weighs the styles that do).

Across games: a finished game reveals every colour, so the likelihood of all its moves under each style can be
scored exactly. ``OpponentProfile`` keeps those scores for one opponent (by name: ``connect`` stores one per server
opponent, the arena one per pairing) and turns them into the style prior of the next game, and, once it has seen
enough of the opponent's turns, adds a style fitted to that opponent alone.

``TEMPER`` softens the evidence (a power below 1 on the likelihoods): the model is only a model, and an opponent is
never exactly one of its styles; it is fitted on held-out games so that the chances are calibrated (where it says
10% blue, about 10% are).
"""

from __future__ import annotations

import itertools
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.game import Side
from core.geister import Colour, GeisterState, GeisterView
from core.record import Record
from solvers.geister.choice import Style, TurnChoices, TurnData, fit, turn_choices
from solvers.geister.colour_evidence import Turn, turns_of

__all__ = [
    "MODELS",
    "ChoiceBelief",
    "OpponentProfile",
    "StyleMixture",
    "choice_belief",
    "game_turns",
    "load_mixture",
]

#: Where the shipped models live (``nashplay train geister`` writes them).
MODELS = Path(__file__).resolve().parent / "models"
#: The evidence's power: fitted by ``nashplay train geister`` on held-out games (see the module docstring).
TEMPER = 1.0
#: Turns of an opponent's finished games after which its own fitted style joins the mixture.
OWN_STYLE_AFTER = 120
#: The weight a profile's own style starts with in the prior (the rest shared by the scores of the learned styles).
OWN_STYLE_PRIOR = 0.5
#: The least weight a profile leaves a learned style, however badly it explained the opponent's games.
PROFILE_FLOOR = 1e-6


@dataclass(frozen=True)
class StyleMixture:
    """Learned styles and their prior weights (summing to 1), and the evidence's power."""

    styles: tuple[Style, ...]
    prior: tuple[float, ...]
    temper: float = TEMPER

    def to_json(self) -> dict[str, object]:
        return {
            "temper": self.temper,
            "styles": [
                dict(style.to_json(), prior=weight) for style, weight in zip(self.styles, self.prior, strict=True)
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> StyleMixture:
        styles = data["styles"]
        assert isinstance(styles, list)
        parsed = tuple(Style.from_json(entry) for entry in styles)
        prior = tuple(float(entry["prior"]) for entry in styles)
        total = sum(prior)
        return cls(parsed, tuple(p / total for p in prior), float(data.get("temper", TEMPER)))  # type: ignore[arg-type]

    def with_prior(self, prior: Sequence[float], extra: Style | None = None, extra_weight: float = 0.0) -> StyleMixture:
        styles = self.styles + ((extra,) if extra is not None else ())
        weights = [p * (1 - extra_weight) for p in prior] + ([extra_weight] if extra is not None else [])
        total = sum(weights)
        return StyleMixture(styles, tuple(w / total for w in weights), self.temper)


@cache
def load_mixture(path: Path = MODELS / "belief.json") -> StyleMixture:
    """The shipped mixture (read once)."""
    return StyleMixture.from_json(json.loads(path.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class ChoiceBelief:
    """Each opponent piece on the board (by slot) with its chance of being blue, and each style's weight."""

    blue: dict[int, float]
    styles: dict[str, float]
    #: Opponent pieces that stood on an exit at their turn and did not escape (red, unless the opponent passes up
    #: wins): what the purple search takes as known red.
    proven_red: frozenset[int] = field(default_factory=frozenset)

    def red(self, slot: int) -> float:
        return 1.0 - self.blue[slot]


# ------------------------------------------------------------------------------------------------ turns of a game


_CHOICES: OrderedDict[tuple[object, ...], TurnChoices] = OrderedDict()
_CHOICES_KEPT = 20_000


def _prefix_keys(view: GeisterView) -> list[tuple[object, ...]]:
    """A key for each prefix of the game's moves (the game so far after move ``i``), each hashed in constant time:
    the moves are chained into one running hash, with the variant, the start and the length beside it."""
    start = view.start if view.start is not None else ""
    keys: list[tuple[object, ...]] = []
    running = hash((view.variant.name, start))
    for index, move in enumerate(view.moves):
        running = hash((running, move))
        keys.append((view.variant.name, start, index, running))
    return keys


def _turn_keys(view: GeisterView, mover: Side, turns: Sequence[Turn]) -> list[tuple[tuple[object, ...], bool]]:
    """Each of ``mover``'s ``turns``: the key its choices are cached under, and whether the mover was down to its
    last red then. Both go in the key: the moves alone do not say it (twin games with the same moves may reveal
    other colours in their captures), and the choices' features depend on it."""
    keys = _prefix_keys(view)
    first_ply = view.ply - len(view.moves)
    # Captured pieces show their colours: a mover's reds left at a turn are its reds less those taken before it.
    red_slots = {p.slot for p in view.captured if p.side is mover and p.colour is Colour.RED}
    all_slots = set(range(view.variant.pieces(mover)))
    out = []
    for turn in turns:
        taken_reds = len(red_slots & (all_slots - set(turn.theirs)))
        last_red = view.variant.reds[mover] - taken_reds == 1
        out.append(((*keys[turn.ply - first_ply], int(mover), last_red), last_red))
    return out


def game_turns(view: GeisterView, mover: Side) -> list[tuple[Turn, TurnChoices]]:
    """Every turn ``mover`` has played in the game ``view`` shows, with its choices (cached: the same game is read
    again at every decision)."""
    turns = list(turns_of(view, mover))
    result = []
    moved: set[int] = set()
    last: int | None = None
    for turn, (key, last_red) in zip(turns, _turn_keys(view, mover, turns), strict=True):
        choices = _CHOICES.get(key)
        if choices is None:
            choices = turn_choices(
                view.variant, mover, turn.theirs, turn.ours.values(), turn.move, moved, last, last_red
            )
            _CHOICES[key] = choices
            if len(_CHOICES) > _CHOICES_KEPT:
                _CHOICES.popitem(last=False)
        result.append((turn, choices))
        slot = next(s for s, square in turn.theirs.items() if square == turn.move.src)
        moved.add(slot)
        last = slot
    return result


# ------------------------------------------------------------------------------------------------ the posterior


def _colourings(slots: Sequence[int], known: dict[int, Colour], blues: int) -> npt.NDArray[np.bool_]:
    """Every assignment of blue to ``slots`` consistent with ``known`` colours and ``blues`` blues in all."""
    free = [i for i, slot in enumerate(slots) if slot not in known]
    fixed_blue = [i for i, slot in enumerate(slots) if known.get(slot) is Colour.BLUE]
    left = blues - len(fixed_blue)
    rows = []
    for chosen in itertools.combinations(free, max(0, left)) if 0 <= left <= len(free) else ():
        row = np.zeros(len(slots), dtype=bool)
        row[fixed_blue] = True
        row[list(chosen)] = True
        rows.append(row)
    if not rows:  # inconsistent knowledge (a damaged view): every free piece equally likely
        rows.append(np.zeros(len(slots), dtype=bool))
    return np.array(rows)


_LIKELIHOODS: OrderedDict[tuple[object, ...], npt.NDArray[np.float64]] = OrderedDict()


def _turn_likelihoods(
    key: tuple[object, ...], style: Style, choices: TurnChoices, slots: Sequence[int], colourings: npt.NDArray[np.bool_]
) -> npt.NDArray[np.float64]:
    """``style.log_likelihoods`` of one turn over every colouring, cached: each decision of a game reads all its
    turns again, and only the newest is new."""
    full_key = (*key, style.digest)
    found = _LIKELIHOODS.get(full_key)
    if found is None:
        found = style.log_likelihoods(choices, slots, colourings)
        _LIKELIHOODS[full_key] = found
        if len(_LIKELIHOODS) > _CHOICES_KEPT:
            _LIKELIHOODS.popitem(last=False)
    return found


def choice_belief(view: GeisterView, mixture: StyleMixture | None = None) -> ChoiceBelief:
    """The posterior chance of blue of every opponent piece on the board (see the module docstring)."""
    mixture = mixture if mixture is not None else load_mixture()
    them = view.viewer.other
    variant = view.variant
    slots = list(range(variant.pieces(them)))
    known = {p.slot: p.colour for p in view.captured if p.side is them}
    on_board = {piece.slot for _, piece in view.pieces(them)}
    # Every colouring with the right count of blues; those the captures have ruled out are masked below (so that
    # the turns' likelihoods, over the same colourings all game long, can be cached).
    colourings = _colourings(slots, {}, variant.blues[them])
    consistent = np.ones(len(colourings), dtype=bool)
    for slot, colour in known.items():
        consistent &= colourings[:, slot] == (colour is Colour.BLUE)
    turns = game_turns(view, them)
    exits = set(variant.exits[them])
    proven = frozenset(
        slot for turn, _ in turns for slot, square in turn.theirs.items() if square in exits and slot in on_board
    )
    keys = [key for key, _ in _turn_keys(view, them, [turn for turn, _ in turns])]
    log_post = np.empty((len(mixture.styles), len(colourings)))
    for i, style in enumerate(mixture.styles):
        total = np.zeros(len(colourings))
        for key, (_, choices) in zip(keys, turns, strict=True):
            total += _turn_likelihoods(key, style, choices, slots, colourings)
        log_post[i] = np.log(mixture.prior[i]) + mixture.temper * total
    log_post[:, ~consistent] = -np.inf
    top = np.max(log_post[np.isfinite(log_post)]) if np.isfinite(log_post).any() else 0.0
    weights = np.exp(log_post - top)
    weights[~np.isfinite(weights)] = 0.0
    total_weight = weights.sum()
    if total_weight <= 0:
        weights = np.ones_like(weights)
        total_weight = weights.sum()
    weights /= total_weight
    per_colouring = weights.sum(axis=0)
    blue = {slot: float(per_colouring @ colourings[:, slots.index(slot)]) for slot in sorted(on_board)}
    styles = {style.name: float(w) for style, w in zip(mixture.styles, weights.sum(axis=1), strict=True)}
    return ChoiceBelief(blue, styles, proven)


# ------------------------------------------------------------------------------------------------ across games


@dataclass
class OpponentProfile:
    """What the finished games against one opponent showed: each learned style's log-likelihood of all its moves
    (colours known), and the moves themselves (for a style of its own)."""

    name: str
    scores: dict[str, float] = field(default_factory=dict)
    games: int = 0
    data: list[tuple[TurnChoices, dict[int, Colour]]] = field(default_factory=list)

    def learn(self, view: GeisterView, mixture: StyleMixture) -> None:
        """Take in a finished game (``view`` of it from our side, every colour revealed)."""
        them = view.viewer.other
        colours = {piece.slot: piece.colour for _, piece in view.pieces(them)}
        colours.update({p.slot: p.colour for p in view.captured if p.side is them})
        if len(colours) < view.variant.pieces(them) or any(c is Colour.UNKNOWN for c in colours.values()):
            if view.escaped is not None and view.escaped.side is them:
                colours[view.escaped.slot] = Colour.BLUE
            if len(colours) < view.variant.pieces(them):
                return  # the colours are not all known: nothing certain to learn
        turns = [(choices, colours) for _, choices in game_turns(view, them)]
        if not turns:
            return
        data = TurnData.collect(turns)
        for style in mixture.styles:
            self.scores[style.name] = self.scores.get(style.name, 0.0) + data.log_likelihood(style)
        self.data.extend(turns)
        self.games += 1

    def learn_record(self, record: Record, opponent: Side, mixture: StyleMixture) -> None:
        """Take in a finished game's record (both set-ups kept) in which the opponent played ``opponent``."""
        final = record.replay()[-1]
        if isinstance(final, GeisterState) and final.is_terminal():
            self.learn(final.view(opponent.other), mixture)

    def prior(self, mixture: StyleMixture) -> StyleMixture:
        """The mixture to read this opponent's next game with: the styles weighted by how well they explained its
        games (tempered, as the evidence within a game is), and its own style once it has shown enough."""
        if not self.games:
            return mixture
        logs = np.array(
            [
                np.log(p) + mixture.temper * self.scores.get(s.name, 0.0)
                for s, p in zip(mixture.styles, mixture.prior, strict=True)
            ]
        )
        # Never quite zero: a style that explained the games worst keeps a sliver (an opponent may change its ways),
        # and its log stays finite.
        weights = np.maximum(np.exp(logs - logs.max()), PROFILE_FLOOR)
        weights /= weights.sum()
        if len(self.data) < OWN_STYLE_AFTER:
            return mixture.with_prior(weights.tolist())
        best = mixture.styles[int(np.argmax(weights))]
        own = fit(f"{self.name} (its own)", TurnData.collect(self.data), l2=1e-2, start=best)
        return mixture.with_prior(weights.tolist(), own, OWN_STYLE_PRIOR)
