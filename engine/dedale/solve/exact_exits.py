"""The exact odds with exits' transitions in fractions, for the fights the solver plays as
graph nodes (:mod:`dedale.solve.fight_exits`) under ``--exact``.

:class:`ExactExits` is ``ExitSolver`` itself with its number type
set to :class:`fractions.Fraction`: the same states and moves (assault outcomes, wounds,
Luck options, damage rules, wound rolls, hooks), only the chances are exact — the assault
law is ``assault_outcomes`` summed in fractions, the Luck table the Luck test's dice law
in fractions, and the plan's float chances (a wound roll's, a table row's) the dice laws they
were rounded from (:func:`exact_chance`). Nothing here is a transition of its own, so the
float and the exact solves cannot disagree (tests/solve/test_exact_exits_identity.py).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from dedale.errors import GameError
from dedale.rules.odds_exits_dice import assault_outcomes
from dedale.rules.odds_exits_solver import ExitSolver
from dedale.rules.ruleset import OpposedFight

DENOMINATOR = 10**6
"""A wound roll's chance (a float in the plan) is a dice law's: its denominator divides
the dice's count of outcomes, far below this; the nearest fraction of denominator at most
``DENOMINATOR`` to the float is then that chance itself (two such fractions differ by
more than 1e-12, the float by about 1e-17)."""


def exact_chance(p: float) -> Fraction:
    """The fraction a plan's float chance was rounded from (see :data:`DENOMINATOR`)."""
    found = Fraction(p).limit_denominator(DENOMINATOR)
    if abs(float(found) - p) > 1e-15:  # pragma: no cover - plans' chances are dice laws
        raise GameError("a chance of the fight is not a dice law's")
    return found


class ExactExits(ExitSolver):
    """``ExitSolver`` in fractions (see the module docstring)."""

    number = Fraction

    def __init__(self, ruleset, hero_skill, plan, policy, abilities, armour) -> None:
        rolls = tuple((enemy, when, exact_chance(p), value)
                      for enemy, when, p, value in plan.wound_rolls)  # fmt: skip
        table = tuple((exact_chance(p), event) for p, event in plan.table)
        plan = dataclasses.replace(plan, wound_rolls=rolls, table=table)
        super().__init__(ruleset, hero_skill, plan, policy, abilities, armour)

    def _lucky_table(self, dice) -> tuple:
        from dedale.solve.exact_fights import exact_lucky

        return exact_lucky(dice)


def exit_assault(fight: OpposedFight, lead: int, immune: bool, doubles: bool) -> tuple:
    """``((p, winner, double), ...)`` of one assault in fractions: ``assault_outcomes``
    with Fraction chances."""
    return assault_outcomes(fight, lead, immune, doubles, Fraction)


class XFExits(ExitSolver):
    """:class:`ExactExits` over :class:`dedale.solve.exact_group.XF` numbers, for the
    forward pass (``rules/odds_exits_forward.py``), whose sums start from float constants
    (``1.0``, ``0.0``) that an XF takes as the exact values they hold."""

    def __init__(self, ruleset, hero_skill, plan, policy, abilities, armour) -> None:
        from dedale.solve.exact_group import XF

        self.number = XF
        rolls = tuple((enemy, when, XF(exact_chance(p)), value)
                      for enemy, when, p, value in plan.wound_rolls)  # fmt: skip
        table = tuple((XF(exact_chance(p)), event) for p, event in plan.table)
        plan = dataclasses.replace(plan, wound_rolls=rolls, table=table)
        super().__init__(ruleset, hero_skill, plan, policy, abilities, armour)

    def _lucky_table(self, dice) -> tuple:
        from dedale.solve.exact_fights import exact_lucky
        from dedale.solve.exact_group import XF

        return tuple(XF(q) for q in exact_lucky(dice))


def exact_limit_outcomes(ruleset, hero, spec, bonus: int, armour: bool, luck_stat,
                         luck_policy: str) -> tuple:  # fmt: skip
    """The oracle's outcomes of an assault limit against several enemies in turn, with
    armour or a first-hit bonus, no ``win ->`` paragraph (``FightOracle._limit_outcomes``)
    in fractions: the forward pass over :class:`XFExits`' states, ``((p, ("f", (STAMINA,
    LUCK, "won" or "limit") or LOST)), ...)``."""
    from dedale.rules import modifiers as mods
    from dedale.rules.odds_exits import ExitPlan
    from dedale.rules.odds_exits_forward import exit_outcomes
    from dedale.rules.odds_inputs import enemy_line_up

    params = ruleset.fight
    luck = hero.stats.get(luck_stat) if luck_stat else None
    plan = ExitPlan(enemies=tuple(enemy_line_up(ruleset, spec.enemies, spec.mode)), bonus=bonus,
                    enemy_damage=spec.enemy_damage, limit=spec.assault_limit)  # fmt: skip
    result = exit_outcomes(
        ruleset, hero.stats[params.attack_stat], hero.stats[params.health], plan, luck=luck,
        luck_policy=luck_policy if luck is not None else "none",
        abilities=mods.hero_abilities(ruleset, hero), armour=armour, kind=XFExits,
    )  # fmt: skip
    found: list[tuple[Fraction, object]] = []
    for way, table in (("won", result.won), ("limit", result.limit)):
        found += [(Fraction(p), ("f", (h, lk, way))) for (h, lk), p in sorted(table.items()) if p]
    if result.lost:
        found.append((Fraction(result.lost), ("f", -1)))
    return tuple(found)
