"""The advice panel of the Geister family: what a solver or the strongest search AI advises the user.

It draws an ``Advice`` (``solvers.advice``): in Geister the live search's (the search process turns each slice of
the search into one), in the Mini-Geister variants the solved tables'. It shows the position's value for the user
(a chance to win, or the tables' exact value), the suggested move, and the moves with forced results first and in
words (an escape that wins now, a capture that stops an escape, a capture that may lose at once, a proven win or
loss in so many plies), then the others: each with its value, its weight in the equilibrium where it has one, and
what the adviser says of it. Compact (a small terminal) it drops detail, never wraps: fewer moves, no legend, and
the chances of blue only on the board.

It only draws; the screen feeds it advice as it arrives.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

if TYPE_CHECKING:
    from solvers.advice import Advice, MoveAdvice

#: Moves listed (forced ones first, then best first); the rest are summarised in one line.
SHOWN_MOVES = 8
SHOWN_MOVES_COMPACT = 4


def plies_words(plies: int | None) -> str:
    if plies is None:
        return ""
    return f"{plies} ply" if plies == 1 else f"{plies} plies"


def outcome_words(result: str | None, plies: int | None) -> str:
    """A proven result in words: "wins in 3 plies", "loses in 1 ply", "draws"; "wins" where the distance is not
    known (a Sprague-Grundy win)."""
    within = f" in {plies_words(plies)}" if plies is not None else ""
    if result == "win":
        return f"wins{within}"
    if result == "loss":
        return f"loses{within}"
    if result == "draw":
        return "draws"
    return ""


def position_words(result: str, plies: int | None, who: str | None = None) -> str:
    """The position's proven result for the user ("You win in 3 plies", "You lose in 1 ply", "A draw"), or for
    ``who`` ("Player 2 wins in 3 plies") when the advice is someone else's."""
    if result == "draw":
        return "A draw"
    if who is not None:
        return f"{who} {outcome_words(result, plies)}"
    within = f" in {plies_words(plies)}" if plies is not None else ""
    return f"You {'win' if result == 'win' else 'lose'}{within}"


def value_text(value: float | None, scale: str, decimals: int = 0) -> str:
    """A value on its advice's scale: a chance ("52%", with ``decimals`` "52.31%"), an exact table value ("+1"), an
    expected payoff."""
    if value is None:
        return "?"
    if scale == "chance":
        return f"{value * 100:.{decimals}f}%"
    if scale == "outcome":
        return f"{value:+.0f}" if value else "0"
    # Rounded first: a solved 0 that came out as -3e-18 reads "+0.00", never "-0.00".
    return f"{round(value, 2) + 0.0:+.2f}"


#: The most decimals a chance is shown with (hundredths of a percent): values closer than that read alike.
MOST_DECIMALS = 2


def chance_decimals(values: list[float | None]) -> int:
    """The fewest decimals (0 to ``MOST_DECIMALS``) that show different chances as different: the search tells the
    moves apart, and so does the list (the same 49% beside every move said nothing)."""
    known = sorted({v for v in values if v is not None})
    for decimals in range(MOST_DECIMALS + 1):
        shown = {f"{v * 100:.{decimals}f}" for v in known}
        if len(shown) == len(known):
            return decimals
    return MOST_DECIMALS


def move_words(line: MoveAdvice) -> str:
    """What the list says of a move beside its value: its forced result, its proven one, or the adviser's note."""
    return line.forced or outcome_words(line.result, line.plies) or line.note


