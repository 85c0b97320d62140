"""The fight hint: the exact chance of winning from here, computed by the rules core
(``dedale.rules.fight_odds``, best Luck policy) for the FF-family rulesets."""

from __future__ import annotations

from typing import Any

from dedale.player.book_view import BookView
from dedale.player.session import SheetModel

SUPPORTED_MODES = {
    "single": "sequence",
    "sequence": "sequence",
    "as_one": "as_one",
    "together": "together",
}


def win_chance(
    book: BookView,
    sheet: SheetModel,
    enemies: dict[str, dict[str, tuple[int, int]]],
    mode: str = "single",
    first_assault: bool = True,
) -> float | None:
    """Probability (0..1) that the hero wins against the enemies left, with the best Luck
    policy, or None when the rules core cannot say (not an FF-family fight, missing stats,
    a fight at once whose best-Luck odds are too costly)."""
    chance, without_luck = fight_hint(book, sheet, enemies, mode, first_assault)
    return None if without_luck else chance


def fight_hint(
    book: BookView,
    sheet: SheetModel,
    enemies: dict[str, dict[str, tuple[int, int]]],
    mode: str = "single",
    first_assault: bool = True,
) -> tuple[float | None, bool]:
    """The hint's chance and whether it is the chance without testing Luck: a fight at once
    whose best-Luck odds are past their budget gives its exact no-Luck chance (a floor of
    the best one), said as such."""
    found = _inputs(book, sheet, enemies, mode)
    if found is None:
        return None, False
    ruleset, skill, stamina, foes, luck = found
    armour = None if first_assault else False
    solved = SUPPORTED_MODES[mode]
    chance = _solve(ruleset, skill, stamina, foes, luck, sheet.class_name or None, solved, armour)
    if chance is None and solved == "together" and luck is not None:
        floor = _solve(
            ruleset, skill, stamina, foes, None, sheet.class_name or None, solved, armour
        )
        return floor, floor is not None
    return chance, False


def _inputs(book: BookView, sheet: SheetModel, enemies, mode: str):
    """(ruleset, SKILL, STAMINA, enemies, LUCK) of the hint, or None when it has none."""
    ruleset = book.ruleset
    fight = getattr(ruleset, "fight", None)
    if not enemies or getattr(ruleset, "procedure", None) != "opposed" or fight is None:
        return None
    if mode not in SUPPORTED_MODES:
        return None
    attack, health = fight.attack_stat, fight.health
    hero_skill = sheet.stats.get(attack, (None, None))[0]
    hero_stamina = sheet.stats.get(health, (None, None))[0]
    foes = []
    for stats in enemies.values():
        if attack not in stats or health not in stats:
            return None
        foes.append((stats[attack][0], stats[health][0]))
    luck_test = (getattr(ruleset, "tests", None) or {}).get(fight.luck_test or "")
    luck = sheet.stats.get(luck_test.stat, (None, None))[0] if luck_test else None
    if hero_skill is None or hero_stamina is None or hero_stamina <= 0:
        return None
    return ruleset, hero_skill, hero_stamina, tuple(foes), luck


def plain_fights(book: BookView, paragraph: int | None) -> bool:
    """Whether the fights of this paragraph are plain fights, whose chance the hint gives:
    not with an exit (assault limit, escape, threshold...), rules under an enemy or allies
    (the hint would leave their blows out), whose exact chance is the validator's (the hint
    would be wrong, so it is left out)."""
    from dedale import ast
    from dedale.book import Book

    if paragraph is None or not isinstance(book.book, Book):
        return True
    found = book.book.paragraphs.get(paragraph)
    if found is None:
        return True
    for statement in found.body:
        if isinstance(statement, ast.Fight) and (
            statement.rules
            or statement.allies
            or statement.assault_limit is not None
            or statement.escape is not None
            or statement.threshold is not None
            or statement.win_assaults is not None
        ):
            return False
    return True


def percentage(chance: float, lang: str) -> str:
    """``0.8574`` -> ``85.74 %`` (``85,74 %`` in French); never rounds to a false 0 or 100."""
    if 0 < chance < 0.0001:
        text = "< 0.01 %"
    elif 0.9999 < chance < 1:
        text = "> 99.99 %"
    else:
        text = f"{chance * 100:.2f} %"
    return text.replace(".", ",") if lang == "fr" else text


HINT_LUCK_WORK = 2_000
"""A fight at once with the best Luck where the array fill does not apply (no numpy): the
scalar table's work at play time at most (a fraction of a second; the validator's is
``odds_group.LUCK_WORK``); past it, the hint is the exact chance without Luck."""
_CACHE: dict[tuple[Any, ...], float | None] = {}


def _solve(
    ruleset: Any,
    skill: int,
    stamina: int,
    foes: tuple[tuple[int, int], ...],
    luck: int | None,
    class_name: str | None,
    mode: str,
    armour: bool | None,
) -> float | None:
    from dedale.rules import fight_odds

    key = (id(ruleset), skill, stamina, foes, luck, class_name, mode, armour)
    if key in _CACHE:
        return _CACHE[key]
    if len(_CACHE) > 512:
        _CACHE.clear()
    try:
        result = fight_odds(
            ruleset,
            skill,
            stamina,
            list(foes),
            luck=luck,
            luck_policy="best" if luck is not None else "none",
            class_name=class_name,
            mode=mode,
            armour=armour,
            win_only=True,  # (fights at once: the table shared with the next hint)
            luck_work=HINT_LUCK_WORK,
        )
    except Exception:  # noqa: BLE001 - the hint is optional; it never breaks a fight
        chance = None
    else:
        chance = float(result.win_probability)
    _CACHE[key] = chance
    return chance
