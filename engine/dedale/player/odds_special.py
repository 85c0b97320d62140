"""The fight hint of a fight the plain hint leaves out (:func:`dedale.player.odds.plain_fights`):
with exits or rules under an enemy, the exact chance to leave the fight alive (the
validator's ``rules.odds_exits``); with allies, the exact chance to win
(``rules.odds_allies``). Computed once, when the fight starts, from the hero's sheet then
(what the book's rules read during the fight changes as it goes: the hint says it is the
chance at the start)."""

from __future__ import annotations

from typing import Any

from dedale.player.book_view import BookView
from dedale.player.odds import SUPPORTED_MODES, _inputs
from dedale.player.session import SheetModel

ALIVE, WIN, UNBEATEN = "alive", "win", "unbeaten"
"""What a special hint's chance is: to leave the fight alive, to win it, or (a fight with a
defeat exit, where the hero always leaves alive) to leave it otherwise than by the defeat."""


def special_hint(
    book: BookView,
    sheet: SheetModel,
    paragraph: int | None,
    enemies: dict[str, dict[str, tuple[int, int]]],
    mode: str,
    allies: dict[str, dict[str, tuple[int, int]]],
) -> tuple[float | None, str]:
    """``(chance, kind)`` for the fight that starts (``kind`` :data:`ALIVE` or :data:`WIN`),
    or ``(None, "")`` when no exact figure is known (a fight at once with exits, allies and
    exits together, a ruleset whose fights are not opposed, odds past their budget)."""
    fight = _statement(book, paragraph, enemies)
    found = _inputs(book, sheet, enemies, mode)
    if fight is None or found is None or mode not in SUPPORTED_MODES:
        return None, ""
    ruleset, skill, stamina, foes, luck = found
    policy = "best" if luck is not None else "none"
    try:
        if fight.allies and not _has_exits(fight):
            return _with_allies(ruleset, skill, stamina, foes, luck, policy, sheet, mode,
                                fight, allies), WIN  # fmt: skip
        if _has_exits(fight) and not fight.allies and SUPPORTED_MODES[mode] != "together":
            kind = ALIVE if fight.lose is None else UNBEATEN  # (a defeat is not a death)
            return _with_exits(ruleset, skill, stamina, foes, luck, policy, sheet, mode,
                               fight, _deadly(book)), kind  # fmt: skip
    except Exception:  # noqa: BLE001 - the hint is optional; it never breaks a fight
        return None, ""
    return None, ""


def _has_exits(fight: Any) -> bool:
    from dedale.validator.fight_plan import needs_exits

    return needs_exits(fight)


def _statement(book: BookView, paragraph: int | None, enemies: dict) -> Any:
    """The fight of ``paragraph`` against these enemies (by their names), if the book says."""
    from dedale import ast
    from dedale.book import Book

    if paragraph is None or not isinstance(book.book, Book):
        return None
    found = book.book.paragraphs.get(paragraph)
    if found is None:
        return None
    names = set(enemies)
    fights = [s for s in found.body if isinstance(s, ast.Fight)]
    for fight in fights:
        if {enemy.name for enemy in fight.enemies} == names:
            return fight
    return fights[0] if len(fights) == 1 else None


def _with_allies(ruleset, skill, stamina, foes, luck, policy, sheet, mode, fight, allies):
    from dedale.rules.odds_allies import ally_odds

    health = ruleset.fight.health
    attack = ruleset.fight.attack_stat
    pairs = [(stats[attack][0], stats[health][0]) for stats in allies.values()
             if attack in stats and health in stats]  # fmt: skip
    result = ally_odds(
        ruleset, skill, stamina, list(foes), pairs, struck=fight.struck, luck=luck,
        luck_policy=policy, class_name=sheet.class_name or None, mode=SUPPORTED_MODES[mode],
        attack_bonus=fight.attack_bonus, enemy_damage=fight.enemy_damage, win_only=True,
    )  # fmt: skip
    return float(result.win_probability)


_DEADLY: dict[int, tuple[Any, Any]] = {}


def _deadly(book: BookView) -> Any:
    """Which destinations of the book are death endings (validator.death_ways): a way out
    there is no way out alive. One graph per book loaded (the book is immutable)."""
    from dedale.validator.death_ways import deadly
    from dedale.validator.graph import build_graph

    loaded = book.book
    found = _DEADLY.get(id(loaded))
    if found is None or found[0] is not loaded:
        _DEADLY.clear()  # the last book only
        found = _DEADLY[id(loaded)] = (loaded, deadly(build_graph(loaded), loaded))
    return found[1]


def _with_exits(ruleset, skill, stamina, foes, luck, policy, sheet, mode, fight, deadly=None):
    from dedale.rules.odds_exits import exit_odds
    from dedale.validator.fight_plan import plan_of
    from dedale.validator.fights import class_fight_kit

    line_up = tuple((a, h, bool(e.immune_instant_kill))
                    for (a, h), e in zip(foes, fight.enemies, strict=False))  # fmt: skip
    if SUPPORTED_MODES[mode] == "as_one":
        line_up = ((max(a for a, _, _ in line_up), sum(h for _, h, _ in line_up),
                    all(i for _, _, i in line_up)),)  # fmt: skip
    hero = {stat: current for stat, (current, _) in sheet.stats.items()}
    plan = plan_of(fight, ruleset, line_up, hero, frozenset(sheet.items),
                   frozenset(sheet.codewords), deadly=deadly)  # fmt: skip
    abilities, armour = class_fight_kit(ruleset, sheet.class_name or None)
    return float(exit_odds(ruleset, skill, stamina, plan, luck=luck, luck_policy=policy,
                           abilities=abilities, armour=armour))  # fmt: skip
