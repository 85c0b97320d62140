"""The forward pass of the array fill: how the hero leaves a fight at once with exits.

:mod:`dedale.rules.odds_group_exits_array` fills the best-Luck values of a fight at once
(an assault limit, an escape, a STAMINA threshold) cell by cell with array operations; the
path of fights and the solver need more than the start's value: by which way the hero
leaves, with which STAMINA and LUCK, jointly. This module pushes the probability mass from
the start through the fill's own choices, block by block in the reverse of the fill's order
(assault 0 first; past the last assault number told apart, the cells of the highest sum of
STAMINA, LUCK and the enemies' STAMINA first), each block's cells at once:

- the target: the first enemy standing unless another one's value is better by more than
  :data:`TIE` (``order``: the first standing), the escape when it is sure or better by more
  than :data:`TIE` (fighting on, otherwise: the rule of the path's scalar choices);
- per merged roll of the hero and cell, the target's wound tested for Luck where testing
  gains (:func:`dedale.rules.odds.luck_gains`, the one tie rule: the fill's own choice),
  then each other enemy's blow, in the enemies' order,
  likewise knowing the roll and the blows before (the fill's own values, read back from its
  per-block caches);
- the blows landed: a death, a win, the threshold, the assault limit, else the next cell;
  an assault that changes nothing is folded in (the cell's mass scaled by
  ``1 / (1 - stay)``, its own move dropped), as the fill folds it in its values.

The result is :class:`~dedale.rules.odds_group_exits_forward.GroupExitOutcomes` (``won``,
``limit``, ``escaped``, ``lost`` and ``ways``: ``won``, ``limit``, ``threshold``,
``escaped``); its total mass out alive is the fill's value (to rounding: the tests match it
to 1e-12) and, on the fights the state-by-state pass also takes, its distribution. Bounded
by the fill's own counts and the solver's CPU seconds (checked after each block).
"""

from __future__ import annotations

import time

from dedale.rules.odds import luck_gains
from dedale.rules.odds_group_exits_array import KILL, TooMuchWork, _Block, np, run_fill

CHUNK = 4_096
"""Cells pushed together at most (a quarter of the fill's: the values of every branch of an
assault are held at once, per merged roll)."""
TIE = 1e-12
"""Targets or an escape whose values are closer than this are equal: the first target, no
escape are kept (each such choice loses less than this much of the chance). Luck has its
own rule (``luck_gains``)."""


def array_outcomes(solver, stamina: int, luck: int):
    """The joint ends of the fight from (``stamina``, ``luck``) by the array fill's choices
    (``solver``: a :class:`~dedale.rules.odds_group_exits.GroupExitSolver` that
    :func:`~dedale.rules.odds_group_exits_array.eligible` takes); past the fill's counts or
    the solver's CPU seconds: its :class:`GroupExitsTooLarge`."""
    from dedale.rules.odds_group import check_group_size
    from dedale.rules.odds_group_exits_forward import GroupExitOutcomes

    if solver.plan.limit is None:  # the fight may go on until every STAMINA has run out
        check_group_size(stamina, 0, solver.plan.enemies)
    clock = time.process_time()
    fill, value = run_fill(solver, stamina, luck, clock)
    solver.filled = fill  # its counts (cells, work), for the benchmark and the tests
    push = _Forward(fill)
    try:
        push.run((stamina, luck, *fill.E), solver.seconds, clock)
    except TooMuchWork as error:
        from dedale.i18n import tr

        raise solver._too_large(
            tr("best Luck estimated: {size} pass the exact budget ({seconds} seconds of CPU)",
               size=solver._past("size"), seconds=format(solver.seconds, "g"))
        ) from error  # fmt: skip
    finally:  # the setting keeps its solver for the other starts: not the tables
        fill.V = fill.blocks = push.mass = None
    found = GroupExitOutcomes(value=value, lost=push.lost, states=push.states)
    for way, table in push.ends.items():
        hs, ls = np.nonzero(table)
        cells = {(int(h), int(lk)): float(table[h, lk]) for h, lk in zip(hs, ls, strict=True)}
        found.ways[way] = cells
        kind = found.won if way == "won" else found.escaped if way == "escaped" else found.limit
        for key, p in cells.items():
            kind[key] = kind.get(key, 0.0) + p
    return found


