"""The live advice panel for Geister: what a search AI running in the background thinks of the user's moves.

It draws one snapshot of the search, sent by the search process, in the form its player gives:

* an alpha-beta search (``solvers.purple.SearchReport``, from ``purple`` and ``bayes``): the depth reached, the
  suggested move and each move's value, with proven results spelled out (a win or loss in so many plies, or an
  expected result where the game may end at once) so that a forced result is never read as a small number, the
  captures that may take the last red marked, and each opponent piece's chance of blue;
* a Monte Carlo search (``solvers.montecarlo.Analysis``): each move's win rate and playouts, and the chances of blue.

It only draws; the screen feeds it snapshots as they arrive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

if TYPE_CHECKING:
    from solvers.montecarlo import Analysis
    from solvers.purple import SearchReport
    from tui.search_process import Snapshot

#: Moves listed (best first); the rest are summarised in one line.
SHOWN_MOVES = 8
#: The search's value scale: a blue piece on the board is worth 1,000, a decided game ``MATE`` (less the plies to
#: it). Kept here (equal to ``solvers.geister_engine.search.MATE``, a test checks) so that drawing never imports the
#: engine.
MATE = 1_000_000
#: Values beyond this are no position's worth: they are proven results, or a chance of one (a chance node's
#: weighed ``MATE``); equal to ``solvers.purple.DECIDED`` (a test checks).
DECIDED = 50_000


def describe_value(value: int) -> str:
    """A search value in words: a proven win or loss with its plies, an expected result where the game may be decided
    at once (a capture that may take the last red, an escape that may be a blue's), or a score in blue pieces."""
    if value > MATE - 1000:
        plies = MATE - value
        return f"wins in {plies} ply" if plies == 1 else f"wins in {plies} plies"
    if value < -(MATE - 1000):
        plies = MATE + value
        return f"loses in {plies} ply" if plies == 1 else f"loses in {plies} plies"
    if abs(value) > DECIDED:
        # A chance node's weighed MATE: the expected result (a win +1, a loss -1) under the belief.
        return f"E(result) {value / MATE:+.2f}"
    return f"{value / 1000:+.2f}"


def relative_value(value: int, best: int) -> str:
    """A move's value for the list: in words when the game may be decided (``describe_value``), else its score
    against the best move's (``best`` for the best itself), since the evaluation's zero means nothing to a player."""
    if abs(value) > DECIDED or abs(best) > DECIDED:
        return describe_value(value)
    return "best" if value == best else f"{(value - best) / 1000:+.2f}"


class SearchAdvicePanel(Static):
    DEFAULT_CSS = "SearchAdvicePanel { height: auto; margin-bottom: 1; }"

    def show(self, snapshot: Snapshot | None, engine: str, note: str = "") -> None:
        self.update(self.render_snapshot(snapshot, engine, note))

    @classmethod
    def render_snapshot(cls, snapshot: Snapshot | None, engine: str, note: str = "") -> Text:
        text = Text(end="")
        text.append(f"Advice (a hides it): {engine} search\n", style="bold")
        if note:
            text.append(note + "\n", style="dim")
        if snapshot is None:
            return text
        from solvers.purple import SearchReport  # already loaded: the snapshot was unpickled from it

        if isinstance(snapshot, SearchReport):
            cls._render_report(text, snapshot)
        else:
            cls._render_analysis(text, snapshot)
        return text

    @staticmethod
    def _render_report(text: Text, report: SearchReport) -> None:
        state = "done" if report.final else "thinking"
        nodes = f"{report.nodes / 1e6:.1f} M" if report.nodes >= 100_000 else f"{report.nodes:,}"
        text.append(
            f"depth {report.depth} (to {report.seldepth}), {nodes} nodes in {report.elapsed:.1f} s ({state})\n",
            style="dim",
        )
        text.append("Suggested: ")
        text.append(f" {report.best} ", style="bold reverse")
        text.append(f"  {describe_value(report.value)}\n" if abs(report.value) > DECIDED else "\n")
        top = report.value
        for move, value in report.moves[:SHOWN_MOVES]:
            mark = " <" if move == report.best else " may be the last red" if move in report.risky else ""
            text.append(f"  {move!s:<8} {relative_value(value, top):>16}{mark}\n")
        if len(report.moves) > SHOWN_MOVES:
            text.append(f"  ... {len(report.moves) - SHOWN_MOVES} more moves\n", style="dim")
        listed = {move for move, _ in report.moves}
        held_back = sorted(str(move) for move in report.risky if move not in listed)
        if held_back:
            text.append(f"  Not played: {', '.join(held_back)} (may take their last red: a loss if it does)\n")
        text.append("Values: against the best move; a blue piece = 1.00\n", style="dim")
        if any(DECIDED < abs(value) <= MATE - 1000 for _, value in report.moves[:SHOWN_MOVES]):
            text.append("E(result): the expected result, a win +1, a loss -1\n", style="dim")
        if report.blue:
            text.append("Their pieces, chance of blue:\n")
            text.append("  " + "  ".join(f"{square} {blue * 100:.0f}%" for square, blue in report.blue) + "\n")

    @staticmethod
    def _render_analysis(text: Text, analysis: Analysis) -> None:
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
