"""The reliques fight DP's inner turn as plain floats (see :mod:`dedale.rules.odds_reliques_dp`).

Once a blow has changed the turn start's state, the turn can no longer come back to it
(resources only fall): the value of every in-turn state from there is a plain chance, with
no share of the turn start's own value and, outside the forward pass, no kernel. These
methods compute that chance with the very steps of ``_run``/``_blow``/``_strike``/``_hit``
in the same order of sums (the results are the same floats, bit for bit), without building
the ``(a, b, kernel)`` triples: the validator's DP is 3-4x faster (issue 14.11,
docs/performance.md). The rules of the turn are read from the same tables (``_test``,
``fighters``, ``_hero_malus``) as the general path.
"""

from __future__ import annotations

from dedale.rules.fight_reliques import MAX_STRIKES_BACK

_MISS, _HIT, _CRIT, _CF = 0, 1, 2, 3  # attack outcome kinds (as odds_reliques_dp)


class FloatTurn:
    """Mixed into ``_ReliquesDP``: the float path of a turn after its state changed."""

    def _f_run(self, ctx: tuple, seq: tuple, left: tuple, st: tuple) -> float:
        """``_run`` for a changed state outside the forward pass (a chance)."""
        es = st[3]
        target = ctx[0]
        able = tuple([
            s for s in seq
            if left[s] > 0 and es[(s or target + 1) - 1][0] > 0
        ])  # fmt: skip
        if not able:  # the turn is over: ``_end`` (never back to the turn's own start)
            if st[0] <= 0:
                return 0.0
            if ctx[2]:  # escaped alive
                return 1.0
            t = ctx[1]
            if t is not None:
                t = min(t + 1, self.turn_cap)
            nxt = (*st, t)
            found = self.values.get(nxt)
            return self.value(nxt) if found is None else found
        key = (ctx[4], able, left, st)
        found = self.fast.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if not self.nodes & 4095 or self.nodes > self.max_nodes:
            self.nodes -= 1
            self._count()
        side = able[0]
        spent = list(left)
        spent[side] -= 1
        defender = target + 1 if side == 0 else 0
        result = self._f_blow(ctx, (*able[1:], side), tuple(spent), st, side, defender)
        self.fast[key] = result
        return result

    def _f_blow(self, ctx, seq, left, st, attacker: int, defender: int) -> float:
        """``_blow`` as a chance (the same terms summed in the same order)."""
        fighter = self.fighters[attacker]
        bonus = self.bonus + self._hero_malus(st[0]) if attacker == 0 else 0
        kinds, hits, crits = self._attack(fighter.attack, bonus)
        can_defend = left[defender] > 0
        if can_defend:
            spent = list(left)
            spent[defender] -= 1
            spent = tuple(spent)
            malus = self._hero_malus(st[0]) if defender == 0 else 0
            defences = [self._test(duo, malus) for duo in self.fighters[defender].defences]
            avoided = None
            strikes: list = [None] * len(defences)
        run = self._f_run
        total = 0.0
        weapon = fighter.weapon
        if can_defend:  # the blows that land (``_hit``), all at once
            on_spent = self._f_lands(ctx, seq, spent, st, defender, weapon, hits)
            on_left = self._f_lands(ctx, seq, left, st, defender, weapon, crits)
        else:
            on_left = self._f_lands(ctx, seq, left, st, defender, weapon, hits + crits)
        for kind, margin, p_kind in kinds:
            if kind == _CF:  # a critical failure ends the attacker's actions this turn
                ended = list(left)
                ended[attacker] = 0
                total += p_kind * run(ctx, seq, tuple(ended), st)
            elif kind == _MISS:
                total += p_kind * run(ctx, seq, left, st)
            elif kind == _HIT and can_defend:
                landed = on_spent[margin]
                best = None
                for index, (_, (p_crit, crit_margin), avoids) in enumerate(defences):
                    avoid = avoids[margin] if margin < 14 else 0.0
                    value = 0.0 + (1.0 - avoid - p_crit) * landed
                    if avoid:
                        if avoided is None:
                            avoided = run(ctx, seq, spent, st)
                        value += avoid * avoided
                    if p_crit:
                        if strikes[index] is None:
                            strikes[index] = self._f_strike(
                                ctx, seq, spent, st, defender, attacker, crit_margin, 0
                            )
                        value += p_crit * strikes[index]
                    if best is None or value > best:
                        best = value
                total += p_kind * best
            else:  # a critical success, or no action left to defend with
                total += p_kind * on_left[margin]
        return total

    def _f_lands(self, ctx, seq, left, st, defender: int, weapon: int, margins) -> dict:
        """``margin -> chance`` after a blow of ``weapon + margin`` lands on ``defender``
        (``_hit`` for each margin; the weapon does damage). The fighters able to act after
        the blow are those able before (a blow that fells its enemy leaves one state,
        computed once); the states already computed are read at once."""
        found: dict[int, float] = {}
        if not margins:
            return found
        hh, hp, c, es = st
        target, fast, values, run = ctx[0], self.fast, self.values, self._f_run
        able = tuple([
            s for s in seq
            if left[s] > 0 and es[(s or target + 1) - 1][0] > 0
        ])  # fmt: skip
        head = (ctx[4], able, left)
        t = ctx[1]
        if t is not None:
            t = min(t + 1, self.turn_cap)
        if defender == 0:
            spent: dict[int, float] = {}  # the heroism point's state, by protection left
            for margin in margins:
                damage = weapon + margin
                protection, absorbed = hp, min(hp, damage)
                if absorbed > 0:
                    protection -= 1
                    damage -= absorbed
                if damage >= hh:
                    taken = 0.0
                else:
                    nxt = (hh - damage, protection, c, es)
                    if not able:
                        taken = 1.0 if ctx[2] else values.get((*nxt, t))
                    else:
                        taken = fast.get((*head, nxt))
                    if taken is None:
                        taken = run(ctx, seq, left, nxt)
                if damage > 0 and c > 0 and damage <= hh:  # the heroism point, as offered
                    kept = spent.get(protection)
                    if kept is None:
                        kept = spent[protection] = run(ctx, seq, left, (hh, protection, c - 1, es))
                    if kept >= taken:
                        taken = kept
                found[margin] = taken
            return found
        eh, ep = es[defender - 1]
        felled = None
        for margin in margins:
            damage = weapon + margin
            if damage >= eh + ep and felled is not None:
                found[margin] = felled
                continue
            protection, absorbed = ep, min(ep, damage)
            if absorbed > 0:
                protection -= 1
                damage -= absorbed
            enemies = list(es)
            enemies[defender - 1] = (max(0, eh - damage), protection)
            nxt = (hh, hp, c, tuple(enemies))
            value = None
            if damage < eh:  # the same fighters can act
                if not able:
                    value = 1.0 if ctx[2] else values.get((*nxt, t))
                else:
                    value = fast.get((*head, nxt))
            if value is None:
                value = run(ctx, seq, left, nxt)
            if damage >= eh:
                felled = value
            found[margin] = value
        return found

    def _f_strike(self, ctx, seq, left, st, striker, target, margin, depth) -> float:
        """``_strike`` as a chance."""
        damage = self.fighters[striker].weapon + margin
        if depth >= MAX_STRIKES_BACK or left[target] <= 0:
            return self._f_hit(ctx, seq, left, st, target, damage)
        spent = list(left)
        spent[target] -= 1
        spent = tuple(spent)
        malus = self._hero_malus(st[0]) if target == 0 else 0
        best = None
        for duo in self.fighters[target].defences:
            p_crit, crit_margin = self._test(duo, malus)[1]
            value = 0.0 + (1.0 - p_crit) * self._f_hit(ctx, seq, spent, st, target, damage)
            if p_crit:
                value += p_crit * self._f_strike(
                    ctx, seq, spent, st, target, striker, crit_margin, depth + 1
                )
            if best is None or value > best:
                best = value
        return best

    def _f_hit(self, ctx, seq, left, st, defender: int, damage: int) -> float:
        """``_hit`` as a chance."""
        hh, hp, c, es = st
        if defender == 0:
            absorbed = min(hp, damage)
            if absorbed > 0:
                hp -= 1
                damage -= absorbed
            if damage >= hh:
                taken = 0.0
            else:
                taken = self._f_run(ctx, seq, left, (hh - damage, hp, c, es))
            if damage > 0 and c > 0 and damage <= hh:  # the heroism point, as offered
                spent = self._f_run(ctx, seq, left, (hh, hp, c - 1, es))
                return taken if taken > spent else spent
            return taken
        eh, ep = es[defender - 1]
        absorbed = min(ep, damage)
        if absorbed > 0:
            ep -= 1
            damage -= absorbed
        enemies = list(es)
        enemies[defender - 1] = (max(0, eh - damage), ep)
        return self._f_run(ctx, seq, left, (hh, hp, c, tuple(enemies)))


def margins(kinds: tuple) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The margins of an attack's plain hits and of its critical success."""
    hits = tuple(m for k, m, _ in kinds if k == _HIT)
    return hits, tuple(m for k, m, _ in kinds if k == _CRIT)
