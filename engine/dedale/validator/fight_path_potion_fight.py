"""The exact fight of one enemy after another for a hero who holds doses of a potion.

The states are those of :class:`~dedale.rules.odds.OddsTable` (enemy, LUCK, STAMINA,
enemy STAMINA, before the first assault, before the first hit) with the doses left. The
transitions are the table's (:meth:`OddsTable._moves`: one assault), except that a wound
that leaves STAMINA at or below the potion's threshold — a mortal one included: the
interpreter's rescue — is followed by the potion acting (:func:`settle`), the fight going
on from there with fewer doses. Without a dose left the state is the table's own: its
value is the table's and its mass goes on through the table's forward pass.

Every transition moves to a later state in the order (more doses first, then the table's
order: enemy, LUCK, STAMINA, enemy STAMINA descending, flags), so the values are computed
once each, last states first, and the mass is pushed once through them, first states
first. With the best Luck policy a Luck choice takes the option of higher value, as the
table does (knowing the doses); with none, Luck is never used.
"""

from __future__ import annotations

import heapq

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.validator.fight_path_mix import _Seeded
from dedale.validator.fight_path_potion import Potion, settle

MAX_STATES = 60_000  # states with doses of one fight (past it: GameError, the step is ``≈``)
WIN = ("win",)