class _Forward:
    """The mass of every cell of one fill, pushed block by block (see the module docstring)."""

    def __init__(self, fill) -> None:
        self.fill = fill
        self.mass = np.zeros(fill.V.size)
        self.ends: dict[str, object] = {}
        self.lost = 0.0
        self.states = 0

    def end(self, way: str, h, lk, mass) -> None:
        """Mass leaving by ``way`` with STAMINA ``h`` and LUCK ``lk`` (arrays)."""
        table = self.ends.get(way)
        if table is None:
            table = self.ends[way] = np.zeros((self.fill.H + 1, self.fill.L + 1))
        np.add.at(table, (h, lk), mass)

    def run(self, start: tuple, seconds: float, clock: float) -> None:
        fill = self.fill
        grid = fill.shape[1:]
        plane = fill.st[0]
        self.mass[np.ravel_multi_index((0, *start), fill.shape)] = 1.0
        for k, cells in reversed(fill.blocks):
            held = self.mass[k * plane + cells]
            cells = cells[held > 0]
            self.states += cells.size
            for at in range(0, cells.size, CHUNK):
                part = cells[at : at + CHUNK]
                _Push(self, k, np.unravel_index(part, grid)).push()
            if time.process_time() - clock > seconds:
                raise TooMuchWork("seconds")


