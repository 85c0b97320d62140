"""A fight with an escape (or an assault limit) as one graph node, when Luck is not tested.

:mod:`dedale.solve.escape` makes every state of such a fight (hero STAMINA, enemy
STAMINA, assaults fought) a graph node, keyed on the rest of the snapshot: in a book whose
hub leads to an escape fight (le-puits-des-ombres' stone guardian, §40), those nodes were
a third of the graph, one set per meal count, gold, codeword and visit combination. Here
the same fight is one :class:`dedale.solve.duel.Duel` node whose successors are its ways
out — won with STAMINA ``h``, fled with ``h`` left after the escape's wound, the assault
limit reached with ``h`` — and whose value is the fight's own DP over its states, valued
with those successors' values: before each assault the escape allows, flee or fight on,
whichever is worth more for the book. The transitions are the escape module's (one enemy,
``odds_inputs.assault_chances``, the wounds each way, the escape's wound; a tie that leaves
the state as it was folded in exactly, as there); the decisions and values are the same,
only the fight's inner states are no longer graph nodes (``tests/solve`` checks both ways
agree, ``collapse=False`` in :func:`dedale.solve.graph.solve_book`).

Used with ``--luck none`` (or a ruleset without Luck in fights), outside ``--exact``, and
not for a walkthrough (whose steps show the flee decisions as they are taken).
An end key is ``(h, way)``, ``way`` one of ``won``, ``away``, ``limit`` (the Duel's
``(STAMINA, LUCK)`` slot holds the way: LUCK does not change here).
"""

from __future__ import annotations

from collections.abc import Callable

from dedale.i18n import tr
from dedale.rules.odds_inputs import assault_chances
from dedale.solve.model import SolveLimit

MAX_STATES = 100_000
"""Fight states of one escape fight at most (as :data:`dedale.solve.escape.MAX_FIGHT_STATES`)."""


class EscapeTable:
    """One escape fight's numbers and its DP (the Duel's table interface)."""

    def __init__(self, chances, to_enemy: int, to_hero: int, flee: int, after, limit, e0: int):
        self.c = chances
        self.to_enemy, self.to_hero, self.flee = to_enemy, to_hero, flee
        self.after, self.limit = after, limit
        self.cap = max(after or 0, limit or 0)
        self.e0 = e0
        self._wins: dict[tuple, float] = {}
        self.memo: dict[tuple, float] = {}
        self.terminal: Callable[[int, str], float] = lambda h, way: 1.0

    def start(self, h: int) -> tuple:
        return (h, self.e0, 0)

    def value(self, begin: tuple, terminal: Callable[[int, str], float]) -> float:
        self.memo = {}
        self.terminal = terminal
        return self._v(*begin)

    def win(self, begin: tuple) -> float:
        """The chance to leave the fight alive (any way) with the best decisions."""
        found = self._wins.get(begin)
        if found is None:
            found = self._wins[begin] = self.value(begin, lambda h, way: 1.0)
        return found

    def _end(self, h: int, way: str) -> float:
        return self.terminal(h, way) if h > 0 else 0.0

    def _v(self, h: int, e: int, k: int) -> float:
        key = (h, e, k)
        found = self.memo.get(key)
        if found is not None:
            return found
        if self.limit is not None and k >= self.limit:  # not won after N assaults
            value = self._end(h, "limit")
        else:
            value = self._fight_on(h, e, k)
            if self.after is not None and k >= self.after:
                value = max(self._end(h - self.flee, "away"), value)
        self.memo[key] = value
        return value

    def _fight_on(self, h: int, e: int, k: int) -> float:
        c = self.c
        k1 = min(k + 1, self.cap)
        total = c.p_kill * self._end(h, "won") if c.p_kill else 0.0
        if c.p_hero:
            e1 = e - self.to_enemy
            total += c.p_hero * (self._end(h, "won") if e1 <= 0 else self._v(h, e1, k1))
        if c.p_enemy and h - self.to_hero > 0:
            total += c.p_enemy * self._v(h - self.to_hero, e, k1)
        if c.p_tie:
            if k1 == k:  # a tie leaves this very state: folded in
                return total / (1 - c.p_tie)
            total += c.p_tie * self._v(h, e, k1)
        return total

    def ends(self, begin: tuple) -> list[tuple[int, str]]:
        """Every way out some decisions reach, with its STAMINA."""
        found: set[tuple[int, str]] = set()
        seen = {begin}
        stack = [begin]
        c = self.c
        while stack:
            if len(seen) > MAX_STATES:
                raise SolveLimit(tr("this escape fight has too many states"))
            h, e, k = stack.pop()
            if self.limit is not None and k >= self.limit:
                found.add((h, "limit"))
                continue
            if self.after is not None and k >= self.after and h - self.flee > 0:
                found.add((h - self.flee, "away"))
            k1 = min(k + 1, self.cap)
            nxt = []
            if c.p_kill:
                found.add((h, "won"))
            if c.p_hero:
                if e - self.to_enemy <= 0:
                    found.add((h, "won"))
                else:
                    nxt.append((h, e - self.to_enemy, k1))
            if c.p_enemy and h - self.to_hero > 0:
                nxt.append((h - self.to_hero, e, k1))
            if c.p_tie and k1 != k:
                nxt.append((h, e, k1))
            for state in nxt:
                if state not in seen:
                    seen.add(state)
                    stack.append(state)
        return sorted(found)

    def outcomes(self, begin: tuple, terminal) -> dict[tuple[int, str], float]:
        """The ways out's chances under the best decisions for ``terminal``."""
        self.value(begin, terminal)
        c = self.c
        mass = {begin: 1.0}
        ends: dict[tuple[int, str], float] = {}

        def add(key, p):
            if key[0] > 0:
                ends[key] = ends.get(key, 0.0) + p

        # every move lowers h + e or raises k (capped): that order visits each state once
        order = lambda s: (-(s[0] + s[1]), s[2])  # noqa: E731
        while mass:
            state = min(mass, key=order)
            p = mass.pop(state)
            h, e, k = state
            if self.limit is not None and k >= self.limit:
                add((h, "limit"), p)
                continue
            if self.after is not None and k >= self.after:
                if self._end(h - self.flee, "away") >= self._fight_on(h, e, k):
                    add((h - self.flee, "away"), p)
                    continue
            k1 = min(k + 1, self.cap)
            scale = p / (1 - c.p_tie) if c.p_tie and k1 == k else p
            if c.p_kill:
                add((h, "won"), scale * c.p_kill)
            if c.p_hero:
                if e - self.to_enemy <= 0:
                    add((h, "won"), scale * c.p_hero)
                else:
                    t = (h, e - self.to_enemy, k1)
                    mass[t] = mass.get(t, 0.0) + scale * c.p_hero
            if c.p_enemy and h - self.to_hero > 0:
                t = (h - self.to_hero, e, k1)
                mass[t] = mass.get(t, 0.0) + scale * c.p_enemy
            if c.p_tie and k1 != k:
                t = (h, e, k1)
                mass[t] = mass.get(t, 0.0) + p * c.p_tie
        return ends


