"""Exact odds of a d20 fight the book acts in (issue 14.1): rules under an enemy, events,
exits, "after N assaults won", "first assault won", an assault table.

The fight is the rules core's :func:`dedale.rules.fight_d20.d20_fight` run with the book's
hooks (:mod:`dedale.game.fight_hooks`, :mod:`dedale.game.enemy_rules`), followed step by
step in the same order:

- inside an assault, each blow as the fight strikes it (the hero's blow on his target and
  its riposte after a miss, then each enemy's blow and the hero's riposte), with the hooks
  acting on it: ``against it: attack +N`` changes the hero's attack law, ``it takes`` the
  damage of a wound the hero deals (a hit that does no damage is left alone), ``it deals``
  and the wound rolls of ``when it wounds you`` the damage the hero takes. The laws come from
  the fight's own ``attack_roll`` (:mod:`dedale.rules.odds_d20_attack`); the damage rules
  from :mod:`dedale.rules.fight_state`, as the fight applies them
  (:mod:`dedale.rules.odds_d20_assault`);
- after an assault the hero survives, the hooks' turn
  (:class:`~dedale.game.fight_hooks.ExtrasHooks.after_assault`): the assault was won when
  the enemies' health went down, lost to the enemy when only the hero's did; the events of
  the first enemy standing (counters, codewords, the hero's or the enemy's health, leaving
  the fight), the exits (``end the fight when``, ``first assault won``), the assault table's
  rows, then ``when your HP falls to N`` and ``after N assaults won``.

A state is (assaults played while a mark needs them, the hero's HP, each enemy's HP,
assaults won while "after N assaults won" needs them, the counters the rules read). The
value of a state is the chance to leave the fight alive by any way out (won, an exit, the
assault limit, escaped); decisions (the target of enemies fought together, the escape the
fight offers) are maxima. Moves that come back to the same state are folded in exactly
(divided by 1 - P(back)); any other cycle (an event that undoes another) and more than
``budget`` states or ``seconds`` of CPU raise :class:`D20OddsTooLarge`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from dedale.i18n import tr
from dedale.rules.fight_d20 import Fighter
from dedale.rules.fight_state import happened
from dedale.rules.fights import MAX_ASSAULTS, endless_fight
from dedale.rules.odds_d20_assault import AssaultLaws
from dedale.rules.odds_d20_attack import D20OddsTooLarge, attack_law
from dedale.rules.odds_exits import Damage
from dedale.rules.ruleset import D20Fight

Condition = Callable[[Mapping[str, int]], bool]
ALIVE, LOSS, GO = "alive", "loss", "go"


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of an event or of a table row, in the book's order: ``counter`` (``name``,
    ``op`` add/sub/set, ``amount``), ``hero`` (the hero's health + ``amount``), ``enemy``
    (the current enemy's health + ``amount``), ``leave`` (turns to a paragraph: out of the
    fight alive), ``die`` (the game ends in death)."""

    kind: str
    name: str = ""
    op: str = ""
    amount: int = 0


@dataclass(frozen=True, slots=True)
class ActingEvent:
    """``when it wins an assault`` (``on`` = it_wins), ``when you win an assault``
    (you_win), ``when it wounds you`` (it_wounds): ``effects`` for enemy ``enemy`` (None:
    each) when ``when`` holds."""

    on: str
    enemy: int | None = None
    when: Condition | None = None
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class ActingPlan:
    """What the book does inside one d20 fight (see the module docstring).

    ``attacks``: ``(enemy, value, when)``; ``wound_rolls``: ``(enemy, when, p, value)``: when
    it wounds the hero, with chance ``p`` the wound becomes ``value``; ``exits``: the ``end
    the fight when`` conditions (checked before the table), ``late_exits`` those checked
    after it (``when your DAYS fall to N`` on another stat or counter); ``threshold``: the
    hero's health at or below it after an assault ends the fight; ``table``: the rows of
    the assault table as ``(p, effects)`` (a roll no row takes: no effects); ``counters``:
    ``(name, start, maximum)``; ``health``: the name conditions read the hero's HP by.
    """

    damages: tuple[Damage, ...] = ()
    attacks: tuple[tuple[int | None, int, Condition | None], ...] = ()
    events: tuple[ActingEvent, ...] = ()
    wound_rolls: tuple[tuple[int | None, Condition | None, float, int], ...] = ()
    exits: tuple[Condition, ...] = ()
    late_exits: tuple[Condition, ...] = ()
    first_won: bool = False
    threshold: int | None = None
    win_assaults: int | None = None
    table: tuple[tuple[float, tuple[Effect, ...]], ...] | None = None
    counters: tuple[tuple[str, int, int | None], ...] = ()
    health: str = "HP"
    reads_health: bool = True  # a condition reads the hero's health (False: none does)
    doomed: frozenset[str] = frozenset()
    """The fight's ways out whose paragraph is a death ending (``limit``, ``escape``,
    ``threshold``, ``assaults``, ``first``, ``exit:I``: dedale.validator.death_ways): a
    defeat, not a way out alive (an event's or a table row's turn there is a ``die``
    effect already)."""


