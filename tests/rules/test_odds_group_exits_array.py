"""Best Luck at once with ways out by the array fill (rules/odds_group_exits_array.py, issue
14.1/14.2/14.5): the same values as the scalar recursion of rules/odds_group_exits.py on
every kind it takes (assault limit, escape, threshold, armour, the first target, df24);
an independent expectimax in fractions from the dice faces on three tiny enemies; three
goblins with ways out within the budget, bounded by a count of work (not by the machine's
speed), never below the odds without Luck; the real fight code (the interpreter's fight,
seeded) under fixed Luck policies never beats the best Luck by more than 3 standard
errors, and without Luck agrees with the exact figure; the refusal past the count, in
English and French; ``dedale odds`` gives the validator's figure."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import pytest
from dedale import ast
from dedale.events import TargetPrompt, YesNoPrompt
from dedale.game.rehearsal import FightRehearsal
from dedale.i18n import translate
from dedale.language import load_book
from dedale.rules import RandomSource, create_character, load_ruleset, odds_group_exits_array
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_group_exits import GroupExitSolver, GroupExitsTooLarge, group_exit_odds
from dedale.validator.fight_plan import plan_of
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

GOBLINS = ((5, 5, False), (6, 4, False), (5, 6, False))


def _scalar(rules, skill, stamina, luck, plan, target="best", armour=False) -> float:
    solver = GroupExitSolver(rules, skill, plan, "best", (), armour, target)
    solver.seconds, solver.luck_work = 600.0, 10**12  # the reference: no budget in the way
    assert not solver.array
    return solver.solve(stamina, luck)


def _filled(rules, skill, stamina, luck, plan, target="best", armour=False):
    solver = GroupExitSolver(rules, skill, plan, "best", (), armour, target)
    solver.array = True
    value = solver.solve(stamina, luck)
    assert odds_group_exits_array.eligible(solver)
    fill = getattr(solver, "filled", None)  # None: a sure way out without Luck (no fill)
    assert fill is not None or value >= 1.0 - 1e-12
    return value, fill


PLANS = [
    (((6, 3, False), (5, 2, False)), {"limit": 3}),
    (((8, 4, False), (7, 3, False)), {"escape_after": 2}),
    (((8, 4, False), (7, 3, False)), {"threshold": 1}),
    (((9, 4, False), (8, 3, False)), {"limit": 4, "escape_after": 3, "threshold": 1}),
    (((7, 3, False), (5, 2, False), (6, 2, False)), {"limit": 3}),
    (((7, 3, False), (5, 2, False), (6, 2, False)), {"escape_after": 1}),
    (((8, 3, False), (7, 3, True), (6, 2, False)), {"limit": 3, "threshold": 1}),
]


def cases(enemies):
    """The settings and heroes a plan against ``enemies`` is tried with: ``(target, armour,
    SKILL, STAMINA, LUCK)`` (fewer heroes against three enemies)."""
    for target, armour in (("best", False), ("order", False), ("best", True)):
        heroes = ((7, 4, 5), (9, 7, 3), (11, 6, 9)) if len(enemies) < 3 else ((7, 4, 5), (9, 5, 2))
        for skill, stamina, luck in heroes:
            yield target, armour, skill, stamina, luck


@pytest.mark.parametrize("ruleset", ["df-classic", "df24"])
@pytest.mark.parametrize(("enemies", "ways"), PLANS)
def test_the_array_fill_is_the_scalar_recursion(ruleset, enemies, ways):
    rules = load_ruleset(ruleset)
    plan = ExitPlan(enemies=enemies, **ways)
    told = set()
    for target, armour, skill, stamina, luck in cases(enemies):
        filled, _fill = _filled(rules, skill, stamina, luck, plan, target, armour)
        assert filled == pytest.approx(
            _scalar(rules, skill, stamina, luck, plan, target, armour), abs=1e-12
        )
        told.add(round(filled, 6))
    assert min(told) < 0.99  # a case that tells something (not only sure ways out)


FACES = [(a, b) for a in range(1, 7) for b in range(1, 7)]
LUCKY = {luck: Fraction(sum(1 for f in FACES if sum(f) <= luck), 36) for luck in range(13)}


def _expectimax(skill, stamina, luck, enemies, limit=None, escape_after=None, threshold=None):
    """Independently, in fractions, a df-classic fight against ``enemies`` ((SKILL,
    STAMINA)) all at once: the chance to leave alive (won, "not won after ``limit``",
    escaped after ``escape_after`` assaults at a wound of 2, "STAMINA falls to
    ``threshold``"), the escape, the target and every Luck test chosen at best, each Luck
    test knowing the hero's roll and the blows so far. A value is a pair (a, b): a + b x the
    state's own value (an assault that changes nothing, past the last counted assault)."""
    cap = max(limit or 0, escape_after or 0)

    def beat(j, hero_as):
        return Fraction(sum(1 for f in FACES if enemies[j][0] + sum(f) > hero_as), 36)

    def tested(q, lucky, unlucky):
        return (q * lucky[0] + (1 - q) * unlucky[0], q * lucky[1] + (1 - q) * unlucky[1])

    def best_of(a, b):
        assert a[1] == 0 and b[1] == 0  # a Luck choice never leaves the state as it is
        return a if a[0] >= b[0] else b

    def finish(k, h, lk, es, me):
        if h <= 0:
            return (Fraction(0), Fraction(0))
        if all(e == 0 for e in es) or (threshold is not None and h <= threshold):
            return (Fraction(1), Fraction(0))
        nxt = (min(k + 1, cap), h, lk, es)
        if nxt == me:
            return (Fraction(0), Fraction(1))
        return (value(*nxt), Fraction(0))

    def sides(k, h, lk, es, others, hero_as, me):
        if h <= 0 or not others:
            return finish(k, h, lk, es, me)
        j, rest = others[0], others[1:]
        p = beat(j, hero_as)
        miss = sides(k, h, lk, es, rest, hero_as, me)
        hit = sides(k, h - 2, lk, es, rest, hero_as, me)
        if lk > 0:
            hit = best_of(hit, tested(LUCKY[lk], sides(k, h - 1, lk - 1, es, rest, hero_as, me),
                                      sides(k, h - 3, lk - 1, es, rest, hero_as, me)))  # fmt: skip
        return ((1 - p) * miss[0] + p * hit[0], (1 - p) * miss[1] + p * hit[1])

    @cache
    def value(k, h, lk, es):
        if limit is not None and k >= limit:
            return Fraction(1)
        me = (k, h, lk, es)
        best = Fraction(-1)
        for t in [i for i, e in enumerate(es) if e > 0]:
            total = [Fraction(0), Fraction(0)]
            for hero in FACES:
                hero_as = skill + sum(hero)
                won = Fraction(sum(1 for f in FACES if enemies[t][0] + sum(f) < hero_as), 36)
                lost = Fraction(sum(1 for f in FACES if enemies[t][0] + sum(f) > hero_as), 36)

                def after(h1, lk1, cut, t=t, hero_as=hero_as):
                    es1 = es[:t] + (max(0, es[t] - cut),) + es[t + 1 :]
                    alive = [j for j, e in enumerate(es1) if e > 0 and j != t]
                    if not any(es1):
                        return finish(k, h1, lk1, es1, me)
                    return sides(k, h1, lk1, es1, alive, hero_as, me)

                v_won, v_lost = after(h, lk, 2), after(h - 2, lk, 0)
                if lk > 0:
                    q = LUCKY[lk]
                    v_won = best_of(v_won, tested(q, after(h, lk - 1, 4), after(h, lk - 1, 1)))
                    v_lost = best_of(v_lost, tested(q, after(h - 1, lk - 1, 0),
                                                    after(h - 3, lk - 1, 0)))  # fmt: skip
                v_tie = after(h, lk, 0)
                for i in (0, 1):
                    total[i] += (won * v_won[i] + lost * v_lost[i]
                                 + (1 - won - lost) * v_tie[i]) / 36  # fmt: skip
            if total[1] < 1:
                best = max(best, total[0] / (1 - total[1]))
            else:
                best = max(best, Fraction(0))
        if escape_after is not None and k >= escape_after:
            escape = Fraction(int(h > 2))
            if lk > 0:
                q = LUCKY[lk]
                escape = max(escape, q * int(h > 1) + (1 - q) * int(h > 3))
            best = max(best, escape)
        return best

    return value(0, stamina, luck, tuple(e for _, e in enemies))


@pytest.mark.parametrize(
    ("hero", "ways"),
    [
        ((7, 4, 3), {"limit": 2}),
        ((8, 5, 2), {"escape_after": 1}),
        ((7, 4, 3), {"limit": 3, "escape_after": 1, "threshold": 1}),
        ((9, 3, 4), {"threshold": 1}),
    ],
)
def test_three_tiny_enemies_against_the_dice_faces_in_fractions(hero, ways):
    rules = load_ruleset("df-classic")
    enemies = ((7, 2), (6, 1), (8, 1))
    plan = ExitPlan(enemies=tuple((s, e, False) for s, e in enemies), **ways)
    skill, stamina, luck = hero
    filled, _fill = _filled(rules, skill, stamina, luck, plan)
    exact = _expectimax(skill, stamina, luck, enemies, **ways)
    assert 0.05 < exact < 0.999
    assert filled == pytest.approx(float(exact), abs=1e-12)
    assert filled >= group_exit_odds(rules, skill, stamina, plan, luck=luck) - 1e-12


@pytest.mark.parametrize(
    "ways", [{"limit": 8}, {"escape_after": 2}, {"limit": 8, "escape_after": 2}]
)
def test_three_goblins_with_ways_out_are_exact_within_the_budget(ways):
    """Three goblins at once (5/5, 6/4, 5/6) against heroes from the weakest to the
    strongest: exact under the default budget, the fill bounded by its count (the same
    count on every machine), never below the odds without Luck."""
    rules = load_ruleset("df-classic")
    plan = ExitPlan(enemies=GOBLINS, **ways)
    for skill, stamina, luck in ((7, 14, 7), (12, 24, 12)):
        best, fill = _filled(rules, skill, stamina, luck, plan)  # as group_exit_odds does
        plain = group_exit_odds(rules, skill, stamina, plan, luck=luck)
        assert plain - 1e-12 <= best <= 1.0
        if fill is not None:  # (a sure way out without Luck needs no fill)
            assert fill.work <= odds_group_exits_array.ARRAY_WORK // 2  # well inside the count
    weak = group_exit_odds(rules, 7, 14, plan, luck=7, luck_policy="best")
    assert weak > group_exit_odds(rules, 7, 14, plan, luck=7) + 1e-4  # Luck helps the weak


def test_past_the_count_of_work_it_is_refused_saying_why(monkeypatch):
    monkeypatch.setattr(odds_group_exits_array, "ARRAY_WORK", 1_000)
    rules = load_ruleset("df-classic")
    plan = ExitPlan(enemies=GOBLINS, limit=8)
    with pytest.raises(GroupExitsTooLarge) as caught:
        group_exit_odds(rules, 10, 19, plan, luck=9, luck_policy="best")
    english = translate(caught.value.message, "en")
    assert "3 enemies at once over 8 assaults" in english
    assert "more than 1,000 units of work counted" in english
    french = translate(caught.value.message, "fr")
    assert "meilleure Chance estimée" in french and "unités de travail" in french
    assert group_exit_odds(rules, 10, 19, plan, luck=9) > 0.99  # without Luck: exact still


HEADER = """---
title: Trois gobelins
language: fr
ruleset: df-classic
start: 1
---
§ 1
> combat ensemble
> ennemi GOBELIN HABILETÉ 5 ENDURANCE 5
> ennemi GOBELIN BORGNE HABILETÉ 6 ENDURANCE 4
> ennemi GOBELIN BOSSU HABILETÉ 5 ENDURANCE 6
{ways}
> victoire -> 2
§ 2
> victoire
§ 3
> victoire
"""
SAMPLES = 3_000


class _Policy:
    """A fixed way to play: Luck tested when ``tests`` says so, the escape taken when the
    escape wound cannot kill, the first enemy standing attacked."""

    def __init__(self, character, tests) -> None:
        self.character, self.tests = character, tests

    def answer(self, prompt):
        if isinstance(prompt, TargetPrompt):
            return 0
        if isinstance(prompt, YesNoPrompt) and prompt.kind == "use_luck":
            return self.tests(dict(prompt.params))
        if getattr(prompt, "kind", None) == "escape":
            return self.character.stats["STAMINA"] > 2
        return False


POLICIES = {
    "never": lambda p: False,
    "always": lambda p: True,
    "when hurt": lambda p: p["wound"] == "taken",
    "when striking, LUCK 9+": lambda p: p["wound"] == "dealt" and p["luck"] >= 9,
}


@pytest.mark.parametrize("ways", ["> pas gagné après 8 assauts -> 3", "> fuite -> 3 après 2"])
def test_best_luck_bounds_the_real_fight_under_fixed_luck_policies(tmp_path, ways):
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(ways=ways), encoding="utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    hero = {"HABILETÉ": 7, "ENDURANCE": 9, "CHANCE": 9}
    stats = {book.ruleset.resolve(n)[1]: v for n, v in hero.items()}
    line_up = ((5, 5, False), (6, 4, False), (5, 6, False))
    plan = plan_of(fight, book.ruleset, line_up, stats)
    skill, stamina, luck = stats["SKILL"], stats["STAMINA"], stats["LUCK"]
    rules = book.ruleset
    best = group_exit_odds(rules, skill, stamina, plan, luck=luck, luck_policy="best")
    plain = group_exit_odds(rules, skill, stamina, plan, luck=luck, target="order")
    assert 0.05 < plain < best < 0.999
    rehearsal = FightRehearsal(book, 0)
    spec = rehearsal.spec(fight)
    for name, tests in POLICIES.items():
        rng, kept = RandomSource(2024), 0
        for _ in range(SAMPLES):
            character = create_character(rules, RandomSource(0), None, fixed=stats)
            result = rehearsal.play(fight, spec, character, rng, _Policy(character, tests))
            rng.log.clear()
            kept += character.stats["STAMINA"] > 0 and result.outcome in (
                "won", "limit", "escaped"
            )  # fmt: skip
        rate = kept / SAMPLES
        se = math.sqrt(max(rate * (1 - rate), 1e-4) / SAMPLES)
        assert rate <= best + 3 * se, (name, rate, best)
        if name == "never":  # the simulation itself: the exact figure without Luck
            assert abs(rate - plain) <= 3 * se, (rate, plain)


def test_dedale_odds_gives_the_same_figure(capsys):
    import json

    from dedale.cli import main

    args = ["odds", "--hero", "7", "14", "--luck", "7", "--luck-policy", "best", "--mode", "best"]
    for skill, stamina in ((5, 5), (6, 4), (5, 6)):
        args += ["--enemy", str(skill), str(stamina)]
    assert main([*args, "--survive", "8", "--escape-after", "2", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["way_out_probability"]
    rules = load_ruleset("df-classic")
    plan = ExitPlan(enemies=GOBLINS, limit=8, escape_after=2)
    exact = group_exit_odds(rules, 7, 14, plan, luck=7, luck_policy="best")
    assert found == pytest.approx(exact, abs=1e-12)
    assert exact > group_exit_odds(rules, 7, 14, ExitPlan(enemies=GOBLINS, limit=8), luck=7)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    skill=st.integers(5, 11),
    stamina=st.integers(1, 6),
    luck=st.integers(1, 6),
    enemies=st.lists(
        st.tuples(st.integers(4, 10), st.integers(1, 3), st.booleans()), min_size=2, max_size=3
    ).map(tuple),
    limit=st.one_of(st.none(), st.integers(1, 3)),
    escape_after=st.one_of(st.none(), st.integers(0, 2)),
    threshold=st.one_of(st.none(), st.integers(1, 2)),
    ruleset=st.sampled_from(["df-classic", "df24"]),
)
def test_any_small_fight_is_the_scalar_recursion(
    skill, stamina, luck, enemies, limit, escape_after, threshold, ruleset
):
    assume(threshold is None or stamina > threshold)  # (else the scalar: already at the exit)
    rules = load_ruleset(ruleset)
    plan = ExitPlan(enemies=enemies, limit=limit, escape_after=escape_after, threshold=threshold)
    if limit is None and escape_after is None and len(enemies) == 3:
        plan = ExitPlan(enemies=enemies[:2], threshold=threshold)  # (the scalar's cost)
    filled, _fill = _filled(rules, skill, stamina, luck, plan)
    assert filled == pytest.approx(_scalar(rules, skill, stamina, luck, plan), abs=1e-12)
