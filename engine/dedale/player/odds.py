"""The fight hint: the exact chance of winning from here, asked of the rules core."""

from __future__ import annotations

from typing import Any

from dedale.player.book_view import BookView
from dedale.player.session import SheetModel


def win_chance(
    book: BookView, sheet: SheetModel, enemies: dict[str, dict[str, tuple[int, int]]]
) -> float | None:
    """Probability (0..1) that the hero wins against the enemies left, or None if unknown."""
    if not enemies:
        return None
    try:
        from dedale.rules import fight_odds
    except ImportError:
        return None
    hero = {stat: current for stat, (current, _) in sheet.stats.items()}
    foes = [{stat: current for stat, (current, _) in stats.items()} for stats in enemies.values()]
    try:
        result: Any = fight_odds(book.ruleset, hero=hero, enemies=foes)
    except Exception:  # noqa: BLE001 - the hint is optional; never break the fight
        return None
    value = getattr(result, "win_probability", result)
    return float(value) if isinstance(value, int | float) else None
