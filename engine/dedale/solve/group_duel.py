"""A fight against several enemies at once, with the target (and Luck) decided for the book.

The exact DP of :mod:`dedale.rules.odds_group` picks each assault's target (and, with the
best Luck, each Luck test) to win *that fight*. Here the same transitions (the table's
``_fast_value`` / ``_plain_value``: the rolls, the side attacks, instant kills, armour,
first-hit flags, ties folded in) are valued with the **solver's value of each end state**
instead of 1 for a win: a won fight ending with STAMINA ``h`` and LUCK ``l`` is worth the
value of the node it leads to, a lost one 0. The target of every assault (and every Luck
test, with ``--luck best``) is then the one that raises the expected value **for the
book** — the reader's own decision, as the issue asks of every decision.

It is one :class:`dedale.solve.duel.Duel` node of the graph (the same node as a plain
fight with the book's Luck) whose successors are every end state some choice of targets
and Luck can reach; its value is recomputed from theirs each time the graph is evaluated.

A consequence the meals need (:mod:`dedale.solve.eager`): a hero with more STAMINA can
choose as one with less does, assault by assault, and ends every throw of the dice with
the same lead or wins where the other dies; with the fight's own target choice that is not
so (le-puits-des-ombres' ghouls: from 7 STAMINA the fight-optimal target wins more often
than from 6, but less often with 3 or more left), so a meal could not be eaten at once
before such a fight.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable

from dedale.i18n import tr
from dedale.rules import odds_group_fast
from dedale.rules.odds_group import GroupTable
from dedale.rules.odds_inputs import enemy_line_up
from dedale.solve.model import SolveLimit

MAX_GROUP_STATES = 200_000
"""Fight states (hero STAMINA × LUCK × the enemies' STAMINA) at most in one table."""


def group_plain(spec, statement) -> bool:
    """Whether a fight at once is played as a :class:`GroupValueTable` (no escape, no
    assault limit, no allies: those have their own exact DPs)."""
    return (
        spec.mode == "together" and spec.assault_limit is None and spec.escape_after is None
        and not statement.allies
    )  # fmt: skip


class GroupValueTable(GroupTable):
    """The at-once fight DP valued by terminal values ``terminal(h, luck)``: the
    ``ValueTable`` interface (:meth:`start`, :meth:`value`, :meth:`win`, :meth:`ends`,
    :meth:`outcomes`) that :class:`dedale.solve.duel.Duel` calls."""

    def __init__(self, ruleset, hero_skill: int, enemies, *, luck_policy: str, **options) -> None:
        lined = tuple(enemy_line_up(ruleset, enemies, "sequence"))
        super().__init__(ruleset, hero_skill, lined, luck_policy=luck_policy, target="best",
                         **options)  # fmt: skip
        self.terminal: Callable[[int, int], float] = lambda h, luck: 1.0
        self._wins: dict[tuple, float] = {}
        self._reached: dict[tuple, tuple[int, list]] = {}  # (LUCK, ...) -> (STAMINA, ends)
        self._box: tuple[int, int] = (0, -1)

    # ------------------------------------------------------------------ the DP

    def start(self, hero_stamina: int, luck: int) -> tuple:
        luck_value = max(0, luck) if self.use_luck else 0
        es = tuple(e for _, e, _ in self.enemies)
        cells = (hero_stamina + 1) * (luck_value + 1)
        for e in es:
            cells *= e + 1
        if cells > MAX_GROUP_STATES:
            raise SolveLimit(
                tr("this fight has too many states for the book's best Luck"),
                hint=tr("fewer or weaker enemies at once have exact odds (the validator "
                        "estimates them)"),
            )  # fmt: skip
        return self._normal(hero_stamina, luck_value, es, True, False)

    def value(self, state, terminal: Callable[[int, int], float] | None = None) -> float:  # type: ignore[override]
        """With ``terminal``: the expected terminal value from the start ``state`` under
        the best targets and Luck (the table filled for it); without: the value of a state
        of the table filled last (the parent's interface)."""
        if terminal is not None:

            def known(h: int, luck: int) -> float:
                try:
                    return terminal(h, luck)
                except KeyError:  # a state of the box no choice reaches from the start
                    return 0.0

            self.terminal = known
            self._fill_box(state)
            return self.value(state)
        h, luck, es, _, _ = state
        if h <= 0:
            return 0.0
        if not any(es):
            return self.terminal(h, luck)
        return self.values[state]

    def win(self, start: tuple) -> float:
        """The chance to win from ``start`` with the fight's own best choices (memoised)."""
        found = self._wins.get(start)
        if found is None:
            found = self._wins[start] = self.value(start, lambda h, luck: 1.0)
        return found

    def _sides_value(self, h, luck, es, hit, side_p, state) -> tuple[float, float]:
        if h > 0 and not any(es):  # the last enemy down: the end state's own value
            return self.terminal(h, luck), 0.0
        return super()._sides_value(h, luck, es, hit, side_p, state)

    def _fill_box(self, start: tuple) -> None:
        """Every state below ``start`` valued, bottom-up (each move leads to a state
        filled before it: less STAMINA, less LUCK, or less enemy STAMINA)."""
        h0, l0, _, _, _ = start
        self._side_memo.clear()
        if odds_group_fast.fits(self, h0, l0):  # the array fill, the ends' values set first
            self.values = self._fast_box(h0, l0)
            if start not in self.values:
                self._store(start)
            return
        self.values = {}
        flags = [(False, True)] + ([(False, False)] if self.first_hit_bonus else [])
        ranges = [range(e + 1) for _, e, _ in self.enemies]
        normal, store = self._normal, self._store
        for h in range(1, h0 + 1):
            for luck in range(l0 + 1):
                for es in itertools.product(*ranges):
                    if not any(es):
                        continue
                    for first, hit in flags:
                        state = (h, luck, es, first, hit)
                        if normal(*state) == state:
                            store(state)
        if start not in self.values:  # before the first assault (armour)
            store(start)

    def _fast_box(self, h0: int, l0: int):
        """:mod:`dedale.rules.odds_group_fast`'s level-by-level fill, with the won states
        (no enemy left) worth their terminal value instead of 1."""
        filler = odds_group_fast._Fill(self, h0, l0, self.seconds)
        zeros = (0,) * len(self.enemies)
        terminal = self.terminal
        for h in range(1, h0 + 1):
            for luck in range(l0 + 1):
                worth = terminal(h, luck)
                for hit in (0, 1):
                    filler.values[(hit, h, luck, *zeros)] = worth
                    filler.g[(hit, h, luck, *zeros)] = worth
        try:
            return filler.run()
        except TimeoutError:
            raise SolveLimit(
                tr(
                    "the exact odds of a fight against {count} enemies at once took more than "
                    "{seconds} seconds",
                    count=len(self.enemies),
                    seconds=format(self.seconds, "g"),
                )
            ) from None

    # ------------------------------------------------------------------ reachability

    def ends(self, start: tuple) -> list[tuple[int, int]]:
        """Every (STAMINA, LUCK) a won fight can end with, under any targets and Luck (a
        move counts when some roll of the hero allows it: a superset is harmless, the
        value of an end no choice reaches is never read). A move does not depend on the
        hero's STAMINA while he lives, so the ends from a lower STAMINA are those from a
        higher one, lowered by the difference (the ones still alive): one walk per LUCK."""
        h, rest = start[0], start[1:]
        cached = self._reached.get(rest)
        if cached is not None and cached[0] >= h:
            drop = cached[0] - h
            return [(e - drop, luck) for e, luck in cached[1] if e - drop > 0]
        found = self._walk(start)
        self._reached[rest] = (h, found)
        return found

    def _walk(self, start: tuple) -> list[tuple[int, int]]:
        found: set[tuple[int, int]] = set()
        seen = {start}
        stack = [start]
        while stack:
            if len(seen) > MAX_GROUP_STATES:
                raise SolveLimit(tr("this fight has too many states for the book's best Luck"))
            for nxt in self._reach(stack.pop()):
                h, luck, es, _, _ = nxt
                if h <= 0:
                    continue
                if not any(es):
                    found.add((h, luck))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return sorted(found)

    def _possible(self) -> tuple:
        """Per enemy: whether some roll kills it on a double, lets the hero wound it, ties,
        lets it win the assault (the hero's and its strengths)."""
        found = getattr(self, "_can", None)
        if found is None:
            found = self._can = tuple(
                (
                    any(d > 0 for _, d, _ in self.rolls) and not self.enemies[j][2],
                    any(p > d and pe[j][0] > 0 for p, d, pe in self.rolls),
                    any(p > d and pe[j][1] > 0 for p, d, pe in self.rolls),
                    any(p > d and pe[j][2] > 0 for p, d, pe in self.rolls),
                    any(pe[j][2] > 0 for _, _, pe in self.rolls),
                    any(pe[j][2] < 1.0 for _, _, pe in self.rolls),
                )
                for j in range(len(self.enemies))
            )
        return found

    def _reach(self, state: tuple) -> set[tuple]:
        """The states one assault can lead to from ``state`` (as :meth:`_branches` and
        :meth:`_sides` move, every Luck option taken, every roll's moves together)."""
        h, luck, es, first, hit = state
        base = self.base
        can = self._possible()
        guarded = first and self.armour
        low = max(0, luck - self.cost)
        out: set[tuple] = set()
        alive = [i for i, e in enumerate(es) if e > 0]
        for t in self._choices(es, alive):
            kill, wound, tie, hurt_me, _, _ = can[t]
            e = es[t]
            moves: list[tuple] = []
            if kill:
                moves.append((h, luck, es[:t] + (0,) + es[t + 1 :], hit))
            if wound:
                d = base.to_enemy + (0 if hit else self.first_hit_bonus)
                moves.append((h, luck, es[:t] + (max(0, e - d),) + es[t + 1 :], True))
                table = base.fight.luck_wounding
                if len(base.hit) == 3 and luck > 0 and d > 0 and table:
                    shift = base.fight.damage_to_enemy
                    for extra in (table.lucky, table.unlucky):
                        hurt = max(0, d + extra - shift)
                        moves.append((h, low, es[:t] + (max(0, e - hurt),) + es[t + 1 :], True))
            if tie or (hurt_me and guarded):
                moves.append((h, luck, es, hit))
            if hurt_me and not guarded:
                hurt = base.hurt
                moves.append((h - hurt[0], luck, es, hit))
                if len(hurt) == 3 and luck > 0 and hurt[0] > 0:
                    moves += [(h - hurt[1], low, es, hit), (h - hurt[2], low, es, hit)]
            sides = [j for j in alive if j != t]
            current = set(moves)
            if not guarded and self.side[0] > 0:  # the other enemies' blows, in turn
                side = self.side
                for j in sides:
                    grown: set[tuple] = set()
                    for move in current:
                        h1, l1, es1, hit1 = move
                        if h1 <= 0:
                            grown.add(move)
                            continue
                        if can[j][5]:
                            grown.add(move)
                        if can[j][4]:
                            grown.add((h1 - side[0], l1, es1, hit1))
                            if len(side) == 3 and l1 > 0:
                                low1 = max(0, l1 - self.cost)
                                grown.add((h1 - side[1], low1, es1, hit1))
                                grown.add((h1 - side[2], low1, es1, hit1))
                    current = grown
            normal = self._normal
            out.update(normal(h1, l1, es1, False, hit1) for h1, l1, es1, hit1 in current)
        return out

    def outcomes(self, start: tuple, terminal) -> dict[tuple[int, int], float]:
        """The end states' probabilities under the book's best targets and Luck for
        ``terminal`` (the loss as the missing mass): for the walkthrough."""
        self.value(start, terminal)
        heap = [(_order(start), start)]
        pending = {start: 1.0}
        ends: dict[tuple[int, int], float] = {}
        while heap:
            _, state = heapq.heappop(heap)
            mass = pending.pop(state)
            h, luck, es, _, _ = state
            if h <= 0:
                continue
            if not any(es):
                ends[h, luck] = ends.get((h, luck), 0.0) + mass
                continue
            stay, dist, _ = self.moves(state)
            visits = mass / (1.0 - stay) if stay < 1.0 else 0.0
            for s, q in dist.items():
                if s not in pending:
                    pending[s] = 0.0
                    heapq.heappush(heap, (_order(s), s))
                pending[s] += visits * q
        return ends


class ShownLuck:
    """A table without Luck seen with the hero's own LUCK in its end keys (the DP does
    not carry LUCK when it is never tested): the walkthrough shows the LUCK he has."""

    def __init__(self, table: GroupValueTable, luck: int) -> None:
        self.table, self.luck = table, luck

    def value(self, begin: tuple, terminal) -> float:
        return self.table.value(begin, lambda h, _: terminal(h, self.luck))

    def win(self, begin: tuple) -> float:
        return self.table.win(begin)

    def outcomes(self, begin: tuple, terminal) -> dict[tuple[int, int], float]:
        found = self.table.outcomes(begin, lambda h, _: terminal(h, self.luck))
        return {(h, self.luck): p for (h, _), p in found.items()}


def _order(state: tuple) -> tuple:
    """Larger states first (every move goes to a lexicographically smaller state)."""
    h, luck, es, first, hit = state
    return (-h, -luck, tuple(-e for e in es), not first, hit)


def group_fight(oracle, runner, statement, spec, ruleset, bonus: int, armour: bool, luck_stat):
    """The oracle's hook (:class:`dedale.solve.fights.FightOracle`) for a fight at once:
    one Duel node over every end state (see the module docstring)."""
    from dedale.errors import GameError
    from dedale.rules.fights import FightResult
    from dedale.solve.fights import duel_end

    hero = runner.state.hero
    params = ruleset.fight
    policy = "best" if oracle.book_luck and luck_stat is not None else "none"
    skill = hero.stats[params.attack_stat]
    key = ("at once", id(ruleset), repr(spec), skill, bonus, armour, hero.class_name, policy)
    table = oracle._tables.get(key)
    try:
        if table is None:
            table = oracle._tables[key] = GroupValueTable(
                ruleset, skill, spec.enemies, luck_policy=policy, class_name=hero.class_name,
                attack_bonus=bonus, enemy_damage=spec.enemy_damage, armour=armour,
            )  # fmt: skip
        luck_now = hero.stats.get(luck_stat, 0) if luck_stat is not None else 0
        begin = table.start(hero.stats[params.health], luck_now)
        ends = oracle._ends.get((key, begin))
        if ends is None:
            oracle.fights += 1
            ends = oracle._ends[key, begin] = tuple(table.ends(begin))
    except GameError as error:
        raise SolveLimit(error.message, statement.span, hint=error.hint) from None
    except SolveLimit as error:
        raise SolveLimit(error.message, statement.span, hint=error.hint) from None
    own_luck = table.use_luck
    if not own_luck:  # the end keys with the hero's LUCK, as the fight leaves it
        shown = hero.stats.get(luck_stat, 0) if luck_stat is not None else 0
        view = oracle._tables.get((key, shown))
        if view is None:
            view = oracle._tables[key, shown] = ShownLuck(table, shown)
        table = view
        ends = tuple((h, shown) for h, _ in ends)

    def put(h: int, luck: int) -> None:
        hero.stats[params.health] = h
        if own_luck:
            hero.stats[luck_stat] = luck

    duel_end(oracle, runner, statement, table, begin, ends, put)
    return FightResult("won", 0)