class PotionFight:
    """The potion-aware fight of one table (see the module)."""

    def __init__(self, table, potion: Potion, top: int) -> None:
        self.table, self.potion, self.top = table, potion, top
        self.values: dict[tuple, float] = {}  # (doses, state) -> chance to win
        self.picks: dict[tuple, list] = {}  # (doses, state) -> [(p, target)], stay
        self.following: dict[tuple, list] = {}  # (doses, state) -> the states with doses next
        self.events: dict[tuple, tuple] = {}  # (doses, state) -> _options
        self.rank: dict[tuple, tuple] = {}  # (doses, state) -> its place in the order

    # ------------------------------------------------------------------ transitions

    def _after(self, d: int, state: tuple) -> list[tuple[float, tuple]]:
        """Where a state the assault just reached goes: a win, the next enemy, the potion
        acting (several states when its amount is rolled), or death (left out)."""
        table = self.table
        index, luck, h, e, first, hit = state
        if e <= 0 and h > 0:
            if index + 1 >= len(table.enemies):
                return [(1.0, WIN + (h, luck, d))]
            return [(1.0, (d, (index + 1, luck, h, table.enemies[index + 1][1], False, True)))]
        if d > 0 and h <= self.potion.at:
            out = []
            for (new, left), p in settle(self.potion, self.top, max(0, h), d):
                if new > 0:
                    out.append((p, (left, table._normal((index, luck, new, e, first, hit)))))
            return out
        if h <= 0:
            return []
        # table._normal inline (the flags that cannot matter dropped): the same tuple
        first = first if table.armour else False
        hit = hit if table.first_hit_bonus else True
        return [(1.0, (d, (index, luck, h, e, first, hit)))]

    def _options(self, d: int, state: tuple) -> tuple[list, list[list]]:
        found = self.events.get((d, state))
        if found is None:
            found = self.events[(d, state)] = self._events(d, state)
        return found

    def _events(self, d: int, state: tuple) -> tuple[list, list[list]]:
        """The assault's events from a state with doses: (sure outcomes, [options of one
        event: plain first, with Luck second]) — each a list of (chance, (doses, state))
        or win."""
        table = self.table
        fight = table.fight
        index, luck, h, e, first, hit = state
        params = table.params[index]
        sure: list = []
        events: list[list] = []
        if params.p_kill:
            sure.extend(
                (params.p_kill * q, t) for q, t in self._after(d, (index, luck, h, 0, False, True))
            )
        low = max(0, luck - table.luck_cost)
        q = table.p_lucky(luck)
        if params.p_hero:
            dmg = table.to_enemy + (0 if hit else table.first_hit_bonus)
            options = [[(1.0, (index, luck, h, e - dmg, False, True))]]
            wounding = fight.luck_wounding
            if table.use_luck and luck and wounding is not None:
                base = fight.damage_to_enemy
                lucky = (index, low, h, e - max(0, dmg + wounding.lucky - base), False, True)
                unlucky = (index, low, h, e - max(0, dmg + wounding.unlucky - base), False, True)
                options.append([(q, lucky), (1 - q, unlucky)])
            events.append([params.p_hero, options])
        if params.p_enemy:
            if first and table.armour:
                options = [[(1.0, (index, luck, h, e, False, hit))]]
            else:
                dmg = table.to_hero
                options = [[(1.0, (index, luck, h - dmg, e, False, hit))]]
                wounded = fight.luck_wounded
                if table.use_luck and luck and wounded is not None:
                    base = fight.damage_to_hero
                    lucky = (index, low, h - max(0, dmg + wounded.lucky - base), e, False, hit)
                    unlucky = (index, low, h - max(0, dmg + wounded.unlucky - base), e, False, hit)
                    options.append([(q, lucky), (1 - q, unlucky)])
            events.append([params.p_enemy, options])
        if params.p_tie:
            events.append([params.p_tie, [[(1.0, (index, luck, h, e, False, hit))]]])
        resolved = []
        for p, options in events:
            resolved.append(
                [
                    p,
                    [
                        [(q * r, t) for q, s in option for r, t in self._after(d, s)]
                        for option in options
                    ],
                ]
            )
        return sure, resolved

    def _value(self, target) -> float:
        if target[0] == "win":
            return 1.0
        d, state = target
        if d <= 0:
            return self.table.state_value(state)
        return self.values[target]

    def _solve_state(self, key: tuple) -> None:
        """The value and chosen outcomes of one state with doses (its targets known)."""
        d, state = key
        sure, events = self._options(d, state)
        chosen = list(sure)
        for p, options in events:
            best = options[0]
            if len(options) > 1 and key not in (t for _, t in best):
                plain = sum(r * self._value(t) for r, t in best)
                luck = sum(r * self._value(t) for r, t in options[1])
                if luck > plain:
                    best = options[1]
            chosen.extend((p * r, t) for r, t in best)
        stay = sum(p for p, t in chosen if t == key)
        moves = [(p, t) for p, t in chosen if t != key]
        total = sum(p * self._value(t) for p, t in moves)
        self.values[key] = total / (1.0 - stay) if stay < 1.0 else 0.0
        self.picks[key] = [moves, stay]

    # ------------------------------------------------------------------ solve

    def _reach(self, starts) -> list[tuple]:
        """Every state with doses reachable from ``starts``, in the order of the module."""
        seen = set(starts)
        todo = list(starts)
        while todo:
            key = todo.pop()
            following = self.following.get(key)
            if following is None:
                sure, events = self._options(*key)
                targets = [t for _, t in sure]
                targets += [t for _, options in events for option in options for _, t in option]
                following = self.following[key] = [
                    t for t in dict.fromkeys(targets) if t[0] != "win" and t[0] > 0
                ]
            for target in following:
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
                    if len(seen) > MAX_STATES:
                        raise GameError(tr("too many states for the exact odds with a potion"))
        return sorted(seen, key=_order)

    def solve(self, h: int, luck: int | None, d: int) -> tuple[float, dict]:
        """(chance to win, {(STAMINA, LUCK, doses): chance} after a win, summing to it) for
        a hero who starts the fight at ``h`` STAMINA with ``d`` doses (``h`` above the
        threshold: the potion has acted before)."""
        ends, (start,) = self.mixed({(h, luck, d): 1.0})
        return self.values[start], ends

    def mixed(self, starts: dict[tuple[int, int | None, int], float]):
        """The end states of a win, weighted, from several (STAMINA, LUCK, doses) starts at
        once (one pass: the flow is linear in the mass), and the start keys; every start
        with the same LUCK when the table does not use Luck."""
        table = self.table
        first = table.enemies[0][1]
        most_h = max(self.potion.highest(h, self.top, d) for h, _, d in starts)
        lucks = [luck for _, luck, _ in starts if luck is not None]
        table._start(most_h, max(lucks) if lucks else None, first)  # grids far enough
        weights: dict[tuple, float] = {}
        for (h, luck, d), p in starts.items():
            key = (d, table._start(h, luck, first))
            weights[key] = weights.get(key, 0.0) + p
        if any(key not in self.values for key in weights):  # states not seen yet
            order = self._reach(weights)
            for key in reversed(order):
                if key not in self.values:
                    self._solve_state(key)
                    self.rank[key] = _order(key)
        rank = self.rank
        mass = dict(weights)
        heap = [(rank[key], key) for key in mass]  # each state once its sources are done
        heapq.heapify(heap)
        ends: dict[tuple[int, int, int], float] = {}
        plain: dict[tuple, float] = {}  # states without doses: the table's own pass
        while heap:
            key = heapq.heappop(heap)[1]
            m = mass.pop(key)
            if not m:
                continue
            moves, stay = self.picks[key]
            visits = m / (1.0 - stay) if stay < 1.0 else 0.0
            for p, target in moves:
                flow = visits * p
                if target[0] == "win":
                    end = target[1:]
                    ends[end] = ends.get(end, 0.0) + flow
                elif target[0] <= 0:
                    plain[target[1]] = plain.get(target[1], 0.0) + flow
                elif target in mass:
                    mass[target] += flow
                else:
                    mass[target] = 0.0 + flow
                    heapq.heappush(heap, (rank[target], target))
        if plain:
            forward = _Seeded(table)
            for state, p in plain.items():
                forward.weight = p
                forward.run(state)
            forward.weight = 1.0
            forward.deferred = False
            forward._run_regular()
            for (end_h, end_luck), p in forward.ends.items():
                ends[(end_h, end_luck, 0)] = ends.get((end_h, end_luck, 0), 0.0) + p
        return ends, list(weights)


def _order(key: tuple) -> tuple:
    d, (index, luck, h, e, first, hit) = key
    return -d, index, -luck, -h, -e, not first, hit
