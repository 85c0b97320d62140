"""Fights played as graph nodes beyond :mod:`dedale.solve.escape`'s duel: the reader's
decisions inside them (flee or fight on, the target, Luck) are the solver's, by the value
for the book.

:class:`ExitsFight` follows the exact odds with exits (:class:`dedale.rules.odds_exits.
_Solver`: one enemy or several in turn or as one, armour, a first-hit bonus, the rules of
the book under an enemy, events and exits) state by state: each state before an assault
(enemy, hero STAMINA, enemy STAMINA, LUCK, assault number while it matters, assaults won,
first hit, counters, SKILL shift) is a graph node; where an escape is offered (and no
assault limit stops the fight first) the reader flees — its wound, Luck on it where the
ruleset offers it — or fights on; after each wound Luck is tested, or not, for the book. The
ways out are labelled as :mod:`dedale.solve.acting_forward` labels them (its ``_after``:
the interpreter's order of the hooks), and each turns to its paragraph with the counters
and codewords the events changed (:func:`dedale.solve.fights_acting._apply`). Under
``--exact`` the transitions are :class:`dedale.solve.exact_exits.ExactExits`, in fractions.

:class:`GroupFight` plays a fight against several enemies at once with an escape over the
states of :class:`dedale.rules.odds_group_exits.GroupExitSolver` (hero STAMINA, LUCK, each
enemy's STAMINA, the assault number while it matters): before each assault the reader
flees or fights on, then picks the target, by the value for the book; Luck inside an
assault keeps that solver's policy (tested when it raises the chance to leave the fight
alive). Floats only.

A tie (or a blow the armour stops) that leaves a state as it was is folded in exactly: the
state's value is the best over its options of (the rest) / (1 - P(back)), which is what
choosing that option at every return gives, and the best stationary choice is optimal.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from dedale import ast
from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules import modifiers as mods
from dedale.rules.odds_exits import ExitPlan, _Solver
from dedale.solve import clock
from dedale.solve.escape import MAX_FIGHT_STATES, GraphEntry
from dedale.solve.exactness import EXACT
from dedale.solve.model import Chance, Decision, Leaf, Next, OutOfTime, SolveLimit

LOST = -1
RESULTS = {"kill": "kill", "hero": "hit", "enemy": "hurt", "tie": "tie"}
"""An assault's winner as the walkthrough names it (``("x", result)`` tokens)."""
LUCK_WORK = 400_000
"""The work foreseen at most for the fight's own Luck at once (``GroupExitSolver``'s
``luck_work``: its bound is loose; its CPU seconds stop it too). The validator's 40,000
refuses small fights (two rats, STAMINA 16 and LUCK 8: 41,310)."""
MAX_COUNTER = 1_000
"""A counter the fight follows past this value: refused as endless (the states are built
depth first, so a counter an event raises on every tie gets there within a thousand
states; a counter bounded by the fight's wounds never does)."""
YES = (("a", True), {"kind": "luck", "answer": True})
NO = (("a", False), {"kind": "luck", "answer": False})


