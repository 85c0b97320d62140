"""Shrink a failing fuzz input to a small reproducer (delta debugging over lines).

First whole paragraph files are dropped, then chunks of lines of each file (halves,
quarters, ... single lines), keeping each cut that still fails the same way. Bounded by a
time budget and a number of tries: the best input so far is returned when either runs out.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tools.fuzz.inputs import SINGLE_FILE, FuzzInput


class _OutOfBudget(Exception):
    pass


def reduce_input(
    fuzz: FuzzInput,
    still_fails: Callable[[FuzzInput], bool],
    seconds: float = 30.0,
    tries: int = 500,
) -> tuple[FuzzInput, int]:
    """The smallest input found that ``still_fails``, and the number of tries made."""
    stop = time.monotonic() + seconds
    count = 0
    best = fuzz

    def check(files: dict[str, bytes]) -> bool:
        nonlocal count, best
        if count >= tries or time.monotonic() > stop:
            raise _OutOfBudget
        count += 1
        candidate = best.copy(files)
        if still_fails(candidate):
            best = candidate
            return True
        return False

    try:
        for name in sorted(best.files):
            if name not in ("book.yaml", SINGLE_FILE) and len(best.files) > 1:
                check({key: value for key, value in best.files.items() if key != name})
        for name in sorted(best.files):
            _reduce_lines(name, best, check)
    except _OutOfBudget:
        pass
    return best, count


def _reduce_lines(name: str, start: FuzzInput, check: Callable[[dict[str, bytes]], bool]) -> None:
    """Cut chunks of lines of file ``name`` while the input still fails."""
    current = dict(start.files)
    lines = current[name].split(b"\n")
    chunk = max(1, len(lines) // 2)
    while lines:
        index = 0
        while index < len(lines):
            kept = lines[:index] + lines[index + chunk :]
            trial = dict(current)
            trial[name] = b"\n".join(kept)
            if check(trial):
                lines, current = kept, trial
            else:
                index += chunk
        if chunk == 1:
            return
        chunk = max(1, chunk // 2)
