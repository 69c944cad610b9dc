"""Themes (colours) and glyph sets (characters). Colour is never the only signal: every piece has a letter.

The board reads its colours from theme variables (``$piece-red`` ...) through component classes in ``app.tcss``,
so switching theme restyles the board live. The glyph set is chosen once: Unicode by default, ASCII for poor fonts.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.theme import Theme

#: Variables every theme must define; ``app.tcss`` uses them.
PIECE_VARIABLES = {
    "piece-red": "#e5484d",
    "piece-blue": "#3e9bff",
    "piece-unknown": "#b76ef0",
    "square-light": "#2c3440",
    "square-dark": "#232a33",
    "square-cursor": "#6b5b1e",
    "square-selected": "#1f6b4a",
    "square-last": "#3b3558",
}

DEFAULT = Theme(
    name="nashplay",
    primary="#b76ef0",
    secondary="#3e9bff",
    accent="#f0b429",
    warning="#f0b429",
    error="#e5484d",
    success="#46a758",
    background="#16191e",
    surface="#1d2128",
    panel="#262b33",
    dark=True,
    variables=dict(PIECE_VARIABLES),
)

# Okabe-Ito palette: vermillion, sky blue, reddish purple stay apart for the common colour-vision deficiencies.
COLOURBLIND = Theme(
    name="nashplay-colourblind",
    primary="#CC79A7",
    secondary="#56B4E9",
    accent="#E69F00",
    warning="#E69F00",
    error="#D55E00",
    success="#009E73",
    background="#111111",
    surface="#1a1a1a",
    panel="#262626",
    dark=True,
    variables={
        **PIECE_VARIABLES,
        "piece-red": "#D55E00",
        "piece-blue": "#56B4E9",
        "piece-unknown": "#CC79A7",
        "square-light": "#303030",
        "square-dark": "#242424",
        "square-cursor": "#6b5a00",
        "square-selected": "#00573f",
        "square-last": "#3d3d3d",
    },
)

LIGHT = Theme(
    name="nashplay-light",
    primary="#7b2fbf",
    secondary="#0b62c4",
    accent="#a05a00",
    warning="#a05a00",
    error="#c0262d",
    success="#2b7a3b",
    background="#f4f1ea",
    surface="#ebe6dc",
    panel="#ddd6c8",
    dark=False,
    variables={
        **PIECE_VARIABLES,
        "piece-red": "#c0262d",
        "piece-blue": "#0b62c4",
        "piece-unknown": "#7b2fbf",
        "square-light": "#e6dcc8",
        "square-dark": "#d3c5aa",
        "square-cursor": "#f2c94c",
        "square-selected": "#9fd8b4",
        "square-last": "#c9c0e6",
    },
)

THEMES = (DEFAULT, COLOURBLIND, LIGHT)


@dataclass(frozen=True)
class Glyphs:
    """Characters the board draws with. Every mark also differs by shape, not only by colour."""

    unknown: str
    own_exit: str
    opponent_exit: str
    last_from: str
    last_to: str
    cursor_left: str
    cursor_right: str
    selected_left: str
    selected_right: str
    #: The suggested move (``H``): its from and to squares.
    hint_from: str
    hint_to: str
    #: Where the picked piece may go.
    target: str
    #: The evaluation bar: filled and empty cells.
    bar_full: str
    bar_empty: str


UNICODE = Glyphs(
    unknown="?",
    own_exit="▲",
    opponent_exit="▽",
    last_from="·",
    last_to="•",
    cursor_left="[",
    cursor_right="]",
    selected_left="‹",
    selected_right="›",
    # Diamonds, not dots: the last move's marks are dots, and the two must differ without colour.
    hint_from="◇",
    hint_to="◆",
    target="+",
    bar_full="█",
    bar_empty="░",
)

ASCII = Glyphs(
    unknown="?",
    own_exit="^",
    opponent_exit="v",
    last_from=".",
    last_to="*",
    cursor_left="[",
    cursor_right="]",
    selected_left="<",
    selected_right=">",
    hint_from="o",
    hint_to="@",
    target="+",
    bar_full="#",
    bar_empty=".",
)


def theme_names() -> list[str]:
    """nashplay's themes first, then Textual's built-in ones."""
    from textual.theme import BUILTIN_THEMES

    return [t.name for t in THEMES] + sorted(BUILTIN_THEMES)
