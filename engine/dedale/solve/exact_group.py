"""Fights against several enemies at once in exact fractions, for ``dedale solve --exact``.

The exact odds at once with exits (:class:`dedale.rules.odds_group_exits.GroupExitSolver`)
follow the fight's rules step by step, but in floats: its chances start from the float dice
table, and its constants (``0.0``, ``1.0``, the tolerances ``1e-15`` and ``1e-12``) are
floats, which would turn any :class:`fractions.Fraction` into a float. :class:`ExactGroup`
is the same solver fed :class:`XF` numbers: fractions that take a float operand as the exact
value it holds (``0.0``, ``1.0`` and the tolerances are exact binary numbers) and stay
fractions, so every chance, value and comparison of the solver is exact — its decisions
(the target, Luck with the fight's policy, the escape of the odds themselves) are made on
exact values, "better" meaning better by more than the same tolerance of 1e-15 for the
target and the escape, and a strict gain for Luck (:func:`dedale.rules.odds.luck_pick`).

:func:`exact_group_outcomes` pushes the mass forward through the solver's own moves (as
:func:`dedale.rules.odds_group_exits_forward.group_exit_outcomes`): a plain fight at once
as the joint (STAMINA, LUCK) after a win, and the loss — the oracle's outcomes in
fractions. The work has the solver's budget (its states and CPU seconds): past it the fight
is refused at its line with the solver's message.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from dedale.errors import GameError
from dedale.rules import modifiers as mods
from dedale.rules.odds_group_exits import WON_WAYS, GroupExitSolver
from dedale.rules.odds_inputs import below_function

LOST = -1


def _exact(other):
    return Fraction(other) if isinstance(other, float) else other


def _wrap(result):
    return XF(result) if isinstance(result, Fraction) and type(result) is not XF else result


class XF(Fraction):
    """A fraction that stays one with floats (see the module docstring)."""

    __slots__ = ()

    def __add__(self, other):
        return _wrap(Fraction.__add__(self, _exact(other)))

    def __radd__(self, other):
        return _wrap(Fraction.__radd__(self, _exact(other)))

    def __sub__(self, other):
        return _wrap(Fraction.__sub__(self, _exact(other)))

    def __rsub__(self, other):
        return _wrap(Fraction.__rsub__(self, _exact(other)))

    def __mul__(self, other):
        return _wrap(Fraction.__mul__(self, _exact(other)))

    def __rmul__(self, other):
        return _wrap(Fraction.__rmul__(self, _exact(other)))

    def __truediv__(self, other):
        return _wrap(Fraction.__truediv__(self, _exact(other)))

    def __rtruediv__(self, other):
        return _wrap(Fraction.__rtruediv__(self, _exact(other)))

    def __neg__(self):
        return XF(-self.numerator, self.denominator)

    def __pos__(self):
        return self


class ExactGroup(GroupExitSolver):
    """:class:`GroupExitSolver` over :class:`XF` chances (see the module docstring)."""

    def __init__(self, ruleset, hero_skill, plan, policy, abilities, armour, target) -> None:
        import dataclasses

        from dedale.solve.exact_exits import exact_chance
        from dedale.solve.exact_fights import exact_lucky

        rolls = tuple((enemy, when, XF(exact_chance(p)), value)
                      for enemy, when, p, value in plan.wound_rolls)  # fmt: skip
        plan = dataclasses.replace(plan, wound_rolls=rolls)
        super().__init__(ruleset, hero_skill, plan, policy, abilities, armour, target)
        test = ruleset.tests.get(self.fight.luck_test) if self.fight.luck_test else None
        self.lucky = tuple(XF(q) for q in exact_lucky(test.dice)) if test else (XF(0),)

    def _dice(self, fight) -> None:
        """The hero's rolls and ``below(x)`` as the float solver's, in :class:`XF`."""
        dice = fight.dice
        assert dice is not None
        parts = dice.dice
        if len(parts) != 1 or parts[0].keep is not None or parts[0].sides ** parts[0].count > 4096:
            raise GameError("exact odds with exits need a plain NdS attack roll")
        count, sides = parts[0].count, parts[0].sides
        constant = dice.max() - count * sides
        rolls: dict[tuple[int, bool], XF] = {}
        each = XF(1, sides**count)
        for code in range(sides**count):
            faces = [(code // sides**i) % sides + 1 for i in range(count)]
            double = self.doubles and count > 1 and len(set(faces)) == 1
            key = (sum(faces) + constant, double)
            rolls[key] = rolls.get(key, XF(0)) + each
        self.rolls = tuple((p, total, double) for (total, double), p in sorted(rolls.items()))
        exact = below_function(dice.distribution())
        low, high = dice.min(), dice.max()
        table = {x: XF(exact(x)) for x in range(low, high + 2)}
        zero, one = XF(0), XF(1)
        self.below = lambda x: zero if x <= low else one if x > high else table[x]


def exact_group_outcomes(ruleset, hero, spec, bonus: int, armour: bool, luck_stat,
                         luck_policy: str) -> tuple:  # fmt: skip
    """``((p, ("f", (STAMINA, LUCK) or LOST)), ...)`` of a plain fight at once, in fractions
    (the target and, with ``luck_policy`` best, Luck: the fight's own best); with an
    assault limit the ways out are ``(STAMINA, LUCK, "won" or "limit")``, as the oracle's
    float outcomes of such a fight (its ``_limit_outcomes``)."""
    from dedale.solve.fight_graph import in_turn_plan

    params = ruleset.fight
    luck = hero.stats.get(luck_stat) if luck_stat else None
    solver = ExactGroup(
        ruleset, hero.stats[params.attack_stat], in_turn_plan(ruleset, spec, bonus),
        luck_policy if luck is not None else "none", mods.hero_abilities(ruleset, hero), armour,
        "best",
    )  # fmt: skip
    from dedale.solve.fight_group import LUCK_WORK

    solver.luck_work = LUCK_WORK  # (as the graph's fights at once; its CPU seconds bound it)
    stamina = hero.stats[params.health]
    solver.solve(stamina, luck)
    limited = spec.assault_limit is not None
    found: dict[Any, Fraction] = {}
    lost = Fraction(0)
    pending = {solver.start(stamina, luck): Fraction(1)}
    clock = time.process_time()
    for state in reversed(list(solver.memo)):  # every move goes to a state memoised earlier
        mass = pending.pop(state, None)
        if mass is None:
            continue
        if time.process_time() - clock > solver.seconds:
            raise solver._too_large(tr_seconds(solver.seconds))
        for share, node in solver.choose(state)[1]:
            flow = mass * _exact(share)
            if node[0] != "end":
                pending[node] = pending.get(node, 0) + flow
            elif node[1] == "lost":
                lost += flow
            elif node[1] in WON_WAYS or (limited and node[1] == "limit"):
                way = "won" if node[1] in WON_WAYS else "limit"
                key = (node[2], node[3], way) if limited else (node[2], node[3])
                found[key] = found.get(key, 0) + flow
            else:  # pragma: no cover - a plain fight ends won, lost or at its limit
                raise GameError(f"unexpected way out {node[1]!r}")
    outcomes: list[tuple[Any, Any]] = [
        (Fraction(p), ("f", end)) for end, p in sorted(found.items()) if p
    ]
    if lost:
        outcomes.append((Fraction(lost), ("f", LOST)))
    return tuple(outcomes)


def tr_seconds(seconds: float) -> str:
    from dedale.i18n import tr

    return tr("more than {seconds} seconds", seconds=format(seconds, "g"))
