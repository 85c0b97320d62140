"""The best-Luck values of a fight at once with exits, filled with array operations.

The same values as :class:`dedale.rules.odds_group_exits.GroupExitSolver` (its scalar
recursion stays the reference, and the path for everything this fill does not take), for
the fights whose ways out act before an assault or on the hero's STAMINA alone: an assault
limit, an escape, a STAMINA threshold (no event, exit on a condition, table, rule under an
enemy, assaults won, first-hit bonus). A state is (assault number, hero STAMINA, LUCK,
every enemy's STAMINA), a cell of a dense table:

- the cells the fight can reach are found first, forward, with boolean arrays (every move
  any choice may take: a superset of the states the scalar recursion visits);
- then the values, backward: an assault moves from assault ``k`` to ``k + 1`` (up to the
  last number told apart), so all the reached cells of one assault number are computed at
  once from the next; past the last number (an escape without a limit) an assault that
  changes something lowers ``STAMINA + LUCK + the enemies' STAMINA``, so the cells of one
  such sum are computed at once, an assault that changes nothing folded in exactly
  (``rest / (1 - stay)``), as the scalar code does.

Each cell weighs the hero's rolls as the scalar code does (an array axis): the target's
wound is worth the better of testing Luck or not knowing the roll, each other enemy's
blow, in the enemies' order, the better of the two knowing the roll and the blows before
(Luck tested where it gains: :func:`dedale.rules.odds.luck_gains`, the one tie rule);
the target is the best one (or the first standing, ``order``), the escape taken when it is
worth more. Rolls that every enemy meets alike are merged.

The work is bounded before it starts by a count, not by time: :data:`ARRAY_CELLS` cells
of the dense table and :data:`ARRAY_WORK` units (reached cells x targets x merged rolls x
the other enemies' blows), so whether a fight is exact does not depend on the machine; the
CPU time (the solver's ``seconds``) is looked at after each block as a safety net only.
"""

from __future__ import annotations

import time

from dedale.rules.odds import luck_gains

try:
    import numpy as np
except ImportError:  # pragma: no cover - the ``odds`` extra is not installed
    np = None

ARRAY_CELLS = 4_000_000
"""The dense table (assault numbers x STAMINA x LUCK x the enemies' STAMINA) at most."""
ARRAY_WORK = 100_000_000
"""Reached cells x targets x merged rolls x 4^(other enemies) at most (counted before the
fill starts; measured 15-25 ns of CPU a unit, about 2 s at most: docs/performance.md)."""
CHUNK = 16_384
"""Cells computed together at most (a block is cut in chunks: its cells are independent),
so that the per-roll arrays stay small (rolls x cells x 8 bytes, a few tens held at once)."""
KILL = None
"""The target's STAMINA change of an instant kill (its STAMINA set to 0)."""


def eligible(solver) -> bool:
    """Whether the fight takes the array fill (numpy, the best Luck, the plain dice, no
    hook after an assault but the threshold, every move that is not nothing lowering the
    sum of STAMINA and LUCK)."""
    plan = solver.plan
    if np is None or not solver.use_luck or solver.track_hit:
        return False
    if plan.events or plan.first_won or plan.exits or plan.table or plan.late_exits:
        return False
    if plan.doomed or solver.per_blow:  # a way out to a death ending, a potion between blows
        return False
    if plan.win_assaults is not None or plan.attacks or plan.damages or plan.wound_rolls:
        return False
    if any(skill <= 0 for skill, _h, _i in plan.enemies):
        return False
    return solver.to_enemy > 0 and solver.to_hero > 0 and solver.side > 0 and solver.luck_cost > 0


class TooMuchWork(Exception):
    """The fill's count passes its bound (``bound``: ``cells`` or ``work``)."""

    def __init__(self, bound: str) -> None:
        super().__init__(bound)
        self.bound = bound


def _down(a, axis: int, d: int):
    """``a`` with each index along ``axis`` lowered by ``d`` (clamped at 0), OR-ed."""
    if d <= 0:
        return a
    a = np.moveaxis(a, axis, 0)
    r = np.zeros_like(a)
    n = a.shape[0]
    if d < n:
        r[: n - d] = a[d:]
    r[0] |= a[: min(d + 1, n)].any(0)
    return np.moveaxis(r, 0, axis)


