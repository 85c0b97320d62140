"""The validator's exact odds of FF-family fights with allies (issue 14.1): one hook of
:class:`dedale.validator.fights.OddsCalculator`.

Enemies fought one after another or as one: :mod:`dedale.rules.odds_allies` when the book
does nothing else inside the fight, :mod:`dedale.rules.odds_allies_exits` when it has exits
(an assault limit, escape, a threshold, assaults won, an exit on a condition), rules under
an enemy or an assault table. Enemies all at once: :mod:`dedale.rules.odds_allies_group`
(the reader's best target each assault). The exits and rules are read by
:func:`dedale.validator.fight_plan.plan_of`; what it cannot follow is estimated by the
seeded simulation (it says why). Past a DP's budget (:data:`SECONDS` of CPU, its cells or
states) the rows are estimated too and I115 says why (the no-Luck rows stay exact when they
fit).
"""

from __future__ import annotations

import dataclasses

from dedale import ast
from dedale.i18n import tr
from dedale.validator.fight_plan import Unsupported, needs_exits, plan_of

SECONDS = 3.0  # CPU seconds of one hero's table at most (then: the estimate, I115)


def exact_allies(fight: ast.Fight) -> bool:
    """Whether a fight's allies (if any) leave it to the exact odds (they always do now; the
    hook stays for the callers)."""
    return True


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

    params = calculator.params
    skill, stamina = hero.get(params.attack_stat), hero.get(params.health)
    if skill is None or stamina is None:
        raise ValueError(tr("the ruleset's heroes have no fixed attack or health roll"))
    if mode == "together" or needs_exits(fight) or fight.assault_table is not None:
        return _exits_compute(calculator, hero, luck, enemies, mode, bonus, fight)
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


def _exits_compute(calculator, hero, luck: str, enemies, mode: str, bonus: int, fight) -> float:
    """The exact chance to leave a fight with allies and exits or rules, or against enemies
    at once, alive (the plan as :meth:`OddsCalculator._exit_compute` reads it; too many
    states: ``OddsTooLarge``, then the estimate and I115)."""
    from dedale.rules.odds_allies_exits import ally_exit_odds
    from dedale.rules.odds_allies_group import ally_group_odds
    from dedale.rules.odds_exits import ExitOddsTooLarge
    from dedale.rules.odds_inputs import OddsTooLarge
    from dedale.validator.fights import class_fight_kit

    params = calculator.params
    line_up = tuple((int(a), int(h), bool(i)) for a, h, i in enemies)
    if mode == "as_one":
        line_up = ((max(a for a, _, _ in line_up), sum(h for _, h, _ in line_up),
                    all(i for _, _, i in line_up)),)  # fmt: skip
    abilities, armour = class_fight_kit(calculator.ruleset, hero.class_name)
    plan = plan_of(fight, calculator.ruleset, line_up, dict(hero.stats), calculator.carried,
                   calculator.codewords, allies=True,
                   deadly=getattr(calculator, "deadly", None))  # fmt: skip
    plan = dataclasses.replace(plan, bonus=bonus)  # the fight's and the items' bonus
    stat = calculator.luck_stat
    if mode == "together":  # past its budget: GroupExitsTooLarge, an OddsTooLarge (I115)
        exits = {way for way in plan.doomed if way.startswith("exit:")}
        if exits and len(exits) != len(plan.exits):  # the DP's ends do not say which exit
            raise Unsupported(
                tr("some exits of a fight at once lead to a death ending, others not")
            )
        return ally_group_odds(
            calculator.ruleset, hero.get(params.attack_stat), hero.get(params.health), plan,
            allies_of(calculator, fight), struck=fight.struck,
            luck=hero.get(stat) if stat else None, luck_policy=luck, abilities=abilities,
            armour=armour, target="best", seconds=SECONDS,
        )  # fmt: skip
    try:
        return ally_exit_odds(
            calculator.ruleset, hero.get(params.attack_stat), hero.get(params.health), plan,
            allies_of(calculator, fight), struck=fight.struck,
            luck=hero.get(stat) if stat else None, luck_policy=luck, abilities=abilities,
            armour=armour, seconds=SECONDS,
        )  # fmt: skip
    except ExitOddsTooLarge as error:  # the estimate, and I115 says why
        raise OddsTooLarge(error.message, hint=error.hint) from None
