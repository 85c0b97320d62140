"""One forward pass of the exact fight DP from a whole distribution of starting states.

The rules core's :class:`~dedale.rules.odds_forward.Forward` pushes probability mass from
one start state; the pass is linear in the mass, so seeding it with every (STAMINA, LUCK)
of a distribution, each with its weight, gives at once the mixture of the joint end states
a win leaves — the same figures as one ``solve`` per state, summed, for one pass over the
fight's grids. Only the seeding differs (:class:`_Seeded`); the pass is the core's.
"""

from __future__ import annotations

from itertools import repeat

from dedale.i18n import tr
from dedale.rules.odds_forward import Forward


class _Recorder(Forward):
    """Forward.run from one start, its flows into the regular grids (and the wins before
    them) kept as a list instead of added: the same list whatever the weight."""

    def __init__(self, table) -> None:  # no grids: nothing is added here
        self.table = table
        self.assaults = 0.0
        self.visited = 0
        self.flows: list[tuple[int, int, int, int, float]] = []

    def add(self, index: int, luck: int, h: int, e: int, flow: float) -> None:
        self.flows.append((index, luck, h, e, flow))

    def _run_regular(self) -> None:
        pass


class _Seeded(Forward):
    """Forward with several weighted starts: the regular grids are run once, at the end.

    Speed (the same figures, bit for bit: every flow is the same product, added in the same
    order): each start's flows before the regular grids are computed once per table and
    replayed with their weight (:class:`_Recorder`), and the regular grids' pass skips the
    empty rows and adds within a row or a column in place (:meth:`Forward.add` for the
    rest); ``stamina``, ``lucks``
    and ``assaults``, which :func:`mixed_ends` does not read, are not kept."""

    weight = 1.0
    deferred = True

    def __init__(self, table, top_h: int | None = None, top_luck: int | None = None) -> None:
        """``top_h``, ``top_luck``: the highest STAMINA and LUCK of the starts (neither ever
        rises in a fight): the grids stop there (None: the table's)."""
        self.table = table
        self.assaults = 0.0
        self.stamina: dict[int, float] = {}
        self.lucks: dict[int, float] = {}
        self.ends: dict[tuple[int, int], float] = {}
        self.visited = 0
        rows = table.stamina_max if top_h is None else min(top_h, table.stamina_max)
        lucks = table.luck_max if top_luck is None else min(top_luck, table.luck_max)
        self.mass = [
            [[*map(list.copy, repeat([0.0] * (stamina + 1), rows + 1))] for _ in range(lucks + 1)]
            for _, stamina, _ in table.enemies
        ]

    def add(self, index: int, luck: int, h: int, e: int, flow: float) -> None:
        super().add(index, luck, h, e, flow * self.weight)

    def run(self, start: tuple) -> None:
        table = self.table
        cache = table.__dict__.setdefault("_seeded_flows", {})
        flows = cache.get(start)
        if flows is None:
            recorder = _Recorder(table)
            Forward.run(recorder, start)
            flows = cache[start] = recorder.flows
        # Forward.add of each flow times the weight, inline (the ends only: see the class)
        weight, mass, ends = self.weight, self.mass, self.ends
        enemies = table.enemies
        count = len(enemies)
        for index, luck, h, e, flow in flows:
            flow = flow * weight
            if h <= 0 or not flow:
                continue
            if e <= 0:
                index += 1
                if index >= count:
                    ends[h, luck] = ends.get((h, luck), 0.0) + flow
                    continue
                e = enemies[index][1]
            mass[index][luck][h][e] += flow

    def _run_regular(self) -> None:
        if self.deferred:
            return
        table = self.table
        hit, hurt = table.hit, table.hurt
        hd, ud = hit[0], hurt[0]
        cost = table.luck_cost
        add = super().add  # the weight is 1 here: flow * 1.0 is flow
        ends, enemies = self.ends, table.enemies
        for index, grid in enumerate(self.mass):
            # a flow that kills the enemy goes to the next one's grid, or to the ends
            # (Forward.add inline, the ends only: see the class)
            after = index + 1 < len(enemies)
            next_grid = self.mass[index + 1] if after else None
            fresh = enemies[index + 1][1] if after else 0
            params = table.params[index]
            pk, ph, pe, pt = params.p_kill, params.p_hero, params.p_enemy, params.p_tie
            choices = table.choices[index]
            stay = pt + (0.0 if hd else ph) + (0.0 if ud else pe)
            denominator = 1.0 - stay
            for luck in range(len(grid) - 1, -1, -1):
                q = table.p_lucky(luck)
                low = max(0, luck - cost)
                rows = grid[luck]
                picks = choices[luck]
                for h in range(len(rows) - 1, 0, -1):
                    row = rows[h]
                    if not any(row):  # no mass here (every flow into it came before)
                        continue
                    pick = picks[h]
                    below = rows[h - ud] if ud and h > ud else None
                    for e in range(len(row) - 1, 0, -1):
                        m = row[e]
                        if not m:
                            continue
                        flag = pick[e]
                        visits = m / denominator
                        if pk:
                            flow = visits * pk
                            if flow:
                                if next_grid is not None:
                                    next_grid[luck][h][fresh] += flow
                                else:
                                    ends[h, luck] = ends.get((h, luck), 0.0) + flow
                        if hd:
                            if flag & 1:
                                add(index, low, h, e - hit[1], visits * ph * q)
                                add(index, low, h, e - hit[2], visits * ph * (1 - q))
                            elif e > hd:
                                flow = visits * ph
                                if flow:
                                    row[e - hd] += flow
                            else:
                                flow = visits * ph
                                if flow:
                                    if next_grid is not None:
                                        next_grid[luck][h][fresh] += flow
                                    else:
                                        ends[h, luck] = ends.get((h, luck), 0.0) + flow
                        if ud:
                            if flag & 2:
                                add(index, low, h - hurt[1], e, visits * pe * q)
                                add(index, low, h - hurt[2], e, visits * pe * (1 - q))
                            elif below is not None:
                                flow = visits * pe
                                if flow:
                                    below[e] += flow


