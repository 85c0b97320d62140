"""The states before the hero's first hit, filled in loops (issue 14.11: speed).

With a first-hit bonus (df48.5's Mercenaire) an :class:`~dedale.rules.odds.OddsTable` keeps
apart every state whose enemy has not been hit yet: (Luck, hero STAMINA) under the enemy's
untouched STAMINA. ``OddsTable.state_value`` reaches them one by one, recursively, through
the generic ``_moves`` (a tuple per move, the Luck options compared by ``_mean``); here
the same values are computed bottom-up, in plain loops, for the STAMINA and LUCK the hero
can fall to from the state asked (no more than a Luck test's least wound allows, and only
STAMINA of the same residue when no Luck is tested). Each value is the same expression as the
generic one, with the same products added in the same order (bit for bit:
``tests/rules/test_odds_prehit.py`` compares them on many settings); the values land in
the table's ``special`` memo, where the generic path and the forward pass read them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dedale.rules.odds import OddsTable


def applies(table: OddsTable) -> bool:
    """Whether the loops reproduce the generic moves of ``table``'s states before the
    first hit: both sides wound (a move never leads back to its own state)."""
    return bool(table.first_hit_bonus) and table.to_hero > 0 and table.to_enemy > 0


def fill(table: OddsTable, index: int, luck: int, h: int, e: int) -> None:
    """Put in ``table.special`` the value of every state (``index``, LUCK, STAMINA, ``e``,
    after the first assault, not hit yet) the state (``luck``, ``h``) can lead to: each LUCK
    the hero may have from ``luck`` (one Luck test lower each time, down to 0), with the
    STAMINA he may still have then."""
    from dedale.rules import odds

    special = table.special
    lucks = [luck]
    if table.use_luck:
        while lucks[-1] > 0:
            lucks.append(max(0, lucks[-1] - table.luck_cost))
    params = table.params[index]
    pk, ph, pe, pt = params.p_kill, params.p_hero, params.p_enemy, params.p_tie
    fight = table.fight
    wounding, wounded = fight.luck_wounding, fight.luck_wounded
    base_e, base_h = fight.damage_to_enemy, fight.damage_to_hero
    d_hero = table.to_enemy + table.first_hit_bonus  # the hero's first hit
    d_enemy = table.to_hero
    grid = table.grids[index]
    last = index + 1 >= len(table.enemies)
    following, next_e = (None, 0) if last else (table.grids[index + 1], table.enemies[index + 1][1])

    # without a Luck test on a wound the enemy takes the same STAMINA each time: only the
    # states h, h - d, h - 2d... can follow (every LUCK keeps that STAMINA's residue)
    step = 1 if table.use_luck and wounded is not None else d_enemy
    stay = 0.0
    if pt:
        stay += pt  # a tie leaves the state as it is
    # a Luck test on a wound costs at least this much STAMINA: after k of them no state
    # above h - k * least can be reached (the hero's own hits end these states)
    least = 0
    if wounded is not None:
        least = min(
            max(0, d_enemy + wounded.lucky - base_h), max(0, d_enemy + wounded.unlucky - base_h)
        )
    tie = odds.LUCK_TIE  # luck_gains(a, b) is a > b + tie * abs(b), inlined below
    # the enemy's STAMINA after the hero's first hit, plain, lucky and unlucky
    e_plain = e - d_hero
    if wounding is not None:
        e_lucky = e - max(0, d_hero + wounding.lucky - base_e)
        e_unlucky = e - max(0, d_hero + wounding.unlucky - base_e)
    if wounded is not None:  # the STAMINA the hero loses, lucky and unlucky
        h_lucky = max(0, d_enemy + wounded.lucky - base_h)
        h_unlucky = max(0, d_enemy + wounded.unlucky - base_h)
    for tests, lk in reversed(list(enumerate(lucks))):  # lowest LUCK first: read by the others
        top = h - tests * least
        low = max(0, lk - table.luck_cost)
        q = table.p_lucky(lk)
        q1 = 1 - q
        ph_q, ph_q1, pe_q, pe_q1 = ph * q, ph * q1, pe * q, pe * q1
        luck_hit = table.use_luck and lk and wounding is not None
        luck_hurt = table.use_luck and lk and wounded is not None
        rows, low_rows = grid[lk], grid[low]
        won = None if last else following[lk]  # the next enemy's grid at this LUCK
        low_won = None if last else following[low]
        for hh in range(top - (top - 1) // step * step, top + 1, step):
            key = (index, lk, hh, e, False, False)
            if key in special:
                continue
            total = 0
            if pk:
                total += pk * (1.0 if last else won[hh][next_e])
            if ph:
                plain = rows[hh][e_plain] if e_plain > 0 else 1.0 if last else won[hh][next_e]
                if luck_hit:
                    row = low_rows[hh]
                    after = 1.0 if last else low_won[hh][next_e]
                    v1 = row[e_lucky] if e_lucky > 0 else after
                    v2 = row[e_unlucky] if e_unlucky > 0 else after
                    if q * v1 + q1 * v2 > plain + tie * abs(plain):
                        total += ph_q * v1
                        total += ph_q1 * v2
                    else:
                        total += ph * plain
                else:
                    total += ph * plain
            if pe:
                s = hh - d_enemy
                plain = special[(index, lk, s, e, False, False)] if s > 0 else 0.0
                if luck_hurt:
                    s1, s2 = hh - h_lucky, hh - h_unlucky
                    v1 = special[(index, low, s1, e, False, False)] if s1 > 0 else 0.0
                    v2 = special[(index, low, s2, e, False, False)] if s2 > 0 else 0.0
                    if q * v1 + q1 * v2 > plain + tie * abs(plain):
                        total += pe_q * v1
                        total += pe_q1 * v2
                    else:
                        total += pe * plain
                else:
                    total += pe * plain
            special[key] = total / (1.0 - stay) if stay < 1.0 else 0.0