def escape_duel(oracle, runner, statement, setup, bonus: int):
    """The oracle's hook for an escape or assault-limit fight without Luck: raises
    :class:`dedale.solve.fights.Resolved` with the fight's Duel node, or returns None when
    the fight is played as graph nodes (:mod:`dedale.solve.escape`)."""
    from dedale.solve.duel import Duel
    from dedale.solve.fights import Resolved

    explorer = oracle.explorer
    if not getattr(explorer, "collapse", False) or oracle.resolve is None:
        return None
    if len(setup.skills) != 1 or setup.armour or setup.first_hit_bonus:
        return None
    fight = runner._fight_ruleset(statement).fight
    hero = runner.state.hero
    escape, limit = statement.escape, statement.assault_limit
    ways = {
        "won": runner.destination(statement.win) if statement.win is not None else None,
        "away": runner.destination(escape.target) if escape is not None else None,
        "limit": runner.destination(limit.target) if limit is not None else None,
    }
    attack = hero.stats[fight.attack_stat] + bonus
    key = ("escape", id(statement), attack, setup.skills[0], setup.immune[0], setup.health[0],
           setup.damage_bonus, setup.enemy_damage)  # fmt: skip
    table = oracle._tables.get(key)
    if table is None:
        table = oracle._tables[key] = EscapeTable(
            assault_chances(fight, attack, setup.skills[0], setup.immune[0]),
            fight.damage_to_enemy + setup.damage_bonus, setup.enemy_damage,
            fight.escape_damage, None if escape is None else int(escape.after or 0),
            None if limit is None else int(limit.assaults), setup.health[0],
        )  # fmt: skip
    begin = table.start(hero.stats[fight.health])
    ends = oracle._ends.get((key, begin))
    if ends is None:
        oracle.fights += 1
        ends = oracle._ends[key, begin] = tuple(table.ends(begin))
    kept = dict(hero.stats)
    found = {}
    try:
        for h, way in ends:
            target = ways[way]
            if target is None:
                raise SolveLimit(tr("this fight names no paragraph to turn to"), statement.span)
            hero.stats[fight.health] = h
            found[h, way] = oracle.resolve(runner.state, target)
            hero.stats.clear()
            hero.stats.update(kept)
    finally:
        hero.stats.clear()
        hero.stats.update(kept)
    raise Resolved(Duel(table, begin, found))
