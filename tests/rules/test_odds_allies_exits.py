"""Exact odds of fights with allies and exits or rules under the enemy
(rules/odds_allies_exits.py, issue 14.1): an exact recursion in fractions written here from
the dice faces, and seeded fights of the real interpreter (the book's hooks)."""

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
from dedale.rules.odds_allies import ally_odds
from dedale.rules.odds_allies_exits import ally_exit_odds
from dedale.rules.odds_exits import Damage, ExitOddsTooLarge, ExitPlan
from dedale.rules.random_source import RandomSource

PAIRS = list(itertools.product(range(1, 7), repeat=2))
MODES = ("hero", "ally", "random")


def duel(a_skill: int, e_skill: int, kills: bool) -> list[Fraction]:
    """(kill, a wins, e wins, tie) of one exchange from the 36 x 36 faces."""
    counts = [0, 0, 0, 0]
    for (a, b), (c, d) in itertools.product(PAIRS, PAIRS):
        mine, theirs = a_skill + c + d, e_skill + a + b
        if kills and c == d:
            counts[0] += 1
        else:
            counts[1 if mine > theirs else 2 if theirs > mine else 3] += 1
    return [Fraction(n, 1296) for n in counts]


def brute(name, skill, stamina, luck, enemies, allies, struck, policy, *, limit=None,
          threshold=None, win=None, deals=None, attack=0, escape=None) -> Fraction:  # fmt: skip
    """The chance to leave the fight alive, in fractions. Each assault: the hero's (attack
    ``attack`` more; Luck on each wound with the best policy); the enemy's wound (``deals``
    in place of the ruleset's) goes to the first ally standing when the enemies strike the
    ally (no Luck; ``random``: 1/2, known at the wound), else to the hero; the hero at 0
    loses, the last enemy's death wins; each ally standing then against the first enemy
    standing (the ruleset's damage, the ally wounded only when struck); then the threshold
    (hero STAMINA at most ``threshold``) and ``win`` assaults won (the hero's wounds) leave
    alive; before an assault, ``limit`` assaults fought leave alive, and from ``escape``
    assaults on the hero may flee (the ruleset's wound, Luck on it), if that is better."""
    ruleset = load_ruleset(name)
    fight = ruleset.fight
    test = ruleset.tests[fight.luck_test]
    use_luck = policy == "best"
    to_enemy, base_hurt = fight.damage_to_enemy, fight.damage_to_hero
    hurt = base_hurt if deals is None else deals
    wounding, wounded = fight.luck_wounding, fight.luck_wounded
    cap = max(limit or 0, escape or 0, 1)
    modes = {"hero": [(1, "hero")], "ally": [(1, "ally")]}.get(
        struck, [(Fraction(1, 2), "hero"), (Fraction(1, 2), "ally")]
    )

    def lucky(lk: int) -> Fraction:
        return Fraction(sum(1 for a, b in PAIRS if a + b <= lk), 36)

    def shifted(d: int, table, plain: int) -> tuple[int, int]:
        return max(0, d + table.lucky - plain), max(0, d + table.unlucky - plain)

    def first(es):
        return next((i for i, e in enumerate(es) if e > 0), None)

    def rest(k, lk, h, es, al, won, dealt, mode, given):
        """[(chance, 1 (alive out) / 0 (dead) / the next state)] after the hero's part."""
        if h <= 0:
            return [(Fraction(1), 0)]
        won = min(won + 1, (win or 0) + 1) if dealt and win is not None else won
        if first(es) is None:
            return [(Fraction(1), 1)]
        al = list(al)
        if given:
            j = next(j for j, a in enumerate(al) if a > 0)
            al[j] = max(0, al[j] - given)
        found = [(Fraction(1), es, tuple(al))]
        for j in [j for j, a in enumerate(al) if a > 0]:
            nxt = []
            for p, es1, al1 in found:
                i = first(es1)
                if i is None:
                    nxt.append((p, es1, al1))
                    continue
                _, a_wins, e_wins, tie = duel(allies[j][0], enemies[i][0], False)
                nxt.append((p * a_wins, es1[:i] + (max(0, es1[i] - to_enemy),) + es1[i + 1 :],
                            al1))  # fmt: skip
                if mode == "ally":
                    hurt_ally = al1[:j] + (max(0, al1[j] - base_hurt),) + al1[j + 1 :]
                    nxt.append((p * e_wins, es1, hurt_ally))
                else:
                    nxt.append((p * e_wins, es1, al1))
                nxt.append((p * tie, es1, al1))
            found = nxt
        out = []
        for p, es1, al1 in found:
            if first(es1) is None:
                out.append((p, 1))
            elif threshold is not None and h <= threshold:
                out.append((p, 1))
            elif win is not None and won >= win:
                out.append((p, 1))
            else:
                out.append((p, (k, lk, h, es1, al1, won)))
        return out

    def flee(lk: int, h: int) -> Fraction:
        d = fight.escape_damage
        best = Fraction(int(h > d))
        if use_luck and fight.escape_luck and lk > 0:
            good, bad = shifted(d, wounded, base_hurt)
            q = lucky(lk)
            best = max(best, q * int(h > good) + (1 - q) * int(h > bad))
        return best

    @cache
    def value(k, lk, h, es, al, won) -> Fraction:
        if limit is not None and k >= limit:
            return Fraction(1)
        away = flee(lk, h) if escape is not None and k >= escape else Fraction(0)
        state = (k, lk, h, es, al, won)
        i = first(es)
        kill, h_wins, e_wins, tie = duel(skill + attack, enemies[i][0],
                                          fight.instant_kill_on_double)  # fmt: skip
        low, q = max(0, lk - test.cost), lucky(lk)
        k2 = min(k + 1, cap)
        hit = es[:i] + (0,) + es[i + 1 :]
        # groups: (the modes after it, its choices [(chance, (luck, h, es, dealt, given))])
        groups = [(modes, [[(kill, (lk, h, hit, es[i], 0))]]),
                  (modes, [[(tie, (lk, h, es, 0, 0))]])]  # fmt: skip

        def wound(d, lk2):
            return (lk2, h, es[:i] + (max(0, es[i] - d),) + es[i + 1 :], min(d, es[i]), 0)

        choices = [[(h_wins, wound(to_enemy, lk))]]
        if use_luck and lk > 0:
            good, bad = shifted(to_enemy, wounding, to_enemy)
            choices.append([(h_wins * q, wound(good, low)), (h_wins * (1 - q), wound(bad, low))])
        groups.append((modes, choices))
        for share, mode in modes:
            if mode == "ally" and any(al):
                groups.append(([(share, mode)], [[(e_wins, (lk, h, es, 0, hurt))]]))
                continue
            choices = [[(e_wins, (lk, h - hurt, es, 0, 0))]]
            if use_luck and lk > 0:
                good, bad = shifted(base_hurt, wounded, base_hurt)
                good, bad = hurt - base_hurt + good, hurt - base_hurt + bad  # rebased
                choices.append([(e_wins * q, (low, h - max(0, good), es, 0, 0)),
                                (e_wins * (1 - q), (low, h - max(0, bad), es, 0, 0))])  # fmt: skip
            groups.append(([(share, mode)], choices))
        best = Fraction(0)
        for combo in itertools.product(*(choices for _, choices in groups)):
            gained = stay = Fraction(0)
            for (after, _), choice in zip(groups, combo, strict=True):
                for p, (lk2, h2, es2, dealt, given) in choice:
                    for share, mode in after:
                        for p2, nxt in rest(k2, lk2, h2, es2, al, won, dealt, mode, given):
                            weight = p * share * p2
                            if nxt == state:
                                stay += weight
                            elif isinstance(nxt, int):
                                gained += weight * nxt
                            else:
                                gained += weight * value(*nxt)
            best = max(best, gained / (1 - stay))
        return max(away, best)

    return value(0, luck if use_luck else 0, stamina, tuple(e for _, e in enemies),
                 tuple(a for _, a in allies), 0)  # fmt: skip


