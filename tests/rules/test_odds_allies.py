"""Exact odds of FF-family fights with allies (rules/odds_allies.py), issue 14.1: the DP
against an independent exact recursion in fractions written here from the dice faces (each
whom-the-enemies-strike mode, no Luck and best Luck, several enemies in turn, two allies,
df24's instant kill and lucky 0, df48.5's armour and first-hit bonus); against a seeded
simulation of the real fight code (the interpreter's assault-by-assault fight, through
``FightRehearsal``) within 3 standard errors, the best Luck played by the table's own
choices; best Luck never below no Luck; a fallen ally changes nothing; the budgets."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import pytest
from dedale import ast
from dedale.game import fight_hooks
from dedale.game.rehearsal import FightRehearsal
from dedale.language import load_book
from dedale.rules import create_character, fight_odds, load_ruleset
from dedale.rules.odds_allies import AllyTable, ally_odds
from dedale.rules.odds_inputs import OddsTooLarge
from dedale.rules.random_source import RandomSource

PAIRS = list(itertools.product(range(1, 7), repeat=2))
MODES = ("hero", "ally", "random")


def brute(name, skill, stamina, luck, enemies, allies, struck, policy, armour=False, bonus=0):
    """The chance to win, in fractions, from the dice faces: the hero's assault (Luck on
    his wound, unless it kills whatever Luck gives); the enemy's wound goes to the first
    ally standing when the enemies strike the ally (the hero loses nothing and tests no
    Luck), else to the hero (Luck on it); a hero at 0 loses and the last enemy's death wins
    at once; then each ally standing (not one that fell taking the wound), in order,
    against the first enemy standing."""
    ruleset = load_ruleset(name)
    fight = ruleset.fight
    test = ruleset.tests[fight.luck_test]
    use_luck = policy == "best"
    to_enemy, to_hero = fight.damage_to_enemy, fight.damage_to_hero
    wounding, wounded = fight.luck_wounding, fight.luck_wounded

    def duel(a_skill: int, e_skill: int, kills: bool):
        """(kill, a wins, e wins, tie) chances of one exchange from the 36 x 36 faces."""
        counts = [0, 0, 0, 0]
        for (a, b), (c, d) in itertools.product(PAIRS, PAIRS):  # enemy (a, b), fighter (c, d)
            mine, theirs = a_skill + c + d, e_skill + a + b
            if kills and c == d:
                counts[0] += 1
            elif mine > theirs:
                counts[1] += 1
            elif theirs > mine:
                counts[2] += 1
            else:
                counts[3] += 1
        return [Fraction(n, 1296) for n in counts]

    def lucky(lk: int) -> Fraction:
        return Fraction(sum(1 for a, b in PAIRS if a + b <= lk), 36)

    def allies_part(h, lk, es, al, unhit, mode, given):
        """[(chance, ("win", h, luck) or a state)] after the hero's part (``given``: the
        enemy's wound the first ally standing takes)."""
        if h <= 0:
            return []
        if not any(es):
            return [(Fraction(1), ("win", h, lk))]
        al = list(al)
        if given:
            j = next(k for k, a in enumerate(al) if a > 0)
            al[j] = max(0, al[j] - given)
        standing = [j for j, a in enumerate(al) if a > 0]
        found = [(Fraction(1), tuple(es), tuple(al))]
        for j in standing:
            nxt = []
            for p, es1, al1 in found:
                if not any(es1):
                    nxt.append((p, es1, al1))
                    continue
                i = next(k for k, e in enumerate(es1) if e > 0)
                _, win, lose, tie = duel(allies[j][0], enemies[i][0], False)
                hit = es1[:i] + (max(0, es1[i] - to_enemy),) + es1[i + 1 :]
                nxt.append((p * win, hit, al1))
                if mode == "ally":
                    hurt = al1[:j] + (max(0, al1[j] - to_hero),) + al1[j + 1 :]
                    nxt.append((p * lose, es1, hurt))
                else:
                    nxt.append((p * lose, es1, al1))
                nxt.append((p * tie, es1, al1))
            found = nxt
        return [
            (p, ("win", h, lk) if not any(es1) else (lk, h, es1, al1, False, unhit))
            for p, es1, al1 in found
        ]

    modes = {"hero": [(1, "hero")], "ally": [(1, "ally")]}.get(
        struck, [(Fraction(1, 2), "hero"), (Fraction(1, 2), "ally")]
    )

    @cache
    def value(lk, h, es, al, first, unhit) -> Fraction:
        state = (lk, h, es, al, first, unhit)
        i = next(k for k, e in enumerate(es) if e > 0)
        e_skill, e_left = enemies[i][0], es[i]
        kill, win, lose, tie = duel(skill, e_skill, fight.instant_kill_on_double and not (
            len(enemies[i]) > 2 and enemies[i][2]))  # fmt: skip
        low, q = max(0, lk - test.cost), lucky(lk)

        def hurt_enemy(d, lk2):
            return (lk2, h, es[:i] + (max(0, e_left - d),) + es[i + 1 :])

        # per outcome: (the modes that follow it, its choices [(chance, (LUCK, STAMINA,
        # enemies, first hit to come, the wound an ally takes))])
        groups = [(modes, [[(kill, (lk, h, es[:i] + (0,) + es[i + 1 :], unhit, 0))]]),
                  (modes, [[(tie, (lk, h, es, unhit, 0))]])]  # fmt: skip
        d = to_enemy + (bonus if unhit else 0)
        choices = [[(win, hurt_enemy(d, lk) + (False, 0))]]
        if use_luck and lk > 0 and wounding is not None:
            best, worst = (max(0, d + s - to_enemy) for s in (wounding.lucky, wounding.unlucky))
            if min(best, worst) < e_left:
                choices.append([(win * q, hurt_enemy(best, low) + (False, 0)),
                                (win * (1 - q), hurt_enemy(worst, low) + (False, 0))])  # fmt: skip
        groups.append((modes, choices))
        if first and armour:
            groups.append((modes, [[(lose, (lk, h, es, unhit, 0))]]))
        else:
            for share, mode in modes:  # whom the enemies strike is known at their wound
                if mode == "ally" and any(al):  # the first ally standing takes it
                    groups.append(([(share, mode)], [[(lose, (lk, h, es, unhit, to_hero))]]))
                    continue
                choices = [[(lose, (lk, h - to_hero, es, unhit, 0))]]
                if use_luck and lk > 0 and wounded is not None:
                    best = max(0, wounded.lucky)  # to_hero + shift - to_hero
                    worst = max(0, wounded.unlucky)
                    choices.append([(lose * q, (low, h - best, es, unhit, 0)),
                                    (lose * (1 - q), (low, h - worst, es, unhit, 0))])  # fmt: skip
                groups.append(([(share, mode)], choices))
        best_value = Fraction(0)
        for combo in itertools.product(*(choices for _, choices in groups)):
            gained, stay = Fraction(0), Fraction(0)
            for (after, _), choice in zip(groups, combo, strict=True):
                for p, (lk2, h2, es2, u2, given) in choice:
                    for share, mode in after:
                        for p2, nxt in allies_part(h2, lk2, es2, al, u2, mode, given):
                            weight = p * share * p2
                            if nxt[0] == "win":
                                gained += weight
                            elif nxt == state:
                                stay += weight
                            else:
                                gained += weight * value(*nxt)
            best_value = max(best_value, gained / (1 - stay))
        return best_value

    es0 = tuple(e[1] for e in enemies)
    al0 = tuple(a[1] for a in allies)
    return value(luck if use_luck else 0, stamina, es0, al0, True, bool(bonus))


