"""A table rolled each assault in the exact odds with exits (rules/odds_exits.py, issue 14.2):
against an independent computation in fractions from the dice (tiny stats), the order of
the table and the threshold, and the cap that keeps a counter raised each assault finite.
(Each kind is also checked against the real fight code in tests/validator/test_exit_odds.py.)"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import cache

import pytest
from dedale.rules import load_ruleset
from dedale.rules.odds_exits import Event, ExitPlan, exit_odds

SUMS = {total: Fraction(6 - abs(total - 7), 36) for total in range(2, 13)}


def _by_hand(hero: int, enemy: int, skill_lead: int, limit: int) -> Fraction:
    """df-classic, one enemy, no Luck; after each assault a d6: 1 costs the hero 1 STAMINA,
    6 leaves the fight alive; "not won after ``limit`` assaults" leaves it too."""

    @cache
    def value(k: int, h: int, e: int) -> Fraction:
        if k >= limit:
            return Fraction(1)
        total = Fraction(0)
        for mine, p in SUMS.items():
            for theirs, q in SUMS.items():
                h1, e1 = h, e
                if mine + skill_lead > theirs:
                    e1 = max(0, e - 2)
                elif theirs > mine + skill_lead:
                    h1 = max(0, h - 2)
                if h1 <= 0:
                    continue
                if e1 <= 0:
                    total += p * q
                    continue
                after = Fraction(1, 6) * 1  # a 6: away
                after += Fraction(4, 6) * value(k + 1, h1, e1)  # 2-5: nothing
                after += Fraction(1, 6) * (value(k + 1, h1 - 1, e1) if h1 > 1 else 0)
                total += p * q * after
        return total

    return value(0, hero, enemy)


def test_a_table_each_assault_against_the_dice():
    rules = load_ruleset("df-classic")
    table = ((1 / 6, Event("table", health=-1)), (1 / 6, Event("table", leaves=True)))
    for lead in (-2, 0, 1):
        plan = ExitPlan(enemies=((8, 5, False),), limit=5, table=table)
        exact = exit_odds(rules, 8 + lead, 5, plan)
        assert exact == pytest.approx(float(_by_hand(5, 5, lead, 5)), abs=1e-12)


def test_a_counter_raised_each_assault_stays_finite_with_its_cap():
    rules = load_ruleset("df-classic")
    row = Event("table", counters=(("bites", "add", 1),))
    plan = ExitPlan(
        enemies=((8, 10, False),), counters=(("bites", 0),), table=((0.5, row),),
        exits=(lambda values: values["bites"] >= 3,), caps=(("bites", 4),),
    )  # fmt: skip
    capped = exit_odds(rules, 8, 12, plan)
    assert 0.5 < capped < 1.0
    # the cap changes no value: far enough, the same fight with a far cap
    wide = exit_odds(rules, 8, 12, dataclasses.replace(plan, caps=(("bites", 30),)))
    assert wide == pytest.approx(capped, abs=1e-12)