def plan(enemies, *, limit=None, threshold=None, win=None, deals=None, attack=0, escape=None):
    return ExitPlan(
        enemies=tuple((s, e, False) for s, e in enemies),
        damages=() if deals is None else (Damage("deals", None, deals),),
        attacks=() if not attack else ((None, attack, None),),
        limit=limit, threshold=threshold, win_assaults=win, escape_after=escape,
    )  # fmt: skip


CASES = [  # (ruleset, hero SKILL, STAMINA, LUCK, enemies, allies, ways out and rules)
    ("df-classic", 8, 4, 3, [(8, 4)], [(7, 3)], {"limit": 3}),
    ("df-classic", 7, 5, 2, [(8, 3), (7, 2)], [(7, 2), (6, 2)], {"deals": 3, "attack": 1}),
    ("df-classic", 8, 6, 2, [(9, 5)], [(8, 3)], {"threshold": 2, "deals": 3}),
    ("df-classic", 7, 3, 3, [(8, 6)], [(7, 3)], {"win": 2, "escape": 2}),
    ("df24", 8, 4, 3, [(8, 4)], [(7, 3)], {"limit": 4, "deals": 2}),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("struck", MODES)
@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_dp_is_the_brute_force(case, struck, policy):
    name, skill, stamina, luck, enemies, allies, extra = CASES[case]
    exact = brute(name, skill, stamina, luck, enemies, allies, struck, policy, **extra)
    found = ally_exit_odds(load_ruleset(name), skill, stamina, plan(enemies, **extra), allies,
                           struck=struck, luck=luck, luck_policy=policy)  # fmt: skip
    assert found == pytest.approx(float(exact), abs=1e-12)
    assert found > 0


@pytest.mark.parametrize("struck", MODES)
def test_without_exits_it_is_the_plain_ally_dp(struck):
    """No way out and no rule: the same chance as rules/odds_allies.py (another DP)."""
    ruleset = load_ruleset("df-classic")
    enemies, allies = [(8, 6), (7, 4)], [(8, 4), (6, 3)]
    for policy in ("none", "best"):
        plain = ally_odds(ruleset, 8, 9, enemies, allies, struck=struck, luck=5,
                          luck_policy=policy, win_only=True).win_probability  # fmt: skip
        found = ally_exit_odds(ruleset, 8, 9, plan(enemies), allies, struck=struck, luck=5,
                               luck_policy=policy)  # fmt: skip
        assert found == pytest.approx(plain, abs=1e-12)


def test_the_budgets_raise_too_large():
    ruleset = load_ruleset("df-classic")
    with pytest.raises(ExitOddsTooLarge):
        ally_exit_odds(ruleset, 8, 20, plan([(9, 30)], limit=40), [(8, 12), (7, 12)],
                       struck="random", luck=12, luck_policy="best", seconds=0.2)  # fmt: skip


BOOK = """---
title: t
ruleset: {ruleset}
language: en
---
§ 1
> fight
> enemy OGRE SKILL 9 STAMINA 6
{rules}
> enemy GOBLIN SKILL 6 STAMINA 3
> ally BRAN SKILL 8 STAMINA 4
> ally DARA SKILL 7 STAMINA 3
{struck}
{exits}
> win -> 2
§ 2
> victory
§ 3
> victory
"""
STRUCK_LINES = {"hero": "", "ally": "> the enemy strikes the ally",
                "random": "> enemies strike at random"}  # fmt: skip
RUNS = 3000


@pytest.mark.parametrize(
    ("name", "struck", "rules", "exits", "extra", "stamina"),
    [
        ("df-classic", "random", "", "> not won after 5 assaults -> 3", {"limit": 5}, 4),
        ("df-classic", "random", "> it deals 3", "> after 2 assaults won -> 3",
         {"win": 2}, 8),
        ("df-classic", "random", "> it deals 3\n> against it: attack +1",
         "> when your STAMINA falls to 2 or less -> 3", {"threshold": 2}, 6),
        ("df24", "hero", "> it deals 2", "> not won after 4 assaults -> 3", {"limit": 4}, 5),
    ],
)  # fmt: skip
def test_the_dp_is_the_real_fight(name, struck, rules, exits, extra, stamina, tmp_path):
    """3,000 seeded fights of the real interpreter (no Luck) leave alive as often as the
    DP says, within 3 standard errors."""
    path = tmp_path / "book.dd"
    path.write_text(BOOK.format(ruleset=name, rules=rules, struck=STRUCK_LINES[struck],
                                exits=exits), "utf-8")  # fmt: skip
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    ruleset = book.ruleset
    rehearsal = FightRehearsal(book, 0)
    spec = rehearsal.spec(fight)
    hero = create_character(ruleset, RandomSource(0), None,
                            fixed={"SKILL": 8, "STAMINA": stamina, "LUCK": 8})  # fmt: skip
    rehearsal.equip(hero, (), None)
    deals = 3 if "deals 3" in rules else 2 if "deals 2" in rules else None
    ogre = ExitPlan(
        enemies=((9, 6, False), (6, 3, False)),
        damages=() if deals is None else (Damage("deals", 0, deals),),
        attacks=((0, 1, None),) if "attack +1" in rules else (),
        limit=extra.get("limit"), threshold=extra.get("threshold"),
        win_assaults=extra.get("win"),
    )  # fmt: skip
    p = ally_exit_odds(ruleset, 8, stamina, ogre, [(8, 4), (7, 3)], struck=struck, luck=8)
    p = min(1.0, p)

    class Never:
        def answer(self, prompt):
            return False

    rng = RandomSource(20261207)
    alive = 0
    for _ in range(RUNS):
        character = hero.copy()
        result = rehearsal.play(fight, spec, character, rng, Never())
        rng.log.clear()  # an event's wound that kills ends the game: the hero is dead
        alive += result.outcome != "lost" and character.stats["STAMINA"] > 0
    assert abs(alive / RUNS - p) <= 3 * math.sqrt(p * (1 - p) / RUNS) + 1e-9
    assert 0.02 < p < 0.98  # a fight whose outcome is in doubt


EVENTS = """---
title: t
ruleset: df-classic
language: en
rules:
  counters:
    bites: {{initial: 0}}
---
§ 1
> fight
> enemy OGRE SKILL 9 STAMINA 8
> when it wins an assault: gain 1 bites
> on a double: its SKILL -2
> when you win an assault: lose 1 STAMINA
> ally BRAN SKILL 8 STAMINA 4
> ally DARA SKILL 7 STAMINA 3
{struck}
> end the fight when bites >= 5 -> 3
> win -> 2
§ 2
> victory
§ 3
> victory
"""


@pytest.mark.parametrize("struck", MODES)
def test_events_with_allies_are_the_real_fight(struck, tmp_path):
    """Events under the enemy (a counter and an exit on it, its SKILL on a double, the
    hero's STAMINA) with allies, read by the validator's plan (plan_of): 3,000 seeded fights
    of the real interpreter leave alive as often as the DP says, within 3 SE."""
    from dedale.validator.fight_plan import plan_of

    path = tmp_path / "book.dd"
    path.write_text(EVENTS.format(struck=STRUCK_LINES[struck]), "utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    ruleset = book.ruleset
    rehearsal = FightRehearsal(book, 0)
    spec = rehearsal.spec(fight)
    hero = create_character(ruleset, RandomSource(0), None,
                            fixed={"SKILL": 8, "STAMINA": 5, "LUCK": 8})  # fmt: skip
    rehearsal.equip(hero, (), None)
    ogre = plan_of(fight, ruleset, ((9, 8, False),), dict(hero.stats), allies=True)
    assert ogre.events and ogre.exits
    p = min(1.0, ally_exit_odds(ruleset, 8, 5, ogre, [(8, 4), (7, 3)], struck=struck, luck=8))

    class Never:
        def answer(self, prompt):
            return False

    rng = RandomSource(7)
    alive = 0
    for _ in range(RUNS):
        character = hero.copy()
        result = rehearsal.play(fight, spec, character, rng, Never())
        rng.log.clear()  # an event's wound that kills ends the game: the hero is dead
        alive += result.outcome != "lost" and character.stats["STAMINA"] > 0
    assert abs(alive / RUNS - p) <= 3 * math.sqrt(p * (1 - p) / RUNS) + 1e-9
    assert 0.02 < p < 0.98
