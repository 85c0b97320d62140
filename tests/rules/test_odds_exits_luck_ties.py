"""The forward passes over the exits DP's states break a Luck tie as every fight DP does.

``rules/odds_exits_forward.exit_outcomes`` (a won fight and an assault limit) used to take
"the first option of strictly highest chance" in floats, while ``solve/acting_forward``
(every way out) tested Luck only when it gains more than ``odds.LUCK_TIE``: on a wound
where both choices leave the fight alive exactly as often, rounding made the first spend a
LUCK point for nothing, and the two passes gave different joint (STAMINA, LUCK) outcomes for
the same fight. Both now choose through :func:`dedale.rules.odds.luck_pick`. Checked against
the exact fraction twin of the plain fight DP (:class:`dedale.solve.exact_fights.ExactFight`,
which tests Luck only when strictly better): an independent computation.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from dedale.rules import load_ruleset
from dedale.rules import odds_exits_forward as forward_module
from dedale.rules.odds import LUCK_TIE, luck_pick
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_exits_forward import LOST, exit_outcomes
from dedale.solve.acting_forward import acting_outcomes
from dedale.solve.exact_fights import ExactFight

from tests.rules.test_odds_luck_ties import TIED  # found with Luck tested on exact ties

RULES = load_ruleset("df-classic")


def _plan(enemies, limit=None) -> ExitPlan:
    return ExitPlan(enemies=tuple((skill, stamina, False) for skill, stamina in enemies),
                    limit=limit)  # fmt: skip


def _exact_ends(skill, enemies, stamina, luck) -> dict:
    fight = ExactFight(
        RULES, skill, list(enemies), mode="sequence", bonus=0, enemy_damage=None,
        armour=False, class_name=None, luck_policy="best",
    )  # fmt: skip
    ends, _lost = fight.outcomes(stamina, luck)
    return {key: float(p) for key, p in ends.items()}


def _acting_ends(skill, stamina, plan, luck) -> tuple[dict, dict, float]:
    won: dict = {}
    limit: dict = {}
    lost = 0.0
    for p, (_, key) in acting_outcomes(RULES, skill, stamina, plan, luck=luck,
                                       luck_policy="best"):  # fmt: skip
        if key == LOST:
            lost += p
            continue
        h, lk, way, _rule, _counters = key
        assert way in ("won", "limit")
        (won if way == "won" else limit)[h, lk] = p
    return won, limit, lost


def _first_of_highest(worths) -> int:
    """The old rule of ``exit_outcomes``: the first option of strictly highest chance."""
    return max(range(len(worths)), key=lambda at: (worths[at], -at))


def _gap(one: dict, other: dict) -> float:
    keys = set(one) | set(other)
    return max((abs(one.get(key, 0.0) - other.get(key, 0.0)) for key in keys), default=0.0)


def test_luck_pick_keeps_luck_on_a_rounding_tie_and_tests_it_on_a_gain():
    assert luck_pick([0.5]) == 0
    assert luck_pick([0.5, 0.5]) == 0
    assert luck_pick([0.5, 0.5 * (1 + LUCK_TIE / 2)]) == 0  # a rounding error: not a gain
    assert luck_pick([0.5, 0.5 * (1 + 4 * LUCK_TIE)]) == 1
    assert luck_pick([0.5, 0.4]) == 0
    assert luck_pick([0.0, 1e-300]) == 1  # relative: any gain on nothing counts
    # fractions have no rounding: a strict gain, however small, decides
    assert luck_pick([Fraction(1, 2), Fraction(1, 2)]) == 0
    assert luck_pick([Fraction(1, 2), Fraction(1, 2) + Fraction(1, 10**30)]) == 1
    assert luck_pick([Fraction(1, 2), Fraction(1, 3)]) == 0


@pytest.mark.parametrize("case", TIED, ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}-vs-{len(c[1])}")
def test_the_exit_forward_pass_keeps_luck_on_ties_as_the_fractions_do(case, monkeypatch):
    skill, enemies, stamina, luck = case
    exact = _exact_ends(*case)
    found = exit_outcomes(RULES, skill, stamina, _plan(enemies), luck=luck, luck_policy="best")
    assert not found.limit
    assert _gap(found.won, exact) < 1e-12
    # the acting pass (every way out) now gives the very same outcomes
    won, limit, lost = _acting_ends(skill, stamina, _plan(enemies), luck)
    assert not limit and _gap(won, found.won) < 1e-12
    assert lost == pytest.approx(found.lost, abs=1e-12)
    # with the old rule (the first option of strictly highest float chance) the joint LUCK
    # moves on three of the four fights; the chance to leave alive never does
    monkeypatch.setattr(forward_module, "luck_pick", _first_of_highest)
    old = exit_outcomes(RULES, skill, stamina, _plan(enemies), luck=luck, luck_policy="best")
    assert old.alive == pytest.approx(found.alive, abs=1e-12)
    if case[:3] != (9, ((8, 6),), 18):  # measured: there rounding happened to favour no Luck
        assert _gap(old.won, exact) > 1e-3
        mean = sum(p * lk for (_, lk), p in found.won.items())
        assert sum(p * lk for (_, lk), p in old.won.items()) < mean


@pytest.mark.parametrize("limit", [3, 6, 10])
@pytest.mark.parametrize("case", TIED[:3], ids=lambda c: f"{c[0]}-{c[2]}-{c[3]}")
def test_both_passes_give_one_outcome_with_an_assault_limit(case, limit):
    """The limit's ways out too: the two passes over the same states agree (they share the
    moves and the one tie rule), and their total alive is the exit odds' DP."""
    from dedale.rules.odds_exits import exit_odds

    skill, enemies, stamina, luck = case
    plan = _plan(enemies, limit)
    found = exit_outcomes(RULES, skill, stamina, plan, luck=luck, luck_policy="best")
    won, limit_ends, lost = _acting_ends(skill, stamina, plan, luck)
    assert _gap(won, found.won) < 1e-12 and _gap(limit_ends, found.limit) < 1e-12
    assert lost == pytest.approx(found.lost, abs=1e-12)
    alive = exit_odds(RULES, skill, stamina, plan, luck=luck, luck_policy="best")
    assert found.alive == pytest.approx(alive, abs=1e-12)
