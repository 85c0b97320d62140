"""Exact odds of an FF-family fight with exits and per-enemy rules (issues 13.2, 14.2).

The chance that the hero leaves the fight alive by any way the paragraph gives: winning,
surviving an assault limit ("not won after N assaults -> X", "survive N assaults"), "after N
assaults won", "when your STAMINA falls to N", an exit on a condition, "first assault won",
escape (taken when it is the better choice), with per-enemy damage each way, attack
modifiers, and events on an assault (counters the exits read, the enemy's SKILL, a wound
roll such as a shield's). It follows the rules core's fight loop step by step — the same
order as :func:`dedale.rules.fight_opposed.opposed_fight` with the book's hooks
(:mod:`dedale.game.fight_hooks`) — over explicit states (hero STAMINA and Luck, enemy and its
STAMINA, assault number while it matters, assaults won, first hit, counters, SKILL shift),
memoised; a state that only a tie leaves unchanged is solved exactly (divided by 1 - P(tie)).
Luck is either never tested or tested when it raises the chance (a maximum at each wound).

The plan is data (:class:`ExitPlan`): conditions come as callables over the counters and
the hero's health, so this module knows nothing of paragraphs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules.fight_state import happened, rebased, taken
from dedale.rules.odds_inputs import check_size, lucky_table
from dedale.rules.ruleset import OpposedFight, Ruleset

MAX_STATES = 200_000
"""The exact odds with exits stop past this many states (the W032 cap of the DP)."""

Condition = Callable[[Mapping[str, int]], bool]


class ExitOddsTooLarge(GameError):
    """The exact odds with exits would need more than ``MAX_STATES`` states, or loop."""


@dataclass(frozen=True, slots=True)
class Event:
    """An event rule: on ``on`` (it_wins, you_win, double, it_wounds), for enemy ``enemy``
    (None: each), when ``when`` holds: counter changes ``(name, op, amount)`` (op add, sub,
    set), a change of the hero's health, of the enemy's SKILL and of its STAMINA
    (``stamina``), and ``leaves`` (the effects turn to a paragraph: the hero leaves the
    fight there)."""

    on: str
    enemy: int | None = None
    when: Condition | None = None
    counters: tuple[tuple[str, str, int], ...] = ()
    health: int = 0
    skill: int = 0
    leaves: bool = False
    stamina: int = 0


@dataclass(frozen=True, slots=True)
class Damage:
    """A damage rule: ``kind`` deals/takes, ``value`` or ``share`` (value, half, all)."""

    kind: str
    enemy: int | None = None
    value: int = 0
    share: str = "value"
    when: Condition | None = None


@dataclass(frozen=True, slots=True)
class ExitPlan:
    """A fight as the exact odds with exits take it (opposed procedure).

    ``enemies``: (SKILL, STAMINA, immune) in order (``as one`` already merged); ``bonus``:
    the hero's attack bonus; ``attacks``: per-enemy attack modifiers ``(enemy, value, when)``;
    ``wound_rolls``: ``(enemy, when, p, value)``: when it wounds the hero, with probability
    ``p`` the wound is ``value``; ``limit``, ``escape_after``, ``threshold`` (hero health at
    or below it after an assault: an exit), ``win_assaults``, ``first_won``; ``exits``:
    conditions that end the fight alive after an assault; ``counters``: their start values;
    ``table``: a table rolled after each assault the fight survives, rows ``(chance,
    Event)`` (after the exits; a total no row names does nothing); ``late_exits``: exits
    read after the table (a threshold on a counter), with the threshold; ``caps``: see
    :func:`changed`.
    """

    enemies: tuple[tuple[int, int, bool], ...]
    bonus: int = 0
    enemy_damage: int | None = None
    damages: tuple[Damage, ...] = ()
    attacks: tuple[tuple[int | None, int, Condition | None], ...] = ()
    events: tuple[Event, ...] = ()
    wound_rolls: tuple[tuple[int | None, Condition | None, float, int], ...] = ()
    exits: tuple[Condition, ...] = ()
    limit: int | None = None
    escape_after: int | None = None
    threshold: int | None = None
    win_assaults: int | None = None
    first_won: bool = False
    counters: tuple[tuple[str, int], ...] = field(default=())
    late_exits: tuple[Condition, ...] = ()
    table: tuple[tuple[float, Event], ...] = ()
    caps: tuple[tuple[str, int], ...] = ()
    doomed: frozenset[str] = frozenset()
    """The ways out whose paragraph is a death ending (``limit``, ``escape``, ``threshold``,
    ``assaults``, ``first``, ``exit:I``: dedale.validator.death_ways): they count as a
    defeat, not as leaving alive (an event's or a table row's such turn is a death in its
    Event already). This DP, the DP at once (rules/odds_group_exits.py) and those with
    allies (which build on them) read it."""


def changed(values: list[int], names: tuple[str, ...], changes, caps: dict[str, int]) -> None:
    """Apply an event's counter changes ``(name, op, amount)`` to ``values`` (in the order
    of ``names``), never below 0; a counter with a cap (only ever raised, and read only
    against numbers below the cap) stops there: every value from the cap on reads alike."""
    for name, op, amount in changes:
        at = names.index(name)
        old = values[at]
        new = old + amount if op == "add" else max(0, old - amount) if op == "sub" else amount
        cap = caps.get(name)
        values[at] = max(0, new if cap is None else min(new, cap))


def exit_odds(
    ruleset: Ruleset,
    hero_skill: int,
    hero_stamina: int,
    plan: ExitPlan,
    *,
    luck: int | None = None,
    luck_policy: str = "none",
    abilities: tuple = (),
    armour: bool = False,
) -> float:
    """The exact chance that the hero leaves the fight alive (see the module docstring)."""
    if not plan.enemies:
        raise GameError(tr("a fight needs at least one enemy"))
    if any(stamina <= 0 for _, stamina, _ in plan.enemies):
        raise GameError(tr("every enemy needs at least 1 STAMINA"))
    check_size(max(0, luck or 0), hero_stamina, plan.enemies)  # the plain DP's bound too
    return _Solver(ruleset, hero_skill, plan, luck_policy, abilities, armour).solve(
        hero_stamina, luck or 0
    )


@functools.lru_cache(maxsize=2048)
def _outcomes(
    fight: OpposedFight, lead: int, immune: bool, doubles: bool = True, number: type = float
) -> tuple[tuple[float, str, bool], ...]:
    """One assault's outcomes ``(p, winner, double)``: winner kill/hero/enemy/tie, double:
    the hero's roll was a double (every face the same); ``doubles=False``: the doubles
    that kill nothing are merged with the other rolls (nothing reads them). ``number``: the
    chances' type (``fractions.Fraction`` for the exact solve, :mod:`dedale.solve.exact_exits`);
    the same sums in the same order whatever it is."""
    dice = fight.dice
    assert dice is not None
    parts = dice.dice
    if len(parts) != 1 or parts[0].keep is not None or parts[0].sides ** parts[0].count > 4096:
        raise GameError(tr("exact odds with exits need a plain NdS attack roll"))
    count, sides = parts[0].count, parts[0].sides
    constant = dice.max() - count * sides
    enemy = dice.distribution()
    lowest = min(enemy)
    zero = number(0)
    below = [zero]
    for total in range(lowest, max(enemy) + 1):
        below.append(below[-1] + number(enemy.get(total, 0)))

    def p_below(target: int) -> float:
        return below[min(max(target - lowest, 0), len(below) - 1)]

    found: dict[tuple[str, bool], float] = {}
    each = number(1) / sides**count
    for code in range(sides**count):
        faces = [(code // sides**i) % sides + 1 for i in range(count)]
        total = sum(faces) + constant
        double = count > 1 and len(set(faces)) == 1
        if double and fight.instant_kill_on_double and not immune:
            found["kill", True] = found.get(("kill", True), zero) + each
            continue
        lower, upto = p_below(lead + total), p_below(lead + total + 1)
        for winner, p in (("hero", lower), ("tie", upto - lower), ("enemy", 1 - upto)):
            if p > 0:
                found[winner, double] = found.get((winner, double), zero) + each * p
    if not doubles:
        merged: dict[tuple[str, bool], float] = {}
        for (winner, _double), p in found.items():
            key = (winner, winner == "kill")
            merged[key] = merged.get(key, zero) + p
        found = merged
    return tuple((p, winner, double) for (winner, double), p in found.items())


class _Solver:
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
        """One assault's outcomes ``(p, winner, double)`` (:func:`_outcomes`)."""
        return _outcomes(self.fight, lead, immune, self.doubles, self.number)

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
            raise ExitOddsTooLarge(
                tr(
                    "the exact odds would need more than {limit} states",
                    limit=number(MAX_STATES, ","),
                )
            )
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
            best = zero
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
                best = max(best, chance)
            total += p * best
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
        return max(sum(q for q, _, d in option if h > d) for option in options)

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

    def _after(self, state: tuple, winner: str, double: bool, dealt: int, wound: int):
        """Once an assault's wounds are applied: deaths, then the hooks; ``[(chance,
        result)]``, a result the fight's value (a float) when it ends there, else the state
        before the next assault (more than one only with a table rolled each assault)."""
        found = self._hooks(state, winner, double, dealt, wound)
        if isinstance(found, float):
            return [(self.one, found)]
        if not self.plan.table:
            return [(self.one, self._late(found))]
        rows, left = [], self.one
        for chance, event in self.plan.table:
            left -= chance
            rows.append((chance, self._row(found, event)))
        if left > 1e-12:
            rows.append((left, self._late(found)))
        return rows

    def _out(self, h: int, luck: int, way: str, at: int = -1, k: int = 0) -> float:
        """A way out: its value, 1.0, or 0.0 when its paragraph is a death ending
        (:meth:`way`). A hook: a subclass labels it with the hero's STAMINA and LUCK and the
        way (``rules/odds_allies_exits_forward.py``)."""
        return self.way(f"exit:{at}" if way == "exit" else way)

    def way(self, name: str) -> float:
        """The value of leaving by a way out: 1.0, or 0.0 when its paragraph is a death
        ending (``plan.doomed``)."""
        return 0.0 if name in self.plan.doomed else 1.0

    def _row(self, found: tuple, event: Event):
        """A table row's effects (as an event's), then the late exits."""
        state, alive = found
        index, h, e, luck, k, won, hit, counters, shift = state
        if not self.holds(event.when, state):
            return self._late(found)
        values = list(counters)
        changed(values, self.names, event.counters, self.caps)
        if event.health:
            h = max(0, h + event.health)
            if h <= 0:
                return 0.0
        if event.leaves:
            return self._out(h, luck, "table")
        return self._late(((index, h, e, luck, k, won, hit, tuple(values), shift), alive))

    def _late(self, found):
        """After the table: the threshold, the late exits, the assaults won; then the next
        enemy steps in if the one fought fell."""
        if isinstance(found, float):
            return found
        plan = self.plan
        state, alive = found
        index, h, e, luck, k, won, hit, counters, shift = state
        if any(self.holds(exit_, state) for exit_ in plan.late_exits):
            return self._out(h, luck, "threshold")
        if plan.threshold is not None and h <= plan.threshold:
            return self._out(h, luck, "threshold")
        if plan.win_assaults is not None and won >= plan.win_assaults:
            return self._out(h, luck, "assaults")
        if not alive:  # the next enemy steps in (none left: won)
            if index + 1 >= len(plan.enemies):
                return self._out(h, luck, "won", k=k)
            index += 1
            state = (index, h, plan.enemies[index][1], luck, k, won, hit, counters, 0)
        return state

    def _hooks(self, state: tuple, winner: str, double: bool, dealt: int, wound: int):
        """Deaths, then the events and the exits read before a table: a float when the
        fight ends, else ``(state, the enemy fought still stands)``."""
        plan = self.plan
        index, h, e, luck, k, won, hit, counters, shift = state
        if h <= 0:
            return 0.0
        if dealt > 0 and self.won_cap:
            won = min(won + 1, self.won_cap)
        alive = e > 0
        if not alive and index + 1 >= len(plan.enemies):
            return 1.0
        state = (index, h, e, luck, k, won, hit, counters, shift)
        return self._events_exits(state, winner, double, wound, alive)

    def _events_exits(self, state: tuple, winner: str, double: bool, wound: int, stands: bool):
        """The events of the enemy fought while it ``stands``, then the exits read before a
        table: a float when the fight ends, else ``(state, the enemy fought still stands)``
        (an event may fell it: the next steps in after the table)."""
        plan = self.plan
        index, h, e, luck, k, won, hit, counters, shift = state
        if stands:  # the events of the enemy fought (none once it has fallen)
            values = list(counters)
            for at, event in enumerate(plan.events):
                if not self._mine(event.enemy, index):
                    continue
                now = (index, h, e, luck, k, won, hit, tuple(values), shift)
                if not self.holds(event.when, now):
                    continue
                if not happened(event.on, winner, double, wound):
                    continue
                changed(values, self.names, event.counters, self.caps)
                if event.health:
                    h = max(0, h + event.health)
                    if h <= 0:
                        return 0.0
                shift += event.skill
                e = max(0, e + event.stamina)  # "its STAMINA -2": it may fall (after the exits)
                if event.leaves:
                    return self._out(h, luck, "event", at)
            counters = tuple(values)
        state = (index, h, e, luck, k, won, hit, counters, shift)
        if plan.first_won and k == 1 and winner in ("hero", "kill"):
            return self._out(h, luck, "first")
        for at, exit_ in enumerate(plan.exits):
            if self.holds(exit_, state):
                return self._out(h, luck, "exit", at)
        return (state, e > 0)
