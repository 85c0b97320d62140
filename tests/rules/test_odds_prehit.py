"""The states before the first hit filled in loops (rules/odds_prehit.py) give the generic
recursion's values bit for bit: the win chance, the forward pass's figures and every value
the table memoises, on many settings with a first-hit bonus."""

from __future__ import annotations

import itertools

import pytest
from dedale.rules import odds_grids, odds_prehit
from dedale.rules.odds import OddsTable

HEROES = [(7, 14, 7), (9, 20, 11), (12, 24, 12), (10, 5, 3)]
LINE_UPS = [[(9, 7)], [(6, 12)], [(11, 9)], [(8, 5), (9, 6)], [(7, 4), (7, 4), (8, 8)]]
OPTIONS = [
    dict(luck_policy="best"),
    dict(luck_policy="none"),
    dict(luck_policy="best", enemy_damage=3),
    dict(luck_policy="best", attack_bonus=-2),
    dict(luck_policy="best", armour=False),
    dict(luck_policy="none", enemy_damage=1, armour=False),
]


def _solve(ruleset, hero, enemies, options, fast: bool, monkeypatch):
    skill, stamina, luck = hero
    odds_grids.clear()  # no value memoised by the other run (the tables share them)
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(odds_prehit, "applies", lambda table: False)
        table = OddsTable(ruleset, skill, enemies, class_name="Mercenaire", **options)
        assert table.first_hit_bonus  # the setting has states before the first hit
        result = table.solve(stamina, luck)
        # a lower start read from the same table (the validator's shared tables)
        low = table.win_probability(max(1, stamina - 3), max(0, luck - 2), enemies[0][1] - 1)
        return result, low, dict(table.special)


@pytest.mark.parametrize(("hero", "enemies"), list(itertools.product(HEROES, LINE_UPS)))
def test_prehit_loops_equal_the_recursion(rulesets, hero, enemies, monkeypatch):
    ruleset = rulesets["df48.5"]
    for options in OPTIONS:
        enemies_ = [(s, min(st, 5) if hero[1] <= 5 else st) for s, st in enemies]
        fast = _solve(ruleset, hero, enemies_, options, True, monkeypatch)
        slow = _solve(ruleset, hero, enemies_, options, False, monkeypatch)
        assert fast[0] == slow[0], options  # the whole OddsResult, floats compared exactly
        assert fast[1] == slow[1], options
        for state, value in slow[2].items():  # every state the recursion met
            assert fast[2][state] == value, (options, state)


def test_prehit_loops_are_used(rulesets, monkeypatch):
    calls = []
    original = odds_prehit.fill
    monkeypatch.setattr(odds_prehit, "fill", lambda *a: calls.append(a) or original(*a))
    table = OddsTable(rulesets["df48.5"], 9, [(9, 7)], class_name="Mercenaire", luck_policy="best")
    table.solve(20, 9)
    assert calls  # the setting went through the loops, not the recursion
    plain = OddsTable(rulesets["df48.5"], 9, [(9, 7)], class_name="Scientifique")
    assert not odds_prehit.applies(plain)  # no first-hit bonus: no such states