def mixed_ends(table, starts: dict[tuple[int, int], float], has_luck: bool):
    """The (STAMINA, LUCK) → chance alive after winning the fight of ``table`` from the
    weighted ``starts`` (STAMINA, LUCK) (not normalised: the masses sum to the chance of
    winning). Without a Luck policy the LUCK a state starts with is the one it ends with."""
    out: dict[tuple[int, int], float] = {}
    if not starts:
        return out
    if not hasattr(table, "_start"):  # a fight at once (odds_group): one solve per start
        return _solved_ends(table, starts, has_luck)
    groups: dict[int | None, dict[int, float]] = {}
    for (h, luck), p in starts.items():
        if h > 0 and p > 0:
            key = luck if not table.use_luck else None
            group = groups.setdefault(key, {})
            group[(h, luck)] = group.get((h, luck), 0.0) + p
    for kept, group in groups.items():
        top_h = max(h for h, _ in group)
        top_l = max(luck for _, luck in group)
        table._start(top_h, top_l if has_luck else None, table.enemies[0][1])  # fill grids
        forward = _Seeded(table, top_h, max(0, top_l) if has_luck and table.use_luck else 0)
        first = table.enemies[0][1]
        for (h, luck), p in group.items():
            forward.weight = p
            forward.run(table._start(h, luck if has_luck else None, first))
        forward.weight = 1.0
        forward.deferred = False
        forward._run_regular()
        for (h, luck), p in forward.ends.items():
            end = (h, kept) if kept is not None else (h, luck if has_luck else 0)
            out[end] = out.get(end, 0.0) + p
    return out


def one_start(table, hero_stamina: int, luck: int | None) -> tuple[float, dict]:
    """``OddsTable.solve``'s ``win_probability`` and ``end_states`` from one start, the same
    figures bit for bit, by the fast seeded pass (no expected assaults, no marginals)."""
    from dedale.rules.odds import _at_luck

    start = table._start(hero_stamina, luck, table.enemies[0][1])
    win = table.state_value(start)
    forward = _Seeded(table, hero_stamina, start[1])
    forward.run(start)
    forward.deferred = False
    forward._run_regular()
    ends = forward.ends
    if luck is None:
        ends = _at_luck(ends, 0)
    elif not table.use_luck:
        ends = _at_luck(ends, luck)
    scale = 1.0 / win if win > 0 else 0.0
    return win, {k: v * scale for k, v in sorted(ends.items()) if v}


GROUP_STARTS = 8
"""A fight at once is solved from at most this many distinct (STAMINA, LUCK) starts (each
a forward pass of its own); past it the step is estimated (the path's ``≈`` says why)."""


def _solved_ends(table, starts: dict[tuple[int, int], float], has_luck: bool):
    """:func:`mixed_ends` for a table with no seeded pass (the fight at once of
    :mod:`dedale.rules.odds_group`): each start solved (once per table), its end states
    weighted; more than :data:`GROUP_STARTS` starts raise GameError."""
    from dedale.errors import GameError

    out: dict[tuple[int, int], float] = {}
    solved = table.__dict__.setdefault("_solved_starts", {})
    fresh = {key for key, p in starts.items() if key[0] > 0 and p > 0} - solved.keys()
    if len(solved) + len(fresh) > GROUP_STARTS:
        raise GameError(tr("too many starting states for the exact odds of a fight at once"))
    for (h, luck), p in starts.items():
        if h <= 0 or p <= 0:
            continue
        result = solved.get((h, luck))
        if result is None:
            result = solved[h, luck] = table.solve(h, luck if has_luck else None)
        for (end_h, end_luck), q in result.end_states.items():
            end = (end_h, end_luck if has_luck else 0)
            out[end] = out.get(end, 0.0) + p * result.win_probability * q
    return out
