"""Helpers for the rules core tests."""

from __future__ import annotations

import pytest
from dedale.rules import Character, EnemySpec, FightSpec, load_ruleset


@pytest.fixture(scope="session")
def rulesets():
    """The five built-in rulesets, loaded once."""
    return {
        name: load_ruleset(name) for name in ("df-classic", "df24", "df48.5", "reliques", "d20")
    }


def ff_hero(skill=10, stamina=20, luck=9, **extra) -> Character:
    stats = {"SKILL": skill, "STAMINA": stamina, "LUCK": luck}
    return Character(stats=dict(stats), initial=dict(stats), **extra)


def one_enemy(skill=8, stamina=10, **spec) -> FightSpec:
    return FightSpec((EnemySpec("Orc", {"SKILL": skill, "STAMINA": stamina}),), **spec)
