"""The hero (a :class:`dedale.rules.Character`) to and from plain JSON-able dicts."""

from __future__ import annotations

from typing import Any

from dedale.rules import BookItem, Character


def hero_to_dict(hero: Character) -> dict[str, Any]:
    """A JSON-able, order-stable form of the hero."""
    return {
        "stats": {k: int(v) for k, v in hero.stats.items()},
        "initial": {k: int(v) for k, v in hero.initial.items()},
        "counters": {k: int(v) for k, v in sorted(hero.counters.items())},
        "items": {k: int(v) for k, v in hero.items.items()},
        "class": hero.class_name,
        "fights_with_armour": int(hero.fights_with_armour),
        "item_effects": {
            name: {
                "weapon": bool(info.weapon),
                "bonuses": [
                    [str(s), int(a), None if t is None else str(t)] for s, a, t in info.bonuses
                ],
            }
            for name, info in sorted(hero.item_effects.items())
        },
        "protection_worn": {k: int(v) for k, v in sorted(hero.protection_worn.items())},
        "trained": sorted(hero.trained),
        "uncapped": sorted(hero.uncapped),
    }


def hero_from_dict(data: dict[str, Any]) -> Character:
    """Rebuild a hero from :func:`hero_to_dict` output."""
    return Character(
        stats={str(k): int(v) for k, v in data["stats"].items()},
        initial={str(k): int(v) for k, v in data["initial"].items()},
        counters={str(k): int(v) for k, v in data["counters"].items()},
        items={str(k): int(v) for k, v in data["items"].items()},
        class_name=data.get("class"),
        fights_with_armour=int(data.get("fights_with_armour", 0)),
        item_effects={
            str(name): BookItem(
                weapon=bool(info["weapon"]),
                bonuses=tuple(
                    (str(stat), int(amount), None if tag is None else str(tag))
                    for stat, amount, tag in info["bonuses"]
                ),
            )
            for name, info in data.get("item_effects", {}).items()
        },
        protection_worn={str(k): int(v) for k, v in data.get("protection_worn", {}).items()},
        trained={str(t) for t in data.get("trained", [])},
        uncapped=frozenset(str(s) for s in data.get("uncapped", [])),
    )
