"""The help screen's summary of the book's rules, written from the ruleset's data with our
own sentences (``rules.*`` in the interface texts), so each ruleset gets its own summary."""

from __future__ import annotations

from typing import Any

from dedale.i18n import french
from dedale.player.texts import Texts


def summarise(ruleset: Any, texts: Texts) -> str | None:
    """Markdown bullet points, or None when the ruleset is not known (use the generic text)."""
    if ruleset is None or not hasattr(ruleset, "stats"):
        return None
    lang = texts.lang

    def name(ident: str) -> str:
        return str(ruleset.display_name(ident, lang))

    points: list[str] = []
    stats = [
        f"{name(stat.id)} ({stat.roll})" if getattr(stat, "roll", None) else name(stat.id)
        for stat in ruleset.stats
    ]
    points.append(texts("rules.stats", stats=french.join(stats, lang)))
    points.append(texts("rules.capped"))
    classes = getattr(ruleset, "classes", None) or {}
    if classes:
        shown = [c.names.get(lang) or next(iter(c.names.values()), c.id) for c in classes.values()]
        points.append(texts("rules.classes", classes=french.join(shown, lang)))
    for test in (getattr(ruleset, "tests", None) or {}).values():
        cost = (
            texts("rules.test_cost", count=test.cost, cost=test.cost, stat=name(test.stat))
            if test.cost
            else ""
        )
        test_name = test.names.get(lang) or next(iter(test.names.values()), test.id)
        points.append(
            texts("rules.test", name=test_name, dice=test.dice, stat=name(test.stat), cost=cost)
        )
    if getattr(ruleset, "duo", None) is not None:
        points.append(texts("rules.duo", dice=ruleset.duo.dice))
    if getattr(ruleset, "d20", None) is not None:
        d20 = ruleset.d20
        points.append(
            texts(
                "rules.d20",
                trained=d20.trained,
                untrained=d20.untrained,
                margin=d20.critical_margin,
            )
        )
    points.extend(_fight(ruleset, texts, name))
    meals = getattr(ruleset, "meals", None)
    if meals is not None:
        where = texts("rules.meals_anywhere" if meals.anywhere else "rules.meals_paragraph")
        points.append(texts("rules.meals", heal=meals.heal, stat=name(meals.stat), where=where))
    if getattr(ruleset, "inventory_limit", None):
        points.append(
            texts("rules.inventory", count=ruleset.inventory_limit, limit=ruleset.inventory_limit)
        )
        exempt = getattr(ruleset, "inventory_exempt", ())
        if exempt:  # "rings and keys do not count" (issue 13 §7)
            points.append(texts("rules.inventory_exempt", names=french.join(exempt, lang)))
    if getattr(ruleset, "worlds", False):
        points.append(texts("rules.worlds"))
    return "\n".join(f"- {point}" for point in points)


def _fight(ruleset: Any, texts: Texts, name: Any) -> list[str]:
    procedure = getattr(ruleset, "procedure", None)
    fight = getattr(ruleset, "fight", None)
    if procedure == "d20":
        return [texts("rules.fight_d20")]
    if procedure == "reliques":
        return [texts("rules.fight_reliques")]
    if procedure != "opposed" or fight is None:
        return []
    health = name(fight.health)
    points = [
        texts(
            "rules.fight_opposed",
            dice=fight.dice or "2d6",
            attack=name(fight.attack_stat),
            to_enemy=fight.damage_to_enemy,
            to_hero=fight.damage_to_hero,
            health=health,
        )
    ]
    luck = (getattr(ruleset, "tests", None) or {}).get(fight.luck_test or "")
    if luck is not None and fight.luck_wounding and fight.luck_wounded:
        points.append(
            texts(
                "rules.fight_luck",
                luck=name(luck.stat),
                w_lucky=fight.luck_wounding.lucky,
                w_unlucky=fight.luck_wounding.unlucky,
                h_lucky=fight.luck_wounded.lucky,
                h_unlucky=fight.luck_wounded.unlucky,
            )
        )
    if fight.instant_kill_on_double:
        points.append(texts("rules.instant_kill"))
    points.append(texts("rules.escape", damage=fight.escape_damage, health=health))
    points.append(texts("rules.death", health=health))
    return points