class _Nodes:
    """What every graph fight shares: its node key, interning, and the ways out."""

    def __init__(self, oracle, runner, statement: ast.Fight, health: str, luck_stat) -> None:
        self.explorer, self.runner, self.statement = oracle.explorer, runner, statement
        self.health, self.luck_stat = health, luck_stat
        self.exact = EXACT.get()
        self.one: Any = Fraction(1) if self.exact else 1.0
        self.paragraph = runner.state.paragraph or 0
        self.id = id(statement)
        self.key = self._key()
        self.pending: list[GraphEntry] = []
        self.built = 0
        escape = statement.escape
        self.away = None if escape is None else runner.destination(escape.target)
        from dedale.solve.fights import lose_target

        self.lose_to = lose_target(runner, statement)  # a defeat exit: on with 1 STAMINA

    def _key(self) -> str:
        """The snapshot without the stats the fight states carry (STAMINA, and LUCK when
        tested): the same fight state reached from elsewhere is one node."""
        hero = self.runner.state.hero
        kept = dict(hero.stats)
        hero.stats[self.health] = 0
        if self.luck_stat:
            hero.stats[self.luck_stat] = 0
        try:
            return self.explorer.canonical(self.runner.state, self.paragraph)
        finally:
            hero.stats.clear()
            hero.stats.update(kept)

    def run(self, start: tuple) -> Next:
        """The node of the fight's first state; every state it leads to is built too."""
        first = self.node(start)
        while self.pending:
            entry = self.pending.pop()
            self.explorer.prebuilt[entry] = self.tree(entry.node)
        return first

    def node(self, state: tuple) -> Next:
        entry = GraphEntry(self.key, self.id, state, self.paragraph)
        known = self.explorer.intern_known(entry)
        if known is not None:
            return Next(known)
        self.built += 1
        deadline = self.explorer.deadline
        if deadline is not None and not self.built % 256 and clock.now() > deadline:
            raise OutOfTime
        if self.built > MAX_FIGHT_STATES:
            raise SolveLimit(tr("this escape fight has too many states"), self.statement.span)
        self.pending.append(entry)
        return Next(self.explorer.intern_fight(entry))

    def tree(self, state: tuple):
        raise NotImplementedError

    def leave(self, target: int | None, h: int, luck: int, names=(), values=()):
        """Out of the fight alive to ``target`` with STAMINA ``h``, this LUCK (when tested)
        and the followed counters and codewords ``values``."""
        from dedale.solve.fights_acting import _apply

        if h <= 0:
            return Leaf(0.0)
        if target is None:
            raise SolveLimit(tr("this fight names no paragraph to turn to"), self.statement.span)
        state = self.runner.state
        kept = (dict(state.hero.stats), dict(state.hero.counters), dict(state.codewords))
        policy = "best" if self.luck_stat else "none"
        _apply(self.runner, (h, luck, "", -1, values), names, self.health, self.luck_stat, policy)
        try:
            return self.explorer.next_node(state, target)
        finally:
            for live, saved in zip((state.hero.stats, state.hero.counters, state.codewords),
                                   kept, strict=True):  # fmt: skip
                live.clear()
                live.update(saved)

    def luck_choice(self, trees: list):
        """One tree per Luck option (as it is; tested): the reader's decision."""
        if len(trees) == 1:
            return trees[0]
        return Decision(((*YES, trees[1]), (*NO, trees[0])))

    def exactly(self, p):
        """A chance as a plain Fraction in an exact solve (the XF of solve.exact_group, a
        sure 1.0), else as it is."""
        return Fraction(p) if self.exact else p

    def chance(self, rows: list):
        if len(rows) == 1 and rows[0][0] == 1:
            return rows[0][2]
        return Chance(tuple(rows))

    def fold(self, rows: list, back) -> list:
        """Rows of an option whose ``back`` share returns to the very state, folded in."""
        if not back:
            return rows
        if back >= 1:
            raise SolveLimit(tr("a fight in which nobody is ever wounded"), self.statement.span)
        scale = self.one / (1 - back)
        return [(p * scale, token, sub) for p, token, sub in rows]


