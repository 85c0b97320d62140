"""``dedale solve --exact`` on the fights that were float-only before issue 17's session 8:
an assault limit and no ``win ->`` paragraph against enemies at once (solve/exact_group.py:
its ways out in fractions) or in turn (solve/exact_exits.py: the exit odds' forward pass),
d20 fights (solve/exact_d20.py) and reliques fights (solve/exact_reliques.py), each matched
to a fraction computed here from the rules (or to an independent model)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.solve import SolveLimit, solve_book
from dedale.solve.exact import solve_exact

from tests.solve.test_solve_escapes import assault, side

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"


def guards_at_once(skill: int, stamina: int, guards, limit: int) -> Fraction:
    """Guards ``(SKILL, STAMINA)`` all at once (df-classic: 2d6 each, wounds of 2, the other
    guard's blow lands when its roll beats the hero's), the bell after ``limit`` assaults
    (a death), Luck never tested: the best chance to win, the target chosen each assault."""

    @cache
    def value(es: tuple, h: int, k: int) -> Fraction:
        if k >= limit:
            return Fraction(0)
        alive = [i for i, e in enumerate(es) if e > 0]
        best = Fraction(0)
        for t in alive:
            others = [j for j in alive if j != t]
            outcomes = (
                side(skill - guards[t][0], skill - guards[others[0]][0]) if others
                else tuple((p, who, False) for p, who in zip(assault(skill - guards[t][0]),
                                                            ("hero", "tie", "enemy"), strict=True))
            )  # fmt: skip
            found = Fraction(0)
            for p, who, blow in outcomes:
                es2, h2 = list(es), h - 2 * (who == "enemy") - 2 * blow
                if who == "hero":
                    es2[t] = max(0, es2[t] - 2)
                if h2 <= 0:
                    continue
                found += p if not any(es2) else p * value(tuple(es2), h2, k + 1)
            best = max(best, found)
        return best

    return value(tuple(s for _, s in guards), stamina, 0)


@pytest.mark.parametrize("hero", [(9, 18, 9), (12, 24, 12)])
def test_enemies_at_once_with_a_limit_and_no_win_paragraph_in_fractions(hero):
    """gauntlet-open: two guards at once, the bell after 6 assaults, the fight goes on to
    the choice written after it (no ``win ->``): its ways out in fractions."""
    book = load_book(BOOKS / "gauntlet-open")
    result, exact = solve_exact(book, hero, luck_policy="none")
    assert result.complete
    assert exact == guards_at_once(hero[0], hero[1], [(6, 5), (7, 6)], 6)
    floats = solve_book(book, hero, luck_policy="none").win_probability
    assert float(exact) == pytest.approx(floats, abs=1e-12)


@pytest.mark.parametrize("hero", [(7, 14, 7), (9, 18, 9)])
def test_an_assault_limit_in_turn_without_a_win_paragraph_in_fractions(tmp_path, hero):
    """Two guards in turn with the bell and no ``win ->`` (the fight goes on to the choice
    written after it): the exit odds' forward pass in fractions (solve/exact_exits.py),
    the fraction of test_solve_escapes' recursion of the same fight with a win paragraph."""
    from tests.solve.test_solve_escapes import in_turn

    folder = tmp_path / "gauntlet"
    folder.mkdir()
    for name in ("book.dd", "book.yaml"):
        text = (BOOKS / "gauntlet" / name).read_text("utf-8")
        (folder / name).write_text(text.replace("> win -> 2", "-> 2 Cross the bridge"), "utf-8")
    book = load_book(folder)
    result, exact = solve_exact(book, hero, luck_policy="none")
    assert result.complete
    assert exact == in_turn(*hero, [(6, 5, 2), (7, 6, 2)], False, limit=6, escape=False)
    with pytest.raises(SolveLimit) as caught:  # its Luck for the book: not followed
        solve_exact(book, hero, luck_policy="best")
    assert caught.value.span is not None and caught.value.span.line == 7


# --------------------------------------------------------------------------- d20 fights

D20_BOOK = BOOKS / "d20-doors"
D20_HERO = (14, 12, 10, 10, 10, 10, 2, 12)  # FOR DEX CON INT SAG CHA ACTION HP


def d20_law(attacker, defender, base_ac: int = 10, automatic: int = 10) -> tuple:
    """``(miss, no damage, {damage: p})`` of one d20 attack, from the rules (docs/rulesets:
    1d20 + attack against the AC, an automatic hit or miss by the action lead of 10, a
    natural 20 doubles the damage and ignores the reduction)."""
    miss = stay = Fraction(0)
    hits: dict[int, Fraction] = {}
    lead = attacker.action - (defender.ac - base_ac)
    for die in range(1, 21):
        if lead >= automatic:
            hit = True
        elif -lead >= automatic:
            hit = False
        else:
            hit = die + attacker.attack >= defender.ac
        if not hit:
            miss += Fraction(1, 20)
            continue
        for rolled, p in attacker.damage.distribution().items():
            damage = max(0, rolled) * 2 if die == 20 else max(0, rolled - defender.reduction)
            if damage <= 0:
                stay += p / 20
            else:
                hits[damage] = hits.get(damage, Fraction(0)) + p / 20
    return miss, stay, hits


