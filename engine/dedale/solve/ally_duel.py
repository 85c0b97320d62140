"""A fight with allies with Luck decided for the book (``--luck best``).

The exact DP of :mod:`dedale.rules.odds_allies` tests Luck after a wound to win *that
fight*. Here the same transitions (``AllyTable._moves``: the hero's part of the assault,
whom the enemies strike, each ally's exchange, ties folded in) are valued with the
**solver's value of each end state** instead of 1 for a win: a won fight ending with
STAMINA ``h`` and LUCK ``l`` is worth the value of the node it leads to, a lost one 0, and
after each wound Luck is tested exactly when that raises the expected value for the book.

It is one :class:`dedale.solve.duel.Duel` node of the graph (as a plain fight with the
book's Luck, :mod:`dedale.solve.duel`, or a fight at once, :mod:`dedale.solve.group_duel`)
whose successors are every end state some Luck policy can reach; its value is recomputed
from theirs each time the graph is evaluated. The table is filled in floats by the scalar
loop (the numpy fill of ``rules/odds_allies_fill.py`` counts a win as 1), within the ally
DP's own bounds (``MAX_STATES`` cells, ``SECONDS`` of CPU per fill).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.odds_allies import MAX_STATES, SECONDS, AllyTable
from dedale.rules.odds_allies_setup import too_large, too_slow
from dedale.solve.exactness import EXACT
from dedale.solve.model import SolveLimit


class AllyValueTable(AllyTable):
    """The allies' fight DP valued by terminal values ``terminal(h, luck)``: the
    ``ValueTable`` interface (:meth:`start`, :meth:`value`, :meth:`win`, :meth:`ends`,
    :meth:`outcomes`) that :class:`dedale.solve.duel.Duel` calls."""

    defeat = False  # a defeat exit beside allies with Luck is refused before (solve.fights)

    def __init__(self, *args, **options) -> None:
        super().__init__(*args, luck_policy="best", **options)
        self.terminal: Callable[[int, int], float] = lambda h, luck: 1.0
        self._force: int | None = None  # reachability: 1 always Luck, 0 never
        self._tick = 0
        self._wins: dict[tuple, float] = {}

    # ------------------------------------------------------------------ the DP

    def start(self, hero_stamina: int, luck: int) -> tuple:
        """The state before the first assault: (LUCK, STAMINA, enemies' STAMINA, allies,
        first hit still to come)."""
        self.check_size(hero_stamina, luck)
        self._shape(hero_stamina, luck)  # (the allies' radix the code reads)
        li = max(0, luck) if self.base.use_luck else 0
        code = self._code([a for _, a in self.allies]) if self.tracked else 0
        return (li, hero_stamina, self.total, code, 1 if self.base.first_hit_bonus else 0)

    def value(self, start: tuple, terminal: Callable[[int, int], float]) -> float:
        """The expected terminal value from ``start`` with the best Luck at every wound."""

        def known(h: int, luck: int) -> float:
            try:
                return terminal(h, luck)
            except KeyError:  # an end of the box no choice reaches from the start
                return 0.0

        self.terminal = known
        try:
            self._fill_box(start[1], start[0])
        except GameError as error:  # past its CPU seconds (its cells were checked at start)
            raise SolveLimit(error.message, hint=error.hint) from None
        if self.base.armour:  # armour on the first assault: that state is apart
            return self._moves(*start, True)[0]
        return self.values[self._idx(*start)]

    def win(self, start: tuple) -> float:
        """The chance to win from ``start`` with Luck for the fight (memoised)."""
        found = self._wins.get(start)
        if found is None:
            found = self._wins[start] = self.value(start, lambda h, luck: 1.0)
        return found

    def _value(self, mids, h: int, code: int, modes=None) -> float:
        """As :meth:`AllyTable._value` with a win worth its end state's terminal value;
        walking the reachable states (``_force``), the Luck option always or never."""
        if self._force is not None:  # the later option (Luck tested) wins, or never does
            self._tick += 1
            return float(self._tick if self._force else -self._tick)
        values, terminal = self.values, self.terminal
        sl, sh = self.stride_luck, self.stride_hero
        total = 0.0
        for p, l2, h2, t2, u2, g in mids:
            if h2 <= 0:
                continue  # the hero falls at once
            worth = terminal(h2, l2)
            if t2 <= 0:
                total += p * worth
                continue
            row = l2 * sl + h2 * sh + u2
            for won, offs in self._after(t2, code, g, modes):
                total += p * (won * worth + sum(q * values[row + off] for q, off in offs))
        return total

    def _fill_box(self, hero_stamina: int, luck: int) -> None:
        """Every state up to this STAMINA and LUCK valued, in lexicographic order (each
        move leads to a state filled before it), within ``MAX_STATES`` and ``SECONDS``."""
        self._shape(hero_stamina, luck)
        if self.cells > MAX_STATES:
            raise too_large(self.cells, MAX_STATES)
        self._flows = {}  # the forward pass's moves follow the choices of this fill
        self.values = values = [0.0] * self.cells
        begin = time.process_time()
        count = 0
        for li in range(self.lucks):
            for h in range(1, self.h0 + 1):
                for t in range(1, self.total + 1):
                    for code in range(self.ally_cells):
                        for unhit in range(self.hits):
                            total, stay, _, _ = self._moves(li, h, t, code, unhit, False)
                            values[self._idx(li, h, t, code, unhit)] = (
                                total / (1.0 - stay) if stay < 1.0 else 0.0
                            )
                count += self.total * self.ally_cells * self.hits
                if time.process_time() - begin > SECONDS:
                    self.values = None
                    raise too_slow(SECONDS, count)

    # ------------------------------------------------------------------ reachability

    def ends(self, start: tuple) -> list[tuple[int, int]]:
        """Every (STAMINA, LUCK) a won fight can end with, under any Luck policy (each
        state's moves with Luck always tested and never)."""
        self._shape(start[1], start[0])
        found: set[tuple[int, int]] = set()
        seen: set = set()
        stack: list = [(start, bool(self.base.armour))]
        while stack:
            state, first = stack.pop()
            for force in (0, 1):
                self._force = force
                try:
                    _, _, outs, wins = self._moves(*state, first, collect=True)
                finally:
                    self._force = None
                found.update((h, luck) for _, h, luck in wins)
                for _, index in outs:
                    if index not in seen:
                        if len(seen) >= MAX_STATES:
                            raise SolveLimit(
                                tr("this fight has too many states for the book's best Luck"),
                                hint=tr("try --luck fight (Luck for the fight) or --luck none"),
                            )  # fmt: skip
                        seen.add(index)
                        stack.append((self._state(index), False))
        return sorted(found)

    def _state(self, index: int) -> tuple:
        """The state ``(LUCK, STAMINA, enemies, allies, first hit)`` of a table index."""
        rest, unhit = divmod(index, self.hits)
        rest, code = divmod(rest, self.ally_cells)
        rest, t = divmod(rest, self.total + 1)
        li, h = divmod(rest, self.h0 + 1)
        return (li, h, t, code, unhit)

    def outcomes(self, start: tuple, terminal) -> dict[tuple[int, int], float]:
        """The end states' probabilities under the best Luck for ``terminal`` (the loss
        is the missing mass): the ally DP's forward pass over this fill's choices."""
        from dedale.rules.odds_allies_forward import forward

        self.value(start, terminal)
        result = forward(self, start, bool(self.base.armour), 1.0, start[0])
        return dict(result.end_states)


def ally_fight(oracle, runner, statement, spec, ruleset, bonus: int, armour: bool, luck_stat):
    """The oracle's hook (:class:`dedale.solve.fights.FightOracle`) for a fight with
    allies and the book's best Luck: one Duel node over every end state (see the module
    docstring)."""
    from dedale.rules.fights import FightResult
    from dedale.solve.fights import duel_end
    from dedale.solve.fights_allies import ally_pairs, check_allies

    check_allies(statement, spec)
    hero = runner.state.hero
    params = ruleset.fight
    skill = hero.stats[params.attack_stat]
    enemies, allies = ally_pairs(runner, statement, spec, params)
    key = ("allies", id(ruleset), repr(spec), skill, bonus, armour, hero.class_name,
           tuple(allies), statement.struck)  # fmt: skip
    table = oracle._tables.get(key)
    try:
        if table is None:
            table = oracle._tables[key] = AllyValueTable(
                ruleset, skill, enemies, allies, struck=statement.struck,
                class_name=hero.class_name, mode=spec.mode, attack_bonus=bonus,
                enemy_damage=spec.enemy_damage, armour=armour,
            )  # fmt: skip
        if EXACT.get() and getattr(table, "exact", None) is None:  # its twin in fractions
            from dedale.solve.fights_allies import exact_table

            table.exact = exact_table(oracle, runner, statement, spec, ruleset, bonus, armour)
        begin = table.start(hero.stats[params.health], hero.stats.get(luck_stat, 0))
        ends = oracle._ends.get((key, begin))
        if ends is None:
            oracle.fights += 1
            ends = oracle._ends[key, begin] = tuple(table.ends(begin))
    except (GameError, SolveLimit) as error:
        raise SolveLimit(error.message, statement.span, hint=error.hint) from None

    def put(h: int, luck: int) -> None:
        hero.stats[params.health], hero.stats[luck_stat] = h, luck

    duel_end(oracle, runner, statement, table, begin, ends, put)
    return FightResult("won", 0)
