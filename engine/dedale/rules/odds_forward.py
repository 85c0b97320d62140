"""The forward pass of the exact odds: probability mass pushed along the chosen policy.

From the start state, mass flows through the fight's states in topological order (the
few states before the first assault / first hit first, then the regular grids by enemy,
Luck, STAMINA, enemy STAMINA, all decreasing) and gives the expected number of assaults
and the hero's STAMINA and LUCK when he wins, apart and jointly (``ends``).
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dedale.rules.odds import OddsTable


class Forward:
    """Pushes probability mass from the start state along the chosen policy."""

    def __init__(self, table: OddsTable) -> None:
        self.table = table
        self.assaults = 0.0
        self.stamina: dict[int, float] = {}
        self.lucks: dict[int, float] = {}
        self.ends: dict[tuple[int, int], float] = {}
        self.visited = 0
        self.mass = [
            [[[0.0] * (stamina + 1) for _ in range(table.stamina_max + 1)]
             for _ in range(table.luck_max + 1)]
            for _, stamina, _ in table.enemies
        ]  # fmt: skip

    def add(self, index: int, luck: int, h: int, e: int, flow: float) -> None:
        if h <= 0 or not flow:
            return
        if e <= 0:
            index += 1
            if index >= len(self.table.enemies):
                self.stamina[h] = self.stamina.get(h, 0.0) + flow
                self.lucks[luck] = self.lucks.get(luck, 0.0) + flow
                self.ends[h, luck] = self.ends.get((h, luck), 0.0) + flow
                return
            e = self.table.enemies[index][1]
        self.mass[index][luck][h][e] += flow

    def run(self, start: tuple) -> None:
        table = self.table
        # States before the first assault / first hit: few, in topological order.
        heap = [(self._key(start), start)]
        pending = {start: 1.0}
        while heap:
            _, state = heapq.heappop(heap)
            m = pending.pop(state)
            index, luck, h, e, first, hit = state
            if h <= 0 or e <= 0 or (not first and hit):
                self.add(index, luck, h, e, m)
                continue
            self.visited += 1
            stay, outs = table._moves(state)
            visits = m / (1.0 - stay)
            self.assaults += visits
            for p, target in outs:
                if target not in pending:
                    pending[target] = 0.0
                    heapq.heappush(heap, (self._key(target), target))
                pending[target] += visits * p
        self._run_regular()

    @staticmethod
    def _key(state: tuple) -> tuple:
        index, luck, h, e, first, hit = state
        return index, -luck, -h, -e, not first, hit

    def _run_regular(self) -> None:
        table = self.table
        hit, hurt = table.hit, table.hurt
        cost = table.luck_cost
        add = self.add
        for index, grid in enumerate(self.mass):
            params = table.params[index]
            pk, ph, pe, pt = params.p_kill, params.p_hero, params.p_enemy, params.p_tie
            choices = table.choices[index]
            for luck in range(len(grid) - 1, -1, -1):
                q = table.p_lucky(luck)
                low = max(0, luck - cost)
                rows = grid[luck]
                picks = choices[luck]
                for h in range(len(rows) - 1, 0, -1):
                    row = rows[h]
                    for e in range(len(row) - 1, 0, -1):
                        m = row[e]
                        if not m:
                            continue
                        self.visited += 1
                        flag = picks[h][e]
                        stay = pt + (0.0 if hit[0] else ph) + (0.0 if hurt[0] else pe)
                        visits = m / (1.0 - stay)
                        self.assaults += visits
                        if pk:
                            add(index, luck, h, 0, visits * pk)
                        if hit[0]:
                            if flag & 1:
                                add(index, low, h, e - hit[1], visits * ph * q)
                                add(index, low, h, e - hit[2], visits * ph * (1 - q))
                            else:
                                add(index, luck, h, e - hit[0], visits * ph)
                        if hurt[0]:
                            if flag & 2:
                                add(index, low, h - hurt[1], e, visits * pe * q)
                                add(index, low, h - hurt[2], e, visits * pe * (1 - q))
                            else:
                                add(index, luck, h - hurt[0], e, visits * pe)
