"""The value function of one d20 fight, phase by phase, and the forward pass of its policy.

A node is (assaults played, the hero's HP, each enemy's HP, phase): phase 0 is the top of
the fight's loop (the ways it ends, the escape it offers, the hero's target and his blow
with the target's riposte after a miss), phase ``k + 1`` is enemy ``k``'s blow (and the
hero's riposte after a miss). The phases of one assault that leave every HP as it was form
a chain back to phase 0 (when the assault count no longer matters: no limit, or past the
escape's mark) — the nodes of one (assaults, HP) *group* are solved together: each phase's
value is linear in phase 0's, whose value is the best choice's ``x / (1 - stay)`` (a fixed
point: see docs/validator.md). Every other move lowers some HP or moves to the next
assault count, so groups are solved in a depth-first post-order, bounded by ``budget``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from dedale.rules.fight_d20 import Fighter
from dedale.rules.fights import ESCAPED, LIMIT, MAX_ASSAULTS, WON, FightSpec, endless_fight
from dedale.rules.odds_d20_attack import AttackLaw, D20OddsTooLarge, attack_law
from dedale.rules.ruleset import D20Fight

STATE_BUDGET = 60_000
"""Most (assaults, HP) groups one exact computation solves (past it: D20OddsTooLarge)."""
END = -1  # the phase after the last blow of an assault
LOSS = None
ESCAPE = -1  # the choice of escaping
THRESHOLD = "threshold"  # the way out "when your HP falls to N or less -> X"
DOOMED = {"limit": LIMIT, "escape": ESCAPED, "threshold": THRESHOLD}
"""validator.death_ways' names of the ways out this engine follows, as its own."""

Group = tuple  # (assaults, hero HP, enemy HP...)


@dataclass(frozen=True, slots=True)
class D20Odds:
    """Exact results of one d20 fight; ``ends`` holds the unconditional chance of each
    way out alive with the hero's HP then: ``{(way, HP): p}``, way in won/limit/escaped/
    threshold."""

    win_probability: float
    limit_probability: float
    escape_probability: float
    expected_assaults: float
    ends: dict[tuple[str, int], float] = field(default_factory=dict)
    states: int = 0
    decisions: tuple[str, ...] = ()
    threshold_probability: float = 0.0
    """The chance that the fight stops at "when your HP falls to N or less" (way ``threshold``)."""
    doomed: tuple[str, ...] = ()
    """The ways out (limit, escaped, threshold) whose paragraph is a death ending
    (dedale.validator.death_ways): their chance is no way out alive."""

    @property
    def alive_probability(self) -> float:
        """The chance to leave the fight alive (won, limit reached, escaped, threshold; not
        by a way out to a death ending, ``doomed``)."""
        doomed = self.doomed
        return (
            self.win_probability
            + (0.0 if LIMIT in doomed else self.limit_probability)
            + (0.0 if ESCAPED in doomed else self.escape_probability)
            + (0.0 if THRESHOLD in doomed else self.threshold_probability)
        )

    @property
    def loss_probability(self) -> float:
        return max(0.0, 1.0 - self.alive_probability)

    @property
    def end_states(self) -> dict[int, float]:
        """The hero's HP after a win (sums to 1; empty when he cannot win)."""
        won = {hp: p for (way, hp), p in self.ends.items() if way == WON}
        total = sum(won.values())
        return {hp: p / total for hp, p in sorted(won.items())} if total > 0 else {}


