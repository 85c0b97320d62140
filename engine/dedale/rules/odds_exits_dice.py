"""One assault of the exact odds with exits, from the dice (:mod:`dedale.rules.odds_exits`):
the chances that the hero kills (a double), wounds, ties or is wounded, for a lead over the
enemy; memoised, shared by every solver that builds on the exits DP."""

from __future__ import annotations

import functools

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.ruleset import OpposedFight


def plain_dice(fight: OpposedFight) -> tuple[int, int, int]:
    """The attack roll as ``(count, sides, constant)`` (N dice of S faces, plus a constant):
    refused unless it is a plain NdS roll of at most 4,096 faces' combinations."""
    dice = fight.dice
    assert dice is not None
    parts = dice.dice
    if len(parts) != 1 or parts[0].keep is not None or parts[0].sides ** parts[0].count > 4096:
        raise GameError(tr("exact odds with exits need a plain NdS attack roll"))
    count, sides = parts[0].count, parts[0].sides
    return count, sides, dice.max() - count * sides


@functools.lru_cache(maxsize=2048)
def assault_outcomes(
    fight: OpposedFight, lead: int, immune: bool, doubles: bool = True, number: type = float
) -> tuple[tuple[float, str, bool], ...]:
    """One assault's outcomes ``(p, winner, double)``: winner kill/hero/enemy/tie, double:
    the hero's roll was a double (every face the same); ``doubles=False``: the doubles
    that kill nothing are merged with the other rolls (nothing reads them). ``number``: the
    chances' type (``fractions.Fraction`` for the exact solve, :mod:`dedale.solve.exact_exits`);
    the same sums in the same order whatever it is."""
    dice = fight.dice
    count, sides, constant = plain_dice(fight)
    enemy = dice.distribution()
    lowest = min(enemy)
    zero = number(0)
    below = [zero]
    for total in range(lowest, max(enemy) + 1):
        below.append(below[-1] + number(enemy.get(total, 0)))

    def p_below(target: int) -> float:
        return below[min(max(target - lowest, 0), len(below) - 1)]

    found: dict[tuple[str, bool], float] = {}
    each = number(1) / sides**count
    for code in range(sides**count):
        faces = [(code // sides**i) % sides + 1 for i in range(count)]
        total = sum(faces) + constant
        double = count > 1 and len(set(faces)) == 1
        if double and fight.instant_kill_on_double and not immune:
            found["kill", True] = found.get(("kill", True), zero) + each
            continue
        lower, upto = p_below(lead + total), p_below(lead + total + 1)
        for winner, p in (("hero", lower), ("tie", upto - lower), ("enemy", 1 - upto)):
            if p > 0:
                found[winner, double] = found.get((winner, double), zero) + each * p
    if not doubles:
        merged: dict[tuple[str, bool], float] = {}
        for (winner, _double), p in found.items():
            key = (winner, winner == "kill")
            merged[key] = merged.get(key, zero) + p
        found = merged
    return tuple((p, winner, double) for (winner, double), p in found.items())
