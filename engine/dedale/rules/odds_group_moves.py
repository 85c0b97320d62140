"""The distributions of one assault of a fight at once (a part of
:class:`dedale.rules.odds_group.GroupTable`): the states after an assault and their
chances under the chosen target and Luck policy, as the forward pass and the target
choice read them (the values themselves: :mod:`dedale.rules.odds_group_values`)."""

from __future__ import annotations

from dedale.rules.odds import luck_pick


class GroupMoves:
    """The moves of :class:`~dedale.rules.odds_group.GroupTable` (a mixin)."""

    def _branches(self, h, luck, es, first, hit, t, k):
        """The distribution of the states after one assault against target ``t`` with the
        hero's roll ``k``, the Luck choices made to maximise the value: {state: chance}."""
        p_roll, p_double, per_enemy = self.rolls[k]
        below, equal, above = per_enemy[t]
        enemies = self.enemies
        sides = [j for j, e in enumerate(es) if e > 0 and j != t]
        guarded = first and self.armour
        outcomes: list[tuple[float, list]] = []  # (chance, options: [[(p, h, luck, es, hit)]])
        plain = p_roll
        if p_double and not enemies[t][2]:
            plain -= p_double
            killed = es[:t] + (0,) + es[t + 1 :]
            outcomes.append((p_double, [[(1.0, h, luck, killed, hit)]]))
        if plain > 0:
            e = es[t]
            if below:
                d = self.base.to_enemy + (0 if hit else self.first_hit_bonus)
                hits = self.base.hit
                opts = [[(1.0, h, luck, es[:t] + (max(0, e - d),) + es[t + 1 :], True)]]
                if len(hits) == 3 and luck > 0 and d > 0 and self.base.fight.luck_wounding:
                    q = self._p_lucky(luck)
                    low = max(0, luck - self.cost)
                    table = self.base.fight.luck_wounding
                    shift = self.base.fight.damage_to_enemy
                    lucky = max(0, d + table.lucky - shift)
                    unlucky = max(0, d + table.unlucky - shift)
                    opts.append([
                        (q, h, low, es[:t] + (max(0, e - lucky),) + es[t + 1 :], True),
                        (1 - q, h, low, es[:t] + (max(0, e - unlucky),) + es[t + 1 :], True),
                    ])  # fmt: skip
                outcomes.append((plain * below, opts))
            if equal:
                outcomes.append((plain * equal, [[(1.0, h, luck, es, hit)]]))
            if above:
                if guarded:
                    outcomes.append((plain * above, [[(1.0, h, luck, es, hit)]]))
                else:
                    hurt = self.base.hurt
                    opts = [[(1.0, h - hurt[0], luck, es, hit)]]
                    if len(hurt) == 3 and luck > 0 and hurt[0] > 0:
                        q = self._p_lucky(luck)
                        low = max(0, luck - self.cost)
                        opts.append(
                            [(q, h - hurt[1], low, es, hit), (1 - q, h - hurt[2], low, es, hit)]
                        )
                    outcomes.append((plain * above, opts))
        result: dict[tuple, float] = {}
        side_p = [per_enemy[j][2] for j in sides]
        for chance, options in outcomes:
            dists = []
            for option in options:
                dist: dict[tuple, float] = {}
                for p, h1, l1, es1, hit1 in option:
                    for state, q in self._sides(h1, l1, es1, hit1, side_p, guarded).items():
                        dist[state] = dist.get(state, 0.0) + p * q
                dists.append(dist)
            for state, q in self._best(dists).items():
                result[state] = result.get(state, 0.0) + chance * q
        return result

    def _best(self, dists: list[dict[tuple, float]]) -> dict[tuple, float]:
        """The distribution of the option worth most (the reader's best Luck choice; option
        0: Luck not tested; ties: :func:`dedale.rules.odds.luck_pick`)."""
        if len(dists) == 1:
            return dists[0]
        value = self.value
        return dists[luck_pick([sum(q * value(s) for s, q in dist.items()) for dist in dists])]

    def _sides(self, h, luck, es, hit, side_p, guarded) -> dict[tuple, float]:
        """The other enemies' attacks, one after another: {final state: chance}."""
        if guarded or not side_p or h <= 0 or self.side[0] <= 0:
            return {self._normal(h, luck, es, False, hit): 1.0}
        p, rest = side_p[0], side_p[1:]
        out: dict[tuple, float] = {}
        if p < 1.0:
            for s, q in self._sides(h, luck, es, hit, rest, False).items():
                out[s] = out.get(s, 0.0) + (1 - p) * q
        if p > 0.0:
            options = [[(1.0, h - self.side[0], luck)]]
            if len(self.side) == 3 and luck > 0:
                q = self._p_lucky(luck)
                low = max(0, luck - self.cost)
                options.append([(q, h - self.side[1], low), (1 - q, h - self.side[2], low)])
            dists = []
            for option in options:
                dist: dict[tuple, float] = {}
                for w, h1, l1 in option:
                    for s, q in self._sides(h1, l1, es, hit, rest, False).items():
                        dist[s] = dist.get(s, 0.0) + w * q
                dists.append(dist)
            for s, q in self._best(dists).items():
                out[s] = out.get(s, 0.0) + p * q
        return out

    def moves(self, state: tuple) -> tuple[float, dict[tuple, float], int]:
        """(chance the assault leaves the state as it is, {next state: chance}, target)
        under the chosen target and Luck policy."""
        h, luck, es, first, hit = state
        alive = [i for i, e in enumerate(es) if e > 0]
        choices = alive if self.best else alive[:1]
        if self.best:  # one target per group of interchangeable enemies with equal STAMINA
            seen = set()
            unique = []
            for i in choices:
                key = (self.enemies[i][0], self.enemies[i][2], es[i])
                if key not in seen:
                    seen.add(key)
                    unique.append(i)
            choices = unique
        best = None
        for t in choices:
            dist: dict[tuple, float] = {}
            for k in range(len(self.rolls)):
                for s, q in self._branches(h, luck, es, first, hit, t, k).items():
                    dist[s] = dist.get(s, 0.0) + q
            stay = dist.pop(state, 0.0)
            if stay >= 1.0 - 1e-15:
                win = 0.0
            else:
                win = sum(q * self.value(s) for s, q in dist.items()) / (1.0 - stay)
            if best is None or win > best[0] + 1e-15:
                best = (win, stay, dist, t)
        return best[1], best[2], best[3]
