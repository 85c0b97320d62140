"""The forward pass of the exact odds with allies (:mod:`dedale.rules.odds_allies`): the
start's probability mass pushed along the table's best choices, in decreasing state order
(every move lowers the state index), gives the expected number of assaults and the hero's
(STAMINA, LUCK) when he wins. Each state's moves are kept (up to ``FLOW_CACHE`` states) for
the passes from other starts (the path of fights and the solver enter a fight with many
STAMINA and LUCK values).
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from dedale.rules.odds import OddsResult

if TYPE_CHECKING:
    from dedale.rules.odds_allies import AllyTable

FLOW_CACHE = 60_000  # states whose moves the forward passes keep (memory: a few tens of MB)


def flow(table: AllyTable, i: int) -> tuple[float, list, list]:
    """A regular state's moves with the best choices (its outs merged by state), kept
    for the forward passes from other starts (the path of fights, the solver)."""
    unhit = i % table.hits
    rest = i // table.hits
    rest, code = divmod(rest, table.ally_cells)
    rest, t = divmod(rest, table.total + 1)
    li, h = divmod(rest, table.h0 + 1)
    _, stay, outs, wins = table._moves(li, h, t, code, unhit, False, collect=True)
    merged: dict[int, float] = {}
    for p, j in outs:
        merged[j] = merged.get(j, 0.0) + p
    return stay, [(p, j) for j, p in merged.items()], wins


def forward(table: AllyTable, start, first: bool, win: float, luck: int | None) -> OddsResult:
    """Push the start's mass along the best choices: expected assaults, end states."""
    ends: dict[tuple[int, int], float] = {}
    assaults = 0.0
    mass: dict[int, float] = {}
    heap: list[int] = []
    visited = 0

    def push(outs, wins, flow):
        for p, i in outs:
            if i not in mass:
                mass[i] = 0.0
                heapq.heappush(heap, -i)
            mass[i] += flow * p
        for p, h, li in wins:
            key = (h, li)
            ends[key] = ends.get(key, 0.0) + flow * p

    flows = table._flows
    _, stay, outs, wins = table._moves(*start, first, collect=True)
    visits = 1.0 / (1.0 - stay) if stay < 1.0 else 0.0
    assaults += visits
    push(outs, wins, visits)
    while heap:
        i = -heapq.heappop(heap)
        m = mass.pop(i)
        visited += 1
        found = flows.get(i)
        if found is None:
            found = flow(table, i)
            if len(flows) < FLOW_CACHE:
                flows[i] = found
        stay, outs, wins = found
        visits = m / (1.0 - stay) if stay < 1.0 else 0.0
        assaults += visits
        push(outs, wins, visits)
    base = table.base
    shown: dict[tuple[int, int], float] = {}
    for (h, li), p in ends.items():
        key = (h, li if base.use_luck else (0 if luck is None else luck))
        shown[key] = shown.get(key, 0.0) + p
    scale = 1.0 / win if win > 0 else 0.0
    stamina: dict[int, float] = {}
    lucks: dict[int, float] = {}
    for (h, lk), p in shown.items():
        stamina[h] = stamina.get(h, 0.0) + p * scale
        lucks[lk] = lucks.get(lk, 0.0) + p * scale
    return OddsResult(
        win_probability=win,
        expected_assaults=assaults,
        stamina_distribution=dict(sorted((k, v) for k, v in stamina.items() if v)),
        luck_distribution=dict(sorted((k, v) for k, v in lucks.items() if v))
        if luck is not None
        else {},
        states=visited + 1,
        end_states={k: v * scale for k, v in sorted(shown.items()) if v},
    )
