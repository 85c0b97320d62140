"""The value table of a fight at once, filled level by level with array operations.

The same values as :meth:`dedale.rules.odds_group.GroupTable._fast_value` (the scalar
reference, kept for the states before the first assault and where numpy is missing): a
state is (hero STAMINA, LUCK, every enemy's STAMINA, hit yet?); every move that changes
it lowers the sum ``STAMINA + LUCK + the enemies' STAMINA`` (a wound, a Luck test costs at
least a point), so the states of one sum depend only on smaller sums and are computed
together. Best Luck is a maximum at each decision, as the reader takes it: on the wound
the hero gives or takes (knowing his roll) and on each other enemy's blow, in the
enemies' order, knowing the blows so far (Luck tested where it gains:
:func:`dedale.rules.odds.luck_gains`, the one tie rule). A blow of the last other enemy has a value
that does not depend on the roll (``G`` below: the better of taking it and testing Luck);
the earlier ones are computed per roll. A tie that every other enemy misses leaves the
state as it is: that chance ``stay`` is folded in exactly (``value = rest / (1 - stay)``).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

from dedale.rules.odds import luck_gains

try:
    import numpy as np
except ImportError:  # pragma: no cover - the ``odds`` extra is not installed
    np = None

FAST_CELLS = 2_000_000
"""The largest table (hero STAMINA x LUCK x the enemies' STAMINA x hit yet) filled here."""
FAST_WORK = 60_000_000
"""Cells x targets x 4^(other enemies - 1) at most (the array work, bounded before it starts)."""
FAST_SECONDS = 5.0
"""A time bound on one fill (CPU seconds), looked at after each level."""


def available() -> bool:
    """Whether the array fill can run (numpy is installed)."""
    return np is not None


class FastValues:
    """The filled table read as the scalar code reads ``GroupTable.values``: a state
    ``(h, luck, es, first, hit)`` to its value; states before the first assault
    (``first``) live in a small dict beside it."""

    def __init__(self, array, hit_layer: bool, fill=None) -> None:
        self.fill = fill  # the _Fill (its tables, for the forward pass)
        self.array = array  # shape (2, H + 1, L + 1, E1 + 1, ..., En + 1)
        self.flat = array.reshape(-1)
        self.hit_layer = hit_layer
        self.extra: dict[tuple, float] = {}

    def _index(self, state: tuple) -> tuple | None:
        h, luck, es, first, hit = state
        shape = self.array.shape
        if first or not 0 <= h < shape[1] or not 0 <= luck < shape[2]:
            return None
        for e, size in zip(es, shape[3:], strict=True):
            if not 0 <= e < size:
                return None
        return (1 if hit else 0, h, luck, *es)

    def __getitem__(self, state: tuple) -> float:
        where = self._index(state)
        if where is None:
            return self.extra[state]
        return float(self.array[where])

    def __contains__(self, state: tuple) -> bool:
        return self._index(state) is not None or state in self.extra

    def __setitem__(self, state: tuple, value: float) -> None:
        where = self._index(state)
        if where is None:
            self.extra[state] = value
        else:
            self.array[where] = value

    def __len__(self) -> int:
        return self.flat.size + len(self.extra)

    def clear(self) -> None:
        self.extra.clear()


def fits(table, stamina_max: int, luck_max: int) -> bool:
    """Whether the array fill applies to ``table`` (a GroupTable) and its size fits."""
    if np is None:
        return False
    base = table.base
    if base.to_enemy <= 0 or base.hurt[0] <= 0:
        return False  # a blow that changes nothing loops: the scalar code folds it
    return (
        work(table, stamina_max, luck_max) <= FAST_WORK
        and cells(table, stamina_max, luck_max) <= FAST_CELLS
    )


def cells(table, stamina_max: int, luck_max: int) -> int:
    """The table's size (Python integers: nothing is allocated)."""
    count = 2 * (stamina_max + 1) * (luck_max + 1)
    kinds: dict[tuple, int] = {}
    for skill, health, immune in table.enemies:
        kind = (skill, immune) if table.best else len(kinds)
        kinds[kind] = max(kinds.get(kind, 0), health)
    for health in (
        kinds.values()
        if not table.best
        else (kinds[skill, immune] for skill, _, immune in table.enemies)
    ):
        count *= health + 1
        if count > FAST_CELLS * 8:
            break
    return count


def work(table, stamina_max: int, luck_max: int) -> int:
    """The fill's array work, as a number of cell operations."""
    n = len(table.enemies)
    return cells(table, stamina_max, luck_max) * n * 4 ** max(0, n - 2)


def fill(table, stamina_max: int, luck_max: int, seconds: float | None = FAST_SECONDS):
    """The values of every state after the first assault, as :class:`FastValues`;
    ``TimeoutError`` past ``seconds``."""
    return _Fill(table, stamina_max, luck_max, seconds).run()


class _Fill:
    def __init__(self, table, stamina_max: int, luck_max: int, seconds: float | None) -> None:
        base = table.base
        fight = base.fight
        self.deadline = None if seconds is None else time.process_time() + seconds
        self.n = len(table.enemies)
        self.best = table.best
        self.immune = [bool(e[2]) for e in table.enemies]
        self.luck = table.use_luck and luck_max > 0
        self.cost = max(1, table.cost)
        self.hit_layer = bool(table.first_hit_bonus)
        self.bonus = table.first_hit_bonus
        self.to_enemy = base.to_enemy
        self.hurt = base.hurt
        self.side = table.side
        self.wounding = fight.luck_wounding if table.use_luck else None
        self.shift = fight.damage_to_enemy
        sizes = [e[1] + 1 for e in table.enemies]
        if table.best:  # interchangeable enemies share one range (their STAMINA is sorted)
            for group in table.groups:
                for i in group:
                    sizes[i] = max(sizes[j] for j in group)
        shape = (2, stamina_max + 1, luck_max + 1, *sizes)
        self.shape = shape
        self.values = np.zeros(shape)
        self.g = np.zeros(shape)  # the value of one more blow of another enemy
        strides = [s // 8 for s in self.values.strides]
        self.s_hit, self.s_h, self.s_l = strides[0], strides[1], strides[2]
        self.s_e = strides[3:]
        self.q = np.array([table._p_lucky(luck) for luck in range(luck_max + 1)])
        # hero rolls that every enemy meets alike are one roll (their chances summed)
        merged: dict[tuple, list[float]] = {}
        for p_roll, p_double, per_enemy in table.rolls:
            found = merged.setdefault(tuple(per_enemy), [0.0, 0.0])
            found[0] += p_roll
            found[1] += p_double
        keys = list(merged)
        self.pr = np.array([merged[k][0] for k in keys])
        self.pd = np.array([merged[k][1] for k in keys])
        self.below = [np.array([k[j][0] for k in keys]) for j in range(self.n)]
        self.equal = [np.array([k[j][1] for k in keys]) for j in range(self.n)]
        self.above = [np.array([k[j][2] for k in keys]) for j in range(self.n)]
        # with the best target, enemies of one kind are interchangeable: the states with
        # their STAMINA sorted are computed, then copied to the other orders
        self.groups = [g for g in table.groups if len(g) > 1] if self.best else []
        flat = self.values.reshape(-1)
        flat_g = self.g.reshape(-1)
        # boundaries: no STAMINA left loses (0), no enemy left wins (1)
        for hit in (0, 1):
            for h in range(1, stamina_max + 1):
                self.values[(hit, h, slice(None), *([0] * self.n))] = 1.0
                self.g[(hit, h, slice(None), *([0] * self.n))] = 1.0
        self.flat, self.flat_g = flat, flat_g
        self.choice = np.zeros(self.flat.size, dtype=np.int8)  # the target each state picks
        self.done: list = []  # the levels, smallest sum first

    # ------------------------------------------------------------------ levels

    def levels(self) -> Iterator[tuple]:
        """The states (h, luck, es...) of each sum, smallest sum first (with the STAMINA
        of interchangeable enemies sorted)."""
        grids = np.indices(self.shape[1:], dtype=np.int32).reshape(len(self.shape) - 1, -1)
        h, es = grids[0], grids[2:]
        keep = (h >= 1) & (es.sum(axis=0) > 0)
        for group in self.groups:
            for a, b in itertools.pairwise(group):
                keep &= es[a] <= es[b]
        grids = grids[:, keep]
        total = grids.sum(axis=0)
        order = np.argsort(total, kind="stable")
        grids, total = grids[:, order], total[order]
        cuts = np.flatnonzero(np.diff(total)) + 1
        yield from np.split(grids, cuts, axis=1)

    def _orders(self) -> list[list[int]]:
        """The other orders of interchangeable enemies (each a permutation of indices)."""
        found: list[list[int]] = [list(range(self.n))]
        for group in self.groups:
            grown = []
            for perm in found:
                for order in itertools.permutations(group):
                    moved = perm[:]
                    for i, j in zip(group, order, strict=True):
                        moved[i] = perm[j]
                    grown.append(moved)
            found = grown
        return found[1:]

    def run(self) -> FastValues:
        layers = (1, 0) if self.hit_layer else (1,)
        orders = self._orders()
        for level in self.levels():
            h, luck, es = level[0], level[1], level[2:]
            off = sum(es[j] * self.s_e[j] for j in range(self.n))
            moved = [sum(es[perm[j]] * self.s_e[j] for j in range(self.n)) for perm in orders]
            for hit in layers:
                base = hit * self.s_hit + h * self.s_h + luck * self.s_l
                at = base + off
                self._blow(at, h, luck)
                self.flat[at], self.choice[at] = self._level(h, luck, es, off, hit)
                for other in moved:  # the same state with interchangeable enemies swapped
                    self.flat[base + other] = self.flat[at]
                    self.flat_g[base + other] = self.flat_g[at]
            self.done.append(level)
            if self.deadline is not None and time.process_time() > self.deadline:
                raise TimeoutError
        return FastValues(self.values, self.hit_layer, self)

    def _blow(self, at, h, luck) -> None:
        """``G``: the value of taking one more blow of another enemy, with the better
        choice of testing Luck on it."""
        side = self.side
        flat = self.flat
        g = flat[at - np.minimum(h, side[0]) * self.s_h]
        if len(side) == 3 and self.luck:
            low = np.maximum(luck - self.cost, 0)
            q = self.q[luck]
            back = at + (low - luck) * self.s_l
            lucky = q * flat[back - np.minimum(h, side[1]) * self.s_h]
            lucky += (1 - q) * flat[back - np.minimum(h, side[2]) * self.s_h]
            g = np.where((luck > 0) & luck_gains(lucky, g), lucky, g)
        self.flat_g[at] = g

    def _level(self, h, luck, es, off, hit: int):
        """The values of a level's rows (and the target each picks, in ``choice``)."""
        from dedale.rules.odds_group_walk import Walker

        best = np.full(h.shape, -1.0)
        choice = np.zeros(h.shape, dtype=np.int8)
        alive = [es[j] > 0 for j in range(self.n)]
        first_alive = np.argmax(np.stack(alive), axis=0)
        for t in range(self.n):
            pick = alive[t] if self.best else first_alive == t
            rows = np.flatnonzero(pick)
            if rows.size == 0:
                continue
            walker = Walker(self, t, h[rows], luck[rows], [e[rows] for e in es], off[rows], hit)
            win = walker.value()[0]
            better = win > best[rows] + 1e-15  # ties: the first target, as the scalar table
            best[rows] = np.where(better, win, best[rows])
            choice[rows] = np.where(better, t, choice[rows])
        return np.clip(best, 0.0, 1.0), choice

    def _columns(self, t: int, sides: list[int]):
        """The hero's rolls against target ``t`` merged where the other enemies' chances
        to strike are the same: (kill, wound, tie, hurt weights, each side's chance)."""
        immune = self.immune[t]
        merged: dict[tuple, list[float]] = {}
        for k in range(self.pr.size):
            pd = 0.0 if immune else self.pd[k]
            plain = self.pr[k] - pd
            key = tuple(self.above[j][k] for j in sides)
            w = merged.setdefault(key, [0.0, 0.0, 0.0, 0.0])
            w[0] += pd
            w[1] += plain * self.below[t][k]
            w[2] += plain * self.equal[t][k]
            w[3] += plain * self.above[t][k]
        keys = list(merged)
        weights = np.array([merged[k] for k in keys]).T  # (4, columns)
        chances = [np.array([k[m] for k in keys]) for m in range(len(sides))]
        return weights, chances
