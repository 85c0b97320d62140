"""Best Luck in fights at once (issue 14.1/14.5): a maximum, computed as one.

The exact best-Luck odds of a df-classic fight against two enemies at once with an assault
limit (rules/odds_group_exits.py, with its pruning by the values without Luck) against an
independent expectimax in fractions written here from the dice faces (the reader's target
and every Luck choice a maximum, each knowing the hero's roll and the blows so far); never
below the odds without Luck (hypothesis over small stats); the same with the pruning off;
the budget's reason names the best Luck, the enemies and the assaults; the plain fight's
scalar fill (rules/odds_group.py) stops by time too, and a seeded simulation of the real
fight code with the best-Luck policy read off the table agrees within 3 standard errors.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from dedale.i18n import translate
from dedale.rules import load_ruleset
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_group_exits import GroupExitSolver, GroupExitsTooLarge, group_exit_odds
from dedale.rules.odds_inputs import OddsTooLarge
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FACES = [(a, b) for a in range(1, 7) for b in range(1, 7)]
LUCKY = {luck: Fraction(sum(1 for f in FACES if sum(f) <= luck), 36) for luck in range(0, 13)}


def _expectimax(skill: int, stamina: int, luck: int, enemies: tuple, limit: int) -> Fraction:
    """Independently, in fractions: the chance to leave alive a df-classic fight against
    ``enemies`` ((SKILL, STAMINA) pairs) all at once that ends "not won after ``limit``
    assaults", the target and every Luck test chosen at best. Each assault: the hero rolls;
    the target rolls; the loser of that exchange takes 2 (Luck: 4 or 1 on the target, 1 or
    3 on the hero, the choice knowing the roll); then each other enemy standing, in order,
    whose strength beats the hero's wounds him 2 (Luck: 1 or 3, knowing the blows so far).
    A Luck test costs 1 LUCK; 2d6 <= LUCK is lucky."""

    @cache
    def beat(j: int, hero_as: int) -> Fraction:
        return Fraction(sum(1 for f in FACES if enemies[j][0] + sum(f) > hero_as), 36)

    def sides(k: int, h: int, lk: int, es: tuple, others: list, hero_as: int) -> Fraction:
        if h <= 0:
            return Fraction(0)
        if not others:
            return value(k + 1, h, lk, es)
        j, rest = others[0], others[1:]
        p = beat(j, hero_as)
        miss = sides(k, h, lk, es, rest, hero_as)
        hit = sides(k, h - 2, lk, es, rest, hero_as)
        if lk > 0:
            q = LUCKY[lk]
            tested = q * sides(k, h - 1, lk - 1, es, rest, hero_as)
            tested += (1 - q) * sides(k, h - 3, lk - 1, es, rest, hero_as)
            hit = max(hit, tested)
        return (1 - p) * miss + p * hit

    @cache
    def value(k: int, h: int, lk: int, es: tuple) -> Fraction:
        if h <= 0:
            return Fraction(0)
        if all(e <= 0 for e in es):
            return Fraction(1)
        if k >= limit:
            return Fraction(1)  # not won after the limit: a way out alive
        best = Fraction(0)
        for t in [i for i, e in enumerate(es) if e > 0]:
            others = [j for j, e in enumerate(es) if e > 0 and j != t]
            total = Fraction(0)
            for hero in FACES:
                hero_as = skill + sum(hero)
                won = Fraction(sum(1 for f in FACES if enemies[t][0] + sum(f) < hero_as), 36)
                lost = Fraction(sum(1 for f in FACES if enemies[t][0] + sum(f) > hero_as), 36)

                def struck(cut: int, es=es, t=t) -> tuple:
                    return es[:t] + (max(0, es[t] - cut),) + es[t + 1 :]

                def after(h1: int, lk1: int, es1: tuple, others=others, hero_as=hero_as):
                    if all(e <= 0 for e in es1) and h1 > 0:
                        return Fraction(1)  # every enemy down: won (no blow after)
                    alive = [j for j in others if es1[j] > 0]
                    return sides(k, h1, lk1, es1, alive, hero_as)

                # the hero wounds the target
                v_won = after(h, lk, struck(2))
                if lk > 0:
                    q = LUCKY[lk]
                    v_won = max(
                        v_won,
                        q * after(h, lk - 1, struck(4)) + (1 - q) * after(h, lk - 1, struck(1)),
                    )
                # the target wounds the hero
                v_lost = after(h - 2, lk, es)
                if lk > 0:
                    q = LUCKY[lk]
                    v_lost = max(
                        v_lost, q * after(h - 1, lk - 1, es) + (1 - q) * after(h - 3, lk - 1, es)
                    )
                v_tie = after(h, lk, es)
                total += (won * v_won + lost * v_lost + (1 - won - lost) * v_tie) / 36
            best = max(best, total)
        return best

    return value(0, stamina, luck, tuple(h for _, h in enemies))


def _solver(rules, skill, enemies, limit, policy):
    plan = ExitPlan(enemies=tuple((s, h, False) for s, h in enemies), limit=limit)
    return GroupExitSolver(rules, skill, plan, policy, (), False, "best")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    skill=st.integers(5, 10),
    stamina=st.integers(1, 5),
    luck=st.integers(0, 4),
    enemies=st.lists(st.tuples(st.integers(4, 10), st.integers(1, 3)), min_size=2, max_size=2).map(
        tuple
    ),
    limit=st.integers(1, 3),
)
def test_best_luck_is_the_expectimax_and_never_below_no_luck(skill, stamina, luck, enemies, limit):
    rules = load_ruleset("df-classic")
    best = _solver(rules, skill, enemies, limit, "best").solve(stamina, luck)
    plain = _solver(rules, skill, enemies, limit, "none").solve(stamina, luck)
    assert best >= plain  # a maximum: never testing Luck is one of its choices
    assert best == pytest.approx(
        float(_expectimax(skill, stamina, luck, enemies, limit)), abs=1e-12
    )


@pytest.mark.parametrize("hero", [(7, 14, 7), (10, 19, 9), (12, 24, 12)])
def test_the_pruning_changes_no_value(hero):
    """The states with no Luck left, or already left alive surely without Luck, take the
    plain values: the same figure as every state's own maximum (pruning off)."""
    rules = load_ruleset("df-classic")
    skill, stamina, luck = hero
    enemies = ((6, 5), (6, 5))  # two wolves, not won after 4 assaults
    pruned = _solver(rules, skill, enemies, 4, "best")
    full = _solver(rules, skill, enemies, 4, "best")
    full.prune = False
    assert pruned.solve(stamina, luck) == pytest.approx(full.solve(stamina, luck), abs=1e-12)
    assert len(pruned.memo) <= len(full.memo)


