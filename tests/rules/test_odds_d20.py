"""Exact odds of d20 fights (rules/odds_d20): against a seeded simulation of the real fight
code (within 3 SE), an independent exact computation in fractions (1e-9), hand cases."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from dedale.rules import (
    Character,
    EnemySpec,
    FightSpec,
    RandomSource,
    drive,
    load_ruleset,
    run_fight,
)
from dedale.rules.fight_d20 import fighters
from dedale.rules.odds_d20 import D20Engine, D20OddsTooLarge, d20_odds
from dedale.rules.odds_d20_attack import attack_law
from dedale.rules.odds_d20_duel import DuelTable

RULESET = load_ruleset("d20")
SAMPLES = 6000


def hero(hp: int = 12, items=None, **stats) -> Character:
    values = {"FOR": 14, "DEX": 12, "CON": 10, "INT": 10, "SAG": 10, "CHA": 10, "ACTION": 3,
              "HP": hp}  # fmt: skip
    values.update(stats)
    kit = items if items is not None else {"épée": 1, "cuir": 1}
    return Character(stats=dict(values), initial=dict(values), items=dict(kit))


def enemy(name="Guard", weapon="1d6", **stats) -> EnemySpec:
    values = {"AC": 13, "attack": 3, "HP": 10}
    values.update(stats)
    return EnemySpec(name, values, weapon=weapon)


class FirstTarget:
    """The fight's prompts answered as the order policy does: the first enemy, no escape."""

    def answer(self, prompt):
        return 0 if hasattr(prompt, "enemies") else False


def simulate(character: Character, spec: FightSpec, seed: int = 7) -> dict[str, float]:
    """Outcome frequencies of the real fight code, seeded."""
    rng = RandomSource(seed)
    counts: dict[str, int] = {}
    hp_total = 0
    for _ in range(SAMPLES):
        fighter = character.copy()
        result = drive(run_fight(RULESET, fighter, rng, spec, emit=False), FirstTarget())
        rng.log.clear()
        counts[result.outcome] = counts.get(result.outcome, 0) + 1
        if result.outcome == "won":
            hp_total += fighter.stats["HP"]
    found = {way: count / SAMPLES for way, count in counts.items()}
    found["hp_after_win"] = hp_total / max(1, counts.get("won", 0))
    return found


def within_3se(exact: float, estimate: float) -> bool:
    se = math.sqrt(max(exact * (1 - exact), 1e-12) / SAMPLES)
    return abs(exact - estimate) <= 3 * se + 1e-12


LINE_UPS = {
    # both sides miss often: most blows are ripostes
    "riposte-heavy": (hero(), FightSpec((enemy(AC=18, attack=-2, HP=8),))),
    # RD 9 stops every ordinary blow of a sword: only natural 20s wound
    "natural-20-heavy": (hero(), FightSpec((enemy(AC=10, attack=4, HP=6, RD=9),))),
    "high-rd": (hero(), FightSpec((enemy(AC=12, attack=2, HP=10, RD=4),), assault_limit=12)),
    # FOR 3 (-4), ACTION 12 in leather (11) against AC 11: a lead of 10, every blow hits
    # (faces 1-3 would miss: 1 + 7 < 11)
    "automatic-hits": (hero(FOR=3, ACTION=12), FightSpec((enemy(AC=11, attack=6, HP=14),))),
    # ACTION 0 in leather (-1) against AC 19 (defence +9): a deficit of 10, every blow misses
    # although 6 + 13 would reach 19 (FOR 18 +4, attack +10)
    "automatic-misses": (
        hero(FOR=18, ACTION=0),
        FightSpec((enemy(AC=19, attack=2, HP=5),), assault_limit=5, attack_bonus=10),
    ),
    "two-together": (
        hero(hp=16),
        FightSpec(
            (enemy("A", AC=12, attack=2, HP=6), enemy("B", "1d4", AC=11, attack=1, HP=5)),
            mode="together",
        ),
    ),  # fmt: skip
    "two-in-sequence": (
        hero(),
        FightSpec(
            (enemy("A", AC=12, attack=2, HP=6), enemy("B", "1d4", AC=11, attack=1, HP=5)),
            mode="sequence",
        ),
    ),  # fmt: skip
    "as-one": (
        hero(hp=16),
        FightSpec(
            (enemy("A", AC=12, attack=2, HP=6), enemy("B", AC=11, attack=1, HP=5)), mode="as_one"
        ),
    ),  # fmt: skip
    "assault-limit": (hero(), FightSpec((enemy(HP=14),), assault_limit=3)),
}


