"""The validator's unarmed shift (validator.carried.unarmed_shift) is the fight code's:
for every shipped ruleset with opposed fights and every class (and no class), with and
without a weapon among the items, the same as the difference of two FightSetups."""

from __future__ import annotations

import pytest
from dedale.rules import modifiers as mods
from dedale.rules.character import Character
from dedale.rules.loader import load_ruleset
from dedale.rules.ruleset import OpposedFight
from dedale.validator.carried import unarmed_by_setup, unarmed_shift

RULESETS = ["df-classic", "df24", "df48.5"]


@pytest.mark.parametrize("name", RULESETS)
def test_the_unarmed_shift_is_the_fight_setups(name):
    ruleset = load_ruleset(name)
    assert isinstance(ruleset.fight, OpposedFight)
    for class_name in [None, *(ruleset.classes or {})]:
        character = Character(stats={}, initial={}, items={}, class_name=class_name)
        abilities = mods.hero_abilities(ruleset, character)
        expected = unarmed_by_setup(ruleset, character)
        assert unarmed_shift(ruleset, abilities, character) == expected, class_name
