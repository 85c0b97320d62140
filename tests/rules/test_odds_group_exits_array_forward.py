"""The forward pass over the array fill's choices (rules/odds_group_exits_array_forward.py,
issue 14.1/14.4): from a start, the joint ends of a fight at once with ways out (each way
with the hero's STAMINA and LUCK, and death). Its mass out alive is the fill's value to
1e-12 (three goblins too, which only the fill takes); on the fights the state-by-state pass
also takes, the two give the same ends, cell by cell, to 1e-12; the mass is conserved; the
ends are where the ways put them (the threshold's STAMINA at or below it, the LUCK never
above the start's); ``group_exit_outcomes`` routes the fill's fights to it."""

from __future__ import annotations

import pytest
from dedale.rules import load_ruleset, odds_group_exits_array
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_group_exits import GroupExitSolver, GroupExitsTooLarge, group_exit_odds
from dedale.rules.odds_group_exits_array_forward import array_outcomes
from dedale.rules.odds_group_exits_forward import group_exit_outcomes

from tests.rules.test_odds_group_exits_array import GOBLINS, cases
from tests.rules.test_odds_group_exits_array import PLANS as ARRAY_PLANS

PLANS = [*ARRAY_PLANS, (((10, 6, False),), {"limit": 5})]


def _ends(rules, skill, stamina, luck, plan, target="best", armour=False):
    solver = GroupExitSolver(rules, skill, plan, "best", (), armour, target)
    assert odds_group_exits_array.eligible(solver)
    return array_outcomes(solver, stamina, luck)


def _value(rules, skill, stamina, luck, plan, target="best", armour=False) -> float:
    """The fill's own value (``group_exit_odds`` routes the fill's fights to it)."""
    return group_exit_odds(rules, skill, stamina, plan, luck=luck, luck_policy="best",
                           armour=armour, target=target)  # fmt: skip


def _sane(found, stamina: int, luck: int, plan: ExitPlan) -> None:
    assert found.alive + found.lost == pytest.approx(1.0, abs=1e-12)
    for way, table in found.ways.items():
        for (h, lk), p in table.items():
            assert p > 0 and 0 < h <= stamina and 0 <= lk <= luck
            if way == "threshold":
                assert h <= plan.threshold
            elif plan.threshold is not None and way != "escaped":
                assert h > plan.threshold


@pytest.mark.parametrize("ruleset", ["df-classic", "df24"])
@pytest.mark.parametrize(("enemies", "ways"), PLANS)
def test_the_ends_are_the_state_by_state_pass_s_and_sum_to_the_fill_s_value(ruleset, enemies, ways):
    rules = load_ruleset(ruleset)
    plan = ExitPlan(enemies=enemies, **ways)
    told = set()
    for target, armour, skill, stamina, luck in cases(enemies):
        found = _ends(rules, skill, stamina, luck, plan, target, armour)
        _sane(found, stamina, luck, plan)
        value = _value(rules, skill, stamina, luck, plan, target, armour)
        assert found.alive == pytest.approx(value, abs=1e-12)
        assert found.value == pytest.approx(value, abs=1e-12)
        old = group_exit_outcomes(
            rules, skill, stamina, plan, luck=luck, luck_policy="best", armour=armour,
            target=target, seconds=600.0, luck_work=10**12, array=False,
        )  # fmt: skip
        assert old.lost == pytest.approx(found.lost, abs=1e-12)
        assert set(old.ways) >= set(found.ways)
        for way, table in old.ways.items():
            mine = found.ways.get(way, {})
            for key in set(table) | set(mine):
                assert mine.get(key, 0.0) == pytest.approx(table.get(key, 0.0), abs=1e-12)
        told.add(round(found.alive, 6))
    assert min(told) < 0.99  # a case that tells something (not only sure ways out)


@pytest.mark.parametrize(
    "ways",
    [{"limit": 8}, {"escape_after": 3}, {"limit": 8, "threshold": 3}],
    ids=["limit", "escape", "limit-threshold"],
)
@pytest.mark.parametrize(("skill", "stamina", "luck"), [(7, 14, 7), (9, 19, 9)])
def test_three_goblins_ends_sum_to_the_fill_s_value(ways, skill, stamina, luck):
    """Three goblins at once, which the state-by-state pass refuses with the best Luck: the
    ends sum to the fill's value, and some end leaves with LUCK spent."""
    rules = load_ruleset("df-classic")
    plan = ExitPlan(enemies=GOBLINS, **ways)
    found = _ends(rules, skill, stamina, luck, plan)
    _sane(found, stamina, luck, plan)
    assert found.alive == pytest.approx(_value(rules, skill, stamina, luck, plan), abs=1e-12)
    assert 0.0 < found.alive < 1.0
    assert any(lk < luck for table in found.ways.values() for _h, lk in table)
    routed = group_exit_outcomes(rules, skill, stamina, plan, luck=luck, luck_policy="best")
    assert routed.won == found.won and routed.limit == found.limit
    assert routed.escaped == found.escaped and routed.lost == found.lost


def test_past_the_fill_s_count_the_forward_pass_says_why(monkeypatch):
    monkeypatch.setattr(odds_group_exits_array, "ARRAY_WORK", 10)
    rules = load_ruleset("df-classic")
    with pytest.raises(GroupExitsTooLarge) as caught:
        _ends(rules, 7, 14, 7, ExitPlan(enemies=GOBLINS, limit=8))
    assert "units of work counted" in caught.value.message.translate("en")
