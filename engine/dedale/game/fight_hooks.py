"""The book's rules inside a fight: the hooks the rules core's fight loop calls
(:class:`dedale.rules.fight_state.FightHooks`) for fight extras (allies, statuses acting
each assault, an assault table, "when STAMINA falls to N", "after N assaults won") and the
rules written under an enemy (:mod:`dedale.game.enemy_rules`).

The fight is one fight of the rules core from its first assault to its last: the hooks
only act between assaults and on each wound, so every rule of the ruleset (a class bonus
on the first wound of a fight, armour on its first assault) applies once, as in a fight
without extras.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from dedale import ast, events
from dedale.game.enemy_rules import EnemyRules
from dedale.game.statements import END
from dedale.game.triggers import fire_triggers, holds_triggers
from dedale.rules import parse_dice
from dedale.rules.fight_state import FightState

Gen = Generator[Any, Any, Any]


class ExtrasHooks:
    """The hooks of one fight with extras (built by the Runner for each fight)."""

    def __init__(self, runner, statement: ast.Fight, ruleset, spec, allies: list) -> None:
        self.runner = runner
        self.statement = statement
        self.ruleset = ruleset
        self.spec = spec
        self.allies = allies
        self.health = ruleset.fight.health
        self.target: Any = None  # where the fight turns to (a threshold, a table row...)
        self.won = 0  # assaults won by the hero (the enemies' health went down)
        self.previous: int | None = None  # the enemies' health after the last assault
        self.rules = EnemyRules(runner, statement, spec)
        self.struck: str | None = None  # whom the enemies strike this assault (once rolled)
        self.pending = 0  # the wound an ally takes, dealt once the assault is narrated

    # ----------------------------------------------------------------- inside an assault

    def attack_bonus(self, state: FightState) -> int:
        return self.rules.attack_bonus(state)

    def enemy_wound(self, state: FightState, damage: int) -> Gen:
        return self.rules.enemy_wound(state, damage)

    def shown_damage(self, state: FightState, wound: str, damage: int) -> int:
        """What a wound will do once the rules under the enemy act (for the Luck question)."""
        return self.rules.shown_damage(state, wound, damage)

    def hero_wound(self, state: FightState, damage: int) -> Gen:
        damage = yield from self.rules.hero_wound(state, damage)
        if self.ally_takes(state):
            yield from self._ally_wound(damage)
            return 0
        return (yield from self._rescue(damage))

    def wound_rules(self, state: FightState, damage: int) -> Gen:
        """:meth:`hero_wound` without the rescue: the fight narrates its assault, then calls
        :meth:`rescue` (so a potion is told after the wound that calls for it, and an ally's
        wound after the blow it takes for the hero)."""
        damage = yield from self.rules.hero_wound(state, damage)
        if self.ally_takes(state):
            self.pending = damage
            return 0
        return damage

    def rescue(self, damage: int) -> Gen:
        """An item that saves the hero from this wound (see :meth:`_rescue`), or the wound
        :meth:`wound_rules` gave an ally."""
        if self.pending:
            pending, self.pending = self.pending, 0
            yield from self._ally_wound(pending)
            return 0
        return (yield from self._rescue(damage))

    def ally_takes(self, state: FightState) -> bool:
        """Whether the enemy's wound of this assault goes to an ally (``the enemy strikes the
        ally``, or the random roll said so, and an ally stands): the hero takes none of it,
        so it cannot kill him and Luck is not his to test on it."""
        return bool(self.allies) and self._struck_now() == "ally" and self._standing() != []

    def _struck_now(self) -> str:
        """Whom the enemies strike this assault: the author's choice, or one roll per
        assault (made at the first wound or exchange that needs it)."""
        if self.struck is None:
            struck = self.statement.struck
            if struck == "random":
                struck = "ally" if self.runner.rng.roll(2) == 1 else "hero"
            self.struck = struck
        return self.struck

    def _standing(self) -> list:
        health = self.health
        return [ally for ally in self.allies if ally.stats.get(health, 0) > 0]

    def _ally_wound(self, damage: int) -> Gen:
        """The first ally standing takes the hero's wound."""
        if damage > 0:
            yield from self.runner._wound(self._standing()[0], self.health, damage, ally=True)

    def _rescue(self, damage: int) -> Gen:
        """A wound that would kill the hero while he holds an item acting at that point
        ("when STAMINA falls to 0: restore STAMINA", issue 13 §7): the wound lands here and
        the item acts at once, so the fight goes on; the loop then takes no more."""
        runner = self.runner
        hero = runner.state.hero
        health = self.health
        if not runner.watch_triggers or not holds_triggers(hero):
            return damage
        old = hero.stats.get(health, 0)
        if damage <= 0 or old - damage > 0:
            return damage
        hero.stats[health] = 0
        if runner.emit:
            yield events.StatChanged(name=health, old=old, new=0, initial=hero.initial[health])
        fired = yield from fire_triggers(runner)
        if not fired or hero.stats.get(health, 0) <= 0:
            hero.stats[health] = old  # nothing saved him: the loop deals the wound itself
            return damage
        return 0

    # ----------------------------------------------------------------- between assaults

    def after_assault(self, state: FightState) -> Gen:
        runner, statement = self.runner, self.statement
        hero = runner.state.hero
        total = sum(state.health)
        if self.previous is None:
            self.previous = sum(state.start)
        if total < self.previous:
            self.won += 1
        outcome = None
        if self.allies:
            yield from self._allies(state)
            if not any(h > 0 for h in state.health):
                outcome = "won"
        if outcome is None:
            outcome = yield from self.rules.after_assault(state)
            if self.rules.target is not None:
                self.target = self.rules.target
        if outcome is None and statement.assault_table is not None:
            flow = yield from runner._roll_table(statement.assault_table)
            if flow is not END and self.rules.fallen():
                outcome = "lost"  # a row's wound felled the hero: lost, even if it turned
            elif flow is not None:  # a row turned to a paragraph, or ended the game
                self.target = flow
                state.quiet_end = runner.state.outcome is not None
                outcome = "limit"
        if outcome is None and runner.watch_triggers:  # "when STAMINA falls to 4: ..."
            yield from fire_triggers(runner)
        if outcome is None:
            yield from runner._ongoing_effects("assault")
            threshold, needed = statement.threshold, statement.win_assaults
            if runner.health is not None and hero.stats.get(runner.health, 1) <= 0:
                outcome = "lost"
            elif threshold is not None and runner._value_of(threshold) <= threshold.value:
                outcome, self.target = "limit", runner.destination(threshold.target, required=True)
            elif needed is not None and self.won >= needed.count:
                outcome, self.target = "won", runner.destination(needed.target, required=True)
        self.previous = sum(state.health)
        self.struck = None  # rolled again in the next assault
        return outcome

    def _allies(self, state: FightState) -> Gen:
        """The allies' exchanges of one assault (they wound the enemies in ``state``): every
        ally standing strikes, even when another fell taking the hero's wound."""
        runner = self.runner
        fight = self.ruleset.fight
        health, attack = fight.health, getattr(fight, "attack_stat", "SKILL")
        struck = self._struck_now()
        standing = self._standing()
        dice = getattr(fight, "dice", None) or parse_dice("2d6")
        to_enemy = getattr(fight, "damage_to_enemy", 2)
        to_ally = self.spec.enemy_damage or getattr(fight, "damage_to_hero", 2)
        for ally in standing:
            living = [i for i, h in enumerate(state.health) if h > 0]
            if not living:
                break
            index = living[0]
            name = state.names[index]
            ally_strength = ally.stats.get(attack, 0) + dice.roll(runner.rng)[0]
            enemy_strength = self._enemy_attack(state, index, attack) + dice.roll(runner.rng)[0]
            if ally_strength > enemy_strength:
                outcome = "won"
            else:
                outcome = "lost" if ally_strength < enemy_strength else "tie"
            if runner.emit:
                params = (
                    ("ally", ally.name), ("enemy", name),
                    ("ally_strength", ally_strength), ("enemy_strength", enemy_strength),
                )  # fmt: skip
                yield events.MessageShown(key=f"ally_{outcome}", params=params)
            if outcome == "won":
                old = state.health[index]
                state.health[index] = new = max(0, old - to_enemy)
                if runner.emit:
                    yield events.StatChanged(name=health, old=old, new=new, initial=old, who=name)
                    if new <= 0:
                        yield events.EnemyDefeated(name=name)
            elif outcome == "lost" and struck == "ally":
                yield from runner._wound(ally, health, to_ally, ally=True)

    def _enemy_attack(self, state: FightState, index: int, attack: str) -> int:
        """The enemy's attack stat as the fight has it now (the spec's, in d20/reliques)."""
        if state.skills:
            return state.skills[index]
        enemies = self.spec.enemies
        return int(enemies[index].stats.get(attack, 0)) if index < len(enemies) else 0