class ExitsFight(_Nodes):
    """A fight in turn (or one enemy) played by the exact odds with exits' states."""

    def __init__(self, oracle, runner, statement, ruleset, plan: ExitPlan, *, names=(),
                 rule_kinds=(), armour=False, luck_stat=None,
                 fight_luck=False, dead_ends=frozenset()) -> None:  # fmt: skip
        """``fight_luck``: Luck after a wound is the fight's policy (tested when that raises
        the chance to leave the fight alive, by any way; ties: not tested), as the forward
        pass's — ``--luck fight`` under ``--exact``; else it is the reader's decision.
        ``dead_ends``: the ways out ``(way, rule)`` to a death ending, which that policy
        counts as defeats (solve.fights_acting.death_ends)."""
        from dedale.solve.acting_forward import _Forward

        hero = runner.state.hero
        fight = ruleset.fight
        tested = luck_stat if oracle.luck_policy == "best" else None
        super().__init__(oracle, runner, statement, fight.health, tested)
        kind = _Solver
        if self.exact:
            from dedale.solve.exact_exits import ExactExits as kind  # type: ignore[assignment]
        try:
            self.solver = kind(ruleset, hero.stats[fight.attack_stat], plan,
                               "best" if tested else "none", mods.hero_abilities(ruleset, hero),
                               armour)  # fmt: skip
            self.forward = _Forward(self.solver, rule_kinds)
            self.forward.defeat = self.lose_to is not None
        except GameError as error:
            raise SolveLimit(error.message, statement.span, hint=error.hint) from None
        self.names = names
        self.win = _target(runner, statement.win)
        self.limit_to = _target(runner, getattr(statement.assault_limit, "target", None))
        self.luck0 = hero.stats.get(luck_stat, 0) if luck_stat else 0
        self.fight_luck = fight_luck
        self.dead_ends = dead_ends
        self.values: dict[tuple, Any] = {}  # the chance to leave the fight alive, by state

    def node(self, state: tuple) -> Next:
        if any(value > MAX_COUNTER for value in state[7]):
            raise SolveLimit(
                tr("the fight's states are too deep to compute"), self.statement.span,
                hint=tr("an event that changes a counter on an assault nobody is wounded in "
                        "gives the fight endless states"),
            )  # fmt: skip
        return super().node(state)

    def start(self) -> Next:
        from dedale.solve.fights_acting import _limit
        from dedale.validator.fight_plan import Unsupported

        plan, s = self.solver.plan, self.solver
        h = self.runner.state.hero.stats[self.health]
        state = (0, h, plan.enemies[0][1], self.luck0, 0, 0, not s.track_hit,
                 tuple(v for _, v in plan.counters), 0)  # fmt: skip
        try:
            return self.run(state)
        except Unsupported as error:  # a condition reads what the plan does not follow
            raise _limit(self.statement, str(error)) from None
        except GameError as error:
            raise SolveLimit(error.message, self.statement.span, hint=error.hint) from None

    def tree(self, state: tuple):
        s = self.solver
        plan = s.plan
        _index, h, _e, luck, k, _won, _hit, counters, _shift = state
        if plan.limit is not None and k >= plan.limit:
            return self.end((h, luck, "limit", -1, counters))
        fight_on = self.assault(state)
        if plan.escape_after is None or k < plan.escape_after:
            return fight_on
        fight = s.fight
        options = [[(self.one, luck, fight.escape_damage)]]
        if fight.escape_luck:
            options = s._luck_options(fight.escape_damage, luck, fight.luck_wounded,
                                      fight.damage_to_hero)  # fmt: skip
        flee = self.luck_choice([
            self.chance([(q, ("l", d), self.end((h - d, lk, "escaped", -1, counters)))
                         for q, lk, d in option]) for option in options
        ])  # fmt: skip
        return Decision(
            (
                (("a", True), {"kind": "escape", "target": self.away}, flee),
                (("a", False), {"kind": "fight_on"}, fight_on),
            )
        )

    def _rows(self, state: tuple) -> list:
        """One assault from ``state``: ``[(p, winner, options, backs)]``, an option per Luck
        choice (as it is; tested) as rows ``(q, token, state after or ("end", key))``, and
        the share of each that comes back to the very state."""
        s = self.solver
        lead, immune = s._lead(state)
        k2 = min(state[4] + 1, s.k_cap)
        laws = s.outcomes(lead, immune)  # in the solver's number type (exact: fractions)
        found = []
        for p, winner, double in laws:
            trees, backs = [], []
            for option in s._after_wounds(state, winner, k2):
                rows, back = [], 0
                for q, nxt, dealt, wound in option:
                    after = self.forward._after(nxt, winner, double, dealt, wound)
                    if after == state:  # a tie, a blow the armour stops: nothing changed
                        back += q
                    else:
                        rows.append((q, ("x", RESULTS[winner]), after))
                trees.append(rows)
                backs.append(back)
            if len(trees) > 1 and self.fight_luck:  # the fight's policy decides
                pick = self._pick(trees)
                trees, backs = [trees[pick]], [backs[pick]]
            found.append((p, winner, trees, backs))
        return found

    def _pick(self, trees: list) -> int:
        """The fight's Luck choice: Luck tested only when it raises the chance to leave
        alive (in floats by more than a rounding error): the one tie rule,
        ``odds.luck_pick``."""
        from dedale.rules.odds import luck_pick

        return luck_pick([self._worth(rows) for rows in trees])

    def _worth(self, rows: list):
        return sum(
            (q * (self.fight_value(a) if a[0] != "end" else self._end_worth(a[1]))
             for q, _t, a in rows), 0 * self.one,
        )  # fmt: skip

    def _end_worth(self, key) -> int:
        """A way out's worth to the fight's Luck: 0 for a defeat or a death ending."""
        return 0 if _lost(key) or (key[2], key[3]) in self.dead_ends else 1

    def fight_value(self, state: tuple):
        """The chance to leave the fight alive from ``state`` under the fight's Luck."""
        found = self.values.get(state)
        if found is not None:
            return found
        plan = self.solver.plan
        if plan.limit is not None and state[4] >= plan.limit:
            return 0 * self.one if ("limit", -1) in self.dead_ends else self.one
        total = stay = 0 * self.one
        for p, _winner, trees, backs in self._rows(state):
            stay += p * backs[0]
            total += p * self._worth(trees[0])
        found = self.values[state] = total / (1 - stay) if stay < 1 else 0 * self.one
        return found

    def assault(self, state: tuple):
        branches: list[tuple[Any, Any, Any]] = []
        stay: Any = 0
        for p, winner, trees, backs in self._rows(state):
            if len(trees) == 1:
                stay += p * backs[0]
                branches += [(p * q, token, self.sub(after)) for q, token, after in trees[0]]
                continue
            if any(backs):
                raise SolveLimit(tr("a Luck test that may change nothing"), self.statement.span)
            options = [self.chance([(q, t, self.sub(a)) for q, t, a in rows]) for rows in trees]
            branches.append((p, ("x", RESULTS[winner]), self.luck_choice(options)))
        return self.chance(self.fold(branches, stay))

    def sub(self, after: tuple):
        if after[0] != "end":
            return self.node(after)
        if after[1] == LOST:
            return Leaf(0.0)
        return self.end(after[1])

    def end(self, key: tuple):
        """A way out ``(STAMINA, LUCK, way, rule, counters)``: its paragraph."""
        from dedale.solve.fights_acting import _way

        h, luck, way, rule, values = key
        if way == "lost" and self.lose_to is not None:  # beaten: on with 1 STAMINA
            return self.leave(self.lose_to, 1, luck, self.names, values)
        if h <= 0:
            return Leaf(0.0)
        if way == "escaped":
            target = self.away
        else:
            outcome, target = _way(self.runner, self.statement, way, rule)
            if target is None:
                target = self.win if outcome == "won" else self.limit_to
        return self.leave(target, h, luck, self.names, values)


