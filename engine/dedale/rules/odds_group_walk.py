"""One assault of a fight at once against one target, for many states at a time.

:class:`Walker` holds the rows of states (hero STAMINA ``h``, LUCK, the enemies' STAMINA)
that attack target ``t`` this assault, and the hero's rolls merged where the other
enemies strike alike (columns). ``value`` gives the chance to win from each row (the
array fill, :mod:`dedale.rules.odds_group_fast`); ``flow`` sends each row's probability
mass to the states the assault leads to, with the same Luck choices (the forward pass,
:mod:`dedale.rules.odds_group_flow`): Luck is tested where it gains
(:func:`dedale.rules.odds.luck_gains`, the one tie rule), in the values as in the flow. A
point is named by a key (which enemies' STAMINA: ``es``, ``kill``, ``struck``, ``lucky``,
``unlucky``; STAMINA lost; Luck tests made), so that the walks shared by several outcomes
are computed once.
"""

from __future__ import annotations

import numpy as np

from dedale.rules.odds import luck_gains

BARRED = -4.0
"""Added to an option that cannot be taken (no Luck left): never the maximum."""


class Walker:
    """The assault against target ``t`` from the rows ``h, luck, es, off`` (layer ``hit``)."""

    def __init__(self, fill, t: int, h, luck, es, off, hit: int) -> None:
        self.f = fill
        self.t, self.h, self.luck, self.es, self.off, self.hit = t, h, luck, es, off, hit
        n = fill.n
        self.sides = [j for j in range(n) if j != t] if fill.side[0] > 0 else []
        self.weights, chances = fill._columns(t, self.sides)
        self.p_side = [
            (es[j] > 0)[:, None] * c[None, :] for j, c in zip(self.sides, chances, strict=True)
        ]
        self.last = len(self.sides) - 1
        self.side_luck = len(fill.side) == 3 and fill.luck
        self.barred = np.where(luck > 0, 0.0, BARRED)[:, None]
        self.q = fill.q[luck][:, None]
        self.memo: dict = {}
        self.lines: dict = {}
        e = es[t]
        stride = fill.s_e[t]
        d = fill.to_enemy + (0 if hit else fill.bonus)
        self.variants = {
            "es": off,
            "kill": off - e * stride,
            "struck": off - np.minimum(e, d) * stride,
        }
        self.luck_hit = fill.wounding is not None and fill.luck and d > 0
        if self.luck_hit:
            wounding = fill.wounding
            lucky_d = max(0, d + wounding.lucky - fill.shift)
            unlucky_d = max(0, d + wounding.unlucky - fill.shift)
            self.variants["lucky"] = off - np.minimum(e, lucky_d) * stride
            self.variants["unlucky"] = off - np.minimum(e, unlucky_d) * stride

    # ------------------------------------------------------------------ points

    def _layer(self, name: str) -> int:
        return self.hit if name in ("es", "kill") else 1

    def _luck_at(self, dl: int):
        return np.maximum(self.luck - dl * self.f.cost, 0) if dl else self.luck

    def index(self, key):
        name, dh, dl = key
        f = self.f
        return (
            self._layer(name) * f.s_hit + np.maximum(self.h - dh, 0) * f.s_h
            + self._luck_at(dl) * f.s_l + self.variants[name]
        )  # fmt: skip

    def _blow_keys(self, key):
        name, dh, dl = key
        side = self.f.side
        if len(side) < 3:
            return (name, dh + side[0], dl), None, None
        return (
            (name, dh + side[0], dl),
            (name, dh + side[1], dl + 1),
            (name, dh + side[2], dl + 1),
        )

    def _barred(self, dl: int):
        if dl == 0:
            return self.barred
        return np.where(self._luck_at(dl) > 0, 0.0, BARRED)[:, None]

    def _q(self, dl: int):
        return self.q if dl == 0 else self.f.q[self._luck_at(dl)][:, None]

    def line(self, key):
        """V + p_last (G - V) at a point: the value before the last other enemy's blow."""
        found = self.lines.get(key)
        if found is None:
            at = self.index(key)
            v = self.f.flat[at]
            found = v[:, None] + self.p_side[self.last] * (self.f.flat_g[at] - v)[:, None]
            self.lines[key] = found
        return found

    def walk(self, m: int, key):
        """The value after the other enemies' blows from the ``m``-th on: (rows, columns)."""
        found = self.memo.get((m, key))
        if found is not None:
            return found
        last = self.last
        if m > last:  # no other enemy left to strike
            result = self.f.flat[self.index(key)][:, None]
        elif m == last:
            result = self.line(key)
        else:
            miss, blow = self._options(m, key)
            result = miss + self.p_side[m] * (blow - miss)
        self.memo[m, key] = result
        return result

    def _options(self, m: int, key, with_lucky: bool = False):
        """(the value if the ``m``-th enemy misses, the best value if it strikes), and
        with ``with_lucky`` the Luck option's value apart."""
        sub = self.line if m == self.last - 1 else (lambda k: self.walk(m + 1, k))
        taken, one, two = self._blow_keys(key)
        miss, blow = sub(key), sub(taken)
        lucky = None
        if self.side_luck:
            a, b = sub(one), sub(two)
            lucky = b + self._q(key[2]) * (a - b) + self._barred(key[2])
            best = np.where(luck_gains(lucky, blow), lucky, blow)
        else:
            best = blow
        if with_lucky:
            return miss, blow, lucky
        return miss, best

    # ------------------------------------------------------------------ the target

    def outcomes(self):
        """Per outcome of the target's duel: (weights, [(share, key)...] options), the
        option chosen per (row, column) being the better one."""
        w_kill, w_wound, w_tie, w_hurt = self.weights
        hurt = self.f.hurt
        found = [(w_tie, [("es", 0, 0)], None)]
        if w_kill.any():
            found.append((w_kill, [("kill", 0, 0)], None))
        found.append((w_wound, [("struck", 0, 0)], ("lucky", "unlucky") if self.luck_hit else None))
        luck_hurt = len(hurt) == 3 and self.f.luck
        found.append((w_hurt, [("es", hurt[0], 0)], hurt if luck_hurt else None))
        return found

    def _luck_keys(self, luck):
        if isinstance(luck[0], str):
            return (luck[0], 0, 1), (luck[1], 0, 1)
        return ("es", luck[1], 1), ("es", luck[2], 1)

    def stay(self):
        """The chance the assault leaves each row as it is (a tie every other enemy misses)."""
        w_tie = self.weights[2]
        missed = np.ones((self.h.size, w_tie.size))
        for p in self.p_side:
            missed *= 1 - p
        return (w_tie[None, :] * missed).sum(axis=1)

    def value(self):
        """The chance to win from each row when it attacks ``t`` this assault."""
        total = 0.0
        for weights, (key,), luck in self.outcomes():
            v = self.walk(0, key)
            if luck is not None:
                one, two = self._luck_keys(luck)
                a, b = self.walk(0, one), self.walk(0, two)
                lucky = b + self.q * (a - b) + self.barred
                v = np.where(luck_gains(lucky, v), lucky, v)
            total = total + weights[None, :] * v
        stay = self.stay()
        total = total.sum(axis=1)
        safe = stay < 1.0 - 1e-15
        return np.where(safe, total / np.where(safe, 1.0 - stay, 1.0), 0.0), stay

    # ------------------------------------------------------------------ the flow

    def flow(self, visits, add) -> None:
        """Send ``visits`` (per row: the expected number of assaults there) along the
        assault's outcomes: ``add(index, mass)`` for each state reached (the row itself
        excepted: its share is the stay, already folded into ``visits``)."""
        for weights, (key,), luck in self.outcomes():
            mass = visits[:, None] * weights[None, :]
            if luck is None:
                self._flow(0, key, mass, add)
                continue
            v = self.walk(0, key)
            one, two = self._luck_keys(luck)
            a, b = self.walk(0, one), self.walk(0, two)
            test = luck_gains(b + self.q * (a - b) + self.barred, v)
            self._flow(0, key, np.where(test, 0.0, mass), add)
            self._flow(0, one, np.where(test, mass * self.q, 0.0), add)
            self._flow(0, two, np.where(test, mass * (1 - self.q), 0.0), add)

    def _flow(self, m: int, key, mass, add) -> None:
        if not mass.any():
            return
        last = self.last
        if m > last:
            if key != ("es", 0, 0):  # (the row itself: the stay)
                add(self.index(key), mass.sum(axis=1))
            return
        p = self.p_side[m]
        self._flow(m + 1, key, mass * (1 - p), add)
        struck = mass * p
        if m == last:  # the last blow: the choice is the same for every column
            self._flow_blow(key, struck.sum(axis=1), add)
            return
        taken, one, two = self._blow_keys(key)
        if not self.side_luck:
            self._flow(m + 1, taken, struck, add)
            return
        _, blow, lucky = self._options(m, key, with_lucky=True)
        test = luck_gains(lucky, blow)
        q = self._q(key[2])
        self._flow(m + 1, taken, np.where(test, 0.0, struck), add)
        self._flow(m + 1, one, np.where(test, struck * q, 0.0), add)
        self._flow(m + 1, two, np.where(test, struck * (1 - q), 0.0), add)

    def _flow_blow(self, key, mass, add) -> None:
        """The last other enemy's blow from ``key``, with G's choice (per row)."""
        taken, one, two = self._blow_keys(key)
        at_taken = self.index(taken)
        if not self.side_luck:
            add(at_taken, mass)
            return
        flat = self.f.flat
        q = self._q(key[2])[:, 0]
        at_one, at_two = self.index(one), self.index(two)
        lucky = flat[at_two] + q * (flat[at_one] - flat[at_two]) + self._barred(key[2])[:, 0]
        test = luck_gains(lucky, flat[at_taken])
        add(at_taken, np.where(test, 0.0, mass))
        add(at_one, np.where(test, mass * q, 0.0))
        add(at_two, np.where(test, mass * (1 - q), 0.0))
