"""The Mini-Geister advice panel: what the solved tables say about the position on the board.

It renders a ``MiniAdvice`` (worked out by the screen in a worker): the placement's value and distance for the user
under both of the paper's rules, each legal move's result, and the equilibrium's move(s); after the game, the
perfect-information value of the position being looked at. The widget only draws; it computes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static


@dataclass(frozen=True)
class MoveLine:
    move: str
    #: "escape", "capture", "captured" for moves that end the game (or try to), else None.
    event: str | None
    base: tuple[int, int | None] | None
    extended: tuple[int, int | None] | None
    equilibrium: bool


@dataclass(frozen=True)
class MiniAdvice:
    """Everything the panel shows; ``note`` replaces the tables when they do not apply (after a capture...)."""

    title: str
    base: tuple[int, int | None] | None = None
    extended: tuple[int, int | None] | None = None
    moves: tuple[MoveLine, ...] = ()
    note: str = ""
    #: The perfect-information verdict, once every colour is known.
    perfect: str = ""


def verdict(value_distance: tuple[int, int | None] | None) -> str:
    if value_distance is None:
        return "-"
    value, distance = value_distance
    if value == 0:
        return "0 endless"
    return f"{value:+d} in {distance}"


class MiniAdvicePanel(Static):
    DEFAULT_CSS = "MiniAdvicePanel { height: auto; margin-bottom: 1; }"

    def show(self, advice: MiniAdvice | None) -> None:
        self.update(self.render_advice(advice))

    @staticmethod
    def render_advice(advice: MiniAdvice | None) -> Text:
        text = Text(end="")
        if advice is None:
            text.append("Advice: working it out...", style="italic")
            return text
        text.append(advice.title + "\n", style="bold")
        if advice.perfect:
            text.append(advice.perfect + "\n")
        if advice.note:
            text.append(advice.note + "\n", style="dim")
        if advice.base is None:
            return text
        text.append(f"{'':<10}{'base':>11}{'extended':>11}\n", style="dim")
        text.append(f"{'here':<10}{verdict(advice.base):>11}{verdict(advice.extended):>11}\n", style="bold")
        for line in advice.moves:
            if line.event == "escape":
                base = extended = "escape?"
            elif line.event == "capture":
                base = extended = "capture"
            elif line.event == "captured":
                base = extended = "coin toss"
            else:
                base, extended = verdict(line.base), verdict(line.extended)
            mark = " <" if line.equilibrium else ""
            style = "bold" if line.equilibrium else ""
            text.append(f"{line.move:<10}{base:>11}{extended:>11}{mark}\n", style=style)
        text.append("+1: you force a fair event; -1: they reach their exit; < the equilibrium's move", style="dim")
        return text
