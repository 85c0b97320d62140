"""What the Adventure Sheet shows beyond the bare numbers (issue 16.7), for both players.

A stat's effective value with its causes (``HABILETÉ 9 (+1 Épée d'argent) = 10``): the
bonuses of the items the book gave with effects, counted as the rules count them (every
item's, and of several weapons only the best one's, see
:func:`dedale.rules.modifiers.item_modifiers`). And the boxes the items go in, as on a
printed sheet: an item with a book tag (``take Potion of Skill (potion)``) goes in the box of
its tag, every other item in the Equipment box.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dedale.rules.character import Character
    from dedale.rules.ruleset import Ruleset

Bonus = tuple[str, int]  # (item, amount)


def item_bonuses(hero: Character, stat: str) -> tuple[Bonus, ...]:
    """The held items whose bonuses count toward ``stat``, in the order taken."""
    found: list[Bonus] = []
    best: Bonus | None = None
    for name, info in hero.item_effects.items():
        if not info.bonuses or not hero.has(name):
            continue
        amounts = [amount for s, amount, _ in info.bonuses if s == stat]
        if not amounts:
            continue
        if not info.weapon:
            found.append((name, sum(amounts)))
        elif best is None or sum(amounts) > best[1]:
            best = (name, sum(amounts))
    return (*found, best) if best is not None else tuple(found)


def effective_text(current: int, bonuses: tuple[Bonus, ...], say: Callable[..., str]) -> str:
    """``9`` or ``9 (+1 Épée d'argent) = 10`` (``say`` formats the keyed message)."""
    causes = ", ".join(f"{amount:+d} {item}" for item, amount in bonuses if amount)
    if not causes:
        return str(current)
    effective = max(0, current + sum(amount for _, amount in bonuses))
    return say("sheet.effective", value=current, causes=causes, effective=effective)


def item_boxes(
    items: Mapping[str, int], tags: Mapping[str, tuple[str, ...]]
) -> tuple[list[str], dict[str, list[str]]]:
    """The items of the Equipment box, and the other boxes by title (an item's first book
    tag, capitalised), each in the order given."""
    equipment: list[str] = []
    boxes: dict[str, list[str]] = {}
    for name in items:
        own = tags.get(name, ())
        if own and own[0].strip():
            tag = own[0].strip()
            boxes.setdefault(tag[:1].upper() + tag[1:], []).append(name)
        else:
            equipment.append(name)
    return equipment, boxes


def item_tags(hero: Character) -> dict[str, tuple[str, ...]]:
    """The book tags of each held item that has some."""
    return {
        name: tuple(info.tags)
        for name, info in hero.item_effects.items()
        if info.tags and hero.has(name)
    }


def meal_at_full(ruleset: Ruleset, hero: Character | None) -> tuple[str, int] | None:
    """The stat a meal restores and its value when it is already at its initial value (a
    meal would restore nothing: the players ask before eating, issue 16.8), else None."""
    meals = ruleset.meals
    if meals is None or hero is None or meals.stat not in hero.stats:
        return None
    value = hero.stats[meals.stat]
    return (meals.stat, value) if value >= hero.initial.get(meals.stat, value) else None
