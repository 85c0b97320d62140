"""The reliques fight DP (see :mod:`dedale.rules.odds_reliques`): the value of every turn
start reachable from the fight's start, the hero's choices as maxima, then the forward pass
of the best policy's outcome distribution."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from dedale.i18n import tr
from dedale.rules.checks import health_level
from dedale.rules.fight_reliques import MAX_STRIKES_BACK, Side, actions_of
from dedale.rules.odds_reliques_fast import FloatTurn, _ended
from dedale.rules.odds_reliques_forward import _LOST, _SELF, ESCAPED, ForwardPass
from dedale.rules.odds_reliques_rules import (
    _CF,
    _HIT,
    _MISS,
    MAX_INITIATIVES,
    ReliquesOddsTooLarge,
    ReliquesTables,
    acting,
    fighter,
    landed,
    spend,
)

__all__ = ["MAX_INITIATIVES", "ReliquesOddsTooLarge"]  # re-exported for odds_reliques

MAX_NODES = 1_500_000
"""In-turn and turn-start states of one fight at most (then ReliquesOddsTooLarge)."""
IN_TURN = 8
"""In-turn states a turn start costs, about: the size checked before any work."""
WON, LIMIT = "won", "limit"
TURNS_WON = "turns won"  # won by "after N assaults won" (a way of its own for the solver)
_DEAD = (0.0, 0.0, None)  # the value of a lost fight (without kernels)


@dataclass(frozen=True, slots=True)
class ReliquesOdds:
    """Exact results of one reliques fight."""

    win_probability: float
    """Leaving the fight alive by a way on (won, the assault limit, an escape)."""
    won: float | None  # each way on (None: computed ``win_only``)
    limit: float | None
    escaped: float | None
    states: int
    outcomes: dict[tuple[str, int, int, int], float] = field(default_factory=dict)
    """``(way, health, protection left, heroism points) -> probability`` (absolute; empty
    when computed ``win_only``)."""
    protection: int = 0
    """The hero's protection at the start (what ``outcomes`` wear down)."""

    @property
    def end_states(self) -> dict[tuple[str, int, int, int], float]:
        """The outcomes conditional on a way on (they sum to 1)."""
        if self.win_probability <= 0:
            return {}
        return {key: p / self.win_probability for key, p in self.outcomes.items()}


