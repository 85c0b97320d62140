"""The value of one state of a fight at once, computed from its successors' (a part of
:class:`dedale.rules.odds_group.GroupTable`, the scalar fill's inner loop): without Luck
through the joint law of the target's outcome and the number of other enemies' blows, with
the best Luck a maximum at each choice, knowing the hero's roll and the blows so far (Luck
tested only where it gains: :func:`dedale.rules.odds.luck_gains`, the one tie rule)."""

from __future__ import annotations

from dedale.rules.odds import luck_gains


class GroupValues:
    """The state values of :class:`~dedale.rules.odds_group.GroupTable` (a mixin)."""

    def _store(self, state: tuple) -> float:
        """Compute and keep the value of ``state`` (its successors are known)."""
        value = self._fast_value(state)
        self.values[state] = value
        return value

    def _fast_value(self, state: tuple) -> float:
        """The value of a state, as :meth:`moves` gives it, without building the
        distributions (the fill's inner loop)."""
        h, luck, es, first, hit = state
        if not self.use_luck:
            return self._plain_value(state)
        alive = [i for i, e in enumerate(es) if e > 0]
        if self.best:
            seen: set = set()
            choices = []
            for i in alive:
                key = (self.enemies[i][0], self.enemies[i][2], es[i])
                if key not in seen:
                    seen.add(key)
                    choices.append(i)
        else:
            choices = alive[:1]
        guarded = first and self.armour
        base = self.base
        to_enemy = base.to_enemy + (0 if hit else self.first_hit_bonus)
        wounding = base.fight.luck_wounding
        luck_hit = self.use_luck and wounding is not None and luck > 0 and to_enemy > 0
        hurt = base.hurt
        luck_hurt = len(hurt) == 3 and luck > 0 and hurt[0] > 0
        low = max(0, luck - self.cost)
        q = self._p_lucky(luck) if luck_hit or luck_hurt else 0.0
        if luck_hit:
            lucky_d = max(0, to_enemy + wounding.lucky - base.fight.damage_to_enemy)
            unlucky_d = max(0, to_enemy + wounding.unlucky - base.fight.damage_to_enemy)
        sides_value = self._sides_value
        normal = self._normal
        best = 0.0
        for t in choices:
            e = es[t]
            immune = self.enemies[t][2]
            killed = es[:t] + (0,) + es[t + 1 :]
            struck = es[:t] + (max(0, e - to_enemy),) + es[t + 1 :]
            if luck_hit:
                struck_lucky = es[:t] + (max(0, e - lucky_d),) + es[t + 1 :]
                struck_unlucky = es[:t] + (max(0, e - unlucky_d),) + es[t + 1 :]
            sides = [j for j in alive if j != t]
            total = stay = 0.0
            for p_roll, p_double, per_enemy in self.rolls:
                side_p = tuple(per_enemy[j][2] for j in sides) if not guarded else ()
                below, equal, above = per_enemy[t]
                plain = p_roll
                if p_double and not immune:
                    plain -= p_double
                    v, s = sides_value(h, luck, killed, hit, side_p, state)
                    total += p_double * v
                    stay += p_double * s
                if plain <= 0:
                    continue
                if below:
                    v, s = sides_value(h, luck, struck, True, side_p, state)
                    if luck_hit:
                        with_luck = (
                            q * sides_value(h, low, struck_lucky, True, side_p, state)[0]
                            + (1 - q) * sides_value(h, low, struck_unlucky, True, side_p, state)[0]
                        )
                        if luck_gains(with_luck, v):
                            v, s = with_luck, 0.0
                    total += plain * below * v
                    stay += plain * below * s
                if equal:
                    v, s = sides_value(h, luck, es, hit, side_p, state)
                    total += plain * equal * v
                    stay += plain * equal * s
                if above:
                    if guarded:
                        v, s = sides_value(h, luck, es, hit, side_p, state)
                    else:
                        v, s = sides_value(h - hurt[0], luck, es, hit, side_p, state)
                        if luck_hurt:
                            with_luck = (
                                q * sides_value(h - hurt[1], low, es, hit, side_p, state)[0]
                                + (1 - q) * sides_value(h - hurt[2], low, es, hit, side_p, state)[0]
                            )
                            if luck_gains(with_luck, v):
                                v, s = with_luck, 0.0
                    total += plain * above * v
                    stay += plain * above * s
            win = 0.0 if stay >= 1.0 - 1e-15 else total / (1.0 - stay)
            if win > best:
                best = win
        del normal
        return min(best, 1.0)

    def _joint(self, t: int, sides: tuple[int, ...], guarded: bool) -> list[tuple[int, int, float]]:
        """Without Luck: the chances of (target outcome, number of other enemies that
        wound the hero) summed over the hero's rolls. Outcomes: 0 instant kill, 1 the hero
        wounds the target, 2 a tie (or a wound the armour stops), 3 the target wounds him."""
        key = (t, sides, guarded)
        found = self._joints.get(key)
        if found is not None:
            return found
        joint: dict[tuple[int, int], float] = {}
        immune = self.enemies[t][2]
        for p_roll, p_double, per_enemy in self.rolls:
            counts = [1.0]
            if not guarded:
                for j in sides:
                    p = per_enemy[j][2]
                    grown = [0.0] * (len(counts) + 1)
                    for c, w in enumerate(counts):
                        grown[c] += w * (1 - p)
                        grown[c + 1] += w * p
                    counts = grown
            below, equal, above = per_enemy[t]
            plain = p_roll
            parts = []
            if p_double and not immune:
                plain -= p_double
                parts.append((0, p_double))
            parts += [(1, plain * below), (2, plain * equal), (2 if guarded else 3, plain * above)]
            for kind, chance in parts:
                if chance <= 0:
                    continue
                for c, w in enumerate(counts):
                    if w > 0:
                        joint[kind, c] = joint.get((kind, c), 0.0) + chance * w
        found = self._joints[key] = [(k, c, p) for (k, c), p in joint.items()]
        return found

    def _plain_value(self, state: tuple) -> float:
        """The value of a state without Luck (no choice but the target)."""
        h, luck, es, first, hit = state
        alive = [i for i, e in enumerate(es) if e > 0]
        choices = self._choices(es, alive)
        guarded = first and self.armour
        to_enemy = self.base.to_enemy + (0 if hit else self.first_hit_bonus)
        to_hero = self.base.hurt[0]
        side = self.side[0]
        normal, value = self._normal, self.value
        best = 0.0
        for t in choices:
            e = es[t]
            after = (
                es[:t] + (0,) + es[t + 1 :],
                es[:t] + (max(0, e - to_enemy),) + es[t + 1 :],
                es,
                es,
            )
            total = stay = 0.0
            for kind, c, p in self._joint(t, tuple(j for j in alive if j != t), guarded):
                h1 = h - c * side - (to_hero if kind == 3 else 0)
                if h1 <= 0:
                    continue
                nxt = normal(h1, luck, after[kind], False, True if kind == 1 else hit)
                if nxt == state:
                    stay += p
                else:
                    total += p * value(nxt)
            win = 0.0 if stay >= 1.0 - 1e-15 else total / (1.0 - stay)
            if win > best:
                best = win
        return min(best, 1.0)

    def _choices(self, es: tuple, alive: list[int]) -> list[int]:
        """The targets worth trying: the first living enemy (``order``), or one of each
        kind of living enemy and STAMINA (``best``)."""
        if not self.best:
            return alive[:1]
        seen: set = set()
        choices = []
        for i in alive:
            key = (self.enemies[i][0], self.enemies[i][2], es[i])
            if key not in seen:
                seen.add(key)
                choices.append(i)
        return choices

    def _sides_value(self, h, luck, es, hit, side_p, state) -> tuple[float, float]:
        """(value, chance of being back in ``state``) after the other enemies' attacks
        (``side_p``: the chance each one beats the hero; empty when the armour guards)."""
        if h <= 0:
            return 0.0, 0.0
        _, _, es, _, hit = self._normal(h, luck, es, False, hit)
        if not any(es):
            return 1.0, 0.0
        if not side_p or self.side[0] <= 0:
            final = (h, luck, es, False, hit)
            if final == state:
                return 0.0, 1.0
            return self.values[final], 0.0
        key = (h, luck, es, hit, side_p)
        found = self._side_memo.get(key)
        if found is not None and state[2] != es:
            return found
        values = self.values
        side = self.side
        with_luck = len(side) == 3
        cost = self.cost
        p_lucky = self._p_lucky
        last = len(side_p)

        def walk(h: int, luck: int, m: int) -> float:
            if h <= 0:
                return 0.0
            if m == last:
                return values[h, luck, es, False, hit]
            p = side_p[m]
            v = (1 - p) * walk(h, luck, m + 1) if p < 1.0 else 0.0
            if p > 0.0:
                hv = walk(h - side[0], luck, m + 1)
                if with_luck and luck > 0:
                    c = p_lucky(luck)
                    low = max(0, luck - cost)
                    lucky = c * walk(h - side[1], low, m + 1)
                    lucky += (1 - c) * walk(h - side[2], low, m + 1)
                    if luck_gains(lucky, hv):
                        hv = lucky
                v += p * hv
            return v

        if state[2] == es and state[0] == h and state[1] == luck:
            # back to the same state only when every other enemy misses (no wound)
            stay = 1.0
            for p in side_p:
                stay *= 1 - p
            p0 = side_p[0]
            rest = self._sides_value(h, luck, es, hit, side_p[1:], state) if p0 < 1.0 else (0, 0)
            hv = walk(h - side[0], luck, 1) if p0 > 0 else 0.0
            if p0 > 0 and with_luck and luck > 0:
                c = p_lucky(luck)
                low = max(0, luck - cost)
                lucky = c * walk(h - side[1], low, 1) + (1 - c) * walk(h - side[2], low, 1)
                if luck_gains(lucky, hv):
                    hv = lucky
            return (1 - p0) * rest[0] + p0 * hv, stay
        result = (walk(h, luck, 0), 0.0)
        if len(self._side_memo) > 1_000_000:
            self._side_memo.clear()
        self._side_memo[key] = result
        return result
