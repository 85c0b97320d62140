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
        "item_effects": {  # in the order taken: the first potion due acts first
            name: _item_effects(info) for name, info in hero.item_effects.items()
        },
        "protection_worn": {k: int(v) for k, v in sorted(hero.protection_worn.items())},
        "armour_wear": {k: [int(n) for n in v] for k, v in sorted(hero.armour_wear.items())},
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
                tags=tuple(str(tag) for tag in info.get("tags", ())),
                triggers=tuple(
                    (str(stat), int(at), str(op), str(name), amount)
                    for stat, at, op, name, amount in info.get("triggers", ())
                ),
            )
            for name, info in data.get("item_effects", {}).items()
        },
        protection_worn={str(k): int(v) for k, v in data.get("protection_worn", {}).items()},
        armour_wear=_armour_wear(data),
        trained={str(t) for t in data.get("trained", [])},
        uncapped=frozenset(str(s) for s in data.get("uncapped", [])),
    )


def _item_effects(info: BookItem) -> dict[str, Any]:
    """One item's book effects (triggers written only when it has some: older saves keep
    their bytes)."""
    data: dict[str, Any] = {
        "weapon": bool(info.weapon),
        "bonuses": [[str(s), int(a), None if t is None else str(t)] for s, a, t in info.bonuses],
    }
    if info.tags:
        data["tags"] = [str(tag) for tag in info.tags]
    if info.triggers:
        data["triggers"] = [list(trigger) for trigger in info.triggers]
    return data


def _armour_wear(data: dict[str, Any]) -> dict[str, list[int]]:
    """The wear of each armour piece; a save from before it was counted per piece gives
    its one count to the first piece of each item held (only armour items read it)."""
    if "armour_wear" in data:
        return {str(k): [int(n) for n in v] for k, v in data["armour_wear"].items()}
    worn = int(data.get("fights_with_armour", 0))
    if worn <= 0:
        return {}
    return {str(k): [worn] + [0] * (int(v) - 1) for k, v in data["items"].items() if int(v) > 0}
