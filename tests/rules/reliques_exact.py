"""An exact, independent model of a one-to-one reliques fight, written from RULES.md alone
(sections 4 and "Decisions added after the first audit"), to check the fight code's odds.

It shares no code with dedale.rules.fight_reliques: the duo outcome, the health malus, the
turn (initiative, actions, rounds by margin, defence costs, the critical parry's strike
back) are written again here. The fight it models: no protection on either side, no
heroism point, the hero always parries (the answer ``no`` to "dodge?"), the enemy takes its
better defence duo (dodge on a tie); Dédale's choices where the texts are silent — a
critical success attack cannot be avoided, a critical failure attack ends the attacker's
actions for the turn, a fighter with an action left always defends.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

FACES = [(a, b) for a in range(1, 7) for b in range(1, 7)]
LEVEL_MALUS = (0, 0, -1, -2, -3)  # healthy ... agony
MAX_CHAIN = 12


@dataclass(frozen=True)
class Fighter:
    FOR: int
    AGL: int
    PER: int
    weapon: int
    health: int
    initial: int = 0  # the hero's initial health (his level malus), 0 for an enemy

    def actions(self) -> int:
        return 1 if self.AGL <= 2 else 2 if self.AGL <= 4 else 3

    def malus(self, health: int) -> int:
        if not self.initial:
            return 0
        size = max(1, self.initial // 5)
        return LEVEL_MALUS[min(4, (self.initial - health) // size)]

    def defence(self) -> tuple[int, int]:
        """The enemy's better duo (dodge AGL+PER on a tie); the hero parries (FOR+AGL)."""
        if not self.initial and self.AGL + self.PER >= self.FOR + self.AGL:
            return (self.AGL, self.PER)
        return (self.FOR, self.AGL)


@cache
def duo(pair: tuple[int, int], bonus: int) -> tuple[tuple[str, int, float], ...]:
    """``(outcome, signed margin, chance)`` of a 2d6 roll-under test of ``pair``."""
    target = max(2, min(12, sum(pair) + bonus))
    rows: dict[tuple[str, int], float] = {}
    for faces in FACES:
        total = sum(faces)
        if faces == (6, 6):
            outcome = "failure" if pair == (6, 6) else "critical_failure"
        elif faces == (1, 1):
            outcome = "success" if pair == (1, 1) else "critical_success"
        else:
            outcome = "success" if total <= target else "failure"
        key = (outcome, target - total)
        rows[key] = rows.get(key, 0.0) + 1 / 36
    return tuple((o, m, p) for (o, m), p in sorted(rows.items()))


class ExactFight:
    """The hero's chance to win, by a Markov chain over (hero health, enemy health); exact
    up to floating point (a turn in which nobody is hurt is summed as a geometric series)."""

    def __init__(self, hero: Fighter, enemy: Fighter) -> None:
        self.sides = (hero, enemy)

    def test(self, who: int, pair: tuple[int, int], health: tuple[int, int]):
        return duo(tuple(sorted(pair)), self.sides[who].malus(health[who]))

    def win(self) -> float:
        hero, enemy = self.sides
        values: dict[tuple[int, int], float] = {}
        for total in range(hero.health + enemy.health + 1):
            for hh in range(max(0, total - enemy.health), min(hero.health, total) + 1):
                state = (hh, total - hh)
                if hh == 0:
                    values[state] = 0.0
                elif state[1] == 0:
                    values[state] = 1.0
                else:
                    values[state] = self._value(state, values)
        return values[(hero.health, enemy.health)]

    def _value(self, state, values) -> float:
        stay, moved = 0.0, 0.0
        for end, chance in self.turn(state).items():
            if end == state:
                stay += chance
            else:
                moved += chance * values[end]
        return moved / (1 - stay)

    def turn(self, state: tuple[int, int]) -> dict[tuple[int, int], float]:
        out: dict[tuple[int, int], float] = {}
        rolls = []
        for who, side in enumerate(self.sides):
            rows = []
            for outcome, margin, p in self.test(who, (side.AGL, side.PER), state):
                actions = side.actions()
                if outcome == "critical_failure":
                    actions = 1 if actions >= 2 else 0
                rows.append(((outcome == "critical_success", margin), actions, p))
            rolls.append(rows)
        for rank_h, acts_h, p_h in rolls[0]:
            for rank_e, acts_e, p_e in rolls[1]:
                order = (0, 1) if rank_h >= rank_e else (1, 0)  # ties to the hero
                rounds = max(acts_h, acts_e)
                ends = self.rounds(state, (acts_h, acts_e), order, 0, 0, rounds)
                for end, p in ends.items():
                    out[end] = out.get(end, 0.0) + p * p_h * p_e
        return out

    @cache  # noqa: B019 (one model per test, dropped with it)
    def rounds(self, health, left, order, round_, position, rounds):
        """End-of-turn health distribution from the slot (``round_``, ``position``)."""
        if round_ >= rounds or 0 in health:
            return {health: 1.0}
        nxt = (round_, position + 1) if position + 1 < 2 else (round_ + 1, 0)
        who = order[position]
        if left[who] <= 0:
            return self.rounds(health, left, order, *nxt, rounds)
        spent = list(left)
        spent[who] -= 1
        out: dict[tuple[int, int], float] = {}
        for (h, lft), p in self.action(who, health, tuple(spent)).items():
            for end, q in self.rounds(h, lft, order, *nxt, rounds).items():
                out[end] = out.get(end, 0.0) + p * q
        return out

    def action(self, who: int, health, left):
        """One attack of ``who``: distribution of (health, actions left)."""
        side, other = self.sides[who], 1 - who
        out: dict = {}

        def add(key, p):
            out[key] = out.get(key, 0.0) + p

        for outcome, margin, p in self.test(who, (side.FOR, side.AGL), health):
            if outcome == "critical_failure":
                lft = list(left)
                lft[who] = 0
                add((health, tuple(lft)), p)
            elif outcome == "failure" or margin < 0:
                add((health, left), p)
            elif outcome == "critical_success" or left[other] <= 0:
                add((self.land(health, other, side.weapon + margin), left), p)
            else:
                lft = list(left)
                lft[other] -= 1
                pair = self.sides[other].defence()
                for d_out, d_margin, q in self.test(other, pair, health):
                    if d_out == "critical_success":
                        for key, r in self.strike_back(other, health, tuple(lft), d_margin, 0):
                            add(key, p * q * r)
                    elif d_out == "success" and d_margin >= margin:
                        add((health, tuple(lft)), p * q)
                    else:
                        add((self.land(health, other, side.weapon + margin), tuple(lft)), p * q)
        return out

    def strike_back(self, striker: int, health, left, margin: int, depth: int):
        target = 1 - striker
        if left[target] <= 0 or depth >= MAX_CHAIN:
            return [((self.land(health, target, self.sides[striker].weapon + margin), left), 1)]
        lft = list(left)
        lft[target] -= 1
        rows = []
        for d_out, d_margin, q in self.test(target, self.sides[target].defence(), health):
            if d_out == "critical_success":
                for key, r in self.strike_back(target, health, tuple(lft), d_margin, depth + 1):
                    rows.append((key, q * r))
            else:
                hit = self.land(health, target, self.sides[striker].weapon + margin)
                rows.append(((hit, tuple(lft)), q))
        return rows

    @staticmethod
    def land(health, who: int, damage: int) -> tuple[int, int]:
        new = list(health)
        new[who] = max(0, new[who] - damage)
        return tuple(new)
