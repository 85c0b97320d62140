"""One Luck tie rule for fights at once (issue 14, "one mechanism per rule"): every Luck
choice of a fight at once — the scalar table and its array fill (rules/odds_group*.py), the
exact odds with exits state by state (odds_group_exits*.py) and their array fill and forward
pass — is the one of :func:`dedale.rules.odds.luck_gains` / :func:`~dedale.rules.odds.luck_pick`,
as the one-enemy DPs' (rules/odds.py, odds_exits_forward.py). Before, fights at once kept
their own absolute tolerance (1e-15; 1e-12 in the array forward pass).

The check: with a tie rule made coarse on purpose (``LUCK_TIE`` = 0.05: Luck is tested only
where it raises the chance by more than 5 %), a fight at once against ONE enemy must still
end exactly as the one-enemy DP ends it — the same joint (STAMINA, LUCK) law — which holds
only if every pass reads the rule (a pass with a tolerance of its own tests Luck where the
coarse rule does not, and spends LUCK the one-enemy DP keeps). And the coarse rule must
change those ends (else the check tells nothing)."""

from __future__ import annotations

import pytest
from dedale.rules import load_ruleset, odds, odds_group_fast
from dedale.rules.odds import fight_odds
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_exits_forward import exit_outcomes
from dedale.rules.odds_group_exits import GroupExitSolver
from dedale.rules.odds_group_exits_array_forward import array_outcomes
from dedale.rules.odds_group_exits_forward import group_exit_outcomes

COARSE = 0.05
"""A Luck test must raise the chance by more than 5 % (relative) under the coarse rule."""

# (hero SKILL, STAMINA, LUCK; enemy SKILL, STAMINA): stats no other test uses, so that no
# table shared across the tests (odds_group.shared_table) was filled under the true rule
FIGHTS = [(7, 13, 8, 8, 7), (9, 11, 10, 9, 9), (6, 15, 11, 7, 6)]


def _plain_ends(rules, skill, stamina, luck, enemy, mode) -> dict:
    found = fight_odds(rules, skill, stamina, [enemy], luck=luck, luck_policy="best", mode=mode)
    return found.end_states


def _close(a: dict, b: dict) -> None:
    for key in set(a) | set(b):
        assert a.get(key, 0.0) == pytest.approx(b.get(key, 0.0), abs=1e-12), key


def _luck_spent(ends: dict) -> float:
    return sum(p * lk for (_h, lk), p in ends.items())


@pytest.mark.parametrize("array", [True, False], ids=["array-fill", "scalar-table"])
@pytest.mark.parametrize("ruleset", ["df-classic", "df24"])
def test_a_plain_fight_at_once_tests_luck_by_the_one_rule(monkeypatch, ruleset, array):
    rules = load_ruleset(ruleset)
    if not array:
        monkeypatch.setattr(odds_group_fast, "fits", lambda *args: False)
    told = 0
    for skill, stamina, luck, e_skill, e_stamina in FIGHTS:
        enemy = (e_skill, e_stamina)
        true_ends = _plain_ends(rules, skill, stamina, luck, enemy, "together")
        with monkeypatch.context() as patch:
            patch.setattr(odds, "LUCK_TIE", COARSE)
            odds_group_shared_clear()
            at_once = _plain_ends(rules, skill, stamina, luck, enemy, "together")
            in_turn = _plain_ends(rules, skill, stamina, luck, enemy, "sequence")
        odds_group_shared_clear()
        _close(at_once, in_turn)
        told += abs(_luck_spent(at_once) - _luck_spent(true_ends)) > 1e-3
    assert told  # the coarse rule keeps LUCK the best Luck spends: the check tells


def odds_group_shared_clear() -> None:
    """Forget the fight-at-once tables kept across calls (filled under another rule)."""
    from dedale.rules import odds_group

    odds_group._TABLES.clear()


def _ways(found) -> dict:
    """The ends won and at the assault limit, and death (``exit_outcomes``' ways)."""
    ends = {("won", *key): p for key, p in found.won.items()}
    ends |= {("limit", *key): p for key, p in found.limit.items()}
    return ends | {("lost", 0, 0): found.lost}


# (hero SKILL, STAMINA, LUCK; enemy SKILL, STAMINA) weak enough to die before the limit
LIMITED = [(7, 7, 8, 8, 7), (9, 6, 10, 9, 9), (6, 8, 11, 7, 6)]


@pytest.mark.parametrize("limit", [5, 8])
def test_a_fight_at_once_with_ways_out_tests_luck_by_the_one_rule(monkeypatch, limit):
    """The exits DP at once state by state, its array fill's forward pass, and the one-enemy
    exits DP's forward pass (``exit_outcomes``: a won fight or an assault limit)."""
    rules = load_ruleset("df-classic")
    told = 0
    for skill, stamina, luck, e_skill, e_stamina in LIMITED:
        plan = ExitPlan(enemies=((e_skill, e_stamina, False),), limit=limit)
        true_ends = _ways(group_exit_outcomes(rules, skill, stamina, plan, luck=luck,
                                              luck_policy="best", array=False))  # fmt: skip
        with monkeypatch.context() as patch:
            patch.setattr(odds, "LUCK_TIE", COARSE)
            in_turn = _ways(exit_outcomes(rules, skill, stamina, plan, luck=luck,
                                          luck_policy="best"))  # fmt: skip
            by_state = _ways(group_exit_outcomes(rules, skill, stamina, plan, luck=luck,
                                                 luck_policy="best", array=False))  # fmt: skip
            solver = GroupExitSolver(rules, skill, plan, "best", (), False, "best")
            by_array = _ways(array_outcomes(solver, stamina, luck))
        _close(by_state, in_turn)
        _close(by_array, in_turn)
        spent = sum(p * key[2] for key, p in by_state.items())
        told += abs(spent - sum(p * key[2] for key, p in true_ends.items())) > 1e-3
    assert told  # the coarse rule keeps LUCK the best Luck spends: the check tells
