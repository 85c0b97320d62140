"""A text bar for a stat: ``ENDURANCE ██████░░░░ 12/20`` (no animation, snapshot-stable)."""

from __future__ import annotations

from rich.text import Text


def stat_bar(label: str, current: int, initial: int, width: int = 12) -> Text:
    """A line with the label, a bar of ``width`` cells and current/initial."""
    top = max(initial, current, 1)
    filled = round(width * max(current, 0) / top)
    ratio = current / top
    colour = "green" if ratio > 0.5 else "yellow" if ratio > 0.25 else "red"
    text = Text(f"{label:<10.10} ")
    text.append("█" * filled, style=colour)
    text.append("░" * (width - filled), style="dim")
    text.append(f" {current}/{initial}")
    return text
