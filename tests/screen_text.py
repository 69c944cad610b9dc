"""What the terminal shows, as text, and what does not fit on it: for the layout tests of every screen."""

from __future__ import annotations

import io

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.app import App
from textual.content import Content
from textual.geometry import Region
from textual.scrollbar import ScrollBar
from textual.widget import Widget
from textual.widgets import Footer, Header, Input, Label, Static

from tui.widgets.fitted import Fitting
from tui.widgets.heaps import HeapRows, NimSumTable
from tui.widgets.heatmap import HeatMap
from tui.widgets.mix import MixBars
from tui.widgets.setup_picker import SetupPicker
from tui.widgets.track import Track

#: Widgets drawn from text of our own, line by line: each of their lines must stay one line on the screen.
TEXT_WIDGETS = (Static, Label, MixBars, HeatMap, Track, HeapRows, NimSumTable, SetupPicker)


def screen_text(app: App[None]) -> str:
    """Every character on the terminal (the screen and any toast over it), one line per row."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


def _plain(widget: Widget) -> str | None:
    """The text a widget draws, before any wrapping (``None``: not a text widget we can read)."""
    if isinstance(widget, Static):
        content = widget.content
        if isinstance(content, Fitting):  # the wording chosen for the widget's width now
            return content.choose(widget.content_region.width).plain
        if isinstance(content, Text):
            return content.plain
        if isinstance(content, Content):
            return content.plain
        if isinstance(content, str):
            return Content.from_markup(content).plain if widget._render_markup else content
        return None
    rendered = widget.render()
    if isinstance(rendered, Text | Content):
        return rendered.plain
    return None


def layout_problems(
    app: App[None], scrolling_allowed: tuple[type[Widget], ...] = (), folding_allowed: tuple[str, ...] = ()
) -> list[str]:
    """What does not fit: widgets reaching past the screen or cut by their container, scroll bars (content taller
    or wider than its box), text lines that wrap, and a title the header cuts. Empty when the screen fits.

    The text widgets whose ids are in ``folding_allowed`` draw a text that may fold over several lines by design (a
    file's path, shown whole on lines of its own): theirs must have the lines to show it whole."""
    problems: list[str] = []
    width, height = app.size
    screen = app.screen
    whole = Region(0, 0, width, height)
    compositor = screen._compositor
    for widget, geometry in compositor.full_map.items():
        if not widget.display or not widget.visible or isinstance(widget, ScrollBar):
            continue
        region = geometry.region
        if not region.area:
            continue
        name = f"{type(widget).__name__}#{widget.id}" if widget.id else type(widget).__name__
        if any(isinstance(ancestor, scrolling_allowed) for ancestor in widget.ancestors_with_self):
            continue
        if not whole.contains_region(region):
            problems.append(f"{name} at {region} reaches past the {width}x{height} screen")
        elif not geometry.clip.contains_region(region):
            problems.append(f"{name} at {region} is cut by its container (visible {geometry.clip})")
        if isinstance(widget, Footer | Input):
            continue  # they scroll sideways by design, without a scroll bar (the footer's first keys are checked)
        if widget.show_vertical_scrollbar or widget.show_horizontal_scrollbar:
            problems.append(f"{name} shows a scroll bar: its content does not fit")
        if isinstance(widget, TEXT_WIDGETS) and widget.styles.height is not None and widget.styles.height.is_auto:
            plain = _plain(widget) if not widget.children else None  # a Static may be a container
            if plain is not None and widget.id in folding_allowed:
                width = widget.content_region.width
                folded = sum(max(1, -(-cell_len(line.rstrip()) // width)) for line in plain.split("\n"))
                if widget.content_region.height < folded:
                    problems.append(f"{name}: {folded} folded line(s) have {widget.content_region.height}: cut")
            elif plain is not None:
                lines = plain.split("\n")
                if widget.content_region.height > len(lines):
                    problems.append(f"{name}: {len(lines)} line(s) take {widget.content_region.height}: wrapped")
                longest = max(lines, key=cell_len)
                if cell_len(longest.rstrip()) > widget.content_region.width:
                    problems.append(f"{name}: {longest!r} is wider than {widget.content_region.width}: cut")
    for header in screen.query(Header):
        title = app.format_title(screen.title or app.title, screen.sub_title or app.sub_title).plain
        room = width - 18  # the header's icon and clock space
        if len(title) > room and header.region.area:
            problems.append(f"the title ({len(title)} characters) does not fit the header ({room}): {title!r}")
    return problems


def non_ascii(text: str) -> set[str]:
    return {character for character in text if ord(character) >= 128}


def assert_fits(
    app: App[None],
    *lines: str,
    scrolling_allowed: tuple[type[Widget], ...] = (),
    folding_allowed: tuple[str, ...] = (),
) -> str:
    """The screen fits the terminal (``layout_problems``), shows each of ``lines``, and has no ``…`` (text cut).
    Returns the screen's text."""
    text = screen_text(app)
    problems = layout_problems(app, scrolling_allowed, folding_allowed)
    missing = [line for line in lines if line not in text]
    cut = "…" in text
    assert not problems and not missing and not cut, (
        f"\n{text}\nproblems: {problems}\nmissing: {missing}\ncut (an ellipsis): {cut}"
    )
    return text
