"""d20 fights (procedure ``d20``): attack rolls against armour class, damage reduction.

Each round the hero attacks, then every enemy still standing that fights this round
attacks the hero. An attack is ``1d20 + characteristic bonus + action bonus`` against the
target's AC; it hits on total >= AC. A lead of ``automatic_lead`` (10) of the attacker's
action bonus over the defender's defence bonus (AC - base AC) hits automatically, the same
deficit misses automatically (RULES.md's decision). Damage is the weapon's dice minus the
target's reduction (never below 0); a natural 20 ignores the reduction and multiplies the
damage. A miss lets the target riposte at once with one attack (a riposte is never
riposted).

Enemy stats (names as in the book, any case): AC, attack (its whole attack bonus),
damage (dice, or ``EnemySpec.weapon``), RD and the health stat (HP); the aliases of these
keys are the ruleset's ``fight.enemy_keys``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from dedale.errors import GameError
from dedale.events import (
    AssaultResolved,
    DiceRolled,
    FightStarted,
    TargetPrompt,
    YesNoPrompt,
)
from dedale.i18n import Localised, tr
from dedale.rules import modifiers as mods
from dedale.rules.character import Character
from dedale.rules.decisions import RulesGen
from dedale.rules.dice import Dice, DiceExpr, characteristic_bonus, parse_dice
from dedale.rules.fight_state import FightHooks, FightState
from dedale.rules.fight_steps import FightSteps
from dedale.rules.fights import (
    ESCAPED,
    LOST,
    MAX_ASSAULTS,
    EnemySpec,
    FightResult,
    FightSpec,
    endless_fight,
)
from dedale.rules.random_source import RandomSource
from dedale.rules.ruleset import D20Fight, Ruleset, fold


@dataclass(slots=True)
class Fighter:
    """One side of a d20 fight."""

    name: str
    attack: int  # bonus added to the d20
    action: int  # action bonus (for automatic hits/misses)
    ac: int
    reduction: int
    damage: DiceExpr
    health: int
    initial: int = 0

    def __post_init__(self) -> None:
        self.initial = self.initial or self.health


def enemy_value(params: D20Fight, enemy: EnemySpec, key: str, default: int | None) -> int:
    """An enemy's stat by any of the ruleset's aliases of ``key``."""
    wanted = _folded(tuple(params.enemy_keys.get(key, (key,))))
    for name, value in enemy.stats.items():
        if _folded((str(name),)) <= wanted:
            return int(value)
    if default is None:
        names = params.enemy_key_names.get(key)
        aliases: str | Localised = ", ".join(params.enemy_keys.get(key, (key,)))
        if names:  # the value's name in the reader's language
            aliases = Localised({"en": names.get("en") or aliases, **names})
        raise GameError(
            tr("enemy {name} needs a value for {aliases}", name=enemy.name, aliases=aliases)
        )
    return default


def _ac_label(params: D20Fight, spec: FightSpec) -> str:
    """The armour class's name as the book's enemy lines write it (``CA`` in a French book),
    else the first of the ruleset's names for it."""
    aliases = tuple(params.enemy_keys.get("armour_class", ("AC",)))
    wanted = _folded(aliases)
    for enemy in spec.enemies:
        for name in enemy.stats:
            if _folded((str(name),)) <= wanted:  # the ruleset's own spelling of that name
                return next(a for a in aliases if fold(a) == fold(str(name)))
    return aliases[0] if aliases else "AC"


@lru_cache(maxsize=4096)
def _folded(names: tuple[str, ...]) -> frozenset[str]:
    """The folded forms of names (memoised: every fight and every exact odds reads them)."""
    return frozenset(fold(name) for name in names)


