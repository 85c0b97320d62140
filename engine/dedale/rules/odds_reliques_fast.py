"""The reliques fight DP's inner turn as plain floats (see :mod:`dedale.rules.odds_reliques_dp`).

Once a blow has changed the turn start's state, the turn can no longer come back to it
(resources only fall): the value of every in-turn state from there is a plain chance, with
no share of the turn start's own value and, outside the forward pass, no kernel. These
methods compute that chance with the very steps of ``_run``/``_blow``/``_strike``/``_hit``
in the same order of sums (the results are the same floats, bit for bit), without building
the ``(a, b, kernel)`` triples: the validator's DP is 3-4x faster (issue 14.11,
docs/performance.md). The rules of the turn are read from the same tables and steps
(:mod:`dedale.rules.odds_reliques_rules`) as the general path.
"""

from __future__ import annotations

from dedale.rules.fight_reliques import MAX_STRIKES_BACK
from dedale.rules.odds_reliques_rules import _CF, _HIT, _MISS, acting, landed, spend


class FloatTurn:
    """Mixed into ``_ReliquesDP``: the float path of a turn after its state changed."""

    def _f_run(self, ctx: tuple, seq: tuple, left: tuple, st: tuple) -> float:
        """``_run`` for a changed state outside the forward pass (a chance)."""
        able = acting(seq, left, st[3], ctx[0])
        if not able:  # the turn is over: ``_end`` (never back to the turn's own start)
            if st[0] <= 0:
                return 0.0
            if ctx[2]:  # escaped alive
                return 1.0
            nxt = (*st, self._next_turn(ctx, st))
            found = self.values.get(nxt)
            return self.value(nxt) if found is None else found
        key = (ctx[4], able, left, st)
        found = self.fast.get(key)
        if found is not None:
            return found
        self._tick()
        side = able[0]
        defender = ctx[0] + 1 if side == 0 else 0
        result = self._f_blow(ctx, (*able[1:], side), spend(left, side), st, side, defender)
        self.fast[key] = result
        return result

    def _f_blow(self, ctx, seq, left, st, attacker: int, defender: int) -> float:
        """``_blow`` as a chance (the same terms summed in the same order)."""
        kinds, can_defend, spent, defences, on_spent, on_left = self._blow_tables(
            ctx, seq, left, st, attacker, defender
        )
        if can_defend:
            avoided = None
            strikes: list = [None] * len(defences)
        run = self._f_run
        total = 0.0
        for kind, margin, p_kind in kinds:
            if kind == _CF:  # a critical failure ends the attacker's actions this turn
                total += p_kind * run(ctx, seq, _ended(left, attacker), st)
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
                        strike = strikes[index]
                        if strike is None:
                            strike = strikes[index] = self._f_strike(
                                ctx, seq, spent, st, defender, attacker, crit_margin, 0
                            )
                        value += p_crit * strike
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
        run = self._f_run
        able = acting(seq, left, es, ctx[0])
        if able:  # the same fighters act on (the blow's target standing): the same memo
            read, c4 = self.fast.get, ctx[4]
        elif ctx[2]:  # the escape's blow, survived
            read = c4 = None
        elif self.needed is not None:  # the turns won depend on the blow: _f_run's end
            read, t = _unknown, None
        else:  # the turn is over: the next turn start's value
            read, t = self.values.get, self._next_turn(ctx, st)
        if defender == 0:
            spent: dict[int, float] = {}  # the heroism point's state, by protection left
            for margin in margins:
                damage = weapon + margin
                protection = hp
                if hp and damage:  # the protection absorbs and wears
                    protection -= 1
                    damage -= hp if hp < damage else damage
                if damage >= hh:
                    taken = 0.0
                else:
                    nxt = (hh - damage, protection, c, es)
                    if read is None:
                        taken = 1.0
                    else:
                        taken = read((c4, able, left, nxt) if able else (*nxt, t))
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
        before, after = es[: defender - 1], es[defender:]
        felled = None
        for margin in margins:
            damage = weapon + margin
            if felled is not None and damage >= eh + ep:
                found[margin] = felled
                continue
            protection = ep
            if ep and damage:  # the protection absorbs and wears
                protection -= 1
                damage -= ep if ep < damage else damage
            if damage < eh:  # the enemy stands: the same fighters can act
                nxt = (hh, hp, c, (*before, (eh - damage, protection), *after))
                if read is None:
                    value = 1.0
                else:
                    value = read((c4, able, left, nxt) if able else (*nxt, t))
                    if value is None:
                        value = run(ctx, seq, left, nxt)
            else:
                nxt = (hh, hp, c, (*before, (0, protection), *after))
                value = felled = run(ctx, seq, left, nxt)
            found[margin] = value
        return found

    def _p_blow(self, ctx, seq, left, st, attacker: int, defender: int) -> tuple:
        """``_blow`` from the turn start's own state, outside the forward pass, every
        fighter armed: ``(a, b, None)`` summed as ``_mix`` sums them (the blows that land
        and the strikes back change the state: chances; the misses keep it: pairs)."""
        kinds, can_defend, spent, defences, on_spent, on_left = self._blow_tables(
            ctx, seq, left, st, attacker, defender
        )
        if can_defend:
            avoided = None
            strikes: list = [None] * len(defences)
        run = self._run
        a = b = 0.0
        for kind, margin, p_kind in kinds:
            if kind == _CF:  # a critical failure ends the attacker's actions this turn
                ta, tb, _ = run(ctx, seq, _ended(left, attacker), st)
                a += p_kind * ta
                b += p_kind * tb
            elif kind == _MISS:
                ta, tb, _ = run(ctx, seq, left, st)
                a += p_kind * ta
                b += p_kind * tb
            elif kind == _HIT and can_defend:
                landed = on_spent[margin]
                options = []
                for index, (_, (p_crit, crit_margin), avoids) in enumerate(defences):
                    avoid = avoids[margin] if margin < 14 else 0.0
                    q = 1.0 - avoid - p_crit
                    oa, ob = 0.0 + q * landed, 0.0 + q * 0.0
                    if avoid:
                        if avoided is None:
                            avoided = run(ctx, seq, spent, st)
                        oa += avoid * avoided[0]
                        ob += avoid * avoided[1]
                    if p_crit:
                        if strikes[index] is None:
                            strikes[index] = self._f_strike(
                                ctx, seq, spent, st, defender, attacker, crit_margin, 0
                            )
                        oa += p_crit * strikes[index]
                        ob += p_crit * 0.0
                    options.append((oa, ob))
                ta, tb = options[0] if len(options) == 1 else self._best(options)
                a += p_kind * ta
                b += p_kind * tb
            else:  # a critical success, or no action left to defend with
                a += p_kind * on_left[margin]
                b += p_kind * 0.0
        return a, b, None

    def _blow_tables(self, ctx, seq, left, st, attacker: int, defender: int) -> tuple:
        """What ``_f_blow`` and ``_p_blow`` both read first: ``(kinds, can_defend, spent,
        defences, on_spent, on_left)``, the attack's outcomes, whether the defender has an
        action left (``spent`` its actions once it defends, ``defences`` its tests), and the
        chances after the blows that land (``_f_lands``) with and without that action."""
        fighter = self.fighters[attacker]
        bonus = self.bonus + self.malus[st[0]] if attacker == 0 else 0  # alive: in range
        kinds, hits, crits = self._attack(fighter.attack, bonus)
        weapon = fighter.weapon
        if left[defender] > 0:
            spent = spend(left, defender)
            defences = self._defences(defender, self.malus[st[0]] if defender == 0 else 0)
            on_spent = self._f_lands(ctx, seq, spent, st, defender, weapon, hits)
            on_left = self._f_lands(ctx, seq, left, st, defender, weapon, crits)
            return kinds, True, spent, defences, on_spent, on_left
        on_left = self._f_lands(ctx, seq, left, st, defender, weapon, hits + crits)
        return kinds, False, left, (), None, on_left

    def _f_strike(self, ctx, seq, left, st, striker, target, margin, depth) -> float:
        """``_strike`` as a chance."""
        damage = self.fighters[striker].weapon + margin
        if depth >= MAX_STRIKES_BACK or left[target] <= 0:
            return self._f_hit(ctx, seq, left, st, target, damage)
        spent = spend(left, target)
        malus = self.malus[st[0]] if target == 0 else 0
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
        after, heroism = landed(st, defender, damage)
        taken = 0.0 if after is None else self._f_run(ctx, seq, left, after)
        if heroism is not None:  # the heroism point, as offered
            spent = self._f_run(ctx, seq, left, heroism)
            return taken if taken > spent else spent
        return taken


def _ended(left: tuple, attacker: int) -> tuple:
    """The actions left once a critical failure has ended the attacker's turn."""
    ended = list(left)
    ended[attacker] = 0
    return tuple(ended)


def _unknown(_key: tuple) -> None:
    """A memo that knows nothing (the value is computed by ``_f_run``)."""
    return None
