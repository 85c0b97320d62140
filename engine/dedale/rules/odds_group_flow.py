"""The forward pass of a fight at once over the array table: where the fight ends.

From the start (after its first assault when armour guards it, taken by the scalar
:meth:`dedale.rules.odds_group.GroupTable.moves`), the probability mass goes down the
levels of :mod:`dedale.rules.odds_group_fast` (largest sum first), each level's rows
split by the target the table picks there, along the same Luck choices as the values
(:meth:`dedale.rules.odds_group_walk.Walker.flow`). What reaches a state where every
enemy is down is a win with that STAMINA and LUCK; the rest is lost. The expected number
of assaults is the sum of the visits (a tie every enemy misses is a visit more).
"""

from __future__ import annotations

import time

import numpy as np

from dedale.rules.odds_group_walk import Walker


class Flow:
    """The end of the fight from some starting mass (``seeds``: {state: mass})."""

    def __init__(self, values, seeds: dict[tuple, float], seconds: float | None = None) -> None:
        self.values = values
        self.fill = values.fill
        self.deadline = None if seconds is None else time.process_time() + seconds
        self.mass = np.zeros(self.fill.flat.size)
        for state, mass in seeds.items():
            where = values._index(state)
            if where is not None:
                self.mass[np.ravel_multi_index(where, self.fill.shape)] += mass
        self.assaults = 0.0
        self.visited = 0

    def run(self) -> dict[tuple[int, int], float]:
        """{(STAMINA, LUCK): chance} of the won ends (their sum: the chance to win)."""
        fill, mass = self.fill, self.mass
        layers = (1, 0) if fill.hit_layer else (1,)
        orders = fill._orders()
        for level in reversed(fill.done):
            h, luck, es = level[0], level[1], level[2:]
            off = sum(es[j] * fill.s_e[j] for j in range(fill.n))
            moved = [sum(es[perm[j]] * fill.s_e[j] for j in range(fill.n)) for perm in orders]
            for hit in layers:
                base = hit * fill.s_hit + h * fill.s_h + luck * fill.s_l
                at = base + off
                seen = [off]
                for other in moved:  # the mass of swapped twins joins the sorted state
                    fresh = np.logical_and.reduce([other != s for s in seen])
                    seen.append(other)
                    mass[at[fresh]] += mass[(base + other)[fresh]]
                    mass[(base + other)[fresh]] = 0.0
                rows = np.flatnonzero(mass[at] > 0)
                if rows.size:
                    self._level(rows, h, luck, es, off, at, hit)
            if self.deadline is not None and time.process_time() > self.deadline:
                raise TimeoutError
        won = mass.reshape(fill.shape)[(slice(None), slice(1, None), slice(None), *[0] * fill.n)]
        won = won.sum(axis=0)
        found = zip(*np.nonzero(won), strict=True)
        return {(int(h) + 1, int(lk)): float(won[h, lk]) for h, lk in found}

    def _level(self, rows, h, luck, es, off, at, hit: int) -> None:
        fill, mass = self.fill, self.mass
        picked = fill.choice[at[rows]]
        for t in np.unique(picked):
            sel = rows[picked == t]
            walker = Walker(fill, int(t), h[sel], luck[sel], [e[sel] for e in es], off[sel], hit)
            stay = walker.stay()
            visits = mass[at[sel]] / np.where(stay < 1.0, 1.0 - stay, 1.0)
            mass[at[sel]] = 0.0
            self.assaults += float(visits.sum())
            self.visited += int(sel.size)
            sent = _Sent()
            walker.flow(visits, sent.add)
            if sent.where:
                np.add.at(mass, np.concatenate(sent.where), np.concatenate(sent.amounts))


class _Sent:
    """The (states, masses) an assault sends, added to the mass in one call."""

    def __init__(self) -> None:
        self.where: list = []
        self.amounts: list = []

    def add(self, index, mass) -> None:
        self.where.append(index)
        self.amounts.append(mass)
