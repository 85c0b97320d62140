"""Creating the hero as book.yaml's ``creation:`` says: the stats a reader may type in
(``fixed_stats``) and the check of his answer, rerolls, the default name; the dice shown.

The Runner's ``_create`` asks the prompts; these helpers hold the rules of each option.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from dedale import events
from dedale.i18n import tr
from dedale.rules import Ruleset, StatRoll
from dedale.rules.character import creation_ranges, shown_number

Gen = Generator[Any, Any, Any]


@dataclass(frozen=True, slots=True)
class CreationRules:
    """book.yaml's ``creation:`` options as the runner reads them (see CreationOptions)."""

    fixed_stats: bool = False
    reroll: str = "never"
    default_name: str | None = None


def creation_options(book) -> CreationRules:
    """book.yaml's ``creation:`` options (the defaults for a book without them)."""
    found = getattr(getattr(book, "meta", None), "creation", None)
    return CreationRules(
        fixed_stats=getattr(found, "fixed_stats", False) is True,
        reroll=str(getattr(found, "reroll", "never")),
        default_name=getattr(found, "default_name", None) or None,
    )


def stat_entries(ruleset: Ruleset, class_name: str | None) -> tuple[events.StatEntry, ...]:
    """The stats a reader may type in at creation: those whose roll can give more than one
    value, each with its range (a stat fixed by the ruleset is not asked)."""
    return tuple(
        events.StatEntry(stat=stat, low=low, high=high)
        for stat, (low, high) in creation_ranges(ruleset, class_name).items()
        if low < high
    )


def reroll_allowance(book) -> int:
    """How many times the reader may roll the stats again (book.yaml ``creation.reroll``)."""
    policy = creation_options(book).reroll
    return {"once": 1, "unlimited": -1}.get(policy, 0)


def show_rolls(rolls: list[StatRoll]) -> Gen:
    """The dice thrown for the stats (a value fixed by the ruleset throws none)."""
    for roll in rolls:
        if not roll.faces:  # a fixed value (``8+CON``): nothing was thrown
            continue
        yield events.DiceRolled(
            purpose=roll.stat, faces=roll.faces, total=roll.value, expression=roll.expression
        )


def stats_problem(prompt: events.StatsPrompt, value: Any) -> str | None:
    """What is wrong with a StatsPrompt's answer (None if it fits): None (roll the dice),
    or one whole number per entry, each within its range."""
    if value is None:
        return None
    entries = prompt.stats
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple):
        return tr("the stats are answered with numbers, not {value!r}", value=value)
    if len(value) != len(entries):
        return tr(
            "{count} values given for {wanted} stats ({stats})",
            count=len(value),
            wanted=len(entries),
            stats=", ".join(entry.stat for entry in entries),
        )
    for entry, given in zip(entries, value, strict=True):
        if isinstance(given, bool) or not isinstance(given, int):
            return tr(
                "{stat} is answered with a whole number, not {value!r}",
                stat=entry.stat,
                value=given,
            )
        if not entry.low <= given <= entry.high:
            return tr(
                "{stat} {value} is out of range: from {low} to {high}",
                stat=entry.stat,
                value=shown_number(given),
                low=entry.low,
                high=entry.high,
            )
    return None
