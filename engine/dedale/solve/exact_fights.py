"""A plain FF fight's outcomes in exact fractions, for ``dedale solve --exact``.

The exact fight DP (:class:`dedale.rules.odds.OddsTable`) computes its inputs exactly
(:mod:`dedale.rules.odds_inputs` sums fractions) but rounds them to floats, and its grids
and constants are floats: fed fractions it would mix them with floats. This module follows
the same fight — the same states (enemy, LUCK, hero STAMINA, enemy STAMINA, first assault,
first hit), the same transitions as ``OddsTable._moves`` (instant kills, wounds each way,
armour on the first assault, a first-hit bonus, Luck after a wound when it raises the
chance to win the fight: the DP's policy, strictly better only), ties folded in exactly —
in :class:`fractions.Fraction` from the dice's own distributions, then pushes the mass
forward to the joint (STAMINA, LUCK) after a win. A plain fight whose Luck is decided
for the book (:class:`dedale.solve.duel.Duel`) gets an exact twin
(:meth:`ExactFight.book_value`, :meth:`ExactFight.ends_under`) that
:mod:`dedale.solve.exact` values. Escapes and assault limits played in the graph
(:mod:`dedale.solve.escape`) take their chances from :class:`ExactChances` and
:func:`exact_lucky`. Several enemies at once are carried by :mod:`dedale.solve.exact_group`,
fights in which the book acts (and escapes or limits against several enemies in turn) by
the graph's fight nodes (:mod:`dedale.solve.fight_graph`, :mod:`dedale.solve.exact_exits`);
assault limits solved by the forward pass are float-only: refused at their line
(:func:`exact_refusal`, :func:`float_only`).
"""

from __future__ import annotations

import heapq
from fractions import Fraction
from typing import Any

from dedale import ast
from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules import modifiers as mods
from dedale.rules.odds_inputs import below_function, check_size, double_chances, enemy_line_up
from dedale.rules.ruleset import D20Fight, OpposedFight, ReliquesFight
from dedale.solve.model import SolveLimit

MAX_STATES = 100_000
"""Fight states at most in an exact fight (fractions are costly)."""
LOST = -1


def exact_refusal(runner, statement: ast.Fight, spec, ruleset) -> None:
    """Raise a SolveLimit at the fight's line when its outcomes exist only in floats."""
    reason = ""
    if isinstance(ruleset.fight, (D20Fight, ReliquesFight)):
        return  # in fractions: solve/exact_d20.py, solve/exact_reliques.py (or refused there)
    if not isinstance(ruleset.fight, OpposedFight):
        reason = tr("this ruleset's fights are computed in floats")
    elif runner._by_assault(statement):
        return  # played in the graph in fractions (solve/fight_graph.py), or refused there
    elif spec.mode == "together" and len(spec.enemies) > 1:
        return  # in fractions: solve/exact_group.py (plain, or an assault limit without a
        # win paragraph: its ways out), solve/fight_graph.py (an escape, a win paragraph)
    elif spec.escape_after is not None or spec.assault_limit is not None:
        return  # played in the graph (solve.escape, in fractions), its ways out by the
        # forward pass in fractions (solve/exact_exits.py), or refused there
    if reason:
        raise float_only(statement, reason)


def float_only(statement: ast.Fight, reason: str, hint: str = "") -> SolveLimit:
    """The refusal of ``--exact`` at a fight whose outcomes exist only in floats."""
    return SolveLimit(
        tr("--exact cannot carry this fight in fractions: {reason}", reason=reason),
        statement.span,
        hint=hint or tr("drop --exact: the answer in floats is exact to about 1e-12"),
    )


class ExactChances:
    """An assault's chances in fractions, as ``odds_inputs.AssaultChances``."""

    __slots__ = ("p_kill", "p_hero", "p_enemy", "p_tie")

    def __init__(self, fight: OpposedFight, lead: int, immune: bool) -> None:
        self.p_kill, self.p_hero, self.p_enemy, self.p_tie = exact_assault(fight, lead, immune)


