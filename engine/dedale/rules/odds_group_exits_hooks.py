"""The end of an assault in a fight at once with exits (a part of
:class:`dedale.rules.odds_group_exits.GroupExitSolver`): once the blows have landed, the
book's hooks in the fight's own order (:class:`dedale.game.fight_hooks.ExtrasHooks`): death,
a win when every enemy has fallen (no hook then), the target's events, "first assault won"
and the exits, the table rolled each assault, the threshold (and the exits on a counter it
makes), the assaults won, a win when an event felled the last enemy."""

from __future__ import annotations

from dedale.rules.fight_state import happened
from dedale.rules.odds_exits_plan import changed


def end(way: str, h: int, luck: int) -> tuple:
    """How the fight ends: ``("end", way, STAMINA, Luck)``."""
    return ("end", way, h, luck)


class AfterAssault:
    """The hooks after an assault (see the module docstring)."""

    def _finish(self, state, t, winner, double, h, luck, es, hit, dealt) -> list:
        """Once an assault's blows have landed: death, a win, then the hooks (the target's
        events, the exits, the table rolled each assault, the threshold): ``[(chance, the
        next state or an end ("end", way, STAMINA, Luck))]``."""
        if h <= 0:
            return [(1.0, end("lost", 0, luck))]
        if not any(es):
            return [(1.0, end("won", h, luck))]
        if self.bare:  # no hook after the assault: the next state (as _late gives it)
            _h, _lk, _es, shifts, k, won, _hit, counters = state
            k2 = k + 1 if k < self.k_cap else k
            return [(1.0, self._canon((h, luck, es, shifts, k2, won, hit or not self.track_hit,
                                       counters)))]  # fmt: skip
        plan = self.plan
        h0, _luck, _es, shifts, k, won, _hit, counters = state
        if dealt > 0 and self.won_cap:
            won = min(won + 1, self.won_cap)
        if es[t] > 0 and plan.events:  # the events of the enemy fought (none once it fell)
            values = list(counters)
            shift = shifts[t]
            for event in plan.events:
                if not self._mine(event.enemy, t):
                    continue
                if not self._holds(event.when, h, tuple(values)):
                    continue
                if not happened(event.on, winner, double, h0 - h):
                    continue
                changed(values, self.names, event.counters, self.caps)
                if event.health:
                    h = max(0, h + event.health)
                    if h <= 0:
                        return [(1.0, end("lost", 0, luck))]
                shift = max(shift + event.skill, -plan.enemies[t][0])
                if event.stamina:  # "its STAMINA -2" (if it falls: won, after the exits)
                    es = es[:t] + (max(0, es[t] + event.stamina),) + es[t + 1 :]
                if event.leaves:
                    return [(1.0, end("event", h, luck))]
            counters = tuple(values)
            shifts = shifts[:t] + (shift,) + shifts[t + 1 :]
        if plan.first_won and k == 0 and winner in ("hero", "kill"):
            return [(1.0, end("first_won", h, luck))]
        if any(self._holds(exit_, h, counters) for exit_ in plan.exits):
            return [(1.0, end("exit", h, luck))]
        after = (h, luck, es, shifts, k, won, hit, counters)
        if not plan.table:
            return [(1.0, self._late(after))]
        found, left = [], 1.0
        for chance, row in plan.table:  # a table rolled each assault: its rows, then the rest
            left -= chance
            found.append((chance, self._row(after, row)))
        if left > 1e-12:
            found.append((left, self._late(after)))
        return found

    def _row(self, after: tuple, row) -> tuple:
        """A row of the table rolled each assault (its effects as an event's)."""
        h, luck, es, shifts, k, won, hit, counters = after
        if not self._holds(row.when, h, counters):
            return self._late(after)
        values = list(counters)
        changed(values, self.names, row.counters, self.caps)
        if row.health:
            h = max(0, h + row.health)
            if h <= 0:
                return end("lost", 0, luck)
        if row.leaves:
            return end("event", h, luck)
        return self._late((h, luck, es, shifts, k, won, hit, tuple(values)))

    def _late(self, after: tuple) -> tuple:
        """After the table: the threshold (and the exits it makes), the assaults won, a win
        when an event felled the last enemy; else the next state."""
        plan = self.plan
        h, luck, es, shifts, k, won, hit, counters = after
        if any(self._holds(exit_, h, counters) for exit_ in plan.late_exits):
            return end("threshold", h, luck)
        if plan.threshold is not None and h <= plan.threshold:
            return end("threshold", h, luck)
        if plan.win_assaults is not None and won >= plan.win_assaults:
            return end("assaults_won", h, luck)
        if not any(es):  # an event felled the last enemy standing
            return end("won", h, luck)
        k2 = min(k + 1, self.k_cap)
        hit = hit or not self.track_hit
        return self._canon((h, luck, es, shifts, k2, won, hit, counters))