class D20Engine:
    """One d20 fight between ``hero`` and ``enemies`` as they start (see module doc)."""

    def __init__(
        self,
        params: D20Fight,
        hero: Fighter,
        enemies: list[Fighter],
        spec: FightSpec,
        *,
        target: str = "best",
        budget: int = STATE_BUDGET,
        threshold: int | None = None,
        seconds: float | None = None,
        doomed: frozenset[str] = frozenset(),
    ) -> None:
        self.together = spec.mode == "together"
        # the ways out to a death ending (validator.death_ways' names: limit, escape,
        # threshold) as the engine's: their value is 0, a defeat, not 1
        self.doomed = frozenset(DOOMED[w] for w in doomed if w in DOOMED)
        self.seconds = seconds  # a bound in time as well as in states (None: states only)
        self.threshold = threshold  # "when your HP falls to N or less": after each assault
        self.choose = self.together and target == "best" and len(enemies) > 1
        self.limit = spec.assault_limit
        self.escape_after = spec.escape_after
        marks = [m for m in (self.limit, self.escape_after) if m is not None]
        if threshold is not None:  # (checked once an assault is over: not at the start)
            marks.append(1)
        self.cap = max(marks) if marks else 0
        self.start: Group = (0, hero.health, *(e.health for e in enemies))
        strike = [attack_law(params, hero, e) for e in enemies]  # hero -> enemy i
        struck = [attack_law(params, e, hero) for e in enemies]  # enemy i -> hero
        self.struck = struck
        # the exchanges: (stay, ((p, wounded index, damage), ...)); index 1 is the hero
        self.hero_blow = [_exchange(strike[i], struck[i], 2 + i, 1) for i in range(len(enemies))]
        self.enemy_blow = [_exchange(struck[i], strike[i], 1, 2 + i) for i in range(len(enemies))]
        self.budget = budget
        self.values: dict[Group, list[float]] = {}
        self.choice: dict[Group, int] = {}
        self.order: list[Group] = []
        self.pending: dict[Group, dict[tuple, tuple[float, list]]] = {}

    # ------------------------------------------------------------------ the fight's order
    def _ending(self, group: Group) -> str | None:
        """The way the fight ends at the top of its loop: the book's check after an assault
        (the threshold) comes before the fight's own (the enemies down, the limit)."""
        if self.threshold is not None and group[0] >= 1 and group[1] <= self.threshold:
            return THRESHOLD
        if all(e <= 0 for e in group[2:]):
            return WON
        if self.limit is not None and group[0] >= self.limit:
            return LIMIT
        return None

    def _escape(self, group: Group) -> AttackLaw | None:
        """The blow the hero takes if he escapes now (None: no escape offered)."""
        if self.escape_after is None or group[0] < self.escape_after:
            return None
        return self.struck[next(i for i, e in enumerate(group[2:]) if e > 0)]

    def _next_round(self, assaults: int) -> int:
        return min(assaults + 1, self.cap) if self.limit is None else assaults + 1

    def _after(self, group: Group, enemy: int | None, target: int) -> int:
        """The phase after the hero's blow (``enemy`` None) or enemy ``enemy``'s."""
        if not self.together:
            return target + 1 if enemy is None and group[2 + target] > 0 else END
        start = 0 if enemy is None else enemy + 1
        for i in range(start, len(group) - 2):
            if group[2 + i] > 0:
                return i + 1
        return END

    def _moves(self, group: Group, phase: int, target: int) -> tuple[float, list]:
        """``(stay, [(p, node or LOSS)])`` of one phase (the stay goes to the next phase),
        memoised while the group waits on the stack."""
        table = self.pending.get(group)
        if table is None:
            table = self.pending[group] = {}
        found = table.get((phase, target))
        if found is None:
            found = table[(phase, target)] = self._compute_moves(group, phase, target)
        return found

    def _compute_moves(self, group: Group, phase: int, target: int) -> tuple[float, list]:
        if phase == 0:
            stay, blows = self.hero_blow[target]
            enemy = None
        else:
            stay, blows = self.enemy_blow[phase - 1]
            enemy = phase - 1
        found = []
        for p, at, damage in blows:
            left = group[at] - damage
            if at == 1 and left <= 0:
                found.append((p, LOSS))
                continue
            moved = (*group[:at], max(0, left), *group[at + 1 :])
            after = self._after(moved, enemy, target)
            if after == END:
                found.append((p, ((self._next_round(group[0]), *moved[1:]), 0)))
            else:
                found.append((p, (moved, after)))
        return stay, found

    def _chain(self, group: Group, target: int) -> list[int]:
        """The enemies' phases of an assault in which nothing changes."""
        phases, phase = [], self._after(group, None, target)
        while phase != END:
            phases.append(phase)
            phase = self._after(group, phase - 1, target)
        return phases

    def _targets(self, group: Group) -> list[int]:
        living = [i for i, e in enumerate(group[2:]) if e > 0]
        return living if self.choose else living[:1]

    # ------------------------------------------------------------------ values
    def _value(self, node) -> float:
        if node is LOSS:
            return 0.0
        group, phase = node
        return self.values[group][phase]

    def _needs(self, group: Group) -> list[Group]:
        """The groups this one's values read (itself excluded)."""
        found = []
        for target in self._targets(group):
            for phase in (0, *self._chain(group, target)):
                for _, node in self._moves(group, phase, target)[1]:
                    if node is not LOSS and node[0] != group:
                        found.append(node[0])
        after = (self._next_round(group[0]), *group[1:])
        if after != group:
            found.append(after)
        return found

    def solve(self) -> D20Odds:
        """Values bottom-up from the start, then the forward pass of the chosen policy."""
        values = self.values
        stack = [self.start]
        started, steps = time.process_time(), 0
        while stack:
            steps += 1
            if self.seconds is not None and steps % 512 == 0:
                if time.process_time() - started > self.seconds:
                    raise D20OddsTooLarge.slow(self.seconds)
            group = stack[-1]
            if group in values:
                stack.pop()
                continue
            ending = self._ending(group)
            if ending is not None and not self._midway(group, ending):
                values[group] = [self._way(ending)]
                self.order.append(group)
                stack.pop()
                continue
            needs = self._chain_needs(group) if ending is not None else self._needs(group)
            missing = [g for g in needs if g not in values]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            if ending is not None:
                self._solve_midway(group)
            else:
                self._solve_group(group)
            self.pending.pop(group, None)
            self.order.append(group)
            if len(values) > self.budget:
                raise D20OddsTooLarge.states(self.budget)
        return self._forward()

    def _way(self, ending: str) -> float:
        """The value of leaving by ``ending``: 1.0, or 0.0 when its paragraph is a death
        ending (``doomed``)."""
        return 0.0 if ending in self.doomed else 1.0

    def _midway(self, group: Group, ending: str) -> bool:
        """Whether a group that ends at the top of the loop (the threshold: the hero low
        after an assault) still has blows to play midway through an assault: the threshold
        is checked only once the assault is over."""
        return ending == THRESHOLD and any(e > 0 for e in group[2:])

    def _chain_needs(self, group: Group) -> list[Group]:
        target = self._targets(group)[0]
        found = [
            node[0] for phase in self._chain(group, target)
            for _, node in self._moves(group, phase, target)[1]
            if node is not LOSS and node[0] != group
        ]  # fmt: skip
        after = (self._next_round(group[0]), *group[1:])
        return [*found, after] if after != group else found

    def _solve_midway(self, group: Group) -> None:
        """Phase 0 ends the fight (value 1: a way out alive, 0 to a death ending); the
        enemies' blows of an assault under way are played to its end."""
        target = self._targets(group)[0]
        row = [0.0] * (len(group) - 1)
        row[0] = self._way(THRESHOLD)
        for phase, (x, s) in self._tail(group, self._chain(group, target), target).items():
            row[phase] = x + s
        self.values[group] = row
        self.choice[group] = target

    def _tail(self, group: Group, chain: list[int], target: int) -> dict[int, tuple]:
        """Each chain phase's value as ``(X, S)``: ``X + S * V0`` (V0: phase 0's value)."""
        after = (self._next_round(group[0]), *group[1:])
        x, s = (0.0, 1.0) if after == group else (self.values[after][0], 0.0)
        found = {}
        for phase in reversed(chain):
            stay, moves = self._moves(group, phase, target)
            rest = sum(p * self._value(node) for p, node in moves)
            x, s = rest + stay * x, stay * s
            found[phase] = (x, s)
        return found

    def _solve_group(self, group: Group) -> None:
        best, chosen, endless, tails = -1.0, 0, True, None
        for target in self._targets(group):
            chain = self._chain(group, target)
            tail = self._tail(group, chain, target)
            stay, moves = self._moves(group, 0, target)
            x, s = tail[chain[0]] if chain else self._end_of_round(group)
            loop = stay * s
            if loop >= 1.0 - 1e-15:
                continue  # this assault never changes anything: it never ends the fight
            endless = False
            found = (sum(p * self._value(node) for p, node in moves) + stay * x) / (1.0 - loop)
            if found > best + 1e-12:
                best, chosen, tails = found, target, tail
        law = self._escape(group)
        if law is not None:
            escape = (1.0 - law.wound_at_least(group[1])) * self._way(ESCAPED)
            if endless or escape > best + 1e-12:
                best, chosen, endless = escape, ESCAPE, False
                tails = self._tail(group, self._chain(group, self._targets(group)[0]),
                                   self._targets(group)[0])  # fmt: skip
        if endless:
            raise endless_fight(MAX_ASSAULTS)
        row = [0.0] * (len(group) - 1)
        row[0] = best
        for phase, (x, s) in (tails or {}).items():
            row[phase] = x + s * best
        self.values[group] = row
        self.choice[group] = chosen

    def _end_of_round(self, group: Group) -> tuple[float, float]:
        after = (self._next_round(group[0]), *group[1:])
        return (0.0, 1.0) if after == group else (self.values[after][0], 0.0)

    def _play_out(self, group: Group, arrived: list[float], send, end) -> None:
        """The forward pass of a threshold group's enemy blows midway through an assault."""
        target = self._targets(group)[0]
        carry = 0.0
        for phase in self._chain(group, target):
            stay, moves = self._compute_moves(group, phase, target)
            here = arrived[phase] + carry
            for p, node in moves:
                send(node, here * p)
            carry = here * stay
        after = (self._next_round(group[0]), *group[1:])
        if after == group:
            end(THRESHOLD, group[1], carry)  # back at the top of the loop: the threshold
        else:
            send((after, 0), carry)

    # ------------------------------------------------------------------ forward pass
    def _forward(self) -> D20Odds:
        mass: dict[Group, list[float]] = {self.start: [1.0] + [0.0] * (len(self.start) - 2)}
        ends: dict[tuple[str, int], float] = {}
        assaults = 0.0
        decisions: set[str] = set()

        def end(way: str, hp: int, p: float) -> None:
            ends[(way, hp)] = ends.get((way, hp), 0.0) + p

        def send(node, p: float) -> None:
            if node is LOSS or p <= 0.0:
                return
            group, phase = node
            row = mass.get(group)
            if row is None:
                row = mass[group] = [0.0] * (len(group) - 1)
            row[phase] += p

        for group in reversed(self.order):
            arrived = mass.pop(group, None)
            if arrived is None or not any(arrived):
                continue
            way = self._ending(group)
            if way is not None:
                end(way, group[1], arrived[0])
                if self._midway(group, way):  # the assault under way is played out
                    self._play_out(group, arrived, send, end)
                continue
            chosen = self.choice[group]
            target = self._targets(group)[0] if chosen == ESCAPE else chosen
            if chosen not in (ESCAPE, self._targets(group)[0]):
                decisions.add("target")
            chain = self._chain(group, target)
            stays = {phase: self._compute_moves(group, phase, target) for phase in chain}
            looping = (self._next_round(group[0]), *group[1:]) == group
            # the mass that comes back to phase 0 round after round (folded exactly)
            first = arrived[0]
            through = 1.0
            for phase in reversed(chain):
                through *= stays[phase][0]
                if looping:
                    first += arrived[phase] * through
            if chosen == ESCAPE:
                decisions.add("escape")
                law = self._escape(group)
                assert law is not None
                for damage, p in ((0, law.miss + law.stay), *law.hits):
                    if group[1] - damage > 0:
                        end(ESCAPED, group[1] - damage, first * p)
                carry = 0.0
            else:
                stay, moves = self._compute_moves(group, 0, target)
                if looping:
                    first /= 1.0 - stay * through
                assaults += first
                for p, node in moves:
                    send(node, first * p)
                carry = first * stay
            for phase in chain:
                stay, moves = stays[phase]
                here = arrived[phase] + carry
                for p, node in moves:
                    send(node, here * p)
                carry = here * stay
            if not looping:
                send(((self._next_round(group[0]), *group[1:]), 0), carry)
        totals = {w: 0.0 for w in (WON, LIMIT, ESCAPED, THRESHOLD)}
        for (way, _), p in ends.items():
            totals[way] += p
        return D20Odds(
            win_probability=totals[WON], limit_probability=totals[LIMIT],
            escape_probability=totals[ESCAPED], expected_assaults=assaults,
            ends=dict(sorted(ends.items())), states=len(self.values),
            decisions=tuple(sorted(decisions)), threshold_probability=totals[THRESHOLD],
            doomed=tuple(sorted(self.doomed)),
        )  # fmt: skip


def _exchange(first: AttackLaw, second: AttackLaw, hurt_first: int, hurt_second: int):
    """One blow and, after a miss, the riposte: ``(stay, ((p, wounded index, damage)...))``."""
    blows = [(p, hurt_first, damage) for damage, p in first.hits]
    blows += [(first.miss * p, hurt_second, damage) for damage, p in second.hits]
    stay = first.stay + first.miss * (second.miss + second.stay)
    return stay, tuple((p, at, damage) for p, at, damage in blows if p > 0.0)
