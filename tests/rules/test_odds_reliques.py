"""The odds of reliques fights: an exact model written from RULES.md alone
(tests/rules/reliques_exact.py) against a seeded simulation of the real fight code.

The validator estimates reliques fights by simulating ``run_fight`` (dedale.validator
.simulate); this checks that the fight code it simulates wins as often as the rules say:
the simulated rate must lie within 3 standard errors of the exact chance.
"""

from __future__ import annotations

import math

import pytest
from dedale.rules import AlwaysNo, Character, EnemySpec, FightSpec, RandomSource, drive, run_fight
from reliques_exact import ExactFight, Fighter

FIGHTS = 3000

# (hero FOR, AGL, PER, health), (enemy FOR, AGL, PER, weapon, health)
LINE_UPS = {
    # two actions against three: the rounds by margin, the third action alone
    "two_against_three": ((4, 3, 3, 14), (3, 5, 2, 2, 12)),
    # three actions against one, the hero already hurt (his level malus moves)
    "three_against_one": ((3, 5, 2, 9), (5, 2, 4, 3, 14)),
}


def _simulated(rulesets, hero_stats, enemy_stats, seed: int) -> float:
    FOR, AGL, PER, health = hero_stats
    e_for, e_agl, e_per, weapon, e_health = enemy_stats
    stats = {"FOR": FOR, "AGL": AGL, "PER": PER, "CON": 3, "ESP": 3, "CHA": 3, "HEALTH": health}
    enemy = EnemySpec(
        "Goule",
        {"FOR": e_for, "AGL": e_agl, "PER": e_per, "CON": 3, "HEALTH": e_health, "arme": weapon},
    )
    spec = FightSpec((enemy,))
    rng = RandomSource(seed)
    won = 0
    for _ in range(FIGHTS):
        hero = Character(stats=dict(stats), initial={**stats, "HEALTH": 15}, items={"épée": 1},
                         counters={"courage": 0, "volonte": 0, "chance": 0})  # fmt: skip
        result = drive(run_fight(rulesets["reliques"], hero, rng, spec, emit=False), AlwaysNo())
        won += result.outcome == "won"
    return won / FIGHTS


@pytest.mark.parametrize("line_up", sorted(LINE_UPS))
def test_simulated_reliques_fights_win_as_often_as_the_exact_rules_say(rulesets, line_up):
    (FOR, AGL, PER, health), (e_for, e_agl, e_per, weapon, e_health) = LINE_UPS[line_up]
    hero = Fighter(FOR, AGL, PER, weapon=3, health=health, initial=15)
    enemy = Fighter(e_for, e_agl, e_per, weapon=weapon, health=e_health)
    exact = ExactFight(hero, enemy).win()
    simulated = _simulated(rulesets, *LINE_UPS[line_up], seed=2026)
    se = math.sqrt(exact * (1 - exact) / FIGHTS)
    assert 0.05 < exact < 0.95  # a fight whose outcome is in doubt
    assert abs(simulated - exact) <= 3 * se, (simulated, exact, se)