class _ReliquesDP(FloatTurn, ForwardPass, ReliquesTables):
    """The value of every state reachable from the start, then (unless ``win_only``) the
    forward pass of the best policy's outcome distribution."""

    def __init__(self, ruleset, params, hero: Side, enemies: list[Side], bonus, initial, spec,
                 max_nodes: int, threshold: int | None = None,
                 win_assaults: int | None = None,
                 doomed: frozenset[str] = frozenset()) -> None:  # fmt: skip
        self.ruleset = ruleset
        self.bonus = bonus
        self.hero_protection = hero.protection
        levels = ruleset.health_levels
        top = max(initial, hero.health)
        self.malus = [
            (lvl.malus if (lvl := health_level(levels, h, initial)) is not None else 0)
            for h in range(top + 1)
        ]
        self.fighters = [fighter(params, hero, True)]
        self.fighters += [fighter(params, e, False) for e in enemies]
        self.armed = all(fighter.weapon > 0 for fighter in self.fighters)
        self.together = spec.mode == "together" and len(enemies) > 1
        self.limit = spec.assault_limit
        self.escape_after = spec.escape_after
        self.escape_actions = actions_of(params, hero) - 1
        cap = self.limit if self.limit is not None else self.escape_after
        self.threshold = threshold  # "when your health falls to N": checked after a turn
        if threshold is not None:
            cap = max(cap or 0, 1)  # the start (turn 0) apart from the states after a turn
        self.turn_cap = cap  # turns counted up to here (None: the turn is not in the state)
        # "after N assaults won": the turns won (the enemies' health went down) are counted
        # beside the turns, the state's last slot then ``(turns, won)``
        self.needed = win_assaults
        # the ways out whose paragraph is a death ending (validator.death_ways: limit,
        # escape, threshold, assaults): a defeat (value 0, no outcome), never escaped to
        self.doomed = frozenset(doomed)
        self.max_nodes = max_nodes
        self.nodes = 0
        self.deadline: float | None = None
        self.values: dict[tuple, float] = {}
        self.choice: dict[tuple, tuple] = {}
        self.memo: dict[tuple, tuple] = {}
        self.fast: dict[tuple, float] = {}  # the float path's (odds_reliques_fast)
        self.local: dict[tuple, tuple] = {}
        self.kernels = False
        self.turn_kernels: dict[tuple, tuple] = {}
        self.tests: dict[tuple, tuple] = {}
        self.attacks: dict[tuple, tuple] = {}
        self.defence_tests: dict[tuple, tuple] = {}
        self.initiatives: dict[tuple, tuple] = {}
        self.v = 0.0
        self.fragile = False  # a choice of this pass may change with v (see _best)

    # -- values: (a, b, kernel): a + b * v, v the value of the turn's own start -----------
    def _mix(self, terms) -> tuple:
        """The weighted sum of ``(p, value)`` terms (values, and kernels when kept)."""
        a = b = 0.0
        if not self.kernels:
            for p, t in terms:
                a += p * t[0]
                b += p * t[1]
            return a, b, None
        kernel: dict | None = None
        for p, (ta, tb, tk) in terms:
            if p == 0.0:
                continue
            a += p * ta
            b += p * tb
            if kernel is None:  # the first term's keys, in its order (the same sums)
                kernel = {key: p * q for key, q in tk.items()}
                continue
            get = kernel.get
            for key, q in tk.items():
                kernel[key] = get(key, 0.0) + p * q
        return a, b, {} if kernel is None else kernel

    def _best(self, options) -> tuple:
        """The option of the highest value (the first on a tie), ``v`` the turn start's."""
        v = self.v
        best, top = options[0], options[0][0] + options[0][1] * v
        for option in options[1:]:
            value = option[0] + option[1] * v
            if value > top:
                best, top = option, value
        if not self.fragile:  # the choice holds for every v in [0, 1] (see _fixed_point)?
            a, b = best[0], best[1]
            self.fragile = any(o[0] > a or o[0] + o[1] > a + b for o in options)
        return best

    def _leaf(self, value: float, key: tuple) -> tuple:
        return value, 0.0, ({key: 1.0} if self.kernels else None)

    # -- turn starts -------------------------------------------------------------------
    def solve(self, start: tuple, win_only: bool) -> ReliquesOdds:
        turn = 0 if self.turn_cap is not None else None
        state = (*start, turn if self.needed is None else (turn, 0))
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 40_000))  # one frame chain per turn of the fight
        try:
            win = self.value(state)
            outcomes = {} if win_only else self._forward(state)
        finally:
            sys.setrecursionlimit(limit)
        ways: dict[str, float | None] = {WON: 0.0, LIMIT: 0.0, ESCAPED: 0.0}
        for (way, *_), p in outcomes.items():
            ways[WON if way == TURNS_WON else way] += p
        if win_only:
            ways = {WON: None, LIMIT: None, ESCAPED: None}
        return ReliquesOdds(min(1.0, win), ways[WON], ways[LIMIT], ways[ESCAPED],
                            self.nodes, outcomes, self.hero_protection)  # fmt: skip

    def _terminal(self, state: tuple) -> str | None:
        hh, _, _, es, t = state
        won = None
        if self.needed is not None:
            t, won = t
        if self.threshold is not None and t and hh <= self.threshold:  # as the book checks
            return LIMIT  # it after a turn, before the enemies down (fight_hooks)
        if won is not None and won >= self.needed:  # then "after N assaults won"
            return TURNS_WON
        if not any(eh > 0 for eh, _ in es):
            return WON
        if self.limit is not None and t >= self.limit:
            return LIMIT
        return None

    def _doomed(self, state: tuple, way: str) -> bool:
        """Whether the way out ``way`` (:meth:`_terminal`'s) of ``state`` leads to a death
        ending (``doomed``): the threshold and the assault limit, both ``limit`` there, are
        told apart as :meth:`_terminal` checks them."""
        if not self.doomed or way == WON:
            return False
        if way == TURNS_WON:
            return "assaults" in self.doomed
        t = state[4][0] if self.needed is not None else state[4]
        if self.threshold is not None and t and state[0] <= self.threshold:
            return "threshold" in self.doomed
        return "limit" in self.doomed

    def _won_from(self, es: tuple) -> int | None:
        """What an in-turn state's value depends on beyond it, the turn and the target:
        with "after N assaults won", the enemies' health at the turn's start (a turn is won
        when it goes down; the memo of in-turn states is keyed on it)."""
        return None if self.needed is None else sum(eh for eh, _ in es)

    def _next_turn(self, ctx: tuple, st: tuple):
        """The last slot of the next turn start: the turns (up to ``turn_cap``), and with
        "after N assaults won" the turns won (the enemies' health went down this turn)."""
        t = ctx[1]
        if self.needed is not None:
            t, won = t
            if sum(eh for eh, _ in st[3]) < sum(eh for eh, _ in ctx[3][3]):
                won = min(won + 1, self.needed)
        if t is not None:
            t = min(t + 1, self.turn_cap)
        return t if self.needed is None else (t, won)

    def _count(self) -> None:
        self.nodes += 1
        if not self.nodes & 4095 and self.deadline is not None:
            if time.process_time() > self.deadline:
                raise ReliquesOddsTooLarge(
                    tr("the exact odds of this reliques fight ran out of time after {count} "
                       "states", count=format(self.nodes, ",")),
                    hint=tr("its odds are estimated by a seeded simulation instead"),
                )  # fmt: skip
        if self.nodes > self.max_nodes:
            raise ReliquesOddsTooLarge(
                tr("the exact odds of this reliques fight would need more than {limit} "
                   "states", limit=format(self.max_nodes, ",")),
                hint=tr("its odds are estimated by a seeded simulation instead"),
            )  # fmt: skip

    def _tick(self) -> None:
        """One in-turn state more: ``_count`` every 4096 of them, or past the budget."""
        self.nodes += 1
        if not self.nodes & 4095 or self.nodes > self.max_nodes:
            self.nodes -= 1
            self._count()

    def value(self, state: tuple) -> float:
        """The best chance to leave the fight alive from a turn start."""
        found = self.values.get(state)
        if found is not None:
            return found
        self._count()
        way = self._terminal(state)
        if way is not None:
            found = 0.0 if self._doomed(state, way) else 1.0
            self.values[state] = found
            return found
        saved = self.v, self.local, self.fragile  # a turn start's own: the caller's resumes
        self.local = {}
        try:
            return self._value(state)
        finally:
            self.v, self.local, self.fragile = saved

    def _value(self, state: tuple) -> float:
        hh, hp, c, es, t = state
        best, choice = -1.0, None
        if self.needed is not None:
            t = t[0]
        if self.escape_after is not None and t >= self.escape_after and "escape" not in self.doomed:
            escape = self._escape(state)[0]
            best, choice = escape, ("escape",)
        living = [i for i, (eh, _) in enumerate(es) if eh > 0]
        for target in living if self.together else living[:1]:
            v = self._fixed_point(state, target)
            if v > best + 1e-15:
                best, choice = v, ("target", target)
        self.values[state] = best
        self.choice[state] = choice
        return best

    def _fixed_point(self, state: tuple, target: int) -> float:
        """The value of fighting a turn at ``target`` from ``state`` with the best policy,
        the turns where nothing changes included (policy iteration)."""
        v = 0.0
        for _ in range(64):
            self.v = v
            self.local.clear()
            self.fragile = False
            a, b, _ = self._turn(state, target)
            new = a / (1.0 - b) if b < 1.0 - 1e-13 else 0.0  # nothing ever changes: no win
            if abs(new - v) <= 1e-16:
                break
            v = new
            if not self.fragile:  # every choice is the best whatever v in [0, 1]: the
                break  # policy is the same at the fixed point (the next pass would return v)
        self.v = v
        return v

    def _escape(self, state: tuple) -> tuple:
        """Running away: the first enemy standing strikes, the hero defends with an action
        left after the one running costs."""
        hh, hp, c, es, t = state
        first = next(i for i, (eh, _) in enumerate(es) if eh > 0)
        left = [0] * len(self.fighters)
        left[0] = self.escape_actions
        st = (hh, hp, c, es)
        ctx = (first, t, True, st, (first, t, True, self.kernels, self._won_from(es)))
        return self._blow(ctx, (), tuple(left), st, first + 1, 0)

    def _turn(self, state: tuple, target: int) -> tuple:
        hh, hp, c, es, t = state
        sides = (0, *(i + 1 for i, (eh, _) in enumerate(es) if eh > 0)) if self.together else (
            0, target + 1)  # fmt: skip
        st = (hh, hp, c, es)
        ctx = (target, t, False, st, (target, t, False, self.kernels, self._won_from(es)))
        terms = []
        for p, order, left in self._initiative(self._hero_malus(hh), sides):
            terms.append((p, self._run(ctx, order, left, st)))
        return self._mix(terms)

    # -- inside a turn -----------------------------------------------------------------
    def _run(self, ctx: tuple, seq: tuple, left: tuple, st: tuple) -> tuple:
        """The next fighter able to act acts: ``seq`` holds the fighters in the order they
        act from here, round after round (the rounds of the fight: each acts once a round
        while it has an action left, its target standing)."""
        if not self.kernels and st != ctx[3]:  # changed: a plain chance (odds_reliques_fast)
            return self._f_run(ctx, seq, left, st), 0.0, None
        able = acting(seq, left, st[3], ctx[0])
        if not able:
            return self._end(ctx, st)
        unchanged = st == ctx[3]
        memo = self.local if unchanged else self.memo
        key = (ctx[4], able, left, st)
        found = memo.get(key)
        if found is not None:
            return found
        self._tick()
        side = able[0]
        defender = ctx[0] + 1 if side == 0 else 0
        result = self._blow(ctx, (*able[1:], side), spend(left, side), st, side, defender)
        memo[key] = result
        return result

    def _end(self, ctx: tuple, st: tuple) -> tuple:
        """The turn is over (or the escape's blow): the next turn start's value."""
        hh, hp, c, es = st
        if hh <= 0:
            return self._leaf(0.0, _LOST)
        if ctx[2]:  # escaped alive
            return self._leaf(1.0, (ESCAPED, hh, hp, c))
        t = self._next_turn(ctx, st)
        if st == ctx[3] and t == ctx[1]:
            return 0.0, 1.0, ({_SELF: 1.0} if self.kernels else None)
        nxt = (hh, hp, c, es, t)
        return self._leaf(self.value(nxt), nxt)

    def _blow(self, ctx, seq, left, st, attacker: int, defender: int) -> tuple:
        """One attack action (already paid): the attack duo, the defence (the hero's dodge
        or parry his best, knowing the margin), the blow. Each way the turn goes on is
        evaluated once (the avoided blows, the critical defence's strike back)."""
        if self.armed and not self.kernels:  # every blow that lands changes the state
            return self._p_blow(ctx, seq, left, st, attacker, defender)
        fighter = self.fighters[attacker]
        bonus = self.bonus + self._hero_malus(st[0]) if attacker == 0 else 0
        kinds = self._test(fighter.attack, bonus)[0]
        can_defend = left[defender] > 0
        if can_defend:
            spent = spend(left, defender)
            defences = self._defences(defender, self._hero_malus(st[0]) if defender == 0 else 0)
            avoided = None
            strikes: list = [None] * len(defences)
        terms = []
        for kind, margin, p_kind in kinds:
            if kind == _CF:  # a critical failure ends the attacker's actions this turn
                terms.append((p_kind, self._run(ctx, seq, _ended(left, attacker), st)))
            elif kind == _MISS:
                terms.append((p_kind, self._run(ctx, seq, left, st)))
            elif kind == _HIT and can_defend:
                damage = fighter.weapon + margin
                landed = self._hit(ctx, seq, spent, st, defender, damage)
                options = []
                for index, (_, (p_crit, crit_margin), avoids) in enumerate(defences):
                    avoid = avoids[margin] if margin < 14 else 0.0
                    option = [(1.0 - avoid - p_crit, landed)]
                    if avoid:
                        if avoided is None:
                            avoided = self._run(ctx, seq, spent, st)
                        option.append((avoid, avoided))
                    if p_crit:
                        if strikes[index] is None:
                            strikes[index] = self._strike(
                                ctx, seq, spent, st, defender, attacker, crit_margin, 0
                            )
                        option.append((p_crit, strikes[index]))
                    options.append(self._mix(option))
                best = options[0] if len(options) == 1 else self._best(options)
                terms.append((p_kind, best))
            else:  # a critical success, or no action left to defend with
                damage = fighter.weapon + margin
                terms.append((p_kind, self._hit(ctx, seq, left, st, defender, damage)))
        return self._mix(terms)

    def _strike(self, ctx, seq, left, st, striker, target, margin, depth) -> tuple:
        """A critical defence's blow: only a critical defence of its target avoids it
        (and strikes back in turn); each defence costs an action."""
        damage = self.fighters[striker].weapon + margin
        if depth >= MAX_STRIKES_BACK or left[target] <= 0:
            return self._hit(ctx, seq, left, st, target, damage)
        spent = spend(left, target)
        malus = self._hero_malus(st[0]) if target == 0 else 0
        options = []
        for duo in self.fighters[target].defences:
            p_crit, crit_margin = self._test(duo, malus)[1]
            terms = [(1.0 - p_crit, self._hit(ctx, seq, spent, st, target, damage))]
            if p_crit:
                terms.append((p_crit, self._strike(ctx, seq, spent, st, target, striker,
                                                   crit_margin, depth + 1)))  # fmt: skip
            options.append(self._mix(terms))
        return options[0] if len(options) == 1 else self._best(options)

    def _hit(self, ctx, seq, left, st, defender: int, damage: int) -> tuple:
        """A blow lands: protection absorbs and wears by 1, a heroism point may cancel
        the hero's loss; then the turn goes on."""
        after, heroism = landed(st, defender, damage)
        if after is None:
            taken = self._leaf(0.0, _LOST) if self.kernels else _DEAD
        else:
            taken = self._run(ctx, seq, left, after)
        if heroism is not None:  # the heroism point, as offered
            spent = self._run(ctx, seq, left, heroism)
            return self._best((spent, taken))
        return taken
