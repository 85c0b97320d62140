"""The validator's exact odds of FF-family fights with allies (issue 14.1), through
:mod:`dedale.rules.odds_allies`: one hook of :class:`dedale.validator.fights.OddsCalculator`.

A fight with allies has exact rows when its enemies are fought one after another or as
one and the book does nothing else inside it (no exit, threshold, rule under an enemy or
assault table); otherwise it is estimated by the seeded simulation, as before. Past the
DP's budget (:data:`SECONDS` of CPU, ``odds_allies.MAX_STATES`` cells) the rows are
estimated too and I115 says why (its no-Luck rows stay exact when they fit).
"""

from __future__ import annotations

from dedale import ast
from dedale.i18n import tr
from dedale.validator.fight_plan import Unsupported, needs_exits

SECONDS = 3.0  # CPU seconds of one hero's table at most (then: the estimate, I115)


def exact_allies(fight: ast.Fight) -> bool:
    """Whether a fight's allies (if any) leave it to the exact odds."""
    if not fight.allies:
        return True
    return fight.mode != "together" and fight.assault_table is None and not needs_exits(fight)


def allies_of(calculator, fight: ast.Fight) -> tuple[tuple[int, int], ...]:
    """The fight's allies as (attack, health), read as the fight reads them (a stat the
    ally lacks counts 0); stats written as dice are left to the estimate."""
    attack, health = calculator.params.attack_stat, calculator.params.health
    found = []
    for ally in fight.allies:
        stats: dict[str, int] = {}
        for name, value in ally.stats:
            resolved = calculator.ruleset.resolve(name)
            if resolved is None or isinstance(value, bool):
                continue
            if not isinstance(value, int):
                raise Unsupported(tr("an ally's stats written as dice"))
            stats[resolved[1]] = value
        found.append((stats.get(attack, 0), stats.get(health, 0)))
    return tuple(found)


def ally_compute(calculator, hero, luck: str, enemies, mode: str, bonus: int, fight) -> float:
    """The exact chance that ``hero`` wins the fight with its allies (the validator's
    ``compute`` signature; see :meth:`OddsCalculator.odds`)."""
    from dedale.rules.odds_allies import shared_table

    if not exact_allies(fight):
        raise Unsupported(tr("allies in a fight with exits, tables or enemies at once"))
    params = calculator.params
    skill, stamina = hero.get(params.attack_stat), hero.get(params.health)
    if skill is None or stamina is None:
        raise ValueError(tr("the ruleset's heroes have no fixed attack or health roll"))
    table = shared_table(
        calculator.ruleset, skill, enemies, allies_of(calculator, fight), struck=fight.struck,
        luck_policy=luck, class_name=hero.class_name, mode=mode, attack_bonus=bonus,
        enemy_damage=fight.enemy_damage,
    )  # fmt: skip
    stat = calculator.luck_stat
    for other in calculator.heroes:  # too large for some hero: say so before any work
        table.check_size(other.get(params.health) or 1, other.get(stat) if stat else None)
    result = table.solve(stamina, hero.get(stat) if stat else None, win_only=True,
                         seconds=SECONDS)  # fmt: skip
    return float(result.win_probability)
