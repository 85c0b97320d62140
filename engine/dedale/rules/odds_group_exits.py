"""Exact odds of an FF-family fight against several enemies at once with exits and rules
under an enemy (issue 14.1/14.2: the ``together`` mode of :mod:`dedale.rules.odds_exits`).

The chance that the hero leaves the fight alive by any way the paragraph gives (winning,
an assault limit, escape, "after N assaults won", "when your STAMINA falls to N", an exit on
a condition, "first assault won", an event that turns to a paragraph), the target chosen
each assault (``order``: the first enemy standing, as the fight's default answer; ``best``:
a maximum, like best Luck) and Luck tested when it raises the chance (by more than the one
tie rule allows, :func:`dedale.rules.odds.luck_pick`). It follows the rules
core's fight loop (:func:`dedale.rules.fight_opposed.opposed_fight` with the book's hooks,
:mod:`dedale.game.fight_hooks`, :mod:`dedale.game.enemy_rules`) step by step:

- before an assault: the assault limit, then the offer to escape (its wound, Luck on it);
- the assault: the target's and the hero's attack strengths (the hero's attack bonus
  against the target counts, and so against the others); an instant kill on a double, a
  wound each way (Luck, then the target's ``it takes`` / ``it deals`` and its wound rolls),
  armour on the first assault (which stops the other enemies' blows too); then each other
  enemy standing whose strength beats the hero's wounds him (the ruleset's ``together``
  damage, Luck, then that enemy's own ``it deals`` and wound rolls);
- after it: death, then a win when every enemy has fallen (no hook acts then); else the
  target's events (none once it has fallen; "when it wounds you" reads every wound of the
  assault, as the fight's ``hero_damage``), then "first assault won", the exits on a
  condition, the threshold and "after N assaults won".

A state is (hero STAMINA, Luck, every enemy's STAMINA and SKILL shift, the assault number
while it matters, assaults won while they matter, first hit yet, counters), memoised; a
state that only an assault changing nothing leaves unchanged is solved exactly (divided by
1 - P(nothing)). With the ``best`` target, enemies that no rule names and that share SKILL
and immunity are interchangeable (their values are kept sorted). With the best Luck, each
Luck choice knows the hero's own roll and the wounds of the assault so far, as in
:mod:`dedale.rules.odds_group`; without exits the values are that module's (the tests
match them). The work is bounded by :data:`MAX_STATES` states and :data:`SECONDS` of CPU
time: past either, :class:`GroupExitsTooLarge` (an :class:`OddsTooLarge`: the validator
estimates the fight and says why).

The parts: the dice and one assault (:mod:`dedale.rules.odds_group_exits_assault`), the
assaults with the best Luck (:mod:`dedale.rules.odds_group_exits_luck`), the hooks after an
assault (:mod:`dedale.rules.odds_group_exits_hooks`).
"""

from __future__ import annotations

import time

from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules.odds import luck_pick
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_group_exits_assault import OneAssault
from dedale.rules.odds_group_exits_hooks import AfterAssault, end
from dedale.rules.odds_group_exits_luck import LuckAssaults
from dedale.rules.odds_inputs import OddsTooLarge, lucky_table
from dedale.rules.ruleset import OpposedFight, Ruleset

MAX_STATES = 150_000
"""States of one fight's exact odds at most (then :class:`GroupExitsTooLarge`)."""
SECONDS = 4.0
"""CPU seconds of one fight's exact odds at most (then :class:`GroupExitsTooLarge`)."""
LUCK_WORK = 1_000_000
"""With the best Luck, the work foreseen at most before anything is computed (see
``GroupExitSolver._foresee``): a filter of the hopeless cases only (measured 8-35
microseconds of CPU a unit, docs/performance.md); :data:`SECONDS` and :data:`MAX_STATES`
stop the others, the message saying how far it went. The scalar recursion's only: the
array fill (:mod:`dedale.rules.odds_group_exits_array`) counts its own work."""
TARGETS = ("order", "best")
WON_WAYS = ("won", "first_won", "assaults_won")
"""The ways out that the fight reports as won (the others: ``limit``, or ``escaped``)."""


