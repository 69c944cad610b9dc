"""Texts that must fit where they are drawn, at 80x24 as at 110x34: a shorter wording where the long one does not
fit, never a word, a move's figures or a position split over two lines, and never a position cut with an ellipsis.
Function-level where a function makes the text; a tiny app only where the width comes from the layout."""

from __future__ import annotations

from pilot_helpers import run
from textual.app import App, ComposeResult
from textual.containers import Vertical

from solvers.advice import Advice, MoveAdvice
from tui.screens import record_viewer, replay
from tui.widgets.advice import AdvicePanel

STARTING = "Starting the search in a background process..."
#: The advice panel's width at 80x24 (the side column of the Geister board screen).
NARROW = 37


def lines_of(advice: Advice | None, note: str | tuple[str, ...] = "", width: int = NARROW, **kw: object) -> list[str]:
    text = AdvicePanel.render_advice(advice, "sage", note, width=width, **kw)  # type: ignore[arg-type]
    return str(text).splitlines()


def whole_words(line: str, source: str) -> bool:
    """Every word of ``line`` is a word of ``source`` (none was split)."""
    return set(line.split()) <= set(source.split())


def advice(**changes: object) -> Advice:
    values: dict[str, object] = {
        "game": "geister",
        "position": "1uuuu1/1uuuu1/6/6/1BRRB1/1BRRB1 1 - 0",
        "player": 1,
        "engine": "sage, depth 9",
        "exact": False,
        "best": "b2-b3",
        "moves": (
            MoveAdvice("b2-b3", 0.59, result="win", plies=13),
            MoveAdvice("e2-f2", 0.58),
            MoveAdvice("b2-a2", 0.57),
        ),
        "value": 0.59,
        "final": False,
        "blue": (("a6", 0.5), ("b6", 0.5), ("c6", 0.5), ("d6", 0.39), ("e6", 0.61)),
    }
    values.update(changes)
    return Advice(**values)  # type: ignore[arg-type]


def test_a_note_offered_in_several_wordings_is_shown_in_the_first_that_fits() -> None:
    """At 80x24 the panel showed "Starting the search in a background p" / "rocess...": the board screen may offer a
    shorter wording, and the panel takes the first that fits on one line."""
    note = (STARTING, "Starting the search...")
    assert lines_of(None, note, width=60, compact=True) == ["Advice: sage", STARTING]
    assert lines_of(None, note, compact=True) == ["Advice: sage", "Starting the search..."]
    # One wording only, too long: broken between words, never inside one.
    lines = lines_of(None, STARTING, width=30, compact=True)
    assert lines[0] == "Advice: sage", lines
    assert all(len(line) <= 30 and whole_words(line, STARTING) for line in lines[1:]), lines


def test_the_heading_keeps_thinking_and_a_move_keeps_its_figures() -> None:
    lines = lines_of(advice())
    assert all(len(line) <= NARROW for line in lines), lines
    # "Advice (a hides it): sage, depth 9 (thinking)" lost "(thinking)", the word that says the figures may change:
    # the engine's detail goes first.
    assert lines[0] == "Advice (a hides it): sage (thinking)", lines
    assert lines_of(advice(), compact=True)[0] == "Advice: sage, depth 9 (thinking)"
    # Nor is a parenthesis cut: "solved equilibrium (n = 20" read wrong.
    solved = lines_of(advice(engine="solved equilibrium (n = 20, k = 3)", final=True), compact=True)
    assert solved[0] == "Advice: solved equilibrium", solved
    # A move's line drops its words, whole, rather than cut them ("wins in 13" of "wins in 13 plies").
    narrow = lines_of(advice(), width=24)
    row = next(line for line in narrow if "<b2-b3" in line)
    assert row.split() == ["<b2-b3", "59%"] or row.endswith("wins in 13 plies"), narrow


def test_a_chance_of_blue_never_leaves_its_square() -> None:
    """The chances of blue were wrapped as words: "d6" ended one line and "39%" began the next."""
    for width in range(28, 61):
        lines = lines_of(advice(final=True), width=width)
        start = next(i for i, line in enumerate(lines) if "hance of blue" in line)
        for line in lines[start + 1 :]:
            words = line.split()
            assert len(words) % 2 == 0 and all(w.endswith("%") for w in words[1::2]), (width, lines)
            assert len(line) <= width, (width, lines)


