"""The dice and one assault of a fight at once with exits (a part of
:class:`dedale.rules.odds_group_exits.GroupExitSolver`): the hero's rolls and the chances
of each enemy's strength against them, then one assault against the chosen target without
Luck (its moves summed over the hero's rolls), the target's side of it, the Luck options of
a wound, the rules under an enemy (``it takes``, ``it deals``, its wound rolls) and the
other enemies' blows."""

from __future__ import annotations

import functools

from dedale.rules.fight_state import rebased, taken
from dedale.rules.odds_exits_dice import plain_dice
from dedale.rules.odds_exits_plan import Condition
from dedale.rules.odds_inputs import below_function
from dedale.rules.ruleset import OpposedFight


class OneAssault:
    """The dice and the assault of :class:`~dedale.rules.odds_group_exits.GroupExitSolver`."""

    # ------------------------------------------------------------------ the dice

    def _dice(self, fight: OpposedFight) -> None:
        """The hero's rolls ``(p, total, double)`` and ``below(x)``: P(an enemy rolls < x)."""
        dice = fight.dice
        count, sides, constant = plain_dice(fight)
        rolls: dict[tuple[int, bool], float] = {}
        each = 1.0 / sides**count
        for code in range(sides**count):
            faces = [(code // sides**i) % sides + 1 for i in range(count)]
            double = self.doubles and count > 1 and len(set(faces)) == 1
            key = (sum(faces) + constant, double)
            rolls[key] = rolls.get(key, 0.0) + each
        self.rolls = tuple((p, total, double) for (total, double), p in sorted(rolls.items()))
        exact = below_function(dice.distribution())
        low, high = dice.min(), dice.max()
        table = {x: float(exact(x)) for x in range(low, high + 2)}
        self.below = lambda x: 0.0 if x <= low else 1.0 if x > high else table[x]

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one solver per fight setting
    def _per_roll(self, lead: int, gaps: tuple[int, ...], immune: bool) -> tuple:
        """Per hero roll: ``(p, double, ((p, winner), ...), side chances)``: the target's
        outcomes and the chance each other enemy's strength beats the hero's (``lead``:
        the hero's attack minus the target's; ``gaps``: minus each other enemy's)."""
        below, kill = self.below, self.fight.instant_kill_on_double and not immune
        found = []
        for p, total, double in self.rolls:
            sides = tuple(1.0 - below(gap + total + 1) for gap in gaps)
            if kill and double:
                found.append((p, double, ((1.0, "kill"),), sides))
                continue
            lower, upto = below(lead + total), below(lead + total + 1)
            outcomes = tuple(
                (q, w) for q, w in ((lower, "hero"), (upto - lower, "tie"), (1 - upto, "enemy"))
                if q > 0
            )  # fmt: skip
            found.append((p, double, outcomes, sides))
        return tuple(found)

    @functools.lru_cache(maxsize=4096)  # noqa: B019
    def _joint(self, lead: int, gaps: tuple[int, ...], immune: bool, guarded: bool) -> tuple:
        """Without Luck: ``(p, winner, double, hits)`` summed over the hero's rolls, ``hits``
        telling which other enemies beat the hero (none while the armour guards)."""
        joint: dict[tuple, float] = {}
        for p, double, outcomes, sides in self._per_roll(lead, gaps, immune):
            combos = [((), 1.0)]
            for chance in () if guarded else sides:
                combos = [
                    (hits + (hit,), w * (chance if hit else 1 - chance))
                    for hits, w in combos
                    for hit in (False, True)
                    if (chance if hit else 1 - chance) > 0
                ]
            for q, winner in outcomes:
                for hits, w in combos:
                    key = (winner, double, hits)
                    joint[key] = joint.get(key, 0.0) + p * q * w
        return tuple((p, w, d, hits) for (w, d, hits), p in joint.items())

    # ------------------------------------------------------------------ one assault

    def _holds(self, when: Condition | None, h: int, counters: tuple) -> bool:
        if when is None:
            return True
        values: dict[str, int] = dict(zip(self.names, counters, strict=True))
        values[self.health] = h
        return bool(when(values))

    def _mine(self, enemy: int | None, index: int) -> bool:
        return enemy is None or enemy == index or len(self.plan.enemies) == 1

    def _assault(self, state: tuple, t: int) -> tuple[float, list[tuple[float, tuple]]]:
        """One assault against target ``t``: (chance the state comes back unchanged, the
        other moves with their chances)."""
        plan = self.plan
        h, luck, es, shifts, k, won, hit, counters = state
        skills = [s + d for (s, _h, _i), d in zip(plan.enemies, shifts, strict=True)]
        base = self.skill
        for enemy, value, when in plan.attacks:
            if self._mine(enemy, t) and self._holds(when, h, counters):
                base += value
        sides = tuple(j for j, e in enumerate(es) if e > 0 and j != t)
        gaps = tuple(base - skills[j] for j in sides)
        immune = plan.enemies[t][2]
        guarded = self.armour and k == 0
        rows: dict[tuple, float] = {}
        stay = 0.0
        if not self.use_luck and not self.per_blow:
            for p, winner, double, hits in self._joint(base - skills[t], gaps, immune, guarded):
                (option,) = self._target(state, t, winner)
                for q, h1, l1, es1, hit1, dealt in option:
                    struck = [j for j, yes in zip(sides, hits, strict=False) if yes]  # (): armour
                    for r, h2 in self._plain_sides(h1, counters, struck):
                        for r2, nxt in self._finish(
                            state, t, winner, double, h2, l1, es1, hit1, dealt
                        ):
                            rows[nxt] = rows.get(nxt, 0.0) + p * q * r * r2
        else:
            self._luck_assault(state, t, base - skills[t], sides, gaps, immune, guarded, rows)
        stay = rows.pop(state, 0.0)
        return stay, [(q, n) for n, q in rows.items()]

    def _target(self, state: tuple, t: int, winner: str) -> list[list[tuple]]:
        """The target's side of the assault: options (Luck or not), each a list of
        ``(chance, hero STAMINA, Luck, enemies' STAMINA, hit yet, damage dealt)``."""
        h, luck, es, shifts, k, won, hit, counters = state
        fight = self.fight
        if winner == "tie" or (winner == "enemy" and self.armour and k == 0):
            return [[(1.0, h, luck, es, hit, 0)]]
        e = es[t]
        if winner == "kill":
            return [[(1.0, h, luck, es[:t] + (0,) + es[t + 1 :], hit, e)]]
        if winner == "hero":
            damage = self.to_enemy + (0 if hit else self.first_bonus)
            result = []
            for option in self._luck_options(
                damage, luck, fight.luck_wounding, fight.damage_to_enemy
            ):
                row = []
                for q, lk, d in option:
                    d = self._takes(t, d, e, h, counters)
                    cut = min(d, e)
                    row.append((q, h, lk, es[:t] + (e - cut,) + es[t + 1 :], True, cut))
                result.append(row)
            return result
        result = []
        for option in self._luck_options(
            self.to_hero, luck, fight.luck_wounded, fight.damage_to_hero
        ):
            row = []
            for q, lk, d in option:
                for r, wound in self._deals(t, d, h, counters):
                    row.append((q * r, max(0, h - wound), lk, es, hit, 0))
            result.append(row)
        return result

    def _luck_options(self, base: int, luck: int, table, plain: int) -> list[list[tuple]]:
        """A wound as it is, and (when Luck is tested) lucky or unlucky: rows of
        ``(chance, Luck after, damage)``."""
        options = [[(1.0, luck, base)]]
        if self.use_luck and table is not None and luck > 0 and base > 0:
            q = self.lucky[min(luck, len(self.lucky) - 1)]
            low = max(0, luck - self.luck_cost)
            options.append([(q, low, max(0, base + table.lucky - plain)),
                            (1 - q, low, max(0, base + table.unlucky - plain))])  # fmt: skip
        return options

    def _takes(self, index: int, damage: int, e: int, h: int, counters: tuple) -> int:
        for rule in self.plan.damages:
            if rule.kind == "takes" and self._mine(rule.enemy, index):
                if self._holds(rule.when, h, counters):
                    return taken(damage, rule.share, rule.value, self.fight.damage_to_enemy, e)
        return damage

    def _deals(self, index: int, damage: int, h: int, counters: tuple) -> list[tuple[float, int]]:
        """What a wound of enemy ``index`` does to the hero: its ``it deals`` rule, then the
        wound rolls of its "when it wounds you" (a law ``[(chance, damage)]``)."""
        for rule in self.plan.damages:
            if rule.kind == "deals" and self._mine(rule.enemy, index):
                if self._holds(rule.when, h, counters):
                    damage = rebased(damage, self.to_hero, rule.value)
                    break
        law = [(1.0, damage)]
        for enemy, when, p, value in self.plan.wound_rolls:
            if not self._mine(enemy, index) or not self._holds(when, h, counters):
                continue
            law = [
                pair
                for q, d in law
                for pair in (((q * p, value), (q * (1 - p), d)) if d > 0 else ((q, d),))
                if pair[0] > 0
            ]
        return law

    def _plain_sides(self, h: int, counters: tuple, struck: list[int]) -> list[tuple[float, int]]:
        """Without Luck: the hero's STAMINA after the blows of the enemies in ``struck``."""
        law = [(1.0, h)]
        for j in struck:
            grown: list[tuple[float, int]] = []
            for q, h1 in law:
                if h1 <= 0:
                    grown.append((q, h1))
                    continue
                law_j = self._deals(j, self.side, h1, counters)
                grown += [(q * r, max(0, h1 - w)) for r, w in law_j]
            law = grown
        return law