def exact_lucky(dice) -> tuple[Fraction, ...]:
    """P(roll <= luck) of a Luck test's dice for luck = 0..max roll, in fractions."""
    dist = dice.distribution()
    return tuple(sum((p for t, p in dist.items() if t <= luck), Fraction(0))
                 for luck in range(max(dist) + 1))  # fmt: skip


def exact_outcomes(ruleset, hero, spec, bonus: int, armour: bool, luck_stat, luck_policy: str,
                   defeat: bool = False):  # fmt: skip
    """``((p, ("f", (STAMINA, LUCK) or LOST)), ...)`` with Fraction shares, as the oracle's
    float outcomes (LUCK as the DP leaves it when Luck is tested, else the hero's); with
    ``defeat`` (a defeat exit, a plain fight) a loss is ``(0, LUCK)``, the LUCK it leaves."""
    if spec.mode == "together" and len(spec.enemies) > 1:  # the exact odds at once, in XF
        from dedale.solve.exact_group import exact_group_outcomes

        return exact_group_outcomes(ruleset, hero, spec, bonus, armour, luck_stat, luck_policy)
    params = ruleset.fight
    luck = hero.stats.get(luck_stat) if luck_stat else None
    fight = ExactFight(
        ruleset, hero.stats[params.attack_stat], spec.enemies, mode=spec.mode, bonus=bonus,
        enemy_damage=spec.enemy_damage, armour=armour, class_name=hero.class_name,
        luck_policy=luck_policy if luck is not None else "none", defeat=defeat,
    )  # fmt: skip
    ends, lost = fight.outcomes(hero.stats[params.health], luck)
    found: list[tuple[Any, Any]] = [(p, ("f", end)) for end, p in sorted(ends.items()) if p]
    if lost:
        found.append((lost, ("f", LOST)))
    return tuple(found)


def exact_assault(fight: OpposedFight, lead: int, immune: bool) -> tuple[Fraction, ...]:
    """(instant kill, the hero wounds, the enemy wounds, tie) of one assault, exactly (as
    ``odds_inputs._assault_odds`` before its rounding)."""
    assert fight.dice is not None
    dist = fight.dice.distribution()
    kill = hero = enemy = tie = Fraction(0)
    doubles = double_chances(fight) if fight.instant_kill_on_double and not immune else {}
    p_below = below_function(dist)
    for roll, p in dist.items():
        p_double = doubles.get(roll, Fraction(0))
        kill += p_double
        plain = p - p_double
        if not plain:
            continue
        lower, upto = p_below(lead + roll), p_below(lead + roll + 1)
        hero += plain * lower
        tie += plain * (upto - lower)
        enemy += plain * (1 - upto)
    return kill, hero, enemy, tie


