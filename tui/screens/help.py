"""The help screen (``?``): the keys, and how a game is won."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# nashplay: keys

## On the board
| key | what it does |
|---|---|
| arrows, `h` `j` `k` `l` | move the cursor |
| Enter, Space | pick up your piece under the cursor; press again on a square to move it there |
| `o` | send the picked piece out through one of your exits (blue pieces only) |
| `:` | type a move: `b1-b2`, or `a4-out` to escape |
| `u` | take back your last move (and the reply) |
| Tab | switch between the board and the move list |
| `s` | save the game record to a file |
| `r` | replay this game |
| `n` | new game |
| `f` | flip the board |
| `t` | next theme (default, colour-blind friendly, light) |
| `ctrl+p` | command palette: every action by name |
| `?` | this help |
| `q`, `ctrl+q` | quit (a game in progress is saved and offered next time) |

## In the move list and the replay viewer
| key | what it does |
|---|---|
| left / right | one move back / forward |
| Home / End | the start / the end |
| Space, `p` | play / pause (replay) |
| `+` / `-` | faster / slower (replay) |

## The board
`B` and `R` are your blue and red pieces. `?` is an opponent piece whose colour you do not know (drawn in
purple); a captured piece shows its colour. `▲` (`^` in ASCII mode) marks your exits, `▽` (`v`) the
opponent's. The last move is marked `·` (from) and `•` (to).

## How Geister is won
Escape a blue piece through one of your exits, capture all the opponent's blue pieces, or get all your red
pieces captured. In Mini-Geister (one blue and one red each) every capture ends the game.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(HELP)

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
