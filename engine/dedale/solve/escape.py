"""A fight with an escape as part of the solver's graph: the reader decides, before each
assault from the one the fight allows, to flee or fight on — by the value of the paragraph
each way leads to — and, after each wound, whether to test Luck (with ``--luck best``).

Each fight state — hero STAMINA, enemy STAMINA, LUCK, assaults fought (counted up to the
first one an escape is allowed at) — is a graph node of its own (:class:`FightEntry`), so
the graph solves them with the rest of the book; a tie once escapes are allowed leaves the
state as it was and is folded in exactly (divided by 1 - P(tie)). The transitions follow
:func:`dedale.rules.fight_opposed.opposed_fight` for one enemy: the assault's exact
chances (``odds_inputs.assault_chances``: instant kills, wounds each way, ties), the wound
to the enemy and to the hero, Luck's shifts of the damage (``luck.wounding`` /
``luck.wounded``, the test's cost), and the escape's own wound (``escape_damage``, with
Luck when ``escape_luck``).

An assault limit (``> not won after 4 assaults -> 60``) is played the same way, with or
without an escape: the assaults are counted up to the limit, and the state that reaches it
leaves for the limit's paragraph with its STAMINA and LUCK — so Luck after each wound is
tested by the value for the book (winning the duel, or reaching the limit alive, whichever
leads better).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dedale.i18n import tr
from dedale.rules.odds_inputs import assault_chances, lucky_table
from dedale.solve import clock
from dedale.solve.exactness import EXACT
from dedale.solve.model import Chance, Decision, Leaf, Next, OutOfTime, SolveLimit

MAX_FIGHT_STATES = 100_000
"""Fight states of one escape fight at most."""


@dataclass(frozen=True, slots=True)
class FightEntry:
    """A graph node: the escape fight ``fight`` (an id) from the snapshot ``state`` in the
    state (``h``, ``e``, ``luck``, ``k``); ``target`` is the fight's paragraph."""

    state: str
    fight: int
    h: int
    e: int
    luck: int
    k: int
    target: int


@dataclass(frozen=True, slots=True)
class GraphEntry:
    """A graph node of a fight played state by state (:mod:`dedale.solve.fight_graph`):
    the fight ``fight`` (an id) from the snapshot ``state``, in its state ``node`` (the exit
    odds' own state tuple); ``target`` is the fight's paragraph."""

    state: str
    fight: int
    node: tuple
    target: int


FIGHT_ENTRIES = (FightEntry, GraphEntry)
"""The graph nodes whose trees the fight builds itself (``Explorer.prebuilt``)."""


