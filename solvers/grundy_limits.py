"""How far the Sprague-Grundy solver (``solvers.grundy``) may be asked: the bounds every command that runs it
checks before it starts (``solve nim``, ``solve grundy``, ``analyse nim``, ``review``). Light on purpose (no numpy), so
that the commands can read it for their ``--help``."""

from __future__ import annotations

import math

from core.impartial import HeapRule, Octal

__all__ = ["MAX_COMPUTED", "MAX_HEAP", "MAX_HEAPS", "MAX_SPLIT_WORK", "MAX_TAKE", "MAX_UPTO", "longest_sequence"]

#: The largest heap the solver analyses: each heap's moves are looked at one take at a time (40 heaps of 100,000
#: in about 1 s).
MAX_HEAP = 100_000
#: Heaps in one position: the exact search (misere play of games other than Nim) keeps up to a million positions of
#: this many heaps before it gives up: 100 heaps of Kayles took 950 MB and 13 s to say so.
MAX_HEAPS = 100
#: The longest Grundy sequence: 10,000,000 values of a periodic game take 280 MB and 2 s (the JSON lists them all).
MAX_UPTO = 10_000_000
#: Values computed one by one before a period is proven (after that the period is repeated): about 10 us each, so a
#: million take about 12 s; a 50-value subtraction set up to 10,000 proves no period within them.
MAX_COMPUTED = 1_000_000
#: The largest take (subtraction value, or octal digit position): each value looks at every take, and a period can
#: show only past about 4 times the largest. {1..10000} to 10,000,000 took 2.7 s; {1..100000} to 1,000,000, 172 s.
MAX_TAKE = 10_000
#: Games that split heaps cost about upto^2 / 2 array steps per splitting take (no period shortcut before one is
#: proven): 0.6 to 50,000 took 5-10 s, and to 100,000 53 s; 10 splitting takes to 50,000, 31 s.
MAX_SPLIT_WORK = 50_000**2


def longest_sequence(rule: HeapRule) -> tuple[int, str]:
    """How far ``rule``'s Grundy sequence may be asked for, and why when it is less than ``MAX_UPTO``."""
    if not isinstance(rule, Octal):
        return MAX_UPTO, ""
    splitting = sum(rule.allows(take, 2) for take in range(len(rule.digits)))
    if not splitting:
        return MAX_UPTO, ""
    most = min(MAX_UPTO, math.isqrt(MAX_SPLIT_WORK // splitting))
    return most, f" for a game that splits heaps at {splitting} take{'s' if splitting > 1 else ''}"
