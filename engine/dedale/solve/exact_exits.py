"""The exact odds with exits' transitions in fractions, for the fights the solver plays as
graph nodes (:mod:`dedale.solve.fight_exits`) under ``--exact``.

:class:`ExactExits` is :class:`dedale.rules.odds_exits._Solver` itself with its number type
set to :class:`fractions.Fraction`: the same states and moves (assault outcomes, wounds,
Luck options, damage rules, wound rolls, hooks), only the chances are exact — the assault
law is ``odds_exits._outcomes`` summed in fractions, the Luck table the Luck test's dice law
in fractions, and the plan's float chances (a wound roll's, a table row's) the dice laws they
were rounded from (:func:`exact_chance`). Nothing here is a transition of its own, so the
float and the exact solves cannot disagree (tests/solve/test_exact_exits_identity.py).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from dedale.errors import GameError
from dedale.rules.odds_exits import _outcomes, _Solver
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


class ExactExits(_Solver):
    """:class:`~dedale.rules.odds_exits._Solver` in fractions (see the module docstring)."""

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
    """``((p, winner, double), ...)`` of one assault in fractions: ``odds_exits._outcomes``
    with Fraction chances."""
    return _outcomes(fight, lead, immune, doubles, Fraction)