def make_enemy(params: D20Fight, enemy: EnemySpec) -> Fighter:
    ac = enemy_value(params, enemy, "armour_class", params.base_ac)
    attack = enemy_value(params, enemy, "attack", 0)
    weapon = enemy.weapon
    if weapon is None:
        for name, value in enemy.stats.items():
            if _folded((str(name),)) <= _folded(tuple(params.enemy_keys.get("damage", ()))):
                weapon = str(value)
    damage = parse_dice(weapon) if weapon else params.unarmed_damage
    return Fighter(
        name=enemy.name,
        attack=attack,
        action=attack,
        ac=ac,
        reduction=enemy_value(params, enemy, "reduction", 0),
        damage=damage,
        health=enemy_value(params, enemy, "health", None),
    )


def make_hero(ruleset: Ruleset, character: Character, spec: FightSpec) -> Fighter:
    params = ruleset.fight
    assert isinstance(params, D20Fight)
    stats = character.stats
    action = stats.get(params.action_stat, 0)
    malus = reduction = 0
    damage: DiceExpr | None = None
    for item in character.owned_defs(ruleset):
        if item.kind in ("armour", "shield"):
            reduction += item.reduction
            malus += item.action_malus
        elif item.kind == "weapon" and item.damage is not None:
            if damage is None or item.damage.max() > damage.max():
                damage = item.damage
    abilities = mods.hero_abilities(ruleset, character)
    bonus = spec.attack_bonus + mods.total(spec.modifiers, abilities)
    bonus += mods.ability_value(abilities, "fight", "attack_bonus")
    defence = stats[params.defence_stat] + _item_bonus(character, params.defence_stat)
    strength = stats[params.attack_stat] + _item_bonus(character, params.attack_stat)
    ac = params.base_ac + characteristic_bonus(defence) + action
    return Fighter(
        name="hero",
        attack=characteristic_bonus(strength) + action + malus + bonus,
        action=action + malus,
        ac=ac,
        reduction=reduction,
        damage=damage or params.unarmed_damage,
        health=stats[params.health],
    )


def _item_bonus(character: Character, stat: str) -> int:
    return sum(value for value, _ in mods.item_modifiers(character, stat))


def attack_roll(
    params: D20Fight, rng: RandomSource, attacker: Fighter, defender: Fighter
) -> tuple[bool, int, int, tuple[int, ...]]:
    """One attack: ``(hit, total, damage, faces)`` (damage already reduced)."""
    die, faces = params.dice.roll(rng)
    total = die + attacker.attack
    lead = attacker.action - (defender.ac - params.base_ac)
    if lead >= params.automatic_lead:
        hit = True
    elif -lead >= params.automatic_lead:
        hit = False
    else:
        hit = total >= defender.ac
    if not hit:
        return False, total, 0, faces
    rolled, more = attacker.damage.roll(rng)
    faces = faces + more
    if die >= params.critical_face:
        return True, total, max(0, rolled) * params.critical_multiplier, faces
    return True, total, max(0, rolled - defender.reduction), faces


def fighters(ruleset: Ruleset, character: Character, spec: FightSpec) -> tuple[Fighter, list]:
    """The hero and the enemies of a fight as it starts (the paragraph's enemy damage
    applied, the enemies fought as one merged): shared by the fight and its exact odds."""
    params = ruleset.fight
    assert isinstance(params, D20Fight)
    hero = make_hero(ruleset, character, spec)
    enemies = [make_enemy(params, e) for e in spec.enemies]
    if spec.enemy_damage is not None:  # the paragraph sets the damage of each enemy hit
        for enemy in enemies:
            enemy.damage = parse_dice(str(spec.enemy_damage))
    if spec.mode == "as_one":
        first = enemies[0]
        enemies = [
            Fighter(
                " & ".join(e.name for e in enemies),
                max(e.attack for e in enemies),
                max(e.action for e in enemies),
                max(e.ac for e in enemies),
                max(e.reduction for e in enemies),
                first.damage,
                sum(e.health for e in enemies),
            )  # fmt: skip
        ]
    return hero, enemies