class GroupFight(_Nodes):
    """A fight against several enemies at once with an escape (see the module docstring)."""

    def __init__(self, oracle, runner, statement, spec, ruleset, plan: ExitPlan, *,
                 armour=False, luck_stat=None) -> None:  # fmt: skip
        from dedale.rules.odds_group_exits import GroupExitSolver

        hero = runner.state.hero
        fight = ruleset.fight
        tested = luck_stat if oracle.luck_policy == "best" else None
        super().__init__(oracle, runner, statement, fight.health, tested)
        attack = hero.stats[fight.attack_stat]
        key = ("group-graph", id(statement), id(ruleset), repr(spec), attack, plan.bonus,
               armour, hero.class_name, bool(tested), self.exact)  # fmt: skip
        solver = oracle._tables.get(key)
        if solver is None:
            kind = GroupExitSolver
            if self.exact:  # its chances and values in fractions
                from dedale.solve.exact_group import ExactGroup as kind  # type: ignore[assignment]
            try:
                solver = kind(
                    ruleset,
                    attack,
                    plan,
                    "best" if tested else "none",
                    mods.hero_abilities(ruleset, hero),
                    armour,
                    "best",
                )
            except GameError as error:
                raise SolveLimit(error.message, statement.span, hint=error.hint) from None
            solver.luck_work = LUCK_WORK  # (its CPU seconds bound it too)
            oracle._tables[key] = solver
        self.solver = solver
        # --luck best: Luck inside an assault for the book too (solve.group_luck)
        self.book_luck = bool(tested) and oracle.book_luck
        self.names = tuple(enemy.name for enemy in spec.enemies)
        self.win = _target(runner, statement.win)
        self.limit_to = _target(runner, getattr(statement.assault_limit, "target", None))
        self.luck0 = hero.stats.get(luck_stat, 0) if luck_stat else 0

    def start(self) -> Next:
        h = self.runner.state.hero.stats[self.health]
        solver = self.solver
        try:
            if solver.use_luck and not self.book_luck:  # its Luck reads the fight's values
                solver.solve(h, self.luck0)
            solver.clock = time.process_time()
            return self.run(solver.start(h, self.luck0))
        except GameError as error:
            hint = error.hint
            if solver.use_luck:
                hint = tr("without Luck in fights its exact odds may fit: --luck none")
            raise SolveLimit(error.message, self.statement.span, hint=hint) from None
        except RecursionError:
            raise SolveLimit(tr("the fight's states are too deep to compute"),
                             self.statement.span) from None  # fmt: skip

    def tree(self, state: tuple):
        s = self.solver
        plan = s.plan
        h, luck, es, shifts, k, _won, _hit, _counters = state
        if plan.limit is not None and k >= plan.limit:
            return self.leave(self.limit_to, h, luck)
        targets = []
        for t in s._targets(es, shifts):
            if self.book_luck and luck > 0:  # each Luck test a decision (solve.group_luck)
                from dedale.solve.group_luck import assault_tree

                sub = assault_tree(self, state, t)
                targets.append((("t", t), {"kind": "target", "enemy": self.names[t]},
                                Leaf(0.0) if sub is None else sub))  # fmt: skip
                continue
            stay, rows = s._assault(state, t)
            if stay >= 1.0 - 1e-12:  # nobody is ever wounded: the fight cannot end
                sub: Any = Leaf(0.0)
            else:
                scale = self.one / (1 - stay)
                sub = self.chance([(self.exactly(q * scale), ("x", _result(state, n)), self.sub(n))
                                   for q, n in rows])  # fmt: skip
            targets.append((("t", t), {"kind": "target", "enemy": self.names[t]}, sub))
        alive = sum(1 for e in es if e > 0)
        fight_on = Decision(tuple(targets)) if alive > 1 else targets[0][2]
        if plan.escape_after is None or k < plan.escape_after:
            return fight_on
        fight = s.fight
        options = [[(self.one, luck, fight.escape_damage)]]
        if fight.escape_luck:
            options = s._luck_options(fight.escape_damage, luck, fight.luck_wounded,
                                      fight.damage_to_hero)  # fmt: skip
        flee = self.luck_choice([
            self.chance([(self.exactly(q), ("l", d), self.leave(self.away, h - d, lk))
                         for q, lk, d in option])  # fmt: skip
            for option in options
        ])  # fmt: skip
        return Decision(
            (
                (("a", True), {"kind": "escape", "target": self.away}, flee),
                (("a", False), {"kind": "fight_on"}, fight_on),
            )
        )

    def sub(self, node: tuple):
        from dedale.rules.odds_group_exits import WON_WAYS

        if node[0] != "end":
            return self.node(node)
        _, way, h, luck = node
        if way == "lost":  # a defeat exit: on with 1 STAMINA (the LUCK the fight left)
            return Leaf(0.0) if self.lose_to is None else self.leave(self.lose_to, 1, luck)
        if way in WON_WAYS:
            return self.leave(self.win, h, luck)
        if way == "limit":
            return self.leave(self.limit_to, h, luck)
        raise SolveLimit(tr("the solver cannot play this fight exactly: {reason}",
                            reason=way), self.statement.span)  # fmt: skip


