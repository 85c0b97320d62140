"""The assaults of a fight at once with exits when Luck is tested at its best (a part of
:class:`dedale.rules.odds_group_exits.GroupExitSolver`).

Each Luck choice knows the hero's own roll and the blows of the assault so far, as in
:mod:`dedale.rules.odds_group`: the wound of the target is worth the better of testing Luck
or not for each roll of the hero, and each other enemy's blow, in the enemies' order, the
better of the two knowing the blows before it. With at most one other enemy striking, the
value of a choice is linear in the chance that enemy beats the hero's roll: the moves are
summed per choice over the rolls instead of per roll (the same numbers, far fewer steps).
Every Luck choice takes :func:`dedale.rules.odds.luck_pick` (the one tie rule).
"""

from __future__ import annotations

from dedale.i18n import tr
from dedale.rules.odds import luck_pick


class LuckAssaults:
    """The best-Luck assaults of :class:`~dedale.rules.odds_group_exits.GroupExitSolver`."""

    def _luck_assault(self, state, t, lead, sides, gaps, immune, guarded, rows) -> None:
        """One assault against ``t`` with the best Luck: its moves added to ``rows``."""
        ctx = (state, t, {})  # the assault's continuations, shared by the hero's rolls
        per_roll = self._per_roll(lead, gaps, immune)
        if guarded or len(sides) <= 1:
            self._one_side(ctx, per_roll, () if guarded else sides, rows)
            return
        for p, double, outcomes, chances in per_roll:
            side_p = tuple(zip(sides, chances, strict=True))
            for q, winner in outcomes:
                options = self._options(ctx, winner)
                chosen = self._pick(
                    state,
                    [
                        [
                            (w * r, n)
                            for w, h1, l1, es1, hit1, dealt in option
                            for r, n in self._sides(
                                ctx, winner, double, h1, l1, es1, hit1, dealt, side_p
                            )
                        ]
                        for option in options
                    ],
                )
                for r, n in chosen:
                    rows[n] = rows.get(n, 0.0) + p * q * r

    def _options(self, ctx, winner: str) -> list:
        cache = ctx[2]
        options = cache.get(winner)
        if options is None:
            options = cache[winner] = self._target(ctx[0], ctx[1], winner)
        return options

    def _one_side(self, ctx, per_roll, sides, rows) -> None:
        """At most one other enemy strikes (``sides``): per target outcome, Luck option and
        branch, the move when it misses and the moves when it lands (its own Luck choice
        does not depend on the roll), weighed per roll by the chance it lands."""
        side = ((sides[0], 1.0),) if sides else ()
        parts: dict[tuple, list] = {}  # (winner, double) -> per option: [(w, miss, hits)]
        weights: dict[tuple, float] = {}  # (winner, double, option): (missed, landed)
        for p, double, outcomes, chances in per_roll:
            s = chances[0] if sides else 0.0
            for q, winner in outcomes:
                key = (winner, double)
                found = parts.get(key)
                if found is None:
                    found = parts[key] = self._one_side_parts(ctx, winner, double, side)
                pick = 0
                if len(found) > 1:
                    pick = luck_pick([m + s * (v - m) for _, m, v in found])
                missed, landed = weights.get((*key, pick), (0.0, 0.0))
                weights[(*key, pick)] = (missed + p * q * (1 - s), landed + p * q * s)
        for (winner, double, pick), (missed, landed) in weights.items():
            for w, miss, hits in parts[winner, double][pick][0]:
                for r, n in miss:
                    rows[n] = rows.get(n, 0.0) + missed * w * r
                for r, n in hits:
                    rows[n] = rows.get(n, 0.0) + landed * w * r

    def _one_side_parts(self, ctx, winner, double, side) -> list:
        """Per Luck option of the target's wound: its branches ``(w, the moves if the other
        enemy misses, the moves if it lands)`` and their values (when there is a choice)."""
        state = ctx[0]
        options = self._options(ctx, winner)
        found = []
        for option in options:
            branches, v_miss, v_hit = [], 0.0, 0.0
            for w, h1, l1, es1, hit1, dealt in option:
                miss = self._finish(state, ctx[1], winner, double, h1, l1, es1, hit1, dealt)
                hits = []
                if side:
                    landed = self._sides(ctx, winner, double, h1, l1, es1, hit1, dealt, side)
                    hits = [(r, n) for r, n in landed]
                branches.append((w, miss, hits))
                if len(options) > 1:
                    if any(n == state for _, n in miss + hits):
                        raise self._too_large(tr("a Luck test that may change nothing"))
                    v_miss += w * sum(r * self.value(n) for r, n in miss)
                    v_hit += w * sum(r * self.value(n) for r, n in hits)
            found.append((branches, v_miss, v_hit))
        return found

    def _pick(self, state: tuple, options: list[list[tuple[float, tuple]]]) -> list:
        """The option worth most (the reader's best Luck choice; option 0: Luck not
        tested; ties: :func:`dedale.rules.odds.luck_pick`)."""
        if len(options) == 1:
            return options[0]
        worths = []
        for option in options:
            if any(n == state for _, n in option):
                raise self._too_large(tr("a Luck test that may change nothing"))
            worths.append(sum(q * self.value(n) for q, n in option))
        return options[luck_pick(worths)]

    def _sides(self, ctx, winner, double, h, luck, es, hit, dealt, side_p) -> list:
        """With Luck: the other enemies' blows one after another, each Luck choice the best
        knowing the assault so far; then the end of the assault (``_finish``). ``ctx``:
        (state, target, the continuations already found in this assault)."""
        state, t, cache = ctx
        if not side_p or h <= 0:  # the end of the assault (cheaper than a cache key)
            return self._finish(state, t, winner, double, h, luck, es, hit, dealt)
        key = (winner, double, h, luck, es, hit, dealt, side_p)
        found = cache.get(key)
        if found is not None:
            return found
        (j, p), rest = side_p[0], side_p[1:]
        found = []
        if p < 1.0:
            found += [(
                (1 - p) * q, n)
                for q, n in self._sides(ctx, winner, double, h, luck, es, hit, dealt, rest)
            ]  # fmt: skip
        if p > 0.0:
            hit_key = (j, winner, double, h, luck, es, hit, dealt, rest)
            chosen = cache.get(hit_key)
            if chosen is None:
                counters = state[7]
                options = []
                wounded = self.fight.luck_wounded
                for option in self._luck_options(
                    self.side, luck, wounded, self.fight.damage_to_hero
                ):
                    rows = []
                    for w, lk, d in option:
                        for r, wound in self._deals(j, d, h, counters):
                            h1 = max(0, h - wound)
                            rows += [(w * r * q, n) for q, n in self._sides(
                                ctx, winner, double, h1, lk, es, hit, dealt, rest)]  # fmt: skip
                    options.append(rows)
                chosen = cache[hit_key] = self._pick(state, options)
            found += [(p * q, n) for q, n in chosen]
        cache[key] = found
        return found