class ArrayFill:
    """The fill of one fight for one hero (see the module docstring)."""

    def __init__(self, solver, stamina: int, luck: int) -> None:
        s = self.solver = solver
        fight, plan = s.fight, s.plan
        self.n = len(plan.enemies)
        self.limit = plan.limit
        self.K = s.k_cap if plan.limit is None else min(s.k_cap, plan.limit)
        self.E = tuple(h for _, h, _ in plan.enemies)
        self.H, self.L = stamina, luck
        self.shape = (self.K + 1, stamina + 1, luck + 1, *(e + 1 for e in self.E))
        cells = 1
        for size in self.shape:
            cells *= size
        if cells > ARRAY_CELLS:
            raise TooMuchWork("cells")
        strides, step = [], 1
        for size in reversed(self.shape):
            strides.append(step)
            step *= size
        self.st = tuple(reversed(strides))
        self.thr = plan.threshold
        self.q = np.array(s.lucky)
        cost = s.luck_cost

        def lucky(base: int, table, plain: int) -> tuple | None:
            if table is None:
                return None
            return (max(0, base + table.lucky - plain), max(0, base + table.unlucky - plain))

        self.cost = cost
        self.hit = (s.to_enemy, lucky(s.to_enemy, fight.luck_wounding, fight.damage_to_enemy))
        self.hurt = (s.to_hero, lucky(s.to_hero, fight.luck_wounded, fight.damage_to_hero))
        self.blow = (s.side, lucky(s.side, fight.luck_wounded, fight.damage_to_hero))
        esc = fight.escape_damage
        self.escape = (esc, lucky(esc, fight.luck_wounded, fight.damage_to_hero)
                       if fight.escape_luck else None)  # fmt: skip
        self.tables = [self._rolls(t) for t in range(self.n)]
        self.V = np.zeros(cells)

    # ------------------------------------------------------------------ the rolls

    def _rolls(self, t: int):
        """Per merged roll of the hero against target ``t``: weights ``p`` and the chances
        of each target outcome and of each other enemy's blow landing (arrays)."""
        s = self.solver
        skills = [skill for skill, _h, _i in s.plan.enemies]
        sides = [j for j in range(self.n) if j != t]
        lead = s.skill - skills[t]
        gaps = tuple(s.skill - skills[j] for j in sides)
        merged: dict[tuple, float] = {}
        for p, _double, outcomes, chances in s._per_roll(lead, gaps, s.plan.enemies[t][2]):
            o = dict.fromkeys(("hero", "tie", "enemy", "kill"), 0.0)
            for q, winner in outcomes:
                o[winner] += q
            key = tuple(round(x, 15) for x in (*o.values(), *chances))
            merged[key] = merged.get(key, 0.0) + p
        keys = list(merged)
        rows = np.array(keys).reshape(len(keys), -1)
        return np.array([merged[k] for k in keys]), rows[:, :4], rows[:, 4:].T, sides

    # ------------------------------------------------------------------ reach

    def _step(self, live, guarded: bool):
        """The cells one assault may lead to from ``live`` (any choice, a superset)."""
        out = np.zeros_like(live)
        hax, lax = 0, 1
        c = self.cost
        for t in range(self.n):
            eax = 2 + t
            src = live & self._alive(t, live.shape)
            if not src.any():
                continue
            moves = [src]  # a tie
            d, luck = self.hit
            moves.append(_down(src, eax, d))
            if luck:
                moves += [_down(_down(src, lax, c), eax, x) for x in luck]
            if not guarded:
                d, luck = self.hurt
                moves.append(_down(src, hax, d))
                if luck:
                    moves += [_down(_down(src, lax, c), hax, x) for x in luck]
            if self.solver.fight.instant_kill_on_double and not self.solver.plan.enemies[t][2]:
                killed = np.zeros_like(src)
                index = [slice(None)] * src.ndim
                index[eax] = 0
                killed[tuple(index)] = src.any(eax)
                moves.append(killed)
            cur = moves[0]
            for m in moves[1:]:
                cur = cur | m
            if not guarded:
                for _j in range(self.n - 1):
                    d, luck = self.blow
                    grown = cur | _down(cur, hax, d)
                    if luck:
                        for x in luck:
                            grown |= _down(_down(cur, lax, c), hax, x)
                    cur = grown
            out |= cur
        return out

    def _alive(self, t: int, shape):
        e = np.arange(self.E[t] + 1) > 0
        view = [1] * len(shape)
        view[2 + t] = self.E[t] + 1
        return e.reshape(view)

    def _live(self, shape):
        """Cells that are states: the hero alive above the threshold, an enemy standing."""
        h = np.arange(self.H + 1)
        ok_h = (h > 0) if self.thr is None else (h > max(0, self.thr))
        live = np.broadcast_to(ok_h.reshape([-1] + [1] * (len(shape) - 1)), shape).copy()
        anyone = np.zeros(shape, dtype=bool)
        for t in range(self.n):
            anyone |= np.broadcast_to(self._alive(t, shape), shape)
        return live & anyone

    def reach(self, start: tuple) -> list:
        """Per assault number, the reached cells that are states (boolean arrays)."""
        grid = self.shape[1:]
        live = self._live(grid)
        layers = []
        cur = np.zeros(grid, dtype=bool)
        cur[start] = True
        armour = self.solver.armour
        for k in range(self.K + 1):
            if self.limit is not None and k >= self.limit:
                layers.append(np.zeros(grid, dtype=bool))
                continue
            cur = cur & live
            if k == self.K:  # the last number: an escape without a limit, its closure
                for _ in range(sum(grid) + 1):
                    grown = cur | (self._step(cur, armour and k == 0) & live)
                    if (grown == cur).all():
                        break
                    cur = grown
            layers.append(cur)
            cur = self._step(cur, armour and k == 0)
        return layers

    # ------------------------------------------------------------------ values

    def run(self, start: tuple, seconds: float, clock: float) -> float:
        """The value of ``start`` (hero STAMINA, LUCK, enemies' STAMINA) at assault 0."""
        layers = self.reach(start)
        blocks = []
        for k in range(self.K, -1, -1):
            cells = np.flatnonzero(layers[k])
            if not cells.size:
                continue
            if k < self.K or self.limit is not None:
                blocks.append((k, cells))
                continue
            coords = np.unravel_index(cells, layers[k].shape)
            level = coords[0] + coords[1] + sum(coords[2:])
            order = np.argsort(level, kind="stable")
            cells, level = cells[order], level[order]
            cuts = np.flatnonzero(np.diff(level)) + 1
            blocks += [(k, part) for part in np.split(cells, cuts)]
        work = 0
        for _k, cells in blocks:
            work += cells.size * sum(len(t[0]) for t in self.tables) * 4 ** (self.n - 1)
        if work > ARRAY_WORK:
            raise TooMuchWork("work")
        self.work = work
        self.blocks = blocks  # in the fill's order (the forward pass reverses it)
        self.cells = sum(cells.size for _k, cells in blocks)
        for k, cells in blocks:
            for at in range(0, cells.size, CHUNK):
                self._block(k, cells[at : at + CHUNK])
            if time.process_time() - clock > seconds:
                raise TooMuchWork("seconds")
        at = np.ravel_multi_index((0, *start), self.shape)
        return float(self.V[at])

    def _block(self, k: int, cells) -> None:
        s = self.solver
        grid_index = np.unravel_index(cells, self.shape[1:])
        b = _Block(self, k, grid_index)
        best = np.full(cells.size, -1.0)
        chosen = np.zeros(cells.size, dtype=bool)
        for t in range(self.n):
            alive = b.e[t] > 0
            if not alive.any():
                continue
            value = b.assault(t)
            if s.best:
                best = np.where(alive, np.maximum(best, value), best)
            else:  # the first enemy standing
                best = np.where(alive & ~chosen, value, best)
                chosen |= alive
        plan = s.plan
        if plan.escape_after is not None and k >= plan.escape_after:
            best = np.maximum(best, b.escape())
        self.V[b.idx] = np.minimum(1.0, best)


