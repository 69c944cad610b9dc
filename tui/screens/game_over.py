"""The game-over panel: how the game ended and what next (a rematch, the review, a new game, the menu), over the
board, as the chess sites show it. Every game's screen opens it when its game ends (by the rules or a resignation);
Esc closes it to look at the final position (the game's own keys still review, rematch and start anew).

The panel is dismissed with the name of what was chosen (``GameOverChoice``); the game's screen runs its own action
for it, so the panel knows nothing of any game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.game import Outcome, Side
from solvers.review import Review

GameOverChoice = Literal["rematch", "review", "new", "menu"]

#: The choices in the panel's order, with their keys.
CHOICES: tuple[tuple[GameOverChoice, str, str], ...] = (
    ("rematch", "m", "Rematch: the same game, sides swapped"),
    ("review", "v", "Review: every move judged"),
    ("new", "n", "New game"),
    ("menu", "b", "Back to the menu"),
)


@dataclass(frozen=True)
class GameOverSummary:
    """What the panel says: the result for the one who reads it, how the game ended, the record's result, and where
    the record was kept."""

    headline: str
    how: str
    result: str
    kept: Path | None = None
    #: Each player's accuracy, once the game has been reviewed ("you 93.8%, sage 71%").
    accuracy: str | None = None

    def with_accuracy(self, review: Review, human: Side | None, opponent: str) -> GameOverSummary:
        """This summary with ``review``'s accuracy per player (the user's first)."""
        tallies = review.summary()
        sides = [Side.P1, Side.P2] if human is not Side.P2 else [Side.P2, Side.P1]
        parts = []
        for side in sides:
            accuracy = tallies[str(side.number)]["accuracy"]
            who = str(side) if human is None else ("you" if side is human else opponent)
            parts.append(f"{who} {'-' if accuracy is None else f'{accuracy:g}%'}")
        return replace(self, accuracy=", ".join(parts))

    @classmethod
    def of(cls, outcome: Outcome, result: str, human: Side | None, kept: Path | None = None) -> GameOverSummary:
        """``outcome`` told to ``human`` (``None``: two people at one keyboard, told by side)."""
        if outcome.winner is None:
            headline = "Draw"
        elif human is None:
            headline = f"{outcome.winner} wins".capitalize()
        else:
            headline = "You won" if outcome.winner is human else "You lost"
        return cls(headline, outcome.reason, result, kept)


class GameOverPanel(ModalScreen[GameOverChoice | None]):
    """The panel; dismissed with the choice, or ``None`` (Esc: look at the board)."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        *(Binding(key, f"choose('{choice}')", label.split(":")[0], show=False) for choice, key, label in CHOICES),
        Binding("escape", "close", "Look at the board"),
        # A modal screen hides the app's bindings: q and Ctrl-C quit here as they do on the game's screen (Ctrl-Q, a
        # priority binding of the app's, always did).
        Binding("q", "app.quit", "Quit", show=False),
        Binding("ctrl+c", "app.quit", "Quit", show=False),
    ]

    def __init__(self, summary: GameOverSummary, unavailable: frozenset[GameOverChoice] = frozenset()) -> None:
        super().__init__()
        self.summary = summary
        #: Choices the game does not offer (a rematch of a two-people game is a new game, say).
        self.unavailable = unavailable

    def compose(self) -> ComposeResult:
        summary = self.summary
        with Vertical(id="game-over"):
            yield Static(Text(f"Game over: {summary.headline}", style="bold"), id="game-over-headline")
            yield Static(Text(f"{summary.how} ({summary.result})"), id="game-over-how")
            if summary.accuracy is not None:
                yield Static(Text(f"Accuracy: {summary.accuracy}"), id="game-over-accuracy")
            if summary.kept is not None:  # the path whole, on lines of its own: a cut path cannot be found
                yield Static("Its record:", id="game-over-kept-label")
                yield Static(Text(str(summary.kept), overflow="fold"), id="game-over-kept")
            yield OptionList(
                *(
                    Option(f"{key}  {label}", id=choice)
                    for choice, key, label in CHOICES
                    if choice not in self.unavailable
                ),
                id="game-over-choices",
            )
            yield Static("Enter or a key chooses; Esc looks at the board; q quits", classes="hint one-line")

    def on_mount(self) -> None:
        choices = self.query_one("#game-over-choices", OptionList)
        choices.focus()
        # Nothing highlighted until an arrow key: Enter pressed out of habit at the end must not start a rematch.
        choices.highlighted = None

    @on(OptionList.OptionSelected, "#game-over-choices")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option.id or "")

    def action_choose(self, choice: str) -> None:
        for known, _, _ in CHOICES:
            if choice == known and known not in self.unavailable:
                self.dismiss(known)

    def action_close(self) -> None:
        self.dismiss(None)
