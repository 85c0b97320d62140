"""Fight extras (issue 8), a mixin of the Runner: a fight run one assault at a time
through the rules core, so that the book can act between assaults — allies fighting beside
the hero, statuses acting each assault, "when STAMINA falls to N", "after N assaults won".

Each assault is a rules-core fight limited to one assault and resumed with the enemies'
health; only one FightStarted and one FightEnded reach the reader, and assaults are
numbered across the whole fight. Fights without extras never come here: they run in one
piece, exactly as before. Armour that guards the first assault of each fight (df48.5)
guards only the first assault here too; a class's bonus to the first wound of a fight
applies to the first wound of each assault (a limit of running assaults one by one).

Allies (``> ally BRAN SKILL 8 STAMINA 10``) each exchange blows with the current enemy
after the hero's assault: the higher attack strength wounds the other (the ruleset's
damage); whom the enemies strike is the author's (``> the enemy strikes the ally``): the
hero (default: allies are never wounded), the ally (the hero's wounds of the assault go to
the first ally standing, and allies losing their exchange are wounded), or at random (one
roll per assault).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator
from typing import Any

from dedale import ast, events
from dedale.game.triggers import fire_triggers, holds_triggers
from dedale.rules import parse_dice
from dedale.rules.fight_opposed import ARMOUR_OFF

Gen = Generator[Any, Any, Any]


class FightExtras:
    """The assault-by-assault fight (see the module docstring)."""

    def _by_assault(self, statement: ast.Fight) -> bool:
        """Whether this fight must be run assault by assault (fight extras, statuses)."""
        return (
            statement.threshold is not None
            or statement.win_assaults is not None
            or bool(statement.allies)
            or statement.assault_table is not None
            or bool(self.state.statuses)
            and any(d.get("per") == "assault" for d in self.state.statuses.values())
            or self.watch_triggers  # an item acting when STAMINA falls to 0
            and holds_triggers(self.state.hero)
        )

    def _fight_by_assault(self, statement: ast.Fight, spec) -> Gen:
        """Run a fight one assault at a time through the rules core (each assault is a fight
        limited to one assault, resumed with the enemies' health), checking between
        assaults: allies' own exchanges, statuses acting each assault, "when STAMINA falls
        to N", "after N assaults won", a dice table rolled each assault. Returns
        ``(FightResult, destination, END or None)``."""
        from dedale.rules import run_fight
        from dedale.rules.fights import MAX_ASSAULTS, FightResult, endless_fight

        ruleset = self._fight_ruleset(statement)
        hero = self.state.hero
        health = ruleset.fight.health
        enemies = list(spec.enemies)
        allies = []
        for ally in statement.allies:
            allies.append((yield from self._roll_fighter(self._enemy(ally))))
        assaults = won = 0
        while True:
            escape = None if spec.escape_after is None else max(0, spec.escape_after - assaults)
            one = dataclasses.replace(
                spec, enemies=tuple(enemies), assault_limit=1, escape_after=escape
            )
            before = sum(enemy.stats.get(health, 0) for enemy in enemies)
            hero_before = hero.stats.get(health, 0)
            gen = run_fight(ruleset, hero, self.rng, one, emit=self.emit)
            primed = _prime(gen, hero) if assaults else None
            result = yield from _one_assault(gen, assaults == 0, assaults, primed)
            assaults += result.assaults
            outcome, target = result.outcome, None
            if (
                self.watch_triggers
                and outcome in ("limit", "lost")
                and (yield from fire_triggers(self))
            ):
                if outcome == "lost" and hero.stats.get(health, 0) > 0:
                    outcome = "limit"  # a potion at 0 STAMINA: the fight goes on
            if outcome == "limit":
                enemies = _survivors(enemies, result.enemies_left, health)
                if sum(enemy.stats.get(health, 0) for enemy in enemies) < before:
                    won += 1
                if allies:
                    loss = max(0, hero_before - hero.stats.get(health, 0))
                    enemies = yield from self._allies_assault(
                        statement, ruleset, spec, allies, enemies, loss
                    )
                    if not enemies:
                        outcome = "won"
                if outcome == "limit" and statement.assault_table is not None:
                    flow = yield from self._roll_table(statement.assault_table)
                    if flow is not None:  # a row turned to a paragraph, or ended the game
                        if self.emit and self.state.outcome is None:
                            yield events.FightEnded(outcome="limit", assaults=assaults)
                        return FightResult("limit", assaults, result.enemies_left), flow
                if outcome == "limit":
                    yield from self._ongoing_effects("assault")
                threshold, needed = statement.threshold, statement.win_assaults
                if outcome == "won":
                    pass
                elif self.health is not None and hero.stats.get(self.health, 1) <= 0:
                    outcome = "lost"
                elif threshold is not None and self._value_of(threshold) <= threshold.value:
                    target = self.destination(threshold.target, required=True)
                elif needed is not None and won >= needed.count:
                    outcome, target = "won", self.destination(needed.target, required=True)
                elif spec.assault_limit is None or assaults < spec.assault_limit:
                    if assaults >= MAX_ASSAULTS:
                        raise endless_fight(MAX_ASSAULTS)
                    continue
            if self.emit:
                yield events.FightEnded(outcome=outcome, assaults=assaults)
            left = () if outcome == "won" else result.enemies_left
            return FightResult(outcome, assaults, left), target

    def _value_of(self, threshold: ast.FightThreshold) -> int:
        kind, ident = self.resolve(threshold.stat, threshold.span, ("stat", "counter"))
        hero = self.state.hero
        return hero.stats[ident] if kind == "stat" else hero.counters.get(ident, 0)

    def _allies_assault(self, statement, ruleset, spec, allies, enemies, loss) -> Gen:
        """The allies' exchanges of one assault; returns the enemies still standing."""
        fight = ruleset.fight
        health, attack = fight.health, getattr(fight, "attack_stat", "SKILL")
        hero = self.state.hero
        struck = statement.struck
        if struck == "random":
            struck = "ally" if self.rng.roll(2) == 1 else "hero"
        standing = [ally for ally in allies if ally.stats.get(health, 0) > 0]
        if struck == "ally" and loss and standing:  # the blow was meant for the ally
            old = hero.stats[health]
            hero.stats[health] = old + loss
            if self.emit:
                initial = hero.initial[health]
                yield events.StatChanged(name=health, old=old, new=old + loss, initial=initial)
            yield from self._wound(standing[0], health, loss, ally=True)
        dice = getattr(fight, "dice", None) or parse_dice("2d6")
        to_enemy = getattr(fight, "damage_to_enemy", 2)
        to_ally = spec.enemy_damage or getattr(fight, "damage_to_hero", 2)
        for ally in standing:
            if not enemies or ally.stats.get(health, 0) <= 0:
                break
            enemy = enemies[0]
            ally_strength = ally.stats.get(attack, 0) + dice.roll(self.rng)[0]
            enemy_strength = enemy.stats.get(attack, 0) + dice.roll(self.rng)[0]
            if ally_strength > enemy_strength:
                outcome = "won"
            else:
                outcome = "lost" if ally_strength < enemy_strength else "tie"
            if self.emit:
                params = (
                    ("ally", ally.name), ("enemy", enemy.name),
                    ("ally_strength", ally_strength), ("enemy_strength", enemy_strength),
                )  # fmt: skip
                yield events.MessageShown(key=f"ally_{outcome}", params=params)
            if outcome == "won":
                enemies[0] = enemy = yield from self._wound(enemy, health, to_enemy)
                if enemy.stats.get(health, 0) <= 0:
                    enemies.pop(0)
                    if self.emit:
                        yield events.EnemyDefeated(name=enemy.name)
            elif outcome == "lost" and struck == "ally":
                yield from self._wound(ally, health, to_ally, ally=True)
        return enemies

    def _wound(self, fighter, health: str, damage: int, ally: bool = False) -> Gen:
        """``fighter`` (an ally or an enemy spec) after losing ``damage`` health. An ally is
        changed in place (the fight owns its allies); an enemy spec is copied (specs are
        shared by the games of a book)."""
        old = fighter.stats.get(health, 0)
        new = max(0, old - damage)
        if ally:
            fighter.stats[health] = new
        else:
            fighter = dataclasses.replace(fighter, stats={**fighter.stats, health: new})
        if self.emit:
            yield events.StatChanged(name=health, old=old, new=new, initial=old, who=fighter.name)
            if ally and new == 0:
                yield events.MessageShown(key="ally_falls", params=(("ally", fighter.name),))
        return fighter


def _prime(gen: Gen, hero) -> tuple[str, Any]:
    """Start an assault after the first with the hero's armour worn out, so that armour
    guarding "the first assault of each fight" does not act (the rules core reads it when
    the fight starts, before anything is yielded); returns what the start gave."""
    worn = hero.fights_with_armour
    hero.fights_with_armour = ARMOUR_OFF  # first-assault armour does not act
    try:
        return "item", next(gen)
    except StopIteration as stop:
        return "done", stop.value
    finally:
        hero.fights_with_armour = worn


def _one_assault(gen: Gen, first: bool, offset: int, primed=None) -> Gen:
    """Forward one assault's events and prompts; drop its FightEnded (and its FightStarted
    after the first assault); number its assaults after the ``offset`` already fought.
    ``primed``: what :func:`_prime` already took from ``gen``."""
    value = None
    while True:
        if primed is not None:
            kind, item = primed
            primed = None
            if kind == "done":
                return item
        else:
            try:
                item = gen.send(value)
            except StopIteration as stop:
                return stop.value
        kind = type(item)
        if kind is events.FightEnded or (kind is events.FightStarted and not first):
            value = None
            continue
        if kind is events.AssaultResolved and offset:
            item = dataclasses.replace(item, number=item.number + offset)
        value = yield item


def _survivors(enemies: list, left: tuple[tuple[str, int], ...], health: str) -> list:
    """The enemies still standing, with their health after the assault (``left`` pairs
    names and health in the fight's order, the fallen left out)."""
    survivors = []
    remaining = list(left)
    for enemy in enemies:
        if remaining and remaining[0][0] == enemy.name:
            _, value = remaining.pop(0)
            stats = dict(enemy.stats)
            stats[health] = value
            survivors.append(dataclasses.replace(enemy, stats=stats))
    return survivors
