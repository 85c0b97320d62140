"""The array table of fights at once (rules/odds_group_fast.py, _walk, _flow), issue 14.1/14.5:
the same values, end states and assaults as the scalar table on small line-ups of every
ruleset's semantics; best Luck against an independent exact expectimax in fractions (every
Luck choice of the reader taken at its best, from the dice faces up) to 1e-9; best Luck
never below no Luck; the size and time bounds."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest
from dedale.rules import fight_odds, load_ruleset
from dedale.rules import odds_group_fast as fast
from dedale.rules.odds_group import GroupTable
from dedale.rules.odds_inputs import OddsTooLarge

pytest.importorskip("numpy")

SETTINGS = [("df-classic", None), ("df24", None), ("df48.5", "Mercenaire")]
LINE_UPS = [[(8, 3), (7, 2)], [(8, 2), (7, 2), (6, 2, True)], [(7, 2), (7, 2), (7, 3)]]


def _scalar(monkeypatch, ruleset, skill, enemies, **options) -> GroupTable:
    with monkeypatch.context() as patch:
        patch.setattr(fast, "np", None)
        table = GroupTable(ruleset, skill, enemies, luck_work=10**9, **options)
        table.start(7, 4)
    return table


@pytest.mark.parametrize(("name", "class_name"), SETTINGS)
@pytest.mark.parametrize("target", ["order", "best"])
@pytest.mark.parametrize("policy", ["none", "best"])
@pytest.mark.parametrize("line_up", range(len(LINE_UPS)))
def test_the_array_table_is_the_scalar_table(
    monkeypatch, name, class_name, target, policy, line_up
):
    ruleset = load_ruleset(name)
    enemies = LINE_UPS[line_up]
    options = dict(luck_policy=policy, target=target, class_name=class_name)
    slow = _scalar(monkeypatch, ruleset, 9, enemies, **options)
    quick = GroupTable(ruleset, 9, enemies, **options)
    a, b = slow.solve(7, 4), quick.solve(7, 4)
    assert isinstance(quick.values, fast.FastValues)
    assert not isinstance(slow.values, fast.FastValues)
    for state, value in slow.values.items():
        if not state[3]:
            assert quick.values[state] == pytest.approx(value, abs=1e-12), state
    assert b.win_probability == pytest.approx(a.win_probability, abs=1e-12)
    assert b.expected_assaults == pytest.approx(a.expected_assaults, abs=1e-9)
    for key in set(a.end_states) | set(b.end_states):
        assert b.end_states.get(key, 0) == pytest.approx(a.end_states.get(key, 0), abs=1e-12)
    assert all(isinstance(h, int) and isinstance(lk, int) for h, lk in b.end_states)


def _expectimax(name: str, skill: int, stamina: int, luck: int, enemies, best_target: bool):
    """The chance to win with the reader's best Luck, in fractions, from the dice faces:
    each assault the hero picks a target, both roll 2d6, the target's duel is resolved
    (Luck on the wound, knowing the roll), then every other living enemy rolls and may
    strike (Luck on each blow, in order, knowing the blows so far)."""
    ruleset = load_ruleset(name)
    fight = ruleset.fight
    cost = ruleset.tests[fight.luck_test].cost
    faces = list(itertools.product(range(1, 7), repeat=2))
    sums: dict[int, int] = {}
    hero_rolls: dict[tuple[int, bool], int] = {}  # (sum, a double?) -> faces
    for a, b in faces:
        sums[a + b] = sums.get(a + b, 0) + 1
        hero_rolls[a + b, a == b] = hero_rolls.get((a + b, a == b), 0) + 1
    skills = [e[0] for e in enemies]
    immune = [len(e) > 2 and e[2] for e in enemies]

    def lucky(luck_now: int) -> Fraction:
        return Fraction(sum(1 for a, b in faces if a + b <= luck_now), 36)

    def options(damage: int, table, base: int, luck_now: int):
        """[(chance, damage, luck after)] per choice: take it, or test Luck."""
        found = [[(Fraction(1), damage, luck_now)]]
        if luck_now > 0:
            q = lucky(luck_now)
            low = max(0, luck_now - cost)
            found.append([
                (q, max(0, damage + table.lucky - base), low),
                (1 - q, max(0, damage + table.unlucky - base), low),
            ])  # fmt: skip
        return found

    def strikes(skill_now: int, hero: int) -> Fraction:
        return Fraction(sum(n for s, n in sums.items() if skill_now + s > hero), 36)

    @cache
    def blows(h1: int, l1: int, es1: tuple, sides: tuple, hero: int, home: tuple):
        """(value, chance of being back at ``home``) after the other enemies' blows."""
        if h1 <= 0:
            return Fraction(0), Fraction(0)
        if not sides:
            if (h1, l1, es1) == home:
                return Fraction(0), Fraction(1)  # the same state again
            return value(h1, l1, es1), Fraction(0)
        p = strikes(skills[sides[0]], hero)
        v, back = blows(h1, l1, es1, sides[1:], hero, home)
        choices = options(fight.together_damage, fight.luck_wounded, fight.damage_to_hero, l1)
        hit = max(
            sum(q * blows(h1 - dmg, l2, es1, sides[1:], hero, home)[0] for q, dmg, l2 in o)
            for o in choices
        )
        return (1 - p) * v + p * hit, (1 - p) * back

    @cache
    def value(h: int, lk: int, es: tuple) -> Fraction:
        if h <= 0:
            return Fraction(0)
        if not any(es):
            return Fraction(1)
        alive = [i for i, e in enumerate(es) if e > 0]
        best = Fraction(0)
        home = (h, lk, es)
        for t in alive if best_target else alive[:1]:
            rest, stay = Fraction(0), Fraction(0)
            sides = tuple(j for j in alive if j != t)
            for (roll, double), count in hero_rolls.items():
                hero = skill + roll
                for enemy_roll, n in sums.items():
                    enemy = skills[t] + enemy_roll
                    w = Fraction(count * n, 36 * 36)
                    if fight.instant_kill_on_double and double and not immune[t]:
                        v, s = blows(h, lk, es[:t] + (0,) + es[t + 1 :], sides, hero, home)
                    elif hero > enemy:
                        choices = options(fight.damage_to_enemy, fight.luck_wounding,
                                          fight.damage_to_enemy, lk)  # fmt: skip
                        v = max(
                            sum(
                                q
                                * blows(
                                    h,
                                    l2,
                                    es[:t] + (max(0, es[t] - dmg),) + es[t + 1 :],
                                    sides,
                                    hero,
                                    home,
                                )[0]  # fmt: skip
                                for q, dmg, l2 in o
                            )
                            for o in choices
                        )
                        s = Fraction(0)
                    elif enemy > hero:
                        choices = options(fight.damage_to_hero, fight.luck_wounded,
                                          fight.damage_to_hero, lk)  # fmt: skip
                        v = max(sum(q * blows(h - dmg, l2, es, sides, hero, home)[0]
                                    for q, dmg, l2 in o) for o in choices)  # fmt: skip
                        s = Fraction(0)
                    else:
                        v, s = blows(h, lk, es, sides, hero, home)
                    rest, stay = rest + w * v, stay + w * s
            best = max(best, rest / (1 - stay))
        return best

    return value(stamina, luck, tuple(e[1] for e in enemies))


