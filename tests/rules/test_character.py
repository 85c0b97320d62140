"""Characters: creation per ruleset and class, stat bounds, items."""

from __future__ import annotations

import pytest
from dedale.errors import GameError
from dedale.rules import ScriptedDice, create_character
from rules_helpers import ff_hero


def test_classic_creation_rolls_1d6_6_2d6_12_1d6_6_and_10_meals(rulesets):
    hero = create_character(rulesets["df-classic"], ScriptedDice([3, 4, 5, 6]))
    assert hero.stats == {"SKILL": 9, "STAMINA": 21, "LUCK": 12}
    assert hero.initial == hero.stats and hero.counters == {"meals": 10, "gold": 0}


def test_fixed_values_for_hero_option(rulesets):
    hero = create_character(rulesets["df-classic"], ScriptedDice([]), fixed={
        "SKILL": 10, "STAMINA": 20, "LUCK": 9})  # fmt: skip
    assert hero.stats == {"SKILL": 10, "STAMINA": 20, "LUCK": 9}


@pytest.mark.parametrize(
    ("klass", "faces", "stats", "meals", "kit"),
    [
        ("Baroudeur", [6, 6, 6, 6], {"SKILL": 12, "STAMINA": 27, "LUCK": 12}, 12,
         {"BFG 9000", "sac à dos", "corde"}),
        ("Mercenaire", [6, 6, 6, 6], {"SKILL": 13, "STAMINA": 25, "LUCK": 11}, 10,
         {"BFG 9000", "sac à dos", "armure"}),
        ("Scientifique", [1, 1, 1, 1], {"SKILL": 6, "STAMINA": 13, "LUCK": 9}, 10,
         {"BFG 9000", "sac à dos", "armure"}),
    ],
)  # fmt: skip
def test_df485_classes(rulesets, klass, faces, stats, meals, kit):
    hero = create_character(rulesets["df48.5"], ScriptedDice(faces), klass)
    assert hero.stats == stats  # initial values may exceed 12 and 24
    assert hero.counters["meals"] == meals and set(hero.items) == kit
    assert hero.class_name == klass


def test_unknown_class(rulesets):
    with pytest.raises(GameError, match="unknown class"):
        create_character(rulesets["df48.5"], ScriptedDice([]), "Pilote")


def test_reliques_health_is_five_times_con(rulesets):
    hero = create_character(rulesets["reliques"], ScriptedDice([3, 4, 2, 5, 1, 6]))
    assert hero.stats["CON"] == 5 and hero.stats["HEALTH"] == 25


def test_d20_creation_3d6_and_hp(rulesets):
    hero = create_character(rulesets["d20"], ScriptedDice([1, 2, 3] * 6))
    assert hero.stats["FOR"] == 6 and hero.stats["ACTION"] == 2
    assert hero.stats["HP"] == 8 + hero.stats["CON"]


def test_current_never_above_initial_nor_below_zero():
    hero = ff_hero(stamina=20)
    assert hero.change("STAMINA", 5) == (20, 20)
    assert hero.change("STAMINA", -25) == (20, 0)
    hero.restore("STAMINA")
    assert hero.stats["STAMINA"] == 20


def test_exceptional_raise_lifts_the_initial():
    hero = ff_hero(luck=9)
    assert hero.change("LUCK", 2, exceptional=True) == (9, 11)
    assert hero.initial["LUCK"] == 11
    assert hero.raise_initial("SKILL", 1) == (10, 11) and hero.stats["SKILL"] == 10


def test_items_gain_lose_and_weapons(rulesets):
    hero = ff_hero()
    hero.gain("BFG 9000")
    hero.gain("potion", 2)
    assert hero.is_armed(rulesets["df48.5"]) and hero.item_count() == 3
    assert hero.lose("potion", 5) == 2 and not hero.has("potion")
    assert not ff_hero().is_armed(rulesets["df48.5"])