class GroupExitsTooLarge(OddsTooLarge):
    """The exact odds would need more states or time than the budget (the message says)."""


def group_exit_odds(
    ruleset: Ruleset,
    hero_skill: int,
    hero_stamina: int,
    plan: ExitPlan,
    *,
    luck: int | None = None,
    luck_policy: str = "none",
    abilities: tuple = (),
    armour: bool = False,
    target: str = "best",
    seconds: float = SECONDS,
    luck_work: int = LUCK_WORK,
) -> float:
    """The exact chance that the hero leaves a fight against all ``plan.enemies`` at once
    alive (see the module docstring; ``seconds`` and ``luck_work``: the budget)."""
    solver = GroupExitSolver(ruleset, hero_skill, plan, luck_policy, abilities, armour, target)
    solver.seconds, solver.luck_work = seconds, luck_work
    solver.array = True  # the array fill where it applies (odds_group_exits_array)
    return solver.solve(hero_stamina, luck)


_DOOMED = {"limit": "limit", "escaped": "escape", "first_won": "first",
           "threshold": "threshold", "assaults_won": "assaults"}  # fmt: skip
"""The ends' ways as ``ExitPlan.doomed`` names them."""


def _isend(node: tuple) -> bool:
    return node[0] == "end"


def _plain_node(node: tuple) -> tuple:
    """The state as the solver without Luck keys it (its Luck never changes: 0)."""
    return node if node[1] == 0 else (node[0], 0, *node[2:])