def test_two_wolves_with_a_limit_are_exact_under_the_budget():
    """The case of the issue: two wolves SKILL 6 STAMINA 5 at once, "not won after 6
    assaults": the best Luck computes within the default budget (once refused)."""
    rules = load_ruleset("df-classic")
    plan = ExitPlan(enemies=((6, 5, False), (6, 5, False)), limit=6)
    for skill, stamina, luck in ((7, 14, 7), (10, 19, 9), (12, 24, 12)):
        best = group_exit_odds(rules, skill, stamina, plan, luck=luck, luck_policy="best")
        plain = group_exit_odds(rules, skill, stamina, plan, luck=luck)
        assert plain <= best <= 1.0


def test_past_the_budget_the_reason_names_the_best_luck_and_the_size(monkeypatch):
    """The scalar recursion's budget (the fights the array fill does not take: its own
    budget is tests/rules/test_odds_group_exits_array.py's)."""
    from dedale.rules import odds_group_exits_array

    monkeypatch.setattr(odds_group_exits_array, "eligible", lambda solver: False)
    rules = load_ruleset("df-classic")
    plan = ExitPlan(enemies=((8, 6, False), (7, 5, False)), limit=10)
    with pytest.raises(GroupExitsTooLarge) as caught:  # the CPU deadline
        group_exit_odds(rules, 7, 14, plan, luck=7, luck_policy="best", seconds=0.05)
    english = translate(caught.value.message, "en")
    assert "best Luck estimated: 2 enemies at once over 10 assaults" in english
    assert "seconds of CPU" in english and "states computed" in english
    french = translate(caught.value.message, "fr")
    assert "meilleure Chance estimée" in french and "10 assauts" in french
    many = ExitPlan(enemies=((8, 10, False), (7, 10, False), (7, 9, False)), limit=10)
    with pytest.raises(GroupExitsTooLarge) as caught:  # refused at once: hopeless
        group_exit_odds(rules, 9, 20, many, luck=11, luck_policy="best")
    assert "3 enemies at once over 10 assaults" in translate(caught.value.message, "en")
    assert "steps foreseen" in translate(caught.value.message, "en")


def test_the_plain_fill_with_the_best_luck_stops_by_time():
    """The scalar fill of rules/odds_group.py (where the array fill does not apply) has a
    CPU deadline beside its work bound, and says how far it went."""
    from dedale.rules import odds_group_fast
    from dedale.rules.odds_group import GroupTable

    rules = load_ruleset("df-classic")
    enemies = ((7, 4, False), (7, 4, False), (6, 3, False))
    table = GroupTable(rules, 7, enemies, luck_policy="best", luck_work=10**9)
    table.seconds = 0.05
    fits = odds_group_fast.fits
    odds_group_fast.fits = lambda *args: False
    try:
        with pytest.raises(OddsTooLarge) as caught:
            table.win_probability(14, 7)
    finally:
        odds_group_fast.fits = fits
    assert "states computed" in translate(caught.value.message, "en")
