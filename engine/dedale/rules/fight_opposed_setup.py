"""The setup of an FF-family fight (procedure ``opposed``, :mod:`dedale.rules.fight_opposed`):
everything the fight reads from the ruleset, the hero's abilities and the spec, computed once
(and cached for simulations that repeat a fight), and the armour worn in its first assault."""

from __future__ import annotations

from dedale.rules import modifiers as mods
from dedale.rules.character import Character
from dedale.rules.fights import FightSpec
from dedale.rules.ruleset import OpposedFight, Ruleset


class FightSetup:
    """Everything a fight needs, computed once from ruleset, hero and spec."""

    __slots__ = (
        "attack_bonus", "first_hit_bonus", "damage_bonus", "armour", "enemy_damage",
        "luck_stat", "luck_cost", "luck_dice", "wounding", "wounded", "params",
        "names", "skills", "health", "immune", "plain_2d6", "constants",
    )  # fmt: skip

    def __init__(
        self, ruleset: Ruleset, character: Character, spec: FightSpec, armed: bool
    ) -> None:
        params = ruleset.fight
        assert isinstance(params, OpposedFight)
        self.params = params
        abilities = mods.hero_abilities(ruleset, character)
        bonus = spec.attack_bonus + mods.total(spec.modifiers, abilities)
        bonus += mods.ability_value(abilities, "fight", "attack_bonus")
        if not armed:
            if mods.has_ability(abilities, "unarmed", "attack_penalty"):
                bonus += mods.ability_value(abilities, "unarmed", "attack_penalty")
            else:
                bonus += params.unarmed_penalty
        self.attack_bonus = bonus
        self.damage_bonus = mods.ability_value(abilities, "fight", "damage_bonus")
        self.first_hit_bonus = mods.ability_value(
            abilities, "first_successful_assault", "bonus_damage"
        )
        self.armour = mods.has_ability(abilities, "first_assault", "no_wound")
        self.enemy_damage = (
            spec.enemy_damage if spec.enemy_damage is not None else params.damage_to_hero
        )
        test = ruleset.tests.get(params.luck_test) if params.luck_test else None
        self.luck_stat = test.stat if test else None
        self.luck_cost = test.cost if test else 0
        self.luck_dice = test.dice if test else None
        self.wounding = params.luck_wounding
        self.wounded = params.luck_wounded
        self.plain_2d6 = params.dice is not None and params.dice.text == "2d6"
        names = [e.name for e in spec.enemies]
        skills = [int(e.stats.get(params.attack_stat, 0)) for e in spec.enemies]
        health = [int(e.stats.get(params.health, 0)) for e in spec.enemies]
        immune = [e.immune_instant_kill for e in spec.enemies]
        if spec.mode == "as_one":  # one enemy: the highest SKILL, the total STAMINA
            names = [" & ".join(names)]
            skills = [max(skills)]
            health = [sum(health)]
            immune = [all(immune)]
        self.names, self.skills, self.health, self.immune = names, skills, health, immune
        # What the fight generator binds to locals, in one unpacking (see opposed_fight).
        alive = sum(1 for h in health if h > 0)
        self.constants = (
            params.health,
            params.attack_stat,
            params.dice,
            self.plain_2d6,
            params.instant_kill_on_double,
            params.damage_to_enemy + self.damage_bonus,
            self.first_hit_bonus,
            spec.assault_limit,
            spec.escape_after,
            spec.assault_limit is not None or spec.escape_after is not None,
            spec.mode == "together",
            self.enemy_damage,
            self.luck_stat,
            self.luck_stat is not None and self.wounding is not None,
            self.luck_stat is not None and self.wounded is not None,
            params.attack_stat != self.luck_stat and params.attack_stat != params.health,
            alive,
            first_alive(health) if alive else 0,
        )


_SETUPS: dict[tuple, tuple[Ruleset, FightSpec, FightSetup]] = {}


def cached_setup(ruleset: Ruleset, character: Character, spec: FightSpec) -> FightSetup:
    """The FightSetup of this ruleset, spec, class and armed state (simulations repeat
    the same fight many times; the cache keeps its ruleset and spec alive, so their ids
    cannot be reused while cached)."""
    armed = bool(character.items) and character.is_armed(ruleset)
    key = (id(ruleset), id(spec), character.class_name, armed)
    found = _SETUPS.get(key)
    if found is not None and found[0] is ruleset and found[1] is spec:
        return found[2]
    if len(_SETUPS) > 256:
        _SETUPS.clear()
    setup = FightSetup(ruleset, character, spec, armed)
    _SETUPS[key] = (ruleset, spec, setup)
    return setup


ARMOUR_OFF = 1 << 30
"""``fights_with_armour`` at or above this: no armour acts (the assaults after the first
of a fight run assault by assault, dedale.game.fight_extras)."""


def wear_armour(ruleset: Ruleset, character: Character) -> bool:
    """Whether worn armour protects in this fight's first assault; counts its wear per
    piece of armour (the most worn piece still good serves first; a new one starts fresh)."""
    if character.fights_with_armour >= ARMOUR_OFF:
        return False
    protected = False
    for name in list(character.items):
        item = ruleset.item(name)
        if item is None or not mods.has_ability(item.abilities, "first_assault", "no_wound"):
            continue
        if item.wear is None:
            protected = True
            continue
        pieces = character.armour_pieces(name)
        good = [i for i, used in enumerate(pieces) if used < item.wear]
        if good:
            pieces[max(good, key=pieces.__getitem__)] += 1
            character.fights_with_armour += 1
            return True
    return protected


def first_alive(health: list[int]) -> int:
    """The index of the first enemy still standing (the caller knows there is one)."""
    for index, h in enumerate(health):
        if h > 0:
            return index
    raise AssertionError("no enemy left")
