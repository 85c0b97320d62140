"""Tagged modifiers and the abilities that act on them (data from the ruleset YAML).

A modifier is a value with tags (``-2`` tagged ``piloting``). An ability with trigger
``modifier`` and the same tag ignores it or halves it (rounding the penalty towards 0).
Modifiers may be given as ints, ``(value, tag)`` / ``(value, (tags...))`` pairs, or any
object with ``value`` and ``tags`` attributes (the book AST's Modifier).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dedale.rules.character import Character
from dedale.rules.ruleset import Ability, Ruleset

Mod = tuple[int, tuple[str, ...]]


def normalize(modifiers: Iterable[Any]) -> tuple[Mod, ...]:
    """Turn the accepted modifier forms into ``(value, tags)`` pairs."""
    result: list[Mod] = []
    for mod in modifiers:
        if isinstance(mod, int):
            result.append((mod, ()))
        elif isinstance(mod, tuple):
            value, tags = mod
            result.append((int(value), (tags,) if isinstance(tags, str) else tuple(tags)))
        else:
            result.append((int(mod.value), tuple(mod.tags)))
    return tuple(result)


def hero_abilities(ruleset: Ruleset, character: Character) -> tuple[Ability, ...]:
    """The abilities of the hero's class (item abilities are handled by the fight)."""
    if character.class_name is None:
        return ()
    klass = ruleset.classes.get(character.class_name)
    return klass.abilities if klass else ()


def apply_abilities(value: int, tags: tuple[str, ...], abilities: Iterable[Ability]) -> int:
    """One modifier's value after the abilities that act on its tags."""
    for ability in abilities:
        if ability.when != "modifier" or not ability.acts_on(tags):
            continue
        if ability.effect == "ignore":
            return 0
        if ability.effect == "halve":
            value = -(-value // 2) if value < 0 else value // 2
    return value


def total(modifiers: Iterable[Any], abilities: Iterable[Ability]) -> int:
    """Sum of the modifiers after abilities."""
    abilities = tuple(abilities)
    return sum(apply_abilities(v, tags, abilities) for v, tags in normalize(modifiers))


def ability_value(abilities: Iterable[Ability], when: str, effect: str) -> int:
    """Sum of the values of the abilities with this trigger and effect."""
    return sum(a.value for a in abilities if a.when == when and a.effect == effect)


def has_ability(abilities: Iterable[Ability], when: str, effect: str) -> bool:
    return any(a.when == when and a.effect == effect for a in abilities)


def item_modifiers(character: Character, stat: str) -> list[Mod]:
    """Bonuses to ``stat`` from the items the book gave with effects (``SKILL +1``),
    as tagged modifiers; of several weapons only the best one counts."""
    effects = character.item_effects
    if not effects:
        return []
    found: list[Mod] = []
    best_weapon: list[Mod] = []
    for name, info in effects.items():
        if not info.bonuses or not character.has(name):
            continue
        own = [(amount, (tag,) if tag else ()) for s, amount, tag in info.bonuses if s == stat]
        if not own:
            continue
        if info.weapon:
            if not best_weapon or sum(v for v, _ in own) > sum(v for v, _ in best_weapon):
                best_weapon = own
        else:
            found.extend(own)
    return found + best_weapon