class EscapeFight:
    """Builds the fight nodes of one escape fight (see the module docstring)."""

    def __init__(self, explorer, runner, statement, setup, bonus: int, policy: str) -> None:
        ruleset = runner._fight_ruleset(statement)
        fight = ruleset.fight
        if len(setup.skills) != 1:
            raise SolveLimit(
                tr("the solver plays an escape only in a fight against one enemy"),
                statement.span,
            )
        if setup.armour or setup.first_hit_bonus:
            raise SolveLimit(
                tr("the solver plays an escape only without armour or a first-hit bonus"),
                statement.span,
            )
        self.explorer, self.runner, self.fight = explorer, runner, fight
        self.health = fight.health
        self.luck_stat = setup.luck_stat if policy == "best" else None
        self.luck_cost = setup.luck_cost
        self.lucky = lucky_table(setup.luck_dice) if setup.luck_dice is not None else (0.0,)
        attack = runner.state.hero.stats[fight.attack_stat] + bonus
        self.chances = assault_chances(fight, attack, setup.skills[0], setup.immune[0])
        self.one = 1.0
        if EXACT.get():  # --exact: the same chances in fractions
            from dedale.solve.exact_fights import ExactChances, exact_lucky

            self.chances = ExactChances(fight, attack - setup.skills[0], setup.immune[0])
            self.lucky = exact_lucky(setup.luck_dice) if setup.luck_dice is not None else (0,)
            self.one = 1
        self.to_enemy = fight.damage_to_enemy + setup.damage_bonus
        self.to_hero = setup.enemy_damage
        escape, limit = statement.escape, statement.assault_limit
        self.after = None if escape is None else int(escape.after or 0)
        self.win = runner.destination(statement.win) if statement.win is not None else None
        self.away = None if escape is None else runner.destination(escape.target)
        self.limit = None if limit is None else int(limit.assaults)
        self.limit_to = None if limit is None else runner.destination(limit.target)
        self.cap = max(self.after or 0, self.limit or 0)  # the assault numbers told apart
        self.paragraph = runner.state.paragraph or 0
        self.key = self._key(explorer, runner.state.hero)
        self.id = id(statement)
        self.enemy = setup.health[0]
        self.built = 0

    def _key(self, explorer, hero) -> str:
        """The snapshot without the two stats the fight states carry themselves (STAMINA,
        and LUCK when tested): the same fight state reached from different starting
        STAMINA or LUCK (a second try after fleeing, a wound before) is one node."""
        kept = dict(hero.stats)
        hero.stats[self.health] = 0
        if self.luck_stat:
            hero.stats[self.luck_stat] = 0
        try:
            return explorer.canonical(self.runner.state, self.paragraph)
        finally:
            hero.stats.clear()
            hero.stats.update(kept)

    def start(self) -> Next:
        """The node of the fight's first state."""
        hero = self.runner.state.hero
        luck = hero.stats.get(self.luck_stat, 0) if self.luck_stat else 0
        return self._node(hero.stats[self.health], self.enemy, luck, 0)

    # ------------------------------------------------------------------ nodes

    def _node(self, h: int, e: int, luck: int, k: int) -> Next:
        entry = FightEntry(self.key, self.id, h, e, luck, min(k, self.cap), self.paragraph)
        known = self.explorer.intern_known(entry)
        if known is not None:
            return Next(known)
        self.built += 1
        deadline = self.explorer.deadline
        if deadline is not None and not self.built % 256 and clock.now() > deadline:
            raise OutOfTime
        if self.built > MAX_FIGHT_STATES:
            raise SolveLimit(tr("this escape fight has too many states"))
        node = self.explorer.intern_fight(entry)
        self.explorer.prebuilt[entry] = self._tree(entry)
        return Next(node)

    def _tree(self, s: FightEntry):
        if self.limit is not None and s.k >= self.limit:  # not won after N assaults
            return self._left(self.limit_to, s.h, s.luck)
        fight_on = self._assault(s)
        if self.after is None or s.k < self.after:
            return fight_on
        flee = self._wounded(s.h, s.luck, self.fight.escape_damage, self.fight.escape_luck,
                             lambda h, luck: self._left(self.away, h, luck))  # fmt: skip
        return Decision(
            (
                (("a", True), {"kind": "escape", "target": self.away}, flee),
                (("a", False), {"kind": "fight_on"}, fight_on),
            )
        )

    def _assault(self, s: FightEntry):
        c = self.chances
        k = s.k + 1
        branches: list[tuple[float, Any, Any]] = []
        if c.p_kill:
            branches.append((c.p_kill, ("x", "kill"), self._left(self.win, s.h, s.luck)))
        if c.p_hero:
            branches.append((c.p_hero, ("x", "hit"), self._hit(s, k)))
        if c.p_enemy:
            table = self.fight.luck_wounded
            branches.append((c.p_enemy, ("x", "hurt"), self._wounded(
                s.h, s.luck, self.to_hero, table is not None,
                lambda h, luck: self._node(h, s.e, luck, k) if h > 0 else Leaf(0.0),
            )))  # fmt: skip
        if c.p_tie and min(k, self.cap) == s.k:  # a tie leaves this very state: folded in
            scale = self.one / (1 - c.p_tie)  # (fighting on is then chosen again, the same way)
            branches = [(p * scale, token, sub) for p, token, sub in branches]
        elif c.p_tie:
            branches.append((c.p_tie, ("x", "tie"), self._node(s.h, s.e, s.luck, k)))
        return Chance(tuple(branches))

    def _hit(self, s: FightEntry, k: int):
        def after(e: int, luck: int):
            return self._left(self.win, s.h, luck) if e <= 0 else self._node(s.h, e, luck, k)

        plain = after(s.e - self.to_enemy, s.luck)
        table = self.fight.luck_wounding
        if not self.luck_stat or s.luck <= 0 or table is None:
            return plain
        base = self.fight.damage_to_enemy
        low = max(0, s.luck - self.luck_cost)
        q = self._p_lucky(s.luck)
        lucky = after(s.e - max(0, self.to_enemy + table.lucky - base), low)
        unlucky = after(s.e - max(0, self.to_enemy + table.unlucky - base), low)
        tested = Chance(((q, ("l", True), lucky), (1 - q, ("l", False), unlucky)))
        return Decision(
            (
                (("a", True), {"kind": "luck", "answer": True}, tested),
                (("a", False), {"kind": "luck", "answer": False}, plain),
            )
        )

    def _wounded(self, h: int, luck: int, damage: int, may_test: bool, then):
        plain = then(h - damage, luck)
        table = self.fight.luck_wounded
        if not self.luck_stat or luck <= 0 or table is None or not may_test:
            return plain
        base = self.fight.damage_to_hero
        low = max(0, luck - self.luck_cost)
        q = self._p_lucky(luck)
        lucky = then(h - max(0, damage + table.lucky - base), low)
        unlucky = then(h - max(0, damage + table.unlucky - base), low)
        tested = Chance(((q, ("l", True), lucky), (1 - q, ("l", False), unlucky)))
        return Decision(
            (
                (("a", True), {"kind": "luck", "answer": True}, tested),
                (("a", False), {"kind": "luck", "answer": False}, plain),
            )
        )

    def _left(self, target: int | None, h: int, luck: int):
        """Out of the fight alive, to ``target`` with STAMINA ``h`` and this LUCK."""
        if h <= 0:
            return Leaf(0.0)
        if target is None:
            raise SolveLimit(tr("this fight names no paragraph to turn to"))
        hero = self.runner.state.hero
        kept = dict(hero.stats)
        hero.stats[self.health] = h
        if self.luck_stat:
            hero.stats[self.luck_stat] = luck
        try:
            return self.explorer.next_node(self.runner.state, target)
        finally:
            hero.stats.clear()
            hero.stats.update(kept)

    def _p_lucky(self, luck: int) -> float:
        table = self.lucky
        return table[luck] if luck < len(table) else self.one