@pytest.mark.parametrize("name", sorted(LINE_UPS))
def test_exact_odds_match_a_seeded_simulation_of_the_fight(name):
    character, spec = LINE_UPS[name]
    odds = d20_odds(RULESET, character, spec, target="order")
    seen = simulate(character, spec)
    assert within_3se(odds.win_probability, seen.get("won", 0.0)), (odds, seen)
    assert within_3se(odds.limit_probability, seen.get("limit", 0.0)), (odds, seen)
    assert within_3se(odds.loss_probability, seen.get("lost", 0.0)), (odds, seen)
    if odds.win_probability > 0.2:  # the hero's HP after a win, on average
        mean = sum(hp * p for hp, p in odds.end_states.items())
        spread = math.sqrt(sum((hp - mean) ** 2 * p for hp, p in odds.end_states.items()))
        wins = odds.win_probability * SAMPLES
        assert abs(mean - seen["hp_after_win"]) <= 3 * spread / math.sqrt(wins) + 1e-9
    assert math.isclose(sum(odds.end_states.values()), 1.0) or odds.win_probability == 0


def test_the_line_ups_exercise_what_they_are_named_for():
    _, spec = LINE_UPS["natural-20-heavy"]
    hero_fighter, enemies = fighters(RULESET, LINE_UPS["natural-20-heavy"][0], spec)
    law = attack_law(RULESET.fight, hero_fighter, enemies[0])
    assert law.hits and all(damage >= 2 for damage, _ in law.hits)  # doubled, unreduced
    assert math.isclose(sum(p for _, p in law.hits), 1 / 20)
    for name, miss in (("automatic-hits", 0.0), ("automatic-misses", 1.0)):
        character, spec = LINE_UPS[name]
        hero_fighter, enemies = fighters(RULESET, character, spec)
        lead = hero_fighter.action - (enemies[0].ac - RULESET.fight.base_ac)
        assert abs(lead) >= RULESET.fight.automatic_lead
        assert attack_law(RULESET.fight, hero_fighter, enemies[0]).miss == miss


# ------------------------------------------------------------------ independent exact


def _hit_law(attack: int, ac: int, damage_sides: int, reduction: int) -> dict:
    """By hand from the rules: 1d20 + attack >= AC hits; a 20 doubles the damage die and
    ignores the reduction; else the die minus the reduction, never below 0. ``None``: miss."""
    law: dict = {}
    for face in range(1, 21):
        if face + attack < ac:
            law[None] = law.get(None, 0) + Fraction(1, 20)
            continue
        for die in range(1, damage_sides + 1):
            damage = 2 * die if face == 20 else max(0, die - reduction)
            law[damage] = law.get(damage, 0) + Fraction(1, 20 * damage_sides)
    return law


