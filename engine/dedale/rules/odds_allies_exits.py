"""Exact odds of FF-family fights with allies AND exits or rules under the enemy (issue 14.1).

The fight of :mod:`dedale.rules.odds_exits` (an assault limit, escape, "when your STAMINA
falls to N", "after N assaults won", exits on conditions, damage rules such as ``it deals
4``, attack modifiers, events, an assault table) with the allies of
:mod:`dedale.rules.odds_allies`, in the real code's order (``rules/fight_opposed.py`` with
``game/fight_hooks.py``):

1. The hero's assault, with the rules under the enemy. Whom the enemies strike (the hero,
   the ally, or one roll per assault) is known at the enemy's wound: struck ally with an
   ally standing, the first ally standing takes the wound the enemy's rules give (``it
   deals 4``, a wound roll); the hero loses nothing, tests no Luck, and "when it wounds you"
   events do not fire (his STAMINA did not fall).
2. A hero at 0 STAMINA loses; the last enemy's death wins (the allies do not act). "Assaults
   won" counts the hero's wounds only.
3. Each ally standing exchanges blows with the first enemy standing (its SKILL as the
   events left it; no instant kill, no Luck, no rule under the enemy: the ruleset's damage
   each way, ``enemy damage`` for the ally's wound, which it takes only when struck). No
   enemy left: won.
4. The enemy fought's events (none once it has fallen), the exits, the assault table, the
   threshold and the assaults won, then the assault limit and escape before the next
   assault: those of :class:`dedale.rules.odds_exits_solver.ExitSolver`, whose states this solver
   extends with the allies' STAMINA (kept after the counters, under names no book can
   write, so the conditions never read them).

Luck (best policy) is an exact maximum with the relative tie rule (``luck_gains``); escape
is taken when it is the better choice. Bounded by the exits DP's state cap and a CPU time.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules.odds import luck_gains
from dedale.rules.odds_allies import STRUCK
from dedale.rules.odds_exits_dice import assault_outcomes
from dedale.rules.odds_exits_plan import ExitOddsTooLarge, ExitPlan
from dedale.rules.odds_exits_solver import ExitSolver
from dedale.rules.odds_inputs import assault_chances, check_size
from dedale.rules.ruleset import Ruleset

SECONDS = 8.0  # CPU seconds of one computation at most
_CLOCK_EVERY = 512  # new states between two looks at the clock


def ally_exit_odds(
    ruleset: Ruleset,
    hero_skill: int,
    hero_stamina: int,
    plan: ExitPlan,
    allies: Sequence[tuple[int, int]],
    *,
    struck: str = "hero",
    luck: int | None = None,
    luck_policy: str = "none",
    abilities: tuple = (),
    armour: bool = False,
    seconds: float | None = None,
) -> float:
    """The exact chance that the hero leaves the fight alive (won, or by one of its ways
    out) with ``allies`` ((SKILL, STAMINA) pairs) beside him; see the module docstring.
    Too many states or too long (``seconds``, None: :data:`SECONDS`):
    :class:`~dedale.rules.odds_exits.ExitOddsTooLarge`."""
    if not plan.enemies:
        raise GameError("a fight needs at least one enemy")
    if any(stamina <= 0 for _, stamina, _ in plan.enemies):
        raise GameError("every enemy needs at least 1 STAMINA")
    if hero_stamina <= 0:
        raise GameError("the hero needs at least 1 STAMINA to fight")
    check_size(max(0, luck or 0), hero_stamina, plan.enemies)
    solver = AllyExitSolver(ruleset, hero_skill, plan, luck_policy, abilities, armour,
                            allies, struck, SECONDS if seconds is None else seconds)  # fmt: skip
    return solver.solve(hero_stamina, luck or 0)


class AllyExitSolver(ExitSolver):
    """The exits DP's states, with each ally's STAMINA after the counters."""

    def __init__(
        self, ruleset, hero_skill, plan: ExitPlan, policy, abilities, armour,
        allies: Sequence[tuple[int, int]], struck: str, seconds: float,
    ) -> None:  # fmt: skip
        if struck not in STRUCK:
            raise GameError(f"unknown struck mode {struck!r}", hint="use hero, ally or random")
        super().__init__(ruleset, hero_skill, plan, policy, abilities, armour)
        self.allies = tuple((int(a), max(0, int(s))) for a, s in allies)
        self.own = len(self.names)  # the book's counters; the allies' STAMINA follow
        self.names = self.names + tuple(f"\x00ally{j}" for j in range(len(self.allies)))
        self.modes = {"hero": ((1.0, "hero"),), "ally": ((1.0, "ally"),)}.get(
            struck, ((0.5, "hero"), (0.5, "ally"))
        )
        self.ally_hit = self.fight.damage_to_enemy
        self.ally_hurt = plan.enemy_damage or self.fight.damage_to_hero  # as fight_hooks: `or`
        self._duels: dict[tuple[int, int], object] = {}
        self._phases: dict[tuple, list] = {}
        self.seconds = seconds
        self.started = time.process_time()

    def solve(self, stamina: int, luck: int) -> float:
        plan = self.plan
        counters = tuple(v for _, v in plan.counters) + tuple(s for _, s in self.allies)
        start = (0, stamina, plan.enemies[0][1], luck, 0, 0, not self.track_hit, counters, 0)
        try:
            return self.value(start)
        except RecursionError:
            raise ExitOddsTooLarge(tr("the fight's states are too deep to compute")) from None

    def value(self, state: tuple) -> float:
        if state not in self.memo and len(self.memo) % _CLOCK_EVERY == 0:
            spent = time.process_time() - self.started
            if spent > self.seconds:
                raise ExitOddsTooLarge(
                    tr(
                        "the exact odds with allies ran out of time ({seconds} s, {cells} "
                        "states done)",
                        seconds=number(self.seconds),
                        cells=number(len(self.memo), ","),
                    )
                )
        return super().value(state)

    # ------------------------------------------------------------------ one assault

    def _value(self, state: tuple) -> float:
        done, escape, lead, immune, k2 = self._assault_start(state)
        if done is not None:
            return done
        k = state[4]
        total = stay = 0.0
        for p, winner, double in assault_outcomes(self.fight, lead, immune, self.doubles):
            if winner == "enemy" and not (self.armour and k == 0):
                for share, mode in self.modes:  # known at the wound, before Luck is offered
                    chance, back = self._best(state, self._struck(state, k2, mode), winner,
                                              double, ((1.0, mode),))  # fmt: skip
                    total += p * share * chance
                    stay += p * share * back
                continue
            options = [[(*move, 0) for move in option]
                       for option in self._after_wounds(state, winner, k2)]  # fmt: skip
            chance, back = self._best(state, options, winner, double, self.modes)
            total += p * chance
            stay += p * back
        if stay >= 1.0:
            return escape
        return max(escape, total / (1.0 - stay))

    def _struck(self, state: tuple, k2: int, mode: str) -> list[list[tuple]]:
        """The enemy's wound when the enemies strike ``mode``: the first ally standing takes
        it (the enemy's rules applied, no Luck), or the hero does (the exits DP's choices)."""
        index, h, e, luck, k, won, hit, counters, shift = state
        if mode == "ally" and any(a > 0 for a in counters[self.own :]):
            after = (index, h, e, luck, k2, won, hit, counters, shift)
            return [[(r, after, 0, 0, wound) for r, wound in self._deals(index, self.to_hero,
                                                                          state)]]  # fmt: skip
        return [[(*move, 0) for move in option]
                for option in self._after_wounds(state, "enemy", k2)]  # fmt: skip

    def _best(self, state: tuple, options, winner: str, double: bool, modes) -> tuple:
        """(chance, chance of this very state again) of the best option: the first is not
        testing Luck, another replaces it only when it gains (``luck_gains``)."""
        best = None
        for option in options:
            chance = back = 0.0
            for q, nxt, dealt, wound, given in option:
                for share, mode in modes:
                    for r, found in self._next(nxt, winner, double, dealt, wound, mode, given):
                        if found == state:  # only what changes nothing comes back here
                            back += q * share * r
                        else:
                            chance += (
                                q
                                * share
                                * r
                                * (found if isinstance(found, float) else self.value(found))
                            )
            if best is None or luck_gains(chance, best[0]):
                best = (chance, back)
        return best

    def _next(self, state: tuple, winner: str, double: bool, dealt: int, wound: int,
              mode: str, given: int) -> list[tuple]:  # fmt: skip
        """After the hero's part: deaths, the allies' exchanges, the events and exits, the
        table: ``[(chance, the fight's value (a float) or the next state)]``."""
        plan = self.plan
        index, h, e, luck, k, won, hit, counters, shift = state
        if h <= 0:
            return [(1.0, 0.0)]
        if dealt > 0 and self.won_cap:
            won = min(won + 1, self.won_cap)
        if e <= 0 and index + 1 >= len(plan.enemies):
            return [(1.0, self._out(h, luck, "won", k=k))]
        allies = list(counters[self.own :])
        if given:  # the wound the first ally standing took for the hero (it may fall)
            first = next(j for j, a in enumerate(allies) if a > 0)
            allies[first] = max(0, allies[first] - given)
        found = []
        for p, i2, e2, s2, al2 in self._phase(index, e, shift, tuple(allies), mode):
            if i2 >= len(plan.enemies):
                found.append((p, self._out(h, luck, "won", k=k)))
                continue
            after = (i2, h, e2, luck, k, won, hit, counters[: self.own] + al2, s2)
            rest = self._rest(after, index, winner, double, wound)
            found.extend((p * r, x) for r, x in self._rows(rest))
        return found

    def _first(self, i: int, e: int, s: int) -> tuple[int, int, int]:
        """The first enemy standing from ``i`` (STAMINA ``e``, SKILL shift ``s``): the next
        ones step in untouched; past the last, ``(count, 0, 0)``."""
        enemies = self.plan.enemies
        while e <= 0:
            i += 1
            if i >= len(enemies):
                return len(enemies), 0, 0
            e, s = enemies[i][1], 0
        return i, e, s

    def _phase(self, index: int, e: int, shift: int, allies: tuple, mode: str) -> list:
        """The allies' exchanges: [(chance, enemy index, its STAMINA, its SKILL shift,
        allies' STAMINA)] (index past the last: every enemy fell)."""
        key = (index, e, shift, allies, mode)
        found = self._phases.get(key)
        if found is not None:
            return found
        enemies = self.plan.enemies
        outs = [(1.0, *self._first(index, e, shift), allies)]
        for j in [j for j, a in enumerate(allies) if a > 0]:
            nxt = []
            for p, i, e1, s1, al in outs:
                if i >= len(enemies):
                    nxt.append((p, i, e1, s1, al))
                    continue
                chances = self._duel(self.allies[j][0], enemies[i][0] + s1)
                if chances.p_hero:
                    nxt.append((p * chances.p_hero, *self._first(i, e1 - self.ally_hit, s1), al))
                if chances.p_enemy:
                    if mode == "ally":
                        hurt = al[:j] + (max(0, al[j] - self.ally_hurt),) + al[j + 1 :]
                        nxt.append((p * chances.p_enemy, i, e1, s1, hurt))
                    else:
                        nxt.append((p * chances.p_enemy, i, e1, s1, al))
                if chances.p_tie:
                    nxt.append((p * chances.p_tie, i, e1, s1, al))
            outs = nxt
        merged: dict[tuple, float] = {}
        for p, *rest in outs:
            merged[tuple(rest)] = merged.get(tuple(rest), 0.0) + p
        found = [(p, *rest) for rest, p in merged.items()]
        self._phases[key] = found
        return found

    def _duel(self, ally_skill: int, enemy_skill: int):
        key = (ally_skill, enemy_skill)
        found = self._duels.get(key)
        if found is None:  # no instant kill, no Luck (immune=True: no double kills)
            found = self._duels[key] = assault_chances(self.fight, ally_skill, enemy_skill, True)
        return found

    def _rest(self, state: tuple, fought: int, winner: str, double: bool, wound: int):
        """The events of the enemy fought (while it stands), then the exits read before the
        table (the exits DP's ``_events_exits``)."""
        stands = state[0] == fought  # (else the allies' phase moved on)
        return self._events_exits(state, winner, double, wound, stands)
