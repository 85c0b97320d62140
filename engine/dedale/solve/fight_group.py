"""A fight against several enemies at once with an escape (or a defeat exit, or an
assault limit) played as graph nodes: :class:`GroupFight` follows the states of
:class:`dedale.rules.odds_group_exits.GroupExitSolver` (hero STAMINA, LUCK, each enemy's
STAMINA, the assault number while it matters): before each assault the reader flees or
fights on, then picks the target, by the value for the book; Luck inside an assault is the
book's too with ``--luck best`` (:mod:`dedale.solve.group_luck`), else that solver's policy
(tested when it raises the chance to leave the fight alive). Under ``--exact`` its chances
are :class:`dedale.solve.exact_group.ExactGroup`'s, in fractions.
"""

from __future__ import annotations

import time
from typing import Any

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules import modifiers as mods
from dedale.rules.odds_exits import ExitPlan
from dedale.solve.fight_nodes import FightNodes, destination_of
from dedale.solve.model import Decision, Leaf, Next, SolveLimit

LUCK_WORK = 400_000
"""The work foreseen at most for the fight's own Luck at once (``GroupExitSolver``'s
``luck_work``: its bound is loose; its CPU seconds stop it too). The validator's 40,000
refuses small fights (two rats, STAMINA 16 and LUCK 8: 41,310)."""


class GroupFight(FightNodes):
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
        self.win = destination_of(runner, statement.win)
        self.limit_to = destination_of(runner, getattr(statement.assault_limit, "target", None))
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


def _result(state: tuple, node: tuple) -> str:
    """How an assault at once changed the state, as the walkthrough names it."""
    if node[0] == "end":
        return "hurt" if node[1] == "lost" else "hit"
    hurt, hit = node[0] < state[0], sum(node[2]) < sum(state[2])
    return "blows" if hurt and hit else "hurt" if hurt else "hit" if hit else "tie"