def d20_fight(hero, enemies, together: bool, limit: int | None, terminal, by=None):
    """The value of a d20 fight (written from rules/fight_d20's order: the hero strikes his
    target, which ripostes if he misses; then each enemy standing, all of them at once or
    the target alone, strikes him, and he ripostes if it misses; a riposte is never
    riposted; an assault limit checked at the top of the loop after a win) whose way out
    alive with HP ``h`` is worth ``terminal(h)``: the target that gives the most, or the
    one ``by`` (another such fight) picks — the solver's target is the fight's own best."""
    strike = [d20_law(hero, e) for e in enemies]
    struck = [d20_law(e, hero) for e in enemies]

    def exchange(first, second, hurt_first, hurt_second):
        """``(stay, [(p, wounded, damage)])``: a blow and, after a miss, the riposte."""
        miss, nothing, hits = first
        miss2, nothing2, hits2 = second
        blows = [(p, hurt_first, d) for d, p in hits.items()]
        blows += [(miss * p, hurt_second, d) for d, p in hits2.items()]
        return nothing + miss * (miss2 + nothing2), blows

    def following(es: tuple, after: int | None, target: int) -> int | None:
        """The enemy whose blow comes next (None: the assault is over)."""
        if not together:
            return target if after is None and es[target] > 0 else None
        start = 0 if after is None else after + 1
        return next((i for i in range(start, len(es)) if es[i] > 0), None)

    @cache
    def chain(k: int, h: int, es: tuple, start: int | None, target: int) -> tuple:
        """From enemy ``start``'s blow to the top of the loop: ``(X, S)``, the value being
        X + S * (the value at the top of this very state) when the assault count stays."""
        after_k = k + 1 if limit is not None else 0
        x, s = (Fraction(0), Fraction(1)) if after_k == k else (top(after_k, h, es), Fraction(0))
        phases = []
        i = start
        while i is not None:
            phases.append(i)
            i = following(es, i, target)
        for i in reversed(phases):
            stay, blows = exchange(struck[i], strike[i], "hero", i)
            rest = Fraction(0)
            for p, who, d in blows:
                rest += p * moved(k, h, es, who, d, i, target)
            x, s = rest + stay * x, stay * s
        return x, s

    @cache
    def moved(k, h, es, who, d, after, target) -> Fraction:
        """The value after a blow of ``d`` to ``who`` within an assault."""
        if who == "hero":
            if h - d <= 0:
                return Fraction(0)
            h2, es2 = h - d, es
        else:
            es2 = tuple(max(0, e - d) if j == who else e for j, e in enumerate(es))
            h2 = h
        nxt = following(es2, after, target)
        x, s = chain(k, h2, es2, nxt, target)
        return x + s * top(k, h2, es2) if s else x

    @cache
    def top(k: int, h: int, es: tuple) -> Fraction:
        if not any(es):
            return terminal(h)
        if limit is not None and k >= limit:
            return terminal(h)  # the limit's way on
        living = [i for i, e in enumerate(es) if e > 0]
        found = {t: assault(k, h, es, t) for t in (living if together else living[:1])}
        if by is not None:
            return found[by.pick(k, h, es)]
        return max(found.values())

    def assault(k: int, h: int, es: tuple, target: int) -> Fraction:
        stay, blows = exchange(strike[target], struck[target], target, "hero")
        rest = sum((p * moved(k, h, es, who, d, None, target) for p, who, d in blows),
                   Fraction(0))  # fmt: skip
        x, s = chain(k, h, es, following(es, None, target), target)
        return (rest + stay * x) / (1 - stay * s)

    def pick(k: int, h: int, es: tuple) -> int:
        """The target of the best value (the first of equal ones)."""
        living = [i for i, e in enumerate(es) if e > 0]
        choices = living if together else living[:1]
        best = choices[0]
        for t in choices[1:]:
            if assault(k, h, es, t) > assault(k, h, es, best):
                best = t
        return best

    def run(h: int) -> Fraction:
        return top(0, h, tuple(e.health for e in enemies))

    run.pick = pick  # type: ignore[attr-defined]
    return run


def _d20_fighters(spec):
    from dedale.rules import Character, load_ruleset
    from dedale.rules.fight_d20 import fighters

    rules = load_ruleset("d20")
    stats = dict(zip((s.id for s in rules.stats), D20_HERO, strict=True))
    hero = Character(stats=stats, initial=dict(stats), items={"sword": 1})
    return fighters(rules, hero, spec)


