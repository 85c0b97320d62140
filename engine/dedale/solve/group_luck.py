"""Luck inside an assault at once decided for the book (``--luck best``), for the graph's
fights at once (:class:`dedale.solve.fight_group.GroupFight`).

:class:`dedale.rules.odds_group_exits.GroupExitSolver` picks each Luck test of an assault
at once to leave *that fight* alive (``LuckAssaults._pick``): the wound of the target for
each roll of the hero, then each other enemy's blow, in the enemies' order, knowing the
blows before it. Here the very same steps (its ``_per_roll``, ``_target``,
``_luck_options``, ``_deals``, ``_finish``) are laid out as one tree per target: a chance
node over the hero's roll and the target's outcome, a decision over Luck for the target's
wound, a chance node over each other enemy's blow (it lands or not), a decision over Luck
for each blow that lands, and the state after the assault (a graph node, or a way out).
The graph then decides every Luck test by the value **for the book** of what follows.

A branch that leaves the state as it was (a tie, a blow the armour stops) is folded in
exactly: its mass never lies under a decision (a Luck test that could change nothing is
refused, as the solver refuses it), so it is the same under every choice, and the tree is
scaled by 1 / (1 - that mass).
"""

from __future__ import annotations

from typing import Any

from dedale.i18n import tr
from dedale.solve.model import Chance, Decision, SolveLimit

RESULTS = {"kill": "kill", "hero": "hit", "enemy": "hurt", "tie": "tie"}


def assault_tree(fight, state: tuple, t: int):
    """The tree of one assault against target ``t`` from ``state`` (see the module), or
    None when nobody can ever be wounded (the fight cannot end that way)."""
    return _Assault(fight, state, t).tree()


