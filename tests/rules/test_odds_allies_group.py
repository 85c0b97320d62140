"""Exact odds of fights with allies against enemies at once (rules/odds_allies_group.py,
issue 14.1): an exact recursion in fractions written here from the dice faces, the other
DPs where they meet it, and seeded fights of the real interpreter."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import pytest
from dedale import ast
from dedale.game.rehearsal import FightRehearsal
from dedale.language import load_book
from dedale.rules import create_character, load_ruleset
from dedale.rules.odds_allies_exits import ally_exit_odds
from dedale.rules.odds_allies_group import ally_group_odds
from dedale.rules.odds_exits import Damage, ExitPlan
from dedale.rules.odds_group_exits import GroupExitsTooLarge, group_exit_odds
from dedale.rules.random_source import RandomSource

PAIRS = list(itertools.product(range(1, 7), repeat=2))
MODES = ("hero", "ally", "random")


def brute(name, skill, stamina, luck, enemies, allies, struck, policy, target="best",
          deals=None) -> Fraction:  # fmt: skip
    """The chance to win a fight against ``enemies`` at once with ``allies``, in
    fractions, from the dice faces: per face of the hero's roll, the target's outcome and
    each other enemy's chance to beat the hero; the hero's wound of the target (Luck before
    whom the enemies strike is known), the target's wound then each other enemy's that
    lands, in order (``deals`` in place of each enemy's damage; struck ally, an ally
    standing: the first ally standing takes it, else the hero with Luck, each choice the
    best knowing the assault so far; they stop at a hero at 0); the hero at 0 loses, no
    enemy left wins; each ally standing against the first enemy standing. The target: the
    best each assault, or the first standing (``order``)."""
    ruleset = load_ruleset(name)
    fight = ruleset.fight
    test = ruleset.tests[fight.luck_test]
    use_luck = policy == "best"
    to_enemy, to_hero, side = fight.damage_to_enemy, fight.damage_to_hero, fight.together_damage
    wounding, wounded = fight.luck_wounding, fight.luck_wounded
    modes = {"hero": [(1, "hero")], "ally": [(1, "ally")]}.get(
        struck, [(Fraction(1, 2), "hero"), (Fraction(1, 2), "ally")]
    )
    two_d6: dict[int, Fraction] = {}
    faces: dict[tuple[int, bool], Fraction] = {}  # the hero's roll: (total, a double)
    for a, b in PAIRS:
        two_d6[a + b] = two_d6.get(a + b, 0) + Fraction(1, 36)
        faces[a + b, a == b] = faces.get((a + b, a == b), 0) + Fraction(1, 36)

    @cache
    def beats(x: int, y: int) -> Fraction:  # P(x + 2d6 > y)
        return sum((p for s, p in two_d6.items() if x + s > y), Fraction(0))

    def lucky(lk: int) -> Fraction:
        return Fraction(sum(1 for a, b in PAIRS if a + b <= lk), 36)

    @cache
    def duel(a_skill: int, e_skill: int) -> tuple[Fraction, Fraction, Fraction]:
        """(the ally's roll beats the enemy's, the other way round, a tie)."""
        a_wins = sum(p * q for s, p in two_d6.items() for u, q in two_d6.items()
                     if a_skill + s > e_skill + u)  # fmt: skip
        e_wins = sum(p * q for s, p in two_d6.items() for u, q in two_d6.items()
                     if e_skill + u > a_skill + s)  # fmt: skip
        return a_wins, e_wins, 1 - a_wins - e_wins

    def dmg(base: int) -> int:
        return base if deals is None else deals

    def choose(options, here):
        """The best option ``[(a, b)]`` (b: the chance of this very state again, never
        with a choice: every Luck test changes the state)."""
        if len(options) > 1:
            assert all(b == 0 for _, b in options)
            return max(options, key=lambda ab: ab[0])
        return options[0]

    def wound_options(h, lk, damage, table, plain):
        """[(chance, Luck after, damage)] per option."""
        found = [[(Fraction(1), lk, damage)]]
        if use_luck and lk > 0 and damage > 0:
            q, low = lucky(lk), max(0, lk - test.cost)
            found.append([(q, low, max(0, damage + table.lucky - plain)),
                          (1 - q, low, max(0, damage + table.unlucky - plain))])  # fmt: skip
        return found

    def first_hurt(al, d):
        al = list(al)
        j = next(j for j, a in enumerate(al) if a > 0)
        al[j] = max(0, al[j] - d)
        return tuple(al)

    @cache
    def end(here, h, lk, es, al, mode):
        if h <= 0:
            return Fraction(0), Fraction(0)
        if not any(es):
            return Fraction(1), Fraction(0)
        found = [(Fraction(1), es, al)]
        for j in [j for j, a in enumerate(al) if a > 0]:
            nxt = []
            for p, es1, al1 in found:
                i = next((i for i, e in enumerate(es1) if e > 0), None)
                if i is None:
                    nxt.append((p, es1, al1))
                    continue
                a_wins, e_wins, tie = duel(allies[j][0], enemies[i][0])
                nxt.append((p * a_wins, es1[:i] + (max(0, es1[i] - to_enemy),) + es1[i + 1 :],
                            al1))  # fmt: skip
                hurt = al1[:j] + (max(0, al1[j] - to_hero),) + al1[j + 1 :]
                nxt.append((p * e_wins, es1, hurt if mode == "ally" else al1))
                nxt.append((p * tie, es1, al1))
            found = nxt
        a = b = Fraction(0)
        for p, es1, al1 in found:
            if not any(es1):
                a += p
            elif (lk, h, es1, al1) == here:
                b += p
            else:
                a += p * value(lk, h, es1, al1)
        return a, b

    @cache
    def sides(here, h, lk, es, al, mode, landing):
        """The other enemies' blows ``landing`` [(enemy, chance)] in order, then the end."""
        if not landing or h <= 0:
            return end(here, h, lk, es, al, mode)
        (_, p), rest = landing[0], landing[1:]
        miss_a, miss_b = sides(here, h, lk, es, al, mode, rest)
        if mode == "ally" and any(al):
            hit_a, hit_b = sides(here, h, lk, es, first_hurt(al, dmg(side)), mode, rest)
        else:
            options = []
            for option in wound_options(h, lk, side, wounded, to_hero):
                a = b = Fraction(0)
                for q, lk2, d in option:
                    d = dmg(to_hero) + d - to_hero if deals is not None else d
                    a2, b2 = sides(here, max(0, h - max(0, d)), lk2, es, al, mode, rest)
                    a, b = a + q * a2, b + q * b2
                options.append((a, b))
            hit_a, hit_b = choose(options, here)
        return (1 - p) * miss_a + p * hit_a, (1 - p) * miss_b + p * hit_b

    @cache
    def value(lk, h, es, al) -> Fraction:
        here = (lk, h, es, al)
        alive = [i for i, e in enumerate(es) if e > 0]
        best = Fraction(-1)
        for t in alive if target == "best" else alive[:1]:
            a = b = Fraction(0)
            for (total, double), chance in faces.items():  # the hero's roll
                hero_as = skill + total
                landing = tuple((j, beats(enemies[j][0], hero_as)) for j in alive if j != t)
                kill = fight.instant_kill_on_double and double
                if kill:
                    outcomes = [(Fraction(1), "kill")]
                else:
                    lose = beats(enemies[t][0], hero_as)
                    win = 1 - beats(enemies[t][0], hero_as - 1)
                    outcomes = [(win, "hero"), (1 - win - lose, "tie"), (lose, "enemy")]
                for q, winner in outcomes:
                    if not q:
                        continue
                    if winner == "enemy":
                        for share, mode in modes:
                            if mode == "ally" and any(al):
                                a2, b2 = sides(here, h, lk, es, first_hurt(al, dmg(to_hero)),
                                               mode, landing)  # fmt: skip
                            else:
                                options = []
                                for option in wound_options(h, lk, to_hero, wounded, to_hero):
                                    oa = ob = Fraction(0)
                                    for r, lk2, dd in option:
                                        dd = dmg(to_hero) + dd - to_hero
                                        x, y = sides(here, max(0, h - max(0, dd)), lk2, es, al,
                                                     mode, landing)  # fmt: skip
                                        oa, ob = oa + r * x, ob + r * y
                                    options.append((oa, ob))
                                a2, b2 = choose(options, here)
                            a += chance * q * share * a2
                            b += chance * q * share * b2
                        continue
                    if winner == "tie":
                        cut = [[(Fraction(1), lk, 0)]]
                    elif winner == "kill":
                        cut = [[(Fraction(1), lk, es[t])]]
                    else:
                        cut = wound_options(h, lk, to_enemy, wounding, to_enemy)
                    options = []
                    for option in cut:
                        oa = ob = Fraction(0)
                        for r, lk2, dd in option:
                            es2 = es[:t] + (max(0, es[t] - dd),) + es[t + 1 :]
                            for share, mode in modes:
                                x, y = sides(here, h, lk2, es2, al, mode, landing)
                                oa, ob = oa + r * share * x, ob + r * share * y
                        options.append((oa, ob))
                    a2, b2 = choose(options, here)
                    a += chance * q * a2
                    b += chance * q * b2
            best = max(best, a / (1 - b))
        return best

    return value(luck if use_luck else 0, stamina, tuple(e for _, e in enemies),
                 tuple(a for _, a in allies))  # fmt: skip