class _Push(_Block):
    """One block's cells: their choices (the fill's values) and their mass pushed on."""

    def __init__(self, forward: _Forward, k: int, grid_index) -> None:
        super().__init__(forward.fill, k, grid_index)
        self.fw = forward
        self.grid_index = grid_index
        self.m = forward.mass[self.idx]

    def _part(self, keep):
        """The block of the cells ``keep`` (a boolean array) only."""
        return _Push(self.fw, self.k, tuple(a[keep] for a in self.grid_index))

    def push(self) -> None:
        """The choices of the block's cells, and their mass pushed along them. Past the last
        assault number, the cells' own values are read as 0 while their assaults are valued,
        as the fill read them (an unchanged cell is folded in, not yet stored)."""
        kept = self.f.V[self.idx]
        if self.k2 == self.k and not (self.f.limit is not None and self.k2 >= self.f.limit):
            self.f.V[self.idx] = 0.0
        try:
            self._push()
        finally:
            self.f.V[self.idx] = kept

    def _push(self) -> None:
        f, s = self.f, self.f.solver
        target = np.full(self.h.size, -1)
        best = np.full(self.h.size, -1.0)
        for t in range(f.n):
            alive = self.e[t] > 0
            if not alive.any():
                continue
            if not s.best:  # the first enemy standing
                target = np.where(alive & (target < 0), t, target)
                continue
            value = self.assault(t)
            better = alive & ((target < 0) | (value > best + TIE))
            target = np.where(better, t, target)
            best = np.where(better, value, best)
        plan = s.plan
        if plan.escape_after is not None and self.k >= plan.escape_after:
            if not s.best:
                best = np.full(self.h.size, -1.0)
                for t in range(f.n):
                    on = target == t
                    if on.any():
                        best = np.where(on, self.assault(t), best)
            value, plain, use = self._escape_choice()
            away = (value >= 1.0 - TIE) | (value > np.minimum(1.0, best) + TIE)
            if away.any():
                self._part(away)._escape()
            target = np.where(away, -1, target)
        for t in range(f.n):
            on = target == t
            if on.any():
                (self if on.all() else self._part(on))._assault_push(t)

    # ------------------------------------------------------------------ the escape

    def _escape_choice(self):
        d, luck = self.f.escape
        plain = (self.h > d).astype(float)
        if luck is None:
            return plain, plain, np.zeros(self.h.size, dtype=bool)
        q = self.q(0)
        tested = q * (self.h > luck[0]) + (1 - q) * (self.h > luck[1])
        use = (self.l > 0) & luck_gains(tested, plain)
        return np.where(use, tested, plain), plain, use

    def _escape(self) -> None:
        fw, m = self.fw, self.m
        d, luck = self.f.escape
        _value, _plain, use = self._escape_choice()
        options = [(np.where(use, 0.0, m), d, 0)]
        if luck is not None:
            q = self.q(0)
            c = self.f.cost
            options += [(np.where(use, m * q, 0.0), luck[0], -c),
                        (np.where(use, m * (1 - q), 0.0), luck[1], -c)]  # fmt: skip
        for mass, wound, dl in options:
            h2 = self.h - wound
            out = h2 > 0
            fw.lost += float(mass[~out].sum())
            fw.end("escaped", h2[out], np.maximum(self.l + dl, 0)[out], mass[out])

    # ------------------------------------------------------------------ an assault

    def _assault_push(self, t: int) -> None:
        f, fw = self.f, self.fw
        p, outcomes, _chances, _sides = f.tables[t]
        self.assault(t)  # the values of every branch (the block's caches), others_dead
        m = self.m
        self.fold = self.k2 == self.k and not (f.limit is not None and self.k2 >= f.limit)
        if self.fold:  # an assault that changes nothing: folded in (the fill's own fold)
            missed = np.ones((p.size, self.h.size))
            for j, chance in self.others:
                missed = missed * (1 - chance[:, None] * (self.e[j] > 0))
            stay = (p * outcomes[:, 1]) @ missed
            safe = stay < 1.0 - 1e-12
            fw.lost += float(m[~safe].sum())  # nobody is ever wounded: never ends alive
            m = np.where(safe, m / np.where(safe, 1 - stay, 1.0), 0.0)
        w = p[:, None] * m[None, :]  # rows: the merged rolls
        level: dict[tuple, object] = {}
        _add(level, (0, 0, 0), w * outcomes[:, 1:2])
        self._wound_push(level, t, f.hit, False, w * outcomes[:, 0:1])
        if self.guarded:  # armour: the enemy's blow stops
            _add(level, (0, 0, 0), w * outcomes[:, 2:3])
        else:
            self._wound_push(level, t, f.hurt, True, w * outcomes[:, 2:3])
        if outcomes[:, 3].any():
            _add(level, (0, 0, KILL), w * outcomes[:, 3:4])
        for n, (j, chance) in enumerate(self.others):  # each other enemy's blow in turn
            land = chance[:, None] * (self.e[j] > 0)
            d, luck = f.blow
            following: dict[tuple, object] = {}
            for (dh, dl, de), weight in level.items():
                _add(following, (dh, dl, de), weight * (1 - land))
                hit = weight * land
                if luck is None:
                    _add(following, (dh - d, dl, de), hit)
                    continue
                plain = self.sides(t, n + 1, dh - d, dl, de)
                c, q = f.cost, self.q(dl)
                lucky = self.sides(t, n + 1, dh - luck[0], dl - c, de)
                unlucky = self.sides(t, n + 1, dh - luck[1], dl - c, de)
                use = (self.l + dl > 0) & luck_gains(q * lucky + (1 - q) * unlucky, plain)
                _add(following, (dh - d, dl, de), np.where(use, 0.0, hit))
                _add(following, (dh - luck[0], dl - c, de), np.where(use, hit * q, 0.0))
                _add(following, (dh - luck[1], dl - c, de), np.where(use, hit * (1 - q), 0.0))
            level = following
        for key, weight in level.items():
            self._land(t, key, weight.sum(0))

    def _wound_push(self, level: dict, t: int, kind: tuple, on_hero: bool, weight) -> None:
        """The target's side's wound: tested for Luck where it is worth more (per roll)."""
        d, luck = kind

        def key(dd: int, dl: int) -> tuple:
            return (-dd, dl, 0) if on_hero else (0, dl, -dd)

        if luck is None:
            _add(level, key(d, 0), weight)
            return
        c, q = self.f.cost, self.q(0)
        plain = self.sides(t, 0, *key(d, 0))
        tested = q * self.sides(t, 0, *key(luck[0], -c)) + (1 - q) * self.sides(
            t, 0, *key(luck[1], -c)
        )
        use = (self.l > 0) & luck_gains(tested, plain)
        _add(level, key(d, 0), np.where(use, 0.0, weight))
        _add(level, key(luck[0], -c), np.where(use, weight * q, 0.0))
        _add(level, key(luck[1], -c), np.where(use, weight * (1 - q), 0.0))

    def _land(self, t: int, key: tuple, mass) -> None:
        """The blows of the assault landed: death, a win, the threshold, the limit, else the
        next cell (the cell itself, folded in, dropped)."""
        f, fw = self.f, self.fw
        dh, dl, de = key
        h2 = self.h + dh
        e_t = self.e[t]
        e2 = np.zeros_like(e_t) if de is KILL else np.maximum(e_t + de, 0)
        l2 = np.maximum(self.l + dl, 0)
        dead = h2 <= 0
        fw.lost += float(mass[dead].sum())
        left = ~dead & (mass > 0)
        won = left & (e2 == 0) & self.others_dead
        if won.any():
            fw.end("won", h2[won], l2[won], mass[won])
        left &= ~won
        if f.thr is not None:
            low = left & (h2 <= f.thr)
            if low.any():
                fw.end("threshold", h2[low], l2[low], mass[low])
            left &= ~low
        if f.limit is not None and self.k2 >= f.limit:
            if left.any():
                fw.end("limit", h2[left], l2[left], mass[left])
            return
        at = self.base + dh * f.st[1] + (l2 - self.l) * f.st[2] + (e2 - e_t) * f.st[3 + t]
        if self.fold:
            left &= at != self.idx
        np.add.at(fw.mass, at[left], mass[left])


def _add(level: dict, key: tuple, weight) -> None:
    found = level.get(key)
    level[key] = weight if found is None else found + weight
