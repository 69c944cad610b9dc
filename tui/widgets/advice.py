"""The advice panel of the Geister family: what a solver or the strongest search AI advises the user.

It draws an ``Advice`` (``solvers.advice``): in Geister the live search's (the search process turns each slice of
the search into one), in the Mini-Geister variants the solved tables'. It shows the position's value for the user
(a chance to win, or the tables' exact value), the suggested move, and the moves with forced results first and in
words (an escape that wins now, a capture that stops an escape, a capture that may lose at once, a proven win or
loss in so many plies), then the others: each with its value, its weight in the equilibrium where it has one, and
what the adviser says of it. Compact (a small terminal) it drops detail, never wraps: fewer moves, no legend, and
the chances of blue only on the board.

Every line is made for the panel's real width (redrawn when it changes): a line that does not fit takes a shorter
wording (``first_fitting``: the caller may offer several for its note, most detailed first), a move keeps its
figures on its own line (the words after them go first), and what must run over several lines breaks between words
or between items ("c4 39%" stays together), never inside one.

It only draws; the screen feeds it advice as it arrives.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.widget import Widget
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


def first_fitting(candidates: Sequence[str], width: int) -> str:
    """The first of ``candidates`` (most detailed first) that fits ``width`` columns; else the last one cut at a word
    (``fit``)."""
    return next((text for text in candidates if len(text) <= width), fit(candidates[-1], width))


def wrapped(text: str, width: int) -> list[str]:
    """``text`` over lines of ``width`` columns, broken between words only: never inside a word, nor at a move's
    hyphen ("b2-" / "b3"); a word wider than a line is cut (``fit``)."""
    lines = textwrap.wrap(text, max(1, width), break_long_words=False, break_on_hyphens=False)
    return [fit(line, width) for line in lines] or [""]


def packed(items: Sequence[str], width: int, gap: str = "  ") -> list[str]:
    """``items`` on as few lines of ``width`` columns as they fill, ``gap`` between two: an item ("c4 39%") is never
    split over two lines."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(gap) + len(item) <= width:
            lines[-1] += gap + item
        else:
            lines.append(fit(item, width))
    return lines


def engine_forms(engine: str) -> list[str]:
    """An engine's name with its detail, then shorter: "solved equilibrium (n = 20, k = 3)", "solved equilibrium";
    "sage, depth 9", "sage". A form never ends inside a parenthesis."""
    forms = [engine]
    for cut in (" (", ", "):
        head = forms[-1].split(cut)[0]
        if head and head not in forms and head.count("(") == head.count(")"):
            forms.append(head)
    return forms


def note_lines(note: str | Sequence[str], width: int) -> list[str]:
    """The note's lines: the first of its wordings (a text, or several, most detailed first) whose every line fits
    ``width``; else the last wording broken between words."""
    wordings = [note] if isinstance(note, str) else list(note)
    for wording in wordings:
        parts = wording.splitlines()
        if all(len(part) <= width for part in parts):
            return parts
    return [line for part in wordings[-1].splitlines() for line in wrapped(part, width)] if wordings else []