def _lost(key) -> bool:
    """Whether a way out is the loss (LOST, or a defeat exit's ``(0, LUCK, "lost", ...)``)."""
    return key == LOST or key[2] == "lost"


def _result(state: tuple, node: tuple) -> str:
    """How an assault at once changed the state, as the walkthrough names it."""
    if node[0] == "end":
        return "hurt" if node[1] == "lost" else "hit"
    hurt, hit = node[0] < state[0], sum(node[2]) < sum(state[2])
    return "blows" if hurt and hit else "hurt" if hurt else "hit" if hit else "tie"


def _target(runner, destination) -> int | None:
    return None if destination is None else runner.destination(destination)


def in_turn_plan(ruleset, spec, bonus: int) -> ExitPlan:
    """The exit odds' plan of a fight without rules of the book (its escape, its limit)."""
    from dedale.rules.odds_inputs import enemy_line_up

    together = spec.mode == "together"
    enemies = enemy_line_up(ruleset, spec.enemies, "sequence" if together else spec.mode)
    return ExitPlan(enemies=tuple(enemies), bonus=bonus, enemy_damage=spec.enemy_damage,
                    limit=spec.assault_limit, escape_after=spec.escape_after)  # fmt: skip


def plays(oracle, runner, statement, spec, setup, luck_stat) -> bool:
    """Whether a fight without rules of the book inside is played here: one with an escape
    (not beside allies), or an assault limit that :mod:`dedale.solve.escape` does not play
    (several enemies in turn or as one, armour, a first-hit bonus) when its Luck is the
    book's or ``--exact`` asks for fractions (with ``--luck none`` the forward pass over
    the exit odds gives it as one chance node, in floats), or one with a defeat exit."""
    from dedale.solve.fights import _won_target

    if statement.allies:
        return False
    if spec.escape_after is not None:
        return True
    if (
        spec.mode == "together"
        and len(spec.enemies) > 1
        and (statement.lose is not None or spec.assault_limit is not None)
    ):  # at once with a defeat exit (a loss goes on with its LUCK) or an assault limit:
        # GroupFight's states, the targets for the book (without a win paragraph: the
        # forward pass, its targets the fight's, with --luck none only)
        return oracle.explorer is not None and _won_target(
            runner, statement, defeat=True) is not None  # fmt: skip
    if spec.assault_limit is None or spec.mode == "together" or statement.win is None:
        return False
    if len(setup.skills) == 1 and not setup.armour and not setup.first_hit_bonus:
        if statement.lose is None:
            return False  # solve.escape plays it
        # a defeat exit: the exit odds' states (solve.escape's duel knows no defeat)
        return oracle.explorer is not None and _won_target(
            runner, statement, defeat=True) is not None  # fmt: skip
    book_luck = luck_stat is not None and oracle.luck_policy == "best"
    return (book_luck or EXACT.get()) and oracle.explorer is not None and _won_target(
        runner, statement, defeat=True) is not None  # fmt: skip