def test_a_d20_book_in_fractions_is_the_recursion():
    """d20-doors, --exact (solve/exact_d20.py): the guard then the sergeant (the left door)
    and the two hounds at once then the kennel-master before the gate shuts (the right
    one, the target the one that wins that fight most often, as the solver's d20 fights
    choose), each fight a recursion in fractions written here; the better door's chance."""
    from dedale.rules import EnemySpec, FightSpec

    def enemy(name, ac, attack, damage, hp, rd=0) -> EnemySpec:
        return EnemySpec(name, {"AC": ac, "attack": attack, "HP": hp, "RD": rd}, weapon=damage)

    def fight(enemies, together=False, limit=None, then=lambda h: Fraction(1)):
        spec = FightSpec(tuple(enemies), mode="together" if together else "sequence",
                         assault_limit=limit)  # fmt: skip
        hero, foes = _d20_fighters(spec)
        alive = d20_fight(hero, foes, together, limit, lambda h: Fraction(1))
        return d20_fight(hero, foes, together, limit, then, by=alive)

    sergeant = fight([enemy("SERGEANT", 14, 4, "1d8", 9, rd=1)])
    left = fight([enemy("GUARD", 13, 3, "1d6", 8)], then=sergeant)(12)
    master = fight([enemy("KENNEL-MASTER", 13, 3, "1d6", 20)], limit=4)
    hounds = [enemy("HOUND", 12, 2, "1d4", 5), enemy("HOUND", 11, 1, "1d4", 4)]
    right = fight(hounds, together=True, then=master)(12)
    result, exact = solve_exact(load_book(D20_BOOK), D20_HERO, luck_policy="none")
    assert result.complete
    assert exact == max(left, right)
    assert abs(left - right) > Fraction(1, 100)  # the door matters
    floats = solve_book(load_book(D20_BOOK), D20_HERO, luck_policy="none").win_probability
    assert float(exact) == pytest.approx(floats, abs=1e-12)


# --------------------------------------------------------------------------- reliques fights

RELIQUES_HERO = (3, 3, 3, 3, 3, 3, 15)
# (hero FOR AGL PER health initial), (enemy FOR AGL PER weapon health): the hero's dodge and
# parry are the same duo (FOR = PER), so the independent model's "always parry" is his best
RELIQUES_MODEL = {
    "three_actions_against_two": ((3, 5, 3, 12, 15), (4, 3, 2, 2, 11)),
    "one_action_hurt_hero": ((4, 2, 4, 8, 15), (3, 2, 3, 2, 8)),
}


@pytest.mark.parametrize("name", sorted(RELIQUES_MODEL))
def test_the_reliques_dp_in_fractions_is_the_independent_model(name):
    """solve/exact_reliques.py: the reliques DP with its chances in fractions matches the
    exact model written from RULES.md alone (tests/rules/reliques_exact.py, which shares
    no code with the fight nor the DP) to 1e-12 (that model sums in floats), its end
    states in fractions summing to its chance exactly, and the float DP to 1e-12."""
    from dedale.rules import Character, EnemySpec, FightSpec, load_ruleset
    from dedale.rules.odds_reliques import reliques_odds
    from dedale.solve.exact_reliques import ExactReliquesDP

    from tests.rules.reliques_exact import ExactFight, Fighter

    (FOR, AGL, PER, health, initial), (e_for, e_agl, e_per, weapon, e_health) = RELIQUES_MODEL[name]
    model = ExactFight(
        Fighter(FOR, AGL, PER, weapon=3, health=health, initial=initial),
        Fighter(e_for, e_agl, e_per, weapon=weapon, health=e_health),
    ).win()
    stats = {"FOR": FOR, "AGL": AGL, "PER": PER, "CON": 3, "ESP": 3, "CHA": 3, "HEALTH": health}
    counters = {"courage": 0, "volonte": 0, "chance": 0}
    hero = Character(stats=dict(stats), initial={**stats, "HEALTH": initial},
                     items={"épée": 1}, counters=counters)  # fmt: skip
    enemy = EnemySpec("Goule", {"FOR": e_for, "AGL": e_agl, "PER": e_per, "CON": 3,
                                "HEALTH": e_health, "arme": weapon})  # fmt: skip
    rules = load_ruleset("reliques")
    spec = FightSpec((enemy,))
    exact = reliques_odds(rules, hero, spec, luck_policy="none", dp_class=ExactReliquesDP)
    floats = reliques_odds(rules, hero, spec, luck_policy="none")
    assert isinstance(exact.win_probability, Fraction)
    assert all(isinstance(p, Fraction) for p in exact.outcomes.values())
    assert sum(exact.outcomes.values()) == exact.win_probability
    assert 0.02 < model < 0.98
    assert float(exact.win_probability) == pytest.approx(model, abs=1e-12)
    assert float(exact.win_probability) == pytest.approx(floats.win_probability, abs=1e-12)
    for key, p in floats.outcomes.items():
        assert float(exact.outcomes[key]) == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("policy", ["none", "best"])
def test_a_reliques_book_in_fractions(policy):
    """reliques-chain (a rat then a goblin; Courage spent at best with --luck best): the
    fraction is the float answer (1e-12), whose fights tests/solve/test_solve_reliques.py
    matches to the model's turn kernel."""
    book = load_book(BOOKS / "reliques-chain")
    result, exact = solve_exact(book, RELIQUES_HERO, luck_policy=policy)
    assert result.complete and isinstance(exact, Fraction) and 0 < exact < 1
    floats = solve_book(book, RELIQUES_HERO, luck_policy=policy).win_probability
    assert float(exact) == pytest.approx(floats, abs=1e-12)