class AdvicePanel(Static):
    DEFAULT_CSS = """
    AdvicePanel { height: auto; margin-bottom: 1; text-wrap: nowrap; text-overflow: clip; }
    """

    #: What was last shown (``show``'s arguments), redrawn at the panel's new width when it changes.
    _shown: tuple[Advice | None, str, str | Sequence[str], bool, str | None] | None = None
    #: The width the panel's lines were made for.
    _drawn_width = 0

    #: Rows of the terminal the rest of a board screen takes (header, status, captures, the move list's least, the
    #: message line, the footer): the panel has what is left, and drops its details past it.
    OTHER_ROWS = 16

    def show(
        self,
        advice: Advice | None,
        engine: str,
        note: str | Sequence[str] = "",
        compact: bool = False,
        who: str | None = None,
    ) -> None:
        """Draw ``advice`` (``None``: ``engine`` and ``note`` say why there is none yet); ``who`` names the player it
        is for when that is not the user (Nim's player to move at a shared keyboard). ``note`` may be several
        wordings, most detailed first: the panel shows the first that fits its width on its lines, so that a note
        is shortened, not wrapped ("Starting the search in a background process..." / "Starting the search...")."""
        self._shown = (advice, engine, note, compact, who)
        self._draw()

    def _draw(self) -> None:
        if self._shown is None:
            return
        advice, engine, note, compact, who = self._shown
        rows = max(8, self.app.size.height - self.OTHER_ROWS)
        self._drawn_width = self._width()
        self.update(self.render_advice(advice, engine, note, compact, self._drawn_width, rows, who))

    def _width(self) -> int:
        """The columns the panel's lines have. A panel just shown (``display`` was off) has no size yet: it takes its
        container's, which it fills; a panel drawn for a guessed width had its lines folded at the real one."""
        width = self.content_size.width
        if not width and isinstance(self.parent, Widget):
            width = self.parent.content_size.width - self.styles.gutter.width
        return width if width > 0 else 60

    def on_resize(self, event: events.Resize) -> None:
        if self._shown is not None and self._width() != self._drawn_width:
            self._draw()

    @staticmethod
    def render_advice(
        advice: Advice | None,
        engine: str,
        note: str | Sequence[str] = "",
        compact: bool = False,
        width: int = 60,
        rows: int = 1000,
        who: str | None = None,
    ) -> Text:
        """The panel's text for ``advice``; every line fits ``width`` columns (a shorter wording where the longer does
        not fit, a word never split), and past ``rows`` lines the details go, last first (the moves and their
        forced results always stay)."""
        lines: list[tuple[str, str]] = []  # (line, style)
        details_from = 10**9  # where the droppable lines start

        def add(*wordings: str, style: str = "") -> None:
            lines.append((first_fitting(wordings, width), style))

        hints = [""] if compact else [" (a hides it)", ""]
        if advice is None:
            add(*(f"Advice{hint}: {form}" for hint in hints for form in engine_forms(engine)), style="bold")
            for piece in note_lines(note, width):
                add(piece, style="dim")
            return _joined(lines)
        state = "" if advice.final else " (thinking)"
        # The key's reminder, then the engine's detail ("sage, depth 9", "solved equilibrium (n = 20, k = 3)") give
        # way; the state stays, which says the figures may still change.
        add(
            *(f"Advice{hint}: {form}{state}" for hint in hints for form in engine_forms(advice.engine)),
            f"Advice: {engine_forms(advice.engine)[-1]}",
            style="bold",
        )
        for piece in note_lines(note, width):
            add(piece, style="dim")
        if advice.result is not None:
            words = position_words(advice.result, advice.plies, who)
            add(f"{words} (proven)", words, style="bold")
        elif advice.value is not None and advice.scale == "chance":
            whose = f"{who}'s" if who else "Your"
            chance = f"{advice.value * 100:.0f}%"
            add(f"{whose} chance to win: {chance}", f"Chance to win: {chance}", style="bold")
        elif advice.value is not None:
            exact = ", exact" if advice.exact else ""
            value = value_text(advice.value, advice.scale)
            add(f"Value for {who or 'you'}: {value}{exact}", f"Value: {value}{exact}", f"Value: {value}", style="bold")
        best = next((line for line in advice.moves if line.move == advice.best), None)
        if advice.best:
            words = f"  {move_words(best)}" if best is not None and (best.forced or best.result) else ""
            add(f"Suggested: {advice.best}{words}", f"Suggested: {advice.best}", style="bold")
        if len(advice.line) > 1:
            add(*line_wordings(advice.line), style="dim")
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
            figures = f" {mark}{line.move:<8}{value:>{width_of_value}}"
            words = move_words(line)
            # The move and its value stay on one line; what does not fit after them goes: the weight before a
            # forced or proven result (which says more), an adviser's note before the weight (which says less).
            with_words, with_weight = f"{figures}  {words}".rstrip(), f"{figures}  {weight}".rstrip()
            decided = bool(line.forced or line.result)
            add(
                f"{figures}  {weight}{words}".rstrip(),
                *((with_words, with_weight) if decided else (with_weight, with_words)),
                figures,
                style="bold" if line.forced else "",
            )
        if len(advice.moves) > len(listed):
            add(f"  ... {len(advice.moves) - len(listed)} more moves", style="dim")
        details_from = len(lines)
        if not compact:
            for piece in note_lines(_legends(advice.scale, weights), width):
                add(piece, style="dim")
            for detail in advice.details:
                for piece in wrapped(detail, width):
                    add(piece, style="dim")
            if advice.blue:
                add(
                    "Their pieces, chance of blue (on the board: ?7 = 70-79%):",
                    "Chance of blue (board: ?7 = 70-79%):",
                    "Chance of blue:",
                )
                chances = [f"{square} {blue * 100:.0f}%" for square, blue in advice.blue]
                for piece in packed(chances, width - 2):
                    add("  " + piece)
        keep = max(rows, details_from)
        return _joined(lines[:keep])


def line_wordings(line: Sequence[str]) -> list[str]:
    """The search's expected line, most detailed first: whole, then without its last moves ("..." says some are
    left out), at least the suggestion and the reply to it. A move is never cut."""
    wordings = []
    for label in ("Expected line: ", "Line: "):
        for shown in range(len(line), 1, -1):
            wordings.append(label + " ".join(line[:shown]) + (" ..." if shown < len(line) else ""))
    return wordings


def _legends(scale: str, weights: bool) -> tuple[str, ...]:
    """What the figures of the move list mean, most detailed first (the panel shows the first that fits)."""
    if scale == "chance":
        return ("%: your chance to win after the move", "%: your chance to win after it", "%: chance to win after it")
    if scale == "expected":
        return ("your expected payoff after the move", "expected payoff after the move", "expected payoff after it")
    if weights:
        return (
            "value after the move (+1 a win, -1 a loss), then its weight in the equilibrium",
            "value after the move (+1 win, -1 loss), then its equilibrium weight",
            "value after the move, then its weight in the equilibrium",
            "value after the move, then its weight",
        )
    return ("value after the move (+1 a win, -1 a loss)", "value after the move (+1 win, -1 loss)", "value after it")


def _joined(lines: list[tuple[str, str]]) -> Text:
    text = Text(end="", no_wrap=True)
    for line, style in lines:
        text.append(line + "\n", style=style)
    return text
