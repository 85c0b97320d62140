"""One assault of a d20 fight the book acts in, blow by blow (rules/odds_d20_acting.py).

The mixin of :class:`~dedale.rules.odds_d20_acting.ActingEngine` that plays an assault as
:func:`dedale.rules.fight_d20.d20_fight` strikes it with the book's hooks: the hero's blow
on his target (his attack law with its ``against it`` bonus) and, after a miss, the
target's riposte; then each enemy that fights this assault strikes (and the hero ripostes
after a miss). A wound the hero deals goes through ``it takes`` (a hit that does no damage is
left alone, as the hooks do), a wound he takes through ``it deals`` and the wound rolls of
``when it wounds you``; each rule is the one of the enemy in the exchange, its condition read
with the counters and the hero's HP of the blow. When no rule reads the hero's HP, each
exchange is read once as the HP it takes from each side (its deltas) and an assault is their
sum, clipped at 0, which is the same fight.
"""

from __future__ import annotations

import dataclasses

from dedale.rules.fight_state import rebased, taken
from dedale.rules.odds_d20_attack import attack_law
from dedale.rules.odds_exits import Condition

HUGE = 1 << 40  # the health of the fighters an exchange's deltas are read against


class AssaultLaws:
    """Blows, exchanges and assaults (the engine sets ``params``, ``hero``, ``enemies``,
    ``plan``, ``n``, ``together``, ``names``, ``struck``, the bases of the damage rules,
    ``inside_reads`` and the memo tables)."""

    # ------------------------------------------------------------------ conditions
    def _holds(self, when: Condition | None, counters: tuple, health: int) -> bool:
        if when is None:
            return True
        key = (id(when), counters, health)
        found = self._conditions.get(key)
        if found is None:
            values = dict(zip(self.names, counters, strict=True))
            values[self.plan.health] = health
            found = self._conditions[key] = bool(when(values))
        return found

    def _mine(self, enemy: int | None, index: int) -> bool:
        return enemy is None or enemy == index or self.n == 1

    # ------------------------------------------------------------------ one blow
    def _hero_law(self, index: int, counters: tuple, health: int):
        extra = sum(
            value for enemy, value, when in self.plan.attacks
            if self._mine(enemy, index) and self._holds(when, counters, health)
        )  # fmt: skip
        key = (index, extra)
        law = self._laws.get(key)
        if law is None:
            hero = dataclasses.replace(self.hero, attack=self.hero.attack + extra)
            law = self._laws[key] = attack_law(self.params, hero, self.enemies[index])
        return law

    def _dealt(self, damage: int, index: int, left: int, counters: tuple, health: int) -> int:
        """What a wound of ``damage`` (> 0) the hero deals does to enemy ``index``."""
        for rule in self.plan.damages:
            if rule.kind == "takes" and self._mine(rule.enemy, index):
                if self._holds(rule.when, counters, health):
                    return taken(damage, rule.share, rule.value, self.base_dealt, left)
        return damage

    def _taken(self, damage: int, index: int, counters: tuple, health: int):
        """The law of what a wound of ``damage`` (> 0) from enemy ``index`` costs the hero."""
        for rule in self.plan.damages:
            if rule.kind == "deals" and self._mine(rule.enemy, index):
                if self._holds(rule.when, counters, health):
                    damage = rebased(damage, self.base_taken, rule.value)
                    break
        law = [(1.0, damage)]
        for enemy, when, p, value in self.plan.wound_rolls:
            if not self._mine(enemy, index) or not self._holds(when, counters, health):
                continue
            law = [
                pair for q, d in law
                for pair in (((q * p, value), (q * (1 - p), d)) if d > 0 else ((q, d),))
            ]  # fmt: skip
        return law

    def _hero_strikes(self, h: int, e: tuple, index: int, counters: tuple, riposte: bool):
        """The hero's blow on enemy ``index`` and, after a miss, its riposte: ``[(p, h, e)]``."""
        law = self._hero_law(index, counters, h)
        found = []
        left = e[index]
        for damage, p in law.hits:
            dealt = self._dealt(damage, index, left, counters, h)
            if dealt > 0:
                found.append((p, h, (*e[:index], max(0, left - dealt), *e[index + 1 :])))
            else:
                found.append((p, h, e))
        stay = law.stay
        if riposte:
            found.extend((law.miss * p, after, e) for p, after in self._struck(index, h, counters))
        else:
            stay += law.miss
        found.append((stay, h, e))
        return found

    def _struck(self, index: int, h: int, counters: tuple) -> list[tuple[float, int]]:
        """Enemy ``index``'s blow on the hero, no riposte: ``[(p, hero HP after)]``."""
        law = self.struck[index]
        found = [(law.miss + law.stay, h)]
        for damage, p in law.hits:
            for q, cost in self._taken(damage, index, counters, h):
                found.append((p * q, h - cost if 0 < cost < h else (0 if cost > 0 else h)))
        return found

    def _enemy_strikes(self, h: int, e: tuple, index: int, counters: tuple):
        """Enemy ``index``'s blow and, after a miss, the hero's riposte."""
        law = self.struck[index]
        found = []
        for damage, p in law.hits:
            for q, cost in self._taken(damage, index, counters, h):
                after = h - cost if 0 < cost < h else (0 if cost > 0 else h)
                found.append((p * q, after, e))
        found.append((law.stay, h, e))
        if law.miss > 0:
            found.extend(
                (law.miss * p, h2, e2)
                for p, h2, e2 in self._hero_strikes(h, e, index, counters, riposte=False)
            )
        return found

    # ------------------------------------------------------------------ one assault
    def _assault(self, h: int, e: tuple, target: int, counters: tuple):
        """``(loss, ((p, h, e, won, winner, current, standing), ...))`` of one assault on
        ``target`` (``current``: the first enemy standing after it, as the hooks see it)."""
        key = (h, e, target, counters if self.inside_reads else None)
        found = self._assaults.get(key)
        if found is not None:
            return found
        if self.plan.reads_health:  # the rules read the HP of each blow: blow by blow
            loss, step = self._blow_by_blow(h, e, target, counters)
        else:
            loss, step = self._by_deltas(h, e, target, counters)
        ends = []
        total = sum(e)
        for (h2, e2), p in step.items():
            if h2 <= 0:
                loss += p
                continue
            won = sum(e2) < total  # the enemies' health went down: the hooks' "won"
            standing = [i for i, left in enumerate(e2) if left > 0]
            winner = "hero" if won else ("enemy" if h2 < h else "tie")
            ends.append((p, h2, e2, won, winner, standing[0] if standing else 0, bool(standing)))
        found = self._assaults[key] = (loss, tuple(ends))
        if len(self._assaults) > 200_000:
            self._assaults.clear()
        return found

    def _blow_by_blow(self, h: int, e: tuple, target: int, counters: tuple):
        step: dict[tuple, float] = {}
        for p, h2, e2 in self._hero_strikes(h, e, target, counters, riposte=True):
            if p > 0:
                step[(h2, e2)] = step.get((h2, e2), 0.0) + p
        loss = 0.0
        for index in range(self.n) if self.together else (target,):
            after: dict[tuple, float] = {}
            for (h1, e1), p in step.items():
                if h1 <= 0:
                    loss += p
                elif e1[index] > 0:
                    for q, h2, e2 in self._enemy_strikes(h1, e1, index, counters):
                        if q > 0:
                            after[(h2, e2)] = after.get((h2, e2), 0.0) + p * q
                else:
                    after[(h1, e1)] = after.get((h1, e1), 0.0) + p
            step = after
        return loss, step

    def _deltas(self, index: int, counters: tuple, first: bool) -> tuple:
        """One exchange with enemy ``index`` (``first``: the hero's blow and its riposte,
        else the enemy's blow and the hero's riposte) as ``((p, HP lost, its HP lost), ...)``,
        read from the same blows played against fighters of ``HUGE`` health (a loss of
        ``HUGE``: ``it takes all``). Exact when no rule reads the hero's HP."""
        key = (index, counters if self.inside_reads else None, first)
        found = self._exchanges.get(key)
        if found is None:
            e = (HUGE,) * self.n
            if first:
                moves = self._hero_strikes(HUGE, e, index, counters, riposte=True)
            else:
                moves = self._enemy_strikes(HUGE, e, index, counters)
            merged: dict[tuple, float] = {}
            for p, h2, e2 in moves:
                if p > 0:
                    delta = (HUGE - h2, HUGE - e2[index])
                    merged[delta] = merged.get(delta, 0.0) + p
            found = self._exchanges[key] = tuple((p, dh, de) for (dh, de), p in merged.items())
        return found

    def _by_deltas(self, h: int, e: tuple, target: int, counters: tuple):
        """:meth:`_blow_by_blow` through the exchanges' deltas (the same moves, faster)."""
        loss = 0.0
        step: dict[tuple, float] = {}
        left = e[target]
        for p, dh, de in self._deltas(target, counters, True):
            if dh >= h:
                loss += p
                continue
            e1 = e if de == 0 else (*e[:target], max(0, left - de), *e[target + 1 :])
            key = (h - dh, e1)
            step[key] = step.get(key, 0.0) + p
        for index in range(self.n) if self.together else (target,):
            after: dict[tuple, float] = {}
            exchange = self._deltas(index, counters, False)
            for (h1, e1), p in step.items():
                left = e1[index]
                if left <= 0:
                    after[(h1, e1)] = after.get((h1, e1), 0.0) + p
                    continue
                for q, dh, de in exchange:
                    if dh >= h1:
                        loss += p * q
                        continue
                    e2 = e1 if de == 0 else (*e1[:index], max(0, left - de), *e1[index + 1 :])
                    key = (h1 - dh, e2)
                    after[key] = after.get(key, 0.0) + p * q
            step = after
        return loss, step
