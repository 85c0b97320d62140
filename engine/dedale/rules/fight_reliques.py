"""Reliques fights (procedure ``reliques``): initiative and blows decided by test margins.

As RULES.md decides ("Decisions added after the first audit"). A turn: every fighter rolls
an initiative duo test (``fight.initiative``, AGL+PER) and has actions by its
``actions_stat`` (AGL 1-2: 1, 3-4: 2, 5-6: 3); a critical failure leaves it no action that
turn, or only 1 when it has 2 or more. Then each fighter takes ONE action in order — critical
successes first, then by margin (ties to the hero, then as written) — then a second round
for those with actions left, and so on. An action is an attack test (FOR+AGL); on a success
of margin MR the defender, if it has an action left, spends one on a dodge (AGL+PER) or a
parry (FOR+AGL) — the hero is asked which, an enemy takes its better duo — and avoids the
blow with a success of margin >= MR. A critical success in defence parries and strikes back
at once (weapon + its margin; the whole is the one action); the attacker may defend against
that blow (spending an action) but only a critical success avoids it, and strikes back in
turn. Dédale's choices where the texts are silent: a critical success attack cannot be
avoided, a critical failure attack ends the attacker's actions for the turn, a fighter with
an action left always defends.
Damage = weapon + MR; protection absorbs what it can and wears by 1 each time it does.
The paragraph's attack bonus and tagged modifiers add to the hero's attack tests.
The hero may spend a heroism point (``heroism.ignore_loss``) to ignore a loss of health
that leaves health at 0 or above (dedale.rules.heroism). The hero's health level malus
applies to his tests. Escaping costs the hero an action: the enemy's parting blow is
defended only with a second action.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dedale.errors import GameError
from dedale.events import (
    AssaultResolved,
    DiceRolled,
    FightStarted,
    MessageShown,
    TargetPrompt,
    YesNoPrompt,
)
from dedale.i18n import tr
from dedale.rules import modifiers as mods
from dedale.rules.character import Character
from dedale.rules.checks import CRITICAL_FAILURE, CRITICAL_SUCCESS, _duo_outcome, health_malus
from dedale.rules.decisions import RulesGen
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
from dedale.rules.heroism import offer_ignore_loss
from dedale.rules.random_source import RandomSource
from dedale.rules.ruleset import ReliquesFight, Ruleset, fold

MAX_STRIKES_BACK = 12  # critical defences answering each other: bounded by the actions


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
            raise GameError(tr("enemy {name} needs {name2}", name=enemy.name, name2=name))
    health = _enemy_key(params, enemy, "health")
    if health is None:
        roll = ruleset.stat(params.health).roll
        if roll is None or roll.dice:
            raise GameError(
                tr("enemy {name} needs {health}", name=enemy.name, health=params.health)
            )

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


class _Reliques(FightSteps):
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
            yield DiceRolled(
                purpose=f"{side.name}_{purpose}", faces=faces, total=sum(faces), target=target
            )
        return outcome, target - sum(faces)

    def blow(self, attacker: Side, defender: Side, turn: int, left: dict[int, int]):
        """One attack action (already paid from ``left``, the actions each side has left
        this turn, by ``id``); returns False when a critical failure ends the turn."""
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
        if outcome != CRITICAL_SUCCESS and left.get(id(defender), 0) > 0:
            left[id(defender)] -= 1  # dodging or parrying costs an action
            defence, defence_margin, note = yield from self.defend(defender, margin)
            if defence == CRITICAL_SUCCESS:  # parries and strikes back at once
                yield from self.report(attacker, defender, turn, 0, "parried")
                yield from self.strike_back(defender, attacker, turn, defence_margin, left)
                return True
            if defence == "success" and defence_margin >= margin:
                yield from self.report(attacker, defender, turn, 0, note)
                return True
        yield from self.hit(attacker, defender, turn, attacker.weapon + margin, "hit")
        return True

    def defend(self, defender: Side, margin: int):
        """A dodge or a parry test: ``(outcome, signed margin, note)``."""
        params = self.params
        if defender.is_hero:
            dodge = bool((yield YesNoPrompt(kind="dodge", params=(("margin", margin),))))
        else:
            dodge = sum(defender.stats[s] for s in params.dodge) >= sum(
                defender.stats[s] for s in params.parry
            )
        duo = params.dodge if dodge else params.parry
        outcome, defence_margin = yield from self.test(defender, duo, "dodge" if dodge else "parry")
        return outcome, defence_margin, "dodged" if dodge else "parried"

    def strike_back(self, striker: Side, target: Side, turn: int, margin: int, left):
        """The blow of a critical defence: weapon + the defence margin. The target may
        defend if it has an action left, but only a critical success avoids the blow (and
        strikes back in turn); every defence costs an action, so the chain ends."""
        for _ in range(MAX_STRIKES_BACK):
            if striker.health <= 0 or target.health <= 0:
                return
            if left.get(id(target), 0) <= 0:
                break
            left[id(target)] -= 1
            defence, defence_margin, _ = yield from self.defend(target, margin)
            if defence != CRITICAL_SUCCESS:
                break
            yield from self.report(striker, target, turn, 0, "parried")
            striker, target, margin = target, striker, defence_margin
        yield from self.hit(striker, target, turn, striker.weapon + margin, "riposte")

    def hit(self, attacker: Side, defender: Side, turn: int, damage: int, note: str):
        """A blow that lands: protection absorbs and wears, Courage may cancel the loss."""
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
        yield from self.report(attacker, defender, turn, damage, note)
        yield from self.wound(defender, damage)

    def turn(self, sides: list[Side], target: Side, turn: int):
        """One turn: initiative, then one action each in order, round after round."""
        params, hero = self.params, self.hero
        hero.health = self.character.stats[params.health]  # the book may have healed him
        ranked = []
        for index, side in enumerate(sides):
            outcome, margin = yield from self.test(side, params.initiative, "initiative")
            actions = actions_of(params, side)
            if outcome == CRITICAL_FAILURE:  # no action, or 1 of 2 or more
                actions = 1 if actions >= 2 else 0
            rank = (outcome == CRITICAL_SUCCESS, margin, side.is_hero)
            ranked.append((rank, -index, side, actions))
        ranked.sort(key=lambda entry: entry[:2], reverse=True)
        order = [side for _, _, side, _ in ranked]
        left = {id(side): actions for _, _, side, actions in ranked}
        acting = [side for side in order if left[id(side)] > 0]
        if self.emit and acting:
            yield MessageShown(key="initiative", params=(("first", acting[0].name),))
        for _ in range(max(left.values(), default=0)):
            for side in order:
                if left[id(side)] <= 0 or side.health <= 0 or hero.health <= 0:
                    continue
                defender = target if side.is_hero else hero
                if defender.health <= 0:
                    continue
                left[id(side)] -= 1
                if not (yield from self.blow(side, defender, turn, left)):
                    left[id(side)] = 0

    def report(self, attacker: Side, defender: Side, turn: int, damage: int, note: str):
        if self.emit:
            enemy = defender if attacker.is_hero else attacker
            winner = "tie" if not damage else ("hero" if attacker.is_hero else "enemy")
            yield AssaultResolved(
                number=turn, enemy=enemy.name, hero_strength=0, enemy_strength=0, winner=winner,
                hero_damage_taken=0 if attacker.is_hero else damage,
                enemy_damage_taken=damage if attacker.is_hero else 0, note=note,
            )  # fmt: skip


def fight_sides(
    ruleset: Ruleset, character: Character, spec: FightSpec, rng: RandomSource
) -> tuple[Side, list[Side], int]:
    """The hero's side, the enemies' sides (one merged side ``as_one``) and the hero's
    attack bonus (the paragraph's and its tagged modifiers): the setup of a fight, shared
    with the exact odds (dedale.rules.odds_reliques)."""
    params = ruleset.fight
    assert isinstance(params, ReliquesFight)
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
    return hero, enemies, bonus


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
        raise GameError(tr("a reliques fight needs the ruleset's duo_test"))
    hero, enemies, bonus = fight_sides(ruleset, character, spec, rng)
    fight = _Reliques(ruleset, character, rng, hero, enemies, emit, bonus)
    if emit:
        yield FightStarted(
            enemies=tuple((e.name, tuple(e.stats.items())) for e in enemies), mode=spec.mode
        )
    turns = 0
    if hooks is not None:  # the book acts between the assaults
        fight.follow(hooks)
    while True:
        ended = yield from fight.before_turn(spec, turns)
        if ended is not None:
            return ended
        living = [e for e in enemies if e.health > 0]
        if spec.escape_after is not None and turns >= spec.escape_after:
            if (yield YesNoPrompt(kind="escape", params=(("assault", turns),))):
                left = {id(hero): actions_of(params, hero) - 1, id(living[0]): 0}
                yield from fight.blow(living[0], hero, turns, left)  # running is an action
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
        yield from fight.turn([hero, *opponents], target, turns)
        if character.stats[params.health] <= 0:
            return (yield from fight.end(LOST, turns))
