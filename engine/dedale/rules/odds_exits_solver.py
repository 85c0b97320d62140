"""The states and moves of the exact odds with exits (:mod:`dedale.rules.odds_exits`): one
enemy after another, before each assault the limit and the escape, the assault's outcomes
(:mod:`dedale.rules.odds_exits_dice`), the wounds with or without Luck and the enemies'
damage rules; the hooks after the assault are :mod:`dedale.rules.odds_exits_hooks`. Shared
by the callers that follow its moves (the forward pass, allies, the validator's acting
fights, the solver's fight graph, its exact twin in fractions)."""

from __future__ import annotations

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.fight_state import rebased, taken
from dedale.rules.odds import luck_pick
from dedale.rules.odds_exits_dice import assault_outcomes
from dedale.rules.odds_exits_hooks import ExitHooks
from dedale.rules.odds_exits_plan import (
    MAX_STATES,
    Condition,
    ExitOddsTooLarge,
    ExitPlan,
    past_states,
)
from dedale.rules.odds_inputs import lucky_table
from dedale.rules.ruleset import OpposedFight


class ExitSolver(ExitHooks):
    """The exact odds with exits' states and moves. ``number`` is the chances' type: float
    here; :class:`dedale.solve.exact_exits.ExactExits` is this very solver in fractions (a
    way out stays a float marker, 0.0 or 1.0, turned into ``number`` where it is summed)."""

    number: type = float

    def __init__(self, ruleset, hero_skill, plan: ExitPlan, policy, abilities, armour) -> None:
        from dedale.rules import modifiers as mods

        fight = ruleset.fight
        if not isinstance(fight, OpposedFight):
            raise GameError(tr("exact odds exist only for opposed (FF-family) fights"))
        self.fight, self.plan = fight, plan
        self.health = fight.health
        self.skill = (
            hero_skill + plan.bonus + mods.ability_value(abilities, "fight", "attack_bonus")
        )
        self.to_enemy = fight.damage_to_enemy + mods.ability_value(
            abilities, "fight", "damage_bonus"
        )
        self.first_bonus = mods.ability_value(abilities, "first_successful_assault", "bonus_damage")
        self.armour = armour
        self.to_hero = plan.enemy_damage if plan.enemy_damage is not None else fight.damage_to_hero
        test = ruleset.tests.get(fight.luck_test) if fight.luck_test else None
        self.use_luck = policy == "best" and test is not None and test.cost > 0
        self.luck_cost = test.cost if test else 0
        self.lucky = self._lucky_table(test.dice) if test is not None else (self.number(0),)
        self.one = self.number(1)
        self.names = tuple(name for name, _ in plan.counters)
        self.caps = dict(plan.caps)
        # the assault numbers told apart: up to the limit or the escape, the first two for
        # "first assault won", the first for armour; past that, all alike
        marks = [plan.limit or 0, plan.escape_after or 0, 2 if plan.first_won else 0]
        self.k_cap = max(*marks, 1 if armour else 0)
        # What the states need not tell apart (fewer states, the same values): the first
        # hit without a first-hit bonus, the assaults won without "after N assaults won",
        # the hero's double without an event on it.
        self.track_hit = self.first_bonus != 0
        self.won_cap = 0 if plan.win_assaults is None else plan.win_assaults + 1
        self.doubles = any(event.on == "double" for event in plan.events)
        self.memo: dict[tuple, float] = {}
        self.busy: set[tuple] = set()

    def _lucky_table(self, dice) -> tuple:
        """P(roll <= luck) of the Luck test's dice for luck = 0..max roll."""
        return lucky_table(dice)

    def outcomes(self, lead: int, immune: bool) -> tuple:
        """One assault's outcomes ``(p, winner, double)``
        (:func:`~dedale.rules.odds_exits_dice.assault_outcomes`)."""
        return assault_outcomes(self.fight, lead, immune, self.doubles, self.number)

    def solve(self, stamina: int, luck: int) -> float:
        plan = self.plan
        start = (0, stamina, plan.enemies[0][1], luck, 0, 0, not self.track_hit,
                 tuple(v for _, v in plan.counters), 0)  # fmt: skip
        try:
            return self.value(start)
        except RecursionError:
            raise ExitOddsTooLarge(tr("the fight's states are too deep to compute")) from None

    # ------------------------------------------------------------------ states
    # (enemy index, hero STAMINA, enemy STAMINA, Luck, assault number (capped), assaults
    #  won (capped), hit yet, counters, enemy SKILL shift): before an assault.

    def values(self, state: tuple) -> dict[str, int]:
        found = dict(zip(self.names, state[7], strict=True))
        found[self.health] = state[1]
        return found

    def holds(self, when: Condition | None, state: tuple) -> bool:
        return when is None or bool(when(self.values(state)))

    def value(self, state: tuple) -> float:
        found = self.memo.get(state)
        if found is not None:
            return found
        if state in self.busy:
            raise ExitOddsTooLarge(tr("the fight's states loop (an event undoes another)"))
        if len(self.memo) > MAX_STATES:
            raise past_states()
        self.busy.add(state)
        try:
            result = self._value(state)
        finally:
            self.busy.discard(state)
        self.memo[state] = result
        return result

    def _assault_start(self, state: tuple) -> tuple[float | None, float, int, bool, int]:
        """Before an assault: (1.0 when the state is a sure way out — the assault limit, an
        escape that surely succeeds — else None, the escape's chance (0 when not allowed),
        the hero's lead over the enemy fought, its immunity, the next assault's count)."""
        plan = self.plan
        _index, h, _e, luck, k, _won, _hit, _counters, _shift = state
        if plan.limit is not None and k >= plan.limit:
            return self.number(self.way("limit")), 0 * self.one, 0, False, k
        escape = 0 * self.one
        if plan.escape_after is not None and k >= plan.escape_after and self.way("escape"):
            escape = self._escape(h, luck)
            if escape == 1:
                return self.one, escape, 0, False, k
        lead, immune = self._lead(state)
        return None, escape, lead, immune, min(k + 1, self.k_cap)

    def _lead(self, state: tuple) -> tuple[int, bool]:
        """The hero's lead over the enemy fought (its SKILL and shift, the attack modifiers
        that hold) and whether it is immune to an instant kill."""
        plan = self.plan
        index, shift = state[0], state[8]
        skill, _stamina, immune = plan.enemies[index]
        lead = self.skill - (skill + shift)
        for enemy, value, when in plan.attacks:
            if (enemy is None or enemy == index or len(plan.enemies) == 1) and self.holds(
                when, state
            ):
                lead += value
        return lead, immune

    def _value(self, state: tuple) -> float:
        done, escape, lead, immune, k2 = self._assault_start(state)
        if done is not None:
            return done
        zero, end = 0 * self.one, self.number
        total = stay = zero
        for p, winner, double in self.outcomes(lead, immune):
            worths = []
            for option in self._after_wounds(state, winner, k2):
                chance = zero
                for q, nxt, dealt, wound in option:
                    for r, found in self._after(nxt, winner, double, dealt, wound):
                        if found == state:  # only what changes nothing comes back here
                            stay += p * q * r
                        else:
                            chance += (
                                q
                                * r
                                * (end(found) if isinstance(found, float) else self.value(found))
                            )
                worths.append(chance)
            total += p * worths[luck_pick(worths)]  # Luck tested where it gains (the one rule)
        if stay >= 1:
            return escape
        return max(escape, total / (1 - stay))

    def _after_wounds(self, state: tuple, winner: str, k2: int) -> list[list[tuple]]:
        """The choices (Luck or not) after an assault's wound, each a list of ``(p, state,
        damage dealt, damage taken)`` before the hooks act."""
        index, h, e, luck, k, won, hit, counters, shift = state
        fight = self.fight
        if winner == "tie":
            return [[(self.one, (index, h, e, luck, k2, won, hit, counters, shift), 0, 0)]]
        if winner == "kill":
            return [[(self.one, (index, h, 0, luck, k2, won, True, counters, shift), e, 0)]]
        if winner == "hero":
            base = self.to_enemy + (0 if hit else self.first_bonus)
            options = self._luck_options(base, luck, fight.luck_wounding, fight.damage_to_enemy)
            result = []
            for option in options:
                row = []
                for q, lk, damage in option:
                    damage = self._takes(index, damage, e, state)
                    cut = min(damage, e)
                    row.append((q, (index, h, e - cut, lk, k2, won, True, counters, shift), cut, 0))
                result.append(row)
            return result
        # the enemy wins
        if self.armour and k == 0:
            return [[(self.one, (index, h, e, luck, k2, won, hit, counters, shift), 0, 0)]]
        base = self.to_hero
        options = self._luck_options(base, luck, fight.luck_wounded, fight.damage_to_hero)
        result = []
        for option in options:
            row = []
            for q, lk, damage in option:
                for r, wound in self._deals(index, damage, state):
                    new_h = h - wound if wound < h else 0
                    row.append(
                        (q * r, (index, new_h, e, lk, k2, won, hit, counters, shift), 0, wound)
                    )
            result.append(row)
        return result

    def _escape(self, h: int, luck: int) -> float:
        """The chance to survive escaping now: its wound, Luck tested on it when the
        ruleset allows and it helps."""
        fight = self.fight
        options = [[(self.one, luck, fight.escape_damage)]]
        if fight.escape_luck:
            options = self._luck_options(
                fight.escape_damage, luck, fight.luck_wounded, fight.damage_to_hero
            )
        worths = [sum(q for q, _, d in option if h > d) for option in options]
        return worths[luck_pick(worths)]

    def _luck_options(self, base: int, luck: int, table, plain: int) -> list[list[tuple]]:
        """The ways a wound of ``base`` may go: as it is, and (when Luck is tested) lucky or
        unlucky by the ruleset's ``table`` — rows of (probability, Luck after, damage)."""
        options = [[(self.one, luck, base)]]
        if self.use_luck and table is not None and luck > 0:
            q = self.lucky[min(luck, len(self.lucky) - 1)]
            low = max(0, luck - self.luck_cost)
            options.append([(q, low, max(0, base + table.lucky - plain)),
                            (1 - q, low, max(0, base + table.unlucky - plain))])  # fmt: skip
        return options

    def _takes(self, index: int, damage: int, e: int, state: tuple) -> int:
        for rule in self.plan.damages:
            if rule.kind != "takes" or not self._mine(rule.enemy, index):
                continue
            if not self.holds(rule.when, state):
                continue
            return taken(damage, rule.share, rule.value, self.fight.damage_to_enemy, e)
        return damage

    def _deals(self, index: int, damage: int, state: tuple) -> list[tuple[float, int]]:
        for rule in self.plan.damages:
            if rule.kind == "deals" and self._mine(rule.enemy, index):
                if self.holds(rule.when, state):
                    damage = rebased(damage, self.to_hero, rule.value)
                    break
        law = [(self.one, damage)]
        for enemy, when, p, value in self.plan.wound_rolls:
            if not self._mine(enemy, index) or not self.holds(when, state):
                continue
            law = [
                pair
                for q, d in law
                for pair in (((q * p, value), (q * (1 - p), d)) if d > 0 else ((q, d),))
            ]
        return law

    def _mine(self, enemy: int | None, index: int) -> bool:
        return enemy is None or enemy == index or len(self.plan.enemies) == 1
