"""The reliques DP's float path (dedale.rules.odds_reliques_fast, issue 14.11) changes no
result: the chances below were computed by the DP before it (commit 8aa1ec5, the general
``(a, b, kernel)`` path for every in-turn state and two passes of every fixed point); the
float path gives the same floats (compared here to 1e-12). And the forward pass, which
spreads each turn's kernel through the general path, sums to the float path's chance."""

from __future__ import annotations

import pytest
from dedale.rules import Character, EnemySpec, FightSpec
from dedale.rules.odds_reliques import reliques_odds, reliques_wins

COUNTERS = {"courage": 0, "volonte": 0, "chance": 0}


def _hero(FOR, AGL, PER, health, *, initial=None, items=("épée",), courage=0) -> Character:
    stats = {"FOR": FOR, "AGL": AGL, "PER": PER, "CON": 3, "ESP": 3, "CHA": 3, "HEALTH": health}
    return Character(
        stats=dict(stats), initial={**stats, "HEALTH": initial or health},
        items={item: 1 for item in items}, counters={**COUNTERS, "courage": courage},
    )  # fmt: skip


def _enemy(name, FOR, AGL, PER, weapon, health, protection=0) -> EnemySpec:
    stats = {"FOR": FOR, "AGL": AGL, "PER": PER, "CON": 3, "HEALTH": health, "arme": weapon}
    if protection:
        stats["protection"] = protection
    return EnemySpec(name, stats)


# name: (hero, enemies, spec options, (no Courage, Courage at best)) as computed before
BEFORE = {
    "duel": (
        _hero(3, 5, 3, 12, initial=15),
        [_enemy("A", 4, 3, 2, 2, 11)],
        {},
        (0.8128020585359963, 0.8128020585359963),
    ),
    "two_in_order": (
        _hero(4, 4, 3, 15, courage=1),
        [_enemy("A", 3, 3, 2, 2, 6), _enemy("B", 3, 2, 3, 1, 5)],
        {},
        (0.958524214606162, 0.9905101727441484),
    ),
    "assault_limit": (
        _hero(3, 3, 3, 12, courage=1),
        [_enemy("A", 4, 4, 4, 2, 14)],
        {"assault_limit": 4},
        (0.1526070682650305, 0.41279837346218173),
    ),
    "escape": (
        _hero(2, 4, 3, 10, courage=1),
        [_enemy("A", 5, 5, 4, 3, 14)],
        {"escape_after": 2},
        (0.011237100424849137, 0.044154345976972494),
    ),
    "hurt_hero": (
        _hero(4, 2, 4, 8, initial=15, courage=1),
        [_enemy("A", 3, 2, 3, 2, 8)],
        {},
        (0.3745022789693917, 0.5863714867543052),
    ),
    "unarmed_strong_hero": (
        _hero(6, 6, 6, 30, items=(), courage=1),
        [_enemy("A", 3, 3, 2, 1, 10)],
        {},
        (0.9999999951586929, 0.9999999998770471),
    ),
    "enemy_without_weapon": (  # the general path (a blow of 0 may change nothing)
        _hero(3, 4, 3, 12, items=("cuir",), courage=1),
        [_enemy("A", 4, 3, 3, 0, 9, 1)],
        {},
        (0.6384841804660745, 0.7840701038469069),
    ),
}


@pytest.mark.parametrize("name", list(BEFORE))
def test_the_float_path_gives_the_chances_computed_before_it(rulesets, name):
    hero, enemies, options, (none, best) = BEFORE[name]
    spec = FightSpec(enemies=tuple(enemies), **options)
    wins = reliques_wins(rulesets["reliques"], hero.copy(), spec)
    assert wins["none"] == pytest.approx(none, abs=1e-12)
    assert wins["best"] == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("name", ["hurt_hero", "assault_limit", "escape", "enemy_without_weapon"])
def test_the_forward_pass_sums_to_the_float_paths_chance(rulesets, name):
    """The outcomes are spread through the general path with kernels; the chance comes from
    the float path: two computations of the same number."""
    hero, enemies, options, _ = BEFORE[name]
    spec = FightSpec(enemies=tuple(enemies), **options)
    for policy in ("none", "best"):
        odds = reliques_odds(rulesets["reliques"], hero.copy(), spec, luck_policy=policy)
        assert sum(odds.outcomes.values()) == pytest.approx(odds.win_probability, abs=1e-12)