class _Block:
    """The cells of one block and their moves' values (cached per block and target)."""

    def __init__(self, fill: ArrayFill, k: int, grid_index) -> None:
        self.f = fill
        self.k = k
        self.h, self.l = grid_index[0], grid_index[1]
        self.e = grid_index[2:]
        st = fill.st
        self.idx = k * st[0] + self.h * st[1] + self.l * st[2]
        for t, e in enumerate(self.e):
            self.idx = self.idx + e * st[3 + t]
        self.k2 = min(k + 1, fill.K)
        self.base = self.idx + (self.k2 - k) * st[0]
        self.guarded = fill.solver.armour and k == 0
        self.q_cache: dict[int, object] = {}

    def q(self, dl: int):
        found = self.q_cache.get(dl)
        if found is None:
            lk = np.maximum(self.l + dl, 0)
            found = self.q_cache[dl] = self.f.q[np.minimum(lk, len(self.f.q) - 1)]
        return found

    def after(self, t: int, dh: int, dl: int, de) -> object:
        """The value once the assault's blows have landed (death, a win, the threshold,
        the limit, else the next state's value)."""
        f = self.f
        key = (dh, dl, de)
        found = self.cache.get(key)
        if found is not None:
            return found
        h2 = self.h + dh
        dead = h2 <= 0
        e_t = self.e[t]
        e2 = np.zeros_like(e_t) if de is KILL else np.maximum(e_t + de, 0)
        if f.limit is not None and self.k2 >= f.limit:
            value = np.ones(h2.shape)
        else:
            l2 = np.maximum(self.l + dl, 0)
            at = self.base + dh * f.st[1] + (l2 - self.l) * f.st[2] + (e2 - e_t) * f.st[3 + t]
            value = f.V[np.where(dead, 0, at)]
            value = np.where((e2 == 0) & self.others_dead, 1.0, value)
            if f.thr is not None:
                value = np.where(h2 <= f.thr, 1.0, value)
        value = np.where(dead, 0.0, value)
        self.cache[key] = value
        return value

    def sides(self, t: int, m: int, dh: int, dl: int, de) -> object:
        """The value from the ``m``-th other enemy's blow on (per roll: rows)."""
        key = (m, dh, dl, de)
        found = self.side_cache.get(key)
        if found is not None:
            return found
        if m == len(self.others):
            found = self.after(t, dh, dl, de)
        else:
            j, chance = self.others[m]
            miss = self.sides(t, m + 1, dh, dl, de)
            d, luck = self.f.blow
            hit = self.sides(t, m + 1, dh - d, dl, de)
            if luck is not None:
                c, q = self.f.cost, self.q(dl)
                lucky = self.sides(t, m + 1, dh - luck[0], dl - c, de)
                unlucky = self.sides(t, m + 1, dh - luck[1], dl - c, de)
                tested = q * lucky + (1 - q) * unlucky
                hit = np.where((self.l + dl > 0) & luck_gains(tested, hit), tested, hit)
            land = chance[:, None] * (self.e[j] > 0)  # rows: merged rolls
            found = miss + land * (hit - miss)
        self.side_cache[key] = found
        return found

    def wound(self, t: int, kind: tuple, on_hero: bool) -> object:
        """A wound of the target's side: the better of testing Luck or not (per roll)."""
        d, luck = kind

        def at(dd: int, dl: int):
            if on_hero:
                return self.sides(t, 0, -dd, dl, 0)
            return self.sides(t, 0, 0, dl, -dd)

        plain = at(d, 0)
        if luck is None:
            return plain
        q = self.q(0)
        tested = q * at(luck[0], -self.f.cost) + (1 - q) * at(luck[1], -self.f.cost)
        return np.where((self.l > 0) & luck_gains(tested, plain), tested, plain)

    def assault(self, t: int):
        """The value of an assault against ``t`` (an unchanged state folded in)."""
        f = self.f
        p, outcomes, chances, sides = f.tables[t]
        self.cache, self.side_cache = {}, {}
        self.others = [] if self.guarded else list(zip(sides, chances, strict=True))
        others = [j for j in range(f.n) if j != t]
        self.others_dead = np.ones(self.h.shape, dtype=bool)
        for j in others:
            self.others_dead &= self.e[j] == 0
        tie = self.sides(t, 0, 0, 0, 0)
        parts = [(outcomes[:, 1], tie)]
        parts.append((outcomes[:, 0], self.wound(t, f.hit, on_hero=False)))
        hurt = tie if self.guarded else self.wound(t, f.hurt, on_hero=True)
        parts.append((outcomes[:, 2], hurt))
        if outcomes[:, 3].any():
            parts.append((outcomes[:, 3], self.sides(t, 0, 0, 0, KILL)))
        rest = np.zeros(self.h.shape)
        for chance, value in parts:
            weight = p * chance
            rest = rest + (weight @ value if value.ndim == 2 else weight.sum() * value)
        if self.k2 != self.k or (f.limit is not None and self.k2 >= f.limit):
            return np.minimum(1.0, rest)
        # the last assault number: a tie every other enemy misses leaves the cell as it is
        # (its value read as 0 above, the block not yet stored): folded in exactly
        missed = np.ones((p.size, self.h.size))
        for j, chance in self.others:
            missed = missed * (1 - chance[:, None] * (self.e[j] > 0))
        stay = (p * outcomes[:, 1]) @ missed
        safe = stay < 1.0 - 1e-12
        return np.where(safe, np.minimum(1.0, rest / np.where(safe, 1 - stay, 1.0)), 0.0)

    def escape(self):
        """Escaping now: its wound, Luck on it when it helps."""
        d, luck = self.f.escape
        plain = (self.h > d).astype(float)
        if luck is None:
            return plain
        q = self.q(0)
        tested = q * (self.h > luck[0]) + (1 - q) * (self.h > luck[1])
        return np.where((self.l > 0) & luck_gains(tested, plain), tested, plain)