class _Assault:
    def __init__(self, fight, state: tuple, t: int) -> None:
        self.fight, self.s, self.state, self.t = fight, fight.solver, state, t
        self.memo: dict[tuple, tuple] = {}  # the subtrees the hero's rolls share

    def tree(self):
        s, state, t = self.s, self.state, self.t
        plan = s.plan
        h, luck, es, shifts, k, won, hit, counters = state
        skills = [a + d for (a, _h, _i), d in zip(plan.enemies, shifts, strict=True)]
        base = s.skill
        for enemy, value, when in plan.attacks:
            if s._mine(enemy, t) and s._holds(when, h, counters):
                base += value
        sides = tuple(j for j, e in enumerate(es) if e > 0 and j != t)
        gaps = tuple(base - skills[j] for j in sides)
        guarded = s.armour and k == 0
        branches: list[tuple[Any, Any, Any]] = []
        stay: Any = 0
        for p, double, outcomes, chances in s._per_roll(base - skills[t], gaps, plan.enemies[t][2]):
            side_p = () if guarded else tuple(zip(sides, chances, strict=True))
            for q, winner in outcomes:
                sub, back = self._target(winner, double, side_p)
                stay += p * q * back
                if sub is not None:
                    branches.append((p * q, ("x", RESULTS[winner]), sub))
        if stay >= 1 - 1e-12:
            return None
        scale = self.fight.one / (1 - stay)
        return _chance([(self.fight.exactly(p * scale), token, sub) for p, token, sub in branches])

    def _target(self, winner: str, double: bool, side_p: tuple):
        """The target's side of the assault: a Luck decision over its wound (when Luck may
        be tested), each option a chance node over the outcomes, then the other blows."""
        key = ("target", winner, double, side_p)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._target_now(winner, double, side_p)
        return found

    def _target_now(self, winner: str, double: bool, side_p: tuple):
        options = self.s._target(self.state, self.t, winner)
        built = []
        for option in options:
            rows, back = [], 0
            for at, (w, h1, l1, es1, hit1, dealt) in enumerate(option):
                sub, b = self._sides(winner, double, h1, l1, es1, hit1, dealt, side_p)
                back += w * b
                if sub is not None:
                    token = ("l", at == 0) if len(option) > 1 else ("x", RESULTS[winner])
                    rows.append((self.fight.exactly(w), token, sub))
            built.append((_chance(rows) if rows else None, back))
        return self._decide(built)

    def _sides(self, winner, double, h, luck, es, hit, dealt, side_p):
        """The other enemies' blows in turn (each lands with its chance; Luck on it decided
        knowing the blows before), then the end of the assault: ``(tree, mass back to the
        state)``."""
        if not side_p or h <= 0:
            return self._finish(winner, double, h, luck, es, hit, dealt)
        key = ("sides", winner, double, h, luck, es, hit, dealt, side_p)
        found = self.memo.get(key)
        if found is not None:
            return found
        (j, p), rest = side_p[0], side_p[1:]
        rows, back = [], 0
        if p < 1:
            sub, b = self._sides(winner, double, h, luck, es, hit, dealt, rest)
            back += (1 - p) * b
            if sub is not None:
                rows.append((self.fight.exactly(1 - p), ("x", "tie"), sub))
        if p > 0:
            sub, b = self._landed(j, winner, double, h, luck, es, hit, dealt, rest)
            back += p * b
            if sub is not None:
                rows.append((self.fight.exactly(p), ("x", "hurt"), sub))
        found = self.memo[key] = (_chance(rows) if rows else None), back
        return found

    def _landed(self, j, winner, double, h, luck, es, hit, dealt, rest):
        """Enemy ``j``'s blow landing: the reader's Luck on it, then the blows after it."""
        key = ("landed", j, winner, double, h, luck, es, hit, dealt, rest)
        found = self.memo.get(key)
        if found is not None:
            return found
        s = self.s
        counters = self.state[7]
        built = []
        for option in s._luck_options(s.side, luck, s.fight.luck_wounded,
                                      s.fight.damage_to_hero):  # fmt: skip
            rows, back = [], 0
            for at, (w, lk, d) in enumerate(option):
                for r, wound in s._deals(j, d, h, counters):
                    sub, b = self._sides(winner, double, max(0, h - wound), lk, es, hit, dealt,
                                         rest)  # fmt: skip
                    back += w * r * b
                    if sub is not None:
                        token = ("l", at == 0) if len(option) > 1 else ("x", "hurt")
                        rows.append((self.fight.exactly(w * r), token, sub))
            built.append((_chance(rows) if rows else None, back))
        found = self.memo[key] = self._decide(built)
        return found

    def _finish(self, winner, double, h, luck, es, hit, dealt):
        key = ("finish", winner, double, h, luck, es, hit, dealt)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._finished(winner, double, h, luck, es, hit, dealt)
        return found

    def _finished(self, winner, double, h, luck, es, hit, dealt):
        rows, back = [], 0
        for r, nxt in self.s._finish(self.state, self.t, winner, double, h, luck, es, hit, dealt):
            if nxt == self.state:
                back += r
            else:
                rows.append((self.fight.exactly(r), ("x", "tie"), self.fight.sub(nxt)))
        return (_chance(rows) if rows else None), back

    def _decide(self, built: list):
        """One option as it is, or the reader's Luck decision (as it is; tested)."""
        if len(built) == 1:
            return built[0]
        if any(back for _, back in built):
            raise SolveLimit(tr("a Luck test that may change nothing"),
                             self.fight.statement.span)  # fmt: skip
        from dedale.solve.fight_nodes import NO, YES

        plain, tested = built[0][0], built[1][0]
        if plain is None or tested is None:  # (an option that only comes back: none here)
            return plain or tested, 0
        return Decision(((*YES, tested), (*NO, plain))), 0


def _chance(rows: list):
    """A chance node, the rows that share a subtree (and token) merged."""
    merged: dict[tuple, list] = {}
    for p, token, sub in rows:
        found = merged.get((token, id(sub)))
        if found is None:
            merged[token, id(sub)] = [p, token, sub]
        else:
            found[0] += p
    if len(merged) == 1:
        p, _token, sub = next(iter(merged.values()))
        if p == 1:
            return sub
    return Chance(tuple((p, token, sub) for p, token, sub in merged.values()))
