"""Exact odds of FF-family fights with allies against several enemies at once (issue 14.1).

The fight at once of :mod:`dedale.rules.odds_group_exits` (the target chosen each assault,
the other enemies' blows, Luck on each wound; its ways out, rules under an enemy and
assault table) with the allies of :mod:`dedale.rules.odds_allies`, in the real code's order
(``rules/fight_opposed.py`` with ``game/fight_hooks.py``):

1. The target's and the hero's attack strengths; the hero's wound of the target (Luck
   tested before whom the enemies strike is rolled), or the target's wound (whom the
   enemies strike is known then). Then each other enemy standing, in order, whose strength
   beats the hero's: its wound (the ruleset's ``together`` damage, or ``enemy damage``, then
   its own ``it deals`` and wound rolls). Struck ally with an ally standing, every such
   wound goes to the first ally standing (no Luck, the hero loses nothing); else the hero
   takes it (Luck, each choice knowing the assault so far). The other enemies stop once
   the hero is at 0.
2. A hero at 0 loses; no enemy left: won (the allies do not act).
3. Each ally standing exchanges blows with the first enemy standing (in the book's order,
   whatever the hero's target), as in :mod:`dedale.rules.odds_allies_exits`.
4. The hooks after the assault (the target's events, the exits, the table, the threshold,
   the assaults won): :class:`~dedale.rules.odds_group_exits_hooks.AfterAssault`'s, with the
   allies' STAMINA kept after the counters (names no book can write).

Enemies are never merged as interchangeable here (the allies strike by order). Luck (best
policy) is an exact maximum with the relative tie rule (``luck_gains``). Bounded by the
fight at once's states and CPU budget, and by :data:`MAX_CELLS` before any work.
"""

from __future__ import annotations

from collections.abc import Sequence

from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules.odds import luck_gains
from dedale.rules.odds_allies import STRUCK
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_group_exits import SECONDS, GroupExitSolver
from dedale.rules.odds_group_exits_hooks import end
from dedale.rules.odds_inputs import assault_chances
from dedale.rules.ruleset import Ruleset

MAX_CELLS = 400_000
"""Hero STAMINA x Luck x each enemy's and each ally's STAMINA at most (checked first)."""


def ally_group_odds(
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
    target: str = "best",
    seconds: float = SECONDS,
) -> float:
    """The exact chance that the hero leaves a fight against all ``plan.enemies`` at once
    alive with ``allies`` ((SKILL, STAMINA) pairs) beside him (see the module docstring).
    Past the budget: :class:`~dedale.rules.odds_group_exits.GroupExitsTooLarge`."""
    solver = AllyGroupSolver(ruleset, hero_skill, plan, luck_policy, abilities, armour, target,
                             allies, struck)  # fmt: skip
    solver.seconds = seconds
    return solver.solve(hero_stamina, luck)