class PanelApp(App[None]):
    """A side column of the 80x24 board screen's width, its advice panel hidden until asked for."""

    CSS = "#side { width: 39; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        with Vertical(id="side"):
            yield AdvicePanel(id="panel")


def test_a_panel_shown_and_drawn_at_once_is_drawn_at_its_real_width() -> None:
    """The panel was drawn for 60 columns when it had just been shown (no size yet), and its 37 columns folded each
    line: "Starting the search in a background p" / "rocess...". It now draws for its container's width, and again
    when that changes."""

    async def test() -> None:
        app = PanelApp()
        async with app.run_test(size=(80, 24)) as pilot:
            panel = app.query_one("#panel", AdvicePanel)
            panel.display = False
            await pilot.pause()
            panel.display = True
            panel.show(None, "sage", STARTING)  # in the same turn, as the board screen does
            await pilot.pause()
            width = panel.content_size.width
            assert width == NARROW
            lines = str(panel.render()).splitlines()
            assert all(
                len(line) <= width and whole_words(line, f"Advice (a hides it): sage {STARTING}") for line in lines
            )
            app.query_one("#side").styles.width = 31
            await pilot.pause()
            await pilot.pause()
            assert all(len(line) <= 29 for line in str(panel.render()).splitlines()), str(panel.render())

    run(test)


def test_a_position_is_shown_whole_or_not_at_all() -> None:
    position = "1brrb1/1brrb1/6/6/1RRRR1/B1BBB1 2 - 1"
    assert replay.position_lines(position, 60) == [f"Position: {position}"]
    assert replay.position_lines(position, 42) == ["Position:", position]  # 80x24: a line of its own
    # Narrower than the position: broken after a '/', each line a run of whole rows; nothing fits: left out.
    broken = replay.position_lines(position, 20)
    assert broken[0] == "Position:" and "".join(broken[1:]) == position and all(len(line) <= 20 for line in broken)
    assert all(line.endswith("/") for line in broken[1:-1])
    assert replay.position_lines(position, 8) == []


def test_a_long_title_gives_way_to_shorter_ones_down_to_one_that_always_fits() -> None:
    for choices in (
        replay.title_choices("Replay: /a/b/c/game.ngr", "Geister", "me vs you", "1-0"),
        record_viewer.title_choices("Replay: /a/b/c/game.ngr", "TCG", "me vs you", "1-0"),
    ):
        assert choices[0] == ("Replay: /a/b/c/game.ngr", "me vs you, result 1-0")
        assert ("Replay: game.ngr", "me vs you, result 1-0") in choices and choices[-1] == ("Replay", "")
        assert choices.index(("Replay: game.ngr", "me vs you")) < choices.index(("Replay: /a/b/c/game.ngr", ""))
    solved = replay.title_choices("Solved line, 13 plies: player 1 forces its event", "Mini-Geister", "a vs b", "*")
    assert ("Solved line, 13 plies", "a vs b, result *") in solved


def test_a_moves_weight_outlasts_a_note_but_not_a_forced_result() -> None:
    """Where a move's line is too long, an adviser's note goes before the move's weight in the equilibrium (Mini-
    Geister at 80x24 lost its "25%" to "coin flip in 13 plies"); a forced result still goes after the weight."""
    # Each fits beside the move's figures alone, but not with the weight as well (the panel's 37 columns at 80x24).
    note = "forces a coin flip"
    forced = "escapes if blue now"
    mixed = advice(
        best="b1-b2",
        scale="expected",
        value=0.0,
        moves=(
            MoveAdvice("b1-b2", 0.0, 0.25, note=note),
            MoveAdvice("c1-c2", -1.0, 0.75, result="loss", plies=1, forced=forced),
        ),
    )
    shown = lines_of(mixed)
    noted = next(line for line in shown if "b1-b2" in line and "Suggested" not in line)
    assert "25%" in noted and note not in noted, shown
    decided = next(line for line in shown if "c1-c2" in line)
    assert forced in decided and "75%" not in decided, shown
    wide = lines_of(mixed, width=90)
    assert any("25%" in line and note in line for line in wide), wide
