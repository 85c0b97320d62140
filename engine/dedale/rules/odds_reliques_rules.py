"""The reliques fight's rules as the DP reads them (see :mod:`dedale.rules.odds_reliques_dp`):
the fighters' duos, the duo tests over the 36 faces, the initiative rolls, and the steps of a
turn on a state (who acts next, an action spent, a blow landing). Both of the DP's paths, the
general ``(a, b, kernel)`` one and the float one (:mod:`dedale.rules.odds_reliques_fast`),
read the rules from here only."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.checks import CRITICAL_FAILURE, CRITICAL_SUCCESS, _duo_outcome, duo_target
from dedale.rules.fight_reliques import Side, actions_of
from dedale.rules.ruleset import ReliquesFight

MAX_INITIATIVES = 300_000
"""Joint initiative rolls of the fighters of one turn at most (several enemies at once)."""
_MISS, _HIT, _CRIT, _CF = 0, 1, 2, 3  # attack outcome kinds (_CF: a critical failure)


class ReliquesOddsTooLarge(GameError):
    """The exact odds of a reliques fight would need more than ``MAX_NODES`` states."""


@dataclass(frozen=True, slots=True)
class _Fighter:
    initiative: tuple[int, int]
    attack: tuple[int, int]
    defences: tuple[tuple[int, int], ...]  # the hero's choices, or the enemy's one duo
    actions: int
    weapon: int


def fighter(params: ReliquesFight, side: Side, is_hero: bool) -> _Fighter:
    """The duos, actions and weapon of one side of the fight."""

    def duo(names: tuple[str, str]) -> tuple[int, int]:
        try:
            return (int(side.stats[names[0]]), int(side.stats[names[1]]))
        except KeyError as error:
            raise GameError(
                tr("{name} has no {stat}", name=side.name, stat=error.args[0])
            ) from None

    dodge, parry = duo(params.dodge), duo(params.parry)
    if is_hero:
        defences = (dodge,) if dodge == parry else (dodge, parry)
    else:  # the enemy takes its better duo (dodge on a tie), as the fight does
        defences = (dodge if sum(dodge) >= sum(parry) else parry,)
    return _Fighter(duo(params.initiative), duo(params.attack), defences,
                    actions_of(params, side), side.weapon)  # fmt: skip


def margins(kinds: tuple) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The margins of an attack's plain hits and of its critical success."""
    hits = tuple(m for k, m, _ in kinds if k == _HIT)
    return hits, tuple(m for k, m, _ in kinds if k == _CRIT)


def acting(seq: tuple, left: tuple, es: tuple, target: int) -> tuple:
    """The fighters of ``seq`` able to act, in order: an action left, and (an enemy) itself
    standing or (the hero) his target standing."""
    if len(es) == 1:  # one enemy: everyone with an action left acts while it stands
        return tuple([s for s in seq if left[s] > 0]) if es[0][0] > 0 else ()
    return tuple([
        s for s in seq
        if left[s] > 0 and es[(s or target + 1) - 1][0] > 0
    ])  # fmt: skip


def spend(left: tuple, side: int) -> tuple:
    """The actions left once ``side`` has spent one."""
    spent = list(left)
    spent[side] -= 1
    return tuple(spent)


def landed(st: tuple, defender: int, damage: int) -> tuple:
    """A blow of ``damage`` lands on ``defender`` of the in-turn state ``st``: protection
    absorbs and wears by 1. ``(after, heroism)``: the state after it (None: the hero dies),
    and the state where the hero spends a heroism point to ignore the loss (None: not
    offered)."""
    hh, hp, c, es = st
    if defender == 0:
        absorbed = min(hp, damage)
        if absorbed > 0:
            hp -= 1
            damage -= absorbed
        after = None if damage >= hh else (hh - damage, hp, c, es)
        offered = damage > 0 and c > 0 and damage <= hh
        return after, ((hh, hp, c - 1, es) if offered else None)
    eh, ep = es[defender - 1]
    absorbed = min(ep, damage)
    if absorbed > 0:
        ep -= 1
        damage -= absorbed
    enemies = list(es)
    enemies[defender - 1] = (max(0, eh - damage), ep)
    return (hh, hp, c, tuple(enemies)), None


