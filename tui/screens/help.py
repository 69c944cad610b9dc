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
| `a` | advice: Mini-Geister's solved values, or in Geister a live UPP search (win rates, chance each `?` is blue) |
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

## On a contest server (`nashplay connect`)
| key | what it does |
|---|---|
| Space, Enter / `r` / `s` | before the game: turn a piece red or blue / a random set-up / send it |
| arrows, Enter, `o`, `:` | move as in a local game; an illegal move is refused here, never sent (it would lose) |
| `a` | live advice from a search AI on your turn (in a background process) |
| `c` | after a result or an error: connect again for the next game |
| `r` | after the game: replay the saved record |
| `q` | quit (during a game, press it twice: leaving loses the game on the server) |

Both clocks show the budget left; once it is spent, what is left of the per-move allowance. Every game's record
is saved (however it ends); the screen says where.

## How Geister is won
Escape a blue piece through one of your exits, capture all the opponent's blue pieces, or get all your red
pieces captured. In Mini-Geister (one blue and one red each) every capture ends the game.
"""


TCG_HELP = """\
# Twice Clap Game: keys

Both players choose at once: **c** charge (+1 point, up to n), **a** attack (-1), **d** defense, **s** strong
attack (-n points). Attack beats charge; strong attack beats everything but strong attack. A player whose points
go below 0 loses; if both do, the game starts again from 0, 0.

| key | what it does |
|---|---|
| `c` `a` `d` `s` | advisor mode: what the opponent played (the round is then resolved); versus mode: your own choice |
| `C` `A` `D` `S` (shift) | advisor mode: what you played, if not the suggestion |
| `v` | switch between advisor and versus mode (starts a new game) |
| `n` | change n (the most points a player can hold); it is solved in the background |
| `u` | take back the last round |
| `r` | new game |
| Esc | back to the menu |

The bars show both players' equilibrium mixes; `*` marks actions that keep the value for sure. The heat map is
player 1's chance to win from every state, the current state in brackets.
"""

NIM_HELP = """\
# Nim and impartial games: keys

| key | what it does |
|---|---|
| up / down, `k` / `j` | choose the heap |
| left / right, `h` / `l`, `+` / `-`, `1`-`9` | how many stones to take |
| `[` / `]` | for games that split a heap (Kayles): where the stones are taken from |
| Enter | play the move |
| `u` | take back your move (and the reply) |
| `a` | show or hide the advice |
| `n` | new game |
| Esc | back to the menu |

The advice shows each heap's Grundy value (its equivalent Nim heap) and their xor, the nim-sum, in binary: `^`
marks the columns with an odd number of 1s. A position is lost for the player to move exactly when the nim-sum
is 0; a winning move makes it 0.
"""

FOOTSTEP_HELP = """\
# Footstep: keys

Both players start with n points; the marker starts on the centre line, k steps from each goal. Each round both
bid in secret, from 1 to their points (0 only when they have none left); both bids are paid, and the higher bid
moves the marker one step toward the other player's goal (equal bids: it stays). Reaching the goal wins by 2; when
both are out of points, the marker on the opponent's half wins by 1, on the centre line it is a draw.

| key | what it does |
|---|---|
| `0`-`9`, Backspace | type your bid |
| `+` / `-`, up / down | raise / lower your bid by one |
| Enter | bid (the opponent chose its bid when the round opened, without seeing yours) |
| `a` | show or hide the advice: your equilibrium mix and the state's value |
| `s` | put in a bid drawn from your equilibrium mix |
| `n` | new game |
| `o` | next opponent: the equilibrium player, the random player, a learner (a new game) |
| `g` | the game's size: n,k (50,4 is the standard game, 20,3 the source's simplified one) |
| `l` | the learning curves of the source's learners against the random player |
| Esc | back to the menu |

Your goal is drawn on the left and the opponent's on the right, whichever player you are; the marker is `◆`
(`@` in ASCII mode). Values are in points, from -2 to +2, for you.
"""

GENERAL_HELP = """\
# nashplay

Games where the right move is a mixed strategy, with advice from exact solvers and search AIs.

| key | what it does |
|---|---|
| arrows, Enter | choose in the menu (the mouse works too) |
| `o` | open a record file in the replay viewer |
| `t` | next theme (default, colour-blind friendly, light) |
| `ctrl+p` | command palette: every action by name |
| `?` | help: on a game's screen, that game's keys and rules |
| `q` | quit (a game in progress is kept and offered for resume) |

From a shell, `nashplay list` names every game and player, and `nashplay --help` every command.
"""

TOPICS = {"general": GENERAL_HELP, "geister": HELP, "tcg": TCG_HELP, "nim": NIM_HELP, "footstep": FOOTSTEP_HELP}


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close")]

    def __init__(self, topic: str = "general") -> None:
        super().__init__()
        self.topic = topic if topic in TOPICS else "general"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(TOPICS[self.topic])

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
