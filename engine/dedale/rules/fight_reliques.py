"""Reliques fights (procedure ``reliques``): initiative and blows decided by test margins.

A turn: both sides roll an initiative duo test (``fight.initiative``, AGL+PER); the
better margin acts first (a critical success always first, ties to the hero), and a
critical failure loses its actions this turn. Each side has actions by its ``actions_stat``
(AGL 1-2: 1, 3-4: 2, 5-6: 3). An action is an attack test (FOR+AGL); on a success of
margin MR, the defender tries a dodge (AGL+PER) or a parry (FOR+AGL) — the hero is asked,
an enemy takes its better duo — and avoids the blow with a success of margin >= MR (a
critical success attack cannot be avoided; a critical failure ends the attacker's turn).
Damage = weapon + MR; protection absorbs what it can and wears by 1 each time it does.
The paragraph's attack bonus and tagged modifiers add to the hero's attack tests.
The hero may spend a heroism point (``heroism.ignore_loss``) to ignore a loss of health
that leaves health at 0 or above (dedale.rules.heroism). The hero's health level malus
applies to his tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dedale.errors import GameError
from dedale.events import (
    AssaultResolved,
    DiceRolled,
    EnemyDefeated,
    FightEnded,
    FightStarted,
    MessageShown,
    StatChanged,
    TargetPrompt,
    YesNoPrompt,
)
from dedale.rules import modifiers as mods
from dedale.rules.character import Character
from dedale.rules.checks import CRITICAL_FAILURE, CRITICAL_SUCCESS, _duo_outcome, health_malus
from dedale.rules.decisions import RulesGen
from dedale.rules.fight_state import FightHooks, FightState, between_assaults
from dedale.rules.fights import (
    ESCAPED,
    LIMIT,
    LOST,
    MAX_ASSAULTS,
    WON,
    EnemySpec,
    FightResult,
    FightSpec,
    endless_fight,
)
from dedale.rules.heroism import offer_ignore_loss
from dedale.rules.random_source import RandomSource
from dedale.rules.ruleset import ReliquesFight, Ruleset, fold


@dataclass(slots=True)
class Side:
    """One fighter: characteristics, weapon damage, protection, health."""

    name: str
    stats: dict[str, int]
    weapon: int
    protection: int
    health: int
    initial: int
    is_hero: bool = False
    armour: list[str] = field(default_factory=list)


def _enemy_key(params: ReliquesFight, enemy: EnemySpec, key: str) -> int | None:
    wanted = {fold(alias) for alias in params.enemy_keys.get(key, (key,))}
    for name, value in enemy.stats.items():
        if fold(str(name)) in wanted:
            return int(value)
    return None


def make_enemy(
    ruleset: Ruleset, params: ReliquesFight, enemy: EnemySpec, rng_unused: RandomSource
) -> Side:
    """An enemy side; without a health value, the ruleset's health roll (no dice) of its
    own characteristics gives it."""
    stats = {str(k): int(v) for k, v in enemy.stats.items()}
    for name in (*params.initiative, *params.attack, *params.dodge, *params.parry):
        if name not in stats:
            raise GameError(f"enemy {enemy.name} needs {name}")
    health = _enemy_key(params, enemy, "health")
    if health is None:
        roll = ruleset.stat(params.health).roll
        if roll is None or roll.dice:
            raise GameError(f"enemy {enemy.name} needs {params.health}")

        def value(name: str) -> int:
            return stats[(ruleset.resolve(name) or ("", name))[1]]

        health, _ = roll.roll(rng_unused, value)
    weapon = _enemy_key(params, enemy, "weapon")
    if weapon is None and enemy.weapon is not None and enemy.weapon.isdigit():
        weapon = int(enemy.weapon)
    return Side(
        name=enemy.name, stats=stats,
        weapon=params.unarmed_damage if weapon is None else weapon,
        protection=_enemy_key(params, enemy, "protection") or 0,
        health=health, initial=health,
    )  # fmt: skip


def make_hero(ruleset: Ruleset, character: Character, params: ReliquesFight) -> Side:
    weapon = params.unarmed_damage
    protection = 0
    armour = []
    for item in character.owned_defs(ruleset):
        if item.kind == "weapon" and item.damage is not None:
            weapon = max(weapon, item.damage.max())
        elif item.kind in ("armour", "shield") and item.protection:
            left = item.protection - character.protection_worn.get(item.id, 0)
            if left > 0:
                protection += left
                armour.append(item.id)
    health = character.stats[params.health]
    return Side("hero", character.stats, weapon, protection, health, health, True, armour)


def actions_of(params: ReliquesFight, side: Side) -> int:
    value = side.stats.get(params.actions_stat, 0)
    for up_to, count in params.actions:
        if value <= up_to:
            return count
    return params.actions[-1][1]


class _Reliques:
    def __init__(self, ruleset, character, rng, hero, enemies, emit, attack_bonus=0) -> None:
        self.ruleset, self.character, self.rng = ruleset, character, rng
        self.attack_bonus = attack_bonus
        self.params: ReliquesFight = ruleset.fight
        self.hero, self.enemies, self.emit = hero, enemies, emit
        self.hooks: FightHooks | None = None
        self.between: FightState | None = None

    def test(self, side: Side, duo: tuple[str, str], purpose: str, bonus: int = 0):
        """A duo test of one side: ``(outcome, signed margin)``; yields its dice."""
        values = (side.stats[duo[0]], side.stats[duo[1]])
        if side.is_hero:
            bonus += health_malus(self.ruleset, self.character)
        base = sum(values) + bonus
        target = max(self.ruleset.duo.target_min, min(self.ruleset.duo.target_max, base))
        faces = self.rng.roll_dice(2, 6)
        outcome = _duo_outcome(self.ruleset, values, faces, target)
        if self.emit:
            yield DiceRolled(purpose=f"{side.name}_{purpose}", faces=faces, total=sum(faces))
        return outcome, target - sum(faces)

    def blow(self, attacker: Side, defender: Side, turn: int):
        """One attack action; returns False when a critical failure ends the turn."""
        params = self.params
        bonus = self.attack_bonus if attacker.is_hero else 0
        if self.hooks is not None and attacker.is_hero:  # "against it: attack +2"
            self.between.current = next((i for i, e in enumerate(self.enemies) if e is defender), 0)
            bonus += self.hooks.attack_bonus(self.between)
        outcome, margin = yield from self.test(attacker, params.attack, "attack", bonus)
        if outcome == CRITICAL_FAILURE:
            yield from self.report(attacker, defender, turn, 0, "critical_failure")
            return False
        if margin < 0 or outcome == "failure":
            yield from self.report(attacker, defender, turn, 0, "miss")
            return True
        if outcome != CRITICAL_SUCCESS:
            if defender.is_hero:
                dodge = bool((yield YesNoPrompt(kind="dodge", params=(("margin", margin),))))
            else:
                dodge = sum(defender.stats[s] for s in params.dodge) >= sum(
                    defender.stats[s] for s in params.parry
                )
            duo = params.dodge if dodge else params.parry
            defence, defence_margin = yield from self.test(defender, duo, "defence")
            if defence in ("success", CRITICAL_SUCCESS) and defence_margin >= margin:
                note = "dodged" if dodge else "parried"
                yield from self.report(attacker, defender, turn, 0, note)
                return True
        damage = attacker.weapon + margin
        absorbed = min(defender.protection, damage)
        if absorbed > 0:
            defender.protection -= 1
            if defender.is_hero and defender.armour:
                worn = self.character.protection_worn
                worn[defender.armour[0]] = worn.get(defender.armour[0], 0) + 1
        damage -= absorbed
        if defender.is_hero and damage > 0:
            health = self.params.health
            if (
                yield from offer_ignore_loss(
                    self.ruleset, self.character, health, damage, defender.health
                )
            ):
                damage = 0
        yield from self.report(attacker, defender, turn, damage, "hit")
        yield from self.wound(defender, damage)
        return True

    def report(self, attacker: Side, defender: Side, turn: int, damage: int, note: str):
        if self.emit:
            enemy = defender if attacker.is_hero else attacker
            winner = "tie" if not damage else ("hero" if attacker.is_hero else "enemy")
            yield AssaultResolved(
                number=turn, enemy=enemy.name, hero_strength=0, enemy_strength=0, winner=winner,
                hero_damage_taken=0 if attacker.is_hero else damage,
                enemy_damage_taken=damage if attacker.is_hero else 0, note=note,
            )  # fmt: skip

    def wound(self, side: Side, damage: int):
        if self.hooks is not None and damage > 0:  # the book's per-enemy rules
            damage = yield from self._book_wound(side, damage)
        if damage <= 0:
            return
        if side.is_hero:
            stat = self.params.health
            old, new = self.character.change(stat, -damage)
            side.health = new
            if self.emit:
                initial = self.character.initial[stat]
                yield StatChanged(name=stat, old=old, new=new, initial=initial)
            return
        old = side.health
        side.health = max(0, old - damage)
        if self.emit:
            yield StatChanged(
                name=self.params.health, old=old, new=side.health, initial=side.initial,
                who=side.name,
            )  # fmt: skip
            if side.health == 0:
                yield EnemyDefeated(name=side.name)

    def _book_wound(self, side, damage: int):
        between = self.between
        if side is self.hero:
            return (yield from self.hooks.hero_wound(between, damage))
        between.current = next((i for i, e in enumerate(self.enemies) if e is side), 0)
        return (yield from self.hooks.enemy_wound(between, damage))

    def end(self, outcome: str, turns: int):
        if self.emit:
            yield FightEnded(outcome=outcome, assaults=turns)
        left = tuple((e.name, e.health) for e in self.enemies if e.health > 0)
        return FightResult(outcome, turns, left)


def reliques_fight(
    ruleset: Ruleset,
    character: Character,
    rng: RandomSource,
    spec: FightSpec,
    emit: bool,
    hooks: FightHooks | None = None,
) -> RulesGen[FightResult]:
    """The reliques fight generator (see module docstring)."""
    params = ruleset.fight
    assert isinstance(params, ReliquesFight)
    if ruleset.duo is None:
        raise GameError("a reliques fight needs the ruleset's duo_test")
    hero = make_hero(ruleset, character, params)
    enemies = [make_enemy(ruleset, params, e, rng) for e in spec.enemies]
    if spec.mode == "as_one":
        first = enemies[0]
        total = sum(e.health for e in enemies)
        enemies = [
            Side(" & ".join(e.name for e in enemies), first.stats, max(e.weapon for e in enemies),
                 max(e.protection for e in enemies), total, total)
        ]  # fmt: skip
    abilities = mods.hero_abilities(ruleset, character)
    bonus = spec.attack_bonus + mods.total(spec.modifiers, abilities)
    fight = _Reliques(ruleset, character, rng, hero, enemies, emit, bonus)
    if emit:
        yield FightStarted(
            enemies=tuple((e.name, tuple(e.stats.items())) for e in enemies), mode=spec.mode
        )
    turns = 0
    between = None
    if hooks is not None:  # the book acts between the assaults
        between = FightState([e.name for e in enemies], [e.health for e in enemies])
        fight.hooks, fight.between = hooks, between
        hero_health = character.stats[params.health]
    while True:
        if between is not None and turns:
            loss = max(0, hero_health - character.stats[params.health])
            stop = yield from between_assaults(hooks, between, enemies, turns, loss)
            hero_health = character.stats[params.health]
            if stop is not None:
                if not emit or between.quiet_end:
                    fight.emit = False
                return (yield from fight.end(stop, turns))
        living = [e for e in enemies if e.health > 0]
        if not living:
            return (yield from fight.end(WON, turns))
        if spec.assault_limit is not None and turns >= spec.assault_limit:
            return (yield from fight.end(LIMIT, turns))
        if spec.escape_after is not None and turns >= spec.escape_after:
            if (yield YesNoPrompt(kind="escape", params=(("assault", turns),))):
                yield from fight.blow(living[0], hero, turns)
                outcome = LOST if character.stats[params.health] <= 0 else ESCAPED
                return (yield from fight.end(outcome, turns))
        turns += 1
        if turns > MAX_ASSAULTS:
            raise endless_fight(MAX_ASSAULTS)
        target = living[0]
        if spec.mode == "together" and len(living) > 1:
            choice = yield TargetPrompt(enemies=tuple(e.name for e in living))
            valid = isinstance(choice, int) and 0 <= choice < len(living)
            target = living[choice] if valid else living[0]
        opponents = living if spec.mode == "together" else [target]
        # Initiative: (critical success, margin); critical failure loses the turn.
        order = []
        for side in (hero, *opponents):
            outcome, margin = yield from fight.test(side, params.initiative, "initiative")
            if outcome != CRITICAL_FAILURE:
                rank = (outcome == CRITICAL_SUCCESS, margin, side.is_hero)
                order.append((rank, len(order), side))
        order.sort(key=lambda entry: (entry[0], -entry[1]), reverse=True)
        if emit and order:
            yield MessageShown(key="initiative", params=(("first", order[0][2].name),))
        for _, _, side in order:
            if side.health <= 0 or character.stats[params.health] <= 0:
                continue
            for _ in range(actions_of(params, side)):
                defender = target if side.is_hero else hero
                if defender.health <= 0:
                    break
                if not (yield from fight.blow(side, defender, turns)):
                    break
        if character.stats[params.health] <= 0:
            return (yield from fight.end(LOST, turns))