CASES = [
    ("df-classic", None, 8, 4, 3, [(8, 3), (7, 2)], [(7, 3)]),
    ("df24", None, 8, 3, 3, [(8, 3)], [(8, 3), (6, 2)]),
    ("df48.5", "Mercenaire", 8, 4, 3, [(9, 4)], [(8, 3)]),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("struck", MODES)
@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_dp_is_the_brute_force(case, struck, policy):
    name, class_name, skill, stamina, luck, enemies, allies = CASES[case]
    armour, bonus = (True, 1) if class_name else (False, 0)  # the Mercenaire's kit and ability
    exact = brute(name, skill, stamina, luck, enemies, allies, struck, policy, armour, bonus)
    found = ally_odds(
        load_ruleset(name), skill, stamina, enemies, allies, struck=struck, luck=luck,
        luck_policy=policy, class_name=class_name,
    )  # fmt: skip
    assert found.win_probability == pytest.approx(float(exact), abs=1e-12)
    assert sum(found.end_states.values()) == pytest.approx(1.0, abs=1e-9)
    assert all(0 < h <= stamina for h, _ in found.end_states)


@pytest.mark.parametrize("struck", MODES)
def test_a_fallen_ally_is_the_fight_alone(struck):
    ruleset = load_ruleset("df-classic")
    alone = fight_odds(ruleset, 9, 14, [(9, 8), (7, 4)], luck=8)
    found = ally_odds(ruleset, 9, 14, [(9, 8), (7, 4)], [(10, 0)], struck=struck, luck=8)
    assert found.win_probability == pytest.approx(alone.win_probability, abs=1e-12)
    assert found.expected_assaults == pytest.approx(alone.expected_assaults, abs=1e-9)
    for key in set(found.end_states) | set(alone.end_states):
        assert found.end_states.get(key, 0) == pytest.approx(alone.end_states.get(key, 0))


@pytest.mark.parametrize("struck", MODES)
def test_best_luck_is_never_below_no_luck(struck):
    ruleset = load_ruleset("df-classic")
    for hero, ally in [(7, (8, 6)), (9, (6, 4)), (11, (10, 8))]:
        args = (ruleset, hero, 12, [(9, 9)], [ally])
        none = ally_odds(*args, struck=struck, luck=9).win_probability
        best = ally_odds(*args, struck=struck, luck=9, luck_policy="best").win_probability
        assert best >= none - 1e-12
    # and the ally helps: the same fight alone is worse
    assert fight_odds(ruleset, 7, 12, [(9, 9)], luck=9).win_probability < none


def test_the_budgets_raise_too_large():
    ruleset = load_ruleset("df-classic")
    with pytest.raises(OddsTooLarge):
        ally_odds(ruleset, 9, 24, [(9, 400)], [(8, 30)], struck="ally", luck=12,
                  luck_policy="best")  # fmt: skip
    with pytest.raises(OddsTooLarge):
        ally_odds(ruleset, 9, 20, [(9, 12)], [(8, 10)], struck="ally", luck=10,
                  luck_policy="best", seconds=0.0)  # fmt: skip


# ------------------------------------------------------------------ the real fight code

BOOK = """---
title: t
ruleset: {ruleset}
language: en
---
§ 1
> fight
> enemy OGRE SKILL 9 STAMINA 6
> enemy GOBLIN SKILL 6 STAMINA 3
{allies}
{struck}
> win -> 2
§ 2
> victory
"""
STRUCK_LINES = {
    "hero": "",
    "ally": "> the enemy strikes the ally",
    "random": "> enemies strike at random",
}
RUNS = 3000


class _Decider:
    """Answers the fight's Luck questions with the table's best choices (the allies'
    STAMINA read from the fight's own hooks), or never tests Luck."""

    def __init__(self, table: AllyTable | None, hooks: list, health: str) -> None:
        self.table, self.hooks, self.health = table, hooks, health

    def answer(self, prompt):
        if getattr(prompt, "kind", None) != "use_luck" or self.table is None:
            return False
        p = dict(prompt.params)
        allies = [ally.stats[self.health] for ally in self.hooks[-1].allies]
        return self.table.tests_luck(
            p["wound"], p["damage"], p["luck"], p["hero"], p["enemy_index"], p["enemy"],
            allies, not p["hit"],
        )  # fmt: skip


BRAN = [(8, 5)]
# a weak hero and two allies, the first falling soon: the wound an ally takes cannot kill
# the hero, and the second ally strikes in the assault the first falls
WEAK = [(8, 2), (7, 4)]


@pytest.mark.parametrize(
    ("name", "class_name", "struck", "policy", "mode", "allies", "stamina"),
    [
        ("df-classic", None, "hero", "none", "sequence", BRAN, 8),
        ("df-classic", None, "ally", "best", "sequence", BRAN, 8),
        ("df-classic", None, "random", "best", "sequence", BRAN, 8),
        ("df-classic", None, "ally", "best", "as_one", BRAN, 8),
        ("df24", None, "ally", "none", "sequence", BRAN, 8),
        ("df48.5", "Mercenaire", "random", "best", "sequence", BRAN, 8),
        ("df-classic", None, "ally", "best", "sequence", WEAK, 2),
        ("df-classic", None, "random", "none", "sequence", WEAK, 3),
    ],
)
def test_the_dp_is_the_real_fight(
    tmp_path, monkeypatch, name, class_name, struck, policy, mode, allies, stamina
):
    path = tmp_path / "book.dd"
    lines = "\n".join(
        f"> ally {who} SKILL {a} STAMINA {b}"
        for who, (a, b) in zip(("BRAN", "DARA"), allies, strict=False)
    )
    text = BOOK.format(ruleset=name, struck=STRUCK_LINES[struck], allies=lines)
    if mode == "as_one":
        text = text.replace("> fight\n", "> fight as one\n")
    path.write_text(text, "utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    ruleset = book.ruleset
    health = ruleset.fight.health
    rehearsal = FightRehearsal(book, 0)
    spec = rehearsal.spec(fight)
    hero = create_character(ruleset, RandomSource(0), class_name,
                            fixed={"SKILL": 8, "STAMINA": stamina, "LUCK": 8})  # fmt: skip
    rehearsal.equip(hero, (), None)
    luck_stat = ruleset.tests[ruleset.fight.luck_test].stat
    table = AllyTable(
        ruleset, hero.stats["SKILL"], [(9, 6), (6, 3)], allies, struck=struck,
        luck_policy=policy, class_name=class_name, mode=mode,
    )  # fmt: skip
    assert spec.mode == ("as_one" if mode == "as_one" else "sequence")
    exact = table.solve(hero.stats[health], hero.stats[luck_stat])
    hooks: list = []
    original = fight_hooks.ExtrasHooks.__init__

    def keep(self, *args, **kwargs):
        original(self, *args, **kwargs)
        hooks.append(self)

    monkeypatch.setattr(fight_hooks.ExtrasHooks, "__init__", keep)
    decider = _Decider(table if policy == "best" else None, hooks, health)
    rng = RandomSource(20261207)
    wins, ends = 0, 0
    for _ in range(RUNS):
        character = hero.copy()
        result = rehearsal.play(fight, spec, character, rng, decider)
        rng.log.clear()
        if result.outcome == "won":
            wins += 1
            ends += character.stats[health]
    p = exact.win_probability
    assert abs(wins / RUNS - p) <= 3 * math.sqrt(p * (1 - p) / RUNS) + 1e-9
    # the hero's STAMINA after a win: its mean within 3 SE of the exact distribution's
    mean = sum(h * q for (h, _), q in exact.end_states.items())
    spread = sum((h - mean) ** 2 * q for (h, _), q in exact.end_states.items())
    assert abs(ends / wins - mean) <= 3 * math.sqrt(spread / wins) + 1e-9


def test_one_table_answers_weaker_heroes():
    """A table filled for a hero answers any hero with less STAMINA and LUCK (the path of
    fights and the solver start the same fight from many states)."""
    ruleset = load_ruleset("df-classic")
    table = AllyTable(ruleset, 9, [(9, 8)], [(8, 6)], struck="ally", luck_policy="best")
    table.solve(14, 9)
    for stamina, luck in [(14, 9), (7, 3), (1, 0)]:
        fresh = ally_odds(ruleset, 9, stamina, [(9, 8)], [(8, 6)], struck="ally", luck=luck,
                          luck_policy="best")  # fmt: skip
        found = table.solve(stamina, luck)
        assert found.win_probability == pytest.approx(fresh.win_probability, abs=1e-12)
        assert found.end_states == pytest.approx(fresh.end_states)


def test_huge_values_are_refused_before_any_allocation():
    """Values an author typed (an enemy or ally of 10^9 STAMINA) never size an allocation."""
    ruleset = load_ruleset("df-classic")
    for enemies, allies in [([(9, 10**9)], [(8, 10)]), ([(9, 12)], [(8, 10**9)])]:
        with pytest.raises(OddsTooLarge):
            ally_odds(ruleset, 9, 20, enemies, allies, struck="ally", luck=9)


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("struck", MODES)
def test_the_vector_fill_is_the_scalar_fill(monkeypatch, case, struck):
    """The best-Luck table filled with numpy over LUCK (rules/odds_allies_fill.py, df24's
    lucky wound of 0 LUCK by LUCK) equals the scalar loop, cell by cell."""
    from dedale.rules import odds_allies

    name, class_name, skill, stamina, luck, enemies, allies = CASES[case]
    options = dict(struck=struck, luck_policy="best", class_name=class_name)
    ruleset = load_ruleset(name)
    quick = AllyTable(ruleset, skill, enemies, allies, **options)
    a = quick.solve(stamina + 3, luck + 4)
    with monkeypatch.context() as patch:
        patch.setattr(odds_allies, "VECTOR", False)
        slow = AllyTable(ruleset, skill, enemies, allies, **options)
        b = slow.solve(stamina + 3, luck + 4)
    assert isinstance(quick.values, list) and len(quick.values) == len(slow.values)
    assert quick.values == pytest.approx(slow.values, abs=1e-12)
    assert a.win_probability == pytest.approx(b.win_probability, abs=1e-12)
    assert a.end_states == pytest.approx(b.end_states, abs=1e-12)


@pytest.mark.parametrize("vector", [True, False])
def test_luck_is_tested_by_the_relative_tie_rule(monkeypatch, vector):
    """Testing Luck is compared with the relative tie rule of rules/odds.py (``luck_gains``),
    as the other DPs do: in a hopeless fight (a chance of about 4e-20) the best Luck is
    still the exact maximum (relative error below 1e-9 against the fractions), where an
    absolute 1e-15 saw ties everywhere (7e-4 off)."""
    from dedale.rules import odds_allies

    monkeypatch.setattr(odds_allies, "VECTOR", vector)
    ruleset = load_ruleset("df-classic")
    args = (ruleset, 3, 2, [(12, 14)], [(3, 2)])
    exact = brute("df-classic", 3, 2, 2, [(12, 14)], [(3, 2)], "ally", "best")
    none = ally_odds(*args, struck="ally", luck=2, win_only=True).win_probability
    best = ally_odds(*args, struck="ally", luck=2, luck_policy="best", win_only=True)
    assert 0 < none < 1e-18 and best.win_probability > 10 * none
    assert abs(best.win_probability - float(exact)) <= 1e-9 * float(exact)
