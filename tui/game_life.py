"""A game's life in the app beyond its rules, the same for every game: whether takebacks are allowed (the policy
chosen at set-up and kept in the record), resigning (a loss in the game's own units, written into the record),
aborting a game before one's second move (nothing is kept), and the seed of a saved game's generators.

As on the chess sites: a casual game allows takebacks, a serious one none, and a game against the game's strongest
AI is serious unless the user says otherwise, so that a win against it means what it says. A takeback is never
possible once the game is over, however it ended. A resigned game's record keeps its moves as they were, with the
result and ``Termination`` saying who resigned; the rules' own end never comes, so every reader takes the result
from the tags (``core.record`` accepts a result that the moves do not reach).

No Textual here: both sessions (``tui.session``, ``tui.local_session``) use it, and the screens show what it says.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from core.errors import NotationError, quoted
from core.game import Outcome, Side
from core.game_type import MAX_SEED
from core.games import game_type
from core.record import Record

#: The record's tag for the takeback policy: ``allowed`` or ``none``.
TAKEBACKS_TAG = "Takebacks"
_POLICY_TEXT = {True: "allowed", False: "none"}
#: The tag of the seed the game's generators were drawn from (in the save's secret while the game runs).
SEED_TAG = "Seed"
#: A seed's text: ASCII digits, no more than ``MAX_SEED`` has (``str.isdigit`` takes other scripts' digits too).
_SEED_TEXT = re.compile(f"[0-9]{{1,{len(str(MAX_SEED))}}}")


def default_takebacks(game: str, opponent: str) -> bool:
    """The policy a set-up screen offers first: takebacks, but none against ``game``'s strongest AI."""
    from solvers.catalogue import STRONGEST

    return STRONGEST.get(game_type(game).name) != opponent


def takebacks_allowed(game: str, opponent: str, chosen: bool | None) -> bool:
    """The policy of a game set up with ``chosen`` (``None``: the default for ``opponent``)."""
    return default_takebacks(game, opponent) if chosen is None else chosen


def takebacks_text(allowed: bool) -> str:
    """The tag's value (``allowed``/``none``)."""
    return _POLICY_TEXT[allowed]


def read_takebacks(tags: Mapping[str, str]) -> bool:
    """The policy a saved game was played under. A save from before the policy existed allowed takebacks; a tag with
    another value is damage (``NotationError``), not a reason to allow them."""
    text = tags.get(TAKEBACKS_TAG)
    if text is None:
        return True
    for allowed, value in _POLICY_TEXT.items():
        if text == value:
            return allowed
    raise NotationError(f"the {TAKEBACKS_TAG} tag is 'allowed' or 'none', not {quoted(text)}")


def read_seed(tags: Mapping[str, str]) -> int:
    """The seed of a saved game's generators (``Seed``; 0 in a save from before it was kept), bounded as ``--seed``
    is: a whole number 0..``MAX_SEED``, its length checked before it is converted. Anything else is damage
    (``NotationError`` naming the tag): a sign, a space, digits of other scripts, thousands of digits."""
    text = tags.get(SEED_TAG, "0")
    if _SEED_TEXT.fullmatch(text) is None or int(text) > MAX_SEED:
        raise NotationError(f"the {SEED_TAG} tag is a whole number 0..2**63-1, not {quoted(text)}")
    return int(text)


def resignation(game: str, side: Side) -> Outcome:
    """``side`` resigns ``game``: the other side wins its whole stake (the game's ``max_payoff``: Footstep's goal)."""
    return Outcome.win(side.other, f"{side} resigned", game_type(game).max_payoff)


def lost_on_time(game: str, side: Side) -> Outcome:
    """``side``'s clock ran out: a loss, the whole stake, as a resignation is."""
    return Outcome.win(side.other, f"{side} ran out of time", game_type(game).max_payoff)


def concluded(record: Record, outcome: Outcome) -> Record:
    """``record`` with ``outcome`` (a resignation) as its result and termination, in the game's own result form."""
    record.tags["Result"] = game_type(record.tags["Game"]).result_text(outcome)
    record.tags["Termination"] = outcome.reason
    return record


def may_abort(moves_by_user: int) -> bool:
    """Whether the user may still abort (end the game and keep nothing): not once they have made their second move,
    as on the chess sites: by then the game has begun for both sides."""
    return moves_by_user < 2


def moves_by(history_length: int, first: Side, side: Side) -> int:
    """How many of the first ``history_length`` turns of a game ``first`` began were ``side``'s (turns alternate)."""
    own = (history_length + 1) // 2
    return own if side is first else history_length - own