class GroupExitSolver(OneAssault, LuckAssaults, AfterAssault):
    """The value function of one fight at once with exits (see the module docstring)."""

    #: every blow of an assault through ``_sides``, with or without Luck (a subclass acts
    #: between them: validator/fight_path_group_potion.py)
    per_blow = False

    def __init__(self, ruleset, hero_skill, plan: ExitPlan, policy, abilities, armour, target):
        from dedale.rules import modifiers as mods

        fight = ruleset.fight
        if not isinstance(fight, OpposedFight):
            raise GameError(tr("exact odds exist only for opposed (FF-family) fights"))
        if target not in TARGETS:
            raise GameError(
                tr("unknown target choice '{target}'", target=target), hint=tr("use order or best")
            )
        if not plan.enemies:
            raise GameError(tr("a fight needs at least one enemy"))
        if any(stamina <= 0 for _, stamina, _ in plan.enemies):
            raise GameError(tr("every enemy needs at least 1 STAMINA"))
        self.fight, self.plan = fight, plan
        self.health = fight.health
        self.best = target == "best"
        self.skill = (
            hero_skill + plan.bonus + mods.ability_value(abilities, "fight", "attack_bonus")
        )
        self.to_enemy = fight.damage_to_enemy + mods.ability_value(
            abilities, "fight", "damage_bonus"
        )
        self.first_bonus = mods.ability_value(abilities, "first_successful_assault", "bonus_damage")
        self.armour = armour
        self.to_hero = plan.enemy_damage if plan.enemy_damage is not None else fight.damage_to_hero
        self.side = plan.enemy_damage if plan.enemy_damage is not None else fight.together_damage
        test = ruleset.tests.get(fight.luck_test) if fight.luck_test else None
        self.use_luck = policy == "best" and test is not None and test.cost > 0
        self.luck_cost = test.cost if test else 0
        self.lucky = lucky_table(test.dice) if test is not None else (0.0,)
        self.names = tuple(name for name, _ in plan.counters)
        self.caps = dict(plan.caps)
        marks = [plan.limit or 0, plan.escape_after or 0, 1 if plan.first_won or armour else 0]
        self.k_cap = max(marks)
        self.track_hit = self.first_bonus != 0
        self.won_cap = 0 if plan.win_assaults is None else plan.win_assaults + 1
        self.doubles = fight.instant_kill_on_double or any(e.on == "double" for e in plan.events)
        #: no hook acts after an assault (an assault limit or escape at most): a fast path
        self.bare = not (
            plan.events or plan.first_won or plan.exits or plan.table or plan.late_exits
            or plan.threshold is not None or plan.win_assaults is not None
        )  # fmt: skip
        self._dice(fight)
        named = {r.enemy for r in plan.damages} | {e.enemy for e in plan.events}
        named |= {a[0] for a in plan.attacks} | {w[0] for w in plan.wound_rolls}
        kinds: dict[tuple, list[int]] = {}
        for i, (skill, _h, immune) in enumerate(plan.enemies):
            kinds.setdefault((skill, immune) if i not in named else ("named", i), []).append(i)
        self.groups = [g for g in kinds.values() if len(g) > 1] if self.best else []
        self.kind_of = {i: key for key, group in kinds.items() for i in group}
        self.memo: dict[tuple, float] = {}
        self.busy: set[tuple] = set()
        self.setting = (ruleset, hero_skill, abilities, armour, target)
        #: with the best Luck, the same fight without Luck: a state with no Luck left takes
        #: its value, and so does a state it already leaves alive surely (best Luck is a
        #: maximum over choices that include never testing Luck, and no value passes 1).
        #: The forward pass (odds_group_exits_forward) follows every move: ``prune`` off.
        self.plain: GroupExitSolver | None = None
        #: the best-Luck solver a plain one settles states for: its budget errors say why
        #: in the best Luck's words
        self.owner: GroupExitSolver | None = None
        self.prune = True
        self.seconds = SECONDS
        self.luck_work = LUCK_WORK
        self.clock = 0.0
        #: the best Luck by the array fill where it applies (set by :func:`group_exit_odds`;
        #: the forward pass and the solvers built on this class follow the states one by one)
        self.array = False

    # ------------------------------------------------------------------ solving

    def start(self, stamina: int, luck: int | None) -> tuple:
        if stamina <= 0:
            raise GameError(tr("the hero needs at least 1 STAMINA to fight"))
        from dedale.rules.odds_group import check_group_size

        plan = self.plan
        if plan.limit is None:  # the fight may go on until every STAMINA has run out
            check_group_size(stamina, 0, plan.enemies)  # the plain DP's bound, Luck apart
        if self.use_luck and luck:
            self._foresee(stamina, luck)
        es = tuple(h for _, h, _ in plan.enemies)
        state = (stamina, max(0, luck or 0), es, (0,) * len(es), 0, 0, not self.track_hit,
                 tuple(v for _, v in plan.counters))  # fmt: skip
        return self._canon(state)

    def _foresee(self, stamina: int, luck: int) -> None:
        """With the best Luck, refuse at once a fight whose work foreseen passes the budget:
        the states (hero STAMINA x Luck x each enemy's STAMINA x assault numbers told apart;
        with an assault limit, at most the states so few assaults reach: 7 ways the
        target's side of an assault goes and 3 ways each other blow does, per assault)
        times 3 per other enemy (the work of one state)."""
        plan = self.plan
        sides = 3 ** (len(plan.enemies) - 1)
        states = (stamina + 1) * (luck + 1) * (self.k_cap + 1)
        for _, health, _ in plan.enemies:
            states *= health + 1
        if plan.limit is not None:
            tree, width = 0, 1
            for _ in range(plan.limit):  # the assault at the limit does nothing
                tree += width
                width *= 7 * sides
                if tree * sides > self.luck_work:
                    break
            states = min(states, tree)
        if states * sides > self.luck_work:
            raise self._too_large(self._past("foreseen"))

    def solve(self, stamina: int, luck: int | None) -> float:
        if self.array and self.use_luck and luck and stamina > max(0, self.plan.threshold or 0):
            from dedale.rules import odds_group_exits_array as filled

            if filled.eligible(self):
                return filled.array_value(self, stamina, luck)
        start = self.start(stamina, luck)
        self.clock = time.process_time()
        if self.use_luck and self.prune and self.plain is None:
            self.plain = self._plain_solver()
        if self.plain is not None:
            self.plain.clock, self.plain.seconds = self.clock, self.seconds
        try:
            value = self.value(start)
            if self.plain is not None:  # best Luck is a maximum: never below no Luck
                value = max(value, self.plain.value(_plain_node(start)))
            return value
        except RecursionError:
            raise self._too_large(tr("the fight's states are too deep to compute")) from None

    def _plain_solver(self) -> GroupExitSolver:
        ruleset, skill, abilities, armour, target = self.setting
        plain = GroupExitSolver(ruleset, skill, self.plan, "none", abilities, armour, target)
        plain.seconds, plain.owner = self.seconds, self
        return plain

    def _past(self, bound: str):
        """Why the budget stops the fight: its states or its CPU time, and with the best
        Luck what makes it large (the enemies at once, the assaults followed, the Luck)."""
        if self.owner is not None:  # settling states for a best-Luck solver: its reason
            return self.owner._past(bound)
        limit = self.plan.limit
        if self.use_luck:
            size = (
                tr("{count} enemies at once over {assaults} assaults, Luck followed,",
                   count=len(self.plan.enemies), assaults=limit)
                if limit is not None
                else tr("{count} enemies at once until the end, Luck followed,",
                        count=len(self.plan.enemies))
            )  # fmt: skip
            if bound == "size":  # the array fill words its own reason around it
                return size
            if bound == "foreseen":
                return tr(
                    "best Luck estimated: {size} pass the exact budget (more than {limit} "
                    "steps foreseen)",
                    size=size, limit=number(self.luck_work, ","),
                )  # fmt: skip
            if bound == "states":
                return tr(
                    "best Luck estimated: {size} pass the exact budget ({limit} states)",
                    size=size, limit=number(MAX_STATES, ","),
                )  # fmt: skip
            return tr(
                "best Luck estimated: {size} pass the exact budget ({seconds} seconds of "
                "CPU, {states} states computed)",
                size=size, seconds=format(self.seconds, "g"), states=number(len(self.memo), ","),
            )  # fmt: skip
        if bound == "states":
            return tr("more than {limit} states", limit=number(MAX_STATES, ","))
        return tr("more than {seconds} seconds", seconds=format(self.seconds, "g"))

    def _too_large(self, reason) -> GroupExitsTooLarge:
        return GroupExitsTooLarge(
            tr(
                "the exact odds of a fight against {count} enemies at once with its ways "
                "out: {reason}",
                count=len(self.plan.enemies),
                reason=reason,
            ),
            hint=tr(
                "fewer or weaker enemies at once have exact odds (the validator estimates them)"
            ),
        )

    def value(self, node: tuple) -> float:
        if _isend(node):
            return self.worth(node[1])
        found = self.memo.get(node)
        if found is not None:
            return found
        plain = self.plain
        if plain is not None:  # the best Luck: what the plain values settle (exact)
            floor = plain.value(_plain_node(node))
            if node[1] == 0 or floor >= 1.0 - 1e-12:  # no Luck left, or a sure way out
                self.memo[node] = floor
                return floor
        if node in self.busy:
            raise self._too_large(tr("the fight's states loop (an event undoes another)"))
        if len(self.memo) >= MAX_STATES:
            raise self._too_large(self._past("states"))
        if len(self.memo) % 256 == 255 and time.process_time() - self.clock > self.seconds:
            raise self._too_large(self._past("seconds"))
        self.busy.add(node)
        try:
            result = self.choose(node)[0]
        finally:
            self.busy.discard(node)
        self.memo[node] = result
        return result

    def choose(self, state: tuple) -> tuple[float, list[tuple[float, tuple]]]:
        """The state's value and its moves ``[(chance, next state or end)]`` under the best
        choices (escape or not, the target, Luck), an unchanged state folded in."""
        plan = self.plan
        h, luck, es, shifts, k, won, hit, counters = state
        if plan.limit is not None and k >= plan.limit:
            return self.worth("limit"), [(1.0, end("limit", h, luck))]
        escape: tuple[float, list] | None = None
        if plan.escape_after is not None and k >= plan.escape_after:
            escape = self._escape(h, luck)
            if escape[0] >= 1.0:
                return escape
        best: tuple[float, list] = (-1.0, [])
        for t in self._targets(es, shifts):
            stay, rows = self._assault(state, t)
            if stay >= 1.0 - 1e-12:  # nobody is ever wounded: the fight cannot end
                found: tuple[float, list] = (0.0, [])
            else:
                scale = 1.0 / (1.0 - stay)
                moves = [(q * scale, n) for q, n in rows]
                found = (min(1.0, sum(q * self.value(n) for q, n in moves)), moves)
            if found[0] > best[0] + 1e-15:
                best = found
        if escape is not None and escape[0] > best[0] + 1e-15:
            return escape
        return best

    def _escape(self, h: int, luck: int) -> tuple[float, list]:
        """Escaping now: its wound (Luck on it when the ruleset allows and it helps)."""
        fight = self.fight
        damage = fight.escape_damage
        options = [[(1.0, luck, damage)]]
        if fight.escape_luck:
            options = self._luck_options(damage, luck, fight.luck_wounded, fight.damage_to_hero)
        found = []
        for option in options:
            moves = [(q, end("escaped" if h > d else "lost", max(0, h - d), lk))
                     for q, lk, d in option]  # fmt: skip
            found.append((sum(q * self.worth(n[1]) for q, n in moves), moves))
        return found[luck_pick([value for value, _ in found])]

    def worth(self, way: str) -> float:
        """An end's value: 0 for a defeat, or a way out whose paragraph is a death ending
        (``plan.doomed``; the validator gives the exits' ``exit:I`` only when all the exits
        are doomed alike: here an end says ``exit`` without its index)."""
        if way == "lost":
            return 0.0
        doomed = self.plan.doomed
        if doomed and (_DOOMED.get(way) in doomed or way == "exit" and "exit:0" in doomed):
            return 0.0
        return 1.0

    def _targets(self, es: tuple, shifts: tuple) -> list[int]:
        alive = [i for i, e in enumerate(es) if e > 0]
        if not self.best:
            return alive[:1]
        seen: set = set()
        choices = []
        for i in alive:
            key = (self.kind_of[i], es[i], shifts[i])
            if key not in seen:
                seen.add(key)
                choices.append(i)
        return choices

    def _canon(self, state: tuple) -> tuple:
        h, luck, es, shifts, k, won, hit, counters = state
        if not any(shifts):  # no SKILL shift (the common case): nothing to clear, nor to pair
            if not self.groups:
                return state
            es_ = list(es)
            for group in self.groups:
                for i, e in zip(group, sorted(es[i] for i in group), strict=True):
                    es_[i] = e
            return (h, luck, tuple(es_), shifts, k, won, hit, counters)
        shifts = tuple(s if e > 0 else 0 for e, s in zip(es, shifts, strict=True))
        if self.groups:
            es_, sh_ = list(es), list(shifts)
            for group in self.groups:
                pairs = sorted((es[i], shifts[i]) for i in group)
                for i, (e, s) in zip(group, pairs, strict=True):
                    es_[i], sh_[i] = e, s
            es, shifts = tuple(es_), tuple(sh_)
        return (h, luck, es, shifts, k, won, hit, counters)
