"""Exact odds of an FF-family fight against several enemies at once (the ``together`` mode).

Each assault the hero picks a living target; every enemy rolls its attack strength; the
target is fought as in a one-enemy fight (instant kill on a double, armour on the first
assault, Luck on the wound); each other living enemy whose strength beats the hero's
wounds him with the ruleset's ``together`` damage (Luck may apply to each such wound, in
the enemies' order). The mechanism is the one of :mod:`dedale.rules.fight_opposed`; all
numbers come from the same ruleset data, read through :class:`dedale.rules.odds.OddsTable`.

A state is (hero STAMINA, LUCK, every enemy's STAMINA, first assault?, hit yet?). Every
move leads to a lexicographically smaller state (or back to itself: a tie nobody wins),
so the values are filled bottom-up in lexicographic order, ties folded in exactly. The
target is ``order`` (the first living enemy, as the rules' default) or ``best`` (a maximum
over the targets, like best Luck; then enemies with the same SKILL are interchangeable and
their STAMINA values are kept sorted, which divides the states). With the best Luck policy
each Luck choice knows the hero's own roll and the wounds of the assault so far, as a
player at the table does. The state space is the product of the enemies' STAMINA: it is
bounded (:data:`MAX_STATES`) before anything is allocated.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence

from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules.odds import OddsResult, OddsTable
from dedale.rules.odds_inputs import OddsTooLarge
from dedale.rules.ruleset import Ruleset

MAX_STATES = 300_000  # states (hero STAMINA x LUCK x product of enemy STAMINA) at most
TARGETS = ("order", "best")


def group_odds(
    ruleset: Ruleset,
    hero_skill: int,
    hero_stamina: int,
    enemies: Sequence,
    *,
    luck: int | None = None,
    luck_policy: str = "none",
    target: str = "best",
    class_name: str | None = None,
    attack_bonus: int = 0,
    enemy_damage: int | None = None,
    armour: bool | None = None,
    luck_work: int | None = None,
) -> OddsResult:
    """Exact odds that the hero wins a fight against all ``enemies`` at once
    (``luck_work``: the best Luck's budget, :data:`LUCK_WORK` by default)."""
    table = shared_table(
        ruleset, hero_skill, enemies, luck_policy=luck_policy, target=target,
        class_name=class_name, attack_bonus=attack_bonus, enemy_damage=enemy_damage,
        armour=armour, luck_work=luck_work,
    )  # fmt: skip
    return table.solve(hero_stamina, luck)


LUCK_WORK = 2_000  # with the best Luck: states x targets x 3^(other enemies) at most


def check_group_size(
    stamina: int,
    luck: int,
    enemies: Sequence[tuple[int, int, bool]],
    best: bool = False,
    luck_work: int | None = None,
) -> None:
    """Raise :class:`OddsTooLarge` past :data:`MAX_STATES` states, or with Luck choices
    (``luck`` > 0) past ``luck_work`` (default :data:`LUCK_WORK`; Python integers only:
    nothing is allocated)."""
    limit = LUCK_WORK if luck_work is None else luck_work
    cells = (max(stamina, 0) + 1) * (max(luck, 0) + 1)
    for _, health, _ in enemies:
        cells *= max(health, 0) + 1
        if cells > MAX_STATES:
            _too_large(len(enemies), MAX_STATES)
    if luck > 0:
        kinds: dict[tuple, list[int]] = {}
        for skill, health, immune in enemies:
            kinds.setdefault((skill, immune) if best else (len(kinds), 0), []).append(health)
        work = max(stamina, 0) * (luck + 1) * 3 ** (len(enemies) - 1)
        work *= len(kinds) if best else 1
        for healths in kinds.values():  # sorted STAMINA values: multisets, not tuples
            work *= math.comb(max(healths) + len(healths), len(healths))
            if work > limit:
                _too_large(len(enemies), limit, luck=True)
        if work > limit:
            _too_large(len(enemies), limit, luck=True)


def _too_large(count: int, limit: int, luck: bool = False) -> None:
    if luck:
        message = tr(
            "the exact odds with the best Luck of a fight against {count} enemies at once "
            "would need more than {limit} steps (their STAMINA values multiply)",
            count=count,
            limit=number(limit, ","),
        )
    else:
        message = tr(
            "the exact odds of a fight against {count} enemies at once would need "
            "more than {limit} states (their STAMINA values multiply)",
            count=count,
            limit=number(limit, ","),
        )
    raise OddsTooLarge(
        message,
        hint=tr("fewer or weaker enemies at once have exact odds (the validator estimates them)"),
    )


FILL_SECONDS = 4.0
"""The time bound of one array fill or forward pass (:mod:`dedale.rules.odds_group_fast`),
in CPU seconds of this process (the same answer on a loaded machine)."""


def _too_slow(count: int, seconds: float) -> None:
    raise OddsTooLarge(
        tr(
            "the exact odds of a fight against {count} enemies at once took more than "
            "{seconds} seconds",
            count=count,
            seconds=format(seconds, "g"),
        ),
        hint=tr("fewer or weaker enemies at once have exact odds (the validator estimates them)"),
    )


class GroupTable:
    """The value function of one ``together`` fight setting, filled bottom-up."""

    def __init__(
        self,
        ruleset: Ruleset,
        hero_skill: int,
        enemies: Sequence,
        *,
        luck_policy: str = "none",
        target: str = "best",
        class_name: str | None = None,
        attack_bonus: int = 0,
        enemy_damage: int | None = None,
        armour: bool | None = None,
        luck_work: int | None = None,
    ) -> None:
        if target not in TARGETS:
            raise GameError(
                tr("unknown target choice '{target}'", target=target), hint=tr("use order or best")
            )
        base = OddsTable(
            ruleset, hero_skill, enemies, luck_policy=luck_policy, class_name=class_name,
            mode="sequence", attack_bonus=attack_bonus, enemy_damage=enemy_damage, armour=armour,
        )  # fmt: skip
        self.base = base
        self.luck_work = luck_work  # the best Luck's work budget (None: LUCK_WORK)
        self.seconds = FILL_SECONDS  # the array fill's time bound
        fight = base.fight
        self.enemies = list(base.enemies)
        self.best = target == "best"
        self.use_luck = base.use_luck
        self.cost = base.luck_cost
        side = enemy_damage if enemy_damage is not None else fight.together_damage
        table = fight.luck_wounded
        self.side = (side,)
        if self.use_luck and table is not None:
            shift = fight.damage_to_hero
            self.side = (
                side,
                max(0, side + table.lucky - shift),
                max(0, side + table.unlucky - shift),
            )
        self.first_hit_bonus = base.first_hit_bonus
        self.armour = base.armour
        self._rolls(fight, base.hero_attack)
        # enemies that are interchangeable (same SKILL, same immunity): sorted together
        self.groups = [
            [i for i, e in enumerate(self.enemies) if (e[0], e[2]) == key]
            for key in dict.fromkeys((e[0], e[2]) for e in self.enemies)
        ]
        self.values: dict[tuple, float] = {}
        self._side_memo: dict[tuple, tuple[float, float]] = {}
        self._joints: dict[tuple, list[tuple[int, int, float]]] = {}
        self._targets: dict[tuple, int] = {}
        self.stamina_max = 0
        self.luck_max = -1

    # ------------------------------------------------------------------ one assault

    def _rolls(self, fight, hero_attack: int) -> None:
        """Per hero roll: its chance, the chance it is a double, and for each enemy the
        chances its strength is below, equal to or above the hero's."""
        from dedale.rules.odds_inputs import below_function, double_chances

        exact = fight.dice.distribution()
        dist = {k: float(v) for k, v in exact.items()}
        below = below_function(exact)

        def p_below(x: int) -> float:
            return float(below(x))

        doubles: dict[int, float] = {}
        if fight.instant_kill_on_double:
            doubles = {k: float(v) for k, v in double_chances(fight).items()}
        self.rolls = []
        for roll, p in sorted(dist.items()):
            strength = hero_attack + roll
            per_enemy = []
            for skill, _, _ in self.enemies:
                lower = p_below(strength - skill)  # enemy strength below the hero's
                upto = p_below(strength - skill + 1)
                per_enemy.append((lower, upto - lower, 1.0 - upto))
            self.rolls.append((p, doubles.get(roll, 0.0), per_enemy))

    def _normal(self, h: int, luck: int, es: tuple, first: bool, hit: bool) -> tuple:
        if not self.armour:
            first = False
        if not self.first_hit_bonus:
            hit = True
        if self.best:
            es = list(es)
            for group in self.groups:
                if len(group) > 1:
                    for i, v in zip(group, sorted(es[i] for i in group), strict=True):
                        es[i] = v
            es = tuple(es)
        return h, luck, es, first, hit

    def value(self, state: tuple) -> float:
        h, _, es, _, _ = state
        if h <= 0:
            return 0.0
        if not any(es):
            return 1.0
        return self.values[state]

    def _p_lucky(self, luck: int) -> float:
        return self.base.p_lucky(luck)

    def _branches(self, h, luck, es, first, hit, t, k):
        """The distribution of the states after one assault against target ``t`` with the
        hero's roll ``k``, the Luck choices made to maximise the value: {state: chance}."""
        p_roll, p_double, per_enemy = self.rolls[k]
        below, equal, above = per_enemy[t]
        enemies = self.enemies
        sides = [j for j, e in enumerate(es) if e > 0 and j != t]
        guarded = first and self.armour
        outcomes: list[tuple[float, list]] = []  # (chance, options: [[(p, h, luck, es, hit)]])
        plain = p_roll
        if p_double and not enemies[t][2]:
            plain -= p_double
            killed = es[:t] + (0,) + es[t + 1 :]
            outcomes.append((p_double, [[(1.0, h, luck, killed, hit)]]))
        if plain > 0:
            e = es[t]
            if below:
                d = self.base.to_enemy + (0 if hit else self.first_hit_bonus)
                hits = self.base.hit
                opts = [[(1.0, h, luck, es[:t] + (max(0, e - d),) + es[t + 1 :], True)]]
                if len(hits) == 3 and luck > 0 and d > 0 and self.base.fight.luck_wounding:
                    q = self._p_lucky(luck)
                    low = max(0, luck - self.cost)
                    table = self.base.fight.luck_wounding
                    shift = self.base.fight.damage_to_enemy
                    lucky = max(0, d + table.lucky - shift)
                    unlucky = max(0, d + table.unlucky - shift)
                    opts.append([
                        (q, h, low, es[:t] + (max(0, e - lucky),) + es[t + 1 :], True),
                        (1 - q, h, low, es[:t] + (max(0, e - unlucky),) + es[t + 1 :], True),
                    ])  # fmt: skip
                outcomes.append((plain * below, opts))
            if equal:
                outcomes.append((plain * equal, [[(1.0, h, luck, es, hit)]]))
            if above:
                if guarded:
                    outcomes.append((plain * above, [[(1.0, h, luck, es, hit)]]))
                else:
                    hurt = self.base.hurt
                    opts = [[(1.0, h - hurt[0], luck, es, hit)]]
                    if len(hurt) == 3 and luck > 0 and hurt[0] > 0:
                        q = self._p_lucky(luck)
                        low = max(0, luck - self.cost)
                        opts.append(
                            [(q, h - hurt[1], low, es, hit), (1 - q, h - hurt[2], low, es, hit)]
                        )
                    outcomes.append((plain * above, opts))
        result: dict[tuple, float] = {}
        side_p = [per_enemy[j][2] for j in sides]
        for chance, options in outcomes:
            dists = []
            for option in options:
                dist: dict[tuple, float] = {}
                for p, h1, l1, es1, hit1 in option:
                    for state, q in self._sides(h1, l1, es1, hit1, side_p, guarded).items():
                        dist[state] = dist.get(state, 0.0) + p * q
                dists.append(dist)
            for state, q in self._best(dists).items():
                result[state] = result.get(state, 0.0) + chance * q
        return result

    def _best(self, dists: list[dict[tuple, float]]) -> dict[tuple, float]:
        """The distribution of the option worth most (the reader's best Luck choice)."""
        if len(dists) == 1:
            return dists[0]
        best_value, best = -1.0, dists[0]
        for dist in dists:
            total = sum(q * self.value(s) for s, q in dist.items())
            if total > best_value + 1e-15:
                best_value, best = total, dist
        return best

    def _sides(self, h, luck, es, hit, side_p, guarded) -> dict[tuple, float]:
        """The other enemies' attacks, one after another: {final state: chance}."""
        if guarded or not side_p or h <= 0 or self.side[0] <= 0:
            return {self._normal(h, luck, es, False, hit): 1.0}
        p, rest = side_p[0], side_p[1:]
        out: dict[tuple, float] = {}
        if p < 1.0:
            for s, q in self._sides(h, luck, es, hit, rest, False).items():
                out[s] = out.get(s, 0.0) + (1 - p) * q
        if p > 0.0:
            options = [[(1.0, h - self.side[0], luck)]]
            if len(self.side) == 3 and luck > 0:
                q = self._p_lucky(luck)
                low = max(0, luck - self.cost)
                options.append([(q, h - self.side[1], low), (1 - q, h - self.side[2], low)])
            dists = []
            for option in options:
                dist: dict[tuple, float] = {}
                for w, h1, l1 in option:
                    for s, q in self._sides(h1, l1, es, hit, rest, False).items():
                        dist[s] = dist.get(s, 0.0) + w * q
                dists.append(dist)
            for s, q in self._best(dists).items():
                out[s] = out.get(s, 0.0) + p * q
        return out

    def moves(self, state: tuple) -> tuple[float, dict[tuple, float], int]:
        """(chance the assault leaves the state as it is, {next state: chance}, target)
        under the chosen target and Luck policy."""
        h, luck, es, first, hit = state
        alive = [i for i, e in enumerate(es) if e > 0]
        choices = alive if self.best else alive[:1]
        if self.best:  # one target per group of interchangeable enemies with equal STAMINA
            seen = set()
            unique = []
            for i in choices:
                key = (self.enemies[i][0], self.enemies[i][2], es[i])
                if key not in seen:
                    seen.add(key)
                    unique.append(i)
            choices = unique
        best = None
        for t in choices:
            dist: dict[tuple, float] = {}
            for k in range(len(self.rolls)):
                for s, q in self._branches(h, luck, es, first, hit, t, k).items():
                    dist[s] = dist.get(s, 0.0) + q
            stay = dist.pop(state, 0.0)
            if stay >= 1.0 - 1e-15:
                win = 0.0
            else:
                win = sum(q * self.value(s) for s, q in dist.items()) / (1.0 - stay)
            if best is None or win > best[0] + 1e-15:
                best = (win, stay, dist, t)
        return best[1], best[2], best[3]

    # ------------------------------------------------------------------ fill and solve

    def _fill(self, stamina_max: int, luck_max: int) -> None:
        from dedale.rules import odds_group_fast

        if odds_group_fast.fits(self, stamina_max, luck_max):  # the array fill, level by level
            try:
                values = odds_group_fast.fill(self, stamina_max, luck_max, self.seconds)
            except TimeoutError:
                _too_slow(len(self.enemies), self.seconds)
            self.values = values
            self._side_memo.clear()
            self.stamina_max, self.luck_max = stamina_max, luck_max
            return
        check_group_size(stamina_max, luck_max, self.enemies, self.best, self.luck_work)
        self.values = {}
        self._side_memo.clear()
        self.stamina_max, self.luck_max = stamina_max, luck_max
        flags = [(False, True)] + ([(False, False)] if self.first_hit_bonus else [])
        ranges = [range(e + 1) for _, e, _ in self.enemies]
        for h in range(1, stamina_max + 1):
            for luck in range(luck_max + 1):
                for es in itertools.product(*ranges):
                    if not any(es):
                        continue
                    for first, hit in flags:
                        state = (h, luck, es, first, hit)
                        if self._normal(*state) != state:
                            continue
                        self._store(state)

    def _store(self, state: tuple) -> float:
        """Compute and keep the value of ``state`` (its successors are known)."""
        value = self._fast_value(state)
        self.values[state] = value
        return value

    def _fast_value(self, state: tuple) -> float:
        """The value of a state, as :meth:`moves` gives it, without building the
        distributions (the fill's inner loop)."""
        h, luck, es, first, hit = state
        if not self.use_luck:
            return self._plain_value(state)
        alive = [i for i, e in enumerate(es) if e > 0]
        if self.best:
            seen: set = set()
            choices = []
            for i in alive:
                key = (self.enemies[i][0], self.enemies[i][2], es[i])
                if key not in seen:
                    seen.add(key)
                    choices.append(i)
        else:
            choices = alive[:1]
        guarded = first and self.armour
        base = self.base
        to_enemy = base.to_enemy + (0 if hit else self.first_hit_bonus)
        wounding = base.fight.luck_wounding
        luck_hit = self.use_luck and wounding is not None and luck > 0 and to_enemy > 0
        hurt = base.hurt
        luck_hurt = len(hurt) == 3 and luck > 0 and hurt[0] > 0
        low = max(0, luck - self.cost)
        q = self._p_lucky(luck) if luck_hit or luck_hurt else 0.0
        if luck_hit:
            lucky_d = max(0, to_enemy + wounding.lucky - base.fight.damage_to_enemy)
            unlucky_d = max(0, to_enemy + wounding.unlucky - base.fight.damage_to_enemy)
        sides_value = self._sides_value
        normal = self._normal
        best = 0.0
        for t in choices:
            e = es[t]
            immune = self.enemies[t][2]
            killed = es[:t] + (0,) + es[t + 1 :]
            struck = es[:t] + (max(0, e - to_enemy),) + es[t + 1 :]
            if luck_hit:
                struck_lucky = es[:t] + (max(0, e - lucky_d),) + es[t + 1 :]
                struck_unlucky = es[:t] + (max(0, e - unlucky_d),) + es[t + 1 :]
            sides = [j for j in alive if j != t]
            total = stay = 0.0
            for p_roll, p_double, per_enemy in self.rolls:
                side_p = tuple(per_enemy[j][2] for j in sides) if not guarded else ()
                below, equal, above = per_enemy[t]
                plain = p_roll
                if p_double and not immune:
                    plain -= p_double
                    v, s = sides_value(h, luck, killed, hit, side_p, state)
                    total += p_double * v
                    stay += p_double * s
                if plain <= 0:
                    continue
                if below:
                    v, s = sides_value(h, luck, struck, True, side_p, state)
                    if luck_hit:
                        with_luck = (
                            q * sides_value(h, low, struck_lucky, True, side_p, state)[0]
                            + (1 - q) * sides_value(h, low, struck_unlucky, True, side_p, state)[0]
                        )
                        if with_luck > v + 1e-15:
                            v, s = with_luck, 0.0
                    total += plain * below * v
                    stay += plain * below * s
                if equal:
                    v, s = sides_value(h, luck, es, hit, side_p, state)
                    total += plain * equal * v
                    stay += plain * equal * s
                if above:
                    if guarded:
                        v, s = sides_value(h, luck, es, hit, side_p, state)
                    else:
                        v, s = sides_value(h - hurt[0], luck, es, hit, side_p, state)
                        if luck_hurt:
                            with_luck = (
                                q * sides_value(h - hurt[1], low, es, hit, side_p, state)[0]
                                + (1 - q) * sides_value(h - hurt[2], low, es, hit, side_p, state)[0]
                            )
                            if with_luck > v + 1e-15:
                                v, s = with_luck, 0.0
                    total += plain * above * v
                    stay += plain * above * s
            win = 0.0 if stay >= 1.0 - 1e-15 else total / (1.0 - stay)
            if win > best:
                best = win
        del normal
        return min(best, 1.0)

    def _joint(self, t: int, sides: tuple[int, ...], guarded: bool) -> list[tuple[int, int, float]]:
        """Without Luck: the chances of (target outcome, number of other enemies that
        wound the hero) summed over the hero's rolls. Outcomes: 0 instant kill, 1 the hero
        wounds the target, 2 a tie (or a wound the armour stops), 3 the target wounds him."""
        key = (t, sides, guarded)
        found = self._joints.get(key)
        if found is not None:
            return found
        joint: dict[tuple[int, int], float] = {}
        immune = self.enemies[t][2]
        for p_roll, p_double, per_enemy in self.rolls:
            counts = [1.0]
            if not guarded:
                for j in sides:
                    p = per_enemy[j][2]
                    grown = [0.0] * (len(counts) + 1)
                    for c, w in enumerate(counts):
                        grown[c] += w * (1 - p)
                        grown[c + 1] += w * p
                    counts = grown
            below, equal, above = per_enemy[t]
            plain = p_roll
            parts = []
            if p_double and not immune:
                plain -= p_double
                parts.append((0, p_double))
            parts += [(1, plain * below), (2, plain * equal), (2 if guarded else 3, plain * above)]
            for kind, chance in parts:
                if chance <= 0:
                    continue
                for c, w in enumerate(counts):
                    if w > 0:
                        joint[kind, c] = joint.get((kind, c), 0.0) + chance * w
        found = self._joints[key] = [(k, c, p) for (k, c), p in joint.items()]
        return found

    def _plain_value(self, state: tuple) -> float:
        """The value of a state without Luck (no choice but the target)."""
        h, luck, es, first, hit = state
        alive = [i for i, e in enumerate(es) if e > 0]
        choices = self._choices(es, alive)
        guarded = first and self.armour
        to_enemy = self.base.to_enemy + (0 if hit else self.first_hit_bonus)
        to_hero = self.base.hurt[0]
        side = self.side[0]
        normal, value = self._normal, self.value
        best = 0.0
        for t in choices:
            e = es[t]
            after = (
                es[:t] + (0,) + es[t + 1 :],
                es[:t] + (max(0, e - to_enemy),) + es[t + 1 :],
                es,
                es,
            )
            total = stay = 0.0
            for kind, c, p in self._joint(t, tuple(j for j in alive if j != t), guarded):
                h1 = h - c * side - (to_hero if kind == 3 else 0)
                if h1 <= 0:
                    continue
                nxt = normal(h1, luck, after[kind], False, True if kind == 1 else hit)
                if nxt == state:
                    stay += p
                else:
                    total += p * value(nxt)
            win = 0.0 if stay >= 1.0 - 1e-15 else total / (1.0 - stay)
            if win > best:
                best = win
        return min(best, 1.0)

    def _choices(self, es: tuple, alive: list[int]) -> list[int]:
        """The targets worth trying: the first living enemy (``order``), or one of each
        kind of living enemy and STAMINA (``best``)."""
        if not self.best:
            return alive[:1]
        seen: set = set()
        choices = []
        for i in alive:
            key = (self.enemies[i][0], self.enemies[i][2], es[i])
            if key not in seen:
                seen.add(key)
                choices.append(i)
        return choices

    def _sides_value(self, h, luck, es, hit, side_p, state) -> tuple[float, float]:
        """(value, chance of being back in ``state``) after the other enemies' attacks
        (``side_p``: the chance each one beats the hero; empty when the armour guards)."""
        if h <= 0:
            return 0.0, 0.0
        _, _, es, _, hit = self._normal(h, luck, es, False, hit)
        if not any(es):
            return 1.0, 0.0
        if not side_p or self.side[0] <= 0:
            final = (h, luck, es, False, hit)
            if final == state:
                return 0.0, 1.0
            return self.values[final], 0.0
        key = (h, luck, es, hit, side_p)
        found = self._side_memo.get(key)
        if found is not None and state[2] != es:
            return found
        values = self.values
        side = self.side
        with_luck = len(side) == 3
        cost = self.cost
        p_lucky = self._p_lucky
        last = len(side_p)

        def walk(h: int, luck: int, m: int) -> float:
            if h <= 0:
                return 0.0
            if m == last:
                return values[h, luck, es, False, hit]
            p = side_p[m]
            v = (1 - p) * walk(h, luck, m + 1) if p < 1.0 else 0.0
            if p > 0.0:
                hv = walk(h - side[0], luck, m + 1)
                if with_luck and luck > 0:
                    c = p_lucky(luck)
                    low = max(0, luck - cost)
                    lucky = c * walk(h - side[1], low, m + 1)
                    lucky += (1 - c) * walk(h - side[2], low, m + 1)
                    if lucky > hv + 1e-15:
                        hv = lucky
                v += p * hv
            return v

        if state[2] == es and state[0] == h and state[1] == luck:
            # back to the same state only when every other enemy misses (no wound)
            stay = 1.0
            for p in side_p:
                stay *= 1 - p
            p0 = side_p[0]
            rest = self._sides_value(h, luck, es, hit, side_p[1:], state) if p0 < 1.0 else (0, 0)
            hv = walk(h - side[0], luck, 1) if p0 > 0 else 0.0
            if p0 > 0 and with_luck and luck > 0:
                c = p_lucky(luck)
                low = max(0, luck - cost)
                lucky = c * walk(h - side[1], low, 1) + (1 - c) * walk(h - side[2], low, 1)
                hv = max(hv, lucky)
            return (1 - p0) * rest[0] + p0 * hv, stay
        result = (walk(h, luck, 0), 0.0)
        if len(self._side_memo) > 1_000_000:
            self._side_memo.clear()
        self._side_memo[key] = result
        return result

    def start(self, hero_stamina: int, luck: int | None) -> tuple:
        if hero_stamina <= 0:
            raise GameError(tr("the hero needs at least 1 STAMINA to fight"))
        luck_value = max(0, luck) if luck is not None and self.use_luck else 0
        if hero_stamina > self.stamina_max or luck_value > self.luck_max:
            self._fill(max(hero_stamina, self.stamina_max), max(luck_value, self.luck_max))
        es = tuple(e for _, e, _ in self.enemies)
        state = self._normal(hero_stamina, luck_value, es, True, False)
        if state not in self.values:  # a start before the first assault
            self._store(state)
        return state

    def win_probability(self, hero_stamina: int, luck: int | None) -> float:
        return self.value(self.start(hero_stamina, luck))

    def solve(self, hero_stamina: int, luck: int | None) -> OddsResult:
        """Win probability, expected assaults and the after-win distributions."""
        start = self.start(hero_stamina, luck)
        win = self.value(start)
        if getattr(self.values, "fill", None) is not None:
            return self._flow(start, win, luck)
        heap = [(_key(start), start)]
        pending = {start: 1.0}
        stamina: dict[int, float] = {}
        lucks: dict[int, float] = {}
        ends: dict[tuple[int, int], float] = {}
        assaults = 0.0
        visited = 0
        while heap:
            _, state = heapq.heappop(heap)
            mass = pending.pop(state)
            h, lk, es, _, _ = state
            if h <= 0:
                continue
            if not any(es):
                shown = lk if self.use_luck else (max(0, luck) if luck is not None else 0)
                stamina[h] = stamina.get(h, 0.0) + mass
                lucks[shown] = lucks.get(shown, 0.0) + mass
                ends[h, shown] = ends.get((h, shown), 0.0) + mass
                continue
            visited += 1
            stay, dist, _ = self.moves(state)
            visits = mass / (1.0 - stay)
            assaults += visits
            for s, q in dist.items():
                if s not in pending:
                    pending[s] = 0.0
                    heapq.heappush(heap, (_key(s), s))
                pending[s] += visits * q
        scale = 1.0 / win if win > 0 else 0.0
        if luck is None:
            lucks = {}
        return OddsResult(
            win_probability=win,
            expected_assaults=assaults,
            stamina_distribution={k: v * scale for k, v in sorted(stamina.items()) if v},
            luck_distribution={k: v * scale for k, v in sorted(lucks.items()) if v},
            states=visited,
            end_states={k: v * scale for k, v in sorted(ends.items()) if v},
        )

    def _flow(self, start: tuple, win: float, luck: int | None) -> OddsResult:
        """:meth:`solve` over the array table (:mod:`dedale.rules.odds_group_flow`)."""
        from dedale.rules.odds_group_flow import Flow

        assaults, seeds = 0.0, {start: 1.0}
        if start[3]:  # the first assault (armour): the scalar moves, then the arrays
            stay, dist, _ = self.moves(start)
            assaults = 1.0 / (1.0 - stay)
            seeds = {s: q * assaults for s, q in dist.items() if s[0] > 0}
        flow = Flow(self.values, seeds, self.seconds)
        try:
            won = flow.run()
        except TimeoutError:
            _too_slow(len(self.enemies), self.seconds)
        shown = None if self.use_luck else (max(0, luck) if luck is not None else 0)
        ends: dict[tuple[int, int], float] = {}
        for (h, lk), mass in won.items():
            key = (h, lk if shown is None else shown)
            ends[key] = ends.get(key, 0.0) + mass
        total = sum(ends.values())
        scale = 1.0 / total if total > 0 else 0.0
        stamina: dict[int, float] = {}
        lucks: dict[int, float] = {}
        for (h, lk), mass in ends.items():
            stamina[h] = stamina.get(h, 0.0) + mass
            lucks[lk] = lucks.get(lk, 0.0) + mass
        return OddsResult(
            win_probability=win,
            expected_assaults=assaults + flow.assaults,
            stamina_distribution={k: v * scale for k, v in sorted(stamina.items()) if v},
            luck_distribution={k: v * scale for k, v in sorted(lucks.items()) if v}
            if luck is not None
            else {},
            states=flow.visited + (1 if start[3] else 0),
            end_states={k: v * scale for k, v in sorted(ends.items()) if v},
        )

    def target_for(self, hero: int, luck: int, healths: Sequence[int], hit: bool) -> int:
        """The target the table picks in a state (an index into ``healths``)."""
        es = tuple(healths)
        wanted_luck = luck if self.use_luck else 0
        if hero > self.stamina_max or wanted_luck > self.luck_max:
            self._fill(max(hero, self.stamina_max), max(wanted_luck, self.luck_max))
        state = (
            hero,
            luck if self.use_luck else 0,
            es,
            False,
            hit if self.first_hit_bonus else True,
        )
        canon = self._normal(*state)
        t = self._targets.get(canon)
        if t is None:
            t = self._targets[canon] = self.moves(canon)[2]
        if canon[2] == es:
            return t
        # the table sorted interchangeable enemies: the same STAMINA in the same group
        wanted = (self.enemies[t][0], self.enemies[t][2], canon[2][t])
        for i, e in enumerate(es):
            if (self.enemies[i][0], self.enemies[i][2], e) == wanted:
                return i
        return t


def _key(state: tuple) -> tuple:
    """Larger states first (every move goes to a lexicographically smaller state)."""
    h, luck, es, first, hit = state
    return (-h, -luck, tuple(-e for e in es), not first, hit)


_TABLES: dict[tuple, tuple[Ruleset, GroupTable]] = {}


def shared_group_win(
    ruleset: Ruleset, hero_skill: int, hero_stamina: int, enemies: Sequence, **options
) -> float:
    """The exact chance to win, from a table shared by the heroes of one fight setting
    (a table filled for a stronger hero holds every weaker one)."""
    luck = options.pop("luck", None)
    return shared_table(ruleset, hero_skill, enemies, **options).win_probability(hero_stamina, luck)


def shared_table(ruleset: Ruleset, hero_skill: int, enemies: Sequence, **options) -> GroupTable:
    """The table of one fight setting, kept for the next hero (at most 256 settings)."""
    from dedale.rules.odds_inputs import enemy_line_up

    enemies = tuple(enemy_line_up(ruleset, enemies, "sequence"))
    table_key = (id(ruleset), hero_skill, enemies,
                 tuple(sorted((k, v) for k, v in options.items() if k != "luck")))  # fmt: skip
    found = _TABLES.get(table_key)
    table = found[1] if found is not None and found[0] is ruleset else None
    options.pop("luck", None)
    if table is None:
        table = GroupTable(ruleset, hero_skill, enemies, **options)
        if len(_TABLES) >= 256:
            _TABLES.clear()
        _TABLES[table_key] = (ruleset, table)
    return table
