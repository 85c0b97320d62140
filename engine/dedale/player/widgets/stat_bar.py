"""A text bar for a stat: ``ENDURANCE ██████░░░░ 12/20`` (no animation, snapshot-stable)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

LINE = 23
"""Cells of a label and its bar together: a longer label takes them from the bar."""


def label_width(labels: Iterable[str], least: int = 10, most: int = 16) -> int:
    """The label column of a panel: its longest stat name ("POINTS DE VIE", 13), between
    ``least`` and ``most`` cells, so that no name of a ruleset's stats is cut short."""
    return max(least, min(most, max((len(label) for label in labels), default=least)))


def stat_bar(
    label: str, current: int, initial: int, width: int = 12, labels: int = 10, bonus: int = 0
) -> Text:
    """A line with the label in ``labels`` cells, a bar and current/initial; the bar gives
    up the cells a label column wider than 10 takes (at least 6 stay). ``bonus``: what the
    items held add, shown with the value that counts (``9/9 (+1 = 10)``)."""
    width = max(6, min(width, LINE - 1 - labels)) if labels > 10 else width
    top = max(initial, current, 1)
    filled = round(width * max(current, 0) / top)
    ratio = current / top
    colour = "green" if ratio > 0.5 else "yellow" if ratio > 0.25 else "red"
    text = Text(f"{label:<{labels}.{labels}} ")
    text.append("█" * filled, style=colour)
    text.append("░" * (width - filled), style="dim")
    text.append(f" {current}/{initial}")
    if bonus:
        text.append(f" ({bonus:+d} = {max(0, current + bonus)})", style="bold")
    return text
