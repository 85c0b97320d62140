"""``solve/exact_exits.ExactExits`` is the exits DP itself in fractions: identity on a grid.

The exact solver (``dedale solve --exact``'s fight nodes) no longer has transitions of its
own: it is ``ExitSolver`` with ``number = Fraction``. Checked on
a grid of fights — plain, an assault limit, an escape, a threshold, assaults won, first
assault won, per-enemy damage, a wound roll, events on counters with an exit, a table rolled
each assault; Luck never or at its best; several heroes — that both solvers visit the very
same states and that every state's float value is its fraction's to 1e-12. The fractions'
own worth is checked independently too: the plain fight's chance equals the exact plain
fight DP's (:class:`dedale.solve.exact_fights.ExactFight`, its own recursion).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from dedale.rules import load_ruleset
from dedale.rules.odds_exits import Damage, Event, ExitPlan
from dedale.rules.odds_exits_dice import assault_outcomes
from dedale.rules.odds_exits_solver import ExitSolver
from dedale.solve.exact_exits import ExactExits, exit_assault
from dedale.solve.exact_fights import ExactFight

RULES = load_ruleset("df-classic")

PLANS = {
    "plain": ExitPlan(enemies=((8, 6, False),)),
    "two": ExitPlan(enemies=((7, 5, False), (8, 4, False))),
    "limit": ExitPlan(enemies=((9, 8, False),), limit=4),
    "escape": ExitPlan(enemies=((10, 9, False),), escape_after=2),
    "threshold": ExitPlan(enemies=((8, 10, False),), threshold=4),
    "assaults-won": ExitPlan(enemies=((9, 12, False),), win_assaults=3),
    "first-won": ExitPlan(enemies=((8, 7, False),), first_won=True),
    "deals": ExitPlan(enemies=((7, 6, False), (9, 5, False)), damages=(Damage("deals", 1, 3),)),
    "wound-roll": ExitPlan(enemies=((8, 7, False),), wound_rolls=((None, None, 1 / 6, 4),)),
    "events": ExitPlan(
        enemies=((8, 9, False),),
        counters=(("bites", 0),),
        events=(Event("it_wounds", counters=(("bites", "add", 1),)),),
        exits=(lambda values: values["bites"] >= 3,),
        caps=(("bites", 3),),
    ),
    "table": ExitPlan(
        enemies=((8, 6, False),),
        limit=6,
        table=((1 / 6, Event("table", health=-1)), (1 / 6, Event("table", leaves=True))),
    ),
}
HEROES = [(7, 8, 6), (9, 12, 9), (11, 6, 11)]


def _pair(plan: ExitPlan, skill: int, policy: str) -> tuple[ExitSolver, ExactExits]:
    floats = ExitSolver(RULES, skill, plan, policy, (), False)
    exact = ExactExits(RULES, skill, plan, policy, (), False)
    return floats, exact


@pytest.mark.parametrize("policy", ["none", "best"])
@pytest.mark.parametrize("name", sorted(PLANS))
def test_the_exact_solver_is_the_float_one_in_fractions(name, policy):
    checked = 0
    for skill, stamina, luck in HEROES:
        floats, exact = _pair(PLANS[name], skill, policy)
        value = floats.solve(stamina, luck)
        found = exact.solve(stamina, luck)
        assert isinstance(found, Fraction) and 0 <= found <= 1
        assert abs(value - float(found)) < 1e-12
        # the same states, each of the same value
        assert floats.memo.keys() == exact.memo.keys()
        for state, v in floats.memo.items():
            assert isinstance(exact.memo[state], Fraction)
            assert abs(v - float(exact.memo[state])) < 1e-12, state
        checked += len(floats.memo)
    assert checked > 30


def test_the_plain_fight_is_the_exact_plain_dps():
    """An independent check of the fractions: the plain fight DP in fractions (its own
    recursion over its own states) gives the same chance exactly."""
    for skill, stamina, luck in HEROES:
        for policy in ("none", "best"):
            _, exact = _pair(PLANS["plain"], skill, policy)
            fight = ExactFight(
                RULES, skill, [(8, 6)], mode="sequence", bonus=0, enemy_damage=None,
                armour=False, class_name=None, luck_policy=policy,
            )  # fmt: skip
            _ends, lost = fight.outcomes(stamina, luck)
            assert exact.solve(stamina, luck) == 1 - lost


@pytest.mark.parametrize("doubles", [False, True])
def test_one_assault_law_in_both_number_types(doubles):
    fight = RULES.fight
    for lead in range(-12, 13):
        for immune in (False, True):
            floats = assault_outcomes(fight, lead, immune, doubles)
            exact = exit_assault(fight, lead, immune, doubles)
            assert [(w, d) for _, w, d in floats] == [(w, d) for _, w, d in exact]
            assert all(type(p) is Fraction for p, _, _ in exact)
            assert sum(p for p, _, _ in exact) == 1
            for (p, _, _), (q, _, _) in zip(floats, exact, strict=True):
                assert abs(p - float(q)) < 1e-15