@pytest.mark.parametrize("name", ["df-classic", "df24"])
@pytest.mark.parametrize("best_target", [False, True])
@pytest.mark.parametrize("enemies", [[(8, 2), (7, 1)], [(8, 2), (7, 1), (6, 2, True)]])
def test_best_luck_at_once_is_the_independent_expectimax(name, best_target, enemies):
    exact = _expectimax(name, 8, 3, 2, enemies, best_target)
    table = GroupTable(
        load_ruleset(name), 8, enemies, luck_policy="best",
        target="best" if best_target else "order",
    )  # fmt: skip
    assert isinstance(table.values, dict)  # (not filled yet)
    assert table.win_probability(3, 2) == pytest.approx(float(exact), abs=1e-9)
    assert isinstance(table.values, fast.FastValues)


def test_best_luck_is_never_below_no_luck_at_once():
    for name, class_name in SETTINGS:
        ruleset = load_ruleset(name)
        for enemies in LINE_UPS:
            for target in ("order", "best"):
                for stamina, luck in ((4, 2), (10, 9)):
                    odds = {
                        policy: fight_odds(
                            ruleset, 9, stamina, enemies, luck=luck, luck_policy=policy,
                            mode="together", target=target, class_name=class_name,
                            win_only=True,
                        ).win_probability
                        for policy in ("none", "best")
                    }  # fmt: skip
                    assert odds["none"] - 1e-12 <= odds["best"] <= 1.0 + 1e-12


def test_three_enemies_of_six_to_eight_stamina_are_exact_with_best_luck():
    ruleset = load_ruleset("df-classic")
    enemies = [(7, 6), (8, 7), (9, 8)]
    best = fight_odds(ruleset, 10, 20, enemies, luck=9, luck_policy="best", mode="together")
    none = fight_odds(ruleset, 10, 20, enemies, luck=9, mode="together")
    assert 0 < none.win_probability < best.win_probability < 1
    assert sum(best.end_states.values()) == pytest.approx(1.0)


def test_the_size_and_time_bounds_refuse_before_a_long_fill(monkeypatch):
    ruleset = load_ruleset("df-classic")
    table = GroupTable(ruleset, 9, [(8, 6), (8, 7), (9, 8)], luck_policy="best")
    table.seconds = 0.0  # past the bound after the first level
    with pytest.raises(OddsTooLarge) as error:
        table.win_probability(20, 9)
    assert "seconds" in error.value.message
    monkeypatch.setattr(fast, "FAST_CELLS", 1_000)  # too large for the arrays: the scalar
    with pytest.raises(OddsTooLarge) as error:  # table's own budget refuses
        fight_odds(ruleset, 9, 20, [(8, 6), (8, 7)], luck=9, luck_policy="best",
                   mode="together", win_only=True, luck_work=2_000)  # fmt: skip
    assert "best Luck" in error.value.message
