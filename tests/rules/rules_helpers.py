"""Builders shared by the rules core tests (a unique module name: no clash with other
test folders' helpers)."""

from __future__ import annotations

from dedale.rules import Character, EnemySpec, FightSpec


def ff_hero(skill=10, stamina=20, luck=9, **extra) -> Character:
    stats = {"SKILL": skill, "STAMINA": stamina, "LUCK": luck}
    return Character(stats=dict(stats), initial=dict(stats), **extra)


def one_enemy(skill=8, stamina=10, **spec) -> FightSpec:
    return FightSpec((EnemySpec("Orc", {"SKILL": skill, "STAMINA": stamina}),), **spec)
