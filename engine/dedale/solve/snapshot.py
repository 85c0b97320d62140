"""The solver's node keys: a canonical snapshot as compact JSON.

Every node of a solve is keyed on its snapshot's JSON text, and writing that text is a
good share of a solve's time. Most fields of a snapshot taken between paragraphs hold
the same value in every node (no history, no outcome, no armour worn...): they are left
out of the key when they hold that value, and put back before the snapshot is replayed
(:func:`expand`), so the key says exactly what the full snapshot says.
"""

from __future__ import annotations

import json
from typing import Any

_TOP: dict[str, Any] = {
    "death_reason": "",
    "history": [],
    "in_fight": False,
    "meal_allowed": False,
    "name": "-",
    "outcome": None,
    "paragraph": None,
}
_HERO: dict[str, Any] = {
    "armour_wear": {},
    "fights_with_armour": 0,
    "item_effects": {},
    "protection_worn": {},
    "trained": [],
    "uncapped": [],
}
_dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def key(data: dict) -> str:
    """The compact JSON key of a snapshot's data (its default-valued fields left out)."""
    for name, default in _TOP.items():
        if name in data and data[name] == default:
            del data[name]
    hero = data.get("hero")
    if hero:
        for name, default in _HERO.items():
            if name in hero and hero[name] == default:
                del hero[name]
    return _dumps(data)


def expand(text: str) -> dict:
    """A snapshot's full data from its key."""
    data = json.loads(text)
    for name, default in _TOP.items():
        if name not in data:
            data[name] = _fresh(default)
    hero = data.get("hero")
    if hero:
        for name, default in _HERO.items():
            if name not in hero:
                hero[name] = _fresh(default)
    return data


def _fresh(value: Any) -> Any:
    return type(value)() if isinstance(value, dict | list) else value