class ExactFight:
    """One fight setting in fractions (see the module docstring)."""

    def __init__(self, ruleset, hero_skill: int, enemies, *, mode: str, bonus: int,
                 enemy_damage: int | None, armour: bool, class_name: str | None,
                 luck_policy: str, defeat: bool = False) -> None:  # fmt: skip
        fight = ruleset.fight
        self.defeat = defeat  # a lost state is the end key (0, LUCK), as solve.duel's
        abilities = ()
        if class_name is not None and class_name in ruleset.classes:
            abilities = ruleset.classes[class_name].abilities
        attack = hero_skill + bonus + mods.ability_value(abilities, "fight", "attack_bonus")
        self.fight = fight
        self.enemies = enemy_line_up(ruleset, enemies, mode)
        self.params = [exact_assault(fight, attack - skill, immune)
                       for skill, _, immune in self.enemies]  # fmt: skip
        self.armour = armour
        self.first_hit_bonus = mods.ability_value(
            abilities, "first_successful_assault", "bonus_damage"
        )
        self.to_enemy = fight.damage_to_enemy + mods.ability_value(
            abilities, "fight", "damage_bonus"
        )
        self.to_hero = enemy_damage if enemy_damage is not None else fight.damage_to_hero
        test = ruleset.tests.get(fight.luck_test) if fight.luck_test else None
        self.use_luck = luck_policy == "best" and test is not None and test.cost > 0
        self.luck_cost = test.cost if test else 0
        self.lucky = exact_lucky(test.dice) if test is not None else (Fraction(0),)
        self.memo: dict[tuple, Fraction] = {}

    def p_lucky(self, luck: int) -> Fraction:
        return self.lucky[luck] if luck < len(self.lucky) else Fraction(1)

    def _normal(self, state: tuple) -> tuple:
        index, luck, h, e, first, hit = state
        if h > 0 and e <= 0:  # this enemy has fallen: the next steps in, or the fight is won
            if index + 1 >= len(self.enemies):
                return ("won", h, luck)
            index, e, first = index + 1, self.enemies[index + 1][1], False
        return (index, luck, h, e, first and self.armour, hit or not self.first_hit_bonus)

    def value(self, state: tuple) -> Fraction:
        """The chance to win the fight from ``state`` (normalised)."""
        if state[0] == "won":
            return Fraction(1)
        if state[2] <= 0:
            return Fraction(0)
        found = self.memo.get(state)
        if found is None:
            if len(self.memo) > MAX_STATES:
                raise GameError(tr("the exact fight would need more than {limit} states",
                                   limit=number(MAX_STATES, ",")))  # fmt: skip
            stay, outs = self.moves(state)
            total = sum((p * self.value(t) for p, t in outs), Fraction(0))
            found = self.memo[state] = total / (1 - stay) if stay < 1 else Fraction(0)
        return found

    def moves(self, state: tuple, value=None) -> tuple[Fraction, list[tuple[Fraction, tuple]]]:
        """The transitions of one assault (as ``OddsTable._moves``), ties kept apart; Luck
        is tested where that raises ``value`` (default: the chance to win the fight)."""
        value = value or self.value
        index, luck, h, e, first, hit = state
        kill, p_hero, p_enemy, p_tie = self.params[index]
        fight = self.fight
        rows: list[tuple[Fraction, tuple]] = []
        if kill:
            rows.append((kill, self._normal((index, luck, h, 0, False, True))))
        low = max(0, luck - self.luck_cost)
        q = self.p_lucky(luck)
        if p_hero:
            d = self.to_enemy + (0 if hit else self.first_hit_bonus)
            chosen = [(Fraction(1), self._normal((index, luck, h, e - d, False, True)))]
            table = fight.luck_wounding
            if self.use_luck and luck and table is not None:
                base = fight.damage_to_enemy
                option = [
                    (q, self._normal((index, low, h, e - max(0, d + table.lucky - base),
                                      False, True))),
                    (1 - q, self._normal((index, low, h, e - max(0, d + table.unlucky - base),
                                          False, True))),
                ]  # fmt: skip
                if _mean(option, value) > _mean(chosen, value):
                    chosen = option
            rows += [(p_hero * p, t) for p, t in chosen]
        if p_enemy:
            if first and self.armour:
                rows.append((p_enemy, self._normal((index, luck, h, e, False, hit))))
            else:
                d = self.to_hero
                chosen = [(Fraction(1), self._normal((index, luck, h - d, e, False, hit)))]
                table = fight.luck_wounded
                if self.use_luck and luck and table is not None:
                    base = fight.damage_to_hero
                    option = [
                        (q, self._normal((index, low, h - max(0, d + table.lucky - base), e,
                                          False, hit))),
                        (1 - q, self._normal((index, low, h - max(0, d + table.unlucky - base),
                                              e, False, hit))),
                    ]  # fmt: skip
                    if _mean(option, value) > _mean(chosen, value):
                        chosen = option
                rows += [(p_enemy * p, t) for p, t in chosen]
        if p_tie:
            rows.append((p_tie, self._normal((index, luck, h, e, False, hit))))
        stay = sum((p for p, t in rows if t == state), Fraction(0))
        return stay, [(p, t) for p, t in rows if t != state]

    def book_value(self, begin: tuple, terminal: dict):
        """Luck decided for the book (``solve.duel``): the fight from ``begin`` (a state of
        the float table) valued by ``terminal[(STAMINA, LUCK)]`` after a win (and
        ``terminal[(0, LUCK)]`` after a loss with a defeat exit), Luck tested where that
        raises it; returns the value and the value function (memoised)."""
        memo: dict[tuple, Fraction] = {}

        def value(state: tuple) -> Fraction:
            if state[0] == "won":
                return terminal[state[1], state[2]]
            if state[2] <= 0:
                return terminal[0, state[1]] if self.defeat else Fraction(0)
            found = memo.get(state)
            if found is None:
                if len(memo) > MAX_STATES:
                    raise GameError(tr("the exact fight would need more than {limit} states",
                                       limit=number(MAX_STATES, ",")))  # fmt: skip
                stay, outs = self.moves(state, value)
                total = sum((p * value(t) for p, t in outs), Fraction(0))
                found = memo[state] = total / (1 - stay) if stay < 1 else Fraction(0)
            return found

        return value(self._normal(begin)), value

    def ends_under(self, begin: tuple, terminal: dict) -> dict[tuple[int, int], Fraction]:
        """The (STAMINA, LUCK) after a win, with their chances, when Luck is tested as
        :meth:`book_value` decides for ``terminal`` (the loss is the missing mass, or the
        keys ``(0, LUCK)`` with a defeat exit)."""
        _, value = self.book_value(begin, terminal)
        start = self._normal(begin)
        ends: dict[tuple[int, int], Fraction] = {}
        pending = {start: Fraction(1)}
        heap = [(_order(start), start)]
        while heap:
            _, state = heapq.heappop(heap)
            mass = pending.pop(state)
            if state[0] == "won":
                ends[state[1], state[2]] = ends.get((state[1], state[2]), Fraction(0)) + mass
                continue
            if state[2] <= 0:
                if self.defeat:
                    ends[0, state[1]] = ends.get((0, state[1]), Fraction(0)) + mass
                continue
            stay, outs = self.moves(state, value)
            if stay >= 1:
                continue
            for p, nxt in outs:
                if nxt not in pending:
                    pending[nxt] = Fraction(0)
                    heapq.heappush(heap, (_order(nxt), nxt))
                pending[nxt] += mass * p / (1 - stay)
        return ends

    def outcomes(self, stamina: int, luck: int | None) -> tuple[dict, Fraction]:
        """``({(STAMINA, LUCK): p} after a win, P(lost))`` from the start, unconditional."""
        check_size(max(0, luck or 0), stamina, self.enemies)
        luck_value = max(0, luck) if luck is not None and self.use_luck else 0
        kept = luck if luck is not None else 0  # LUCK after the fight when Luck is untouched
        start = self._normal((0, luck_value, stamina, self.enemies[0][1], True, False))
        ends: dict[tuple[int, int], Fraction] = {}
        lost = Fraction(0)
        pending = {start: Fraction(1)}
        heap = [(_order(start), start)]
        while heap:
            _, state = heapq.heappop(heap)
            mass = pending.pop(state)
            if state[0] == "won":
                key = (state[1], state[2] if self.use_luck else kept)
                ends[key] = ends.get(key, Fraction(0)) + mass
                continue
            if state[2] <= 0:
                if self.defeat:  # the LUCK a defeat leaves (a key of its own)
                    key = (0, state[1] if self.use_luck else kept)
                    ends[key] = ends.get(key, Fraction(0)) + mass
                else:
                    lost += mass
                continue
            stay, outs = self.moves(state)
            if stay >= 1:  # nobody is ever wounded: the fight never ends (a loss)
                lost += mass
                continue
            for p, nxt in outs:
                if nxt not in pending:
                    pending[nxt] = Fraction(0)
                    heapq.heappush(heap, (_order(nxt), nxt))
                pending[nxt] += mass * p / (1 - stay)
        return ends, lost


def _mean(option: list[tuple[Fraction, tuple]], value) -> Fraction:
    return sum((p * value(t) for p, t in option), Fraction(0))


def _order(state: tuple) -> tuple:
    """An order every transition follows (so each state is pushed once, with all its mass):
    the enemy, then LUCK, STAMINA and the enemy's STAMINA falling, the first assault and
    the first hit passing; the ends last."""
    if state[0] == "won":
        return (1 << 30, 0, 0, 0, 0, 0)
    index, luck, h, e, first, hit = state
    return (index, -luck, -h, -e, -int(first), int(hit))