def array_value(solver, stamina: int, luck: int) -> float:
    """The best-Luck chance to leave the fight alive by the array fill (``solver``: a
    :class:`~dedale.rules.odds_group_exits.GroupExitSolver` that :func:`eligible` takes);
    past the counts or the time: its :class:`GroupExitsTooLarge`, saying which."""
    from dedale.rules.odds_group import check_group_size

    if solver.plan.limit is None:  # the fight may go on until every STAMINA has run out
        check_group_size(stamina, 0, solver.plan.enemies)
    clock = time.process_time()
    plain = _plain_value(solver, stamina)
    if plain is not None and plain >= 1.0 - 1e-12:  # a sure way out without Luck: nothing
        return plain  # to gain (best Luck is a maximum over choices that include no test)
    fill, value = run_fill(solver, stamina, luck, clock)
    solver.filled = fill  # its counts (cells, work), for the benchmark and the tests
    return value if plain is None else max(value, plain)


def run_fill(solver, stamina: int, luck: int, clock: float) -> tuple[ArrayFill, float]:
    """The fill from (``stamina``, ``luck``) and the start's value; past the counts or the
    time (from ``clock``): the solver's :class:`GroupExitsTooLarge`, saying which."""
    from dedale.i18n import number, tr

    start = (stamina, luck, *(h for _, h, _ in solver.plan.enemies))
    try:
        fill = ArrayFill(solver, stamina, luck)
        return fill, fill.run(start, solver.seconds, clock)
    except TooMuchWork as error:
        size = solver._past("size")
        if error.bound == "seconds":
            reason = tr(
                "best Luck estimated: {size} pass the exact budget ({seconds} seconds of CPU)",
                size=size, seconds=format(solver.seconds, "g"),
            )  # fmt: skip
        else:
            reason = tr(
                "best Luck estimated: {size} pass the exact budget (more than {limit} "
                "units of work counted)",
                size=size, limit=number(ARRAY_WORK if error.bound == "work" else ARRAY_CELLS, ","),
            )  # fmt: skip
        raise solver._too_large(reason) from None


def _plain_value(solver, stamina: int) -> float | None:
    """The chance without Luck (the scalar recursion: tens to hundreds of times cheaper than
    the best Luck), or None past its own budget."""
    from dedale.rules.odds_inputs import OddsTooLarge

    plain = solver._plain_solver()
    try:
        return plain.solve(stamina, 0)
    except OddsTooLarge:
        return None