@dataclass(frozen=True, slots=True)
class ActingOdds:
    """The chance to leave the fight alive, and the states solved."""

    alive_probability: float
    states: int

    @property
    def loss_probability(self) -> float:
        return max(0.0, 1.0 - self.alive_probability)


class ActingEngine(AssaultLaws):
    """One d20 fight with the book's hooks, from the fighters as they start."""

    def __init__(
        self,
        params: D20Fight,
        hero: Fighter,
        enemies: list[Fighter],
        spec,
        plan: ActingPlan,
        *,
        hero_initial: int,
        target: str = "best",
        budget: int = 60_000,
        seconds: float | None = None,
    ) -> None:
        self.params, self.hero, self.enemies, self.plan = params, hero, enemies, plan
        self.n = len(enemies)
        self.together = spec.mode == "together"
        self.choose = self.together and target == "best" and self.n > 1
        self.limit, self.escape_after = spec.assault_limit, spec.escape_after
        marks = (1, self.limit or 0, self.escape_after or 0, 2 if plan.first_won else 0)
        self.cap = max(marks)  # assaults told apart up to here (0: the start, 1: after one)
        self.won_cap = plan.win_assaults or 0
        self.hero_initial = max(hero_initial, hero.health)
        self.names = tuple(name for name, _, _ in plan.counters)
        self.maxima = tuple(maximum for _, _, maximum in plan.counters)
        # the damage rules' bases, read as the fight's hooks read them (EnemyRules)
        self.base_taken = spec.enemy_damage
        if self.base_taken is None:
            self.base_taken = getattr(params, "damage_to_hero", None)
        self.base_dealt = getattr(params, "damage_to_enemy", None)
        inside = [d.when for d in plan.damages] + [w for _, _, w in plan.attacks]
        inside += [w for _, w, _, _ in plan.wound_rolls]
        self.inside_reads = any(w is not None for w in inside)  # counters matter in a blow
        self.budget, self.seconds = budget, seconds
        # the hooks read and change neither HP: one hooks' turn per kind of assault end
        changes = {e.kind for ev in plan.events for e in ev.effects}
        changes |= {e.kind for _, row in plan.table or () for e in row}
        self.simple = not (plan.reads_health or plan.threshold is not None) and not (
            changes & {"hero", "enemy"}
        )
        self.struck = [attack_law(params, e, hero) for e in enemies]
        self._laws: dict[tuple, object] = {}
        self._assaults: dict[tuple, tuple] = {}
        self._exchanges: dict[tuple, tuple] = {}
        self._hooks: dict[tuple, tuple] = {}
        self._conditions: dict[tuple, bool] = {}
        self.memo: dict[tuple, float] = {}

    # ------------------------------------------------------------------ the hooks' turn
    def _apply(self, effects, h: int, ecur: int, counters: list) -> tuple[str, int, int]:
        for effect in effects:
            kind = effect.kind
            if kind == "counter":
                at = self.names.index(effect.name)
                old = counters[at]
                if effect.op == "add":
                    new = max(0, old + effect.amount)
                elif effect.op == "sub":
                    new = max(0, old - effect.amount)
                else:
                    new = max(0, effect.amount)
                maximum = self.maxima[at]
                counters[at] = new if maximum is None else min(new, maximum)
            elif kind == "hero":
                h = min(h + effect.amount, max(h, self.hero_initial))
                if h <= 0:
                    return LOSS, 0, ecur
            elif kind == "enemy":
                ecur = max(0, ecur + effect.amount)
            elif kind == "leave":
                return ALIVE, h, ecur
            else:  # die
                return LOSS, h, ecur
        return GO, h, ecur

    def _after(self, k2, won2, counters, winner, current, standing, h, ecur):
        """The hooks after an assault: ``((p, kind, h, current enemy HP, counters), ...)``."""
        key = (k2, won2, counters, winner, current, standing, h, ecur)
        found = self._hooks.get(key)
        if found is not None:
            return found
        plan = self.plan
        values = list(counters)
        outcome = GO
        for event in plan.events if standing else ():
            if not self._mine(event.enemy, current):
                continue
            if not self._holds(event.when, tuple(values), h):
                continue
            if not happened(event.on, winner, False, int(winner == "enemy")):
                continue
            outcome, h, ecur = self._apply(event.effects, h, ecur, values)
            if outcome != GO:
                break
        if outcome == GO:
            now = tuple(values)
            if plan.first_won and k2 == 1 and winner == "hero":
                outcome = self._way("first")
            else:
                at = next((i for i, w in enumerate(plan.exits) if self._holds(w, now, h)), None)
                if at is not None:  # the first exit that holds, in the order written
                    outcome = self._way(f"exit:{at}")
        if outcome != GO:
            found = ((1.0, outcome, h, ecur, tuple(values)),)
        else:
            rows = plan.table if plan.table is not None else ((1.0, ()),)
            branches = []
            for p, effects in rows:
                row_values = list(values)
                kind, h2, e2 = self._apply(effects, h, ecur, row_values)
                now = tuple(row_values)
                if kind == GO and (
                    plan.threshold is not None
                    and h2 <= plan.threshold
                    or any(self._holds(when, now, h2) for when in plan.late_exits)
                ):
                    kind = self._way("threshold")
                elif kind == GO and self.won_cap and won2 >= self.won_cap:
                    kind = self._way("assaults")
                branches.append((p, kind, h2, e2, now))
            found = tuple(branches)
        self._hooks[key] = found
        return found

    def _way(self, name: str) -> str:
        """Leaving by way out ``name``: ALIVE, or LOSS when its paragraph is a death ending
        (``plan.doomed``)."""
        return LOSS if name in self.plan.doomed else ALIVE

    # ------------------------------------------------------------------ states
    def _moves(self, state: tuple) -> list[tuple[int, float, list]]:
        """Per choice (a target, or ESCAPE = -1): ``(choice, constant, [(p, next state)])``
        (``constant``: the chance to leave the fight alive at once)."""
        k, h, e, won, counters = state
        living = [i for i, left in enumerate(e) if left > 0]
        choices = []
        if self.escape_after is not None and k >= self.escape_after:
            alive = sum(p for p, after in self._struck(living[0], h, counters) if after > 0)
            choices.append((-1, alive if self._way("escape") == ALIVE else 0.0, []))
        k2 = min(k + 1, self.cap)
        limited = self.limit is not None and k2 >= self.limit  # the limit ends it alive ...
        at_limit = 1.0 if self._way("limit") == ALIVE else 0.0  # ... or to a death ending
        simple = self.simple
        turns: dict[tuple, tuple] = {}  # simple hooks: one turn per kind of end
        for target in living if self.choose else living[:1]:
            loss, ends = self._assault(h, e, target, counters)
            constant, moves = 0.0, []
            for p, h2, e2, won_now, winner, current, standing in ends:
                won2 = min(won + 1, self.won_cap) if won_now and self.won_cap else won
                if simple:
                    kind_of = (winner, current, standing, won2)
                    branches = turns.get(kind_of)
                    if branches is None:
                        branches = turns[kind_of] = self._after(
                            k2, won2, counters, winner, current, standing, 0, 0
                        )
                else:
                    branches = self._after(
                        k2, won2, counters, winner, current, standing, h2, e2[current]
                    )
                for q, kind, h3, ecur, values in branches:
                    if kind == ALIVE:
                        constant += p * q
                    elif kind == GO:
                        if simple:
                            e3, h3 = e2, h2
                        else:
                            e3 = (*e2[:current], ecur, *e2[current + 1 :])
                        if not standing and simple or not any(e3):
                            constant += p * q  # won
                        elif limited:
                            constant += p * q * at_limit  # the assault limit reached
                        else:
                            moves.append((p * q, (k2, h3, e3, won2, values)))
            choices.append((target, constant, moves))
        return choices

    def _value(self, state: tuple, choices) -> float:
        best, endless = -1.0, True
        for _choice, constant, moves in choices:
            back = rest = 0.0
            for p, nxt in moves:
                if nxt == state:
                    back += p
                else:
                    rest += p * self.memo[nxt]
            if back >= 1.0 - 1e-15:
                continue  # this choice never changes anything: it never ends the fight
            endless = False
            best = max(best, (constant + rest) / (1.0 - back))
        if endless:
            raise endless_fight(MAX_ASSAULTS)
        return best

    def solve(self, start_counters: tuple) -> ActingOdds:
        """The chance to leave the fight alive from its start."""
        start = (0, self.hero.health, tuple(e.health for e in self.enemies), 0, start_counters)
        if self.limit is not None and self.limit <= 0:  # "not won after 0 assaults": out at once
            return ActingOdds(1.0 if self._way("limit") == ALIVE else 0.0, 0)
        memo, pending = self.memo, {}
        stack = [start]
        started, steps = time.process_time(), 0
        while stack:
            steps += 1
            if self.seconds is not None and steps % 256 == 0:
                if time.process_time() - started > self.seconds:
                    raise D20OddsTooLarge.slow(self.seconds)
            state = stack[-1]
            if state in memo:
                stack.pop()
                continue
            choices = pending.get(state)
            if choices is None:
                choices = pending[state] = self._moves(state)
            missing = []
            for _, _, moves in choices:
                for _, nxt in moves:
                    if nxt != state and nxt not in memo:
                        if nxt in pending:  # an ancestor: a cycle the fold cannot take
                            raise D20OddsTooLarge(
                                tr("the fight's states loop (an event undoes another)")
                            )
                        missing.append(nxt)
            if missing:
                stack.extend(dict.fromkeys(missing))
                continue
            stack.pop()
            memo[state] = self._value(state, choices)
            del pending[state]
            if len(memo) > self.budget:
                raise D20OddsTooLarge.states(self.budget)
        return ActingOdds(memo[start], len(memo))


def d20_acting_odds(
    ruleset,
    character,
    spec,
    plan: ActingPlan,
    *,
    target: str = "best",
    budget: int = 60_000,
    seconds: float | None = None,
) -> ActingOdds:
    """The exact chance that ``character`` leaves the fight ``spec`` alive with the book
    acting as ``plan`` says (its enemies' dice stats mixed with their exact chances)."""
    from dedale.rules.fight_d20 import fighters
    from dedale.rules.fights import fight_outcomes

    mixed = fight_outcomes(spec)
    if mixed is None:
        raise D20OddsTooLarge(
            tr("the enemies' dice stats give too many fights to compute exactly"),
            hint=tr("fewer stats written as dice keep the odds exact"),
        )
    alive, states = 0.0, 0
    health = ruleset.fight.health
    start = tuple(value for _, value, _ in plan.counters)
    for one, chance in mixed:
        hero, enemies = fighters(ruleset, character, one)
        engine = ActingEngine(
            ruleset.fight, hero, enemies, one, plan, target=target, budget=budget,
            seconds=seconds, hero_initial=character.initial.get(health, hero.health),
        )  # fmt: skip
        found = engine.solve(start)
        alive += float(chance) * found.alive_probability
        states += found.states
    return ActingOdds(alive, states)