def fit(line: str, width: int) -> str:
    """``line`` cut to ``width`` columns at a word (at a column when one word is wider): detail is dropped from the
    end, and nothing wraps or runs past the panel."""
    if len(line) <= width:
        return line
    aside = line.rfind(" (", 0, width + 1)  # a parenthesis goes whole: "+1 in 10 (extended +1 in" reads wrong
    if aside > width // 2:
        return line[:aside].rstrip()
    cut = line.rfind(" ", 0, width + 1)
    return (line[:cut] if cut > width // 2 else line[:width]).rstrip()


class AdvicePanel(Static):
    DEFAULT_CSS = """
    AdvicePanel { height: auto; margin-bottom: 1; text-wrap: nowrap; }
    """

    #: Rows of the terminal the rest of a board screen takes (header, status, captures, the move list's least, the
    #: message line, the footer): the panel has what is left, and drops its details past it.
    OTHER_ROWS = 16

    def show(
        self, advice: Advice | None, engine: str, note: str = "", compact: bool = False, who: str | None = None
    ) -> None:
        """Draw ``advice`` (``None``: ``engine`` and ``note`` say why there is none yet); ``who`` names the player it
        is for when that is not the user (Nim's player to move at a shared keyboard)."""
        rows = max(8, self.app.size.height - self.OTHER_ROWS)
        self.update(self.render_advice(advice, engine, note, compact, self.content_size.width or 60, rows, who))

    @staticmethod
    def render_advice(
        advice: Advice | None,
        engine: str,
        note: str = "",
        compact: bool = False,
        width: int = 60,
        rows: int = 1000,
        who: str | None = None,
    ) -> Text:
        """The panel's text for ``advice``; every line fits ``width`` columns (the longer ones lose their ends), and
        past ``rows`` lines the details go, last first (the moves and their forced results always stay)."""
        lines: list[tuple[str, str]] = []  # (line, style)
        details_from = 10**9  # where the droppable lines start

        def add(line: str, style: str = "") -> None:
            lines.append((fit(line, width), style))

        if advice is None:
            add(f"Advice{'' if compact else ' (a hides it)'}: {engine}", "bold")
            for part in note.splitlines():
                for piece in textwrap.wrap(part, max(20, width)) or [""]:
                    add(piece, "dim")
            return _joined(lines)
        state = "" if advice.final else " (thinking)"
        add(f"Advice{'' if compact else ' (a hides it)'}: {advice.engine}{state}", "bold")
        for part in note.splitlines():
            for piece in textwrap.wrap(part, max(20, width)) or [""]:
                add(piece, "dim")
        if advice.result is not None:
            add(f"{position_words(advice.result, advice.plies, who)} (proven)", "bold")
        elif advice.value is not None and advice.scale == "chance":
            whose = f"{who}'s" if who else "Your"
            add(f"{whose} chance to win: {advice.value * 100:.0f}%", "bold")
        elif advice.value is not None:
            exact = ", exact" if advice.exact else ""
            add(f"Value for {who or 'you'}: {value_text(advice.value, advice.scale)}{exact}", "bold")
        best = next((line for line in advice.moves if line.move == advice.best), None)
        if advice.best:
            words = f"  {move_words(best)}" if best is not None and (best.forced or best.result) else ""
            add(f"Suggested: {advice.best}{words}", "bold")
        shown = SHOWN_MOVES_COMPACT if compact else SHOWN_MOVES
        # Every forced result is listed, however many, and the suggested move: none is hidden behind "more moves".
        must = [line for line in advice.moves if line.forced or line.result is not None or line.move == advice.best]
        others = [line for line in advice.moves if line not in must]
        listed = must + others[: max(0, shown - len(must))]
        listed.sort(key=advice.moves.index)
        weights = any(line.probability is not None for line in advice.moves)
        decimals = chance_decimals([line.value for line in listed]) if advice.scale == "chance" else 0
        width_of_value = 4 + (decimals + 1 if decimals else 0)
        for line in listed:
            mark = "<" if line.move == advice.best else " "
            weight = "" if not weights else f"{line.probability * 100:4.0f}% " if line.probability else "      "
            value = value_text(line.value, advice.scale, decimals)
            add(
                f" {mark}{line.move:<8}{value:>{width_of_value}}  {weight}{move_words(line)}",
                "bold" if line.forced else "",
            )
        if len(advice.moves) > len(listed):
            add(f"  ... {len(advice.moves) - len(listed)} more moves", "dim")
        details_from = len(lines)
        if not compact:
            legend = {
                "chance": "%: your chance to win after the move",
                "outcome": "value after the move (+1 a win, -1 a loss)"
                + (", then its weight in the equilibrium" if weights else ""),
                "expected": "your expected payoff after the move",
            }[advice.scale]
            for piece in textwrap.wrap(legend, max(20, width)):
                add(piece, "dim")
            for detail in advice.details:
                for piece in textwrap.wrap(detail, max(20, width)):
                    add(piece, "dim")
            if advice.blue:
                add("Their pieces, chance of blue (on the board: ?7 = 70-79%):")
                chances = "  ".join(f"{square} {blue * 100:.0f}%" for square, blue in advice.blue)
                for piece in textwrap.wrap(chances, max(20, width - 2)):
                    add("  " + piece)
        keep = max(rows, details_from)
        return _joined(lines[:keep])


def _joined(lines: list[tuple[str, str]]) -> Text:
    text = Text(end="", no_wrap=True)
    for line, style in lines:
        text.append(line + "\n", style=style)
    return text