class AllyGroupSolver(GroupExitSolver):
    """The fight at once's states, with each ally's STAMINA after the counters."""

    def __init__(self, ruleset, hero_skill, plan: ExitPlan, policy, abilities, armour, target,
                 allies: Sequence[tuple[int, int]], struck: str) -> None:  # fmt: skip
        if struck not in STRUCK:
            raise GameError(f"unknown struck mode {struck!r}", hint="use hero, ally or random")
        super().__init__(ruleset, hero_skill, plan, policy, abilities, armour, target)
        self.allies = tuple((int(a), max(0, int(s))) for a, s in allies)
        self.own = len(self.names)
        self.names = self.names + tuple(f"\x00ally{j}" for j in range(len(self.allies)))
        self.groups = []  # the allies strike the first enemy standing: order matters
        self.modes = {"hero": ((1.0, "hero"),), "ally": ((1.0, "ally"),)}.get(
            struck, ((0.5, "hero"), (0.5, "ally"))
        )
        self.ally_hit = self.fight.damage_to_enemy
        self.ally_hurt = plan.enemy_damage or self.fight.damage_to_hero  # as fight_hooks: `or`
        self._duels: dict[tuple[int, int], object] = {}
        self._phases: dict[tuple, list] = {}

    def start(self, stamina: int, luck: int | None) -> tuple:
        cells = (stamina + 1) * (max(0, luck or 0) + 1)
        for _, health, _ in self.plan.enemies:
            cells *= health + 1
        for _, health in self.allies:
            cells *= health + 1
        if cells > MAX_CELLS:
            raise self._too_large(
                tr("more than {limit} states", limit=number(MAX_CELLS, ","))
            )  # fmt: skip
        h, lk, es, shifts, k, won, hit, counters = super().start(stamina, luck)
        counters = counters + tuple(s for _, s in self.allies)
        return (h, lk, es, shifts, k, won, hit, counters)

    # ------------------------------------------------------------------ one assault

    def _assault(self, state: tuple, t: int) -> tuple[float, list[tuple[float, tuple]]]:
        plan = self.plan
        h, luck, es, shifts, k, won, hit, counters = state
        skills = [s + d for (s, _h, _i), d in zip(plan.enemies, shifts, strict=True)]
        base = self.skill
        for enemy, value, when in plan.attacks:
            if self._mine(enemy, t) and self._holds(when, h, counters):
                base += value
        sides = tuple(j for j, e in enumerate(es) if e > 0 and j != t)
        gaps = tuple(base - skills[j] for j in sides)
        guarded = self.armour and k == 0  # armour stops every blow of the first assault
        cache: dict = {}
        ctx = (state, t, cache)
        rows: dict[tuple, float] = {}
        immune = plan.enemies[t][2]
        if self.use_luck and (guarded or len(sides) <= 1):  # linear in the other's chance
            self._one_side(ctx, self._per_roll(base - skills[t], gaps, immune),
                           () if guarded else sides, guarded, rows)  # fmt: skip
        elif self.use_luck:  # each Luck choice knows the hero's roll
            for p, double, outcomes, chances in self._per_roll(base - skills[t], gaps, immune):
                side_p = tuple(zip(sides, chances, strict=True))
                for q, winner in outcomes:
                    for share, options in self._choices(ctx, winner, double, side_p, guarded):
                        for r, n in self._pick(state, options):
                            rows[n] = rows.get(n, 0.0) + p * q * share * r
        else:  # no choice: the rolls summed per (winner, double, which others land)
            for p, winner, double, hits in self._joint(base - skills[t], gaps, immune, guarded):
                side_p = tuple((j, 1.0) for j, yes in zip(sides, hits, strict=False) if yes)
                for share, options in self._choices(ctx, winner, double, side_p, guarded):
                    for r, n in options[0]:
                        rows[n] = rows.get(n, 0.0) + p * share * r
        stay = rows.pop(state, 0.0)
        return stay, [(q, n) for n, q in rows.items()]

    def _choices(self, ctx, winner: str, double: bool, side_p: tuple, guarded: bool) -> list:
        """The target's side of the assault then the others' blows ``side_p``: ``[(share,
        options)]``, each option a list of moves ``(chance, next node)``: per whom the
        enemies strike when the target wounds (known then), else one choice over both."""
        state, t, _cache = ctx
        if winner == "enemy" and not guarded:  # whom they strike: known at the wound
            return [
                (share, [[(w * r, n) for w, *rest in option
                          for r, n in self._walk(ctx, winner, double, *rest, mode, side_p)]
                         for option in self._struck(state, t, mode)])
                for share, mode in self.modes
            ]  # fmt: skip
        return [(1.0, [
            [(w * share * r, n) for w, h1, l1, es1, hit1, dealt in option
             for share, mode in self.modes
             for r, n in self._walk(ctx, winner, double, h1, l1, es1, hit1, dealt, 0, mode,
                                    side_p)]
            for option in self._options(ctx, winner)
        ])]  # fmt: skip

    def _one_side(self, ctx, per_roll, sides: tuple, guarded: bool, rows: dict) -> None:
        """Best Luck with at most one other enemy: an option's worth is linear in the chance
        that enemy lands, ``miss + s (hit - miss)``; the moves are summed per choice."""
        land = ((sides[0], 1.0),) if sides else ()
        parts: dict[tuple, list] = {}  # (winner, double) -> [(share, [(miss, hit, v0, v1)])]
        weights: dict[tuple, list] = {}  # (winner, double, group, pick) -> [missed, landed]
        for p, double, outcomes, chances in per_roll:
            s = chances[0] if sides else 0.0
            for q, winner in outcomes:
                key = (winner, double)
                found = parts.get(key)
                if found is None:
                    found = parts[key] = self._one_side_parts(ctx, winner, double, land, guarded)
                for group, (share, options) in enumerate(found):
                    pick, best = 0, None
                    for index, (_miss, _hit, v_miss, v_hit) in enumerate(options):
                        worth = v_miss + s * (v_hit - v_miss)
                        if index == 0 or luck_gains(worth, best):
                            pick, best = index, worth
                    cell = weights.setdefault((winner, double, group, pick), [0.0, 0.0])
                    cell[0] += p * q * share * (1 - s)
                    cell[1] += p * q * share * s
        for (winner, double, group, pick), (missed, landed) in weights.items():
            miss, hit, _, _ = parts[winner, double][group][1][pick]
            for r, n in miss:
                rows[n] = rows.get(n, 0.0) + missed * r
            for r, n in hit:
                rows[n] = rows.get(n, 0.0) + landed * r

    def _one_side_parts(self, ctx, winner, double, land, guarded) -> list:
        """Per group of choices: its share and, per option, its moves when the other enemy
        misses and when it lands, with their values (when there is a choice)."""
        state = ctx[0]
        misses = self._choices(ctx, winner, double, (), guarded)
        hits = self._choices(ctx, winner, double, land, guarded) if land else misses
        found = []
        for (share, miss_options), (_, hit_options) in zip(misses, hits, strict=True):
            options = []
            for miss, hit in zip(miss_options, hit_options, strict=True):
                v_miss = v_hit = 0.0
                if len(miss_options) > 1:
                    if any(n == state for _, n in miss + (hit if land else [])):
                        raise self._too_large(tr("a Luck test that may change nothing"))
                    v_miss = sum(r * self.value(n) for r, n in miss)
                    v_hit = sum(r * self.value(n) for r, n in hit) if land else v_miss
                options.append((miss, hit if land else [], v_miss, v_hit))
            found.append((share, options))
        return found

    def _struck(self, state: tuple, t: int, mode: str) -> list[list[tuple]]:
        """The target's wound when the enemies strike ``mode``: options of ``(chance, hero
        STAMINA, Luck, enemies' STAMINA, hit yet, dealt, the wound an ally takes)``."""
        h, luck, es, shifts, k, won, hit, counters = state
        if mode == "ally" and any(counters[self.own :]):  # no Luck: the ally's wound
            return [[(r, h, luck, es, hit, 0, wound)
                     for r, wound in self._deals(t, self.to_hero, h, counters)]]  # fmt: skip
        return [[(*move, 0) for move in option] for option in self._target(state, t, "enemy")]

    def _walk(self, ctx, winner, double, h, luck, es, hit, dealt, given, mode, side_p) -> list:
        """The other enemies' blows one after another (each Luck choice the best knowing the
        assault so far), then the end of the assault: ``[(chance, next node)]``."""
        state, t, cache = ctx
        counters = state[7]
        if given:  # a wound an ally took for the hero: the allies' STAMINA is in the counters
            counters = self._hurt_first(counters, given)
            state = state[:7] + (counters,)
            ctx = (state, t, cache)
        key = (winner, double, h, luck, es, hit, dealt, counters, mode, side_p)
        found = cache.get(key)
        if found is not None:
            return found
        if not side_p or h <= 0:
            found = self._end(ctx, winner, double, h, luck, es, hit, dealt, mode)
            cache[key] = found
            return found
        (j, p), rest = side_p[0], side_p[1:]
        found = []
        if p < 1.0:
            found += [((1 - p) * q, n) for q, n in self._walk(
                ctx, winner, double, h, luck, es, hit, dealt, 0, mode, rest)]  # fmt: skip
        hit_key = ("hit", j, winner, double, h, luck, es, hit, dealt, counters, mode, rest)
        chosen = cache.get(hit_key) if p > 0.0 else []  # its choice does not depend on p
        if chosen is None:
            if mode == "ally" and any(counters[self.own :]):  # the first ally standing
                chosen = [(r * q, n) for r, wound in self._deals(j, self.side, h, counters)
                          for q, n in self._walk(ctx, winner, double, h, luck, es, hit, dealt,
                                                 wound, mode, rest)]  # fmt: skip
            else:
                options = []
                for option in self._luck_options(self.side, luck, self.fight.luck_wounded,
                                                  self.fight.damage_to_hero):  # fmt: skip
                    moves = []
                    for w, lk, d in option:
                        for r, wound in self._deals(j, d, h, counters):
                            moves += [(w * r * q, n) for q, n in self._walk(
                                ctx, winner, double, max(0, h - wound), lk, es, hit, dealt, 0,
                                mode, rest)]  # fmt: skip
                    options.append(moves)
                chosen = self._pick(state, options)
            cache[hit_key] = chosen
        found += [(p * q, n) for q, n in chosen]
        cache[key] = found
        return found

    def _hurt_first(self, counters: tuple, wound: int) -> tuple:
        allies = list(counters[self.own :])
        first = next(j for j, a in enumerate(allies) if a > 0)
        allies[first] = max(0, allies[first] - wound)
        return counters[: self.own] + tuple(allies)

    def _end(self, ctx, winner, double, h, luck, es, hit, dealt, mode) -> list:
        """Death, a win, the allies' exchanges, then the hooks after the assault."""
        state, t, _cache = ctx
        if h <= 0:
            return [(1.0, end("lost", 0, luck))]
        if not any(es):
            return [(1.0, end("won", h, luck))]
        counters = state[7]
        found: list[tuple[float, tuple]] = []
        for p, es2, allies in self._phase(es, state[3], counters[self.own :], mode):
            after = state[:7] + (counters[: self.own] + allies,)
            found += [(p * r, n) for r, n in self._finish(after, t, winner, double, h, luck,
                                                           es2, hit, dealt)]  # fmt: skip
        return found

    def _phase(self, es: tuple, shifts: tuple, allies: tuple, mode: str) -> list:
        """The allies' exchanges with the first enemy standing: [(chance, enemies' STAMINA,
        allies' STAMINA)]."""
        key = (es, shifts, allies, mode)
        found = self._phases.get(key)
        if found is not None:
            return found
        enemies = self.plan.enemies
        outs = [(1.0, es, allies)]
        for j in [j for j, a in enumerate(allies) if a > 0]:
            nxt = []
            for p, es1, al in outs:
                i = next((i for i, e in enumerate(es1) if e > 0), None)
                if i is None:
                    nxt.append((p, es1, al))
                    continue
                chances = self._duel(self.allies[j][0], enemies[i][0] + shifts[i])
                if chances.p_hero:
                    cut = es1[:i] + (max(0, es1[i] - self.ally_hit),) + es1[i + 1 :]
                    nxt.append((p * chances.p_hero, cut, al))
                if chances.p_enemy:
                    if mode == "ally":
                        hurt = al[:j] + (max(0, al[j] - self.ally_hurt),) + al[j + 1 :]
                        nxt.append((p * chances.p_enemy, es1, hurt))
                    else:
                        nxt.append((p * chances.p_enemy, es1, al))
                if chances.p_tie:
                    nxt.append((p * chances.p_tie, es1, al))
            outs = nxt
        merged: dict[tuple, float] = {}
        for p, es1, al in outs:
            merged[es1, al] = merged.get((es1, al), 0.0) + p
        found = [(p, es1, al) for (es1, al), p in merged.items()]
        self._phases[key] = found
        return found

    def _duel(self, ally_skill: int, enemy_skill: int):
        key = (ally_skill, enemy_skill)
        found = self._duels.get(key)
        if found is None:  # no instant kill, no Luck (immune=True: no double kills)
            found = self._duels[key] = assault_chances(self.fight, ally_skill, enemy_skill, True)
        return found

    def _pick(self, state: tuple, options: list[list[tuple[float, tuple]]]) -> list:
        """The first option (no Luck) unless another gains (``luck_gains``)."""
        if len(options) == 1:
            return options[0]
        chosen, best = options[0], None
        for index, option in enumerate(options):
            if any(n == state for _, n in option):
                raise self._too_large(tr("a Luck test that may change nothing"))
            worth = sum(q * self.value(n) for q, n in option)
            if index == 0 or luck_gains(worth, best):
                chosen, best = option, worth
        return chosen
