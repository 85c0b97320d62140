"""What every fight played as graph nodes shares (:mod:`dedale.solve.fight_exits`,
:mod:`dedale.solve.fight_group`): a state's node key and interning, the ways out to a
paragraph, the reader's Luck decision, chances and folded returns.

A tie (or a blow the armour stops) that leaves a state as it was is folded in exactly: the
state's value is the best over its options of (the rest) / (1 - P(back)), which is what
choosing that option at every return gives, and the best stationary choice is optimal.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dedale import ast
from dedale.i18n import tr
from dedale.solve import clock
from dedale.solve.escape import MAX_FIGHT_STATES, GraphEntry
from dedale.solve.exactness import EXACT
from dedale.solve.model import Chance, Decision, Leaf, Next, OutOfTime, SolveLimit

YES = (("a", True), {"kind": "luck", "answer": True})
NO = (("a", False), {"kind": "luck", "answer": False})


class FightNodes:
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


def destination_of(runner, destination) -> int | None:
    """A fight's paragraph (``win ->``, a limit's) as a number, or None."""
    return None if destination is None else runner.destination(destination)