def _plan(enemies, deals=None):
    return ExitPlan(
        enemies=tuple((s, e, False) for s, e in enemies),
        damages=() if deals is None else (Damage("deals", None, deals),),
    )


CASES = [  # (ruleset, hero SKILL, STAMINA, LUCK, enemies, allies, target, deals)
    ("df-classic", 8, 4, 2, [(8, 2), (7, 2)], [(7, 2)], "best", None),
    ("df-classic", 7, 4, 2, [(7, 3), (8, 2)], [(8, 2)], "order", 3),
    ("df24", 8, 3, 2, [(8, 2), (8, 2)], [(7, 3)], "order", None),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("struck", MODES)
@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_dp_is_the_brute_force(case, struck, policy):
    name, skill, stamina, luck, enemies, allies, target, deals = CASES[case]
    exact = brute(name, skill, stamina, luck, enemies, allies, struck, policy, target, deals)
    plan = _plan(enemies, deals)
    found = ally_group_odds(load_ruleset(name), skill, stamina, plan, allies, struck=struck,
                            luck=luck, luck_policy=policy, target=target)  # fmt: skip
    assert found == pytest.approx(float(exact), abs=1e-12)
    assert 0 < found < 1


@pytest.mark.parametrize("struck", MODES)
def test_where_it_meets_the_other_dps(struck):
    """One enemy: the allies' DP with exits; a fallen ally: the fight at once alone."""
    ruleset = load_ruleset("df-classic")
    for policy in ("none", "best"):
        one = _plan([(8, 5)])
        assert ally_group_odds(ruleset, 8, 6, one, [(8, 4)], struck=struck, luck=4,
                               luck_policy=policy) == pytest.approx(
            ally_exit_odds(ruleset, 8, 6, one, [(8, 4)], struck=struck, luck=4,
                           luck_policy=policy), abs=1e-12)  # fmt: skip
        two = _plan([(8, 4), (7, 3)])
        assert ally_group_odds(ruleset, 8, 6, two, [(8, 0)], struck=struck, luck=4,
                               luck_policy=policy) == pytest.approx(
            group_exit_odds(ruleset, 8, 6, two, luck=4, luck_policy=policy), abs=1e-12)  # fmt: skip


def test_the_budgets_raise_too_large():
    ruleset = load_ruleset("df-classic")
    big = _plan([(9, 20), (8, 20), (7, 20)])
    with pytest.raises(GroupExitsTooLarge):
        ally_group_odds(ruleset, 8, 20, big, [(8, 12), (7, 12)], struck="random", luck=12,
                        luck_policy="best")  # fmt: skip
    with pytest.raises(GroupExitsTooLarge):
        ally_group_odds(ruleset, 8, 12, _plan([(9, 8), (8, 8)]), [(8, 6)], struck="random",
                        luck=9, luck_policy="best", seconds=0.2)  # fmt: skip


BOOK = """---
title: t
ruleset: {ruleset}
language: en
---
§ 1
> fight all at once
> enemy WOLF SKILL 8 STAMINA 5
{rules}
> enemy CUB SKILL 6 STAMINA 4
> ally BRAN SKILL 8 STAMINA 4
> ally DARA SKILL 7 STAMINA 3
{struck}
> win -> 2
§ 2
> victory
"""
STRUCK_LINES = {"hero": "", "ally": "> the enemy strikes the ally",
                "random": "> enemies strike at random"}  # fmt: skip
RUNS = 3000


@pytest.mark.parametrize(
    ("name", "struck", "rules", "stamina"),
    [
        ("df-classic", "hero", "", 6),
        ("df-classic", "ally", "> it deals 3", 4),
        ("df-classic", "random", "", 5),
        ("df24", "random", "> it deals 2", 4),
    ],
)
def test_the_dp_is_the_real_fight(name, struck, rules, stamina, tmp_path):
    """3,000 seeded fights of the real interpreter (no Luck, the first enemy standing as the
    target: the fight's default answer) win as often as the DP says, within 3 SE."""
    path = tmp_path / "book.dd"
    path.write_text(BOOK.format(ruleset=name, rules=rules, struck=STRUCK_LINES[struck]),
                    "utf-8")  # fmt: skip
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    ruleset = book.ruleset
    rehearsal = FightRehearsal(book, 0)
    spec = rehearsal.spec(fight)
    assert spec.mode == "together"
    hero = create_character(ruleset, RandomSource(0), None,
                            fixed={"SKILL": 8, "STAMINA": stamina, "LUCK": 8})  # fmt: skip
    rehearsal.equip(hero, (), None)
    deals = int(rules.split()[-1]) if rules else None
    wolves = ExitPlan(
        enemies=((8, 5, False), (6, 4, False)),
        damages=() if deals is None else (Damage("deals", 0, deals),),
    )
    p = ally_group_odds(ruleset, 8, stamina, wolves, [(8, 4), (7, 3)], struck=struck, luck=8,
                        target="order")  # fmt: skip

    class First:
        def answer(self, prompt):
            return 0 if getattr(prompt, "kind", None) != "use_luck" else False

    rng = RandomSource(11)
    wins = 0
    for _ in range(RUNS):
        character = hero.copy()
        result = rehearsal.play(fight, spec, character, rng, First())
        rng.log.clear()
        wins += result.outcome == "won"
    assert abs(wins / RUNS - p) <= 3 * math.sqrt(p * (1 - p) / RUNS) + 1e-9
    assert 0.02 < p < 0.98