def _solve(equations: dict, unknowns: list) -> dict:
    """Gauss-Jordan elimination in fractions: ``x = const + sum(c * y)`` for each x."""
    index = {u: i for i, u in enumerate(unknowns)}
    n = len(unknowns)
    rows = []
    for u in unknowns:
        const, terms = equations[u]
        row = [Fraction(0)] * (n + 1)
        row[index[u]] += 1
        for v, c in terms.items():
            row[index[v]] -= c
        row[n] = const
        rows.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        top = rows[col][col]
        rows[col] = [x / top for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return {u: rows[index[u]][n] for u in unknowns}


def test_a_small_duel_matches_an_independent_computation_in_fractions():
    # hero: FOR 14 (+2), ACTION 3, leather -1: attack +4; AC 10 + 1 + 3 = 14; sword 1d8, RD 2
    # enemy: AC 13, attack +3, 1d4, RD 1, HP 4; the hero has 5 HP
    character = hero(hp=5)
    spec = FightSpec((enemy(weapon="1d4", AC=13, attack=3, HP=4, RD=1),))
    strike = _hit_law(4, 13, 8, 1)  # hero -> enemy
    struck = _hit_law(3, 14, 4, 2)  # enemy -> hero
    # unknowns: (half, h, e); half 0: the hero's blow (riposte after a miss), 1: the enemy's
    unknowns = [(half, h, e) for half in (0, 1) for h in range(1, 6) for e in range(1, 5)]
    equations = {}
    for half, h, e in unknowns:
        const, terms = [Fraction(0)], {}

        def to(value_half, hh, ee, p, const=const, terms=terms):
            if ee <= 0:
                const[0] += p
            elif hh > 0:
                terms[(value_half, hh, ee)] = terms.get((value_half, hh, ee), 0) + p

        first, second = (strike, struck) if half == 0 else (struck, strike)
        after = 1 - half  # the other half comes next
        for damage, p in first.items():
            if damage is None:  # the riposte, then the other half
                for back, q in second.items():
                    back = back or 0
                    if half == 0:
                        to(after, h - back, e, p * q)
                    else:
                        to(after, h, e - back, p * q)
            elif half == 0:
                to(after, h, e - damage, p)
            else:
                to(after, h - damage, e, p)
        equations[(half, h, e)] = (const[0], terms)
    exact = _solve(equations, unknowns)[(0, 5, 4)]
    odds = d20_odds(RULESET, character, spec)
    assert abs(odds.win_probability - float(exact)) < 1e-9
    table = DuelTable(*_laws(character, spec))
    assert abs(table.win(5, 4) - float(exact)) < 1e-9


def _laws(character, spec):
    hero_fighter, enemies = fighters(RULESET, character, spec)
    params = RULESET.fight
    return attack_law(params, hero_fighter, enemies[0]), attack_law(params, enemies[0],
                                                                    hero_fighter)  # fmt: skip


def test_the_shared_duel_table_equals_the_engine():
    character = hero(hp=14)
    for stats in ({"AC": 12, "attack": 2, "RD": 1}, {"AC": 16, "attack": -1}, {"RD": 6}):
        spec = FightSpec((enemy(**stats, HP=9),))
        table = DuelTable(*_laws(character, spec))
        for hp in (1, 5, 14):
            for enemy_hp in (1, 4, 9):
                one = dataclasses.replace(spec, enemies=(enemy(**stats, HP=enemy_hp),))
                fighter = hero(hp=hp)
                expected = d20_odds(RULESET, fighter, one).win_probability
                assert abs(table.win(hp, enemy_hp) - expected) < 1e-12


# ------------------------------------------------------------------ hand cases


def test_automatic_hits_and_natural_20s_by_hand():
    # ACTION 14 in leather (-1): a lead of 13 over the enemy's defence, the hero always hits,
    # unarmed 1d3 (a 20 doubles it); the enemy's attack 30 always hits (lead 30 - 15), 1d6
    # against leather's RD 2 (a 20: doubled, unreduced). Hero 1 HP, enemy 2 HP.
    character = hero(hp=1, items={"cuir": 1}, ACTION=14)
    spec = FightSpec((enemy(AC=10, attack=30, HP=2),))
    kill = Fraction(1, 20) + Fraction(19, 20) * Fraction(2, 3)  # the first blow does >= 2
    spared = Fraction(19, 20) * Fraction(2, 6)  # the enemy's blow does 0: a 1 or a 2
    expected = kill + (1 - kill) * spared  # then the hero's second blow kills (1 HP left)
    assert expected == Fraction(2821, 3600)
    odds = d20_odds(RULESET, character, spec)
    assert abs(odds.win_probability - float(expected)) < 1e-12
    assert odds.end_states == {1: 1.0}


def test_an_escape_is_taken_when_it_is_the_better_way_out():
    # a strong enemy; escaping at once costs one blow of 1d6 (the hero has 12 HP): only a
    # natural 20 (damage doubled, unreduced: 12 on a 6) kills him, 1 in 120
    character = hero(hp=12)
    spec = FightSpec((enemy(AC=20, attack=8, HP=30),), escape_after=0)
    odds = d20_odds(RULESET, character, spec)
    assert odds.escape_probability == pytest.approx(1 - 1 / 120, abs=1e-12)
    assert odds.win_probability == pytest.approx(0.0)
    assert "escape" in odds.decisions
    # unhurt: a miss (faces 1-5: 5 + 8 < AC 14) or a hit of 1d6 - RD 2 <= 0 (faces 6-19)
    assert odds.ends[("escaped", 12)] == pytest.approx(5 / 20 + 14 / 20 * 2 / 6, abs=1e-12)


def test_the_best_target_is_a_maximum():
    character, spec = LINE_UPS["two-together"]
    best = d20_odds(RULESET, character, spec, target="best").alive_probability
    order = d20_odds(RULESET, character, spec, target="order").alive_probability
    reverse = dataclasses.replace(spec, enemies=spec.enemies[::-1])
    other = d20_odds(RULESET, character, reverse, target="order").alive_probability
    assert best >= max(order, other) - 1e-12


def test_dice_stats_are_mixed_exactly():
    character = hero()
    spec = FightSpec((dataclasses.replace(enemy(HP=0), dice_stats=(("HP", _dice("1d3+4")),)),))
    mixed = d20_odds(RULESET, character, spec).win_probability
    parts = [d20_odds(RULESET, character, FightSpec((enemy(HP=hp),))).win_probability
             for hp in (5, 6, 7)]  # fmt: skip
    assert mixed == pytest.approx(sum(parts) / 3, abs=1e-12)


def _dice(text):
    from dedale.rules.dice import parse_dice

    return parse_dice(text)


def test_past_the_budget_a_typed_error_says_why():
    character = hero(hp=60)
    enemies = tuple(enemy(f"E{i}", HP=40) for i in range(3))
    with pytest.raises(D20OddsTooLarge) as caught:
        d20_odds(RULESET, character, FightSpec(enemies, mode="together"), budget=2_000)
    assert "states" in caught.value.message and caught.value.hint


def test_a_fight_nobody_can_end_is_an_error_not_a_figure():
    from dedale.errors import GameError

    character = hero(ACTION=-20)  # never hits; the enemy never hits either
    spec = FightSpec((enemy(attack=-30, AC=30),))
    with pytest.raises(GameError):
        d20_odds(RULESET, character, spec)
    engine_spec = FightSpec((enemy(attack=-30, AC=30),), assault_limit=4)
    fighter, enemies = fighters(RULESET, character, engine_spec)
    odds = D20Engine(RULESET.fight, fighter, enemies, engine_spec).solve()
    assert odds.limit_probability == pytest.approx(1.0)


# ------------------------------------------------------------------ brute force


class _Cut(Exception):
    pass


class _Faces:
    """The dice of one path of the brute force: given choices, then the first face; a path
    whose chance falls below ``floor`` is cut (its whole mass counted as unknown)."""

    def __init__(self, prefix, floor):
        self.prefix, self.floor = prefix, floor
        self.choices, self.sizes, self.chance = [], [], Fraction(1)

    def roll_dice(self, n, sides):
        at = len(self.choices)
        if self.chance < self.floor:
            raise _Cut
        index = self.prefix[at] if at < len(self.prefix) else 0
        self.choices.append(index)
        self.sizes.append(sides**n)
        self.chance /= sides**n
        faces = []
        for _ in range(n):
            index, face = divmod(index, sides)
            faces.append(face + 1)
        return tuple(faces)


def test_a_tiny_fight_brute_forced_through_the_real_fight_code():
    """Every sequence of dice faces of ``d20_fight`` itself (a d4 instead of the d20, natural
    4s doubling 1d2, HP 2 each side), paths below 1e-14 cut: the exact odds within the cut."""
    from dedale.rules.dice import parse_dice

    params = dataclasses.replace(RULESET.fight, dice=parse_dice("1d4"), critical_face=4,
                                 unarmed_damage=parse_dice("1d2"))  # fmt: skip
    ruleset = dataclasses.replace(RULESET, fight=params)
    character = hero(hp=2, items={}, FOR=10, DEX=10, ACTION=9)  # attack +9, AC 19
    spec = FightSpec((enemy(weapon="1d2", AC=11, attack=17, HP=2),))  # hits on 2+ each way
    won = cut = total = Fraction(0)
    stack = [()]
    while stack:
        prefix = stack.pop()
        faces = _Faces(prefix, Fraction(1, 10**14))
        fighter = character.copy()
        try:
            result = drive(run_fight(ruleset, fighter, faces, spec, emit=False), FirstTarget())
        except _Cut:
            cut += faces.chance
        else:
            total += faces.chance
            won += faces.chance if result.outcome == "won" else 0
        for at in range(len(prefix), len(faces.sizes)):
            stack.extend((*faces.choices[:at], k) for k in range(1, faces.sizes[at]))
    assert total + cut == 1
    assert cut < Fraction(1, 10**9)
    odds = d20_odds(ruleset, character, spec)
    assert float(won) - 1e-12 <= odds.win_probability <= float(won + cut) + 1e-12
