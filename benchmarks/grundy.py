"""Grundy sequences: a subtraction game to 1,000,000 and Kayles to 20,000, next to a straightforward recursive mex.

The baseline is the textbook definition, memoised recursion with a Python set per mex, measured in the same run on
sizes it can reach (recursion depth and time) and extrapolated: linearly for the subtraction game (each value
looks at |S| options), quadratically for Kayles (each value looks at about n/2 splits). nashplay's figures are
given twice: with the proven period (what the program does) and computing every value (the raw vectorised speed).

    python benchmarks/grundy.py

Ends with one JSON line: {"subtraction_1e6_seconds": ..., "kayles_20000_seconds": ..., ...}.
"""

from __future__ import annotations

import json
import sys
import time
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.impartial import KAYLES, HeapRule, Subtraction
from solvers.grundy import grundy_sequence, max_take

SUBTRACTION = Subtraction({1, 3, 4})


def recursive_baseline(rule: HeapRule, upto: int) -> float:
    """Seconds for G(0..upto) by memoised recursion (filled bottom-up so Python's recursion limit holds)."""

    bound = max_take(rule)
    takes = range((bound or 0) + 1)

    @cache
    def grundy(n: int) -> int:
        # Only the takes the rule can allow (a subtraction set, an octal code's digits): the honest loop.
        seen = set()
        for take in takes:
            rest = n - take
            if rest < 0:
                break
            if rest == 0 and rule.allows(take, 0):
                seen.add(0)
            if rest > 0 and rule.allows(take, 1):
                seen.add(grundy(rest))
            if rest > 1 and rule.allows(take, 2):
                for a in range(1, rest // 2 + 1):
                    seen.add(grundy(a) ^ grundy(rest - a))
        mex = 0
        while mex in seen:
            mex += 1
        return mex

    started = time.perf_counter()
    for n in range(upto + 1):
        grundy(n)
    return time.perf_counter() - started


def timed(rule: HeapRule, upto: int, use_period: bool) -> float:
    started = time.perf_counter()
    grundy_sequence(rule, upto, use_period=use_period)
    return time.perf_counter() - started


def main() -> None:
    sub_fast = timed(SUBTRACTION, 1_000_000, True)
    sub_raw = timed(SUBTRACTION, 1_000_000, False)
    sub_base_n = 100_000
    sub_base = recursive_baseline(SUBTRACTION, sub_base_n) * (1_000_000 / sub_base_n)
    kay_fast = timed(KAYLES, 20_000, True)
    kay_raw = timed(KAYLES, 20_000, False)
    kay_base_n = 2_000
    kay_base = recursive_baseline(KAYLES, kay_base_n) * (20_000 / kay_base_n) ** 2
    print(f"subtraction {SUBTRACTION.text} to 1,000,000:")
    print(f"  nashplay (proven period, then repeated): {sub_fast:8.3f} s")
    print(f"  nashplay (every value computed):         {sub_raw:8.3f} s")
    print(f"  recursive mex (measured to {sub_base_n:,}, x10):  {sub_base:8.3f} s  -> {sub_base / sub_fast:,.0f}x")
    print("Kayles (0.77) to 20,000:")
    print(f"  nashplay (proven period, then repeated): {kay_fast:8.3f} s")
    print(f"  nashplay (every value computed):         {kay_raw:8.3f} s")
    print(f"  recursive mex (measured to {kay_base_n:,}, x100):   {kay_base:8.1f} s  -> {kay_base / kay_raw:,.0f}x raw")
    print(
        json.dumps(
            {
                "subtraction_1e6_seconds": round(sub_fast, 4),
                "subtraction_1e6_every_value_seconds": round(sub_raw, 3),
                "subtraction_1e6_baseline_seconds": round(sub_base, 2),
                "kayles_20000_seconds": round(kay_fast, 4),
                "kayles_20000_every_value_seconds": round(kay_raw, 3),
                "kayles_20000_baseline_seconds": round(kay_base, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
