"""Luck in a plain fight decided for the whole book (``--luck best``).

The exact fight DP (:class:`dedale.rules.odds.OddsTable`) decides Luck after each wound to
win *that fight*. Here the same transitions (``OddsTable._moves``: the assault chances of
``odds_inputs``, the Luck tables, armour and first-hit flags, ties folded in) are valued
with the **solver's value of each end state** instead of 1 for a win: a won fight ending
with STAMINA ``h`` and LUCK ``l`` is worth the value of the book's node it leads to, a lost
one 0, and after each wound Luck is tested exactly when that raises the expected value for
the book. The fight is one :class:`Duel` node of the graph whose successors are every end
state some Luck policy can reach; its value is recomputed from their values each time the
graph is evaluated (once in an acyclic graph, at every sweep of value iteration in a loop:
value iteration over the policy, monotone from below as before).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dedale.rules.odds import OddsTable

MAX_DUEL_STATES = 200_000
"""Fight states walked at most to find the reachable end states (a fight past it is refused)."""


class ValueTable(OddsTable):
    """The fight DP valued by terminal values ``terminal(h, luck)`` (see the module)."""

    def __init__(self, *args, defeat: bool = False, **kwargs) -> None:
        super().__init__(*args, luck_policy="best", **kwargs)
        self.defeat = defeat  # a lost state is the end key (0, LUCK) (see the module)
        self.memo: dict[tuple, float] = {}
        self.terminal: Callable[[int, int], float] = lambda h, luck: 1.0
        self._force: int | None = None  # reachability: 1 always Luck, 0 never
        self._wins: dict[tuple, float] = {}

    def start(self, hero_stamina: int, luck: int) -> tuple:
        return self._normal((0, max(0, luck), hero_stamina, self.enemies[0][1], True, False))

    def value(self, start: tuple, terminal: Callable[[int, int], float]) -> float:
        """The expected terminal value from ``start`` with the best Luck at every wound."""
        self.memo = {}
        self.terminal = terminal
        return self.state_value(start)

    def win(self, start: tuple) -> float:
        """The chance to win from ``start`` with Luck for the fight (memoised)."""
        found = self._wins.get(start)
        if found is None:
            found = self._wins[start] = self.value(start, lambda h, luck: 1.0)
        return found

    def state_value(self, state: tuple) -> float:
        index, luck, h, e, _first, _hit = state
        if h <= 0:
            return self.terminal(0, luck) if self.defeat else 0.0
        if e <= 0:
            if index + 1 >= len(self.enemies):
                return self.terminal(h, luck)
            following = (index + 1, luck, h, self.enemies[index + 1][1], False, True)
            return self.state_value(self._normal(following))
        found = self.memo.get(state)
        if found is not None:
            return found
        stay, outs = self._moves(state)
        total = sum(p * self.state_value(t) for p, t in outs)
        value = total / (1.0 - stay) if stay < 1.0 else 0.0
        self.memo[state] = value
        return value

    def _next_enemy(self, index: int, luck: int, h: int) -> tuple:
        return self._normal((index + 1, luck, h, self.enemies[index + 1][1], False, True))

    def _mean(self, option: list[tuple[float, tuple]]) -> float:
        if self._force is not None:  # reachability: the Luck option (two branches) or not
            return float(len(option) == 2) if self._force else float(len(option) == 1)
        return super()._mean(option)

    def ends(self, start: tuple) -> list[tuple[int, int]]:
        """Every (STAMINA, LUCK) a won fight can end with, under any Luck policy (and
        ``(0, LUCK)`` of a lost one with a defeat exit)."""
        found: set[tuple[int, int]] = set()
        seen = {start}
        stack = [start]
        while stack:
            if len(seen) > MAX_DUEL_STATES:
                from dedale.i18n import tr
                from dedale.solve.model import SolveLimit

                raise SolveLimit(
                    tr("this fight has too many states for the book's best Luck"),
                    hint=tr("try --luck fight (Luck for the fight) or --luck none"),
                )
            state = stack.pop()
            for force in (0, 1):
                self._force = force
                try:
                    _, outs = self._moves(state)
                finally:
                    self._force = None
                for _, t in outs:
                    index, luck, h, e, _first, _hit = t
                    if h <= 0:
                        if self.defeat:
                            found.add((0, luck))
                        continue
                    if e <= 0:
                        if index + 1 >= len(self.enemies):
                            found.add((h, luck))
                            continue
                        t = self._next_enemy(index, luck, h)
                    if t not in seen:
                        seen.add(t)
                        stack.append(t)
        return sorted(found)

    def outcomes(self, start: tuple, terminal) -> dict[tuple[int, int], float]:
        """The end states' probabilities under the best Luck for ``terminal`` (and the loss
        as the missing mass, or as the keys ``(0, LUCK)`` with a defeat exit)."""
        self.value(start, terminal)
        mass: dict[tuple, float] = {start: 1.0}
        ends: dict[tuple[int, int], float] = {}
        # states in an order where every move leads later: the enemy's index up, then
        # STAMINA + enemy STAMINA + LUCK down, before the first assault, before the first hit
        order = sorted(
            self.memo, key=lambda s: (s[0], -(s[1] + s[2] + s[3]), -int(s[4]), int(s[5]))
        )
        for state in order:
            p = mass.pop(state, 0.0)
            if not p:
                continue
            stay, outs = self._moves(state)
            scale = p / (1.0 - stay) if stay < 1.0 else 0.0
            for q, t in outs:
                index, luck, h, e, _first, _hit = t
                if h <= 0:
                    if self.defeat:
                        ends[0, luck] = ends.get((0, luck), 0.0) + q * scale
                    continue
                if e <= 0:
                    if index + 1 >= len(self.enemies):
                        ends[h, luck] = ends.get((h, luck), 0.0) + q * scale
                        continue
                    t = self._next_enemy(index, luck, h)
                mass[t] = mass.get(t, 0.0) + q * scale
        return ends


MAX_SHARED = 50_000
"""Fight values kept per table (past it the table's are forgotten and kept afresh)."""


def _shared(table) -> dict:
    """A table's fight values by (start, end values): two nodes entering the same fight
    whose ends are worth the same (they differ only by what the rest of the book no longer
    reads) share one fill of the value DP, the costly part of valuing a graph with fights
    decided for the book. Kept on the table (a table without a ``__dict__``: not kept)."""
    found = getattr(table, "_shared_values", None)
    if found is None or len(found) > MAX_SHARED:
        found = {}
        try:
            table._shared_values = found
        except AttributeError:
            pass
    return found


@dataclass(frozen=True, slots=True, eq=False)
class Duel:
    """A plain fight as one graph node: ``ends`` maps each reachable (STAMINA, LUCK) after
    a win to its subtree (a Next); its value is :meth:`value`."""

    table: ValueTable
    begin: tuple
    ends: dict[tuple[int, int], Any]
    last: list = field(default_factory=lambda: [None, 0.0])  # terminal values -> value

    def value(self, value_of: Callable[[Any], float]) -> float:
        """The fight's value for these end values: when they are all equal (say the
        fight leads to a victory whatever the wounds) it is that value times the chance
        to win with the DP's own policy (the same thing); else the value DP."""
        terminal = {key: value_of(sub) for key, sub in self.ends.items()}
        known = tuple(terminal.values())
        if known == self.last[0]:
            return self.last[1]
        first = known[0] if known else 0.0
        if all(v == first for v in known) and not getattr(self.table, "defeat", False):
            found = first * self.table.win(self.begin)
        else:  # the same fight with the same end values at another node: its value
            shared = _shared(self.table)
            memo_key = (self.begin, type(first), tuple(terminal.items()))
            found = shared.get(memo_key)
            if found is None:
                found = shared[memo_key] = self.table.value(
                    self.begin, lambda h, luck: terminal[h, luck]
                )
        self.last[0], self.last[1] = known, found
        return found

    def branches(self, value_of: Callable[[Any], float]) -> tuple:
        """Chance branches under the book's best Luck (for the walkthrough)."""
        ends = self.ends
        found = self.table.outcomes(self.begin, lambda h, luck: value_of(ends[h, luck]))
        return tuple(
            (p, ("f", key), ends[key]) for key, p in sorted(found.items()) if p > 0 and key in ends
        )
