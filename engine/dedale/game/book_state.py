"""The book's own flags and counters in play (book.yaml ``state:``): the handlers of
``note``/``clear`` a flag and ``add … to`` a counter, the values conditions read, and the
rows the Adventure Sheet shows (both players build their sheet from :func:`sheet_rows`).

Values live in :class:`dedale.game.state.GameState` (``flags``: the names of the flags set;
``counts``: the counters that moved from their start value), so saves and replays carry
them. A counter never goes below 0 nor above its ``max``.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from dedale import ast, events
from dedale.game.state import GameState
from dedale.language.book_state import BookState, StateEntry
from dedale.limits import AMOUNT

Gen = Generator[Any, Any, Any]


def count_value(declared: BookState, state: GameState, name: str) -> int | None:
    """The value of the book's counter ``name`` (None when it is not one)."""
    entry = declared.counter(name)
    if entry is None:
        return None
    return state.counts.get(entry.name, entry.start)


def flag_is_set(state: GameState, name: str) -> bool:
    return name in state.flags


def flag_change(runner: Any, statement: ast.SetFlag | ast.ClearFlag) -> Gen:
    """``note met lieutenant`` / ``clear calf following``."""
    entry = runner.book.meta.state.flag(statement.name)
    name = entry.name if entry is not None else statement.name
    flags = runner.state.flags
    is_set = type(statement) is ast.SetFlag
    changed = (name in flags) != is_set
    if is_set:
        flags.add(name)
    else:
        flags.discard(name)
    if changed and runner.emit and (entry is None or entry.sheet != "none"):
        key = "flag_set" if is_set else "flag_cleared"
        shown = entry.display if entry is not None else name
        yield events.MessageShown(key=key, params=(("flag", shown), ("id", name)))


def count_change(runner: Any, statement: ast.ChangeCount) -> Gen:
    """``add 1 to lieutenants met`` / ``remove 1 from …`` / ``set lieutenants to 0``."""
    declared: BookState = runner.book.meta.state
    entry = declared.counter(statement.name) or StateEntry(statement.name, statement.name)
    amount = yield from runner._amount(statement.amount)
    counts = runner.state.counts
    old = counts.get(entry.name, entry.start)
    if statement.op == "add":
        new = old + amount
    elif statement.op == "sub":
        new = old - amount
    else:
        new = amount
    high = entry.maximum if entry.maximum is not None else AMOUNT.high
    new = max(0, min(high, new))
    if new == entry.start:
        counts.pop(entry.name, None)
    else:
        counts[entry.name] = new
    if new != old and runner.emit and entry.sheet != "none":
        yield events.MessageShown(
            key="count_changed",
            params=(("name", entry.display), ("old", old), ("new", new), ("id", entry.name)),
        )


@dataclass(frozen=True, slots=True)
class SheetRows:
    """What the sheet shows of the book's state: rows among the stats (label, value), and
    the notes (flags set, counters) in one line."""

    stats: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()


def sheet_rows(declared: BookState, flags: Any, counts: dict[str, int]) -> SheetRows:
    """The sheet's rows for the flags set (``flags``: names) and counters' values."""
    stats: list[tuple[str, str]] = []
    notes: list[str] = []
    for entry in declared.flags:
        if entry.name not in flags or entry.sheet == "none":
            continue
        if entry.sheet == "stats":
            stats.append((entry.display, "✓"))
        else:
            notes.append(entry.display)
    for entry in declared.counters:
        value = counts.get(entry.name, entry.start)
        if entry.sheet == "stats":
            stats.append((entry.display, str(value)))
        elif entry.sheet == "notes":
            notes.append(f"{entry.display} ({value})")
    return SheetRows(stats=tuple(stats), notes=tuple(notes))
