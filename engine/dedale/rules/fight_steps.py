"""The steps the d20 and reliques fights share (:mod:`dedale.rules.fight_d20`,
:mod:`dedale.rules.fight_reliques`): what comes before each turn (the book's rules between
the assaults, the fight won, the assault limit), a wound dealt to one side (the book's
per-enemy rules first), and the end of the fight."""

from __future__ import annotations

from dedale.events import EnemyDefeated, FightEnded, StatChanged
from dedale.rules.fight_state import FightState, between_assaults
from dedale.rules.fights import LIMIT, WON, FightResult, FightSpec


class FightSteps:
    """Mixed into a fight's state: ``self.params`` (its ``health`` stat), ``character``,
    ``hero`` (the hero's side), ``enemies``, ``emit``, ``hooks`` and ``between`` (the book's
    rules and their view of the fight); a side has ``name``, ``health`` and ``initial``."""

    def follow(self, hooks) -> None:
        """The book acts between the assaults and inside them (``hooks``)."""
        self.hooks = hooks
        self.between = FightState([e.name for e in self.enemies], [e.health for e in self.enemies])
        self.hero_health = self.character.stats[self.params.health]

    def before_turn(self, spec: FightSpec, turns: int):
        """Before the turn after ``turns``: the book's rules between the assaults, then the
        fight won, then the assault limit; the fight's result when it ends there, else None."""
        between = self.between
        if between is not None and turns:
            stats, health = self.character.stats, self.params.health
            loss = max(0, self.hero_health - stats[health])
            stop = yield from between_assaults(self.hooks, between, self.enemies, turns, loss)
            self.hero_health = stats[health]
            if stop is not None:
                if not self.emit or between.quiet_end:
                    self.emit = False
                return (yield from self.end(stop, turns))
        if not any(e.health > 0 for e in self.enemies):
            return (yield from self.end(WON, turns))
        if spec.assault_limit is not None and turns >= spec.assault_limit:
            return (yield from self.end(LIMIT, turns))
        return None

    def wound(self, side, damage: int):
        """``side`` takes ``damage`` (after the book's rules): the hero's health stat, or the
        enemy's health (defeated at 0)."""
        if self.hooks is not None and damage > 0:  # the book's per-enemy rules
            damage = yield from self._book_wound(side, damage)
        if damage <= 0:
            return
        if side is self.hero:
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
        """The fight ends: its result (the enemies still standing)."""
        if self.emit:
            yield FightEnded(outcome=outcome, assaults=turns)
        left = tuple((e.name, e.health) for e in self.enemies if e.health > 0)
        return FightResult(outcome, turns, left)
