"""The rules written under an enemy, as a fight plays them (issue 13.2).

Damage each way (``it deals 4``, ``it takes 1 (if not Mace)``, ``it takes half``, ``it
takes all (if Sceptre)``), the hero's attack against it (``against it: attack +2 (if Silver
Sword)``), events on an assault (``when it wins an assault``, ``when you win an assault``,
``on a double``, ``when it wounds you``) and the fight's exits (``end the fight when BITES >=
3 -> 80``, ``first assault won -> 30``). Conditions are read with
:func:`dedale.game.conditions.holds` when the rule would act, so a state that changes during
the fight ("while the constrictor holds you") is followed assault by assault.

A damage rule replaces the ruleset's base damage and keeps what the fight added to it (a
Luck test's shift, a class bonus): ``it deals 4`` with an unlucky Luck test (+1) costs 5.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from typing import Any

from dedale import ast, events
from dedale.game.conditions import holds
from dedale.game.statements import END
from dedale.rules.fight_state import FightState, happened, rebased, taken

Gen = Generator[Any, Any, Any]


def _marked(inner: Gen) -> Gen:
    """``inner``'s events and prompts, its stat changes marked as made by an enemy's rule
    (``StatChanged.rule``), the answers sent on to it; returns what ``inner`` returns."""
    try:
        item = next(inner)
        while True:
            if type(item) is events.StatChanged:
                item = replace(item, rule=True)
            item = inner.send((yield item))
    except StopIteration as stop:
        return stop.value


class EnemyRules:
    """The per-enemy rules of one fight, bound to the runner that plays it."""

    def __init__(self, runner, statement: ast.Fight, spec) -> None:
        self.runner = runner
        self.rules = getattr(statement, "rules", ())
        self.target: Any = None
        fight = runner._fight_ruleset(statement).fight
        self.fight = fight
        self.base_taken = spec.enemy_damage
        if self.base_taken is None:
            self.base_taken = getattr(fight, "damage_to_hero", None)
        self.base_dealt = getattr(fight, "damage_to_enemy", None)
        self.initial: dict[tuple[int, str], int] = {}

    def _applies(self, rule: ast.EnemyRule, state: FightState) -> bool:
        if rule.enemy is not None and rule.enemy != state.current and len(state.names) > 1:
            return False
        return rule.condition is None or holds(rule.condition, self.runner)

    def _first(self, kind: str, state: FightState) -> ast.EnemyRule | None:
        for rule in self.rules:
            if rule.kind == kind and self._applies(rule, state):
                return rule
        return None

    def attack_bonus(self, state: FightState) -> int:
        return sum(r.value for r in self.rules if r.kind == "attack" and self._applies(r, state))

    def enemy_wound(self, state: FightState, damage: int) -> Gen:
        """The damage the hero's wound does to the current enemy."""
        rule = self._first("takes", state)
        if rule is not None:
            health = state.health[state.current]
            damage = taken(damage, rule.share, rule.value, self.base_dealt, health)
        return damage
        yield  # a generator: the fight loop delegates to it

    def shown_damage(self, state: FightState, wound: str, damage: int) -> int:
        """The damage of a wound (``dealt`` by the hero or ``taken``) after the current
        enemy's ``it takes`` / ``it deals`` rule, as the Luck question shows it (the rolls of
        ``when it wounds you`` are not known yet)."""
        if wound == "dealt":
            rule = self._first("takes", state)
            if rule is None:
                return damage
            health = state.health[state.current]
            return taken(damage, rule.share, rule.value, self.base_dealt, health)
        rule = self._first("deals", state)
        return damage if rule is None else rebased(damage, self.base_taken, rule.value)

    def hero_wound(self, state: FightState, damage: int) -> Gen:
        """The damage the current enemy's wound does to the hero (``it deals``, then the
        rolls of ``when it wounds you``, a shield's)."""
        rule = self._first("deals", state)
        if rule is not None:
            damage = rebased(damage, self.base_taken, rule.value)
        for rule in self.rules:
            if rule.kind != "event" or rule.on != "it_wounds" or not self._applies(rule, state):
                continue
            for effect in rule.effects:
                if type(effect) is not ast.WoundRoll or damage <= 0:
                    continue
                if effect.dice is None:
                    damage = effect.value
                    continue
                expr = self.runner._parsed(effect.dice.text, effect.dice.span)
                total, faces = expr.roll(self.runner.rng)
                if self.runner.emit:
                    yield events.DiceRolled(purpose="wound", faces=faces, total=total)
                if effect.low <= total <= effect.high:
                    damage = effect.value
        return damage

    def after_assault(self, state: FightState) -> Gen:
        """Events of the last assault, then the exits; returns the fight's outcome when
        one ends it (its destination in ``self.target``)."""
        alive = state.health[state.current] > 0  # a fallen enemy's events do not act
        for rule in self.rules:
            if rule.kind != "event" or not alive or not self._applies(rule, state):
                continue
            if not happened(rule.on, state.winner, state.double, state.hero_damage):
                continue
            flow = yield from self._effects(rule.effects, state)
            if flow is not END and self.fallen():
                return "lost"  # a wound before a turn: death (or the defeat exit) comes first
            if flow is not None:
                self.target = flow
                state.quiet_end = self.runner.state.outcome is not None
                return "limit"
        if self.fallen():
            return "lost"
        for rule in self.rules:
            if rule.kind == "first" and state.assault == 1 and state.winner == "hero":
                self.target = self.runner.destination(rule.target, required=True)
                return "won"
            if rule.kind == "exit" and holds(rule.condition, self.runner):
                self.target = self.runner.destination(rule.target, required=True)
                return "limit"
        return None

    def _effects(self, effects, state: FightState) -> Gen:
        runner = self.runner
        for effect in effects:
            kind = type(effect)
            if kind is ast.WoundRoll:
                continue  # acted on the wound itself
            if kind is ast.EnemyStatChange:
                yield from self._enemy_stat(effect, state)
                continue
            flow = yield from _marked(runner._block((effect,)))
            if flow is not None or self.fallen():
                return flow  # a turn, the end of the game, or the hero fell: no more effects
        return None

    def fallen(self) -> bool:
        """Whether the hero's health is down to 0 (the fight is lost)."""
        health = self.runner.health
        return health is not None and self.runner.state.hero.stats.get(health, 1) <= 0

    def _enemy_stat(self, effect: ast.EnemyStatChange, state: FightState) -> Gen:
        """``its SKILL -2``: the current enemy's attack stat or health changes."""
        found = self.runner.resolve(effect.stat, effect.span, ("stat",))
        ident = found[1]
        index = state.current
        if ident == self.fight.health:
            values = state.health
        elif ident == getattr(self.fight, "attack_stat", None) and state.skills:
            values = state.skills
        else:
            return
        old = values[index]
        values[index] = new = max(0, old + effect.amount)
        initial = self.initial.setdefault((index, ident), old)  # its value at the start
        if self.runner.emit:
            yield events.StatChanged(
                name=ident, old=old, new=new, initial=initial, who=state.names[index], rule=True
            )