def d20_fight(
    ruleset: Ruleset,
    character: Character,
    rng: RandomSource,
    spec: FightSpec,
    emit: bool,
    hooks: FightHooks | None = None,
) -> RulesGen[FightResult]:
    """The d20 fight generator (see module docstring)."""
    params = ruleset.fight
    assert isinstance(params, D20Fight)
    hero, enemies = fighters(ruleset, character, spec)
    if emit:
        yield FightStarted(
            enemies=tuple(
                (e.name, ((_ac_label(params, spec), e.ac), (params.health, e.health)))
                for e in enemies
            ),
            mode=spec.mode,
        )
    state = _D20State(params, character, rng, hero, enemies, emit)
    rounds = 0
    if hooks is not None:  # the book acts between the assaults
        state.follow(hooks)
    while True:
        ended = yield from state.before_turn(spec, rounds)
        if ended is not None:
            return ended
        living = [e for e in enemies if e.health > 0]
        if spec.escape_after is not None and rounds >= spec.escape_after:
            if (yield YesNoPrompt(kind="escape", params=(("assault", rounds),))):
                yield from state.attack(living[0], hero, rounds, riposte=False, note="escape")
                outcome = LOST if character.stats[params.health] <= 0 else ESCAPED
                return (yield from state.end(outcome, rounds))
        rounds += 1
        if rounds > MAX_ASSAULTS:
            raise endless_fight(MAX_ASSAULTS)
        target = living[0]
        if spec.mode == "together" and len(living) > 1:
            choice = yield TargetPrompt(enemies=tuple(e.name for e in living))
            valid = isinstance(choice, int) and 0 <= choice < len(living)
            target = living[choice] if valid else living[0]
        attackers = living if spec.mode == "together" else [target]
        yield from state.attack(hero, target, rounds)
        for enemy in attackers:
            if character.stats[params.health] <= 0:
                break
            if enemy.health > 0:
                yield from state.attack(enemy, hero, rounds)
        if character.stats[params.health] <= 0:
            return (yield from state.end(LOST, rounds))


def _dice_count(expr: DiceExpr) -> int:
    """How many dice an expression rolls (the faces its roll gives)."""
    return sum(term.count for _, term in expr.terms if isinstance(term, Dice))


class _D20State(FightSteps):
    def __init__(self, params, character, rng, hero, enemies, emit) -> None:
        self.params, self.character, self.rng = params, character, rng
        self.hero, self.enemies, self.emit = hero, enemies, emit
        self.hooks: FightHooks | None = None
        self.between: FightState | None = None

    def attack(self, attacker: Fighter, defender: Fighter, number: int, riposte=True, note=""):
        params = self.params
        extra = 0
        if self.hooks is not None and attacker is self.hero:  # "against it: attack +2"
            self.between.current = next((i for i, e in enumerate(self.enemies) if e is defender), 0)
            extra = self.hooks.attack_bonus(self.between)
        elif self.hooks is not None:  # its wound on the hero reads its own rules ("it deals")
            self.between.current = next(
                (i for i, e in enumerate(self.enemies) if e is attacker), 0
            )  # fmt: skip
        attacker.attack += extra
        try:
            hit, total, damage, faces = attack_roll(params, self.rng, attacker, defender)
        finally:
            attacker.attack -= extra
        hero_attacks = attacker is self.hero
        if self.emit:  # the attack's own dice and their total (the strengths follow)
            shown = faces[: _dice_count(params.dice)]  # (the damage dice come after them)
            rolled = total - attacker.attack - extra
            yield DiceRolled(purpose=f"{attacker.name}_attack", faces=shown, total=rolled)
            enemy = defender if hero_attacks else attacker
            yield AssaultResolved(
                number=number, enemy=enemy.name,
                hero_strength=total if hero_attacks else self.hero.ac,
                enemy_strength=defender.ac if hero_attacks else total,
                winner=("hero" if hero_attacks else "enemy") if hit else "tie",
                hero_damage_taken=0 if hero_attacks or not hit else damage,
                enemy_damage_taken=damage if hero_attacks and hit else 0,
                note=note or ("hit" if hit else "miss"),
            )  # fmt: skip
        if hit:
            yield from self.wound(defender, damage)
        alive = self.character.stats[params.health] > 0 and defender.health > 0
        if not hit and riposte and alive:
            yield from self.attack(defender, attacker, number, riposte=False, note="riposte")
