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
import time
from collections.abc import Sequence

from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules.odds import OddsResult, OddsTable
from dedale.rules.odds_group_moves import GroupMoves
from dedale.rules.odds_group_values import GroupValues
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


LUCK_WORK = 40_000
"""With the best Luck, the scalar fill's work foreseen at most (STAMINA x Luck x targets x
3^(other enemies) x the enemies' STAMINA multisets): measured 60-160 microseconds of CPU
a unit (docs/performance.md), so a few seconds; :data:`FILL_SECONDS` stops it by time too."""


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


def _too_slow(count: int, seconds: float, states: int | None = None) -> None:
    message = tr(
        "the exact odds of a fight against {count} enemies at once took more than "
        "{seconds} seconds",
        count=count,
        seconds=format(seconds, "g"),
    )
    if states is not None:  # the scalar fill with the best Luck
        message = tr(
            "best Luck estimated: {count} enemies at once, Luck followed, pass the exact "
            "budget ({seconds} seconds of CPU, {states} states computed)",
            count=count,
            seconds=format(seconds, "g"),
            states=number(states, ","),
        )
    raise OddsTooLarge(
        message,
        hint=tr("fewer or weaker enemies at once have exact odds (the validator estimates them)"),
    )


class GroupTable(GroupMoves, GroupValues):
    """The value function of one ``together`` fight setting, filled bottom-up (its
    assaults' moves: :mod:`dedale.rules.odds_group_moves`; a state's value from its
    successors': :mod:`dedale.rules.odds_group_values`)."""

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
        clock, stored = time.process_time(), 0
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
                        stored += 1
                        if stored % 64 == 0 and time.process_time() - clock > self.seconds:
                            self.values, self.stamina_max, self.luck_max = {}, 0, -1
                            _too_slow(len(self.enemies), self.seconds, stored)

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
