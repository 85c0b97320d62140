"""The chance to win a d20 duel, as a table shared by every duel of the same two fighters.

A duel (one enemy, no assault limit, no escape) depends on the hero's HP and the enemy's
only through where it starts: ``table[h][e]`` is the chance to win from ``h`` HP against an
enemy of ``e`` HP at the start of an assault, for every ``h`` and ``e`` up to the largest
asked so far (grown on demand). The validator reads every duel of a book with the same
hero and enemy profile from one table. Each cell is the fight's assault in two halves — the
hero's attack (and the enemy's riposte after a miss), then the enemy's (and the hero's
riposte) — whose loops on the same cell are folded in exactly; :class:`D20Engine` plays
the same assault as one step, and the tests hold the two to 1e-12.
"""

from __future__ import annotations

from dedale.rules.fights import MAX_ASSAULTS, endless_fight
from dedale.rules.odds_d20_attack import AttackLaw

MAX_CELLS = 60_000
"""Cells of one table at most (a hero of 30 HP against an enemy of 2,000)."""


class DuelTable:
    """Win chances of the hero (``strike``: his attack on the enemy) against one enemy
    (``struck``: its attack on him)."""

    def __init__(self, strike: AttackLaw, struck: AttackLaw) -> None:
        self.strike, self.struck = strike, struck
        self.first: list[list[float]] = [[0.0]]  # at the hero's half: [h][e]
        self.second: list[list[float]] = [[0.0]]  # at the enemy's half
        # staying in the same cell: the hero's half, then the enemy's
        self.stay_first = strike.stay + strike.miss * (struck.miss + struck.stay)
        self.stay_second = struck.stay + struck.miss * (strike.miss + strike.stay)

    def win(self, hero_hp: int, enemy_hp: int) -> float:
        """The chance to win from ``hero_hp`` HP against an enemy of ``enemy_hp`` HP."""
        if enemy_hp <= 0:
            return 1.0
        if hero_hp <= 0:
            return 0.0
        self._grow(hero_hp, enemy_hp)
        return self.first[hero_hp][enemy_hp]

    def _grow(self, hero_hp: int, enemy_hp: int) -> None:
        first, second = self.first, self.second
        rows, columns = len(first) - 1, len(first[0]) - 1
        if hero_hp <= rows and enemy_hp <= columns:
            return
        rows, columns = max(rows, hero_hp), max(columns, enemy_hp)
        if (rows + 1) * (columns + 1) > MAX_CELLS:
            from dedale.rules.odds_d20_attack import D20OddsTooLarge

            raise D20OddsTooLarge.states(MAX_CELLS)
        old_rows, old_columns = len(first) - 1, len(first[0]) - 1
        for table in (first, second):
            for row in table:
                row.extend([0.0] * (columns - old_columns))
            table.extend([[0.0] * (columns + 1) for _ in range(rows - old_rows)])
        strike, struck = self.strike, self.struck
        loop = 1.0 - self.stay_first * self.stay_second
        if loop <= 1e-15:
            raise endless_fight(MAX_ASSAULTS)
        strike_miss, struck_miss = strike.miss, struck.miss
        for h in range(1, rows + 1):
            top, low = first[h], second[h]
            for e in range(1, columns + 1):
                if h <= old_rows and e <= old_columns:
                    continue
                # the hero's half: his blow, or his miss and the enemy's riposte
                a = 0.0
                for damage, p in strike.hits:
                    a += p * (1.0 if damage >= e else low[e - damage])
                riposte = 0.0
                for damage, p in struck.hits:
                    if damage < h:
                        riposte += p * second[h - damage][e]
                a += strike_miss * riposte
                # the enemy's half: its blow, or its miss and the hero's riposte
                c = 0.0
                for damage, p in struck.hits:
                    if damage < h:
                        c += p * first[h - damage][e]
                back = 0.0
                for damage, p in strike.hits:
                    back += p * (1.0 if damage >= e else top[e - damage])
                c += struck_miss * back
                v = (a + self.stay_first * c) / loop
                top[e] = v
                low[e] = c + self.stay_second * v
