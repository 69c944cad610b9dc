"""The live advice panel for Geister: what a search AI running in the background thinks of the user's moves.

It draws one snapshot of the search (``solvers.montecarlo.Analysis``, sent by the search process): the suggested
move, each move's win rate and playout count, and for each opponent piece the estimated chance that it is blue.
It only draws; the screen feeds it snapshots as they arrive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

if TYPE_CHECKING:
    from solvers.montecarlo import Analysis

#: Moves listed (best first); the rest are summarised in one line.
SHOWN_MOVES = 8


class SearchAdvicePanel(Static):
    DEFAULT_CSS = "SearchAdvicePanel { height: auto; margin-bottom: 1; }"

    def show(self, analysis: Analysis | None, engine: str, note: str = "") -> None:
        self.update(self.render_analysis(analysis, engine, note))

    @staticmethod
    def render_analysis(analysis: Analysis | None, engine: str, note: str = "") -> Text:
        text = Text(end="")
        text.append(f"Advice (a hides it): {engine} search\n", style="bold")
        if note:
            text.append(note + "\n", style="dim")
        if analysis is None:
            return text
        state = "done" if analysis.final else "thinking"
        text.append(f"{analysis.playouts:,} playouts in {analysis.elapsed:.1f} s ({state}); ", style="dim")
        text.append(f"{analysis.worlds} colourings possible\n", style="dim")
        text.append("Suggested: ")
        text.append(f" {analysis.best} ", style="bold reverse")
        text.append("\n")
        for stats in analysis.moves[:SHOWN_MOVES]:
            mark = " <" if stats.move == analysis.best else ""
            text.append(f"  {stats.move!s:<8} {stats.win_rate * 100:5.1f}%  {stats.playouts:>7,} playouts{mark}\n")
        if len(analysis.moves) > SHOWN_MOVES:
            text.append(f"  ... {len(analysis.moves) - SHOWN_MOVES} more moves\n", style="dim")
        if analysis.beliefs:
            text.append("Their pieces, chance of blue:\n")
            beliefs = sorted(analysis.beliefs, key=lambda b: -b.blue)
            text.append("  " + "  ".join(f"{b.square} {b.blue * 100:.0f}%" for b in beliefs) + "\n")
        return text