class ReliquesTables:
    """Mixed into ``_ReliquesDP``: the tests, attacks, defences and initiatives of the
    fight's fighters, each computed once (``self.ruleset``, ``self.fighters``, ``self.malus``
    and the dicts are the DP's)."""

    def _chance(self, count: int, of: int):
        """``count / of``: a float (``dedale solve --exact`` makes it a fraction:
        solve/exact_reliques.py)."""
        return count / of

    def _test(self, values: tuple[int, int], bonus: int) -> tuple:
        """``(kinds, crit, avoid)`` of a duo test: ``kinds`` the (kind, margin, p) of every
        outcome, ``crit`` the chance and margin of a critical success, ``avoid[m]`` the
        chance of a plain success of margin ``m`` or more."""
        key = (values, bonus)
        found = self.tests.get(key)
        if found is not None:
            return found
        target = duo_target(self.ruleset, values, bonus)
        counts: dict[tuple[int, int], int] = {}
        for faces in product(range(1, 7), repeat=2):
            outcome = _duo_outcome(self.ruleset, values, faces, target)
            margin = target - sum(faces)
            if outcome == CRITICAL_FAILURE:
                kind, margin = _CF, 0
            elif outcome == CRITICAL_SUCCESS:
                kind = _CRIT
            elif outcome == "failure" or margin < 0:
                kind, margin = _MISS, 0
            else:
                kind = _HIT
            counts[(kind, margin)] = counts.get((kind, margin), 0) + 1
        kinds = tuple((k, m, self._chance(n, 36)) for (k, m), n in sorted(counts.items()))
        crit = next(((p, m) for k, m, p in kinds if k == _CRIT), (0.0, 0))
        # avoid[m]: a plain success of margin m or more (a defence avoiding margin m)
        avoid = [self._chance(sum(n for (k, dm), n in counts.items() if k == _HIT and dm >= m),
                              36) for m in range(14)]  # fmt: skip
        found = self.tests[key] = (kinds, crit, avoid)
        return found

    def _attack(self, values: tuple[int, int], bonus: int) -> tuple:
        """``(kinds, plain hit margins, critical success margins)`` of an attack test."""
        key = (values, bonus)
        found = self.attacks.get(key)
        if found is None:
            kinds = self._test(values, bonus)[0]
            found = self.attacks[key] = (kinds, *margins(kinds))
        return found

    def _defences(self, defender: int, malus: int) -> tuple:
        """The defence tests (``_test``) of ``defender`` with ``malus``: the hero's dodge
        and parry, or the enemy's one duo."""
        key = (defender, malus)
        found = self.defence_tests.get(key)
        if found is None:
            duos = self.fighters[defender].defences
            found = self.defence_tests[key] = tuple(self._test(duo, malus) for duo in duos)
        return found

    def _hero_malus(self, health: int) -> int:
        return self.malus[min(max(health, 0), len(self.malus) - 1)]

    def _initiative(self, malus: int, sides: tuple[int, ...]) -> tuple:
        """``(p, order, actions left)`` of every initiative the fighters can roll."""
        key = (malus, sides)
        found = self.initiatives.get(key)
        if found is not None:
            return found
        per_side = []
        for index, side in enumerate(sides):
            fighter = self.fighters[side]
            values = fighter.initiative
            target = duo_target(self.ruleset, values, malus if side == 0 else 0)
            faces: dict[tuple, float] = {}
            for dice in product(range(1, 7), repeat=2):
                outcome = _duo_outcome(self.ruleset, values, dice, target)
                actions = fighter.actions
                if outcome == CRITICAL_FAILURE:  # no action, or 1 of 2 or more
                    actions = 1 if actions >= 2 else 0
                margin = target - sum(dice)
                rank = ((outcome == CRITICAL_SUCCESS, margin, side == 0), -index)
                p = self._chance(1, 36)
                faces[(rank, actions)] = faces.get((rank, actions), 0.0) + p
            per_side.append([(side, rank, actions, p) for (rank, actions), p in faces.items()])
        combos = 1
        for rows in per_side:
            combos *= len(rows)
        if combos > MAX_INITIATIVES:
            raise ReliquesOddsTooLarge(
                tr("the exact odds of a reliques fight of {count} fighters at once would "
                   "need more than {limit} initiative rolls", count=len(sides),
                   limit=format(MAX_INITIATIVES, ",")),
                hint=tr("its odds are estimated by a seeded simulation instead"),
            )  # fmt: skip
        table: dict[tuple, float] = {}
        for combo in product(*per_side):
            p = 1.0
            left = [0] * len(self.fighters)
            for side, _, actions, q in combo:
                p *= q
                left[side] = actions
            ranked = sorted(combo, key=lambda entry: entry[1], reverse=True)
            order = tuple(side for side, _, actions, _ in ranked if actions > 0)
            key2 = (order, tuple(left))
            table[key2] = table.get(key2, 0.0) + p
        found = self.initiatives[key] = tuple((p, o, lf) for (o, lf), p in table.items())
        return found