def escape_fight(oracle, runner, statement, spec, ruleset, setup, bonus: int, armour: bool,
                 luck_stat) -> Next:  # fmt: skip
    """The first node of a fight with an escape (or an assault limit, see :func:`plays`)
    and no rule of the book inside: the duel of :mod:`dedale.solve.escape` (one enemy, no
    armour, no first-hit bonus), else an :class:`ExitsFight` (several enemies in turn or as
    one, armour, a first-hit bonus) or a :class:`GroupFight` (several at once)."""
    from dedale.solve.escape import EscapeFight
    from dedale.solve.fights import _won_target

    if oracle.explorer is None or _won_target(runner, statement, defeat=True) is None:
        raise SolveLimit(
            tr("the solver plays an escape only in a fight that turns to a paragraph"),
            statement.span,
        )
    duel = len(setup.skills) == 1 and not setup.armour and not setup.first_hit_bonus
    if duel and statement.lose is None:  # (a defeat exit: the exit odds' states, below)
        if oracle.luck_policy == "none" and not EXACT.get():  # one node: solve/escape_duel
            from dedale.solve.escape_duel import escape_duel

            escape_duel(oracle, runner, statement, setup, bonus)  # (raises when it applies)
        return EscapeFight(oracle.explorer, runner, statement, setup, bonus,
                           oracle.luck_policy).start()  # fmt: skip
    try:
        plan = in_turn_plan(ruleset, spec, bonus)
    except GameError as error:
        raise SolveLimit(error.message, statement.span, hint=error.hint) from None
    if spec.mode == "together" and len(spec.enemies) > 1:
        return GroupFight(oracle, runner, statement, spec, ruleset, plan, armour=armour,
                          luck_stat=luck_stat).start()  # fmt: skip
    return ExitsFight(oracle, runner, statement, ruleset, plan, armour=armour,
                      luck_stat=luck_stat).start()  # fmt: skip
