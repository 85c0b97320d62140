"""Fight extras (issue 8) and rules under an enemy (issue 13.2), a mixin of the Runner:
a fight in which the book acts — allies fighting beside the hero, statuses acting each
assault, an assault table, "when STAMINA falls to N", "after N assaults won", per-enemy
damage, modifiers, events and exits.

Such a fight is one fight of the rules core, run with the book's hooks
(:class:`dedale.game.fight_hooks.ExtrasHooks`) that its loop calls after each assault and
on each wound (issue 15.1: there is no second path re-running assaults, so every rule of a
whole fight — armour on its first assault, a class's bonus on its first wound — applies
once, exactly as in a fight without extras).

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
from dedale.game.triggers import holds_triggers

Gen = Generator[Any, Any, Any]


class FightExtras:
    """The fight with the book's extras (see the module docstring)."""

    def _by_assault(self, statement: ast.Fight) -> bool:
        """Whether the book acts in this fight (fight extras, statuses, per-enemy rules):
        the fight then runs with :class:`ExtrasHooks`."""
        return (
            statement.threshold is not None
            or statement.win_assaults is not None
            or bool(statement.allies)
            or statement.assault_table is not None
            or bool(getattr(statement, "rules", ()))
            or bool(self.state.statuses)
            and any(d.get("per") == "assault" for d in self.state.statuses.values())
            or self.watch_triggers  # an item acting when STAMINA falls to 0 (issue 13 §7)
            and holds_triggers(self.state.hero)
        )

    def _fight_by_assault(self, statement: ast.Fight, spec) -> Gen:
        """Run the fight once through the rules core with the book's hooks acting after
        each assault (allies' exchanges, statuses, the assault table, "when STAMINA falls to
        N", "after N assaults won", per-enemy rules). Returns ``(FightResult, destination,
        END or None)``."""
        from dedale.game.fight_hooks import ExtrasHooks
        from dedale.rules import run_fight

        ruleset = self._fight_ruleset(statement)
        allies = []
        for ally in statement.allies:
            allies.append((yield from self._roll_fighter(self._enemy(ally))))
        hooks = ExtrasHooks(self, statement, ruleset, spec, allies)
        result = yield from run_fight(
            ruleset, self.state.hero, self.rng, spec, emit=self.emit, hooks=hooks
        )
        if hooks.target is None and result.outcome == "won" and result.assaults == 1:
            # won in the first assault: "first assault won -> X" too (no hook ran after it)
            first = next((r for r in statement.rules if r.kind == "first"), None)
            if first is not None:
                hooks.target = self.destination(first.target, required=True)
        return result, hooks.target

    def _value_of(self, threshold: ast.FightThreshold) -> int:
        kind, ident = self.resolve(threshold.stat, threshold.span, ("stat", "counter"))
        hero = self.state.hero
        return hero.stats[ident] if kind == "stat" else hero.counters.get(ident, 0)

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
