"""The Luck side of the exact odds with allies (:mod:`dedale.rules.odds_allies`): the enemy's
wound per whom the enemies strike, with the hero's Luck choices, and the best policy's
answer to the fight's ``use_luck`` question."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dedale.rules.odds import luck_gains

if TYPE_CHECKING:
    from dedale.rules.odds_allies import AllyTable


def wounded(ally: AllyTable, li: int, h: int, t: int, code: int, unhit: int, p: float, luck: int,
             low: int, q: float) -> list[tuple]:  # fmt: skip
    """The enemy's wound of the hero's part, per whom the enemies strike: [(modes,
    choices)] (struck ally, an ally standing: the ally takes it, no Luck)."""
    base, fight = ally.base, ally.fight
    d = base.to_hero
    shields = ally._shields(code)
    found = []
    for share, mode in ally.modes:
        if mode == "ally" and shields:
            found.append((((share, mode),), [[(p, li, h, t, unhit, d)]]))
            continue
        choices = [[(p, li, h - d, t, unhit, 0)]]
        table = fight.luck_wounded
        if base.use_luck and luck > 0 and table is not None:
            taken = fight.damage_to_hero
            lucky = max(0, d + table.lucky - taken)
            unlucky = max(0, d + table.unlucky - taken)
            choices.append([(p * q, low, h - lucky, t, unhit, 0),
                            (p * (1 - q), low, h - unlucky, t, unhit, 0)])  # fmt: skip
        found.append((((share, mode),), choices))
    return found


def tests_luck(
    ally: AllyTable, wound: str, damage: int, luck: int, h: int, enemy_index: int, enemy: int,
    allies: Sequence[int], unhit: bool,
) -> bool:  # fmt: skip
    """Whether the best policy tests Luck on this wound (the fight's ``use_luck``
    question, in the state before the wound; :meth:`solve` must have run): the
    simulations of the real fight code play the table's own choices with it."""
    base = ally.base
    after = sum(s for _, s, _ in base.enemies[enemy_index + 1 :])
    t = after + enemy
    code = ally._code(allies) if ally.tracked else 0
    li = luck if base.use_luck else 0
    low = max(0, li - base.luck_cost)
    q = base.p_lucky(luck)
    u = 1 if unhit and ally.hits == 2 else 0
    if wound == "dealt":
        table, dealt = ally.fight.luck_wounding, ally.fight.damage_to_enemy
        if table is None:
            return False
        lucky, unlucky = (max(0, damage + s - dealt) for s in (table.lucky, table.unlucky))
        plain = [(1.0, li, h, t - min(damage, enemy), 0, 0)]
        test = [
            (q, low, h, t - min(lucky, enemy), 0, 0),
            (1 - q, low, h, t - min(unlucky, enemy), 0, 0),
        ]
        modes = None  # whom the enemies strike is rolled after this wound
    else:
        table, taken = ally.fight.luck_wounded, ally.fight.damage_to_hero
        if table is None or damage <= 0:
            return False
        lucky, unlucky = (max(0, damage + s - taken) for s in (table.lucky, table.unlucky))
        plain = [(1.0, li, h - damage, t, u, 0)]
        test = [(q, low, h - lucky, t, u, 0), (1 - q, low, h - unlucky, t, u, 0)]
        # the hero takes the wound: the enemies strike him, or no ally stands (then
        # whom they strike changes nothing)
        modes = ((1.0, "hero"),)
    return luck_gains(ally._value(test, h, code, modes), ally._value(plain, h, code, modes))
