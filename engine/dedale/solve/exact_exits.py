"""The exact odds with exits' transitions in fractions, for the fights the solver plays as
graph nodes (:mod:`dedale.solve.fight_graph`) under ``--exact``.

:class:`dedale.rules.odds_exits._Solver` starts its laws at the float ``1.0`` (a wound as it
is, a wound roll's law) and reads its assault chances from a float table; a
:class:`fractions.Fraction` multiplied by a float is a float. :class:`ExactExits` is the
same solver whose Luck table, wound laws and assault outcomes are fractions from the dice's
own distributions (:func:`exit_assault`: ``odds_exits._outcomes`` summed in fractions), so
that every chance of the fight nodes is exact.
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction

from dedale.errors import GameError
from dedale.rules.fight_state import rebased
from dedale.rules.odds_exits import _Solver
from dedale.rules.odds_inputs import below_function
from dedale.rules.ruleset import OpposedFight

ONE = Fraction(1)
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

    def __init__(self, ruleset, hero_skill, plan, policy, abilities, armour) -> None:
        from dedale.solve.exact_fights import exact_lucky

        rolls = tuple((enemy, when, exact_chance(p), value)
                      for enemy, when, p, value in plan.wound_rolls)  # fmt: skip
        plan = dataclasses.replace(plan, wound_rolls=rolls)
        super().__init__(ruleset, hero_skill, plan, policy, abilities, armour)
        test = ruleset.tests.get(self.fight.luck_test) if self.fight.luck_test else None
        self.lucky = exact_lucky(test.dice) if test is not None else (Fraction(0),)

    def outcomes(self, lead: int, immune: bool):
        return exit_assault(self.fight, lead, immune, self.doubles)

    def _luck_options(self, base: int, luck: int, table, plain: int) -> list[list[tuple]]:
        options = [[(ONE, luck, base)]]
        if self.use_luck and table is not None and luck > 0:
            q = self.lucky[min(luck, len(self.lucky) - 1)]
            low = max(0, luck - self.luck_cost)
            options.append([(q, low, max(0, base + table.lucky - plain)),
                            (1 - q, low, max(0, base + table.unlucky - plain))])  # fmt: skip
        return options

    def _deals(self, index: int, damage: int, state: tuple) -> list[tuple[Fraction, int]]:
        for rule in self.plan.damages:
            if rule.kind == "deals" and self._mine(rule.enemy, index):
                if self.holds(rule.when, state):
                    damage = rebased(damage, self.to_hero, rule.value)
                    break
        law = [(ONE, damage)]
        for enemy, when, p, value in self.plan.wound_rolls:
            if not self._mine(enemy, index) or not self.holds(when, state):
                continue
            law = [
                pair
                for q, d in law
                for pair in (((q * p, value), (q * (1 - p), d)) if d > 0 else ((q, d),))
            ]
        return law


@functools.lru_cache(maxsize=512)
def exit_assault(fight: OpposedFight, lead: int, immune: bool, doubles: bool) -> tuple:
    """``((p, winner, double), ...)`` of one assault in fractions, as
    ``rules.odds_exits._outcomes`` (winner kill/hero/enemy/tie; ``doubles=False``: the
    doubles that kill nothing merged with the other rolls)."""
    dice = fight.dice
    assert dice is not None
    parts = dice.dice
    if len(parts) != 1 or parts[0].keep is not None or parts[0].sides ** parts[0].count > 4096:
        raise GameError("exact odds with exits need a plain NdS attack roll")
    count, sides = parts[0].count, parts[0].sides
    constant = dice.max() - count * sides
    below = below_function(dice.distribution())
    found: dict[tuple[str, bool], Fraction] = {}
    each = Fraction(1, sides**count)
    for code in range(sides**count):
        faces = [(code // sides**i) % sides + 1 for i in range(count)]
        total = sum(faces) + constant
        double = count > 1 and len(set(faces)) == 1
        if double and fight.instant_kill_on_double and not immune:
            found["kill", True] = found.get(("kill", True), 0) + each
            continue
        lower, upto = below(lead + total), below(lead + total + 1)
        for winner, p in (("hero", lower), ("tie", upto - lower), ("enemy", 1 - upto)):
            if p > 0:
                key = (winner, double and doubles)  # (unread doubles merged, as the floats)
                found[key] = found.get(key, 0) + each * p
    return tuple((Fraction(p), winner, double) for (winner, double), p in found.items())
