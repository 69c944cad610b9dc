"""Section 6 of the Mini-Geister paper: three pieces against two, solved by the general mechanism.

Red-red-blue: both sides secure >= 0 (the game's value is 0). Red-blue-blue: the 3-piece side secures >= 1/3, the
2-piece side >= -1/2 (two attempts at -1/3 fail). Each analysis is a ``ColourlessSpec`` with the continuation tables
it needs; the start's value is read from its table for both sides to move.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np

from solvers.mini_geister.analysis import PURPLE_PAIR, Assessment, assessment
from solvers.mini_geister.model import Army, ColourlessSpec, Progress
from solvers.mini_geister.tables import Table, TableStore, empty_masks

#: The analysed side's pieces and the opponent's at the start, in the analysis frame (b1 c1 / b4 c4; b2 and b3 for a
#: third piece).
START_SQUARES = ((1, 2, 5), (13, 14, 9))


@dataclass(frozen=True)
class SideAnalysis:
    """One section-6 analysis: a side's strategy, the table it is judged by, and the result at the start.

    ``designated``: the strategy first names one opponent piece blue at random (the opponent may know which); the
    analysed side then plays for ``target`` as if that were true, so the start is secured only if it is from every
    choice (``initial`` is the worst of them). ``paper``: the start's value the paper reports.
    """

    section: str
    title: str
    three_piece_side: bool
    spec: ColourlessSpec
    table: Table
    initial: tuple[Assessment, Assessment]
    paper: int
    claim: str
    designated: bool = False

    @property
    def secured(self) -> bool:
        """Whether the start is secured for both sides to move: value 1, or 0 where endless play (0) meets the
        target."""
        return all(a.value == 1 or (a.value == 0 and self.spec.target <= 0) for a in self.initial)


@dataclass(frozen=True)
class ThreeVsTwo:
    colours: Literal["rrb", "rbb"]
    analyses: tuple[SideAnalysis, ...]
    seconds: float


def _initial(table: Table, spec: ColourlessSpec, designated: bool) -> tuple[Assessment, Assessment]:
    """The start for the analysed side moving first and second: its pieces on b1 c1 (b2), the opponent's on
    b4 c4 (b3). A known red goes on b2 (the red-red-blue strategy's fixed red); a designated blue on each opponent
    square in turn (the worst counts)."""
    mine, theirs = START_SQUARES[0][: spec.analysed.pieces], START_SQUARES[1][: spec.opponent.pieces]
    placements: list[dict[tuple[int, str], list[int]]] = []
    if designated:
        for chosen in theirs:
            placements.append({(0, "p"): list(mine), (1, "kb"): [chosen], (1, "p"): [q for q in theirs if q != chosen]})
    elif spec.analysed.known_red:
        placements.append({(0, "p"): list(mine[:2]), (0, "kr"): [mine[2]], (1, "p"): list(theirs)})
    else:
        placements.append({(0, "p"): list(mine), (1, "p"): list(theirs)})
    results = []
    for turn in (0, 1):
        found = []
        for placement in placements:
            masks = empty_masks(1)
            for key, squares in placement.items():
                masks[key] = np.array([sum(1 << s for s in squares)], dtype=np.int64)
            found.append(assessment(table, int(table.index(masks, turn)[0])))
        # Worst first: -1, then 0, then the longest 1.
        results.append(min(found, key=lambda a: (a.value, -(a.distance or 0) if a.value == 1 else a.distance or 0)))
    return results[0], results[1]


def _section_6(colours: Literal["rrb", "rbb"]) -> list[tuple[str, str, bool, ColourlessSpec, int, str, bool]]:
    if colours == "rrb":
        three = Army(known_red=1, purple_blue=1, purple_red=1)
        return [
            (
                "6.1.1",
                "red-red-blue side: b2 is red, b1 and c1 purple; aims for 0",
                True,
                ColourlessSpec(
                    three, PURPLE_PAIR, Fraction(0), continuation_targets=((Army(1, 1), PURPLE_PAIR, Fraction(1)),)
                ),
                0,
                "secures >= 0 (endless play counts 0)",
                False,
            ),
            (
                "6.1.2",
                "2-piece side against red-red-blue: no guessing; aims for 0",
                False,
                ColourlessSpec(PURPLE_PAIR, Army(purple_blue=1, purple_red=2), Fraction(0), guess=False),
                1,
                "secures >= 0",
                False,
            ),
        ]
    three = Army(purple_blue=2, purple_red=1)
    return [
        (
            "6.2.1",
            "red-blue-blue side: all three purple; aims for 1/3",
            True,
            ColourlessSpec(three, PURPLE_PAIR, Fraction(1, 3)),
            1,
            "secures >= 1/3",
            False,
        ),
        (
            "6.2.2",
            "2-piece side: random capture among 2 pieces in reach; aims for -1/2",
            False,
            ColourlessSpec(PURPLE_PAIR, three, Fraction(-1, 2), guess=False),
            0,
            "secures >= -1/2 (endless play counts 0)",
            False,
        ),
        (
            "6.2.2",
            "2-piece side: random capture among all 3 pieces; aims for -1/3",
            False,
            ColourlessSpec(PURPLE_PAIR, three, Fraction(-1, 3), guess=False),
            -1,
            "fails: -1/3 not secured",
            False,
        ),
        (
            "6.2.2",
            "2-piece side: names one piece blue at random (right 2/3 of the time), then aims for 0; -1/3 overall",
            False,
            ColourlessSpec(PURPLE_PAIR, Army(known_blue=1, purple_blue=1, purple_red=1), Fraction(0), guess=False),
            -1,
            "fails: -1/3 not secured",
            True,
        ),
    ]


def three_vs_two(
    colours: Literal["rrb", "rbb"],
    use_cache: bool = True,
    progress: Progress | None = None,
    store: TableStore | None = None,
) -> ThreeVsTwo:
    """The section-6 analyses for the 3-piece side's colours: each side's strategy, solved by the general mechanism
    (with the perfect-information and continuation tables it needs), and its value at the start for both sides to
    move. Red-red-blue: both sides secure >= 0 (the game's value is 0). Red-blue-blue: the 3-piece side secures
    >= 1/3, the 2-piece side >= -1/2 (two attempts at -1/3 fail)."""
    if colours not in ("rrb", "rbb"):
        raise ValueError(f"the 3-piece side's colours are 'rrb' or 'rbb', not {colours!r}")
    store = store or TableStore(use_cache, progress)
    started = time.perf_counter()
    analyses = []
    for section, title, three_piece, spec, paper, claim, designated in _section_6(colours):
        table = store.colourless(spec)
        analyses.append(
            SideAnalysis(
                section, title, three_piece, spec, table, _initial(table, spec, designated), paper, claim, designated
            )
        )
    return ThreeVsTwo(colours, tuple(analyses), time.perf_counter() - started)
