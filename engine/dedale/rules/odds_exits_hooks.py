"""After an assault of the exact odds with exits (a part of
:class:`dedale.rules.odds_exits_solver.ExitSolver`): deaths, the enemy's events, the exits
read before the table, the table rolled each assault, the late exits (the threshold,
assaults won), then the next enemy — in the order of the fight's hooks
(:mod:`dedale.game.fight_hooks`)."""

from __future__ import annotations

from dedale.rules.fight_state import happened
from dedale.rules.odds_exits_plan import Event, changed


class ExitHooks:
    """The hooks after an assault of :class:`~dedale.rules.odds_exits_solver.ExitSolver`
    (a mixin: ``plan``, ``one``, ``names``, ``caps``, ``holds`` and ``_mine`` are the
    solver's)."""

    def _after(self, state: tuple, winner: str, double: bool, dealt: int, wound: int):
        """Once an assault's wounds are applied: deaths, then the hooks; ``[(chance,
        result)]``, a result the fight's value (a float) when it ends there, else the state
        before the next assault (more than one only with a table rolled each assault)."""
        return self._rows(self._hooks(state, winner, double, dealt, wound))

    def _rows(self, found) -> list[tuple]:
        """After the hooks (``found``: a float when the fight ended, else ``(state, the enemy
        fought still stands)``): the assault table's rows, then the late exits."""
        if isinstance(found, float):
            return [(self.one, found)]
        if not self.plan.table:
            return [(self.one, self._late(found))]
        rows, left = [], self.one
        for chance, event in self.plan.table:
            left -= chance
            rows.append((chance, self._row(found, event)))
        if left > 1e-12:
            rows.append((left, self._late(found)))
        return rows

    def _out(self, h: int, luck: int, way: str, at: int = -1, k: int = 0) -> float:
        """A way out: its value, 1.0, or 0.0 when its paragraph is a death ending
        (:meth:`way`). A hook: a subclass labels it with the hero's STAMINA and LUCK and the
        way (``rules/odds_allies_exits_forward.py``)."""
        return self.way(f"exit:{at}" if way == "exit" else way)

    def way(self, name: str) -> float:
        """The value of leaving by a way out: 1.0, or 0.0 when its paragraph is a death
        ending (``plan.doomed``)."""
        return 0.0 if name in self.plan.doomed else 1.0

    def _row(self, found: tuple, event: Event):
        """A table row's effects (as an event's), then the late exits."""
        state, alive = found
        index, h, e, luck, k, won, hit, counters, shift = state
        if not self.holds(event.when, state):
            return self._late(found)
        values = list(counters)
        changed(values, self.names, event.counters, self.caps)
        if event.health:
            h = max(0, h + event.health)
            if h <= 0:
                return 0.0
        if event.leaves:
            return self._out(h, luck, "table")
        return self._late(((index, h, e, luck, k, won, hit, tuple(values), shift), alive))

    def _late(self, found):
        """After the table: the threshold, the late exits, the assaults won; then the next
        enemy steps in if the one fought fell."""
        if isinstance(found, float):
            return found
        plan = self.plan
        state, alive = found
        index, h, e, luck, k, won, hit, counters, shift = state
        if any(self.holds(exit_, state) for exit_ in plan.late_exits):
            return self._out(h, luck, "threshold")
        if plan.threshold is not None and h <= plan.threshold:
            return self._out(h, luck, "threshold")
        if plan.win_assaults is not None and won >= plan.win_assaults:
            return self._out(h, luck, "assaults")
        if not alive:  # the next enemy steps in (none left: won)
            if index + 1 >= len(plan.enemies):
                return self._out(h, luck, "won", k=k)
            index += 1
            state = (index, h, plan.enemies[index][1], luck, k, won, hit, counters, 0)
        return state

    def _hooks(self, state: tuple, winner: str, double: bool, dealt: int, wound: int):
        """Deaths, then the events and the exits read before a table: a float when the
        fight ends, else ``(state, the enemy fought still stands)``."""
        plan = self.plan
        index, h, e, luck, k, won, hit, counters, shift = state
        if h <= 0:
            return 0.0
        if dealt > 0 and self.won_cap:
            won = min(won + 1, self.won_cap)
        alive = e > 0
        if not alive and index + 1 >= len(plan.enemies):
            return 1.0
        state = (index, h, e, luck, k, won, hit, counters, shift)
        return self._events_exits(state, winner, double, wound, alive)

    def _events_exits(self, state: tuple, winner: str, double: bool, wound: int, stands: bool):
        """The events of the enemy fought while it ``stands``, then the exits read before a
        table: a float when the fight ends, else ``(state, the enemy fought still stands)``
        (an event may fell it: the next steps in after the table)."""
        plan = self.plan
        index, h, e, luck, k, won, hit, counters, shift = state
        if stands:  # the events of the enemy fought (none once it has fallen)
            values = list(counters)
            for at, event in enumerate(plan.events):
                if not self._mine(event.enemy, index):
                    continue
                now = (index, h, e, luck, k, won, hit, tuple(values), shift)
                if not self.holds(event.when, now):
                    continue
                if not happened(event.on, winner, double, wound):
                    continue
                changed(values, self.names, event.counters, self.caps)
                if event.health:
                    h = max(0, h + event.health)
                    if h <= 0:
                        return 0.0
                shift += event.skill
                e = max(0, e + event.stamina)  # "its STAMINA -2": it may fall (after the exits)
                if event.leaves:
                    return self._out(h, luck, "event", at)
            counters = tuple(values)
        state = (index, h, e, luck, k, won, hit, counters, shift)
        if plan.first_won and k == 1 and winner in ("hero", "kill"):
            return self._out(h, luck, "first")
        for at, exit_ in enumerate(plan.exits):
            if self.holds(exit_, state):
                return self._out(h, luck, "exit", at)
        return (state, e > 0)
